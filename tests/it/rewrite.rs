//! `rewrite`: byte-exact results on hand-written messages, and its round-trip properties (the
//! same tree, the same resolved URLs, untouched headers and non-HTML parts, idempotence) over
//! every message of `../shared/corpus/messages/`.

use std::collections::HashMap;

use base64::Engine as _;
use mimebase::{DiagnosticKind, Options, Report, UrlSource, analyze, rewrite};
use pretty_assertions::assert_eq;

use crate::support::{corpus_messages, root, to_crlf};

/// Rewrites `input` with LF and with CRLF line endings and checks the result is `expected`
/// with the same line endings, byte for byte.
#[track_caller]
fn check(input: &[u8], expected: &[u8]) {
    let options = Options::new();
    let lf = rewrite(input, &options);
    assert_eq!(
        String::from_utf8_lossy(&lf.message),
        String::from_utf8_lossy(expected)
    );
    let crlf_out = rewrite(&to_crlf(input), &options);
    assert_eq!(
        String::from_utf8_lossy(&crlf_out.message),
        String::from_utf8_lossy(&to_crlf(expected))
    );
    // Idempotent.
    assert_eq!(rewrite(&lf.message, &options).message, lf.message);
}

#[test]
fn quotes_unquoted_values_and_ampersands_8bit_utf8() {
    check(
        "Content-Base: http://x.example/a/\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n\
         <p>caf\u{e9}</p><a href=\"b?x=1&amp;y=2\">1</a><a href='c d'>2</a><img src=e.png><a HREF = f>3</a>\n\
         <a href=\"mailto:x@y\">4</a><a href=\"#top\">5</a><a href=\"  g  \">6</a>\n"
            .as_bytes(),
        "Content-Base: http://x.example/a/\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n\
         <p>caf\u{e9}</p><a href=\"http://x.example/a/b?x=1&amp;y=2\">1</a><a href='http://x.example/a/c d'>2</a><img src=http://x.example/a/e.png><a HREF = http://x.example/a/f>3</a>\n\
         <a href=\"mailto:x@y\">4</a><a href=\"#top\">5</a><a href=\"  http://x.example/a/g  \">6</a>\n"
            .as_bytes(),
    );
}

#[test]
fn unquoted_value_that_needs_quotes_gets_them() {
    // A quote in the resolved URL would break an unquoted value.
    check(
        b"Base: http://x/it's/\nContent-Type: text/html\n\n<a href=c>x</a>\n",
        b"Base: http://x/it's/\nContent-Type: text/html\n\n<a href=\"http://x/it's/c\">x</a>\n",
    );
    check(
        b"Content-Type: text/html\n\n<base href=\"http://x/q'uote/\"><a href=c>x</a>\n",
        b"Content-Type: text/html\n\n<base href=\"http://x/q'uote/\"><a href=\"http://x/q'uote/c\">x</a>\n",
    );
}

#[test]
fn latin1_body_keeps_its_bytes_and_gets_references_for_what_it_cannot_hold() {
    // "é" is one byte in ISO-8859-1 (windows-1252 for WHATWG labels); a resolved URL with
    // "Ω" cannot be held, so it becomes a numeric character reference.
    let mut input = b"Base: http://x/\xce\xa9/\nContent-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n<p>caf\xe9</p><a href=\"g\">".to_vec();
    input.extend(b"</a>\n");
    let mut expected =
        b"Base: http://x/\xce\xa9/\nContent-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n<p>caf\xe9</p><a href=\"http://x/&#937;/g\">".to_vec();
    expected.extend(b"</a>\n");
    check(&input, &expected);
}

#[test]
fn shift_jis_body() {
    let (html, _, _) = encoding_rs::SHIFT_JIS.encode("<p>日本語</p><a href=\"次.html\">次へ</a>\n");
    let (new_html, _, _) = encoding_rs::SHIFT_JIS
        .encode("<p>日本語</p><a href=\"http://jp.example/次.html\">次へ</a>\n");
    let head = b"Base: http://jp.example/\nContent-Type: text/html; charset=Shift_JIS\nContent-Transfer-Encoding: 8bit\n\n";
    check(
        &[&head[..], &html].concat(),
        &[&head[..], &new_html].concat(),
    );
}

