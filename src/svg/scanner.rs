//! The scan's event loop: `quick-xml`'s reader over the document, and over the replacement
//! text of each entity whose text holds markup, with the namespaces, the open elements and
//! the `<style>` text they share.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;
use std::rc::Rc;

use quick_xml::events::{BytesPI, BytesStart, Event};
use quick_xml::reader::Reader;

use super::dtd::{Dtd, Entity};
use super::names::{Namespaces, Ns, declared_prefix, url_attribute};
use super::style::{StyleText, stylesheet_href};
use super::syntax::{
    MAX_ENTITY_DEPTH, Reference, first_invalid_char, is_name, is_qname, is_space,
    normalize_attribute, normalize_without_dtd, reference,
};
use super::{Budget, MAX_DEPTH, Stop, StopReason, SvgScan, SvgValue, ValueText};
use crate::html::{BaseHref, HTTP_EQUIV, HtmlScan, HtmlUrl, UrlKind, for_each_url};
use crate::report::ByteRange;
use crate::vocab::element;

/// Scans `text`; see [`super::scan`].
pub(super) fn scan(text: &str, max_urls: usize) -> SvgScan {
    // A browser decodes the bytes before its XML parser sees them, byte order mark removed.
    let start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let invalid = first_invalid_char(text);
    let end = invalid.unwrap_or(text.len());
    let source = text.get(start..end).unwrap_or_default();
    let mut scanner = Scanner {
        text,
        dtd: Dtd::default(),
        namespaces: Namespaces::default(),
        open: Vec::new(),
        styles: Vec::new(),
        budget: Budget::new((text.len().saturating_mul(4)).max(1 << 20)),
        root: Root::Before,
        has_doctype: false,
        templates: 0,
        entities: Vec::new(),
        attributes: Vec::new(),
        names: HashSet::new(),
        urls: Vec::new(),
        max_urls,
        not_recorded: 0,
        has_recorded_base: false,
        unrecorded_base: None,
        values: Vec::new(),
    };
    let mut stop = scanner.run(source, &Place::Document).err();
    if stop.is_none() {
        stop = invalid
            .map(|at| Stop {
                at,
                reason: StopReason::InvalidChar,
            })
            .or_else(|| {
                // The document ends inside the root element, or has none.
                (scanner.root != Root::After).then_some(Stop {
                    at: end,
                    reason: StopReason::NotWellFormed,
                })
            });
    }
    scanner.finish(stop)
}

/// Where the text a reader reads lies.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    /// It is the document (from its start, or past a byte order mark).
    Document,
    /// It is an entity's replacement text, brought in by the reference at this range of the
    /// document (the outermost one, when references nest).
    Entity(Range<usize>),
}

/// Where the reading stands relative to the root element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Root {
    /// In the prolog.
    Before,
    /// Inside the root element.
    In,
    /// Past its end.
    After,
}

/// An open element, as far as the scan needs it.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// A `<style>` (SVG or XHTML) whose text is collected, the top of `styles`.
    is_style: bool,
    /// An XHTML `<template>`.
    is_template: bool,
}

/// The scan's state.
struct Scanner<'t> {
    /// The document.
    text: &'t str,
    /// Its internal DTD subset.
    dtd: Dtd,
    /// The namespace bindings in scope.
    namespaces: Namespaces,
    /// The open elements.
    open: Vec<Open>,
    /// The text of the open `<style>` elements, innermost last.
    styles: Vec<StyleText>,
    /// How much entity replacement text may still be read.
    budget: Budget,
    /// Where the reading stands relative to the root element.
    root: Root,
    /// True once a document type declaration was read.
    has_doctype: bool,
    /// How many XHTML `<template>` elements are open.
    templates: usize,
    /// The replacement texts being read as content, outermost first.
    entities: Vec<Rc<str>>,
    /// The current start tag's attributes: name and raw value, as ranges of the text being
    /// read (kept to reuse the allocation).
    attributes: Vec<(Range<usize>, Range<usize>)>,
    /// The attribute names of a start tag with many attributes, to find a repeated one.
    names: HashSet<Box<str>>,
    /// The URLs found.
    urls: Vec<HtmlUrl>,
    /// How many URLs `urls` may hold.
    max_urls: usize,
    /// How many URLs were found once `urls` was full.
    not_recorded: usize,
    /// True once a `<base href>` candidate is in `urls`.
    has_recorded_base: bool,
    /// The reference of the first `<base href>` candidate found once `urls` was full.
    unrecorded_base: Option<String>,
    /// The values whose URLs are not at exact ranges.
    values: Vec<SvgValue>,
}

