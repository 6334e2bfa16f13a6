//! `mimebase_analyze` and the `mimebase_report` it makes: completeness, URL records, entity
//! records and the JSON record, read through accessors.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::OnceLock;

use mimebase::report::FieldName;
use mimebase::scan::{ScanLine, Source};
use mimebase::{DocumentKind, EntityKind, EntityRecord, Opened, Report, Summary, UrlSource};

use crate::options::mimebase_options;
use crate::{boundary_any, bytes, mimebase_status, mimebase_str};

/// What `mimebase_analyze` found in one message. Opaque: read with the `mimebase_report_*`
/// accessors, freed with `mimebase_report_free`. Every string they hand out belongs to it.
#[allow(non_camel_case_types)]
pub struct mimebase_report {
    /// The analysis.
    report: Report,
    /// The size of the message, in bytes, for the JSON record's `length`.
    length: u64,
    /// The serialized source of each URL record (`html:a@href`), by index into
    /// `source_names`: a message has few distinct ones.
    sources: Vec<u32>,
    /// The distinct serialized sources.
    source_names: Vec<Box<str>>,
    /// `URL_BASE_DECIDED` and `URL_IMAGE` of each URL record.
    flags: Vec<u8>,
    /// The serialized `ignored` of the URL records that have one, by index into the records,
    /// in order: few records have one.
    ignored: Vec<(usize, Box<str>)>,
    /// The JSON record, made on first request.
    json: OnceLock<Box<str>>,
}

/// A flag of `mimebase_report.flags`: `mimebase_url.base_decided`.
const URL_BASE_DECIDED: u8 = 1;
/// A flag of `mimebase_report.flags`: `mimebase_url.is_image`.
const URL_IMAGE: u8 = 2;

/// One URL of a report, filled by `mimebase_report_url`. The caller owns the struct; its
/// strings belong to the report and are valid until `mimebase_report_free`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mimebase_url {
    /// The entity the URL was found in, by its IMAP section number: `HEADER` for the root
    /// message's header, `2.1` for a body part, `2.HEADER` for a message inside part 2.
    pub part: mimebase_str,
    /// Where in that entity: `header:<Field-Name>` (`header:List-Unsubscribe`),
    /// `html:<tag>@<attribute>` (`html:a@href`, `html:img@srcset` for each candidate),
    /// `html:style` (a CSS `url()` in a `<style>` element), `svg:<tag>@<attribute>`,
    /// `svg:style`, or `text` (a link a mail client makes of plain text).
    pub source: mimebase_str,
    /// The URL as written (unfolded, entity-decoded, trimmed).
    pub reference: mimebase_str,
    /// The absolute URL it resolves to; "none" when it is not resolved (see
    /// `unresolved`).
    pub resolved: mimebase_str,
    /// Why there is no resolved URL: `no_base` (a relative reference and no base) or
    /// `resolver_error` (the resolver refused it); "none" when it is resolved.
    pub unresolved: mimebase_str,
    /// The base URL it was resolved against; "none" when there was none (`base_source` is
    /// `none`, or `attachment`: a document a reader opens from a temporary file).
    pub base: mimebase_str,
    /// Where that base came from: `html:base`, `header:Base`, `header:Content-Base`,
    /// `header:Content-Location`, `inherited`, `retrieval`, `attachment`, `thismessage` or
    /// `none`.
    pub base_source: mimebase_str,
    /// The entity of the same message the URL names (a `cid:` or `mid:` URL, or one equal to
    /// an entity's `Content-Location`), as `part` is written; "none" when it
    /// names none.
    pub target_part: mimebase_str,
    /// 1 when the base decided where the URL leads: the resolver took any part of the base to
    /// make the resolved URL (a relative reference such as `x.html`, a scheme-relative one such
    /// as `//host/x`, or, for the `whatwg` resolver, `http:x` against an `http` base, which
    /// takes the base's host): the JSON record's `base_decided`. 0 otherwise: an absolute URL,
    /// a plain-text link, an unresolved reference.
    pub base_decided: c_int,
    /// 1 when the URL is an image the reader's client loads to show the message:
    /// `img@src`, `img@srcset`, `source@srcset`, `input@src`, `image@href`,
    /// `image@xlink:href`, `feImage@href`, `feImage@xlink:href`, `video@poster`,
    /// `link@imagesrcset` and the `background` attribute, in HTML or SVG. 0 for every other
    /// source, CSS `url()`s included (a style sheet's URL may be an image, a font or another
    /// sheet).
    pub is_image: c_int,
}

