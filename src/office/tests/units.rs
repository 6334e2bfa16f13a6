//! The field code and formula readers, the text maps and XML decoding on their own.

use pretty_assertions::assert_eq;

use crate::office::field::{Found, field_link, formula_links};
use crate::office::mapped::MappedText;
use crate::office::xml::{attribute_value, decode};

/// The field `code`'s link as (place, target, text at its range).
#[track_caller]
fn field(code: &str) -> Option<(&'static str, String, &str)> {
    field_link(code).map(
        |Found {
             place,
             target,
             range,
         }| (place, target, &code[range]),
    )
}

#[test]
fn hyperlink_fields() {
    assert_eq!(
        field(r#" HYPERLINK "https://example.com/a b" "#),
        Some((
            "HYPERLINK",
            "https://example.com/a b".into(),
            "https://example.com/a b"
        ))
    );
    assert_eq!(
        field("hyperlink https://example.com/x \\o \"tip\""),
        Some((
            "HYPERLINK",
            "https://example.com/x".into(),
            "https://example.com/x"
        ))
    );
    // Switches before the target, with and without arguments.
    assert_eq!(
        field(r#"HYPERLINK \o "a tip" \n \t "_blank" "https://example.com/""#),
        Some((
            "HYPERLINK",
            "https://example.com/".into(),
            "https://example.com/"
        ))
    );
    // `\l` alone is a place in the document; with a target, its fragment.
    assert_eq!(
        field(r#"HYPERLINK \l "_Toc1""#),
        Some(("HYPERLINK", "#_Toc1".into(), "_Toc1"))
    );
    assert_eq!(
        field(r#"HYPERLINK "https://example.com/doc" \l "part2""#),
        Some((
            "HYPERLINK",
            "https://example.com/doc#part2".into(),
            "https://example.com/doc"
        ))
    );
    // Escaped backslashes and quotes (ECMA-376 Part 1 §17.16.1).
    assert_eq!(
        field(r#"HYPERLINK "C:\\docs\\a \"b\".doc""#),
        Some((
            "HYPERLINK",
            r#"C:\docs\a "b".doc"#.into(),
            r#"C:\\docs\\a \"b\".doc"#
        ))
    );
    // An unclosed quote runs to the end.
    assert_eq!(
        field(r#"HYPERLINK "https://example.com/open"#),
        Some((
            "HYPERLINK",
            "https://example.com/open".into(),
            "https://example.com/open"
        ))
    );
    assert_eq!(field("HYPERLINK"), None);
    assert_eq!(field(r#"HYPERLINK """#), None);
    assert_eq!(field(r#"REF _Ref1 \h"#), None);
    assert_eq!(field(r#"HYPERLINKS "https://example.com/""#), None);
    assert_eq!(field(""), None);
}

#[test]
fn include_fields() {
    assert_eq!(
        field(r#"INCLUDEPICTURE \d "https://example.com/p.png" \* MERGEFORMATINET"#),
        Some((
            "INCLUDEPICTURE",
            "https://example.com/p.png".into(),
            "https://example.com/p.png"
        ))
    );
    assert_eq!(
        field(r#"INCLUDETEXT \c "MSWord" "\\\\server\\share\\a.docx" "bm""#),
        Some((
            "INCLUDETEXT",
            r"\\server\share\a.docx".into(),
            r"\\\\server\\share\\a.docx"
        ))
    );
}

#[test]
fn formulas() {
    let found = |formula: &str| -> Vec<(String, String)> {
        formula_links(formula)
            .into_iter()
            .map(|f| (f.target, formula[f.range].to_owned()))
            .collect()
    };
    assert_eq!(
        found(r#"HYPERLINK("https://example.com/?q=""x""","go")"#),
        [(
            r#"https://example.com/?q="x""#.to_owned(),
            r#"https://example.com/?q=""x"""#.to_owned()
        )]
    );
    assert_eq!(
        found(r#"IF(A1,hyperlink ( "https://a.example/" ),HYPERLINK("https://b.example/";"b"))"#),
        [
            (
                "https://a.example/".to_owned(),
                "https://a.example/".to_owned()
            ),
            (
                "https://b.example/".to_owned(),
                "https://b.example/".to_owned()
            ),
        ]
    );
    // Not calls: a computed target, a literal that holds the name, a longer name, a sheet.
    assert_eq!(found(r#"HYPERLINK(A1,"x")"#), []);
    assert_eq!(found(r#"CONCAT("HYPERLINK(""https://no.example/"")")"#), []);
    assert_eq!(found(r#"MYHYPERLINK("https://no.example/")"#), []);
    assert_eq!(found(r#"'HYPERLINK("x")'!A1"#), []);
    assert_eq!(
        found(r#"HYPERLINK("https://unclosed.example/"#),
        [(
            "https://unclosed.example/".to_owned(),
            "https://unclosed.example/".to_owned()
        )]
    );
}

#[test]
fn mapped_text_ranges() {
    let mut text = MappedText::default();
    text.push_literal("abc", 10);
    text.push_literal("de", 13); // contiguous: one piece
    text.push_decoded("&", 20..25);
    text.push_literal("fg", 25);
    text.push_literal("hi", 40); // a gap (markup between runs)
    assert_eq!(text.text(), "abcde&fghi");
    assert_eq!(text.source(0..3), 10..13);
    assert_eq!(text.source(1..5), 11..15);
    assert_eq!(text.source(5..6), 20..25);
    assert_eq!(text.source(4..7), 14..26);
    assert_eq!(text.source(6..10), 25..42);
    assert_eq!(text.source(3..3), 13..13);
    assert_eq!(MappedText::default().source(0..4), 0..0);
}

#[test]
fn attribute_values_are_decoded_and_mapped() {
    let raw = "a&amp;b&#x41;&#66;\tc\r\nd&unknown;";
    let value = attribute_value(raw, 100);
    assert_eq!(value.text(), "a&bAB c d&unknown;");
    assert_eq!(value.source(0..1), 100..101);
    assert_eq!(value.source(1..2), 101..106);
    assert_eq!(value.source(0..5), 100..118);
    assert_eq!(value.source(7..9), 120..123);
    assert_eq!(value.source(9..18), 123..132);
}

#[test]
fn xml_parts_in_utf16_map_back_to_their_bytes() {
    let text = "<r a=\"é𝄞x\"/>";
    for (bom, encode) in [
        (&b"\xFF\xFE"[..], u16::to_le_bytes as fn(u16) -> [u8; 2]),
        (&b"\xFE\xFF"[..], u16::to_be_bytes),
        (&b""[..], u16::to_le_bytes),
    ] {
        let mut bytes = bom.to_vec();
        let body = if bom.is_empty() {
            format!("<?xml version='1.0'?>{text}")
        } else {
            text.to_owned()
        };
        bytes.extend(body.encode_utf16().flat_map(encode));
        let (document, invalid) = decode(&bytes);
        assert_eq!(invalid, None);
        assert_eq!(document.text, body);
        let x = body.find('x').unwrap();
        // "x" comes after '<r a="' (6 units), 'é' (1), '𝄞' (2).
        let units = body[..x].encode_utf16().count();
        assert_eq!(
            document.part_range(x..x + 1),
            bom.len() + 2 * units..bom.len() + 2 * units + 2
        );
    }
    // Long enough to use checkpoints.
    let long: String = "é".repeat(10_000) + "x";
    let bytes: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain(long.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let (document, _) = decode(&bytes);
    let x = long.len() - 1;
    assert_eq!(document.part_range(x..x + 1), 2 + 20_000..2 + 20_002);
}

#[test]
fn xml_parts_not_in_utf8_are_cut() {
    let (document, invalid) = decode(b"\xEF\xBB\xBF<a>\xFFmore</a>");
    assert_eq!(document.text, "<a>");
    assert_eq!(invalid, Some(6));
    assert_eq!(document.part_range(1..2), 4..5);
}