/// Up to how many attributes a start tag's names are compared pairwise; beyond, through a set,
/// so that no tag takes time quadratic in its length.
const PAIRWISE: usize = 16;

/// Where `]]>` is in `text`, which may not hold it outside a CDATA section (XML 1.0 §2.4).
/// Most text holds no `>` at all: that is looked for first.
fn cdata_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'>', bytes).find_map(|at| {
        let start = at.checked_sub(2)?;
        (bytes.get(start..at) == Some(b"]]")).then_some(start)
    })
}

/// Where `part`, a slice of `whole`, starts in it.
fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start.checked_add(part.len())? <= whole.len()).then_some(start)
}

/// A URL attribute of the current element, before it is recorded.
struct Kept<'v> {
    /// Its name, as reported.
    name: &'static str,
    /// How its value is read.
    kind: UrlKind,
    /// Its raw value (a literal, between its quotes).
    raw: Cow<'v, str>,
    /// Where the raw value lies in the document: exactly, or only as the reference (entity or
    /// parameter entity) that brought it in.
    place: Result<Range<usize>, Range<usize>>,
}

impl<'t> Scanner<'t> {
    /// Reads `source` (the document, or an entity's replacement text) to its end or to the
    /// first error.
    fn run(&mut self, source: &str, place: &Place) -> Result<(), Stop> {
        let mut reader = Reader::from_str(source);
        let config = reader.config_mut();
        config.check_comments = true;
        config.check_end_names = true;
        config.expand_empty_elements = false;
        let depth = self.open.len();
        loop {
            let before = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
            let event = match reader.read_event() {
                Ok(event) => event,
                Err(_) => {
                    let at = usize::try_from(reader.error_position()).unwrap_or(usize::MAX);
                    return Err(self.stop(source, place, at, StopReason::NotWellFormed));
                }
            };
            let after = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
            let fail = |this: &Self, reason| Err(this.stop(source, place, before, reason));
            match event {
                Event::Eof => break,
                Event::Decl(_) => {
                    if before != 0 || *place != Place::Document {
                        return fail(self, StopReason::NotWellFormed);
                    }
                }
                Event::PI(pi) => {
                    if pi.target().eq_ignore_ascii_case("xml") {
                        return fail(self, StopReason::NotWellFormed);
                    }
                    // Only a child of the document (before or after the root element) is read.
                    if pi.target() == "xml-stylesheet" && self.root != Root::In {
                        self.stylesheet(&pi);
                    }
                }
                Event::DocType(declaration) => {
                    if self.has_doctype || self.root != Root::Before || *place != Place::Document {
                        return fail(self, StopReason::NotWellFormed);
                    }
                    self.has_doctype = true;
                    let offset = offset_in(self.text, &declaration).unwrap_or(0);
                    self.dtd = Dtd::read(&declaration, offset);
                }
                Event::Start(start) => {
                    self.start_tag(&start, false, source, place, before, after)?
                }
                Event::Empty(start) => {
                    self.start_tag(&start, true, source, place, before, after)?
                }
                Event::End(_) => {
                    if self.open.len() <= depth {
                        // Closes an element opened outside this entity's text.
                        return fail(self, StopReason::NotWellFormed);
                    }
                    self.end_tag(source, place, before);
                }
                Event::Text(text) => {
                    if self.root != Root::In {
                        if !text.bytes().all(is_space) {
                            return fail(self, StopReason::NotWellFormed);
                        }
                        continue;
                    }
                    if let Some(at) = cdata_end(&text) {
                        return Err(self.stop(
                            source,
                            place,
                            before + at,
                            StopReason::NotWellFormed,
                        ));
                    }
                    self.style_text(&text, place);
                }
                Event::CData(cdata) => {
                    if self.root != Root::In {
                        return fail(self, StopReason::NotWellFormed);
                    }
                    self.style_text(&cdata, place);
                }
                Event::GeneralRef(name) => {
                    if self.root != Root::In {
                        return fail(self, StopReason::NotWellFormed);
                    }
                    let span = match place {
                        Place::Document => before..after,
                        Place::Entity(span) => span.clone(),
                    };
                    if let Err(reason) = self.content_reference(&name, span) {
                        return fail(self, reason);
                    }
                }
                Event::Comment(_) => {}
            }
        }
        if self.open.len() != depth && *place != Place::Document {
            // An entity's text that leaves an element open is not well-formed ("well-balanced").
            return Err(self.stop(source, place, source.len(), StopReason::NotWellFormed));
        }
        Ok(())
    }

