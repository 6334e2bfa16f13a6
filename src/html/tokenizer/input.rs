//! The text, as the scan hands it to html5gum's tokenizer: a `Reader` that gives html5gum's own
//! chunks, or whole runs where the emitter ignores the characters.

use std::convert::Infallible;

use html5gum::{Readable, Reader, StringReader};

/// The text, as the tokenizer reads it: the chunks html5gum's own reader (`StringReader`)
/// would hand over, except in the states whose characters the emitter ignores, where it hands
/// over whole runs at once.
///
/// Those states stop at bytes that only change the characters they emit: `&` (a character
/// reference), CR (newline normalization) and NUL (replaced by U+FFFD). The emitter ignores
/// text, comments and doctypes, and a character reference never takes in a `<`, so the runs
/// can go on to the next byte that changes the state: tags start where they would, and
/// positions stay byte offsets in the text. Mail's HTML stops there often (CRLF ends every
/// short line, `&nbsp;` is everywhere, `<style>` blocks and Outlook's conditional comments are
/// long), and each stop is a round through html5gum's state machine. The states are told
/// apart by what they stop at (`read_until`'s needle, the stops of the state's `match` in
/// order, plus the CR the tokenizer adds), see [`Input::run_length`]. The other states (tag
/// and attribute names, attribute values, DOCTYPE names and identifiers) get exactly the chunks
/// html5gum's reader gives them, found by a table lookup per byte ([`Input::stop_length`]),
/// which needs no setup on chunks as short as theirs; a state whose
/// needle is not known reads through html5gum's reader itself. The text of a
/// link, which the scan collects ([`OpenLink`](crate::html::link_text::OpenLink)), is taken from the document between the tokens
/// inside the link, and decoded there.
pub(in crate::html) struct Input<'a>(pub(in crate::html) &'a [u8]);

impl Input<'_> {
    /// The length of the run that `read_until(needle)` hands over, if `needle` is that of a
    /// state whose characters the emitter ignores (see [`Input`]); at least one byte, a stop
    /// alone when it comes first. html5gum 0.9's needles, by the HTML Standard's tokenizer
    /// states (§13.2.5):
    ///
    /// - `&<\0\r`: [data](https://html.spec.whatwg.org/multipage/parsing.html#data-state)
    ///   and [RCDATA](https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state): up to
    ///   the next `<`;
    /// - `<\0\r`: [RAWTEXT](https://html.spec.whatwg.org/multipage/parsing.html#rawtext-state)
    ///   (`<style>`, …) and [script data](https://html.spec.whatwg.org/multipage/parsing.html#script-data-state):
    ///   up to the next `<`;
    /// - `-<\0\r`: [script data escaped](https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-state)
    ///   and double escaped; `<-\0\r`: [comment](https://html.spec.whatwg.org/multipage/parsing.html#comment-state):
    ///   up to the next `-` or `<`;
    /// - `>\0\r`: [bogus comment](https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state)
    ///   and [bogus DOCTYPE](https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state):
    ///   up to the next `>`;
    /// - `\0\r`: [PLAINTEXT](https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state):
    ///   the rest.
    #[inline(always)]
    pub(super) fn run_length(needle: &[u8], text: &[u8]) -> Option<usize> {
        // After every run of text the data state reads the `<` that ended it, alone: a stop
        // that comes first is told from that byte, without a search.
        let stops_first = |stops: &[u8]| text.first().is_some_and(|first| stops.contains(first));
        let end = match needle {
            b"&<\0\r" | b"<\0\r" if stops_first(b"<") => return Some(1),
            b"-<\0\r" | b"<-\0\r" if stops_first(b"-<") => return Some(1),
            b">\0\r" if stops_first(b">") => return Some(1),
            b"&<\0\r" | b"<\0\r" => memchr::memchr(b'<', text),
            b"-<\0\r" | b"<-\0\r" => memchr::memchr2(b'-', b'<', text),
            b">\0\r" => memchr::memchr(b'>', text),
            b"\0\r" => None,
            _ => return None,
        };
        Some(end.map_or(text.len(), |at| at.max(1)))
    }

    /// The length of the chunk html5gum's own reader (`StringReader::read_until`) hands over
    /// for `needle` in the states [`run_length`](Self::run_length) leaves to it, when `needle`
    /// is one of those: the first byte alone when it is a stop, else the bytes before the first
    /// stop (all of them when there is none). The same chunk, found by a table lookup per byte:
    /// these runs are a few bytes long (a tag name, an attribute value up to its next `&`), and
    /// html5gum's search sets up word-at-a-time tests on each call, work that a lookup per byte
    /// does not need on so short a run. `None` for any other needle.
    #[inline(always)]
    pub(super) fn stop_length(needle: &[u8], text: &[u8]) -> Option<usize> {
        let table: &[bool; 256] = match needle {
            TAG_NAME => const { &stops(TAG_NAME) },
            ATTRIBUTE_NAME => const { &stops(ATTRIBUTE_NAME) },
            ATTRIBUTE_VALUE_DOUBLE_QUOTED => const { &stops(ATTRIBUTE_VALUE_DOUBLE_QUOTED) },
            ATTRIBUTE_VALUE_SINGLE_QUOTED => const { &stops(ATTRIBUTE_VALUE_SINGLE_QUOTED) },
            ATTRIBUTE_VALUE_UNQUOTED => const { &stops(ATTRIBUTE_VALUE_UNQUOTED) },
            DOCTYPE_NAME => const { &stops(DOCTYPE_NAME) },
            DOCTYPE_DOUBLE_QUOTED => const { &stops(DOCTYPE_DOUBLE_QUOTED) },
            DOCTYPE_SINGLE_QUOTED => const { &stops(DOCTYPE_SINGLE_QUOTED) },
            _ => return None,
        };
        Some(
            match text
                .iter()
                .position(|&byte| table.get(usize::from(byte)) == Some(&true))
            {
                Some(0) => 1,
                Some(at) => at,
                None => text.len(),
            },
        )
    }
}

