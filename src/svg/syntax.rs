//! The pieces of XML 1.0 (Fifth Edition) syntax that `quick-xml` leaves to its user and that
//! decide where a browser's XML parser gives up: the [`Name`](https://www.w3.org/TR/xml/#NT-Name)
//! and [`Char`](https://www.w3.org/TR/xml/#NT-Char) productions, character references
//! (§4.1), and attribute-value normalization (§3.3.3) with the document's internal entities.
//!
//! `quick-xml` reports references (`&…;`) as they are written and leaves entity declarations
//! to its user: it has no DTD support, so a value holding `&name;` cannot be decoded by it.

use std::rc::Rc;

use super::dtd::{Dtd, Entity};
use super::{Budget, StopReason};

/// How deep entity references may nest inside one another (an entity whose replacement text
/// refers to another, …). libxml2 allows 40 levels; ours is lower because every level is one
/// more pass over a replacement text, and real documents use one or two.
pub(super) const MAX_ENTITY_DEPTH: usize = 16;

/// XML 1.0 §2.3 [`NameStartChar`](https://www.w3.org/TR/xml/#NT-NameStartChar).
fn is_name_start_char(c: char) -> bool {
    matches!(c,
        ':' | 'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

/// XML 1.0 §2.3 [`NameChar`](https://www.w3.org/TR/xml/#NT-NameChar).
fn is_name_char(c: char) -> bool {
    is_name_start_char(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

/// True when `name` matches XML 1.0 §2.3 [`Name`](https://www.w3.org/TR/xml/#NT-Name).
pub(super) fn is_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    // Most names are ASCII letters, digits and `-`, `_`, `:`, `.`: decided without decoding.
    if bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b':'))
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
    {
        return true;
    }
    let mut chars = name.chars();
    chars.next().is_some_and(is_name_start_char) && chars.all(is_name_char)
}

/// True when `name`, a [`Name`](is_name), is also a Namespaces in XML 1.0 §4
/// [`QName`](https://www.w3.org/TR/xml-names/#NT-QName): at most one colon, with a name on
/// either side.
pub(super) fn is_qname(name: &str) -> bool {
    let bytes = name.as_bytes();
    match bytes.iter().position(|&b| b == b':') {
        None => true,
        Some(colon) => {
            colon > 0
                && colon + 1 < bytes.len()
                && !bytes.get(colon + 1..).unwrap_or_default().contains(&b':')
        }
    }
}

/// True for a character of XML 1.0 §2.2 [`Char`](https://www.w3.org/TR/xml/#NT-Char).
pub(super) fn is_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// True for XML 1.0 §2.3 white space ([`S`](https://www.w3.org/TR/xml/#NT-S)).
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The byte offset of the first character of `text` that is not a [`Char`](is_char): a C0
/// control other than tab, LF and CR, U+FFFE or U+FFFF. An XML parser stops there with a
/// fatal error, wherever it stands (text, attribute value, comment, …).
pub(super) fn first_invalid_char(text: &str) -> Option<usize> {
    // The bytes that may start one: C0 controls other than tab, LF and CR, and 0xEF, the lead
    // byte of U+FFFE and U+FFFF (EF BF BE and EF BF BF in UTF-8).
    let suspect = |b: u8| (b < 0x20 && b != b'\t' && b != b'\n' && b != b'\r') || b == 0xEF;
    let bytes = text.as_bytes();
    // Whole blocks first, tested without an early exit so that the test runs on many bytes
    // at once; a block with a suspect byte is then looked at byte by byte.
    const BLOCK: usize = 32;
    let mut start = 0;
    for block in bytes.chunks(BLOCK) {
        if block.iter().fold(false, |any, &b| any | suspect(b)) {
            for (i, &b) in block.iter().enumerate() {
                let at = start + i;
                let invalid = match b {
                    0xEF => {
                        bytes.get(at + 1) == Some(&0xBF)
                            && matches!(bytes.get(at + 2), Some(0xBE | 0xBF))
                    }
                    _ => suspect(b),
                };
                if invalid {
                    return Some(at);
                }
            }
        }
        start += block.len();
    }
    None
}

/// What a reference (`&…;`) names, once its text between `&` and `;` is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reference<'a> {
    /// A character reference, or one of the five predefined entities (XML 1.0 §4.6), which
    /// stand for one character whatever the DTD says.
    Char(char),
    /// A reference to a general entity by name.
    Entity(&'a str),
}

/// Reads the text between `&` and `;` of a reference (XML 1.0 §4.1
/// [`Reference`](https://www.w3.org/TR/xml/#NT-Reference)). `None` when it is neither a
/// character reference to a [`Char`](is_char) nor an entity reference with a [`Name`](is_name):
/// a fatal error.
pub(super) fn reference(inner: &str) -> Option<Reference<'_>> {
    if let Some(number) = inner.strip_prefix('#') {
        let code = match number.strip_prefix('x') {
            Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u32::from_str_radix(hex, 16).ok()?
            }
            None if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) => {
                number.parse::<u32>().ok()?
            }
            _ => return None,
        };
        return char::from_u32(code)
            .filter(|&c| is_char(c))
            .map(Reference::Char);
    }
    let predefined = match inner {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => return is_name(inner).then_some(Reference::Entity(inner)),
    };
    Some(Reference::Char(predefined))
}

