//! One line through `mozTXTToHTMLConv::ScanTXT`, keeping only what decides links: where
//! `FindURL` is tried, the modes it tries (`FindURLStart`, `FindURLEnd`,
//! `CalculateURLBoundaries`, `CompleteAbbreviatedURL`, `CheckURLAndCreateHTML`), and the two
//! vetoes of `ScanTXT` itself (an open structured phrase, and a link that would start inside
//! the previous one).
//!
//! Gecko works on UTF-16 code units; this works on UTF-8 bytes. Every character the rules
//! name is ASCII, and the non-ASCII ones they test (U+00A0 and U+3000 as spaces, "not ASCII"
//! for addresses) are recognised whole, so every range falls on character boundaries.
//!
//! Each search `FindURL` makes from a trigger character is cached and only moves forward, so
//! a line costs time linear in its length where Gecko's searches are quadratic on some
//! inputs (a line of `a:a:a:…`). What cannot be cached, building and parsing a candidate URL
//! whose scheme is linked but that does not parse, is bounded by [`Scratch`]'s budget.

use std::ops::Range;

use memchr::{memchr, memchr2, memchr3, memrchr3};

use super::phrase::{self, Phrases};
use super::scheme;
use super::trigger::Triggers;
use super::{Delimiter, LinkKind, TextLink};

/// The modes of `FindURL`, in the order of its `ranking`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `<URL:…>` (RFC 1738 Appendix).
    Rfc1738,
    /// `<…>` or `"…"` (RFC 2396 Appendix E, now RFC 3986 Appendix C).
    Rfc2396E,
    /// A URL with its scheme (`[a-zA-Z][a-zA-Z0-9+.-]*:`).
    Freetext,
    /// A `www.` host or an address, without a scheme.
    Abbreviated,
}

/// What a mode found: the link text and the URL.
struct Found {
    /// The link text, delimiters included (`desc` of `CalculateURLBoundaries`), bytes of the
    /// line.
    desc: Range<usize>,
    href: String,
    kind: LinkKind,
    delimiter: Delimiter,
}

/// Working memory for a whole text: allocated once, reused line after line.
#[derive(Debug)]
pub(super) struct Scratch {
    phrases: Phrases,
    /// Bytes of candidate URLs that may still be built and parsed without becoming links.
    budget: usize,
    /// Set when a candidate was skipped because `budget` ran out.
    pub(super) exhausted: bool,
}

impl Scratch {
    /// Working memory for a text of `len` bytes: candidate URLs that turn out not to be links
    /// may add up to four times the text, plus 64 KiB.
    pub(super) fn new(len: usize) -> Self {
        Scratch {
            phrases: Phrases::default(),
            budget: len.saturating_mul(4).saturating_add(1 << 16),
            exhausted: false,
        }
    }
}

/// The first position at or after a start where a byte test holds, remembered so that the
/// next search from a later start within the same stretch costs nothing.
#[derive(Debug, Clone, Copy, Default)]
struct Ahead {
    from: usize,
    found: usize,
    known: bool,
}

impl Ahead {
    fn get(&mut self, from: usize, find: impl FnOnce(usize) -> usize) -> usize {
        if !(self.known && self.from <= from && from <= self.found) {
            *self = Ahead {
                from,
                found: find(from),
                known: true,
            };
        }
        self.found
    }
}

/// The byte after the last stop before a position, remembered likewise for searches that go
/// backwards from positions that only grow.
#[derive(Debug, Clone, Copy, Default)]
struct Behind {
    upto: usize,
    after_stop: usize,
}

impl Behind {
    /// `find_last` gives the last stop in a window of `bytes` (an index into the window).
    fn get(
        &mut self,
        bytes: &[u8],
        upto: usize,
        find_last: impl FnOnce(&[u8]) -> Option<usize>,
    ) -> usize {
        let from = if upto >= self.upto {
            self.upto
        } else {
            self.after_stop = 0;
            0
        };
        if let Some(stop) = bytes.get(from..upto).and_then(find_last) {
            self.after_stop = from + stop + 1;
        }
        self.upto = upto;
        self.after_stop
    }
}

