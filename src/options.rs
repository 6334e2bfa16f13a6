//! [`Options`]: the caller's knobs for [`analyze`](crate::analyze), each with a documented default.
//!
//! Limits exist so that nothing a message contains can exhaust time or memory;
//! reaching one is a [`Diagnostic`](crate::Diagnostic) on the entity where it happened, and the
//! walk goes on with the rest of the message.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use crate::vocab::{Resolver, UnknownName, serde_by_name, vocabulary};

vocabulary! {
    /// Which rules of [base precedence](crate#base-precedence) apply: how step 2 reads the base
    /// header fields, and the root's base when nothing gives one.
    ///
    /// Serialized as the strings given on each variant (`"default"`, `"rfc1808"`, `"mhtml"`);
    /// [`FromStr`] reads the same strings.
    ///
    /// ### Default
    ///
    /// [`Profile::Default`].
    #[derive(Default)]
    #[non_exhaustive]
    pub enum Profile {
        #[default]
        Default => "default",
            "`default`: the steps as listed in the crate docs: `Base`, else `Content-Base`, else `Content-Location` at step 2.";
        Rfc1808 => "rfc1808",
            "`rfc1808`: RFC 1808 alone: step 2 takes only `Base`; `Content-Base` and `Content-Location` are still reported and resolved as header URLs, but are not bases.";
        Mhtml => "mhtml",
            "`mhtml`: RFC 2557 §5 alone: step 2 takes `Content-Location`, else `Content-Base` (which §12 lets receivers accept), never `Base`; where the root has no base, it is `thismessage:/` (§5 (e)), so that the parts of a `multipart/related` resolve to each other.";
    }
}

impl Profile {
    /// The name as written on the command line and in serialized records; the same as
    /// [`Profile::as_str`].
    pub const fn name(self) -> &'static str {
        self.as_str()
    }
}

impl FromStr for Profile {
    type Err = UnknownName;

    /// The profile whose name is `name`, exactly (`"default"`, `"rfc1808"`, `"mhtml"`).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Profile::ALL
            .iter()
            .find(|profile| profile.as_str() == name)
            .copied()
            .ok_or_else(|| UnknownName::new("profile", name, Profile::NAMES))
    }
}

serde_by_name!(Profile);

/// How [`analyze`](crate::analyze) works: retrieval URL, resolver, limits.
///
/// Build it with [`Options::new`] (or [`Default`]) and the `with_*` methods:
///
/// ```
/// use mimebase::Options;
/// let options = Options::new()
///     .with_retrieval_url("https://archive.example/msg/42")
///     .with_max_depth(32);
/// assert_eq!(options.max_depth(), 32);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Options {
    retrieval_url: Option<String>,
    resolver: Resolver,
    profile: Profile,
    max_depth: usize,
    max_entities: Option<usize>,
    max_message_bytes: usize,
    max_header_bytes: Option<usize>,
    max_decoded_bytes: Option<usize>,
    max_encoded_levels: usize,
    max_urls: usize,
    text_links: bool,
    file_links: bool,
    max_file_bytes: usize,
    max_file_objects: usize,
    max_archive_depth: usize,
    max_archive_members: usize,
    max_passwords: usize,
    /// The root's base is `thismessage:/` when nothing else gives one, under the `default`
    /// profile too: what [`extract`](crate::extract()) asks for (see there). Not an option of
    /// its own: `analyze` reports what the message says, `extract` renders it.
    #[serde(skip)]
    thismessage_root: bool,
}

/// The memory one entity may take while a message is analyzed, in bytes: its record, its
/// header's kept fields, its bases and identifiers, its URL records and the command line's
/// output, with room to spare (`docs/PERFORMANCE.md` has the measurements behind it).
const ENTITY_BYTES: usize = 2048;

