//! What [`analyze`](crate::analyze) returns: one [`Report`] per message, holding an
//! [`EntityRecord`] per entity, a [`UrlRecord`] per URL found and the [`Diagnostic`]s.
//!
//! All types serialize and deserialize with serde (a program reads the command line's JSON
//! back into them); the field names and the string forms of [`BaseSource`]
//! (`header:Base`, …), of URL sources (`html:a@href`, …) and of [`PartId`]s are a contract.
//!
//! # Wire format (NDJSON)
//!
//! `mimebase inspect --json` and `mimebase urls --json` write newline-delimited JSON: one
//! JSON object per line, UTF-8, each with a `"type"` field that says which record it is.
//! Fields are always present unless marked optional; `null` stands for "none".
//!
//! - [`MessageLine`], `"type": "message"`, one per message of `inspect --json`: `path` (the
//!   path as given, `-` for standard input), `path_bytes` (optional: the path's bytes as an
//!   array of integers 0-255, present only when they are not UTF-8, see below),
//!   `compression` (optional: `gzip`, `bzip2`, `xz` or `zstd` for an input read
//!   decompressed, see [`Compression`]; offsets then count decompressed bytes), `offset`
//!   (optional: for a message of an mbox
//!   file that does not start the file, the 0-based byte offset of its `From ` line in the
//!   file, as `scan` writes it; missing means 0) and the [`Report`]'s `message_id`,
//!   `complete` (false when a limit cut the analysis, see [`Report::complete`]), `summary`
//!   (the root message's `Subject`, `From`, `Date` and `Message-ID`: [`Summary`]), `entities`
//!   ([`EntityRecord`]), `urls` ([`UrlRecord`]) and `diagnostics` ([`Diagnostic`]).
//! - [`UrlLine`], `"type": "url"`, one per URL of `urls --json`: `path`, and `path_bytes`,
//!   `compression` and `offset` (optional, as above) and the fields of [`UrlRecord`].
//! - `"type": "error"`, one per input or message that could not be read: the `error` record
//!   of `mimebase scan` ([`ScanLine::Error`]), with `path`, `path_bytes` and `compression`
//!   (optional), `format`, `offset`, `length`, `kind` (`"read"`, or `"too_large"` for a message over
//!   `--max-message-bytes`) and a `message`.
//!
//! **Offsets.** The rule is the same in every command: a record that stands for a message
//! says where it starts. In `scan` lines and in `error` records (of every command) `offset`
//! is always present: the number whenever it is known (0 for a file that is one message,
//! that of the `From ` line for a message of an mbox file, the first one included), and
//! `null` only when nothing could be read of the path (then `format` is `null` too: there is
//! no message to place). In the `message` and `url` records of `inspect` and `urls`, which
//! always stand for a message that was read, `offset` is left out for a message that starts
//! its file, so a missing `offset` there means 0. For a compressed input (a record with
//! `compression`), every offset and length counts bytes of the decompressed stream.
//!
//! The input is named by a `path` field in every record of every command (`scan` included).
//! A JSON string is Unicode, so a path whose bytes are not UTF-8 (a file name in Latin-1 on
//! Linux) has each invalid byte as U+FFFD in `path`, and `a\xff.eml` and `a\xfe.eml` would
//! both be `"a\u{fffd}.eml"`: the record then also has `path_bytes`, the path's bytes (as
//! [`Source::path_bytes`]), by which a reader opens the file. It is left out for a UTF-8
//! path.
//!
//! ```
//! let raw = b"Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"g\">";
//! let report = mimebase::analyze(raw, &mimebase::Options::new());
//! let line = serde_json::to_string(&mimebase::report::MessageLine {
//!     path: "m.eml",
//!     path_bytes: None,
//!     compression: None,
//!     offset: None,
//!     report: &report,
//! })?;
//! let expected = serde_json::json!({
//!   "type": "message", "path": "m.eml", "message_id": null, "complete": true,
//!   "summary": {"subject": null, "from": null, "date": null, "message_id": null},
//!   "entities": [{
//!     "part": "HEADER", "kind": "message", "parent": null, "content_type": "text/html",
//!     "header": {"start": 0, "end": 44}, "body": {"start": 45, "end": 57}, "decoded_from": null,
//!     "header_base": {"url": "http://b/dir/", "source": "header:Base"},
//!     "base": {"url": "http://b/dir/", "source": "header:Base"},
//!     "document": {"kind": "html", "by": "media_type", "attachment": false}
//!   }],
//!   "urls": [
//!     {"part": "HEADER", "source": "header:Base", "field": 0, "item": 0,
//!      "reference": "http://b/dir/", "resolved": "http://b/dir/",
//!      "base": {"url": null, "source": "none"}, "base_decided": false, "resolver": "rfc1808"},
//!     {"part": "HEADER", "source": "html:a@href", "range": {"start": 9, "end": 10},
//!      "reference": "g", "resolved": "http://b/dir/g",
//!      "base": {"url": "http://b/dir/", "source": "header:Base"}, "base_decided": true,
//!      "resolver": "rfc1808", "text": "", "text_host_differs": false}
//!   ],
//!   "diagnostics": []
//! });
//! assert_eq!(serde_json::from_str::<serde_json::Value>(&line)?, expected);
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! An encapsulated message (a message entity other than the root) has a `"summary"` field of
//! its own, as the report's; the root's is the report's, and body parts have none (the field
//! is left out).
//!
//! An entity whose body was read for links has a `"document"` field ([`Document`]: what it
//! was read as, `html`, `svg`, `text`, `pdf`, `calendar`, `shortcut`, `office` or `archive`;
//! why, `media_type`, `file_name` or `content`; and whether it is an attachment); other
//! entities have none. An encrypted file that was opened has an `"opened"` field
//! ([`Opened`]). A URL record's `"source"` says where the URL was
//! found: `header:<Name>` (with `field` and `item`), `html:<tag>@<attribute>` or `html:style`,
//! `svg:<tag>@<attribute>` or `svg:style` in an SVG document, and `text` for a link a mail
//! client makes of plain text (each of the last three with a `range`, see [`UrlSource`]);
//! `<kind>:<place>` for a link inside a file a reader opens (`pdf:annot/URI`,
//! `calendar:ATTACH`, `shortcut:URL`, `office:relationship`, with `range`, `member`, `object`
//! and `page` where they apply, and `"linkified": true` for a link made of a file's text:
//! [`FileSource`]).
//!
//! Every URL record has `"base_decided"` ([`UrlRecord::base_decided`]: true when the
//! resolver took any part of the base to make the resolved URL). The `href` record of an HTML
//! `a` or `area` element also has what a reader sees of the link ([`LinkText`]): `"text"`,
//! `"title"` (only when the element has a `title` attribute) and `"text_host_differs"`.
//!
//! A URL that could not be resolved ([`Resolution`]) has `"resolved": null` and an
//! `"unresolved"` field ([`Unresolved`]: `"no_base"`, or `"resolver_error"` with the resolver's
//! message as `"error"`); an inherited base has an
//! `"inherited_from"` field (a [`PartId`]). A URL that names an entity of the same message has
//! a `"target"` field, `{"part": "2", "by": "cid"}` ([`Target`]; `by`
//! is `cid`, `mid` or `content-location`, and the [`target`](crate::target) module says how
//! each is matched); a URL naming none has no `"target"` field (it is left out rather than
//! written `null`, so that records of messages without such URLs stay as they were; a
//! reader treats a missing field as none). The URL of a `<base href>` or base header field
//! that does not set the base it would has an `"ignored"` field saying why ([`BaseIgnored`]:
//! `"not_first"`, `"in_template"`, `"foreign_content"`, `"unusable"`, `"duplicate"`,
//! `"overridden_by:header:Content-Base"`, `"not_in_profile"`); every other record has none,
//! left out as `target` is. A diagnostic is
//! `{"part": "1", "kind": "missing_close_delimiter", "message": "…"}` ([`DiagnosticKind`]
//! gives every `kind`).
//!
//! # Part identifiers
//!
//! A [`PartId`] is an IMAP section specification (RFC 3501 §6.4.5), so that an indexer can
//! fetch what it was told about:
//!
//! - a **body part** is named by its section number: `1`, `2`, `2.1`, …;
//! - a **message entity** (the root message, or a message encapsulated in a `message/rfc822`
//!   body part) is named by the section of its header: `HEADER` for the root, `2.HEADER` for
//!   the message carried by body part `2`. Its body parts are `2.1`, `2.2`, …; when it is not
//!   multipart its body is IMAP section `1` (root) or `2.1`, and the entity `HEADER` /
//!   `2.HEADER` stands for it;
//! - a **member** of an archive ([`EntityKind::Member`]) is named by the section of the part
//!   that holds the archive (as above: `2`, or `1` for the body of a root message that is
//!   itself the archive), `!/`, and its name in the archive as stored there: `2!/docs/invoice.html`;
//!   a member of an archive that is itself a member, `2!/inner.zip!/page.html`. An indexer
//!   fetches the IMAP section before the first `!/` and opens the members after it (the
//!   notation of Java's `jar:` URLs). A name that itself holds `!/` is written as it is, so
//!   such an identifier is read from the left, one archive at a time, with the entity list
//!   ([`EntityRecord::parent`]) saying where each archive ends.
//!
//! # Byte ranges
//!
//! A [`ByteRange`] is half-open, `start..end`, 0-based, in bytes. Header and body ranges of
//! entities are offsets into the raw message given to `analyze`, or, for entities inside an
//! encoded `message/rfc822` part, into that part's decoded body
//! ([`EntityRecord::decoded_from`]); the range of an HTML, SVG or text URL is an offset into
//! that part's decoded body (transfer encoding undone, then converted to UTF-8), which
//! [`analyze_with_html_text`](crate::analyze_with_html_text) returns beside the report for
//! HTML and SVG parts.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::de::Deserializer;
use serde::{Deserialize, Serialize, Serializer};

