//! `mimebase extract`: hostile names never leave OUT, existing files are not overwritten
//! without `--force`, and the corpus's MHTML pages are written with every URL that names a
//! part pointing at an existing file in OUT (checked by reading the written HTML back).

mod offline;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path};

use mimebase::extract::{Network, POLICY, extract_with};
use mimebase::{Options, UrlSource, analyze, extract};
use pretty_assertions::assert_eq;

use crate::support::cli::mimebase;
use crate::support::{corpus_or_skip, percent_decode, root, workdir};

/// Every path under `dir`, relative, sorted.
fn tree(dir: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(at) = dirs.pop() {
        for entry in fs::read_dir(&at).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            found.insert(path.strip_prefix(dir).unwrap().display().to_string());
            if entry.file_type().unwrap().is_dir() {
                dirs.push(path);
            }
        }
    }
    found
}

/// One leaf part per hostile name, offered as Content-Location, `filename` or `name`.
fn hostile_message() -> Vec<u8> {
    let hostile = [
        "../../escape.png",
        "..",
        ".",
        "/etc/passwd",
        "/tmp/absolute.png",
        "..\\..\\windows.png",
        "C:\\Windows\\win.ini",
        "C:evil.png",
        "CON",
        "nul.txt",
        "Com1.png",
        "LPT9",
        "CONOUT$",
        ".hidden",
        "x/../../y.png",
        "trailing.",
        "trailing ",
        "a\u{1}b.png",
        "a\u{7f}b.png",
        "a\u{85}b.png",
        "q?x.png",
        "star*.png",
        "pipe|.png",
        "lt<gt>.png",
        "quote\".png",
        "",
    ];
    let mut out = String::from("Content-Type: multipart/mixed; boundary=h\n\n");
    for (i, name) in hostile.iter().enumerate() {
        let quoted = name.replace('\\', "\\\\").replace('"', "\\\"");
        match i % 3 {
            0 => out.push_str(&format!(
                "--h\nContent-Type: image/png\nContent-Disposition: attachment; filename=\"{quoted}\"\n"
            )),
            1 => out.push_str(&format!("--h\nContent-Type: image/png; name=\"{quoted}\"\n")),
            _ => out.push_str(&format!("--h\nContent-Type: image/png\nContent-Location: {name}\n")),
        }
        out.push_str(&format!("\npng {i}\n"));
    }
    // Content-Location: percent-encoded escapes and absolute URLs whose last segment is bad.
    for location in [
        "http://e.example/%2e%2e%2fpercent.png",
        "http://e.example/%2E%2E",
        "http://e.example/a%5c..%5cback.png",
        "http://e.example/%00nul.png",
        "http://e.example/con",
        "file:///etc/passwd",
        "http://e.example/dir/",
        "../relative/../../up.png",
    ] {
        out.push_str(&format!(
            "--h\nContent-Type: image/png\nContent-Location: {location}\n\npng\n"
        ));
    }
    // The same safe name twice, in different case.
    out.push_str("--h\nContent-Type: image/png; name=\"same.png\"\n\none\n");
    out.push_str("--h\nContent-Type: image/png; name=\"SAME.png\"\n\ntwo\n");
    out.push_str("--h--\n");
    out.into_bytes()
}

fn is_plain_name(name: &str) -> bool {
    let mut components = Path::new(name).components();
    matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(n)), None) if n == name
    ) && !name.starts_with('.')
        && !name.chars().any(char::is_control)
        && !name.contains(['/', '\\', ':', '<', '>', '"', '|', '?', '*'])
}

