//! The HTML scan: the first `<base href>` and every URL of the document, with its byte range
//! in the decoded body: URL attributes, each `srcset` candidate, `<meta http-equiv=refresh>`,
//! CSS `url(…)` in `style` attributes and `<style>` elements, and all of these inside
//! `<noscript>`.
//!
//! # Tokenizing
//!
//! Tokenizing is `html5gum`'s (a WHATWG tokenizer that passes the html5lib tokenizer tests, with
//! no unsafe code and no dependencies), driven by our own [`html5gum::Emitter`]: it ignores
//! text, comments and doctypes, keeps each start tag's name and only the attributes that can
//! hold a URL (the table [`URL_ATTRIBUTES`]), and notes where each value lies in the text, so
//! that every range indexes the same decoded text that [`rewrite`](crate::rewrite()) edits.
//! Character references in attribute values are decoded by the tokenizer, as the HTML
//! standard's attribute value states say (§13.2.5.36–38). Text, which the emitter ignores, is
//! handed to the tokenizer a whole run at a time (see [`Input`]).
//!
//! Why html5gum and not `lol_html` (which this scan used before): `lol_html` is a rewriter, and
//! even with an empty `element!("*")` handler it lexes every tag and builds its element objects;
//! narrower selectors are slower, not faster, because any selector that needs attributes lexes
//! every tag. Over the decoded text of the 5,189 HTML parts of the test corpus (32.4 MB),
//! measured side by side: `lol_html` with an empty handler 1.00×, the `lol_html` scan 0.53–0.60×,
//! html5gum with this kind of emitter 1.53–1.57×, and html5gum with the URL rules 0.92–0.93×
//! (1.64–1.74× the `lol_html` scan). `lol_html` also parses as a browser with scripting enabled
//! and shows `<noscript>` content as text, which had to be scanned again in a second pass.
//!
//! # Tree construction, as far as the scan needs it
//!
//! A tokenizer alone does not know when text is raw: that is decided by tree construction. The
//! emitter switches states by the HTML standard's table for elements in the HTML namespace
//! (§13.2.6.4.7 "in body", §13.2.6.4.4 "in head"), with **scripting disabled**, as mail clients
//! render: `title` and `textarea` are RCDATA; `style`, `xmp`, `iframe`, `noembed` and `noframes`
//! are RAWTEXT; `script` is script data; `plaintext` is PLAINTEXT; `noscript` content is
//! markup, so its links count, in the same single pass.
//!
//! Foreign content (§13.2.6.5) is tracked with a stack of the elements opened inside `<svg>` or
//! `<math>`: there no state switching applies, CDATA sections are recognised, a "breakout" start
//! tag (`<p>`, `<div>`, …) returns to HTML, and HTML integration points (`foreignObject`,
//! `desc`, `title`; `mi`, `mo`, `mn`, `ms`, `mtext`) hold HTML again. Only a `<base>` in the
//! HTML namespace, outside `<template>`, can be the document's base (HTML standard §4.2.3). This
//! is the part of tree construction the scan needs, not all of it: misnested end tags that the
//! adoption agency algorithm would reorder are taken as written.

use std::borrow::Cow;
use std::convert::Infallible;
use std::ops::Range;

use html5gum::{Emitter, Error, Readable, Reader, State, StringReader, Tokenizer};
use memchr::memmem;

use crate::css;
use crate::report::ByteRange;

/// How the value of a URL-bearing attribute is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlKind {
    /// The whole value of a URL attribute (`href`, `src`, …).
    Attribute,
    /// One candidate of a `srcset` value.
    Srcset,
    /// One URL of a `ping` value (HTML standard §4.6.5: a set of space-separated tokens).
    Ping,
    /// The URL of a `<meta http-equiv=refresh content>` value.
    Refresh,
    /// A CSS `url()` in a `style` attribute.
    StyleAttribute,
    /// A CSS `url()` in the text of a `<style>` element.
    StyleElement,
}

/// The namespaces a row of [`URL_ATTRIBUTES`] applies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum In {
    /// Any namespace: the element's local name decides.
    Any,
    /// The SVG namespace only.
    Svg,
}

/// The namespace of an element (HTML standard §2.1.3, §13.2.6.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Namespace {
    Html,
    Svg,
    MathMl,
}

/// One attribute that can hold URLs: its name, the elements it holds them on (empty: any
/// element), the namespace, and how its value is read. Sources: the HTML standard's
/// attribute index, HTML 4.01's `%URI` attributes, and SVG 2's `href` (with the deprecated
/// `xlink:href`) on the elements that load what it points to.
pub(crate) struct UrlAttribute {
    /// The attribute's name, lowercase (as the tokenizer gives it).
    pub name: &'static str,
    /// The elements on which it holds URLs (local names as tree construction gives them, see
    /// [`element_name`]: lowercase, SVG's in camel case); empty for every element.
    pub elements: &'static [&'static str],
    /// The namespace it applies in.
    pub namespace: In,
    /// How the value is read.
    pub kind: UrlKind,
}

