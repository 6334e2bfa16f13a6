//! One URL of a message: where it was found ([`UrlSource`]), how it was resolved
//! ([`Resolution`]) and the entity of the same message it names ([`Target`]).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use super::{BaseRecord, ByteRange, PartId};
use crate::vocab::{BaseSource, DocumentKind, FieldName, Resolver, TargetMatch};

/// How a URL was resolved, or why it was not: what a [`UrlRecord`] says of its reference.
///
/// In JSON it is three fields of the URL record: `"resolved"` (the URL, or `null`),
/// `"unresolved"` ([`Unresolved`], only when there is no URL) and `"error"` (the resolver's
/// message, only for [`Resolution::ResolverError`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Resolution {
    /// The absolute URL (for the `rfc1808` and `rfc3986` resolvers, an absolute reference as
    /// it is written; for `whatwg`, as the URL Standard's parser serializes it).
    Resolved(String),
    /// The reference is relative and the entity has no base (base precedence step 5, RFC 1808
    /// §3.4). `"unresolved": "no_base"`.
    NoBase,
    /// The resolver refused the pair; the string is its message (`"the URL Standard's parser
    /// rejects the reference: invalid international domain name"`, see
    /// [`ResolveError`](crate::url::ResolveError)). `"unresolved": "resolver_error"`, with the
    /// message as `"error"`.
    ResolverError(String),
}

impl Resolution {
    /// The absolute URL, if the reference was resolved.
    pub fn resolved(&self) -> Option<&str> {
        match self {
            Resolution::Resolved(url) => Some(url),
            Resolution::NoBase | Resolution::ResolverError(_) => None,
        }
    }

    /// Why there is no URL: `None` when the reference was resolved.
    pub fn unresolved(&self) -> Option<Unresolved> {
        match self {
            Resolution::Resolved(_) => None,
            Resolution::NoBase => Some(Unresolved::NoBase),
            Resolution::ResolverError(_) => Some(Unresolved::ResolverError),
        }
    }

    /// The resolver's message, for [`Resolution::ResolverError`].
    pub fn error(&self) -> Option<&str> {
        match self {
            Resolution::ResolverError(message) => Some(message),
            Resolution::Resolved(_) | Resolution::NoBase => None,
        }
    }

    /// The absolute URL, taken out of the resolution.
    pub fn into_resolved(self) -> Option<String> {
        match self {
            Resolution::Resolved(url) => Some(url),
            Resolution::NoBase | Resolution::ResolverError(_) => None,
        }
    }
}

/// Why a URL has no resolved form: the `"unresolved"` field of a URL record, serialized as the
/// snake-case name of the variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Unresolved {
    /// `no_base`: the reference is relative and the entity has no base (base precedence step
    /// 5).
    NoBase,
    /// `resolver_error`: the resolver refused the pair (see
    /// [`ResolveError`](crate::url::ResolveError)).
    ResolverError,
}

