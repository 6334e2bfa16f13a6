//! The URLs of an HTML part: its body decoded (transfer encoding, then charset by the HTML
//! Standard's encoding sniffing), scanned ([`html::scan`]), its content base and those of its
//! `srcdoc` documents worked out, and each URL resolved and handed to the sink.

use std::borrow::Cow;
use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use super::{
    HtmlPart, HtmlState, Keep, Sink, declared_charset, resolve_detailed, take_decoded, url_limit,
};
use crate::base;
use crate::html::link_text::text_host_differs;
use crate::html::{self, BaseHref};
use crate::mime::{self, Entity};
use crate::options::Options;
use crate::report::{
    BaseIgnored, BaseRecord, Diagnostic, DiagnosticKind, Document, UrlRecord, UrlSource,
};
use crate::svg;
use crate::vocab::{ChosenBy, DocumentKind};

/// Decodes and scans an HTML or SVG body (`kind`), hands its URL records to `sink` and
/// returns its effective base (the content base, base precedence step 1, when it has a usable
/// `<base href>`, else `header_base`) and what was scanned; `None` when the part was not
/// scanned (decoded size limit).
#[allow(clippy::too_many_arguments)] // each is a different part of the analysis state
pub(super) fn html_urls(
    bytes: &[u8],
    entity: &Entity,
    index: usize,
    kind: DocumentKind,
    header_base: &Arc<BaseRecord>,
    state: &mut HtmlState,
    options: &Options,
    sink: &mut Sink<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Arc<BaseRecord>, HtmlPart)> {
    let before = diagnostics.len();
    let body = mime::decoded_body(bytes, entity, diagnostics);
    let transfer_decoded = diagnostics.len() == before;
    if !take_decoded(state, body.len(), entity, options, diagnostics) {
        return None;
    }
    let (text, encoding, charset_known, charset_errors) = match kind {
        DocumentKind::Svg => xml_charset(&body, entity, diagnostics),
        _ => decode_charset(&body, entity, diagnostics),
    };
    let (scan, svg_values) = if kind == DocumentKind::Svg {
        let scanned = svg::scan(&text, sink.url_budget);
        if let Some(stop) = scanned.stop {
            diagnostics.push(svg_stop(entity, stop));
        }
        (scanned.scan, scanned.values)
    } else {
        (html::scan(&text, sink.url_budget), Vec::new())
    };
    sink.url_budget = sink.url_budget.saturating_sub(scan.urls.len());
    if scan.not_recorded > 0 {
        diagnostics.push(url_limit(entity, scan.not_recorded, "body", options));
    }
    if let Some(count) = scan.not_scanned {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::HtmlError,
            message: format!(
                "a tag holds {count} or more double-quoted attribute values, more than the {} the HTML scan takes in one tag; this part is not scanned",
                html::MAX_QUOTED_VALUES_PER_TAG
            ),
        });
    }
    if scan.srcdocs_not_scanned > 0 {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::HtmlError,
            message: format!(
                "{} <iframe srcdoc> documents are not scanned: nested deeper than {}, or holding a tag of more than {} double-quoted attribute values",
                scan.srcdocs_not_scanned,
                html::MAX_SRCDOC_DEPTH,
                html::MAX_QUOTED_VALUES_PER_TAG
            ),
        });
    }
    let content_base = scan.base_reference(&text).and_then(|href| {
        base::content_base(entity, href, header_base, options, encoding, diagnostics)
    });
    // Whether each document's first `<base href>`, if it has one, sets its base.
    let mut usable: Vec<bool> = vec![content_base.is_some()];
    let base = content_base.map_or_else(|| Arc::clone(header_base), Arc::new);
    // The base of each document (the part's, then each `srcdoc` document's), and what its
    // `<base href>` resolves against: for a `srcdoc` document, the base of the document that
    // holds it (the HTML Standard's fallback base URL of an iframe srcdoc document).
    let mut bases: Vec<Arc<BaseRecord>> = vec![Arc::clone(&base)];
    let mut fallbacks: Vec<Arc<BaseRecord>> = vec![Arc::clone(header_base)];
    let mut base_urls: Vec<Option<usize>> = vec![scan.base];
    for srcdoc in &scan.srcdocs {
        let parent = bases
            .get(srcdoc.parent)
            .map_or_else(|| Arc::clone(header_base), Arc::clone);
        let own = srcdoc
            .base
            .and_then(|i| scan.urls.get(i))
            .map(|url| url.reference(&text))
            .and_then(|href| {
                base::content_base(entity, href, &parent, options, encoding, diagnostics)
            });
        usable.push(own.is_some());
        bases.push(own.map_or_else(|| Arc::clone(&parent), Arc::new));
        fallbacks.push(parent);
        base_urls.push(srcdoc.base);
    }
    let resolver = options.resolver();
    let keep = match state.keep {
        Keep::Nothing => false,
        Keep::All => true,
        Keep::Rewritable => scan.not_recorded == 0,
    };
    let mut kept = Vec::with_capacity(if keep { scan.urls.len() } else { 0 });
    let ranges: Vec<_> = scan.urls.iter().map(|url| scan.part_range(url)).collect();
    for (position, (mut found, range)) in scan.urls.into_iter().zip(ranges).enumerate() {
        // The <base href> itself resolves against the header-level base (base precedence step
        // 1), or in a `srcdoc` document against the base of the document that holds it.
        let document = found.document;
        let is_base = base_urls.get(document) == Some(&Some(position));
        let against = match if is_base {
            fallbacks.get(document)
        } else {
            bases.get(document)
        } {
            Some(against) => against,
            None => &base,
        };
        let srcdoc = document
            .checked_sub(1)
            .and_then(|i| scan.srcdocs.get(i))
            .map_or(0, |srcdoc| srcdoc.depth);
        let link = found.link.take();
        let reference = found.reference(&text);
        let (resolution, base_decided) =
            resolve_detailed(resolver, against, reference, Some(encoding));
        let link = link.map(|mut link| {
            link.text_host_differs = text_host_differs(&link.text, resolution.resolved());
            link
        });
        let ignored = match found.base_href {
            BaseHref::No => None,
            BaseHref::InTemplate => Some(BaseIgnored::InTemplate),
            BaseHref::Foreign => Some(BaseIgnored::ForeignContent),
            BaseHref::Candidate if is_base => {
                (usable.get(document) != Some(&true)).then_some(BaseIgnored::Unusable)
            }
            BaseHref::Candidate => Some(BaseIgnored::NotFirst),
        };
        let source = if kind == DocumentKind::Svg {
            UrlSource::Svg {
                tag: found.tag.clone(),
                attribute: found.attribute,
                range,
            }
        } else {
            UrlSource::Html {
                tag: found.tag.clone(),
                attribute: found.attribute,
                range,
                srcdoc,
            }
        };
        let record = UrlRecord {
            part: entity.part.clone(),
            source,
            reference: reference.to_owned(),
            resolution,
            base: Arc::clone(against),
            base_decided,
            resolver,
            target: None,
            ignored,
            link,
        };
        sink.emit(record, index);
        if keep {
            kept.push((found, sink.emitted - 1));
        }
    }
    let part = HtmlPart {
        entity: 0,
        document: Document {
            kind,
            by: ChosenBy::MediaType,
            attachment: false,
        },
        encoding,
        charset_known,
        transfer_decoded,
        charset_errors,
        urls_not_recorded: scan.not_recorded,
        text: if keep {
            text.into_owned()
        } else {
            String::new()
        },
        urls: kept,
        fetch_attributes: if keep {
            scan.fetch_attributes
        } else {
            Vec::new()
        },
        srcdocs: if keep { scan.srcdocs } else { Vec::new() },
        svg_values: if keep { svg_values } else { Vec::new() },
    };
    Some((base, part))
}

