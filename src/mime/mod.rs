//! Our own iterative MIME splitter (RFC 2045, RFC 2046): the entity tree of a message with
//! absolute byte ranges, walked with an explicit stack, so that no input can exhaust the call
//! stack.
//!
//! Why not mail-parser's message tree: on Rust 1.95 only mail-parser 0.11.9 builds, and its
//! parse result overflows the stack when dropped at about 20 000 nested `message/rfc822`
//! levels, it copies the whole decoded buffer per level of base64-encoded `message/rfc822`
//! (hundreds of megabytes for a message of a few hundred kilobytes), and it matches boundaries
//! anywhere in a line where RFC 2046 §5.1.1 wants them at the start of one. Its single-field
//! parsers (`parse_content_type`) and its decoders do not have these problems, and we use them.

pub(crate) mod content_type;
pub(crate) mod header;
mod multipart;
pub(crate) mod transfer;

use std::borrow::Cow;
use std::ops::Range;

use crate::options::Options;
use crate::report::{Diagnostic, DiagnosticKind, EntityKind, Opened, PartId};
use crate::vocab::{DocumentKind, FieldName};

pub(crate) use header::Field;

/// A parsed `Content-Type` (RFC 2045 §5.1), type and subtype lowercase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContentType {
    pub media_type: String,
    pub subtype: String,
    /// Parameters in order, names lowercase, values as decoded by mail-parser (RFC 2231
    /// continuations joined).
    pub params: Vec<(String, String)>,
}

impl ContentType {
    fn new(media_type: &str, subtype: &str) -> Self {
        ContentType {
            media_type: media_type.to_owned(),
            subtype: subtype.to_owned(),
            params: Vec::new(),
        }
    }

    /// The value of parameter `name` (lowercase).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `type/subtype`.
    pub fn essence(&self) -> String {
        [self.media_type.as_str(), "/", self.subtype.as_str()].concat()
    }

    /// True for the media types scanned as HTML: `text/html`, `application/xhtml+xml`, and
    /// the alternatives some clients render, `text/x-amp-html` (AMP for Email) and
    /// `text/watch-html` (Apple Watch Mail).
    pub fn is_html(&self) -> bool {
        (self.media_type == "text"
            && matches!(self.subtype.as_str(), "html" | "x-amp-html" | "watch-html"))
            || (self.media_type == "application" && self.subtype == "xhtml+xml")
    }

    /// True for the types whose body is an encapsulated message (`message/rfc822`,
    /// `message/global`, `message/news`).
    fn is_encapsulating(&self) -> bool {
        self.media_type == "message"
            && matches!(self.subtype.as_str(), "rfc822" | "global" | "news")
    }
}

/// `Content-Transfer-Encoding` (RFC 2045 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TransferEncoding {
    /// `7bit`, `8bit`, `binary` or absent: the body is as it is.
    Identity,
    Base64,
    QuotedPrintable,
    /// `x-uuencode`, `x-uue`, `uuencode` or `uue` (see [`transfer::uudecode`]).
    Uuencode,
    /// Anything else: used as it is, with a diagnostic.
    Unknown,
}

/// One entity of the message.
#[derive(Debug, Clone)]
pub(crate) struct Entity {
    pub part: PartId,
    /// Which bytes `header` and `body` index: 0 for the raw message, `n` for
    /// [`Walk::buffers`]`[n - 1]`.
    pub buffer: usize,
    pub kind: EntityKind,
    /// Index of the encapsulating entity in the entity list.
    pub parent: Option<usize>,
    pub header: Range<usize>,
    pub body: Range<usize>,
    /// The fields of the header that the analysis reads (see [`Field`]).
    pub fields: Vec<Field>,
    /// How many fields holding URLs were not kept, past the message's bound (see
    /// [`header::KeptFields`]).
    pub dropped_fields: usize,
    pub content_type: ContentType,
    pub transfer_encoding: TransferEncoding,
    /// For a ZIP file that was read ([`crate::analyze`]'s archive members): whether it is an
    /// archive ([`DocumentKind::Archive`]) or an office document ([`DocumentKind::Office`]).
    pub container: Option<DocumentKind>,
    /// For an encrypted archive whose members were read: how it was opened.
    pub opened: Option<Opened>,
}