mod scan;
mod url;

pub use crate::vocab::{BaseSource, ChosenBy, DocumentKind, FieldName, Resolver, TargetMatch};
pub(crate) use scan::non_utf8_bytes;
pub use scan::{Compression, Format, ScanErrorKind, ScanLine, Source};
pub use url::{
    BaseIgnored, FileSource, LinkText, Resolution, Target, Unresolved, UrlRecord, UrlSource,
};

/// An IMAP section specification naming an entity (see the [module docs](crate::report)).
/// Serialized as a string, e.g. `"2.1"`.
///
/// Cloning one is cheap (a reference count, the text is shared): every URL record of an
/// entity names it without a copy of its own.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartId(Arc<str>);

impl Serialize for PartId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for PartId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <Cow<'de, str>>::deserialize(deserializer)?;
        Ok(PartId(Arc::from(text.as_ref())))
    }
}

impl PartId {
    /// The root message: `HEADER`.
    pub fn root() -> Self {
        PartId(Arc::from("HEADER"))
    }

    /// The identifier as written, e.g. `2.1` or `2.HEADER`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for a message entity (the root or an encapsulated message).
    pub fn is_message(&self) -> bool {
        !self.is_member() && (&*self.0 == "HEADER" || self.0.ends_with(".HEADER"))
    }

