//! PDF strings as text: text strings (ISO 32000-1 §7.9.2.2), URI strings (§12.6.4.7) and
//! file specification strings (§7.11.2), from the bytes lopdf decoded.
//!
//! lopdf has already undone the syntax of a string object (ISO 32000-1 §7.3.4): the escapes
//! `\(`, `\)`, `\\`, `\n` and the others, octal escapes (`\150`), line continuations (a
//! backslash before an end of line), an end of line inside the string read as one LF, and hex
//! strings (`<68 74>`, an odd last digit read as if followed by `0`). What is left is choosing
//! the character set, which the specification makes depend on the first bytes.

/// What [`PDF_DOC_HIGH`] and [`PDF_DOC_CONTROLS`] hold for a byte the specification leaves
/// undefined: nothing. Such a byte is read as its Latin-1 code point, as pdf.js does
/// (`stringToPDFString`).
const UNDEFINED: char = '\0';

/// PDFDocEncoding for the bytes 0x18–0x1F (ISO 32000-1 Annex D, Table D.2): diacritics where
/// Latin-1 has control characters.
const PDF_DOC_CONTROLS: [char; 8] = [
    '\u{02D8}', // 0x18 breve
    '\u{02C7}', // 0x19 caron
    '\u{02C6}', // 0x1A modifier letter circumflex accent
    '\u{02D9}', // 0x1B dot above
    '\u{02DD}', // 0x1C double acute accent
    '\u{02DB}', // 0x1D ogonek
    '\u{02DA}', // 0x1E ring above
    '\u{02DC}', // 0x1F small tilde
];

/// PDFDocEncoding for the bytes 0x80–0xAD (ISO 32000-1 Annex D, Table D.2), where it differs
/// from Latin-1: punctuation, ligatures and letters where Latin-1 has C1 controls, the euro
/// sign at 0xA0, and 0x9F and 0xAD undefined. From 0xAE on, the two agree.
const PDF_DOC_HIGH: [char; 46] = [
    '\u{2022}', // 0x80 bullet
    '\u{2020}', // 0x81 dagger
    '\u{2021}', // 0x82 double dagger
    '\u{2026}', // 0x83 horizontal ellipsis
    '\u{2014}', // 0x84 em dash
    '\u{2013}', // 0x85 en dash
    '\u{0192}', // 0x86 latin small letter f with hook
    '\u{2044}', // 0x87 fraction slash
    '\u{2039}', // 0x88 single left-pointing angle quotation mark
    '\u{203A}', // 0x89 single right-pointing angle quotation mark
    '\u{2212}', // 0x8A minus sign
    '\u{2030}', // 0x8B per mille sign
    '\u{201E}', // 0x8C double low-9 quotation mark
    '\u{201C}', // 0x8D left double quotation mark
    '\u{201D}', // 0x8E right double quotation mark
    '\u{2018}', // 0x8F left single quotation mark
    '\u{2019}', // 0x90 right single quotation mark
    '\u{201A}', // 0x91 single low-9 quotation mark
    '\u{2122}', // 0x92 trade mark sign
    '\u{FB01}', // 0x93 latin small ligature fi
    '\u{FB02}', // 0x94 latin small ligature fl
    '\u{0141}', // 0x95 latin capital letter l with stroke
    '\u{0152}', // 0x96 latin capital ligature oe
    '\u{0160}', // 0x97 latin capital letter s with caron
    '\u{0178}', // 0x98 latin capital letter y with diaeresis
    '\u{017D}', // 0x99 latin capital letter z with caron
    '\u{0131}', // 0x9A latin small letter dotless i
    '\u{0142}', // 0x9B latin small letter l with stroke
    '\u{0153}', // 0x9C latin small ligature oe
    '\u{0161}', // 0x9D latin small letter s with caron
    '\u{017E}', // 0x9E latin small letter z with caron
    UNDEFINED,  // 0x9F
    '\u{20AC}', // 0xA0 euro sign
    '\u{00A1}', // 0xA1 as in Latin-1 from here on
    '\u{00A2}', // 0xA2
    '\u{00A3}', // 0xA3
    '\u{00A4}', // 0xA4
    '\u{00A5}', // 0xA5
    '\u{00A6}', // 0xA6
    '\u{00A7}', // 0xA7
    '\u{00A8}', // 0xA8
    '\u{00A9}', // 0xA9
    '\u{00AA}', // 0xAA
    '\u{00AB}', // 0xAB
    '\u{00AC}', // 0xAC
    UNDEFINED,  // 0xAD
];

