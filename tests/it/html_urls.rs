//! Every URL attribute and CSS form a browser loads from (HTML standard, SVG 2, CSS), one small
//! message each under `tests/data/html-urls/`, checked through the public `analyze` with the
//! message as written (LF) and with CRLF line endings.

use mimebase::{Options, UrlSource, analyze};
use pretty_assertions::assert_eq;

use crate::support::{root, to_crlf};

/// `(source, reference, resolved)` of every HTML URL of `tests/data/html-urls/NAME.eml`, the
/// same with LF and with CRLF line endings.
#[track_caller]
fn html_urls(name: &str) -> Vec<(String, String, Option<String>)> {
    let path = root()
        .join("tests/data/html-urls")
        .join(format!("{name}.eml"));
    let lf = std::fs::read(&path).unwrap();
    let crlf = to_crlf(&lf);
    let [from_lf, from_crlf] = [lf, crlf].map(|message| {
        analyze(&message, &Options::new())
            .urls
            .into_iter()
            .filter(|u| matches!(u.source, UrlSource::Html { .. }))
            .map(|u| {
                (
                    u.source.to_string(),
                    u.reference,
                    u.resolution.into_resolved(),
                )
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(from_lf, from_crlf, "{name}: LF and CRLF differ");
    from_lf
}

#[track_caller]
fn check(name: &str, expected: &[(&str, &str, &str)]) {
    let expected: Vec<_> = expected
        .iter()
        .map(|(source, reference, resolved)| {
            (
                (*source).to_owned(),
                (*reference).to_owned(),
                Some((*resolved).to_owned()),
            )
        })
        .collect();
    assert_eq!(html_urls(name), expected, "{name}");
}

#[test]
fn background_on_table_sections_and_rows() {
    check(
        "background-on-table-sections",
        &[
            ("html:table@background", "t.png", "http://b/d/t.png"),
            ("html:thead@background", "th.png", "http://b/d/th.png"),
            ("html:tr@background", "r.png", "http://b/d/r.png"),
            ("html:tbody@background", "tb.png", "http://b/d/tb.png"),
            ("html:tfoot@background", "tf.png", "http://b/d/tf.png"),
        ],
    );
}

#[test]
fn html_image_start_tag_is_img_but_svg_image_is_not() {
    check(
        "image-is-img",
        &[
            ("html:img@src", "pic.png", "http://b/d/pic.png"),
            ("html:image@href", "svg.png", "http://b/d/svg.png"),
        ],
    );
}

#[test]
fn ping_gives_one_record_per_url() {
    check(
        "ping",
        &[
            ("html:a@href", "go.html", "http://b/d/go.html"),
            ("html:a@ping", "/p1", "http://b/p1"),
            ("html:a@ping", "http://t.example/p2", "http://t.example/p2"),
            ("html:a@ping", "/p3", "http://b/p3"),
            ("html:area@href", "m.html", "http://b/d/m.html"),
            ("html:area@ping", "/ap", "http://b/ap"),
        ],
    );
}

#[test]
fn imagesrcset_on_link_is_a_srcset() {
    check(
        "imagesrcset",
        &[
            ("html:link@imagesrcset", "s1.png", "http://b/d/s1.png"),
            ("html:link@imagesrcset", "s2.png", "http://b/d/s2.png"),
            ("html:link@href", "h.png", "http://b/d/h.png"),
        ],
    );
}

#[test]
fn svg_href_and_xlink_href_only_in_svg() {
    check(
        "svg-href",
        &[
            ("html:a@xlink:href", "xa.html", "http://b/d/xa.html"),
            ("html:use@href", "#icon", "http://b/d/#icon"),
            ("html:image@xlink:href", "xi.png", "http://b/d/xi.png"),
            ("html:feImage@href", "fe.png", "http://b/d/fe.png"),
        ],
    );
}

#[test]
fn css_import_strings_and_image_set_strings() {
    check(
        "css-import-and-image-set",
        &[
            ("html:style", "imp.css", "http://b/d/imp.css"),
            ("html:style", "imp2.css", "http://b/d/imp2.css"),
            ("html:style", "one.png", "http://b/d/one.png"),
            ("html:style", "two.png", "http://b/d/two.png"),
            ("html:p@style", "w.png", "http://b/d/w.png"),
        ],
    );
}

#[test]
fn meta_refresh_only_when_http_equiv_is_exactly_refresh() {
    check(
        "meta-refresh-exact",
        &[("html:meta@content", "yes.html", "http://b/d/yes.html")],
    );
}

#[test]
fn second_body_adds_only_attributes_the_first_lacks() {
    check(
        "second-body",
        &[
            ("html:body@background", "first.png", "http://b/d/first.png"),
            (
                "html:body@style",
                "second-style.png",
                "http://b/d/second-style.png",
            ),
        ],
    );
}

/// The JSON `source` of a record is its `Display` form, for element names short enough to be
/// assembled on the stack and for a custom element's name longer than that.
#[test]
fn json_source_is_the_display_form_for_any_element_name() {
    let long = format!("x-{}", "long".repeat(20));
    let message = format!(
        "Content-Base: http://b/d/\nContent-Type: text/html\n\n\
         <p style=\"background:url(p.png)\"><{long} style=\"background:url(l.png)\"></{long}>\
         <style>a{{b:url(s.png)}}</style>"
    );
    let report = analyze(message.as_bytes(), &Options::new());
    let sources: Vec<(String, String)> = report
        .urls
        .iter()
        .map(|url| {
            let json = serde_json::to_value(url).unwrap();
            (
                url.source.to_string(),
                json["source"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        "header:Content-Base".to_owned(),
        "html:p@style".to_owned(),
        format!("html:{long}@style"),
        "html:style".to_owned(),
    ];
    assert_eq!(
        sources,
        expected.map(|s| (s.clone(), s)).to_vec(),
        "Display and JSON"
    );
}