/// Where a URL was found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlSource {
    /// A header field: serialized `header:<Name>` with the field name's canonical spelling.
    Header {
        /// The field (`List-Unsubscribe`): one of those that hold URLs
        /// ([`FieldName::holds_urls`]).
        name: FieldName,
        /// 0-based position of the field among all fields of the entity's header block.
        field: usize,
        /// 0-based position of the URL among the URLs of that field (RFC 2369 lists hold
        /// several).
        item: usize,
    },
    /// HTML: serialized `html:<tag>@<attribute>` for an attribute (`html:a@href`,
    /// `html:img@srcset` for each candidate, `html:meta@content` for a refresh URL,
    /// `html:div@style` for a CSS `url()` in a style attribute), `html:style` for a CSS
    /// `url()` in a `<style>` element; lowercase.
    Html {
        /// The element's local name, as HTML tree construction names it (lowercase; SVG
        /// names in their camel case, `feImage`). Borrowed from a table of the HTML and SVG
        /// element names for the elements found in mail; owned only for other names (custom
        /// elements).
        tag: Cow<'static, str>,
        /// The attribute's name, one of the URL attributes the HTML scan reads (lowercase:
        /// `href`, `src`, `srcset`, `style`, `xlink:href`, …); `None` for the text of a
        /// `<style>` element.
        attribute: Option<&'static str>,
        /// The URL's bytes in the decoded body, as written (before entity decoding). When an
        /// attribute value holds a character reference (`&…;`), offsets inside it cannot be
        /// mapped and the range is the whole value. Inside a `srcdoc` document the range is
        /// where the URL's text lies in the `srcdoc` value (whose character references were
        /// decoded to make the document): exact when it starts and ends in text between
        /// references, else widened over the references it starts or ends in.
        range: ByteRange,
        /// How many `<iframe srcdoc>` documents deep the URL is: 0 in the part's own document,
        /// 1 in a `srcdoc` document of it, 2 in one inside that. Serialized as `"srcdoc"`, left
        /// out when 0. A `srcdoc` document's URLs resolve against its own `<base href>`, else
        /// against the base of the document whose `<iframe>` holds it (the HTML Standard's
        /// [fallback base URL](https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url)
        /// of an iframe srcdoc document).
        srcdoc: usize,
    },
    /// An SVG document ([`DocumentKind::Svg`](crate::DocumentKind::Svg)): serialized
    /// `svg:<tag>@<attribute>` (`svg:a@href`, `svg:image@xlink:href`, `svg:rect@style` for a
    /// CSS `url()` in a style attribute), `svg:style` for a CSS `url()` in a `<style>`
    /// element.
    Svg {
        /// The element's local name as the document writes it (XML names are case-sensitive:
        /// `feImage`).
        tag: Cow<'static, str>,
        /// `href`, `xlink:href` (an `href` in the XLink namespace, whatever prefix the
        /// document binds to it) or `style`; `None` for the text of a `<style>` element.
        attribute: Option<&'static str>,
        /// The URL's bytes in the decoded body, as written, by the rule of
        /// [`UrlSource::Html`]'s range.
        range: ByteRange,
    },
    /// Plain text ([`DocumentKind::Text`](crate::DocumentKind::Text)): serialized `text`. The
    /// reference is the text that a mail client turns into a link, as written (`www.example.com`,
    /// `joe@example.com`); the resolved URL is the link it makes of it
    /// (`http://www.example.com`, `mailto:joe@example.com`) as the resolver reads an absolute
    /// URL. No base applies: plain text has none.
    Text {
        /// The reference's bytes in the decoded body (transfer encoding undone, converted to
        /// UTF-8 from its charset), before `format=flowed` lines are joined or `text/enriched`
        /// commands are removed: a link that a soft line break split spans the break.
        range: ByteRange,
    },
    /// A file a reader opens from the message: a PDF, a calendar, a shortcut or an office
    /// document ([`DocumentKind`]). Serialized `<kind>:<place>`: `pdf:annot/URI`,
    /// `calendar:ATTACH`, `shortcut:URL`, `office:relationship`, … ([`FileSource`] lists them),
    /// with the fields of [`FileSource`] that say where in the file. Boxed: such records are
    /// rare, and every other record stays small.
    File(Box<FileSource>),
}

