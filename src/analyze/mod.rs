//! The entry point: raw message bytes and [`Options`] in, [`Report`] out.
//!
//! One driver, `analyze_in_detail`, runs the stages in order (split the entities, work out
//! every header-level base, then each entity's header URLs and HTML URLs, linking each URL to
//! the entity it names) and hands each URL record to a callback as it is made. The public
//! functions are the three ways callers want its result: [`analyze`] collects everything,
//! [`analyze_streaming`] lets the caller take each URL and drop it (memory then follows the
//! message, not its URLs), and [`analyze_with_html_text`] also keeps the decoded HTML that the
//! URL ranges index. `rewrite` and `extract` call the driver with a `Keep` that says which
//! HTML parts to keep with their text and URL positions, since they splice into them.
//!
//! Why not one public entry point over a sink trait (as ripgrep's `Sink`): the callers need
//! three things, each of which the functions above give in one call; a trait would make the
//! common case (`analyze`) take a sink type, and would make the kept HTML parts, whose shape is
//! internal to rewriting, part of the API.

use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8};

use crate::base::{self, Context};
use crate::document;
use crate::headers;
use crate::html;
use crate::mime::{self, ContentType, Entity};
use crate::options::Options;
use crate::report::{
    BaseIgnored, BaseRecord, Diagnostic, DiagnosticKind, Document, EntityKind, EntityRecord,
    HtmlText, Report, Resolution, UrlRecord, UrlSource,
};
use crate::target::Linker;
use crate::url::whatwg::{self, ParseFailure};
use crate::url::{ResolveError, Resolved, Resolver, has_scheme, strip_reference};
use crate::vocab::{BaseSource, ChosenBy, DocumentKind, FieldName};

mod file;
mod html_part;
mod members;
pub(crate) mod passwords;
mod summary;
mod text;

use html_part::html_urls;

/// Finds every entity of `raw`, its base and where the base came from (see
/// [base precedence](crate#base-precedence)), and every URL in its headers and in the bodies
/// read for links (HTML, SVG, plain text: [`Document`](crate::Document))
/// (see [`UrlSource`](crate::UrlSource)), resolved with the chosen
/// [`Resolver`](crate::Resolver).
///
/// `raw` is one message as stored (RFC 5322 with MIME; LF or CRLF line endings; a leading
/// mbox `From ` line is skipped).
///
/// # Errors
///
/// None: the function is total over its input. Whatever is wrong with the message becomes a
/// [`Diagnostic`] in the report, and everything that could be read is still reported
/// (limits are [`Options`](crate::Options), each with its default).
///
/// # Example
///
/// ```
/// let message = b"Base: <URL:http://www.ics.uci.edu/Test/a/b/c>\r\n\
///                 Content-Type: text/html\r\n\r\n<a href=\"../x\">x</a>";
/// let report = mimebase::analyze(message, &mimebase::Options::new());
/// assert_eq!(report.urls[1].resolution.resolved(), Some("http://www.ics.uci.edu/Test/a/x"));
/// ```
pub fn analyze(raw: &[u8], options: &Options) -> Report {
    // As in `analyze_collecting`.
    let mut urls = Vec::with_capacity(16);
    let mut report = analyze_streaming(raw, options, |url| urls.push(url));
    report.urls = urls;
    report
}

/// [`analyze`], handing each URL record to `on_url` as soon as it is made instead of
/// collecting them: the returned [`Report`] has every entity and diagnostic, and an empty
/// [`urls`](Report::urls).
///
/// `on_url` is called in the order of [`Report::urls`] (document order of entities; within
/// one entity header URLs first, then HTML URLs in document order), before the entities that
/// follow are analyzed, so that a caller can write each URL out and let it go: memory then
/// follows the message, not the number of URLs in it. Each record is complete when handed
/// over, [`target`](UrlRecord::target) included: the header-level bases and the
/// `Content-Location`s of every entity are worked out before the first URL.
///
/// # Errors
///
/// None, as for [`analyze`].
///
/// # Example
///
/// ```
/// let message = b"Content-Base: http://example.com/dir/\r\n\
///                 Content-Type: text/html\r\n\r\n<a href=\"a.html\">a</a><a href=\"b.html\">b</a>";
/// let mut resolved = Vec::new();
/// let report = mimebase::analyze_streaming(message, &mimebase::Options::new(), |url| {
///     resolved.push(url.resolution.into_resolved().unwrap_or_default());
/// });
/// assert_eq!(resolved, [
///     "http://example.com/dir/",
///     "http://example.com/dir/a.html",
///     "http://example.com/dir/b.html",
/// ]);
/// assert!(report.urls.is_empty());
/// assert_eq!(report.entities.len(), 1);
/// ```
pub fn analyze_streaming(
    raw: &[u8],
    options: &Options,
    mut on_url: impl FnMut(UrlRecord),
) -> Report {
    analyze_in_detail(raw, options, Keep::Nothing, &mut on_url).report
}

