//! `mimebase inspect --html`: the page is self-contained (its policy first in `<head>`, no
//! script, no attribute that carries anything from the message), every string from the
//! message comes back as text and as the text output shows it, its tables agree with
//! `inspect --json`, and `-o` writes a file or fails as the other commands' outputs do.
//!
//! The page is read back with html5gum's tokenizer (its default emitter, switching into the
//! RAWTEXT and RCDATA states after `<style>` and `<title>` as a browser does), which decodes
//! character references in text as a browser does: what a test finds in a text token is
//! what a reader sees.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use html5gum::{DefaultEmitter, Token, Tokenizer};
use serde_json::Value;

use crate::support::cli::{json_lines, mimebase, stderr, stdout};
use crate::support::{root, workdir};

/// The policy the page must carry, first thing in its `<head>`.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'";

/// The elements the page writer emits; any other element in a page came from somewhere else.
const ELEMENTS: &[&str] = &[
    "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "section", "table",
    "thead", "tbody", "tr", "th", "td", "ul", "li", "div", "span", "footer",
];

/// The classes the page writer uses: every `class` value is made of these.
const CLASSES: &[&str] = &[
    "about",
    "col-flags",
    "col-part",
    "col-reached",
    "col-where",
    "col-written",
    "count",
    "decided",
    "diagnostics",
    "failed",
    "flag",
    "host-differs",
    "ignored",
    "label",
    "left-out",
    "link-title",
    "links",
    "message",
    "mono",
    "node-head",
    "node-line",
    "none",
    "part",
    "problem",
    "source",
    "summary",
    "target",
    "tree",
    "type",
    "url",
];

/// The attributes other than `class` the page writer emits, each on the element and with the
/// value it writes: nothing from the message can be among them.
const FIXED_ATTRIBUTES: &[(&str, &str, &str)] = &[
    ("html", "lang", "en"),
    ("meta", "http-equiv", "Content-Security-Policy"),
    ("meta", "content", POLICY),
    ("meta", "charset", "utf-8"),
    ("meta", "name", "viewport"),
    ("meta", "content", "width=device-width, initial-scale=1"),
];

/// A page read back: its tokens, and what the tests look at in them.
#[derive(Debug, Default)]
struct Page {
    /// Start tags: element name and attributes (name, value), in order.
    start_tags: Vec<(String, Vec<(String, String)>)>,
    /// The doctype's name, if the page has a doctype.
    doctype: Option<String>,
    /// Every text token, joined.
    text: String,
    /// The text of each `<h2>`, in order: one per message or failed input.
    headings: Vec<String>,
    /// The classes of each `<section>`.
    sections: Vec<String>,
    /// The rows of the URL tables: the `tr`'s class and each cell's text.
    rows: Vec<(String, Vec<String>)>,
    /// The rows of the summary tables: header and cell text.
    summary: Vec<(String, String)>,
    /// The texts of the `p.left-out` notes.
    left_out: Vec<String>,
    /// The texts of the diagnostics' list items.
    diagnostics: Vec<String>,
    /// The tokenizer's parse errors.
    errors: Vec<String>,
}

