//! `text/enriched` (RFC 1896): the text a reader sees, without its formatting commands.
//!
//! We follow RFC 1896 §2 and the reference parser of its Appendix A: `<` starts a command
//! that runs to the next `>`, whatever is inside, and is not shown (unknown commands are
//! ignored); `<<` shows `<`; the text between `<param>` and `</param>` is not shown; a single
//! line break shows as a space, and `n` consecutive line breaks as `n - 1` line breaks,
//! except inside `<nofill>`, where every line break shows as it is. Command names are ASCII
//! case-insensitive; CR LF, LF and CR are each one line break.
//!
//! Thunderbird (`mimetric.cpp`) shows such a body by turning it into HTML line by line; it
//! ends a command also at white space, `<` and `&` (so `<see this>` shows ` this>`), and it
//! makes no links in it. The text here is what RFC 1896 says a reader sees.

use std::ops::Range;

use super::map::ShownText;

/// The text a reader sees of the `text/enriched` body `text` (decoded), with the map back to
/// `text`.
pub(crate) fn visible_text(text: &str) -> ShownText {
    let bytes = text.as_bytes();
    let mut shown = ShownText::default();
    let mut param_depth = 0i64;
    let mut nofill_depth = 0i64;
    // The first of a run of line breaks outside `<nofill>`: shown as a space if the run ends
    // after it, dropped if another follows.
    let mut lone_break: Option<Range<usize>> = None;
    let mut breaks = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        let next = memchr::memchr3(b'<', b'\r', b'\n', bytes.get(at..).unwrap_or_default())
            .map_or(bytes.len(), |i| at + i);
        if next > at {
            if param_depth <= 0 {
                flush_break(&mut shown, &mut lone_break, &mut breaks);
                shown.copy(text, at..next);
            }
            at = next;
            continue;
        }
        if bytes.get(at) == Some(&b'<') {
            flush_break(&mut shown, &mut lone_break, &mut breaks);
            if bytes.get(at + 1) == Some(&b'<') {
                if param_depth <= 0 {
                    shown.replace("<", at..at + 2);
                }
                at += 2;
                continue;
            }
            let Some(close) = memchr::memchr(b'>', bytes.get(at + 1..).unwrap_or_default()) else {
                // A command the text never closes: nothing after it is shown.
                break;
            };
            let name = bytes.get(at + 1..at + 1 + close).unwrap_or_default();
            if name.eq_ignore_ascii_case(b"param") {
                param_depth += 1;
            } else if name.eq_ignore_ascii_case(b"/param") {
                param_depth -= 1;
            } else if name.eq_ignore_ascii_case(b"nofill") {
                nofill_depth += 1;
            } else if name.eq_ignore_ascii_case(b"/nofill") {
                nofill_depth -= 1;
            }
            at += close + 2;
            continue;
        }
        // A line break.
        let len = if bytes.get(at..at + 2) == Some(b"\r\n") {
            2
        } else {
            1
        };
        let line_break = at..at + len;
        at += len;
        if param_depth > 0 {
            continue;
        }
        if nofill_depth <= 0 {
            breaks += 1;
            if breaks == 1 {
                lone_break = Some(line_break);
            } else {
                shown.copy(text, line_break);
            }
        } else {
            flush_break(&mut shown, &mut lone_break, &mut breaks);
            shown.copy(text, line_break);
        }
    }
    shown
}

/// Before anything else is shown: a single pending line break shows as a space.
fn flush_break(shown: &mut ShownText, lone_break: &mut Option<Range<usize>>, breaks: &mut usize) {
    if *breaks == 1
        && let Some(line_break) = lone_break.take()
    {
        shown.replace(" ", line_break);
    }
    *breaks = 0;
    *lone_break = None;
}

#[cfg(test)]
mod tests {
    use super::visible_text;

    #[test]
    fn commands_are_hidden_and_double_less_than_is_shown() {
        let shown = visible_text("<bold>Now</bold> is <<the> time");
        assert_eq!(shown.text, "Now is <the> time");
        let lt = shown.text.find('<').unwrap();
        assert_eq!(shown.map.source_range(lt..lt + 1), 20..22);
    }

    #[test]
    fn line_breaks_follow_rfc_1896() {
        assert_eq!(visible_text("one\r\ntwo").text, "one two");
        assert_eq!(visible_text("one\r\n\r\ntwo").text, "one\r\ntwo");
        assert_eq!(visible_text("one\n\n\ntwo").text, "one\n\ntwo");
        assert_eq!(
            visible_text("<nofill>one\r\ntwo</nofill>").text,
            "one\r\ntwo"
        );
        // A break before a command still shows as a space.
        assert_eq!(visible_text("one\n<bold>two</bold>").text, "one two");
        // A break at the very end shows nothing.
        assert_eq!(visible_text("one\n").text, "one");
    }

    #[test]
    fn param_content_is_hidden() {
        let body = "<color><param>red</param>see www.example.com</color>";
        let shown = visible_text(body);
        assert_eq!(shown.text, "see www.example.com");
        let url = shown.text.find("www").unwrap()..shown.text.len();
        let source = shown.map.source_range(url);
        assert_eq!(&body[source], "www.example.com");
    }

    #[test]
    fn an_unclosed_command_hides_the_rest() {
        assert_eq!(visible_text("a <bold b").text, "a ");
        assert_eq!(visible_text("<http://x.example/>").text, "");
    }

    #[test]
    fn a_link_across_a_lone_break_maps_to_the_break() {
        let body = "www.example.com\r\nnext";
        let shown = visible_text(body);
        assert_eq!(shown.text, "www.example.com next");
        assert_eq!(shown.map.source_range(15..16), 15..17);
    }
}
