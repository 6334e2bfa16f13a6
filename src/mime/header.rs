//! The header block of one entity (RFC 5322 §2.2, RFC 2045 §3): field lines, folding, the
//! blank line that ends it.
//!
//! Hand-written rather than mail-parser's message parser because we need every field with its
//! absolute byte range, duplicates in order (mail-parser's `header()` returns the last one) and
//! a hard size limit; the values themselves go through mail-parser's single-field parsers.

use std::ops::Range;

use memchr::memchr2;

use crate::vocab::FieldName;

/// One header field the analysis reads.
#[derive(Debug, Clone)]
pub(crate) struct Field {
    /// Which field ([`FieldName`], compared ASCII case-insensitively). Only these fields are
    /// kept: the others (`Received`, `To`, `X-…`) are counted, since a field's index is
    /// part of a URL record, but never read, since unfolding every `Received:` of every
    /// message would cost a scan dearly and keeping them would cost memory for nothing.
    pub name: FieldName,
    /// The field's place among all the fields of its header block, 0-based, the fields the
    /// analysis does not read included.
    pub index: usize,
    /// The value unfolded (RFC 5322 §2.2.3: every line break followed by white space removed)
    /// and trimmed; 8-bit bytes that are not UTF-8 become U+FFFD.
    pub value: String,
}

impl Field {
    /// True when the field is `name`.
    pub fn is(&self, name: FieldName) -> bool {
        self.name == name
    }
}

/// A field longer than the limit, whose value was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Overlong {
    /// Its name as written, in the buffer the header was read from.
    pub raw_name: Range<usize>,
    /// Where its value ends (before the final line break).
    pub end: usize,
}

/// How many fields holding URLs the header blocks of one message may keep, beyond the first
/// two of each name in each block (which are always kept: the first decides, the second is
/// reported as a duplicate). A field kept costs far more memory than the shortest field takes
/// in the message (`Base:x` is 7 bytes), so without a bound a header of such fields would take
/// many times its size. Past [`Options::with_max_urls`](crate::Options::with_max_urls) URL
/// records the message's URLs are no longer recorded anyway: the bound is set from it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeptFields {
    /// How many more fields holding URLs may be kept.
    pub budget: usize,
}

/// How a header block is read when its first line is not a header field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FirstLine {
    /// There is no header block: the whole range is body ([`HeaderProblem::NoHeader`]).
    /// For a message as a whole, which RFC 5322 §2.1 has start with its fields (GMime and
    /// MimeKit refuse one that does not; Python's `email` reads it all as body).
    Strict,
    /// The lines up to the first field are skipped when a MIME field (`Content-…`, RFC 2045
    /// §9) comes before an empty line that ends the block ([`mime_field_before_empty_line`]);
    /// otherwise there is no header block, as for [`Strict`](Self::Strict). For a body part
    /// and an encapsulated message: see [`parse`].
    Lenient,
}

/// What went wrong while reading a header block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HeaderProblem {
    /// The first line is not a header field: no header block.
    NoHeader,
    /// The block passed the size limit.
    TooLarge,
}

/// The lines of a header block that are neither fields nor continuation lines of a field
/// (with the continuation lines that follow them): read past, not kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    /// The first such line, without its line break.
    pub first: Range<usize>,
    /// How many there are, the first included (continuation lines not counted).
    pub lines: usize,
}

/// A header block: its fields, its range and where the body starts.
#[derive(Debug, Clone)]
pub(crate) struct HeaderBlock {
    /// The fields the analysis reads ([`Field`]), in order.
    pub fields: Vec<Field>,
    /// The fields longer than the limit, whose values were not read.
    pub overlong: Vec<Overlong>,
    /// How many fields holding URLs were not kept (see [`KeptFields`]).
    pub dropped: usize,
    /// The header block, without the blank line that ends it.
    pub range: Range<usize>,
    /// Where the body starts (after the blank line; at the start of the range when there is
    /// no header block).
    pub body_start: usize,
    pub problem: Option<HeaderProblem>,
    /// Lines inside the block that are not fields, if any.
    pub skipped: Option<Skipped>,
}