    /// True for a member of an archive ([`EntityKind::Member`]): the identifier holds `!/`.
    pub fn is_member(&self) -> bool {
        self.0.contains(Self::MEMBER_SEPARATOR)
    }

    /// What separates an archive's identifier from the name of one of its members.
    const MEMBER_SEPARATOR: &'static str = "!/";

    /// The member named `name` of the archive this entity holds: the entity's body section
    /// (`2` for body part `2`; `1` for the root message, `2.1` for `2.HEADER`, whose bodies
    /// are those IMAP sections; the entity itself for a member), `!/`, then `name`.
    pub(crate) fn member(&self, name: &str) -> Self {
        let body = if self.is_message() {
            self.child(1)
        } else {
            self.clone()
        };
        PartId(Arc::from([&*body.0, Self::MEMBER_SEPARATOR, name].concat()))
    }

    /// The section prefix under which this entity's body parts are numbered: empty for the
    /// root, `2` for both body part `2` and the message `2.HEADER` it carries.
    fn section(&self) -> &str {
        if &*self.0 == "HEADER" {
            ""
        } else {
            self.0.strip_suffix(".HEADER").unwrap_or(&self.0)
        }
    }

    /// The `index`-th (1-based) body part of this entity's multipart body.
    pub(crate) fn child(&self, index: usize) -> Self {
        let section = self.section();
        if section.is_empty() {
            PartId(Arc::from(index.to_string()))
        } else {
            PartId(Arc::from(format!("{section}.{index}")))
        }
    }