impl Default for Options {
    fn default() -> Self {
        Options {
            retrieval_url: None,
            resolver: Resolver::default(),
            profile: Profile::default(),
            max_depth: 100,
            max_entities: None,
            max_message_bytes: 64 << 20,
            max_header_bytes: None,
            max_decoded_bytes: None,
            max_encoded_levels: 4,
            max_urls: 100_000,
            text_links: true,
            file_links: true,
            max_file_bytes: 32 << 20,
            max_file_objects: 200_000,
            max_archive_depth: 4,
            max_archive_members: 1_000,
            max_passwords: 16,
            thismessage_root: false,
        }
    }
}

impl Options {
    /// The defaults: no retrieval URL, the RFC 1808 resolver and the limits documented on each
    /// `with_*` method.
    pub fn new() -> Self {
        Self::default()
    }

    /// The URL the message was retrieved from: the root's base when no header or `<base>`
    /// gives one (base precedence step 4, RFC 1808 §3.3), and so, through inheritance, every
    /// part's.
    ///
    /// A value without a scheme cannot serve as a base; [`analyze`](crate::analyze) then reports
    /// a diagnostic and behaves as if none was given.
    ///
    /// ### Default
    ///
    /// None (base precedence step 5: no base).
    pub fn with_retrieval_url(mut self, url: impl Into<String>) -> Self {
        self.retrieval_url = Some(url.into());
        self
    }

    /// The same options without a retrieval URL ([`Options::with_retrieval_url`] undone).
    pub fn without_retrieval_url(mut self) -> Self {
        self.retrieval_url = None;
        self
    }

    /// The resolution algorithm for every URL.
    ///
    /// ### Default
    ///
    /// [`Resolver::Rfc1808`].
    pub fn with_resolver(mut self, resolver: Resolver) -> Self {
        self.resolver = resolver;
        self
    }

    /// The rules of [base precedence](crate#base-precedence).
    ///
    /// ### Default
    ///
    /// [`Profile::Default`].
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// How deep entities may nest: the root message is at depth 0, each body part and each
    /// encapsulated message one deeper than its parent. An entity deeper than this is not
    /// walked into; a diagnostic says so.
    ///
    /// ### Default
    ///
    /// 100 levels.
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// How many entities (root, body parts and encapsulated messages together) are walked;
    /// the rest of the message is skipped with a diagnostic, and the report is not
    /// [`complete`](crate::Report::complete).
    ///
    /// ### Default
    ///
    /// Set by the size of each message, so that the memory its entities take stays within
    /// 64 MiB plus four times the message: (64 MiB + 4 × the message's bytes) / 2 KiB, more
    /// than an entity takes while it is analyzed, its URL records and the command line's
    /// output included. A message of 64 MiB may then hold 163 840 entities,
    /// one of 300 KB 33 400: a message reaches the limit only when its entities average
    /// fewer than 512 bytes, which no mail but a hostile one does. See
    /// [`Options::entity_limit`].
    pub fn with_max_entities(mut self, count: usize) -> Self {
        self.max_entities = Some(count);
        self
    }

    /// The largest header block of one entity, in bytes; fields past it are not read and a
    /// diagnostic says so. A single field longer than this (a 2 MB `X-Long:` line) is
    /// passed over, its value not read and its bytes not counted against the block, with a
    /// diagnostic, so that the fields after it (`Content-Type`, the base fields) are still
    /// read.
    ///
    /// The memory a header takes does not follow its size: only the fields the analysis
    /// reads are kept (the base fields, `Content-Type`, `Content-Transfer-Encoding`,
    /// `Content-ID`, `Content-Disposition`, `Message-ID`, the `List-*` fields,
    /// `Archived-At`), of each name the first two, and past those only fields holding URLs,
    /// as many in the whole message as [`Options::with_max_urls`] URL records (the rest are
    /// counted in a [`DiagnosticKind::UrlLimit`](crate::DiagnosticKind::UrlLimit) diagnostic).
    ///
    /// ### Default
    ///
    /// [`Options::with_max_message_bytes`]: no header of a message that size reaches it, and
    /// a diagnostic for one that does (a header decoded out of an encapsulated message)
    /// names `max_message_bytes` as what raises it.
    pub fn with_max_header_bytes(mut self, bytes: usize) -> Self {
        self.max_header_bytes = Some(bytes);
        self
    }

