//! The names that records hold: header field names ([`FieldName`]), HTML element and attribute
//! names ([`ELEMENT_NAMES`], [`URL_ATTRIBUTE_NAMES`]), where a base came from ([`BaseSource`]),
//! how a URL names a part ([`TargetMatch`]) and the resolution algorithms ([`Resolver`]). Each
//! is one table (an enum's giving every variant, its serialized name and its description), so
//! that the parsers, the report, the JSON and the docs cannot disagree about a name.
//!
//! This module is the bottom of the crate: it imports nothing from it, and everything else
//! (the data model in [`report`](crate::report), the stages that fill it, the command line)
//! names things through it.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

/// Declares a closed vocabulary: an enum whose every variant has a serialized name and a
/// description (the variant's doc), with `ALL`, `as_str`, `description` and `Display`.
macro_rules! vocabulary {
    (
        $(#[$attribute:meta])*
        pub enum $Enum:ident {
            $( $(#[$variant_attribute:meta])* $Variant:ident => $name:literal, $description:literal; )+
        }
    ) => {
        $(#[$attribute])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $Enum {
            $( #[doc = $description] $(#[$variant_attribute])* $Variant, )+
        }

        impl $Enum {
            /// Every variant, in the order of the table.
            pub const ALL: [$Enum; [$($name),+].len()] = [$($Enum::$Variant),+];

            /// Every serialized name, in the order of the table.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The serialized name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $Enum::$Variant => $name, )+
                }
            }

            /// What the name stands for, and where it is defined.
            pub const fn description(self) -> &'static str {
                match self {
                    $( $Enum::$Variant => $description, )+
                }
            }
        }

        impl fmt::Display for $Enum {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use vocabulary;

vocabulary! {
    /// A header field that the analysis reads, by its canonical spelling (field names compare
    /// ASCII case-insensitively, RFC 5322 §1.2.2). Every other field of a header is counted
    /// (a field's index is part of a URL record) but not read.
    ///
    /// In a URL record it names the field the URL was found in: serialized as part of the
    /// record's source, `header:` followed by [`FieldName::as_str`] (`header:List-Unsubscribe`).
    #[non_exhaustive]
    pub enum FieldName {
        ContentType => "Content-Type",
            "`Content-Type` (RFC 2045 §5): the media type; its `URL` parameter holds a URL for `message/external-body; access-type=URL` (RFC 2017 §3).";
        ContentTransferEncoding => "Content-Transfer-Encoding",
            "`Content-Transfer-Encoding` (RFC 2045 §6): base64, quoted-printable or an identity encoding.";
        MessageId => "Message-ID",
            "`Message-ID` (RFC 5322 §3.6.4): what a `mid:` URL names (RFC 2392).";
        Base => "Base",
            "`Base` (RFC 1808 §3.1): the entity's base URL.";
        ContentBase => "Content-Base",
            "`Content-Base` (RFC 2110 §4.2): the entity's base URL.";
        ContentLocation => "Content-Location",
            "`Content-Location` (RFC 2557 §4): the entity's own URL, its base (RFC 2557 §5) and what URLs of the aggregate name it by (RFC 2557 §8.2).";
        ListArchive => "List-Archive",
            "`List-Archive` (RFC 2369 §3.6): URLs of the mailing list's archive.";
        ListHelp => "List-Help",
            "`List-Help` (RFC 2369 §3.1): URLs of the mailing list's instructions.";
        ListOwner => "List-Owner",
            "`List-Owner` (RFC 2369 §3.5): URLs that reach the list's owner.";
        ListPost => "List-Post",
            "`List-Post` (RFC 2369 §3.4): URLs to post to the list, or `NO`.";
        ListSubscribe => "List-Subscribe",
            "`List-Subscribe` (RFC 2369 §3.2): URLs to subscribe.";
        ListUnsubscribe => "List-Unsubscribe",
            "`List-Unsubscribe` (RFC 2369 §3.2): URLs to unsubscribe.";
        ArchivedAt => "Archived-At",
            "`Archived-At` (RFC 5064): the URL of the message in an archive.";
        ContentId => "Content-ID",
            "`Content-ID` (RFC 2045 §7): what a `cid:` URL names (RFC 2392).";
        ContentDisposition => "Content-Disposition",
            "`Content-Disposition` (RFC 2183): its `filename` names extracted files.";
        Subject => "Subject",
            "`Subject` (RFC 5322 §3.6.5): shown in a message's [`Summary`](crate::report::Summary).";
        From => "From",
            "`From` (RFC 5322 §3.6.2): shown in a message's [`Summary`](crate::report::Summary).";
        Date => "Date",
            "`Date` (RFC 5322 §3.6.1): shown in a message's [`Summary`](crate::report::Summary).";
    }
}

/// The [`FieldName`]s by the length of their names: for each length up to
/// [`BY_LENGTH_MAX`] bytes, bit `b % 32` is set for the first byte `b` of each name of that
/// length, in either case (ASCII letters differ by 32), and the names' indexes into
/// [`FieldName::ALL`] follow, up to [`BY_LENGTH_SLOTS`] of them (`u8::MAX` for none). Built at
/// compile time: a name longer than the table, or more names of one length than it has slots,
/// fails the build.
const BY_LENGTH_MAX: usize = 31;
/// How many names of one length the table holds.
const BY_LENGTH_SLOTS: usize = 4;
// Indexing in a constant runs at compile time: out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const BY_LENGTH: [(u32, [u8; BY_LENGTH_SLOTS]); BY_LENGTH_MAX + 1] = {
    let mut table = [(0u32, [u8::MAX; BY_LENGTH_SLOTS]); BY_LENGTH_MAX + 1];
    let mut i = 0;
    while i < FieldName::ALL.len() {
        let name = FieldName::ALL[i].as_str().as_bytes();
        let row = &mut table[name.len()];
        row.0 |= 1 << (name[0] % 32);
        let mut slot = 0;
        while row.1[slot] != u8::MAX {
            slot += 1;
        }
        row.1[slot] = i as u8;
        i += 1;
    }
    table
};

impl FieldName {
    /// The fields whose values are base URLs, in the order of base precedence step 2 (see the
    /// [crate docs](crate#base-precedence)).
    pub const BASE_FIELDS: [FieldName; 3] = [
        FieldName::Base,
        FieldName::ContentBase,
        FieldName::ContentLocation,
    ];

    /// The field `name` is, compared ASCII case-insensitively; `None` for any other field.
    ///
    /// Most fields of a header (`Received`, `To`, `X-…`) are none of these: their length and
    /// first byte rule them out at once, and the others are compared only with the few names
    /// of their length.
    pub fn from_bytes(name: &[u8]) -> Option<FieldName> {
        let (first_bytes, names) = BY_LENGTH.get(name.len())?;
        if first_bytes & (1 << (name.first()? % 32)) == 0 {
            return None;
        }
        names
            .iter()
            .map_while(|&index| FieldName::ALL.get(usize::from(index)))
            .find(|known| known.as_str().as_bytes().eq_ignore_ascii_case(name))
            .copied()
    }

    /// True for the base fields `Base`, `Content-Base` and `Content-Location`.
    pub fn is_base_field(self) -> bool {
        matches!(
            self,
            FieldName::Base | FieldName::ContentBase | FieldName::ContentLocation
        )
    }

    /// True for the fields holding RFC 2369 lists of `<URL>` items (`List-*`) and for
    /// `Archived-At` (RFC 5064), whose value is read the same way.
    pub fn is_list_field(self) -> bool {
        matches!(
            self,
            FieldName::ListArchive
                | FieldName::ListHelp
                | FieldName::ListOwner
                | FieldName::ListPost
                | FieldName::ListSubscribe
                | FieldName::ListUnsubscribe
                | FieldName::ArchivedAt
        )
    }

    /// True for the fields URLs are found in: the base fields, the list fields and
    /// `Content-Type` (the `URL` parameter of `message/external-body`, RFC 2017).
    pub fn holds_urls(self) -> bool {
        self.is_base_field() || self.is_list_field() || self == FieldName::ContentType
    }
}

/// The error of parsing a name that is not in a vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} \"{name}\": expected one of {expected}")]
pub struct UnknownName {
    /// What kind of name was expected (`"resolver"`, `"header field"`, …).
    pub what: &'static str,
    /// The name given.
    pub name: String,
    /// The names accepted, comma-separated.
    pub expected: String,
}

impl UnknownName {
    pub(crate) fn new(what: &'static str, name: &str, expected: &[&'static str]) -> Self {
        UnknownName {
            what,
            name: name.to_owned(),
            expected: expected.join(", "),
        }
    }
}

impl FromStr for FieldName {
    type Err = UnknownName;

    /// The field `name` is, ASCII case-insensitively (see [`FieldName::from_bytes`]).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        FieldName::from_bytes(name.as_bytes())
            .ok_or_else(|| UnknownName::new("header field", name, FieldName::NAMES))
    }
}

vocabulary! {
    /// Where a base URL came from ([base precedence](crate#base-precedence)). Serialized as the
    /// strings given on each variant.
    #[non_exhaustive]
    pub enum BaseSource {
        HtmlBase => "html:base",
            "`html:base`: the first `<base href>` of an HTML body (base precedence step 1, RFC 1808 §3.1; the HTML Standard's [frozen base URL](https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url)).";
        HeaderBase => "header:Base",
            "`header:Base`: the entity's `Base` field (base precedence step 2, RFC 1808 §3.1).";
        HeaderContentBase => "header:Content-Base",
            "`header:Content-Base`: the entity's `Content-Base` field (RFC 2110 §4.2).";
        HeaderContentLocation => "header:Content-Location",
            "`header:Content-Location`: the entity's `Content-Location` field (RFC 2557 §4–5).";
        Inherited => "inherited",
            "`inherited`: the encapsulating entity's header-level base (base precedence step 3, RFC 1808 §3.2); the base record's `inherited_from` names the entity that set it.";
        Retrieval => "retrieval",
            "`retrieval`: the URL the message was retrieved from (base precedence step 4, RFC 1808 §3.3).";
        Attachment => "attachment",
            "`attachment`: the content of a part chosen by its file name (an HTML or SVG file sent under another media type, see [`Document`](crate::report::Document)). No client shows such a part in the message: a reader reaches it by opening it, and the client opens it from a temporary file, so the document's base is that file's `file:` URL, which no one else can reach. Its relative references are reported unresolved; a `<base href>` holding an absolute URL still applies.";
        PdfBase => "pdf:base",
            "`pdf:base`: the `/Base` entry of a PDF file's `/URI` dictionary (ISO 32000-1 §12.6.4.7, Table 207), which the relative targets of its URI actions resolve against, as a PDF viewer resolves them.";
        ThisMessage => "thismessage",
            "`thismessage`: with the `mhtml` profile, and in what [`extract`](crate::extract()) writes with the `default` one, the root's base when nothing else gives one, `thismessage:/` (base precedence step 5 for that profile, RFC 2557 §5 (e)).";
        None => "none",
            "`none`: no base (base precedence step 5, RFC 1808 §3.4).";
    }
}

impl BaseSource {
    /// The source of a base taken from the base field `field`; `None` for a field that is
    /// not one of [`FieldName::BASE_FIELDS`].
    pub fn of_field(field: FieldName) -> Option<BaseSource> {
        match field {
            FieldName::Base => Some(BaseSource::HeaderBase),
            FieldName::ContentBase => Some(BaseSource::HeaderContentBase),
            FieldName::ContentLocation => Some(BaseSource::HeaderContentLocation),
            _ => None,
        }
    }
}

vocabulary! {
    /// A URL resolution algorithm. Every URL record says which one produced it.
    ///
    /// Serialized in lowercase, the strings given on each variant (`"rfc1808"`, `"rfc3986"`,
    /// `"whatwg"`); [`FromStr`] reads the same strings. The algorithms themselves are
    /// [`Resolver::resolve`] and the [`url`](crate::url) module.
    ///
    /// ### Default
    ///
    /// [`Resolver::Rfc1808`].
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Resolver {
        #[default]
        Rfc1808 => "rfc1808",
            "[RFC 1808 §4](https://www.rfc-editor.org/rfc/rfc1808#section-4) steps 1–7 over the [§2.4](https://www.rfc-editor.org/rfc/rfc1808#section-2.4) parse, exactly as written (see [`url::rfc1808::resolve`](crate::url::rfc1808::resolve)).";
        Rfc3986 => "rfc3986",
            "[RFC 3986 §5.2](https://www.rfc-editor.org/rfc/rfc3986#section-5.2), strict (see [`url::rfc3986::resolve`](crate::url::rfc3986::resolve)): the canonical form indexers want.";
        Whatwg => "whatwg",
            "The [URL Standard](https://url.spec.whatwg.org/#concept-basic-url-parser) (see [`url::whatwg::resolve`](crate::url::whatwg::resolve); ada does the parsing): the link a reader's mail client opens. Absolute references are parsed (normalized) too.";
    }
}

impl Resolver {
    /// The algorithm's name as written on the command line and in serialized records; the
    /// same as [`Resolver::as_str`].
    pub const fn name(self) -> &'static str {
        self.as_str()
    }
}

