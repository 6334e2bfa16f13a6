//! The reader that hands the tokenizer whole runs of text, checked against html5gum's own.

use std::convert::Infallible;

use std::collections::BTreeSet;

use html5gum::{Readable, Reader, StringReader, Tokenizer};

use super::{Input, ScanState, UrlEmitter};

/// What the scan finds in `html` when the tokenizer reads it through `reader`: its URLs
/// (with their ranges and link text), `srcdoc` values and fetch attributes.
fn found<'a, R: Readable<'a>>(reader: R, html: &str) -> String
where
    R::Reader: html5gum::Reader<Error = Infallible>,
{
    let mut state = ScanState::new(usize::MAX);
    let emitter = UrlEmitter {
        text: html,
        state: &mut state,
    };
    let _: Result<(), Infallible> = Tokenizer::new_with_emitter(reader, emitter).finish();
    state.close_link_at_end(html);
    format!(
        "{:#?}\n{:#?}\n{:#?}",
        state.urls, state.srcdocs, state.fetch_attributes
    )
}

/// Pieces that reach every state whose runs [`Input`] hands over whole (data, RCDATA,
/// RAWTEXT, script data and its escaped states, comments, bogus comments and DOCTYPEs,
/// PLAINTEXT) and the bytes that stop them there (`&`, CR, NUL, `-`, `<`, `>`), with links
/// and link text around them.
const PIECES: &[&str] = &[
    "<a href=\"a.html\" title=\"t\">",
    "</a>",
    "<img src=i.png alt='x'>",
    "text ",
    "\r\n",
    "\r",
    "\n",
    "\0",
    "&amp;",
    "&",
    "&lt",
    "-",
    "--",
    "<",
    ">",
    "<!--",
    "-->",
    "--!>",
    "<!-->",
    "<!---",
    "<style>",
    "</style>",
    "url(s.png)",
    "<script>",
    "</script>",
    "<!--<script>",
    "<title>",
    "</title>",
    "<textarea>",
    "</textarea>",
    "<xmp>",
    "</xmp>",
    "<?bogus ",
    "</ bogus",
    "<!DOCTYPE html",
    "<!DOCTYPE x PUBLIC \"p\" ",
    "<svg><a href=\"s.svg\">",
    "</svg>",
    "<base href=\"http://b.example/\">",
    "<iframe srcdoc=\"<a href=d.html>d</a>\">",
    "<A HREF=\"X.html?A=1&amp;B=&#X41;\" TITLE=\"T\">",
    "<IMG SRC=I.PNG?A=1&amp;B=2 ALT=X>",
    "<TD STYLE=\"background:url(B.png)\" Class=x>",
    "</A>",
    "<plaintext>",
];

/// The scan finds the same through [`Input`] as through html5gum's own reader, which
/// stops at every byte a state's `match` names: on documents made of [`PIECES`] in
/// pseudo-random order, and on each piece alone.
#[test]
fn runs_handed_over_whole_change_nothing_found() {
    let mut documents: Vec<String> = PIECES.iter().map(|piece| (*piece).to_owned()).collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..3000 {
        let mut document = String::new();
        for _ in 0..24 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            document.push_str(PIECES[(seed % PIECES.len() as u64) as usize]);
        }
        documents.push(document);
    }
    for html in &documents {
        assert_eq!(
            found(Input(html.as_bytes()), html),
            found(html.as_str(), html),
            "{html:?}"
        );
    }
}

/// The run [`Input::run_length`] hands over for each needle of a state whose characters
/// the emitter ignores, and none for the needles of the other states.
#[test]
fn run_lengths_by_needle() {
    let text = b"ab\r\0-c<d>e";
    assert_eq!(Input::run_length(b"&<\0\r", text), Some(6));
    assert_eq!(Input::run_length(b"<\0\r", text), Some(6));
    assert_eq!(Input::run_length(b"<-\0\r", text), Some(4));
    assert_eq!(Input::run_length(b"-<\0\r", text), Some(4));
    assert_eq!(Input::run_length(b">\0\r", text), Some(8));
    assert_eq!(Input::run_length(b"\0\r", text), Some(text.len()));
    // A stop that comes first is handed over alone.
    assert_eq!(Input::run_length(b"<-\0\r", b"-->"), Some(1));
    // Attribute values and names go through html5gum's reader.
    assert_eq!(Input::run_length(b"\"&\0\r", text), None);
    assert_eq!(Input::run_length(b"\t\n\x0c />\0\r", text), None);
}

/// html5gum's own reader, noting every needle it is asked to read up to.
struct Needles<'a> {
    inner: StringReader<'a>,
    asked: BTreeSet<Vec<u8>>,
}

impl Reader for &mut Needles<'_> {
    type Error = Infallible;

    fn read_byte(&mut self) -> Result<Option<u8>, Infallible> {
        self.inner.read_byte()
    }

    fn try_read_string(&mut self, s: &[u8], case_sensitive: bool) -> Result<bool, Infallible> {
        self.inner.try_read_string(s, case_sensitive)
    }

    fn read_until<'b>(
        &'b mut self,
        needle: &[u8],
        char_buf: &'b mut [u8; 4],
    ) -> Result<Option<&'b [u8]>, Infallible> {
        self.asked.insert(needle.to_vec());
        self.inner.read_until(needle, char_buf)
    }
}

/// The needles [`Input::run_length`] tells states by are those html5gum asks for: if a new
/// version asked for others, the runs would silently go back to html5gum's reader.
#[test]
fn the_needles_known_are_those_html5gum_asks_for() {
    let mut needles = Needles {
        inner: b"".as_slice().to_reader(),
        asked: BTreeSet::new(),
    };
    let html = PIECES.concat() + &PIECES.iter().rev().copied().collect::<String>();
    for piece in [
        html.as_str(),
        "<script><!--<script>-</script>--></script>",
        "<?bogus\r\n>",
        "<!DOCTYPE html bogus\r\n>",
        "<plaintext>a\r\nb",
    ] {
        needles.inner = piece.as_bytes().to_reader();
        found(&mut needles, piece);
    }
    for known in [
        b"&<\0\r".as_slice(),
        b"<\0\r",
        b"-<\0\r",
        b"<-\0\r",
        b">\0\r",
        b"\0\r",
    ] {
        assert!(
            needles.asked.contains(known),
            "{:?} is not asked for; asked: {:?}",
            String::from_utf8_lossy(known),
            needles
                .asked
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect::<Vec<_>>()
        );
    }
}