/// Where in a file a reader opens a link was found: the details of [`UrlSource::File`].
///
/// The places, by kind of file (`place` in the table; the record's source is
/// `<kind>:<place>`):
///
/// | kind | place | the link |
/// |---|---|---|
/// | `pdf` | `<where>/<action>` | the target of an action (ISO 32000-1 §12.6): `<action>` is `URI`, `Launch`, `GoToR`, `GoToE`, `SubmitForm` or `ImportData` (the last five when the file they name is a URL); `<where>` is `annot` (a link annotation's action), `annot-AA` (an annotation's additional actions), `OpenAction` (the document's open action), `AA` (the document's or a page's additional actions), `field` (an interactive form field's actions), or `object` (an action dictionary none of these reaches) |
/// | `pdf` | `text` | a link a viewer makes of a page's text (`page`, and `range` in the page's text as extracted) |
/// | `calendar` | `URL`, `ATTACH` | the property's URI value (RFC 5545 §3.8.4.6, §3.8.1.1) |
/// | `calendar` | `X-ALT-DESC` | a URL of the HTML description (`FMTTYPE=text/html`), as an HTML body's |
/// | `calendar` | `DESCRIPTION`, `LOCATION`, `SUMMARY`, `COMMENT` | a link made of the property's text, as of a plain-text body |
/// | `shortcut` | `URL` | the URL a Windows Internet shortcut (`URL=`), a macOS Web location (the `URL` key) or a freedesktop.org link (`URL=`) opens |
/// | `office` | `relationship` | an external relationship's `Target` (ECMA-376 Part 2 §9.3) |
/// | `office` | `HYPERLINK` | a `HYPERLINK` field (ECMA-376 Part 1 §17.16.5.25; RTF's `\fldinst`) or spreadsheet formula |
/// | `office` | `text:a@xlink:href`, `draw:a@xlink:href` | an OpenDocument link (ODF 1.3 Part 3 §6.1.8, §10.4.12) |
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileSource {
    /// The kind of file: [`DocumentKind::Pdf`], [`DocumentKind::Calendar`],
    /// [`DocumentKind::Shortcut`] or [`DocumentKind::Office`].
    pub kind: DocumentKind,
    /// Where in the file, as the table above names it.
    pub place: Cow<'static, str>,
    /// The member of the file's container that holds the link (an Office Open XML part or an
    /// OpenDocument file's member, by its name in the ZIP: `word/_rels/document.xml.rels`);
    /// `None` for a file that is not a container. `"member"` in JSON, left out when `None`.
    pub member: Option<String>,
    /// The reference's bytes, half-open and 0-based: in the part's decoded body (a calendar,
    /// a shortcut, an RTF file), in [`member`](Self::member) (an XML member, as stored
    /// uncompressed), or in the text extracted from [`page`](Self::page) (`pdf:text`); `None`
    /// for a PDF action, whose place is its [`object`](Self::object). `"range"` in JSON,
    /// left out when `None`. For a calendar, the range is in the content lines as written
    /// (folded, escaped); where a URL spans a fold or an escape, the range covers it.
    pub range: Option<ByteRange>,
    /// The number of the PDF object that holds the action (ISO 32000-1 §7.3.10), or the
    /// annotation or other object whose dictionary holds it inline; `None` when it is not in
    /// an indirect object (the trailer) and for every other kind. `"object"` in JSON, left
    /// out when `None`.
    pub object: Option<u32>,
    /// The PDF page, 1-based, whose annotation, additional actions or text holds the link;
    /// `None` for a link of no page and for every other kind. `"page"` in JSON, left out when
    /// `None`.
    pub page: Option<u32>,
    /// True for a link that a viewer or an application makes of text (`pdf:text`, and a
    /// calendar's TEXT values: `DESCRIPTION`, `LOCATION`, `SUMMARY`, `COMMENT`, and
    /// `X-ALT-DESC` of a format other than HTML): as for a plain-text body
    /// ([`UrlSource::Text`]), the reference is the text as written, the resolved URL the link
    /// made of it (`http://` before a `www.` host, `mailto:` before an address), with no base.
    /// `"linkified": true` in JSON, left out when false.
    pub linkified: bool,
}

impl UrlSource {
    /// The byte range of the URL in its part's decoded body, for HTML, SVG and text; `None`
    /// for a header, and for a file, whose range may be in another text
    /// ([`FileSource::range`]).
    pub fn range(&self) -> Option<ByteRange> {
        match self {
            UrlSource::Header { .. } | UrlSource::File(_) => None,
            UrlSource::Html { range, .. }
            | UrlSource::Svg { range, .. }
            | UrlSource::Text { range } => Some(*range),
        }
    }

    /// True for a URL of a plain-text body ([`UrlSource::Text`]).
    pub fn is_text(&self) -> bool {
        matches!(self, UrlSource::Text { .. })
    }

    /// True for a link made of text: a plain-text body's ([`UrlSource::Text`]), or one made of
    /// the text of a file ([`FileSource::linkified`]). Its reference is the text as written,
    /// and its resolved URL the link a client makes of it, not the reference resolved.
    pub fn is_linkified(&self) -> bool {
        match self {
            UrlSource::Text { .. } => true,
            UrlSource::File(file) => file.linkified,
            _ => false,
        }
    }
}

impl fmt::Display for UrlSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlSource::Header { name, .. } => write!(f, "header:{name}"),
            UrlSource::Html {
                tag,
                attribute: Some(attribute),
                ..
            } => write!(f, "html:{tag}@{attribute}"),
            UrlSource::Html { tag, .. } => write!(f, "html:{tag}"),
            UrlSource::Svg {
                tag,
                attribute: Some(attribute),
                ..
            } => write!(f, "svg:{tag}@{attribute}"),
            UrlSource::Svg { tag, .. } => write!(f, "svg:{tag}"),
            UrlSource::Text { .. } => f.write_str("text"),
            UrlSource::File(file) => write!(f, "{}:{}", file.kind, file.place),
        }
    }
}

