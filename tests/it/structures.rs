//! Every MIME structure the walker must handle (entities, bad input), through the public `analyze`.

use mimebase::{BaseSource, DiagnosticKind, Options, Report, analyze};
use pretty_assertions::assert_eq;

use crate::support::adversarial::base64;
use crate::support::kinds;

fn run(message: &[u8]) -> Report {
    analyze(message, &Options::new())
}

fn tree(report: &Report) -> Vec<(&str, &str)> {
    report
        .entities
        .iter()
        .map(|e| (e.part.as_str(), e.content_type.as_str()))
        .collect()
}

#[test]
fn message_global_and_news_are_encapsulating() {
    for subtype in ["rfc822", "global", "news"] {
        let message = format!(
            "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/{subtype}\n\n\
             Subject: inner\nContent-Type: text/html\n\n<a href=x>\n--b--\n"
        );
        let report = run(message.as_bytes());
        let outer = format!("message/{subtype}");
        assert_eq!(
            tree(&report),
            [
                ("HEADER", "multipart/mixed"),
                ("1", outer.as_str()),
                ("1.HEADER", "text/html")
            ]
        );
    }
}

#[test]
fn root_whose_body_is_a_message() {
    let report =
        run(b"Content-Type: message/rfc822\n\nContent-Type: message/rfc822\n\nSubject: x\n\nbody");
    assert_eq!(
        tree(&report),
        [
            ("HEADER", "message/rfc822"),
            ("1.HEADER", "message/rfc822"),
            ("1.1.HEADER", "text/plain")
        ]
    );
}

#[test]
fn digest_parts_default_to_message_rfc822() {
    let report = run(b"Content-Type: multipart/digest; boundary=d\n\n--d\n\nSubject: a\n\nA\n--d\nContent-Type: text/plain\n\nB\n--d--\n");
    assert_eq!(
        tree(&report),
        [
            ("HEADER", "multipart/digest"),
            ("1", "message/rfc822"),
            ("1.HEADER", "text/plain"),
            ("2", "text/plain"),
        ]
    );
}

fn inner_message() -> String {
    "Base: http://inner/dir/\nContent-Type: text/html\n\n<a href=\"g\">x</a>\n".to_owned()
}