/// The fields read so far, and the bytes they hold.
struct Fields<'r, 'k> {
    raw: &'r [u8],
    max_bytes: usize,
    fields: Vec<Field>,
    overlong: Vec<Overlong>,
    kept: &'k mut KeptFields,
    dropped: usize,
    /// How many fields were read, kept or not.
    count: usize,
    /// When asked for ([`parse_every_field`]): the name and value ranges of every field.
    every: Option<&'k mut FieldRanges>,
    /// The bytes of the fields read, overlong ones not counted.
    kept_bytes: usize,
    /// (name, name's range, start of the value) of the field being read; it ends where the
    /// next line that is not a continuation starts.
    current: Option<(Option<FieldName>, Range<usize>, usize)>,
}

impl Fields<'_, '_> {
    /// Ends the field being read, if any, at `at`. A field of more than `max_bytes` bytes
    /// is overlong: its value is not unfolded, and its bytes do not count against the
    /// block's limit.
    fn finish(&mut self, at: usize) {
        let Some((name, raw_name, value_start)) = self.current.take() else {
            return;
        };
        let index = self.count;
        self.count += 1;
        let raw_end = trim_line_break(self.raw, value_start, at);
        if let Some(every) = self.every.as_deref_mut() {
            every.push((raw_name.clone(), value_start..raw_end));
        }
        let length = at.saturating_sub(raw_name.start);
        if length > self.max_bytes {
            self.overlong.push(Overlong {
                raw_name,
                end: raw_end,
            });
            return;
        }
        self.kept_bytes += length;
        let Some(name) = name else {
            return;
        };
        let same_name = self
            .fields
            .iter()
            .filter(|f| f.name == name)
            .take(2)
            .count();
        if same_name >= 2 {
            if !name.holds_urls() {
                return;
            }
            if self.kept.budget == 0 {
                self.dropped += 1;
                return;
            }
            self.kept.budget -= 1;
        }
        self.fields.push(Field {
            name,
            index,
            value: unfold(self.raw.get(value_start..raw_end).unwrap_or_default()),
        });
    }
}

/// Reads the header block at the start of `raw[range]`.
///
/// A block ends at the first empty line (LF or CRLF), as RFC 5322 §2.1 has it, or at the end
/// of the range. A field is `name:` with a name of bytes other than controls, space and `:`
/// (RFC 5322 §2.2 wants printable ASCII; 8-bit bytes are read as part of a name, as GMime and
/// MimeKit do), white space before the colon allowed as in RFC 5322 §4.5.3; a line starting
/// with space or tab continues the line before it.
///
/// A line inside the block that is not a field (an encoded word or a continuation line that
/// lost its leading white space, a name with a space in it) is skipped, with the continuation
/// lines that follow it, and the fields after it are read ([`HeaderBlock::skipped`]): GMime
/// and MimeKit do the same, so a client built on them shows those fields. Python's `email`
/// ends the header at such a line instead, which would hide every field after it (the
/// `Content-Type` among them).
///
/// When the first line is not a field, `first_line` decides. With [`FirstLine::Strict`] (a
/// message) there is no header block at all ([`HeaderProblem::NoHeader`]): the body is then
/// the whole range, as Python has it (GMime and MimeKit refuse such a message). With
/// [`FirstLine::Lenient`] (a body part, an encapsulated message) the lines are read as a
/// header block, the ones that are not fields skipped, when a MIME field (`Content-…`)
/// comes before the first empty line and that empty line is inside the range: a junk line
/// right after a delimiter, then `Content-Type: text/html`, is an HTML part to GMime and
/// MimeKit (whose parsers skip every line that is no field before the first field of a
/// body part's header) and to Thunderbird (which reads every line up to the first empty
/// line as the part's header). Otherwise the part has no header and all of it is body, as
/// Python reads it: content right after the delimiter is common, and although those
/// clients would take its first lines, up to the first empty line, for a header and show
/// only the rest (or, without an empty line, nothing), keeping them as body hides nothing a
/// client shows: that text is in the body either way, and without a MIME field the
/// clients' media type is `text/plain` too.
///
/// Limits, so that a hostile header costs neither memory nor the fields a reader needs:
/// one field (its name, value and continuation lines) of more than `max_bytes` bytes is
/// overlong: its value is not read (see [`HeaderBlock::overlong`]) and the fields after it
/// are; once the fields read and the lines skipped hold more than `max_bytes` bytes,
/// overlong fields not counted, the block ends with [`HeaderProblem::TooLarge`] before the
/// next line that is not a continuation, and the body starts after the next empty line.
pub(crate) fn parse(
    raw: &[u8],
    range: Range<usize>,
    first_line: FirstLine,
    max_bytes: usize,
    kept: &mut KeptFields,
) -> HeaderBlock {
    read_block(raw, range, first_line, max_bytes, kept, None)
}