/// [`analyze`], and the decoded text of every HTML and SVG part it scanned: what the byte
/// ranges of that part's URL records ([`UrlSource::Html`]'s and [`UrlSource::Svg`]'s `range`)
/// index, so that
/// `&text[range.start..range.end]` is the URL as written in the page.
///
/// The text is the part's body with its transfer encoding undone and converted to UTF-8 from
/// its charset, as the scan saw it. A part that was not scanned (past
/// [`Options::with_max_decoded_bytes`]) has no text and no URL records. The texts come in the
/// order of the entities; keeping them costs the decoded size of the HTML parts in memory,
/// which is why [`analyze`] drops them.
///
/// # Errors
///
/// None, as for [`analyze`].
///
/// # Example
///
/// ```
/// use mimebase::UrlSource;
///
/// let message = b"Content-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n\
///                 PGEgaHJlZj0iaHR0cDovL3gvJmFtcDt5Ij4=\r\n"; // <a href="http://x/&amp;y">
/// let (report, texts) = mimebase::analyze_with_html_text(message, &mimebase::Options::new());
/// let url = &report.urls[0];
/// let UrlSource::Html { range, .. } = &url.source else { unreachable!() };
/// let text = texts.iter().find(|t| t.part == url.part).unwrap();
/// assert_eq!(&text.text[range.start..range.end], "http://x/&amp;y");
/// assert_eq!(url.reference, "http://x/&y");
/// ```
pub fn analyze_with_html_text(raw: &[u8], options: &Options) -> (Report, Vec<HtmlText>) {
    let analysis = analyze_collecting(raw, options, Keep::All);
    let texts = analysis
        .html
        .into_iter()
        .filter_map(|part| {
            Some(HtmlText {
                part: analysis.walk.entities.get(part.entity)?.part.clone(),
                text: part.text,
            })
        })
        .collect();
    (analysis.report, texts)
}

/// What [`rewrite`](crate::rewrite()) needs to know about one scanned HTML part.
pub(crate) struct HtmlPart {
    /// Index of the entity in [`Analysis::walk`].
    pub entity: usize,
    /// What the part was read as, and whether it is an attachment.
    pub document: Document,
    /// The encoding the body was decoded with.
    pub encoding: &'static Encoding,
    /// False when the `charset` label was unknown (the encoding is then a guess).
    pub charset_known: bool,
    /// False when the body was not clean in its transfer encoding: decoding read past bytes
    /// outside the base64 alphabet or after its padding, or kept malformed quoted-printable
    /// escapes as written (a diagnostic says which), so writing it back would lose them.
    pub transfer_decoded: bool,
    /// True when the body had byte sequences its charset does not allow (decoded as U+FFFD).
    pub charset_errors: bool,
    /// How many URLs of the part were not recorded, past [`Options::with_max_urls`].
    pub urls_not_recorded: usize,
    /// The decoded text that the URL ranges index.
    pub text: String,
    /// Every URL of the part, with the index of its record in [`Report::urls`].
    pub urls: Vec<(html::HtmlUrl, usize)>,
    /// The `crossorigin` and `integrity` attributes of its elements with URLs.
    pub fetch_attributes: Vec<html::FetchAttribute>,
    /// Its `<iframe srcdoc>` documents, whose texts the ranges of their URLs index.
    pub srcdocs: Vec<html::Srcdoc>,
    /// For an SVG document: the values whose URLs are not at exact ranges, as decoded (see
    /// [`svg::SvgValue`](crate::svg::SvgValue)).
    pub svg_values: Vec<crate::svg::SvgValue>,
}