/// A [`UrlSource`] serialized as its [`Display`](fmt::Display) form, assembled on the stack
/// when it fits in [`SourceName::INLINE`] bytes (every name of the tables does; a custom
/// element's name may not) instead of in a `String` per record.
struct SourceName<'a>(&'a UrlSource);

impl SourceName<'_> {
    /// Room for `html:` + the tag + `@` + the attribute.
    const INLINE: usize = 64;
}

impl Serialize for SourceName<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (prefix, name, attribute) = match self.0 {
            UrlSource::Header { name, .. } => ("header:", name.as_str(), None),
            UrlSource::Html { tag, attribute, .. } => ("html:", tag.as_ref(), *attribute),
            UrlSource::Svg { tag, attribute, .. } => ("svg:", tag.as_ref(), *attribute),
            UrlSource::Text { .. } => ("text", "", None),
            UrlSource::File(_) => return serializer.collect_str(self.0),
        };
        let pieces = [
            prefix,
            name,
            attribute.map_or("", |_| "@"),
            attribute.unwrap_or(""),
        ];
        let mut buffer = [0u8; Self::INLINE];
        let mut length = 0;
        for piece in pieces {
            let Some(room) = buffer.get_mut(length..length + piece.len()) else {
                return serializer.collect_str(self.0);
            };
            room.copy_from_slice(piece.as_bytes());
            length += piece.len();
        }
        // Whole `str`s were copied, so the bytes are UTF-8.
        match buffer.get(..length).map(std::str::from_utf8) {
            Some(Ok(text)) => serializer.serialize_str(text),
            _ => serializer.collect_str(self.0),
        }
    }
}

/// What a reader sees of a link: the text of an HTML `a` element (or the `alt` of an `area`),
/// its `title`, and whether the text names another host than the link reaches.
///
/// Only the `href` record of an `a` or `area` element in the HTML namespace has one (in the
/// part's document or in an `<iframe srcdoc>` document): its other URLs (`ping`, CSS in
/// `style`) are not what the text shows, and an SVG `a` has no rendered text of its own in
/// the sense of HTML's `innerText`.
///
/// In JSON it is three fields of the URL record: `"text"`, `"title"` (left out when the element
/// has no `title` attribute) and `"text_host_differs"`, all three left out of records without
/// link text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkText {
    /// The text a reader sees as the link, at most [`LinkText::MAX_CHARS`] characters (Unicode
    /// scalar values; a longer text is cut there, with nothing added).
    ///
    /// For an `a`: its rendered text, as the HTML Standard's [`innerText`] of the element
    /// without author style sheets (only the user agent's default rendering), with every run of
    /// white space (space, tab, line feed, carriage return, form feed) made one space and none
    /// at either end: text inside `<script>`, `<style>`, `<template>`, `<title>`, `<noembed>`,
    /// `<noframes>`, `<iframe>`, `<textarea>`, `<select>`, `<datalist>`, `<head>`, `<rp>`,
    /// `<audio>`, `<video>`, inline `<svg>` and elements with a `hidden` attribute is not shown
    /// and not counted (`<noscript>` content is: mail clients render with scripting off); `<br>`, the start and
    /// end of a block (`<p>`, `<div>`, `<li>`, `<table>`, `<h1>`, …) and the boundary between
    /// table cells and rows separate words, as `innerText`'s line breaks and tabs do. When that
    /// text is empty: the `alt` text of the `img` elements inside it, in document order,
    /// joined by one space (what a reader sees of an image link when images are not shown).
    /// For an `area`: its `alt`.
    ///
    /// [`innerText`]: https://html.spec.whatwg.org/multipage/dom.html#the-innertext-idl-attribute
    pub text: String,
    /// The element's `title` attribute (the tooltip a reader sees when pointing at the link),
    /// character references decoded and white space collapsed as in [`text`](Self::text), cut
    /// to the same length; `None` when it has none.
    pub title: Option<String>,
    /// True when [`text`](Self::text) reads as a URL or a host name whose host is not the
    /// host of the resolved URL (the text says `https://bank.example.com`, the link goes to
    /// `evil.example.net`): the classic tell of a phishing link. False when the text does not
    /// read so, or the URL is not resolved.
    ///
    /// The text reads as a URL when the whole of it, once enclosing `<…>`, `(…)`, `[…]` or
    /// quotes and trailing `.`, `,`, `;`, `:`, `!` or `?` are taken off, is an absolute URL
    /// with a host by the URL Standard's parser (`https://bank.example.com/login`,
    /// `https://bank.example.com@evil.example.net/` whose host is `evil.example.net`); it reads
    /// as a host name when it is, without a scheme and without white space or `@`, a host
    /// name of at least two labels whose last is alphabetic (`bank.example.com`,
    /// `www.bank.example.com/login`, `bänk.example`), or an IPv4 address, read as the URL
    /// Standard reads `http://` + the text. A sentence that mentions a host (`Log in at
    /// bank.example.com`) does not read as one. The hosts are compared as the URL Standard
    /// serializes them (lowercase, international names in their ASCII form, IPv4 addresses
    /// in dotted decimal), exactly: `www.bank.example.com` and `bank.example.com` differ, and so
    /// does a redirector's host from the host its text names. A URL without a host (`mailto:`,
    /// `javascript:`, `data:`) differs from every host a text names.
    pub text_host_differs: bool,
}

