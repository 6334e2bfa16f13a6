//! Undoing a `Content-Transfer-Encoding` (RFC 2045 §6), as mail clients do: what is not
//! clean in its encoding is read past, and said, rather than leaving the whole body encoded.
//!
//! Base64 (RFC 2045 §6.8): a clean body (alphabet, white space, padding only at the end) has
//! its lines joined and goes through the `base64-simd` crate's forgiving decoder (the WHATWG
//! Infra Standard's forgiving-base64, SIMD where the CPU has it), which decodes it as
//! mail-parser's decoder (`base64_decode`) does, for less than half its cost
//! (`docs/PERFORMANCE.md` has the figures); a clean body that decoder refuses (four
//! characters of padding, a form feed) goes through mail-parser's.
//! Any other body is read as §6.8 asks and as Python's `email` reads it: characters outside
//! the alphabet are ignored (a mailing list's plain-text footer after the encoded HTML, say),
//! decoding stops at the padding that ends a group, a last group without padding is decoded;
//! the characters kept are then decoded by the `base64` crate. mail-parser's decoder refuses
//! such a body outright, and the `base64` crate takes only the alphabet, so what is ours is
//! only the choice of what to keep.
//!
//! Quoted-printable (RFC 2045 §6.7) is ours, and here is why: mail-parser's
//! `quoted_printable_decode` looks at every byte on its own, which stood out in a scan's
//! profile, and the `quoted_printable` crate's decoder (0.5) is slower still, since it collects
//! the body into a `String` one character at a time (`docs/PERFORMANCE.md` has the figures).
//! That crate also drops every 8-bit byte and writes CR LF for every line break whatever the
//! body had, so the decoded text, and with it every byte range we report, would change.
//! Where mail-parser's decoder refuses a whole body for one malformed escape, ours keeps that
//! escape as written, as RFC 2045 §6.7 note (2) recommends and GMime does.
//!
//! uuencode (`x-uuencode`, `x-uue`, `uuencode`, `uue`: not in RFC 2045, but decoded by GMime,
//! Thunderbird and Python's `email`) is ours too, about a hundred lines, for want of a
//! well-kept crate: `uuencode` 0.1.5 panics on a body without a `begin` line (it indexes the
//! words of the first line), `uuencode_lite` 0.1 decodes data lines only and refuses the whole
//! body for one character out of range, and `uuencoding` is a young crate by one author. A
//! mail client decodes a damaged body as far as it goes, and we must read on as it does and
//! say what was damaged, which none of them reports.

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

/// Hex digit values; `None` for bytes that are not hex digits (either case, as mail-parser).
fn hex(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// Where the byte-at-a-time part of the decoder is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// After `=`.
    Equals,
    /// After `=` and one hex digit (its value).
    Hex(u8),
}