/// The summary of a message of a report (the root message, or a message encapsulated in it),
/// filled by `mimebase_report_summary`: the first of each of its `Subject`, `From`, `Date` and
/// `Message-ID` fields (RFC 5322 §3.6), unfolded and trimmed, each "none" when the message has
/// no such field. The caller owns the struct; its strings belong to the report and are valid
/// until `mimebase_report_free`. The JSON record's `summary` (the root's) and the entity
/// records' `summary` (an encapsulated message's) hold the same.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mimebase_summary {
    /// `Subject`, its RFC 2047 encoded-words decoded.
    pub subject: mimebase_str,
    /// `From`, its RFC 2047 encoded-words decoded, otherwise as written (not parsed into
    /// addresses).
    pub from: mimebase_str,
    /// `Date`, as written.
    pub date: mimebase_str,
    /// `Message-ID`, as written, angle brackets kept.
    pub message_id: mimebase_str,
}

impl mimebase_summary {
    /// Every field "none".
    const NONE: mimebase_summary = mimebase_summary {
        subject: mimebase_str::NONE,
        from: mimebase_str::NONE,
        date: mimebase_str::NONE,
        message_id: mimebase_str::NONE,
    };

    fn of(summary: &Summary) -> mimebase_summary {
        mimebase_summary {
            subject: mimebase_str::of_option(summary.subject.as_deref()),
            from: mimebase_str::of_option(summary.from.as_deref()),
            date: mimebase_str::of_option(summary.date.as_deref()),
            message_id: mimebase_str::of_option(summary.message_id.as_deref()),
        }
    }
}

/// One entity of a report (the root message, a body part, an encapsulated message), filled by
/// `mimebase_report_entity`. The caller owns the struct; its strings belong to the report
/// and are valid until `mimebase_report_free`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mimebase_entity {
    /// Its IMAP section number (`HEADER`, `1`, `2.1`, `2.HEADER`).
    pub part: mimebase_str,
    /// `message` (the root or an encapsulated message) or `body_part`.
    pub kind: mimebase_str,
    /// The entity it is in, as `part` is written; "none" for the root.
    pub parent: mimebase_str,
    /// Its media type, `type/subtype`, lowercase (`text/plain` when it has no usable
    /// `Content-Type`).
    pub content_type: mimebase_str,
    /// The effective base of its content: the first `<base href>` of an HTML body, else the
    /// header-level base; "none" when it has none (`base_source` is `none` or `attachment`).
    pub base: mimebase_str,
    /// Where `base` came from (the names of `mimebase_url.base_source`).
    pub base_source: mimebase_str,
    /// The header-level base: what its header URLs resolve against and its parts inherit;
    /// "none" when it has none.
    pub header_base: mimebase_str,
    /// Where `header_base` came from.
    pub header_base_source: mimebase_str,
    /// What its body is read as to find links: `html`, `svg` or `text`; "none" for a part
    /// whose body holds no links a reader reaches (multipart, message, image, …).
    pub document_kind: mimebase_str,
    /// Why it is read so: `media_type` or `file_name`; "none" when it is not read.
    pub document_by: mimebase_str,
    /// 1 when it is an attachment (`Content-Disposition: attachment`, or a document found by
    /// its file name), 0 otherwise.
    pub attachment: c_int,
}

impl mimebase_url {
    /// Every field "none" or 0.
    const NONE: mimebase_url = mimebase_url {
        part: mimebase_str::NONE,
        source: mimebase_str::NONE,
        reference: mimebase_str::NONE,
        resolved: mimebase_str::NONE,
        unresolved: mimebase_str::NONE,
        base: mimebase_str::NONE,
        base_source: mimebase_str::NONE,
        target_part: mimebase_str::NONE,
        base_decided: 0,
        is_image: 0,
    };
}

impl mimebase_entity {
    /// Every field "none" or 0.
    const NONE: mimebase_entity = mimebase_entity {
        part: mimebase_str::NONE,
        kind: mimebase_str::NONE,
        parent: mimebase_str::NONE,
        content_type: mimebase_str::NONE,
        base: mimebase_str::NONE,
        base_source: mimebase_str::NONE,
        header_base: mimebase_str::NONE,
        header_base_source: mimebase_str::NONE,
        document_kind: mimebase_str::NONE,
        document_by: mimebase_str::NONE,
        attachment: 0,
    };
}

