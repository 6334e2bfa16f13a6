//! `format=flowed` (RFC 3676): the paragraphs a reader sees, joined from the lines that were
//! sent.
//!
//! A line that ends in a space before its line break is flowed (§4.1): the break is soft, and
//! the next line continues the paragraph. The signature separator `-- ` is never flowed
//! (§4.3). A line's quote depth is the number of `>` at its start, and one space after them,
//! or at the start of an unquoted line, is space-stuffing, not text (§4.4, §4.5). A flowed
//! line joins the next only at the same quote depth: a change of depth ends the paragraph
//! (§4.5, the "quote-depth-wins" rule). With `delsp=yes` the space that marks a flowed line
//! is removed when the lines are joined (§4.2); without it, it stays, between the words.
//!
//! [`unflow`] keeps the quotation marks of each paragraph's first line (and the space after
//! them) so that links are found in quoted paragraphs as in a quoted plain-text line, and
//! drops those of its other lines; it keeps each paragraph's final line break.
//!
//! Thunderbird's own view of flowed text (`mimetpfl.cpp`) runs `ScanTXT` on each sent line
//! apart, so it links a URL broken by a soft line break only up to the break; joining first
//! finds the whole URL that the reader sees as one word.

use std::ops::Range;

use super::map::ShownText;

/// One line as sent.
struct SentLine {
    /// The `>` at its start.
    quotes: Range<usize>,
    /// The space-stuffing after them, if any.
    stuffing: Option<Range<usize>>,
    /// The text, without the space that marks a flowed line.
    content: Range<usize>,
    /// The space that marks it flowed.
    flow_space: Option<Range<usize>>,
    /// Its line break (empty on a last line without one).
    line_break: Range<usize>,
}

impl SentLine {
    /// Reads the line of `text` that starts at byte `start`.
    fn read(bytes: &[u8], start: usize) -> SentLine {
        let break_at = memchr::memchr2(b'\r', b'\n', bytes.get(start..).unwrap_or_default())
            .map_or(bytes.len(), |i| start + i);
        let break_end = match (bytes.get(break_at), bytes.get(break_at + 1)) {
            (Some(b'\r'), Some(b'\n')) => break_at + 2,
            (Some(_), _) => break_at + 1,
            (None, _) => break_at,
        };
        let mut at = start;
        while at < break_at && bytes.get(at) == Some(&b'>') {
            at += 1;
        }
        let quotes = start..at;
        let stuffing = (bytes.get(at) == Some(&b' ') && at < break_at).then(|| {
            at += 1;
            at - 1..at
        });
        let content = at..break_at;
        // Flowed: ends in a space after at least one other character, and is not `-- `.
        let flowed = content.len() >= 2
            && bytes.get(break_at - 1) == Some(&b' ')
            && bytes.get(content.clone()) != Some(b"-- ");
        let (content, flow_space) = if flowed {
            (content.start..break_at - 1, Some(break_at - 1..break_at))
        } else {
            (content, None)
        };
        SentLine {
            quotes,
            stuffing,
            content,
            flow_space,
            line_break: break_at..break_end,
        }
    }
}

/// The text a reader sees of the `format=flowed` body `text` (decoded), with the map back to
/// `text`; `delete_space` is the `delsp=yes` parameter.
pub(crate) fn unflow(text: &str, delete_space: bool) -> ShownText {
    let bytes = text.as_bytes();
    let mut shown = ShownText::default();
    // The flowed line before, waiting to learn whether the next one continues it: its
    // quote depth, flow space and line break.
    let mut pending: Option<(usize, Range<usize>, Range<usize>)> = None;
    let mut start = 0;
    while start < bytes.len() {
        let line = SentLine::read(bytes, start);
        let depth = line.quotes.len();
        match pending.take() {
            Some((pending_depth, space, _)) if pending_depth == depth => {
                if !delete_space {
                    shown.copy(text, space);
                }
            }
            other => {
                if let Some((_, space, line_break)) = other {
                    shown.copy(text, space);
                    shown.copy(text, line_break);
                }
                if depth > 0 {
                    shown.copy(text, line.quotes.clone());
                    if let Some(stuffing) = line.stuffing.clone() {
                        shown.copy(text, stuffing);
                    }
                }
            }
        }
        shown.copy(text, line.content.clone());
        match line.flow_space {
            Some(space) => pending = Some((depth, space, line.line_break.clone())),
            None => shown.copy(text, line.line_break.clone()),
        }
        if line.line_break.end <= start {
            break;
        }
        start = line.line_break.end;
    }
    if let Some((_, space, line_break)) = pending {
        shown.copy(text, space);
        shown.copy(text, line_break);
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::unflow;

    /// `text` unflowed, and the body bytes behind `shown[range]`.
    fn unflowed(text: &str, delete_space: bool) -> String {
        unflow(text, delete_space).text
    }

    #[test]
    fn soft_breaks_join_and_hard_breaks_stay() {
        let body = "one two \r\nthree\r\nfour\r\n";
        assert_eq!(unflowed(body, false), "one two three\r\nfour\r\n");
        assert_eq!(unflowed(body, true), "one twothree\r\nfour\r\n");
    }

    #[test]
    fn space_stuffing_is_removed_and_quotes_kept_once() {
        let body = " From here \r\n on\r\n> quoted \r\n> more\r\n>> deeper\r\n";
        assert_eq!(
            unflowed(body, false),
            "From here on\r\n> quoted more\r\n>> deeper\r\n"
        );
    }

    #[test]
    fn a_change_of_quote_depth_ends_the_paragraph() {
        let body = "> quoted \r\nnot quoted\r\n";
        assert_eq!(unflowed(body, true), "> quoted \r\nnot quoted\r\n");
    }

    #[test]
    fn the_signature_separator_is_not_flowed() {
        let body = "text\r\n-- \r\nJoe\r\n";
        assert_eq!(unflowed(body, true), body);
    }

    #[test]
    fn a_url_across_a_soft_break_maps_back_across_it() {
        let body = "see https://example.com/a/very/long/ \r\n path/to/page.html now\r\n";
        let shown = unflow(body, true);
        assert_eq!(
            shown.text,
            "see https://example.com/a/very/long/path/to/page.html now\r\n"
        );
        let url = shown.text.find("https").unwrap()..shown.text.find(" now").unwrap();
        let source = shown.map.source_range(url);
        assert_eq!(
            &body[source.clone()],
            "https://example.com/a/very/long/ \r\n path/to/page.html"
        );
        assert_eq!(source, 4..57);
    }

    #[test]
    fn a_last_line_without_a_break_and_an_empty_body() {
        assert_eq!(unflowed("a \r\nb", false), "a b");
        assert_eq!(unflowed("a ", false), "a ");
        assert_eq!(unflowed("", false), "");
    }
}