/// The length of the white space `IsSpace` (and `FindURLEnd`) sees at byte `i`: ASCII space,
/// tab, CR, LF, U+00A0 or U+3000.
fn space_at(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b' ' | b'\t' | b'\r' | b'\n' => Some(1),
        0xC2 if bytes.get(i + 1) == Some(&0xA0) => Some(2),
        0xE3 if bytes.get(i + 1..i + 3) == Some(&[0x80, 0x80]) => Some(3),
        _ => None,
    }
}

/// True when byte `i` is the last byte of white space as `IsSpace` sees it.
fn space_ends_at(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i) {
        Some(b' ' | b'\t' | b'\r' | b'\n') => true,
        Some(0xA0) => i.checked_sub(1).and_then(|j| bytes.get(j)) == Some(&0xC2),
        Some(0x80) => i.checked_sub(2).and_then(|j| bytes.get(j..i)) == Some(&[0xE3, 0x80]),
        _ => false,
    }
}

const HARD: u8 = 1;
const HARD_MAYBE: u8 = 2;
const ADDRESS: u8 = 4;
const START: u8 = 8;
const START_MAYBE: u8 = 16;

/// The classes of byte `b` for the searches of `FindURLStart` and `FindURLEnd`, so that each
/// search tests one value per byte and looks closer only at the few bytes it marks: `HARD`, a
/// byte that always ends a URL (`FindURLEnd`); `HARD_MAYBE`, one that may (`[`, or the first
/// byte of U+00A0 or U+3000); `ADDRESS`, one that also ends an address (`(`, `'`, `)` and
/// every non-ASCII byte); `START`, one that ends the walk back of `FindURLStart` for
/// `abbreviated`; `START_MAYBE`, one that may (the last byte of U+00A0 or U+3000).
///
/// A load from [`CLASSES`]: the `match` of [`class_of`] called at run time became a jump
/// table, an indirect jump for every byte searched.
fn class(b: u8) -> u8 {
    // Never `None`: the table has an entry for every byte.
    CLASSES.get(usize::from(b)).copied().unwrap_or_default()
}

/// [`class_of`] of every byte.
// Indexing in a constant runs at compile time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
static CLASSES: [u8; 256] = {
    let mut classes = [0; 256];
    let mut b = 0;
    while b < 256 {
        classes[b] = class_of(b as u8);
        b += 1;
    }
    classes
};

/// See [`class`].
const fn class_of(b: u8) -> u8 {
    match b {
        b'>' | b'<' | b'"' | b'`' | b'{' | b' ' | b'\t' | b'\r' | b'\n' => HARD | START,
        b'}' => HARD,
        b'[' => HARD_MAYBE | START,
        0xC2 | 0xE3 => HARD_MAYBE | ADDRESS,
        b'(' | b'\'' => ADDRESS | START,
        b')' => ADDRESS,
        b',' | b'|' | b'\\' => START,
        0xA0 | 0x80 => START_MAYBE | ADDRESS,
        0x81..=0xFF => ADDRESS,
        _ => 0,
    }
}

/// `FindURLStart` for `abbreviated`: the characters that end the walk back from the trigger.
fn abbreviated_stop(bytes: &[u8], i: usize, is_email: bool) -> bool {
    let Some(&b) = bytes.get(i) else {
        return false;
    };
    let class = class(b);
    class & START != 0
        || (class & START_MAYBE != 0 && space_ends_at(bytes, i))
        || (is_email && (!b.is_ascii() || b == b')'))
}

/// `FindURLEnd` for `freetext` and `abbreviated`: the characters that always end a URL. A
/// `[` does, except right after `//` (an IPv6 host) or in the line's first three characters.
fn hard_stop(bytes: &[u8], i: usize) -> bool {
    let Some(&b) = bytes.get(i) else {
        return false;
    };
    let class = class(b);
    class & HARD != 0
        || (class & HARD_MAYBE != 0
            && if b == b'[' {
                i > 2 && !(bytes.get(i - 1) == Some(&b'/') && bytes.get(i - 2) == Some(&b'/'))
            } else {
                space_at(bytes, i).is_some()
            })
}

