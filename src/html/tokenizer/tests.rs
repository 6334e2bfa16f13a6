//! The reader that hands the tokenizer whole runs of text, checked against html5gum's own.

use std::convert::Infallible;

use html5gum::{Readable, Tokenizer};

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
