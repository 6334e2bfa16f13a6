//! The HTML scan (SPEC §5): the first `<base href>` and every attribute that holds a URL,
//! with its byte range in the decoded body.
//!
//! Tokenizing is `lol_html`'s (non-strict mode, which does not give up on real-world markup);
//! entity decoding is `htmlize`'s. lol_html hands attribute values over raw, with their byte
//! ranges; we decode them here.

use std::cell::RefCell;

use lol_html::html_content::Element;
use lol_html::{HtmlRewriter, MemorySettings, Settings, element};

use crate::report::ByteRange;

/// The HTML namespace (HTML standard §2.1.3).
const HTML_NAMESPACE: &str = "http://www.w3.org/1999/xhtml";

/// The most memory lol_html may use for one document; past it the scan stops with an error.
const MAX_TOKENIZER_MEMORY: usize = 16 << 20;

/// The attributes that hold a URL (SPEC §5, from the HTML standard and HTML 4.01), as
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

/// True when `attribute` of `tag` holds a URL (both lowercase).
fn holds_url(tag: &str, attribute: &str) -> bool {
    URL_ATTRIBUTES
        .iter()
        .any(|(name, tags)| *name == attribute && (tags.is_empty() || tags.contains(&tag)))
}

/// One URL attribute found in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HtmlUrl {
    /// The element's local name, lowercase.
    pub tag: String,
    /// The attribute name, lowercase.
    pub attribute: String,
    /// The raw value's bytes in the decoded body (quotes excluded).
    pub range: ByteRange,
    /// The value entity-decoded and trimmed of ASCII white space (SPEC §4).
    pub reference: String,
}

/// What the scan found.
#[derive(Debug, Default)]
pub(crate) struct HtmlScan {
    /// Every URL attribute in document order, `<base href>` included.
    pub urls: Vec<HtmlUrl>,
    /// Index into `urls` of the first `<base>` with an `href` in the HTML namespace
    /// (SPEC §3 step 1).
    pub base: Option<usize>,
    /// Why the tokenizer stopped early, if it did.
    pub error: Option<String>,
}

/// Scans an HTML document (already decoded to UTF-8).
pub(crate) fn scan(html: &str) -> HtmlScan {
    let found = RefCell::new(HtmlScan::default());
    let result = {
        let handler = |el: &mut Element| {
            let tag = el.tag_name();
            let is_html = el.namespace_uri() == HTML_NAMESPACE;
            let mut found = found.borrow_mut();
            let mut seen: Vec<String> = Vec::new();
            for attr in el.attributes() {
                let name = attr.name();
                // HTML standard §13.2.5.33: a duplicate attribute is dropped; the first counts.
                if seen.contains(&name) {
                    continue;
                }
                seen.push(name.clone());
                if !holds_url(&tag, &name) {
                    continue;
                }
                let Some(location) = attr.value_source_location() else {
                    continue;
                };
                let raw = attr.value();
                let reference = htmlize::unescape_attribute(&raw)
                    .trim_matches(|c: char| c.is_ascii_whitespace())
                    .to_owned();
                if tag == "base" && is_html && found.base.is_none() {
                    found.base = Some(found.urls.len());
                }
                found.urls.push(HtmlUrl {
                    tag: tag.clone(),
                    attribute: name,
                    range: location.bytes().into(),
                    reference,
                });
            }
            Ok(())
        };
        let settings = Settings::new()
            .with_strict(false)
            .with_memory_settings(
                MemorySettings::new().with_max_allowed_memory_usage(MAX_TOKENIZER_MEMORY),
            )
            .append_element_content_handler(element!("*", handler));
        let mut rewriter = HtmlRewriter::new(settings, |_: &[u8]| {});
        rewriter
            .write(html.as_bytes())
            .and_then(|()| rewriter.end())
    };
    let mut found = found.into_inner();
    if let Err(error) = result {
        found.error = Some(error.to_string());
    }
    found
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn refs(scan: &HtmlScan) -> Vec<(String, &str)> {
        scan.urls
            .iter()
            .map(|u| (format!("{}@{}", u.tag, u.attribute), u.reference.as_str()))
            .collect()
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
        let range = scan.urls[0].range;
        assert_eq!(&html[range.start..range.end], " a.html?x=1&amp;y=2 ");
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
}
