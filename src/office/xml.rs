//! Reading the XML parts of a package: their text (UTF-8 or UTF-16, with a map back to the
//! part's bytes), a namespace-aware event loop over it (`quick-xml`'s `NsReader`), and the
//! decoding of attribute values and character data with the place each character was
//! written at (XML 1.0 §2.4, §3.3.3, §4.1, §4.6).

use std::borrow::Cow;
use std::ops::Range;

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::{NamespaceResolver, ResolveResult};
use quick_xml::reader::NsReader;

use super::mapped::MappedText;

/// How far apart (in bytes of text) the points are from which an offset in a UTF-16 part's
/// text is counted back to its bytes: far enough to cost little memory, near enough that a
/// range is mapped by walking a short stretch.
const CHECKPOINT_EVERY: usize = 4096;

/// The text of an XML part and how offsets in it map to the part's bytes.
#[derive(Debug)]
pub(super) struct Document<'b> {
    /// The text, decoded, without its byte order mark.
    pub text: Cow<'b, str>,
    /// How offsets in `text` map back.
    offsets: Offsets,
}

/// How offsets in a part's decoded text map to its bytes.
#[derive(Debug)]
enum Offsets {
    /// The part is UTF-8: an offset is shifted by this much (a byte order mark).
    Shift(usize),
    /// The part is UTF-16: every character takes two bytes per UTF-16 code unit, after a
    /// byte order mark, if any.
    Utf16 {
        /// Pairs (offset in the text, offset in the part) at character boundaries, in
        /// increasing order, [`CHECKPOINT_EVERY`] bytes of text apart; the first is `(0,
        /// length of the byte order mark)`.
        checkpoints: Vec<(usize, usize)>,
    },
}

/// Decodes an XML part. OPC (ECMA-376 Part 2, rule M1.17) allows UTF-8 and UTF-16 only, and ODF
/// packages are written in UTF-8; the encoding is told as XML 1.0 Appendix F tells it, by a
/// byte order mark or by how `<?` is written, not by the encoding declaration. Bytes that are
/// not UTF-8 in a UTF-8 part end the text there (an XML parser stops at them too); the second
/// value then says where.
pub(super) fn decode(bytes: &[u8]) -> (Document<'_>, Option<usize>) {
    let utf16 = match bytes {
        [0xFF, 0xFE, ..] => Some((encoding_rs::UTF_16LE, 2)),
        [0xFE, 0xFF, ..] => Some((encoding_rs::UTF_16BE, 2)),
        [0x3C, 0x00, 0x3F, 0x00, ..] => Some((encoding_rs::UTF_16LE, 0)),
        [0x00, 0x3C, 0x00, 0x3F, ..] => Some((encoding_rs::UTF_16BE, 0)),
        _ => None,
    };
    if let Some((encoding, bom)) = utf16 {
        let text = encoding
            .decode_without_bom_handling(bytes.get(bom..).unwrap_or_default())
            .0;
        let checkpoints = checkpoints(&text, bom);
        let document = Document {
            text,
            offsets: Offsets::Utf16 { checkpoints },
        };
        return (document, None);
    }
    let bom = if bytes.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let body = bytes.get(bom..).unwrap_or_default();
    let (text, invalid) = match std::str::from_utf8(body) {
        Ok(text) => (text, None),
        Err(error) => {
            let valid = body.get(..error.valid_up_to()).unwrap_or_default();
            let text = std::str::from_utf8(valid).unwrap_or_default();
            (text, Some(bom + error.valid_up_to()))
        }
    };
    let document = Document {
        text: Cow::Borrowed(text),
        offsets: Offsets::Shift(bom),
    };
    (document, invalid)
}