/// Every attribute the scan reads URLs from. Adding a row is all it takes to scan another
/// attribute.
pub(crate) const URL_ATTRIBUTES: &[UrlAttribute] = &[
    UrlAttribute {
        name: "href",
        elements: &["a", "area", "link", "base"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "src",
        elements: &[
            "img", "script", "iframe", "frame", "embed", "input", "source", "track", "audio",
            "video",
        ],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "action",
        elements: &["form"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "formaction",
        elements: &["button", "input"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "cite",
        elements: &["blockquote", "q", "del", "ins"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "background",
        elements: &["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "longdesc",
        elements: &[],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "usemap",
        elements: &[],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "data",
        elements: &["object"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "codebase",
        elements: &["object"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "poster",
        elements: &["video"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "manifest",
        elements: &["html"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "profile",
        elements: &["head"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "srcset",
        elements: &["img", "source"],
        namespace: In::Any,
        kind: UrlKind::Srcset,
    },
    UrlAttribute {
        name: "imagesrcset",
        elements: &["link"],
        namespace: In::Any,
        kind: UrlKind::Srcset,
    },
    UrlAttribute {
        name: "ping",
        elements: &["a", "area"],
        namespace: In::Any,
        kind: UrlKind::Ping,
    },
    UrlAttribute {
        name: "href",
        elements: &["image", "use", "feImage"],
        namespace: In::Svg,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "xlink:href",
        elements: &["a", "image", "use", "feImage"],
        namespace: In::Svg,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "content",
        elements: &["meta"],
        namespace: In::Any,
        kind: UrlKind::Refresh,
    },
    UrlAttribute {
        name: "style",
        elements: &[],
        namespace: In::Any,
        kind: UrlKind::StyleAttribute,
    },
];

/// The attribute that makes a `<meta content>` a refresh (HTML standard §4.2.5.3).
const HTTP_EQUIV: &str = "http-equiv";

/// A quick filter on attribute names, built from [`URL_ATTRIBUTES`] and [`HTTP_EQUIV`] at
/// compile time: bit `first byte % 32` of entry `length % 16` is set for every name the scan
/// keeps. Most attributes (`class`, `width`, `id`, …) fail it, and the table is not searched.
const NAME_FILTER: [u32; 16] = name_filter();

// Indexing in a `const fn` runs at compile time: out of bounds would fail the build, and
// `%` keeps every index in bounds.
#[allow(clippy::indexing_slicing)]
const fn name_filter() -> [u32; 16] {
    let mut filter = [0u32; 16];
    let mut i = 0;
    while i <= URL_ATTRIBUTES.len() {
        let name = if i < URL_ATTRIBUTES.len() {
            URL_ATTRIBUTES[i].name.as_bytes()
        } else {
            HTTP_EQUIV.as_bytes()
        };
        filter[name.len() % 16] |= 1 << (name[0] % 32);
        i += 1;
    }
    filter
}

/// False when no name the scan keeps can be `attribute` (see [`NAME_FILTER`]).
fn may_be_kept(attribute: &[u8]) -> bool {
    attribute.first().is_some_and(|&first| {
        NAME_FILTER
            .get(attribute.len() % 16)
            .is_some_and(|bits| bits & (1 << (first % 32)) != 0)
    })
}

/// The row of [`URL_ATTRIBUTES`] for `attribute` on `tag` (both lowercase) in `namespace`,
/// if any.
fn url_attribute(
    tag: &[u8],
    attribute: &[u8],
    namespace: Namespace,
) -> Option<&'static UrlAttribute> {
    URL_ATTRIBUTES.iter().find(|row| {
        row.name.as_bytes() == attribute
            && (row.namespace == In::Any || namespace == Namespace::Svg)
            && (row.elements.is_empty() || row.elements.iter().any(|e| e.as_bytes() == tag))
    })
}

/// The element's name as the HTML standard's tree construction gives it: an HTML `image`
/// start tag makes an `img` element (§13.2.6.4.7), and SVG names have their camel case back
/// (§13.2.6.5, "adjust SVG tag names"; only those of SVG elements that hold URLs here).
fn element_name(tag: &[u8], namespace: Namespace) -> &[u8] {
    match (namespace, tag) {
        (Namespace::Html, b"image") => b"img",
        (Namespace::Svg, b"feimage") => b"feImage",
        _ => tag,
    }
}

/// One URL found in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HtmlUrl {
    /// The element's local name (see [`element_name`]), from [`ELEMENT_NAMES`] when it is
    /// there (no allocation), else owned.
    pub tag: Cow<'static, str>,
    /// The attribute, lowercase; `None` for the text of a `<style>` element.
    pub attribute: Option<&'static str>,
    /// The URL's bytes in the decoded body. When the attribute value contains a character
    /// reference (`&`) or a NUL, offsets inside it cannot be mapped and this is the whole raw
    /// value.
    pub range: ByteRange,
    /// The URL entity-decoded and trimmed of ASCII white space, when it differs from the text
    /// at [`range`](Self::range); `None` when the text there is the reference (most URLs), so
    /// that the scan keeps no copy of it. [`HtmlUrl::reference`] gives it either way.
    decoded: Option<Box<str>>,
    /// True for the `href` of a `<base>` in the HTML namespace, outside `<template>`.
    is_base_candidate: bool,
    /// Where it sits.
    pub kind: UrlKind,
    /// For a URL in an attribute: the raw value's bytes in the decoded body (quotes
    /// excluded); `None` in a `<style>` element.
    pub value: Option<ByteRange>,
}

impl HtmlUrl {
    /// The URL entity-decoded and trimmed of ASCII white space (CSS escapes undone in CSS);
    /// `text` is the document that was scanned.
    pub fn reference<'t>(&'t self, text: &'t str) -> &'t str {
        match &self.decoded {
            Some(decoded) => decoded,
            None => text
                .get(self.range.start..self.range.end)
                .unwrap_or_default(),
        }
    }
}

/// What the scan found.
#[derive(Debug, Default)]
pub(crate) struct HtmlScan {
    /// The first URLs in document order (by byte offset), `<base href>` included, at most as
    /// many as the scan was asked to record.
    pub urls: Vec<HtmlUrl>,
    /// Index into `urls` of the first `<base>` with an `href`, in the HTML namespace and not
    /// inside `<template>` (HTML standard §4.2.3).
    pub base: Option<usize>,
    /// How many URLs were found past the number asked for, and not recorded.
    pub not_recorded: usize,
    /// The reference of that first `<base href>` when it came past the number asked for (and
    /// so is not in `urls`): it is still the document's base.
    pub unrecorded_base: Option<String>,
    /// Set when the document was not tokenized because one tag holds more double-quoted
    /// attribute values than [`MAX_QUOTED_VALUES_PER_TAG`]: the number found in that tag.
    pub not_scanned: Option<usize>,
}

impl HtmlScan {
    /// The reference of the document's first `<base href>`, recorded or not; `text` is the
    /// document that was scanned.
    pub fn base_reference<'t>(&'t self, text: &'t str) -> Option<&'t str> {
        match self.base.and_then(|i| self.urls.get(i)) {
            Some(base) => Some(base.reference(text)),
            None => self.unrecorded_base.as_deref(),
        }
    }
}

/// The most double-quoted attribute values one tag may hold for the document to be scanned.
///
/// html5gum 0.9 goes from the double-quoted attribute value state to the next attribute by a
/// direct call rather than by returning to its loop, so the stack grows by one frame (about
/// 300 bytes in a release build) per double-quoted value until the tag ends: 300,000 values
/// in one tag (a 3.5 MB message) overflowed an 8 MiB stack and aborted the process. No real
/// tag comes near this bound, which keeps the depth to a few hundred kilobytes, well inside
/// the 2 MiB of a spawned thread's default stack. A document over it is not scanned, and the
/// caller reports that with a diagnostic.
pub(crate) const MAX_QUOTED_VALUES_PER_TAG: usize = 1_000;

/// Scans an HTML document (already decoded to UTF-8). Total: every input gives a result, in
/// one pass, in time linear in its length. A document with a tag of more than
/// [`MAX_QUOTED_VALUES_PER_TAG`] double-quoted attribute values is not tokenized (see there):
/// the result is empty, with [`HtmlScan::not_scanned`] set.
///
/// At most `max_urls` URLs are recorded; the scan goes on past them, counting the others
/// ([`HtmlScan::not_recorded`]) and still finding the first `<base href>`.
pub(crate) fn scan(html: &str, max_urls: usize) -> HtmlScan {
    if let Some(count) = too_many_quoted_values(html.as_bytes()) {
        return HtmlScan {
            not_scanned: Some(count),
            ..HtmlScan::default()
        };
    }
    let mut state = ScanState {
        max_urls,
        ..ScanState::default()
    };
    let emitter = UrlEmitter {
        text: html,
        state: &mut state,
    };
    // Reading from a `&str` cannot fail: the error type is `Infallible`.
    let _: Result<(), Infallible> =
        Tokenizer::new_with_emitter(Input(html.as_bytes()), emitter).finish();
    let mut urls = state.urls;
    // The URLs come in document order as the tokenizer meets them; the sort is a safeguard,
    // skipped when they already are (a stable sort takes a scratch buffer of up to half the
    // list's size even then).
    if !urls.is_sorted_by_key(|url| url.range.start) {
        urls.sort_by_key(|url| url.range.start);
    }
    let base = urls.iter().position(|url| url.is_base_candidate);
    HtmlScan {
        urls,
        base,
        not_recorded: state.not_recorded,
        unrecorded_base: state.unrecorded_base,
        not_scanned: None,
    }
}

/// The text, as the tokenizer reads it: html5gum's own reader (`StringReader`), except in the
/// states that read text (data and RCDATA), where it hands over the whole run of text up to
/// the next `<` at once.
///
/// Those states stop at `&` (a character reference), CR (newline normalization) and NUL as
/// well, but only to change the text, which the emitter ignores: a character reference never
/// takes in a `<`, so tags start where they would. Mail's HTML stops there often (CRLF ends
/// every short line, `&nbsp;` is everywhere), and each stop is a round through html5gum's
/// state machine: over the bench corpus the data state took 351 M of 2,161 M instructions
/// of a one-job scan. The states are told apart by what they stop at (`read_until`'s
/// needle), `&`, `<` and NUL, plus the CR the tokenizer adds; every other state, attribute
/// values included, reads through html5gum's own reader, unchanged.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    /// What the data and RCDATA states stop at (HTML standard §13.2.5.1, §13.2.5.2), as
    /// html5gum 0.9 asks for it.
    const TEXT_STOPS: &'static [u8] = b"&<\0\r";
}

impl Reader for Input<'_> {
    type Error = Infallible;

    #[inline(always)]
    fn read_byte(&mut self) -> Result<Option<u8>, Infallible> {
        let Some((&byte, rest)) = self.0.split_first() else {
            return Ok(None);
        };
        self.0 = rest;
        Ok(Some(byte))
    }

    #[inline(always)]
    fn try_read_string(&mut self, s: &[u8], case_sensitive: bool) -> Result<bool, Infallible> {
        self.0
            .to_reader()
            .try_read_string(s, case_sensitive)
            .inspect(|&read| {
                if read {
                    self.0 = self.0.get(s.len()..).unwrap_or_default();
                }
            })
    }

    #[inline(always)]
    fn read_until<'b>(
        &'b mut self,
        needle: &[u8],
        char_buf: &'b mut [u8; 4],
    ) -> Result<Option<&'b [u8]>, Infallible> {
        if self.0.is_empty() {
            return Ok(None);
        }
        let length = if needle == Self::TEXT_STOPS {
            // At least one byte: a `<` alone when it comes first.
            memchr::memchr(b'<', self.0).map_or(self.0.len(), |at| at.max(1))
        } else {
            let mut inner: StringReader<'_> = self.0.to_reader();
            inner.read_until(needle, char_buf)?.map_or(0, <[u8]>::len)
        };
        let (chunk, rest) = self.0.split_at(length.min(self.0.len()));
        self.0 = rest;
        Ok(Some(chunk))
    }
}

/// The number of double-quoted attribute values in the first tag that holds more than
/// [`MAX_QUOTED_VALUES_PER_TAG`] of them, or `None` when no tag does.
///
/// It follows the tokenizer's tag states only as far as the bound needs, and errs towards
/// counting more: a tag starts at `<` followed by an ASCII letter or `/` (also inside raw
/// text, where the tokenizer sees no tag), a value is double-quoted when `"` follows `=` and
/// optional white space, a quoted value runs to its closing quote, and the tag ends at the
/// first `>` outside a quoted value. Documents with fewer double quotes than twice the bound
/// are passed after one `memchr` count.
fn too_many_quoted_values(html: &[u8]) -> Option<usize> {
    if memchr::memchr_iter(b'"', html).count() / 2 <= MAX_QUOTED_VALUES_PER_TAG {
        return None;
    }
    quoted_values_over(html, MAX_QUOTED_VALUES_PER_TAG)
}

/// The number of double-quoted attribute values in the first tag that holds more than `most`
/// of them (see [`too_many_quoted_values`] for what counts as a tag and a value). Text, the
/// inside of a tag and quoted values are each crossed with one `memchr` search, not a byte at
/// a time: the documents that get here are the large ones.
fn quoted_values_over(html: &[u8], most: usize) -> Option<usize> {
    let is_space = |b: &u8| matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ');
    // The offset just past the first `b` at or after `from`, if any.
    let past = |from: usize, b: u8| memchr::memchr(b, html.get(from..)?).map(|at| from + at + 1);
    let mut at = 0;
    'text: loop {
        // Text: a tag starts at `<` followed by an ASCII letter or `/`, which it takes in.
        let open = past(at, b'<')?;
        let &first = html.get(open)?;
        if !(first.is_ascii_alphabetic() || first == b'/') {
            at = open;
            continue;
        }
        at = open + 1;
        let mut count = 0;
        loop {
            // Inside the tag: up to its end or an `=`.
            let found = at + memchr::memchr2(b'>', b'=', html.get(at..)?)?;
            at = found + 1;
            if html.get(found) == Some(&b'>') {
                continue 'text;
            }
            // After `=`: white space, then the value.
            at += html.get(at..)?.iter().take_while(|b| is_space(b)).count();
            let value = *html.get(at)?;
            at += 1;
            match value {
                b'"' => {
                    count += 1;
                    if count > most {
                        return Some(count);
                    }
                    at = past(at, b'"')?;
                }
                b'\'' => at = past(at, b'\'')?,
                b'>' => continue 'text,
                _ => {
                    // Unquoted: to white space (still in the tag) or `>` (the tag's end).
                    let end = at
                        + html
                            .get(at..)?
                            .iter()
                            .position(|b| is_space(b) || *b == b'>')?;
                    at = end + 1;
                    if html.get(end) == Some(&b'>') {
                        continue 'text;
                    }
                }
            }
        }
    }
}

/// An element open inside foreign content (see the module docs).
#[derive(Debug)]
struct OpenElement {
    /// Local name, lowercase.
    name: Box<[u8]>,
    /// SVG or MathML, or HTML (inside an integration point).
    namespace: Namespace,
}

impl OpenElement {
    fn is_foreign(&self) -> bool {
        self.namespace != Namespace::Html
    }
}

/// One attribute of the current start tag that the scan keeps.
#[derive(Debug)]
struct KeptAttribute {
    /// Its name; [`HTTP_EQUIV`] or a name of [`URL_ATTRIBUTES`].
    name: &'static str,
    /// How its value is read; `None` for `http-equiv`.
    kind: Option<UrlKind>,
    /// The raw value's bytes in the text (quotes excluded); `None` for an attribute without a
    /// value (`<a href>`), which holds no URL.
    raw: Option<Range<usize>>,
    /// The decoded value's bytes in [`ScanState::values`], when it differs from the raw one.
    decoded: Option<Range<usize>>,
}

/// Everything the emitter keeps between calls.
#[derive(Debug, Default)]
struct ScanState {
    /// Byte offset in the text of the next byte the tokenizer reads.
    position: usize,
    /// Name of the current tag, lowercase.
    tag: Vec<u8>,
    /// True when the current tag is a start tag.
    is_start_tag: bool,
    /// The current start tag has the self-closing flag.
    self_closing: bool,
    /// The name of the last start tag (for "appropriate end tag token", HTML standard §13.2.5).
    last_start_tag: Vec<u8>,
    /// Name of the current attribute, lowercase.
    attribute: Vec<u8>,
    /// True once the current attribute's name has been classified (at its value or its end).
    attribute_done: bool,
    /// True while the current attribute's decoded value is collected into `values`.
    collecting: bool,
    /// The attributes of the current start tag that the scan keeps.
    kept: Vec<KeptAttribute>,
    /// Decoded values of kept attributes whose raw value has character references.
    values: Vec<u8>,
    /// The namespace of the current start tag, once decided (at its first attribute or its
    /// end).
    namespace: Option<Namespace>,
    /// The kept attribute names that `<body>` start tags have had so far: a later `<body>`
    /// adds only attributes the element lacks (HTML standard §13.2.6.4.7, "a start tag whose
    /// tag name is body").
    body_names: Vec<&'static str>,
    /// Open `<template>` elements.
    template_depth: usize,
    /// Elements open inside foreign content, innermost last; empty in HTML content.
    foreign: Vec<OpenElement>,
    /// What the scan found, in the order found.
    urls: Vec<HtmlUrl>,
    /// The URLs of the current tag, before they go to `urls` (kept to reuse its allocation).
    pending: Vec<HtmlUrl>,
    /// How many URLs `urls` may hold.
    max_urls: usize,
    /// How many URLs were found once `urls` was full.
    not_recorded: usize,
    /// True once a `<base href>` candidate is in `urls`.
    has_recorded_base: bool,
    /// The reference of the first `<base href>` candidate found once `urls` was full, when
    /// none is in `urls`.
    unrecorded_base: Option<String>,
}

/// The [`Emitter`] that drives html5gum's tokenizer for the scan.
struct UrlEmitter<'a> {
    text: &'a str,
    state: &'a mut ScanState,
}

/// Start tags that leave foreign content (HTML standard §13.2.6.5, "any other start tag" rules'
/// list; `font` only with `color`, `face` or `size`, which is left out here).
const BREAKOUT_TAGS: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// HTML void elements (HTML standard §13.1.2): they have no end tag and are never open.
const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "param", "keygen", "basefont", "bgsound", "frame",
];

fn is_in(list: &[&str], name: &[u8]) -> bool {
    list.iter().any(|item| item.as_bytes() == name)
}

/// The tokenizer state an HTML start tag switches to, scripting disabled (HTML standard
/// §13.2.6.4.4 and §13.2.6.4.7).
fn text_state(tag: &[u8]) -> Option<State> {
    match tag {
        b"title" | b"textarea" => Some(State::RcData),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some(State::RawText),
        b"script" => Some(State::ScriptData),
        b"plaintext" => Some(State::PlainText),
        _ => None,
    }
}

/// The end of the raw text of an element named `tag` whose content starts at `start`: the
/// start of the first end tag `</tag` (ASCII case-insensitive) followed by white space, `/` or
/// `>` (HTML standard §13.2.5.13–15, "appropriate end tag token"), or the end of the text.
fn raw_text_end(text: &str, start: usize, tag: &[u8]) -> usize {
    let bytes = text.as_bytes();
    let rest = bytes.get(start..).unwrap_or_default();
    for at in memmem::find_iter(rest, b"</") {
        let name_start = at + 2;
        let name = rest.get(name_start..name_start + tag.len());
        if name.is_some_and(|name| name.eq_ignore_ascii_case(tag))
            && matches!(
                rest.get(name_start + tag.len()),
                Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>')
            )
        {
            return start + at;
        }
    }
    bytes.len()
}

impl ScanState {
    /// The raw range of the value whose first byte is at `start`: up to the closing quote for a
    /// quoted value, up to white space or `>` for an unquoted one (HTML standard
    /// §13.2.5.36–38), or to the end of the text.
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
    /// `kept`, unless one of the same name came before (HTML standard §13.2.5.33: the first
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
    }

    /// Adds the current attribute to `kept` when the scan keeps it (see
    /// [`classify_attribute`](Self::classify_attribute)).
    #[inline(never)]
    fn keep_attribute(&mut self, value_start: Option<usize>, text: &str) {
        let namespace = self.namespace();
        let tag = element_name(&self.tag, namespace);
        let (name, mut kind) = if tag == b"meta" && self.attribute == HTTP_EQUIV.as_bytes() {
            (HTTP_EQUIV, None)
        } else {
            match url_attribute(tag, &self.attribute, namespace) {
                Some(row) => (row.name, Some(row.kind)),
                None => return,
            }
        };
        if self.kept.iter().any(|kept| kept.name == name) {
            return;
        }
        if tag == b"body" && namespace == Namespace::Html && self.body_names.contains(&name) {
            // The body element has it from an earlier <body>: this one is dropped.
            kind = None;
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

    /// The namespace of the current start tag, decided once per tag from its name and the
    /// open foreign elements; a breakout tag closes the foreign elements here.
    fn namespace(&mut self) -> Namespace {
        if let Some(namespace) = self.namespace {
            return namespace;
        }
        let tag = self.tag.as_slice();
        let mut namespace = match tag {
            b"svg" => Namespace::Svg,
            b"math" => Namespace::MathMl,
            _ => Namespace::Html,
        };
        if let Some(current) = self.foreign.last()
            && current.is_foreign()
            && !is_integration_point(&current.name)
        {
            if is_in(BREAKOUT_TAGS, tag) {
                // Pop until the current node is HTML or an integration point.
                while self
                    .foreign
                    .last()
                    .is_some_and(|e| e.is_foreign() && !is_integration_point(&e.name))
                {
                    self.foreign.pop();
                }
            } else {
                namespace = current.namespace;
            }
        }
        self.namespace = Some(namespace);
        namespace
    }

    /// The namespace bookkeeping at the end of a start tag: an element that can hold others
    /// is pushed while inside foreign content. Returns its namespace.
    fn open_element(&mut self) -> Namespace {
        let namespace = self.namespace();
        let tag = self.tag.as_slice();
        let opens = match namespace {
            Namespace::Html => !self.foreign.is_empty() && !is_in(VOID_ELEMENTS, tag),
            Namespace::Svg | Namespace::MathMl => !self.self_closing,
        };
        if opens {
            self.foreign.push(OpenElement {
                name: tag.into(),
                namespace,
            });
        }
        namespace
    }

    /// The namespace bookkeeping for an end tag: closes the innermost open element of that
    /// name inside foreign content, with everything opened after it.
    fn close_element(&mut self) {
        if self.tag == b"template" {
            self.template_depth = self.template_depth.saturating_sub(1);
        }
        if let Some(at) = self
            .foreign
            .iter()
            .rposition(|e| *e.name == *self.tag.as_slice())
        {
            self.foreign.truncate(at);
        } else if (self.tag == b"p" || self.tag == b"br")
            && self.foreign.last().is_some_and(OpenElement::is_foreign)
        {
            while self.foreign.last().is_some_and(OpenElement::is_foreign) {
                self.foreign.pop();
            }
        }
    }

    /// Records the URLs of the current start tag's kept attributes.
    fn start_tag_urls(&mut self, text: &str, namespace: Namespace) {
        let is_html = namespace == Namespace::Html;
        // HTML standard §4.2.5.3: the `http-equiv` value is matched exactly, ASCII
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
            let is_base_candidate =
                self.tag == b"base" && kept.name == "href" && is_html && self.template_depth == 0;
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
                    is_base_candidate,
                    kind,
                    value: Some(raw.clone().into()),
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
                is_base_candidate: false,
                kind: UrlKind::StyleElement,
                value: None,
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
            self.has_recorded_base |= url.is_base_candidate;
            self.urls.push(url);
            return;
        }
        self.not_recorded += 1;
        if url.is_base_candidate && !self.has_recorded_base && self.unrecorded_base.is_none() {
            self.unrecorded_base = Some(url.reference(text).to_owned());
        }
    }
}

/// A URL attribute's name as [`URL_ATTRIBUTES`] spells it, when it is one.
pub(crate) fn url_attribute_name(name: &str) -> Option<&'static str> {
    URL_ATTRIBUTES
        .iter()
        .find(|row| row.name == name)
        .map(|row| row.name)
}