/// The first byte at or after `from` whose class has a bit of `mask` and that `confirm`
/// accepts, or the end.
fn first_of(bytes: &[u8], from: usize, mask: u8, confirm: impl Fn(usize) -> bool) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    let mut offset = 0;
    while let Some(found) = rest
        .get(offset..)
        .and_then(|r| r.iter().position(|&b| class(b) & mask != 0))
    {
        let at = from + offset + found;
        if confirm(at) {
            return at;
        }
        offset += found + 1;
    }
    bytes.len()
}

/// The characters `FindURLEnd` removes from a URL's end: allowed inside, but usually the
/// sentence's.
fn is_trailing_punctuation(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b'!' | b'?' | b'-' | b':' | b'\'')
}

/// The white space `CalculateURLBoundaries` strips from a URL (`StripWhitespace`: form feed,
/// tab, CR, LF, space), and NUL, which Thunderbird removes from a message before it reads it.
fn is_stripped(c: char) -> bool {
    matches!(c, '\x0c' | '\t' | '\r' | '\n' | ' ' | '\0')
}

/// `url` without [`is_stripped`] characters, after `prefix`.
fn stripped(prefix: &str, url: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + url.len());
    out.push_str(prefix);
    // The stripped characters are ASCII: the pieces between them are whole characters.
    for piece in url.split(is_stripped) {
        out.push_str(piece);
    }
    out
}

/// One line, and its searches.
pub(super) struct Line<'a> {
    /// The line, after its quotation marks, with its line break.
    s: &'a str,
    bytes: &'a [u8],
    /// Where the line starts in the text, and the text.
    base: usize,
    text: &'a [u8],
    delimiter_ahead: Ahead,
    hard_ahead: Ahead,
    open_paren_ahead: Ahead,
    close_paren_ahead: Ahead,
    open_bracket_ahead: Ahead,
    close_bracket_ahead: Ahead,
    address_stop_ahead: Ahead,
    trailing: Option<(usize, usize)>,
    delimiter_behind: Behind,
    stop_behind: Behind,
    address_stop_behind: Behind,
}

impl<'a> Line<'a> {
    /// The line `s`, bytes `range` of `text`.
    pub(super) fn new(text: &'a str, range: Range<usize>, s: &'a str) -> Line<'a> {
        Line {
            s,
            bytes: s.as_bytes(),
            base: range.start,
            text: text.as_bytes(),
            delimiter_ahead: Ahead::default(),
            hard_ahead: Ahead::default(),
            open_paren_ahead: Ahead::default(),
            close_paren_ahead: Ahead::default(),
            open_bracket_ahead: Ahead::default(),
            close_bracket_ahead: Ahead::default(),
            address_stop_ahead: Ahead::default(),
            trailing: None,
            delimiter_behind: Behind::default(),
            stop_behind: Behind::default(),
            address_stop_behind: Behind::default(),
        }
    }

    /// The first `.` of a `www.` at or after byte `from` of the line.
    fn www_dot(&self, triggers: &mut Triggers, from: usize) -> Option<usize> {
        triggers
            .www_dot(self.text, self.base + from)
            .map(|at| at - self.base)
            .filter(|&at| at < self.bytes.len())
    }
}