    /// The message encapsulated in this entity's body: `2` → `2.HEADER` for a body part; for
    /// a message entity whose own body is `message/rfc822` the body is IMAP part `1` of it, so
    /// `HEADER` → `1.HEADER` and `2.HEADER` → `2.1.HEADER`.
    pub(crate) fn encapsulated(&self) -> Self {
        let body = if self.is_message() {
            self.child(1)
        } else {
            self.clone()
        };
        PartId(Arc::from(format!("{}.HEADER", body.0)))
    }
}

impl fmt::Display for PartId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A half-open byte range `start..end`, 0-based (see the [module docs](crate::report) for what it
/// indexes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByteRange {
    /// First byte, 0-based.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl From<std::ops::Range<usize>> for ByteRange {
    fn from(range: std::ops::Range<usize>) -> Self {
        ByteRange {
            start: range.start,
            end: range.end,
        }
    }
}

/// A base URL and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseRecord {
    /// The absolute base URL; `None` when [`source`](Self::source) is [`BaseSource::None`].
    pub url: Option<String>,
    /// Where it came from.
    pub source: BaseSource,
    /// For [`BaseSource::Inherited`]: the entity whose own header (or the retrieval URL, for
    /// the root) set this base. `None` for every other source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<PartId>,
}

impl BaseRecord {
    /// No base (base precedence step 5, RFC 1808 §3.4).
    pub fn none() -> Self {
        BaseRecord {
            url: None,
            source: BaseSource::None,
            inherited_from: None,
        }
    }
}

/// Whether an entity is a message or a body part (see [entities](crate#entities)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    /// The root message or an encapsulated message (the body of a `message/rfc822` part).
    Message,
    /// A body part of a multipart entity.
    BodyPart,
    /// A member of an archive ([`DocumentKind::Archive`]): a file inside a ZIP part (APPNOTE.TXT
    /// §4.3), read as a part of its own. It has no header: its [`header`](EntityRecord::header)
    /// range is empty, its [`body`](EntityRecord::body) is the whole member, uncompressed, in a
    /// buffer of its own ([`decoded_from`](EntityRecord::decoded_from) names the archive), and
    /// its media type is `application/octet-stream` (RFC 2046 §4.5.1): it is read by its name
    /// in the archive and by its content. Its [`PartId`] extends the archive's
    /// ([part identifiers](crate::report#part-identifiers)).
    Member,
}

/// One entity of the message: the root, a body part or an encapsulated message, in document
/// order (a parent comes before its children).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityRecord {
    /// Its identifier.
    pub part: PartId,
    /// Message or body part.
    pub kind: EntityKind,
    /// The encapsulating entity; `None` for the root.
    pub parent: Option<PartId>,
    /// The media type, `type/subtype`, lowercase; the RFC 2045 §5.2 default (`text/plain`, or
    /// `message/rfc822` inside `multipart/digest`) when there is no usable `Content-Type`.
    pub content_type: String,
    /// The header block, without the blank line that ends it, in the raw message or in the
    /// buffer named by [`decoded_from`](Self::decoded_from).
    pub header: ByteRange,
    /// The body, in the raw message or in the buffer named by
    /// [`decoded_from`](Self::decoded_from).
    pub body: ByteRange,
    /// `None` when [`header`](Self::header) and [`body`](Self::body) index the raw message.
    /// For an entity inside a base64- or quoted-printable-encoded `message/rfc822` part: that
    /// part, whose body with its transfer encoding undone is what the ranges index (that
    /// part's own ranges say where its body is, recursively).
    pub decoded_from: Option<PartId>,
    /// The header-level base ([base precedence](crate#base-precedence) steps 2–5): what
    /// header URLs resolve against and what
    /// body parts and encapsulated messages inherit.
    pub header_base: BaseRecord,
    /// The effective base of the content: the first `<base href>` of an HTML body (base
    /// precedence step 1) when there is one, else the header-level base; for an
    /// [attachment](Document::attachment) without a `<base href>` that holds an absolute URL,
    /// [`BaseSource::Attachment`].
    pub base: BaseRecord,
    /// What the body was read as to find its links, and why; `None` (left out of the JSON) for
    /// a part whose body holds no links a reader reaches: a multipart or message entity, an
    /// image, an application type not named as a document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<Document>,
    /// For an encapsulated message (a message entity other than the root): its [`Summary`].
    /// `None` (left out of the JSON) for a body part, and for the root, whose summary is the
    /// report's ([`Report::summary`], [`Report::summary_of`]).
    /// Boxed: most entities are body parts, and the record stays small without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Box<Summary>>,
    /// For an encrypted file that was read (a PDF, a ZIP archive): how it was opened
    /// ([`Opened`]). `None` (left out of the JSON) for every other entity, and for an
    /// encrypted file that stayed closed (a [`DiagnosticKind::EncryptedFile`] diagnostic says
    /// so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<Opened>,
}