    /// The total number of bytes that decoding may produce for one message: encoded
    /// encapsulated messages, and the bodies read for links (HTML, SVG and plain text,
    /// transfer encoding undone). A part whose
    /// decoding would pass it is not walked or scanned, with a diagnostic.
    ///
    /// ### Default
    ///
    /// [`Options::with_max_message_bytes`]. Decoding a body once never produces more than
    /// the body (base64 decodes to at most 3/4 of its bytes, quoted-printable and uuencode
    /// to at most as many), so the bodies of any message no larger than that fit; only a
    /// message that decodes what it already decoded (an encoded encapsulated message whose
    /// own bodies are encoded) can pass it, and raising `max_message_bytes` raises it too.
    pub fn with_max_decoded_bytes(mut self, bytes: usize) -> Self {
        self.max_decoded_bytes = Some(bytes);
        self
    }

    /// The largest message the caller reads, in bytes: the size limits that follow a
    /// message's size are derived from it, unless set on their own: the header block
    /// ([`Options::with_max_header_bytes`]) and the bytes decoding may produce
    /// ([`Options::with_max_decoded_bytes`]). [`analyze`](crate::analyze) does not refuse a
    /// larger message (reading one is the caller's decision: the command line's
    /// `--max-message-bytes`, the batch engine's
    /// [`Batch::with_max_message_bytes`](crate::scan::Batch::with_max_message_bytes), which
    /// sets this too); it analyzes it within these limits. A diagnostic for a limit derived
    /// from it says `--max-message-bytes raises it` (the command line's name; the Python
    /// package's keyword argument is `max_message_bytes`).
    ///
    /// ### Default
    ///
    /// 64 MiB (67 108 864 bytes), the command line's default.
    pub fn with_max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// How many base64- or quoted-printable-encoded encapsulated messages may enclose one
    /// another. Each level is decoded into a buffer of its own (counted against
    /// [`Options::with_max_decoded_bytes`]); a level past this one is not walked, with a
    /// diagnostic.
    ///
    /// ### Default
    ///
    /// 4 levels.
    pub fn with_max_encoded_levels(mut self, levels: usize) -> Self {
        self.max_encoded_levels = levels;
        self
    }

    /// How many URL records one message may have (header, HTML, SVG and text URLs together, in the
    /// order of [`Report::urls`](crate::Report::urls)). Past it, URLs are no longer recorded,
    /// and each entity that had more gets a
    /// [`DiagnosticKind::UrlLimit`](crate::DiagnosticKind::UrlLimit) diagnostic with the number
    /// left out; everything else goes on as before: the rest of the message is still split,
    /// every entity and its bases are reported (a `<base href>` past the limit still sets its
    /// part's base), and other diagnostics still come. [`rewrite`](crate::rewrite()) leaves an
    /// HTML part that lost URLs to the limit unchanged (rewriting only the URLs that were
    /// recorded would leave it half rewritten).
    ///
    /// A record costs memory (about 250 bytes with its strings), and a message can
    /// hold millions of URLs in a few tens of megabytes of HTML: without a bound, memory would
    /// follow what the message holds rather than its size.
    ///
    /// ### Default
    ///
    /// 100 000 URL records. Real mail stays far below: a newsletter holds tens to a few
    /// hundred links, a Wikipedia article saved as MHTML about 900, a very long web page
    /// saved as MHTML a few thousand. The default leaves a margin of more than ten times that
    /// while bounding the records of one message to some 25 MB.
    pub fn with_max_urls(mut self, count: usize) -> Self {
        self.max_urls = count;
        self
    }

    /// Whether the links a mail client makes of plain text are reported: URLs, `www.` hosts and
    /// e-mail addresses in `text/plain` and `text/enriched` bodies
    /// ([`UrlSource::Text`](crate::UrlSource::Text) records, see the
    /// [`text`](crate::report::UrlSource::Text) source for the rules). A consumer that wants only
    /// what headers and HTML hold turns them off; the text bodies are then not read at all,
    /// and their entities have no [`document`](crate::EntityRecord::document).
    ///
    /// ### Default
    ///
    /// `true`: a reader reaches these links with one click, as those of an HTML body.
    pub fn with_text_links(mut self, report: bool) -> Self {
        self.text_links = report;
        self
    }

