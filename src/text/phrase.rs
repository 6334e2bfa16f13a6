//! Thunderbird's structured phrases (`mozITXTToHTMLConv::kStructPhrase`, on by default in
//! the message view: `mail.display_struct`): `*bold*`, `/italic/`, `_underline_` and `|code|`.
//! They matter to links because `ScanTXT` makes no link while such a phrase is open on the
//! line (its "workaround for bug #19445"): in `*see http://example.com/*` nothing is linked.
//!
//! `StructPhraseHit` opens a phrase at a tag character that follows a delimiter (or starts
//! the line) and precedes a letter, when `NumberOfMatches` counts more closing tags in the
//! next 2000 UTF-16 code units than phrases of that tag are open; it closes one at a tag that
//! follows a letter and precedes a delimiter. "Letter" and "digit" are Unicode general
//! categories L and N (`IsAlpha`, `IsDigit`); a delimiter is anything else, or the end of
//! the line, but not the tag character itself (`ItMatchesDelimited` with `LT_DELIMITER`).
//! "Follows" looks at the first code point of the preceding grapheme cluster, as `ScanTXT`
//! steps by grapheme clusters (UAX #29).

use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_segmentation::GraphemeCursor;

/// The tag characters, in the order of [`Phrases`]'s counters.
const TAGS: [u8; 4] = [b'*', b'/', b'_', b'|'];

/// How far ahead `NumberOfMatches` looks for closing tags, in UTF-16 code units.
const LOOKAHEAD_UNITS: u32 = 2000;

/// The index of a tag character in [`TAGS`].
pub(super) fn tag_index(byte: u8) -> Option<usize> {
    TAGS.iter().position(|&t| t == byte)
}

/// `IsAlpha` of mozTXTToHTMLConv.cpp: general category L. The end of the text is none.
fn is_letter(c: Option<char>) -> bool {
    c.is_some_and(|c| match c {
        '\0'..='\x7f' => c.is_ascii_alphabetic(),
        _ => c.general_category_group() == GeneralCategoryGroup::Letter,
    })
}

/// `IsDigit` of mozTXTToHTMLConv.cpp: general category N.
fn is_number(c: Option<char>) -> bool {
    c.is_some_and(|c| match c {
        '\0'..='\x7f' => c.is_ascii_digit(),
        _ => c.general_category_group() == GeneralCategoryGroup::Number,
    })
}

/// `LT_DELIMITER` for tag `tag`: not a letter, not a number, not the tag itself.
fn is_delimiter(c: Option<char>, tag: u8) -> bool {
    !is_letter(c) && !is_number(c) && c != Some(char::from(tag))
}

/// The first code point at byte `at` of `s`.
fn char_at(s: &str, at: usize) -> Option<char> {
    s.get(at..).and_then(|rest| rest.chars().next())
}

/// The start of the grapheme cluster that ends at byte `at` (`at` > 0, a char boundary).
pub(super) fn prev_cluster_start(s: &str, at: usize) -> usize {
    let bytes = s.as_bytes();
    // Two ASCII characters always have a cluster boundary between them, except CR LF; and an
    // ASCII character starts its cluster unless a Prepend character (never ASCII) precedes.
    if let Some(&before) = at.checked_sub(1).and_then(|i| bytes.get(i))
        && before.is_ascii()
        && before != b'\n'
        && at
            .checked_sub(2)
            .and_then(|i| bytes.get(i))
            .is_none_or(u8::is_ascii)
    {
        return at - 1;
    }
    let mut cursor = GraphemeCursor::new(at, s.len(), true);
    match cursor.prev_boundary(s, 0) {
        Ok(Some(start)) => start,
        _ => s
            .get(..at)
            .and_then(|head| head.char_indices().next_back())
            .map_or(0, |(i, _)| i),
    }
}

/// True when byte `at` of `s` (an ASCII character) starts a grapheme cluster: `ScanTXT`
/// looks at characters only where a cluster starts.
pub(super) fn is_cluster_start(s: &str, at: usize) -> bool {
    let bytes = s.as_bytes();
    match at.checked_sub(1).and_then(|i| bytes.get(i)) {
        None => true,
        Some(&before) if before.is_ascii() => !(before == b'\r' && bytes.get(at) == Some(&b'\n')),
        Some(_) => GraphemeCursor::new(at, s.len(), true)
            .is_boundary(s, 0)
            .unwrap_or(true),
    }
}

/// UTF-16 code units of `bytes` (valid UTF-8): one per character, two for those outside the
/// Basic Multilingual Plane (4-byte sequences).
fn utf16_len(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .map(|&b| u32::from((b & 0xC0) != 0x80) + u32::from(b >= 0xF0))
        .sum::<u32>()
}

/// The open phrases of one line, and what `NumberOfMatches` needs, kept between lines so that
/// a line allocates nothing unless a phrase may open on it.
#[derive(Debug, Default)]
pub(super) struct Phrases {
    /// Open phrases per tag (`structPhrase_strong` and its siblings).
    open: [u32; 4],
    /// Per tag, the UTF-16 offsets of the letters that close a phrase (the `pos` at which
    /// `NumberOfMatches` counts a match), ascending; built on first need on each line.
    closers: [Vec<u32>; 4],
    /// Whether `closers` holds this line's closers for each tag.
    built: [bool; 4],
    /// A byte offset of the line and its UTF-16 offset, moved forward as the line is read.
    cursor: (usize, u32),
}

impl Phrases {
    /// Forgets the previous line.
    pub(super) fn reset(&mut self) {
        self.open = [0; 4];
        self.built = [false; 4];
        self.cursor = (0, 0);
    }

