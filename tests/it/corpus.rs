//! Real mail from `../shared/corpus/messages/`: every message goes through the library and
//! the CLI without a panic, and what `FEATURES.jsonl` (computed by others with Python's
//! `email` package) says about each message is found again.

use std::path::PathBuf;

use mimebase::{Options, UrlSource, analyze};

use crate::support::cli::mimebase;
use crate::support::{corpus_messages, corpus_or_skip};

#[test]
fn cli_urls_runs_on_every_corpus_message() {
    let Some(files) = corpus_messages() else {
        return;
    };
    let names: Vec<&str> = files.iter().map(|f| f.to_str().unwrap()).collect();
    let output = mimebase(&[&["urls"], &names[..]].concat(), b"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "status {:?}: {stderr}",
        output.status
    );
    // Each file separately too, so that one message's failure cannot hide behind another's.
    for file in names {
        let status = mimebase(&["urls", file], b"").status;
        assert!(matches!(status.code(), Some(0 | 1)), "{file}: {status:?}");
    }
}

#[test]
fn library_report_is_consistent_on_every_corpus_message() {
    let Some(files) = corpus_messages() else {
        return;
    };
    let (mut urls, mut unresolved, mut diagnostics) = (0, 0, 0);
    for file in &files {
        let raw = std::fs::read(file).unwrap();
        let report = analyze(&raw, &Options::new());
        let name = file.display();
        assert!(!report.entities.is_empty(), "{name}: no entity");
        assert_eq!(report.entities[0].part.as_str(), "HEADER", "{name}");
        for entity in &report.entities {
            assert!(entity.header.start <= entity.header.end, "{name}");
            assert!(entity.header.end <= entity.body.start, "{name}");
            assert!(entity.body.start <= entity.body.end, "{name}");
            assert!(entity.body.end <= raw.len(), "{name}");
            // A base without a URL is none, or an attachment's (opened from a temporary file).
            assert_eq!(
                entity.base.url.is_some(),
                !matches!(
                    entity.base.source,
                    mimebase::BaseSource::None | mimebase::BaseSource::Attachment
                ),
                "{name}"
            );
        }
        for url in &report.urls {
            assert!(
                report.entities.iter().any(|e| e.part == url.part),
                "{name}: URL of unknown part {}",
                url.part
            );
            assert_ne!(
                url.resolution.resolved().is_some(),
                url.resolution.unresolved().is_some(),
                "{name}"
            );
        }
        urls += report.urls.len();
        unresolved += report
            .urls
            .iter()
            .filter(|u| u.resolution.resolved().is_none())
            .count();
        diagnostics += report.diagnostics.len();
    }
    eprintln!(
        "corpus: {} messages, {urls} URLs, {unresolved} unresolved, {diagnostics} diagnostics",
        files.len()
    );
}

/// `FEATURES.jsonl` counts, per message, the parts with a `Content-Base`, with a
/// `Content-Location`, and the HTML parts with a `<base href>`. Each must be found again:
/// the same number of entities with that header field (as URL records), and a
/// `html:base@href` record wherever it saw a `<base href>`.
#[test]
fn features_of_the_corpus_are_found_again() {
    let Some(corpus) = corpus_or_skip("") else {
        return;
    };
    let features = std::fs::read_to_string(corpus.join("messages/FEATURES.jsonl")).unwrap();
    let mut checked = 0;
    for line in features.lines() {
        let feature: serde_json::Value = serde_json::from_str(line).unwrap();
        let file = feature["file"].as_str().unwrap();
        let raw = std::fs::read(corpus.join(file)).unwrap();
        let report = analyze(&raw, &Options::new());
        let parts_with = |field: &str| {
            let mut parts: Vec<_> = report
                .urls
                .iter()
                .filter(|u| matches!(&u.source, UrlSource::Header { name, .. } if name.as_str() == field))
                .map(|u| &u.part)
                .collect();
            parts.dedup();
            parts.len() as u64
        };
        assert_eq!(
            parts_with("Content-Base"),
            feature["content_base"].as_u64().unwrap(),
            "{file}: parts with Content-Base"
        );
        assert_eq!(
            parts_with("Content-Location"),
            feature["content_location"].as_u64().unwrap(),
            "{file}: parts with Content-Location"
        );
        let has_html_base = report
            .urls
            .iter()
            .any(|u| u.source.to_string() == "html:base@href");
        assert_eq!(
            has_html_base,
            feature["html_base"].as_u64().unwrap() > 0,
            "{file}: <base href>"
        );
        checked += 1;
    }
    assert_eq!(checked, 75);
}

