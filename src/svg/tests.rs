//! Unit tests of the SVG scan, one rule each. Each rule was checked against Chromium
//! (`scripts/chromium-svg-links`) before it was written down here.

use pretty_assertions::assert_eq;

use super::*;
use crate::html::UrlKind;

const SVG_OPEN: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">"#;

/// The document `body` inside an `<svg>` root that binds SVG and XLink.
fn svg(body: &str) -> String {
    format!("{SVG_OPEN}{body}</svg>")
}

/// Each URL as `tag@attribute` (or `tag`), its reference, and the text at its range.
fn found(text: &str) -> Vec<(String, String, String)> {
    let scanned = scan(text, usize::MAX);
    scanned
        .scan
        .urls
        .iter()
        .map(|url| {
            let source = match url.attribute {
                Some(attribute) => format!("{}@{attribute}", url.tag),
                None => url.tag.to_string(),
            };
            let at = text[url.range.start..url.range.end].to_owned();
            (source, url.reference(text).to_owned(), at)
        })
        .collect()
}

/// `found` without the text at each range.
fn references(text: &str) -> Vec<(String, String)> {
    found(text).into_iter().map(|(s, r, _)| (s, r)).collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(s, r)| ((*s).to_owned(), (*r).to_owned()))
        .collect()
}

#[test]
fn href_and_xlink_href_of_the_four_elements_at_exact_ranges() {
    let text = svg(concat!(
        r#"<a href="a.html"><rect/></a><a xlink:href="b.html"/><image href="c.png"/>"#,
        r#"<use xlink:href="d.svg#x"/><filter><feImage href="e.png"/></filter>"#,
        r#"<linearGradient href="g.svg#g"/><textPath href="t.svg#p"/><mpath href="m.svg"/>"#,
    ));
    let urls = found(&text);
    let expected = [
        ("a@href", "a.html"),
        ("a@xlink:href", "b.html"),
        ("image@href", "c.png"),
        ("use@xlink:href", "d.svg#x"),
        ("feImage@href", "e.png"),
    ];
    assert_eq!(
        urls.iter()
            .map(|(s, r, _)| (s.clone(), r.clone()))
            .collect::<Vec<_>>(),
        pairs(&expected)
    );
    assert!(urls.iter().all(|(_, reference, at)| reference == at));
    let scanned = scan(&text, usize::MAX);
    assert_eq!(scanned.stop, None);
    assert_eq!(scanned.scan.base, None);
    assert!(scanned.values.is_empty());
}

#[test]
fn xlink_is_a_namespace_not_a_prefix() {
    let text = concat!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:q="http://www.w3.org/1999/xlink" "#,
        r#"xmlns:xlink="urn:not-xlink"><image q:href="q.png"/><image xlink:href="no.png"/>"#,
        r#"<a xmlns:x="http://www.w3.org/1999/xl&#105;nk" x:href="x.html"/></svg>"#
    );
    assert_eq!(
        references(text),
        pairs(&[("image@xlink:href", "q.png"), ("a@xlink:href", "x.html")])
    );
}