fn utf8(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Reads `html` back with html5gum (see the module docs).
fn read_page(html: &str) -> Page {
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut page = Page::default();
    // Where text goes: what the innermost open element of interest collects.
    #[derive(PartialEq)]
    enum Into {
        Nothing,
        Heading,
        Cell,
        SummaryHead,
        SummaryCell,
        LeftOut,
        Diagnostic,
    }
    let mut into = Into::Nothing;
    let mut in_links = false;
    let mut in_summary = false;
    for token in Tokenizer::new_with_emitter(html, emitter) {
        match token.unwrap() {
            Token::Doctype(doctype) => page.doctype = Some(utf8(&doctype.name)),
            Token::StartTag(tag) => {
                let name = utf8(&tag.name);
                let attributes: Vec<(String, String)> = tag
                    .attributes
                    .iter()
                    .map(|(name, value)| (utf8(name), utf8(value)))
                    .collect();
                let class = attributes
                    .iter()
                    .find(|(name, _)| name == "class")
                    .map(|(_, value)| value.clone())
                    .unwrap_or_default();
                let classes: Vec<&str> = class.split_whitespace().collect();
                match name.as_str() {
                    "h2" => {
                        page.headings.push(String::new());
                        into = Into::Heading;
                    }
                    "section" => page.sections.push(class.clone()),
                    "tbody" if classes.is_empty() => in_links = true,
                    "table" if classes.contains(&"summary") => in_summary = true,
                    "tr" if in_links => page.rows.push((class.clone(), Vec::new())),
                    "tr" if in_summary => page.summary.push(Default::default()),
                    "td" if in_links => {
                        page.rows.last_mut().unwrap().1.push(String::new());
                        into = Into::Cell;
                    }
                    "th" if in_summary => into = Into::SummaryHead,
                    "td" if in_summary => into = Into::SummaryCell,
                    "p" if classes.contains(&"left-out") => {
                        page.left_out.push(String::new());
                        into = Into::LeftOut;
                    }
                    _ => {}
                }
                if name == "ul" && classes.contains(&"diagnostics") {
                    into = Into::Diagnostic;
                }
                if name == "li" && into == Into::Diagnostic {
                    page.diagnostics.push(String::new());
                }
                page.start_tags.push((name, attributes));
            }
            Token::EndTag(tag) => match tag.name.as_slice() {
                b"h2" | b"p" | b"ul" => into = Into::Nothing,
                b"td" if into == Into::Cell => into = Into::Nothing,
                b"th" | b"td" if in_summary => into = Into::Nothing,
                b"tbody" | b"table" => {
                    in_links = false;
                    in_summary = false;
                }
                _ => {}
            },
            Token::String(text) => {
                let text = utf8(&text);
                page.text.push_str(&text);
                let target = match into {
                    Into::Nothing => None,
                    Into::Heading => page.headings.last_mut(),
                    Into::Cell => page.rows.last_mut().and_then(|row| row.1.last_mut()),
                    Into::SummaryHead => page.summary.last_mut().map(|row| &mut row.0),
                    Into::SummaryCell => page.summary.last_mut().map(|row| &mut row.1),
                    Into::LeftOut => page.left_out.last_mut(),
                    Into::Diagnostic => page.diagnostics.last_mut(),
                };
                if let Some(target) = target {
                    target.push_str(&text);
                }
            }
            Token::Comment(comment) => panic!("a comment in the page: {}", utf8(&comment)),
            Token::Error(error) => page.errors.push(format!("{error:?}")),
        }
    }
    page
}

/// Runs `mimebase inspect --html ARGS` and reads the page; exit code 0 required.
fn html_page(args: &[&str]) -> (String, Page) {
    let mut all = vec!["inspect", "--html"];
    all.extend_from_slice(args);
    let output = mimebase(&all, b"");
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    let html = stdout(&output);
    let page = read_page(&html);
    (html, page)
}

/// The checks every page passes: a doctype, the policy first in `<head>`, the charset early,
/// no parse error, only the writer's elements, and no attribute but the writer's own fixed
/// values and classes, so that no attribute holds a URL or anything else from the message.
fn assert_self_contained(html: &str, page: &Page, what: &str) {
    assert_eq!(page.doctype.as_deref(), Some("html"), "{what}");
    assert!(html.starts_with("<!DOCTYPE html>"), "{what}");
    assert!(page.errors.is_empty(), "{what}: {:?}", page.errors);
    let names: Vec<&str> = page.start_tags.iter().map(|(n, _)| n.as_str()).collect();
    let head = names.iter().position(|n| *n == "head").unwrap();
    let (first, attributes) = &page.start_tags[head + 1];
    assert_eq!(first, "meta", "{what}: the first element in <head>");
    assert_eq!(
        attributes,
        &[
            ("content".to_owned(), POLICY.to_owned()),
            (
                "http-equiv".to_owned(),
                "Content-Security-Policy".to_owned()
            )
        ],
        "{what}"
    );
    let charset = html.find("<meta charset=\"utf-8\">").unwrap();
    assert!(charset < 1024, "{what}: the charset at byte {charset}");
    for (name, attributes) in &page.start_tags {
        assert!(ELEMENTS.contains(&name.as_str()), "{what}: <{name}>");
        for (attribute, value) in attributes {
            if attribute == "class" {
                for class in value.split_whitespace() {
                    assert!(CLASSES.contains(&class), "{what}: class {class:?}");
                }
            } else {
                assert!(
                    FIXED_ATTRIBUTES.contains(&(name.as_str(), attribute.as_str(), value.as_str())),
                    "{what}: <{name} {attribute}={value:?}>"
                );
            }
        }
    }
    assert!(!names.contains(&"script"), "{what}");
    for needle in [
        "<script", " href=", " src=", " action=", " srcset=", " style=", "url(",
    ] {
        assert!(!html.contains(needle), "{what}: {needle} in the page");
    }
    assert!(html.trim_end().ends_with("</html>"), "{what}: cut short");
}

fn samples() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(root().join("samples"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    found.sort();
    assert!(found.len() >= 10, "{found:?}");
    found
}

/// The path of `path` relative to the repository, as the tests name inputs.
fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().display().to_string()
}

/// Every sample's page, with and without `--all`, is self-contained; with `--all` its URL
/// table has a row per record of `inspect --json`, in order, each with the record's part,
/// source, reference and resolved URL, and the highlight classes and words the record's
/// `base_decided` and link text call for; without `--all` the rows are those records less the
/// ones the note says were left out, and no highlighted record is left out.
#[test]
fn every_sample_page_is_self_contained_and_agrees_with_the_json() {
    for path in samples() {
        let name = relative(&path);
        let records = json_lines(&mimebase(&["inspect", "--json", &name], b""));
        let urls: Vec<&Value> = records
            .iter()
            .flat_map(|record| record["urls"].as_array().unwrap())
            .collect();
        let (html, page) = html_page(&["--all", &name]);
        assert_self_contained(&html, &page, &name);
        assert_eq!(page.headings.len(), records.len(), "{name}");
        assert_eq!(page.rows.len(), urls.len(), "{name}: rows with --all");
        assert!(page.left_out.is_empty(), "{name}");
        for ((class, cells), url) in page.rows.iter().zip(&urls) {
            let decided = url["base_decided"].as_bool().unwrap();
            let differs = url["text_host_differs"].as_bool().unwrap_or(false);
            assert_eq!(cells[0], url["part"].as_str().unwrap(), "{name}");
            assert!(
                cells[1].starts_with(url["source"].as_str().unwrap()),
                "{name}"
            );
            assert_eq!(cells[2], url["reference"].as_str().unwrap(), "{name}");
            match url["resolved"].as_str() {
                Some(resolved) => assert!(cells[3].starts_with(resolved), "{name}: {cells:?}"),
                None => assert!(cells[3].starts_with("unresolved: "), "{name}: {cells:?}"),
            }
            if let Some(text) = url["text"].as_str().filter(|text| !text.is_empty()) {
                assert!(cells[4].contains(text), "{name}: {cells:?}");
            }
            let classes: BTreeSet<&str> = class.split_whitespace().collect();
            assert_eq!(classes.contains("decided"), decided, "{name}: {cells:?}");
            assert_eq!(
                classes.contains("host-differs"),
                differs,
                "{name}: {cells:?}"
            );
            assert_eq!(cells[5].contains("base-decided"), decided, "{name}");
            assert_eq!(cells[5].contains("text names another host"), differs);
            assert_eq!(cells[5].contains("ignored: "), url.get("ignored").is_some());
        }

        let (html, page) = html_page(&[&name]);
        assert_self_contained(&html, &page, &name);
        let left_out: usize = page
            .left_out
            .iter()
            .map(|note| {
                note[1..]
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse::<usize>()
                    .unwrap()
            })
            .sum();
        assert_eq!(page.rows.len() + left_out, urls.len(), "{name}");
        let highlighted =
            |url: &&&Value| url["base_decided"] == true || url["text_host_differs"] == true;
        let shown: Vec<&str> = page
            .rows
            .iter()
            .map(|(_, cells)| cells[2].as_str())
            .collect();
        for url in urls.iter().filter(highlighted) {
            assert!(
                shown.contains(&url["reference"].as_str().unwrap()),
                "{name}: {url} left out"
            );
        }
    }
}

/// baseStriker's link, split between `<base href>` and a relative `href`, is a highlighted row.
#[test]
fn basestriker_link_is_highlighted() {
    let (_, page) = html_page(&["samples/basestriker.eml"]);
    let (class, cells) = page
        .rows
        .iter()
        .find(|(_, cells)| cells[2] == "verify/login.html")
        .unwrap();
    assert_eq!(class, "decided");
    assert_eq!(
        cells[3],
        "http://phish.example.net/bank.example.com/verify/login.html"
    );
    assert_eq!(cells[5], "base-decided");
    assert!(page.summary.contains(&(
        "Subject".to_owned(),
        "Action required: verify your account".to_owned()
    )));
}

/// A message whose summary, link text, title, reference and a diagnostic carry markup,
/// quotes, an ampersand, an escape sequence and bidirectional controls.
const HOSTILE: &[u8] = b"From: \"<script>alert(1)</script>\" <x@evil.example>\n\
Subject: <script>alert(1)</script> \"'& \x1b]0;pwned\x07 \xe2\x80\xaegnp.exe\n\
Message-ID: <\"'&<b>@x>\n\
Content-Base: rel<script>\"'&/\n\
MIME-Version: 1.0\n\
Content-Type: multipart/mixed; boundary=\"b\"\n\
\n\
--b\n\
Content-Type: text/html; charset=utf-8\n\
\n\
<a href=\"https://evil.example/&lt;script&gt;alert(1)&lt;/script&gt;?q=&quot;'&amp;&#x202e;\" \
title=\"&quot;'&amp;&lt;b&gt;&#x2067;\">&lt;script&gt;alert(1)&lt;/script&gt; &quot;'&amp; &#x202e;&#x1b;[2J</a>\n\
<a href=\"https://evil.example/x\">www.bank.example.com</a>\n\
--b--\n";

/// Every hostile string comes back as text, escaped as the text output escapes it (the
/// lines of `inspect --all` are the oracle), and no raw control or bidi character, and no
/// element of the message's, reaches the page.
#[test]
fn hostile_strings_are_text_and_read_as_the_terminal_shows_them() {
    let dir = workdir("hostile");
    let message = dir.join("hostile.eml");
    fs::write(&message, HOSTILE).unwrap();
    let message = message.to_str().unwrap();
    let (html, page) = html_page(&["--all", message]);
    assert_self_contained(&html, &page, "hostile");
    for raw in ['\u{1b}', '\u{7}', '\u{202e}', '\u{2067}'] {
        assert!(!html.contains(raw), "{raw:?} reached the page");
    }
    let text = stdout(&mimebase(&["inspect", "--all", message], b""));
    let line = |prefix: &str| -> String {
        text.lines()
            .map(str::trim_start)
            .find_map(|line| line.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {text}"))
            .to_owned()
    };
    // The summary: each field as the text's line gives it.
    for field in ["Subject", "From", "Message-ID"] {
        let shown = line(&format!("{field}  "));
        assert!(
            shown.contains("<script>") || shown.contains("\"'&"),
            "{shown}"
        );
        assert!(
            page.summary.contains(&(field.to_owned(), shown.clone())),
            "{field}: {shown:?} not in {:?}",
            page.summary
        );
    }
    assert!(line("Subject  ").contains("\\x1b]0;pwned\\x07 \\u{202e}gnp.exe"));
    // The link: its reference, text and title as the text shows them.
    let link = line("html:a@href  https://evil.example/<script>");
    let reference = format!(
        "https://evil.example/<script>{}",
        link.split("  ->  ").next().unwrap()
    );
    let row = page
        .rows
        .iter()
        .find(|(_, cells)| cells[2] == reference)
        .unwrap_or_else(|| panic!("no row for {reference:?}: {:?}", page.rows));
    let link_text = line("text \"");
    let (shown_text, title) = link_text.split_once("\"  title \"").unwrap();
    let title = title.strip_suffix('"').unwrap();
    assert!(shown_text.contains("<script>alert(1)</script> \"'& \\u{202e}\\x1b[2J"));
    assert_eq!(
        row.1[4],
        format!("\u{201c}{shown_text}\u{201d}title \u{201c}{title}\u{201d}")
    );
    // The diagnostic about the Content-Base field, as the text's `!` line says it.
    let diagnostic = line("! Content-Base \"rel<script>");
    let expected = format!("part HEADER: Content-Base \"rel<script>{diagnostic}");
    assert!(
        page.diagnostics
            .iter()
            .any(|item| item.trim_end() == expected),
        "{:?}",
        page.diagnostics
    );
    // The link whose text names another host is highlighted so, in class and in words.
    let (class, cells) = page
        .rows
        .iter()
        .find(|(_, cells)| cells[2] == "https://evil.example/x")
        .unwrap();
    assert_eq!(class, "host-differs");
    assert_eq!(cells[5], "text names another host");
}

/// Several inputs, an mbox among them, make one page with a section per message, headed as
/// the text tree heads them; an input that cannot be read is a section that says so, the
/// page is still whole, and the exit code is 1.
#[test]
fn several_messages_make_one_page_with_a_section_each() {
    let output = mimebase(
        &[
            "inspect",
            "--html",
            "samples/basestriker.eml",
            "samples/two.mbox",
            "samples/no-such-message.eml",
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("samples/no-such-message.eml"));
    let html = stdout(&output);
    let page = read_page(&html);
    assert_self_contained(&html, &page, "several");
    let text = stdout(&mimebase(
        &["inspect", "samples/basestriker.eml", "samples/two.mbox"],
        b"",
    ));
    let mut expected: Vec<String> = text
        .lines()
        .filter_map(|line| line.strip_prefix("== "))
        .map(str::to_owned)
        .collect();
    assert_eq!(expected.len(), 3, "{text}");
    expected.push("samples/no-such-message.eml".to_owned());
    assert_eq!(page.headings, expected);
    assert_eq!(
        page.sections,
        ["message", "message", "message", "message failed"]
    );
    assert_eq!(page.text.matches("Could not be read: ").count(), 1);
    assert_eq!(
        page.start_tags.iter().filter(|(n, _)| n == "html").count(),
        1
    );
}

/// `-o FILE` writes the page there and nothing on stdout, leaving no temporary file; `-o -`
/// is stdout; `-o` takes the text and JSON outputs too, the same bytes as stdout (no colour
/// with `--color auto` into a file, as into a pipe).
#[test]
fn output_goes_to_the_file_or_to_stdout() {
    let dir = workdir("output");
    let file = dir.join("report.html");
    let sample = "samples/basestriker.eml";
    let output = mimebase(
        &["inspect", "--html", "-o", file.to_str().unwrap(), sample],
        b"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let (on_stdout, _) = html_page(&[sample]);
    assert_eq!(fs::read_to_string(&file).unwrap(), on_stdout);
    let (dash, _) = html_page(&["-o", "-", sample]);
    assert_eq!(dash, on_stdout);
    for format in [&["--json"][..], &[][..], &["--all"][..]] {
        let out = dir.join("out");
        let mut args = vec!["inspect", "-o", out.to_str().unwrap(), sample];
        args.extend_from_slice(format);
        assert!(mimebase(&args, b"").status.success());
        let mut args = vec!["inspect", sample];
        args.extend_from_slice(format);
        assert_eq!(fs::read(&out).unwrap(), mimebase(&args, b"").stdout);
    }
    let mut left: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["out", "report.html"]);
}

/// `-o` into a directory that does not exist: exit code 2 and the file named, before any
/// input is read (the missing input is not reported), and nothing written. `--html` with
/// `--json` is a usage error.
#[test]
fn an_output_that_cannot_be_written_is_exit_2() {
    let dir = workdir("unwritable");
    let file = dir.join("missing").join("report.html");
    let output = mimebase(
        &[
            "inspect",
            "--html",
            "-o",
            file.to_str().unwrap(),
            "samples/no-such-message.eml",
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.starts_with(&format!("mimebase: writing {}: ", file.display())),
        "{message}"
    );
    assert!(!message.contains("no-such-message"), "{message}");
    assert!(output.stdout.is_empty());
    assert!(!dir.join("missing").exists());

    let output = mimebase(
        &["inspect", "--html", "--json", "samples/basestriker.eml"],
        b"",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot be used with"),
        "{}",
        stderr(&output)
    );
}