/// Appends to `out` the value of an attribute whose literal (between its quotes, as written)
/// is `raw`, after XML 1.0 §3.3.3
/// [attribute-value normalization](https://www.w3.org/TR/xml/#AVNormalize): line ends (CR LF,
/// CR) first become LF (§2.11); each white space character of the literal or of an entity's
/// replacement text becomes a space; a character reference adds its character as it is; an
/// entity reference adds its replacement text, normalized in turn. The DTD's type-dependent
/// step (collapsing spaces for non-CDATA attributes) is not applied: for a URL it would only
/// change runs of spaces inside it.
///
/// # Errors
///
/// Why an XML parser stops at this attribute: a `<` (written or from an entity), a malformed
/// reference, a reference to an undeclared entity (unless the DTD makes that a mere warning,
/// [`Dtd::lenient`]: the reference then adds nothing, as libxml2 does), to an external or
/// unparsed entity, an entity that refers to itself, nesting deeper than [`MAX_ENTITY_DEPTH`],
/// or replacement text past the budget.
pub(super) fn normalize_attribute(
    raw: &str,
    dtd: &Dtd,
    budget: &mut Budget,
    out: &mut String,
) -> Result<(), StopReason> {
    // The literal, then the replacement texts being read: each with where reading stands.
    let mut open: Vec<(Rc<str>, usize)> = Vec::new();
    let mut literal = raw;
    loop {
        let (text, at): (&str, usize) = match open.last() {
            Some((text, at)) => (text, *at),
            None => (literal, 0),
        };
        let rest = text.get(at..).unwrap_or_default();
        let Some(stop) = rest.find(['&', '<', '\t', '\n', '\r']) else {
            out.push_str(rest);
            if open.pop().is_none() {
                return Ok(());
            }
            continue;
        };
        out.push_str(rest.get(..stop).unwrap_or_default());
        let after = rest.get(stop..).unwrap_or_default();
        let mut advance = 1;
        match after.as_bytes().first() {
            Some(b'<') => return Err(StopReason::LessThanInAttribute),
            Some(b'\r') => {
                // CR LF is one line end: one space.
                if after.as_bytes().get(1) == Some(&b'\n') {
                    advance = 2;
                }
                out.push(' ');
            }
            Some(b'&') => {
                let Some(end) = after.find(';') else {
                    return Err(StopReason::BadReference);
                };
                advance = end + 1;
                match reference(after.get(1..end).unwrap_or_default()) {
                    None => return Err(StopReason::BadReference),
                    Some(Reference::Char(c)) => out.push(c),
                    Some(Reference::Entity(name)) => match dtd.entity(name) {
                        None if dtd.lenient => {}
                        None => return Err(StopReason::UndeclaredEntity),
                        Some(Entity::External | Entity::Unparsed) => {
                            return Err(StopReason::ExternalEntityInAttribute);
                        }
                        Some(Entity::Internal(replacement)) => {
                            if open.len() >= MAX_ENTITY_DEPTH {
                                return Err(StopReason::EntityDepth);
                            }
                            budget.spend(replacement.len())?;
                            // Advance past the reference before reading the replacement text.
                            advance_top(&mut open, &mut literal, stop + advance);
                            if open.iter().any(|(open, _)| Rc::ptr_eq(open, replacement)) {
                                return Err(StopReason::EntityLoop);
                            }
                            open.push((Rc::clone(replacement), 0));
                            continue;
                        }
                    },
                }
            }
            // Tab or LF.
            _ => out.push(' '),
        }
        advance_top(&mut open, &mut literal, stop + advance);
    }
}

