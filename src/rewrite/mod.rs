//! `rewrite`: the message with every resolvable relative URL of its HTML bodies
//! written in absolute form, and every other byte as it was.
//!
//! How it works:
//!
//! 1. [`analyze`](crate::analyze) runs, keeping the decoded text of each HTML part and where
//!    each URL sits in it.
//! 2. Each URL to change becomes an edit of the decoded text: the resolved URL, escaped for
//!    its context (HTML attribute quoting and `&amp;`, CSS escapes inside `url()`), in place
//!    of the URL's bytes. An attribute value holding a character reference cannot be edited
//!    in pieces, so it is written anew whole; an unquoted value that would need quotes gets
//!    them.
//! 3. The edits are mapped back to byte offsets of the body in its own charset and the new
//!    text is encoded into that charset (`encoding_rs`; characters the charset cannot hold
//!    become numeric character references, or CSS escapes inside CSS).
//! 4. A `7bit`/`8bit`/`binary` body is spliced in place. A base64 or quoted-printable body is
//!    encoded again whole, in its own transfer encoding, with the line ending it used, and
//!    replaces the old body. A part inside a base64- or quoted-printable-encoded
//!    `message/rfc822` changes that message's decoded bytes, which are encoded again in turn,
//!    layer by layer, up to the raw message.
//!
//! Same-document references (an empty value, a fragment-only `#name`) are kept as written:
//! they name this document, whatever its base; so are absolute ones. Both are told as the
//! resolvers read a reference, stripped of tabs, newlines and surrounding C0 controls
//! ([`strip_reference`](crate::url::strip_reference)): `ht<LF>tp://x/` is absolute and kept,
//! and a relative `a<LF>b` becomes its resolved form, without the newline. Headers never
//! change. A part that cannot be rewritten faithfully (unknown charset or transfer encoding, a
//! uuencoded body, which is decoded but never written, a body that is not clean in its
//! transfer encoding, a charset that is not ASCII-compatible
//! such as UTF-16 or ISO-2022-JP, a `7bit` body that would need 8-bit bytes, a body whose
//! quoted-printable written again would start a line with a multipart delimiter) is left as it
//! was, with a
//! [`DiagnosticKind::RewriteSkipped`] diagnostic.
//!
//! Hand-written because splicing with byte ranges is this project's job: `lol_html`'s
//! `set_attribute` writes the whole tag anew, which would change bytes outside the values.

use std::borrow::Cow;
use std::ops::Range;

use base64::Engine as _;
use encoding_rs::{Encoding, UTF_8};

use crate::analyze::{HtmlPart, Keep, analyze_collecting, text_encoding};
use crate::html;
use crate::mime::{self, Entity, TransferEncoding, Walk};
use crate::options::Options;
use crate::report::{Diagnostic, DiagnosticKind, Document, PartId, Report, Resolution, UrlRecord};
use crate::url::{has_scheme, strip_reference};
use crate::vocab::{DocumentKind, FieldName};

mod edits;

use edits::text_edits;
pub(crate) use edits::{css_escape, is_editable};

/// What [`rewrite`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The rewritten message: the input with the changed HTML bodies replaced, byte for byte
    /// the input everywhere else. Equal to the input when nothing needed to change.
    pub message: Vec<u8>,
    /// The report of the input message; parts left unchanged although they had URLs to
    /// rewrite have a [`DiagnosticKind::RewriteSkipped`] diagnostic.
    pub report: Report,
    /// The HTML parts whose bytes changed, in document order.
    pub changed: Vec<PartId>,
    /// How many URLs were written in absolute form.
    pub rewritten_urls: usize,
}

