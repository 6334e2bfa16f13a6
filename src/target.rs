//! URLs that name an entity of the same message: `cid:` and `mid:` URLs (RFC 2392) and URLs
//! equal to another entity's `Content-Location` (RFC 2557 §8). A [`UrlRecord`] that names one
//! carries a [`Target`] in [`UrlRecord::target`].
//!
//! # `cid:` (RFC 2392 §2, RFC 2557 §8.3)
//!
//! `cid:` is removed, the rest is percent-decoded (the RFC 2392 erratum: `%hh` escapes are
//! converted to their octets before comparison) and compared with the `Content-ID` of every
//! entity of the message, without its angle brackets (a `Content-ID` written without them is
//! taken as it is). The scheme name is ASCII case-insensitive (RFC 3986 §3.1); a fragment
//! (`#` and what follows, RFC 3986 §3.5) is not part of the identifier.
//!
//! **Case.** A Content-ID is an `addr-spec` (RFC 2392 §2, RFC 5322 §3.6.4). Its domain is
//! compared ASCII case-insensitively, because domain names are (RFC 5322 §3.4.1, RFC 1035
//! §2.3.3); its local part (before the last `@`) is compared octet by octet, because a local
//! part may be case-sensitive (RFC 5321 §2.4) and two Content-IDs that differ only in the case
//! of their local part are two identifiers that a sender may use for two different parts.
//! A Content-ID without `@` is compared octet by octet.
//!
//! When several entities carry the Content-ID (RFC 2045 §7 wants them world-unique, but a
//! forwarded message repeats the images of the one it quotes), the first one in document order
//! inside the same message entity as the URL wins, else the first one in the whole message.
//!
//! A `cid:` URL that names no Content-ID is then looked up as a `Content-Location` (below),
//! as any URL is: RFC 2557 §8.2 lets a URL name a part by its `Content-Location` whatever the
//! scheme, and Blink saves pages as MHTML with `Content-Location: cid:…@mhtml.blink` on parts
//! that have no `Content-ID`, linked by `href="cid:…@mhtml.blink"` (Chromium's MHTML loader
//! finds them by that URL). A `cid:` URL that names neither gets a
//! [`DiagnosticKind::UnmatchedCid`] diagnostic: a mail client shows a broken inline image.
//!
//! # `mid:` (RFC 2392 §2)
//!
//! `mid:m` names the message entity (the root, or a message encapsulated in a
//! `message/rfc822` part) whose `Message-ID` is `m`; `mid:m/c` names the entity with
//! Content-ID `c` inside that message. `m` and `c` are split at the first `/` (RFC 2392 wants
//! a `/` inside either to be written `%2F`), then each is percent-decoded and compared as a
//! `cid:` is. A `mid:` URL naming no entity has no target and no diagnostic: unlike `cid:`, it
//! usually names another message.
//!
//! # `Content-Location` (RFC 2557 §8.2 (d))
//!
//! A resolved URL names entity `C` when it equals the resolved `Content-Location` of `C` (the
//! first such field of `C`, resolved as its record in [`Report::urls`](crate::Report::urls)
//! says), and `C` is a body part of the same `multipart/related` aggregate as the URL's entity
//! or of one that encloses it (nested aggregates included; RFC 2557 §9.6: parts of an
//! aggregate nested in another part are not reachable from outside it). The search goes from
//! the innermost aggregate outwards and stops at the message entity that holds the URL (RFC
//! 2557 §8.2 (e): references into other messages are not covered). A `Content-Location` whose
//! value is a `cid:` URL counts too, whatever RFC 2557 §8.3 suggests of such values, because
//! Blink writes them (see `cid:` above). With the `mhtml` profile every base
//! falls back to `thismessage:/` (RFC 2557 §5 (e)), so relative locations in a message without
//! any absolute one match too.
//!
//! **Comparison.** RFC 2557 §8.2 (d) compares the two resolved URLs octet by octet. Browsers
//! that open MHTML (Chromium's MHTML loader) look parts up by their parsed, canonical URL
//! instead, so `HTTP://Example.COM/a%7eb` finds the part saved as `http://example.com/a~b`.
//! We compare as browsers do, because a filter wants the part a reader's client shows and an
//! extracted page must open as its original did: both URLs are parsed by the URL Standard
//! (scheme and host lowercased, default port removed, dot segments removed, characters the
//! URL Standard percent-encodes encoded) and then normalized as RFC 3986 §6.2.2.1–§6.2.2.2
//! allows (hex digits of `%hh` uppercased, `%hh` of unreserved characters decoded). The
//! fragment is removed from both: it selects a place inside the resource, not another one
//! (RFC 3986 §3.5). A URL the URL Standard rejects is compared as written, without its
//! fragment.
//!
//! # Which URLs are matched
//!
//! Every URL record except the base fields (`Base`, `Content-Base`, `Content-Location`): those
//! say where an entity is, they do not refer to one.
//!
//! Why hand-written: no library implements RFC 2392 or RFC 2557 §8 matching; the URL parsing
//! it relies on is the `url` crate's and the percent-decoding the `percent-encoding` crate's.

