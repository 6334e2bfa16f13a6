//! `extract` offline (the default): every URL that names no part of the message becomes inert
//! and every page carries the Content-Security-Policy, inserted before anything that fetches,
//! every other byte kept; online (`--online`), URLs on the web are kept. The messages are in
//! `tests/data/offline/` (its README says what each holds).

use std::collections::BTreeSet;
use std::fs;

use mimebase::extract::{Network, POLICY, extract_with};
use mimebase::{DiagnosticKind, Extracted, Options, UrlSource, analyze};
use pretty_assertions::assert_eq;

use crate::support::cli::mimebase;
use crate::support::{percent_decode, root, workdir};

fn data(name: &str) -> Vec<u8> {
    fs::read(root().join("tests/data/offline").join(name)).unwrap()
}

fn both(message: &[u8]) -> (Extracted, Extracted) {
    let online = extract_with(message, &Options::new(), Network::Online);
    let offline = extract_with(message, &Options::new(), Network::Offline);
    let names = |e: &Extracted| e.files.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&online),
        names(&offline),
        "the same files in both modes"
    );
    (online, offline)
}

fn file<'e>(extracted: &'e Extracted, name: &str) -> &'e mimebase::ExtractedFile {
    extracted.files.iter().find(|f| f.name == name).unwrap()
}

/// The URLs of a written page or stylesheet read back, each with its source
/// (`tag@attribute`, or `tag` for a `<style>` element): the file scanned as a message of its
/// own, a stylesheet inside a `<style>` element.
fn urls_of(name: &str, bytes: &[u8]) -> Vec<(String, String)> {
    let mut message = match name.rsplit_once('.').unwrap().1 {
        "html" => b"Content-Type: text/html\n\n".to_vec(),
        "svg" => b"Content-Type: image/svg+xml\n\n".to_vec(),
        "css" => b"Content-Type: text/html\n\n<style>".to_vec(),
        other => panic!("not a page or stylesheet: {other}"),
    };
    message.extend_from_slice(bytes);
    analyze(&message, &Options::new())
        .urls
        .into_iter()
        .filter_map(|url| {
            let (tag, attribute) = match &url.source {
                UrlSource::Html { tag, attribute, .. } | UrlSource::Svg { tag, attribute, .. } => {
                    (tag.to_string(), *attribute)
                }
                _ => return None,
            };
            let source = attribute.map_or(tag.clone(), |a| format!("{tag}@{a}"));
            Some((source, url.reference))
        })
        .collect()
}

/// Same-document references and URLs of the local schemes, which contact no one.
fn contacts_no_one(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    url.is_empty()
        || url.starts_with('#')
        || ["about:", "blob:", "data:"]
            .iter()
            .any(|s| lower.starts_with(s))
}

/// Every URL of the message's page, stylesheet and SVG document, read back from the files
/// written offline, is the one written online when that names a written file or contacts no
/// one, else `about:invalid#` and the online one percent-encoded; and nothing in the files
/// names a host any more but the XML namespaces and an inline script.
#[test]
fn offline_urls_are_the_online_ones_made_inert() {
    let (online, offline) = both(&data("every-fetch.eml"));
    let names: BTreeSet<&str> = offline.files.iter().map(|f| f.name.as_str()).collect();
    let mut inert_sources = BTreeSet::new();
    let mut kept = 0;
    for name in ["page.html", "site.css", "map.svg"] {
        let before = urls_of(name, &file(&online, name).bytes);
        let after = urls_of(name, &file(&offline, name).bytes);
        assert_eq!(before.len(), after.len(), "{name}");
        assert!(before.len() > 3, "{name}: {before:?}");
        for ((source, was), (_, now)) in before.iter().zip(&after) {
            if names.contains(percent_decode(was).as_str()) || contacts_no_one(was) {
                assert_eq!(now, was, "{name}: {source}");
                kept += 1;
                continue;
            }
            let fragment = now
                .strip_prefix("about:invalid#")
                .unwrap_or_else(|| panic!("{name}: {source}: {was} is written {now}, not inert"));
            assert_eq!(&percent_decode(fragment), was, "{name}: {source}");
            assert!(!fragment.contains([':', '/', ' ', ',']), "{fragment}");
            inert_sources.insert(source.clone());
        }
        let text = String::from_utf8(file(&offline, name).bytes.clone()).unwrap();
        // Script text is no URL: the inline script's stays, and the policy keeps it from
        // running.
        let without_namespaces = text
            .replace(
                r#"new Image().src = "https://pixel.example.net/script.gif";"#,
                "",
            )
            .replace("\"http://www.w3.org/2000/svg\"", "")
            .replace("\"http://www.w3.org/1999/xlink\"", "")
            .replace("\"http://www.w3.org/1999/xhtml\"", "");
        assert!(!without_namespaces.contains("://"), "{name}: {text}");
    }
    // The page's files (the stylesheet, the logo by cid: and by a relative path, the SVG
    // document), its data: image, about:blank frame and #fragment link are kept.
    assert_eq!(kept, 9);
    let expected: BTreeSet<String> = [
        "a@href",
        "a@ping",
        "audio@src",
        "blockquote@cite",
        "body@background",
        "button@formaction",
        "div@style",
        "embed@src",
        "form@action",
        "iframe@src",
        "image@href",
        "img@src",
        "img@srcset",
        "input@src",
        "link@href",
        "meta@content",
        "object@data",
        "rect@filter",
        "script@src",
        "source@srcset",
        "style",
        "use@xlink:href",
        "video@poster",
        "video@src",
        "xml-stylesheet@href",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!(inert_sources, expected);
    // The `cid:` that names no part is reported, as online.
    assert!(
        offline
            .report
            .diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::UnmatchedCid)
    );
    assert!(file(&offline, "page.html").csp && file(&offline, "map.svg").csp);
    assert!(!file(&offline, "site.css").csp && !file(&offline, "logo.png").csp);
    assert!(online.files.iter().all(|f| !f.csp));
}