/// Writes every resolvable relative URL of the message's HTML bodies in its resolved form:
/// every HTML URL source that [`analyze`](crate::analyze) reports (attributes, each `srcset`
/// candidate, `meta refresh`, CSS `url()` in `style` attributes and elements, `<noscript>`
/// content). Bases, profile and resolver come from `options`, as for
/// [`analyze`](crate::analyze).
///
/// # Errors
///
/// None: like `analyze`, it is total over its input. What could not be rewritten is left as
/// it was and reported in [`Rewritten::report`].
///
/// ```
/// let message = b"Content-Base: http://example.com/a/\r\nContent-Type: text/html\r\n\r\n\
///                 <a href='b.html?x=1&amp;y=2'>b</a>";
/// let rewritten = mimebase::rewrite(message, &mimebase::Options::new());
/// assert_eq!(
///     String::from_utf8(rewritten.message).unwrap(),
///     "Content-Base: http://example.com/a/\r\nContent-Type: text/html\r\n\r\n\
///      <a href='http://example.com/a/b.html?x=1&amp;y=2'>b</a>"
/// );
/// ```
pub fn rewrite(raw: &[u8], options: &Options) -> Rewritten {
    let analysis = analyze_collecting(raw, options, Keep::Rewritable);
    let mut report = analysis.report;
    let walk = analysis.walk;
    let message_eol = line_ending(raw, b"\n");
    // Splices per buffer: 0 is the raw message, n the decoded buffer n (see `Walk::bytes`).
    let mut splices: Vec<Vec<Splice>> = vec![Vec::new(); walk.buffers.len() + 1];
    let mut changed = Vec::new();
    let mut rewritten_urls = 0;
    // HTML parts a limit kept from being scanned cannot be rewritten.
    for (index, (entity, record)) in walk.entities.iter().zip(&report.entities).enumerate() {
        if record.document.is_some_and(is_rewritten)
            && !analysis.html.iter().any(|p| p.entity == index)
        {
            report.diagnostics.push(skipped(
                entity,
                "it was not scanned (a limit was reached, see the other diagnostics)".to_owned(),
            ));
        }
    }
    for part in analysis
        .html
        .iter()
        .filter(|part| is_rewritten(part.document))
    {
        let Some(entity) = walk.entities.get(part.entity) else {
            continue;
        };
        match rewrite_part(raw, &walk, entity, part, &report.urls, message_eol) {
            Ok(None) => {}
            Ok(Some((edits, count))) => {
                if let Some(list) = splices.get_mut(entity.buffer) {
                    list.extend(edits);
                    changed.push(entity.part.clone());
                    rewritten_urls += count;
                }
            }
            Err(reason) => report.diagnostics.push(skipped(entity, reason)),
        }
    }
    // Encode changed buffers again, innermost first: a buffer's index is larger than the
    // index of the buffer its owner lives in.
    for index in (1..splices.len()).rev() {
        let edits = std::mem::take(splices.get_mut(index).unwrap_or(&mut Vec::new()));
        if edits.is_empty() {
            continue;
        }
        let Some((owner_index, bytes)) = walk.buffers.get(index - 1) else {
            continue;
        };
        let Some(owner) = walk.entities.get(*owner_index) else {
            continue;
        };
        let new = apply(bytes, &edits);
        let original = walk
            .bytes(raw, owner.buffer)
            .get(owner.body.clone())
            .unwrap_or_default();
        match encode_body(owner.transfer_encoding, &new, original, message_eol) {
            Some(encoded) if holds_delimiter(&encoded, &walk) => {
                report
                    .diagnostics
                    .push(skipped(owner, DELIMITER_IN_BODY.to_owned()));
                changed.retain(|part| !is_inside(&walk, part, *owner_index));
            }
            Some(encoded) => {
                if let Some(list) = splices.get_mut(owner.buffer) {
                    list.push(Splice {
                        range: owner.body.clone(),
                        bytes: encoded,
                    });
                }
            }
            None => {
                report.diagnostics.push(skipped(
                    owner,
                    "its transfer encoding cannot be written again".to_owned(),
                ));
                changed.retain(|part| !is_inside(&walk, part, *owner_index));
            }
        }
    }
    let message = apply(raw, splices.first().map_or(&[][..], Vec::as_slice));
    Rewritten {
        message,
        report,
        changed,
        rewritten_urls,
    }
}

