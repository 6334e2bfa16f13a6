//! The HTML scan (SPEC §5): the first `<base href>` and every URL of the document, with its
//! byte range in the decoded body: URL attributes, each `srcset` candidate, `<meta
//! http-equiv=refresh>`, CSS `url(…)` in `style` attributes and `<style>` elements, and all of
//! these inside `<noscript>`.
//!
//! Tokenizing is `lol_html`'s (non-strict mode, which does not give up on real-world markup);
//! entity decoding is `htmlize`'s; CSS is `cssparser`'s ([`crate::css`]). The `srcset` and
//! refresh micro-syntaxes are parsed here, following the HTML standard's algorithms step by
//! step: they are a few lines each and no maintained crate offers them with byte offsets.
//!
//! `lol_html` parses as a browser with scripting enabled, so it shows `<noscript>` content as
//! text; mail clients render with scripting disabled, where that content is markup. Each
//! `<noscript>`'s content is therefore scanned again as HTML (up to [`MAX_NOSCRIPT_LEVELS`]
//! levels of `<noscript>` inside `<noscript>`).

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ops::Range;
use std::rc::Rc;

use lol_html::html_content::{Element, TextChunk};
use lol_html::{HtmlRewriter, MemorySettings, Settings, element, text};

use crate::css;
use crate::report::ByteRange;

/// The HTML namespace (HTML standard §2.1.3).
const HTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";

/// The most memory lol_html may use for one document; past it the scan stops with an error.
const MAX_TOKENIZER_MEMORY: usize = 16 << 20;

/// How many levels of `<noscript>` inside `<noscript>` are scanned as markup; each level
/// scans at most the bytes of the level above, so the whole scan reads at most this many
/// times the document.
pub(crate) const MAX_NOSCRIPT_LEVELS: usize = 8;

/// The attributes that hold one URL (SPEC §5, from the HTML standard and HTML 4.01), as
/// `(attribute, elements)`; an empty element list means any element.
const URL_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("href", &["a", "area", "link", "base"]),
    (
        "src",
        &[
            "img", "script", "iframe", "frame", "embed", "input", "source", "track", "audio",
            "video",
        ],
    ),
    ("action", &["form"]),
    ("formaction", &["button", "input"]),
    ("cite", &["blockquote", "q", "del", "ins"]),
    ("background", &["body", "table", "td", "th"]),
    ("longdesc", &[]),
    ("usemap", &[]),
    ("data", &["object"]),
    ("codebase", &["object"]),
    ("poster", &["video"]),
    ("manifest", &["html"]),
    ("profile", &["head"]),
];

/// True when `attribute` of `tag` holds one URL (both lowercase).
fn holds_url(tag: &str, attribute: &str) -> bool {
    URL_ATTRIBUTES
        .iter()
        .any(|(name, tags)| *name == attribute && (tags.is_empty() || tags.contains(&tag)))
}

/// How a URL sits in the document: what surrounds it decides how a new value is escaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UrlKind {
    /// The whole value of a URL attribute (`href`, `src`, …).
    Attribute,
    /// One candidate of a `srcset` value.
    Srcset,
    /// The URL of a `<meta http-equiv=refresh content>` value.
    Refresh,
    /// A CSS `url()` in a `style` attribute.
    StyleAttribute,
    /// A CSS `url()` in the text of a `<style>` element.
    StyleElement,
}

/// One URL found in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HtmlUrl {
    /// The element's local name, lowercase.
    pub tag: String,
    /// The attribute, lowercase; `None` for the text of a `<style>` element.
    pub attribute: Option<String>,
    /// The URL's bytes in the decoded body. When the attribute value contains a character
    /// reference (`&`), offsets inside it cannot be mapped and this is the whole raw value.
    pub range: ByteRange,
    /// The URL entity-decoded and trimmed of ASCII white space (SPEC §4).
    pub reference: String,
    /// True for the `href` of a `<base>` in the HTML namespace, outside `<template>`.
    is_base_candidate: bool,
    /// Where it sits.
    pub kind: UrlKind,
    /// For a URL in an attribute: the raw value's bytes in the decoded body (quotes
    /// excluded); `None` in a `<style>` element.
    pub value: Option<ByteRange>,
}

/// What the scan found.
#[derive(Debug, Default)]
pub(crate) struct HtmlScan {
    /// Every URL in document order (by byte offset), `<base href>` included.
    pub urls: Vec<HtmlUrl>,
    /// Index into `urls` of the first `<base>` with an `href`, in the HTML namespace and not
    /// inside `<template>` (SPEC §3 step 1).
    pub base: Option<usize>,
    /// Why the tokenizer stopped early, if it did.
    pub error: Option<String>,
    /// True when `<noscript>` nesting passed [`MAX_NOSCRIPT_LEVELS`].
    pub noscript_limit: bool,
}