/// The name and value ranges of fields, as [`parse_every_field`] gives them.
pub(crate) type FieldRanges = Vec<(Range<usize>, Range<usize>)>;

/// [`parse`], and the name and value ranges of every field of the block (the fields the
/// analysis does not read included, overlong ones too), for the fuzz targets.
pub(crate) fn parse_every_field(
    raw: &[u8],
    first_line: FirstLine,
    max_bytes: usize,
) -> (HeaderBlock, FieldRanges) {
    let mut every = Vec::new();
    let mut kept = KeptFields { budget: usize::MAX };
    let block = read_block(
        raw,
        0..raw.len(),
        first_line,
        max_bytes,
        &mut kept,
        Some(&mut every),
    );
    (block, every)
}

fn read_block(
    raw: &[u8],
    range: Range<usize>,
    first_line: FirstLine,
    max_bytes: usize,
    kept: &mut KeptFields,
    every: Option<&mut FieldRanges>,
) -> HeaderBlock {
    let end = range.end.min(raw.len());
    let start = range.start.min(end);
    let mut read = Fields {
        raw,
        max_bytes,
        fields: Vec::new(),
        overlong: Vec::new(),
        kept,
        dropped: 0,
        count: 0,
        every,
        kept_bytes: 0,
        current: None,
    };
    let mut pos = start;
    let mut problem = None;
    let mut skipped: Option<Skipped> = None;
    // Whether the line before was skipped, or continued a skipped line: a continuation line
    // then belongs to what is skipped.
    let mut skipping = false;
    // The line breaks of the whole range, found as the lines are read: one search, not one
    // per line.
    let mut line_breaks = memchr::memchr_iter(b'\n', raw.get(start..end).unwrap_or_default());
    let (header_end, body_start) = loop {
        if pos >= end {
            read.finish(end);
            break (end, end);
        }
        let rest = raw.get(pos..end).unwrap_or_default();
        let line_len = line_breaks
            .next()
            .map_or(rest.len(), |at| start + at + 1 - pos);
        let line = rest.get(..line_len).unwrap_or_default();
        if line == b"\n" || line == b"\r\n" {
            read.finish(pos);
            break (pos, pos + line_len);
        }
        let continuation = matches!(line.first(), Some(b' ' | b'\t'));
        if continuation && (read.current.is_some() || skipping) {
            if skipping {
                read.kept_bytes += line_len;
            }
            pos += line_len;
            continue;
        }
        read.finish(pos);
        let field = field_name(line);
        if field.is_none()
            && read.count == 0
            && skipped.is_none()
            && (first_line == FirstLine::Strict
                || !mime_field_before_empty_line(raw, pos, end, max_bytes))
        {
            problem = Some(HeaderProblem::NoHeader);
            break (pos, pos);
        }
        if read.kept_bytes > max_bytes {
            problem = Some(HeaderProblem::TooLarge);
            let body_start = blank_line_after(raw, pos, end).unwrap_or(end);
            break (pos, body_start);
        }
        match field {
            Some((name, name_len, colon)) => {
                skipping = false;
                read.current = Some((name, pos..pos + name_len, pos + colon + 1));
            }
            None => {
                skipping = true;
                read.kept_bytes += line_len;
                match &mut skipped {
                    Some(skipped) => skipped.lines += 1,
                    None => {
                        skipped = Some(Skipped {
                            first: pos..trim_line_break(raw, pos, pos + line_len),
                            lines: 1,
                        });
                    }
                }
            }
        }
        pos += line_len;
    };
    HeaderBlock {
        fields: {
            // Room left over after growing by doubling is given back only when it is more
            // than a few fields: every entity's list stays in memory until the report is made.
            let mut fields = read.fields;
            if fields.capacity() - fields.len() > 4 {
                fields.shrink_to_fit();
            }
            fields
        },
        overlong: read.overlong,
        dropped: read.dropped,
        range: start..header_end,
        body_start,
        problem,
        skipped,
    }
}

