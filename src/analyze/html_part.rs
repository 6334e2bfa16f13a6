//! The URLs of an HTML part: its body decoded (transfer encoding, then charset by the HTML
//! Standard's encoding sniffing), scanned ([`html::scan`]), its content base and those of its
//! `srcdoc` documents worked out, and each URL resolved and handed to the sink.

use std::borrow::Cow;
use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use super::{HtmlPart, HtmlState, Keep, Sink, declared_encoding, resolve, url_limit};
use crate::base;
use crate::html;
use crate::mime::{self, ContentType, Entity};
use crate::options::Options;
use crate::report::{BaseRecord, Diagnostic, DiagnosticKind, Document, UrlRecord, UrlSource};
use crate::vocab::{ChosenBy, DocumentKind};

/// Decodes and scans an HTML body, hands its URL records to `sink` and returns its effective
/// base (the content base, base precedence step 1, when it has a usable `<base href>`, else
/// `header_base`) and what was scanned; `None` when the part was not scanned (decoded size
/// limit).
#[allow(clippy::too_many_arguments)] // each is a different part of the analysis state
pub(super) fn html_urls(
    bytes: &[u8],
    entity: &Entity,
    index: usize,
    header_base: &Arc<BaseRecord>,
    state: &mut HtmlState,
    options: &Options,
    sink: &mut Sink<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Arc<BaseRecord>, HtmlPart)> {
    let before = diagnostics.len();
    let body = mime::decoded_body(bytes, entity, diagnostics);
    let transfer_decoded = diagnostics.len() == before;
    let Some(remaining) = state.decoded_budget.checked_sub(body.len()) else {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::DecodedSizeLimit,
            message: format!(
                "decoding HTML bodies passed {} bytes; this part is not scanned",
                options.max_decoded_bytes()
            ),
        });
        state.decoded_budget = 0;
        return None;
    };
    state.decoded_budget = remaining;
    let (text, encoding, charset_known, charset_errors) =
        decode_charset(&body, &entity.content_type, entity, diagnostics);
    let scan = html::scan(&text, sink.url_budget);
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
    let base = scan
        .base_reference(&text)
        .and_then(|href| {
            base::content_base(entity, href, header_base, options, encoding, diagnostics)
        })
        .map_or_else(|| Arc::clone(header_base), Arc::new);
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
            })
            .map_or_else(|| Arc::clone(&parent), Arc::new);
        bases.push(own);
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
    for (position, (found, range)) in scan.urls.into_iter().zip(ranges).enumerate() {
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
        let reference = found.reference(&text);
        let resolution = resolve(resolver, against, reference, Some(encoding));
        let record = UrlRecord {
            part: entity.part.clone(),
            source: UrlSource::Html {
                tag: found.tag.clone(),
                attribute: found.attribute,
                range,
                srcdoc,
            },
            reference: reference.to_owned(),
            resolution,
            base: Arc::clone(against),
            resolver,
            target: None,
        };
        sink.emit(record, index);
        if keep {
            kept.push((found, sink.emitted - 1));
        }
    }
    let part = HtmlPart {
        entity: 0,
        document: Document {
            kind: DocumentKind::Html,
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
    };
    Some((base, part))
}

/// The body as UTF-8 text, the encoding used, whether the declared label was known (see
/// [`text_encoding`]; an unknown label gets a diagnostic) and whether the body had byte
/// sequences the encoding does not allow. A byte order mark stays in the text as U+FEFF, so
/// that offsets in the text map onto the body's bytes one encoding step at a time.
fn decode_charset<'a>(
    body: &'a [u8],
    content_type: &ContentType,
    entity: &Entity,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Cow<'a, str>, &'static Encoding, bool, bool) {
    let (declared, known) = declared_encoding(content_type);
    if !known {
        let label = content_type.param("charset").unwrap_or_default().trim();
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::UnknownCharset,
            message: format!(
                "unknown charset \"{label}\"; decoded as a <meta> in the first 1,024 bytes declares, else as UTF-8 or windows-1252"
            ),
        });
    }
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