/// `reference` when it differs from the text at `range`, else `None` (see
/// [`HtmlUrl::reference`]).
fn unless_at(text: &str, range: &Range<usize>, reference: Cow<'_, str>) -> Option<Box<str>> {
    if text.get(range.clone()) == Some(reference.as_ref()) {
        None
    } else {
        Some(reference.into_owned().into_boxed_str())
    }
}

/// The local names of the elements the scan meets most (the elements of the HTML standard's
/// index, HTML 4's and the SVG elements of [`URL_ATTRIBUTES`]), sorted by byte value: a URL
/// record names its element with one of these without allocating.
const ELEMENT_NAMES: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "basefont",
    "bdi",
    "bdo",
    "big",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "feImage",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "image",
    "img",
    "input",
    "ins",
    "isindex",
    "kbd",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "menu",
    "meta",
    "meter",
    "nav",
    "noframes",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "script",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "use",
    "var",
    "video",
    "wbr",
];

/// An element's local name, borrowed from [`ELEMENT_NAMES`] when it is there.
pub(crate) fn element(name: &[u8]) -> Cow<'static, str> {
    // The elements that hold most URLs in mail first, without a search.
    let common = match name {
        b"a" => Some("a"),
        b"img" => Some("img"),
        b"td" => Some("td"),
        b"table" => Some("table"),
        b"link" => Some("link"),
        b"div" => Some("div"),
        b"span" => Some("span"),
        b"p" => Some("p"),
        b"body" => Some("body"),
        b"font" => Some("font"),
        _ => None,
    };
    if let Some(common) = common {
        return Cow::Borrowed(common);
    }
    ELEMENT_NAMES
        .binary_search_by(|known| known.as_bytes().cmp(name))
        .ok()
        .and_then(|i| ELEMENT_NAMES.get(i))
        .map_or_else(
            || Cow::Owned(String::from_utf8_lossy(name).into_owned()),
            |known| Cow::Borrowed(*known),
        )
}

