//! Which `<base href>` is an HTML `<base>`, and so the document's base (the crate docs' base
//! precedence step 1): the HTML Standard's tree construction puts a `<base>` in the HTML
//! namespace only outside foreign content, inside an [HTML integration point] or a [MathML
//! text integration point], or after a start tag that breaks out of foreign content (the
//! rules for [parsing tokens in foreign content]); never inside `<template>`.
//!
//! Every expected value is Chromium's: Chromium 156.0.8078.79 (Debian 12 package `chromium`),
//! headless, loaded each document as an `<iframe srcdoc>` and again with `DOMParser`, and
//! reported `document.baseURI` (`scripts/chromium-base-uri` does this; both ways agreed on
//! every case). `true`: Chromium's base URI is the `<base href>`, `http://html.example/`.
//! Chromium is not needed to run this test.
//!
//! [HTML integration point]: https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point
//! [MathML text integration point]: https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point
//! [parsing tokens in foreign content]: https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign

use mimebase::{BaseIgnored, BaseSource, Options, analyze};

/// Where `{B}` stands in a document.
const BASE: &str = r#"<base href="http://html.example/">"#;

/// (document, whether Chromium takes its `<base href>` as the document's base URL).
const CHROMIUM: &[(&str, bool)] = &[
    // MathML text integration points: MathML mi, mo, mn, ms, mtext, and no other element; there
    // `mglyph` and `malignmark` stay MathML, and `<svg>` is SVG.
    (r#"<math><title>{B}</title></math>"#, false),
    (r#"<math><mi>{B}</mi></math>"#, true),
    (r#"<math><mo>{B}</mo></math>"#, true),
    (r#"<math><mn>{B}</mn></math>"#, true),
    (r#"<math><ms>{B}</ms></math>"#, true),
    (r#"<math><mtext>{B}</mtext></math>"#, true),
    (r#"<math><mi><mglyph>{B}</mglyph></mi></math>"#, false),
    (
        r#"<math><mi><malignmark>{B}</malignmark></mi></math>"#,
        false,
    ),
    (r#"<math><mi><svg>{B}</svg></mi></math>"#, false),
    (r#"<math><desc>{B}</desc></math>"#, false),
    (r#"<math><foreignObject>{B}</foreignObject></math>"#, false),
    (r#"<math><semantics><mi>{B}</mi></semantics></math>"#, true),
    (r#"<math>{B}</math>"#, false),
    // HTML integration points: MathML annotation-xml whose encoding is text/html or
    // application/xhtml+xml, ASCII case-insensitive, nothing trimmed, character references
    // decoded; an `<svg>` in any annotation-xml is SVG.
    (
        r#"<math><annotation-xml encoding="text/html">{B}</annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml encoding="TEXT/HTML">{B}</annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml encoding="application/xhtml+xml">{B}</annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml encoding="Application/XHTML+XML">{B}</annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml encoding="text&#x2F;html">{B}</annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml>{B}</annotation-xml></math>"#,
        false,
    ),
    (
        r#"<math><annotation-xml encoding=" text/html">{B}</annotation-xml></math>"#,
        false,
    ),
    (
        r#"<math><annotation-xml encoding="text/html; charset=utf-8">{B}</annotation-xml></math>"#,
        false,
    ),
    (
        r#"<math><annotation-xml encoding="image/svg+xml">{B}</annotation-xml></math>"#,
        false,
    ),
    (
        r#"<math><annotation-xml definitionURL="x" encoding="text/html">{B}</annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml encoding="text/html"/>{B}</math>"#,
        false,
    ),
    (
        r#"<math><annotation-xml><svg><foreignObject>{B}</foreignObject></svg></annotation-xml></math>"#,
        true,
    ),
    (
        r#"<math><annotation-xml><svg>{B}</svg></annotation-xml></math>"#,
        false,
    ),
    (
        r#"<math><annotation-xml><svg><desc>{B}</desc></svg></annotation-xml></math>"#,
        true,
    ),
    // HTML integration points: SVG foreignObject, desc and title; no other SVG element, and no
    // MathML name in SVG.
    (r#"<svg><foreignObject>{B}</foreignObject></svg>"#, true),
    (r#"<svg><foreignobject>{B}</foreignobject></svg>"#, true),
    (r#"<svg><desc>{B}</desc></svg>"#, true),
    (r#"<svg><title>{B}</title></svg>"#, true),
    (r#"<svg><g><title>{B}</title></g></svg>"#, true),
    (r#"<svg>{B}</svg>"#, false),
    (r#"<svg><g>{B}</g></svg>"#, false),
    (r#"<svg><mi>{B}</mi></svg>"#, false),
    (
        r#"<svg><annotation-xml encoding="text/html">{B}</annotation-xml></svg>"#,
        false,
    ),
    (r#"<svg><title/>{B}</svg>"#, false),
    (
        r#"<svg><foreignObject><svg>{B}</svg></foreignObject></svg>"#,
        false,
    ),
    (
        r#"<svg><foreignObject><math><mi>{B}</mi></math></foreignObject></svg>"#,
        true,
    ),
    (
        r#"<svg><foreignObject><div><p>{B}</p></div></foreignObject></svg>"#,
        true,
    ),
    (r#"<svg><a>{B}</a></svg>"#, false),
    (r#"<svg><section>{B}</section></svg>"#, false),
    (r#"<svg><textarea>{B}</textarea></svg>"#, false),
    (r#"<svg><style>{B}</style></svg>"#, false),
    // Breakout: font with a color, face or size attribute (any case, after others too).
    (r#"<svg><font color="red">{B}</font></svg>"#, true),
    (r#"<svg><font face="x">{B}</font></svg>"#, true),
    (r#"<svg><font size="1">{B}</font></svg>"#, true),
    (r#"<svg><font SIZE="1">{B}</font></svg>"#, true),
    (r#"<svg><font>{B}</font></svg>"#, false),
    (
        r#"<svg><font id="x" style="color:red">{B}</font></svg>"#,
        false,
    ),
    (
        r#"<svg><font style="background:url(x.png)" color="red">{B}</font></svg>"#,
        true,
    ),
    (r#"<math><font color="red">{B}</font></math>"#, true),
    // End tags before the base: `</p>` and `</br>` break out, down to an integration point; an
    // end tag read by the rules of HTML content (the current node is HTML) closes nothing
    // beyond an integration point.
    (
        r#"<math><annotation-xml encoding="text/html"></annotation-xml>{B}</math>"#,
        false,
    ),
    (r#"<svg><desc></desc>{B}</svg>"#, false),
    (r#"<svg></p>{B}</svg>"#, true),
    (r#"<svg></br>{B}</svg>"#, true),
    (r#"<svg><g></p>{B}</g></svg>"#, true),
    (r#"<math><mi></p>{B}</mi></math>"#, true),
    (r#"<svg><foreignObject></foreignObject></svg>{B}"#, true),
    (
        r#"<svg><foreignObject><p>x</p></foreignObject>{B}</svg>"#,
        false,
    ),
    (r#"<math><mi></mi>{B}</math>"#, false),
    (r#"<math><mi></p></mi>{B}</math>"#, false),
    (r#"<svg><desc></br></desc>{B}</svg>"#, false),
    (
        r#"<svg><foreignObject><div></foreignObject>{B}</svg>"#,
        true,
    ),
    (r#"<svg><foreignObject><div></svg>{B}"#, true),
    (r#"<svg><foreignObject></svg>{B}"#, true),
    (r#"<div><svg></div>{B}"#, true),
    (r#"<svg><foreignObject><p><svg></p>{B}"#, true),
    (r#"<svg><foreignObject><div><svg><g></div>{B}</svg>"#, true),
    (r#"<svg><g></svg>{B}"#, true),
    (r#"<math><mi><b></mi>{B}"#, true),
    // Templates: their content is not the document's.
    (
        r#"<svg><foreignObject><template>{B}</template></foreignObject></svg>"#,
        false,
    ),
    (r#"<template>{B}</template>"#, false),
    (
        r#"<template><svg><foreignObject>{B}</foreignObject></svg></template>"#,
        false,
    ),
    (r#"<svg><template>{B}</template></svg>"#, false),
    // Every breakout start tag, in SVG and in MathML.
    (r#"<svg><b>{B}</svg>"#, true),
    (r#"<math><b>{B}</math>"#, true),
    (r#"<svg><big>{B}</svg>"#, true),
    (r#"<math><big>{B}</math>"#, true),
    (r#"<svg><blockquote>{B}</svg>"#, true),
    (r#"<math><blockquote>{B}</math>"#, true),
    (r#"<svg><body>{B}</svg>"#, true),
    (r#"<math><body>{B}</math>"#, true),
    (r#"<svg><br>{B}</svg>"#, true),
    (r#"<math><br>{B}</math>"#, true),
    (r#"<svg><center>{B}</svg>"#, true),
    (r#"<math><center>{B}</math>"#, true),
    (r#"<svg><code>{B}</svg>"#, true),
    (r#"<math><code>{B}</math>"#, true),
    (r#"<svg><dd>{B}</svg>"#, true),
    (r#"<math><dd>{B}</math>"#, true),
    (r#"<svg><div>{B}</svg>"#, true),
    (r#"<math><div>{B}</math>"#, true),
    (r#"<svg><dl>{B}</svg>"#, true),
    (r#"<math><dl>{B}</math>"#, true),
    (r#"<svg><dt>{B}</svg>"#, true),
    (r#"<math><dt>{B}</math>"#, true),
    (r#"<svg><em>{B}</svg>"#, true),
    (r#"<math><em>{B}</math>"#, true),
    (r#"<svg><embed>{B}</svg>"#, true),
    (r#"<math><embed>{B}</math>"#, true),
    (r#"<svg><h1>{B}</svg>"#, true),
    (r#"<math><h1>{B}</math>"#, true),
    (r#"<svg><h2>{B}</svg>"#, true),
    (r#"<math><h2>{B}</math>"#, true),
    (r#"<svg><h3>{B}</svg>"#, true),
    (r#"<math><h3>{B}</math>"#, true),
    (r#"<svg><h4>{B}</svg>"#, true),
    (r#"<math><h4>{B}</math>"#, true),
    (r#"<svg><h5>{B}</svg>"#, true),
    (r#"<math><h5>{B}</math>"#, true),
    (r#"<svg><h6>{B}</svg>"#, true),
    (r#"<math><h6>{B}</math>"#, true),
    (r#"<svg><head>{B}</svg>"#, true),
    (r#"<math><head>{B}</math>"#, true),
    (r#"<svg><hr>{B}</svg>"#, true),
    (r#"<math><hr>{B}</math>"#, true),
    (r#"<svg><i>{B}</svg>"#, true),
    (r#"<math><i>{B}</math>"#, true),
    (r#"<svg><img>{B}</svg>"#, true),
    (r#"<math><img>{B}</math>"#, true),
    (r#"<svg><li>{B}</svg>"#, true),
    (r#"<math><li>{B}</math>"#, true),
    (r#"<svg><listing>{B}</svg>"#, true),
    (r#"<math><listing>{B}</math>"#, true),
    (r#"<svg><menu>{B}</svg>"#, true),
    (r#"<math><menu>{B}</math>"#, true),
    (r#"<svg><meta>{B}</svg>"#, true),
    (r#"<math><meta>{B}</math>"#, true),
    (r#"<svg><nobr>{B}</svg>"#, true),
    (r#"<math><nobr>{B}</math>"#, true),
    (r#"<svg><ol>{B}</svg>"#, true),
    (r#"<math><ol>{B}</math>"#, true),
    (r#"<svg><p>{B}</svg>"#, true),
    (r#"<math><p>{B}</math>"#, true),
    (r#"<svg><pre>{B}</svg>"#, true),
    (r#"<math><pre>{B}</math>"#, true),
    (r#"<svg><ruby>{B}</svg>"#, true),
    (r#"<math><ruby>{B}</math>"#, true),
    (r#"<svg><s>{B}</svg>"#, true),
    (r#"<math><s>{B}</math>"#, true),
    (r#"<svg><small>{B}</svg>"#, true),
    (r#"<math><small>{B}</math>"#, true),
    (r#"<svg><span>{B}</svg>"#, true),
    (r#"<math><span>{B}</math>"#, true),
    (r#"<svg><strong>{B}</svg>"#, true),
    (r#"<math><strong>{B}</math>"#, true),
    (r#"<svg><strike>{B}</svg>"#, true),
    (r#"<math><strike>{B}</math>"#, true),
    (r#"<svg><sub>{B}</svg>"#, true),
    (r#"<math><sub>{B}</math>"#, true),
    (r#"<svg><sup>{B}</svg>"#, true),
    (r#"<math><sup>{B}</math>"#, true),
    (r#"<svg><table>{B}</svg>"#, true),
    (r#"<math><table>{B}</math>"#, true),
    (r#"<svg><tt>{B}</svg>"#, true),
    (r#"<math><tt>{B}</math>"#, true),
    (r#"<svg><u>{B}</svg>"#, true),
    (r#"<math><u>{B}</math>"#, true),
    (r#"<svg><ul>{B}</svg>"#, true),
    (r#"<math><ul>{B}</math>"#, true),
    (r#"<svg><var>{B}</svg>"#, true),
    (r#"<math><var>{B}</math>"#, true),
];

/// The cases where the scan knowingly differs from Chromium, with the reason. The scan keeps
/// only the elements open inside foreign content, not the HTML elements around it: an end tag
/// that closes none of them and names an HTML element would close, with everything inside,
/// an open element of that name around the foreign content (the rules for parsing tokens in
/// foreign content hand it to the rules of HTML content), or be ignored when there is none;
/// the scan cannot tell the two apart and leaves the foreign content open.
const KNOWN_DIFFERENCES: &[&str] = &["<div><svg></div>{B}"];

/// Whether `analyze` takes the `<base href>` of `document`, sent as the body of a
/// `text/html` message with a `Content-Base`, as the part's base.
fn takes_the_base(document: &str) -> bool {
    let message = format!(
        "Content-Base: http://header.example/\nContent-Type: text/html\n\n{}<a href=\"x\">x</a>\n",
        document.replace("{B}", BASE)
    );
    let report = analyze(message.as_bytes(), &Options::new());
    let base = &report.entities[0].base;
    // The `<base href>`'s own record says whether it applies, and if not, why.
    let ignored = report
        .urls
        .iter()
        .find(|u| u.reference == "http://html.example/")
        .map(|u| u.ignored)
        .unwrap_or_else(|| panic!("{document}: no record of the <base href>"));
    let expected_reasons: &[Option<BaseIgnored>] = if base.source == BaseSource::HtmlBase {
        &[None]
    } else if document.contains("<template>") {
        &[
            Some(BaseIgnored::InTemplate),
            Some(BaseIgnored::ForeignContent),
        ]
    } else {
        &[Some(BaseIgnored::ForeignContent)]
    };
    assert!(
        expected_reasons.contains(&ignored),
        "{document}: ignored {ignored:?}"
    );
    let resolved_x = report
        .urls
        .iter()
        .find(|u| u.reference == "x")
        .and_then(|u| u.resolution.resolved());
    match base.source {
        BaseSource::HtmlBase => {
            assert_eq!(
                base.url.as_deref(),
                Some("http://html.example/"),
                "{document}"
            );
            assert_eq!(resolved_x, Some("http://html.example/x"), "{document}");
            true
        }
        _ => {
            assert_eq!(resolved_x, Some("http://header.example/x"), "{document}");
            false
        }
    }
}

#[test]
fn html_base_as_chromium_finds_it() {
    let wrong: Vec<String> = CHROMIUM
        .iter()
        .filter(|(document, chromium)| {
            (takes_the_base(document) != *chromium) != KNOWN_DIFFERENCES.contains(document)
        })
        .map(|(document, chromium)| {
            let known = KNOWN_DIFFERENCES.contains(document);
            format!("{document}: Chromium says {chromium} (a listed known difference: {known})")
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // Both answers occur, and every case holds the base.
    assert!(CHROMIUM.iter().any(|(_, yes)| *yes) && CHROMIUM.iter().any(|(_, yes)| !*yes));
    assert!(
        CHROMIUM
            .iter()
            .all(|(document, _)| document.contains("{B}"))
    );
    for known in KNOWN_DIFFERENCES {
        assert!(
            CHROMIUM.iter().any(|(document, _)| document == known),
            "{known}"
        );
    }
}