#[test]
fn srcset_refresh_style_and_noscript() {
    check(
        b"Base: http://x/d/\nContent-Type: text/html\n\n<meta http-equiv=refresh content=\"0; url=n.html\"><style>a{b:url( 'i.png' )}</style>\n<img srcset=\"a.png 1x, b.png 2x\"><p style=\"background:url(c.png)\"><noscript><img src=t.gif></noscript>\n",
        b"Base: http://x/d/\nContent-Type: text/html\n\n<meta http-equiv=refresh content=\"0; url=http://x/d/n.html\"><style>a{b:url( 'http://x/d/i.png' )}</style>\n<img srcset=\"http://x/d/a.png 1x, http://x/d/b.png 2x\"><p style=\"background:url(http://x/d/c.png)\"><noscript><img src=http://x/d/t.gif></noscript>\n",
    );
}

#[test]
fn attribute_with_character_references_is_written_whole() {
    check(
        b"Base: http://x/\nContent-Type: text/html\n\n<img srcset=\"a&#46;png 1x, b.png?a=1&amp;b=2 2x\">\n",
        b"Base: http://x/\nContent-Type: text/html\n\n<img srcset=\"http://x/a.png 1x, http://x/b.png?a=1&amp;b=2 2x\">\n",
    );
}

#[test]
fn seven_bit_part_that_would_need_8bit_is_left_unchanged() {
    let input = "Base: http://x/\u{e9}/\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 7bit\n\n<a href=\"g\">\n";
    let result = rewrite(input.as_bytes(), &Options::new());
    assert_eq!(result.message, input.as_bytes());
    let kinds: Vec<_> = result.report.diagnostics.iter().map(|d| d.kind).collect();
    assert_eq!(kinds, [DiagnosticKind::RewriteSkipped]);
    assert!(result.changed.is_empty());
}

#[test]
fn unknown_charset_is_left_unchanged() {
    let input = b"Base: http://x/\nContent-Type: text/html; charset=x-klingon\n\n<a href=\"g\">\n";
    let result = rewrite(input, &Options::new());
    assert_eq!(result.message, input);
    assert!(
        result
            .report
            .diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::RewriteSkipped)
    );
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The decoded bodies of a message's HTML parts, through mail-parser (an independent decoder).
fn html_bodies(message: &[u8]) -> Vec<String> {
    let parsed = mail_parser::MessageParser::default()
        .parse(message)
        .unwrap();
    (0..parsed.html_body_count())
        .map(|i| parsed.body_html(i).unwrap().into_owned())
        .collect()
}

#[test]
fn base64_part_is_encoded_again_in_76_columns_with_the_message_line_ending() {
    let html = format!(
        "<html><body>{}<a href=\"z.html\">z</a></body></html>",
        "<p>filler</p>".repeat(20)
    );
    for eol in ["\n", "\r\n"] {
        let input = format!(
            "Content-Type: multipart/mixed; boundary=b{eol}Content-Base: http://x/{eol}{eol}--b{eol}Content-Type: text/html{eol}Content-Transfer-Encoding: base64{eol}{eol}{}{eol}--b--{eol}",
            b64(html.as_bytes())
        );
        let result = rewrite(input.as_bytes(), &Options::new());
        let output = String::from_utf8(result.message.clone()).unwrap();
        assert_eq!(
            html_bodies(&result.message),
            [html.replace("z.html", "http://x/z.html")]
        );
        let (head, rest) = output.split_at(output.find("base64").unwrap());
        assert!(input.starts_with(head));
        let body: Vec<&str> = rest
            .split(eol)
            .skip(2)
            .take_while(|l| !l.starts_with("--b"))
            .collect();
        assert!(
            body.iter().all(|l| l.len() <= 76 && !l.contains('\n')),
            "{body:?}"
        );
        assert_eq!(body[0].len(), 76);
        assert!(output.ends_with(&format!("{eol}--b--{eol}")));
        assert_eq!(result.changed.len(), 1);
    }
}