/// A stretch of the document to scan as markup: the whole body, or one `<noscript>`'s content.
struct Region {
    range: Range<usize>,
    level: usize,
    in_template: bool,
}

/// Scans an HTML document (already decoded to UTF-8).
pub(crate) fn scan(html: &str) -> HtmlScan {
    let mut found = HtmlScan::default();
    let mut regions = VecDeque::from([Region {
        range: 0..html.len(),
        level: 0,
        in_template: false,
    }]);
    while let Some(region) = regions.pop_front() {
        if region.level > MAX_NOSCRIPT_LEVELS {
            found.noscript_limit = true;
            continue;
        }
        let text = html.get(region.range.clone()).unwrap_or_default();
        let (urls, inner, error) = scan_region(text, region.range.start, region.in_template);
        found.urls.extend(urls);
        if found.error.is_none() {
            found.error = error;
        }
        regions.extend(inner.into_iter().map(|(range, in_template)| Region {
            range,
            level: region.level + 1,
            in_template,
        }));
    }
    found.urls.sort_by_key(|url| url.range.start);
    found.base = found.urls.iter().position(|url| url.is_base_candidate);
    found
}

/// Everything one tokenizer pass over `text` (at `offset` in the document) finds: the URLs,
/// the `<noscript>` contents to scan next (with whether they lie inside `<template>`), and
/// the tokenizer's error.
#[allow(clippy::type_complexity)]
fn scan_region(
    text: &str,
    offset: usize,
    in_template: bool,
) -> (Vec<HtmlUrl>, Vec<(Range<usize>, bool)>, Option<String>) {
    let urls = RefCell::new(Vec::new());
    let noscripts = RefCell::new(Vec::new());
    let template_depth = Rc::new(Cell::new(usize::from(in_template)));
    let noscript_text = RefCell::new(None::<Range<usize>>);
    let style_text = RefCell::new(None::<Range<usize>>);
    let result = {
        let on_template = |el: &mut Element| {
            template_depth.set(template_depth.get() + 1);
            let depth = Rc::clone(&template_depth);
            // A template without an end tag runs to the end of the document.
            let _ = el.on_end_tag(Box::new(move |_| {
                depth.set(depth.get().saturating_sub(1));
                Ok(())
            }));
            Ok(())
        };
        let on_element = |el: &mut Element| {
            // Most elements have no attribute: nothing to find, nothing to allocate.
            if el.attributes().is_empty() {
                return Ok(());
            }
            let tag = el.tag_name();
            let mut found = element_urls(el, &tag, template_depth.get() > 0);
            for url in &mut found {
                url.range.start += offset;
                url.range.end += offset;
                if let Some(value) = &mut url.value {
                    value.start += offset;
                    value.end += offset;
                }
            }
            urls.borrow_mut().extend(found);
            Ok(())
        };
        // Consecutive chunks of one text node are contiguous in the source: keep the range
        // from the first chunk's start to the last chunk's end.
        let extend = |slot: &RefCell<Option<Range<usize>>>, chunk: &TextChunk| {
            let bytes = chunk.source_location().bytes();
            let mut slot = slot.borrow_mut();
            let range = slot.get_or_insert(bytes.clone());
            range.end = bytes.end;
            if chunk.last_in_text_node() {
                slot.take()
            } else {
                None
            }
        };
        let on_noscript_text = |chunk: &mut TextChunk| {
            if let Some(range) = extend(&noscript_text, chunk) {
                noscripts.borrow_mut().push((
                    range.start + offset..range.end + offset,
                    template_depth.get() > 0,
                ));
            }
            Ok(())
        };
        let on_style_text = |chunk: &mut TextChunk| {
            if let Some(range) = extend(&style_text, chunk) {
                let css = text.get(range.clone()).unwrap_or_default();
                let start = range.start + offset;
                let found = value_urls(UrlKind::StyleElement, css);
                urls.borrow_mut()
                    .extend(found.into_iter().map(|(range, reference)| HtmlUrl {
                        tag: "style".to_owned(),
                        attribute: None,
                        range: ByteRange {
                            start: start + range.start,
                            end: start + range.end,
                        },
                        reference,
                        is_base_candidate: false,
                        kind: UrlKind::StyleElement,
                        value: None,
                    }));
            }
            Ok(())
        };
        let settings = Settings::new()
            .with_strict(false)
            .with_memory_settings(
                MemorySettings::new().with_max_allowed_memory_usage(MAX_TOKENIZER_MEMORY),
            )
            .append_element_content_handler(element!("template", on_template))
            .append_element_content_handler(element!("*", on_element))
            .append_element_content_handler(text!("noscript", on_noscript_text))
            .append_element_content_handler(text!("style", on_style_text));
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        rewriter
            .write(text.as_bytes())
            .and_then(|()| rewriter.end())
    };
    (
        urls.into_inner(),
        noscripts.into_inner(),
        result.err().map(|e| e.to_string()),
    )
}

