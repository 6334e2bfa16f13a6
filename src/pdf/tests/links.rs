//! Links from hand-written files: every place, action type and string form.

use pretty_assertions::assert_eq;

use super::build::{Pdf, object_stream, stream};
use super::{
    assert_clean, assert_not_encrypted, assert_oracle, assert_problem, link, places, read_plain,
    tools,
};
use crate::pdf::{ActionType, Limits, Place, ProblemKind, Source, read};

/// A page whose `/Annots` holds annotation 6, and annotation 6 with `annotation` entries.
fn with_annotation(annotation: &str) -> Pdf {
    Pdf::one_page("", "/Annots [6 0 R]", "Hello").object(
        6,
        format!("<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] {annotation} >>"),
    )
}

#[test]
fn uri_annotation_inline_action() {
    let bytes = with_annotation("/A << /S /URI /URI (https://example.com/inline) >>").build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_not_encrypted(&reading);
    assert_eq!(
        places(&reading),
        [("annot/URI", "https://example.com/inline")]
    );
    let found = link(&reading, "https://example.com/inline");
    assert_eq!((found.object, found.page), (Some(6), Some(1)));
    assert_oracle("uri_annotation_inline_action", &bytes, &reading, None);
}

#[test]
fn uri_annotation_indirect_action() {
    let bytes = with_annotation("/A 7 0 R")
        .object(
            7,
            "<< /Type /Action /S /URI /URI (https://example.com/indirect) >>",
        )
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [("annot/URI", "https://example.com/indirect")]
    );
    let found = link(&reading, "https://example.com/indirect");
    assert_eq!((found.object, found.page), (Some(7), Some(1)));
    assert_oracle("uri_annotation_indirect_action", &bytes, &reading, None);
}

#[test]
fn annotation_written_inside_the_page() {
    let bytes = Pdf::one_page(
        "",
        "/Annots [<< /Subtype /Link /Rect [0 0 1 1] /A << /S /URI /URI (https://inline.example/) >> >>]",
        "x",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_eq!(places(&reading), [("annot/URI", "https://inline.example/")]);
    assert_eq!(link(&reading, "https://inline.example/").object, Some(3));
    assert_oracle("annotation_written_inside_the_page", &bytes, &reading, None);
}

#[test]
fn next_chain_is_followed_in_order() {
    // 6: A -> /Next [7, inline JavaScript -> /Next inline C]; 7: B -> /Next 8; 8: D.
    let bytes = with_annotation(
        "/A << /S /URI /URI (https://a.example/) /Next [7 0 R << /S /JavaScript /JS (1) \
         /Next << /S /URI /URI (https://c.example/) >> >>] >>",
    )
    .object(7, "<< /S /Launch /F (https://b.example/) /Next 8 0 R >>")
    .object(8, "<< /S /URI /URI (https://d.example/) /Next 7 0 R >>")
    .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    // Sorted by object: 6 holds A and C, 7 holds B, 8 holds D.
    assert_eq!(
        places(&reading),
        [
            ("annot/URI", "https://a.example/"),
            ("annot/URI", "https://c.example/"),
            ("annot/Launch", "https://b.example/"),
            ("annot/URI", "https://d.example/"),
        ]
    );
}

#[test]
fn open_action_and_catalog_additional_actions() {
    let bytes = Pdf::one_page(
        "/OpenAction << /S /URI /URI (https://open.example/) >> \
         /AA << /WC << /S /Launch /F << /FS /URL /F (https://close.example/) >> >> >>",
        "",
        "x",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [
            ("OpenAction/URI", "https://open.example/"),
            ("AA/Launch", "https://close.example/"),
        ]
    );
    assert_eq!(link(&reading, "https://open.example/").object, Some(1));
}

#[test]
fn open_action_destination_is_not_a_link() {
    let bytes = Pdf::one_page("/OpenAction [3 0 R /Fit]", "", "x").build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert!(reading.links.is_empty());
}

#[test]
fn page_and_annotation_additional_actions() {
    let bytes = Pdf::one_page(
        "",
        "/AA << /O << /S /URI /URI (https://page-open.example/) >> >> /Annots [6 0 R]",
        "x",
    )
    .object(
        6,
        "<< /Subtype /Widget /Rect [0 0 1 1] /AA << /E << /S /URI /URI (https://enter.example/) >> >> >>",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [
            ("AA/URI", "https://page-open.example/"),
            ("annot-AA/URI", "https://enter.example/"),
        ]
    );
    assert_eq!(link(&reading, "https://page-open.example/").page, Some(1));
    assert_eq!(link(&reading, "https://enter.example/").object, Some(6));
}

#[test]
fn launch_reports_urls_only() {
    let bytes = with_annotation(
        "/A << /S /Launch /F (https://launch.example/x.exe) /Next [7 0 R 8 0 R 9 0 R 10 0 R] >>",
    )
    .object(
        7,
        "<< /S /Launch /F << /FS /URL /F (relative/launch.html) >> >>",
    )
    .object(
        8,
        "<< /S /Launch /F (C:\\\\Windows\\\\calc.exe) /Win << /F (file:///C:/evil.exe) >> >>",
    )
    .object(9, "<< /S /Launch /F (\\\\\\\\host\\\\share\\\\x.exe) >>")
    .object(
        10,
        "<< /S /Launch /F << /Type /Filespec /F (a.pdf) /UF (smb://host/share/a.pdf) >> >>",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [
            ("annot/Launch", "https://launch.example/x.exe"),
            ("annot/Launch", "relative/launch.html"),
            ("annot/Launch", "file:///C:/evil.exe"),
            ("annot/Launch", "smb://host/share/a.pdf"),
        ]
    );
}

#[test]
fn remote_embedded_submit_and_import_actions() {
    let bytes = with_annotation(
        "/A << /S /GoToR /F << /FS /URL /F (https://remote.example/doc.pdf) >> /D [0 /Fit] \
         /Next [<< /S /GoToE /F (https://embedded.example/e.pdf) /T << /R /C /N (a) >> >> \
         << /S /ImportData /F (https://import.example/data.fdf) >>] >>",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [
            ("annot/GoToR", "https://remote.example/doc.pdf"),
            ("annot/GoToE", "https://embedded.example/e.pdf"),
            ("annot/ImportData", "https://import.example/data.fdf"),
        ]
    );
}

#[test]
fn form_field_submit_with_widget_page() {
    let bytes = Pdf::one_page("/AcroForm << /Fields [6 0 R] >>", "", "x")
        .object(6, "<< /FT /Btn /T (send) /Kids [7 0 R] >>")
        .object(
            7,
            "<< /Type /Annot /Subtype /Widget /Parent 6 0 R /P 3 0 R /Rect [0 0 1 1] \
             /A << /S /SubmitForm /F << /FS /URL /F (https://submit.example/form) >> /Flags 4 >> >>",
        )
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [("field/SubmitForm", "https://submit.example/form")]
    );
    let found = link(&reading, "https://submit.example/form");
    assert_eq!((found.object, found.page), (Some(7), Some(1)));
}

