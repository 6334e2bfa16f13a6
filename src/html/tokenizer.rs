//! The tokenizer's emitter: html5gum's WHATWG tokenizer, driven by our own
//! [`html5gum::Emitter`], which ignores text, comments and doctypes, keeps each start tag's name
//! and only the attributes that can hold a URL, and notes where each value lies in the text.
//! The reader that hands the tokenizer the text is [`input`].

use std::borrow::Cow;
use std::convert::Infallible;
use std::ops::Range;

use html5gum::{Emitter, Error, State};

use super::attributes::{ALT, HIDDEN, HTTP_EQUIV, SRCDOC, TITLE, may_be_kept, url_attribute};
use super::link_text::{OpenLink, collapse};
use super::microsyntax::for_each_url;
use super::tree::{
    ENCODING, Namespace, StartTagAttributes, Tree, element_name, is_font_breakout_attribute,
    is_html_encoding, raw_text_end, text_state,
};
use super::{BaseHref, FetchAttribute, HtmlUrl, UrlKind};
use crate::report::LinkText;
use crate::vocab::element;

mod input;

pub(super) use input::Input;

/// Appends a piece of a tag or attribute name. The tokenizer hands over a name with capitals
/// one lowercased byte at a time: pushed as a byte, not copied as a slice of unknown length
/// (a call to `memcpy` for each).
#[inline(always)]
fn push_name(name: &mut Vec<u8>, piece: &[u8]) {
    match piece {
        [byte] => name.push(*byte),
        _ => name.extend_from_slice(piece),
    }
}

/// One attribute of the current start tag that the scan keeps.
#[derive(Debug)]
struct KeptAttribute {
    /// Its name; [`HTTP_EQUIV`], [`ENCODING`], [`ALT`], [`TITLE`], [`HIDDEN`] or a name of
    /// [`URL_ATTRIBUTES`](super::attributes::URL_ATTRIBUTES).
    name: &'static str,
    /// How its value is read; `None` for the attributes that hold no URL.
    kind: Option<UrlKind>,
    /// The raw value's bytes in the text (quotes excluded); `None` for an attribute without a
    /// value (`<a href>`), which holds no URL.
    raw: Option<Range<usize>>,
    /// The decoded value's bytes in [`ScanState::values`], when it differs from the raw one.
    decoded: Option<Range<usize>>,
}

/// The `srcdoc` attribute of an `<iframe>` in the HTML namespace.
#[derive(Debug)]
pub(super) struct FoundSrcdoc {
    /// The raw value's bytes in the text (quotes excluded).
    pub raw: Range<usize>,
    /// The value as the tokenizer decoded it, when it held a character reference or NUL.
    pub decoded: Option<String>,
}

