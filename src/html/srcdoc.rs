//! `<iframe srcdoc>` documents: the HTML inside an attribute value, decoded, with the map from
//! its offsets back to the raw value, so that a URL found in it gets a byte range in the part.
//!
//! The HTML Standard's [`srcdoc`](https://html.spec.whatwg.org/multipage/iframe-embed-object.html#attr-iframe-srcdoc)
//! attribute holds the source of a whole document, which the iframe shows instead of fetching
//! its `src`. Its value is an attribute value like any other: character references are decoded
//! (a document in a double-quoted `srcdoc` writes its own quotes as `&quot;`), and NUL becomes
//! U+FFFD (the [attribute value states](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state)).
//!
//! The decoding is htmlize's (`unescape_attribute`, the HTML Standard's character reference
//! rules for attribute values), run on each reference alone, so that the text between
//! references maps byte for byte onto the raw value and a URL there keeps its exact range; a
//! range that starts or ends inside what a reference decoded to is widened to the whole
//! reference. The result is checked against the tokenizer's own decoding of the value: when the
//! two disagree, the document is still scanned, from the tokenizer's decoding, and every
//! range in it is the whole value.

use std::ops::Range;

/// A piece of a decoded value and the raw bytes it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Segment {
    /// The raw bytes, as offsets into the text the value is in.
    outer: Range<usize>,
    /// The decoded bytes, as offsets into the decoded value.
    inner: Range<usize>,
    /// True when the decoded bytes are the raw bytes (text between references).
    exact: bool,
}

/// Maps offsets of a decoded attribute value back onto the raw value in the text it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ValueMap {
    /// In order, covering the decoded value; empty for a coarse map (see [`ValueMap::coarse`]).
    segments: Vec<Segment>,
    /// The raw value in the outer text.
    value: Range<usize>,
}

impl ValueMap {
    /// A map that sends every range to the whole raw value `value`: for a value whose decoding
    /// could not be followed piece by piece.
    fn coarse(value: Range<usize>) -> Self {
        ValueMap {
            segments: Vec::new(),
            value,
        }
    }

    /// The raw bytes (offsets into the outer text) that `range` of the decoded value was
    /// decoded from: exact where the range starts and ends in text between references, else
    /// widened to the references it starts or ends in; the whole raw value for a coarse map.
    pub(crate) fn to_outer(&self, range: Range<usize>) -> Range<usize> {
        if self.segments.is_empty() {
            return self.value.clone();
        }
        // The segment the range starts in, and the one it ends in (binary searches: the
        // segments are in order).
        let first = self
            .segments
            .partition_point(|s| s.inner.end <= range.start);
        let start = self.segments.get(first).map_or(self.value.end, |s| {
            if s.exact {
                s.outer.start + (range.start - s.inner.start)
            } else {
                s.outer.start
            }
        });
        let last = self.segments.partition_point(|s| s.inner.start < range.end);
        let end = last
            .checked_sub(1)
            .and_then(|i| self.segments.get(i))
            .map_or(self.value.start, |s| {
                if s.exact {
                    s.outer.start + (range.end.min(s.inner.end) - s.inner.start)
                } else {
                    s.outer.end
                }
            });
        start.min(end)..end.max(start)
    }
}

/// The decoded value of the raw attribute value `raw`, which stands at `at` in its text, and
/// the map of its offsets back onto the text. `tokenizer_decoded` is the tokenizer's own
/// decoding of the value, `None` when the value held no character reference or NUL (and so
/// is the raw value itself).
pub(crate) fn decode(raw: &str, at: usize, tokenizer_decoded: Option<&str>) -> (String, ValueMap) {
    let value = at..at + raw.len();
    let Some(expected) = tokenizer_decoded else {
        let map = ValueMap {
            segments: vec![Segment {
                outer: value.clone(),
                inner: 0..raw.len(),
                exact: true,
            }],
            value,
        };
        return (raw.to_owned(), map);
    };
    let mut decoded = String::with_capacity(raw.len());
    let mut segments = Vec::new();
    let literal = |decoded: &mut String, segments: &mut Vec<Segment>, from: usize, to: usize| {
        if to > from {
            let start = decoded.len();
            decoded.push_str(raw.get(from..to).unwrap_or_default());
            segments.push(Segment {
                outer: at + from..at + to,
                inner: start..decoded.len(),
                exact: true,
            });
        }
    };
    let mut pos = 0;
    while let Some(stop) =
        memchr::memchr2(b'&', b'\0', raw.as_bytes().get(pos..).unwrap_or_default())
    {
        let stop = pos + stop;
        literal(&mut decoded, &mut segments, pos, stop);
        if raw.as_bytes().get(stop) == Some(&b'\0') {
            let start = decoded.len();
            decoded.push('\u{FFFD}');
            segments.push(Segment {
                outer: at + stop..at + stop + 1,
                inner: start..decoded.len(),
                exact: false,
            });
            pos = stop + 1;
            continue;
        }
        // A reference never holds `&` or NUL: what follows it up to the next one is text.
        let piece_end = memchr::memchr2(
            b'&',
            b'\0',
            raw.as_bytes().get(stop + 1..).unwrap_or_default(),
        )
        .map_or(raw.len(), |i| stop + 1 + i);
        let piece = raw.get(stop..piece_end).unwrap_or_default();
        let reference_len = reference_length(piece);
        let reference = piece.get(..reference_len).unwrap_or_default();
        let start = decoded.len();
        decoded.push_str(&htmlize::unescape_attribute(reference));
        segments.push(Segment {
            outer: at + stop..at + stop + reference_len,
            inner: start..decoded.len(),
            exact: reference_len == 1 && decoded.get(start..) == Some("&"),
        });
        literal(&mut decoded, &mut segments, stop + reference_len, piece_end);
        pos = piece_end;
    }
    literal(&mut decoded, &mut segments, pos, raw.len());
    // The tokenizer turned CR and CRLF into LF (the input stream's preprocessing); the text
    // here keeps them, as the part's text does, and the scan of the document reads them the
    // same way.
    if normalize_newlines(&decoded) == normalize_newlines(expected) {
        (decoded, ValueMap { segments, value })
    } else {
        (expected.to_owned(), ValueMap::coarse(value))
    }
}