use std::collections::HashMap;

use crate::mime::{Entity, Walk};
use crate::report::{Diagnostic, DiagnosticKind, EntityKind, PartId, UrlRecord, UrlSource};
use crate::vocab::FieldName;

pub use crate::report::{Target, TargetMatch};

/// Sets [`UrlRecord::target`] on URL records one at a time, as they are made, and reports
/// each `cid:` URL naming no entity.
pub(crate) struct Linker<'a> {
    walk: &'a Walk,
    /// Built when first needed: most messages have neither an aggregate nor an id URL.
    tree: Option<Tree>,
    locations: Locations,
}

impl<'a> Linker<'a> {
    /// A linker for the entities of `walk`; `location(i)` is the resolved `Content-Location`
    /// of entity `i` (its first such field that resolves), asked only when the message has a
    /// `multipart/related` aggregate.
    pub(crate) fn new(walk: &'a Walk, location: impl Fn(usize) -> Option<String>) -> Self {
        if !walk.entities.iter().any(is_related) {
            return Linker {
                walk,
                tree: None,
                locations: Locations::default(),
            };
        }
        let tree = Tree::new(walk);
        let locations = Locations::new(walk, &tree, location);
        Linker {
            walk,
            tree: Some(tree),
            locations,
        }
    }

    /// Sets `url.target` when the URL, found in entity `at` (its index in `walk.entities`),
    /// names an entity of the message; a `cid:` URL naming none gets a diagnostic.
    pub(crate) fn link(
        &mut self,
        url: &mut UrlRecord,
        at: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        if is_base_field(url) {
            return;
        }
        url.target = self.find(
            &url.reference,
            url.resolution.resolved(),
            at,
            &url.part,
            diagnostics,
        );
    }