/// Everything the emitter keeps between calls.
#[derive(Debug, Default)]
pub(super) struct ScanState {
    /// Byte offset in the text of the next byte the tokenizer reads.
    position: usize,
    /// Name of the current tag, lowercase.
    tag: Vec<u8>,
    /// True when the current tag is a start tag.
    is_start_tag: bool,
    /// The current start tag has the self-closing flag.
    self_closing: bool,
    /// The name of the last start tag that switched the tokenizer to RCDATA, RAWTEXT or script
    /// data: within those states, the last start tag emitted (for an [appropriate end tag token](https://html.spec.whatwg.org/multipage/parsing.html#appropriate-end-tag-token)),
    /// which no other state asks for.
    last_start_tag: Vec<u8>,
    /// Name of the current attribute, lowercase.
    attribute: Vec<u8>,
    /// The `srcdoc` values of `<iframe>` start tags, in document order.
    pub(super) srcdocs: Vec<FoundSrcdoc>,
    /// True once the current attribute's name has been classified (at its value or its end).
    attribute_done: bool,
    /// True while the current attribute's decoded value is collected into `values`.
    collecting: bool,
    /// The attributes of the current start tag that the scan keeps.
    kept: Vec<KeptAttribute>,
    /// Decoded values of kept attributes whose raw value has character references.
    values: Vec<u8>,
    /// The namespace of the current start tag, once decided (at its first kept attribute,
    /// and again at its end when an attribute that tree construction reads came after).
    namespace: Option<Namespace>,
    /// What tree construction reads of the current start tag's attributes.
    tree_attributes: StartTagAttributes,
    /// The kept attribute names that `<body>` start tags have had so far: a later `<body>`
    /// adds only attributes the element lacks (the HTML Standard's ["in body"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inbody) insertion mode, "a start tag whose
    /// tag name is body").
    body_names: Vec<&'static str>,
    /// The elements open as tree construction would have them, as far as the scan needs.
    tree: Tree,
    /// What the scan found, in the order found.
    pub(super) urls: Vec<HtmlUrl>,
    /// The URLs of the current tag, before they go to `urls` (kept to reuse its allocation).
    pending: Vec<HtmlUrl>,
    /// How many URLs `urls` may hold.
    max_urls: usize,
    /// How many URLs were found once `urls` was full.
    pub(super) not_recorded: usize,
    /// True once a `<base href>` candidate is in `urls`.
    has_recorded_base: bool,
    /// The reference of the first `<base href>` candidate found once `urls` was full, when
    /// none is in `urls`.
    pub(super) unrecorded_base: Option<String>,
    /// Where the names of the current start tag's fetch attributes lie.
    fetch_names: Vec<Range<usize>>,
    /// The fetch attributes of start tags with recorded URLs.
    pub(super) fetch_attributes: Vec<FetchAttribute>,
    /// The `a` element whose text is being collected, from its start tag to its end.
    link: OpenLink,
    /// The tokenizer's position when it began the current tag, comment or doctype: a few
    /// bytes past its `<`.
    token_start: usize,
}

/// The [`Emitter`] that drives html5gum's tokenizer for the scan.
pub(super) struct UrlEmitter<'a> {
    /// The document.
    pub(super) text: &'a str,
    /// What the scan keeps between calls, and what it found.
    pub(super) state: &'a mut ScanState,
}

impl ScanState {
    /// The state before the first byte, recording at most `max_urls` URLs.
    pub(super) fn new(max_urls: usize) -> Self {
        ScanState {
            max_urls,
            ..ScanState::default()
        }
    }