#[test]
fn quoted_printable_part_is_encoded_again() {
    for eol in ["\n", "\r\n"] {
        let input = format!(
            "Content-Base: http://x/{eol}Content-Type: text/html; charset=utf-8{eol}Content-Transfer-Encoding: quoted-printable{eol}{eol}<p>caf=C3=A9 =3D ok</p>{eol}<a href=3D\"g\">{}={eol}</a>{eol}",
            "long ".repeat(20)
        );
        let result = rewrite(input.as_bytes(), &Options::new());
        let expected = format!(
            "<p>café = ok</p>{eol}<a href=\"http://x/g\">{}</a>{eol}",
            "long ".repeat(20)
        );
        assert_eq!(html_bodies(&result.message), [expected]);
        let output = String::from_utf8(result.message).unwrap();
        assert!(output.split(eol).all(|l| l.len() <= 76), "{output}");
        assert!(!eol.contains('\r') || !output.replace("\r\n", "").contains('\n'));
    }
}

#[test]
fn part_inside_base64_encoded_message_is_rewritten_layer_by_layer() {
    let inner = "Subject: inner\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n"
        .to_owned()
        + &b64(b"<a href=\"deep.html\">d</a>")
        + "\n";
    let middle = "Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n".to_owned()
        + &b64(inner.as_bytes())
        + "\n";
    let input = "Base: http://outer/x/\nContent-Type: multipart/mixed; boundary=o\n\n--o\nContent-Type: text/plain\n\nuntouched\n--o\n".to_owned()
        + &middle
        + "--o--\n";
    let result = rewrite(input.as_bytes(), &Options::new());
    let report = analyze(&result.message, &Options::new());
    let urls: Vec<_> = report.urls.iter().map(|u| u.reference.as_str()).collect();
    assert_eq!(urls, ["http://outer/x/", "http://outer/x/deep.html"]);
    assert_eq!(result.changed.len(), 1);
    assert_eq!(result.changed[0].as_str(), "2.HEADER");
    let output = String::from_utf8(result.message).unwrap();
    assert!(output.starts_with("Base: http://outer/x/\nContent-Type: multipart/mixed; boundary=o\n\n--o\nContent-Type: text/plain\n\nuntouched\n--o\nContent-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n"));
}

/// The multiset of resolved URLs of a report.
fn resolved(report: &Report) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for url in &report.urls {
        if let Some(resolved) = url.resolution.resolved() {
            *counts.entry(resolved.to_owned()).or_default() += 1;
        }
    }
    counts
}

#[test]
fn corpus_round_trip_properties() {
    let Some(paths) = corpus_messages() else {
        return;
    };
    let (mut messages, mut rewritten, mut parts_changed, mut urls_rewritten) = (0, 0, 0, 0);
    let mut skipped: HashMap<String, usize> = HashMap::new();
    let options = Options::new();
    for path in paths {
        let name = path.display().to_string();
        let raw = std::fs::read(&path).unwrap();
        let before = analyze(&raw, &options);
        let result = rewrite(&raw, &options);
        let after = analyze(&result.message, &options);
        messages += 1;
        if result.message != raw {
            rewritten += 1;
        }
        parts_changed += result.changed.len();
        urls_rewritten += result.rewritten_urls;
        for diagnostic in &result.report.diagnostics {
            if diagnostic.kind == DiagnosticKind::RewriteSkipped {
                *skipped.entry(diagnostic.message.clone()).or_default() += 1;
            }
        }
        // The output re-parses into the same tree.
        let tree = |r: &Report| -> Vec<(String, String)> {
            r.entities
                .iter()
                .map(|e| (e.part.to_string(), e.content_type.clone()))
                .collect()
        };
        assert_eq!(tree(&after), tree(&before), "{name}");
        // Header blocks and non-HTML leaf parts are byte-identical (entities of the raw
        // message; those in decoded buffers are checked through the URL properties).
        for (old, new) in before.entities.iter().zip(&after.entities) {
            if old.decoded_from.is_some() {
                continue;
            }
            assert_eq!(
                raw[old.header.start..old.header.end],
                result.message[new.header.start..new.header.end],
                "{name}: header of {}",
                old.part
            );
            let is_leaf = !before
                .entities
                .iter()
                .any(|e| e.parent.as_ref() == Some(&old.part));
            let is_html =
                old.content_type == "text/html" || old.content_type == "application/xhtml+xml";
            if is_leaf && !is_html {
                assert_eq!(
                    raw[old.body.start..old.body.end],
                    result.message[new.body.start..new.body.end],
                    "{name}: body of {}",
                    old.part
                );
            }
        }
        // The same multiset of resolved URLs, and every resolved HTML URL now absolute
        // (outside parts that were left unchanged, with their reason), except the
        // same-document references (empty, `#fragment`), which are kept as written.
        assert_eq!(resolved(&after), resolved(&before), "{name}");
        let left_alone: Vec<_> = result
            .report
            .diagnostics
            .iter()
            .filter(|d| d.kind == DiagnosticKind::RewriteSkipped)
            .filter_map(|d| d.part.clone())
            .collect();
        for url in &after.urls {
            let same_document = url.reference.is_empty() || url.reference.starts_with('#');
            if matches!(url.source, UrlSource::Html { .. })
                && url.resolution.resolved().is_some()
                && !left_alone.contains(&url.part)
                && !same_document
            {
                assert!(
                    mimebase::url::has_scheme(&url.reference),
                    "{name}: {} {:?} still relative",
                    url.part,
                    url.reference
                );
            }
        }
        // Idempotent.
        assert_eq!(
            rewrite(&result.message, &options).message,
            result.message,
            "{name}: not idempotent"
        );
    }
    assert_eq!(messages, 75);
    eprintln!(
        "rewrite over the corpus: {messages} messages, {rewritten} rewritten, {parts_changed} parts changed, {urls_rewritten} URLs rewritten"
    );
    let mut reasons: Vec<_> = skipped.into_iter().collect();
    reasons.sort();
    for (reason, count) in reasons {
        eprintln!("  left unchanged x{count}: {reason}");
    }
}

