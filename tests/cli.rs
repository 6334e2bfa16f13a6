//! The `mimebase` binary, spawned as a user would run it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn mimebase(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mimebase"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

const CNN: &str = "../shared/corpus/messages/trec07p/inmail.971";

#[test]
fn urls_on_real_message_with_html_base() {
    assert!(Path::new(env!("CARGO_MANIFEST_DIR")).join(CNN).exists());
    let output = mimebase(&["urls", CNN], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.lines()
            .any(|l| l == "http://money.cnn.com/magazines/fortune/\t/magazines/fortune/"),
        "{text}"
    );
}

#[test]
fn inspect_on_real_message_shows_html_base() {
    let output = mimebase(&["inspect", CNN], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(format!("== {CNN}").as_str()));
    assert_eq!(lines.next(), Some("HEADER  text/html"));
    assert_eq!(
        lines.next(),
        Some("  base  http://money.cnn.com/  (html:base)")
    );
    assert_eq!(lines.next(), Some("  header-level base  none"));
}

#[test]
fn stdin_by_default_and_with_dash() {
    let message = b"Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"g\">";
    for args in [&["urls"][..], &["urls", "-"][..]] {
        let output = mimebase(args, message);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            stdout(&output),
            "http://b/dir/\thttp://b/dir/\nhttp://b/dir/g\tg\n"
        );
    }
}

#[test]
fn unresolved_url_has_empty_first_column() {
    let output = mimebase(&["urls"], b"Content-Type: text/html\n\n<a href=\"g\">");
    assert_eq!(stdout(&output), "\tg\n");
}

#[test]
fn retrieval_url_option() {
    let output = mimebase(
        &["urls", "--retrieval-url", "http://archive/m/1"],
        b"Content-Type: text/html\n\n<img src=\"i.png\">",
    );
    assert_eq!(stdout(&output), "http://archive/m/i.png\ti.png\n");
}

#[test]
fn unreadable_input_exits_2_and_the_rest_is_processed() {
    let output = mimebase(&["urls", "no/such/file.eml", "-"], b"Base: http://b/\n\nx");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "http://b/\thttp://b/\n");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("mimebase: no/such/file.eml: "),
        "{stderr}"
    );
}

#[test]
fn several_files_in_order() {
    let output = mimebase(&["inspect", CNN, "-"], b"Subject: x\n\nbody");
    let text = stdout(&output);
    let headers: Vec<_> = text.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(headers, [format!("== {CNN}").as_str(), "== -"]);
}

#[test]
fn usage_error_is_claps() {
    let output = mimebase(&["frobnicate"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr).unwrap().contains("Usage"));
}

fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn inspect_json_one_message_record_per_input() {
    let output = mimebase(
        &["inspect", "--json", CNN, "-"],
        b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n<a href=x>\n",
    );
    assert_eq!(output.status.code(), Some(0));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["type"], "message");
    assert_eq!(lines[0]["input"], CNN);
    assert_eq!(
        lines[0]["entities"][0]["base"]["url"],
        "http://money.cnn.com/"
    );
    assert_eq!(lines[0]["entities"][0]["base"]["source"], "html:base");
    let stdin = &lines[1];
    assert_eq!(stdin["input"], "-");
    assert_eq!(stdin["entities"][1]["part"], "1");
    assert_eq!(stdin["entities"][1]["parent"], "HEADER");
    assert_eq!(stdin["urls"][0]["unresolved"], "no_base");
    assert_eq!(stdin["urls"][0]["resolved"], serde_json::Value::Null);
    assert_eq!(stdin["diagnostics"][0]["kind"], "missing_close_delimiter");
    assert_eq!(stdin["diagnostics"][0]["part"], "HEADER");
}

#[test]
fn urls_json_one_record_per_url() {
    let output = mimebase(
        &[
            "urls",
            "--json",
            "--resolver",
            "rfc3986",
            "--retrieval-url",
            "http://r/a/b",
        ],
        b"Content-Type: text/html\n\n<a href=\"../x\"></a><img srcset=\"i.png 1x, j.png 2x\">",
    );
    let lines = json_lines(&output);
    let fields: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                l["type"].as_str().unwrap(),
                l["source"].as_str().unwrap(),
                l["resolved"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("url", "html:a@href", "http://r/x"),
            ("url", "html:img@srcset", "http://r/a/i.png"),
            ("url", "html:img@srcset", "http://r/a/j.png"),
        ]
    );
    assert!(
        lines
            .iter()
            .all(|l| l["resolver"] == "rfc3986" && l["input"] == "-")
    );
    assert_eq!(lines[0]["base"]["source"], "retrieval");
    assert_eq!(lines[0]["range"]["start"], 9);
}

#[test]
fn profile_option() {
    let message =
        b"Content-Location: http://cl/\nBase: http://b/\nContent-Type: text/html\n\n<a href=\"g\">";
    let default = json_lines(&mimebase(&["inspect", "--json"], message));
    assert_eq!(default[0]["entities"][0]["base"]["url"], "http://b/");
    let mhtml = json_lines(&mimebase(
        &["inspect", "--json", "--profile", "mhtml"],
        message,
    ));
    assert_eq!(mhtml[0]["entities"][0]["base"]["url"], "http://cl/");
}

#[test]
fn message_id_in_json() {
    let lines = json_lines(&mimebase(
        &["inspect", "--json"],
        b"Message-ID:\n <a@b>\n\nx",
    ));
    assert_eq!(lines[0]["message_id"], "<a@b>");
}

#[test]
fn rewrite_writes_the_message_with_absolute_links() {
    let input = b"Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"g\">g</a> <a href=\"http://x/\">x</a>\n";
    let output = mimebase(&["rewrite", "-"], input);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"http://b/dir/g\">g</a> <a href=\"http://x/\">x</a>\n"
    );
    // With a retrieval URL and another resolver, from a file.
    let output = mimebase(
        &[
            "rewrite",
            "--resolver",
            "rfc3986",
            "--retrieval-url",
            "http://r/a/b",
            "samples/basestriker.eml",
        ],
        b"",
    );
    let text = stdout(&output);
    assert!(
        text.contains("<a href=\"http://phish.example.net/bank.example.com/verify/login.html\">"),
        "{text}"
    );
    assert!(text.starts_with("From: \"Account Security\" <security@bank.example.com>\n"));
}

#[test]
fn rewrite_reports_parts_left_unchanged_on_stderr() {
    let input = b"Base: http://b/\nContent-Type: text/html; charset=x-unknown\n\n<a href=\"g\">\n";
    let output = mimebase(&["rewrite"], input);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stdout, input);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("mimebase: -: part HEADER: part left unchanged: unknown charset"),
        "{stderr}"
    );
}

#[test]
fn rewrite_unreadable_file_exits_2() {
    let output = mimebase(&["rewrite", "no/such.eml"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
}
