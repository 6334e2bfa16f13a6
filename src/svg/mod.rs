//! The SVG scan: every URL of an SVG document (an `image/svg+xml` part, or an attachment named
//! `*.svg`) that a browser follows or lets its reader click when the document is opened from
//! a file, with its byte range in the decoded text, as [`HtmlUrl`](crate::html::HtmlUrl)s
//! in an [`HtmlScan`], so that the machinery that reports, rewrites and extracts HTML URLs
//! takes them as they are.
//!
//! # What is found
//!
//! An SVG document is XML, and a browser reads it with an XML parser and namespaces, so
//! element and attribute names are compared exactly (`<A>` is not `a`, `feimage` is not
//! `feImage`) and by namespace, not by prefix:
//!
//! - SVG elements (`http://www.w3.org/2000/svg`): `href`, and `href` in the XLink namespace
//!   (`http://www.w3.org/1999/xlink`, reported as `xlink:href` whatever its prefix), of `a`,
//!   `image`, `use` and `feImage`; the CSS of `style` attributes and of the presentation
//!   attributes that take a `url()` (`fill`, `stroke`, `filter`, `clip-path`, `mask`,
//!   `marker-start`, `marker-mid`, `marker-end`, `cursor`: Chromium loads a document named in
//!   any of them); the CSS of `<style>` elements (`url()`, `@import`, `image-set()`, read by
//!   [`css`](crate::css)). When an element has both `href` and an XLink `href`, both are
//!   reported: browsers that implement SVG 2 follow `href` (SVG 2 §16.1.2: "if the href
//!   attribute is present, the xlink:href attribute is ignored"), renderers that know only
//!   SVG 1.1 follow `xlink:href`, and a scan that reported one could hide the other.
//!   `<script>` is skipped: scripting is off where mail is read.
//! - XHTML elements (`http://www.w3.org/1999/xhtml`), wherever they are (inside
//!   `<foreignObject>` or not: the namespace makes an element an HTML one): the same
//!   attributes as in an HTML document, by the HTML scan's own table; `style` elements;
//!   `<meta http-equiv=refresh>`. The first XHTML `<base href>` outside `<template>` is the
//!   document's base (Chromium applies it to every URL of the document, as in HTML):
//!   [`HtmlScan::base`] points at it.
//! - `<?xml-stylesheet href?>` processing instructions outside the root element, of type CSS
//!   (no `type`, or `text/css`) or XSLT, unless an alternate one without a title: the browser
//!   loads them.
//!
//! `xml:base` is not honoured (Chromium removed it), so no other base applies. Elements in
//! other namespaces, or in none (a document whose root lacks `xmlns`), hold no URLs: the
//! browser then shows the document as an XML tree.
//!
//! # Where reading stops
//!
//! A browser's XML parser (libxml2 in Chromium) stops at the first well-formedness error and
//! shows what came before it; links before the error are reachable, none after. The scan
//! stops at the same places, and says where and why ([`SvgScan::stop`]): a mismatched end
//! tag, a malformed or duplicated attribute, `<` in an attribute value, a malformed reference
//! or one to an undeclared entity (a warning only when the document has an external subset or
//! parameter-entity references: the reference is then dropped), a character outside XML's
//! `Char` production, an attribute whose namespace prefix is undeclared (Chromium cannot name
//! it and stops), content before or after the root element, `]]>` or `--` where they are not
//! allowed, an element nested deeper than [`MAX_DEPTH`]. An element whose start tag holds the
//! error is not made, so its URLs are not reported. The rarer errors that neither
//! `quick-xml` nor this scan checks let the scan read on: where the two differ, the scan
//! reports links a browser would not show rather than miss links it would.
//!
//! # Entities
//!
//! The document's internal DTD subset is read ([`dtd`]): the five predefined entities and
//! character references are decoded everywhere; internal entities are substituted in
//! attribute values and in content, where their replacement text may hold markup, which
//! becomes elements (a browser loads `<image>` elements written inside an entity); an
//! `<!ATTLIST>` default value is an attribute of every element of that name without it.
//! External entities are not loaded (browsers do not), nor are parameter entities expanded
//! (Chromium does not). Expansion is bounded: entities nest at most
//! [`MAX_ENTITY_DEPTH`](syntax::MAX_ENTITY_DEPTH) deep, and the replacement text read in all,
//! attribute defaults applied included, is at most four times the document's length (at
//! least 1 MiB); past it the scan stops ([`StopReason::EntityBudget`]).
//!
//! # Ranges
//!
//! Every range is 0-based, half-open, in bytes of the decoded text that was scanned. A URL
//! whose attribute value holds no reference and no CR is given its exact range (XML
//! normalizes tab and LF to spaces one for one, so offsets inside the value still hold, but
//! the reference then differs from the text). Otherwise the range is the whole raw value and
//! [`SvgScan::values`] holds the value as decoded, from which it can be written anew. A URL
//! of a `<style>` element whose text runs across a reference, a CDATA boundary, a comment or
//! a child element likewise gets the element's whole content as range and value. A URL that
//! comes from markup inside an entity's replacement text lies nowhere in the document: its
//! range and value are the reference (`&name;`) that brought it in, marked
//! [`ValueText::Entity`]. A default value from `<!ATTLIST>` lies in the DTD.
//!
//! # Why quick-xml
//!
//! `quick-xml` is the most used XML reader for Rust, kept up to date, free of unsafe code
//! (`#![forbid(unsafe_code)]`) and with no dependency but `memchr`. It reads from a `&str`
//! without copying, so the position of every name and value in the text follows from the
//! slices it returns; and it is a pull reader that hands over each event as it meets it, so
//! that every event before a well-formedness error is delivered, which a scan that stops
//! where a browser stops needs. It checks end-tag names, attribute syntax, comments and
//! unclosed references; what it leaves to its user (names, characters, references, the DTD,
//! namespace values, and duplicate attributes, which its check finds at the cost of two
//! allocations per tag) is in [`syntax`], [`dtd`], [`names`] and the scanner. `xml-rs` gives
//! lines and columns, not byte offsets of values; `roxmltree` builds a tree and gives up at
//! the first error, keeping nothing of what came before it.