    /// The stop at byte `at` of `source` read at `place`.
    fn stop(&self, source: &str, place: &Place, at: usize, reason: StopReason) -> Stop {
        let at = match place {
            Place::Document => offset_in(self.text, source).unwrap_or(0) + at,
            Place::Entity(span) => span.start,
        };
        Stop { at, reason }
    }

    /// The range of the document that `part`, a slice of `source` read at `place`, stands
    /// for: its own range in the document, or the entity reference.
    fn place_of(&self, part: &str, place: &Place) -> Result<Range<usize>, Range<usize>> {
        match place {
            Place::Document => match offset_in(self.text, part) {
                Some(start) => Ok(start..start + part.len()),
                None => Err(0..0),
            },
            Place::Entity(span) => Err(span.clone()),
        }
    }

    /// A reference in content (`&name;` at `span`): its character or replacement text goes
    /// to an open `<style>`, and a replacement text with markup is read as content.
    fn content_reference(&mut self, name: &str, span: Range<usize>) -> Result<(), StopReason> {
        let replacement = match reference(name) {
            None => return Err(StopReason::BadReference),
            Some(Reference::Char(c)) => {
                self.style_decoded(c.encode_utf8(&mut [0; 4]));
                return Ok(());
            }
            Some(Reference::Entity(name)) => match self.dtd.entity(name) {
                None if self.dtd.lenient => return Ok(()),
                None => return Err(StopReason::UndeclaredEntity),
                // Never loaded by a browser: the reference stands for nothing.
                Some(Entity::External) => return Ok(()),
                Some(Entity::Unparsed) => return Err(StopReason::NotWellFormed),
                Some(Entity::Internal(text)) => Rc::clone(text),
            },
        };
        self.budget.spend(replacement.len())?;
        if !replacement.contains(['<', '&']) {
            if replacement.contains("]]>") {
                return Err(StopReason::NotWellFormed);
            }
            self.style_decoded(&replacement);
            return Ok(());
        }
        if self.entities.len() >= MAX_ENTITY_DEPTH {
            return Err(StopReason::EntityDepth);
        }
        if self
            .entities
            .iter()
            .any(|open| Rc::ptr_eq(open, &replacement))
        {
            return Err(StopReason::EntityLoop);
        }
        self.entities.push(Rc::clone(&replacement));
        let read = self.run(&replacement, &Place::Entity(span));
        self.entities.pop();
        read.map_err(|stop| stop.reason)
    }

    /// Adds text or CDATA read from `source` to the innermost open `<style>`, when it is the
    /// current element.
    fn style_text(&mut self, text: &str, place: &Place) {
        if !self.open.last().is_some_and(|open| open.is_style) {
            return;
        }
        let at = match place {
            Place::Document => offset_in(self.text, text),
            Place::Entity(_) => None,
        };
        if let Some(style) = self.styles.last_mut() {
            style.push(text, at);
        }
    }