#[test]
fn widget_on_a_page_is_an_annotation_once() {
    let bytes = Pdf::one_page("/AcroForm << /Fields [6 0 R] >>", "/Annots [6 0 R]", "x")
        .object(
            6,
            "<< /FT /Btn /T (go) /Subtype /Widget /Rect [0 0 1 1] /P 3 0 R \
             /A << /S /URI /URI (https://widget.example/) >> >>",
        )
        .build();
    let reading = read_plain(&bytes);
    assert_eq!(places(&reading), [("annot/URI", "https://widget.example/")]);
    assert_oracle(
        "widget_on_a_page_is_an_annotation_once",
        &bytes,
        &reading,
        None,
    );
}

#[test]
fn base_and_relative_uri() {
    let bytes = Pdf::one_page(
        "/URI << /Base (http://base.example/dir/) >>",
        "/Annots [6 0 R]",
        "x",
    )
    .object(
        6,
        "<< /Subtype /Link /Rect [0 0 1 1] /A << /S /URI /URI (page.html) >> >>",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(reading.base.as_deref(), Some("http://base.example/dir/"));
    assert_eq!(places(&reading), [("annot/URI", "page.html")]);
    assert_oracle("base_and_relative_uri", &bytes, &reading, None);
}

#[test]
fn uri_name_reads_as_a_path() {
    let bytes = with_annotation("/A << /S /URI /URI /relative >>").build();
    assert_eq!(places(&read_plain(&bytes)), [("annot/URI", "/relative")]);
}

#[test]
fn literal_string_escapes() {
    // \( \) \\ octal \150 ('h'), a line continuation, \n.
    let bytes = with_annotation(
        "/A << /S /URI /URI (https://example.com/p\\(1\\)\\\\x\\150\\\ny?a=\\(b\\)) >>",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_eq!(
        places(&reading),
        [("annot/URI", "https://example.com/p(1)\\xhy?a=(b)")]
    );
    assert_oracle("literal_string_escapes", &bytes, &reading, None);
}

#[test]
fn literal_string_end_of_line_and_balanced_parentheses() {
    // An unescaped CR LF inside a literal string is one LF; balanced parentheses need no
    // escape.
    let bytes = with_annotation("/A << /S /URI /URI (https://x.example/(a)\r\nb) >>").build();
    assert_eq!(
        places(&read_plain(&bytes)),
        [("annot/URI", "https://x.example/(a)\nb")]
    );
}

#[test]
fn hex_strings() {
    // "https://hex.example/p" and an odd final digit (7 = 0x70, 'p').
    let bytes =
        with_annotation("/A << /S /URI /URI <68747470733a2f2f6865782E6578616D706C652F 7> >>")
            .build();
    let reading = read_plain(&bytes);
    assert_eq!(places(&reading), [("annot/URI", "https://hex.example/p")]);
    assert_oracle("hex_strings", &bytes, &reading, None);
}

#[test]
fn utf16be_with_byte_order_mark() {
    // "http://é.example/" in UTF-16BE.
    let bytes = with_annotation(
        "/A << /S /URI /URI <FEFF0068007400740070003A002F002F00E9002E006500780061006D0070006C0065002F> >>",
    )
    .build();
    let reading = read_plain(&bytes);
    assert_eq!(places(&reading), [("annot/URI", "http://é.example/")]);
    assert_oracle("utf16be_with_byte_order_mark", &bytes, &reading, None);
}

#[test]
fn pdf_doc_encoding_non_ascii() {
    // 0x80 bullet, 0xA0 euro, 0xE9 é: not UTF-8, so PDFDocEncoding.
    let bytes = with_annotation("/A << /S /URI /URI (http://x.example/\\200\\240\\351) >>").build();
    let reading = read_plain(&bytes);
    assert_eq!(
        places(&reading),
        [("annot/URI", "http://x.example/\u{2022}\u{20AC}é")]
    );
    assert_oracle("pdf_doc_encoding_non_ascii", &bytes, &reading, None);
}

#[test]
fn utf8_bytes_read_as_utf8() {
    // "é" as UTF-8 bytes C3 A9, as pdf.js and Chromium read a URI. pypdf reads
    // PDFDocEncoding ("Ã©"), so it is no oracle here.
    let bytes = with_annotation("/A << /S /URI /URI (http://x.example/\\303\\251) >>").build();
    assert_eq!(
        places(&read_plain(&bytes)),
        [("annot/URI", "http://x.example/é")]
    );
}

#[test]
fn renamed_names_are_restored_in_strings() {
    let bytes =
        with_annotation("/A << /S /URI /URI (https://x.example/First/ObjStm/Firstly) >>").build();
    let reading = read_plain(&bytes);
    assert_eq!(
        places(&reading),
        [("annot/URI", "https://x.example/First/ObjStm/Firstly")]
    );
}

#[test]
fn incremental_update_newest_uri_counts() {
    let original = with_annotation("/A << /S /URI /URI (https://old.example/) >>").build();
    let updated = Pdf::new()
        .object(
            6,
            "<< /Type /Annot /Subtype /Link /Rect [0 0 1 1] /A << /S /URI /URI (https://new.example/) >> >>",
        )
        .append_to(&original);
    let reading = read_plain(&updated);
    assert_clean(&reading);
    assert_eq!(places(&reading), [("annot/URI", "https://new.example/")]);
    assert_oracle(
        "incremental_update_newest_uri_counts",
        &updated,
        &reading,
        None,
    );
}

#[test]
fn orphan_action_is_an_object_link() {
    let bytes = Pdf::one_page("", "", "x")
        .object(9, "<< /S /URI /URI (https://orphan.example/) >>")
        .object(
            10,
            "<< /Subtype /Link /PA << /S /URI /URI (https://pa.example/) >> >>",
        )
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [
            ("object/URI", "https://orphan.example/"),
            ("object/URI", "https://pa.example/"),
        ]
    );
    assert_eq!(link(&reading, "https://orphan.example/").object, Some(9));
}

#[test]
fn javascript_is_not_a_link() {
    let bytes =
        with_annotation("/A << /S /JavaScript /JS (app.launchURL\\(\"https://js.example/\"\\)) >>")
            .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert!(reading.links.is_empty(), "{:#?}", reading.links);
}

#[test]
fn outline_items() {
    let bytes = Pdf::one_page("/Outlines 10 0 R", "", "x")
        .object(10, "<< /Type /Outlines /First 11 0 R /Last 12 0 R /Count 2 >>")
        .object(
            11,
            "<< /Title (one) /Parent 10 0 R /Next 12 0 R /First 13 0 R \
             /A << /S /URI /URI (https://one.example/) >> >>",
        )
        .object(12, "<< /Title (two) /Parent 10 0 R /Prev 11 0 R /A << /S /URI /URI (https://two.example/) >> >>")
        .object(13, "<< /Title (child) /Parent 11 0 R /Dest [3 0 R /Fit] /A << /S /Launch /F (https://child.example/) >> >>")
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [
            ("outline/URI", "https://one.example/"),
            ("outline/URI", "https://two.example/"),
            ("outline/Launch", "https://child.example/"),
        ]
    );
}