/// A URL source as serialized, by its parts, so that equal sources are found without
/// writing each out.
#[derive(PartialEq, Eq, Hash)]
enum SourceKey {
    Header(FieldName),
    Html(Cow<'static, str>, Option<&'static str>),
    Svg(Cow<'static, str>, Option<&'static str>),
    Text,
    File(DocumentKind, Cow<'static, str>),
}

impl SourceKey {
    fn of(source: &UrlSource) -> SourceKey {
        match source {
            UrlSource::Header { name, .. } => SourceKey::Header(*name),
            UrlSource::Html { tag, attribute, .. } => SourceKey::Html(tag.clone(), *attribute),
            UrlSource::Svg { tag, attribute, .. } => SourceKey::Svg(tag.clone(), *attribute),
            UrlSource::File(file) => SourceKey::File(file.kind, file.place.clone()),
            _ => SourceKey::Text,
        }
    }
}

/// The tag and attribute of an HTML or SVG attribute source.
fn tag_and_attribute(source: &UrlSource) -> Option<(&str, &str)> {
    match source {
        UrlSource::Html {
            tag,
            attribute: Some(attribute),
            ..
        }
        | UrlSource::Svg {
            tag,
            attribute: Some(attribute),
            ..
        } => Some((tag, attribute)),
        _ => None,
    }
}

/// See `mimebase_url.is_image`.
fn is_image(source: &UrlSource) -> bool {
    matches!(
        tag_and_attribute(source),
        Some(
            ("img", "src" | "srcset")
                | ("source", "srcset")
                | ("input", "src")
                | ("image" | "feImage", "href" | "xlink:href")
                | ("video", "poster")
                | ("link", "imagesrcset")
                | (_, "background")
        )
    )
}

impl mimebase_report {
    fn new(report: Report, length: u64) -> Self {
        let mut keys: HashMap<SourceKey, u32> = HashMap::new();
        let mut source_names = Vec::new();
        let mut sources = Vec::with_capacity(report.urls.len());
        let mut flags = Vec::with_capacity(report.urls.len());
        let mut ignored = Vec::new();
        for (at, url) in report.urls.iter().enumerate() {
            if let Some(why) = url.ignored {
                ignored.push((at, why.to_string().into_boxed_str()));
            }
            let next = u32::try_from(source_names.len()).unwrap_or(u32::MAX);
            let index = *keys.entry(SourceKey::of(&url.source)).or_insert_with(|| {
                source_names.push(url.source.to_string().into_boxed_str());
                next
            });
            sources.push(index);
            flags.push(
                if url.base_decided {
                    URL_BASE_DECIDED
                } else {
                    0
                } | if is_image(&url.source) { URL_IMAGE } else { 0 },
            );
        }
        mimebase_report {
            report,
            length,
            sources,
            source_names,
            flags,
            ignored,
            json: OnceLock::new(),
        }
    }

    fn url(&self, index: usize) -> Option<mimebase_url> {
        let url = self.report.urls.get(index)?;
        let source = self
            .sources
            .get(index)
            .and_then(|&name| self.source_names.get(usize::try_from(name).ok()?))?;
        let flags = self.flags.get(index).copied().unwrap_or(0);
        Some(mimebase_url {
            part: mimebase_str::of(url.part.as_str()),
            source: mimebase_str::of(source),
            reference: mimebase_str::of(&url.reference),
            resolved: mimebase_str::of_option(url.resolution.resolved()),
            unresolved: mimebase_str::of_option(url.resolution.unresolved().map(|reason| {
                match reason {
                    mimebase::Unresolved::NoBase => "no_base",
                    _ => "resolver_error",
                }
            })),
            base: mimebase_str::of_option(url.base.url.as_deref()),
            base_source: mimebase_str::of(url.base.source.as_str()),
            target_part: mimebase_str::of_option(url.target.as_ref().map(|t| t.part.as_str())),
            base_decided: c_int::from(flags & URL_BASE_DECIDED != 0),
            is_image: c_int::from(flags & URL_IMAGE != 0),
        })
    }