/// The diagnostic of an SVG document that a browser stops reading at `stop`.
fn svg_stop(entity: &Entity, stop: svg::Stop) -> Diagnostic {
    use svg::StopReason::*;
    let why = match stop.reason {
        NotWellFormed => "it is not well-formed XML there",
        InvalidChar => "a character XML does not allow",
        LessThanInAttribute => "a `<` in an attribute value",
        BadReference => "a malformed character or entity reference",
        UndeclaredEntity => "a reference to an entity the document does not declare",
        ExternalEntityInAttribute => "a reference to an external entity in an attribute value",
        UndeclaredPrefix => "an attribute whose namespace prefix is not declared",
        EntityLoop => "an entity that refers to itself",
        EntityDepth => "entities nested deeper than a browser expands them",
        TooDeep => "elements nested deeper than a browser reads",
        EntityBudget => {
            return Diagnostic {
                part: Some(entity.part.clone()),
                kind: DiagnosticKind::XmlEntityLimit,
                message: format!(
                    "the SVG document's entities expand to more than four times its size (at least 1 MiB); it is read up to byte {}, where that limit was reached",
                    stop.at
                ),
            };
        }
    };
    Diagnostic {
        part: Some(entity.part.clone()),
        kind: DiagnosticKind::XmlError,
        message: format!(
            "the SVG document stops at byte {} ({why}): a browser's XML parser shows and links only what comes before, and so is it read",
            stop.at
        ),
    }
}