    /// True while some phrase is open: `ScanTXT` then makes no link.
    pub(super) fn any_open(&self) -> bool {
        self.open.iter().any(|&n| n > 0)
    }

    /// `StructPhraseHit` for the tag character at byte `at` of the line `s`, which `ScanTXT`
    /// visits; `at` only grows from call to call on a line.
    pub(super) fn visit(&mut self, s: &str, at: usize, tag: usize) {
        let Some(&tag_byte) = TAGS.get(tag) else {
            return;
        };
        let after = char_at(s, at + 1);
        let before = (at > 0).then(|| char_at(s, prev_cluster_start(s, at)));
        let open = self.open.get(tag).copied().unwrap_or(0);
        // Opening: a delimiter (or the line's start) before, a letter after, and more closing
        // tags ahead than phrases open.
        let opens = before.is_none_or(|c| is_delimiter(c, tag_byte))
            && is_letter(after)
            && self.closers_ahead(s, at, tag) > open;
        if let Some(count) = self.open.get_mut(tag) {
            if opens {
                *count += 1;
            } else if *count > 0 && before.is_some_and(is_letter) && is_delimiter(after, tag_byte) {
                *count -= 1;
            }
        }
    }

    /// `NumberOfMatches` from the tag at byte `at`: the closing tags whose letter lies less
    /// than 2000 UTF-16 code units from `at`.
    fn closers_ahead(&mut self, s: &str, at: usize, tag: usize) -> u32 {
        if !self.built.get(tag).copied().unwrap_or(true) {
            self.build(s, tag);
        }
        let (from, from_units) = self.cursor;
        let at_units = if at >= from {
            from_units + utf16_len(s.as_bytes().get(from..at).unwrap_or_default())
        } else {
            utf16_len(s.as_bytes().get(..at).unwrap_or_default())
        };
        self.cursor = (at, at_units);
        let Some(closers) = self.closers.get(tag) else {
            return 0;
        };
        let first = closers.partition_point(|&u| u < at_units);
        let end = closers.partition_point(|&u| u < at_units.saturating_add(LOOKAHEAD_UNITS));
        u32::try_from(end.saturating_sub(first)).unwrap_or(u32::MAX)
    }

    /// Finds every closing tag of `tag` on the line `s`: a tag that starts a grapheme
    /// cluster, whose preceding cluster starts with a letter, and that a delimiter follows.
    fn build(&mut self, s: &str, tag: usize) {
        let (Some(&tag_byte), Some(closers)) = (TAGS.get(tag), self.closers.get_mut(tag)) else {
            return;
        };
        closers.clear();
        let bytes = s.as_bytes();
        let (mut walked, mut walked_units) = (0usize, 0u32);
        for at in memchr::memchr_iter(tag_byte, bytes) {
            if at == 0 || !is_cluster_start(s, at) {
                continue;
            }
            let letter = prev_cluster_start(s, at);
            if !is_letter(char_at(s, letter)) || !is_delimiter(char_at(s, at + 1), tag_byte) {
                continue;
            }
            // Letters of successive closers ascend: each starts at or after the previous tag.
            if letter >= walked {
                walked_units += utf16_len(bytes.get(walked..letter).unwrap_or_default());
                walked = letter;
                closers.push(walked_units);
            }
        }
        if let Some(built) = self.built.get_mut(tag) {
            *built = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Phrases, tag_index};

    /// The open state after visiting every tag character of `line` (none inside links).
    fn open_after(line: &str) -> bool {
        let mut phrases = Phrases::default();
        phrases.reset();
        for (at, byte) in line.bytes().enumerate() {
            if let Some(tag) = tag_index(byte) {
                phrases.visit(line, at, tag);
            }
        }
        phrases.any_open()
    }

    #[test]
    fn a_phrase_opens_only_when_it_closes_later() {
        let line = "*bold* and *not closed";
        assert!(!open_after(line));
        let mut phrases = Phrases::default();
        phrases.reset();
        phrases.visit(line, 0, 0);
        assert!(phrases.any_open(), "*bold* opens at column 0");
        phrases.visit(line, 5, 0);
        assert!(!phrases.any_open(), "and closes after the letter d");
        phrases.visit(line, 11, 0);
        assert!(
            !phrases.any_open(),
            "no closing tag follows the second star"
        );
    }

    #[test]
    fn tags_need_a_delimiter_before_and_a_letter_after() {
        // A letter before the star: no opening (a*b*c is not bold).
        let mut phrases = Phrases::default();
        phrases.reset();
        phrases.visit("a*b*c", 1, 0);
        assert!(!phrases.any_open());
        // A space after the slash: no opening.
        phrases.visit("x / y/", 2, 1);
        assert!(!phrases.any_open());
    }

    #[test]
    fn a_path_opens_italic_up_to_a_later_slash() {
        let line = "see /usr/bin and http://x.example/ now";
        // The slash before "usr" opens: "e/" at the end of the URL would close it.
        let mut phrases = Phrases::default();
        phrases.reset();
        phrases.visit(line, 4, 1);
        assert!(phrases.any_open());
    }

    #[test]
    fn combining_marks_belong_to_the_letter_before_them() {
        // "e\u{301}*" : the cluster before the star starts with the letter e.
        let line = "*e\u{301}*";
        assert!(!open_after(line));
        let mut phrases = Phrases::default();
        phrases.reset();
        phrases.visit(line, 0, 0);
        assert!(phrases.any_open());
        phrases.visit(line, 4, 0);
        assert!(!phrases.any_open());
    }
}