/// Why a body written again in its transfer encoding is not used (see [`holds_delimiter`]).
const DELIMITER_IN_BODY: &str = "written again in its transfer encoding, its body would hold a line that reads as a \
     multipart delimiter";

/// Whether `rewrite` rewrites a document: an HTML page read in the message, not an attachment
/// (a reader opens that from a temporary file, where its relative references name files beside
/// it, so that making them absolute against the message's base would change what it shows).
fn is_rewritten(document: Document) -> bool {
    document.kind == DocumentKind::Html && !document.attachment
}

/// True when a line of `encoded`, a body written again in its transfer encoding, begins with
/// `--` and the boundary of a multipart of the message: it would read as a delimiter
/// (RFC 2046 §5.1.1) and cut the part in two. Quoted-printable written again breaks long
/// lines where it must (RFC 2045 §6.7, rule 5), so a boundary string in the middle of a line,
/// which delimits nothing there, can come to start one. Base64 has no `-`.
fn holds_delimiter(encoded: &[u8], walk: &Walk) -> bool {
    let boundaries: Vec<&str> = walk
        .entities
        .iter()
        .filter_map(|entity| entity.content_type.param("boundary"))
        .collect();
    if boundaries.is_empty() {
        return false;
    }
    let mut line_starts =
        std::iter::once(0).chain(memchr::memchr_iter(b'\n', encoded).map(|at| at + 1));
    line_starts.any(|start| {
        encoded
            .get(start..)
            .and_then(|line| line.strip_prefix(b"--"))
            .is_some_and(|rest| boundaries.iter().any(|b| rest.starts_with(b.as_bytes())))
    })
}

/// What a relative `reference` is written as once made absolute: its resolved form; `None`
/// when it stays as written: an absolute or same-document reference (see
/// [`is_same_document`]), one that did not resolve, or one resolved against `thismessage:/`.
/// The reference is read as the resolvers read it: `ht<LF>tp://x` is absolute and kept.
pub(crate) fn absolute_form<'a>(reference: &str, resolution: &'a Resolution) -> Option<&'a str> {
    let reference = strip_reference(reference);
    if has_scheme(&reference) || is_same_document(&reference) {
        return None;
    }
    // `thismessage:/` (the mhtml profile's stand-in base, RFC 2557 §5 (e)) only relates
    // the parts of one message to each other; no reader can open it.
    resolution
        .resolved()
        .filter(|resolved| !is_thismessage(resolved))
}

/// True for a URL with the scheme `thismessage` (ASCII case-insensitive).
fn is_thismessage(url: &str) -> bool {
    url.get(..12)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("thismessage:"))
}

/// True when the entity `part` lies inside the entity at index `ancestor`.
fn is_inside(walk: &Walk, part: &PartId, ancestor: usize) -> bool {
    let Some(mut index) = walk.entities.iter().position(|e| &e.part == part) else {
        return false;
    };
    while let Some(parent) = walk.entities.get(index).and_then(|e| e.parent) {
        if parent == ancestor {
            return true;
        }
        index = parent;
    }
    false
}

fn skipped(entity: &Entity, reason: String) -> Diagnostic {
    Diagnostic {
        part: Some(entity.part.clone()),
        kind: DiagnosticKind::RewriteSkipped,
        message: format!("part left unchanged: {reason}"),
    }
}

/// Bytes that replace a range of a buffer.
#[derive(Debug, Clone)]
pub(crate) struct Splice {
    range: Range<usize>,
    bytes: Vec<u8>,
}

/// `bytes` with the splices applied (they must not overlap; they are sorted here).
pub(crate) fn apply(bytes: &[u8], splices: &[Splice]) -> Vec<u8> {
    let mut sorted: Vec<&Splice> = splices.iter().collect();
    sorted.sort_by_key(|s| (s.range.start, s.range.end));
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for splice in sorted {
        let start = splice.range.start.clamp(at, bytes.len());
        out.extend_from_slice(bytes.get(at..start).unwrap_or_default());
        out.extend_from_slice(&splice.bytes);
        at = splice.range.end.clamp(start, bytes.len());
    }
    out.extend_from_slice(bytes.get(at..).unwrap_or_default());
    out
}