#[test]
fn objects_in_a_hand_written_object_stream() {
    // Objects 6 and 7 live in object stream 20, which the classic table does not list.
    let bytes = Pdf::one_page("", "/Annots [6 0 R]", "x")
        .object(
            20,
            object_stream(&[
                (6, "<< /Subtype /Link /Rect [0 0 1 1] /A 7 0 R >>"),
                (7, "<< /S /URI /URI (https://objstm.example/) >>"),
            ]),
        )
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(places(&reading), [("annot/URI", "https://objstm.example/")]);
    assert_eq!(link(&reading, "https://objstm.example/").object, Some(7));
}

#[test]
fn objects_in_qpdf_object_streams() {
    if !tools::has_qpdf() {
        crate::testing::skip_missing("objects_in_qpdf_object_streams", "qpdf");
        return;
    }
    let plain = with_annotation("/A << /S /URI /URI (https://qpdf.example/First) >>")
        .object(7, "<< /Type /Outlines /First 8 0 R /Last 8 0 R >>")
        .object(
            8,
            "<< /Title (x) /Parent 7 0 R /A << /S /URI /URI (https://mark.example/) >> >>",
        )
        .build();
    let plain =
        String::from_utf8_lossy(&plain).replace("/Type /Catalog", "/Type /Catalog /Outlines 7 0 R");
    let plain = tools::qpdf(plain.as_bytes(), &[]);
    let packed = tools::qpdf(&plain, &["--object-streams=generate"]);
    assert!(memchr::memmem::find(&packed, b"/ObjStm").is_some());
    let reading = read_plain(&packed);
    assert_clean(&reading);
    let mut found = places(&reading);
    found.sort_unstable();
    assert_eq!(
        found,
        [
            ("annot/URI", "https://qpdf.example/First"),
            ("outline/URI", "https://mark.example/"),
        ]
    );
    assert_oracle("objects_in_qpdf_object_streams", &packed, &reading, None);
}

