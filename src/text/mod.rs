//! The links a mail client makes of a plain-text body.
//!
//! A reader of a `text/plain` part clicks URLs that no markup names: the client finds them
//! in the text. Which strings become links, and which URL each one opens, is the client's
//! decision, so we follow one client, read from its source: Thunderbird, whose message view
//! turns a plain-text body into HTML with `mozTXTToHTMLConv`
//! (`netwerk/streamconv/converters/mozTXTToHTMLConv.cpp` in the Gecko tree). [`find_links`]
//! reproduces the decisions of its `ScanTXT`; function names below are that file's.
//!
//! # Thunderbird's plain-text display path
//!
//! libmime's `MimeInlineTextPlain_parse_line` (`mailnews/mime/src/mimetpla.cpp`) hands
//! `ScanTXT` one line at a time, line break included, after `CiteLevelTXT` has taken off
//! the quotation marks at its start (`>`, each optionally followed by one space; a line
//! that starts `>From ` is not quoted). The flags are those `nsStreamConverter::Init` sets for
//! the message view: `kURLs`, plus `kGlyphSubstitution` (`mail.display_glyph`) and
//! `kStructPhrase` (`mail.display_struct`), both on by default. So a link never spans two
//! lines, and white space ends every link that is not delimited.
//!
//! Glyph substitution (smileys, `+/-`, `x^2`) replaces characters before links are looked
//! for, but none of its patterns can hold the start of a link (a smiley's colon has no
//! scheme letter before it, and `x^2` holds no `:` or `@`), so we leave it out. Structured
//! phrases do change links: `ScanTXT` makes none while a `*bold*`, `/italic/`, `_underline_`
//! or `|code|` phrase is open on the line (see `phrase`).
//!
//! # Where `FindURL` looks
//!
//! `ScanTXT` walks the line by grapheme cluster and calls `FindURL` at each `:`, `@` and `.`
//! that has no ASCII space right before or after it, outside links already made. `FindURL`
//! tries, in order, the modes the character allows, and the first that gives a URL wins:
//!
//! - **`<URL:…>`** (RFC 1738 Appendix, "RFC1738"), at the colon of `<URL:` (case-sensitive):
//!   the URL runs to the next `<`, `>` or `"`, which must be `>`.
//! - **`<…>` and `"…"`** (RFC 2396 Appendix E, now RFC 3986 Appendix C, "RFC2396E"), at `:`
//!   or `@`: the nearest `<`, `>` or `"` before the trigger must be `<` or `"`, and the next
//!   one after it must close it (`>` for `<`, `"` for `"`). Spaces inside are allowed and
//!   removed from the URL. At an `@`, the text is an address.
//! - **A URL with its scheme** ("freetext"), at `:`: it starts at the first of the
//!   letters, digits, `+`, `-` and `.` before the colon, which must be an ASCII letter.
//! - **A `www.` host or an address** ("abbreviated"), at `.` or `@`: it starts after the
//!   nearest `>`, `<`, `"`, `'`, `` ` ``, `,`, `{`, `[`, `(`, `|`, `\` or white space
//!   (for an address, also a non-ASCII character or `)`), at an ASCII letter or digit.
//!
//! For the last two, the URL ends before the first `>`, `<`, `"`, `` ` ``, `{`, `}` or white
//! space; before a `)` or `]` unless a `(` or `[` came after the trigger; before a `[` unless
//! it follows `//` (an IPv6 host); for an address also before `(`, `'` and any non-ASCII
//! character. Then `.`, `,`, `;`, `!`, `?`, `-`, `:` and `'` are dropped from its end.
//! White space here is ASCII space, tab, CR, LF, U+00A0 and U+3000 (`IsSpace`).
//!
//! # Which URL a link opens
//!
//! The URL is the found text without white space (`StripWhitespace`). Found at `.`, it must
//! start with `www.` (ASCII case-insensitively) and gets `http://` before it; found at `@`, it
//! needs a `.` after its first `@` and gets `mailto:` (`CompleteAbbreviatedURL`). Hosts such
//! as `ftp.example.com` are not linked: the header's comment still promises `ftp://` for them,
//! but the code completes only `www.`. Found at `:`, the URL is taken as written.
//!
//! `CheckURLAndCreateHTML` then links the URL only if `ShouldLinkify` accepts its scheme
//! (`http`, `https`, `mailto`, and the schemes Gecko and Thunderbird handle themselves; see
//! `scheme`) and the IO service parses it. Schemes that only an application of the reader's
//! system handles (`ftp`, `tel`, `sip`, …) depend on that system, not on the message, and
//! are not linked here.
//!
//! Where it is not sure, Thunderbird makes no link rather than a guess: an address without a
//! `.` after its `@` (`@8pm`), a scheme without a handler, a URL the IO service refuses, any
//! URL while a structured phrase is open, and a link that would begin inside the one before it
//! (bug 1509493). Nor does it try another start or end for a candidate that fails: the next
//! trigger character is tried instead.
//!
//! # Why no library
//!
//! `linkify`, the well-kept crate for finding links in text, follows rules of its own that
//! do not fit this client's: it links any domain-like string without a scheme
//! (`example.com`) or none, where Thunderbird links only `www.` hosts; it has no `<URL:…>`,
//! no delimited URLs with spaces inside, and no veto of open structured phrases; it ends URLs
//! at other characters (it balances quotes, stops at `'`), takes other punctuation off their
//! end, and validates e-mail domains that Thunderbird does not. Filtering its results could
//! only remove links, never add the ones it does not find, so the finder is ours: a port of
//! the decisions of `ScanTXT`, with searches that cost linear time (Gecko's are quadratic on
//! some lines).
//!
//! # Where this is not Thunderbird to the letter
//!
//! - The IO service's `NewURI` is judged by the URL Standard's parser (ada); Gecko follows the
//!   same standard for `http` and `https`, and both accept nearly anything of other schemes.
//! - Schemes with an external handler (above) are never linked.
//! - `ScanTXT` refuses a link whose text would start inside the previous link's HTML by
//!   comparing output lengths; we compare positions in the text, which gives the same answer
//!   unless glyph or phrase markup makes the two differ.
//! - Thunderbird removes NUL bytes from a message before reading it; here a NUL stays a
//!   character of the text, and is removed from the URL as white space is.
//! - Grapheme clusters follow the Unicode version of the `unicode-segmentation` crate, not
//!   Gecko's; only characters right after a Prepend character (UAX #29, GB9b), or tag
//!   characters after a multi-code-point cluster, can be read differently.
//! - A text made to waste time (candidate URLs that do not parse, over four times its length)
//!   is not searched to the end ([`Completeness::WorkLimitReached`]).
//!
//! # Flowed and enriched text
//!
//! A `format=flowed` body (RFC 3676) and a `text/enriched` body (RFC 1896) are first turned
//! into the text a reader sees, with a map back to the body ([`flowed::unflow`],
//! [`enriched::visible_text`]), and links are found in that. Thunderbird itself differs in
//! both: its flowed view (`mimetpfl.cpp`) runs `ScanTXT` on each physical line, so a URL
//! broken by a soft line break is linked only up to the break; and its `text/enriched` view
//! (`mimetric.cpp`) makes no links at all.