mod dtd;
mod names;

mod scanner;
mod style;
mod syntax;
#[cfg(test)]
mod tests;

use crate::html::HtmlScan;
use crate::report::ByteRange;

/// How deep elements may nest: Chromium's XML parser stops at a deeper one ("Excessive node
/// nesting").
pub(crate) const MAX_DEPTH: usize = 5000;

/// What the SVG scan found.
#[derive(Debug, Default)]
pub(crate) struct SvgScan {
    /// The URLs, in the HTML scan's shape: sorted by range start; [`HtmlScan::base`] is the
    /// first XHTML `<base href>`, [`HtmlScan::not_scanned`] is never set and
    /// [`HtmlScan::fetch_attributes`] is empty.
    pub scan: HtmlScan,
    /// The values whose URLs are not at exact ranges (see the [module docs](self)), by the
    /// range of their raw value, sorted by its start.
    pub values: Vec<SvgValue>,
    /// Where and why reading stopped before the end of the text, as a browser's parser
    /// stops; `None` when the document was read to its end.
    pub stop: Option<Stop>,
}

/// A value whose URLs are not at exact ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SvgValue {
    /// The raw value in the text (an attribute value without its quotes, a `<style>`
    /// element's content, or an entity reference).
    pub range: ByteRange,
    /// What it holds.
    pub text: ValueText,
}

/// What a value with references holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ValueText {
    /// The value as decoded (an attribute value normalized as XML 1.0 §3.3.3 says, or a
    /// `<style>` element's text), in which the URLs are found again by
    /// [`value_urls`](crate::html::value_urls) with their kind, in the same order.
    Decoded(String),
    /// A reference to an entity whose replacement text holds the markup the URLs are in: it
    /// cannot be edited as a value.
    Entity,
}

/// Where and why the scan stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stop {
    /// Byte offset in the text of the error (of the start tag of an element not made, or of
    /// the entity reference inside whose replacement text the error is).
    pub at: usize,
    /// Why.
    pub reason: StopReason,
}

/// Why the scan stopped (each is a fatal error of XML 1.0 or Namespaces in XML for
/// Chromium's parser, or a limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// The document is not well-formed there (a syntax error `quick-xml` or this scan
    /// detects).
    NotWellFormed,
    /// A character outside XML's `Char` production (a C0 control other than tab, LF, CR).
    InvalidChar,
    /// A `<` in an attribute value, written or from an entity.
    LessThanInAttribute,
    /// A malformed reference, or a character reference to a character XML does not allow.
    BadReference,
    /// A reference to an entity the DTD does not declare.
    UndeclaredEntity,
    /// A reference to an external or unparsed entity in an attribute value.
    ExternalEntityInAttribute,
    /// An attribute whose namespace prefix is not declared.
    UndeclaredPrefix,
    /// An entity that refers to itself.
    EntityLoop,
    /// Entities nested deeper than the scan follows.
    EntityDepth,
    /// More replacement text than the scan reads.
    EntityBudget,
    /// Elements nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

/// How many bytes of entity replacement text the scan may still read.
#[derive(Debug)]
pub(crate) struct Budget(usize);

impl Budget {
    /// A budget of `bytes`.
    pub(crate) fn new(bytes: usize) -> Self {
        Budget(bytes)
    }

    /// Takes `bytes` from the budget.
    ///
    /// # Errors
    ///
    /// [`StopReason::EntityBudget`] when less is left.
    pub(crate) fn spend(&mut self, bytes: usize) -> Result<(), StopReason> {
        self.0 = self.0.checked_sub(bytes).ok_or(StopReason::EntityBudget)?;
        Ok(())
    }
}

/// Scans an SVG document (already decoded to UTF-8). Total: every input gives a result, in
/// one pass, in time linear in its length (entity expansion is bounded by it). At most
/// `max_urls` URLs are recorded; the scan goes on past them, counting the others
/// ([`HtmlScan::not_recorded`]) and still finding the first XHTML `<base href>`.
pub(crate) fn scan(text: &str, max_urls: usize) -> SvgScan {
    scanner::scan(text, max_urls)
}