/// How an encrypted file of the message was opened, so that its links could be read.
///
/// Serialized as `{"with": "empty"}`, or `{"with": "stated", "part": "1", "password": "4821"}`.
///
/// A file encrypted with the empty user password opens without asking anything (ISO 32000-1
/// §7.6.3.3: a PDF viewer tries the empty password first). One with a password of its own is
/// opened with a password that the message itself states in one of its text or HTML parts
/// ("Password: 4821", "Senha do PDF: 123"): a sender who encrypts a file and writes its
/// password beside it wants the reader to open it, and a filter that cannot read it to pass it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "with", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Opened {
    /// `empty`: the empty user password opened it.
    Empty,
    /// `stated`: a password that the message states opened it.
    Stated {
        /// The text or HTML part that states the password.
        part: PartId,
        /// The password, as the part states it.
        password: String,
    },
}

/// What a mail client shows at the top of a message: its `Subject`, `From`, `Date` and
/// `Message-ID` fields (RFC 5322 §3.6.5, §3.6.2, §3.6.1, §3.6.4), so that a report names the
/// message it is about.
///
/// Serialized as `{"subject": …, "from": …, "date": …, "message_id": …}`, every key always
/// written: a string, or `null` when the message has no such field (a field that is present
/// but empty is `""`). Of a field given more than once, the first counts, as mail clients show
/// it.
///
/// Every value is the field's unfolded value (RFC 5322 §2.2.3), trimmed; bytes that are not
/// UTF-8 are U+FFFD. `subject` and `from` have their RFC 2047 encoded-words decoded (§5 allows
/// them in unstructured text and in the display name of an address); `from` is otherwise as
/// written, not parsed into addresses, so that a display name that looks like an address
/// (`"service@bank.example" <x@evil.example>`) is shown as the sender wrote it. `date` and
/// `message_id` are as written (no encoded-words belong there): a reader that wants a
/// timestamp parses `date` by RFC 5322 §3.3.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Summary {
    /// `Subject`, encoded-words decoded.
    #[serde(default)]
    pub subject: Option<String>,
    /// `From`, encoded-words decoded.
    #[serde(default)]
    pub from: Option<String>,
    /// `Date`, as written.
    #[serde(default)]
    pub date: Option<String>,
    /// `Message-ID`, angle brackets kept as written.
    #[serde(default)]
    pub message_id: Option<String>,
}

/// What a part's body is read as to find the links a reader reaches in it, and why.
///
/// Serialized as `{"kind": "html", "by": "media_type", "attachment": false}`.
///
/// A part is read by its media type (`text/html`, `application/xhtml+xml`, `text/x-amp-html`,
/// `text/watch-html`; `image/svg+xml`; `text/plain`, `text/enriched`), or by its file name when
/// that ends in `.html`, `.htm`, `.shtml`, `.xhtml`, `.xht` or `.svg` (ASCII case-insensitively,
/// trailing dots and spaces ignored, as Windows drops them), whatever its media type says
/// (`application/octet-stream; name="invoice.html"` is HTML: a reader who opens it sees a web
/// page). A media type that names HTML or SVG wins over the file name; a file name that names
/// HTML or SVG wins over a text type. Multipart and `message/*` entities are never read as
/// documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Document {
    /// What the body is read as.
    pub kind: DocumentKind,
    /// Why.
    pub by: ChosenBy,
    /// True for an attachment: its `Content-Disposition` is `attachment` (RFC 2183 §2.2), or
    /// it was chosen by its file name. `rewrite` leaves attachments as they are; `extract`
    /// writes them as it writes pages.
    ///
    /// Which base an attachment's relative references get follows what clients do with it.
    /// One chosen by its file name (`application/octet-stream; name="invoice.html"`) is never
    /// shown in the message: a reader reaches it by opening it, from a temporary file (a
    /// `file:` URL), so its relative references name files beside that copy and are reported
    /// unresolved ([`BaseSource::Attachment`]). One whose media type names a document keeps the
    /// base of any part: clients show such parts in the message (Thunderbird shows an HTML
    /// attachment below the body, with its `Content-Base` or `Content-Location` as the page's
    /// base), where those references reach the network.
    pub attachment: bool,
}

