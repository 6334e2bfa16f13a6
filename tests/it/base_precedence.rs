//! One test per rule of base precedence (the crate docs' steps 1–5), through the public `analyze`.

use mimebase::{BaseSource, DiagnosticKind, Options, Report, Unresolved, analyze};
use pretty_assertions::assert_eq;

use crate::support::kinds;

fn run(message: &str) -> Report {
    analyze(message.as_bytes(), &Options::new())
}

/// (part, base URL, base source) of every entity.
fn bases(report: &Report) -> Vec<(&str, Option<&str>, BaseSource)> {
    report
        .entities
        .iter()
        .map(|e| (e.part.as_str(), e.base.url.as_deref(), e.base.source))
        .collect()
}

/// (reference, resolved) of every URL of `part`.
fn resolved<'a>(report: &'a Report, part: &str) -> Vec<(&'a str, Option<&'a str>)> {
    report
        .urls
        .iter()
        .filter(|u| u.part.as_str() == part)
        .map(|u| (u.reference.as_str(), u.resolution.resolved()))
        .collect()
}

// Step 1: content base.

#[test]
fn step1_html_base_beats_base_header_and_applies_to_earlier_links() {
    let report = run("Base: http://header/dir/\nContent-Type: text/html\n\n\
         <a href=\"before\"></a><base href=\"http://html/dir/\"><a href=\"after\"></a>");
    assert_eq!(
        bases(&report),
        [("HEADER", Some("http://html/dir/"), BaseSource::HtmlBase)]
    );
    assert_eq!(
        report.entities[0].header_base.source,
        BaseSource::HeaderBase
    );
    assert_eq!(
        resolved(&report, "HEADER"),
        [
            ("http://header/dir/", Some("http://header/dir/")),
            ("before", Some("http://html/dir/before")),
            ("http://html/dir/", Some("http://html/dir/")),
            ("after", Some("http://html/dir/after")),
        ]
    );
}

#[test]
fn step1_only_the_first_base_with_href_counts() {
    let report = run("Content-Type: text/html\n\n\
         <base target=x><base href=\"http://one/\"><base href=\"http://two/\"><a href=\"g\">");
    assert_eq!(report.entities[0].base.url.as_deref(), Some("http://one/"));
    assert_eq!(
        resolved(&report, "HEADER").last().unwrap().1,
        Some("http://one/g")
    );
}

#[test]
fn step1_relative_base_href_resolves_against_header_level_base() {
    let report = run(
        "Content-Location: http://site/a/page.html\nContent-Type: text/html\n\n\
         <base href=\"../b/\"><a href=\"g\">",
    );
    assert_eq!(
        report.entities[0].base.url.as_deref(),
        Some("http://site/b/")
    );
    assert_eq!(
        resolved(&report, "HEADER").last().unwrap().1,
        Some("http://site/b/g")
    );
}

#[test]
fn step1_entity_decoded_base_href() {
    let report = run("Content-Type: text/html\n\n<base href=\"http://x/?a=1&amp;b=2\">");
    assert_eq!(
        report.entities[0].base.url.as_deref(),
        Some("http://x/?a=1&b=2")
    );
}

#[test]
fn step1_relative_base_href_without_header_base_is_not_used() {
    let report = run("Content-Type: text/html\n\n<base href=\"/\"><a href=\"g\">");
    assert_eq!(bases(&report), [("HEADER", None, BaseSource::None)]);
    assert_eq!(kinds(&report), [DiagnosticKind::UnusableHtmlBase]);
    assert_eq!(
        report.urls[1].resolution.unresolved(),
        Some(Unresolved::NoBase)
    );
}

#[test]
fn step1_applies_to_html_only() {
    let report = run("Base: http://h/\nContent-Type: text/plain\n\n<base href=\"http://html/\">");
    assert_eq!(
        bases(&report),
        [("HEADER", Some("http://h/"), BaseSource::HeaderBase)]
    );
}

#[test]
fn step1_xhtml_counts_as_html() {
    let report =
        run("Content-Type: application/xhtml+xml\n\n<base href=\"http://x/\"/><a href=\"g\"/>");
    assert_eq!(report.entities[0].base.source, BaseSource::HtmlBase);
}