#[test]
fn url_with_a_character_html_cannot_carry_leaves_the_part_unchanged() {
    // CSS turns an escaped NUL into U+FFFD (CSS Syntax §4.3.7): written into url(), the URL
    // would read back as another URL.
    let input = b"Base: http://x/a\x00b/\nContent-Type: text/html\n\n<style>a{b:url(g)}</style>\n";
    let result = rewrite(input, &Options::new());
    assert_eq!(result.message, input);
    let messages: Vec<_> = result
        .report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "part left unchanged: the rewritten HTML would not read back the same URLs (a resolved URL holds a character HTML cannot carry)"
        ]
    );
}

/// Inputs the `analyze` fuzz target found (mutations of samples/srcset-css.eml): the rewrite
/// properties must hold on them.
#[test]
fn fuzz_regressions() {
    let dir = root().join("tests/data/fuzz-regressions");
    let options = Options::new();
    let mut count = 0;
    for file in std::fs::read_dir(dir).unwrap() {
        let raw = std::fs::read(file.unwrap().path()).unwrap();
        let result = rewrite(&raw, &options);
        assert_eq!(
            resolved(&analyze(&result.message, &options)),
            resolved(&analyze(&raw, &options))
        );
        assert_eq!(rewrite(&result.message, &options).message, result.message);
        count += 1;
    }
    assert_eq!(count, 2);
}

fn skipped_messages(result: &mimebase::Rewritten) -> Vec<&str> {
    result
        .report
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::RewriteSkipped)
        .map(|d| d.message.as_str())
        .collect()
}

#[test]
fn bytes_the_charset_does_not_allow_leave_the_part_unchanged() {
    let input = b"Content-Base: http://ex.com/d/\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n<a href=\"caf\xe9.html\">\n";
    let result = rewrite(input, &Options::new());
    assert_eq!(result.message, input);
    assert_eq!(
        skipped_messages(&result),
        [
            "part left unchanged: the body has byte sequences UTF-8 does not allow, which could not be written back"
        ]
    );
}

#[test]
fn bytes_that_do_not_round_trip_through_the_charset_leave_the_part_unchanged() {
    // Shift_JIS ED 40 and FA 5C are both U+7E8A; a value written anew whole would turn one
    // into the other.
    let input = b"Base: http://x/\nContent-Type: text/html; charset=shift_jis\nContent-Transfer-Encoding: 8bit\n\n<p style=\"font-family:\xed\x40; background:url(i.png?a=1&amp;b=2)\">\n";
    let result = rewrite(input, &Options::new());
    assert_eq!(result.message, input);
    assert_eq!(
        skipped_messages(&result),
        ["part left unchanged: bytes of the part do not come back unchanged through Shift_JIS"]
    );
}