/// The line ending `bytes` uses (CRLF when it has any), or `default` when it has none.
fn line_ending<'a>(bytes: &[u8], default: &'a [u8]) -> &'a [u8] {
    if memchr::memmem::find(bytes, b"\r\n").is_some() {
        b"\r\n"
    } else if memchr::memchr(b'\n', bytes).is_some() {
        b"\n"
    } else {
        default
    }
}

/// The splices (in the entity's buffer) that rewrite one HTML part, and how many URLs they
/// rewrite; `None` when no URL needs to change; an error saying why the part is left as it
/// was.
fn rewrite_part(
    raw: &[u8],
    walk: &Walk,
    entity: &Entity,
    part: &HtmlPart,
    records: &[UrlRecord],
    message_eol: &'static [u8],
) -> Result<Option<(Vec<Splice>, usize)>, String> {
    let resolved_of = |record: usize| -> Option<&str> {
        let record = records.get(record)?;
        absolute_form(&record.reference, &record.resolution)
    };
    if part.urls_not_recorded > 0 {
        return Err(not_all_recorded(part));
    }
    let count = part
        .urls
        .iter()
        .filter(|(_, record)| resolved_of(*record).is_some())
        .count();
    if count == 0 {
        return Ok(None);
    }
    let (new, decoded_splices) = splice_decoded(raw, walk, entity, part, &resolved_of, &[])?;
    let bytes = walk.bytes(raw, entity.buffer);
    match entity.transfer_encoding {
        TransferEncoding::Identity => {
            let is_7bit = entity
                .fields
                .iter()
                .find(|f| f.is(FieldName::ContentTransferEncoding))
                .is_none_or(|f| f.value.trim().eq_ignore_ascii_case("7bit"));
            if is_7bit
                && decoded_splices
                    .iter()
                    .any(|s| s.bytes.iter().any(|b| !b.is_ascii()))
            {
                return Err("a 7bit body would need 8-bit bytes".to_owned());
            }
            let at = entity.body.start;
            let splices = decoded_splices
                .into_iter()
                .map(|s| Splice {
                    range: s.range.start + at..s.range.end + at,
                    bytes: s.bytes,
                })
                .collect();
            Ok(Some((splices, count)))
        }
        encoding => {
            let original = bytes.get(entity.body.clone()).unwrap_or_default();
            let encoded = encode_body(encoding, &new, original, message_eol)
                .ok_or_else(|| "its transfer encoding cannot be written again".to_owned())?;
            if holds_delimiter(&encoded, walk) {
                return Err(DELIMITER_IN_BODY.to_owned());
            }
            Ok(Some((
                vec![Splice {
                    range: entity.body.clone(),
                    bytes: encoded,
                }],
                count,
            )))
        }
    }
}

