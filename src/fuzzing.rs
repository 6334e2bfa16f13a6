//! Entry points into the stages of the pipeline, for the fuzz targets in `fuzz/` only: not
//! part of the API, hidden from the docs, and changed whenever a stage changes. Each
//! function runs one stage on its input and returns plain data for the targets' oracles, so
//! that a stage can be rewritten (a new HTML scanner, say) without touching the targets.

use std::ops::Range;

use crate::options::Options;
use crate::{css, headers, html, mime, svg};

/// One entity as the MIME splitter found it.
#[derive(Debug, Clone)]
pub struct SplitEntity {
    /// Index of the enclosing entity.
    pub parent: Option<usize>,
    /// Nesting depth: 0 for the root.
    pub depth: usize,
    /// Which bytes the ranges index: 0 the input, `n` the `n`th decoded buffer.
    pub buffer: usize,
    /// The header block, without the blank line that ends it.
    pub header: Range<usize>,
    /// The body.
    pub body: Range<usize>,
}

/// What the MIME splitter found.
#[derive(Debug, Clone)]
pub struct Split {
    /// Every entity, in document order.
    pub entities: Vec<SplitEntity>,
    /// The length of each buffer: the input's first, then each decoded buffer's.
    pub buffer_lens: Vec<usize>,
}

/// Splits `raw` into its entities (the MIME stage of `analyze`).
pub fn split(raw: &[u8], options: &Options) -> Split {
    let mut diagnostics = Vec::new();
    let walk = mime::split(raw, options, &mut diagnostics);
    let mut entities: Vec<SplitEntity> = Vec::with_capacity(walk.entities.len());
    for entity in &walk.entities {
        let depth = entity
            .parent
            .and_then(|p| entities.get(p))
            .map_or(0, |p| p.depth + 1);
        entities.push(SplitEntity {
            parent: entity.parent,
            depth,
            buffer: entity.buffer,
            header: entity.header.clone(),
            body: entity.body.clone(),
        });
    }
    let buffer_lens = std::iter::once(raw.len())
        .chain(walk.buffers.iter().map(|(_, bytes)| bytes.len()))
        .collect();
    Split {
        entities,
        buffer_lens,
    }
}

/// A header block as read.
#[derive(Debug, Clone)]
pub struct Header {
    /// The block, without the blank line that ends it.
    pub range: Range<usize>,
    /// Where the body starts.
    pub body_start: usize,
    /// Each field's name as written and its value unfolded.
    pub fields: Vec<(String, String)>,
}

/// Reads the header block at the start of `raw`, at most `max_bytes` of it.
pub fn header_block(raw: &[u8], max_bytes: usize) -> Header {
    let (block, every) = mime::header::parse_every_field(raw, max_bytes);
    Header {
        range: block.range,
        body_start: block.body_start,
        fields: every
            .into_iter()
            .map(|(name, value)| {
                let at = |range: Range<usize>| raw.get(range).unwrap_or_default();
                // The analysis unfolds only the fields it reads; the targets check them all.
                (
                    String::from_utf8_lossy(at(name)).into_owned(),
                    mime::header::unfold(at(value)),
                )
            })
            .collect(),
    }
}

/// The URL of a base field's value (`Base`, `Content-Base`, `Content-Location`).
pub fn base_value(value: &str) -> String {
    headers::base_value(value)
}

/// The URLs of an RFC 2369 list field's value.
pub fn list_urls(value: &str) -> Vec<String> {
    headers::list_urls(value)
}

/// `value` without its RFC 5322 comments.
pub fn strip_comments(value: &str) -> String {
    mime::header::strip_comments(value)
}

/// One URL the HTML scanner found.
#[derive(Debug, Clone)]
pub struct HtmlUrl {
    /// The element's local name.
    pub tag: String,
    /// The URL's bytes in the text (the whole value when it holds a character reference).
    pub range: Range<usize>,
    /// The attribute value's bytes (quotes excluded); `None` in a `<style>` element.
    pub value: Option<Range<usize>>,
    /// The URL, entity-decoded and trimmed.
    pub reference: String,
}

/// What the HTML scanner found.
#[derive(Debug, Clone)]
pub struct HtmlScan {
    /// Every URL, in document order.
    pub urls: Vec<HtmlUrl>,
    /// Index in `urls` of the `<base href>` that counts.
    pub base: Option<usize>,
    /// The `crossorigin` and `integrity` attributes of elements with URLs: where the name
    /// lies, and the span of the starts of the element's URLs.
    pub fetch_attributes: Vec<(Range<usize>, Range<usize>)>,
}

/// Scans an HTML document, already decoded to UTF-8.
pub fn html_scan(text: &str) -> HtmlScan {
    let scan = html::scan(text, usize::MAX);
    HtmlScan {
        urls: scan
            .urls
            .into_iter()
            .map(|url| HtmlUrl {
                tag: url.tag.to_string(),
                range: url.range.start..url.range.end,
                value: url.value.map(|v| v.start..v.end),
                reference: url.reference(text).to_owned(),
            })
            .collect(),
        base: scan.base,
        fetch_attributes: scan
            .fetch_attributes
            .into_iter()
            .map(|attribute| (attribute.name, attribute.urls))
            .collect(),
    }
}

/// Every CSS `url()` of a style sheet: its range in `css` and its value.
pub fn css_urls(css: &str) -> Vec<(Range<usize>, String)> {
    css::urls(css)
        .into_iter()
        .map(|url| (url.range, url.reference))
        .collect()
}

/// What the SVG scanner found.
#[derive(Debug, Clone)]
pub struct SvgScan {
    /// Every URL, sorted by range start; `tag` is the element's local name (or
    /// `xml-stylesheet`).
    pub urls: Vec<SvgUrl>,
    /// Index in `urls` of the XHTML `<base href>` that counts.
    pub base: Option<usize>,
    /// The raw values whose URLs are not at exact ranges: each range, and true when it is an
    /// entity reference rather than a value with references.
    pub inexact_values: Vec<(Range<usize>, bool)>,
    /// Where reading stopped before the end (a well-formedness error or a limit).
    pub stopped_at: Option<usize>,
}

/// One URL the SVG scanner found.
#[derive(Debug, Clone)]
pub struct SvgUrl {
    /// The element's local name.
    pub tag: String,
    /// The attribute (`xlink:href` for XLink's `href`); `None` for a `<style>` element.
    pub attribute: Option<&'static str>,
    /// The URL's bytes in the text (see the SVG scan's docs for when they are exact).
    pub range: Range<usize>,
    /// The raw value's bytes; `None` in a `<style>` element whose URLs are at exact ranges.
    pub value: Option<Range<usize>>,
    /// The URL, decoded and trimmed.
    pub reference: String,
}

/// Scans an SVG document, already decoded to UTF-8.
pub fn svg_scan(text: &str) -> SvgScan {
    let scanned = svg::scan(text, usize::MAX);
    SvgScan {
        urls: scanned
            .scan
            .urls
            .iter()
            .map(|url| SvgUrl {
                tag: url.tag.to_string(),
                attribute: url.attribute,
                range: url.range.start..url.range.end,
                value: url.value.map(|v| v.start..v.end),
                reference: url.reference(text).to_owned(),
            })
            .collect(),
        base: scanned.scan.base,
        inexact_values: scanned
            .values
            .iter()
            .map(|value| {
                (
                    value.range.start..value.range.end,
                    value.text == svg::ValueText::Entity,
                )
            })
            .collect(),
        stopped_at: scanned.stop.map(|stop| stop.at),
    }
}