    /// Adds decoded text (a reference's) to the innermost open `<style>`, when it is the
    /// current element.
    fn style_decoded(&mut self, text: &str) {
        if !self.open.last().is_some_and(|open| open.is_style) {
            return;
        }
        if let Some(style) = self.styles.last_mut() {
            style.push(text, None);
        }
    }

    /// A start tag (`empty` for `<x/>`) at `before..after` of `source`: checks it as a
    /// browser's parser does, binds its namespaces and records its URLs.
    fn start_tag(
        &mut self,
        start: &BytesStart<'_>,
        empty: bool,
        source: &str,
        place: &Place,
        before: usize,
        after: usize,
    ) -> Result<(), Stop> {
        let fail = |this: &Self, reason| Err(this.stop(source, place, before, reason));
        if self.root == Root::After {
            return fail(self, StopReason::NotWellFormed);
        }
        let qname = start.name().0;
        if !is_name(qname) {
            return fail(self, StopReason::NotWellFormed);
        }
        if self.open.len() >= MAX_DEPTH {
            return fail(self, StopReason::TooDeep);
        }
        // The attributes, as ranges of `source`, each preceded by white space.
        let mut attributes = std::mem::take(&mut self.attributes);
        attributes.clear();
        let mut malformed = false;
        // Duplicates are found below, without the two allocations per tag of quick-xml's check.
        for attribute in start.attributes().with_checks(false) {
            let Ok(attribute) = attribute else {
                malformed = true;
                break;
            };
            let (Some(name), Some(value)) = (
                offset_in(source, attribute.key.0),
                match &attribute.value {
                    Cow::Borrowed(value) => offset_in(source, value),
                    Cow::Owned(_) => None,
                },
            ) else {
                malformed = true;
                break;
            };
            let spaced = name
                .checked_sub(1)
                .and_then(|i| source.as_bytes().get(i))
                .is_some_and(|&b| is_space(b));
            if !spaced || !is_name(attribute.key.0) {
                malformed = true;
                break;
            }
            attributes.push((
                name..name + attribute.key.0.len(),
                value..value + attribute.value.len(),
            ));
        }
        let checked = if malformed || self.has_duplicate(&attributes, source) {
            Err(StopReason::NotWellFormed)
        } else {
            self.check_and_bind(qname, &attributes, source)
        };
        if let Err(reason) = checked {
            self.attributes = attributes;
            return fail(self, reason);
        }
        // The element is made: its URLs count.
        let (element_ns, local) = self.namespaces.element(qname);
        self.element_urls(qname, element_ns, local, &attributes, source, place);
        self.attributes = attributes;
        let is_style = matches!(element_ns, Ns::Svg | Ns::Xhtml) && local == "style";
        let is_template = element_ns == Ns::Xhtml && local == "template";
        if self.root == Root::Before {
            self.root = Root::In;
        }
        if empty {
            self.namespaces.close();
            if self.open.is_empty() && *place == Place::Document {
                self.root = Root::After;
            }
            return Ok(());
        }
        if is_style {
            let content = match place {
                Place::Document => Ok(offset_in(self.text, source).unwrap_or(0) + after),
                Place::Entity(span) => Err(span.clone()),
            };
            self.styles.push(StyleText::new(content));
        }
        if is_template {
            self.templates += 1;
        }
        self.open.push(Open {
            is_style,
            is_template,
        });
        Ok(())
    }

    /// True when two of a start tag's attributes have the same name (XML 1.0 §3.1, WFC:
    /// Unique Att Spec). A tag has few attributes: they are compared pairwise, unless there
    /// are many, which go through a set.
    fn has_duplicate(&mut self, attributes: &[(Range<usize>, Range<usize>)], source: &str) -> bool {
        let name = |range: &Range<usize>| source.get(range.clone()).unwrap_or_default();
        self.names.clear();
        if attributes.len() <= PAIRWISE {
            return attributes.iter().enumerate().any(|(i, (a, _))| {
                attributes
                    .get(i + 1..)
                    .unwrap_or_default()
                    .iter()
                    .any(|(b, _)| name(a) == name(b))
            });
        }
        !attributes
            .iter()
            .all(|(range, _)| self.names.insert(name(range).into()))
    }