/// The policy forbids every load from the network: `default-src 'none'`, and no directive
/// allows more than `file:`, `data:` and inline styles; forms and `<base>`, which
/// `default-src` does not cover, are named.
#[test]
fn the_policy_allows_files_and_data_only() {
    let mut directives = BTreeSet::new();
    for directive in POLICY.split(';') {
        let mut words = directive.split_whitespace();
        let name = words.next().unwrap();
        let sources: Vec<&str> = words.collect();
        assert!(!sources.is_empty(), "{name}");
        for source in &sources {
            let allowed = match *source {
                "'none'" | "file:" | "data:" => true,
                "'unsafe-inline'" => name == "style-src",
                _ => false,
            };
            assert!(allowed, "{name} {source}");
        }
        if sources.contains(&"'none'") {
            assert_eq!(sources.len(), 1, "{name}");
        }
        assert!(directives.insert(name), "{name} twice");
    }
    assert!(POLICY.starts_with("default-src 'none';"));
    for name in ["form-action", "base-uri"] {
        assert!(directives.contains(name), "{name}");
    }
    // Scripts, fetch, workers and the rest fall back to default-src.
    assert!(!directives.contains("script-src") && !directives.contains("connect-src"));
}

/// Where the policy goes.
enum At {
    /// Before the first occurrence of the text.
    Before(&'static [u8]),
    /// After the first occurrence of the text.
    After(&'static [u8]),
}

/// The elements inserted: into an HTML page; an XHTML `<head>` after an XML root's start
/// tag.
fn html_meta() -> String {
    format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">")
}
fn xml_head() -> String {
    format!(
        "<head xmlns=\"http://www.w3.org/1999/xhtml\"><meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\"/></head>"
    )
}

fn utf16le(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

/// Each page written offline is the page written online with the policy inserted at one
/// place, before anything that fetches: after a doctype, comments, `<html>`, `<head>`,
/// `<meta>` and `<title>` (a `<b>` in the title is text), before a `<base>`, a `<link>`, body
/// content or `</head>`; after a byte order mark; in UTF-16 as UTF-16; in ISO-2022-JP not
/// past the first escape; in XML (SVG, XHTML) after the root's start tag.
/// A page whose URLs cannot be written back (bytes its charset does not allow) still gets
/// it, and so does text that a browser opens as HTML by its name.
#[test]
fn the_policy_goes_before_anything_that_fetches_and_nothing_else_changes() {
    let cases: &[(&str, &str, At, Vec<u8>)] = &[
        (
            "head-after-title.eml",
            "part-1.html",
            At::Before(b"<base href"),
            html_meta().into_bytes(),
        ),
        (
            "no-head.eml",
            "part-HEADER.html",
            At::Before(b"<p>Hello"),
            html_meta().into_bytes(),
        ),
        (
            "utf8-bom.eml",
            "part-HEADER.html",
            At::Before(b"</head>"),
            html_meta().into_bytes(),
        ),
        (
            "utf16.eml",
            "part-HEADER.html",
            At::Before(b"<\0/\0h\0e\0a\0d\0>\0"),
            utf16le(&html_meta()),
        ),
        (
            "iso-2022-jp.eml",
            "part-HEADER.html",
            At::Before(b"<title>"),
            html_meta().into_bytes(),
        ),
        (
            "unchangeable.eml",
            "part-HEADER.html",
            At::Before(b"</head>"),
            html_meta().into_bytes(),
        ),
        (
            "xml-pages.eml",
            "part-1.xhtml",
            At::After(b"<html xmlns=\"http://www.w3.org/1999/xhtml\">"),
            xml_head().into_bytes(),
        ),
        (
            "xml-pages.eml",
            "drawing.svg",
            At::After(b"height=\"10\">"),
            xml_head().into_bytes(),
        ),
        (
            "xml-pages.eml",
            "page.html",
            At::Before(b"<p>Plain"),
            html_meta().into_bytes(),
        ),
    ];
    for (message, name, at, inserted) in cases {
        let (online, offline) = both(&data(message));
        let before = &file(&online, name).bytes;
        let find = |marker: &[u8]| {
            before
                .windows(marker.len())
                .position(|w| w == marker)
                .unwrap_or_else(|| panic!("{message}: {name}: no {marker:?}"))
        };
        let place = match at {
            At::Before(marker) => find(marker),
            At::After(marker) => find(marker) + marker.len(),
        };
        let mut expected = before[..place].to_vec();
        expected.extend_from_slice(inserted);
        expected.extend_from_slice(&before[place..]);
        assert_eq!(
            String::from_utf8_lossy(&file(&offline, name).bytes),
            String::from_utf8_lossy(&expected),
            "{message}: {name}"
        );
        assert_eq!(file(&offline, name).bytes, expected, "{message}: {name}");
        assert!(file(&offline, name).csp, "{message}: {name}");
    }
}

/// A page whose URLs cannot be written back keeps them, and says that only the policy
/// stops their loads; an SVG document with an empty root gets no policy, and says so; an
/// SVG image brought in by an entity is left as written (it lies in no attribute of the
/// document) while the others become inert.
#[test]
fn what_cannot_be_made_inert_is_said() {
    let messages = |e: &Extracted| -> Vec<String> {
        e.report
            .diagnostics
            .iter()
            .filter(|d| d.kind == DiagnosticKind::RewriteSkipped)
            .map(|d| d.message.clone())
            .collect()
    };
    let (online, offline) = both(&data("unchangeable.eml"));
    assert_eq!(
        String::from_utf8_lossy(&file(&online, "part-HEADER.html").bytes),
        String::from_utf8_lossy(&data("unchangeable.eml"))
            .split("\n\n")
            .nth(1)
            .unwrap()
    );
    let said = messages(&offline);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("UTF-8 does not allow"), "{said:?}");
    assert!(said[0].contains("only the pages' Content-Security-Policy stops their loads"));

    let (online, offline) = both(&data("xml-pages.eml"));
    assert_eq!(
        file(&offline, "part-3.svg").bytes,
        file(&online, "part-3.svg").bytes
    );
    assert!(!file(&offline, "part-3.svg").csp);
    let said = messages(&offline);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("no Content-Security-Policy inserted: the XML document"));