/// The decoded text of one HTML part, as [`analyze_with_html_text`](crate::analyze_with_html_text)
/// gives it: what the byte ranges of the part's HTML URL records index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HtmlText {
    /// The HTML part.
    pub part: PartId,
    /// Its body, transfer encoding undone, converted to UTF-8 from its charset.
    pub text: String,
}

/// What kind of problem a [`Diagnostic`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// The entity has no header block: its first line is not a header field, or a message
    /// (the root or an encapsulated one) is empty, 0 bytes.
    NoHeader,
    /// A line inside the header block is not a header field: it is skipped (with the
    /// continuation lines after it), and the fields after it are read, as GMime and MimeKit
    /// do; the block still ends at the first empty line. In a body part or an encapsulated
    /// message this may be its first line, when MIME fields follow it. Also: the message
    /// starts with a UTF-8 byte order mark, skipped (as MimeKit skips it).
    MalformedHeader,
    /// The header block is larger than [`Options::with_max_header_bytes`](crate::Options::with_max_header_bytes)
    /// (the fields after the limit are not read), or one field is (its value is not read; the
    /// fields after it are). The message names the option that raises the limit
    /// (`--max-message-bytes`, from which it follows, or `max_header_bytes`).
    HeaderTooLarge,
    /// `Content-Type` is not valid (RFC 2045 §5.1: `type/subtype`, then parameters after
    /// `;`) and does not start with a valid `type/subtype`; it is read as `text/plain`, as
    /// RFC 2045 §5.2 recommends.
    BadContentType,
    /// `Content-Type` is a valid `type/subtype` followed by something other than `;`
    /// (`text/html charset=utf-8`: a `;` lost); it is read as that type, with the parameters
    /// after the next `;` if any, as GMime reads it (Thunderbird and MimeKit read the same
    /// type).
    JunkAfterMediaType,
    /// A `multipart/*` entity has no `boundary` parameter; its body is not split.
    MissingBoundary,
    /// A multipart body has no close delimiter (RFC 2046 §5.1.1); its last part runs to the
    /// end of the body.
    MissingCloseDelimiter,
    /// A multipart body has no delimiter line at all.
    NoBodyParts,
    /// Nesting passed [`Options::with_max_depth`](crate::Options::with_max_depth).
    DepthLimit,
    /// The number of entities passed [`Options::with_max_entities`](crate::Options::with_max_entities).
    EntityLimit,
    /// Decoding passed [`Options::with_max_decoded_bytes`](crate::Options::with_max_decoded_bytes)
    /// (an encoded encapsulated message not walked, or a body not read for links). That limit
    /// follows [`Options::with_max_message_bytes`](crate::Options::with_max_message_bytes)
    /// unless set on its own, and the message names the option that raises it
    /// (`--max-message-bytes`, or `max_decoded_bytes`).
    DecodedSizeLimit,
    /// An encapsulated message in a body of unknown transfer encoding is not walked into.
    EncodedMessageNotWalked,
    /// Encoded encapsulated messages nest deeper than
    /// [`Options::with_max_encoded_levels`](crate::Options::with_max_encoded_levels).
    EncodedLevelLimit,
    /// An unknown `Content-Transfer-Encoding`; the body is used as it is.
    UnknownTransferEncoding,
    /// The body is not clean base64 or quoted-printable: bytes outside the base64 alphabet
    /// were ignored, data after the padding was not decoded, or malformed quoted-printable
    /// escapes were kept as written (RFC 2045 §6.7, §6.8); the message says which. The rest
    /// is decoded.
    BadTransferEncoding,
    /// An unknown charset label; the body is decoded as UTF-8 when its bytes are valid UTF-8,
    /// else as windows-1252, as for a body that declares no charset.
    UnknownCharset,
    /// A base header field occurs more than once; the first counts.
    DuplicateBaseHeader,
    /// A base header field is empty after whitespace and wrappers are removed.
    EmptyBaseHeader,
    /// A base header field is relative and there is no base to resolve it against, or the
    /// resolver refused it: it is reported but not used as a base.
    UnusableBaseHeader,
    /// `<base href>` could not be resolved to an absolute URL; the header-level base is used.
    UnusableHtmlBase,
    /// The retrieval URL has no scheme; it is not used.
    UnusableRetrievalUrl,
    /// An HTML part was not scanned: one of its tags holds more double-quoted attribute values
    /// than the scan takes in one tag (1,000; real markup has a handful), a shape only hostile
    /// input has, on which the HTML tokenizer's stack would grow without bound. The part has no
    /// URLs and keeps its header-level base.
    HtmlError,
    /// `<noscript>` inside `<noscript>` nested deeper than the scan follows. Not produced by
    /// this version, which scans `<noscript>` content at any depth in one pass; kept so that
    /// reports written by earlier versions still read.
    NoscriptLimit,
    /// [`rewrite`](crate::rewrite()) left a part with URLs to rewrite unchanged, because it
    /// could not be written again faithfully; the message says why.
    RewriteSkipped,
    /// A `cid:` URL names no `Content-ID` of the message (RFC 2392): a broken inline image
    /// or frame. See [`target`](crate::target) for how Content-IDs are compared.
    UnmatchedCid,
    /// An SVG document is not well-formed XML at some point (the message says where and why):
    /// a browser's XML parser stops there and shows, and links, only what came before it, so
    /// the scan reads it up to there too.
    XmlError,
    /// An SVG document's entities expand to more than four times its size (at least 1 MiB):
    /// it is read up to where that limit was reached.
    XmlEntityLimit,
    /// Finding the links of a plain-text body stopped early: the text holds more would-be
    /// URLs that do not parse than the link finder checks (four times the text's size, plus
    /// 64 KiB), a shape only text made to waste time has; the links after them are not
    /// reported.
    TextLimit,
    /// A file a reader opens (a PDF, a calendar, a shortcut, an office document, an archive) is
    /// broken where a viewer would give up or read past: the message says what was read and
    /// what not. The rest of the file is read as far as it goes.
    FileError,
    /// A limit of the file readers cut the reading of a file: its decompressed bytes, its
    /// objects or members, how deep archives nest, its links (the message says which, and the
    /// option that raises it). What came before the limit is reported.
    FileLimit,
    /// An encrypted file (a PDF, a ZIP archive) stayed closed: neither the empty password nor
    /// any password the message states opens it, so its links are not read.
    EncryptedFile,
    /// The message has more URLs than [`Options::with_max_urls`](crate::Options::with_max_urls):
    /// this entity's URLs past the limit are not recorded (the message says how many, and
    /// that `--max-urls`, `max_urls` in Python, raises the limit). Its bases are still
    /// reported.
    UrlLimit,
}