/// The body of one HTML part with its transfer encoding undone, in its own charset, with
/// every URL for which `new_value` (given the index of the URL's record) has a value replaced
/// by it, escaped for where it stands, and the text of each range of `other_edits` (ranges of
/// [`HtmlPart::text`] apart from the URLs) replaced by its text; and the splices that make it
/// from the decoded body.
/// Shared by [`rewrite`] and [`extract`](crate::extract()). An error says why the part
/// cannot be changed faithfully.
pub(crate) fn splice_decoded<'a>(
    raw: &[u8],
    walk: &Walk,
    entity: &Entity,
    part: &'a HtmlPart,
    new_value: &dyn Fn(usize) -> Option<&'a str>,
    other_edits: &[(Range<usize>, String)],
) -> Result<(Vec<u8>, Vec<Splice>), String> {
    if part.urls_not_recorded > 0 {
        return Err(not_all_recorded(part));
    }
    if entity.transfer_encoding == TransferEncoding::Unknown {
        return Err("unknown Content-Transfer-Encoding".to_owned());
    }
    if !part.transfer_decoded {
        return Err(
            "the body is not clean in its Content-Transfer-Encoding: decoding it read past bytes that writing it back would lose"
                .to_owned(),
        );
    }
    if !part.charset_known {
        return Err("unknown charset".to_owned());
    }
    if part.charset_errors {
        return Err(format!(
            "the body has byte sequences {} does not allow, which could not be written back",
            part.encoding.name()
        ));
    }
    if !part.encoding.is_ascii_compatible() || part.encoding.output_encoding() != part.encoding {
        return Err(format!(
            "charset {} is not ASCII-compatible, so bytes cannot be spliced into it",
            part.encoding.name()
        ));
    }
    let mut edits = text_edits(part, new_value);
    if !other_edits.is_empty() {
        edits.extend(other_edits.iter().cloned());
        edits.sort_by_key(|(range, _)| (range.start, range.end));
    }
    let bytes = walk.bytes(raw, entity.buffer);
    let decoded = mime::decoded_body(bytes, entity, &mut Vec::new());
    let decoded_splices = splices_of_edits(part.encoding, &decoded, &part.text, edits)?;
    let new = apply(&decoded, &decoded_splices);
    read_back(&new, entity, part, new_value)?;
    Ok((new, decoded_splices))
}

/// The splices of `bytes`, whose decoding with `encoding` is `text`, that make the `edits` of
/// `text` (ranges of it, sorted and not overlapping, with their new text): each new text
/// encoded in `encoding`. An error when a range cannot be mapped onto the bytes, or when the
/// text a range replaces does not come back unchanged through the encoding.
pub(crate) fn splices_of_edits(
    encoding: &'static Encoding,
    bytes: &[u8],
    text: &str,
    edits: Vec<(Range<usize>, String)>,
) -> Result<Vec<Splice>, String> {
    let mut offsets: Vec<usize> = edits
        .iter()
        .flat_map(|(range, _)| [range.start, range.end])
        .collect();
    offsets.sort_unstable();
    offsets.dedup();
    let unmapped = || "text offsets could not be mapped to the body's bytes".to_owned();
    let map = byte_offsets(encoding, bytes, text, &offsets).ok_or_else(unmapped)?;
    let to_bytes = |offset: usize| {
        offsets
            .binary_search(&offset)
            .ok()
            .and_then(|i| map.get(i).copied())
    };
    let mut splices = Vec::with_capacity(edits.len());
    for (range, new) in edits {
        let (Some(start), Some(end)) = (to_bytes(range.start), to_bytes(range.end)) else {
            return Err(unmapped());
        };
        // What an edit keeps of the old text (a value written anew whole) is encoded again:
        // that must give back its old bytes, which a charset with two byte sequences for one
        // character (Shift_JIS) does not always do.
        let old_text = text.get(range.clone()).unwrap_or_default();
        let (old_again, _, _) = encoding.encode(old_text);
        if bytes.get(start..end) != Some(&old_again[..]) {
            return Err(format!(
                "bytes of the part do not come back unchanged through {}",
                encoding.name()
            ));
        }
        // The new text's own bytes when the charset writes it as UTF-8 (no copy).
        let new = match encoding.encode(&new) {
            (Cow::Owned(encoded), _, _) => encoded,
            (Cow::Borrowed(_), _, _) => new.into_bytes(),
        };
        splices.push(Splice {
            range: start..end,
            bytes: new,
        });
    }
    Ok(splices)
}

/// Why a part that lost URLs to [`Options::with_max_urls`] is left as it was: changing only
/// the URLs that were recorded would leave it half rewritten.
fn not_all_recorded(part: &HtmlPart) -> String {
    format!(
        "{} of its URLs were not recorded (the message has more URLs than the limit), and it is not rewritten in part",
        part.urls_not_recorded
    )
}