    let offline = extract_with(&data("svg-entity.eml"), &Options::new(), Network::Offline);
    let svg = String::from_utf8(file(&offline, "entity.svg").bytes.clone()).unwrap();
    assert!(svg.contains(&format!("height=\"20\">{}&tile;<image href=\"about:invalid#https%3A%2F%2Ftiles.example.net%2Fdirect.png\"", xml_head())), "{svg}");
    let said = messages(&offline);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("URLs left as written, brought in by an entity"),
        "{said:?}"
    );
    assert!(said[0].contains(": 1;"), "{said:?}");
}

/// The command: offline unless `--online`, the last of `--offline` and `--online` counting;
/// `index.json` says which files carry the policy. baseStriker's link keeps where its base
/// sent it, readable in the inert URL's fragment.
#[test]
fn the_command_is_offline_unless_told_otherwise() {
    let sample = root().join("samples/basestriker.eml");
    for (flags, offline) in [
        (&[][..], true),
        (&["--offline"][..], true),
        (&["--online"][..], false),
        (&["--offline", "--online"][..], false),
        (&["--online", "--offline"][..], true),
    ] {
        let out = workdir(&format!("offline-cli-{}", flags.join("")));
        let mut args = vec![
            "extract",
            "--dir",
            out.to_str().unwrap(),
            sample.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let output = mimebase(&args, b"");
        assert!(output.status.success(), "{flags:?}: {output:?}");
        let index: serde_json::Value =
            serde_json::from_slice(&fs::read(out.join("index.json")).unwrap()).unwrap();
        let csp: Vec<bool> = index["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["csp"].as_bool().unwrap())
            .collect();
        assert_eq!(csp, [false, offline], "{flags:?}");
        let page = fs::read_to_string(out.join("part-2.html")).unwrap();
        assert_eq!(page.contains(POLICY), offline, "{flags:?}");
        let link = "http://phish.example.net/bank.example.com/verify/login.html";
        if offline {
            assert!(!page.contains("://"), "{page}");
            let fragment = page
                .split("<a href=\"about:invalid#")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap();
            assert_eq!(percent_decode(fragment), link);
        } else {
            assert!(page.contains(&format!("<a href=\"{link}\">")), "{page}");
        }
    }
}