impl DiagnosticKind {
    /// True for the kinds that say a limit cut the analysis, so that something the message
    /// holds was not read: fields of a header past its size limit, entities past the depth,
    /// entity or encoded-level limits, bodies past the decoded-size limit, URLs past the URL
    /// limit, an HTML part the scan refused, a file reader's limit, an encrypted file that stayed
    /// closed. A report with any of them is not
    /// [`complete`](Report::complete).
    pub fn is_limit(self) -> bool {
        matches!(
            self,
            DiagnosticKind::HeaderTooLarge
                | DiagnosticKind::DepthLimit
                | DiagnosticKind::EntityLimit
                | DiagnosticKind::DecodedSizeLimit
                | DiagnosticKind::EncodedLevelLimit
                | DiagnosticKind::HtmlError
                | DiagnosticKind::NoscriptLimit
                | DiagnosticKind::UrlLimit
                | DiagnosticKind::TextLimit
                | DiagnosticKind::XmlEntityLimit
                | DiagnosticKind::FileLimit
                | DiagnosticKind::EncryptedFile
        )
    }
}

/// A problem found in the message. Never fatal: the walk goes on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The entity it concerns; `None` for the message as a whole.
    pub part: Option<PartId>,
    /// What kind of problem.
    pub kind: DiagnosticKind,
    /// A sentence for people, lowercase, without a trailing period.
    pub message: String,
}