    fn entity(&self, index: usize) -> Option<mimebase_entity> {
        let entity: &EntityRecord = self.report.entities.get(index)?;
        Some(mimebase_entity {
            part: mimebase_str::of(entity.part.as_str()),
            kind: mimebase_str::of(match entity.kind {
                EntityKind::Message => "message",
                EntityKind::BodyPart => "body_part",
                EntityKind::Member => "member",
            }),
            parent: mimebase_str::of_option(entity.parent.as_ref().map(|p| p.as_str())),
            content_type: mimebase_str::of(&entity.content_type),
            base: mimebase_str::of_option(entity.base.url.as_deref()),
            base_source: mimebase_str::of(entity.base.source.as_str()),
            header_base: mimebase_str::of_option(entity.header_base.url.as_deref()),
            header_base_source: mimebase_str::of(entity.header_base.source.as_str()),
            document_kind: mimebase_str::of_option(entity.document.map(|d| d.kind.as_str())),
            document_by: mimebase_str::of_option(entity.document.map(|d| d.by.as_str())),
            attachment: c_int::from(entity.document.is_some_and(|d| d.attachment)),
        })
    }

    /// The serialized `ignored` of URL record `index`, if it has one.
    fn ignored(&self, index: usize) -> Option<&str> {
        let at = self
            .ignored
            .binary_search_by_key(&index, |(at, _)| *at)
            .ok()?;
        self.ignored.get(at).map(|(_, why)| &**why)
    }

    /// How entity `index` was opened, when it is an encrypted file that was: `empty` or
    /// `stated`, and the part that states the password.
    fn opened(&self, index: usize) -> Option<(&'static str, Option<&str>)> {
        match self.report.entities.get(index)?.opened.as_ref()? {
            Opened::Stated { part, .. } => Some(("stated", Some(part.as_str()))),
            _ => Some(("empty", None)),
        }
    }

    /// The summary of entity `index`, when it is a message.
    fn summary(&self, index: usize) -> Option<&Summary> {
        let entity = self.report.entities.get(index)?;
        self.report.summary_of(&entity.part)
    }

    fn json(&self) -> &str {
        self.json.get_or_init(|| {
            let source = Source::file("-", self.length);
            let mut out = Vec::new();
            ScanLine::message(&source, &self.report).write_json(&mut out);
            // JSON is UTF-8; the fallback is never taken.
            String::from_utf8(out).unwrap_or_default().into_boxed_str()
        })
    }
}

/// Analyzes the message of `len` bytes at `bytes` with `options` (NULL for the defaults) and
/// stores the report in `*out`; the caller frees it with `mimebase_report_free`.
///
/// The message is one message as stored in a file or handed over by a mail server: header,
/// empty line, body, with CRLF or LF line endings; a leading `From ` line (an mbox envelope)
/// is skipped. It is only read during the call and may be freed afterwards. Whatever the bytes
/// are, the analysis succeeds: what is wrong with the message is reported in its diagnostics
/// (in the JSON record), and a limit reached makes `mimebase_report_complete` 0.
///
/// # Errors
///
/// `*out` is set to NULL (when `out` is not NULL) and nothing is allocated:
///
/// - `MIMEBASE_ERROR_NULL`: `out` is NULL, or `bytes` is NULL and `len`
///   is not 0 (NULL with 0 is an empty message);
/// - `MIMEBASE_ERROR_INVALID`: `len` is over `PTRDIFF_MAX`;
/// - `MIMEBASE_ERROR_TOO_LARGE`: `len` is over the `max_message_bytes`
///   option;
/// - `MIMEBASE_ERROR_INTERNAL`: a panic was caught.
///
/// # Safety
///
/// `bytes` is NULL or points to `len` readable bytes, unchanged during the call; `options` is
/// NULL or a live pointer from `mimebase_options_new` (which
/// other threads may be using for their own analyses at the same time, but not changing);
/// `out` is NULL or points to writable storage for one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_analyze(
    bytes: *const u8,
    len: usize,
    options: *const mimebase_options,
    out: *mut *mut mimebase_report,
) -> mimebase_status {
    if out.is_null() {
        return mimebase_status::MIMEBASE_ERROR_NULL;
    }
    // SAFETY: `out` is not NULL and, by this function's contract, writable.
    unsafe { out.write(std::ptr::null_mut()) };
    // SAFETY: by this function's contract `bytes` is NULL or points to `len` readable bytes,
    // unchanged during the call, which is as long as the slice is used.
    let message = match unsafe { self::bytes(bytes, len) } {
        Ok(message) => message,
        Err(status) => return status,
    };
    boundary_any(mimebase_status::MIMEBASE_ERROR_INTERNAL, || {
        let default;
        // SAFETY: by this function's contract `options` is NULL or live, and nobody changes it
        // during the call; it is only read.
        let options = match unsafe { options.as_ref() } {
            Some(options) => options,
            None => {
                default = mimebase_options::default();
                &default
            }
        };
        if message.len() > options.max_message_bytes {
            return mimebase_status::MIMEBASE_ERROR_TOO_LARGE;
        }
        let report = mimebase::analyze(message, &options.options);
        let length = u64::try_from(message.len()).unwrap_or(u64::MAX);
        let report = Box::new(mimebase_report::new(report, length));
        // SAFETY: `out` is not NULL and writable (checked and contracted above).
        unsafe { out.write(Box::into_raw(report)) };
        mimebase_status::MIMEBASE_OK
    })
}