/// Runs `ScanTXT` over `line` from its first trigger, byte `first` of the text (before it
/// the line has none), and calls `on_link` for each link.
pub(super) fn scan_line(
    mut line: Line<'_>,
    first: usize,
    triggers: &mut Triggers,
    scratch: &mut Scratch,
    on_link: &mut dyn FnMut(TextLink),
) {
    scratch.phrases.reset();
    let (s, bytes, base) = (line.s, line.bytes, line.base);
    // The end of the last link, bytes of the line: `ScanTXT` does not let a link cut into
    // the HTML of the one before it (bug 1509493).
    let mut last_link_end = 0;
    // Tag characters before this byte have been seen by the structured phrases. They only
    // matter when a link is about to be made, so they are caught up with then.
    let mut phrases_seen = 0;
    // A link found at a `.` starts with `www.`: `.` is a trigger only from the first `www.`
    // after the last link on (sentences have many a `.`).
    let mut i = first.saturating_sub(base);
    let mut www_from = line.www_dot(triggers, i);
    loop {
        let rest = bytes.get(i..).unwrap_or_default();
        let colon_or_at = memchr2(b':', b'@', rest).map(|k| i + k);
        let dot = match www_from {
            Some(q) if q >= i => Some(q),
            Some(_) => memchr(b'.', rest).map(|k| i + k),
            None => None,
        };
        let Some(pos) = (match (colon_or_at, dot) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }) else {
            break;
        };
        i = pos + 1;
        // `ScanTXT`'s "performance increase": no URL where a space touches the trigger.
        let spaced = pos.checked_sub(1).and_then(|j| bytes.get(j)) == Some(&b' ')
            || bytes.get(pos + 1) == Some(&b' ');
        if spaced || !phrase::is_cluster_start(s, pos) {
            continue;
        }
        let Some(found) = line.find_url(pos, scratch) else {
            continue;
        };
        see_phrases(s, phrases_seen..pos, &mut scratch.phrases);
        phrases_seen = pos;
        if scratch.phrases.any_open() || found.desc.start < last_link_end {
            continue;
        }
        last_link_end = found.desc.end;
        phrases_seen = found.desc.end;
        i = found.desc.end;
        // The first `www.` at or after the last search's start, if not passed, is still the
        // first from here; none then is none now.
        www_from = match www_from {
            Some(q) if q < i => line.www_dot(triggers, i),
            kept => kept,
        };
        on_link(TextLink {
            range: base + found.desc.start..base + found.desc.end,
            href: found.href,
            kind: found.kind,
            delimiter: found.delimiter,
        });
    }
}

/// `StructPhraseHit` at each tag character of `s` in `range` that `ScanTXT` visits (one that
/// starts a grapheme cluster).
fn see_phrases(s: &str, range: std::ops::Range<usize>, phrases: &mut Phrases) {
    let bytes = s.as_bytes();
    let mut at = range.start;
    let mut bar = None;
    while at < range.end {
        let window = bytes.get(at..range.end).unwrap_or_default();
        // `|` is rare: one search for it serves until the position passes it.
        if bar.is_none_or(|b| b < at) {
            bar = Some(memchr(b'|', window).map_or(usize::MAX, |k| at + k));
        }
        let other = memchr3(b'*', b'/', b'_', window).map_or(usize::MAX, |k| at + k);
        let next = other.min(bar.unwrap_or(usize::MAX));
        if next >= range.end {
            break;
        }
        if let Some(tag) = bytes.get(next).copied().and_then(phrase::tag_index)
            && phrase::is_cluster_start(s, next)
        {
            phrases.visit(s, next, tag);
        }
        at = next + 1;
    }
}

