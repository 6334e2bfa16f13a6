//! Base precedence (the crate docs' steps 1–5; RFC 1808 §3, RFC 2110 §4.2, RFC 2557 §5).
//! The only place where
//! it is decided which base an entity has.
//!
//! Steps 2–5 give an entity's **header-level base** ([`header_base`]); step 1, the first
//! `<base href>` of an HTML body, gives its **content base** ([`content_base`]).

use encoding_rs::{Encoding, UTF_8};

use crate::headers::base_value;
use crate::mime::Entity;
use crate::options::{Options, Profile};
use crate::report::{BaseIgnored, BaseRecord, BaseSource, Diagnostic, DiagnosticKind, PartId};
use crate::url::{Resolver, has_scheme, strip_reference, whatwg};
use crate::vocab::FieldName;

/// `value` made into a base for the resolver in use, or why it cannot be one.
///
/// Every base this module gives an entity or an HTML part is absolute (it has a scheme), so
/// every URL resolved against it is absolute too, whatever the resolver; a relative value is
/// resolved against `outer` first. The value is stripped as the resolvers strip a reference
/// ([`strip_reference`]). With the RFC resolvers an absolute value is then taken as
/// written (RFC 1808 §4 step 1 and RFC 3986 §5.1 only ask for a scheme); with `whatwg` it is
/// run through the URL Standard's parser (with `encoding` for the query, HTML
/// "encoding-parsing a URL"), which normalizes it, and a value the parser rejects is no base.
fn absolute_base(
    resolver: Resolver,
    outer: Option<&str>,
    value: &str,
    encoding: &'static Encoding,
) -> Result<String, String> {
    let value = strip_reference(value);
    match (resolver, outer) {
        (Resolver::Whatwg, outer) => {
            whatwg::encoding_parse(outer, &value, encoding).map_err(|error| match outer {
                None if !has_scheme(&value) => {
                    "it is relative and there is no base to resolve it against".to_owned()
                }
                _ => error.to_string(),
            })
        }
        _ if has_scheme(&value) => Ok(value.into_owned()),
        (resolver, Some(outer)) => match resolver.resolve(outer, &value) {
            Ok(url) if has_scheme(&url) => Ok(url),
            Ok(url) => Err(format!("its resolution \"{url}\" is relative")),
            Err(error) => Err(format!(
                "it cannot be resolved against \"{outer}\": {error}"
            )),
        },
        (_, None) => Err("it is relative and there is no base to resolve it against".to_owned()),
    }
}

/// The base an entity finds around it: for a body part or an encapsulated message, the
/// header-level base of the entity that encapsulates it (and that entity's identifier); for
/// the root, the retrieval URL (step 4).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Context<'a> {
    /// The root message; the record is the retrieval URL's (or none).
    Root(&'a BaseRecord),
    /// Inside the entity `part`, whose header-level base is the record.
    Inside(&'a PartId, &'a BaseRecord),
}

impl<'a> Context<'a> {
    /// The base that relative base fields are resolved against (RFC 2557 §5: "the base of the
    /// encapsulating entity"; for the root, the retrieval URL, the one context the root has).
    pub fn outer(self) -> &'a BaseRecord {
        match self {
            Context::Root(record) | Context::Inside(_, record) => record,
        }
    }
}

/// The base fields that step 2 takes, in order, for each profile ([`Profile`]).
fn base_fields(profile: Profile) -> &'static [(FieldName, BaseSource)] {
    match profile {
        Profile::Rfc1808 => &[(FieldName::Base, BaseSource::HeaderBase)],
        Profile::Mhtml => &[
            (
                FieldName::ContentLocation,
                BaseSource::HeaderContentLocation,
            ),
            (FieldName::ContentBase, BaseSource::HeaderContentBase),
        ],
        Profile::Default => &[
            (FieldName::Base, BaseSource::HeaderBase),
            (FieldName::ContentBase, BaseSource::HeaderContentBase),
            (
                FieldName::ContentLocation,
                BaseSource::HeaderContentLocation,
            ),
        ],
    }
}