/// Frees `report`, made by `mimebase_analyze`, and with it every string its accessors handed
/// out; NULL is accepted and does nothing.
///
/// # Safety
///
/// `report` is NULL or a pointer from `mimebase_analyze` not yet freed; no other call on it
/// may run at the same time, and neither it nor any string from it is used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_free(report: *mut mimebase_report) {
    if report.is_null() {
        return;
    }
    boundary_any((), || {
        // SAFETY: `report` is not NULL and, by this function's contract, came from
        // `Box::into_raw` in `mimebase_analyze` and is freed once.
        drop(unsafe { Box::from_raw(report) });
    });
}

/// Borrows the report behind `report`, or `None` for NULL.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`, not freed while the borrow
/// lasts.
unsafe fn borrow<'a>(report: *const mimebase_report) -> Option<&'a mimebase_report> {
    // SAFETY: by this function's contract `report` is NULL or live for `'a`; it is only read
    // (the accessors change nothing but the JSON's `OnceLock`, which is thread-safe).
    unsafe { report.as_ref() }
}

/// 1 when no limit cut the analysis short (every entity, field, body and URL of the message
/// was read), 0 when one did (the JSON record's diagnostics say which) or `report` is NULL.
/// A filter that must see every link treats 0 as a failure, or analyzes again with higher
/// limits.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_complete(report: *const mimebase_report) -> c_int {
    boundary_any(0, || {
        // SAFETY: by this function's contract `report` is NULL or live during the call.
        unsafe { borrow(report) }.map_or(0, |report| c_int::from(report.report.complete))
    })
}

/// The report as one JSON object: the line `mimebase scan` prints for a file holding the
/// message as one message (as it reads a Maildir message, whatever its first bytes), named
/// `-`, and without the line break: `"type":"message"`, `"path":"-"`, `"format":"file"`,
/// `"offset":0`, `"length"` the message's size in bytes, then `message_id`, `complete`,
/// `summary`, `entities`, `urls` and `diagnostics`, byte for byte as `scan` writes them (the Rust
/// library's `scan` module documents every field). "None" when `report` is NULL.
///
/// Made on the first call (the other accessors do not need it) and kept: the string belongs to
/// the report and is valid until `mimebase_report_free`.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_json(report: *const mimebase_report) -> mimebase_str {
    boundary_any(mimebase_str::NONE, || {
        // SAFETY: by this function's contract `report` is NULL or live until it is freed,
        // which is as long as the string may be used.
        unsafe { borrow(report) }
            .map_or(mimebase_str::NONE, |report| mimebase_str::of(report.json()))
    })
}

/// The number of URL records in `report` (0 for NULL): indexes 0 to this − 1 are valid for
/// `mimebase_report_url`. In document order of entities; within one entity, header URLs
/// first, then those of its body in document order.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_url_count(report: *const mimebase_report) -> usize {
    boundary_any(0, || {
        // SAFETY: by this function's contract `report` is NULL or live during the call.
        unsafe { borrow(report) }.map_or(0, |report| report.report.urls.len())
    })
}

