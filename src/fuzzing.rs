//! Entry points into the stages of the pipeline, for the fuzz targets in `fuzz/` only: not
//! part of the API, hidden from the docs, and changed whenever a stage changes. Each
//! function runs one stage on its input and returns plain data for the targets' oracles, so
//! that a stage can be rewritten (a new HTML scanner, say) without touching the targets.

use std::ops::Range;

use crate::options::Options;
use crate::{css, headers, html, mime, text};

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

/// One link the plain-text finder found.
#[derive(Debug, Clone)]
pub struct TextLink {
    /// The link text's bytes in the text.
    pub range: Range<usize>,
    /// The URL it opens.
    pub href: String,
    /// `absolute`, `www` or `email`.
    pub kind: &'static str,
    /// `none`, `rfc1738` (`<URL:…>`), `angle` (`<…>`) or `quotes` (`"…"`).
    pub delimiter: &'static str,
}

/// Every link Thunderbird's rules make of `text`, and whether every candidate was checked.
pub fn text_links(text: &str) -> (Vec<TextLink>, bool) {
    let mut links = Vec::new();
    let completeness = text::find_links(text, |link| {
        links.push(TextLink {
            range: link.range,
            href: link.href,
            kind: match link.kind {
                text::LinkKind::Absolute => "absolute",
                text::LinkKind::Www => "www",
                text::LinkKind::Email => "email",
            },
            delimiter: match link.delimiter {
                text::Delimiter::None => "none",
                text::Delimiter::Rfc1738 => "rfc1738",
                text::Delimiter::AngleBrackets => "angle",
                text::Delimiter::Quotes => "quotes",
            },
        });
    });
    (links, completeness == text::Completeness::Complete)
}

/// A text as a reader sees it, with the map back to the body it was made from.
#[derive(Debug, Clone)]
pub struct Shown {
    /// What the reader sees.
    pub text: String,
    /// The map's pieces in order: bytes of `text`, the bytes of the body they stand for, and
    /// whether they are those bytes unchanged.
    pub pieces: Vec<(Range<usize>, Range<usize>, bool)>,
    map: text::OffsetMap,
}

impl Shown {
    fn new(shown: text::ShownText) -> Shown {
        Shown {
            pieces: shown.map.pieces().collect(),
            text: shown.text,
            map: shown.map,
        }
    }

    /// The body bytes behind the shown bytes `range`.
    pub fn source_range(&self, range: Range<usize>) -> Range<usize> {
        self.map.source_range(range)
    }
}

/// A `format=flowed` body joined (RFC 3676); `delete_space` is `delsp=yes`.
pub fn unflow(body: &str, delete_space: bool) -> Shown {
    Shown::new(text::flowed::unflow(body, delete_space))
}

/// The visible text of a `text/enriched` body (RFC 1896).
pub fn enriched_text(body: &str) -> Shown {
    Shown::new(text::enriched::visible_text(body))
}