#[test]
fn missing_and_shifted_cross_reference() {
    let pdf = with_annotation("/A << /S /URI /URI (https://scan.example/) >>");
    for bytes in [pdf.build_without_xref(), pdf.build_with_shifted_xref()] {
        let reading = read_plain(&bytes);
        assert_eq!(places(&reading), [("annot/URI", "https://scan.example/")]);
        assert_oracle(
            "missing_and_shifted_cross_reference",
            &bytes,
            &reading,
            None,
        );
    }
}

#[test]
fn page_text_is_extracted() {
    let bytes = Pdf::one_page("", "", "Visit https://text.example/path now").build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(reading.pages.len(), 1);
    assert_eq!(reading.pages[0].page, 1);
    assert_eq!(
        reading.pages[0].text,
        "Visit https://text.example/path now\n"
    );
    // pdftotext, when installed, sees the same words.
    if let Ok(output) = std::process::Command::new("pdftotext")
        .args(["-", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(&bytes)?;
            child.wait_with_output()
        })
    {
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains("https://text.example/path"),
            "pdftotext: {text:?}"
        );
    } else {
        crate::testing::skip_missing("page_text_is_extracted", "pdftotext");
    }
}

#[test]
fn page_text_lines_tj_arrays_and_to_unicode() {
    // Font F2 is a composite font with 2-byte codes and a ToUnicode CMap.
    let cmap = "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
        /CMapName /Test def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\n\
        endcodespacerange\n2 beginbfrange\n<0001> <001A> <0061>\n<0020> <0022> [<003A> <002F> <002E>]\n\
        endbfrange\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n";
    // "ab" then ":/." via the array range, then "z".
    let content = "BT /F1 12 Tf 72 700 Td (Line one) Tj 0 -14 Td [(Wo) -20 (rd) -300 (gap)] TJ \
                   T* /F2 12 Tf <00010002002000210022001A> Tj ET";
    let bytes = Pdf::new()
        .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        .object(
            3,
            "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>",
        )
        .object(4, stream("", content.as_bytes()))
        .object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        .object(
            6,
            "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 7 0 R >>",
        )
        .object(7, stream("", cmap.as_bytes()))
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(reading.pages[0].text, "Line one\nWord gap\nab:/.z\n");
}