/// Chromium follows `href` when both are present; both are reported (see the module docs).
#[test]
fn both_href_and_xlink_href_are_reported() {
    let text = svg(r#"<image xlink:href="old.png" href="new.png"/>"#);
    assert_eq!(
        references(&text),
        pairs(&[("image@xlink:href", "old.png"), ("image@href", "new.png")])
    );
}

#[test]
fn names_are_case_sensitive() {
    let text = svg(concat!(
        r#"<A href="1"/><IMAGE href="2"/><feimage href="3"/><image HREF="4"/>"#,
        r#"<image xlink:HREF="5"/><Use href="6"/>"#
    ));
    assert_eq!(references(&text), []);
}

#[test]
fn only_the_svg_and_xhtml_namespaces_hold_urls() {
    assert_eq!(references(r#"<svg><image href="no-ns.png"/></svg>"#), []);
    let text = svg(concat!(
        r#"<image xmlns="urn:other" href="other.png"/><g xmlns=""><image href="none.png"/></g>"#,
        r#"<s:image xmlns:s="http://www.w3.org/2000/svg" href="prefixed.png"/>"#,
        r#"<image s:href="svg-ns-attribute.png" xmlns:s="http://www.w3.org/2000/svg"/>"#,
    ));
    assert_eq!(references(&text), pairs(&[("image@href", "prefixed.png")]));
}

#[test]
fn style_and_presentation_attributes_are_css() {
    let text = svg(concat!(
        r#"<rect style="fill: url('s.svg#p'); filter:url(f.svg#f)"/>"#,
        r#"<rect fill="url(#local)" stroke="url(k.svg#g)" mask="url(m.svg#m)"/>"#,
        r#"<path marker-end="url(e.svg#m)" clip-path="url(c.svg#c)" cursor="url(c.png), auto"/>"#,
        r#"<rect FILL="url(upper.svg#g)" background-image="url(not-presentation.png)"/>"#,
    ));
    let urls = found(&text);
    assert_eq!(
        urls.iter()
            .map(|(s, r, _)| (s.clone(), r.clone()))
            .collect::<Vec<_>>(),
        pairs(&[
            ("rect@style", "s.svg#p"),
            ("rect@style", "f.svg#f"),
            ("rect@fill", "#local"),
            ("rect@stroke", "k.svg#g"),
            ("rect@mask", "m.svg#m"),
            ("path@marker-end", "e.svg#m"),
            ("path@clip-path", "c.svg#c"),
            ("path@cursor", "c.png"),
        ])
    );
    assert!(urls.iter().all(|(_, reference, at)| reference == at));
    let scanned = scan(&text, usize::MAX);
    assert!(
        scanned
            .scan
            .urls
            .iter()
            .all(|u| u.kind == UrlKind::StyleAttribute)
    );
}

#[test]
fn style_element_text_with_cdata_at_exact_ranges() {
    let text = svg(concat!(
        "<style><![CDATA[@import 'i.css'; svg { background: url(b.png) }]]></style>",
        "<style>@import url(u.css); p { x: image-set(\"s.png\" 1x) }</style>",
    ));
    let urls = found(&text);
    assert_eq!(
        urls.iter()
            .map(|(s, r, _)| (s.clone(), r.clone()))
            .collect::<Vec<_>>(),
        pairs(&[
            ("style", "i.css"),
            ("style", "b.png"),
            ("style", "u.css"),
            ("style", "s.png")
        ])
    );
    assert!(urls.iter().all(|(_, reference, at)| reference == at));
    let scanned = scan(&text, usize::MAX);
    assert!(scanned.values.is_empty());
    assert!(scanned.scan.urls.iter().all(|u| u.value.is_none()));
}

/// The style sheet is the text of the element's text and CDATA children: comments and child
/// elements add nothing, references their characters. A URL split by them is not at an
/// exact range: every URL of that element gets the element's content, and the decoded text.
#[test]
fn style_element_text_across_markup_gets_the_whole_content() {
    let content = "x{a:url(ke<!-- c -->pt.png)} y{b:url(ch<g>ignored</g>ild.png)} \
                   z{c:url(r&#46;png)} w{d:url(exact.png)} v{e:url(c<![CDATA[d]]>a.png)}";
    let text = svg(&format!("<style>{content}</style>"));
    let scanned = scan(&text, usize::MAX);
    let refs: Vec<&str> = scanned
        .scan
        .urls
        .iter()
        .map(|u| u.reference(&text))
        .collect();
    assert_eq!(
        refs,
        ["kept.png", "child.png", "r.png", "exact.png", "cda.png"]
    );
    let start = text.find(content).unwrap();
    let whole = ByteRange::from(start..start + content.len());
    assert!(
        scanned
            .scan
            .urls
            .iter()
            .all(|u| u.range == whole && u.value == Some(whole))
    );
    assert_eq!(
        scanned.values,
        [SvgValue {
            range: whole,
            text: ValueText::Decoded(
                "x{a:url(kept.png)} y{b:url(child.png)} z{c:url(r.png)} w{d:url(exact.png)} \
                 v{e:url(cda.png)}"
                    .to_owned()
            ),
        }]
    );
}

#[test]
fn references_in_values_decode_and_the_range_is_the_whole_value() {
    let text = svg(r#"<image href=" a.png?x=1&amp;y=&#x32; "/><a href="&lt;&#60;"/>"#);
    let urls = found(&text);
    assert_eq!(urls[0].1, "a.png?x=1&y=2");
    assert_eq!(urls[0].2, " a.png?x=1&amp;y=&#x32; ");
    assert_eq!(urls[1].1, "<<");
    let scanned = scan(&text, usize::MAX);
    assert_eq!(
        scanned.values.first().map(|v| &v.text),
        Some(&ValueText::Decoded(" a.png?x=1&y=2 ".to_owned()))
    );
}

/// XML 1.0 §3.3.3: each white space character of a value becomes a space (CR LF one),
/// then the URL is trimmed; a character reference keeps its character.
#[test]
fn attribute_value_normalization() {
    let text =
        svg("<image href=\"a\nb\tc.png\"/><image href=\"d\r\ne.png\"/><a href=\"f&#10;g\"/>");
    let urls = found(&text);
    // Tab and LF become spaces one for one: the range is exact, the reference differs.
    assert_eq!(
        (urls[0].1.as_str(), urls[0].2.as_str()),
        ("a b c.png", "a\nb\tc.png")
    );
    // CR LF becomes one space: offsets no longer map, the range is the whole value.
    assert_eq!(
        (urls[1].1.as_str(), urls[1].2.as_str()),
        ("d e.png", "d\r\ne.png")
    );
    assert_eq!(urls[2].1, "f\ng");
}

#[test]
fn internal_entities_in_values_and_content() {
    let text = concat!(
        "<!DOCTYPE svg [\n<!ENTITY host \"http://e.example\">\n<!ENTITY path \"&host;/p.png\">\n",
        "<!ENTITY img \"<image href='&host;/in-entity.png'/><a href='x.html'/>\">\n",
        "<!ENTITY css 'url(c.png)'>\n]>\n",
        r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="&path;"/>&img;"#,
        "<style>p{b:&css;}</style></svg>"
    );
    let scanned = scan(text, usize::MAX);
    assert_eq!(scanned.stop, None);
    let urls: Vec<(&str, &str)> = scanned
        .scan
        .urls
        .iter()
        .map(|u| (u.reference(text), &text[u.range.start..u.range.end]))
        .collect();
    assert_eq!(
        urls,
        [
            ("http://e.example/p.png", "&path;"),
            ("http://e.example/in-entity.png", "&img;"),
            ("x.html", "&img;"),
            // A `<style>` whose text holds a reference: its whole content.
            ("c.png", "p{b:&css;}"),
        ]
    );
    let entity = text.find("&img;").unwrap();
    assert!(scanned.values.contains(&SvgValue {
        range: ByteRange::from(entity..entity + 5),
        text: ValueText::Entity
    }));
}

#[test]
fn undeclared_entities_stop_unless_the_dtd_is_external() {
    let body = r#"<image href="1.png"/><image href="nb&nbsp;sp.png"/><image href="3.png"/>"#;
    let text = svg(body);
    let scanned = scan(&text, usize::MAX);
    assert_eq!(references(&text), pairs(&[("image@href", "1.png")]));
    let at = text.find("<image href=\"nb").unwrap();
    assert_eq!(
        scanned.stop,
        Some(Stop {
            at,
            reason: StopReason::UndeclaredEntity
        })
    );
    // With an external subset, libxml2 warns and drops the reference.
    let external = format!(
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"svg11.dtd\">{}",
        svg(body)
    );
    assert_eq!(
        references(&external),
        pairs(&[
            ("image@href", "1.png"),
            ("image@href", "nbsp.png"),
            ("image@href", "3.png")
        ])
    );
}

#[test]
fn links_before_a_well_formedness_error_count() {
    let body = r#"<image href="before.png"/><g><rect></g><image href="after.png"/>"#;
    let text = svg(body);
    let scanned = scan(&text, usize::MAX);
    assert_eq!(references(&text), pairs(&[("image@href", "before.png")]));
    assert_eq!(
        scanned.stop,
        Some(Stop {
            at: text.find("</g>").unwrap(),
            reason: StopReason::NotWellFormed
        })
    );
    // The element whose start tag holds the error is not made.
    for bad in [
        r#"<image href="x.png" href="y.png"/>"#,
        r#"<image href="x<.png"/>"#,
        r#"<image href="x.png" bad/>"#,
        r#"<image href="x.png"width="1"/>"#,
        r#"<image href=x.png/>"#,
        r#"<image href="a&b.png"/>"#,
        r#"<image href="&#xC;.png"/>"#,
    ] {
        let text = svg(&format!(
            r#"<image href="ok.png"/>{bad}<image href="after.png"/>"#
        ));
        assert_eq!(
            references(&text),
            pairs(&[("image@href", "ok.png")]),
            "{bad}"
        );
    }
    for bad in [
        "<text>a & b</text>",
        "<text>]]></text>",
        "<!-- a -- b -->",
        "<1a/>",
        "<?XML x?>",
        "<!DOCTYPE svg>",
    ] {
        let text = svg(&format!(
            r#"<image href="ok.png"/>{bad}<image href="after.png"/>"#
        ));
        assert_eq!(
            references(&text),
            pairs(&[("image@href", "ok.png")]),
            "{bad}"
        );
    }
}

#[test]
fn an_invalid_character_stops_where_it_is() {
    let text = svg("<image href=\"ok.png\"/><text>a\u{1}b</text><image href=\"after.png\"/>");
    let scanned = scan(&text, usize::MAX);
    assert_eq!(references(&text), pairs(&[("image@href", "ok.png")]));
    assert_eq!(
        scanned.stop,
        Some(Stop {
            at: text.find('\u{1}').unwrap(),
            reason: StopReason::InvalidChar
        })
    );
}

/// Chromium cannot name an attribute whose prefix is undeclared and stops; an element's
/// undeclared prefix puts it in no namespace, and reading goes on.
#[test]
fn undeclared_prefixes() {
    let text = concat!(
        r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="1.png"/><u:g/>"#,
        r#"<image href="2.png"/><image xlink:href="3.png"/><image href="4.png"/></svg>"#
    );
    assert_eq!(
        references(text),
        pairs(&[("image@href", "1.png"), ("image@href", "2.png")])
    );
    assert_eq!(
        scan(text, usize::MAX).stop.map(|s| s.reason),
        Some(StopReason::UndeclaredPrefix)
    );
}

#[test]
fn content_outside_the_root_element_stops() {
    assert_eq!(
        references(&format!("junk{}", svg(r#"<image href="a.png"/>"#))),
        []
    );
    let text = format!(
        "{}<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
        svg(r#"<image href="a.png"/>"#)
    );
    let scanned = scan(&text, usize::MAX);
    assert_eq!(scanned.scan.urls.len(), 1);
    assert_eq!(
        scanned.stop.map(|s| s.reason),
        Some(StopReason::NotWellFormed)
    );
    // An XML declaration only at the very start (after a byte order mark).
    let declared = format!(
        "\u{FEFF}<?xml version=\"1.0\"?>\n{}",
        svg(r#"<image href="a.png"/>"#)
    );
    assert_eq!(scan(&declared, usize::MAX).stop, None);
    assert_eq!(
        references(&format!(
            "\n<?xml version=\"1.0\"?>{}",
            svg(r#"<image href="a.png"/>"#)
        )),
        []
    );
}

#[test]
fn xhtml_elements_are_html_wherever_they_are() {
    let text = svg(concat!(
        r#"<foreignObject><div xmlns="http://www.w3.org/1999/xhtml" style="background:url(d.png)">"#,
        r#"<a href="x.html">x</a><img src="i.png" srcset="s.png 2x"/><A href="no.html"/>"#,
        r#"<meta http-equiv="Refresh" content="0; url=r.html"/><meta content="0; url=no.html"/>"#,
        r#"<style>p{b:url(st.png)}</style></div></foreignObject>"#,
        r#"<a xmlns="http://www.w3.org/1999/xhtml" href="outside.html"/>"#
    ));
    assert_eq!(
        references(&text),
        pairs(&[
            ("div@style", "d.png"),
            ("a@href", "x.html"),
            ("img@src", "i.png"),
            ("img@srcset", "s.png"),
            ("meta@content", "r.html"),
            ("style", "st.png"),
            ("a@href", "outside.html"),
        ])
    );
}

/// The first XHTML `<base href>` outside `<template>` is the document's base; Chromium
/// applies it to every URL, those before it too.
#[test]
fn the_first_xhtml_base_is_the_base() {
    let text = svg(concat!(
        r#"<image href="a.png"/><foreignObject><template xmlns="http://www.w3.org/1999/xhtml">"#,
        r#"<base href="http://template/"/></template>"#,
        r#"<base xmlns="http://www.w3.org/1999/xhtml" href="http://base/"/>"#,
        r#"<base xmlns="http://www.w3.org/1999/xhtml" href="http://second/"/></foreignObject>"#,
        r#"<base href="http://svg-base-is-nothing/"/>"#
    ));
    let scanned = scan(&text, usize::MAX);
    assert_eq!(scanned.scan.base_reference(&text), Some("http://base/"));
    assert_eq!(references(&svg(r#"<base href="http://svg/"/>"#)), []);
    // `xml:base` is not honoured (Chromium removed it): no base.
    let xml_base = svg(r#"<g xml:base="http://xml-base/"><image href="a.png"/></g>"#);
    assert_eq!(
        scan(&xml_base, usize::MAX).scan.base_reference(&xml_base),
        None
    );
}

/// Scripting is off: `<script href>` is not followed; its content is markup in XML, and an
/// element there is made (and loads) like any other.
#[test]
fn script_is_skipped_but_its_child_elements_are_not() {
    let text = svg(concat!(
        r#"<script href="s.js"/><script xlink:href="x.js"/>"#,
        r#"<script><![CDATA[ "<image href='in-cdata.png'/>" ]]><image href="child.png"/></script>"#
    ));
    assert_eq!(references(&text), pairs(&[("image@href", "child.png")]));
}

#[test]
fn xml_stylesheet_processing_instructions() {
    let text = format!(
        "{}\n{}\n{}\n{}\n{}\n{}<?xml-stylesheet href=\"inside.css\"?></svg>\n{}",
        "<?xml-stylesheet href=\"plain.css\"?>",
        "<?xml-stylesheet type=\"text/css\" href=\"a&amp;b.css\"?>",
        "<?xml-stylesheet type=\"text/plain\" href=\"no-type.css\"?>",
        "<?xml-stylesheet href=\"alt.css\" alternate=\"yes\"?>",
        "<?xml-stylesheet href=\"bad.css\" broken?>",
        SVG_OPEN,
        "<?xml-stylesheet type=\"text/xsl\" href=\"after.xsl\"?>",
    );
    assert_eq!(
        references(&text),
        pairs(&[
            ("xml-stylesheet@href", "plain.css"),
            ("xml-stylesheet@href", "a&b.css"),
            ("xml-stylesheet@href", "after.xsl"),
        ])
    );
}

#[test]
fn attribute_list_defaults_are_attributes() {
    let text = concat!(
        "<!DOCTYPE svg [<!ATTLIST image href CDATA \"default.png\">",
        "<!ATTLIST a xmlns:l CDATA #FIXED \"http://www.w3.org/1999/xlink\" l:href CDATA 'd.html'>]>",
        r#"<svg xmlns="http://www.w3.org/2000/svg"><image/><image href="own.png"/><a/></svg>"#
    );
    let urls = found(text);
    assert_eq!(
        urls,
        [
            (
                "image@href".to_owned(),
                "default.png".to_owned(),
                "default.png".to_owned()
            ),
            (
                "a@xlink:href".to_owned(),
                "d.html".to_owned(),
                "d.html".to_owned()
            ),
            (
                "image@href".to_owned(),
                "own.png".to_owned(),
                "own.png".to_owned()
            ),
        ]
    );
}

#[test]
fn the_limit_on_recorded_urls() {
    let text = svg(concat!(
        r#"<image href="1.png"/><image href="2.png"/><image href="3.png"/>"#,
        r#"<foreignObject><base xmlns="http://www.w3.org/1999/xhtml" href="http://b/"/></foreignObject>"#
    ));
    let scanned = scan(&text, 2);
    assert_eq!(scanned.scan.urls.len(), 2);
    assert_eq!(scanned.scan.not_recorded, 2);
    assert_eq!(scanned.scan.base, None);
    assert_eq!(scanned.scan.base_reference(&text), Some("http://b/"));
}

#[test]
fn nesting_deeper_than_chromium_reads_stops() {
    let deep = |depth: usize| {
        svg(&format!(
            "{}<image href=\"in.png\"/>{}",
            "<g>".repeat(depth - 2),
            "</g>".repeat(depth - 2)
        ))
    };
    // The root is at depth 1, the image at `depth`.
    assert_eq!(
        references(&deep(MAX_DEPTH)),
        pairs(&[("image@href", "in.png")])
    );
    let scanned = scan(&deep(MAX_DEPTH + 1), usize::MAX);
    assert!(scanned.scan.urls.is_empty());
    assert_eq!(scanned.stop.map(|s| s.reason), Some(StopReason::TooDeep));
}

#[test]
fn entity_expansion_is_bounded() {
    let mut dtd = String::from("<!DOCTYPE svg [<!ENTITY a0 \"aaaaaaaaaa\">");
    for level in 1..10 {
        let previous = format!("&a{};", level - 1);
        dtd.push_str(&format!("<!ENTITY a{level} \"{}\">", previous.repeat(10)));
    }
    dtd.push(']');
    dtd.push('>');
    let text = format!(
        "{dtd}<svg xmlns=\"http://www.w3.org/2000/svg\"><image href=\"ok.png\"/>\
         <image href=\"&a9;\"/><g>&a9;</g></svg>"
    );
    let scanned = scan(&text, usize::MAX);
    assert_eq!(references(&text), pairs(&[("image@href", "ok.png")]));
    assert_eq!(
        scanned.stop.map(|s| s.reason),
        Some(StopReason::EntityBudget)
    );
    let looping = "<!DOCTYPE svg [<!ENTITY a \"&b;\"><!ENTITY b \"<g>&a;</g>\">]>\
                   <svg xmlns=\"http://www.w3.org/2000/svg\"><g>&a;</g></svg>";
    assert_eq!(
        scan(looping, usize::MAX).stop.map(|s| s.reason),
        Some(StopReason::EntityLoop)
    );
}

#[test]
fn ranges_are_byte_offsets_in_non_ascii_text() {
    let text = svg("<text>日本語</text><image href=\"ü.png\"/>");
    assert_eq!(found(&text)[0].2, "ü.png");
}

/// A default applied to many elements is taken from the same budget as entity expansion.
#[test]
fn attribute_defaults_applied_many_times_are_bounded() {
    let long = "x".repeat(100_000);
    let text = format!(
        "<!DOCTYPE svg [<!ATTLIST rect style CDATA \"fill:url(p.svg#{long})\">]>{}",
        svg(&"<rect/>".repeat(40))
    );
    let scanned = scan(&text, usize::MAX);
    assert_eq!(
        scanned.stop.map(|s| s.reason),
        Some(StopReason::EntityBudget)
    );
    assert!(!scanned.scan.urls.is_empty() && scanned.scan.urls.len() < 40);
}

/// A tag with many attributes: duplicates are still found, defaults still yield to them.
#[test]
fn tags_with_many_attributes() {
    let many: String = (0..40).map(|i| format!(" a{i}=\"{i}\"")).collect();
    let text = format!(
        "<!DOCTYPE svg [<!ATTLIST image href CDATA \"default.png\">]>{}",
        svg(&format!(
            "<image{many} href=\"own.png\"/><image{many}/><image{many} a7=\"again\"/><image href=\"no.png\"/>"
        ))
    );
    // Sorted by range: the default's lies in the DTD.
    assert_eq!(
        references(&text),
        pairs(&[("image@href", "default.png"), ("image@href", "own.png")])
    );
    assert_eq!(
        scan(&text, usize::MAX).stop.map(|s| s.reason),
        Some(StopReason::NotWellFormed)
    );
}