impl FromStr for Resolver {
    type Err = UnknownName;

    /// The resolver whose name is `name`, exactly (`"rfc1808"`, `"rfc3986"`, `"whatwg"`).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Resolver::ALL
            .iter()
            .find(|resolver| resolver.as_str() == name)
            .copied()
            .ok_or_else(|| UnknownName::new("resolver", name, Resolver::NAMES))
    }
}

vocabulary! {
    /// How a URL was matched to the entity of the same message that it names (the
    /// [`target`](crate::target) module says how each is compared). Serialized as the strings
    /// given on each variant.
    #[non_exhaustive]
    pub enum TargetMatch {
        Cid => "cid",
            "`cid`: a `cid:` URL equal to the entity's `Content-ID` (RFC 2392).";
        Mid => "mid",
            "`mid`: a `mid:` URL naming the message entity by its `Message-ID`, or with `/c` the entity with Content-ID `c` inside it (RFC 2392).";
        ContentLocation => "content-location",
            "`content-location`: the resolved URL equals the entity's resolved `Content-Location` (RFC 2557 §8.2 (d)).";
    }
}

/// [`FromStr`] reading exactly the serialized names of a vocabulary, the error naming what
/// was read (`"base source"`) and the names it could have been.
macro_rules! from_str_by_name {
    ($($Enum:ident => $what:literal),+ $(,)?) => {$(
        impl FromStr for $Enum {
            type Err = UnknownName;

            /// The variant whose serialized name is `name`, exactly.
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                $Enum::ALL
                    .iter()
                    .find(|variant| variant.as_str() == name)
                    .copied()
                    .ok_or_else(|| UnknownName::new($what, name, $Enum::NAMES))
            }
        }
    )+};
}