/// Which scanned HTML parts [`analyze_in_detail`] keeps, with their text and URLs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keep {
    /// None.
    Nothing,
    /// Every one.
    All,
    /// Those that can be rewritten: a part that lost URLs to [`Options::with_max_urls`] is
    /// kept without its text and URLs, which nothing reads.
    Rewritable,
}

/// The report and what was learnt on the way to it.
pub(crate) struct Analysis {
    pub report: Report,
    pub walk: mime::Walk,
    /// The scanned HTML parts; filled only when asked for.
    pub html: Vec<HtmlPart>,
}

/// [`analyze_in_detail`] with the URL records collected into the report.
pub(crate) fn analyze_collecting(raw: &[u8], options: &Options, keep: Keep) -> Analysis {
    // Room for the URLs of most messages at once: a record is large, and growing from one
    // copies every record made so far at each doubling.
    let mut urls = Vec::with_capacity(16);
    let mut analysis = analyze_in_detail(raw, options, keep, &mut |url| urls.push(url));
    analysis.report.urls = urls;
    analysis
}

/// Where URL records go as they are made, and what the URLs of one message share.
pub(super) struct Sink<'a> {
    on_url: &'a mut dyn FnMut(UrlRecord),
    linker: Linker<'a>,
    /// How many records were handed on: the index in [`Report::urls`] of the next one.
    emitted: usize,
    /// What is left of [`Options::with_max_urls`].
    url_budget: usize,
    /// `cid:` URLs naming no entity, reported after every other diagnostic.
    unmatched: Vec<Diagnostic>,
}

impl Sink<'_> {
    /// Links `url` (found in entity `at`) to the entity it names, if any, and hands it on.
    fn emit(&mut self, mut url: UrlRecord, at: usize) {
        self.linker.link(&mut url, at, &mut self.unmatched);
        (self.on_url)(url);
        self.emitted += 1;
    }
}