/// Decodes a quoted-printable body (RFC 2045 §6.7) into `out` (appended), with the same
/// result as mail-parser 0.11.9's `quoted_printable_decode` where that decodes the body: a
/// soft line break (`=` at the end of a line, white space allowed between, rule 3) is
/// removed; white space at the end of a line is removed (rule 3); hex digits may be lowercase;
/// line breaks are written as LF until the body's first CR, as CR LF from then on; bare CRs
/// are dropped.
///
/// A malformed escape (`=` followed by `=`, or by a byte that is neither a hex digit nor white
/// space before a line break, or `=` and one hex digit not followed by a second) is kept as
/// written: the `=` and the byte after it are copied, and decoding goes on after them (RFC 2045
/// §6.7 note (2); GMime does the same). Returns how many escapes were kept so.
pub(crate) fn quoted_printable(body: &[u8], out: &mut Vec<u8>) -> usize {
    out.reserve(body.len());
    let mut kept = 0usize;
    let mut line_break: &[u8] = b"\n";
    // `out[copied_from..]` holds only bytes copied as they were since the last line break or
    // decoded byte: its white space at the end is removed if the line ends there (rule 3).
    let mut copied_from = out.len();
    let mut rest = body;
    loop {
        // Bodies of escapes only (non-ASCII text written `=XX=XX…`) are common: a special
        // byte right away is taken without a search.
        let copied = match rest.first() {
            Some(b'=' | b'\n' | b'\r') => 0,
            _ => copy_until_special(rest, out),
        };
        let Some((&special, after)) = rest.get(copied..).and_then(<[u8]>::split_first) else {
            break;
        };
        rest = after;
        match special {
            b'\n' => {
                let spaces = out
                    .get(copied_from..)
                    .unwrap_or_default()
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_whitespace())
                    .count();
                out.truncate(out.len() - spaces);
                out.extend_from_slice(line_break);
                copied_from = out.len();
            }
            b'\r' => line_break = b"\r\n",
            // The common escapes at once: `=XY`, a soft line break `=\r\n` or `=\n`. Each
            // gives what the byte-by-byte loop below gives for it.
            _ if let [high, low, tail @ ..] = rest
                && let (Some(high), Some(low)) = (hex(*high), hex(*low)) =>
            {
                out.push((high << 4) | low);
                copied_from = out.len();
                rest = tail;
            }
            _ if let [b'\r', b'\n', tail @ ..] = rest => {
                line_break = b"\r\n";
                copied_from = out.len();
                rest = tail;
            }
            _ if let [b'\n', tail @ ..] = rest => {
                copied_from = out.len();
                rest = tail;
            }
            _ => {
                // Any other escape: byte by byte until it is over.
                let after_equals = rest;
                let mut escape = Escape::Equals;
                loop {
                    let Some((&byte, after)) = rest.split_first() else {
                        if escape != Escape::Equals {
                            // `=` and one digit at the end of the body.
                            kept += 1;
                            out.push(b'=');
                            out.extend_from_slice(after_equals);
                        }
                        return kept;
                    };
                    rest = after;
                    match (byte, escape) {
                        (b'\n', Escape::Equals) => {
                            copied_from = out.len();
                            break;
                        }
                        (b'\r', Escape::Equals) => line_break = b"\r\n",
                        (_, Escape::Equals) if byte.is_ascii_whitespace() => {}
                        (_, Escape::Equals) if let Some(high) = hex(byte) => {
                            escape = Escape::Hex(high);
                        }
                        (_, Escape::Hex(high)) if let Some(low) = hex(byte) => {
                            out.push((high << 4) | low);
                            copied_from = out.len();
                            break;
                        }
                        _ => {
                            // Malformed: `=` and the byte after it as written, then on.
                            kept += 1;
                            out.push(b'=');
                            let (first, tail) = after_equals.split_at(1.min(after_equals.len()));
                            out.extend_from_slice(first);
                            copied_from = out.len();
                            rest = tail;
                            break;
                        }
                    }
                }
            }
        }
    }
    kept
}

/// Copies the bytes of `text` before its first `=`, CR or LF to `out`, and returns how many.
///
/// Eight bytes at a time ("SIMD within a register"): a word is appended whole and, if it
/// holds one of the three, cut back to before the first. With `y = word ^ splat(c)`,
/// `(y - splat(1)) & !y & splat(0x80)` flags the bytes equal to `c`, and bytes above a flagged
/// one may be flagged falsely (the borrow), never below, so the lowest flagged byte of the
/// three tests is exact. A constant eight-byte append needs no call of `memcpy`, which a
/// run of varying length did, once per run: in a quoted-printable HTML body runs are short
/// (an escape every few bytes), and that call and its branches on the length cost more than
/// the copying.
fn copy_until_special(text: &[u8], out: &mut Vec<u8>) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let flags = |word: u64, byte: u8| {
        let y = word ^ (ONES * u64::from(byte));
        y.wrapping_sub(ONES) & !y & HIGH
    };
    let mut copied = 0;
    while let Some(bytes) = text
        .get(copied..copied + 8)
        .and_then(|bytes| <[u8; 8]>::try_from(bytes).ok())
    {
        let word = u64::from_le_bytes(bytes);
        let found = flags(word, b'=') | flags(word, b'\n') | flags(word, b'\r');
        let len = out.len();
        out.extend_from_slice(&bytes);
        if found != 0 {
            let before = (found.trailing_zeros() / 8) as usize;
            out.truncate(len + before);
            return copied + before;
        }
        copied += 8;
    }
    for &byte in text.get(copied..).unwrap_or_default() {
        if matches!(byte, b'=' | b'\n' | b'\r') {
            break;
        }
        out.push(byte);
        copied += 1;
    }
    copied
}