#[test]
fn pages_are_numbered_in_tree_order() {
    let bytes = Pdf::new()
        .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .object(2, "<< /Type /Pages /Kids [10 0 R 3 0 R] /Count 3 >>")
        .object(10, "<< /Type /Pages /Parent 2 0 R /Kids [11 0 R 12 0 R] /Count 2 >>")
        .object(11, "<< /Type /Page /Parent 10 0 R /Annots [<< /A << /S /URI /URI (https://p1.example/) >> >>] >>")
        .object(12, "<< /Type /Page /Parent 10 0 R /Annots [<< /A << /S /URI /URI (https://p2.example/) >> >>] >>")
        .object(3, "<< /Type /Page /Parent 2 0 R /Annots [<< /A << /S /URI /URI (https://p3.example/) >> >>] >>")
        .build();
    let reading = read_plain(&bytes);
    let pages: Vec<_> = reading
        .links
        .iter()
        .map(|l| (l.target.as_str(), l.page))
        .collect();
    // Sorted by object number: page 3 (object 3) first.
    assert_eq!(
        pages,
        [
            ("https://p3.example/", Some(3)),
            ("https://p1.example/", Some(1)),
            ("https://p2.example/", Some(2)),
        ]
    );
}

#[test]
fn link_limit() {
    let annotations: String = (0..20)
        .map(|i| format!("<< /A << /S /URI /URI (https://{i}.example/) >> >> "))
        .collect();
    let bytes = Pdf::one_page("", &format!("/Annots [{annotations}]"), "x").build();
    let limits = Limits {
        max_links: 5,
        ..Limits::default()
    };
    let reading = read(&bytes, &[], &limits);
    assert_eq!(reading.links.len(), 5);
    assert_problem(&reading, ProblemKind::Limit);
}

#[test]
fn text_limit() {
    let bytes = Pdf::one_page("", "", "0123456789abcdef").build();
    let limits = Limits {
        max_text_bytes: 10,
        ..Limits::default()
    };
    let reading = read(&bytes, &[], &limits);
    assert_eq!(reading.pages[0].text, "0123456789");
}

#[test]
fn place_strings() {
    let sources = [
        (Source::Annot, "annot"),
        (Source::AnnotAa, "annot-AA"),
        (Source::OpenAction, "OpenAction"),
        (Source::Aa, "AA"),
        (Source::Field, "field"),
        (Source::Outline, "outline"),
        (Source::Object, "object"),
    ];
    let actions = [
        (ActionType::Uri, "URI"),
        (ActionType::Launch, "Launch"),
        (ActionType::GoToR, "GoToR"),
        (ActionType::GoToE, "GoToE"),
        (ActionType::SubmitForm, "SubmitForm"),
        (ActionType::ImportData, "ImportData"),
    ];
    for (source, source_name) in sources {
        for (action, action_name) in actions {
            assert_eq!(
                Place { source, action }.as_str(),
                format!("{source_name}/{action_name}")
            );
        }
    }
}

#[test]
fn page_text_in_form_xobjects_and_inherited_resources() {
    // The page inherits its resources from the page tree node; it draws form 8, which
    // draws form 9 (with its own font F2) and itself; then F1 is current again.
    let bytes = Pdf::new()
        .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .object(
            2,
            "<< /Type /Pages /Kids [3 0 R] /Count 1 \
             /Resources << /Font << /F1 5 0 R >> /XObject << /Outer 8 0 R >> >> >>",
        )
        .object(3, "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>")
        .object(4, stream("", b"BT /F1 12 Tf (Page) Tj ET /Outer Do BT (again) Tj ET"))
        .object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        .object(6, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
        .object(
            8,
            super::build::flate_stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 1 1] \
                 /Resources << /Font << /F1 5 0 R >> /XObject << /Inner 9 0 R /Me 8 0 R >> >>",
                b"BT /F1 9 Tf (Outer https://form.example/) Tj ET /Inner Do /Me Do",
            ),
        )
        .object(
            9,
            stream(
                "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /Font << /F2 6 0 R >> >>",
                b"BT /F2 9 Tf (Inner) Tj ET",
            ),
        )
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        reading.pages[0].text,
        "Page\nOuter https://form.example/\nInner\nagain\n"
    );
}