// Step 2: the entity's own base header.

#[test]
fn step2_base_beats_content_base_beats_content_location() {
    let all = run("Content-Location: http://cl/\nContent-Base: http://cb/\nBase: http://b/\n\nx");
    assert_eq!(
        bases(&all),
        [("HEADER", Some("http://b/"), BaseSource::HeaderBase)]
    );
    let two = run("Content-Location: http://cl/\nContent-Base: http://cb/\n\nx");
    assert_eq!(
        bases(&two),
        [("HEADER", Some("http://cb/"), BaseSource::HeaderContentBase)]
    );
    let one = run("Content-Location: http://cl/\n\nx");
    assert_eq!(
        bases(&one),
        [(
            "HEADER",
            Some("http://cl/"),
            BaseSource::HeaderContentLocation
        )]
    );
}

#[test]
fn step2_names_are_case_insensitive() {
    let report = run("content-BASE: http://cb/\n\nx");
    assert_eq!(
        report.entities[0].base.source,
        BaseSource::HeaderContentBase
    );
}

#[test]
fn step2_unfolded_whitespace_removed_wrappers_stripped() {
    let folded = run("Base: <URL:http://www.ics.uci.edu/Test/\n a/b/c>\n\nx");
    assert_eq!(
        folded.entities[0].base.url.as_deref(),
        Some("http://www.ics.uci.edu/Test/a/b/c")
    );
    let quoted = run("Content-Location: \"http://q/x\"\n\nx");
    assert_eq!(quoted.entities[0].base.url.as_deref(), Some("http://q/x"));
    let angle = run("Content-Base: <http://a/ b>\n\nx");
    assert_eq!(angle.entities[0].base.url.as_deref(), Some("http://a/b"));
}

#[test]
fn step2_relative_value_resolves_against_parent_base() {
    let report = run(
        "Content-Type: multipart/mixed; boundary=b\nContent-Base: http://site/dir/\n\n\
         --b\nContent-Location: sub/page.html\n\nx\n--b--\n",
    );
    assert_eq!(
        bases(&report)[1],
        (
            "1",
            Some("http://site/dir/sub/page.html"),
            BaseSource::HeaderContentLocation
        )
    );
}

#[test]
fn step2_relative_value_without_parent_base_is_reported_not_used() {
    let report = run("Content-Type: multipart/related; boundary=b\n\n\
         --b\nContent-Location: image.gif\nContent-Type: image/gif\n\nx\n--b--\n");
    assert_eq!(bases(&report)[1], ("1", None, BaseSource::None));
    assert_eq!(kinds(&report), [DiagnosticKind::UnusableBaseHeader]);
    assert_eq!(resolved(&report, "1"), [("image.gif", None)]);
    assert_eq!(
        report.urls[0].resolution.unresolved(),
        Some(Unresolved::NoBase)
    );
}

#[test]
fn step2_unusable_field_falls_through_to_the_next() {
    let report = run("Base: relative/\nContent-Base: http://cb/\n\nx");
    assert_eq!(
        bases(&report),
        [("HEADER", Some("http://cb/"), BaseSource::HeaderContentBase)]
    );
    assert_eq!(kinds(&report), [DiagnosticKind::UnusableBaseHeader]);
}

#[test]
fn step2_first_of_duplicates_counts_with_diagnostic() {
    let report = run("Base: http://first/\nBase: http://second/\n\nx");
    assert_eq!(
        report.entities[0].base.url.as_deref(),
        Some("http://first/")
    );
    assert_eq!(kinds(&report), [DiagnosticKind::DuplicateBaseHeader]);
    assert!(report.diagnostics[0].message.contains("http://second/"));
}

// Step 3: inherited from the encapsulating entity.