/// What [`base64`] read past in a body that was not clean base64.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Base64Repairs {
    /// Bytes outside the alphabet, other than white space and padding, that were ignored.
    pub skipped: usize,
    /// Where the first of them is: a byte offset in the body.
    pub first_skipped: Option<usize>,
    /// Bytes other than white space after the padding that ended the data, not decoded.
    pub after_padding: usize,
}

/// The base64 alphabet (RFC 2045 §6.8, Table 1) as a table, one lookup a byte: the slow path
/// of [`base64`] tests every byte of a body.
static BASE64_ALPHABET: [bool; 256] = base64_alphabet();

// Indexing in a `const fn` runs at compile time: out of bounds would fail the build, and the
// loop stays below 256.
#[allow(clippy::indexing_slicing)]
const fn base64_alphabet() -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0u8;
    loop {
        table[byte as usize] = byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/';
        if byte == u8::MAX {
            break table;
        }
        byte += 1;
    }
}

/// Whether `byte` is one of the 64 characters of the base64 alphabet.
fn is_base64_alphabet(byte: u8) -> bool {
    BASE64_ALPHABET
        .get(usize::from(byte))
        .copied()
        .unwrap_or(false)
}

/// Decodes the characters kept by [`base64`]: alphabet only, no padding, any length but
/// 4k + 1; the bits past the last whole byte are ignored.
const KEPT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

/// `body` with its lines joined (each LF, and a CR before it, removed), one copy of each line,
/// for the SIMD decoder, whose own removal of white space goes a byte at a time: it is meant
/// for the occasional space, and a body has a line break every 76 characters. A CR elsewhere
/// is left to that removal.
fn without_line_breaks(body: &[u8]) -> Vec<u8> {
    let mut joined = Vec::with_capacity(body.len());
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', body) {
        let line = body.get(start..at).unwrap_or_default();
        joined.extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
        start = at + 1;
    }
    joined.extend_from_slice(body.get(start..).unwrap_or_default());
    joined
}

/// Decodes a base64 body (RFC 2045 §6.8) as mail clients do: see the module docs. A last
/// group of one character (six bits, no whole byte) is dropped.
pub(crate) fn base64(body: &[u8]) -> (Vec<u8>, Base64Repairs) {
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    // Clean: `=` only in a run of padding and white space that ends the body.
    let clean = match memchr::memchr(b'=', body) {
        None => true,
        Some(at) => body
            .get(at..)
            .unwrap_or_default()
            .iter()
            .all(|b| *b == b'=' || is_space(b)),
    };
    if clean {
        // The SIMD decoder reads white space as the WHATWG's forgiving-base64 does, which
        // counts a form feed as white space where mail-parser does not: a body with one goes
        // the way it went before, so that the same bytes are said to be skipped.
        if memchr::memchr(0x0c, body).is_none()
            && let Ok(decoded) = base64_simd::forgiving_decode_to_vec(&without_line_breaks(body))
        {
            return (decoded, Base64Repairs::default());
        }
        if let Some(decoded) = mail_parser::decoders::base64::base64_decode(body) {
            return (decoded, Base64Repairs::default());
        }
    }
    let mut repairs = Base64Repairs::default();
    let mut kept = Vec::with_capacity(body.len());
    // As Python's `binascii.a2b_base64` when not strict: `=` ends the data once it completes
    // a group (after two or three characters of it), and is ignored elsewhere. The characters
    // of the group so far are `kept.len() % 4`; runs of the alphabet are copied whole.
    let mut pads = 0usize;
    let mut end = body.len();
    let mut at = 0;
    while let Some(rest) = body.get(at..).filter(|rest| !rest.is_empty()) {
        let run = rest
            .iter()
            .position(|byte| !is_base64_alphabet(*byte))
            .unwrap_or(rest.len());
        if run > 0 {
            kept.extend_from_slice(rest.get(..run).unwrap_or_default());
            pads = 0;
            at += run;
            continue;
        }
        let byte = rest.first().copied().unwrap_or_default();
        if byte == b'=' {
            let in_group = kept.len() % 4;
            if in_group >= 2 {
                pads += 1;
                if in_group + pads >= 4 {
                    end = at + 1;
                    break;
                }
            }
        } else if !is_space(&byte) {
            repairs.skipped += 1;
            repairs.first_skipped.get_or_insert(at);
        }
        at += 1;
    }
    repairs.after_padding = body
        .get(end..)
        .unwrap_or_default()
        .iter()
        .filter(|b| !is_space(b))
        .count();
    if kept.len() % 4 == 1 {
        kept.pop();
    }
    // `kept` is alphabet only and not 4k + 1 long, which the engine always decodes.
    let decoded = KEPT.decode(&kept).unwrap_or_default();
    (decoded, repairs)
}