#[test]
fn renamed_names_are_restored_in_page_text() {
    let bytes = Pdf::one_page("", "", "see https://x.example/First").build();
    let reading = read_plain(&bytes);
    assert_eq!(reading.pages[0].text, "see https://x.example/First\n");
}

#[test]
fn many_pages_with_object_streams() {
    // Thousands of streams and a cross-reference stream of tens of kilobytes: lopdf must
    // get a per-stream bound large enough for it.
    if !tools::has_qpdf() {
        crate::testing::skip_missing("many_pages_with_object_streams", "qpdf");
        return;
    }
    let pages = 3000u32;
    let kids: String = (0..pages).map(|i| format!("{} 0 R ", 10 + 2 * i)).collect();
    let mut pdf = Pdf::new()
        .object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        .object(
            2,
            format!("<< /Type /Pages /Kids [{kids}] /Count {pages} >>"),
        )
        .object(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    for i in 0..pages {
        let annotation = if i == pages - 2 {
            "/Annots [<< /Subtype /Link /Rect [0 0 1 1] /A << /S /URI /URI (https://late.example/) >> >>]"
        } else {
            ""
        };
        pdf = pdf
            .object(
                10 + 2 * i,
                format!(
                    "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> \
                     /Contents {} 0 R {annotation} >>",
                    11 + 2 * i
                ),
            )
            .object(
                11 + 2 * i,
                super::build::flate_stream("", format!("BT /F1 9 Tf (page {i}) Tj ET").as_bytes()),
            );
    }
    let packed = tools::qpdf(&pdf.build(), &["--object-streams=generate"]);
    let reading = read_plain(&packed);
    assert_clean(&reading);
    assert_eq!(places(&reading), [("annot/URI", "https://late.example/")]);
    assert_eq!(
        link(&reading, "https://late.example/").page,
        Some(pages - 1)
    );
    assert_eq!(reading.pages.len(), 3000);
    assert_eq!(reading.pages[2999].text, "page 2999\n");
}

#[test]
fn filters_a_viewer_applies() {
    use super::build::{ascii_hex, ascii85, deflate, lzw_literals, png_up_rows};
    // Object stream 20: FlateDecode with the PNG Up predictor, then ASCIIHexDecode outside.
    let index = "6 0 7 60 ";
    let objects = format!(
        "{:<60}{}",
        "<< /Subtype /Link /Rect [0 0 1 1] /A 7 0 R >>",
        "<< /S /URI /URI (https://filters.example/) >>"
    );
    let content = format!("{index}{objects}");
    let encoded = ascii_hex(&deflate(&png_up_rows(content.as_bytes(), 7)));
    let page_content = ascii85(b"BT /F1 12 Tf (ascii85 https://a85.example/) Tj ET");
    let bytes = Pdf::one_page("", "/Annots [6 0 R]", "x")
        .object(
            20,
            stream(
                &format!(
                    "/Type /ObjStm /N 2 /First {} /Filter [/ASCIIHexDecode /FlateDecode] \
                     /DecodeParms [null << /Predictor 12 /Columns 7 >>]",
                    index.len()
                ),
                &encoded,
            ),
        )
        .object(
            3,
            "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> \
             /Contents [4 0 R 8 0 R] /Annots [6 0 R] >>",
        )
        .object(4, stream("/Filter /ASCII85Decode", &page_content))
        .object(
            8,
            stream(
                "/Filter /LZWDecode",
                &lzw_literals(b"BT /F1 12 Tf (lzw https://lzw.example/) Tj ET"),
            ),
        )
        .build();
    let reading = read_plain(&bytes);
    assert_clean(&reading);
    assert_eq!(
        places(&reading),
        [("annot/URI", "https://filters.example/")]
    );
    assert_eq!(
        reading.pages[0].text,
        "ascii85 https://a85.example/\nlzw https://lzw.example/\n"
    );
}