impl LinkText {
    /// The longest [`text`](Self::text) and [`title`](Self::title) kept, in characters
    /// (Unicode scalar values). Enough for any URL or host name a text shows in full (the
    /// texts of real links are short), while a page whose whole body is one link does not copy
    /// itself into the record.
    pub const MAX_CHARS: usize = 256;
}

/// One URL found in the message: in a header field, an HTML or SVG document, or plain text
/// (see [`UrlSource`]).
///
/// A message can hold very many URLs, so a record is kept small: the part identifier and
/// the base are shared with every other record of the entity (cloning a [`PartId`] or the
/// `Arc` of a base copies no text), the names in [`UrlSource`] are static, and what a reader
/// sees of a link ([`LinkText`]) is behind one pointer that other records leave empty; what a
/// record owns is its reference and resolved URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRecord {
    /// The entity it was found in.
    pub part: PartId,
    /// Where in that entity.
    pub source: UrlSource,
    /// The embedded URL as written, after unfolding, whitespace removal (headers) or entity
    /// decoding and trimming (HTML).
    pub reference: String,
    /// The absolute URL, or why there is none.
    pub resolution: Resolution,
    /// The base it was resolved against and where that came from; shared by the records
    /// resolved against the same base.
    pub base: Arc<BaseRecord>,
    /// True when the base decided where the URL leads: the resolver took any part of the base
    /// to make the resolved URL (a relative or scheme-relative reference; with the `whatwg`
    /// resolver also `http:login` against an `http` base, see
    /// [`Resolved::base_decided`](crate::url::Resolved::base_decided)). False for a reference
    /// taken as it is, an unresolved one, and every URL of plain text. `"base_decided"` in
    /// JSON, on every record.
    pub base_decided: bool,
    /// The algorithm that produced [`resolution`](Self::resolution).
    pub resolver: Resolver,
    /// The entity of the same message that the URL names, and how it was matched
    /// ([`cid:`, `mid:` or `Content-Location`](crate::target)); `None` when it names none.
    pub target: Option<Target>,
    /// For the URL of a `<base href>` or of a base header field (`Base`, `Content-Base`,
    /// `Content-Location`) that does not set the base it would set: why
    /// ([`BaseIgnored`]). `None` for every other URL, and for the base URLs that do apply.
    pub ignored: Option<BaseIgnored>,
    /// What a reader sees of the link, for the `href` of an HTML `a` or `area` element
    /// ([`LinkText`]); `None` for every other URL.
    pub link: Option<Box<LinkText>>,
}

impl UrlRecord {
    /// The text a reader sees as the link ([`LinkText::text`]); `None` for a URL that is not
    /// the `href` of an HTML `a` or `area`.
    pub fn text(&self) -> Option<&str> {
        self.link.as_deref().map(|link| link.text.as_str())
    }

    /// The link's `title` attribute ([`LinkText::title`]).
    pub fn title(&self) -> Option<&str> {
        self.link.as_deref().and_then(|link| link.title.as_deref())
    }