from_str_by_name!(
    BaseSource => "base source",
    TargetMatch => "target match",
    DocumentKind => "document kind",
    ChosenBy => "document reason",
);

/// Serialize and Deserialize as the serialized names, for the vocabularies whose
/// [`FromStr`] reads exactly those names.
macro_rules! serde_by_name {
    ($($Enum:ident),+) => {$(
        impl Serialize for $Enum {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $Enum {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                name.parse()
                    .map_err(|_| de::Error::unknown_variant(&name, $Enum::NAMES))
            }
        }
    )+};
}
pub(crate) use serde_by_name;

vocabulary! {
    /// What a part's body is read as to find the links a reader reaches in it (see
    /// [`Document`](crate::report::Document)). Serialized as the strings given on each variant.
    #[non_exhaustive]
    pub enum DocumentKind {
        Html => "html",
            "`html`: an HTML document (the HTML Standard's parsing rules): `text/html`, `application/xhtml+xml`, `text/x-amp-html` (AMP for Email), `text/watch-html`, or a file named `.html`, `.htm`, `.shtml`, `.xhtml` or `.xht`.";
        Svg => "svg",
            "`svg`: an SVG document (an XML document, SVG 2): `image/svg+xml`, or a file named `.svg`.";
        Text => "text",
            "`text`: plain text that a mail client shows with its URLs, addresses and `www.` hosts made links: `text/plain` and `text/enriched` (RFC 1896).";
        Pdf => "pdf",
            "`pdf`: a PDF file (ISO 32000): content that starts `%PDF-` within its first 1,024 bytes, `application/pdf`, or a file named `.pdf`. Its links are the targets of the actions a viewer runs (link annotations, the document's open action, additional actions) and the links a viewer makes of its text.";
        Calendar => "calendar",
            "`calendar`: an iCalendar object (RFC 5545): `text/calendar`, `application/ics`, or a file named `.ics`. Its links are the `URL`, `ATTACH` and `X-ALT-DESC` properties and the links a calendar application makes of the text of `DESCRIPTION`, `LOCATION`, `SUMMARY` and `COMMENT`.";
        Shortcut => "shortcut",
            "`shortcut`: a file that opens a URL when a reader opens it: a Windows Internet shortcut (`.url`), a macOS Web location (`.webloc`) or a freedesktop.org link (`.desktop` with `Type=Link`).";
        Office => "office",
            "`office`: an office document: Office Open XML (ECMA-376: `.docx`, `.xlsx`, `.pptx` and their macro-enabled and template forms), OpenDocument (`.odt`, `.ods`, `.odp`, `.odg`), or RTF (`.rtf`, or content that starts `{\\rtf`); a ZIP file is one of the first two when its members say so.";
        Archive => "archive",
            "`archive`: a ZIP file (content that starts `PK\\x03\\x04`, `application/zip`, or a file named `.zip`) that is not an office document: each member is an entity of its own ([`EntityKind::Member`](crate::EntityKind::Member)), read as a part named so would be.";
    }
}

