//! The HTML scan: the first `<base href>` and every URL of the document, with its byte range
//! in the decoded body: URL attributes, each `srcset` candidate, `<meta http-equiv=refresh>`,
//! CSS `url(…)` in `style` attributes and `<style>` elements, and all of these inside
//! `<noscript>`.
//!
//! The parts, in the order a document goes through them:
//!
//! - `guard`: a document with a tag of more double-quoted attribute values than the tokenizer's
//!   stack can take is not scanned ([`MAX_QUOTED_VALUES_PER_TAG`]).
//! - `tokenizer`: tokenizing is `html5gum`'s (a WHATWG tokenizer that passes the html5lib
//!   tokenizer tests, with no unsafe code and no dependencies), driven by our own
//!   [`html5gum::Emitter`]: it ignores text, comments and doctypes, keeps each start tag's name
//!   and only the attributes that can hold a URL, and notes where each value lies in the text,
//!   so that every range indexes the same decoded text that [`rewrite`](crate::rewrite()) edits.
//!   Character references in attribute values are decoded by the tokenizer, as the HTML
//!   Standard's [attribute value states](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state)
//!   say. Text, which the emitter ignores, is handed to the tokenizer a whole run at a time.
//! - `tree`: the part of tree construction the scan needs. A tokenizer alone does not know
//!   when text is raw, nor which namespace an element is in: the emitter switches the tokenizer
//!   to RCDATA, RAWTEXT, script data or PLAINTEXT after the elements that hold such text, with
//!   **scripting disabled**, as mail clients render (so `<noscript>` content is markup and its
//!   links count, in the same single pass); and it tracks the elements opened inside `<svg>` or
//!   `<math>`, where no state switching applies, CDATA sections are recognised, a "breakout"
//!   start tag (`<p>`, `<div>`, `<font color>`, …) returns to HTML, and the standard's
//!   [HTML integration points](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point)
//!   (SVG `foreignObject`, `desc`, `title`; MathML `annotation-xml` with `encoding="text/html"`
//!   or `application/xhtml+xml`) and [MathML text integration points](https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point)
//!   (`mi`, `mo`, `mn`, `ms`, `mtext`) hold HTML again. Only a `<base>` in the HTML namespace,
//!   outside `<template>`, can be the document's base (the HTML Standard's
//!   [frozen base URL](https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url)):
//!   `<svg><title><base>` is one, `<math><title><base>` is not.
//! - `attributes`: the table of the attributes that hold URLs, on which elements and in which
//!   namespace; adding a row is all it takes to scan another attribute.
//! - `microsyntax`: the URLs inside a value: the whole value, each `srcset` candidate, each
//!   `ping` URL, the URL of a meta refresh, and CSS `url()`, `@import` and `image-set()`
//!   (through [`css`](crate::css)).
//!
//! Why html5gum and not `lol_html` (which this scan used before): `lol_html` is a rewriter, and
//! even with an empty `element!("*")` handler it lexes every tag and builds its element objects;
//! narrower selectors are slower, not faster, because any selector that needs attributes lexes
//! every tag. Side by side over the test corpus's HTML, html5gum with this emitter was well
//! ahead (docs/PERFORMANCE.md has the figures). `lol_html` also parses as a browser with
//! scripting enabled and shows `<noscript>` content as text, which had to be scanned again in a
//! second pass.

use std::borrow::Cow;
use std::convert::Infallible;

use html5gum::Tokenizer;

use crate::report::{ByteRange, LinkText};

mod attributes;
mod guard;
pub(crate) mod link_text;
mod microsyntax;
pub(crate) mod sniff;
mod srcdoc;
mod tokenizer;
mod tree;
pub(crate) mod visible;

pub(crate) use guard::MAX_QUOTED_VALUES_PER_TAG;
use guard::too_many_quoted_values;
use tokenizer::{FoundSrcdoc, Input, ScanState, UrlEmitter};

/// How the value of a URL-bearing attribute is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlKind {
    /// The whole value of a URL attribute (`href`, `src`, …).
    Attribute,
    /// One candidate of a `srcset` value.
    Srcset,
    /// One URL of a `ping` value (the HTML Standard's [`ping`](https://html.spec.whatwg.org/multipage/links.html#ping): a set of space-separated tokens).
    Ping,
    /// The URL of a `<meta http-equiv=refresh content>` value.
    Refresh,
    /// A CSS `url()` in a `style` attribute.
    StyleAttribute,
    /// A CSS `url()` in the text of a `<style>` element.
    StyleElement,
}