/// Fills `*out` with URL record `index` (0-based) of `report`. Its strings belong to the report
/// and are valid until `mimebase_report_free`.
///
/// # Errors
///
/// - `MIMEBASE_ERROR_NULL`: `report` or `out` is NULL;
/// - `MIMEBASE_ERROR_INVALID`: `index` is not below
///   `mimebase_report_url_count`.
///
/// On an error `*out` (when `out` is not NULL) is filled with "none" strings and zeros.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`; `out` is NULL or points to a
/// writable `mimebase_url`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_url(
    report: *const mimebase_report,
    index: usize,
    out: *mut mimebase_url,
) -> mimebase_status {
    if out.is_null() {
        return mimebase_status::MIMEBASE_ERROR_NULL;
    }
    // SAFETY: `out` is not NULL and, by this function's contract, writable.
    unsafe { out.write(mimebase_url::NONE) };
    boundary_any(mimebase_status::MIMEBASE_ERROR_INTERNAL, || {
        // SAFETY: by this function's contract `report` is NULL or live until it is freed,
        // which is as long as the strings of the record may be used.
        let Some(report) = (unsafe { borrow(report) }) else {
            return mimebase_status::MIMEBASE_ERROR_NULL;
        };
        match report.url(index) {
            Some(url) => {
                // SAFETY: `out` is not NULL and writable (checked and contracted above).
                unsafe { out.write(url) };
                mimebase_status::MIMEBASE_OK
            }
            None => mimebase_status::MIMEBASE_ERROR_INVALID,
        }
    })
}

/// The number of entities in `report` (0 for NULL; an analyzed message has at least one, the
/// root): indexes 0 to this − 1 are valid for `mimebase_report_entity`. In document order, a
/// parent before its parts.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_entity_count(report: *const mimebase_report) -> usize {
    boundary_any(0, || {
        // SAFETY: by this function's contract `report` is NULL or live during the call.
        unsafe { borrow(report) }.map_or(0, |report| report.report.entities.len())
    })
}

/// Fills `*out` with entity `index` (0-based) of `report`. Its strings belong to the report and
/// are valid until `mimebase_report_free`.
///
/// # Errors
///
/// - `MIMEBASE_ERROR_NULL`: `report` or `out` is NULL;
/// - `MIMEBASE_ERROR_INVALID`: `index` is not below
///   `mimebase_report_entity_count`.
///
/// On an error `*out` (when `out` is not NULL) is filled with "none" strings and zeros.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`; `out` is NULL or points to a
/// writable `mimebase_entity`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_entity(
    report: *const mimebase_report,
    index: usize,
    out: *mut mimebase_entity,
) -> mimebase_status {
    if out.is_null() {
        return mimebase_status::MIMEBASE_ERROR_NULL;
    }
    // SAFETY: `out` is not NULL and, by this function's contract, writable.
    unsafe { out.write(mimebase_entity::NONE) };
    boundary_any(mimebase_status::MIMEBASE_ERROR_INTERNAL, || {
        // SAFETY: by this function's contract `report` is NULL or live until it is freed,
        // which is as long as the strings of the record may be used.
        let Some(report) = (unsafe { borrow(report) }) else {
            return mimebase_status::MIMEBASE_ERROR_NULL;
        };
        match report.entity(index) {
            Some(entity) => {
                // SAFETY: `out` is not NULL and writable (checked and contracted above).
                unsafe { out.write(entity) };
                mimebase_status::MIMEBASE_OK
            }
            None => mimebase_status::MIMEBASE_ERROR_INVALID,
        }
    })
}

/// Why URL record `index` (0-based) of `report`, the URL of a `<base href>` or of a base header
/// field (`Base`, `Content-Base`, `Content-Location`), does not set the base it would (the JSON
/// record's `ignored`): `not_first` (a `<base href>` after its document's first), `in_template`,
/// `foreign_content` (a `<base>` in SVG or MathML content), `unusable` (its value cannot be a
/// base), `duplicate` (a base field given again), `overridden_by:<source>` (a base field of
/// lower precedence than the one that set the base, e.g.
/// `overridden_by:header:Content-Base`) or `not_in_profile`. "None" for every other URL, a
/// base that applies, an `index` not below `mimebase_report_url_count`, or a NULL `report`.
/// The string belongs to the report and is valid until `mimebase_report_free`.
///
/// A function of its own rather than a field of `mimebase_url`, whose layout cannot change
/// within the SONAME.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_url_ignored(
    report: *const mimebase_report,
    index: usize,
) -> mimebase_str {
    boundary_any(mimebase_str::NONE, || {
        // SAFETY: by this function's contract `report` is NULL or live until it is freed,
        // which is as long as the string may be used.
        unsafe { borrow(report) }.map_or(mimebase_str::NONE, |report| {
            mimebase_str::of_option(report.ignored(index))
        })
    })
}