/// How many bytes at the start of `piece` (which starts with `&` and holds no other `&`) a
/// character reference takes: the fewest bytes whose decoding, followed by the rest as it is,
/// gives the decoding of the whole piece; 1 when the `&` starts no reference.
fn reference_length(piece: &str) -> usize {
    let whole = htmlize::unescape_attribute(piece);
    // The longest reference, `&CounterClockwiseContourIntegral;`, has 33 bytes; numeric ones
    // may have any number of leading zeros, which this reads as text past its bound.
    const LONGEST: usize = 40;
    for length in 1..=piece.len().min(LONGEST) {
        let (Some(reference), Some(rest)) = (piece.get(..length), piece.get(length..)) else {
            continue;
        };
        let Some(decoded_len) = whole.len().checked_sub(rest.len()) else {
            continue;
        };
        if whole.get(decoded_len..) == Some(rest)
            && whole.get(..decoded_len) == Some(&*htmlize::unescape_attribute(reference))
        {
            return length;
        }
    }
    piece.len()
}

/// `text` with CRLF and CR turned into LF.
fn normalize_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(raw: &str) -> (String, ValueMap) {
        let expected = htmlize::unescape_attribute(raw).replace('\0', "\u{FFFD}");
        decode(raw, 10, Some(&expected))
    }

    #[test]
    fn text_between_references_maps_exactly() {
        let raw = "<a href=&quot;http://x/a?b=1&amp;c=2&quot;>x</a>";
        let (text, map) = decoded(raw);
        assert_eq!(text, "<a href=\"http://x/a?b=1&c=2\">x</a>");
        let url = text.find("http").unwrap();
        // `http://x/a?b=1` is text: exact.
        assert_eq!(map.to_outer(url..url + 14), 10 + 14..10 + 28);
        assert_eq!(&raw[14..28], "http://x/a?b=1");
        // Through `&amp;`: the range widens over the reference.
        assert_eq!(map.to_outer(url..url + 18), 10 + 14..10 + 36);
        assert_eq!(&raw[14..36], "http://x/a?b=1&amp;c=2");
        // Starting inside what `&quot;` decoded to: widened to the reference.
        assert_eq!(map.to_outer(url - 1..url), 10 + 8..10 + 14);
    }

    #[test]
    fn ampersands_that_start_no_reference_are_text() {
        for raw in [
            "a&b",
            "&ampx=1",
            "&",
            "x&#",
            "&amp",
            "&#59;;",
            "&NotEqualTilde;x",
        ] {
            let (text, map) = decoded(raw);
            assert_eq!(text, htmlize::unescape_attribute(raw), "{raw}");
            // The whole decoded text maps onto the whole raw value.
            assert_eq!(map.to_outer(0..text.len()), 10..10 + raw.len(), "{raw}");
        }
        let (_, map) = decoded("&ampx");
        assert_eq!(map.to_outer(1..4), 11..14);
    }

    #[test]
    fn nul_and_disagreement() {
        let (text, map) = decoded("a\0b");
        assert_eq!(text, "a\u{FFFD}b");
        assert_eq!(map.to_outer(4..5), 12..13);
        // When the tokenizer decoded otherwise, every range is the whole value.
        let (text, map) = decode("&amp;x", 3, Some("something else"));
        assert_eq!(text, "something else");
        assert_eq!(map.to_outer(0..2), 3..9);
    }

    #[test]
    fn a_value_without_references_is_its_own_text() {
        let (text, map) = decode("<a href=x>", 5, None);
        assert_eq!(text, "<a href=x>");
        assert_eq!(map.to_outer(8..9), 13..14);
        assert_eq!(map.to_outer(10..10), 15..15);
    }
}