    /// True when the current start tag, whose attributes are `attributes` (checked by
    /// [`has_duplicate`](Self::has_duplicate), which keeps the names of a tag with many),
    /// gives the attribute `name`.
    fn specifies(
        &self,
        attributes: &[(Range<usize>, Range<usize>)],
        source: &str,
        name: &str,
    ) -> bool {
        if attributes.len() <= PAIRWISE {
            attributes
                .iter()
                .any(|(range, _)| source.get(range.clone()) == Some(name))
        } else {
            self.names.contains(name)
        }
    }

    /// Checks the attributes of a start tag named `qname` as a browser's parser does (every
    /// value decoded; namespace prefixes declared) and binds its namespace declarations.
    /// `Err` when the element is not made; its scope is then closed again.
    fn check_and_bind(
        &mut self,
        qname: &str,
        attributes: &[(Range<usize>, Range<usize>)],
        source: &str,
    ) -> Result<(), StopReason> {
        self.namespaces.open();
        let checked = self.bind_and_check(qname, attributes, source);
        if checked.is_err() {
            self.namespaces.close();
        }
        checked
    }

    /// [`check_and_bind`](Self::check_and_bind) without closing the scope on error.
    fn bind_and_check(
        &mut self,
        qname: &str,
        attributes: &[(Range<usize>, Range<usize>)],
        source: &str,
    ) -> Result<(), StopReason> {
        let at = |range: &Range<usize>| source.get(range.clone()).unwrap_or_default();
        let mut decoded = String::new();
        for (name, value) in attributes {
            let raw = at(value);
            // One pass for most values, which hold neither.
            let special = memchr::memchr2(b'<', b'&', raw.as_bytes());
            let rest = |at: usize| raw.as_bytes().get(at..).unwrap_or_default();
            if special.is_some_and(|at| memchr::memchr(b'<', rest(at)).is_some()) {
                return Err(StopReason::LessThanInAttribute);
            }
            let prefix = declared_prefix(at(name));
            if special.is_some() || prefix.is_some() {
                decoded.clear();
                normalize_attribute(raw, &self.dtd, &mut self.budget, &mut decoded)?;
            }
            if let Some(prefix) = prefix {
                self.namespaces.bind(prefix, &decoded);
            }
        }
        if self.dtd.has_defaults() {
            for default in self.dtd.defaults(qname) {
                if self.specifies(attributes, source, &default.attribute) {
                    continue;
                }
                // A default is text the element gets without its being written there: like
                // an entity's replacement text, it is taken from the budget, so that many
                // elements given a long default cannot make the scan's time grow faster than
                // the document.
                self.budget.spend(default.literal.len() + 1)?;
                decoded.clear();
                normalize_attribute(&default.literal, &self.dtd, &mut self.budget, &mut decoded)?;
                if let Some(prefix) = declared_prefix(&default.attribute) {
                    self.namespaces.bind(prefix, &decoded);
                }
            }
        }
        for (name, _) in attributes {
            let name = at(name);
            if declared_prefix(name).is_some() {
                continue;
            }
            if !is_qname(name) || self.namespaces.attribute(name).is_none() {
                return Err(StopReason::UndeclaredPrefix);
            }
        }
        Ok(())
    }