/// True for the HTML integration points and MathML text integration points of the HTML
/// standard §13.2.6.5 (names lowercase, as the tokenizer gives them).
fn is_integration_point(name: &[u8]) -> bool {
    matches!(
        name,
        b"foreignobject" | b"desc" | b"title" | b"mi" | b"mo" | b"mn" | b"ms" | b"mtext"
    )
}

impl Emitter for UrlEmitter<'_> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.state.last_start_tag.clear();
        self.state
            .last_start_tag
            .extend_from_slice(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {}

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
        state.tag.clear();
        state.is_start_tag = true;
        state.self_closing = false;
        state.namespace = None;
        state.kept.clear();
        state.values.clear();
        state.attribute.clear();
        state.attribute_done = false;
        state.collecting = false;
    }

    fn init_end_tag(&mut self) {
        let state = &mut *self.state;
        state.tag.clear();
        state.is_start_tag = false;
        state.kept.clear();
        state.attribute.clear();
        state.collecting = false;
    }

    fn init_comment(&mut self) {}

    fn emit_current_tag(&mut self) -> Option<State> {
        let text = self.text;
        let state = &mut *self.state;
        state.end_attribute(text);
        if !state.is_start_tag {
            state.last_start_tag.clear();
            state.close_element();
            return None;
        }
        state.last_start_tag.clear();
        state.last_start_tag.extend_from_slice(&state.tag);
        let namespace = state.open_element();
        let is_html = namespace == Namespace::Html;
        if !state.kept.is_empty() || (state.tag == b"body" && is_html) {
            state.start_tag_urls(text, namespace);
        }
        if state.tag == b"template" && is_html {
            state.template_depth += 1;
        }
        let is_style = state.tag == b"style" && (is_html || !state.self_closing);
        if is_style {
            state.style_urls(text, state.position);
        }
        if is_html {
            text_state(&state.tag)
        } else {
            None
        }
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {
        self.state.self_closing = true;
    }

    fn set_force_quirks(&mut self) {}

    #[inline]
    fn push_tag_name(&mut self, s: &[u8]) {
        self.state.tag.extend_from_slice(s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {}

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
        self.state.attribute.extend_from_slice(s);
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
        self.state
            .foreign
            .last()
            .is_some_and(OpenElement::is_foreign)
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

/// Calls `found` with each URL of an entity-decoded value of the given kind: its range in
/// `value` and its reference (CSS escapes undone, trimmed of ASCII white space).
fn for_each_url(kind: UrlKind, value: &str, mut found: impl FnMut(Range<usize>, Cow<'_, str>)) {
    let at = |range: Range<usize>| value.get(range).unwrap_or_default();
    match kind {
        UrlKind::Attribute => found(trimmed_range(value), Cow::Borrowed(trim(value))),
        UrlKind::Srcset => {
            for range in srcset_urls(value) {
                found(range.clone(), Cow::Borrowed(at(range)));
            }
        }
        UrlKind::Ping => {
            let bytes = value.as_bytes();
            let mut start = 0;
            while start < bytes.len() {
                let is_space = |b: &u8| b.is_ascii_whitespace();
                let Some(token) = bytes
                    .get(start..)
                    .and_then(|r| r.iter().position(|b| !is_space(b)))
                else {
                    break;
                };
                let token_start = start + token;
                let token_end = bytes
                    .get(token_start..)
                    .and_then(|r| r.iter().position(is_space))
                    .map_or(bytes.len(), |len| token_start + len);
                found(
                    token_start..token_end,
                    Cow::Borrowed(at(token_start..token_end)),
                );
                start = token_end;
            }
        }
        UrlKind::Refresh => {
            if let Some(range) = refresh_url(value) {
                found(range.clone(), Cow::Borrowed(trim(at(range))));
            }
        }
        UrlKind::StyleAttribute | UrlKind::StyleElement => {
            for url in css::urls(value) {
                found(url.range, Cow::Owned(trim(&url.reference).to_owned()));
            }
        }
    }
}

/// The URLs in an entity-decoded attribute value of the given kind: each one's range in
/// `value` and its reference (CSS escapes undone, trimmed).
pub(crate) fn value_urls(kind: UrlKind, value: &str) -> Vec<(Range<usize>, String)> {
    let mut urls = Vec::new();
    for_each_url(kind, value, |range, reference| {
        urls.push((range, reference.into_owned()));
    });
    urls
}

/// `value` without leading and trailing ASCII white space (HTML: "valid URL potentially
/// surrounded by spaces").
fn trim(value: &str) -> &str {
    value.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// The range of [`trim`]'s result inside `value`.
fn trimmed_range(value: &str) -> Range<usize> {
    let start = value.len()
        - value
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .len();
    let end = value
        .trim_end_matches(|c: char| c.is_ascii_whitespace())
        .len()
        .max(start);
    start..end
}

/// The URL of each image candidate of a `srcset` value (HTML standard §4.8.4.3.10 "parse a
/// srcset attribute", steps 1–10; descriptors are skipped, not validated).
fn srcset_urls(value: &str) -> Vec<Range<usize>> {
    let bytes = value.as_bytes();
    let mut urls = Vec::new();
    let mut position = 0;
    loop {
        // Splitting loop: skip ASCII white space and commas.
        while bytes
            .get(position)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b',')
        {
            position += 1;
        }
        if position >= bytes.len() {
            return urls;
        }
        // The URL: a run of non-white-space.
        let start = position;
        while bytes
            .get(position)
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            position += 1;
        }
        let mut end = position;
        let mut ended_by_comma = false;
        // "If url ends with U+002C (,), remove all trailing commas; no descriptors."
        while end > start && bytes.get(end - 1) == Some(&b',') {
            end -= 1;
            ended_by_comma = true;
        }
        if end > start {
            urls.push(start..end);
        }
        if !ended_by_comma {
            // Descriptors run to the next comma outside parentheses.
            let mut in_parens = false;
            while let Some(&b) = bytes.get(position) {
                position += 1;
                match b {
                    b'(' => in_parens = true,
                    b')' => in_parens = false,
                    b',' if !in_parens => break,
                    _ => {}
                }
            }
        }
    }
}

/// The URL of a `<meta http-equiv=refresh content>` value (HTML standard §4.2.5.3 "shared
/// declarative refresh steps"): `N; url=…`, `N, '…'`, `N …`. `None` when the value is
/// invalid or has no URL.
fn refresh_url(value: &str) -> Option<Range<usize>> {
    let bytes = value.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let skip_space = |mut i: usize| {
        while at(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let mut position = skip_space(0);
    let digits_start = position;
    while at(position).is_some_and(|b| b.is_ascii_digit()) {
        position += 1;
    }
    if position == digits_start && at(position) != Some(b'.') {
        return None;
    }
    while at(position).is_some_and(|b| b.is_ascii_digit() || b == b'.') {
        position += 1;
    }
    let next = at(position)?;
    if !(next == b';' || next == b',' || next.is_ascii_whitespace()) {
        return None;
    }
    position = skip_space(position);
    if matches!(at(position), Some(b';' | b',')) {
        position = skip_space(position + 1);
    }
    at(position)?;
    let mut url_start = position;
    if value
        .get(position..position + 3)
        .is_some_and(|s| s.eq_ignore_ascii_case("url"))
    {
        let after = skip_space(position + 3);
        if at(after) == Some(b'=') {
            url_start = skip_space(after + 1);
        }
    }
    let mut url_end = bytes.len();
    if let Some(quote @ (b'"' | b'\'')) = at(url_start) {
        url_start += 1;
        if let Some(close) = bytes
            .get(url_start..)
            .and_then(|rest| rest.iter().position(|&b| b == quote))
        {
            url_end = url_start + close;
        }
    }
    Some(url_start..url_end.max(url_start))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// A URL of [`Scanned`], its reference taken out of the text.
    #[derive(Debug)]
    struct Found {
        tag: String,
        attribute: Option<&'static str>,
        range: ByteRange,
        reference: String,
    }

    /// [`super::scan`] without a limit, with each reference taken out of the text.
    struct Scanned {
        urls: Vec<Found>,
        base: Option<usize>,
    }

    fn scan(html: &str) -> Scanned {
        let scanned = super::scan(html, usize::MAX);
        Scanned {
            urls: scanned
                .urls
                .iter()
                .map(|u| Found {
                    tag: u.tag.to_string(),
                    attribute: u.attribute,
                    range: u.range,
                    reference: u.reference(html).to_owned(),
                })
                .collect(),
            base: scanned.base,
        }
    }

    fn refs(scan: &Scanned) -> Vec<(String, &str)> {
        scan.urls
            .iter()
            .map(|u| {
                let source = match u.attribute {
                    Some(attribute) => format!("{}@{attribute}", u.tag),
                    None => u.tag.clone(),
                };
                (source, u.reference.as_str())
            })
            .collect()
    }

    fn at<'a>(html: &'a str, url: &Found) -> &'a str {
        &html[url.range.start..url.range.end]
    }

    /// The tag states of [`quoted_values_over`] followed one byte at a time, as they were
    /// written before the searches: the reference it must agree with.
    fn by_the_bytes(html: &[u8], most: usize) -> Option<usize> {
        #[derive(Clone, Copy)]
        enum At {
            Text,
            Tag,
            AfterEquals,
            Quoted(u8),
            Unquoted,
        }
        let mut at = At::Text;
        let mut count = 0usize;
        let mut previous = 0u8;
        for &byte in html {
            at = match at {
                At::Text => {
                    if previous == b'<' && (byte.is_ascii_alphabetic() || byte == b'/') {
                        count = 0;
                        At::Tag
                    } else {
                        At::Text
                    }
                }
                At::Tag => match byte {
                    b'>' => At::Text,
                    b'=' => At::AfterEquals,
                    _ => At::Tag,
                },
                At::AfterEquals => match byte {
                    b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' => At::AfterEquals,
                    b'"' => {
                        count += 1;
                        if count > most {
                            return Some(count);
                        }
                        At::Quoted(b'"')
                    }
                    b'\'' => At::Quoted(b'\''),
                    b'>' => At::Text,
                    _ => At::Unquoted,
                },
                At::Quoted(quote) if byte == quote => At::Tag,
                At::Quoted(quote) => At::Quoted(quote),
                At::Unquoted => match byte {
                    b'>' => At::Text,
                    b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' => At::Tag,
                    _ => At::Unquoted,
                },
            };
            previous = byte;
        }
        None
    }

    /// `quoted_values_over` agrees with [`by_the_bytes`] on every string of up to six bytes
    /// from an alphabet of every byte the states tell apart, and on long generated ones.
    #[test]
    fn quoted_values_are_counted_as_byte_by_byte() {
        let lines = crate::testing::every_string(b"<a/>=\"' x", 6);
        assert_eq!(lines.len(), (0..=6).map(|n| 9usize.pow(n)).sum::<usize>());
        for line in &lines {
            for most in 0..2 {
                assert_eq!(
                    quoted_values_over(line, most),
                    by_the_bytes(line, most),
                    "{:?} {most}",
                    String::from_utf8_lossy(line)
                );
            }
        }
        let pieces: [&[u8]; 15] = [
            b"<a ",
            b"href=\"x\" ",
            b"= \"",
            b"='y' ",
            b"= 'z",
            b"'",
            b">",
            b"text ",
            b"</",
            b"v=u ",
            b"w=v>",
            b"<<b",
            b"\"",
            b"=>",
            b" \t",
        ];
        let mut seed = 0x2545_f491_u64;
        let mut over = [0; 2];
        for _ in 0..300 {
            let mut html = Vec::new();
            for _ in 0..2_000 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                html.extend_from_slice(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            for most in [0, 3, 50] {
                let found = quoted_values_over(&html, most);
                assert_eq!(found, by_the_bytes(&html, most));
                over[usize::from(found.is_some())] += 1;
            }
        }
        // Both answers occur, so that the comparison says something about each.
        assert!(over[0] > 100 && over[1] > 100, "{over:?}");
    }

    #[test]
    fn element_names_come_from_the_table() {
        assert!(ELEMENT_NAMES.is_sorted_by(|a, b| a.as_bytes() < b.as_bytes()));
        for name in ELEMENT_NAMES {
            assert!(matches!(element(name.as_bytes()), Cow::Borrowed(n) if n == *name));
        }
        for row in URL_ATTRIBUTES {
            for name in row.elements {
                assert!(ELEMENT_NAMES.contains(name), "{name}");
            }
        }
        assert!(matches!(element(b"x-custom"), Cow::Owned(n) if n == "x-custom"));
    }

    #[test]
    fn finds_url_attributes_with_ranges_and_decodes_entities() {
        let html = r#"<A HREF=" a.html?x=1&amp;y=2 ">x</A><img src='i.png' alt="i.png"><p title="t.html">"#;
        let scan = scan(html);
        assert_eq!(
            refs(&scan),
            [
                ("a@href".to_owned(), "a.html?x=1&y=2"),
                ("img@src".to_owned(), "i.png")
            ]
        );
        // With a character reference the range is the whole raw value.
        assert_eq!(at(html, &scan.urls[0]), " a.html?x=1&amp;y=2 ");
        assert_eq!(at(html, &scan.urls[1]), "i.png");
        assert_eq!(scan.base, None);
    }

    #[test]
    fn first_base_with_href_counts_even_after_links() {
        let html = r#"<a href="x"></a><base target="_top"><base href="http://one/"><base href="http://two/">"#;
        let scan = scan(html);
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://one/");
    }

    #[test]
    fn duplicate_attribute_first_counts() {
        let scan = scan(r#"<a href="first" href="second">"#);
        assert_eq!(refs(&scan), [("a@href".to_owned(), "first")]);
    }

    #[test]
    fn base_in_svg_is_not_html_base() {
        let scan = scan(r#"<svg><base href="http://svg/"></base></svg><base href="http://html/">"#);
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://html/");
    }

    #[test]
    fn base_in_template_is_not_the_base() {
        let scan =
            scan(r#"<template><base href="http://tpl/"></template><base href="http://real/">"#);
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://real/");
        let unclosed = scan_str(r#"<template><base href="http://tpl/">"#);
        assert_eq!(unclosed.base, None);
    }

    fn scan_str(html: &str) -> Scanned {
        scan(html)
    }

    #[test]
    fn srcset_every_candidate() {
        let html = r#"<img srcset="a.png 1x, b,c.png 2x,d.png,  e.png (x, y) 3x"><source srcset=" f.webp ">"#;
        let scan = scan(html);
        let found: Vec<_> = scan.urls.iter().map(|u| at(html, u)).collect();
        assert_eq!(found, ["a.png", "b,c.png", "d.png", "e.png", "f.webp"]);
        assert!(scan.urls.iter().all(|u| u.attribute == Some("srcset")));
    }

    #[test]
    fn meta_refresh_forms() {
        assert_eq!(
            refresh_url("5; url=http://x/").map(|r| &"5; url=http://x/"[r]),
            Some("http://x/")
        );
        assert_eq!(
            refresh_url("0;URL='a b.html'").map(|r| &"0;URL='a b.html'"[r]),
            Some("a b.html")
        );
        assert_eq!(
            refresh_url("3, next.html").map(|r| &"3, next.html"[r]),
            Some("next.html")
        );
        assert_eq!(refresh_url("3"), None);
        assert_eq!(refresh_url("x; url=a"), None);
        let html =
            r#"<meta http-equiv="Refresh" content="0; url=/go"><meta name=x content="1; url=/no">"#;
        assert_eq!(refs(&scan(html)), [("meta@content".to_owned(), "/go")]);
    }

    #[test]
    fn css_in_style_attribute_and_element() {
        let html =
            r#"<style>td{background:url("s.gif")}</style><div style="background:url(d.png)">"#;
        let scan = scan(html);
        assert_eq!(
            refs(&scan),
            [
                ("style".to_owned(), "s.gif"),
                ("div@style".to_owned(), "d.png")
            ]
        );
        assert_eq!(at(html, &scan.urls[0]), "s.gif");
        assert_eq!(at(html, &scan.urls[1]), "d.png");
    }

    #[test]
    fn noscript_content_is_scanned_as_markup_in_document_order() {
        let html = r#"<a href="1"></a><noscript><a href="2"></a><base href="http://ns/"></noscript><a href="3"></a><base href="http://later/">"#;
        let scan = scan(html);
        let found: Vec<_> = scan.urls.iter().map(|u| at(html, u)).collect();
        assert_eq!(found, ["1", "2", "http://ns/", "3", "http://later/"]);
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://ns/");
    }

    #[test]
    fn deeply_nested_noscript_is_scanned_in_one_pass() {
        let html = "<noscript>".repeat(50) + "<a href=deep>";
        let scan = scan(&html);
        assert_eq!(refs(&scan), [("a@href".to_owned(), "deep")]);
    }

    #[test]
    fn raw_text_elements_hold_no_markup() {
        let html = concat!(
            r#"<script>document.write('<a href="s">')</script>"#,
            r#"<title><a href="t"></title><textarea><img src="x"></textarea>"#,
            r#"<xmp><a href="x"></xmp><iframe><a href="i"></iframe>"#,
            r#"<noembed><a href="n"></noembed><noframes><a href="f"></noframes>"#,
            r#"<a href="after">"#,
        );
        assert_eq!(refs(&scan(html)), [("a@href".to_owned(), "after")]);
        let plain = r#"<plaintext><a href="p"></plaintext><a href="q">"#;
        assert!(scan(plain).urls.is_empty());
    }

    #[test]
    fn raw_text_ends_only_at_its_own_end_tag() {
        let html = r#"<style>a{b:url(x.png)}</styles></STYLE ><a href="after">"#;
        let scan = scan(html);
        assert_eq!(
            refs(&scan),
            [
                ("style".to_owned(), "x.png"),
                ("a@href".to_owned(), "after")
            ]
        );
    }

    #[test]
    fn title_and_style_in_svg_are_not_raw_text_but_integration_points_hold_html() {
        let html = r#"<svg><title><a href="1"></a></title><foreignObject><base href="http://fo/"><textarea><a href="no"></textarea></foreignObject></svg>"#;
        let scan = scan(html);
        assert_eq!(
            refs(&scan),
            [
                ("a@href".to_owned(), "1"),
                ("base@href".to_owned(), "http://fo/")
            ]
        );
        // The <base> inside foreignObject is in the HTML namespace.
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://fo/");
    }

    #[test]
    fn breakout_tag_leaves_foreign_content() {
        let html = r#"<svg><g><p><base href="http://html/">"#;
        let scan = scan(html);
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://html/");
        let math = r#"<math><mi><base href="http://mi/"></mi><base href="http://math/"></math>"#;
        let scan = scan_str(math);
        assert_eq!(scan.urls[scan.base.unwrap()].reference, "http://mi/");
        let only_math = r#"<math><base href="http://math/"></math>"#;
        assert_eq!(scan_str(only_math).base, None);
    }

    #[test]
    fn cdata_in_foreign_content_hides_markup() {
        let html = r#"<svg><![CDATA[ > <a href="c">]]></svg><![CDATA[ > <a href="h">]]>"#;
        // Outside foreign content a CDATA section is a bogus comment ending at the first `>`.
        assert_eq!(refs(&scan(html)), [("a@href".to_owned(), "h")]);
    }

    #[test]
    fn values_with_references_or_crlf_are_decoded_as_the_standard_says() {
        let html = "<a href=\"a\r\nb&amp;c\"><img src=\"x\r\ny\"><a href='&#x41;'>";
        let scan = scan(html);
        // With a character reference the tokenizer's value counts: CR LF becomes LF.
        assert_eq!(scan.urls[0].reference, "a\nb&c");
        assert_eq!(at(html, &scan.urls[0]), "a\r\nb&amp;c");
        // Without one the value is taken as written, so that offsets map one to one.
        assert_eq!(scan.urls[1].reference, "x\r\ny");
        assert_eq!(scan.urls[2].reference, "A");
    }

    #[test]
    fn unquoted_empty_and_valueless_attributes() {
        let html = "<a href=u.html>x</a><a href=\"\"></a><a href><img src=p.png/>";
        let scan = scan(html);
        let found: Vec<_> = scan
            .urls
            .iter()
            .map(|u| (at(html, u), u.reference.as_str()))
            .collect();
        assert_eq!(
            found,
            [("u.html", "u.html"), ("", ""), ("p.png/", "p.png/")]
        );
    }

    #[test]
    fn meta_refresh_needs_http_equiv_in_any_order_and_end_tags_have_no_urls() {
        let html = r#"<meta content="0; url=/a" http-equiv=refresh></a href="x"><meta content="0; url=/b">"#;
        assert_eq!(refs(&scan(html)), [("meta@content".to_owned(), "/a")]);
    }

    #[test]
    fn ranges_are_byte_offsets_in_non_ascii_text() {
        let html = "<p>日本語</p><a href=\"ü.html\">";
        let scan = scan(html);
        assert_eq!(at(html, &scan.urls[0]), "ü.html");
    }

    /// Text is handed to the tokenizer in whole runs (see [`super::Input`]): references, CR
    /// LF, lone CR and NUL in text, in data and in RCDATA, leave every tag where it is.
    #[test]
    fn text_with_references_line_breaks_and_nul_keeps_tags_in_place() {
        let html = "a &amp; b &lt;a href=x&gt; &nbsp\r\n\r<p>\0 &#60;a href=y>\r\n\
                    <title>&lt;/title&gt; <a href=no> &amp</title>\r\n\
                    <a href=\"1.html\">&#x3C;<img src=2.png>&\r\n<a\r\nhref=3.html>";
        let scan = scan(html);
        let found: Vec<&str> = scan.urls.iter().map(|u| at(html, u)).collect();
        assert_eq!(found, ["1.html", "2.png", "3.html"]);
        assert_eq!(
            refs(&scan),
            [
                ("a@href".to_owned(), "1.html"),
                ("img@src".to_owned(), "2.png"),
                ("a@href".to_owned(), "3.html")
            ]
        );
    }
}
