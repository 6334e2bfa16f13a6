//! RTF (Rich Text Format Specification 1.9.1): the field codes of `{\field{\*\fldinst …}}`
//! groups, read by a tokenizer of our own, and the links they name ([`field_link`]).
//!
//! # What is read
//!
//! The text of a `\fldinst` destination, and of the groups inside it, is the field's code:
//! Word splits it into groups with their own formatting (`{\*\fldinst {\rtlch HYPERLINK
//! "…" }}`), and that text is joined. Within it, `\'hh` bytes are decoded in the document's
//! code page (`\ansicpg`, Windows-1252 when there is none; a byte sequence of a double-byte
//! code page may span two escapes), `\uN` is the Unicode character N (a pair of surrogates
//! makes one character) followed by `\ucN` fallback characters that are skipped (RTF
//! 1.9.1, "Unicode RTF"), `\\`, `\{`, `\}` are the characters, `\tab`, `\~`, `\_` and the
//! quote and dash symbols are their characters, and line breaks are ignored. Groups that are
//! other destinations inside it (`{\*\datafield …}`, which Word writes after a HYPERLINK's
//! code, and any other `\*` destination, `\pict`, `\object`) are not part of the code. A
//! field nested in a code contributes its result text (`\fldrslt`) to the outer code, as
//! Word evaluates it; its own code is read as its own field. `\binN` skips N bytes of binary
//! data. Reading ends where the outermost group closes.
//!
//! The code page of a font (`\fcharset`) is not followed: Word writes field codes in the
//! document's code page, or as `\u` escapes.
//!
//! # Why no crate
//!
//! The RTF crates on crates.io do not fit: `rtf-parser` takes the file as a `&str` (RTF is
//! bytes in a code page, not UTF-8), gives its tokens no positions, and builds a document of
//! styled paragraphs that knows nothing of fields; `rtf-grimoire` copies each token
//! into a `String` or `Vec` of its own and gives no positions either. The reading here needs
//! only a tokenizer (control words, control symbols, groups, text) with the position of
//! every token, and it counts groups on an explicit stack, bounded by [`MAX_DEPTH`].
//!
//! # Ranges
//!
//! A link's range is in bytes of the file, 0-based, half-open: from the first byte of the
//! first character of the target as written (a literal byte, or the `\'hh` or `\uN` that
//! encodes it) to the last byte of its last, markup between them included.

use std::ops::Range;

use encoding_rs::{Decoder, Encoding};

use super::field::field_link;
use super::mapped::MappedText;
use super::{MAX_CODE_BYTES, Sink};
use crate::archive::ProblemKind;

/// How deep groups nest before deeper ones are read as not holding a field's code: Word
/// nests a few dozen at most, and the stack grows with the depth.
pub(crate) const MAX_DEPTH: usize = 1024;

/// The destinations whose text is never part of a field's code (RTF 1.9.1: pictures,
/// objects, and the tables of the header).
const NOT_TEXT: [&[u8]; 13] = [
    b"pict",
    b"object",
    b"objdata",
    b"fonttbl",
    b"colortbl",
    b"stylesheet",
    b"info",
    b"themedata",
    b"colorschememapping",
    b"datastore",
    b"listtable",
    b"listoverridetable",
    b"latentstyles",
];

/// What the text of a group is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Destination {
    /// Document text, or anything else that is not read.
    Other,
    /// The code of the innermost field being read.
    Code,
    /// A destination whose text is never a field's code.
    Skip,
}

/// An open group.
#[derive(Debug, Clone, Copy)]
struct Group {
    /// What its text is.
    destination: Destination,
    /// How many fallback characters follow a `\uN` (`\ucN`, inherited from the enclosing
    /// group).
    fallback: usize,
    /// True when the group is a `\fldinst` destination: its field's code ends with it.
    owns_code: bool,
}

/// Reads the links of the RTF file `bytes` into `sink`.
pub(super) fn links(bytes: &[u8], sink: &mut Sink) {
    let encoding = encoding_rs::WINDOWS_1252;
    let mut reader = Reader {
        bytes,
        at: 0,
        groups: Vec::new(),
        too_deep: 0,
        is_fresh: false,
        is_starred: false,
        codes: Vec::new(),
        skip: 0,
        high: None,
        encoding,
        decoder: encoding.new_decoder_without_bom_handling(),
        pending: None,
        is_cut: false,
        was_too_deep: false,
    };
    reader.run(sink);
    sink.links.sort_by_key(|link| link.range.start);
    if reader.was_too_deep {
        sink.problem(
            ProblemKind::Limit,
            None,
            format!("groups nested deeper than {MAX_DEPTH}: their text was not read"),
        );
    }
    if reader.is_cut {
        sink.problem(
            ProblemKind::Limit,
            None,
            format!("a field code longer than {MAX_CODE_BYTES} bytes was read in part"),
        );
    }
}

