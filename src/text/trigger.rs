//! Where a link can start: the characters at which `ScanTXT` calls `FindURL` and may get a
//! link, found a whole text at a time with `memchr` and `memmem` searches.
//!
//! `FindURL` runs at every `:`, `@` and `.`, but a link found at a `.` is a `www.` host
//! (`CompleteAbbreviatedURL` completes nothing else), so a `.` matters only from the `.` of a
//! `www.` on. Sentences end in `.` at every line; `w.` and `W.` are rare, so the `.` of `www.`
//! is found by the letter before it, and then checked.

use memchr::memmem::Finder;
use std::sync::LazyLock;

/// `w.` and `W.`: the end of every `www.` whose last `w` touches the dot.
static W_DOTS: LazyLock<[Finder<'static>; 2]> =
    LazyLock::new(|| [Finder::new(b"w."), Finder::new(b"W.")]);

/// True when `www` (ASCII case-insensitive, ignoring form feeds and NULs, which the URL
/// loses) ends at the `.` at byte `dot`.
pub(super) fn follows_www(bytes: &[u8], dot: usize) -> bool {
    let mut ws = 0;
    let mut i = dot;
    while ws < 3 {
        let Some(prev) = i.checked_sub(1) else {
            return false;
        };
        i = prev;
        match bytes.get(i) {
            Some(b'w' | b'W') => ws += 1,
            Some(b'\x0c' | 0) => {}
            _ => return false,
        }
    }
    true
}

/// The searches for the next trigger of a text, each remembering its next match until the
/// position passes it, so that every byte is searched once.
#[derive(Debug, Default)]
pub(super) struct Triggers {
    /// The next `.` of a `www.` found by each search (`w.`, `W.`, and a form feed or NUL
    /// before the dot); `usize::MAX` when there is none.
    www: [Option<usize>; 3],
}

impl Triggers {
    /// The first byte at or after `from` that can start a link on its line: a `:` or `@`, or
    /// the `.` of `www.`. A line without one has no link.
    pub(super) fn next(&mut self, bytes: &[u8], from: usize) -> Option<usize> {
        let colon_or_at = memchr::memchr2(b':', b'@', bytes.get(from..)?).map(|i| from + i);
        match (colon_or_at, self.www_dot(bytes, from)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The first `.` of a `www.` at or after `from`.
    pub(super) fn www_dot(&mut self, bytes: &[u8], from: usize) -> Option<usize> {
        let mut first = usize::MAX;
        for (search, next) in self.www.iter_mut().enumerate() {
            let at = match *next {
                Some(at) if at >= from => at,
                _ => find_www_dot(bytes, from, search),
            };
            *next = Some(at);
            first = first.min(at);
        }
        (first != usize::MAX).then_some(first)
    }
}

/// Search `search` (0 `w.`, 1 `W.`, 2 a form feed or NUL) for the first `.` of a `www.` at or
/// after `from`; `usize::MAX` if none.
fn find_www_dot(bytes: &[u8], from: usize, search: usize) -> usize {
    let mut start = from;
    loop {
        let rest = bytes.get(start..).unwrap_or_default();
        let (dot, resume) = match W_DOTS.get(search) {
            Some(finder) => match finder.find(rest) {
                Some(i) => (start + i + 1, start + i + 2),
                None => return usize::MAX,
            },
            None => match memchr::memchr2(b'\x0c', 0, rest) {
                // The `.` after the run of form feeds, NULs and `w` this one is in.
                Some(i) => {
                    let after = start + i;
                    let end = bytes
                        .get(after..)
                        .and_then(|r| r.iter().position(|b| !matches!(b, b'w' | b'W' | 0x0c | 0)))
                        .map_or(bytes.len(), |k| after + k);
                    (end, end + 1)
                }
                None => return usize::MAX,
            },
        };
        if bytes.get(dot) == Some(&b'.') && follows_www(bytes, dot) {
            return dot;
        }
        start = resume;
    }
}

#[cfg(test)]
mod tests {
    use super::{Triggers, follows_www};

    #[test]
    fn www_dots_in_every_spelling() {
        for text in [
            "www.x",
            "WWW.x",
            "wWw.x",
            "WwW.x",
            "www\x0c\x0c.x",
            "w\x0cww.x",
            "w\0W\0w.x",
        ] {
            let dot = text.find('.').unwrap();
            assert!(follows_www(text.as_bytes(), dot), "{text:?}");
            assert_eq!(
                Triggers::default().www_dot(text.as_bytes(), 0),
                Some(dot),
                "{text:?}"
            );
        }
        for text in ["ww.x", "now.x", "w w.x", "awww", "\x0c.x"] {
            assert_eq!(
                Triggers::default().www_dot(text.as_bytes(), 0),
                None,
                "{text:?}"
            );
        }
    }

    #[test]
    fn triggers_in_order() {
        let text = b"a: www.b c@d www.e";
        let mut triggers = Triggers::default();
        let mut found = Vec::new();
        let mut from = 0;
        while let Some(at) = triggers.next(text, from) {
            found.push(at);
            from = at + 1;
        }
        assert_eq!(found, [1, 6, 10, 16]);
    }
}