    /// Whether the links inside the files a reader opens from the message are reported: PDF
    /// files, calendar invitations, shortcut files, office documents, and the members of ZIP
    /// archives, read as parts of their own ([`DocumentKind`](crate::DocumentKind) says which
    /// parts are read as what). Turned off, such parts are not read at all: their entities
    /// have no [`document`](crate::EntityRecord::document), and archives have no members.
    ///
    /// ### Default
    ///
    /// `true`: a reader reaches these links by opening the attachment and clicking, and
    /// phishing puts its link there because filters that read only the message miss it.
    pub fn with_file_links(mut self, report: bool) -> Self {
        self.file_links = report;
        self
    }

    /// The most bytes that decompressing one file may produce: a PDF's streams (its object
    /// streams, its cross-reference streams, the page contents whose text is read) or an
    /// archive's members together. A stream or member that would pass it is not read, with a
    /// [`DiagnosticKind::FileLimit`](crate::DiagnosticKind::FileLimit) diagnostic, and the
    /// rest of the file is read as far as the limit allows. An archive's members also count
    /// against [`Options::with_max_decoded_bytes`], since they become entities of the message.
    ///
    /// Deflate compresses a run of zeros a thousand times, so a file of a few kilobytes can
    /// claim gigabytes: without this bound, memory would follow what a file claims rather than
    /// the message's size.
    ///
    /// ### Default
    ///
    /// 32 MiB (33 554 432 bytes) per file: more than the text and structure of any document
    /// mail carries (images, which are not decompressed, are most of a large PDF).
    pub fn with_max_file_bytes(mut self, bytes: usize) -> Self {
        self.max_file_bytes = bytes;
        self
    }

    /// The most objects read of one PDF file (ISO 32000-1 §7.3.10): past it the file is not
    /// read, with a [`DiagnosticKind::FileLimit`](crate::DiagnosticKind::FileLimit) diagnostic.
    ///
    /// ### Default
    ///
    /// 200 000 objects: a thousand-page document has some tens of thousands.
    pub fn with_max_file_objects(mut self, count: usize) -> Self {
        self.max_file_objects = count;
        self
    }

    /// How deep archives may nest: a ZIP part is at depth 1, a ZIP member of it at depth 2.
    /// The members of an archive deeper than this are not read, with a
    /// [`DiagnosticKind::FileLimit`](crate::DiagnosticKind::FileLimit) diagnostic; the
    /// entity limits of the message apply too ([`Options::with_max_depth`],
    /// [`Options::with_max_entities`]).
    ///
    /// ### Default
    ///
    /// 4 levels: archives inside archives are a way to hide a file from scanners that open
    /// one level, and no sender who means to be read nests deeper.
    pub fn with_max_archive_depth(mut self, depth: usize) -> Self {
        self.max_archive_depth = depth;
        self
    }

    /// How many members of one archive are read; the rest are not, with a
    /// [`DiagnosticKind::FileLimit`](crate::DiagnosticKind::FileLimit) diagnostic.
    ///
    /// ### Default
    ///
    /// 1 000 members.
    pub fn with_max_archive_members(mut self, count: usize) -> Self {
        self.max_archive_members = count;
        self
    }

    /// How many passwords stated in the message are tried on each encrypted file (a PDF or
    /// a ZIP archive that the empty password does not open), in the order the message states
    /// them. Each try of a PDF with AES-256 costs a few hashes, so the list is bounded: past
    /// it, the rest are not tried.
    ///
    /// ### Default
    ///
    /// 16 passwords.
    pub fn with_max_passwords(mut self, count: usize) -> Self {
        self.max_passwords = count;
        self
    }

    /// These options with the root's base `thismessage:/` when nothing else gives one under
    /// the `default` profile as under `mhtml` (RFC 2557 §5 (e)); `rfc1808` keeps none.
    pub(crate) fn with_thismessage_root(mut self) -> Self {
        self.thismessage_root = true;
        self
    }

