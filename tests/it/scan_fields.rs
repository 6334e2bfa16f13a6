//! `ScanLine::write_json_fields` and `mimebase scan --fields`: a line with some keys is the full
//! line with the others taken out, on every message of the corpus and for every key.

use pretty_assertions::assert_eq;
use serde_json::{Map, Value};

use mimebase::Options;
use mimebase::scan::{Fields, RecordField, ScanLine, Source};

use crate::support::corpus_messages;

/// The JSON keys of a line (or of a URL record, for a `urls.KEY`) that `field` stands for.
fn keys(field: RecordField) -> Vec<&'static str> {
    match field {
        RecordField::Path => vec!["path", "path_bytes"],
        RecordField::UrlSource => vec!["source", "field", "item", "range", "srcdoc"],
        other => {
            let name = other.as_str();
            vec![name.strip_prefix("urls.").unwrap_or(name)]
        }
    }
}

/// The full line `full` with only what `fields` asks for: the oracle, built from the
/// documented rule on the parsed line, not from the writer.
fn projected(full: &Value, fields: &[RecordField]) -> Value {
    let full = full.as_object().unwrap();
    let is_url_key = |field: &RecordField| field.as_str().starts_with("urls.");
    let mut line = Map::new();
    line.insert("type".into(), full["type"].clone());
    for field in fields.iter().filter(|f| !is_url_key(f)) {
        for key in keys(*field) {
            if let Some(value) = full.get(key) {
                line.insert(key.into(), value.clone());
            }
        }
    }
    if fields.iter().any(is_url_key) {
        let urls = full["urls"].as_array().unwrap().iter().map(|url| {
            let url = url.as_object().unwrap();
            let mut kept = Map::new();
            for field in fields.iter().filter(|f| is_url_key(f)) {
                for key in keys(*field) {
                    if let Some(value) = url.get(key) {
                        kept.insert(key.into(), value.clone());
                    }
                }
            }
            Value::Object(kept)
        });
        line.insert("urls".into(), Value::Array(urls.collect()));
    }
    Value::Object(line)
}

fn written(line: &ScanLine<'_>, fields: &[RecordField]) -> Vec<u8> {
    let mut out = Vec::new();
    line.write_json_fields(fields.iter().copied().collect::<Fields>(), &mut out);
    out
}

#[test]
fn every_key_of_every_corpus_message_is_the_full_lines() {
    let Some(messages) = corpus_messages() else {
        return;
    };
    let line_keys: Vec<RecordField> = RecordField::ALL
        .into_iter()
        .filter(|f| !f.as_str().starts_with("urls."))
        .collect();
    let url_keys: Vec<RecordField> = RecordField::ALL
        .into_iter()
        .filter(|f| f.as_str().starts_with("urls."))
        .collect();
    let mut every: Vec<RecordField> = line_keys.clone();
    every.retain(|f| *f != RecordField::Urls);
    every.extend(&url_keys);
    for path in messages {
        let raw = std::fs::read(&path).unwrap();
        let report = mimebase::analyze(&raw, &Options::new());
        let source = Source {
            path_bytes: Some(b"a\xffb".to_vec()),
            ..Source::file(path.to_string_lossy(), raw.len() as u64)
        };
        let line = ScanLine::message(&source, &report);
        let mut full = Vec::new();
        line.write_json(&mut full);
        // Every key of the line, or every key of the line and of each URL record, is the full
        // line, byte for byte: the same values in the same order.
        assert_eq!(written(&line, &line_keys), full, "{}", path.display());
        assert_eq!(written(&line, &every), full, "{}", path.display());
        let full: Value = serde_json::from_slice(&full).unwrap();
        // Each key alone, and a set an index would ask for.
        let index = [
            RecordField::Path,
            RecordField::Offset,
            RecordField::Summary,
            RecordField::UrlResolved,
            RecordField::UrlText,
        ];
        for fields in RecordField::ALL
            .iter()
            .map(std::slice::from_ref)
            .chain([&index[..], &[]])
        {
            let lean: Value = serde_json::from_slice(&written(&line, fields)).unwrap();
            assert_eq!(
                lean,
                projected(&full, fields),
                "{} {fields:?}",
                path.display()
            );
        }
    }
}

#[test]
fn an_error_line_is_written_whole() {
    let source = Source::unknown("gone.eml");
    let line = ScanLine::error(&source, mimebase::scan::ScanErrorKind::Read, "gone");
    let mut full = Vec::new();
    line.write_json(&mut full);
    assert_eq!(written(&line, &[RecordField::Summary]), full);
}

#[test]
fn field_lists_parse_and_refuse_unknown_names() {
    let fields: Fields = "path,urls.resolved".parse().unwrap();
    assert!(fields.contains(RecordField::Path) && fields.contains(RecordField::UrlResolved));
    assert!(!fields.contains(RecordField::Urls));
    let error = "path,url.resolved".parse::<Fields>().unwrap_err();
    assert_eq!(error.name, "url.resolved");
}

#[cfg(feature = "cli")]
#[test]
fn scan_fields_writes_the_asked_keys() {
    use crate::support::cli::{json_lines, mimebase_in, stderr};
    use crate::support::{workdir, write};

    let dir = workdir("cli");
    write(
        &dir.join("in/a.eml"),
        b"Subject: =?utf-8?q?caf=C3=A9?=\r\nFrom: a@example.com\r\nContent-Type: text/html\r\n\r\n\
          <a href=\"http://example.com/x\">see</a><img src=\"y.png\">",
    );
    let full = mimebase_in(&dir, &["scan", "-q", "in"], b"");
    let lean = mimebase_in(
        &dir,
        &["scan", "-q", "--fields", "urls.resolved,summary,path", "in"],
        b"",
    );
    assert_eq!(lean.status.code(), Some(0), "{}", stderr(&lean));
    let fields = [
        RecordField::Path,
        RecordField::Summary,
        RecordField::UrlResolved,
    ];
    let full = json_lines(&full);
    assert_eq!(json_lines(&lean), [projected(&full[0], &fields)]);
    assert_eq!(json_lines(&lean)[0]["summary"]["subject"], "café");
    // The line's own order, whatever the order asked in.
    let text = String::from_utf8(lean.stdout).unwrap();
    assert!(
        text.starts_with("{\"type\":\"message\",\"path\":"),
        "{text}"
    );
    // A name that is not a key is a usage error.
    let bad = mimebase_in(&dir, &["scan", "--fields", "subject", "in"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("subject"), "{}", stderr(&bad));
}