#[test]
fn step3_inherited_down_multipart_with_origin() {
    let report = run(
        "Content-Type: multipart/mixed; boundary=o\nBase: http://root/\n\n\
         --o\nContent-Type: multipart/alternative; boundary=i\n\n\
         --i\nContent-Type: text/html\n\n<a href=\"g\">\n--i--\n--o--\n",
    );
    assert_eq!(
        bases(&report),
        [
            ("HEADER", Some("http://root/"), BaseSource::HeaderBase),
            ("1", Some("http://root/"), BaseSource::Inherited),
            ("1.1", Some("http://root/"), BaseSource::Inherited),
        ]
    );
    assert_eq!(
        report.entities[2]
            .base
            .inherited_from
            .as_ref()
            .unwrap()
            .as_str(),
        "HEADER"
    );
    assert_eq!(resolved(&report, "1.1"), [("g", Some("http://root/g"))]);
}

#[test]
fn step3_inherited_into_encapsulated_message() {
    let report = run(
        "Content-Type: multipart/mixed; boundary=o\nContent-Base: http://outer/\n\n\
         --o\nContent-Type: message/rfc822\n\n\
         Subject: forwarded\nContent-Type: text/html\n\n<a href=\"g\">\n--o--\n",
    );
    assert_eq!(
        bases(&report)[2],
        ("1.HEADER", Some("http://outer/"), BaseSource::Inherited)
    );
    assert_eq!(
        resolved(&report, "1.HEADER"),
        [("g", Some("http://outer/g"))]
    );
}

#[test]
fn step3_html_base_is_not_inherited_by_siblings() {
    let report = run("Content-Type: multipart/mixed; boundary=o\n\n\
         --o\nContent-Type: text/html\n\n<base href=\"http://html/\">\n\
         --o\nContent-Type: text/html\n\n<a href=\"g\">\n--o--\n");
    assert_eq!(bases(&report)[2], ("2", None, BaseSource::None));
}

// Step 4: the retrieval URL.

#[test]
fn step4_retrieval_url_is_the_root_base_and_flows_down() {
    let message = "Content-Type: multipart/mixed; boundary=o\n\n\
         --o\nContent-Type: text/html\n\n<a href=\"g\">\n--o--\n";
    let report = analyze(
        message.as_bytes(),
        &Options::new().with_retrieval_url("http://archive/msgs/1"),
    );
    assert_eq!(
        bases(&report),
        [
            (
                "HEADER",
                Some("http://archive/msgs/1"),
                BaseSource::Retrieval
            ),
            ("1", Some("http://archive/msgs/1"), BaseSource::Inherited),
        ]
    );
    assert_eq!(
        resolved(&report, "1"),
        [("g", Some("http://archive/msgs/g"))]
    );
}

#[test]
fn step4_header_beats_retrieval_url_and_relative_header_resolves_against_it() {
    let options = Options::new().with_retrieval_url("http://archive/msgs/1");
    let absolute = analyze(b"Base: http://b/\n\nx", &options);
    assert_eq!(absolute.entities[0].base.source, BaseSource::HeaderBase);
    let relative = analyze(b"Content-Location: page.html\n\nx", &options);
    assert_eq!(
        relative.entities[0].base.url.as_deref(),
        Some("http://archive/msgs/page.html")
    );
}

#[test]
fn step4_retrieval_url_without_scheme_is_not_used() {
    let report = analyze(b"\nx", &Options::new().with_retrieval_url("no-scheme"));
    assert_eq!(report.entities[0].base.source, BaseSource::None);
    assert_eq!(kinds(&report), [DiagnosticKind::UnusableRetrievalUrl]);
}

// Step 5: no base.

#[test]
fn step5_no_base_relative_unresolved_absolute_reported_as_is() {
    let report = run("Content-Type: text/html\n\n<a href=\"rel\"></a><a href=\"mailto:x@y\"></a>");
    assert_eq!(bases(&report), [("HEADER", None, BaseSource::None)]);
    assert_eq!(
        resolved(&report, "HEADER"),
        [("rel", None), ("mailto:x@y", Some("mailto:x@y"))]
    );
    assert_eq!(
        report.urls[0].resolution.unresolved(),
        Some(Unresolved::NoBase)
    );
}

// Header URLs resolve against the entity's header-level base.