/// Serialize, deserialize, equal: every report of the whole corpus (messages and the bench
/// set, read as `scan` reads them) reads back from its JSON into an equal `ScanLine`, and
/// writes the same JSON again; `ScanLine::write_json` writes the same bytes as serde.
#[test]
fn reports_round_trip_through_json_on_the_whole_corpus() {
    let Some(corpus) = corpus_or_skip("") else {
        return;
    };
    let roots = vec![corpus.join("messages"), corpus.join("bench")];
    // As much stack as `scan` gives each message: a debug build of the HTML tokenizer needs
    // more than a test thread's 2 MiB for some messages of the bench set.
    let count = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || round_trip(roots))
        .unwrap()
        .join()
        .unwrap();
    assert!(count > 9000, "{count} messages");
}

/// [`reports_round_trip_through_json_on_the_whole_corpus`] over the messages under `roots`;
/// how many there were.
fn round_trip(roots: Vec<PathBuf>) -> usize {
    use mimebase::mailbox::{Input, Messages, Roots, Walker};
    use mimebase::scan::ScanLine;

    let mut count = 0;
    for message in Messages::new(Walker::new(Roots::new(roots, None)), 64 << 20) {
        let Input::Bytes(bytes) = &message.input else {
            panic!("{:?}", message.source)
        };
        let report = analyze(bytes, &Options::new());
        let line = ScanLine::message(&message.source, &report);
        let json = serde_json::to_string(&line).unwrap();
        // `scan` writes its lines with `write_json`, which must write serde's bytes.
        let mut written = Vec::new();
        line.write_json(&mut written);
        assert_eq!(
            String::from_utf8(written).unwrap(),
            json,
            "{}",
            message.source.path
        );
        let read: ScanLine<'static> = serde_json::from_str(&json).unwrap();
        assert_eq!(read, line, "{}", message.source.path);
        assert_eq!(serde_json::to_string(&read).unwrap(), json);
        count += 1;
    }
    count
}

/// The byte range of every HTML URL record of the corpus's messages slices the text
/// `analyze_with_html_text` gives for its part, and the slice is the URL as written: the
/// reference itself when it holds no character reference or CSS escape to decode.
#[test]
fn html_url_ranges_slice_the_decoded_text_on_every_corpus_message() {
    let Some(files) = corpus_messages() else {
        return;
    };
    let (mut sliced, mut verbatim) = (0, 0);
    for file in files {
        let raw = std::fs::read(&file).unwrap();
        let (report, texts) = mimebase::analyze_with_html_text(&raw, &Options::new());
        assert_eq!(report, analyze(&raw, &Options::new()), "{}", file.display());
        for url in &report.urls {
            let UrlSource::Html { range, .. } = &url.source else {
                continue;
            };
            let text = texts.iter().find(|t| t.part == url.part).unwrap();
            let written = text
                .text
                .get(range.start..range.end)
                .unwrap_or_else(|| panic!("{}: {url:?}", file.display()));
            sliced += 1;
            if !written.contains(['&', '\\']) {
                assert_eq!(written.trim(), url.reference, "{}", file.display());
                verbatim += 1;
            }
        }
    }
    assert!(
        sliced > 1000 && verbatim > sliced / 2,
        "{sliced} {verbatim}"
    );
}