/// One byte of PDFDocEncoding (ISO 32000-1 Annex D, Table D.2) as a character. 0x00–0x17
/// and 0x20–0x7E are ASCII; 0x7F, 0x9F and 0xAD, which the table leaves undefined, are read
/// as their Latin-1 code points.
pub(crate) fn pdf_doc_char(byte: u8) -> char {
    let mapped = match byte {
        0x18..=0x1F => PDF_DOC_CONTROLS.get(usize::from(byte - 0x18)).copied(),
        0x80..=0xAD => PDF_DOC_HIGH.get(usize::from(byte - 0x80)).copied(),
        _ => None,
    };
    match mapped {
        Some(c) if c != UNDEFINED => c,
        _ => char::from(byte),
    }
}

/// Bytes in PDFDocEncoding as text (ISO 32000-1 Annex D).
pub(crate) fn pdf_doc_decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| pdf_doc_char(b)).collect()
}

/// A text string (ISO 32000-1 §7.9.2.2, Table 35) as text: UTF-16BE after the byte order
/// mark `FE FF`, UTF-8 after `EF BB BF` (ISO 32000-2 §7.9.2.2), otherwise PDFDocEncoding.
///
/// Two departures, both as pdf.js's `stringToPDFString` reads strings: `FF FE` starts
/// UTF-16LE (the specification knows no such mark, but some producers write it), and the
/// language escapes of UTF-16 text (§7.9.2.2: `U+001B`, a language code, `U+001B`) are
/// removed. Unpaired surrogates and invalid UTF-8 become U+FFFD; an odd last byte of UTF-16
/// is dropped.
pub(crate) fn text_string(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        without_language_escapes(utf16(rest, u16::from_be_bytes))
    } else if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        without_language_escapes(utf16(rest, u16::from_le_bytes))
    } else if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        String::from_utf8_lossy(rest).into_owned()
    } else {
        pdf_doc_decode(bytes)
    }
}

/// A URI string (ISO 32000-1 §12.6.4.7, Table 206) or a file specification string
/// (§7.11.2) as text.
///
/// The specification makes a URI 7-bit ASCII, and then every reading agrees. For other bytes
/// we follow the viewers rather than the letter: a string with a byte order mark is read as a
/// text string ([`text_string`]); otherwise bytes that are valid UTF-8 are read as UTF-8, as
/// pdf.js does (`createValidAbsoluteUrl` with `tryConvertEncoding`) and as Chromium does
/// when it parses the bytes PDFium hands it as a URL; anything else is read as
/// PDFDocEncoding, which is what a byte string becomes as text.
pub(crate) fn uri_string(bytes: &[u8]) -> String {
    if bytes.starts_with(&[0xFE, 0xFF])
        || bytes.starts_with(&[0xFF, 0xFE])
        || bytes.starts_with(&[0xEF, 0xBB, 0xBF])
    {
        return text_string(bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => pdf_doc_decode(bytes),
    }
}

/// UTF-16 code units from byte pairs (`unit` says the byte order) as text, unpaired
/// surrogates replaced by U+FFFD.
fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|pair| {
        unit([
            pair.first().copied().unwrap_or(0),
            pair.get(1).copied().unwrap_or(0),
        ])
    });
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// `text` without its language escape sequences (ISO 32000-1 §7.9.2.2: U+001B, a language
/// and optional country code, U+001B). An escape that is not closed is kept.
fn without_language_escapes(text: String) -> String {
    if !text.contains('\u{1B}') {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find('\u{1B}') {
        let (before, from_escape) = rest.split_at(start);
        out.push_str(before);
        let after_open = from_escape.get(1..).unwrap_or_default();
        match after_open.find('\u{1B}') {
            Some(end) => rest = after_open.get(end + 1..).unwrap_or_default(),
            None => {
                out.push_str(from_escape);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether `reference` starts with a URI scheme (RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT /
/// "+" / "-" / "." )` and `:`) of at least two characters, after the leading C0 controls and
/// spaces that a URL parser strips (URL Standard, basic URL parser).
///
/// A scheme of one letter is a Windows drive (`C:\dir\file`, `C:/dir`): a PDF viewer opens it
/// as a file, not as a URL, so it is not one. Neither is a UNC path (`\\host\share`).
pub(crate) fn has_scheme(reference: &str) -> bool {
    let trimmed = reference.trim_start_matches(|c: char| c <= ' ');
    for (length, c) in trimmed.chars().enumerate() {
        match c {
            ':' => return length >= 2,
            'a'..='z' | 'A'..='Z' => {}
            '0'..='9' | '+' | '-' | '.' if length > 0 => {}
            _ => return false,
        }
    }
    false
}