/// The tokenizer's state.
struct Reader<'b> {
    /// The file.
    bytes: &'b [u8],
    /// The offset read to.
    at: usize,
    /// The open groups, outermost first.
    groups: Vec<Group>,
    /// How many groups are open beyond [`MAX_DEPTH`].
    too_deep: usize,
    /// True while nothing but `\*` was read in the innermost group: a destination word may
    /// follow.
    is_fresh: bool,
    /// True when the innermost group began with `\*`.
    is_starred: bool,
    /// The codes of the fields being read, outermost first.
    codes: Vec<MappedText>,
    /// How many fallback characters of a `\uN` are still to be skipped.
    skip: usize,
    /// A high surrogate from a `\uN`, and where it was written, waiting for its low half.
    high: Option<(u32, usize)>,
    /// The document's code page.
    encoding: &'static Encoding,
    /// Its decoder.
    decoder: Decoder,
    /// Where the bytes the decoder holds, not yet a character, were written.
    pending: Option<Range<usize>>,
    /// True once a code was cut at [`MAX_CODE_BYTES`].
    is_cut: bool,
    /// True once groups nested deeper than [`MAX_DEPTH`].
    was_too_deep: bool,
}

impl Reader<'_> {
    /// Reads the file to its end, or to where its outermost group closes.
    fn run(&mut self, sink: &mut Sink) {
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b'{' => {
                    self.at += 1;
                    self.open();
                }
                b'}' => {
                    self.at += 1;
                    if self.close(sink) {
                        break;
                    }
                }
                b'\\' => self.control(),
                b'\r' | b'\n' => self.at += 1,
                _ => {
                    let start = self.at;
                    self.at += 1;
                    self.byte(byte, start..self.at, true);
                }
            }
        }
        self.flush();
        // Fields whose groups the file does not close still name their links.
        while let Some(code) = self.codes.pop() {
            report(&code, sink);
        }
    }

    /// The innermost group's destination (for text read beyond [`MAX_DEPTH`]: none).
    fn destination(&self) -> Destination {
        if self.too_deep > 0 {
            return Destination::Skip;
        }
        self.groups
            .last()
            .map_or(Destination::Other, |group| group.destination)
    }

    /// A group opens.
    fn open(&mut self) {
        self.flush();
        self.skip = 0;
        self.is_fresh = true;
        self.is_starred = false;
        if self.too_deep > 0 || self.groups.len() >= MAX_DEPTH {
            self.too_deep += 1;
            self.was_too_deep = true;
            return;
        }
        let group = match self.groups.last() {
            Some(parent) => Group {
                owns_code: false,
                ..*parent
            },
            None => Group {
                destination: Destination::Other,
                fallback: 1,
                owns_code: false,
            },
        };
        self.groups.push(group);
    }

    /// A group closes; true when it was the outermost, where the document ends.
    fn close(&mut self, sink: &mut Sink) -> bool {
        self.flush();
        self.skip = 0;
        self.is_fresh = false;
        self.is_starred = false;
        if self.too_deep > 0 {
            self.too_deep -= 1;
            return false;
        }
        let Some(group) = self.groups.pop() else {
            return true;
        };
        if group.owns_code
            && let Some(code) = self.codes.pop()
        {
            report(&code, sink);
        }
        self.groups.is_empty()
    }

    /// Reads a control word or control symbol at the backslash at the position.
    fn control(&mut self) {
        let start = self.at;
        self.at += 1;
        let Some(&first) = self.bytes.get(self.at) else {
            return;
        };
        if first.is_ascii_alphabetic() {
            let name_start = self.at;
            while self.bytes.get(self.at).is_some_and(u8::is_ascii_alphabetic) {
                self.at += 1;
            }
            let name = self.bytes.get(name_start..self.at).unwrap_or_default();
            let parameter = self.parameter();
            let end = self.at;
            // A space ends a control word and belongs to it.
            if self.bytes.get(self.at) == Some(&b' ') {
                self.at += 1;
            }
            self.word(name, parameter, start..end);
            return;
        }
        self.at += 1;
        match first {
            b'\'' => {
                let hex = self.bytes.get(self.at..self.at + 2).and_then(|digits| {
                    let digits = std::str::from_utf8(digits).ok()?;
                    u8::from_str_radix(digits, 16).ok()
                });
                if let Some(byte) = hex {
                    self.at += 2;
                    self.byte(byte, start..self.at, false);
                }
            }
            b'*' => {
                if self.is_fresh {
                    self.is_starred = true;
                }
            }
            b'\\' | b'{' | b'}' => self.character(char::from(first), start..self.at),
            b'~' => self.character('\u{A0}', start..self.at),
            b'_' => self.character('\u{2011}', start..self.at),
            _ => self.flush(),
        }
    }

    /// Reads a control word's numeric parameter, if one follows (an optional `-` and
    /// digits), clamped to the range of a 32-bit integer.
    fn parameter(&mut self) -> Option<i64> {
        let negative = self.bytes.get(self.at) == Some(&b'-')
            && self.bytes.get(self.at + 1).is_some_and(u8::is_ascii_digit);
        if negative {
            self.at += 1;
        }
        let mut value: Option<i64> = None;
        while let Some(&digit) = self.bytes.get(self.at).filter(|d| d.is_ascii_digit()) {
            let so_far = value.unwrap_or(0);
            value = Some((so_far * 10 + i64::from(digit - b'0')).min(i64::from(i32::MAX) + 1));
            self.at += 1;
        }
        value.map(|value| if negative { -value } else { value })
    }

    /// Handles the control word `name` with its `parameter`, written at `range`.
    fn word(&mut self, name: &[u8], parameter: Option<i64>, range: Range<usize>) {
        if name == b"bin" {
            // Binary data follows, whatever else is going on.
            let length = usize::try_from(parameter.unwrap_or(0).max(0)).unwrap_or(usize::MAX);
            self.flush();
            self.at = self.at.saturating_add(length).min(self.bytes.len());
            return;
        }
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        let was_fresh = std::mem::replace(&mut self.is_fresh, false);
        self.flush();
        match name {
            b"fldinst" => self.begin_code(),
            _ if was_fresh && (self.is_starred || NOT_TEXT.contains(&name)) => {
                self.set_destination(Destination::Skip);
            }
            b"ansicpg" => self.set_code_page(parameter),
            b"mac" => self.set_encoding(encoding_rs::MACINTOSH),
            b"ansi" | b"pc" | b"pca" => self.set_encoding(encoding_rs::WINDOWS_1252),
            b"uc" => {
                let fallback = usize::try_from(parameter.unwrap_or(1).max(0)).unwrap_or(0);
                if let Some(group) = self.groups.last_mut() {
                    group.fallback = fallback;
                }
            }
            b"u" => self.unicode(parameter.unwrap_or(0), range),
            _ => {
                if let Some(c) = symbol(name) {
                    self.character(c, range);
                }
            }
        }
    }

    /// Sets the innermost group's destination.
    fn set_destination(&mut self, destination: Destination) {
        if self.too_deep == 0
            && let Some(group) = self.groups.last_mut()
        {
            group.destination = destination;
        }
    }

    /// A `\fldinst` makes the innermost group a field's code, unless it is in a destination
    /// that is never text or already is one.
    fn begin_code(&mut self) {
        if self.too_deep > 0 {
            return;
        }
        if let Some(group) = self.groups.last_mut()
            && group.destination != Destination::Skip
            && !group.owns_code
        {
            group.destination = Destination::Code;
            group.owns_code = true;
            self.codes.push(MappedText::default());
        }
    }

    /// `\ansicpgN`: the document's code page, as Windows numbers it (an unknown one keeps
    /// Windows-1252).
    fn set_code_page(&mut self, parameter: Option<i64>) {
        let encoding = match parameter.unwrap_or(1252) {
            874 => encoding_rs::WINDOWS_874,
            932 => encoding_rs::SHIFT_JIS,
            936 => encoding_rs::GBK,
            949 => encoding_rs::EUC_KR,
            950 => encoding_rs::BIG5,
            1250 => encoding_rs::WINDOWS_1250,
            1251 => encoding_rs::WINDOWS_1251,
            1253 => encoding_rs::WINDOWS_1253,
            1254 => encoding_rs::WINDOWS_1254,
            1255 => encoding_rs::WINDOWS_1255,
            1256 => encoding_rs::WINDOWS_1256,
            1257 => encoding_rs::WINDOWS_1257,
            1258 => encoding_rs::WINDOWS_1258,
            10000 => encoding_rs::MACINTOSH,
            20866 => encoding_rs::KOI8_R,
            65001 => encoding_rs::UTF_8,
            _ => encoding_rs::WINDOWS_1252,
        };
        self.set_encoding(encoding);
    }

    /// Decodes bytes with `encoding` from now on.
    fn set_encoding(&mut self, encoding: &'static Encoding) {
        self.flush();
        self.encoding = encoding;
        self.decoder = encoding.new_decoder_without_bom_handling();
    }

    /// `\uN`: the UTF-16 code unit N (negative for those above 32767), then the group's
    /// fallback characters to skip.
    fn unicode(&mut self, parameter: i64, range: Range<usize>) {
        let unit = u32::try_from(parameter.rem_euclid(65536)).unwrap_or(0xFFFD);
        self.skip = self.groups.last().map_or(1, |group| group.fallback);
        match unit {
            0xD800..=0xDBFF => self.high = Some((unit, range.start)),
            0xDC00..=0xDFFF => {
                if let Some((high, start)) = self.high.take() {
                    let code = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
                    let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
                    self.push(c, start..range.end);
                } else {
                    self.push(char::REPLACEMENT_CHARACTER, range);
                }
            }
            _ => {
                let c = char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER);
                self.push(c, range);
            }
        }
    }

    /// A character written as a control word or symbol, at `range`.
    fn character(&mut self, c: char, range: Range<usize>) {
        self.is_fresh = false;
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        self.flush();
        self.push(c, range);
    }

    /// A byte of text in the code page, written at `range` (`literal` when as itself, not as
    /// `\'hh`).
    fn byte(&mut self, byte: u8, range: Range<usize>, literal: bool) {
        self.is_fresh = false;
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        self.high = None;
        if self.destination() != Destination::Code {
            return;
        }
        let mut out = [0u8; 16];
        let (_, _, written, _) =
            self.decoder
                .decode_to_utf8(std::slice::from_ref(&byte), &mut out, false);
        let source = match self.pending.take() {
            Some(pending) => pending.start..range.end,
            None => range,
        };
        match out
            .get(..written)
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
        {
            Some("") | None => self.pending = Some(source),
            Some(text) => {
                let is_literal = literal && source.len() == text.len();
                self.append(text, source, is_literal);
            }
        }
    }

    /// Ends a byte sequence the decoder holds: an incomplete one becomes U+FFFD, and the
    /// decoder starts afresh.
    fn flush(&mut self) {
        if let Some(source) = self.pending.take() {
            let mut out = [0u8; 16];
            let (_, _, written, _) = self.decoder.decode_to_utf8(&[], &mut out, true);
            self.decoder = self.encoding.new_decoder_without_bom_handling();
            if let Some(text) = out.get(..written).and_then(|b| std::str::from_utf8(b).ok()) {
                self.append(text, source, false);
            }
        }
    }

    /// Appends the decoded character `c`, written at `source`, to the code being read.
    fn push(&mut self, c: char, source: Range<usize>) {
        self.append(c.encode_utf8(&mut [0; 4]), source, false);
    }

    /// Appends `text`, written at `source`, to the code being read, if the text is part of
    /// one and the code is not full.
    fn append(&mut self, text: &str, source: Range<usize>, literal: bool) {
        if self.destination() != Destination::Code {
            return;
        }
        let Some(code) = self.codes.last_mut() else {
            return;
        };
        if code.len() >= MAX_CODE_BYTES {
            self.is_cut = true;
        } else if literal {
            code.push_literal(text, source.start);
        } else {
            code.push_decoded(text, source);
        }
    }
}

/// The character a control word stands for, among those a field code may hold.
fn symbol(name: &[u8]) -> Option<char> {
    Some(match name {
        b"tab" => '\t',
        b"lquote" => '\u{2018}',
        b"rquote" => '\u{2019}',
        b"ldblquote" => '\u{201C}',
        b"rdblquote" => '\u{201D}',
        b"emdash" => '\u{2014}',
        b"endash" => '\u{2013}',
        b"bullet" => '\u{2022}',
        b"emspace" => '\u{2003}',
        b"enspace" => '\u{2002}',
        b"qmspace" => '\u{2005}',
        _ => return None,
    })
}

/// Records the link the field code `code` names, if any.
fn report(code: &MappedText, sink: &mut Sink) {
    if let Some(found) = field_link(code.text()) {
        sink.add(found.place, &found.target, None, code.source(found.range));
    }
}