pub(crate) mod enriched;
pub(crate) mod flowed;
mod map;
mod phrase;
mod scan;
mod scheme;
#[cfg(test)]
mod tests;
mod trigger;

use std::ops::Range;

pub(crate) use map::{OffsetMap, ShownText};

/// A link Thunderbird makes of a plain text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextLink {
    /// The bytes of the text that become the link, 0-based, half-open: the URL as written,
    /// with its delimiters for [`Delimiter::Rfc1738`], [`Delimiter::AngleBrackets`] and
    /// [`Delimiter::Quotes`] (Thunderbird's link text includes them).
    pub range: Range<usize>,
    /// The URL the link opens: the text inside the delimiters without white space, after
    /// `http://` for [`LinkKind::Www`] and `mailto:` for [`LinkKind::Email`].
    pub href: String,
    /// What was written.
    pub kind: LinkKind,
    /// How it was delimited.
    pub delimiter: Delimiter,
}

/// What a plain-text link was written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkKind {
    /// A URL with its scheme, `https://example.com/` or `mailto:joe@example.com`.
    Absolute,
    /// A host starting `www.` with no scheme; it opens `http://` + the text.
    Www,
    /// An e-mail address with no scheme; it opens `mailto:` + the text.
    Email,
}

/// The delimiters around a plain-text link (RFC 3986 Appendix C).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Delimiter {
    /// None: the link ends where `FindURLEnd` ends it.
    None,
    /// `<URL:…>` (RFC 1738 Appendix).
    Rfc1738,
    /// `<…>`.
    AngleBrackets,
    /// `"…"`.
    Quotes,
}

