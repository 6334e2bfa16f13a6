//! Bases that do not apply are said not to apply: the `ignored` field of the URL record of a
//! `<base href>` or base header field (`BaseIgnored`), with why. One case per rule of base
//! precedence that passes a base over (the crate docs' steps 1 and 2, the HTML Standard's
//! frozen base URL), and over the whole corpus the field's invariants against the bases the
//! report gives each entity.

use mimebase::{BaseIgnored, BaseSource, Options, Profile, Report, UrlSource, analyze};
use pretty_assertions::assert_eq;

use crate::support::corpus_messages;

/// (source, reference, ignored) of every base URL of the report: `base@href` and the base
/// header fields.
fn base_urls(report: &Report) -> Vec<(String, &str, Option<String>)> {
    report
        .urls
        .iter()
        .filter(|url| is_base_url(&url.source))
        .map(|url| {
            (
                url.source.to_string(),
                url.reference.as_str(),
                url.ignored.map(|why| why.to_string()),
            )
        })
        .collect()
}

fn is_base_url(source: &UrlSource) -> bool {
    match source {
        UrlSource::Header { name, .. } => name.is_base_field(),
        UrlSource::Html { tag, attribute, .. } | UrlSource::Svg { tag, attribute, .. } => {
            tag == "base" && *attribute == Some("href")
        }
        _ => false,
    }
}

fn run(message: &str, options: &Options) -> Report {
    analyze(message.as_bytes(), options)
}

fn why(text: &str) -> Option<String> {
    Some(text.to_owned())
}

#[test]
fn html_bases_after_the_first_in_template_and_in_foreign_content() {
    let report = run(
        "Content-Type: text/html\n\n\
         <a href=\"x\"><template><base href=\"http://tpl/\"></template>\
         <svg><base href=\"http://svg/\"></svg><math><base href=\"http://math/\"></math>\
         <base href=\"http://one/\"><base href=\"http://two/\">\
         <svg><foreignObject><base href=\"http://fo/\"></foreignObject></svg>\
         <template><svg><base href=\"http://tpl-svg/\"></svg></template>",
        &Options::new(),
    );
    assert_eq!(report.entities[0].base.url.as_deref(), Some("http://one/"));
    assert_eq!(
        base_urls(&report),
        [
            ("html:base@href".into(), "http://tpl/", why("in_template")),
            (
                "html:base@href".into(),
                "http://svg/",
                why("foreign_content")
            ),
            (
                "html:base@href".into(),
                "http://math/",
                why("foreign_content")
            ),
            ("html:base@href".into(), "http://one/", None),
            ("html:base@href".into(), "http://two/", why("not_first")),
            ("html:base@href".into(), "http://fo/", why("not_first")),
            (
                "html:base@href".into(),
                "http://tpl-svg/",
                why("in_template")
            ),
        ]
    );
}

/// The first `<base href>` that cannot be a base is `unusable`; the ones after it still do not
/// apply (the HTML Standard takes the first `base` element with an `href`, and falls back when
/// its URL fails), so they are `not_first`.
#[test]
fn an_unusable_first_html_base_and_the_ones_after_it() {
    let report = run(
        "Content-Base: http://header/\nContent-Type: text/html\n\n\
         <base href=\"javascript:alert(1)\"><base href=\"http://second/\"><a href=\"x\">",
        &Options::new(),
    );
    assert_eq!(
        report.entities[0].base.source,
        BaseSource::HeaderContentBase
    );
    assert_eq!(
        base_urls(&report),
        [
            ("header:Content-Base".into(), "http://header/", None),
            (
                "html:base@href".into(),
                "javascript:alert(1)",
                why("unusable")
            ),
            ("html:base@href".into(), "http://second/", why("not_first")),
        ]
    );
}

/// Each `<iframe srcdoc>` document has a first `<base href>` of its own.
#[test]
fn srcdoc_documents_have_their_own_first_base() {
    let report = run(
        "Content-Type: text/html\n\n\
         <base href=\"http://outer/\">\
         <iframe srcdoc=\"<base href='http://in-one/'><base href='http://in-two/'>\"></iframe>",
        &Options::new(),
    );
    assert_eq!(
        base_urls(&report),
        [
            ("html:base@href".into(), "http://outer/", None),
            ("html:base@href".into(), "http://in-one/", None),
            ("html:base@href".into(), "http://in-two/", why("not_first")),
        ]
    );
}

#[test]
fn header_fields_overridden_repeated_and_unusable() {
    let message = "Content-Location: http://cl/\n\
         Base: http://base-one/\nContent-Base: http://cb/\nBase: http://base-two/\n\n";
    assert_eq!(
        base_urls(&run(message, &Options::new())),
        [
            (
                "header:Content-Location".into(),
                "http://cl/",
                why("overridden_by:header:Base")
            ),
            ("header:Base".into(), "http://base-one/", None),
            (
                "header:Content-Base".into(),
                "http://cb/",
                why("overridden_by:header:Base")
            ),
            ("header:Base".into(), "http://base-two/", why("duplicate")),
        ]
    );
    // A relative first field with nothing to resolve it against is passed over, and the next
    // name is tried; its second field is a duplicate even though the first was unusable.
    let message = "Base: rel/\nContent-Base: http://cb/\nContent-Location: http://cl/\n\n";
    assert_eq!(
        base_urls(&run(message, &Options::new())),
        [
            ("header:Base".into(), "rel/", why("unusable")),
            ("header:Content-Base".into(), "http://cb/", None),
            (
                "header:Content-Location".into(),
                "http://cl/",
                why("overridden_by:header:Content-Base")
            ),
        ]
    );
    let message = "Content-Base: rel/\nContent-Base: http://second/\n\n";
    let report = run(message, &Options::new());
    assert_eq!(report.entities[0].header_base.source, BaseSource::None);
    assert_eq!(
        base_urls(&report),
        [
            ("header:Content-Base".into(), "rel/", why("unusable")),
            (
                "header:Content-Base".into(),
                "http://second/",
                why("duplicate")
            ),
        ]
    );
}