/// How an encrypted file of a message was opened (the JSON record's `opened`): the value of
/// `mimebase_report_entity_opened`. The numbers are part of the ABI.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mimebase_opened {
    /// Not an encrypted file that was opened: no encrypted file, one that stayed closed (a
    /// diagnostic says so), or no such entity.
    MIMEBASE_OPENED_NONE = 0,
    /// An encrypted file opened with the empty password.
    MIMEBASE_OPENED_EMPTY = 1,
    /// An encrypted file opened with a password that the message itself states in a text or
    /// HTML part.
    MIMEBASE_OPENED_STATED = 2,
}

/// How entity `index` (0-based, as for `mimebase_report_entity`) of `report`, an encrypted
/// file (a PDF, a ZIP archive), was opened (the JSON record's `opened`); for
/// `MIMEBASE_OPENED_STATED`, `*part` (when `part` is not NULL) is set to the part identifier
/// of the text or HTML part that states the password, and to "none" otherwise.
/// `MIMEBASE_OPENED_NONE` for an entity that is no encrypted file that was opened, an `index`
/// not below `mimebase_report_entity_count`, or a NULL `report`. The string belongs to the
/// report and is valid until `mimebase_report_free`.
///
/// A function of its own rather than a field of `mimebase_entity`, whose layout cannot change
/// within the SONAME; it returns a number and writes its string through a pointer, so that
/// foreign function interfaces that cannot take a struct by value (Perl's FFI::Platypus) can
/// call it.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`; `part` is NULL or points to a
/// writable `mimebase_str`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_entity_opened(
    report: *const mimebase_report,
    index: usize,
    part: *mut mimebase_str,
) -> mimebase_opened {
    boundary_any(mimebase_opened::MIMEBASE_OPENED_NONE, || {
        // SAFETY: by this function's contract `report` is NULL or live until it is freed,
        // which is as long as the string may be used.
        let opened = unsafe { borrow(report) }.and_then(|report| report.opened(index));
        if !part.is_null() {
            let stating = opened.and_then(|(_, part)| part);
            // SAFETY: `part` is not NULL and, by this function's contract, writable.
            unsafe { part.write(mimebase_str::of_option(stating)) };
        }
        match opened {
            None => mimebase_opened::MIMEBASE_OPENED_NONE,
            Some((_, None)) => mimebase_opened::MIMEBASE_OPENED_EMPTY,
            Some((_, Some(_))) => mimebase_opened::MIMEBASE_OPENED_STATED,
        }
    })
}

/// Fills `*out` with the summary of entity `index` (0-based, as for `mimebase_report_entity`)
/// of `report`, which must be a message: 0, the root message, or an encapsulated message (an
/// entity whose `kind` is `message`). Its strings belong to the report and are valid until
/// `mimebase_report_free`.
///
/// # Errors
///
/// - `MIMEBASE_ERROR_NULL`: `report` or `out` is NULL;
/// - `MIMEBASE_ERROR_INVALID`: `index` is not below `mimebase_report_entity_count`, or the
///   entity is a body part.
///
/// On an error `*out` (when `out` is not NULL) is filled with "none" strings.
///
/// # Safety
///
/// `report` is NULL or a live pointer from `mimebase_analyze`; `out` is NULL or points to a
/// writable `mimebase_summary`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_report_summary(
    report: *const mimebase_report,
    index: usize,
    out: *mut mimebase_summary,
) -> mimebase_status {
    if out.is_null() {
        return mimebase_status::MIMEBASE_ERROR_NULL;
    }
    // SAFETY: `out` is not NULL and, by this function's contract, writable.
    unsafe { out.write(mimebase_summary::NONE) };
    boundary_any(mimebase_status::MIMEBASE_ERROR_INTERNAL, || {
        // SAFETY: by this function's contract `report` is NULL or live until it is freed,
        // which is as long as the strings of the summary may be used.
        let Some(report) = (unsafe { borrow(report) }) else {
            return mimebase_status::MIMEBASE_ERROR_NULL;
        };
        match report.summary(index) {
            Some(summary) => {
                // SAFETY: `out` is not NULL and writable (checked and contracted above).
                unsafe { out.write(mimebase_summary::of(summary)) };
                mimebase_status::MIMEBASE_OK
            }
            None => mimebase_status::MIMEBASE_ERROR_INVALID,
        }
    })
}