/// What the `href` of a `<base>` is to the document's base (the HTML Standard's
/// [frozen base URL](https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url):
/// the first `base` element in the document with an `href`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BaseHref {
    /// Not the `href` of a `<base>`.
    No,
    /// The `href` of a `<base>` in the HTML namespace, outside `<template>`: the first one
    /// sets the document's base.
    Candidate,
    /// The `href` of a `<base>` inside `<template>`, whose content is not the document's.
    InTemplate,
    /// The `href` of a `<base>` that tree construction puts in the SVG or MathML namespace: not
    /// an HTML `base` element.
    Foreign,
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
    /// What it is to the document's base, when it is the `href` of a `<base>`.
    pub base_href: BaseHref,
    /// Where it sits.
    pub kind: UrlKind,
    /// For a URL in an attribute: the raw value's bytes in the decoded body (quotes
    /// excluded); `None` in a `<style>` element.
    pub value: Option<ByteRange>,
    /// The document it is in: 0 for the part's own, `n` for the `srcdoc` document
    /// [`HtmlScan::srcdocs`]`[n - 1]`. `range` and `value` are offsets into that document's
    /// text; [`HtmlScan::part_range`] maps them onto the part's.
    pub document: usize,
    /// What a reader sees of the link, for the `href` of an `a` or `area` in the HTML
    /// namespace (its `text_host_differs` is left false: the scan does not resolve).
    pub link: Option<Box<LinkText>>,
}

impl HtmlUrl {
    /// A URL found by a scan of another kind of document (an SVG document, read as XML):
    /// `range` and `value` index `text`, `reference` is the URL as the document gives it
    /// (references decoded, trimmed), kept only when it differs from the text at `range`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        text: &str,
        tag: Cow<'static, str>,
        attribute: Option<&'static str>,
        range: ByteRange,
        reference: &str,
        base_href: BaseHref,
        kind: UrlKind,
        value: Option<ByteRange>,
    ) -> Self {
        let decoded =
            (text.get(range.start..range.end) != Some(reference)).then(|| Box::from(reference));
        HtmlUrl {
            tag,
            attribute,
            range,
            decoded,
            base_href,
            kind,
            value,
            document: 0,
            link: None,
        }
    }

    /// True for the `href` of a `<base>` in the HTML namespace, outside `<template>`.
    pub(crate) fn is_base_candidate(&self) -> bool {
        self.base_href == BaseHref::Candidate
    }

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
    /// inside `<template>` (the HTML Standard's [frozen base URL](https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url)).
    pub base: Option<usize>,
    /// How many URLs were found past the number asked for, and not recorded.
    pub not_recorded: usize,
    /// The reference of that first `<base href>` when it came past the number asked for (and
    /// so is not in `urls`): it is still the document's base.
    pub unrecorded_base: Option<String>,
    /// Set when the document was not tokenized because one tag holds more double-quoted
    /// attribute values than [`MAX_QUOTED_VALUES_PER_TAG`]: the number found in that tag.
    pub not_scanned: Option<usize>,
    /// The `crossorigin` and `integrity` attributes of the start tags that have URLs in
    /// `urls`, in document order (those of the part's own document).
    pub fetch_attributes: Vec<FetchAttribute>,
    /// The `<iframe srcdoc>` documents, each after the document it stands in.
    pub srcdocs: Vec<Srcdoc>,
    /// How many `srcdoc` documents were not scanned: nested deeper than [`MAX_SRCDOC_DEPTH`],
    /// or holding a tag the tokenizer cannot take ([`MAX_QUOTED_VALUES_PER_TAG`]).
    pub srcdocs_not_scanned: usize,
}

/// How deep `<iframe srcdoc>` documents inside one another are scanned. Each level writes the
/// one inside it with its `&` escaped again (`&amp;amp;`), so that real documents nest one or
/// two deep; the bound keeps the work on a part within a few times its size.
pub(crate) const MAX_SRCDOC_DEPTH: usize = 8;

/// An `<iframe srcdoc>` document (the HTML Standard's [iframe srcdoc document](https://html.spec.whatwg.org/multipage/iframe-embed-object.html#an-iframe-srcdoc-document)).
#[derive(Debug, Clone)]
pub(crate) struct Srcdoc {
    /// The document whose `<iframe>` holds it: 0 for the part's own, `n` for
    /// [`HtmlScan::srcdocs`]`[n - 1]`.
    pub parent: usize,
    /// How many `srcdoc` documents deep it is: 1 in the part's own document.
    pub depth: usize,
    /// The raw `srcdoc` value in the parent's text (quotes excluded).
    pub value: ByteRange,
    /// The document: the value with its character references decoded.
    pub text: String,
    /// Offsets of `text` back onto the parent's text.
    map: srcdoc::ValueMap,
    /// Index into [`HtmlScan::urls`] of its first `<base href>` in the HTML namespace,
    /// outside `<template>`.
    pub base: Option<usize>,
}