    /// The entity that `reference` (resolved as `resolved`), found in entity `at` (its index
    /// in `walk.entities`, identified as `part`), names, and how it was matched; a `cid:` URL
    /// naming none gets a diagnostic.
    pub(crate) fn find(
        &mut self,
        reference: &str,
        resolved: Option<&str>,
        at: usize,
        part: &PartId,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Target> {
        // `cid:` and `mid:` have a colon at index 3: most references are passed over here.
        let id = if reference.as_bytes().get(3) == Some(&b':') {
            id_url(reference)
        } else {
            None
        };
        if id.is_none() && self.locations.aggregates.is_empty() {
            return None;
        }
        let walk = self.walk;
        let tree = self.tree.get_or_insert_with(|| Tree::new(walk));
        let target = match id {
            Some(IdUrl::Cid(id)) => {
                // The Content-ID first (RFC 2392), then a Content-Location equal to the URL:
                // Blink names the parts it saves `Content-Location: cid:…@mhtml.blink`, gives
                // them no Content-ID, and links them by that URL.
                let found = tree
                    .by_content_id(&id, tree.message_of(at), None)
                    .map(|i| (i, TargetMatch::Cid))
                    .or_else(|| {
                        resolved
                            .and_then(|resolved| self.locations.find(tree, at, resolved))
                            .map(|i| (i, TargetMatch::ContentLocation))
                    });
                if found.is_none() {
                    diagnostics.push(Diagnostic {
                        part: Some(part.clone()),
                        kind: DiagnosticKind::UnmatchedCid,
                        message: format!(
                            "\"{reference}\" names no Content-ID of this message (a broken inline image)"
                        ),
                    });
                }
                found
            }
            Some(IdUrl::Mid(message_id, content_id)) => tree
                .by_message_id(&message_id)
                .and_then(|message| match content_id {
                    None => Some(message),
                    Some(id) => tree.by_content_id(&id, message, Some(message)),
                })
                .map(|i| (i, TargetMatch::Mid)),
            None => resolved
                .and_then(|resolved| self.locations.find(tree, at, resolved))
                .map(|i| (i, TargetMatch::ContentLocation)),
        };
        target.and_then(|(i, by)| {
            walk.entities.get(i).map(|entity| Target {
                part: entity.part.clone(),
                by,
            })
        })
    }
}

/// True for the base fields, which locate their entity rather than refer to another.
fn is_base_field(url: &UrlRecord) -> bool {
    matches!(url.source, UrlSource::Header { name, .. } if name.is_base_field())
}

fn is_related(entity: &Entity) -> bool {
    entity.content_type.media_type == "multipart" && entity.content_type.subtype == "related"
}

/// A `cid:` or `mid:` URL, percent-decoded.
enum IdUrl {
    Cid(Vec<u8>),
    Mid(Vec<u8>, Option<Vec<u8>>),
}

/// The reference as a `cid:` or `mid:` URL; `None` for any other.
fn id_url(reference: &str) -> Option<IdUrl> {
    let (scheme, rest) = reference.split_once(':')?;
    // A fragment is not part of the identifier (RFC 3986 §3.5).
    let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
    if scheme.eq_ignore_ascii_case("cid") {
        Some(IdUrl::Cid(decode(rest)))
    } else if scheme.eq_ignore_ascii_case("mid") {
        Some(match rest.split_once('/') {
            Some((message, content)) => IdUrl::Mid(decode(message), Some(decode(content))),
            None => IdUrl::Mid(decode(rest), None),
        })
    } else {
        None
    }
}

fn decode(text: &str) -> Vec<u8> {
    percent_encoding::percent_decode_str(text).collect()
}

/// The `addr-spec` of a `Content-ID` or `Message-ID` field value: what is between the first
/// `<` and the next `>`, or the whole trimmed value when it has no angle brackets.
fn addr_spec(value: &str) -> &str {
    let value = value.trim();
    match value.split_once('<') {
        Some((_, rest)) => rest.split_once('>').map_or(rest, |(inside, _)| inside),
        None => value,
    }
}

/// The comparison key of an `addr-spec` as the module docs say: the local part (before the
/// last `@`) as it is, the domain ASCII-lowercased; without `@`, the octets as they are. Two
/// identifiers are the same when their keys are equal.
fn id_key(id: &[u8]) -> Vec<u8> {
    let mut key = id.to_vec();
    if let Some(domain) = key
        .iter()
        .rposition(|&b| b == b'@')
        .and_then(|at| key.get_mut(at..))
    {
        domain.make_ascii_lowercase();
    }
    key
}

/// The entity tree seen from each entity: its message and its ancestors, and the entities by
/// Content-ID and Message-ID.
struct Tree {
    parents: Vec<Option<usize>>,
    /// The message entity (itself for a message) that holds each entity.
    messages: Vec<usize>,
    /// [`id_key`] of each `Content-ID` → the entities carrying it, in document order.
    content_ids: HashMap<Vec<u8>, Vec<usize>>,
    /// [`id_key`] of each message entity's `Message-ID` → the first such entity.
    message_ids: HashMap<Vec<u8>, usize>,
}

impl Tree {
    fn new(walk: &Walk) -> Self {
        let parents: Vec<Option<usize>> = walk.entities.iter().map(|e| e.parent).collect();
        let mut messages: Vec<usize> = Vec::with_capacity(parents.len());
        let mut content_ids: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
        let mut message_ids: HashMap<Vec<u8>, usize> = HashMap::new();
        for (i, entity) in walk.entities.iter().enumerate() {
            // Parents come before children, so the parent's message is known.
            let message = match (entity.kind, entity.parent) {
                (EntityKind::Message, _) | (_, None) => i,
                (_, Some(parent)) => messages.get(parent).copied().unwrap_or(i),
            };
            messages.push(message);
            for field in &entity.fields {
                if field.is(FieldName::ContentId) {
                    let ids = content_ids
                        .entry(id_key(addr_spec(&field.value).as_bytes()))
                        .or_default();
                    if ids.last() != Some(&i) {
                        ids.push(i);
                    }
                } else if field.is(FieldName::MessageId) && entity.kind == EntityKind::Message {
                    message_ids
                        .entry(id_key(addr_spec(&field.value).as_bytes()))
                        .or_insert(i);
                }
            }
        }
        Tree {
            parents,
            messages,
            content_ids,
            message_ids,
        }
    }