impl DocumentKind {
    /// True for the kinds of files a reader opens whose links are records of their own kind
    /// ([`UrlSource::File`](crate::UrlSource::File)): `pdf`, `calendar`, `shortcut` and
    /// `office`. An archive's links are those of its members, and HTML, SVG and text have
    /// sources of their own.
    pub const fn is_file(self) -> bool {
        matches!(
            self,
            DocumentKind::Pdf
                | DocumentKind::Calendar
                | DocumentKind::Shortcut
                | DocumentKind::Office
        )
    }
}

vocabulary! {
    /// Why a part's body is read as a [`DocumentKind`]. Serialized as the strings given on each
    /// variant.
    #[non_exhaustive]
    pub enum ChosenBy {
        MediaType => "media_type",
            "`media_type`: its `Content-Type` names a kind of document (RFC 2045 §5).";
        FileName => "file_name",
            "`file_name`: its file name (the `filename` parameter of `Content-Disposition`, RFC 2183 §2.3, else the `name` parameter of `Content-Type`; for an archive member, its name in the archive) ends in an extension that the reader's system opens as that kind of document, whatever its `Content-Type` says: a reader who opens it sees that document.";
        Content => "content",
            "`content`: its first bytes are those of a kind of file (`%PDF-` within the first 1,024 bytes, `PK\\x03\\x04`, `{\\rtf`), whatever its `Content-Type` and file name say: viewers and filters open a file by what it holds.";
    }
}

