//! CSS in an SVG document that is not in an attribute: the text of `<style>` elements, put
//! together from the pieces XML splits it into, and `<?xml-stylesheet?>` processing
//! instructions.

use std::borrow::Cow;
use std::ops::Range;

use super::syntax::normalize_without_dtd;
use super::{SvgValue, ValueText};
use crate::html::{UrlKind, value_urls};
use crate::report::ByteRange;

/// The text of an open `<style>` element, as the CSS parser will read it: its child text and
/// CDATA sections, references decoded (Chromium's style element reads the text of its children
/// that are text nodes; comments, processing instructions and child elements add nothing).
#[derive(Debug)]
pub(super) struct StyleText {
    /// Where its content starts in the document, or the reference its start tag came from.
    place: Result<usize, Range<usize>>,
    /// The text.
    css: String,
    /// The pieces of `css`: where each starts in it, and where it lies in the document when it
    /// is a run of text or CDATA written there (`None` for a decoded reference, or text read
    /// from an entity's replacement text).
    pieces: Vec<(usize, Option<usize>)>,
}

impl StyleText {
    /// The text of a `<style>` whose content starts at `place` (a byte offset of the
    /// document), or whose start tag came from the entity reference at `place`.
    pub fn new(place: Result<usize, Range<usize>>) -> Self {
        StyleText {
            place,
            css: String::new(),
            pieces: Vec::new(),
        }
    }

    /// Adds a piece of text, found at byte `at` of the document when it is written there.
    pub fn push(&mut self, text: &str, at: Option<usize>) {
        self.pieces.push((self.css.len(), at));
        self.css.push_str(text);
    }

    /// The URLs of the text, each with its range in the document and its reference, for an
    /// element whose content ends at `end` of the document (`None` when it lies in an
    /// entity's replacement text). A URL that one piece written in the document holds whole
    /// has its exact range; when one does not, every URL of the element gets the whole
    /// content as range, and the content is returned as the value to write anew.
    pub fn urls(self, end: Option<usize>) -> (Vec<(ByteRange, String)>, Option<SvgValue>) {
        let found = value_urls(UrlKind::StyleElement, &self.css);
        if found.is_empty() {
            return (Vec::new(), None);
        }
        let exact = |range: &Range<usize>| {
            let index = self
                .pieces
                .partition_point(|(start, _)| *start <= range.start);
            let (start, at) = *self.pieces.get(index.checked_sub(1)?)?;
            let next = self
                .pieces
                .get(index)
                .map_or(self.css.len(), |(next, _)| *next);
            let at = at?;
            (range.end <= next).then(|| at + range.start - start..at + range.end - start)
        };
        let ranges: Vec<Option<Range<usize>>> =
            found.iter().map(|(range, _)| exact(range)).collect();
        if ranges.iter().all(Option::is_some) {
            let urls = found
                .into_iter()
                .zip(ranges)
                .filter_map(|((_, reference), range)| Some((ByteRange::from(range?), reference)))
                .collect();
            return (urls, None);
        }
        let (range, text) = match (&self.place, end) {
            (Ok(start), Some(end)) => (*start..end.max(*start), ValueText::Decoded(self.css)),
            (Err(span), _) => (span.clone(), ValueText::Entity),
            // An element opened in the document ends there.
            (Ok(start), None) => (*start..*start, ValueText::Entity),
        };
        let range = ByteRange::from(range);
        let urls = found
            .into_iter()
            .map(|(_, reference)| (range, reference))
            .collect();
        (urls, Some(SvgValue { range, text }))
    }
}

/// The raw `href` of an `<?xml-stylesheet?>` processing instruction whose data (after its
/// target) is `data`, when a browser loads the sheet: the W3C's "Associating Style Sheets with
/// XML documents"; Chromium reads the pseudo-attributes as the attributes of an element, with
/// no DTD (a malformed one, or a reference to an entity other than the five predefined ones,
/// and nothing is loaded), and loads a sheet of type CSS (no `type`, an empty one, or
/// `text/css`) or XSLT, unless it is an alternate one (`alternate="yes"`) without a title.
pub(super) fn stylesheet_href(data: &str) -> Option<&str> {
    let mut href = None;
    let (mut kind, mut alternate, mut title) = (None, None, None);
    for attribute in quick_xml::events::attributes::Attributes::new(data, 0) {
        let attribute = attribute.ok()?;
        let Cow::Borrowed(raw) = attribute.value else {
            return None;
        };
        let value = normalize_without_dtd(raw)?;
        match attribute.key.0 {
            "href" => href = Some(raw),
            "type" => kind = Some(value),
            "alternate" => alternate = Some(value),
            "title" => title = Some(value),
            _ => {}
        }
    }
    let is_css = kind
        .as_deref()
        .is_none_or(|k| k.is_empty() || k == "text/css");
    let is_xsl = kind.as_deref().is_some_and(|k| {
        matches!(
            k,
            "text/xml"
                | "text/xsl"
                | "application/xml"
                | "application/xhtml+xml"
                | "application/rss+xml"
                | "application/atom+xml"
        )
    });
    let unused_alternate =
        alternate.as_deref() == Some("yes") && title.as_deref().is_none_or(str::is_empty);
    if (is_css || is_xsl) && !unused_alternate {
        href
    } else {
        None
    }
}
