//! The reader that hands the tokenizer whole runs of text, checked against html5gum's own.

use std::convert::Infallible;

use std::collections::BTreeSet;

use html5gum::{Readable, Reader, StringReader, Tokenizer};

use crate::testing::every_string;

use super::input::{
    ATTRIBUTE_NAME, ATTRIBUTE_VALUE_DOUBLE_QUOTED, ATTRIBUTE_VALUE_SINGLE_QUOTED,
    ATTRIBUTE_VALUE_UNQUOTED, DOCTYPE_DOUBLE_QUOTED, DOCTYPE_NAME, DOCTYPE_SINGLE_QUOTED, TAG_NAME,
};
use super::{Input, ScanState, UrlEmitter};

/// The needles [`Input::stop_length`] finds html5gum's chunks for.
const STOP_NEEDLES: [&[u8]; 8] = [
    TAG_NAME,
    ATTRIBUTE_NAME,
    ATTRIBUTE_VALUE_DOUBLE_QUOTED,
    ATTRIBUTE_VALUE_SINGLE_QUOTED,
    ATTRIBUTE_VALUE_UNQUOTED,
    DOCTYPE_NAME,
    DOCTYPE_DOUBLE_QUOTED,
    DOCTYPE_SINGLE_QUOTED,
];

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
/// PLAINTEXT) and the bytes that stop them there (`&`, CR, NUL, `-`, `<`, `>`), and the
/// states whose chunks it finds by table (tag and attribute names, attribute values in each
/// quoting, DOCTYPE names and identifiers) with each byte that stops them, with links and link
/// text around them.
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
    "<a\thref\x0c=\"t\tab.html\" title\n=\r\n'q&amp;\r\n'>",
    "<p a<b=1 c=`d` e=f'g\"h<i=j k=l&amp;m=n\tlast>",
    "<a href=\"",
    "<a href='",
    "<a href=",
    "\"",
    "'",
    "=",
    "\t",
    "\x0c",
    "/",
    "/>",
    "<a/href=x/title=y>",
    "<!DOCTYPE x SYSTEM 's&'>",
    "<!DOCTYPE\tx\x0c PUBLIC \"p\r\n\" 's'>",
    "</a\t foo=\"bar\">",
    "<é href=é.html>",
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
    assert_eq!(Input::run_length(b"-<\0\r", b"<-x"), Some(1));
    assert_eq!(Input::run_length(b"&<\0\r", b"<a>"), Some(1));
    assert_eq!(Input::run_length(b"<\0\r", b"</style>"), Some(1));
    assert_eq!(Input::run_length(b">\0\r", b">>"), Some(1));
    // `&`, CR and NUL first are run through.
    assert_eq!(Input::run_length(b"&<\0\r", b"&amp;\r\0<"), Some(7));
    assert_eq!(Input::run_length(b">\0\r", b"\r\0a>"), Some(3));
    // Attribute values and names are not handed over whole (see `stop_length`).
    assert_eq!(Input::run_length(b"\"&\0\r", text), None);
    assert_eq!(Input::run_length(b"\t\n\x0c />\0\r", text), None);
}

/// For each needle it knows, [`Input::stop_length`] gives the chunk html5gum's own reader
/// gives: on every text of up to four bytes made of the needle's bytes and three others (one
/// of them the start of a two-byte character), each followed by a longer tail, and on long
/// texts with the stop far in. Any other needle it leaves to html5gum's reader.
#[test]
fn stop_lengths_are_the_chunks_html5gum_reads() {
    for needle in STOP_NEEDLES {
        let mut alphabet = needle.to_vec();
        alphabet.extend_from_slice(b"a-\xc3");
        let mut texts = every_string(&alphabet, 4);
        for &stop in needle {
            let mut long = vec![b'x'; 70];
            long.push(stop);
            long.extend_from_slice(b"tail");
            texts.push(long);
        }
        texts.push(vec![b'y'; 100]);
        for text in texts.iter().filter(|text| !text.is_empty()) {
            let mut tail = text.clone();
            tail.extend_from_slice(b"abcdefghijklmnopqrstuvwxyz");
            for text in [text, &tail] {
                let mut reader: StringReader<'_> = text.as_slice().to_reader();
                let expected = reader
                    .read_until(needle, &mut [0; 4])
                    .unwrap()
                    .map(<[u8]>::len);
                assert_eq!(
                    Input::stop_length(needle, text),
                    expected,
                    "needle {:?}, text {:?}",
                    String::from_utf8_lossy(needle),
                    String::from_utf8_lossy(text)
                );
            }
        }
    }
    assert_eq!(Input::stop_length(b"&<\0\r", b"abc"), None);
    assert_eq!(Input::stop_length(b"x", b"abc"), None);
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
        "<!DOCTYPE x PUBLIC \"p\" 's'>",
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
    ]
    .into_iter()
    .chain(STOP_NEEDLES)
    {
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
