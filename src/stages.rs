//! Each stage of [`analyze`](crate::analyze()) on its own, for the stage breakdown of the
//! benchmarks (`benches/analyze.rs`). Not part of the API: hidden from the docs, and free to
//! change with the stages.

use crate::mime::{self, TransferEncoding};
use crate::options::Options;

/// Splits `raw` into its entities and reads their header fields (as `analyze` does first);
/// returns the number of entities.
pub fn split(raw: &[u8]) -> usize {
    mime::split(raw, &Options::new(), &mut Vec::new())
        .entities
        .len()
}

/// Splits `raw`, then undoes the transfer encoding and the charset of every HTML part;
/// returns the decoded texts (what the HTML scan reads).
pub fn html_texts(raw: &[u8]) -> Vec<String> {
    let walk = mime::split(raw, &Options::new(), &mut Vec::new());
    walk.entities
        .iter()
        .filter(|entity| entity.content_type.is_html())
        .map(|entity| {
            let body = mime::decoded_body(walk.bytes(raw, entity.buffer), entity, &mut Vec::new());
            let (encoding, _) = crate::analyze::text_encoding(&body, &entity.content_type);
            encoding.decode_without_bom_handling(&body).0.into_owned()
        })
        .collect()
}

/// Splits `raw`, then undoes the transfer encoding and the charset of every `text/plain`
/// part, and joins the soft line breaks of a `format=flowed` one (RFC 3676); returns the
/// texts (what the plain-text link finder reads). The charset is found as for HTML parts.
pub fn plain_texts(raw: &[u8]) -> Vec<String> {
    let walk = mime::split(raw, &Options::new(), &mut Vec::new());
    walk.entities
        .iter()
        .filter(|entity| {
            entity.content_type.media_type == "text" && entity.content_type.subtype == "plain"
        })
        .map(|entity| {
            let body = mime::decoded_body(walk.bytes(raw, entity.buffer), entity, &mut Vec::new());
            let (encoding, _) = crate::analyze::text_encoding(&body, &entity.content_type);
            let text = encoding.decode_without_bom_handling(&body).0;
            let param = |name| entity.content_type.param(name).map(str::trim);
            if param("format").is_some_and(|f| f.eq_ignore_ascii_case("flowed")) {
                let delsp = param("delsp").is_some_and(|d| d.eq_ignore_ascii_case("yes"));
                crate::text::flowed::unflow(&text, delsp).text
            } else {
                text.into_owned()
            }
        })
        .collect()
}

/// Finds the links Thunderbird makes of one plain text; returns how many of each kind: URLs
/// with a scheme, `www.` hosts, e-mail addresses.
pub fn find_text_links(text: &str) -> [usize; 3] {
    let mut counts = [0; 3];
    let _ = crate::text::find_links(text, |link| {
        let kind = match link.kind {
            crate::text::LinkKind::Absolute => 0,
            crate::text::LinkKind::Www => 1,
            crate::text::LinkKind::Email => 2,
        };
        if let Some(count) = counts.get_mut(kind) {
            *count += 1;
        }
    });
    counts
}

/// Scans one decoded HTML text; returns the number of URLs found.
pub fn scan_html(text: &str) -> usize {
    crate::html::scan(text, usize::MAX).urls.len()
}

/// The bodies of `raw`'s quoted-printable parts, still encoded.
pub fn quoted_printable_bodies(raw: &[u8]) -> Vec<Vec<u8>> {
    let walk = mime::split(raw, &Options::new(), &mut Vec::new());
    walk.entities
        .iter()
        .filter(|entity| entity.transfer_encoding == TransferEncoding::QuotedPrintable)
        .filter_map(|entity| {
            walk.bytes(raw, entity.buffer)
                .get(entity.body.clone())
                .map(<[u8]>::to_vec)
        })
        .collect()
}

/// Our quoted-printable decoder (the one `analyze` uses), with the number of malformed
/// escapes it kept as written.
pub fn decode_quoted_printable(body: &[u8]) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let kept = mime::transfer::quoted_printable(body, &mut out);
    (out, kept)
}
