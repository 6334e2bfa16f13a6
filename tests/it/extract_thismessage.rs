//! `extract` finds the parts a page names by relative `Content-Location`s, resolving them
//! against `thismessage:/` when nothing else gives a base (RFC 2557 §5 (e)), under the default
//! profile too; and what it writes inert is counted on stderr.

use std::fs;

use mimebase::{BaseSource, Options, Profile, analyze, extract};
use pretty_assertions::assert_eq;

use crate::support::cli::{mimebase, stderr};
use crate::support::{corpus_or_skip, root, workdir};

/// The `src` values of the `<img>` tags of `html`, as written (double-quoted).
fn img_sources(html: &str) -> Vec<&str> {
    html.split("<img src=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

#[test]
fn mimekit_relative_content_location_image_is_written_and_referenced() {
    let Some(message) = corpus_or_skip("messages/mimekit/multipart-related-mhtml.txt") else {
        return;
    };
    let out = workdir("mimekit");
    let output = mimebase(
        &[
            "extract",
            message.to_str().unwrap(),
            "--dir",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The page names its one image by `image1`, the image part's Content-Location; nothing
    // is made inert, so stderr has nothing to say.
    assert_eq!(stderr(&output), "");
    let page = String::from_utf8(output.stdout).unwrap();
    let html = fs::read_to_string(page.trim_end()).unwrap();
    let sources = img_sources(&html);
    assert_eq!(sources.len(), 1, "{html}");
    let image = fs::read(out.join(sources[0])).unwrap();
    assert!(image.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", sources[0]);
}

#[test]
fn sample_images_and_stylesheet_are_found_and_the_rest_counted() {
    let sample = root().join("samples/related-relative-locations.eml");
    let sample = sample.to_str().unwrap();
    let out = workdir("sample");
    let dir = out.to_str().unwrap();
    let output = mimebase(&["extract", sample, "--dir", dir], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    // `chart` is the GIF part; `legend.png` names no part and reaches nothing.
    assert_eq!(
        img_sources(&html),
        ["chart.gif", "about:invalid#legend.png"],
        "{html}"
    );
    assert!(
        fs::read(out.join("chart.gif"))
            .unwrap()
            .starts_with(b"GIF89a")
    );
    assert!(
        html.contains("<link rel=\"stylesheet\" href=\"style.css\">"),
        "{html}"
    );
    let css = fs::read_to_string(out.join("style.css")).unwrap();
    assert!(css.contains("url(\"chart.gif\")"), "{css}");
    // The unresolvable image and the link on the web (offline) are made inert, and said so.
    assert_eq!(
        stderr(&output),
        format!(
            "mimebase: {sample}: 2 URLs made inert: 1 relative, naming no part, with no base \
             to resolve against; 1 kept from the network (--online keeps them)\n"
        )
    );

    // `index.json` has the same counts, for the file they are in.
    let index: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("index.json")).unwrap()).unwrap();
    let inert: Vec<(&str, &serde_json::Value)> = index["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| (file["file"].as_str().unwrap(), &file["inert_urls"]))
        .collect();
    let none = serde_json::json!({"unresolved": 0, "file": 0, "offline": 0});
    let page = serde_json::json!({"unresolved": 1, "file": 0, "offline": 1});
    assert_eq!(
        inert,
        [
            ("report.html", &page),
            ("chart.gif", &none),
            ("style.css", &none)
        ],
        "{index:#}"
    );

    // Online, the link stays on the web; the unresolvable image is still inert.
    let output = mimebase(
        &["extract", "--online", "--force", sample, "--dir", dir],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        format!(
            "mimebase: {sample}: 1 URL made inert: 1 relative, naming no part, with no base \
             to resolve against\n"
        )
    );

    // `--profile rfc1808` is honoured as chosen: no `thismessage:/`, so no relative URL
    // resolves: the stylesheet link, both images and the stylesheet's `url()` are inert.
    let output = mimebase(
        &[
            "extract",
            "--profile",
            "rfc1808",
            "--force",
            sample,
            "--dir",
            dir,
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let html = fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(
        img_sources(&html),
        ["about:invalid#chart", "about:invalid#legend.png"]
    );
    assert_eq!(
        stderr(&output),
        format!(
            "mimebase: {sample}: 5 URLs made inert: 4 relative, naming no part, with no base \
             to resolve against; 1 kept from the network (--online keeps them)\n"
        )
    );
}

/// The library: `extract` reports the root's base as `thismessage:/` under the default
/// profile, where `analyze`, which reports where URLs lead, has none; `rfc1808` keeps none.
#[test]
fn extract_ends_base_precedence_with_thismessage() {
    let raw = fs::read(root().join("samples/related-relative-locations.eml")).unwrap();
    let root_base = |report: &mimebase::Report| report.entities[0].base.source;
    assert_eq!(root_base(&analyze(&raw, &Options::new())), BaseSource::None);
    let extracted = extract(&raw, &Options::new());
    assert_eq!(root_base(&extracted.report), BaseSource::ThisMessage);
    let counted = extracted
        .files
        .iter()
        .map(|f| f.inert_urls)
        .fold((0, 0, 0), |(u, f, o), i| {
            (u + i.unresolved, f + i.file, o + i.offline)
        });
    assert_eq!(counted, (1, 0, 1));
    let rfc1808 = extract(&raw, &Options::new().with_profile(Profile::Rfc1808));
    assert_eq!(root_base(&rfc1808.report), BaseSource::None);
}