    /// True when the link's text names another host than the URL reaches
    /// ([`LinkText::text_host_differs`]); false for a URL without link text.
    pub fn text_host_differs(&self) -> bool {
        self.link
            .as_deref()
            .is_some_and(|link| link.text_host_differs)
    }
}

impl Serialize for UrlRecord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("part", &self.part)?;
        map.serialize_entry("source", &SourceName(&self.source))?;
        match &self.source {
            UrlSource::Header { field, item, .. } => {
                map.serialize_entry("field", field)?;
                map.serialize_entry("item", item)?;
            }
            UrlSource::Html { range, srcdoc, .. } => {
                map.serialize_entry("range", range)?;
                if *srcdoc > 0 {
                    map.serialize_entry("srcdoc", srcdoc)?;
                }
            }
            UrlSource::Svg { range, .. } | UrlSource::Text { range } => {
                map.serialize_entry("range", range)?
            }
            UrlSource::File(file) => {
                if let Some(member) = &file.member {
                    map.serialize_entry("member", member)?;
                }
                if let Some(range) = &file.range {
                    map.serialize_entry("range", range)?;
                }
                if let Some(object) = &file.object {
                    map.serialize_entry("object", object)?;
                }
                if let Some(page) = &file.page {
                    map.serialize_entry("page", page)?;
                }
                if file.linkified {
                    map.serialize_entry("linkified", &true)?;
                }
            }
        }
        map.serialize_entry("reference", &self.reference)?;
        map.serialize_entry("resolved", &self.resolution.resolved())?;
        if let Some(reason) = &self.resolution.unresolved() {
            map.serialize_entry("unresolved", reason)?;
        }
        if let Some(error) = self.resolution.error() {
            map.serialize_entry("error", error)?;
        }
        map.serialize_entry("base", &*self.base)?;
        map.serialize_entry("base_decided", &self.base_decided)?;
        map.serialize_entry("resolver", &self.resolver)?;
        if let Some(target) = &self.target {
            map.serialize_entry("target", target)?;
        }
        if let Some(ignored) = &self.ignored {
            map.serialize_entry("ignored", ignored)?;
        }
        if let Some(link) = &self.link {
            map.serialize_entry("text", &link.text)?;
            if let Some(title) = &link.title {
                map.serialize_entry("title", title)?;
            }
            map.serialize_entry("text_host_differs", &link.text_host_differs)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for UrlRecord {
    /// Reads the fields [`Serialize`] writes; `source` must name a header field that holds
    /// URLs (`header:Base`, `header:List-Unsubscribe`, …), with `field` and `item`, or be
    /// `html:<tag>@<attribute>` (an attribute the HTML scan reads URLs from) or `html:<tag>`,
    /// with a `range`, or `<kind>:<place>` for a file ([`FileSource`]; the place is taken as
    /// written). A record with `"resolved": null` and no `"unresolved"` field is
    /// [`Resolution::NoBase`]; `"resolver_error"` without an `"error"` has an empty message.
    /// A missing `"base_decided"` is false; a record with a `"text"` has a [`LinkText`] (a
    /// missing `"text_host_differs"` is false), one without has none.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Wire {
            part: PartId,
            source: String,
            field: Option<usize>,
            item: Option<usize>,
            range: Option<ByteRange>,
            #[serde(default)]
            srcdoc: usize,
            #[serde(default)]
            member: Option<String>,
            #[serde(default)]
            object: Option<u32>,
            #[serde(default)]
            page: Option<u32>,
            #[serde(default)]
            linkified: bool,
            reference: String,
            resolved: Option<String>,
            #[serde(default)]
            unresolved: Option<Unresolved>,
            #[serde(default)]
            error: Option<String>,
            base: BaseRecord,
            #[serde(default)]
            base_decided: bool,
            resolver: Resolver,
            #[serde(default)]
            target: Option<Target>,
            #[serde(default)]
            ignored: Option<BaseIgnored>,
            text: Option<String>,
            #[serde(default)]
            title: Option<String>,
            #[serde(default)]
            text_host_differs: bool,
        }
        let wire = Wire::deserialize(deserializer)?;
        let source = if let Some(name) = wire.source.strip_prefix("header:") {
            let name = name
                .parse::<FieldName>()
                .ok()
                .filter(|field| field.holds_urls())
                .ok_or_else(|| {
                    de::Error::custom(format_args!("no URL is found in a {name} field"))
                })?;
            UrlSource::Header {
                name,
                field: wire
                    .field
                    .ok_or_else(|| de::Error::missing_field("field"))?,
                item: wire.item.ok_or_else(|| de::Error::missing_field("item"))?,
            }
        } else if let Some(place) = wire.source.strip_prefix("html:") {
            let (tag, attribute) = tag_and_attribute::<D>(place)?;
            UrlSource::Html {
                tag,
                attribute,
                range: wire
                    .range
                    .ok_or_else(|| de::Error::missing_field("range"))?,
                srcdoc: wire.srcdoc,
            }
        } else if let Some(place) = wire.source.strip_prefix("svg:") {
            let (tag, attribute) = tag_and_attribute::<D>(place)?;
            UrlSource::Svg {
                tag,
                attribute,
                range: wire
                    .range
                    .ok_or_else(|| de::Error::missing_field("range"))?,
            }
        } else if wire.source == "text" {
            UrlSource::Text {
                range: wire
                    .range
                    .ok_or_else(|| de::Error::missing_field("range"))?,
            }
        } else if let Some((kind, place)) = wire.source.split_once(':').and_then(|(kind, place)| {
            let kind = kind.parse::<DocumentKind>().ok().filter(|k| k.is_file())?;
            Some((kind, place))
        }) {
            UrlSource::File(Box::new(FileSource {
                kind,
                place: Cow::Owned(place.to_owned()),
                member: wire.member,
                range: wire.range,
                object: wire.object,
                page: wire.page,
                linkified: wire.linkified,
            }))
        } else {
            return Err(de::Error::invalid_value(
                de::Unexpected::Str(&wire.source),
                &"`header:<Name>`, `html:<tag>@<attribute>`, `svg:<tag>@<attribute>`, `text` or `<file kind>:<place>`",
            ));
        };
        let resolution = match (wire.resolved, wire.unresolved) {
            (Some(url), _) => Resolution::Resolved(url),
            (None, Some(Unresolved::ResolverError)) => {
                Resolution::ResolverError(wire.error.unwrap_or_default())
            }
            (None, Some(Unresolved::NoBase) | None) => Resolution::NoBase,
        };
        Ok(UrlRecord {
            part: wire.part,
            source,
            reference: wire.reference,
            resolution,
            base: Arc::new(wire.base),
            base_decided: wire.base_decided,
            resolver: wire.resolver,
            target: wire.target,
            ignored: wire.ignored,
            link: wire.text.map(|text| {
                Box::new(LinkText {
                    text,
                    title: wire.title,
                    text_host_differs: wire.text_host_differs,
                })
            }),
        })
    }
}

