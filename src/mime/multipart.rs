//! The body parts of a multipart entity (RFC 2046 §5.1.1): where its delimiter lines are.

use std::ops::Range;

use super::header;

/// The body parts of a multipart body.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Multipart {
    /// Each part, from after its delimiter line to before the line break that precedes the
    /// next delimiter (RFC 2046 §5.1.1: that line break belongs to the delimiter).
    pub parts: Vec<Range<usize>>,
    /// Whether a close delimiter was found.
    pub closed: bool,
}

/// Finds the delimiter lines `--boundary` of `raw[body]`: only at the start of a line
/// (RFC 2046 §5.1.1), followed by optional `--` (close delimiter) and optional linear white
/// space up to the end of the line. Anything else after the boundary means the line is not a
/// delimiter.
pub(super) fn split(raw: &[u8], body: Range<usize>, boundary: &[u8]) -> Multipart {
    let mut delimiter = b"--".to_vec();
    delimiter.extend_from_slice(boundary);
    let text = raw.get(body.clone()).unwrap_or_default();
    let mut parts = Vec::new();
    let mut part_start: Option<usize> = None;
    let mut closed = false;
    let mut finder = DelimiterFinder::new(&delimiter);
    let mut from = 0;
    while let Some(at) = finder.find(text, from) {
        let after = at + delimiter.len();
        from = after;
        if at > 0 && text.get(at - 1) != Some(&b'\n') {
            continue;
        }
        let rest = text.get(after..).unwrap_or_default();
        let line_len = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let line = rest.get(..line_len).unwrap_or_default();
        let (is_close, tail) = match line.strip_prefix(b"--") {
            Some(tail) => (true, tail),
            None => (false, line),
        };
        if !tail
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            continue;
        }
        if let Some(start) = part_start.take() {
            let end = header::trim_line_break(text, start, at);
            parts.push(body.start + start..body.start + end);
        }
        if is_close {
            closed = true;
            break;
        }
        part_start = Some(after + line_len);
    }
    if let Some(start) = part_start {
        let start = start.min(text.len());
        parts.push(body.start + start..body.end);
    }
    Multipart { parts, closed }
}

/// How many bytes of a delimiter [`DelimiterFinder`] searches for: the longest needle memchr
/// searches with its packed SIMD search (memchr 2.8, `do_packed_search`).
const DELIMITER_PREFIX: usize = 32;

/// How many candidates [`DelimiterFinder`] may reject before it searches for the whole
/// delimiter instead.
const DELIMITER_REJECTS: usize = 64;

/// Finds a delimiter line's `--boundary`: the leftmost occurrence at or after a position,
/// as `memmem::find_iter` gives them.
///
/// Most delimiters are longer than [`DELIMITER_PREFIX`] (`--` and a boundary of 30 to 70
/// characters), and for those memchr builds a Two-Way searcher, one per multipart, whose
/// tables cost more to build than searching a typical multipart body does (docs/PERFORMANCE.md
/// has the figures). So the first [`DELIMITER_PREFIX`] bytes are searched for, with a searcher
/// that is cheap to build, and the rest is compared where they occur. A text can hold the
/// prefix often without the rest (a boundary of dashes), which would cost a comparison each:
/// after [`DELIMITER_REJECTS`] of them the whole delimiter is searched for, in time linear in
/// the text.
struct DelimiterFinder<'d> {
    delimiter: &'d [u8],
    prefix: memchr::memmem::Finder<'d>,
    whole: Option<memchr::memmem::Finder<'d>>,
    rejects: usize,
}

impl<'d> DelimiterFinder<'d> {
    fn new(delimiter: &'d [u8]) -> Self {
        let prefix = delimiter.get(..DELIMITER_PREFIX).unwrap_or(delimiter);
        DelimiterFinder {
            delimiter,
            prefix: memchr::memmem::Finder::new(prefix),
            whole: None,
            rejects: 0,
        }
    }

    /// The first occurrence of the delimiter in `text` at or after `from`.
    fn find(&mut self, text: &[u8], mut from: usize) -> Option<usize> {
        loop {
            let rest = text.get(from..)?;
            if let Some(whole) = &self.whole {
                return whole.find(rest).map(|at| from + at);
            }
            let at = from + self.prefix.find(rest)?;
            if text.get(at..)?.starts_with(self.delimiter) {
                return Some(at);
            }
            self.rejects += 1;
            if self.rejects > DELIMITER_REJECTS {
                self.whole = Some(memchr::memmem::Finder::new(self.delimiter));
            }
            from = at + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part_texts<'a>(raw: &'a [u8], split: &Multipart) -> Vec<&'a str> {
        split
            .parts
            .iter()
            .map(|r| std::str::from_utf8(&raw[r.clone()]).unwrap())
            .collect()
    }

    #[test]
    fn boundaries_only_at_line_start() {
        let raw = b"preamble --b\n--b\none --b\n--b \r\ntwo\n--b--\nepilogue";
        let split = split(raw, 0..raw.len(), b"b");
        assert_eq!(part_texts(raw, &split), ["one --b", "two"]);
        assert!(split.closed);
    }

    #[test]
    fn longer_boundary_is_not_a_delimiter() {
        let raw = b"--b\none\n--bb\nstill one\n--b--\n";
        let split = split(raw, 0..raw.len(), b"b");
        assert_eq!(part_texts(raw, &split), ["one\n--bb\nstill one"]);
    }

    /// Every occurrence `memmem::find_iter` gives, found by [`DelimiterFinder`] too: for
    /// delimiters shorter and longer than its prefix, in texts that hold the prefix without
    /// the rest often enough for it to turn to the whole delimiter's search, and overlapping.
    #[test]
    fn delimiter_finder_finds_what_memmem_finds() {
        let long = format!("--{}", "-".repeat(28) + "=_Part_0_1234567890.1700000000000");
        let near = format!("--{}", "-".repeat(28) + "=_Part_1_1234567890.1700000000000");
        let dashes = "-".repeat(72);
        let cases: Vec<(String, String)> = vec![
            ("--b".into(), "x--b\n--bb--b".into()),
            (long.clone(), format!("a\n{long}\n{near}\n{long}--\n")),
            (
                long.clone(),
                format!("{}\n{long}\n", format!("{near}\n").repeat(100)),
            ),
            (dashes.clone(), "-".repeat(500)),
            (dashes.clone(), format!("{}\n{dashes}\n", "-".repeat(71))),
        ];
        for (delimiter, text) in &cases {
            let (delimiter, text) = (delimiter.as_bytes(), text.as_bytes());
            let expected: Vec<usize> = memchr::memmem::find_iter(text, delimiter).collect();
            let mut finder = DelimiterFinder::new(delimiter);
            let mut found = Vec::new();
            let mut from = 0;
            while let Some(at) = finder.find(text, from) {
                found.push(at);
                from = at + delimiter.len();
            }
            assert_eq!(found, expected, "{}", String::from_utf8_lossy(delimiter));
        }
    }

    #[test]
    fn missing_close_delimiter_runs_to_end() {
        let raw = b"--b\r\none\r\n--b\r\ntwo\r\n";
        let split = split(raw, 0..raw.len(), b"b");
        assert_eq!(part_texts(raw, &split), ["one", "two\r\n"]);
        assert!(!split.closed);
    }
}