    /// The raw range of the value whose first byte is at `start`: up to the closing quote for a
    /// quoted value, up to white space or `>` for an unquoted one (the HTML Standard's
    /// [attribute value states](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state)), or to the end of the text.
    fn raw_value(text: &str, start: usize) -> Range<usize> {
        let bytes = text.as_bytes();
        let rest = bytes.get(start..).unwrap_or_default();
        let len = match start.checked_sub(1).and_then(|i| bytes.get(i)) {
            Some(&quote @ (b'"' | b'\'')) => memchr::memchr(quote, rest),
            _ => rest
                .iter()
                .position(|b| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'>')),
        };
        start..start + len.unwrap_or(rest.len())
    }

    /// Classifies the current attribute by its name, once: a kept attribute is added to
    /// `kept`, unless one of the same name came before (the HTML Standard's [attribute name state](https://html.spec.whatwg.org/multipage/parsing.html#attribute-name-state): the first
    /// counts).
    ///
    /// Called for every attribute of every tag, most of which are passed over at once: that
    /// test is inlined into the tokenizer's states, and the rest is [`keep_attribute`](Self::keep_attribute).
    #[inline]
    fn classify_attribute(&mut self, value_start: Option<usize>, text: &str) {
        if self.attribute_done || !self.is_start_tag {
            return;
        }
        self.attribute_done = true;
        if may_be_kept(&self.attribute) {
            self.keep_attribute(value_start, text);
        }
        if self.tree.in_foreign_content() {
            self.note_tree_attribute(value_start, text);
        }
    }

    /// Notes where the name of the current attribute, a fetch attribute, lies: it ends before
    /// `value_start` (or, for an attribute without a value, before the tokenizer's position)
    /// with only `=`, a quote and white space between, or a byte the tokenizer read ahead. It
    /// is looked for in the [`FETCH_NAME_REACH`] bytes before: a name followed by more white
    /// space than that is not noted.
    fn note_fetch_attribute(&mut self, value_start: Option<usize>, text: &str) {
        let name = &self.attribute;
        let end = value_start.unwrap_or(self.position).min(text.len());
        let from = end.saturating_sub(FETCH_NAME_REACH + name.len());
        let window = text.as_bytes().get(from..end).unwrap_or_default();
        if let Some(at) = window
            .windows(name.len())
            .rposition(|w| w.eq_ignore_ascii_case(name))
        {
            self.fetch_names.push(from + at..from + at + name.len());
        }
    }

    /// Notes the current attribute when tree construction reads it: `color`, `face` or `size`
    /// on `<font>` (a breakout tag with them), `encoding` on `<annotation-xml>` (an HTML
    /// integration point with `text/html`). Both matter only in foreign content.
    #[inline(never)]
    fn note_tree_attribute(&mut self, value_start: Option<usize>, text: &str) {
        match &self.tag[..] {
            b"font" if is_font_breakout_attribute(&self.attribute) => {
                self.tree_attributes.has_font_breakout_attribute = true;
                // Decided without this attribute, the namespace is decided again at the end.
                self.namespace = None;
            }
            b"annotation-xml" if self.attribute == ENCODING.as_bytes() => {
                self.keep(ENCODING, None, value_start, text);
            }
            _ => {}
        }
    }

    /// Keeps the current attribute when it is one that what a reader sees of a link depends on:
    /// the `title` of an `a` or `area`, the `alt` of an `area` or of an `img` inside a link, a
    /// `hidden` attribute inside a link.
    fn note_text_attribute(&mut self, value_start: Option<usize>, text: &str) {
        let in_link = self.link.is_open();
        let name = match (&self.attribute[..], &self.tag[..]) {
            (b"title", b"a" | b"area") => TITLE,
            (b"alt", b"area") => ALT,
            (b"alt", b"img" | b"image") if in_link => ALT,
            (b"hidden", _) if in_link => HIDDEN,
            _ => return,
        };
        self.keep(name, None, value_start, text);
    }

    /// Adds the current attribute to `kept` when the scan keeps it (see
    /// [`classify_attribute`](Self::classify_attribute)).
    #[inline(never)]
    fn keep_attribute(&mut self, value_start: Option<usize>, text: &str) {
        // FETCH_ATTRIBUTES, spelt out so that the compiler tells them apart by length first.
        if matches!(&self.attribute[..], b"crossorigin" | b"integrity") {
            self.note_fetch_attribute(value_start, text);
            return;
        }
        // TEXT_ATTRIBUTES, likewise.
        if matches!(&self.attribute[..], b"alt" | b"title" | b"hidden") {
            self.note_text_attribute(value_start, text);
            return;
        }
        let namespace = self.namespace();
        let tag = element_name(&self.tag, namespace);
        let (name, mut kind) = if tag == b"meta" && self.attribute == HTTP_EQUIV.as_bytes() {
            (HTTP_EQUIV, None)
        } else if tag == b"iframe"
            && namespace == Namespace::Html
            && self.attribute == SRCDOC.as_bytes()
        {
            (SRCDOC, None)
        } else {
            match url_attribute(tag, &self.attribute, namespace) {
                Some(row) => (row.name, Some(row.kind)),
                None => return,
            }
        };
        if tag == b"body" && namespace == Namespace::Html && self.body_names.contains(&name) {
            // The body element has it from an earlier <body>: this one is dropped.
            kind = None;
        }
        self.keep(name, kind, value_start, text);
    }

    /// Adds the attribute `name`, read as `kind`, whose value starts at `value_start`, to
    /// `kept`, unless one of the same name came before; starts collecting its decoded value
    /// when it has character references.
    fn keep(
        &mut self,
        name: &'static str,
        kind: Option<UrlKind>,
        value_start: Option<usize>,
        text: &str,
    ) {
        if self.kept.iter().any(|kept| kept.name == name) {
            return;
        }
        let raw = value_start.map(|start| Self::raw_value(text, start));
        let needs_decoding = raw
            .as_ref()
            .and_then(|raw| text.as_bytes().get(raw.clone()))
            .is_some_and(|raw| memchr::memchr2(b'&', b'\0', raw).is_some());
        let decoded = if needs_decoding {
            self.collecting = true;
            Some(self.values.len()..self.values.len())
        } else {
            None
        };
        self.kept.push(KeptAttribute {
            name,
            kind,
            raw,
            decoded,
        });
    }

    /// Ends the current attribute.
    fn end_attribute(&mut self, text: &str) {
        self.classify_attribute(None, text);
        self.collecting = false;
        self.attribute.clear();
        self.attribute_done = false;
    }

    /// The value of a kept attribute: decoded when it had character references, else raw.
    fn value<'t>(&'t self, kept: &KeptAttribute, text: &'t str) -> Option<Cow<'t, str>> {
        match &kept.decoded {
            Some(decoded) => self
                .values
                .get(decoded.clone())
                .map(String::from_utf8_lossy),
            None => kept
                .raw
                .clone()
                .and_then(|raw| text.get(raw))
                .map(Cow::Borrowed),
        }
    }

    /// The namespace of the current start tag, decided once per tag (see
    /// [`Tree::start_tag_namespace`]).
    fn namespace(&mut self) -> Namespace {
        if let Some(namespace) = self.namespace {
            return namespace;
        }
        let namespace = self
            .tree
            .start_tag_namespace(&self.tag, self.tree_attributes);
        self.namespace = Some(namespace);
        namespace
    }

    /// The tree's bookkeeping at the end of a start tag; returns its namespace.
    fn open_element(&mut self, text: &str) -> Namespace {
        if self.tag == b"annotation-xml" {
            self.tree_attributes.has_html_encoding = self
                .kept
                .iter()
                .find(|kept| kept.name == ENCODING)
                .and_then(|kept| self.value(kept, text))
                .is_some_and(|value| is_html_encoding(&value));
        }
        let namespace = self
            .tree
            .open(&self.tag, self.tree_attributes, self.self_closing);
        self.namespace = Some(namespace);
        namespace
    }

    /// Records the URLs of the current start tag's kept attributes.
    fn start_tag_urls(&mut self, text: &str, namespace: Namespace) {
        let is_html = namespace == Namespace::Html;
        // The HTML Standard's refresh state: the `http-equiv` value is matched exactly, ASCII
        // case-insensitively, without trimming.
        let is_refresh = self.tag == b"meta"
            && self
                .kept
                .iter()
                .find(|kept| kept.name == HTTP_EQUIV)
                .and_then(|kept| self.value(kept, text))
                .is_some_and(|v| v.eq_ignore_ascii_case("refresh"));
        let tag = element(element_name(&self.tag, namespace));
        let mut found = std::mem::take(&mut self.pending);
        for kept in &self.kept {
            let (Some(kind), Some(raw)) = (kept.kind, kept.raw.clone()) else {
                continue;
            };
            if kind == UrlKind::Refresh && !is_refresh {
                continue;
            }
            let Some(value) = self.value(kept, text) else {
                continue;
            };
            let mappable = kept.decoded.is_none();
            // Inside `<template>` first: nothing there is the document's, whatever its
            // namespace.
            let base_href = if self.tag != b"base" || kept.name != "href" {
                BaseHref::No
            } else if self.tree.in_template() {
                BaseHref::InTemplate
            } else if !is_html {
                BaseHref::Foreign
            } else {
                BaseHref::Candidate
            };
            for_each_url(kind, &value, |range, reference| {
                let range = if mappable {
                    raw.start + range.start..raw.start + range.end
                } else {
                    raw.clone()
                };
                found.push(HtmlUrl {
                    tag: tag.clone(),
                    attribute: Some(kept.name),
                    decoded: unless_at(text, &range, reference),
                    range: range.into(),
                    base_href,
                    kind,
                    value: Some(raw.clone().into()),
                    document: 0,
                    link: None,
                });
            });
        }
        for url in found.drain(..) {
            self.record(url, text);
        }
        self.pending = found;
        if self.tag == b"body" && is_html {
            for kept in &self.kept {
                if !self.body_names.contains(&kept.name) {
                    self.body_names.push(kept.name);
                }
            }
        }
    }

    /// Ties the fetch attributes of the current start tag to its URLs, those of `urls` from
    /// index `recorded` on; a tag whose URLs were not recorded has none tied.
    #[inline(never)]
    fn tie_fetch_attributes(&mut self, recorded: usize) {
        let starts = self.urls.get(recorded..).unwrap_or_default();
        if let (Some(first), Some(last)) = (starts.first(), starts.last()) {
            let urls = first.range.start..last.range.start + 1;
            for name in self.fetch_names.drain(..) {
                self.fetch_attributes.push(FetchAttribute {
                    name,
                    urls: urls.clone(),
                });
            }
        }
    }

    /// Notes the `srcdoc` value of the current `<iframe>` start tag, if it has one.
    #[inline(never)]
    fn note_srcdoc(&mut self) {
        let Some(kept) = self.kept.iter().find(|kept| kept.name == SRCDOC) else {
            return;
        };
        let Some(raw) = kept.raw.clone() else {
            return;
        };
        let decoded = kept.decoded.clone().map(|decoded| {
            String::from_utf8_lossy(self.values.get(decoded).unwrap_or_default()).into_owned()
        });
        self.srcdocs.push(FoundSrcdoc { raw, decoded });
    }

    /// The value of the kept attribute `name` of the current tag when the tag has it (empty
    /// for an attribute written without a value).
    fn kept_value<'t>(&'t self, name: &str, text: &'t str) -> Option<Cow<'t, str>> {
        let kept = self.kept.iter().find(|kept| kept.name == name)?;
        Some(self.value(kept, text).unwrap_or_default())
    }

    /// What the current start tag, of an element in `namespace`, does to the link whose text
    /// is being collected: it may end it, hide what follows, separate words, or add an
    /// image's `alt`.
    #[inline(never)]
    fn link_start_tag(&mut self, text: &str, namespace: Namespace) {
        let is_html = namespace == Namespace::Html;
        let tag = element_name(&self.tag, namespace);
        let hidden = self.kept.iter().any(|kept| kept.name == HIDDEN);
        let alt = if is_html && tag == b"img" {
            self.kept_value(ALT, text).map(Cow::into_owned)
        } else {
            None
        };
        let ends = self
            .link
            .start_tag(tag, is_html, self.self_closing, hidden, alt.as_deref());
        if ends {
            self.close_link();
        }
    }

    /// Starts collecting the text of the `a` start tag just read, whose URLs are those of
    /// `urls` from index `recorded` on; for an `area`, whose text is its `alt`, sets it at
    /// once. Nothing when its `href` was not recorded.
    #[inline(never)]
    fn open_link(&mut self, text: &str, recorded: usize) {
        let Some(at) = self
            .urls
            .get(recorded..)
            .and_then(|urls| urls.iter().position(|url| url.attribute == Some("href")))
            .map(|at| recorded + at)
        else {
            return;
        };
        let title = self.kept_value(TITLE, text).map(|title| collapse(&title));
        if self.tag == b"area" {
            let link = LinkText {
                text: collapse(&self.kept_value(ALT, text).unwrap_or_default()),
                title,
                text_host_differs: false,
            };
            if let Some(url) = self.urls.get_mut(at) {
                url.link = Some(Box::new(link));
            }
            return;
        }
        self.link.open(at, title);
    }

    /// Hands the open link the text from where its text resumed to the `<` that starts the
    /// token just read (a tag, a comment, a doctype): the last `<` before `token_start`, where
    /// the tokenizer had read at most the few characters that tell the token's kind. A `</x`
    /// that turns out to be text (in RCDATA) starts no token that is read, so it stays in the
    /// text that follows.
    #[inline(never)]
    fn link_text_before_token(&mut self, text: &str) {
        let end = self.token_start.min(text.len());
        let from = self.link.text_from().min(end);
        let window = text.as_bytes().get(from..end).unwrap_or_default();
        if let Some(at) = memchr::memrchr(b'<', window) {
            self.link
                .text(text.get(from..from + at).unwrap_or_default());
        }
    }

    /// A comment or a doctype was read: inside a link, the text before it is the link's, and
    /// the link's text goes on after it.
    fn link_token_read(&mut self, text: &str) {
        if self.link.is_open() {
            self.link_text_before_token(text);
            self.link.text_resumes_at(self.position);
        }
    }

    /// At the end of the document: hands an open link the rest of the text, and closes it.
    pub(super) fn close_link_at_end(&mut self, text: &str) {
        if self.link.is_open() {
            let from = self.link.text_from().min(text.len());
            self.link.text(text.get(from..).unwrap_or_default());
        }
        self.close_link();
    }

    /// Ends the link being collected, if any, and gives its URL the text.
    pub(super) fn close_link(&mut self) {
        if let Some((at, link)) = self.link.close()
            && let Some(url) = self.urls.get_mut(at)
        {
            url.link = Some(Box::new(link));
        }
    }

    /// Records the CSS URLs of a `<style>` element whose text starts at `start`.
    fn style_urls(&mut self, text: &str, start: usize) {
        let end = raw_text_end(text, start, b"style");
        let css = text.get(start..end).unwrap_or_default();
        let mut found = std::mem::take(&mut self.pending);
        for_each_url(UrlKind::StyleElement, css, |range, reference| {
            let range = start + range.start..start + range.end;
            found.push(HtmlUrl {
                tag: Cow::Borrowed("style"),
                attribute: None,
                decoded: unless_at(text, &range, reference),
                range: range.into(),
                base_href: BaseHref::No,
                kind: UrlKind::StyleElement,
                value: None,
                document: 0,
                link: None,
            });
        });
        for url in found.drain(..) {
            self.record(url, text);
        }
        self.pending = found;
    }

    /// Adds `url` to `urls` unless it is full; counts it otherwise, keeping the reference of
    /// the first `<base href>` candidate when none was recorded.
    fn record(&mut self, url: HtmlUrl, text: &str) {
        if self.urls.len() < self.max_urls {
            self.has_recorded_base |= url.is_base_candidate();
            self.urls.push(url);
            return;
        }
        self.not_recorded += 1;
        if url.is_base_candidate() && !self.has_recorded_base && self.unrecorded_base.is_none() {
            self.unrecorded_base = Some(url.reference(text).to_owned());
        }
    }
}