/// The root's base when its header gives none (steps 4–5): the retrieval URL
/// ([`BaseSource::Retrieval`]); else, with the `mhtml` profile (and the `default` one for
/// `extract`, [`Options::has_thismessage_root`]), `thismessage:/`
/// ([`BaseSource::ThisMessage`], RFC 2557 §5 (e)); else none. A retrieval URL without a
/// scheme is not used, with a diagnostic.
pub(crate) fn retrieval_base(options: &Options, diagnostics: &mut Vec<Diagnostic>) -> BaseRecord {
    let fallback = || {
        if options.has_thismessage_root() {
            BaseRecord {
                url: Some("thismessage:/".to_owned()),
                source: BaseSource::ThisMessage,
                inherited_from: None,
            }
        } else {
            BaseRecord::none()
        }
    };
    match options.retrieval_url() {
        Some(url) if has_scheme(url) => BaseRecord {
            url: Some(url.to_owned()),
            source: BaseSource::Retrieval,
            inherited_from: None,
        },
        Some(url) => {
            diagnostics.push(Diagnostic {
                part: None,
                kind: DiagnosticKind::UnusableRetrievalUrl,
                message: format!("retrieval URL \"{url}\" has no scheme; it is not used"),
            });
            fallback()
        }
        None => fallback(),
    }
}

/// The header-level base of an entity, and the base fields it passes over.
#[derive(Debug, Clone)]
pub(crate) struct HeaderBase {
    /// The base (steps 2–5).
    pub record: BaseRecord,
    /// The base fields of the entity's header that do not set its base, each by its index
    /// among the fields of the header block ([`Field::index`](crate::mime::Field)), with why.
    pub passed_over: Vec<(usize, BaseIgnored)>,
}

/// The header-level base of `entity` (steps 2–5), and why each base field that does not set
/// it is passed over ([`BaseIgnored`]).
///
/// - Step 2: the first of `Base`, `Content-Base`, `Content-Location` (or the profile's
///   fields, see [`Profile`]) that the entity has and that gives an absolute URL. The value's white space and wrappers are removed
///   ([`base_value`]); a relative value is resolved against [`Context::outer`]. A field that
///   is empty, or relative with nothing to resolve it against, is passed over with a
///   diagnostic, as if absent, and the next field is tried. Of duplicates the first counts,
///   with a diagnostic naming the second.
/// - Step 3: the encapsulating entity's header-level base, `inherited` from the entity that
///   set it.
/// - Step 4: for the root, the retrieval URL.
/// - Step 5: none (`thismessage:/` with the `mhtml` profile).
///
/// A base field the profile does not take is [`BaseIgnored::NotInProfile`]; once a field has
/// set the base, the fields of the names after it are [`BaseIgnored::OverriddenBy`] it; of a
/// name tried, the repeated fields are [`BaseIgnored::Duplicate`] and a first field whose value
/// cannot be a base is [`BaseIgnored::Unusable`].
pub(crate) fn header_base(
    entity: &Entity,
    context: Context<'_>,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> HeaderBase {
    let mut diagnose = |kind, message: String| {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind,
            message,
        });
    };
    let taken = base_fields(options.profile());
    let mut passed_over: Vec<(usize, BaseIgnored)> = entity
        .fields
        .iter()
        .filter(|f| f.name.is_base_field() && !taken.iter().any(|(name, _)| f.is(*name)))
        .map(|f| (f.index, BaseIgnored::NotInProfile))
        .collect();
    let mut chosen: Option<BaseRecord> = None;
    for &(name, source) in taken {
        let mut fields = entity.fields.iter().filter(|f| f.is(name));
        if let Some(winner) = &chosen {
            passed_over.extend(fields.map(|f| (f.index, BaseIgnored::OverriddenBy(winner.source))));
            continue;
        }
        let Some(first) = fields.next() else {
            continue;
        };
        for (nth, repeated) in fields.enumerate() {
            if nth == 0 {
                diagnose(
                    DiagnosticKind::DuplicateBaseHeader,
                    format!(
                        "{name} occurs more than once; the first counts, \"{}\" is ignored",
                        repeated.value
                    ),
                );
            }
            passed_over.push((repeated.index, BaseIgnored::Duplicate));
        }
        let value = base_value(&first.value);
        if value.is_empty() {
            diagnose(
                DiagnosticKind::EmptyBaseHeader,
                format!("{name} is empty; it is not used as a base"),
            );
            continue;
        }
        match absolute_base(
            options.resolver(),
            context.outer().url.as_deref(),
            &value,
            UTF_8,
        ) {
            Ok(url) => {
                chosen = Some(BaseRecord {
                    url: Some(url),
                    source,
                    inherited_from: None,
                });
            }
            Err(problem) => {
                passed_over.push((first.index, BaseIgnored::Unusable));
                diagnose(
                    DiagnosticKind::UnusableBaseHeader,
                    format!("{name} \"{value}\" is not used as a base: {problem}"),
                );
            }
        }
    }
    let record = chosen.unwrap_or_else(|| match context {
        Context::Inside(parent, record) => match &record.url {
            Some(url) => BaseRecord {
                url: Some(url.clone()),
                source: BaseSource::Inherited,
                inherited_from: Some(
                    record
                        .inherited_from
                        .clone()
                        .unwrap_or_else(|| parent.clone()),
                ),
            },
            None => BaseRecord::none(),
        },
        Context::Root(retrieval) => retrieval.clone(),
    });
    HeaderBase {
        record,
        passed_over,
    }
}