/// Whether `reference` (stripped as the resolvers strip it) refers to the document it stands in
/// and so is kept as written: an empty reference, which the HTML Standard resolves to the
/// document's own URL (`<img src="">` would fetch the page itself once made absolute), or a
/// fragment-only one (`href="#top"`, `usemap="#nav"`, CSS `url(#clip)`), which names a place
/// or an element in this document; made absolute, it would point at another document (the
/// base), and the link would leave the page or the image map would break.
pub(crate) fn is_same_document(reference: &str) -> bool {
    reference.is_empty() || reference.starts_with('#')
}

/// Checks that the new body reads back as intended: decoded and scanned as `analyze` would,
/// it holds the same URLs in the same order, each rewritten one now its resolved form. This
/// catches what no escaping can carry (a NUL or CR in a URL, which the HTML parser replaces;
/// a character reference the HTML parser maps to another character).
fn read_back<'a>(
    new: &[u8],
    entity: &Entity,
    part: &'a HtmlPart,
    resolved_of: &dyn Fn(usize) -> Option<&'a str>,
) -> Result<(), String> {
    let encoding = match part.document.kind {
        // The SVG part's encoding came from XML's rules, which splicing ASCII URLs keeps.
        DocumentKind::Svg => part.encoding,
        _ => text_encoding(new, &entity.content_type).0,
    };
    let (text, _) = encoding.decode_without_bom_handling(new);
    // One more than expected is enough to tell a different count.
    let found = match part.document.kind {
        DocumentKind::Svg => crate::svg::scan(&text, part.urls.len().saturating_add(1)).scan,
        _ => html::scan(&text, part.urls.len().saturating_add(1)),
    };
    let expected = part.urls.iter().map(|(url, record)| {
        resolved_of(*record).map_or(url.reference(&part.text), |resolved| resolved)
    });
    if found.urls.len() == part.urls.len()
        && found.not_recorded == 0
        && found
            .urls
            .iter()
            .zip(expected)
            .all(|(url, expected)| url.reference(&text) == expected)
    {
        Ok(())
    } else {
        Err("the rewritten HTML would not read back the same URLs (a resolved URL holds a character HTML cannot carry)".to_owned())
    }
}

