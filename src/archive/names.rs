//! Member names as a reader shows them: the stored bytes decoded as the general purpose bit
//! flag says (APPNOTE.TXT §4.4.4 bit 11 and Appendix D).

/// Bit 11 of the general purpose bit flag, the "Language encoding flag (EFS)": the name and
/// comment are UTF-8 (APPNOTE.TXT §4.4.4). The `zip` crate also sets it when it has replaced
/// the name by an Info-ZIP Unicode Path extra field (§4.6.9) whose CRC matches.
const LANGUAGE_ENCODING: u16 = 1 << 11;

/// The characters of code page 437 from 0x80 to 0xFF; below 0x80 it is ASCII (APPNOTE.TXT
/// Appendix D.1: "the ZIP format has historically supported only the original IBM PC
/// character encoding set, commonly referred to as IBM Code Page 437").
const CP437_HIGH: [char; 128] = [
    '\u{00C7}', '\u{00FC}', '\u{00E9}', '\u{00E2}', '\u{00E4}', '\u{00E0}', '\u{00E5}', '\u{00E7}',
    '\u{00EA}', '\u{00EB}', '\u{00E8}', '\u{00EF}', '\u{00EE}', '\u{00EC}', '\u{00C4}', '\u{00C5}',
    '\u{00C9}', '\u{00E6}', '\u{00C6}', '\u{00F4}', '\u{00F6}', '\u{00F2}', '\u{00FB}', '\u{00F9}',
    '\u{00FF}', '\u{00D6}', '\u{00DC}', '\u{00A2}', '\u{00A3}', '\u{00A5}', '\u{20A7}', '\u{0192}',
    '\u{00E1}', '\u{00ED}', '\u{00F3}', '\u{00FA}', '\u{00F1}', '\u{00D1}', '\u{00AA}', '\u{00BA}',
    '\u{00BF}', '\u{2310}', '\u{00AC}', '\u{00BD}', '\u{00BC}', '\u{00A1}', '\u{00AB}', '\u{00BB}',
    '\u{2591}', '\u{2592}', '\u{2593}', '\u{2502}', '\u{2524}', '\u{2561}', '\u{2562}', '\u{2556}',
    '\u{2555}', '\u{2563}', '\u{2551}', '\u{2557}', '\u{255D}', '\u{255C}', '\u{255B}', '\u{2510}',
    '\u{2514}', '\u{2534}', '\u{252C}', '\u{251C}', '\u{2500}', '\u{253C}', '\u{255E}', '\u{255F}',
    '\u{255A}', '\u{2554}', '\u{2569}', '\u{2566}', '\u{2560}', '\u{2550}', '\u{256C}', '\u{2567}',
    '\u{2568}', '\u{2564}', '\u{2565}', '\u{2559}', '\u{2558}', '\u{2552}', '\u{2553}', '\u{256B}',
    '\u{256A}', '\u{2518}', '\u{250C}', '\u{2588}', '\u{2584}', '\u{258C}', '\u{2590}', '\u{2580}',
    '\u{03B1}', '\u{00DF}', '\u{0393}', '\u{03C0}', '\u{03A3}', '\u{03C3}', '\u{00B5}', '\u{03C4}',
    '\u{03A6}', '\u{0398}', '\u{03A9}', '\u{03B4}', '\u{221E}', '\u{03C6}', '\u{03B5}', '\u{2229}',
    '\u{2261}', '\u{00B1}', '\u{2265}', '\u{2264}', '\u{2320}', '\u{2321}', '\u{00F7}', '\u{2248}',
    '\u{00B0}', '\u{2219}', '\u{00B7}', '\u{221A}', '\u{207F}', '\u{00B2}', '\u{25A0}', '\u{00A0}',
];

/// Decodes a stored name (`raw`, from the central directory or a local header) under the
/// general purpose bit `flags` of its entry: UTF-8 when bit 11 is set (invalid sequences
/// become U+FFFD), code page 437 otherwise.
///
/// The `zip` crate's own `name()` takes any name that is valid UTF-8 as UTF-8, whatever the
/// flag; we follow APPNOTE.TXT instead, as Python's `zipfile` and Windows do, so that the
/// name is the one most readers show. A name written in UTF-8 by a tool that did not set the
/// flag (some archivers on macOS do this) therefore reads as CP437 mojibake here, as it does
/// in those readers.
pub(super) fn decode(raw: &[u8], flags: u16) -> String {
    if flags & LANGUAGE_ENCODING != 0 {
        return String::from_utf8_lossy(raw).into_owned();
    }
    raw.iter()
        .map(|&byte| match byte.checked_sub(0x80) {
            None => char::from(byte),
            Some(high) => CP437_HIGH
                .get(usize::from(high))
                .copied()
                .unwrap_or(char::REPLACEMENT_CHARACTER),
        })
        .collect()
}