/// A `crossorigin` or `integrity` attribute of an element with URLs: fetched in CORS mode
/// (HTML Standard §2.5.4, CORS settings attributes), checked against the digest (Subresource
/// Integrity §3.3.5). A page opened from a `file:` URL has an opaque origin, for which a CORS
/// fetch of another `file:` URL fails, and a file changed by `extract` no longer has its
/// digest: `extract` renames these attributes on elements whose URLs it points at files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FetchAttribute {
    /// The attribute's name, as written, in the text.
    pub name: std::ops::Range<usize>,
    /// From the start of the element's first recorded URL to one past the start of its last.
    pub urls: std::ops::Range<usize>,
}

impl HtmlScan {
    /// Where `url` lies in the part's text: its range, mapped from the `srcdoc` document it is
    /// in (if any) onto the text of the document that holds that one, and so on up to the
    /// part's. A range inside a `srcdoc` value maps exactly where the value holds no character
    /// reference at its ends, else widens over the reference.
    pub fn part_range(&self, url: &HtmlUrl) -> ByteRange {
        let mut range = url.range.start..url.range.end;
        let mut document = url.document;
        while let Some(srcdoc) = document.checked_sub(1).and_then(|i| self.srcdocs.get(i)) {
            range = srcdoc.map.to_outer(range);
            document = srcdoc.parent;
        }
        range.into()
    }

    /// The reference of the document's first `<base href>`, recorded or not; `text` is the
    /// document that was scanned.
    pub fn base_reference<'t>(&'t self, text: &'t str) -> Option<&'t str> {
        match self.base.and_then(|i| self.urls.get(i)) {
            Some(base) => Some(base.reference(text)),
            None => self.unrecorded_base.as_deref(),
        }
    }
}

/// Scans an HTML document (already decoded to UTF-8). Total: every input gives a result, in
/// one pass, in time linear in its length. A document with a tag of more than
/// [`MAX_QUOTED_VALUES_PER_TAG`] double-quoted attribute values is not tokenized (see there):
/// the result is empty, with [`HtmlScan::not_scanned`] set.
///
/// At most `max_urls` URLs are recorded; the scan goes on past them, counting the others
/// ([`HtmlScan::not_recorded`]) and still finding the first `<base href>`.
pub(crate) fn scan(html: &str, max_urls: usize) -> HtmlScan {
    let (mut scan, found) = scan_document(html, max_urls);
    if found.is_empty() {
        return scan;
    }
    // The `srcdoc` documents, each after the one that holds it (breadth first, so that the
    // depth of each is known when it is met).
    let mut waiting: std::collections::VecDeque<(usize, usize, FoundSrcdoc)> =
        found.into_iter().map(|f| (0, 1, f)).collect();
    while let Some((parent, depth, found)) = waiting.pop_front() {
        if depth > MAX_SRCDOC_DEPTH {
            scan.srcdocs_not_scanned += 1;
            continue;
        }
        let parent_text = match parent.checked_sub(1) {
            None => html,
            Some(i) => scan.srcdocs.get(i).map_or("", |s| s.text.as_str()),
        };
        let raw = parent_text.get(found.raw.clone()).unwrap_or_default();
        let (text, map) = srcdoc::decode(raw, found.raw.start, found.decoded.as_deref());
        let (inner, inner_found) = scan_document(&text, max_urls.saturating_sub(scan.urls.len()));
        if inner.not_scanned.is_some() {
            scan.srcdocs_not_scanned += 1;
            continue;
        }
        let document = scan.srcdocs.len() + 1;
        scan.not_recorded += inner.not_recorded;
        for mut url in inner.urls {
            // The reference is kept with the URL: its range indexes this document's text,
            // not the part's.
            if url.decoded.is_none() {
                url.decoded = Some(url.reference(&text).into());
            }
            url.document = document;
            scan.urls.push(url);
        }
        waiting.extend(inner_found.into_iter().map(|f| (document, depth + 1, f)));
        scan.srcdocs.push(Srcdoc {
            parent,
            depth,
            value: found.raw.into(),
            text,
            map,
            base: None,
        });
    }
    // Document order in the part: a `srcdoc` document's URLs where its value stands.
    let mut urls = std::mem::take(&mut scan.urls);
    urls.sort_by_cached_key(|url| scan.part_range(url).start);
    scan.urls = urls;
    scan.base = scan
        .urls
        .iter()
        .position(|url| url.is_base_candidate() && url.document == 0);
    for (index, srcdoc) in scan.srcdocs.iter_mut().enumerate() {
        srcdoc.base = scan
            .urls
            .iter()
            .position(|url| url.is_base_candidate() && url.document == index + 1);
    }
    scan
}