/// The URLs in the attributes of one start tag, ranges relative to the region.
fn element_urls(el: &Element, tag: &str, in_template: bool) -> Vec<HtmlUrl> {
    let is_html = el.namespace_uri() == HTML_NAMESPACE;
    let mut found = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let is_refresh = tag == "meta"
        && el
            .get_attribute("http-equiv")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("refresh"));
    for attr in el.attributes() {
        let name = attr.name();
        // HTML standard §13.2.5.33: a duplicate attribute is dropped; the first counts.
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        let kind = if holds_url(tag, &name) {
            UrlKind::Attribute
        } else if name == "srcset" && matches!(tag, "img" | "source") {
            UrlKind::Srcset
        } else if name == "content" && is_refresh {
            UrlKind::Refresh
        } else if name == "style" {
            UrlKind::StyleAttribute
        } else {
            continue;
        };
        let Some(location) = attr.value_source_location() else {
            continue;
        };
        let raw = attr.value();
        let value = htmlize::unescape_attribute(&raw);
        let whole = location.bytes();
        // Sub-ranges map onto the source only when decoding changed nothing.
        let mappable = !raw.contains('&');
        let sub = |range: Range<usize>| -> ByteRange {
            if mappable {
                ByteRange {
                    start: whole.start + range.start,
                    end: whole.start + range.end,
                }
            } else {
                whole.clone().into()
            }
        };
        let is_base_candidate = tag == "base" && name == "href" && is_html && !in_template;
        for (range, reference) in value_urls(kind, &value) {
            found.push(HtmlUrl {
                tag: tag.to_owned(),
                attribute: Some(name.clone()),
                range: sub(range),
                reference,
                is_base_candidate,
                kind,
                value: Some(whole.clone().into()),
            });
        }
    }
    found
}

/// The URLs in an entity-decoded attribute value of the given kind: each one's range in
/// `value` and its reference (entity-decoded, CSS escapes undone, trimmed).
pub(crate) fn value_urls(kind: UrlKind, value: &str) -> Vec<(Range<usize>, String)> {
    let at = |range: Range<usize>| value.get(range).unwrap_or_default();
    match kind {
        UrlKind::Attribute => vec![(trimmed_range(value), trim(value))],
        UrlKind::Srcset => srcset_urls(value)
            .into_iter()
            .map(|range| (range.clone(), at(range).to_owned()))
            .collect(),
        UrlKind::Refresh => refresh_url(value)
            .map(|range| (range.clone(), trim(at(range))))
            .into_iter()
            .collect(),
        UrlKind::StyleAttribute | UrlKind::StyleElement => css::urls(value)
            .into_iter()
            .map(|url| (url.range, trim(&url.reference)))
            .collect(),
    }
}

/// `value` without leading and trailing ASCII white space (HTML: "valid URL potentially
/// surrounded by spaces").
fn trim(value: &str) -> String {
    value
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_owned()
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

    fn refs(scan: &HtmlScan) -> Vec<(String, &str)> {
        scan.urls
            .iter()
            .map(|u| {
                let source = match &u.attribute {
                    Some(attribute) => format!("{}@{attribute}", u.tag),
                    None => u.tag.clone(),
                };
                (source, u.reference.as_str())
            })
            .collect()
    }

    fn at<'a>(html: &'a str, url: &HtmlUrl) -> &'a str {
        &html[url.range.start..url.range.end]
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

    fn scan_str(html: &str) -> HtmlScan {
        scan(html)
    }

    #[test]
    fn srcset_every_candidate() {
        let html = r#"<img srcset="a.png 1x, b,c.png 2x,d.png,  e.png (x, y) 3x"><source srcset=" f.webp ">"#;
        let scan = scan(html);
        let found: Vec<_> = scan.urls.iter().map(|u| at(html, u)).collect();
        assert_eq!(found, ["a.png", "b,c.png", "d.png", "e.png", "f.webp"]);
        assert!(
            scan.urls
                .iter()
                .all(|u| u.attribute.as_deref() == Some("srcset"))
        );
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
    fn noscript_nesting_is_bounded() {
        let html = "<noscript>".repeat(50) + "<a href=deep>";
        let scan = scan(&html);
        assert!(scan.noscript_limit);
        assert!(scan.urls.is_empty());
    }
}