/// A set of bytes as a table: `table[b]` is true for the bytes of `needle`. Built at compile
/// time, one per needle of [`Input::stop_length`].
// Called in constants only, where indexing runs at compile time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const fn stops(needle: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut at = 0;
    while at < needle.len() {
        table[needle[at] as usize] = true;
        at += 1;
    }
    table
}

// html5gum 0.9's needles for the states whose characters [`Input::run_length`] does not hand
// over in whole runs, each with the CR the tokenizer adds, by the HTML Standard's tokenizer
// states (§13.2.5). The tests check that html5gum asks for each of them.

/// [Tag name](https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state).
pub(super) const TAG_NAME: &[u8] = b"\t\n\x0c />\0\r";
/// [Attribute name](https://html.spec.whatwg.org/multipage/parsing.html#attribute-name-state)
/// (`"`, `'` and `<` are parse errors, told apart by html5gum).
pub(super) const ATTRIBUTE_NAME: &[u8] = b"\t\n\x0c />=\0\"'<\r";
/// [Attribute value (double-quoted)](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state).
pub(super) const ATTRIBUTE_VALUE_DOUBLE_QUOTED: &[u8] = b"\"&\0\r";
/// [Attribute value (single-quoted)](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(single-quoted)-state).
pub(super) const ATTRIBUTE_VALUE_SINGLE_QUOTED: &[u8] = b"'&\0\r";
/// [Attribute value (unquoted)](https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(unquoted)-state).
pub(super) const ATTRIBUTE_VALUE_UNQUOTED: &[u8] = b"\t\n\x0c &>\0\"'<=`\r";
/// [DOCTYPE name](https://html.spec.whatwg.org/multipage/parsing.html#doctype-name-state).
pub(super) const DOCTYPE_NAME: &[u8] = b"\t\n\x0c >\0\r";
/// DOCTYPE public and system identifiers, [double-quoted](https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(double-quoted)-state).
pub(super) const DOCTYPE_DOUBLE_QUOTED: &[u8] = b"\"\0>\r";
/// DOCTYPE public and system identifiers, [single-quoted](https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(single-quoted)-state).
pub(super) const DOCTYPE_SINGLE_QUOTED: &[u8] = b"'\0>\r";

impl Reader for Input<'_> {
    type Error = Infallible;

    #[inline(always)]
    fn read_byte(&mut self) -> Result<Option<u8>, Infallible> {
        let Some((&byte, rest)) = self.0.split_first() else {
            return Ok(None);
        };
        self.0 = rest;
        Ok(Some(byte))
    }

    #[inline(always)]
    fn try_read_string(&mut self, s: &[u8], case_sensitive: bool) -> Result<bool, Infallible> {
        self.0
            .to_reader()
            .try_read_string(s, case_sensitive)
            .inspect(|&read| {
                if read {
                    self.0 = self.0.get(s.len()..).unwrap_or_default();
                }
            })
    }

    #[inline(always)]
    fn read_until<'b>(
        &'b mut self,
        needle: &[u8],
        char_buf: &'b mut [u8; 4],
    ) -> Result<Option<&'b [u8]>, Infallible> {
        if self.0.is_empty() {
            return Ok(None);
        }
        let length = if let Some(length) = Self::run_length(needle, self.0) {
            length
        } else if let Some(length) = Self::stop_length(needle, self.0) {
            length
        } else {
            let mut inner: StringReader<'_> = self.0.to_reader();
            inner.read_until(needle, char_buf)?.map_or(0, <[u8]>::len)
        };
        let (chunk, rest) = self.0.split_at(length.min(self.0.len()));
        self.0 = rest;
        Ok(Some(chunk))
    }
}