#[test]
fn base64_encapsulated_message_is_decoded_and_walked() {
    let message = format!(
        "Content-Type: multipart/mixed; boundary=b\nContent-Base: http://outer/\n\n--b\n\
         Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n{}\n--b--\n",
        base64(inner_message().as_bytes())
    );
    let report = run(message.as_bytes());
    assert_eq!(tree(&report)[2], ("1.HEADER", "text/html"));
    let inner = &report.entities[2];
    assert_eq!(inner.decoded_from.as_ref().unwrap().as_str(), "1");
    assert_eq!(inner.header_base.source, BaseSource::HeaderBase);
    // The ranges index the decoded body of part 1.
    let decoded = inner_message();
    assert_eq!(
        &decoded[inner.body.start..inner.body.end],
        "<a href=\"g\">x</a>\n"
    );
    assert_eq!(
        report.urls.last().unwrap().resolution.resolved(),
        Some("http://inner/dir/g")
    );
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn quoted_printable_encapsulated_message_inherits_base() {
    let message = "Content-Type: multipart/mixed; boundary=b\nContent-Base: http://outer/\n\n--b\n\
         Content-Type: message/rfc822\nContent-Transfer-Encoding: quoted-printable\n\n\
         Subject: qp\nContent-Type: text/html\n\n<a href=3D\"g\">x</a>=\n\n--b--\n";
    let report = run(message.as_bytes());
    let inner = &report.entities[2];
    assert_eq!(inner.part.as_str(), "1.HEADER");
    assert_eq!(inner.base.source, BaseSource::Inherited);
    assert_eq!(
        report.urls.last().unwrap().resolution.resolved(),
        Some("http://outer/g")
    );
}

#[test]
fn encoded_levels_limit() {
    let mut message = inner_message();
    for _ in 0..6 {
        message = format!(
            "Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n{}\n",
            base64(message.as_bytes())
        );
    }
    let report = run(message.as_bytes());
    assert_eq!(report.entities.len(), 5, "{:?}", tree(&report));
    assert_eq!(kinds(&report), [DiagnosticKind::EncodedLevelLimit]);
    let deeper = analyze(
        message.as_bytes(),
        &Options::new().with_max_encoded_levels(6),
    );
    assert_eq!(deeper.entities.len(), 7);
    assert_eq!(
        deeper.urls.last().unwrap().resolution.resolved(),
        Some("http://inner/dir/g")
    );
}

/// RFC 2045 §6.8: what is not in the base64 alphabet is ignored, and the rest decoded (here
/// `notbase64`, nine characters: the last, six bits, makes no byte).
#[test]
fn base64_message_with_junk_is_decoded_past_it_with_a_diagnostic() {
    let report = run(
        b"Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n!!!not base64!!!\n",
    );
    assert_eq!(
        kinds(&report),
        [
            DiagnosticKind::BadTransferEncoding,
            DiagnosticKind::NoHeader
        ]
    );
    assert!(
        report.diagnostics[0]
            .message
            .contains("6 bytes outside the base64 alphabet ignored, the first at byte 0"),
        "{}",
        report.diagnostics[0].message
    );
    assert_eq!(report.entities.len(), 2);
}

#[test]
fn preamble_epilogue_and_missing_close_delimiter() {
    let report = run(b"Content-Type: multipart/mixed; boundary=b\n\npreamble <a href=no>\n--b\nContent-Type: text/html\n\n<a href=yes>\n--b\n\nlast part");
    assert_eq!(
        tree(&report),
        [
            ("HEADER", "multipart/mixed"),
            ("1", "text/html"),
            ("2", "text/plain")
        ]
    );
    assert_eq!(kinds(&report), [DiagnosticKind::MissingCloseDelimiter]);
    assert_eq!(report.urls.len(), 1);
    let closed = run(b"Content-Type: multipart/mixed; boundary=b\n\n--b\n\none\n--b--\nepilogue\n--b\n\nnot a part\n");
    assert_eq!(closed.entities.len(), 2);
}

#[test]
fn no_header_block() {
    let report = run(b"<html><a href=\"x\">");
    assert_eq!(kinds(&report), [DiagnosticKind::NoHeader]);
    assert_eq!(report.entities[0].body.start, 0);
}

#[test]
fn multipart_without_boundary() {
    let report = run(b"Content-Type: multipart/mixed\n\n--x\n\nbody\n--x--\n");
    assert_eq!(kinds(&report), [DiagnosticKind::MissingBoundary]);
    assert_eq!(report.entities.len(), 1);
}

#[test]
fn mixed_line_endings() {
    let report = run(b"Content-Type: multipart/mixed; boundary=b\r\nBase: http://b/\n\r\n--b\r\nContent-Type: text/html\n\n<a href=x>\r\n--b--\n");
    assert_eq!(
        tree(&report),
        [("HEADER", "multipart/mixed"), ("1", "text/html")]
    );
    assert_eq!(
        report.urls.last().unwrap().resolution.resolved(),
        Some("http://b/x")
    );
}

#[test]
fn eight_bit_bytes_and_nuls_in_headers() {
    let report = run(
        b"Subject: caf\xe9 \x00\xff\nBase: http://b/\xff/\nContent-Type: text/html\n\n<a href=x>",
    );
    assert_eq!(
        report.entities[0].base.url.as_deref(),
        Some("http://b/\u{fffd}/")
    );
    assert_eq!(report.urls.len(), 2);
}

#[test]
fn rfc2231_boundary_parameter() {
    let report =
        run(b"Content-Type: multipart/mixed; boundary*=us-ascii''b%41\n\n--bA\n\none\n--bA--\n");
    assert_eq!(
        tree(&report),
        [("HEADER", "multipart/mixed"), ("1", "text/plain")]
    );
}

#[test]
fn transfer_encoding_with_a_comment() {
    let report = run(b"Base: http://b/\nContent-Type: text/html\nContent-Transfer-Encoding: Quoted-Printable (from the gateway)\n\n<a href=3D\"x.html\">\n");
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert_eq!(
        report.urls[1].resolution.resolved(),
        Some("http://b/x.html")
    );
}