    /// Records the URLs of an element (made, its namespaces bound) named `qname`, in
    /// `element_ns` with local name `local`: of its attributes and of the attribute defaults
    /// it lacks.
    fn element_urls(
        &mut self,
        qname: &str,
        element_ns: Ns,
        local: &str,
        attributes: &[(Range<usize>, Range<usize>)],
        source: &str,
        place: &Place,
    ) {
        if !matches!(element_ns, Ns::Svg | Ns::Xhtml) {
            return;
        }
        let at = |range: &Range<usize>| source.get(range.clone()).unwrap_or_default();
        let mut kept: Vec<Kept<'_>> = Vec::new();
        let mut http_equiv: Option<Cow<'_, str>> = None;
        for (name, value) in attributes {
            let name = at(name);
            let Some((attribute_ns, attribute)) = self.namespaces.attribute(name) else {
                continue;
            };
            let raw = at(value);
            if element_ns == Ns::Xhtml && attribute_ns == Ns::None && attribute == HTTP_EQUIV {
                http_equiv = Some(Cow::Borrowed(raw));
            }
            if let Some((name, kind)) = url_attribute(element_ns, local, attribute_ns, attribute) {
                kept.push(Kept {
                    name,
                    kind,
                    raw: Cow::Borrowed(raw),
                    place: self.place_of(raw, place),
                });
            }
        }
        if self.dtd.has_defaults() {
            for default in self.dtd.defaults(qname) {
                if self.specifies(attributes, source, &default.attribute) {
                    continue;
                }
                let Some((attribute_ns, attribute)) = self.namespaces.attribute(&default.attribute)
                else {
                    continue;
                };
                if element_ns == Ns::Xhtml && attribute_ns == Ns::None && attribute == HTTP_EQUIV {
                    http_equiv = Some(Cow::Owned(default.literal.to_string()));
                }
                let Some((name, kind)) = url_attribute(element_ns, local, attribute_ns, attribute)
                else {
                    continue;
                };
                // The default lies in the DTD, whether the element is in the document or in an
                // entity's replacement text.
                let lies = Ok(default.range.clone());
                kept.push(Kept {
                    name,
                    kind,
                    raw: Cow::Owned(default.literal.to_string()),
                    place: lies,
                });
            }
        }
        let is_refresh = http_equiv.is_some_and(|value| {
            normalize_without_dtd(&value).is_some_and(|v| v.eq_ignore_ascii_case("refresh"))
        });
        if kept.is_empty() {
            return;
        }
        // Only an XHTML `base` keeps an `href` (the SVG names hold none on `base`).
        let is_base = element_ns == Ns::Xhtml && local == "base";
        let tag = element(local.as_bytes());
        for kept in kept {
            if kept.kind == UrlKind::Refresh && !is_refresh {
                continue;
            }
            let base_href = match (is_base && kept.name == "href", self.templates) {
                (false, _) => BaseHref::No,
                (true, 0) => BaseHref::Candidate,
                (true, _) => BaseHref::InTemplate,
            };
            self.attribute_urls(tag.clone(), &kept, base_href);
        }
    }