#[test]
fn thismessage_is_never_written_into_html() {
    let input = b"Content-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\n\n<img src=\"a.png\">\n--b\nContent-Type: image/png\nContent-Location: a.png\n\nPNG\n--b--\n";
    let options = Options::new().with_profile(mimebase::Profile::Mhtml);
    let result = rewrite(input, &options);
    assert_eq!(result.message, input);
    // With a retrieval URL the same message resolves to something a reader can open.
    let fetched = rewrite(
        input,
        &options.with_retrieval_url("http://archive.example/m.mht"),
    );
    assert!(
        String::from_utf8(fetched.message)
            .unwrap()
            .contains("<img src=\"http://archive.example/a.png\">")
    );
}

#[test]
fn part_not_scanned_because_of_a_limit_is_reported() {
    let input = b"Base: http://x/\nContent-Type: text/html\n\n<a href=\"g\">\n";
    let result = rewrite(input, &Options::new().with_max_decoded_bytes(4));
    assert_eq!(result.message, input);
    assert_eq!(
        skipped_messages(&result),
        [
            "part left unchanged: it was not scanned (a limit was reached, see the other diagnostics)"
        ]
    );
}

/// `rewrite` gives `message` back unchanged, with a `rewrite_skipped` diagnostic that says
/// `why`.
#[track_caller]
fn left_unchanged(message: &[u8], why: &str) {
    let rewritten = rewrite(message, &Options::new());
    assert_eq!(
        String::from_utf8_lossy(&rewritten.message),
        String::from_utf8_lossy(message)
    );
    assert!(
        rewritten
            .report
            .diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::RewriteSkipped && d.message.contains(why)),
        "{:?}",
        rewritten.report.diagnostics
    );
}

/// A part whose body follows its header with no blank line: the lines after the fields are
/// read as header lines that are not fields and skipped, up to the blank line that ends the
/// header (as GMime 3.2.13 reads it: the part's content is empty), so the part has no URL and
/// the message is written back as it was.
#[test]
fn a_body_without_a_blank_line_before_it_is_header_and_left_as_it_was() {
    let message =
        b"Content-Base: http://b.example/d/\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n\
        --b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\
        Intro\n<a href=3D\"a.html\">a</a>\r\nend\r\n--b--\r\n";
    let options = Options::new();
    let report = analyze(message, &options);
    let part = &report.entities[1];
    assert_eq!(part.content_type, "text/html");
    assert_eq!(part.body.start, part.body.end, "{:?}", part.body);
    assert!(report.urls.iter().all(|u| u.part.to_string() != "1"));
    let rewritten = rewrite(message, &options);
    assert_eq!(rewritten.message, message);
}

/// Quoted-printable written again breaks a long line where it must; when that would bring a
/// boundary string from the middle of a line (where it delimits nothing) to the start of one,
/// the part would be cut in two, so it is left as it was. Here `=2D-b` in the original keeps
/// `--b` off the start of its line.
#[test]
fn quoted_printable_written_again_never_starts_a_line_with_a_delimiter() {
    let message = |padding: usize| {
        format!(
            "Content-Base: http://b.example/d/\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n\
             --b\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
             <a href=3D\"a.html\">a</a>{}=\r\n=2D-b and more\r\n--b--\r\n",
            "x".repeat(padding)
        )
        .into_bytes()
    };
    let options = Options::new();
    let parts = |report: &Report| report.entities.len();

    // 32 bytes of padding put `--b and more` at the start of a line of the new encoding.
    left_unchanged(&message(32), "multipart delimiter");

    // With 20, the break falls elsewhere: rewritten, and still two entities.
    let stays_whole = message(20);
    let rewritten = rewrite(&stays_whole, &options);
    assert_ne!(rewritten.message, stays_whole);
    assert_eq!(
        parts(&analyze(&rewritten.message, &options)),
        parts(&analyze(&stays_whole, &options))
    );
}