/// Whether [`find_links`] looked at every candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Completeness {
    /// Every candidate was checked.
    Complete,
    /// Candidate URLs that did not parse added up to more than four times the text (plus
    /// 64 KiB); the candidates after that were not checked, so links may be missing. Only a
    /// text made to waste time does this.
    WorkLimitReached,
}

/// Calls `on_link` for every link Thunderbird's message view makes of the plain text `text`,
/// in order: the ranges ascend and do not overlap. See the module documentation for the
/// rules.
pub(crate) fn find_links(text: &str, mut on_link: impl FnMut(TextLink)) -> Completeness {
    let bytes = text.as_bytes();
    let mut scratch = scan::Scratch::new(text.len());
    let mut triggers = trigger::Triggers::default();
    let mut from = 0;
    while let Some(hit) = triggers.next(bytes, from) {
        let start = memchr::memrchr2(b'\n', b'\r', bytes.get(..hit).unwrap_or_default())
            .map_or(0, |i| i + 1);
        let end = line_end(bytes, hit);
        let quoted = start + cite_prefix_len(bytes.get(start..end).unwrap_or_default());
        if let Some(line) = text.get(quoted..end) {
            let line = scan::Line::new(text, quoted..end, line);
            scan::scan_line(
                line,
                hit.max(quoted),
                &mut triggers,
                &mut scratch,
                &mut on_link,
            );
        }
        from = end;
    }
    if scratch.exhausted {
        Completeness::WorkLimitReached
    } else {
        Completeness::Complete
    }
}

/// The end of the line holding byte `at`, after its line break (CR, LF or CR LF, as libmime
/// splits lines).
fn line_end(bytes: &[u8], at: usize) -> usize {
    match memchr::memchr2(b'\n', b'\r', bytes.get(at..).unwrap_or_default()) {
        None => bytes.len(),
        Some(i) => {
            let brk = at + i;
            if bytes.get(brk) == Some(&b'\r') && bytes.get(brk + 1) == Some(&b'\n') {
                brk + 2
            } else {
                brk + 1
            }
        }
    }
}

/// `CiteLevelTXT`: the length of the quotation marks at the start of `line`, `>` each
/// followed by at most one space, which `ScanTXT` does not see. A `>` that starts `>From `
/// (ASCII case-insensitive; compared only as far as the line goes) is the mbox escape of a
/// `From ` line, not a quotation mark.
fn cite_prefix_len(line: &[u8]) -> usize {
    let mut start = 0;
    while line.get(start) == Some(&b'>') {
        let rest = line.get(start..).unwrap_or_default();
        let compared = rest.len().min(6);
        if rest
            .get(..compared)
            .zip(b">From ".get(..compared))
            .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
        {
            break;
        }
        start += 1;
        if line.get(start) == Some(&b' ') {
            start += 1;
        }
    }
    start
}