/// The element and attribute of an HTML or SVG source, `<tag>@<attribute>` or `<tag>` (the
/// text of a `<style>` element), as [`UrlSource`] is serialized after its `html:` or `svg:`.
/// Attribute names never hold `@`; a tag name may (`<a@b href>`), so the attribute follows
/// the last one (`image@xlink:href`).
fn tag_and_attribute<'de, D: Deserializer<'de>>(
    place: &str,
) -> Result<(Cow<'static, str>, Option<&'static str>), D::Error> {
    let (tag, attribute) = match place.rsplit_once('@') {
        Some((tag, attribute)) => (
            tag,
            Some(crate::vocab::url_attribute_name(attribute).ok_or_else(|| {
                de::Error::custom(format_args!("no URL is found in a {attribute} attribute"))
            })?),
        ),
        None => (place, None),
    };
    Ok((crate::vocab::element(tag.as_bytes()), attribute))
}

/// The entity of the same message that a URL names (the [`target`](crate::target) module says
/// how URLs are matched).
///
/// Serialized as `{"part": "2", "by": "cid"}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Target {
    /// The entity named, as [`UrlRecord::part`] is written.
    pub part: PartId,
    /// How the URL was matched to it.
    pub by: TargetMatch,
}

/// Why a base URL found in the message does not set the base it would set: the `"ignored"`
/// field of the URL record of a `<base href>` (`html:base@href`, `svg:base@href`) or of a base
/// header field (`header:Base`, `header:Content-Base`, `header:Content-Location`). The URL is
/// still reported and resolved like any other; only its part in
/// [base precedence](crate#base-precedence) is passed over. A base that applies has no such
/// field, so a reader sees at once which of several candidates decided the links.
///
/// Serialized as a string: the snake-case name of the variant (`"not_first"`), and for
/// [`OverriddenBy`](Self::OverriddenBy) `overridden_by:` followed by the [`BaseSource`] that
/// won (`"overridden_by:header:Content-Base"`).
///
/// When several reasons hold, the one given is the first rule of base precedence that passes
/// the URL over: for a `<base href>`, being inside `<template>`, then being in foreign
/// content, then not being the first; for a header field, the [`Profile`](crate::Profile),
/// then a field of higher precedence that set the base, then being a repeated field, then
/// its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BaseIgnored {
    /// `not_first`: a `<base href>` after the first one of its document (in the HTML namespace,
    /// outside `<template>`); only the first sets the document's base (the HTML Standard's
    /// [frozen base URL](https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url)).
    NotFirst,
    /// `in_template`: a `<base href>` inside `<template>`, whose content is not part of the
    /// document (HTML Standard, the [`template`](https://html.spec.whatwg.org/multipage/scripting.html#the-template-element)
    /// element's template contents).
    InTemplate,
    /// `foreign_content`: a `<base>` that the HTML parser puts in the SVG or MathML namespace
    /// (inside `<svg>` or `<math>`, outside an HTML integration point): it is not an HTML
    /// `base` element, and so sets no base (HTML Standard, the rules for
    /// [parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)).
    ForeignContent,
    /// `unusable`: the first `<base href>`, or a base header field that would set the base,
    /// whose value cannot be a base: relative with nothing to resolve it against, refused by
    /// the resolver, or (`<base href>`) a `data:` or `javascript:` URL. A diagnostic of the
    /// entity says which; the next rule of base precedence applies instead.
    Unusable,
    /// `duplicate`: a base header field given again in the same header (RFC 1808 §3.1 and
    /// RFC 2110 allow one); the first of that name counts, usable or not.
    Duplicate,
    /// `overridden_by:<source>`: a base header field of lower precedence than the one that set
    /// the entity's base (`Base`, then `Content-Base`, then `Content-Location` in the default
    /// [`Profile`](crate::Profile)), which the variant names.
    OverriddenBy(BaseSource),
    /// `not_in_profile`: a base header field that the [`Profile`](crate::Profile) in use does
    /// not take as a base (`Content-Base` and `Content-Location` with `rfc1808`, `Base` with
    /// `mhtml`).
    NotInProfile,
}

