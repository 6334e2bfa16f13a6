//! The edits of an HTML part's decoded text that put new URLs in place of old ones, each
//! escaped for where it stands: HTML attribute quoting and `&amp;` (HTML Standard §13.1.2.3),
//! CSS escapes inside `url()` (CSS Syntax §4.3.5, §4.3.6), and a `srcdoc` document written
//! back whole into its attribute.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use crate::analyze::HtmlPart;
use crate::html::{self, UrlKind, value_urls};
use crate::report::ByteRange;
use crate::svg::{SvgValue, ValueText};
use crate::vocab::DocumentKind;

/// The edits of the decoded text: `(range in the text, new text)`, sorted, not overlapping.
///
/// The URLs of an `<iframe srcdoc>` document are edited in its own text, which is then
/// written back whole as the `srcdoc` value, escaped for it (a `srcdoc` value holds a document
/// whose own quotes are character references): innermost documents first.
pub(super) fn text_edits<'a>(
    part: &HtmlPart,
    resolved_of: &dyn Fn(usize) -> Option<&'a str>,
) -> Vec<(Range<usize>, String)> {
    let documents = part.srcdocs.len() + 1;
    let mut urls_of: Vec<Vec<&(html::HtmlUrl, usize)>> = vec![Vec::new(); documents];
    for url in &part.urls {
        if let Some(list) = urls_of.get_mut(url.0.document) {
            list.push(url);
        }
    }
    let text_of = |document: usize| match document.checked_sub(1) {
        None => part.text.as_str(),
        Some(i) => part.srcdocs.get(i).map_or("", |s| s.text.as_str()),
    };
    let mut edits_of: Vec<Vec<(Range<usize>, String)>> = urls_of
        .iter()
        .enumerate()
        .map(|(document, urls)| {
            // Only the part's own document can be SVG: `srcdoc` documents are HTML.
            let xml = (document == 0 && part.document.kind == DocumentKind::Svg)
                .then_some(part.svg_values.as_slice());
            document_edits(text_of(document), urls, xml, resolved_of)
        })
        .collect();
    for (index, srcdoc) in part.srcdocs.iter().enumerate().rev() {
        let edits = std::mem::take(edits_of.get_mut(index + 1).unwrap_or(&mut Vec::new()));
        if edits.is_empty() {
            continue;
        }
        let new = apply_to_text(&srcdoc.text, &edits);
        let parent = text_of(srcdoc.parent);
        let quote = srcdoc
            .value
            .start
            .checked_sub(1)
            .and_then(|i| parent.as_bytes().get(i))
            .copied()
            .filter(|b| matches!(b, b'"' | b'\''));
        let replacement = match quote {
            Some(_) => escape_attribute(&new, quote),
            None if needs_quotes(&new) => format!("\"{}\"", escape_attribute(&new, Some(b'"'))),
            None => escape_attribute(&new, None),
        };
        if let Some(list) = edits_of.get_mut(srcdoc.parent) {
            list.push((srcdoc.value.start..srcdoc.value.end, replacement));
            list.sort_by_key(|(range, _)| (range.start, range.end));
        }
    }
    edits_of.into_iter().next().unwrap_or_default()
}

/// Whether the URL `url` of `part` can be given a new value: every URL but, in an SVG
/// document, one that came from an entity's replacement text (it lies nowhere in the text)
/// and one in a `<style>` element whose text is not one run of characters, which
/// [`document_edits`] leaves as they are.
pub(crate) fn is_editable(part: &HtmlPart, url: &html::HtmlUrl) -> bool {
    if url.document != 0 || part.document.kind != DocumentKind::Svg {
        return true;
    }
    let svg_value = |range: ByteRange| {
        part.svg_values
            .binary_search_by_key(&(range.start, range.end), |v| (v.range.start, v.range.end))
            .ok()
            .and_then(|i| part.svg_values.get(i))
    };
    match url.value {
        None => svg_value(url.range).is_none(),
        Some(value) => !matches!(svg_value(value).map(|v| &v.text), Some(ValueText::Entity)),
    }
}