/// [`analyze`], handing each URL record to `on_url` (the report's `urls` stay empty), keeping
/// the entity walk and, as `keep` says, the decoded text and URLs of the HTML parts.
pub(crate) fn analyze_in_detail(
    raw: &[u8],
    options: &Options,
    keep: Keep,
    on_url: &mut dyn FnMut(UrlRecord),
) -> Analysis {
    let mut diagnostics = Vec::new();
    let walk = mime::split(raw, options, &mut diagnostics);
    let members::Expanded { walk, stated } = members::expand(walk, raw, options, &mut diagnostics);
    let mut stated = file::Stated {
        found: stated,
        walk: &walk,
        raw,
    };
    let retrieval = Arc::new(base::retrieval_base(options, &mut diagnostics));
    // The header-level bases first: each depends on its parent's only, and the URLs of an
    // entity can name the `Content-Location` of any other. The diagnostics of each entity
    // wait for its turn below, so that they come in document order.
    let mut header_bases: Vec<Arc<BaseRecord>> = Vec::with_capacity(walk.entities.len());
    let mut passed_over: Vec<Vec<(usize, BaseIgnored)>> = Vec::with_capacity(walk.entities.len());
    let mut waiting: Vec<Vec<Diagnostic>> = Vec::with_capacity(walk.entities.len());
    for entity in &walk.entities {
        let mut found = Vec::new();
        let header_base = {
            let context = match entity
                .parent
                .and_then(|i| Some((walk.entities.get(i)?, header_bases.get(i)?)))
            {
                Some((parent, base)) => Context::Inside(&parent.part, base),
                None => Context::Root(&retrieval),
            };
            base::header_base(entity, context, options, &mut found)
        };
        header_bases.push(Arc::new(header_base.record));
        passed_over.push(header_base.passed_over);
        waiting.push(found);
    }
    let outer = |index: usize| -> &Arc<BaseRecord> {
        walk.entities
            .get(index)
            .and_then(|entity| entity.parent)
            .and_then(|parent| header_bases.get(parent))
            .unwrap_or(&retrieval)
    };
    let linker = Linker::new(&walk, |index| {
        content_location(walk.entities.get(index)?, outer(index), options.resolver())
    });
    let mut sink = Sink {
        on_url,
        linker,
        emitted: 0,
        url_budget: options.max_urls(),
        unmatched: Vec::new(),
    };
    let mut state = HtmlState {
        decoded_budget: walk.decoded_budget,
        keep,
    };
    let attachment_base = Arc::new(BaseRecord {
        url: None,
        source: BaseSource::Attachment,
        inherited_from: None,
    });
    let no_base = Arc::new(BaseRecord::none());
    let mut records: Vec<EntityRecord> = Vec::with_capacity(walk.entities.len());
    let mut html_parts = Vec::new();
    for (index, (entity, header_base)) in walk.entities.iter().zip(&header_bases).enumerate() {
        if let Some(found) = waiting.get_mut(index) {
            diagnostics.append(found);
        }
        header_urls(
            entity,
            index,
            (outer(index), header_base),
            passed_over.get(index).map_or(&[], Vec::as_slice),
            options,
            &mut sink,
            &mut diagnostics,
        );
        let bytes = walk.bytes(raw, entity.buffer);
        let document = document::document(entity, bytes, options);
        let mut opened = entity.opened.clone();
        let base = match document {
            Some(
                document @ Document {
                    kind: DocumentKind::Html | DocumentKind::Svg,
                    ..
                },
            ) => {
                // A part chosen by its file name or content is only ever opened from a
                // temporary file: the headers' base is not its base (`BaseSource::Attachment`).
                let body_base = if document.by != ChosenBy::MediaType {
                    &attachment_base
                } else {
                    header_base
                };
                let part = html_urls(
                    bytes,
                    entity,
                    index,
                    document.kind,
                    body_base,
                    &mut state,
                    options,
                    &mut sink,
                    &mut diagnostics,
                );
                match part {
                    Some((base, mut part)) => {
                        if keep != Keep::Nothing {
                            part.entity = index;
                            part.document = document;
                            html_parts.push(part);
                        }
                        base
                    }
                    None => Arc::clone(body_base),
                }
            }
            Some(Document {
                kind: DocumentKind::Text,
                ..
            }) => {
                text::text_urls(
                    bytes,
                    entity,
                    index,
                    &no_base,
                    &mut state,
                    options,
                    &mut sink,
                    &mut diagnostics,
                );
                Arc::clone(header_base)
            }
            Some(Document { kind, .. }) if kind.is_file() => {
                let urls = file::FileUrls::new(
                    entity,
                    index,
                    &attachment_base,
                    options,
                    &mut sink,
                    &mut diagnostics,
                );
                match kind {
                    DocumentKind::Pdf => {
                        let (base, how) = file::pdf_urls(bytes, &mut state, &mut stated, urls);
                        opened = how;
                        base.unwrap_or_else(|| Arc::clone(&attachment_base))
                    }
                    DocumentKind::Calendar => {
                        file::calendar_urls(bytes, &mut state, urls);
                        Arc::clone(&attachment_base)
                    }
                    DocumentKind::Shortcut => {
                        file::shortcut_urls(bytes, &mut state, urls);
                        Arc::clone(&attachment_base)
                    }
                    _ => {
                        file::office_urls(bytes, &mut state, urls);
                        Arc::clone(&attachment_base)
                    }
                }
            }
            _ => Arc::clone(header_base),
        };
        let parent = entity.parent.and_then(|i| records.get(i));
        records.push(EntityRecord {
            part: entity.part.clone(),
            kind: entity.kind,
            parent: parent.map(|p| p.part.clone()),
            content_type: entity.content_type.essence(),
            header: entity.header.clone().into(),
            body: entity.body.clone().into(),
            decoded_from: walk.decoded_from(entity.buffer).map(|e| e.part.clone()),
            header_base: BaseRecord::clone(header_base),
            base: BaseRecord::clone(&base),
            document,
            summary: (entity.kind == EntityKind::Message && entity.parent.is_some())
                .then(|| Box::new(summary::summary(entity))),
            opened,
        });
    }
    diagnostics.append(&mut sink.unmatched);
    // The URLs are all made: the root's summary takes its values out of the walk instead of
    // copying them (nothing reads those fields after).
    let mut walk = walk;
    let summary = walk
        .entities
        .first_mut()
        .map(summary::take_summary)
        .unwrap_or_default();
    let report = Report {
        message_id: summary.message_id.clone(),
        complete: !diagnostics.iter().any(|d| d.kind.is_limit()),
        summary,
        entities: records,
        urls: Vec::new(),
        diagnostics,
    };
    Analysis {
        report,
        walk,
        html: html_parts,
    }
}