/// How far before a fetch attribute's value (or the tokenizer's position) its name is looked
/// for, in bytes, beyond the name's own length.
const FETCH_NAME_REACH: usize = 256;

/// `reference` when it differs from the text at `range`, else `None` (see
/// [`HtmlUrl::reference`]).
fn unless_at(text: &str, range: &Range<usize>, reference: Cow<'_, str>) -> Option<Box<str>> {
    if text.get(range.clone()) == Some(reference.as_ref()) {
        None
    } else {
        Some(reference.into_owned().into_boxed_str())
    }
}

impl Emitter for UrlEmitter<'_> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.state.last_start_tag.clear();
        self.state
            .last_start_tag
            .extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        let text = self.text;
        self.state.close_link_at_end(text);
    }

    fn emit_error(&mut self, _: Error) {}

    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    #[inline]
    fn emit_string(&mut self, _: &[u8]) {}

    fn init_start_tag(&mut self) {
        let state = &mut *self.state;
        state.token_start = state.position;
        state.tag.clear();
        state.is_start_tag = true;
        state.self_closing = false;
        state.namespace = None;
        state.tree_attributes = StartTagAttributes::default();
        state.kept.clear();
        state.values.clear();
        state.attribute.clear();
        state.attribute_done = false;
        state.collecting = false;
        state.fetch_names.clear();
    }

    fn init_end_tag(&mut self) {
        let state = &mut *self.state;
        state.token_start = state.position;
        state.tag.clear();
        state.is_start_tag = false;
        state.kept.clear();
        state.attribute.clear();
        state.collecting = false;
    }

    fn init_comment(&mut self) {
        self.state.token_start = self.state.position;
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        let text = self.text;
        let state = &mut *self.state;
        state.end_attribute(text);
        if state.link.is_open() {
            state.link_text_before_token(text);
        }
        if !state.is_start_tag {
            state.tree.close(&state.tag);
            if state.link.is_open() && state.link.end_tag(&state.tag) {
                state.close_link();
            }
            state.link.text_resumes_at(state.position);
            return None;
        }
        let namespace = state.open_element(text);
        let is_html = namespace == Namespace::Html;
        if state.link.is_open() {
            state.link_start_tag(text, namespace);
        }
        if !state.kept.is_empty() || (state.tag == b"body" && is_html) {
            let recorded = state.urls.len();
            state.start_tag_urls(text, namespace);
            if !state.fetch_names.is_empty() {
                state.tie_fetch_attributes(recorded);
            }
            if is_html && state.tag == b"iframe" {
                state.note_srcdoc();
            }
            if is_html && matches!(&state.tag[..], b"a" | b"area") {
                state.open_link(text, recorded);
            }
        }
        state.link.text_resumes_at(state.position);
        let is_style = state.tag == b"style" && (is_html || !state.self_closing);
        if is_style {
            state.style_urls(text, state.position);
        }
        if !is_html {
            return None;
        }
        let next = text_state(&state.tag);
        // Only the end tag states of RCDATA, RAWTEXT and script data ask whether an end tag
        // is appropriate, and the tokenizer reaches them only through the state returned
        // here: so the last start tag is noted when it switches the state, and every other
        // start tag is spared the copy of its name.
        if next.is_some() {
            state.last_start_tag.clear();
            state.last_start_tag.extend_from_slice(&state.tag);
        }
        next
    }

    fn emit_current_comment(&mut self) {
        self.state.link_token_read(self.text);
    }

    fn emit_current_doctype(&mut self) {
        self.state.link_token_read(self.text);
    }

    fn set_self_closing(&mut self) {
        self.state.self_closing = true;
    }

    fn set_force_quirks(&mut self) {}

    #[inline]
    fn push_tag_name(&mut self, s: &[u8]) {
        push_name(&mut self.state.tag, s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {
        self.state.token_start = self.state.position;
    }

    fn init_attribute(&mut self) {
        let text = self.text;
        self.state.end_attribute(text);
    }

    fn init_attribute_value(&mut self) {
        let text = self.text;
        let start = self.state.position;
        self.state.classify_attribute(Some(start), text);
    }

    #[inline]
    fn push_attribute_name(&mut self, s: &[u8]) {
        push_name(&mut self.state.attribute, s);
    }

    #[inline]
    fn push_attribute_value(&mut self, s: &[u8]) {
        let state = &mut *self.state;
        if state.collecting {
            state.values.extend_from_slice(s);
            if let Some(decoded) = state.kept.last_mut().and_then(|k| k.decoded.as_mut()) {
                decoded.end = state.values.len();
            }
        }
    }

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        !self.state.is_start_tag
            && !self.state.last_start_tag.is_empty()
            && self.state.tag == self.state.last_start_tag
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&mut self) -> bool {
        self.state.tree.in_foreign_content()
    }

    /// Called for every run of bytes the tokenizer reads. The position stays within the text:
    /// the tokenizer moves back only over bytes it has read. Were it ever to leave the text,
    /// the ranges built from it would not index the text, and every use of one goes through
    /// `get`; so the cheaper wrapping addition serves as well as a saturating one.
    #[inline]
    fn move_position(&mut self, offset: isize) {
        self.state.position = self.state.position.wrapping_add_signed(offset);
    }
}

#[cfg(test)]
mod tests;