#[test]
fn list_headers_resolve_against_header_level_base() {
    let report = run("Base: http://lists.example/l/\n\
         List-Unsubscribe: <unsub>, <mailto:u@x>\nList-Post: NO\nArchived-At: <2007/1>\n\nx");
    assert_eq!(
        resolved(&report, "HEADER"),
        [
            ("http://lists.example/l/", Some("http://lists.example/l/")),
            ("unsub", Some("http://lists.example/l/unsub")),
            ("mailto:u@x", Some("mailto:u@x")),
            ("2007/1", Some("http://lists.example/l/2007/1")),
        ]
    );
}

// Profiles (`Profile`).

fn with_profile(message: &str, profile: mimebase::Profile) -> Report {
    analyze(message.as_bytes(), &Options::new().with_profile(profile))
}

#[test]
fn profile_rfc1808_takes_only_base() {
    let message = "Content-Base: http://cb/\nContent-Location: http://cl/\nContent-Type: text/html\n\n<a href=\"g\">";
    let report = with_profile(message, mimebase::Profile::Rfc1808);
    assert_eq!(bases(&report), [("HEADER", None, BaseSource::None)]);
    // Still reported and resolved as header URLs.
    assert_eq!(
        resolved(&report, "HEADER"),
        [
            ("http://cb/", Some("http://cb/")),
            ("http://cl/", Some("http://cl/")),
            ("g", None)
        ]
    );
    let with_base = with_profile(
        &format!("Base: http://b/\n{message}"),
        mimebase::Profile::Rfc1808,
    );
    assert_eq!(
        bases(&with_base),
        [("HEADER", Some("http://b/"), BaseSource::HeaderBase)]
    );
}

#[test]
fn profile_mhtml_prefers_content_location_and_ignores_base() {
    let report = with_profile(
        "Base: http://b/\nContent-Base: http://cb/\nContent-Location: http://cl/\n\nx",
        mimebase::Profile::Mhtml,
    );
    assert_eq!(
        bases(&report),
        [(
            "HEADER",
            Some("http://cl/"),
            BaseSource::HeaderContentLocation
        )]
    );
    let content_base = with_profile(
        "Base: http://b/\nContent-Base: http://cb/\n\nx",
        mimebase::Profile::Mhtml,
    );
    assert_eq!(
        content_base.entities[0].base.source,
        BaseSource::HeaderContentBase
    );
    let base_only = with_profile("Base: http://b/\n\nx", mimebase::Profile::Mhtml);
    assert_eq!(base_only.entities[0].base.source, BaseSource::ThisMessage);
}

#[test]
fn profile_mhtml_falls_back_to_thismessage() {
    let message = "Content-Type: multipart/related; boundary=b\n\n\
         --b\nContent-Type: text/html\nContent-Location: page.html\n\n<img src=\"image.gif\">\n\
         --b\nContent-Type: image/gif\nContent-Location: image.gif\n\nGIF\n--b--\n";
    let report = with_profile(message, mimebase::Profile::Mhtml);
    assert_eq!(
        bases(&report),
        [
            ("HEADER", Some("thismessage:/"), BaseSource::ThisMessage),
            (
                "1",
                Some("thismessage:/page.html"),
                BaseSource::HeaderContentLocation
            ),
            (
                "2",
                Some("thismessage:/image.gif"),
                BaseSource::HeaderContentLocation
            ),
        ]
    );
    // The HTML's image resolves to the Content-Location of part 2: they refer to each other.
    assert_eq!(
        resolved(&report, "1").last().unwrap().1,
        Some("thismessage:/image.gif")
    );
    // The default profile has no base there at all.
    assert_eq!(run(message).entities[0].base.source, BaseSource::None);
}

#[test]
fn profile_mhtml_retrieval_url_beats_thismessage() {
    let options = Options::new()
        .with_profile(mimebase::Profile::Mhtml)
        .with_retrieval_url("http://archive/x.mht");
    let report = analyze(b"\nx", &options);
    assert_eq!(report.entities[0].base.source, BaseSource::Retrieval);
}