/// Work still to do: an entity whose range is known but not yet read.
struct Pending {
    range: Range<usize>,
    /// See [`Entity::buffer`].
    buffer: usize,
    /// How many encoded encapsulations (base64 or quoted-printable `message/rfc822`) enclose
    /// this entity.
    encoded_levels: usize,
    part: PartId,
    kind: EntityKind,
    parent: Option<usize>,
    depth: usize,
    /// RFC 2046 §5.1.5: inside `multipart/digest` the default type is `message/rfc822`.
    in_digest: bool,
}

/// The entities of a message and the decoded buffers some of them live in.
#[derive(Debug, Default)]
pub(crate) struct Walk {
    /// Every entity, in document order (parents before children).
    pub entities: Vec<Entity>,
    /// The decoded bodies of base64 or quoted-printable `message/rfc822` parts, each with the
    /// index of that part in `entities`; [`Entity::buffer`] `n` is `buffers[n - 1]`.
    pub buffers: Vec<(usize, Vec<u8>)>,
    /// What is left of [`Options::max_decoded_bytes`] after the buffers were decoded.
    pub decoded_budget: usize,
}

impl Walk {
    /// The bytes that the ranges of an entity with [`Entity::buffer`] `buffer` index.
    pub fn bytes<'a>(&'a self, raw: &'a [u8], buffer: usize) -> &'a [u8] {
        match buffer.checked_sub(1) {
            None => raw,
            Some(i) => self.buffers.get(i).map_or(&[][..], |(_, bytes)| bytes),
        }
    }

    /// The entity whose decoded body buffer `buffer` is; `None` for the raw message.
    pub fn decoded_from(&self, buffer: usize) -> Option<&Entity> {
        let (entity, _) = self.buffers.get(buffer.checked_sub(1)?)?;
        self.entities.get(*entity)
    }
}

/// What to walk into after an entity.
enum Next {
    /// Nothing: a leaf, or a limit was reached.
    Nothing,
    /// Body parts, or a message encapsulated as it is.
    Entities(Vec<Pending>),
    /// A message encapsulated in a base64 or quoted-printable body: decode the body of the
    /// entity at this index, then walk the result.
    Decode(Pending),
}

/// The UTF-8 byte order mark (U+FEFF in UTF-8), which some programs write at the start of a
/// file they save, a message or an mbox.
pub(crate) const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// Where the header of the message `raw` starts, and whether a byte order mark came first:
/// after a UTF-8 byte order mark, skipped as MimeKit's parser skips it (GMime reads it as
/// part of the first field's name, so that `Content-Type` there is not one; Python's `email`
/// reads the whole message as body), and after a leading mbox `From ` line (RFC 4155 §2), but
/// not after a From field in the obsolete syntax (`From : a@b`, RFC 5322 §4.5.2), which is
/// the message's first field ([`header::is_from_field`]).
pub(crate) fn header_start(raw: &[u8]) -> (usize, bool) {
    let bom = raw.starts_with(BYTE_ORDER_MARK);
    let start = if bom { BYTE_ORDER_MARK.len() } else { 0 };
    let rest = raw.get(start..).unwrap_or_default();
    if rest.starts_with(b"From ") && !header::is_from_field(rest) {
        let line = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        (start + line, bom)
    } else {
        (start, bom)
    }
}