/// The resolved `Content-Location` of an entity, as its header URL record resolves it
/// against `outer` (the first such field that resolves, a `cid:` URL included: Blink's MHTML
/// names parts so); what [`Linker`] matches URLs against.
fn content_location(entity: &Entity, outer: &BaseRecord, resolver: Resolver) -> Option<String> {
    entity
        .fields
        .iter()
        .filter(|field| field.is(FieldName::ContentLocation))
        .map(|field| headers::base_value(&field.value))
        .filter(|value| !value.is_empty())
        .find_map(|value| resolve(resolver, outer, &value, None).into_resolved())
}

/// The URL of `reference` against `base` with the chosen resolver: resolved when there is a base, reported
/// as it is (stripped as the resolvers strip it, [`strip_reference`]) when absolute, unresolved
/// otherwise; with `whatwg` every reference is parsed,
/// absolute ones included, and the query of an HTML URL is encoded in its part's `encoding`
/// (HTML "encoding-parsing a URL"; `None` for header URLs).
pub(crate) fn resolve(
    resolver: Resolver,
    base: &BaseRecord,
    reference: &str,
    encoding: Option<&'static Encoding>,
) -> Resolution {
    resolve_detailed(resolver, base, reference, encoding).0
}

/// [`resolve`], and whether the base decided the URL ([`Resolved::base_decided`]: the
/// resolver took any part of it); false when the reference is not resolved, or there is no
/// base.
pub(crate) fn resolve_detailed(
    resolver: Resolver,
    base: &BaseRecord,
    reference: &str,
    encoding: Option<&'static Encoding>,
) -> (Resolution, bool) {
    let result = match (resolver, base.url.as_deref()) {
        (Resolver::Whatwg, base) => {
            whatwg::encoding_parse_detailed(base, reference, encoding.unwrap_or(UTF_8))
        }
        (_, Some(base)) => resolver.resolve_detailed(base, reference),
        (_, None) => match strip_reference(reference) {
            absolute if has_scheme(&absolute) => Ok(Resolved {
                url: absolute.into_owned(),
                base_decided: false,
            }),
            _ => return (Resolution::NoBase, false),
        },
    };
    match result {
        Ok(resolved) => (Resolution::Resolved(resolved.url), resolved.base_decided),
        Err(ResolveError::InvalidReference(ParseFailure(Some(
            url::ParseError::RelativeUrlWithoutBase,
        )))) => (Resolution::NoBase, false),
        Err(error) => (Resolution::ResolverError(error.to_string()), false),
    }
}

/// The URLs of the entity's header fields: the base fields against the outer base
/// (base precedence step 2, crate docs), each with why it does not set the base when
/// `passed_over` (by field index, as [`base::HeaderBase`] gives them) says it does not; the RFC
/// 2369 lists, `Archived-At` and the `URL` parameter of a `message/external-body`
/// `Content-Type` (RFC 2017) against the header-level base.
fn header_urls(
    entity: &Entity,
    index: usize,
    (outer, header_base): (&Arc<BaseRecord>, &Arc<BaseRecord>),
    passed_over: &[(usize, BaseIgnored)],
    options: &Options,
    sink: &mut Sink<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let resolver = options.resolver();
    let mut not_recorded = 0;
    // The first Content-Type is the one read (`external-body`'s URL is its parameter).
    let content_type = entity
        .fields
        .iter()
        .find(|f| f.is(FieldName::ContentType))
        .map(|f| f.index);
    let ignored = |at: usize| {
        passed_over
            .iter()
            .find(|(field, _)| *field == at)
            .map(|(_, why)| *why)
    };
    for field in &entity.fields {
        let name = field.name;
        let (references, base) = if name.is_base_field() {
            let value = headers::base_value(&field.value);
            if value.is_empty() {
                continue;
            }
            (vec![value], outer)
        } else if name.is_list_field() {
            (headers::list_urls(&field.value), header_base)
        } else if name == FieldName::ContentType && content_type == Some(field.index) {
            match headers::external_body_url(&entity.content_type) {
                Some(url) => (vec![url], header_base),
                None => continue,
            }
        } else {
            continue;
        };
        for (item, reference) in references.into_iter().enumerate() {
            let Some(left) = sink.url_budget.checked_sub(1) else {
                not_recorded += 1;
                continue;
            };
            sink.url_budget = left;
            let (resolution, base_decided) = resolve_detailed(resolver, base, &reference, None);
            let record = UrlRecord {
                part: entity.part.clone(),
                source: UrlSource::Header {
                    name,
                    field: field.index,
                    item,
                },
                reference,
                resolution,
                base: Arc::clone(base),
                base_decided,
                resolver,
                target: None,
                ignored: ignored(field.index),
                link: None,
            };
            sink.emit(record, index);
        }
    }
    if not_recorded > 0 {
        diagnostics.push(url_limit(entity, not_recorded, "header", options));
    }
    if entity.dropped_fields > 0 {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::UrlLimit,
            message: format!(
                "{} more fields that hold URLs are not read: the message has more than {} of them (--max-urls raises the limit)",
                entity.dropped_fields,
                options.max_urls()
            ),
        });
    }
}