/// `text` with `edits` (sorted, not overlapping ranges of it) made.
fn apply_to_text(text: &str, edits: &[(Range<usize>, String)]) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for (range, new) in edits {
        out.push_str(text.get(at..range.start).unwrap_or_default());
        out.push_str(new);
        at = range.end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

/// The edits of one document's text (the part's own, or a `srcdoc` document's) for its URLs
/// `urls`. `xml` is `Some` for an SVG document, with the values whose URLs are not at exact
/// ranges as the SVG scan decoded them: new text is then escaped for XML (XML 1.0 §2.4, §3.1:
/// `&` and `<` always, and the quote that delimits an attribute value), a value is rebuilt from
/// its XML decoding, and a URL that came from an entity's replacement text, or from a
/// `<style>` element whose text is not one run of characters, is left as it is.
fn document_edits<'a>(
    text: &str,
    urls: &[&(html::HtmlUrl, usize)],
    xml: Option<&[SvgValue]>,
    resolved_of: &dyn Fn(usize) -> Option<&'a str>,
) -> Vec<(Range<usize>, String)> {
    let svg_value = |range: ByteRange| {
        xml.and_then(|values| {
            values
                .binary_search_by_key(&(range.start, range.end), |v| (v.range.start, v.range.end))
                .ok()
                .and_then(|i| values.get(i))
        })
    };
    let escape = |value: &str, quote: Option<u8>| match xml {
        Some(_) => escape_xml_attribute(value, quote),
        None => escape_attribute(value, quote),
    };
    let byte_before = |at: usize| {
        at.checked_sub(1)
            .and_then(|i| text.as_bytes().get(i))
            .copied()
    };
    let mut edits = Vec::new();
    // The records of the URLs of each attribute value (a `srcset` holds several), gathered
    // once: looking them up per URL would take time quadratic in their number.
    let mut records_of_value: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    for (url, record) in urls.iter().copied() {
        if let Some(value) = url.value {
            records_of_value
                .entry((value.start, value.end))
                .or_default()
                .push(*record);
        }
    }
    let mut rebuilt: HashSet<(usize, usize)> = HashSet::new();
    for (url, record) in urls.iter().copied() {
        let Some(value) = url.value else {
            // CSS in a <style> element: raw text, exact range (in XML, text that is not one
            // run of characters is left alone, and `&` is written as a CSS escape).
            if xml.is_some() && svg_value(url.range).is_some() {
                continue;
            }
            if let Some(resolved) = resolved_of(*record) {
                let quote = byte_before(url.range.start).filter(|b| matches!(b, b'"' | b'\''));
                let mut new = css_escape(resolved, quote);
                if xml.is_some() {
                    new = new.replace('&', "\\26 ");
                }
                edits.push((url.range.start..url.range.end, new));
            }
            continue;
        };
        let raw_value = text.get(value.start..value.end).unwrap_or_default();
        let quote = byte_before(value.start).filter(|b| matches!(b, b'"' | b'\''));
        let decoded_by_xml = match svg_value(value).map(|v| &v.text) {
            Some(ValueText::Entity) => continue,
            Some(ValueText::Decoded(decoded)) => Some(decoded.as_str()),
            None => None,
        };
        if quote.is_some() && !raw_value.contains('&') && decoded_by_xml.is_none() {
            if let Some(resolved) = resolved_of(*record) {
                let new = match url.kind {
                    UrlKind::StyleAttribute => {
                        let css_quote =
                            byte_before(url.range.start).filter(|b| matches!(b, b'"' | b'\''));
                        css_escape(resolved, css_quote)
                    }
                    _ => resolved.to_owned(),
                };
                edits.push((url.range.start..url.range.end, escape(&new, quote)));
            }
            continue;
        }
        // A value with character references, or unquoted: written anew whole, once.
        if !rebuilt.insert((value.start, value.end)) {
            continue;
        }
        let siblings = records_of_value
            .get(&(value.start, value.end))
            .map_or(&[][..], Vec::as_slice);
        if siblings.iter().all(|record| resolved_of(*record).is_none()) {
            continue;
        }
        let decoded = match decoded_by_xml {
            Some(decoded) => std::borrow::Cow::Borrowed(decoded),
            None => htmlize::unescape_attribute(raw_value),
        };
        let mut new = String::with_capacity(decoded.len() + 64);
        let mut at = 0;
        for ((range, _), record) in value_urls(url.kind, &decoded).into_iter().zip(siblings) {
            let Some(resolved) = resolved_of(*record) else {
                continue;
            };
            new.push_str(decoded.get(at..range.start).unwrap_or_default());
            if url.kind == UrlKind::StyleAttribute {
                let css_quote = range
                    .start
                    .checked_sub(1)
                    .and_then(|i| decoded.as_bytes().get(i))
                    .copied()
                    .filter(|b| matches!(b, b'"' | b'\''));
                new.push_str(&css_escape(resolved, css_quote));
            } else {
                new.push_str(resolved);
            }
            at = range.end;
        }
        new.push_str(decoded.get(at..).unwrap_or_default());
        let replacement = match quote {
            Some(_) => escape(&new, quote),
            None if needs_quotes(&new) => format!("\"{}\"", escape(&new, Some(b'"'))),
            None => escape(&new, None),
        };
        edits.push((value.start..value.end, replacement));
    }
    edits.sort_by_key(|(range, _)| (range.start, range.end));
    edits
}