/// Splits `raw` into its entities, in document order (parents before children).
///
/// A leading byte order mark and mbox `From ` line are skipped ([`header_start`]). Never fails:
/// problems are pushed to `diagnostics`.
pub(crate) fn split(raw: &[u8], options: &Options, diagnostics: &mut Vec<Diagnostic>) -> Walk {
    let (start, bom) = header_start(raw);
    if bom {
        diagnostics.push(Diagnostic {
            part: Some(PartId::root()),
            kind: DiagnosticKind::MalformedHeader,
            message: "the message starts with a UTF-8 byte order mark; skipped, the header after it is read"
                .to_owned(),
        });
    }
    let mut walk = Walk::default();
    let mut budget = options.max_decoded_bytes();
    let mut kept = header::KeptFields {
        budget: options.max_urls().saturating_add(1),
    };
    let entity_limit = options.entity_limit(raw.len());
    // Body parts past the entity limit that were never queued.
    let mut not_waiting = 0usize;
    let mut stack = vec![Pending {
        range: start..raw.len(),
        buffer: 0,
        encoded_levels: 0,
        part: PartId::root(),
        kind: EntityKind::Message,
        parent: None,
        depth: 0,
        in_digest: false,
    }];
    while let Some(pending) = stack.pop() {
        if walk.entities.len() >= entity_limit {
            diagnostics.push(Diagnostic {
                part: Some(pending.part),
                kind: DiagnosticKind::EntityLimit,
                message: format!(
                    "more than {} entities; this one and the {} after it are not read (--max-entities raises the limit)",
                    entity_limit,
                    stack.len() + not_waiting
                ),
            });
            break;
        }
        let index = walk.entities.len();
        let bytes = walk.bytes(raw, pending.buffer);
        let entity = read_entity(bytes, &pending, options, &mut kept, diagnostics);
        let next = children_of(bytes, &entity, &pending, index, options, diagnostics);
        let decoded = match next {
            Next::Nothing => None,
            Next::Entities(mut children) => {
                // No more of them wait than could still be walked, and one: the limit's
                // diagnostic names it, and counts the others.
                let room = entity_limit
                    .saturating_sub(walk.entities.len())
                    .saturating_add(1);
                if children.len() > room {
                    not_waiting += children.len() - room;
                    children.truncate(room);
                }
                stack.extend(children.into_iter().rev());
                None
            }
            Next::Decode(child) => {
                decode_encapsulated(bytes, &entity, &mut budget, options, diagnostics)
                    .map(|buffer| (child, buffer))
            }
        };
        walk.entities.push(entity);
        if let Some((mut child, buffer)) = decoded {
            child.range = 0..buffer.len();
            walk.buffers.push((index, buffer));
            child.buffer = walk.buffers.len();
            stack.push(child);
        }
    }
    walk.decoded_budget = budget;
    walk
}

/// The decoded body of an entity holding an encoded encapsulated message, within the decoded
/// size budget; `None`, with a diagnostic, when the budget would be passed or the encoding is
/// broken.
fn decode_encapsulated(
    bytes: &[u8],
    entity: &Entity,
    budget: &mut usize,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<u8>> {
    let body = bytes.get(entity.body.clone()).unwrap_or_default();
    // base64 decodes to at most 3/4 of its input, quoted-printable and uuencode to at most
    // their input.
    let at_most = if entity.transfer_encoding == TransferEncoding::Base64 {
        body.len() / 4 * 3 + 3
    } else {
        body.len()
    };
    if at_most > *budget {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind: DiagnosticKind::DecodedSizeLimit,
            message: format!(
                "decoding this encapsulated message would pass {} decoded bytes; it is not walked ({} raises the limit)",
                options.max_decoded_bytes(),
                options.decoded_limit_option()
            ),
        });
        return None;
    }
    let (decoded, said) = decode_transfer(body, entity.transfer_encoding)?;
    if let Some(said) = said {
        diagnostics.push(bad_encoding(entity, said));
    }
    *budget = budget.saturating_sub(decoded.len());
    Some(decoded)
}