/// What [`uudecode`] read past in a body that was not a clean uuencoded file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct UuRepairs {
    /// No `begin` line: nothing was decoded.
    pub no_begin: bool,
    /// No `end` line after the `begin` line: the data ran to the end of the body.
    pub no_end: bool,
    /// Data lines with fewer or more characters than their length character asks for.
    pub bad_lines: usize,
    /// Where the first of them starts: a byte offset in the body.
    pub first_bad_line: Option<usize>,
    /// Bytes other than white space after the `end` line, not decoded.
    pub after_end: usize,
}

/// The value of a uuencoded character: its code less 32, six bits (the traditional `DEC`
/// of uudecode, which maps both space and `` ` `` to 0, and which GMime and Thunderbird apply
/// to every byte, so that no byte is refused).
fn uu_value(byte: u8) -> u8 {
    byte.wrapping_sub(b' ') & 0x3f
}

/// Decodes a uuencoded body (`Content-Transfer-Encoding: x-uuencode`, a traditional
/// uuencoded file: `begin <mode> <name>`, data lines, `end`) as mail clients do.
///
/// The lines before the first that starts with `begin ` are skipped (GMime, Thunderbird); the
/// mode and name are not read. Without such a line nothing is decoded ([`UuRepairs::no_begin`];
/// GMime and Thunderbird then show an empty part, Python's `email` the body as it is, which is
/// what the caller uses). After it, each line is a data line until one that is `end` (white
/// space around it allowed, as Python's `email` has it); without one the data runs to the end
/// of the body ([`UuRepairs::no_end`], as GMime and Thunderbird read it). Empty lines are
/// skipped (Thunderbird). A data line's first character gives how many bytes it holds, each
/// further group of four characters three bytes; a line with a length of 0 (`` ` ``, which ends
/// the data before `end`) gives none, and lines after it are still read, as Thunderbird reads
/// them (GMime stops there).
///
/// A data line of another length than its length character asks for is decoded as far as it
/// goes ([`UuRepairs::bad_lines`]): characters past the ones asked for are ignored
/// (Thunderbird); a short line's last partial group of `k` (one to three) characters gives
/// `k` bytes, its missing bits read as zero, which restores a line whose trailing spaces (zero
/// bits) a gateway stripped, as Thunderbird and Python's `email` restore it (GMime drops such a
/// group); but bytes past what the characters give are not made up (those two write zero bytes
/// up to the line's length). A line of `k` characters after its length character so gives at
/// most `k` bytes, and the output is always shorter than the body.
pub(crate) fn uudecode(body: &[u8]) -> (Vec<u8>, UuRepairs) {
    let mut repairs = UuRepairs::default();
    let mut out = Vec::new();
    let mut lines = Lines { body, at: 0 };
    if !lines.by_ref().any(|(_, line)| line.starts_with(b"begin ")) {
        repairs.no_begin = true;
        return (out, repairs);
    }
    out.reserve(body.len().saturating_sub(lines.at) / 4 * 3);
    repairs.no_end = true;
    for (start, line) in lines.by_ref() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.trim_ascii() == b"end" {
            repairs.no_end = false;
            break;
        }
        let Some((&length, data)) = line.split_first() else {
            continue;
        };
        let length = usize::from(uu_value(length));
        // The characters that hold `length` bytes: four per three bytes, the last group
        // possibly shorter (an encoder writes whole groups; the fewest that hold the bytes
        // are accepted too).
        let fewest = (length * 4).div_ceil(3);
        let whole_groups = length.div_ceil(3) * 4;
        if data.len() < fewest || data.len() > whole_groups {
            repairs.bad_lines += 1;
            repairs.first_bad_line.get_or_insert(start);
        }
        let data = data.get(..whole_groups).unwrap_or(data);
        let line_start = out.len();
        for group in data.chunks(4) {
            let value = |i: usize| group.get(i).copied().map_or(0, uu_value);
            let bytes = [
                (value(0) << 2) | (value(1) >> 4),
                (value(1) << 4) | (value(2) >> 2),
                (value(2) << 6) | value(3),
            ];
            // A whole group gives three bytes, a last partial group of one to three
            // characters as many bytes.
            out.extend_from_slice(bytes.get(..group.len().min(3)).unwrap_or_default());
        }
        out.truncate(line_start + length.min(out.len() - line_start));
    }
    repairs.after_end = body
        .get(lines.at..)
        .unwrap_or_default()
        .iter()
        .filter(|b| !b.is_ascii_whitespace())
        .count();
    (out, repairs)
}

