//! Hand-written RTF files with HYPERLINK fields in the shapes Word and other writers use.

use pretty_assertions::assert_eq;

use super::{targets, written};
use crate::archive::{Limits, ProblemKind};
use crate::office::{OfficeKind, is_rtf, links, rtf};

/// The links of `rtf` as (target, text at its range).
#[track_caller]
fn found(rtf: &str) -> Vec<(String, String)> {
    let reading = links(rtf.as_bytes(), &[], &Limits::default());
    assert_eq!(reading.kind, Some(OfficeKind::Rtf));
    reading
        .links
        .iter()
        .map(|link| {
            assert_eq!(link.place, "HYPERLINK");
            assert_eq!(link.member, None);
            (
                link.target.clone(),
                written(rtf.as_bytes(), link).to_owned(),
            )
        })
        .collect()
}

fn pair(target: &str, text: &str) -> (String, String) {
    (target.to_owned(), text.to_owned())
}

#[test]
fn recognized_by_its_first_bytes() {
    assert!(is_rtf(br"{\rtf1\ansi hi}"));
    assert!(!is_rtf(br" {\rtf1}"));
    assert!(!is_rtf(b"{\\rt"));
}

#[test]
fn simple_field() {
    let text =
        r#"{\rtf1\ansi{\field{\*\fldinst HYPERLINK "https://example.com/a"}{\fldrslt here}}}"#;
    assert_eq!(
        found(text),
        [pair("https://example.com/a", "https://example.com/a")]
    );
}

/// Word's own shape: the code in groups with formatting, a `\*\datafield` after it.
#[test]
fn word_split_field_with_datafield() {
    let text = concat!(
        r#"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times;}}"#,
        r#"{\field{\*\fldinst {\rtlch\fcs1 \af0 \ltrch\fcs0 \insrsid1  HYPERLINK "https://www.}"#,
        r#"{\rtlch\fcs1 \af0 \insrsid2 example.com/path?a=1&b=2" }{\rtlch\fcs1 \af0 {\*\datafield "#,
        r#"00d0c9ea79f9bace118c8200aa004ba90b02000000170000001e00000068007400740070003a002f002f00}}}"#,
        r#"{\fldrslt {\rtlch\fcs1 \af0 \cf2\ul\insrsid3 example}}}\par}"#
    );
    let links = found(text);
    assert_eq!(links.len(), 1);
    assert_eq!(links[0].0, "https://www.example.com/path?a=1&b=2");
    assert!(links[0].1.starts_with("https://www.}"), "{}", links[0].1);
    assert!(links[0].1.ends_with("path?a=1&b=2"), "{}", links[0].1);
}

#[test]
fn escapes_in_the_code() {
    // `\'e9` in Windows-1252, `\u` with a fallback, an escaped backslash, a surrogate pair.
    let text = r#"{\rtf1\ansi\ansicpg1252{\field{\*\fldinst HYPERLINK "https://example.com/caf\'e9/\u8364?/x\\y/\u-10179?\u-8704?"}{\fldrslt r}}}"#;
    let links = found(text);
    assert_eq!(links[0].0, "https://example.com/café/€/x\\y/😀");
    // The range ends with the last escape; its fallback character is not part of the target.
    assert_eq!(
        links[0].1,
        r"https://example.com/caf\'e9/\u8364?/x\\y/\u-10179?\u-8704"
    );
    // `\uc2` skips two fallback characters, `\'hh` counting as one.
    let text =
        r#"{\rtf1{\field{\*\fldinst {\uc2 HYPERLINK "https://example.com/\u233\'65\'3fok"}}}}"#;
    assert_eq!(found(text)[0].0, "https://example.com/éok");
    // A double-byte code page: one character from two escapes.
    let text =
        r#"{\rtf1\ansi\ansicpg932{\field{\*\fldinst HYPERLINK "https://example.jp/\'82\'a0"}}}"#;
    assert_eq!(
        found(text)[0],
        pair("https://example.jp/あ", r"https://example.jp/\'82\'a0")
    );
}