fn read_entity(
    raw: &[u8],
    pending: &Pending,
    options: &Options,
    kept: &mut header::KeptFields,
    diagnostics: &mut Vec<Diagnostic>,
) -> Entity {
    // The root message must start with a field; a body part or an encapsulated message may
    // start with lines that are not fields before its MIME fields, as clients read them.
    let first_line = if pending.parent.is_none() {
        header::FirstLine::Strict
    } else {
        header::FirstLine::Lenient
    };
    let block = header::parse(
        raw,
        pending.range.clone(),
        first_line,
        options.max_header_bytes(),
        kept,
    );
    let diagnose = |diagnostics: &mut Vec<Diagnostic>, kind, message: String| {
        diagnostics.push(Diagnostic {
            part: Some(pending.part.clone()),
            kind,
            message,
        });
    };
    if pending.kind == EntityKind::Message && pending.range.is_empty() {
        // Nothing to show: a file truncated to nothing, or a mail store's placeholder. Said,
        // so that an empty tree is not taken for a message without links.
        diagnose(
            diagnostics,
            DiagnosticKind::NoHeader,
            "the message is empty (0 bytes)".to_owned(),
        );
    }
    match block.problem {
        Some(header::HeaderProblem::NoHeader) if pending.kind == EntityKind::Message => diagnose(
            diagnostics,
            DiagnosticKind::NoHeader,
            "the message does not start with a header field; all of it is read as body".to_owned(),
        ),
        // A body part whose first line is not a field and that has no MIME field before an
        // empty line simply has no header (RFC 2046 §5.1.1 wants a blank line there, but
        // content right after the delimiter is common).
        Some(header::HeaderProblem::NoHeader) => {}
        Some(header::HeaderProblem::TooLarge) => diagnose(
            diagnostics,
            DiagnosticKind::HeaderTooLarge,
            format!(
                "header block larger than {} bytes; fields after byte {} are not read ({} raises the limit)",
                options.max_header_bytes(),
                block.range.end,
                options.header_limit_option()
            ),
        ),
        None => {}
    }
    if let Some(skipped) = &block.skipped {
        let line = raw.get(skipped.first.clone()).unwrap_or_default();
        let shown = String::from_utf8_lossy(line.get(..60).unwrap_or(line));
        let more = match skipped.lines {
            1 => String::new(),
            n => format!(" ({} more such lines skipped)", n - 1),
        };
        diagnose(
            diagnostics,
            DiagnosticKind::MalformedHeader,
            format!(
                "line at byte {} is not a header field: \"{shown}\"{}; skipped, the fields after it are read{more}",
                skipped.first.start,
                if line.len() > 60 { "…" } else { "" },
            ),
        );
    }
    for field in &block.overlong {
        let name = raw.get(field.raw_name.clone()).unwrap_or_default();
        let name = String::from_utf8_lossy(name.get(..100).unwrap_or(name));
        diagnose(
            diagnostics,
            DiagnosticKind::HeaderTooLarge,
            format!(
                "header field {name} at byte {} has {} bytes, more than the limit of {}; its value is not read, the fields after it are ({} raises the limit)",
                field.raw_name.start,
                field.end - field.raw_name.start,
                options.max_header_bytes(),
                options.header_limit_option()
            ),
        );
    }
    let default_type = if pending.in_digest {
        ContentType::new("message", "rfc822")
    } else {
        ContentType::new("text", "plain")
    };
    let content_type = match block.fields.iter().find(|f| f.is(FieldName::ContentType)) {
        None => default_type,
        Some(field) => match content_type::parse(&field.value) {
            content_type::Parsed::Valid(content_type) => content_type,
            content_type::Parsed::Junk(content_type, junk) => {
                let shown: String = junk.chars().take(60).collect();
                diagnose(
                    diagnostics,
                    DiagnosticKind::JunkAfterMediaType,
                    format!(
                        "Content-Type {} is followed by \"{shown}{}\" instead of \";\"; read as {0} {}",
                        content_type.essence(),
                        if shown.len() < junk.len() { "…" } else { "" },
                        if content_type.params.is_empty() {
                            "without parameters"
                        } else {
                            "with the parameters after the next \";\""
                        },
                    ),
                );
                content_type
            }
            // RFC 2045 §5.2: an invalid Content-Type is read as the default, text/plain (also
            // in a digest, where a missing one means message/rfc822), as Python's `email` does.
            content_type::Parsed::Invalid => {
                diagnose(
                    diagnostics,
                    DiagnosticKind::BadContentType,
                    format!(
                        "Content-Type \"{}\" is not type/subtype followed by parameters; read as text/plain",
                        field.value
                    ),
                );
                ContentType::new("text", "plain")
            }
        },
    };
    let transfer_encoding = match block
        .fields
        .iter()
        .find(|f| f.is(FieldName::ContentTransferEncoding))
    {
        None => TransferEncoding::Identity,
        // RFC 2045 §6.1 with RFC 822 comments allowed: `base64 (from the gateway)`.
        Some(field) => match header::strip_comments(&field.value)
            .trim()
            .to_ascii_lowercase()
            .as_str()
        {
            "7bit" | "8bit" | "binary" | "" => TransferEncoding::Identity,
            "base64" => TransferEncoding::Base64,
            "quoted-printable" => TransferEncoding::QuotedPrintable,
            // Not in RFC 2045: the names GMime (`x-uuencode`, `x-uue`, `uuencode`) and
            // Thunderbird (those and `uue`) decode as uuencode.
            "x-uuencode" | "x-uue" | "uuencode" | "uue" => TransferEncoding::Uuencode,
            other => {
                diagnose(
                    diagnostics,
                    DiagnosticKind::UnknownTransferEncoding,
                    format!("unknown Content-Transfer-Encoding \"{other}\"; body used as it is"),
                );
                TransferEncoding::Unknown
            }
        },
    };
    Entity {
        part: pending.part.clone(),
        buffer: pending.buffer,
        kind: pending.kind,
        parent: pending.parent,
        header: block.range,
        body: block.body_start..pending.range.end,
        fields: block.fields,
        dropped_fields: block.dropped,
        content_type,
        transfer_encoding,
        container: None,
        opened: None,
    }
}