serde_by_name!(BaseSource, Resolver, TargetMatch, DocumentKind, ChosenBy);

/// The attributes whose values hold URLs, as the HTML scan reads them (lowercase, as HTML's
/// tokenizer gives names; `xlink:href` is SVG's): what `html:<tag>@<attribute>` names in a URL
/// record. Sources: the HTML Standard's
/// [attribute index](https://html.spec.whatwg.org/multipage/indices.html#attributes-3), HTML
/// 4.01's `%URI` attributes, SVG 2's `href` and `xlink:href`, `content` of a meta refresh,
/// `style` (CSS), and the SVG presentation attributes that take a CSS `url()` (`fill`,
/// `stroke`, `filter`, `clip-path`, `mask`, `marker-start`, `marker-mid`, `marker-end`,
/// `cursor`; SVG 2 §6.6, read in SVG documents).
pub const URL_ATTRIBUTE_NAMES: &[&str] = &[
    "href",
    "src",
    "action",
    "formaction",
    "cite",
    "background",
    "longdesc",
    "usemap",
    "data",
    "codebase",
    "poster",
    "manifest",
    "profile",
    "srcset",
    "imagesrcset",
    "ping",
    "xlink:href",
    "content",
    "style",
    "fill",
    "stroke",
    "filter",
    "clip-path",
    "mask",
    "marker-start",
    "marker-mid",
    "marker-end",
    "cursor",
];

/// The SVG presentation attributes (SVG 2 §6.6) whose values can hold a CSS `url()` that a
/// browser loads: paint servers, filters, clipping paths, masks, markers and cursors.
/// Chromium loads an external document named in any of them.
pub const SVG_PRESENTATION_ATTRIBUTES: [&str; 9] = [
    "fill",
    "stroke",
    "filter",
    "clip-path",
    "mask",
    "marker-start",
    "marker-mid",
    "marker-end",
    "cursor",
];

/// `name` as [`URL_ATTRIBUTE_NAMES`] spells it (compared exactly: names are lowercase), when it
/// is one.
pub fn url_attribute_name(name: &str) -> Option<&'static str> {
    URL_ATTRIBUTE_NAMES
        .iter()
        .find(|known| **known == name)
        .copied()
}

/// The local names of the elements a URL record names most: the elements of the HTML
/// Standard's [index](https://html.spec.whatwg.org/multipage/indices.html#elements-3), HTML 4's,
/// and the SVG elements whose attributes hold URLs; sorted by byte value. A URL record names its
/// element with one of these without allocating (see [`element`]).
pub const ELEMENT_NAMES: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "base",
    "basefont",
    "bdi",
    "bdo",
    "big",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "feImage",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "iframe",
    "image",
    "img",
    "input",
    "ins",
    "isindex",
    "kbd",
    "label",
    "legend",
    "li",
    "link",
    "main",
    "map",
    "mark",
    "menu",
    "meta",
    "meter",
    "nav",
    "noframes",
    "noscript",
    "object",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "param",
    "picture",
    "pre",
    "progress",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "script",
    "search",
    "section",
    "select",
    "slot",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "style",
    "sub",
    "summary",
    "sup",
    "svg",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "use",
    "var",
    "video",
    "wbr",
];