/// Everything [`analyze`](crate::analyze) found in one message.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Report {
    /// The root message's `Message-ID` field (RFC 5322 §3.6.4), unfolded and trimmed, angle
    /// brackets kept as written; `None` when there is none.
    pub message_id: Option<String>,
    /// True when no limit cut the analysis: every entity, field, body and URL the message
    /// holds was read. False when one did; the diagnostics whose kind
    /// [`is_limit`](DiagnosticKind::is_limit) say which and where. A mail filter that must
    /// see every link should treat an incomplete report as a failure (fail closed), or
    /// analyze the message again with higher limits. A report read from JSON that lacks the
    /// field is taken as incomplete.
    #[serde(default)]
    pub complete: bool,
    /// The root message's [`Summary`]: its `Subject`, `From`, `Date` and `Message-ID`
    /// (`message_id` is [`Report::message_id`] again, so that the summary is whole). A report
    /// read from JSON that lacks the field has a summary of nothing.
    #[serde(default)]
    pub summary: Summary,
    /// Every entity, in document order.
    pub entities: Vec<EntityRecord>,
    /// Every URL, in document order of entities; within one entity header URLs first, then
    /// HTML URLs in document order.
    pub urls: Vec<UrlRecord>,
    /// Every problem found, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// The [`Summary`] of the message entity `part`: [`Report::summary`] for the root, the
    /// entity's own for an encapsulated message; `None` for a body part or a part the report
    /// does not hold.
    pub fn summary_of(&self, part: &PartId) -> Option<&Summary> {
        if part.as_str() == "HEADER" {
            return Some(&self.summary);
        }
        self.entities
            .iter()
            .find(|entity| entity.part == *part)
            .and_then(|entity| entity.summary.as_deref())
    }
}

/// One line of `inspect --json`: a whole message (see the [module docs](crate::report)).
/// Serialized as `{"type": "message", "path": …, "entities": […], "urls": […],
/// "diagnostics": […]}`.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(tag = "type", rename = "message")]
pub struct MessageLine<'a> {
    /// The input as named on the command line, as UTF-8 (lossily); `-` for standard input.
    pub path: &'a str,
    /// The path's bytes when they are not UTF-8 ([`Source::path_bytes`]); `None` (left out
    /// of the JSON) when `path` is the path exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<&'a [u8]>,
    /// How the input was compressed ([`Source::compression`]): then `offset` and the byte
    /// ranges count bytes of the decompressed stream. `None` (left out of the JSON) for an
    /// input read as it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<Compression>,
    /// For a message of an mbox file after the first: the 0-based byte offset of its `From `
    /// line in the file (see the [`scan`](crate::scan) module for the boundaries). `None`
    /// (left out of the JSON) for a message that starts its file: a file that is one message
    /// and the first message of an mbox, so that a file holding one message is written
    /// alike whether or not it starts with a `From ` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// What was found; its fields are written at the top level of the line.
    #[serde(flatten)]
    pub report: &'a Report,
}

/// One line of `urls --json`: one URL (see the [module docs](crate::report)). Serialized as
/// `{"type": "url", "path": …}` followed by the fields of [`UrlRecord`].
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(tag = "type", rename = "url")]
pub struct UrlLine<'a> {
    /// The input as named on the command line, as UTF-8 (lossily); `-` for standard input.
    pub path: &'a str,
    /// The path's bytes when they are not UTF-8, as in [`MessageLine::path_bytes`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<&'a [u8]>,
    /// How the input was compressed, as in [`MessageLine::compression`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<Compression>,
    /// For a URL of a message of an mbox file after the first: the 0-based byte offset of
    /// the message's `From ` line in the file; `None` (left out of the JSON) as in
    /// [`MessageLine::offset`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// The URL; its fields are written at the top level of the line.
    #[serde(flatten)]
    pub url: &'a UrlRecord,
}
