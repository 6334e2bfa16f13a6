//! Fuzzes the file names of `mimebase::extract`: each input line is offered as a part's
//! `Content-Location`, `Content-Disposition` `filename` or `Content-Type` `name`, and the
//! input is also extracted as a message of its own. Oracle: every name is one plain path
//! segment that cannot leave the output directory on Unix or Windows (no separator, no `..`,
//! no leading `.`, no control character, no character Windows refuses, no trailing dot or
//! space, no device name), names are unique ignoring case (Unicode lowercase; extract folds
//! case fully, which is stricter), `index.json` stays free, and
//! the name percent-encoded as a relative URL resolves inside the directory. The input is also
//! the stylesheet of a saved page: every URL `extract` changes in it is a written file's name
//! or an absolute URL.
#![no_main]

use std::collections::HashSet;
use std::path::{Component, Path};

use libfuzzer_sys::fuzz_target;

fn message_from_lines(data: &[u8]) -> Vec<u8> {
    let mut out = b"Content-Type: multipart/mixed; boundary=\"=_b\"\n\n".to_vec();
    for (i, line) in data.split(|&b| b == b'\n').take(64).enumerate() {
        out.extend_from_slice(b"--=_b\n");
        match i % 3 {
            0 => {
                out.extend_from_slice(b"Content-Type: image/png\nContent-Location: ");
                out.extend_from_slice(line);
            }
            1 => {
                out.extend_from_slice(
                    b"Content-Type: image/png\nContent-Disposition: attachment; filename=\"",
                );
                out.extend_from_slice(line);
                out.extend_from_slice(b"\"");
            }
            _ => {
                out.extend_from_slice(b"Content-Type: image/png; name=");
                out.extend_from_slice(line);
            }
        }
        out.extend_from_slice(b"\n\nx\n");
    }
    out.extend_from_slice(b"--=_b--\n");
    out
}

/// `name` percent-encoded as a relative URL path, all but RFC 3986 unreserved characters.
fn url_path(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn check(raw: &[u8]) {
    let extracted = mimebase::extract(raw, &mimebase::Options::new());
    let mut seen = HashSet::new();
    seen.insert("index.json".to_owned());
    for file in &extracted.files {
        let name = file.name.as_str();
        let mut components = Path::new(name).components();
        assert!(
            matches!(
                (components.next(), components.next()),
                (Some(Component::Normal(n)), None) if n == name
            ),
            "not one segment: {name:?}"
        );
        assert!(
            !name.starts_with('.') && !name.ends_with(['.', ' ']),
            "{name:?}"
        );
        assert!(
            !name.chars().any(|c| c.is_control()
                || matches!(c, '/' | '\\' | ':' | '<' | '>' | '"' | '|' | '?' | '*')),
            "{name:?}"
        );
        let device = name
            .split('.')
            .next()
            .unwrap_or(name)
            .trim_end()
            .to_ascii_uppercase();
        let numbered = device.len() == 4
            && (device.starts_with("COM") || device.starts_with("LPT"))
            && device.ends_with(|c: char| c.is_ascii_digit() && c != '0');
        assert!(
            !numbered
                && !["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(&device.as_str()),
            "device name {name:?}"
        );
        assert!(name.len() <= 140, "{name:?}");
        assert!(seen.insert(name.to_lowercase()), "duplicate {name:?}");
        let escaped = url_path(name);
        let joined = ada_url::Url::parse(escaped.as_str(), Some("file:///out/")).unwrap();
        assert!(
            joined.href().starts_with("file:///out/")
                && joined.pathname().matches('/').count() == 2,
            "{name:?} -> {}",
            joined.href()
        );
    }
}

/// A saved page whose stylesheet is `data`: every URL `extract` changed in the written
/// stylesheet is the name of a written file (with a fragment, percent-encoded) or an absolute
/// URL, never a relative path that could leave the directory; and the written stylesheet holds
/// as many URLs as the input.
fn check_stylesheet(data: &[u8]) {
    let mut raw = b"Content-Type: multipart/related; boundary=\"=_b\"\n\n--=_b\n\
Content-Type: text/html\nContent-Location: https://x.example/d/page.html\n\n\
<link rel=stylesheet href=s.css>\n--=_b\n\
Content-Type: image/png\nContent-Location: https://x.example/i/a.png\n\nx\n--=_b\n\
Content-Type: text/css\nContent-Location: https://x.example/d/s.css\n\n"
        .to_vec();
    raw.extend_from_slice(data);
    raw.extend_from_slice(b"\n--=_b--\n");
    let extracted = mimebase::extract(&raw, &mimebase::Options::new());
    let paths: HashSet<String> = extracted.files.iter().map(|f| url_path(&f.name)).collect();
    let Some(css) = extracted
        .files
        .iter()
        .find(|f| f.content_type == "text/css")
    else {
        return;
    };
    let (Ok(before), Ok(after)) = (
        std::str::from_utf8(data.strip_suffix(b"\n").unwrap_or(data)),
        std::str::from_utf8(&css.bytes),
    ) else {
        return;
    };
    let before = mimebase::fuzzing::css_urls(before);
    let after = mimebase::fuzzing::css_urls(after);
    if css.rewritten_urls == 0 {
        return;
    }
    assert_eq!(before.len(), after.len(), "{before:?} -> {after:?}");
    for ((_, old), (_, new)) in before.iter().zip(&after) {
        if old == new {
            continue;
        }
        let is_file = paths.contains(new.split('#').next().unwrap_or_default());
        let is_absolute = ada_url::Url::parse(new.as_str(), None).is_ok();
        assert!(is_file || is_absolute, "{old:?} -> {new:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    check(&message_from_lines(data));
    check(data);
    check_stylesheet(data);
});