/// If `line` starts a field: its [`FieldName`] (`None` for a field the analysis does not read),
/// the name's length and the offset of its colon: the line starts with bytes other than
/// controls, space and `:` (RFC 5322 §2.2's printable ASCII, and 8-bit bytes, see [`parse`]),
/// then optional space or tab (§4.5.3), then the colon, read in one pass.
fn field_name(line: &[u8]) -> Option<(Option<FieldName>, usize, usize)> {
    let name_len = name_end(line)?;
    let name = line.get(..name_len).filter(|name| !name.is_empty())?;
    let colon = name_len
        + line
            .get(name_len..)?
            .iter()
            .position(|&b| b != b' ' && b != b'\t')?;
    (line.get(colon) == Some(&b':')).then(|| (FieldName::from_bytes(name), name_len, colon))
}

/// Where the name that starts `line` ends: the offset of its first byte that is a control,
/// space, `:` or DEL, if any.
///
/// Every line of a header block starts with a name or white space, so this is read for every
/// line: eight bytes at a time, the word tested as a whole (a byte below `n` is one that
/// subtracting `n` from borrows through its clear high bit; a byte equal to `c` is a zero byte
/// of `word ^ c…c`). A borrow carries only into the bytes above a byte that matched, so the
/// lowest flagged byte is the first that matches.
fn name_end(line: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH;
    let mut words = line.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut words {
        let word = chunk.try_into().map_or(0, u64::from_le_bytes);
        let ends = below(word, b' ' + 1)
            | below(word ^ (ONES * u64::from(b':')), 1)
            | below(word ^ (ONES * 0x7f), 1);
        if ends != 0 {
            return Some(at + (ends.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    words
        .remainder()
        .iter()
        .position(|&b| b <= b' ' || b == b':' || b == 0x7f)
        .map(|i| at + i)
}

/// Whether, among the lines of `raw[start..end]` before the first empty line (LF or CRLF),
/// one starts a MIME field (a field whose name begins with `Content-`, ASCII
/// case-insensitively, RFC 2045 §9), and that empty line is there: what makes
/// [`FirstLine::Lenient`] read lines that are not fields as the start of a header block.
/// Only the first `max_bytes` bytes (the header block's own limit) are looked at, so that a
/// part without a header costs one pass over at most its first lines.
fn mime_field_before_empty_line(raw: &[u8], start: usize, end: usize, max_bytes: usize) -> bool {
    let stop = end.min(start.saturating_add(max_bytes).saturating_add(2));
    let mut rest = raw.get(start..stop).unwrap_or_default();
    let mut mime_field = false;
    while !rest.is_empty() {
        let line_len = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
        let (line, after) = rest.split_at(line_len);
        if line == b"\n" || line == b"\r\n" {
            return mime_field;
        }
        if !mime_field && let Some((_, name_len, _)) = field_name(line) {
            mime_field = line
                .get(..name_len.min(8))
                .is_some_and(|name| name.eq_ignore_ascii_case(b"content-"));
        }
        rest = after;
    }
    false
}

/// The most blanks between `From` and the colon that [`is_from_field`] looks past: a line
/// has at most 998 characters (RFC 5322 §2.1.1), so that a stream need not hold more of a
/// line than [`FROM_FIELD_PEEK`] bytes to tell.
pub(crate) const FROM_FIELD_BLANKS: usize = 998;

/// The bytes of a line that [`is_from_field`] reads at most.
pub(crate) const FROM_FIELD_PEEK: usize = "From".len() + FROM_FIELD_BLANKS + 1;

/// Whether `line` (the rest of the input from the start of a line that begins with `From `,
/// or its first [`FROM_FIELD_PEEK`] bytes, or the whole line) begins with `From`, blanks (space
/// or tab) and a colon: the From header field in the obsolete syntax of RFC 5322 §4.5.2, which
/// in a header block is a field of the message, not an mbox separator (RFC 4155 §2 has an
/// envelope address after the single space of `From `, and a colon or a second blank begins
/// none). GMime and MimeKit read a
/// header field name the same way (blanks allowed before the colon, none inside the name).
pub(crate) fn is_from_field(line: &[u8]) -> bool {
    let rest = line.get("From".len()..).unwrap_or_default();
    let blanks = rest
        .iter()
        .take(FROM_FIELD_BLANKS + 1)
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    blanks <= FROM_FIELD_BLANKS && rest.get(blanks) == Some(&b':')
}

/// `at` moved back over one line break (LF or CRLF) ending at it, not before `floor`.
pub(crate) fn trim_line_break(raw: &[u8], floor: usize, at: usize) -> usize {
    let mut end = at;
    if end > floor && raw.get(end - 1) == Some(&b'\n') {
        end -= 1;
        if end > floor && raw.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
    }
    end
}

/// The offset just after the first empty line at or after `pos`, if any.
fn blank_line_after(raw: &[u8], pos: usize, end: usize) -> Option<usize> {
    let region = raw.get(pos..end)?;
    let finder = memchr::memmem::Finder::new(b"\n\n");
    let lf = finder.find(region).map(|i| i + 2);
    let crlf = memchr::memmem::find(region, b"\n\r\n").map(|i| i + 3);
    let first = match (lf, crlf) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    Some(pos + first)
}

/// RFC 5322 §2.2.3 unfolding: drop every CR and LF (a line break inside a field is always
/// followed by white space), then trim the white space around the value. Bytes that are not
/// UTF-8 become U+FFFD.
pub(crate) fn unfold(raw: &[u8]) -> String {
    let is_wsp = |b: &u8| *b == b' ' || *b == b'\t';
    let start = raw.iter().position(|b| !is_wsp(b)).unwrap_or(raw.len());
    let end = raw
        .iter()
        .rposition(|b| !is_wsp(b))
        .map_or(start, |i| i + 1);
    let raw = raw.get(start..end.max(start)).unwrap_or_default();
    if memchr2(b'\r', b'\n', raw).is_none() {
        return match std::str::from_utf8(raw) {
            Ok(text) => text.to_owned(),
            Err(_) => String::from_utf8_lossy(raw).into_owned(),
        };
    }
    // Copy the runs between line breaks, then trim again: a line break may have stood
    // between white space and the end.
    let mut unfolded = Vec::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = memchr2(b'\r', b'\n', rest) {
        unfolded.extend_from_slice(rest.get(..at).unwrap_or_default());
        rest = rest.get(at + 1..).unwrap_or_default();
    }
    unfolded.extend_from_slice(rest);
    let text = match String::from_utf8(unfolded) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    let trimmed = text.trim_matches(|c| c == ' ' || c == '\t');
    if trimmed.len() == text.len() {
        text
    } else {
        trimmed.to_owned()
    }
}

/// `value` without its RFC 5322 §3.2.2 comments (parenthesized, possibly nested; a
/// backslash quotes the next character).
pub(crate) fn strip_comments(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut depth = 0usize;
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if depth > 0 => {
                chars.next();
            }
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `field_name` against the rule it implements, spelt out the obvious way (the first
    /// colon; the name before it, trailing space and tab trimmed, non-empty and with no control,
    /// space or DEL byte), on every line of up to five bytes from an alphabet that has each kind of byte.
    #[test]
    fn field_name_follows_the_rule_on_every_short_line() {
        fn by_the_rule(line: &[u8]) -> Option<(usize, usize)> {
            let colon = line.iter().position(|&b| b == b':')?;
            let mut name = &line[..colon];
            while let [rest @ .., b' ' | b'\t'] = name {
                name = rest;
            }
            let allowed = name.iter().all(|&b| b > b' ' && b != 0x7f);
            (!name.is_empty() && allowed).then_some((name.len(), colon))
        }
        let alphabet = [
            b'a', b'!', b'~', b':', b' ', b'\t', b'\n', b'\r', 0x7f, 0xc3,
        ];
        let lines = crate::testing::every_string(&alphabet, 5);
        assert_eq!(lines.len(), 111_111);
        for line in &lines {
            let found = field_name(line).map(|(_, name_len, colon)| (name_len, colon));
            assert_eq!(found, by_the_rule(line), "{line:?}");
        }
    }

    /// The word-at-a-time search finds what a byte-at-a-time one finds: every byte value at
    /// every position of lines up to 24 bytes, after name bytes of every kind (8-bit ones too).
    #[test]
    fn name_end_finds_the_first_byte_that_ends_a_name() {
        let ends = |b: u8| b <= b' ' || b == b':' || b == 0x7f;
        for background in [b'a', b'-', b'~', 0x80, 0xff, b'!', b';', 0x7e] {
            for len in 0..=24 {
                let mut line = vec![background; len];
                assert_eq!(name_end(&line), None);
                for at in 0..len {
                    for byte in 0..=255u8 {
                        line[at] = byte;
                        let expected = line.iter().position(|&b| ends(b));
                        assert_eq!(name_end(&line), expected, "{line:?}");
                        // A byte that ends the name after the first changes nothing.
                        if ends(byte) && at + 1 < len {
                            line[at + 1] = b':';
                            assert_eq!(name_end(&line), Some(at), "{line:?}");
                            line[at + 1] = background;
                        }
                    }
                    line[at] = background;
                }
            }
        }
    }

    #[test]
    fn unfold_drops_line_breaks_and_trims() {
        assert_eq!(unfold(b"  a\r\n\tb  "), "a\tb");
        assert_eq!(unfold(b" \r\n x \r\n "), "x");
        assert_eq!(unfold(b"caf\xe9"), "caf\u{fffd}");
        assert_eq!(unfold(b"caf\xe9\r\n x"), "caf\u{fffd} x");
        assert_eq!(unfold(b""), "");
    }

    /// Each field kept: its index, name and value.
    fn kept(block: &HeaderBlock) -> Vec<(usize, &str, &str)> {
        block
            .fields
            .iter()
            .map(|f| (f.index, f.name.as_str(), f.value.as_str()))
            .collect()
    }

    fn parse(raw: &[u8], range: Range<usize>, max_bytes: usize) -> HeaderBlock {
        super::parse(
            raw,
            range,
            FirstLine::Strict,
            max_bytes,
            &mut KeptFields { budget: 1000 },
        )
    }

    #[test]
    fn folded_fields_unfold_and_keep_their_index() {
        let raw =
            b"X-Note: a\r\n b\r\nbase: <URL:http://x/\r\n  y>\r\nList-Help: \r\n <x> \r\n\r\nbody";
        let block = parse(raw, 0..raw.len(), 1000);
        // Fields the analysis does not read are counted, not kept.
        assert_eq!(
            kept(&block),
            [(1, "Base", "<URL:http://x/  y>"), (2, "List-Help", "<x>")]
        );
        assert_eq!(&raw[block.body_start..], b"body");
        assert_eq!(block.problem, None);
    }

    /// Past the first two of a name, fields holding URLs are kept while the message's bound
    /// lasts, and counted when it does not; the others are not kept.
    #[test]
    fn fields_past_the_first_two_of_a_name_are_bounded() {
        let mut raw = Vec::new();
        for i in 0..5 {
            raw.extend(format!("List-Help: <h{i}>\nContent-ID: <c{i}>\n").bytes());
        }
        raw.extend(b"\nbody");
        let mut bound = KeptFields { budget: 2 };
        let block = super::parse(&raw, 0..raw.len(), FirstLine::Strict, 1000, &mut bound);
        let names: Vec<_> = kept(&block).into_iter().map(|(i, n, _)| (i, n)).collect();
        assert_eq!(
            names,
            [
                (0, "List-Help"),
                (1, "Content-ID"),
                (2, "List-Help"),
                (3, "Content-ID"),
                (4, "List-Help"),
                (6, "List-Help")
            ]
        );
        assert_eq!(block.dropped, 1);
        assert_eq!(bound.budget, 0);
    }

    #[test]
    fn leading_blank_line_means_empty_header() {
        let raw = b"\nbody";
        let block = parse(raw, 0..raw.len(), 1000);
        assert!(block.fields.is_empty());
        assert_eq!(block.body_start, 1);
        assert_eq!(block.problem, None);
    }

    #[test]
    fn first_line_not_a_field_means_no_header() {
        let raw = b"<html>\n<a href=x>";
        let block = parse(raw, 0..raw.len(), 1000);
        assert_eq!(block.problem, Some(HeaderProblem::NoHeader));
        assert_eq!(block.body_start, 0);
    }

    /// GMime and MimeKit read past such lines, Python's `email` stops at the first (see
    /// [`parse`]); the fields after them are GMime's (checked with GMime 3.2).
    #[test]
    fn a_line_that_is_not_a_field_is_skipped_with_its_continuations() {
        let raw = b"Base: http://a/\n=?utf-8?B?YQ==?=\n folded onto the bad line\nNo colon here\n\
            Caf\xc3\xa9: 8-bit name\nContent-Type: text/html\n\n<a href=x>";
        let block = parse(raw, 0..raw.len(), 1000);
        assert_eq!(block.problem, None);
        assert_eq!(&raw[block.body_start..], b"<a href=x>");
        assert_eq!(
            kept(&block),
            [(0, "Base", "http://a/"), (2, "Content-Type", "text/html")]
        );
        let skipped = block.skipped.unwrap();
        assert_eq!(&raw[skipped.first], b"=?utf-8?B?YQ==?=");
        assert_eq!(skipped.lines, 2);
    }

    fn lenient(raw: &[u8], max_bytes: usize) -> HeaderBlock {
        super::parse(
            raw,
            0..raw.len(),
            FirstLine::Lenient,
            max_bytes,
            &mut KeptFields { budget: 1000 },
        )
    }

    /// A body part whose first lines are not fields: its MIME fields are read when they come
    /// before an empty line, as GMime 3.2 reads them (checked with
    /// `g_mime_parser_construct_message` on each shape: it gives the `Content-Type` and the
    /// body after the empty line).
    #[test]
    fn lines_before_the_mime_fields_of_a_body_part_are_skipped() {
        for raw in [
            &b"junk\nContent-Type: text/html\n\n<a href=x>"[..],
            b"junk\r\nmore junk\r\n folded onto it\r\ncontent-TYPE: text/html\r\n\r\n<a href=x>",
            b"<p>one\nX-Other: 1\nContent-Transfer-Encoding: 8bit\nContent-Type: text/html\n\n<a href=x>",
        ] {
            let block = lenient(raw, 1000);
            assert_eq!(block.problem, None, "{raw:?}");
            assert_eq!(&raw[block.body_start..], b"<a href=x>", "{raw:?}");
            let names: Vec<_> = block.fields.iter().map(|f| f.name.as_str()).collect();
            assert!(names.contains(&"Content-Type"), "{names:?}");
            let skipped = block.skipped.unwrap();
            assert_eq!(skipped.first.start, 0);
            assert!(!raw[skipped.first].contains(&b':'));
        }
        let raw = b"junk\nContent-Type: text/html\n\nbody";
        let block = lenient(raw, 1000);
        assert_eq!(block.skipped.map(|s| s.lines), Some(1));
        // Strict (a message): no header at all.
        let block = parse(raw, 0..raw.len(), 1000);
        assert_eq!(block.problem, Some(HeaderProblem::NoHeader));
    }

    /// Content right after the delimiter stays body: without a MIME field before an empty
    /// line, or without that empty line, or with the field past the header limit.
    #[test]
    fn a_body_part_without_mime_fields_first_has_no_header() {
        let mut far = b"junk\n".to_vec();
        far.extend(std::iter::repeat_n(b"filler line\n", 20).flatten());
        far.extend(b"Content-Type: text/html\n\nbody");
        for raw in [
            &b"Hello,\nNote: a colon here\nhttps://x.example/\n\nRegards"[..],
            b"junk\nContent-Type: text/html\n<a href=x>",
            b"<html>\n\nContent-Type: text/html\n\nbody",
            b"junk\n Content-Type: text/html\n\nbody",
            &far,
        ] {
            let block = lenient(raw, 100);
            assert_eq!(block.problem, Some(HeaderProblem::NoHeader), "{raw:?}");
            assert_eq!((block.range.clone(), block.body_start), (0..0, 0));
            assert!(block.fields.is_empty());
        }
        assert_eq!(lenient(&far, 1000).problem, None);
    }

    #[test]
    fn skipped_lines_count_against_the_size_limit() {
        let mut raw = b"Base: 1\n".to_vec();
        for _ in 0..20 {
            raw.extend(b"not a field, just words\n");
        }
        raw.extend(b"Content-Type: text/html\n\nbody");
        let block = parse(&raw, 0..raw.len(), 100);
        assert_eq!(block.problem, Some(HeaderProblem::TooLarge));
        assert_eq!(&raw[block.body_start..], b"body");
        assert_eq!(block.fields.len(), 1);
    }

    #[test]
    fn an_overlong_field_is_not_read_and_the_fields_after_it_are() {
        let mut raw = b"A: 1\nContent-Location: ".to_vec();
        raw.extend(std::iter::repeat_n(b'x', 5000));
        raw.extend(b"\n \tfolded\nContent-Type: text/html\n\nbody");
        let block = parse(&raw, 0..raw.len(), 100);
        assert_eq!(block.problem, None);
        assert_eq!(&raw[block.body_start..], b"body");
        assert_eq!(kept(&block), [(2, "Content-Type", "text/html")]);
        let [overlong] = &block.overlong[..] else {
            panic!("{:?}", block.overlong)
        };
        assert_eq!(&raw[overlong.raw_name.clone()], b"Content-Location");
        assert!(raw[..overlong.end].ends_with(b"\tfolded"));
    }

    #[test]
    fn header_size_limit_stops_reading() {
        let mut raw = Vec::new();
        for i in 0..50 {
            raw.extend(format!("Base: http://x/{i:03}\n").bytes());
        }
        raw.extend(b"\nbody");
        // Each field is 19 bytes: the sixth passes 100, the seventh is not read.
        let block = parse(&raw, 0..raw.len(), 100);
        assert_eq!(block.problem, Some(HeaderProblem::TooLarge));
        assert_eq!(&raw[block.body_start..], b"body");
        assert_eq!(block.fields.len(), 6);
        assert_eq!(block.range.end, 6 * 19);
        assert!(block.overlong.is_empty());
    }
}