    fn message_of(&self, entity: usize) -> usize {
        self.messages.get(entity).copied().unwrap_or(entity)
    }

    fn parent(&self, entity: usize) -> Option<usize> {
        self.parents.get(entity).copied().flatten()
    }

    /// True when `ancestor` is `entity` or encloses it.
    fn is_within(&self, entity: usize, ancestor: usize) -> bool {
        let mut at = Some(entity);
        while let Some(i) = at {
            if i == ancestor {
                return true;
            }
            // Parents always come first, so this walk ends.
            at = self.parent(i).filter(|&p| p < i);
        }
        false
    }

    /// The first entity with Content-ID `id`: inside `within` when given (and only there),
    /// else preferably inside `message`, else anywhere.
    fn by_content_id(&self, id: &[u8], message: usize, within: Option<usize>) -> Option<usize> {
        let candidates = self.content_ids.get(&id_key(id))?;
        match within {
            Some(root) => candidates
                .iter()
                .copied()
                .find(|&i| i != root && self.is_within(i, root)),
            None => candidates
                .iter()
                .copied()
                .find(|&i| self.message_of(i) == message)
                .or_else(|| candidates.first().copied()),
        }
    }

    /// The first message entity whose `Message-ID` is `id`.
    fn by_message_id(&self, id: &[u8]) -> Option<usize> {
        self.message_ids.get(&id_key(id)).copied()
    }
}

/// The resolved `Content-Location`s of the body parts of each `multipart/related` aggregate.
#[derive(Default)]
struct Locations {
    /// Entity index of each aggregate → normalized location → first entity with it.
    aggregates: HashMap<usize, HashMap<String, usize>>,
    /// Whether each entity is a `multipart/related` aggregate.
    related: Vec<bool>,
}

impl Locations {
    fn new(walk: &Walk, tree: &Tree, location: impl Fn(usize) -> Option<String>) -> Self {
        let related: Vec<bool> = walk.entities.iter().map(is_related).collect();
        let mut locations = Locations {
            aggregates: HashMap::new(),
            related,
        };
        for entity in 0..walk.entities.len() {
            let Some(aggregate) = locations.aggregate_of(tree, walk, entity) else {
                continue;
            };
            let Some(resolved) = location(entity) else {
                continue;
            };
            // Of two entities with the same location (RFC 2557 §7 forbids it), the first.
            let parts = locations.aggregates.entry(aggregate).or_default();
            parts.entry(normalize(&resolved)).or_insert(entity);
        }
        locations
    }

    /// The innermost `multipart/related` that has `entity` as a body part, looking through
    /// other multiparts (a `multipart/alternative` inside the aggregate) but not out of the
    /// message that holds `entity`.
    fn aggregate_of(&self, tree: &Tree, walk: &Walk, entity: usize) -> Option<usize> {
        let message = tree.message_of(entity);
        if message == entity {
            return None;
        }
        let mut at = tree.parent(entity).filter(|&p| p < entity);
        while let Some(i) = at {
            if self.related.get(i).copied().unwrap_or(false) {
                return Some(i);
            }
            if i == message
                || walk
                    .entities
                    .get(i)
                    .is_some_and(|e| e.kind == EntityKind::Message)
            {
                return None;
            }
            at = tree.parent(i).filter(|&p| p < i);
        }
        None
    }