#[test]
fn header_fields_the_profile_does_not_take() {
    let message = "Base: http://base/\nContent-Base: http://cb/\nContent-Location: http://cl/\n\n";
    let rfc1808 = run(message, &Options::new().with_profile(Profile::Rfc1808));
    assert_eq!(
        base_urls(&rfc1808),
        [
            ("header:Base".into(), "http://base/", None),
            (
                "header:Content-Base".into(),
                "http://cb/",
                why("not_in_profile")
            ),
            (
                "header:Content-Location".into(),
                "http://cl/",
                why("not_in_profile")
            ),
        ]
    );
    let mhtml = run(message, &Options::new().with_profile(Profile::Mhtml));
    assert_eq!(
        base_urls(&mhtml),
        [
            ("header:Base".into(), "http://base/", why("not_in_profile")),
            (
                "header:Content-Base".into(),
                "http://cb/",
                why("overridden_by:header:Content-Location")
            ),
            ("header:Content-Location".into(), "http://cl/", None),
        ]
    );
}

/// The reasons read back from their serialized form, and a JSON record keeps its field.
#[test]
fn reasons_round_trip() {
    let reasons = [
        BaseIgnored::NotFirst,
        BaseIgnored::InTemplate,
        BaseIgnored::ForeignContent,
        BaseIgnored::Unusable,
        BaseIgnored::Duplicate,
        BaseIgnored::NotInProfile,
        BaseIgnored::OverriddenBy(BaseSource::HeaderBase),
        BaseIgnored::OverriddenBy(BaseSource::HeaderContentLocation),
    ];
    for reason in reasons {
        let json = serde_json::to_string(&reason).unwrap();
        assert_eq!(serde_json::from_str::<BaseIgnored>(&json).unwrap(), reason);
    }
    assert!(serde_json::from_str::<BaseIgnored>("\"overridden_by:header:X\"").is_err());
    assert!(serde_json::from_str::<BaseIgnored>("\"first\"").is_err());
}

/// Over every message of the corpus, under each profile: only base URLs are ever ignored; of
/// the base fields of an entity, the one not ignored (at most one) is the field its
/// header-level base came from, with the same URL; and of the `<base href>`s of a part's own
/// document, the one not ignored (at most one) is its content base when it has one.
#[test]
fn ignored_agrees_with_the_bases_on_the_corpus() {
    let Some(messages) = corpus_messages() else {
        return;
    };
    assert!(!messages.is_empty());
    let mut ignored = 0;
    for path in &messages {
        let raw = std::fs::read(path).unwrap();
        for profile in [Profile::Default, Profile::Rfc1808, Profile::Mhtml] {
            let report = analyze(&raw, &Options::new().with_profile(profile));
            for url in &report.urls {
                if url.ignored.is_some() {
                    ignored += 1;
                    assert!(is_base_url(&url.source), "{}: {url:?}", path.display());
                }
            }
            for entity in &report.entities {
                let here = || report.urls.iter().filter(|u| u.part == entity.part);
                let applied: Vec<_> = here()
                    .filter(|u| matches!(&u.source, UrlSource::Header { name, .. } if name.is_base_field()))
                    .filter(|u| u.ignored.is_none())
                    .collect();
                let from_field = BaseSource::ALL
                    .into_iter()
                    .filter(|s| s.as_str().starts_with("header:"))
                    .any(|s| s == entity.header_base.source);
                if from_field {
                    assert_eq!(applied.len(), 1, "{}: {}", path.display(), entity.part);
                    assert_eq!(
                        applied[0].source.to_string(),
                        entity.header_base.source.as_str()
                    );
                    assert_eq!(
                        applied[0].resolution.resolved(),
                        entity.header_base.url.as_deref()
                    );
                } else {
                    assert_eq!(
                        applied,
                        Vec::<&mimebase::UrlRecord>::new(),
                        "{}",
                        path.display()
                    );
                }
                let html_bases: Vec<_> = here()
                    .filter(|u| {
                        is_base_url(&u.source) && !u.source.to_string().starts_with("header:")
                    })
                    .filter(|u| {
                        matches!(
                            u.source,
                            UrlSource::Html { srcdoc: 0, .. } | UrlSource::Svg { .. }
                        )
                    })
                    .filter(|u| u.ignored.is_none())
                    .collect();
                assert!(html_bases.len() <= 1, "{}: {}", path.display(), entity.part);
                if entity.base.source == BaseSource::HtmlBase {
                    assert_eq!(html_bases.len(), 1, "{}: {}", path.display(), entity.part);
                    assert_eq!(
                        html_bases[0].resolution.resolved(),
                        entity.base.url.as_deref(),
                        "{}: {}",
                        path.display(),
                        entity.part
                    );
                }
            }
        }
    }
    assert!(
        ignored > 0,
        "the corpus has no ignored base: the test checks nothing"
    );
    println!(
        "{ignored} ignored base URLs over {} messages, three profiles",
        messages.len()
    );
}