    /// Records the URLs of one attribute value.
    fn attribute_urls(&mut self, tag: Cow<'static, str>, kept: &Kept<'_>, base_href: BaseHref) {
        let exact = match &kept.place {
            Ok(range) if !kept.raw.contains(['&', '\r']) => Some(range.clone()),
            _ => None,
        };
        let value: Cow<'_, str> = if exact.is_some() {
            if kept.raw.contains(['\t', '\n']) {
                // XML turns each into a space: offsets stay.
                Cow::Owned(kept.raw.replace(['\t', '\n'], " "))
            } else {
                Cow::Borrowed(&*kept.raw)
            }
        } else {
            let mut decoded = String::new();
            // The value was checked when the element was made; the budget spent again is
            // bounded by what the check spent.
            let _ = normalize_attribute(&kept.raw, &self.dtd, &mut self.budget, &mut decoded);
            Cow::Owned(decoded)
        };
        let whole = match &kept.place {
            Ok(range) | Err(range) => ByteRange::from(range.clone()),
        };
        let mut any = false;
        for_each_url(kept.kind, &value, |range, reference| {
            any = true;
            let range = match &exact {
                Some(raw) => ByteRange::from(raw.start + range.start..raw.start + range.end),
                None => whole,
            };
            let url = HtmlUrl::new(
                self.text,
                tag.clone(),
                Some(kept.name),
                range,
                &reference,
                base_href,
                kept.kind,
                Some(whole),
            );
            self.record(url);
        });
        if any && exact.is_none() {
            let text = match kept.place {
                Ok(_) => ValueText::Decoded(value.into_owned()),
                Err(_) => ValueText::Entity,
            };
            self.values.push(SvgValue { range: whole, text });
        }
    }

    /// An end tag at `before` of `source`: closes the current element, and records the URLs
    /// of a `<style>` element's text.
    fn end_tag(&mut self, source: &str, place: &Place, before: usize) {
        let Some(open) = self.open.pop() else {
            return;
        };
        self.namespaces.close();
        if open.is_template {
            self.templates = self.templates.saturating_sub(1);
        }
        if open.is_style
            && let Some(style) = self.styles.pop()
        {
            let end = match place {
                Place::Document => Some(offset_in(self.text, source).unwrap_or(0) + before),
                Place::Entity(_) => None,
            };
            self.style_urls(style, end);
        }
        if self.open.is_empty() && *place == Place::Document {
            self.root = Root::After;
        }
    }

    /// Records the URLs of a `<style>` element's text, whose content ends at `end` of the
    /// document (`None` when it lies in an entity's replacement text).
    fn style_urls(&mut self, style: StyleText, end: Option<usize>) {
        let (urls, whole) = style.urls(end);
        let value = whole.as_ref().map(|whole| whole.range);
        if let Some(whole) = whole {
            self.values.push(whole);
        }
        for (range, reference) in urls {
            let url = HtmlUrl::new(
                self.text,
                Cow::Borrowed("style"),
                None,
                range,
                &reference,
                BaseHref::No,
                UrlKind::StyleElement,
                value,
            );
            self.record(url);
        }
    }

    /// An `<?xml-stylesheet?>` processing instruction: its `href`, when the browser loads
    /// the sheet (see [`stylesheet_href`]).
    fn stylesheet(&mut self, pi: &BytesPI<'_>) {
        let Some(raw) = stylesheet_href(pi.content()) else {
            return;
        };
        let kept = Kept {
            name: "href",
            kind: UrlKind::Attribute,
            raw: Cow::Borrowed(raw),
            place: self.place_of(raw, &Place::Document),
        };
        // With no DTD here, the document's entities do not apply.
        let dtd = std::mem::take(&mut self.dtd);
        self.attribute_urls(element(b"xml-stylesheet"), &kept, BaseHref::No);
        self.dtd = dtd;
    }

    /// Adds `url` to `urls` unless it is full; counts it otherwise, keeping the reference of
    /// the first `<base href>` candidate when none was recorded.
    fn record(&mut self, url: HtmlUrl) {
        if self.urls.len() < self.max_urls {
            self.has_recorded_base |= url.is_base_candidate();
            self.urls.push(url);
            return;
        }
        self.not_recorded += 1;
        if url.is_base_candidate() && !self.has_recorded_base && self.unrecorded_base.is_none() {
            self.unrecorded_base = Some(url.reference(self.text).to_owned());
        }
    }

    /// The result.
    fn finish(mut self, stop: Option<Stop>) -> SvgScan {
        if !self.urls.is_sorted_by_key(|url| url.range.start) {
            self.urls.sort_by_key(|url| url.range.start);
        }
        self.values
            .sort_by_key(|value| (value.range.start, value.range.end));
        self.values
            .dedup_by_key(|value| (value.range.start, value.range.end));
        let base = self.urls.iter().position(HtmlUrl::is_base_candidate);
        SvgScan {
            scan: HtmlScan {
                urls: self.urls,
                base,
                not_recorded: self.not_recorded,
                unrecorded_base: self.unrecorded_base,
                not_scanned: None,
                fetch_attributes: Vec::new(),
                srcdocs: Vec::new(),
                srcdocs_not_scanned: 0,
            },
            values: self.values,
            stop,
        }
    }
}
