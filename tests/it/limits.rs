//! The size limits of the analysis follow `--max-message-bytes`, and a diagnostic for one that
//! was reached names the option that raises it.

use mimebase::{DiagnosticKind, Options, analyze};

#[cfg(feature = "cli")]
use crate::support::adversarial::base64;
#[cfg(feature = "cli")]
use crate::support::cli::{json_lines, mimebase_in, stderr};
#[cfg(feature = "cli")]
use crate::support::{workdir, write};

#[cfg(feature = "cli")]
/// A message of about `bytes` bytes whose only body part is a base64-encoded `message/rfc822`
/// holding a base64-encoded HTML body with one link at its end: decoding it produces about
/// 1.3 times its size (3/4 for the encapsulated message, 3/4 of that again for its HTML), so
/// a decoded-size budget equal to the message's size does not cover its HTML.
fn nested_base64_html(bytes: usize) -> Vec<u8> {
    let html_bytes = bytes * 9 / 16;
    let mut html = "<p>filler</p>\n".repeat(html_bytes / 14);
    html.push_str("<a href=\"http://deep.example/inside\">x</a>\n");
    let inner = format!(
        "Subject: inner\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n{}",
        base64(html.as_bytes())
    );
    format!(
        "Subject: outer\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\
         Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n--b--\r\n",
        base64(inner.as_bytes())
    )
    .into_bytes()
}

#[cfg(feature = "cli")]
#[test]
fn decoded_size_limit_follows_max_message_bytes() {
    let dir = workdir("decoded");
    let message = nested_base64_html(900 << 10);
    assert!(message.len() < 1 << 20, "{}", message.len());
    let path = dir.join("nested.eml");
    write(&path, &message);
    let path = path.to_str().unwrap();

    // Under 1 MiB the message is read, but its HTML, decoded out of a decoded message, passes
    // the decoded-size budget that 1 MiB gives: not read, and the report says which option
    // raises the limit.
    let output = mimebase_in(
        &dir,
        &["inspect", "--json", "--max-message-bytes", "1M", path],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let record = &json_lines(&output)[0];
    assert_eq!(record["complete"], false);
    assert!(record["urls"].as_array().unwrap().is_empty(), "{record}");
    let limit = record["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "decoded_size_limit")
        .unwrap_or_else(|| panic!("no decoded_size_limit diagnostic: {record}"));
    let text = limit["message"].as_str().unwrap();
    assert!(text.contains("1048576 bytes"), "{text}");
    assert!(
        text.contains("--max-message-bytes raises the limit"),
        "{text}"
    );
    // The text output names it too.
    let output = mimebase_in(&dir, &["inspect", "--max-message-bytes", "1M", path], b"");
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        shown.contains("--max-message-bytes raises the limit"),
        "{shown}"
    );

    // Raised, the same message's HTML is read and its link found.
    let output = mimebase_in(
        &dir,
        &["inspect", "--json", "--max-message-bytes", "2M", path],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let record = &json_lines(&output)[0];
    assert_eq!(record["complete"], true, "{record}");
    let resolved: Vec<&str> = record["urls"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|url| url["resolved"].as_str())
        .collect();
    assert_eq!(resolved, ["http://deep.example/inside"]);
}

/// The header limit follows `max_message_bytes` in the library, and its diagnostic names the
/// option that set it.
#[test]
fn header_limit_follows_max_message_bytes() {
    let message = format!(
        "X-Long: {}\r\nContent-Type: text/html\r\n\r\n<a href=\"http://h.example/\">x</a>",
        "x".repeat(300)
    );
    let derived = analyze(
        message.as_bytes(),
        &Options::new().with_max_message_bytes(200),
    );
    let texts = |report: &mimebase::Report| -> Vec<String> {
        report
            .diagnostics
            .iter()
            .filter(|d| d.kind == DiagnosticKind::HeaderTooLarge)
            .map(|d| d.message.clone())
            .collect()
    };
    let said = texts(&derived);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("more than the limit of 200"), "{said:?}");
    assert!(
        said[0].contains("(--max-message-bytes raises the limit)"),
        "{said:?}"
    );
    // The field after it is still read.
    assert_eq!(derived.urls.len(), 1);

    let own = Options::new()
        .with_max_message_bytes(200)
        .with_max_header_bytes(100);
    let said = texts(&analyze(message.as_bytes(), &own));
    assert!(
        said[0].contains("(max_header_bytes raises the limit)"),
        "{said:?}"
    );

    // The default follows the message size: raised, nothing is cut.
    let raised = analyze(
        message.as_bytes(),
        &Options::new().with_max_message_bytes(1000),
    );
    assert!(texts(&raised).is_empty());
    assert!(raised.complete);
}

/// The count limits have options of their own on the command line, which their diagnostics
/// name: lowered, they cut; the default reads the message whole.
#[cfg(feature = "cli")]
#[test]
fn count_limits_have_options_that_their_diagnostics_name() {
    use crate::support::cli::{mimebase, stdout};

    // Three levels of multipart, the link in the innermost.
    let message = b"Content-Type: multipart/mixed; boundary=a\n\n--a\n\
        Content-Type: multipart/mixed; boundary=b\n\n--b\n\
        Content-Type: text/html\n\n<a href=\"http://x.example/\">x</a>\n--b--\n--a--\n";
    let whole = mimebase(&["urls"], message);
    assert_eq!(stdout(&whole), "http://x.example/\thttp://x.example/\n");
    assert_eq!(stderr(&whole), "");
    for (option, value, said) in [
        ("--max-depth", "1", "(--max-depth raises the limit)"),
        ("--max-entities", "2", "(--max-entities raises the limit)"),
    ] {
        let cut = mimebase(&["urls", option, value], message);
        assert_eq!(cut.status.code(), Some(0), "{option}");
        assert_eq!(stdout(&cut), "", "{option}");
        assert!(
            stderr(&cut).starts_with("mimebase: -: incomplete: ") && stderr(&cut).contains(said),
            "{option}: {}",
            stderr(&cut)
        );
    }
    // Encoded encapsulated messages: one level, cut at 0.
    let encoded = format!(
        "Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n{}\n",
        base64(b"Content-Type: text/html\n\n<a href=\"http://x.example/\">x</a>\n")
    );
    let read = mimebase(&["urls"], encoded.as_bytes());
    assert_eq!(stdout(&read), "http://x.example/\thttp://x.example/\n");
    let cut = mimebase(&["urls", "--max-encoded-levels", "0"], encoded.as_bytes());
    assert_eq!(stdout(&cut), "");
    assert!(
        stderr(&cut).contains("(--max-encoded-levels raises the limit)"),
        "{}",
        stderr(&cut)
    );
}