/// For each text offset in `wanted` (sorted, UTF-8 offsets into `text`, the decoding of
/// `bytes` with `encoding`), the offset in `bytes` where decoding reaches it; `None` when one
/// cannot be found (an offset inside a character).
fn byte_offsets(
    encoding: &'static Encoding,
    bytes: &[u8],
    text: &str,
    wanted: &[usize],
) -> Option<Vec<usize>> {
    if encoding == UTF_8 && bytes == text.as_bytes() {
        return Some(wanted.to_vec());
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut found = Vec::with_capacity(wanted.len());
    let mut wanted = wanted.iter().peekable();
    let mut produced = 0;
    let mut buffer = [0u8; 64];
    while wanted.peek().is_some_and(|&&w| w == 0) {
        found.push(0);
        wanted.next();
    }
    for (index, byte) in bytes.iter().enumerate() {
        let (_, _, written, _) =
            decoder.decode_to_utf8(std::slice::from_ref(byte), &mut buffer, false);
        produced += written;
        while let Some(&&w) = wanted.peek() {
            if w > produced {
                break;
            }
            if w < produced {
                return None;
            }
            found.push(index + 1);
            wanted.next();
        }
    }
    let (_, _, written, _) = decoder.decode_to_utf8(&[], &mut buffer, true);
    produced += written;
    for &w in wanted {
        if w != produced {
            return None;
        }
        found.push(bytes.len());
    }
    Some(found)
}

/// `new` encoded in the transfer encoding `encoding` to replace the body `original`:
/// base64 in lines of 76 characters, quoted-printable with soft line breaks, both with the
/// line ending `original` uses (else `message_eol`); the white space that ended a base64 body
/// is kept. `None` for the identity encodings, which are never encoded whole, and for
/// uuencode, which is not written (its `begin` line's mode and name, and the line lengths of
/// the encoder, would have to be kept).
fn encode_body(
    encoding: TransferEncoding,
    new: &[u8],
    original: &[u8],
    message_eol: &'static [u8],
) -> Option<Vec<u8>> {
    let eol = line_ending(original, message_eol);
    match encoding {
        TransferEncoding::Base64 => {
            let text = base64::engine::general_purpose::STANDARD.encode(new);
            let mut out = Vec::with_capacity(text.len() + text.len() / 76 * eol.len() + 4);
            for (i, line) in text.as_bytes().chunks(76).enumerate() {
                if i > 0 {
                    out.extend_from_slice(eol);
                }
                out.extend_from_slice(line);
            }
            let content_end = original
                .iter()
                .rposition(|b| !b.is_ascii_whitespace())
                .map_or(0, |i| i + 1);
            out.extend_from_slice(original.get(content_end..).unwrap_or_default());
            Some(out)
        }
        TransferEncoding::QuotedPrintable => {
            // The encoder treats CRLF as a line break and writes CRLF; a body with LF line
            // endings goes through it with CRLF and comes back with LF.
            let lf_only = eol == b"\n" && !new.contains(&b'\r');
            let input: Cow<'_, [u8]> = if lf_only {
                Cow::Owned(replace(new, b"\n", b"\r\n"))
            } else {
                Cow::Borrowed(new)
            };
            let encoded = quoted_printable::encode(input.as_ref());
            Some(if lf_only {
                replace(&encoded, b"\r\n", b"\n")
            } else {
                encoded
            })
        }
        // uuencode is decoded, never written: a part in it is left as it was.
        TransferEncoding::Identity | TransferEncoding::Unknown | TransferEncoding::Uuencode => None,
    }
}

/// `bytes` with every `from` replaced by `to`.
fn replace(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 32);
    let mut at = 0;
    for found in memchr::memmem::find_iter(bytes, from) {
        out.extend_from_slice(bytes.get(at..found).unwrap_or_default());
        out.extend_from_slice(to);
        at = found + from.len();
    }
    out.extend_from_slice(bytes.get(at..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_offsets_through_a_multibyte_charset() {
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("日本<a href=\"x\">");
        let text = "日本<a href=\"x\">";
        let x = text.find('x').unwrap();
        let map = byte_offsets(encoding_rs::SHIFT_JIS, &bytes, text, &[0, x, x + 1]).unwrap();
        assert_eq!(map, [0, 13, 14]);
        assert_eq!(bytes[13], b'x');
        // An offset inside a character has no byte offset.
        assert_eq!(
            byte_offsets(encoding_rs::SHIFT_JIS, &bytes, text, &[1]),
            None
        );
    }

    #[test]
    fn base64_and_quoted_printable_bodies() {
        let base64 =
            encode_body(TransferEncoding::Base64, &[b'a'; 100], b"YWFh\r\n", b"\n").unwrap();
        let text = String::from_utf8(base64).unwrap();
        assert_eq!(text.lines().next().unwrap().len(), 76);
        assert!(text.ends_with("\r\n") && text.contains("\r\n"));
        let qp = encode_body(
            TransferEncoding::QuotedPrintable,
            b"a=b\nc",
            b"x\ny",
            b"\r\n",
        )
        .unwrap();
        assert_eq!(qp, b"a=3Db\nc");
        let decoded =
            mail_parser::decoders::quoted_printable::quoted_printable_decode(&qp).unwrap();
        assert_eq!(decoded, b"a=b\nc");
    }

    #[test]
    fn splices_apply_in_order() {
        let splices = [
            Splice {
                range: 4..5,
                bytes: b"X".to_vec(),
            },
            Splice {
                range: 0..1,
                bytes: b"ab".to_vec(),
            },
        ];
        assert_eq!(apply(b"01234", &splices), b"ab123X");
    }
}