impl Line<'_> {
    /// `FindURL` at the trigger character at byte `pos`: the modes of the trigger in turn,
    /// the first that gives a URL `CheckURLAndCreateHTML` accepts wins.
    fn find_url(&mut self, pos: usize, scratch: &mut Scratch) -> Option<Found> {
        let trigger = *self.bytes.get(pos)?;
        let modes: &[Mode] = match trigger {
            b':' => &[Mode::Rfc1738, Mode::Rfc2396E, Mode::Freetext],
            b'@' => &[Mode::Rfc2396E, Mode::Abbreviated],
            _ => &[Mode::Abbreviated],
        };
        for &mode in modes {
            let Some(start) = self.url_start(pos, mode) else {
                continue;
            };
            // What the URL starts with settles most candidates before their end is sought: the
            // scheme at a `:`, `www.` at a `.`.
            let head = self.s.get(start..)?;
            let hopeless = match trigger {
                b':' => !scheme::is_linked_scheme(head),
                b'.' => completion(head, trigger).is_none(),
                _ => false,
            };
            if hopeless {
                continue;
            }
            let Some(end) = self.url_end(pos, mode, start) else {
                continue;
            };
            let raw = self.s.get(start..end)?;
            // At a `:` the scheme was checked on the text from `start`: the URL holds the
            // colon that ends it, or ends at a `<`, `>` or `"` that no scheme holds.
            let (kind, prefix) = if trigger == b':' {
                (LinkKind::Absolute, "")
            } else {
                match completion(raw, trigger) {
                    Some(completed) => completed,
                    None => continue,
                }
            };
            let cost = prefix.len() + raw.len();
            if cost > scratch.budget {
                scratch.exhausted = true;
                return None;
            }
            let href = stripped(prefix, raw);
            if !scheme::parses(&href) {
                scratch.budget -= cost;
                continue;
            }
            let (desc, delimiter) = match mode {
                Mode::Rfc1738 => (start.checked_sub(5)?..end + 1, Delimiter::Rfc1738),
                Mode::Rfc2396E => {
                    let opener = start.checked_sub(1)?;
                    let delimiter = if self.bytes.get(opener) == Some(&b'<') {
                        Delimiter::AngleBrackets
                    } else {
                        Delimiter::Quotes
                    };
                    (opener..end + 1, delimiter)
                }
                Mode::Freetext | Mode::Abbreviated => (start..end, Delimiter::None),
            };
            return Some(Found {
                desc,
                href,
                kind,
                delimiter,
            });
        }
        None
    }

    /// `FindURLStart`: where the URL starts (after its opening delimiter), if `mode` allows
    /// one before `pos`.
    fn url_start(&mut self, pos: usize, mode: Mode) -> Option<usize> {
        let bytes = self.bytes;
        match mode {
            // The trigger is the colon of `<URL:` (case-sensitive).
            Mode::Rfc1738 => {
                let at = |back: usize| pos.checked_sub(back).and_then(|i| bytes.get(i)).copied();
                let url_colon = at(1) == Some(b'L')
                    && at(2) == Some(b'R')
                    && at(3) == Some(b'U')
                    && at(4) == Some(b'<');
                url_colon.then_some(pos + 1)
            }
            // The nearest `<`, `>` or `"` before the trigger must be an opening one.
            Mode::Rfc2396E => {
                let after = self
                    .delimiter_behind
                    .get(bytes, pos, |window| memrchr3(b'<', b'>', b'"', window));
                let opener = after.checked_sub(1).and_then(|i| bytes.get(i))?;
                (*opener != b'>' && after < pos).then_some(after)
            }
            // Back over scheme characters; the first must be a letter.
            Mode::Freetext => {
                let mut start = pos;
                while let Some(&b) = start.checked_sub(1).and_then(|i| bytes.get(i)) {
                    if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')) {
                        break;
                    }
                    start -= 1;
                }
                (start < pos && bytes.get(start)?.is_ascii_alphabetic()).then_some(start)
            }
            // Back to a delimiter or white space (for an address, also to a non-ASCII
            // character or `)`); the first character must be an ASCII letter or digit.
            Mode::Abbreviated => {
                let is_email = bytes.get(pos) == Some(&b'@');
                let mask = START | START_MAYBE | if is_email { ADDRESS } else { 0 };
                let find_last = |window: &[u8]| {
                    let mut end = window.len();
                    while let Some(i) = window
                        .get(..end)
                        .and_then(|w| w.iter().rposition(|&b| class(b) & mask != 0))
                    {
                        if abbreviated_stop(window, i, is_email) {
                            return Some(i);
                        }
                        end = i;
                    }
                    None
                };
                let start = if is_email {
                    self.address_stop_behind.get(bytes, pos, find_last)
                } else {
                    self.stop_behind.get(bytes, pos, find_last)
                };
                (start < pos && bytes.get(start)?.is_ascii_alphanumeric()).then_some(start)
            }
        }
    }

    /// `FindURLEnd`: the end (exclusive, before any closing delimiter) of the URL that
    /// starts at `start` and holds the trigger at `pos`.
    fn url_end(&mut self, pos: usize, mode: Mode, start: usize) -> Option<usize> {
        let bytes = self.bytes;
        let len = bytes.len();
        let from = pos + 1;
        match mode {
            // The next `<`, `>` or `"` must close what opened: `>` after `<URL:` or `<`, `"`
            // after `"`. White space inside is allowed (and stripped from the URL).
            Mode::Rfc1738 | Mode::Rfc2396E => {
                let close = self.delimiter_ahead.get(from, |f| {
                    bytes
                        .get(f..)
                        .and_then(|rest| memchr3(b'<', b'>', b'"', rest))
                        .map_or(len, |i| f + i)
                });
                let opened_with_angle = mode == Mode::Rfc1738
                    || start.checked_sub(1).and_then(|i| bytes.get(i)) == Some(&b'<');
                let wanted = if opened_with_angle { b'>' } else { b'"' };
                (bytes.get(close) == Some(&wanted) && close > from).then_some(close)
            }
            Mode::Freetext | Mode::Abbreviated => {
                let is_email = bytes.get(pos) == Some(&b'@');
                let stop = self.stop_after(from, is_email);
                // Drop trailing punctuation (`while (--i > pos && …)`).
                let last_kept = match self.trailing {
                    Some((at, kept)) if at == stop => kept,
                    _ => {
                        let mut kept = stop;
                        while kept > 0
                            && bytes
                                .get(kept - 1)
                                .is_some_and(|&b| is_trailing_punctuation(b))
                        {
                            kept -= 1;
                        }
                        self.trailing = Some((stop, kept));
                        kept
                    }
                };
                (last_kept > from).then_some(last_kept)
            }
        }
    }

    /// Where `FindURLEnd`'s loop stops for a URL whose trigger is just before `from`: at a
    /// character that always ends a URL; at a `)` unless a `(` came first (likewise `]` and
    /// `[`); for an address also at `(`, `'`, `)` and any non-ASCII character.
    fn stop_after(&mut self, from: usize, is_email: bool) -> usize {
        let bytes = self.bytes;
        let len = bytes.len();
        let next_byte = |b: u8| {
            move |f: usize| {
                bytes
                    .get(f..)
                    .and_then(|rest| memchr(b, rest))
                    .map_or(len, |i| f + i)
            }
        };
        let hard = self.hard_ahead.get(from, |f| {
            first_of(bytes, f, HARD | HARD_MAYBE, |i| hard_stop(bytes, i))
        });
        let open_paren = self.open_paren_ahead.get(from, next_byte(b'('));
        let close_paren = self.close_paren_ahead.get(from, next_byte(b')'));
        let open_bracket = self.open_bracket_ahead.get(from, |f| {
            let mut at = f;
            while let Some(found) = bytes.get(at..).and_then(|rest| memchr(b'[', rest)) {
                if !hard_stop(bytes, at + found) {
                    return at + found;
                }
                at += found + 1;
            }
            len
        });
        let close_bracket = self.close_bracket_ahead.get(from, next_byte(b']'));
        let mut stop = hard;
        if close_paren < open_paren {
            stop = stop.min(close_paren);
        }
        if close_bracket < open_bracket {
            stop = stop.min(close_bracket);
        }
        if is_email {
            let address_stop = self
                .address_stop_ahead
                .get(from, |f| first_of(bytes, f, ADDRESS, |_| true));
            stop = stop.min(address_stop);
        }
        stop
    }
}

/// `CompleteAbbreviatedURL` for a URL found at an `@` or `.` (`raw`, before white space is
/// stripped): an address (a `.` somewhere after its first `@`) becomes `mailto:`, a `www.`
/// host (ASCII case-insensitive, at the start) becomes `http://`. Anything else is no URL:
/// the `ftp.` hosts that the header's comment still promises are not completed.
fn completion(raw: &str, trigger: u8) -> Option<(LinkKind, &'static str)> {
    if trigger == b'@' {
        let at = raw.find('@')?;
        raw.get(at..)?
            .contains('.')
            .then_some((LinkKind::Email, "mailto:"))
    } else {
        let mut head = raw.chars().filter(|&c| !is_stripped(c));
        let www = "www."
            .chars()
            .all(|w| head.next().is_some_and(|c| c.eq_ignore_ascii_case(&w)));
        www.then_some((LinkKind::Www, "http://"))
    }
}