#[test]
fn hostile_names_never_escape_out() {
    let raw = hostile_message();
    let extracted = extract(&raw, &Options::new());
    // Every leaf is a file, each name one plain segment.
    assert_eq!(extracted.files.len(), 36);
    for file in &extracted.files {
        assert!(is_plain_name(&file.name), "{:?}", file.name);
        let device = file.name.split('.').next().unwrap().to_ascii_uppercase();
        assert!(
            !["CON", "NUL", "COM1", "LPT9", "CONOUT$"].contains(&device.as_str()),
            "{:?}",
            file.name
        );
    }
    let lower: BTreeSet<String> = extracted
        .files
        .iter()
        .map(|f| f.name.to_ascii_lowercase())
        .collect();
    assert_eq!(
        lower.len(),
        extracted.files.len(),
        "names unique ignoring case"
    );
    let names: Vec<&str> = extracted.files.iter().map(|f| f.name.as_str()).collect();
    assert!(
        names.contains(&"same.png") && names.contains(&"SAME-2.png"),
        "{names:?}"
    );

    // Through the command: OUT is inside a parent that must hold nothing else afterwards.
    let parent = workdir("hostile");
    let out = parent.join("out");
    let message = parent.join("hostile.eml");
    fs::write(&message, &raw).unwrap();
    let output = mimebase(
        &[
            "extract",
            message.to_str().unwrap(),
            "--dir",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    let mut expected: BTreeSet<String> = ["hostile.eml", "out", "out/index.json"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    expected.extend(names.iter().map(|n| format!("out/{n}")));
    assert_eq!(tree(&parent), expected);
    assert!(!Path::new("/tmp/absolute.png").exists());
    // Each file holds its part's decoded body.
    for (i, name) in names.iter().take(26).enumerate() {
        assert_eq!(
            fs::read(out.join(name)).unwrap(),
            format!("png {i}").into_bytes()
        );
    }
}

#[test]
fn existing_files_are_kept_without_force() {
    let parent = workdir("force");
    let out = parent.join("out");
    fs::create_dir_all(&out).unwrap();
    let sample = root().join("samples/html-mail-inline-images.eml");
    fs::write(out.join("logo.png"), b"keep").unwrap();
    let args = [
        "extract",
        sample.to_str().unwrap(),
        "--dir",
        out.to_str().unwrap(),
    ];
    let output = mimebase(&args, b"");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("logo.png"));
    assert_eq!(fs::read(out.join("logo.png")).unwrap(), b"keep");
    assert_eq!(tree(&out).len(), 1, "nothing else written");

    // --force replaces the file, and a symbolic link is replaced rather than written through.
    #[cfg(unix)]
    {
        fs::write(parent.join("outside.txt"), b"outside").unwrap();
        std::os::unix::fs::symlink(parent.join("outside.txt"), out.join("terms.pdf")).unwrap();
    }
    let mut forced = args.to_vec();
    forced.push("--force");
    let output = mimebase(&forced, b"");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        fs::read(out.join("logo.png")).unwrap(),
        b"\x89PNG\r\n\x1a\n"
    );
    #[cfg(unix)]
    {
        assert_eq!(fs::read(parent.join("outside.txt")).unwrap(), b"outside");
        assert!(
            !fs::symlink_metadata(out.join("terms.pdf"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(fs::read(out.join("terms.pdf")).unwrap(), b"%PDF-1.4\n");
    }
}

/// OUT (or a directory above it, or a message's `OUT/OFFSET/`) that is a file: the error
/// names that path and says it is not a directory, rather than the operating system's
/// error on a file below it; nothing is written and the file is kept (exit code 2, as for
/// any directory that cannot be made).
#[test]
fn out_that_is_a_file_is_named_as_not_a_directory() {
    let parent = workdir("out-is-a-file");
    let file = parent.join("file");
    fs::write(&file, b"keep").unwrap();
    let sample = parent.join("one.eml");
    fs::write(&sample, b"Content-Type: text/html\n\n<p>a</p>\n").unwrap();
    let mbox = parent.join("two.mbox");
    fs::write(
        &mbox,
        b"From a\nContent-Type: text/html\n\n<p>a</p>\n\nFrom b\nContent-Type: text/html\n\n<p>b</p>\n",
    )
    .unwrap();
    let mbox_out = parent.join("mbox-out");
    fs::create_dir_all(&mbox_out).unwrap();
    fs::write(mbox_out.join("0"), b"keep").unwrap();
    for (input, dir, named) in [
        (&sample, file.clone(), file.clone()),
        (&sample, file.join("sub"), file.clone()),
        (&mbox, mbox_out.clone(), mbox_out.join("0")),
    ] {
        let output = mimebase(
            &[
                "extract",
                input.to_str().unwrap(),
                "--dir",
                dir.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            // Nothing was written before the failure, so nothing is said to be removed.
            format!(
                "mimebase: {}: not a directory (a file of that name exists)\n",
                named.display()
            )
        );
        assert_eq!(fs::read(&named).unwrap(), b"keep");
    }
    assert_eq!(tree(&mbox_out).len(), 1, "nothing else written");
}

#[test]
fn html_mail_images_point_at_their_files() {
    let raw = fs::read(root().join("samples/html-mail-inline-images.eml")).unwrap();
    let extracted = extract_with(&raw, &Options::new(), Network::Online);
    let names: Vec<(&str, &str)> = extracted
        .files
        .iter()
        .map(|f| (f.part.as_str(), f.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("1.1.1", "part-1.1.1.txt"),
            ("1.1.2", "part-1.1.2.html"),
            ("1.2", "logo.png"),
            ("1.3", "part-1.3.gif"),
            ("2", "terms.pdf"),
        ]
    );
    let html = String::from_utf8(extracted.files[1].bytes.clone()).unwrap();
    assert!(
        html.contains(r#"<img src="logo.png" alt="logo">"#),
        "{html}"
    );
    assert!(html.contains(r#"<img src="part-1.3.gif" alt="domain case differs">"#));
    assert!(html.contains(r#"<img src="cid:BANNER@example.com""#));
    assert!(html.contains(r#"src="https://tracker.example.net/open.gif?u=42""#));
    assert_eq!(extracted.files[1].rewritten_urls, 2);
    assert_eq!(extracted.root.as_deref(), Some("part-1.1.2.html"));
    assert!(!extracted.files[1].csp);

    // Offline (the default), the `cid:` URLs that name no part and the tracking image are
    // inert, and the page carries the policy.
    let offline = extract(&raw, &Options::new());
    let html = String::from_utf8(offline.files[1].bytes.clone()).unwrap();
    assert!(html.contains(r#"<img src="logo.png" alt="logo">"#));
    assert!(html.contains(r#"<img src="about:invalid#cid%3ABANNER%40example.com""#));
    assert!(
        html.contains(
            r#"src="about:invalid#https%3A%2F%2Ftracker.example.net%2Fopen.gif%3Fu%3D42""#
        )
    );
    assert!(!html.contains("://"), "{html}");
    assert_eq!(html.matches(POLICY).count(), 1);
    assert_eq!(offline.files[1].rewritten_urls, 5);
    assert!(offline.files[1].csp);
}

#[test]
fn quoted_printable_html_is_written_decoded_with_escaping_kept() {
    let raw = b"Content-Type: multipart/related; boundary=r\n\n\
--r\nContent-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n\
<p>caf=E9 <img src=3D'cid:a%20b@x'> <img src=3Dcid:c@x> <a href=3D'cid:a b@x#n'>x</a>\n\
--r\nContent-Type: image/png; name=\"it's & more.png\"\nContent-ID: <a b@x>\n\none\n\
--r\nContent-Type: image/png\nContent-ID: <c@x>\n\ntwo\n--r--\n";
    let extracted = extract_with(raw, &Options::new(), Network::Online);
    let html = &extracted.files[0].bytes;
    // Still ISO-8859-1 (é is one byte), the file name percent-encoded for a URL path.
    assert_eq!(
        html,
        b"<p>caf\xe9 <img src='it%27s%20%26%20more.png'> <img src=part-3.png> <a href='it%27s%20%26%20more.png#n'>x</a>"
    );
}

/// What a URL naming no part is written as online: its resolved form when it is relative and
/// resolved (not against `thismessage:/`, which no browser opens, nor to a `file:` URL);
/// `about:invalid#` and the reference when it would otherwise reach a local file (a `file:`
/// URL, or a relative reference left relative); else as it was. Offline, that with
/// `about:invalid#` before it, unless it is a same-document reference or has the scheme
/// `about`, `blob` or `data`.
fn expected_value(url: &mimebase::UrlRecord, network: Network) -> String {
    let reference = mimebase::url::strip_reference(&url.reference);
    if reference.is_empty() || reference.starts_with('#') {
        return url.reference.clone();
    }
    let is_file = |u: &str| u.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("file:"));
    let absolute = mimebase::url::has_scheme(&reference);
    let online = match url.resolution.resolved() {
        Some(resolved)
            if !absolute && !resolved.starts_with("thismessage:") && !is_file(resolved) =>
        {
            resolved.to_owned()
        }
        _ if absolute && !is_file(&reference) => url.reference.clone(),
        _ => format!("about:invalid#{reference}"),
    };
    let local = ["about:", "blob:", "data:"]
        .iter()
        .any(|scheme| online.to_ascii_lowercase().starts_with(scheme));
    if network == Network::Offline && !local {
        format!("about:invalid#{}", mimebase::url::strip_reference(&online))
    } else {
        online
    }
}

/// The leaf file a target part stands for, as `index.json` names files by part.
fn file_of(index: &serde_json::Value, part: &str) -> Option<String> {
    index["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["part"] == part)
        .map(|f| f["file"].as_str().unwrap().to_owned())
}

/// Extracts `message` with the command (`--offline` or `--online`) and checks every written
/// HTML file: read back as HTML, each URL that named a part in the message is now a relative
/// path of an existing file in OUT, the one standing for that part, and each other one is
/// what [`expected_value`] says; offline, each carries the policy once. Returns how many URLs
/// naming a part were checked.
fn check_extracted(message: &Path, out: &Path, network: Network) -> usize {
    let flag = match network {
        Network::Offline => "--offline",
        Network::Online => "--online",
    };
    let output = mimebase(
        &[
            "extract",
            flag,
            message.to_str().unwrap(),
            "--dir",
            out.to_str().unwrap(),
        ],
        b"",
    );
    assert!(output.status.success(), "{}: {output:?}", message.display());
    let index: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("index.json")).unwrap()).unwrap();
    let original = analyze(&fs::read(message).unwrap(), &Options::new());
    let mut checked = 0;
    for file in index["files"].as_array().unwrap() {
        let name = file["file"].as_str().unwrap();
        assert!(out.join(name).is_file(), "{name}");
        if file["content_type"] != "text/html" {
            continue;
        }
        let part = file["part"].as_str().unwrap();
        let page = fs::read(out.join(name)).unwrap();
        let policies = String::from_utf8_lossy(&page).matches(POLICY).count();
        assert_eq!(policies, usize::from(network == Network::Offline), "{name}");
        assert_eq!(file["csp"], network == Network::Offline, "{name}");
        // The written HTML, scanned as a message of its own.
        let mut wrapped = b"Content-Type: text/html\n\n".to_vec();
        wrapped.extend(page);
        let written: Vec<String> = analyze(&wrapped, &Options::new())
            .urls
            .into_iter()
            .filter(|u| matches!(u.source, UrlSource::Html { .. }))
            .map(|u| u.reference)
            .collect();
        let before: Vec<_> = original
            .urls
            .iter()
            .filter(|u| u.part.as_str() == part && matches!(u.source, UrlSource::Html { .. }))
            .collect();
        assert_eq!(written.len(), before.len(), "{name}");
        for (url, now) in before.iter().zip(&written) {
            if matches!(&url.source, UrlSource::Html { tag, .. } if tag == "base") {
                assert_eq!(
                    percent_decode(now),
                    name,
                    "{name}: <base href> names the file itself"
                );
                continue;
            }
            let Some(target) = &url.target else {
                let now = match now.strip_prefix("about:invalid#") {
                    Some(fragment) => format!("about:invalid#{}", percent_decode(fragment)),
                    None => now.clone(),
                };
                assert_eq!(
                    now,
                    expected_value(url, network),
                    "{name}: a URL naming no part"
                );
                continue;
            };
            let path = percent_decode(now.split('#').next().unwrap());
            assert!(
                is_plain_name(&path) && out.join(&path).is_file(),
                "{name}: {} -> {now}: no such file",
                url.reference
            );
            if let Some(expected) = file_of(&index, target.part.as_str()) {
                assert_eq!(path, expected, "{name}: {}", url.reference);
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn corpus_mhtml_pages_point_at_existing_files() {
    let Some(corpus) = corpus_or_skip("messages") else {
        return;
    };
    let mut total = 0;
    for (dir, file) in [
        ("chromium-blink", "multi_frames_ie.mht"),
        ("chromium-blink", "page_with_image_ie.mht"),
        ("mhtml-parser", "example.com.mhtml"),
        ("mhtml2html", "missing_headers.mhtml"),
    ] {
        for network in [Network::Offline, Network::Online] {
            let out = workdir(&format!("corpus-{file}-{network:?}"));
            total += check_extracted(&corpus.join(dir).join(file), &out.join("out"), network);
        }
    }
    // multi_frames_ie.mht: 4 frames and 2 images; page_with_image_ie.mht: 1 image; in each
    // mode.
    assert_eq!(total, 2 * 7);
}

#[test]
fn samples_point_at_existing_files() {
    let mut total = 0;
    for sample in [
        "mhtml-saved-page.eml",
        "html-mail-inline-images.eml",
        "mid-reference.eml",
        "mhtml-page.eml",
    ] {
        for network in [Network::Offline, Network::Online] {
            let out = workdir(&format!("sample-{sample}-{network:?}"));
            let message = root().join("samples").join(sample);
            total += check_extracted(&message, &out.join("out"), network);
        }
    }
    // 11 + 2 + 4 + 2 URLs with a target (see the `targets` module for each), in each mode.
    assert_eq!(total, 2 * 19);
}

/// A message without HTML still has a main page, its body's file: an mbox of plain-text
/// messages prints a line per message, each naming the file of that message's text.
#[test]
fn messages_without_html_print_their_body_file() {
    let dir = workdir("plain-text-mbox");
    let mbox = dir.join("plain.mbox");
    fs::write(
        &mbox,
        "From a@example.com Tue Nov 24 10:00:00 2026\nSubject: one\n\nFirst.\n\n\
         From b@example.com Tue Nov 24 10:01:00 2026\nSubject: two\n\
         Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nSecond.\n\
         --b\nContent-Type: application/pdf\n\n%PDF\n--b--\n",
    )
    .unwrap();
    let out = dir.join("out");
    let output = mimebase(
        &[
            "extract",
            "--dir",
            out.to_str().unwrap(),
            mbox.to_str().unwrap(),
        ],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    let lines: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let offset = "From a@example.com Tue Nov 24 10:00:00 2026\nSubject: one\n\nFirst.\n\n".len();
    assert_eq!(
        lines,
        [
            out.join("0").join("part-HEADER.txt").display().to_string(),
            out.join(offset.to_string())
                .join("part-1.txt")
                .display()
                .to_string(),
        ]
    );
    assert_eq!(
        fs::read(out.join("0/part-HEADER.txt")).unwrap(),
        b"First.\n"
    );
}

/// In a saved page: a stylesheet's relative `url()`s resolve against the stylesheet and point
/// at the saved parts' files or become absolute; `<base href>` becomes the page's own name; on
/// elements pointed at files `crossorigin` and `integrity` are renamed, elsewhere kept
/// (online; offline the URLs on the web are inert, the attributes as online).
#[test]
fn stylesheets_base_and_fetch_attributes() {
    let message = b"Content-Type: multipart/related; boundary=b\n\n--b\n\
Content-Type: text/html\nContent-Location: https://x.example/a/page.html\n\n\
<base href=\"https://x.example/a/\"><link rel=stylesheet crossorigin href=\"css/s.css\" \
integrity=\"sha384-x\"><script src=\"https://cdn.example/j.js\" crossorigin></script>\n\
--b\nContent-Type: text/css\nContent-Location: https://x.example/a/css/s.css\n\n\
@import \"t.css\"; b { background: url(../img/b.png) } i { background: url('../../up.png') }\n\
--b\nContent-Type: text/css\nContent-Location: https://x.example/a/css/t.css\n\nu{}\n\
--b\nContent-Type: image/png\nContent-Location: https://x.example/a/img/b.png\n\nPNG\n--b--\n";
    let extracted = extract_with(message, &Options::new(), Network::Online);
    let names: Vec<&str> = extracted.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["page.html", "s.css", "t.css", "b.png"]);
    assert_eq!(
        String::from_utf8_lossy(&extracted.files[0].bytes),
        "<base href=\"page.html\"><link rel=stylesheet data-crossorigin href=\"s.css\" \
         data-integrity=\"sha384-x\"><script src=\"https://cdn.example/j.js\" crossorigin></script>"
    );
    assert_eq!(
        String::from_utf8_lossy(&extracted.files[1].bytes),
        "@import \"t.css\"; b { background: url(b.png) } \
         i { background: url('https://x.example/up.png') }"
    );
    assert_eq!(extracted.files[1].rewritten_urls, 3);
    assert_eq!(extracted.root.as_deref(), Some("page.html"));

    let offline = extract(message, &Options::new());
    assert_eq!(
        String::from_utf8_lossy(&offline.files[0].bytes),
        format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\
             <base href=\"page.html\"><link rel=stylesheet data-crossorigin href=\"s.css\" \
             data-integrity=\"sha384-x\"><script src=\"about:invalid#https%3A%2F%2Fcdn.example%2Fj.js\" \
             crossorigin></script>"
        )
    );
    assert_eq!(
        String::from_utf8_lossy(&offline.files[1].bytes),
        "@import \"t.css\"; b { background: url(b.png) } \
         i { background: url('about:invalid#https%3A%2F%2Fx.example%2Fup.png') }"
    );
}

/// A URL that would reach a local file other than those written is made inert: relative
/// references without a base (`../`, `/`, `//host`), `file:` URLs, and relative ones resolved
/// against a `file:` base (pages saved by Word) or only against `thismessage:/`.
#[test]
fn urls_that_would_reach_local_files_are_made_inert() {
    let no_base =
        b"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\n\n\
<img src=\"../../etc/p.png\"><img src=\"/etc/x.png\"><a href=\"//evil.example/s\">s</a>\
<img src=\"file:///etc/passwd\"><a href=\"https://x.example/\">w</a><a href=\"#top\">t</a>\n\
--b\nContent-Type: text/css\nContent-ID: <c@x>\n\n.a{background:url(../up.png)}\n--b--\n";
    let extracted = extract_with(no_base, &Options::new(), Network::Online);
    assert_eq!(
        String::from_utf8_lossy(&extracted.files[0].bytes),
        "<img src=\"about:invalid#..%2F..%2Fetc%2Fp.png\"><img src=\"about:invalid#%2Fetc%2Fx.png\">\
         <a href=\"about:invalid#%2F%2Fevil.example%2Fs\">s</a>\
         <img src=\"about:invalid#file%3A%2F%2F%2Fetc%2Fpasswd\"><a href=\"https://x.example/\">w</a>\
         <a href=\"#top\">t</a>"
    );
    assert_eq!(
        String::from_utf8_lossy(&extracted.files[1].bytes),
        ".a{background:url(about:invalid#..%2Fup.png)}"
    );
    let word = b"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\n\
Content-Location: file:///C:/Users/u/doc.htm\n\n<img src=\"doc_files/image001.png\">\
<img src=\"doc_files/missing.png\">\n--b\nContent-Type: image/png\n\
Content-Location: file:///C:/Users/u/doc_files/image001.png\n\nPNG\n--b--\n";
    let extracted = extract_with(word, &Options::new(), Network::Online);
    assert_eq!(
        String::from_utf8_lossy(&extracted.files[0].bytes),
        "<img src=\"image001.png\"><img src=\"about:invalid#doc_files%2Fmissing.png\">"
    );
    let mhtml = b"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\n\n\
<img src=\"x.png\"><img src=\"y.png\">\n--b\nContent-Type: image/png\nContent-Location: x.png\n\nPNG\n--b--\n";
    let options = Options::new().with_profile(mimebase::Profile::Mhtml);
    let extracted = extract_with(mhtml, &options, Network::Online);
    assert_eq!(
        String::from_utf8_lossy(&extracted.files[0].bytes),
        "<img src=\"x.png\"><img src=\"about:invalid#y.png\">"
    );
}