/// The checkpoints of a UTF-16 part's decoded `text` (see [`Offsets::Utf16`]).
fn checkpoints(text: &str, bom: usize) -> Vec<(usize, usize)> {
    let mut checkpoints = vec![(0, bom)];
    let mut source = bom;
    let mut next = CHECKPOINT_EVERY;
    for (at, c) in text.char_indices() {
        if at >= next {
            checkpoints.push((at, source));
            next = at + CHECKPOINT_EVERY;
        }
        source = source.saturating_add(2 * c.len_utf16());
    }
    checkpoints
}

impl Document<'_> {
    /// The bytes of the part that the bytes `range` of the text were decoded from.
    pub(super) fn part_range(&self, range: Range<usize>) -> Range<usize> {
        self.part_offset(range.start)..self.part_offset(range.end)
    }

    /// The byte of the part where the text's byte `offset` (at a character boundary) starts.
    fn part_offset(&self, offset: usize) -> usize {
        match &self.offsets {
            Offsets::Shift(shift) => offset.saturating_add(*shift),
            Offsets::Utf16 { checkpoints } => {
                let index = checkpoints.partition_point(|&(at, _)| at <= offset);
                let (at, mut source) = index
                    .checked_sub(1)
                    .and_then(|index| checkpoints.get(index))
                    .copied()
                    .unwrap_or((0, 0));
                let stretch = self.text.get(at..).unwrap_or_default();
                for (inside, c) in stretch.char_indices() {
                    if at + inside >= offset {
                        break;
                    }
                    source = source.saturating_add(2 * c.len_utf16());
                }
                source
            }
        }
    }
}

/// Why the event loop stopped before the end of a part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NotWellFormed {
    /// The byte offset in the text where the error is.
    pub at: usize,
    /// What `quick-xml` says of it.
    pub reason: String,
}

/// Runs `handle` on each event of the XML `text` with its byte range in the text, until the
/// end, an error, or `handle` returns false. Namespaces are resolved by URI, whatever their
/// prefixes (Namespaces in XML 1.0), through the resolver `handle` is given; `quick-xml` caps
/// the bindings in scope and the nesting depth, so that the resolution, which walks the
/// bindings in scope, costs a bounded time per name.
///
/// # Errors
///
/// Where and why the text is not well-formed, when `quick-xml` finds it so: the events
/// before the error have been handled.
pub(super) fn each_event<'t>(
    text: &'t str,
    mut handle: impl FnMut(&NamespaceResolver, Event<'t>, Range<usize>) -> bool,
) -> Result<(), NotWellFormed> {
    let mut reader = NsReader::from_str(text);
    loop {
        let before = position(reader.buffer_position());
        match reader.read_event() {
            Ok(Event::Eof) => return Ok(()),
            Ok(event) => {
                let after = position(reader.buffer_position());
                if !handle(reader.resolver(), event, before..after) {
                    return Ok(());
                }
            }
            Err(error) => {
                return Err(NotWellFormed {
                    at: position(reader.error_position()),
                    reason: error.to_string(),
                });
            }
        }
    }
}

/// A position `quick-xml` gives, as an offset.
fn position(position: u64) -> usize {
    usize::try_from(position).unwrap_or(usize::MAX)
}

/// True when the namespace `resolved` is one of `namespaces`.
pub(super) fn is_in(resolved: &ResolveResult<'_>, namespaces: &[&str]) -> bool {
    matches!(resolved, ResolveResult::Bound(namespace)
        if namespaces.iter().any(|uri| namespace.as_ref() == *uri))
}

/// True when the element `start` is named `local` in one of `namespaces`.
pub(super) fn is_element(
    resolver: &NamespaceResolver,
    start: &BytesStart<'_>,
    namespaces: &[&str],
    local: &str,
) -> bool {
    let (resolved, name) = resolver.resolve_element(start.name());
    name.as_ref() == local && is_in(&resolved, namespaces)
}