/// The entities directly inside `entity`: its body parts, or the message it encapsulates.
fn children_of(
    raw: &[u8],
    entity: &Entity,
    pending: &Pending,
    index: usize,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Next {
    let is_multipart = entity.content_type.media_type == "multipart";
    if !is_multipart && !entity.content_type.is_encapsulating() {
        return Next::Nothing;
    }
    let diagnose = |diagnostics: &mut Vec<Diagnostic>, kind, message: String| {
        diagnostics.push(Diagnostic {
            part: Some(entity.part.clone()),
            kind,
            message,
        });
    };
    if pending.depth >= options.max_depth() {
        diagnose(
            diagnostics,
            DiagnosticKind::DepthLimit,
            format!(
                "nesting deeper than {} levels; the content of this entity is not walked (--max-depth raises the limit)",
                options.max_depth()
            ),
        );
        return Next::Nothing;
    }
    if !is_multipart {
        let child = Pending {
            range: entity.body.clone(),
            buffer: pending.buffer,
            encoded_levels: pending.encoded_levels,
            part: entity.part.encapsulated(),
            kind: EntityKind::Message,
            parent: Some(index),
            depth: pending.depth + 1,
            in_digest: false,
        };
        return match entity.transfer_encoding {
            TransferEncoding::Identity => Next::Entities(vec![child]),
            TransferEncoding::Unknown => {
                diagnose(
                    diagnostics,
                    DiagnosticKind::EncodedMessageNotWalked,
                    "encapsulated message in a body of unknown transfer encoding is not walked"
                        .to_owned(),
                );
                Next::Nothing
            }
            TransferEncoding::Base64
            | TransferEncoding::QuotedPrintable
            | TransferEncoding::Uuencode
                if pending.encoded_levels >= options.max_encoded_levels() =>
            {
                diagnose(
                    diagnostics,
                    DiagnosticKind::EncodedLevelLimit,
                    format!(
                        "more than {} levels of encoded encapsulated messages; this one is not walked (--max-encoded-levels raises the limit)",
                        options.max_encoded_levels()
                    ),
                );
                Next::Nothing
            }
            TransferEncoding::Base64
            | TransferEncoding::QuotedPrintable
            | TransferEncoding::Uuencode => Next::Decode(Pending {
                encoded_levels: pending.encoded_levels + 1,
                ..child
            }),
        };
    }
    let Some(boundary) = entity
        .content_type
        .param("boundary")
        .filter(|b| !b.is_empty())
    else {
        diagnose(
            diagnostics,
            DiagnosticKind::MissingBoundary,
            format!(
                "{} without a boundary parameter; its body is not split",
                entity.content_type.essence()
            ),
        );
        return Next::Nothing;
    };
    let split = multipart::split(raw, entity.body.clone(), boundary.as_bytes());
    if split.parts.is_empty() {
        diagnose(
            diagnostics,
            DiagnosticKind::NoBodyParts,
            format!("no delimiter line --{boundary} in the body"),
        );
    } else if !split.closed {
        diagnose(
            diagnostics,
            DiagnosticKind::MissingCloseDelimiter,
            format!("no close delimiter --{boundary}--; the last part runs to the end of the body"),
        );
    }
    let in_digest = entity.content_type.subtype == "digest";
    Next::Entities(
        split
            .parts
            .into_iter()
            .enumerate()
            .map(|(i, range)| Pending {
                range,
                buffer: pending.buffer,
                encoded_levels: pending.encoded_levels,
                part: entity.part.child(i + 1),
                kind: EntityKind::BodyPart,
                parent: Some(index),
                depth: pending.depth + 1,
                in_digest,
            })
            .collect(),
    )
}

/// `body` with `encoding` undone (see [`transfer`]); `None` for an identity or unknown
/// encoding (nothing to decode). With the decoded bytes, when the body was not clean in its
/// encoding, what the decoder read past, in words.
fn decode_transfer(body: &[u8], encoding: TransferEncoding) -> Option<(Vec<u8>, Option<String>)> {
    match encoding {
        TransferEncoding::Identity | TransferEncoding::Unknown => None,
        TransferEncoding::Base64 => {
            let (decoded, repairs) = transfer::base64(body);
            let mut said = Vec::new();
            if let Some(first) = repairs.first_skipped {
                said.push(format!(
                    "{} bytes outside the base64 alphabet ignored, the first at byte {first} of the body",
                    repairs.skipped
                ));
            }
            if repairs.after_padding > 0 {
                said.push(format!(
                    "{} bytes after the padding not decoded",
                    repairs.after_padding
                ));
            }
            let said = (!said.is_empty()).then(|| format!("base64 body: {}", said.join("; ")));
            Some((decoded, said))
        }
        TransferEncoding::QuotedPrintable => {
            let mut decoded = Vec::new();
            let kept = transfer::quoted_printable(body, &mut decoded);
            let said = (kept > 0).then(|| {
                format!(
                    "quoted-printable body: {kept} malformed escapes (`=` not followed by two hex digits or a line break) kept as written"
                )
            });
            Some((decoded, said))
        }
        TransferEncoding::Uuencode => {
            let (decoded, repairs) = transfer::uudecode(body);
            if repairs.no_begin {
                return Some((
                    body.to_vec(),
                    Some(
                        "uuencoded body without a begin line: used as it is (GMime and Thunderbird show nothing of it)"
                            .to_owned(),
                    ),
                ));
            }
            let mut said = Vec::new();
            if let Some(first) = repairs.first_bad_line {
                said.push(format!(
                    "{} data lines not of the length their first character gives, the first at byte {first} of the body, decoded as far as they go",
                    repairs.bad_lines
                ));
            }
            if repairs.no_end {
                said.push("no end line: decoded to the end of the body".to_owned());
            }
            if repairs.after_end > 0 {
                said.push(format!(
                    "{} bytes after the end line not decoded",
                    repairs.after_end
                ));
            }
            let said = (!said.is_empty()).then(|| format!("uuencoded body: {}", said.join("; ")));
            Some((decoded, said))
        }
    }
}

fn bad_encoding(entity: &Entity, said: String) -> Diagnostic {
    Diagnostic {
        part: Some(entity.part.clone()),
        kind: DiagnosticKind::BadTransferEncoding,
        message: said,
    }
}

/// The first bytes of the body of `entity` (whose ranges index `bytes`) with its transfer
/// encoding undone: at least `len` of them when the decoded body has that many (a
/// quoted-printable body's soft line breaks may make it fewer), and no more than it takes to
/// see them, so that a part's kind can be told by its first bytes without decoding it all.
pub(crate) fn decoded_prefix<'a>(bytes: &'a [u8], entity: &Entity, len: usize) -> Cow<'a, [u8]> {
    let body = bytes.get(entity.body.clone()).unwrap_or_default();
    let encoded = match entity.transfer_encoding {
        TransferEncoding::Identity | TransferEncoding::Unknown => {
            return Cow::Borrowed(body.get(..len).unwrap_or(body));
        }
        // Four characters of the alphabet give three bytes; white space and line breaks
        // between them are skipped.
        TransferEncoding::Base64 => {
            let wanted = len.div_ceil(3) * 4;
            let mut seen = 0usize;
            let end = body
                .iter()
                .position(|&b| {
                    if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' {
                        seen += 1;
                    }
                    seen > wanted
                })
                .unwrap_or(body.len());
            body.get(..end).unwrap_or(body)
        }
        // An escape is three bytes for one.
        TransferEncoding::QuotedPrintable => body.get(..len.saturating_mul(3)).unwrap_or(body),
        // The begin line, then 60 characters for every 45 bytes, a line break each.
        TransferEncoding::Uuencode => body
            .get(..len.saturating_mul(2).saturating_add(1024))
            .unwrap_or(body),
    };
    match decode_transfer(encoded, entity.transfer_encoding) {
        Some((decoded, _)) => Cow::Owned(decoded),
        None => Cow::Borrowed(encoded),
    }
}