/// The diagnostic for `count` URLs of `entity` (in its `place`, header or body) past
/// [`Options::with_max_urls`].
pub(super) fn url_limit(
    entity: &Entity,
    count: usize,
    place: &str,
    options: &Options,
) -> Diagnostic {
    Diagnostic {
        part: Some(entity.part.clone()),
        kind: DiagnosticKind::UrlLimit,
        message: if count == 1 {
            format!(
                "1 URL of the {place} is not recorded: the message has more than {} URLs (--max-urls raises the limit)",
                options.max_urls()
            )
        } else {
            format!(
                "{count} URLs of the {place} are not recorded: the message has more than {} URLs (--max-urls raises the limit)",
                options.max_urls()
            )
        },
    }
}

/// Takes the `len` bytes of a decoded body from what is left of
/// [`Options::with_max_decoded_bytes`]; when they do not fit, the budget is spent, a
/// diagnostic says the part is not read, and the result is false.
pub(super) fn take_decoded(
    state: &mut HtmlState,
    len: usize,
    entity: &Entity,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let Some(remaining) = state.decoded_budget.checked_sub(len) else {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::DecodedSizeLimit,
            message: format!(
                "decoding the bodies read for links passed {} bytes; this part is not read for links ({} raises the limit)",
                options.max_decoded_bytes(),
                options.decoded_limit_option()
            ),
        });
        state.decoded_budget = 0;
        return false;
    };
    state.decoded_budget = remaining;
    true
}

/// The encoding the `charset` parameter of `entity` names, if any, and whether the label (if
/// any) was known; an unknown one gets a diagnostic saying what the body is decoded as
/// `instead` (`"as UTF-8 when valid, else as windows-1252"`).
pub(super) fn declared_charset(
    entity: &Entity,
    instead: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Option<&'static Encoding>, bool) {
    let (declared, known) = declared_encoding(&entity.content_type);
    if !known {
        let label = entity
            .content_type
            .param("charset")
            .unwrap_or_default()
            .trim();
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::UnknownCharset,
            message: format!("unknown charset \"{label}\"; decoded {instead}"),
        });
    }
    (declared, known)
}

/// What the HTML scans of one message share.
pub(super) struct HtmlState {
    /// What is left of [`Options::with_max_decoded_bytes`].
    pub decoded_budget: usize,
    /// Which parts to keep for [`HtmlPart`].
    pub keep: Keep,
}

/// The encoding the `charset` parameter names, if it names one, and whether the label (if
/// any) was known (WHATWG Encoding labels, `encoding_rs`).
pub(super) fn declared_encoding(content_type: &ContentType) -> (Option<&'static Encoding>, bool) {
    let declared = content_type
        .param("charset")
        .map(|label| Encoding::for_label(label.trim().as_bytes()));
    (declared.flatten(), !matches!(declared, Some(None)))
}

/// The encoding of an HTML body by the HTML Standard's encoding sniffing
/// ([`html::sniff`]): a byte order mark, else the `charset` parameter (WHATWG Encoding labels,
/// `encoding_rs`), else a `<meta>` in the first 1,024 bytes, else UTF-8 when the bytes are
/// valid UTF-8 and windows-1252 (a superset of US-ASCII and ISO-8859-1, the charsets
/// undeclared mail most often is in) when not. An unknown label counts as none; the flag
/// says whether the label (if any) was known.
pub(crate) fn text_encoding(body: &[u8], content_type: &ContentType) -> (&'static Encoding, bool) {
    let (declared, known) = declared_encoding(content_type);
    (html::sniff::sniff(body, declared).0, known)
}