/// An SVG (XML) body as UTF-8 text, with the encoding used, whether the declared label was
/// known and whether the body had byte sequences the encoding does not allow. The encoding is
/// XML's (XML 1.0 Appendix F, RFC 7303 §3.2): a byte order mark, else the `charset`
/// parameter, else the `encoding` of the XML declaration, else UTF-8.
fn xml_charset<'a>(
    body: &'a [u8],
    entity: &Entity,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Cow<'a, str>, &'static Encoding, bool, bool) {
    let (declared, known) = declared_charset(
        entity,
        "as the XML declaration says, else as UTF-8",
        diagnostics,
    );
    let encoding = Encoding::for_bom(body)
        .map(|(encoding, _)| encoding)
        .or(declared)
        .or_else(|| xml_declaration_encoding(body))
        .unwrap_or(UTF_8);
    if encoding == UTF_8
        && let Ok(text) = std::str::from_utf8(body)
    {
        return (Cow::Borrowed(text), UTF_8, known, false);
    }
    let (text, errors) = encoding.decode_without_bom_handling(body);
    (text, encoding, known, errors)
}

/// The encoding the XML declaration at the start of `body` names (`<?xml version="1.0"
/// encoding="ISO-8859-1"?>`, XML 1.0 §4.3.3), when it names one `encoding_rs` knows. A
/// UTF-16 label is read as UTF-8, as the HTML Standard's prescan reads one: bytes that decode
/// as ASCII are not UTF-16.
fn xml_declaration_encoding(body: &[u8]) -> Option<&'static Encoding> {
    let declaration = body.strip_prefix(b"<?xml")?;
    let end = memchr::memmem::find(declaration.get(..1024).unwrap_or(declaration), b"?>")?;
    let declaration = declaration.get(..end)?;
    let at = memchr::memmem::find(declaration, b"encoding")?;
    let rest = declaration
        .get(at + b"encoding".len()..)?
        .trim_ascii_start();
    let rest = rest.strip_prefix(b"=")?.trim_ascii_start();
    let (&quote, rest) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let label = rest.get(..memchr::memchr(quote, rest)?)?;
    let encoding = Encoding::for_label(label)?;
    Some(
        if encoding == encoding_rs::UTF_16BE || encoding == encoding_rs::UTF_16LE {
            UTF_8
        } else {
            encoding
        },
    )
}

/// The body as UTF-8 text, the encoding used, whether the declared label was known (see
/// [`text_encoding`]; an unknown label gets a diagnostic) and whether the body had byte
/// sequences the encoding does not allow. A byte order mark stays in the text as U+FEFF, so
/// that offsets in the text map onto the body's bytes one encoding step at a time.
fn decode_charset<'a>(
    body: &'a [u8],
    entity: &Entity,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Cow<'a, str>, &'static Encoding, bool, bool) {
    let (declared, known) = declared_charset(
        entity,
        "as a <meta> in the first 1,024 bytes declares, else as UTF-8 or windows-1252",
        diagnostics,
    );
    let encoding = match html::sniff::declared(body, declared) {
        Some((encoding, _)) => encoding,
        None => match std::str::from_utf8(body) {
            // Valid UTF-8: the text is the body itself, checked once.
            Ok(text) => return (Cow::Borrowed(text), UTF_8, known, false),
            Err(_) => WINDOWS_1252,
        },
    };
    let (text, errors) = encoding.decode_without_bom_handling(body);
    (text, encoding, known, errors)
}