/// The body of `entity` (whose ranges index `bytes`) with its transfer encoding undone
/// (RFC 2045 §6), read as mail clients read it: what is not clean in the encoding is read
/// past, with a diagnostic.
pub(crate) fn decoded_body<'a>(
    bytes: &'a [u8],
    entity: &Entity,
    diagnostics: &mut Vec<Diagnostic>,
) -> Cow<'a, [u8]> {
    let body = bytes.get(entity.body.clone()).unwrap_or_default();
    match decode_transfer(body, entity.transfer_encoding) {
        None => Cow::Borrowed(body),
        Some((decoded, said)) => {
            if let Some(said) = said {
                diagnostics.push(bad_encoding(entity, said));
            }
            Cow::Owned(decoded)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_multipart_ids_and_ranges() {
        let raw = b"Content-Type: multipart/mixed; boundary=o\n\n--o\nContent-Type: multipart/alternative; boundary=i\n\n--i\n\nA\n--i\nContent-Type: message/rfc822\n\nSubject: x\n\nB\n--i--\n--o\n\nC\n--o--\n";
        let mut diagnostics = Vec::new();
        let entities = split(raw, &Options::new(), &mut diagnostics).entities;
        let ids: Vec<_> = entities
            .iter()
            .map(|e| (e.part.as_str(), e.content_type.essence()))
            .collect();
        assert_eq!(
            ids,
            [
                ("HEADER", "multipart/mixed".to_owned()),
                ("1", "multipart/alternative".to_owned()),
                ("1.1", "text/plain".to_owned()),
                ("1.2", "message/rfc822".to_owned()),
                ("1.2.HEADER", "text/plain".to_owned()),
                ("2", "text/plain".to_owned()),
            ]
        );
        assert_eq!(&raw[entities[2].body.clone()], b"A");
        assert_eq!(&raw[entities[4].body.clone()], b"B");
        assert_eq!(entities[4].parent, Some(3));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    #[test]
    fn depth_limit_stops_descent_with_diagnostic() {
        let mut raw = Vec::new();
        for _ in 0..10 {
            raw.extend(b"Content-Type: message/rfc822\n\n");
        }
        raw.extend(b"Subject: end\n\nbody");
        let mut diagnostics = Vec::new();
        let entities = split(&raw, &Options::new().with_max_depth(3), &mut diagnostics).entities;
        assert_eq!(entities.len(), 4);
        assert_eq!(diagnostics[0].kind, DiagnosticKind::DepthLimit);
    }

    #[test]
    fn digest_parts_default_to_message_rfc822() {
        let raw = b"Content-Type: multipart/digest; boundary=d\n\n--d\n\nSubject: a\n\nA\n--d--\n";
        let mut diagnostics = Vec::new();
        let entities = split(raw, &Options::new(), &mut diagnostics).entities;
        assert_eq!(entities[1].content_type.essence(), "message/rfc822");
        assert_eq!(entities[2].part.as_str(), "1.HEADER");
    }
}