/// An element's local name (lowercase, or SVG's camel case as tree construction gives it),
/// borrowed from [`ELEMENT_NAMES`] when it is there, else owned (a custom element).
pub fn element(name: &[u8]) -> Cow<'static, str> {
    // The elements that hold most URLs in mail first, without a search.
    let common = match name {
        b"a" => Some("a"),
        b"img" => Some("img"),
        b"td" => Some("td"),
        b"table" => Some("table"),
        b"link" => Some("link"),
        b"div" => Some("div"),
        b"span" => Some("span"),
        b"p" => Some("p"),
        b"body" => Some("body"),
        b"font" => Some("font"),
        _ => None,
    };
    if let Some(common) = common {
        return Cow::Borrowed(common);
    }
    ELEMENT_NAMES
        .binary_search_by(|known| known.as_bytes().cmp(name))
        .ok()
        .and_then(|i| ELEMENT_NAMES.get(i))
        .map_or_else(
            || Cow::Owned(String::from_utf8_lossy(name).into_owned()),
            |known| Cow::Borrowed(*known),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_are_found_in_any_case_and_only_they() {
        for &field in &FieldName::ALL {
            let name = field.as_str();
            assert_eq!(FieldName::from_bytes(name.as_bytes()), Some(field));
            assert_eq!(name.to_ascii_uppercase().parse(), Ok(field));
            assert_eq!(name.to_ascii_lowercase().parse(), Ok(field));
        }
        for name in [
            "Received",
            "Sender",
            "X-Base",
            "Content-Types",
            "Bas",
            "Dates",
            "",
        ] {
            assert_eq!(FieldName::from_bytes(name.as_bytes()), None, "{name}");
        }
        assert_eq!(
            "Sender".parse::<FieldName>().map_err(|e| e.to_string()),
            Err(format!(
                "unknown header field \"Sender\": expected one of {}",
                FieldName::NAMES.join(", ")
            ))
        );
    }

    #[test]
    fn every_field_that_holds_urls_is_a_base_field_a_list_field_or_content_type() {
        let holding: Vec<_> = FieldName::ALL
            .into_iter()
            .filter(|f| f.holds_urls())
            .collect();
        assert_eq!(holding.len(), 11);
        for field in FieldName::BASE_FIELDS {
            assert!(field.is_base_field() && !field.is_list_field());
            assert!(BaseSource::of_field(field).is_some());
        }
    }

    #[test]
    fn element_names_come_from_the_table() {
        assert!(ELEMENT_NAMES.is_sorted_by(|a, b| a.as_bytes() < b.as_bytes()));
        for name in ELEMENT_NAMES {
            assert!(matches!(element(name.as_bytes()), Cow::Borrowed(n) if n == *name));
        }
        assert!(matches!(element(b"x-custom"), Cow::Owned(n) if n == "x-custom"));
        for name in URL_ATTRIBUTE_NAMES {
            assert_eq!(url_attribute_name(name), Some(*name));
        }
        assert_eq!(url_attribute_name("HREF"), None);
        assert_eq!(url_attribute_name("class"), None);
    }

    /// Each name reads back as its variant, and serializes as its name.
    #[test]
    fn names_round_trip() -> Result<(), serde_json::Error> {
        for source in BaseSource::ALL {
            assert_eq!(source.as_str().parse(), Ok(source));
            assert_eq!(
                serde_json::to_string(&source)?,
                format!("{:?}", source.as_str())
            );
            assert_eq!(
                serde_json::from_str::<BaseSource>(&serde_json::to_string(&source)?)?,
                source
            );
        }
        for resolver in Resolver::ALL {
            assert_eq!(resolver.name().parse(), Ok(resolver));
            assert_eq!(
                serde_json::from_str::<Resolver>(&serde_json::to_string(&resolver)?)?,
                resolver
            );
        }
        for by in TargetMatch::ALL {
            assert_eq!(by.as_str().parse(), Ok(by));
            assert_eq!(
                serde_json::from_str::<TargetMatch>(&serde_json::to_string(&by)?)?,
                by
            );
        }
        assert!("RFC1808".parse::<Resolver>().is_err());
        assert!(serde_json::from_str::<BaseSource>("\"header:base\"").is_err());
        Ok(())
    }
}