/// The raw value of the attribute of `start` named `local`, in one of `namespaces` (none, for
/// an empty list: an unprefixed attribute), and the offset of that value in `text`, of which
/// `start` is a slice. Malformed attributes end the search (the element's others are not
/// looked at).
pub(super) fn attribute<'t>(
    resolver: &NamespaceResolver,
    text: &'t str,
    start: &BytesStart<'t>,
    namespaces: &[&str],
    local: &str,
) -> Option<(&'t str, usize)> {
    for attribute in start.attributes().with_checks(false) {
        let attribute = attribute.ok()?;
        let (resolved, name) = resolver.resolve_attribute(attribute.key);
        let matches = name.as_ref() == local
            && if namespaces.is_empty() {
                matches!(resolved, ResolveResult::Unbound)
            } else {
                is_in(&resolved, namespaces)
            };
        if matches {
            // Reading from a `&str`, `quick-xml` borrows every value from it.
            let Cow::Borrowed(value) = attribute.value else {
                return None;
            };
            let offset = offset_in(text, value)?;
            return Some((text.get(offset..offset + value.len())?, offset));
        }
    }
    None
}

/// Where `part`, a slice of `whole`, starts in it.
fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start.checked_add(part.len())? <= whole.len()).then_some(start)
}

/// The value of an attribute written as `raw` at offset `at` of the text, decoded: character
/// and predefined entity references replaced (XML 1.0 §4.1, §4.6), tab, line feed and
/// carriage return normalized to spaces (§3.3.3, a CR LF pair to one space after §2.11's end
/// of line handling). A reference to any other entity is left as written: a package holds no
/// DTD that could declare one (OPC forbids DTDs, ECMA-376 Part 2 rule M1.18), and an application
/// that rejects the part reaches none of its links anyway.
pub(super) fn attribute_value(raw: &str, at: usize) -> MappedText {
    let mut out = MappedText::default();
    let mut run = 0;
    let mut index = 0;
    let bytes = raw.as_bytes();
    while let Some(&byte) = bytes.get(index) {
        let (decoded, length): (Option<char>, usize) = match byte {
            b'&' => match raw.get(index..).and_then(|rest| rest.find(';')) {
                Some(end) => (raw.get(index + 1..index + end).and_then(reference), end + 1),
                None => (None, 1),
            },
            b'\r' if bytes.get(index + 1) == Some(&b'\n') => (Some(' '), 2),
            b'\t' | b'\n' | b'\r' => (Some(' '), 1),
            _ => (None, 1),
        };
        match decoded {
            Some(c) => {
                out.push_literal(raw.get(run..index).unwrap_or_default(), at + run);
                out.push_decoded(c.encode_utf8(&mut [0; 4]), at + index..at + index + length);
                index += length;
                run = index;
            }
            None => index += length,
        }
    }
    out.push_literal(raw.get(run..).unwrap_or_default(), at + run);
    out
}

/// The character a reference names (`name` between `&` and `;`): one of the five predefined
/// entities or a character reference; `None` for any other.
pub(super) fn reference(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// Appends to `out` the character data of a text event (`Text`, `CData` or `GeneralRef`)
/// at `range` of `text`; other events append nothing.
pub(super) fn push_text(out: &mut MappedText, text: &str, event: &Event<'_>, range: Range<usize>) {
    match event {
        Event::Text(_) => {
            out.push_literal(text.get(range.clone()).unwrap_or_default(), range.start)
        }
        Event::CData(_) => {
            // `<![CDATA[` … `]]>`: the content lies between the markup.
            let inner = range.start.saturating_add(9)..range.end.saturating_sub(3);
            out.push_literal(text.get(inner.clone()).unwrap_or_default(), inner.start);
        }
        Event::GeneralRef(reference_event) => {
            let raw = text.get(range.clone()).unwrap_or_default();
            let decoded = reference(reference_event.as_ref());
            match decoded {
                Some(c) => out.push_decoded(c.encode_utf8(&mut [0; 4]), range),
                None => out.push_literal(raw, range.start),
            }
        }
        _ => {}
    }
}