#[test]
fn field_code_without_star_and_with_switches() {
    let text = r#"{\rtf1{\field{\fldinst{HYPERLINK \\l "bookmark"}}{\fldrslt x}}{\field{\*\fldinst { HYPERLINK "https://example.org/" \\o "tip"}}}}"#;
    assert_eq!(
        found(text),
        [
            pair("#bookmark", "bookmark"),
            pair("https://example.org/", "https://example.org/")
        ]
    );
}

#[test]
fn nested_field_result_is_part_of_the_code() {
    let text = r#"{\rtf1{\field{\*\fldinst HYPERLINK "{\field{\*\fldinst DOCPROPERTY site}{\fldrslt https://nested.example/}}"}{\fldrslt n}}}"#;
    assert_eq!(
        found(text),
        [pair("https://nested.example/", "https://nested.example/")]
    );
}

#[test]
fn binary_data_and_pictures_are_skipped() {
    let text = "{\\rtf1{\\field{\\*\\fldinst HYPERLINK \"https://a.example/\\bin5 {}\"\\}x{\\pict abc}\"}}}";
    assert_eq!(found(text)[0].0, "https://a.example/x");
    let text = r#"{\rtf1{\pict{\field{\*\fldinst HYPERLINK "https://in-picture.example/"}}}}"#;
    assert_eq!(found(text), []);
}

#[test]
fn reading_ends_with_the_outermost_group() {
    let text = r#"{\rtf1 text}{\field{\*\fldinst HYPERLINK "https://after.example/"}}"#;
    assert_eq!(found(text), []);
    // An unclosed field still names its link.
    let text = r#"{\rtf1{\field{\*\fldinst HYPERLINK "https://unclosed.example/"#;
    assert_eq!(found(text)[0].0, "https://unclosed.example/");
}

#[test]
fn deep_nesting_is_bounded() {
    let depth = rtf::MAX_DEPTH + 10;
    let text = format!(
        "{{\\rtf1{}{{\\field{{\\*\\fldinst HYPERLINK \"https://deep.example/\"}}}}{}{{\\field{{\\*\\fldinst HYPERLINK \"https://shallow.example/\"}}}}}}",
        "{".repeat(depth),
        "}".repeat(depth)
    );
    let reading = links(text.as_bytes(), &[], &Limits::default());
    assert_eq!(targets(&reading), ["https://shallow.example/"]);
    assert_eq!(reading.problems.len(), 1);
    assert_eq!(reading.problems[0].kind, ProblemKind::Limit);
    // A hundred thousand levels cost a counter, not a stack.
    let text = format!("{{\\rtf1{}", "{".repeat(100_000));
    assert_eq!(links(text.as_bytes(), &[], &Limits::default()).links, []);
}

#[test]
fn mutated_rtf_never_panics() {
    let original = concat!(
        r#"{\rtf1\ansi\ansicpg932{\field{\*\fldinst {\uc2 HYPERLINK "https://x.example/\'82\'a0\u-10179?\u-8704?" }"#,
        r#"{\*\datafield 00}}{\fldrslt {\bin3 abc}x}}\par}"#
    )
    .as_bytes();
    let symbols = b"{}\\'*u0-9 \"";
    let mut state = 0x5eedu64;
    for round in 0..3000 {
        let mut bytes = original.to_vec();
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let at = (state >> 33) as usize % bytes.len();
        let symbol = symbols[(state >> 20) as usize % symbols.len()];
        if round % 2 == 0 {
            bytes[at] = symbol;
        } else {
            bytes.truncate(at);
        }
        let reading = links(&bytes, &[], &Limits::default());
        for link in &reading.links {
            assert!(link.range.start <= link.range.end && link.range.end <= bytes.len());
        }
    }
}
