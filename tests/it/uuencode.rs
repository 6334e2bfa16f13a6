//! The uuencode transfer encodings (`x-uuencode`, `x-uue`, `uuencode`, `uue`: not in RFC 2045,
//! decoded by GMime, Thunderbird and Python's `email`), against two oracles: Python's
//! `binascii.b2a_uu`, the reference encoder, whose output must decode to what it encoded, and
//! GMime 3's decoder, which must read the same text. Both through `tests/support/uu_oracle.py`;
//! the GMime half is skipped, with the reason printed, only where GMime cannot be imported.
//! The decoder's answers on damaged bodies, each against GMime and Python, are the unit tests
//! of `src/mime/transfer.rs`; its fuzz target (`fuzz/fuzz_targets/uudecode.rs`) round-trips
//! arbitrary bytes through another reference encoder.

use std::io::Write as _;
use std::process::{Command, Stdio};

use mimebase::{DiagnosticKind, Options, analyze, analyze_with_html_text, rewrite};

use crate::support::xorshift::XorShift;
use crate::support::{gmime, kinds, root};

/// `count` HTML texts of up to 300 characters, printable ASCII and line breaks, each with one
/// link, `https://uuN.example/p` (no `<`, `>` or `&` around it, which could hide it in
/// markup), and many with a byte whose low bits are zero last on a line of the encoding (`@`,
/// `D`, `H`, …: a zero character there, which trailing-space stripping removes).
fn payloads(count: usize) -> Vec<String> {
    const ALPHABET: &[u8] =
        b" !\"#$%'()*+,-./0123456789:;=?@ABCDHLPTXabcdhlptx|~`\\^_{}[]\n\n     ";
    let mut rng = XorShift(0x5eed_0f0a_u64);
    (0..count)
        .map(|i| {
            let length = rng.below(300);
            let mut text: String = (0..length)
                .map(|_| char::from(ALPHABET[rng.below(ALPHABET.len())]))
                .collect();
            let at = rng.below(text.len() + 1);
            text.insert_str(at, &format!("<a href=\"https://uu{i}.example/p\">"));
            text
        })
        .collect()
}

/// What `uu_oracle.py` gives for one payload.
struct Oracle {
    /// The payload uuencoded by `binascii.b2a_uu`.
    clean: String,
    /// The same with each line's trailing spaces removed.
    stripped: String,
    /// GMime's decoding of each, where GMime could be imported.
    gmime: Option<(String, String)>,
}

fn oracles(payloads: &[String], with_gmime: Option<&str>) -> Vec<Oracle> {
    let script = root().join("tests/support/uu_oracle.py");
    let mut command = Command::new(with_gmime.unwrap_or("python3"));
    command.arg(&script);
    if with_gmime.is_some() {
        command.arg("--gmime");
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("this test needs python3 (binascii is the oracle): {e}"));
    let mut input = String::new();
    for payload in payloads {
        input.push_str(&serde_json::to_string(payload).unwrap());
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let oracles: Vec<Oracle> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let text = |v: &serde_json::Value| v.as_str().unwrap().to_owned();
            Oracle {
                clean: text(&value["clean"]),
                stripped: text(&value["stripped"]),
                gmime: value["gmime"]
                    .as_object()
                    .map(|g| (text(&g["clean"]), text(&g["stripped"]))),
            }
        })
        .collect();
    assert_eq!(oracles.len(), payloads.len());
    oracles
}

/// The decoded HTML and the URLs of a message whose one part is `body` in `encoding`.
fn read(body: &str, encoding: &str) -> (String, Vec<String>, Vec<DiagnosticKind>) {
    let message = format!(
        "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: {encoding}\n\n{body}"
    );
    let (report, texts) = analyze_with_html_text(message.as_bytes(), &Options::new());
    let [text] = &texts[..] else {
        panic!("one HTML part expected: {texts:?}")
    };
    let urls = report.urls.iter().map(|u| u.reference.clone()).collect();
    (text.text.clone(), urls, kinds(&report))
}

/// Every payload, uuencoded by Python's reference encoder, decodes to itself under each of the
/// four names, its link found; GMime decodes the same bodies to the same text. With the
/// trailing spaces of its lines stripped (as gateways strip them), a body still decodes to the
/// payload, with a diagnostic where a line came out short: the missing bits are zeros, which
/// we restore as Thunderbird and Python do; GMime drops such a line's last group, and the
/// count of payloads where it then differs is printed.
#[test]
fn uuencoded_bodies_decode_to_what_the_reference_encoder_encoded() {
    let with_gmime = match gmime::python() {
        Ok(python) => Some(python),
        Err(why) => {
            crate::support::skipped(&format!("uuencode: the GMime half: {why}"));
            None
        }
    };
    let payloads = payloads(120);
    let oracles = oracles(&payloads, with_gmime);
    let names = ["x-uuencode", "x-uue", "uuencode", "UUE"];
    let mut stripped_damaged = 0;
    let mut gmime_lost = 0;
    for (i, (payload, oracle)) in payloads.iter().zip(&oracles).enumerate() {
        let link = format!("https://uu{i}.example/p");
        let name = names[i % names.len()];
        let (text, urls, found) = read(&oracle.clean, name);
        assert_eq!(&text, payload, "payload {i} ({name})");
        assert!(urls.contains(&link), "payload {i}: {urls:?}");
        assert_eq!(found, [], "payload {i}");
        let (text, urls, found) = read(&oracle.stripped, name);
        assert_eq!(&text, payload, "payload {i}, stripped");
        assert!(urls.contains(&link), "payload {i}, stripped: {urls:?}");
        match &found[..] {
            [] => {}
            [DiagnosticKind::BadTransferEncoding] => stripped_damaged += 1,
            other => panic!("payload {i}, stripped: {other:?}"),
        }
        if let Some((clean, stripped)) = &oracle.gmime {
            assert_eq!(clean, payload, "GMime, payload {i}");
            gmime_lost += usize::from(stripped != payload);
        }
    }
    assert!(stripped_damaged > 10, "{stripped_damaged}");
    eprintln!(
        "uuencode: {} payloads; stripped of trailing spaces, {stripped_damaged} had short lines, \
         decoded whole; GMime lost bytes of {}",
        payloads.len(),
        with_gmime.map_or("? (not run)".to_owned(), |_| gmime_lost.to_string())
    );
}

/// `rewrite` does not write uuencode: a uuencoded HTML part with a relative link is left as it
/// was, byte for byte, with a diagnostic, while `analyze` resolves the link against the
/// message's `Content-Base`.
#[test]
fn rewrite_leaves_a_uuencoded_html_part_as_it_was() {
    let path = root().join("tests/data/evasions/uuencoded-html-relative.eml");
    let raw = std::fs::read(path).unwrap();
    let report = analyze(&raw, &Options::new());
    let resolved: Vec<_> = report
        .urls
        .iter()
        .filter_map(|u| u.resolution.resolved())
        .collect();
    // The Content-Base field's own URL record first, then the two links of the HTML.
    assert_eq!(
        resolved,
        [
            "https://uuencoded.example/account/",
            "https://uuencoded.example/account/statement.html?id=42",
            "https://uuencoded.example/account/logo.png"
        ]
    );
    let rewritten = rewrite(&raw, &Options::new());
    assert_eq!(rewritten.message, raw);
    assert_eq!(rewritten.rewritten_urls, 0);
    assert!(rewritten.changed.is_empty());
    assert_eq!(kinds(&rewritten.report), [DiagnosticKind::RewriteSkipped]);
}