impl BaseIgnored {
    /// The prefix of [`BaseIgnored::OverriddenBy`]'s serialized form.
    const OVERRIDDEN_BY: &'static str = "overridden_by:";
}

impl fmt::Display for BaseIgnored {
    /// The serialized form, `not_first` or `overridden_by:header:Base`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaseIgnored::NotFirst => f.write_str("not_first"),
            BaseIgnored::InTemplate => f.write_str("in_template"),
            BaseIgnored::ForeignContent => f.write_str("foreign_content"),
            BaseIgnored::Unusable => f.write_str("unusable"),
            BaseIgnored::Duplicate => f.write_str("duplicate"),
            BaseIgnored::OverriddenBy(source) => write!(f, "{}{source}", Self::OVERRIDDEN_BY),
            BaseIgnored::NotInProfile => f.write_str("not_in_profile"),
        }
    }
}

impl std::str::FromStr for BaseIgnored {
    type Err = String;

    /// Reads the serialized form that [`Display`](fmt::Display) writes.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text {
            "not_first" => BaseIgnored::NotFirst,
            "in_template" => BaseIgnored::InTemplate,
            "foreign_content" => BaseIgnored::ForeignContent,
            "unusable" => BaseIgnored::Unusable,
            "duplicate" => BaseIgnored::Duplicate,
            "not_in_profile" => BaseIgnored::NotInProfile,
            _ => {
                let source = text
                    .strip_prefix(Self::OVERRIDDEN_BY)
                    .and_then(|name| BaseSource::ALL.into_iter().find(|s| s.as_str() == name))
                    .ok_or_else(|| format!("not a reason a base is ignored: \"{text}\""))?;
                BaseIgnored::OverriddenBy(source)
            }
        })
    }
}

impl Serialize for BaseIgnored {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for BaseIgnored {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(de::Error::custom)
    }
}
