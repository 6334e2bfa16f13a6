//! The URLs of a plain-text part (`text/plain`, `text/enriched`): the links a mail client
//! makes of the text a reader sees ([`text::find_links`]), each with its range in the decoded
//! body.
//!
//! The body is decoded as a client shows it: its transfer encoding undone (quoted-printable
//! soft line breaks joined, RFC 2045 §6.7), its charset (RFC 2046 §4.1.2; a byte order mark
//! first, then the `charset` parameter, then UTF-8 when the bytes are valid UTF-8, else
//! windows-1252, the superset of US-ASCII and ISO-8859-1 that undeclared 8-bit mail is most
//! often in), then a `format=flowed` body's soft line breaks joined (RFC 3676 §4.2, `delsp`
//! §4.4) or a `text/enriched` body's formatting commands removed (RFC 1896): the text of a
//! URL broken by a soft line break is one link.

use std::borrow::Cow;
use std::sync::Arc;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use super::{HtmlState, Sink, declared_charset, resolve, take_decoded, url_limit};
use crate::mime::{self, Entity};
use crate::options::Options;
use crate::report::{BaseRecord, Diagnostic, DiagnosticKind, UrlRecord, UrlSource};
use crate::text::{self, Completeness};

/// Decodes a plain-text body and hands a URL record for each link a mail client makes of it
/// to `sink`. The records have no base (`none`): plain text has none, and every link is an
/// absolute URL (`www.` hosts and addresses are made `http://` and `mailto:` URLs, as the
/// client makes them).
#[allow(clippy::too_many_arguments)] // each is a different part of the analysis state
pub(super) fn text_urls(
    bytes: &[u8],
    entity: &Entity,
    index: usize,
    no_base: &Arc<BaseRecord>,
    state: &mut HtmlState,
    options: &Options,
    sink: &mut Sink<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let body = mime::decoded_body(bytes, entity, diagnostics);
    if !take_decoded(state, body.len(), entity, options, diagnostics) {
        return;
    }
    let text = decode_text(&body, entity, diagnostics);
    let content_type = &entity.content_type;
    let shown = if content_type.subtype == "enriched" {
        Some(text::enriched::visible_text(&text))
    } else if content_type
        .param("format")
        .is_some_and(|format| format.trim().eq_ignore_ascii_case("flowed"))
    {
        let delete_space = content_type
            .param("delsp")
            .is_some_and(|delsp| delsp.trim().eq_ignore_ascii_case("yes"));
        Some(text::flowed::unflow(&text, delete_space))
    } else {
        None
    };
    let seen = shown
        .as_ref()
        .map_or(text.as_ref(), |shown| shown.text.as_str());
    let resolver = options.resolver();
    let mut not_recorded = 0usize;
    let completeness = text::find_links(seen, |link| {
        let Some(left) = sink.url_budget.checked_sub(1) else {
            not_recorded += 1;
            return;
        };
        sink.url_budget = left;
        let range = match &shown {
            Some(shown) => shown.map.source_range(link.range.clone()),
            None => link.range.clone(),
        };
        let reference = seen.get(link.range).unwrap_or_default().to_owned();
        let record = UrlRecord {
            part: entity.part.clone(),
            source: UrlSource::Text {
                range: range.into(),
            },
            reference,
            resolution: resolve(resolver, no_base, &link.href, None),
            base: Arc::clone(no_base),
            // Plain text has no base.
            base_decided: false,
            resolver,
            target: None,
            ignored: None,
            link: None,
        };
        sink.emit(record, index);
    });
    if not_recorded > 0 {
        diagnostics.push(url_limit(entity, not_recorded, "body", options));
    }
    if completeness == Completeness::WorkLimitReached {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::TextLimit,
            message: "the text holds more would-be URLs that do not parse than the link finder checks (four times the text's size); the links after them are not reported".to_owned(),
        });
    }
}

/// The body as UTF-8 text: by its byte order mark, else its `charset` parameter (an unknown
/// label gets a diagnostic and counts as none), else as UTF-8 when it is valid UTF-8, else as
/// windows-1252. A byte order mark stays in the text as U+FEFF, so that offsets in the text
/// map onto the body's bytes one character at a time.
pub(super) fn decode_text<'a>(
    body: &'a [u8],
    entity: &Entity,
    diagnostics: &mut Vec<Diagnostic>,
) -> Cow<'a, str> {
    let (declared, _) = declared_charset(
        entity,
        "as UTF-8 when valid, else as windows-1252",
        diagnostics,
    );
    let encoding = match Encoding::for_bom(body) {
        Some((encoding, _)) => encoding,
        None => match declared {
            Some(encoding) => encoding,
            None => match std::str::from_utf8(body) {
                Ok(text) => return Cow::Borrowed(text),
                Err(_) => WINDOWS_1252,
            },
        },
    };
    if encoding == UTF_8
        && let Ok(text) = std::str::from_utf8(body)
    {
        return Cow::Borrowed(text);
    }
    let (text, _) = encoding.decode_without_bom_handling(body);
    text
}
