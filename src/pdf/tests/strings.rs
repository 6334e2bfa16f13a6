//! String decoding (ISO 32000-1 §7.9.2.2, Annex D), the scheme rule, the raw pass and the
//! CMap check, as tables.

use pretty_assertions::assert_eq;

use crate::pdf::prepare::{prepare, restore_markers};
use crate::pdf::string::{has_scheme, pdf_doc_char, text_string, uri_string};
use crate::pdf::text::cmap_is_safe;

#[test]
fn pdf_doc_encoding_table() {
    let cases = [
        (0x41, 'A'),
        (0x09, '\t'),
        (0x18, '\u{02D8}'),
        (0x1F, '\u{02DC}'),
        (0x7F, '\u{7F}'),
        (0x80, '\u{2022}'),
        (0x8A, '\u{2212}'),
        (0x93, '\u{FB01}'),
        (0x9E, '\u{017E}'),
        (0x9F, '\u{9F}'),
        (0xA0, '\u{20AC}'),
        (0xA1, '\u{A1}'),
        (0xAD, '\u{AD}'),
        (0xAE, '\u{AE}'),
        (0xE9, 'é'),
        (0xFF, 'ÿ'),
    ];
    for (byte, expected) in cases {
        assert_eq!(pdf_doc_char(byte), expected, "byte {byte:#04x}");
    }
}

#[test]
fn text_strings() {
    let cases: [(&[u8], &str); 8] = [
        (b"plain", "plain"),
        (b"\xFE\xFF\x00h\x00i", "hi"),
        (b"\xFE\xFF\x00h\x00", "h"),
        (b"\xFE\xFF\xD8\x3D\xDE\x00", "\u{1F600}"),
        (b"\xFE\xFF\xD8\x3D\x00a", "\u{FFFD}a"),
        (b"\xFF\xFEh\x00i\x00", "hi"),
        (b"\xEF\xBB\xBFcaf\xC3\xA9", "café"),
        // A language escape (U+001B "en" U+001B) is dropped.
        (b"\xFE\xFF\x00\x1B\x00e\x00n\x00\x1B\x00h", "h"),
    ];
    for (bytes, expected) in cases {
        assert_eq!(text_string(bytes), expected, "{bytes:?}");
    }
}

#[test]
fn uri_strings() {
    let cases: [(&[u8], &str); 4] = [
        (b"https://a.example/", "https://a.example/"),
        (b"https://a.example/caf\xC3\xA9", "https://a.example/café"),
        (b"https://a.example/caf\xE9", "https://a.example/café"),
        (b"\xFE\xFF\x00h\x00:", "h:"),
    ];
    for (bytes, expected) in cases {
        assert_eq!(uri_string(bytes), expected, "{bytes:?}");
    }
}

#[test]
fn schemes() {
    let cases = [
        ("https://a.example/", true),
        ("HTTP://A", true),
        ("  \t mailto:a@b", true),
        ("svn+ssh://h/p", true),
        ("x-y.z:1", true),
        ("ab:", true),
        ("C:\\dir\\file", false),
        ("c:/dir", false),
        ("\\\\host\\share", false),
        ("relative/page.html", false),
        ("1http://a", false),
        ("/path:x", false),
        ("", false),
        ("http", false),
    ];
    for (reference, expected) in cases {
        assert_eq!(has_scheme(reference), expected, "{reference:?}");
    }
}

#[test]
fn raw_pass_renames_object_stream_names_only() {
    let input = b"<< /Type /ObjStm /N 2 /First 9 >> << /Type /Obj#53tm /F#69rst 3 /Firsts 1 /ObjStmX 2 >> (/First)";
    let prepared = prepare(input);
    assert_eq!(prepared.bytes.len(), input.len());
    assert_eq!(prepared.renamed, 5);
    assert_eq!(
        String::from_utf8_lossy(&prepared.bytes),
        "<< /Type /ObjSt\0 /N 2 /Firs\0 9 >> << /Type /ObjSt\0\0\0 /Firs\0\0\0 3 /Firsts 1 /ObjStmX 2 >> (/Firs\0)"
    );
    assert_eq!(&*restore_markers(b"(/Firs\0/ObjSt\0)"), b"(/First/ObjStm)");
    assert_eq!(&*restore_markers(b"(/Firs/ObjSt)"), b"(/Firs/ObjSt)");
}

#[test]
fn raw_pass_counts_streams_and_objects() {
    let prepared = prepare(
        b"1 0 obj << /Type /ObjStm >> stream\nx\nendstream endobj 2 0 obj 3 endobj \
          trailer << /Prev 9 /XRefStm 7 >>",
    );
    assert_eq!(
        (prepared.object_streams, prepared.sections, prepared.objects),
        (1, 2, 2)
    );
}

#[test]
fn cmap_check() {
    let cmap = |sections: &str| {
        format!(
            "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n{sections}\nendcmap end end"
        )
    };
    let fine = [
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n1 beginbfrange\n<0000> <FFFF> <0041>\nendbfrange",
        "1 beginbfrange\n<000000> <0000FF> <0041>\nendbfrange",
        "1 beginbfchar\n<01> <D83DDE00>\nendbfchar",
    ];
    for sections in fine {
        assert!(cmap_is_safe(cmap(sections).as_bytes()), "{sections}");
    }
    let codespaces: String = (0..300).map(|i| format!("<{i:04X}> <{i:04X}>\n")).collect();
    let too_costly = [
        "1 beginbfrange\n<00000000> <FFFFFFFF> <0041>\nendbfrange".to_owned(),
        "1 beginbfrange\n<000000> <FFFFFF> <0041>\nendbfrange".to_owned(),
        format!("300 begincodespacerange\n{codespaces}endcodespacerange"),
        // A comment cannot hide the entries after it.
        format!("300 begincodespacerange\n% endcodespacerange\n{codespaces}endcodespacerange"),
    ];
    for sections in too_costly {
        assert!(!cmap_is_safe(cmap(&sections).as_bytes()), "{sections}");
    }
}