/// Moves the reading position of the text being read (the top of `open`, else the literal)
/// forward by `by` bytes.
fn advance_top(open: &mut [(Rc<str>, usize)], literal: &mut &str, by: usize) {
    match open.last_mut() {
        Some((_, at)) => *at += by,
        None => *literal = literal.get(by..).unwrap_or_default(),
    }
}

/// `value` with its references to the predefined entities and its character references
/// decoded and its white space normalized (XML 1.0 §3.3.3), for a value read without a DTD:
/// the pseudo-attributes of an `<?xml-stylesheet?>` processing instruction, which browsers
/// read with a parser of their own. `None` when the value is not well-formed there.
pub(super) fn normalize_without_dtd(value: &str) -> Option<String> {
    let mut out = String::with_capacity(value.len());
    let mut budget = Budget::new(0);
    normalize_attribute(value, &Dtd::default(), &mut budget, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_qnames() {
        for name in ["a", "feImage", "xlink:href", "_x", "é", "a-b.c1", ":"] {
            assert!(is_name(name), "{name}");
        }
        for name in ["", "1a", "-a", ".a", "a b", "a>"] {
            assert!(!is_name(name), "{name}");
        }
        assert!(is_qname("xlink:href") && is_qname("href"));
        assert!(!is_qname("a:b:c") && !is_qname(":a") && !is_qname("a:"));
    }

    #[test]
    fn invalid_characters() {
        assert_eq!(first_invalid_char("a\tb\r\nc"), None);
        assert_eq!(first_invalid_char("ab\u{1}"), Some(2));
        assert_eq!(first_invalid_char("é\u{FFFE}"), Some(2));
        assert_eq!(first_invalid_char("\u{FFFD}\u{FFFF}"), Some(3));
        assert_eq!(first_invalid_char("\u{EFBF}"), None);
    }

    #[test]
    fn references() {
        assert_eq!(reference("#x41"), Some(Reference::Char('A')));
        assert_eq!(reference("#65"), Some(Reference::Char('A')));
        assert_eq!(reference("amp"), Some(Reference::Char('&')));
        assert_eq!(reference("nbsp"), Some(Reference::Entity("nbsp")));
        // Not a Char: form feed, NUL, a surrogate, beyond Unicode.
        for bad in [
            "#xC", "#0", "#xD800", "#x110000", "#x", "#", "#X41", "1a", "",
        ] {
            assert_eq!(reference(bad), None, "{bad}");
        }
    }

    fn normalized(raw: &str, dtd: &Dtd) -> Result<String, StopReason> {
        let mut out = String::new();
        normalize_attribute(raw, dtd, &mut Budget::new(1 << 20), &mut out).map(|()| out)
    }

    #[test]
    fn attribute_value_normalization() {
        let dtd = Dtd::default();
        assert_eq!(normalized("a\r\nb\rc\nd\te", &dtd).unwrap(), "a b c d e");
        assert_eq!(
            normalized("x&#10;y&#x9;&amp;&lt;", &dtd).unwrap(),
            "x\ny\t&<"
        );
        assert_eq!(
            normalized("a<b", &dtd),
            Err(StopReason::LessThanInAttribute)
        );
        assert_eq!(normalized("a&b", &dtd), Err(StopReason::BadReference));
        assert_eq!(
            normalized("&nbsp;", &dtd),
            Err(StopReason::UndeclaredEntity)
        );
    }
}