/// The lines of a body, each with its offset and without its LF; the offset of the next
/// line in `at`.
struct Lines<'a> {
    body: &'a [u8],
    at: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.body.get(self.at..).filter(|rest| !rest.is_empty())?;
        let start = self.at;
        let (line, advance) = match memchr::memchr(b'\n', rest) {
            Some(end) => (rest.get(..end).unwrap_or_default(), end + 1),
            None => (rest, rest.len()),
        };
        self.at += advance;
        Some((start, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(body: &[u8]) -> (Vec<u8>, usize) {
        let mut out = b"kept".to_vec();
        let kept = quoted_printable(body, &mut out);
        (out.split_off(4), kept)
    }

    #[test]
    fn rfc2045_rules() {
        assert_eq!(ours(b"a=3Db=\r\nc  \r\nd"), (b"a=bc\r\nd".to_vec(), 0));
        assert_eq!(ours(b"caf=C3=A9 \t\nx"), ("café\nx".into(), 0));
        assert_eq!(ours(b"caf=c3=a9"), ("café".into(), 0));
        assert_eq!(ours(b"soft= \t\nbreak"), (b"softbreak".to_vec(), 0));
        assert_eq!(ours(b"ends="), (b"ends".to_vec(), 0));
    }

    /// Malformed escapes are kept as written, the `=` and the byte after it, as GMime 3.2.13
    /// decodes them (checked with `g_mime_part_get_content` on each).
    #[test]
    fn malformed_escapes_are_kept_as_written() {
        assert_eq!(ours(b"a==41"), (b"a==41".to_vec(), 1));
        assert_eq!(ours(b"a=4G"), (b"a=4G".to_vec(), 1));
        assert_eq!(ours(b"a=G1"), (b"a=G1".to_vec(), 1));
        assert_eq!(ours(b"a=4\n5"), (b"a=4\n5".to_vec(), 1));
        assert_eq!(ours(b"a= x=41"), (b"a= xA".to_vec(), 1));
        assert_eq!(ours(b"end=4"), (b"end=4".to_vec(), 1));
        assert_eq!(
            ours(b"<a href=3D\"http://x/?a=1&b=2\">"),
            (b"<a href=\"http://x/?a=1&b=2\">".to_vec(), 2)
        );
    }

    /// Where mail-parser's decoder decodes a body and ours keeps no escape as written, both
    /// give the same bytes; where it refuses one, ours keeps an escape.
    #[test]
    fn same_as_mail_parser_where_it_decodes() {
        const ALPHABET: &[u8] = b"a= \t\r\n4fG\x0c\xc3";
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200_000 {
            let len = (next() % 48) as usize;
            let body: Vec<u8> = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            let theirs = mail_parser::decoders::quoted_printable::quoted_printable_decode(&body);
            let (decoded, kept) = ours(&body);
            let shown = String::from_utf8_lossy(&body);
            if kept == 0 {
                assert_eq!(Some(decoded), theirs, "{shown:?}");
            }
            assert!(theirs.is_some() || kept > 0, "{shown:?}");
        }
    }

    fn b64(body: &[u8]) -> (Vec<u8>, usize, usize) {
        let (decoded, repairs) = base64(body);
        (decoded, repairs.skipped, repairs.after_padding)
    }

    /// Expected bytes from Python 3.11's `email` (`get_payload(decode=True)`) and GMime
    /// 3.2.13 (`g_mime_part_get_content`), which agree except where a line says otherwise.
    #[test]
    fn base64_reads_past_what_is_not_base64() {
        assert_eq!(b64(b"QUJD\r\nREVG\r\n"), (b"ABCDEF".to_vec(), 0, 0));
        // Characters outside the alphabet are ignored (RFC 2045 §6.8).
        assert_eq!(b64(b"QU*JD!RA==\n"), (b"ABCD".to_vec(), 2, 0));
        // A mailing list's footer after the padding is not decoded.
        assert_eq!(
            b64(b"QUJDRA==\n-- \nfooter text\n"),
            (b"ABCD".to_vec(), 0, 12)
        );
        // Without padding the last group is decoded (GMime drops it: `ABC`).
        assert_eq!(b64(b"QUJDRA\n"), (b"ABCD".to_vec(), 0, 0));
        // One lone character, six bits, is dropped as GMime drops it (Python gives up and
        // keeps the body undecoded).
        assert_eq!(b64(b"QUJDR"), (b"ABC".to_vec(), 0, 0));
        // `=` ends the data only where it completes a group.
        assert_eq!(b64(b"QQ==QQ=="), (b"A".to_vec(), 0, 4));
        // (GMime stops at this `=` and decodes nothing.)
        assert_eq!(b64(b"=QUJD"), (b"ABC".to_vec(), 0, 0));
    }

    #[test]
    fn base64_clean_bodies_decode_alike_on_every_path() {
        // Clean bodies: the SIMD decoder's, which must agree with mail-parser's decoder on
        // every one of them (padding and white space between and after the groups, a last
        // group without padding, trailing bits that are not zero).
        let bodies: [&[u8]; 7] = [
            b"QUJD\r\nREVG\r\n",
            b"QUJD REVG\tR0g=\r\n",
            b"QUJDRA= =\n",
            b"QUJDRA\n",
            b"QUJDRB==",
            b"QUJDREU\r\n\r\n",
            b"",
        ];
        for body in bodies {
            let expected = mail_parser::decoders::base64::base64_decode(body).unwrap();
            assert_eq!(
                b64(body),
                (expected, 0, 0),
                "{:?}",
                String::from_utf8_lossy(body)
            );
        }
        // A form feed is white space to the WHATWG's forgiving-base64 but not to RFC 2045:
        // it is said to be skipped, as before the SIMD decoder.
        assert_eq!(b64(b"QUJD\x0cREVG"), (b"ABCDEF".to_vec(), 1, 0));
        // Four characters of padding: not clean for the SIMD decoder, decoded as before.
        assert_eq!(b64(b"QUJDRA===="), (b"ABCD".to_vec(), 0, 0));
    }

    fn uu(body: &[u8]) -> (Vec<u8>, UuRepairs) {
        uudecode(body)
    }

    /// Expected bytes from GMime 3.2.13 (`g_mime_part_get_content` of an `x-uuencode` part) and
    /// Python 3.11's `email` (`get_payload(decode=True)`), which agree with each other and with
    /// us except where a line says otherwise.
    #[test]
    fn uuencode_reads_on_as_clients_do() {
        let clean = UuRepairs::default();
        assert_eq!(
            uu(b"begin 644 a\n#86)C\n`\nend\n"),
            (b"abc".to_vec(), clean)
        );
        assert_eq!(
            uu(b"begin 644 a\r\n#86)C\r\n`\r\nend\r\n"),
            (b"abc".to_vec(), clean)
        );
        // Lines before `begin` are skipped; `begin` needs no octal mode (Python wants one and
        // keeps the body as it is).
        assert_eq!(
            uu(b"hi\nthere\nbegin a\n#86)C\n`\nend\n"),
            (b"abc".to_vec(), clean)
        );
        // No `end`: decoded to the end, said.
        let (decoded, repairs) = uu(b"begin 644 a\n#86)C\n");
        assert_eq!((decoded, repairs.no_end), (b"abc".to_vec(), true));
        // No `begin`: nothing decoded (GMime shows nothing; Python the body as it is, which the
        // caller uses).
        let (decoded, repairs) = uu(b"#86)C\n`\nend\n");
        assert_eq!((decoded, repairs.no_begin), (Vec::new(), true));
        // A line shorter than its length: what its characters give (GMime; Python pads with
        // zero bytes to the length, `abc\0\0\0`).
        let (decoded, repairs) = uu(b"begin 644 a\n&86)C\n`\nend\n");
        assert_eq!((decoded, repairs.bad_lines), (b"abc".to_vec(), 1));
        // A last group that lost its trailing space is completed with zero bits (Python
        // too; GMime drops the group: `abc`).
        let (decoded, repairs) = uu(b"begin 644 a\n&86)C86)\n`\nend\n");
        assert_eq!(
            (decoded, repairs.first_bad_line),
            (b"abcab@".to_vec(), Some(12))
        );
        // One character left over gives one byte (Python; GMime drops it: `abc`).
        let (decoded, repairs) = uu(b"begin 644 a\n$86)C8\n`\nend\n");
        assert_eq!((decoded, repairs.bad_lines), (b"abc`".to_vec(), 1));
        // Characters past the length are ignored.
        let (decoded, repairs) = uu(b"begin 644 a\n#86)C86)C\n`\nend\n");
        assert_eq!((decoded, repairs.bad_lines), (b"abc".to_vec(), 1));
        // An empty line is skipped (GMime; Python gives up and keeps the body as it is).
        assert_eq!(
            uu(b"begin 644 a\n#86)C\n\n#86)C\nend\n"),
            (b"abcabc".to_vec(), clean)
        );
        // A zero-length line does not end the data (Python, Thunderbird; GMime stops there).
        assert_eq!(
            uu(b"begin 644 a\n#86)C\n`\n#86)C\nend\n"),
            (b"abcabc".to_vec(), clean)
        );
        // After `end`: not decoded, counted (a second block too).
        let (decoded, repairs) = uu(b"begin 644 a\n#86)C\n`\nend\n-- \nfooter\n");
        assert_eq!((decoded, repairs.after_end), (b"abc".to_vec(), 8));
    }

    /// Every body of up to five bytes from an alphabet of line breaks, length characters and
    /// data characters, after a `begin` line: the decoder gives fewer bytes than the body has.
    #[test]
    fn uudecode_output_is_shorter_than_the_body() {
        let alphabet = [b'\n', b'\r', b'M', b'#', b'`', b' ', b'8', b'e', 0xff];
        for tail in crate::testing::every_string(&alphabet, 5) {
            let mut body = b"begin 644 x\n".to_vec();
            body.extend_from_slice(&tail);
            let (decoded, _) = uudecode(&body);
            assert!(
                decoded.is_empty() || decoded.len() < tail.len(),
                "{tail:?}: {decoded:?}"
            );
        }
    }
}