    /// True when the root's base falls back to `thismessage:/` (RFC 2557 §5 (e)): with the
    /// `mhtml` profile, and with the `default` one for [`extract`](crate::extract()).
    pub(crate) fn has_thismessage_root(&self) -> bool {
        match self.profile {
            Profile::Mhtml => true,
            Profile::Default => self.thismessage_root,
            Profile::Rfc1808 => false,
        }
    }

    /// See [`Options::with_text_links`].
    pub fn text_links(&self) -> bool {
        self.text_links
    }

    /// See [`Options::with_file_links`].
    pub fn file_links(&self) -> bool {
        self.file_links
    }

    /// See [`Options::with_max_file_bytes`].
    pub fn max_file_bytes(&self) -> usize {
        self.max_file_bytes
    }

    /// See [`Options::with_max_file_objects`].
    pub fn max_file_objects(&self) -> usize {
        self.max_file_objects
    }

    /// See [`Options::with_max_archive_depth`].
    pub fn max_archive_depth(&self) -> usize {
        self.max_archive_depth
    }

    /// See [`Options::with_max_archive_members`].
    pub fn max_archive_members(&self) -> usize {
        self.max_archive_members
    }

    /// See [`Options::with_max_passwords`].
    pub fn max_passwords(&self) -> usize {
        self.max_passwords
    }

    /// See [`Options::with_retrieval_url`].
    pub fn retrieval_url(&self) -> Option<&str> {
        self.retrieval_url.as_deref()
    }

    /// See [`Options::with_resolver`].
    pub fn resolver(&self) -> Resolver {
        self.resolver
    }

    /// See [`Options::with_profile`].
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// See [`Options::with_max_depth`].
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// See [`Options::with_max_entities`]: the number set, or `None` for the default, which
    /// depends on the message ([`Options::entity_limit`]).
    pub fn max_entities(&self) -> Option<usize> {
        self.max_entities
    }

    /// How many entities a message of `message_bytes` bytes may have walked: the number set
    /// with [`Options::with_max_entities`], else (64 MiB + 4 × `message_bytes`) / 2 KiB.
    pub fn entity_limit(&self, message_bytes: usize) -> usize {
        self.max_entities.unwrap_or_else(|| {
            message_bytes.saturating_mul(4).saturating_add(64 << 20) / ENTITY_BYTES
        })
    }

    /// See [`Options::with_max_header_bytes`]: the number set, else
    /// [`Options::max_message_bytes`].
    pub fn max_header_bytes(&self) -> usize {
        self.max_header_bytes.unwrap_or(self.max_message_bytes)
    }

    /// See [`Options::with_max_decoded_bytes`]: the number set, else
    /// [`Options::max_message_bytes`].
    pub fn max_decoded_bytes(&self) -> usize {
        self.max_decoded_bytes.unwrap_or(self.max_message_bytes)
    }

    /// See [`Options::with_max_message_bytes`].
    pub fn max_message_bytes(&self) -> usize {
        self.max_message_bytes
    }

    /// What a diagnostic for the header-size limit names as raising it: the option that set
    /// it (`max_header_bytes`), else `--max-message-bytes`, from which it is derived.
    pub(crate) fn header_limit_option(&self) -> &'static str {
        if self.max_header_bytes.is_some() {
            "max_header_bytes"
        } else {
            "--max-message-bytes"
        }
    }

    /// What a diagnostic for the decoded-size limit names as raising it: the option that set
    /// it (`max_decoded_bytes`), else `--max-message-bytes`, from which it is derived.
    pub(crate) fn decoded_limit_option(&self) -> &'static str {
        if self.max_decoded_bytes.is_some() {
            "max_decoded_bytes"
        } else {
            "--max-message-bytes"
        }
    }

    /// See [`Options::with_max_encoded_levels`].
    pub fn max_encoded_levels(&self) -> usize {
        self.max_encoded_levels
    }

    /// See [`Options::with_max_urls`].
    pub fn max_urls(&self) -> usize {
        self.max_urls
    }
}