/// The content base of an HTML entity (step 1): the first `<base href>` value,
/// already entity-decoded and trimmed, resolved against the header-level base when relative
/// (with `whatwg`, parsed as the URL Standard does, with the part's `encoding` for the query).
///
/// `None`, with a diagnostic, when it cannot be a base; the header-level base then stays in
/// force, as the HTML Standard's "fallback base URL" does for a document whose `<base href>`
/// fails to parse. It cannot be a base when it cannot be made absolute for the resolver in use
/// (relative without a header-level base; rejected by the URL Standard's parser with
/// `whatwg`), or when its scheme is `data:` or `javascript:` (ASCII case-insensitive), which
/// browsers do not accept as a document's base URL (HTML "set the frozen base URL" with
/// Content Security Policy's `base-uri` check; browsers refuse both schemes).
pub(crate) fn content_base(
    entity: &Entity,
    href: &str,
    header_base: &BaseRecord,
    options: &Options,
    encoding: &'static Encoding,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<BaseRecord> {
    let problem = match absolute_base(
        options.resolver(),
        header_base.url.as_deref(),
        href,
        encoding,
    ) {
        Ok(url) if has_fetchless_scheme(&url) => {
            format!("its scheme cannot give a document's base URL (\"{url}\")")
        }
        Ok(url) => {
            return Some(BaseRecord {
                url: Some(url),
                source: BaseSource::HtmlBase,
                inherited_from: None,
            });
        }
        Err(problem) => problem,
    };
    let instead = if header_base.source == BaseSource::Attachment {
        "the attachment is opened from a temporary file, whose URL is its base"
    } else {
        "the header-level base is used instead"
    };
    diagnostics.push(Diagnostic {
        part: Some(entity.part.clone()),
        kind: DiagnosticKind::UnusableHtmlBase,
        message: format!("<base href=\"{href}\"> is not used: {problem}; {instead}"),
    });
    None
}

/// Whether `url` has the scheme `data` or `javascript`, ASCII case-insensitive.
fn has_fetchless_scheme(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        scheme.eq_ignore_ascii_case("data") || scheme.eq_ignore_ascii_case("javascript")
    })
}