/// [`scan`] of one document, without the `srcdoc` documents it holds: their values are
/// returned beside it.
fn scan_document(html: &str, max_urls: usize) -> (HtmlScan, Vec<FoundSrcdoc>) {
    if let Some(count) = too_many_quoted_values(html.as_bytes()) {
        let scan = HtmlScan {
            not_scanned: Some(count),
            ..HtmlScan::default()
        };
        return (scan, Vec::new());
    }
    let mut state = ScanState::new(max_urls);
    let emitter = UrlEmitter {
        text: html,
        state: &mut state,
    };
    // Reading from a `&str` cannot fail: the error type is `Infallible`.
    let _: Result<(), Infallible> =
        Tokenizer::new_with_emitter(Input(html.as_bytes()), emitter).finish();
    state.close_link_at_end(html);
    let mut urls = state.urls;
    // The URLs come in document order as the tokenizer meets them; the sort is a safeguard,
    // skipped when they already are (a stable sort takes a scratch buffer of up to half the
    // list's size even then).
    if !urls.is_sorted_by_key(|url| url.range.start) {
        urls.sort_by_key(|url| url.range.start);
    }
    let base = urls.iter().position(HtmlUrl::is_base_candidate);
    let scan = HtmlScan {
        urls,
        base,
        not_recorded: state.not_recorded,
        unrecorded_base: state.unrecorded_base,
        not_scanned: None,
        fetch_attributes: state.fetch_attributes,
        srcdocs: Vec::new(),
        srcdocs_not_scanned: 0,
    };
    (scan, state.srcdocs)
}

/// The name and kind of `attribute` on `tag` (both as the HTML tokenizer gives them,
/// lowercase) when it holds URLs on an element in the HTML namespace, from the same table as
/// the HTML scan; `http-equiv` is not one (see [`HTTP_EQUIV`]).
pub(crate) fn html_url_attribute(tag: &[u8], attribute: &[u8]) -> Option<(&'static str, UrlKind)> {
    attributes::url_attribute(tag, attribute, tree::Namespace::Html).map(|row| (row.name, row.kind))
}

pub(crate) use attributes::HTTP_EQUIV;
pub(crate) use microsyntax::for_each_url;

/// The URLs in an entity-decoded attribute value of the given kind: each one's range in
/// `value` and its reference (CSS escapes undone, trimmed).
pub(crate) fn value_urls(kind: UrlKind, value: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut urls = Vec::new();
    microsyntax::for_each_url(kind, value, |range, reference| {
        urls.push((range, reference.into_owned()));
    });
    urls
}

#[cfg(test)]
mod tests {
    use super::microsyntax::refresh_url;
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

    /// The names of `crossorigin` and `integrity` are found however they are written, on
    /// elements with URLs only, each tied to its element's URLs.
    #[test]
    fn finds_fetch_attributes() {
        let html = "<link crossorigin href=a.css><link href=b.css CrossOrigin=\"anonymous\" \
                    integrity = 'sha384-x' rel=stylesheet><img\tsrc=c.png\ncrossorigin>\
                    <div crossorigin></div><script integrity=\"i\" src=d.js></script>";
        let scanned = super::scan(html, usize::MAX);
        let names: Vec<&str> = scanned
            .fetch_attributes
            .iter()
            .map(|a| &html[a.name.clone()])
            .collect();
        assert_eq!(
            names,
            [
                "crossorigin",
                "CrossOrigin",
                "integrity",
                "crossorigin",
                "integrity"
            ]
        );
        let owners: Vec<&str> = scanned
            .fetch_attributes
            .iter()
            .map(|a| {
                let url = scanned
                    .urls
                    .iter()
                    .find(|u| a.urls.contains(&u.range.start))
                    .expect("an element URL");
                url.reference(html)
            })
            .collect();
        assert_eq!(owners, ["a.css", "b.css", "b.css", "c.png", "d.js"]);
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