/// An attribute value escaped for its context (HTML standard §13.1.2.3): `&` always, and the
/// quote that delimits it.
pub(super) fn escape_attribute(value: &str, quote: Option<u8>) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' if quote == Some(b'"') => out.push_str("&quot;"),
            '\'' if quote == Some(b'\'') => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// An attribute value escaped for XML (XML 1.0 §2.4, §3.3.3): `&` and `<` always, the quote
/// that delimits it, and tab, LF and CR as character references, which attribute-value
/// normalization would otherwise turn into spaces.
fn escape_xml_attribute(value: &str, quote: Option<u8>) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' if quote == Some(b'"') => out.push_str("&quot;"),
            '\'' if quote == Some(b'\'') => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            _ => out.push(c),
        }
    }
    out
}

/// True when an unquoted attribute value cannot hold `value` (HTML standard §13.1.2.3:
/// no white space, `"`, `'`, `=`, `<`, `>`, `` ` ``, and not empty).
pub(super) fn needs_quotes(value: &str) -> bool {
    value.is_empty()
        || value
            .chars()
            .any(|c| c.is_ascii_whitespace() || matches!(c, '"' | '\'' | '=' | '<' | '>' | '`'))
}

/// A URL written for a CSS `url()` (CSS Syntax §4.3.6, §4.3.5): inside a string delimited by
/// `quote`, or unquoted. Characters that would end the token, `\`, `<` (so that `</style`
/// cannot appear), and every non-ASCII character (so that the charset never matters) are
/// written as CSS escapes `\HEX `.
pub(crate) fn css_escape(url: &str, quote: Option<u8>) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        let escape = match c {
            '\\' | '<' => true,
            '"' | '\'' => quote.is_none() || quote == Some(c as u8),
            '(' | ')' => quote.is_none(),
            c if c.is_ascii_whitespace() || c.is_ascii_control() => true,
            c => !c.is_ascii(),
        };
        if escape {
            out.push_str(&format!("\\{:x} ", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_for_attribute_and_css_contexts() {
        assert_eq!(
            escape_attribute("a?x=1&y='2'", Some(b'\'')),
            "a?x=1&amp;y=&#39;2&#39;"
        );
        assert_eq!(
            escape_attribute("say \"hi\"", Some(b'"')),
            "say &quot;hi&quot;"
        );
        assert!(needs_quotes("a b") && needs_quotes("") && !needs_quotes("http://x/"));
        assert_eq!(
            css_escape("http://x/a b(1)", None),
            "http://x/a\\20 b\\28 1\\29 "
        );
        assert_eq!(css_escape("http://x/it's", Some(b'"')), "http://x/it's");
        assert_eq!(
            css_escape("http://x/é</style>", Some(b'\'')),
            "http://x/\\e9 \\3c /style>"
        );
    }
}