    /// The body part of an aggregate enclosing `entity` whose location equals `resolved`,
    /// searching from the innermost aggregate outwards.
    fn find(&self, tree: &Tree, entity: usize, resolved: &str) -> Option<usize> {
        if self.aggregates.is_empty() {
            return None;
        }
        let key = normalize(resolved);
        let message = tree.message_of(entity);
        if message == entity {
            // A message entity (its own header or non-multipart body) is in no aggregate of
            // the message that carries it.
            return None;
        }
        let mut at = tree.parent(entity).filter(|&p| p < entity);
        while let Some(i) = at {
            if let Some(found) = self.aggregates.get(&i).and_then(|parts| parts.get(&key)) {
                return Some(*found);
            }
            if i == message {
                return None;
            }
            at = tree.parent(i).filter(|&p| p < i);
        }
        None
    }
}

/// The comparison form of a resolved URL (see the module docs): URL Standard serialization,
/// fragment removed, `%hh` of unreserved characters decoded and other hex digits uppercased.
pub(crate) fn normalize(resolved: &str) -> String {
    let without_fragment = |s: &str| s.split_once('#').map_or(s, |(before, _)| before).to_owned();
    let serialized = match url::Url::parse(resolved) {
        Ok(mut parsed) => {
            parsed.set_fragment(None);
            parsed.to_string()
        }
        Err(_) => without_fragment(resolved),
    };
    normalize_escapes(serialized)
}

/// RFC 3986 §6.2.2.1–§6.2.2.2 on `%hh` escapes: `text` itself when it has none, as most
/// URLs have none; otherwise the runs between escapes are copied whole.
fn normalize_escapes(text: String) -> String {
    let bytes = text.as_bytes();
    let Some(first) = memchr::memchr(b'%', bytes) else {
        return text;
    };
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut at = first;
    loop {
        let hex = |i: usize| bytes.get(i).and_then(|&h| (h as char).to_digit(16));
        if let (Some(high), Some(low)) = (hex(at + 1), hex(at + 2)) {
            // `%` and two ASCII hex digits: every boundary here is a character boundary.
            out.push_str(text.get(copied..at).unwrap_or_default());
            let value = (high * 16 + low) as u8;
            if value.is_ascii_alphanumeric() || matches!(value, b'-' | b'.' | b'_' | b'~') {
                out.push(value as char);
            } else {
                let digit = |n: u8| {
                    char::from_digit(u32::from(n), 16).map_or('0', |c| c.to_ascii_uppercase())
                };
                out.push('%');
                out.push(digit(value >> 4));
                out.push(digit(value & 15));
            }
            copied = at + 3;
        }
        let from = at + 1;
        match bytes
            .get(from..)
            .and_then(|rest| memchr::memchr(b'%', rest))
        {
            Some(next) => at = from + next,
            None => break,
        }
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_lowercases_scheme_and_host_and_drops_the_fragment() {
        assert_eq!(
            normalize("HTTP://Example.COM:80/a/./b#x"),
            "http://example.com/a/b"
        );
    }

    #[test]
    fn normalize_unifies_percent_encoding() {
        assert_eq!(normalize("http://e/a%7eb%2f"), "http://e/a~b%2F");
        assert_eq!(normalize("http://e/a b"), "http://e/a%20b");
        assert_eq!(normalize("thismessage:/x%41"), "thismessage:/xA");
        // Escapes next to each other, at the ends, broken ones, and text outside ASCII.
        assert_eq!(normalize("http://e/%41%2f%7E"), "http://e/A%2F~");
        assert_eq!(normalize("thismessage:/%4"), "thismessage:/%4");
        assert_eq!(normalize("thismessage:/%%41%zz"), "thismessage:/%A%zz");
        assert_eq!(normalize("http://e/é%c3%a9"), "http://e/%C3%A9%C3%A9");
        assert_eq!(normalize("http://e/plain"), "http://e/plain");
    }

    #[test]
    fn addr_spec_domain_is_case_insensitive_local_part_is_not() {
        assert_eq!(id_key(b"img1@Example.COM"), id_key(b"img1@example.com"));
        assert_ne!(id_key(b"IMG1@example.com"), id_key(b"img1@example.com"));
        assert_eq!(id_key(b"a@b@C"), b"a@b@c");
        assert_ne!(id_key(b"No-at"), id_key(b"no-at"));
    }

    #[test]
    fn addr_spec_strips_brackets_and_comments() {
        assert_eq!(addr_spec(" <a@b> (comment)"), "a@b");
        assert_eq!(addr_spec("a@b"), "a@b");
        assert_eq!(addr_spec("<a@b"), "a@b");
    }
}
