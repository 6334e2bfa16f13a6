//! The `mimebase` Python module: the mimebase library's `analyze`, `rewrite`, `resolve` and
//! batch scanning, over the same engine as the `mimebase` command.
//!
//! Records reach Python in two forms. [`Report`] and its [`Entity`], [`Url`] and
//! [`Diagnostic`] objects have attributes for reading; `Report.to_dict()` and the values of the
//! records `scan` yields (made when they are read) are the library's serde serialization (the
//! CLI's JSON) turned into Python objects ([`records`]), so they cannot differ from what the
//! command writes.

#![forbid(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod args;
mod records;
mod scan;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyMemoryView};

use mimebase::{BaseRecord, Options, Profile, Resolver};

/// The engine allocates with mimalloc, as the `mimebase` command does: analysis allocates many
/// small buffers, and mimalloc serves them faster than the system allocator (`scan` 15-20%
/// faster in the command). Only Rust's allocations use it; Python objects are Python's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Effective base URLs of every part of an email message, and every URL a reader can reach
/// resolved against them: in headers, HTML and SVG documents (attachments and ``<iframe
/// srcdoc>`` included) and the links a mail client makes of plain text.
///
/// For each MIME entity (the message, its body parts, encapsulated messages) mimebase works out
/// the base URL that relative URLs resolve against, and where it came from: an HTML
/// ``<base href>``, a ``Base:``, ``Content-Base:`` or ``Content-Location:`` header field
/// (RFC 1808 section 3, RFC 2110, RFC 2557), the enclosing entity, or the URL the message was
/// retrieved from.
///
/// Functions:
///
/// - ``analyze(data, *, retrieval_url=None, resolver="rfc1808", profile="default",
///   max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None,
///   max_encoded_levels=4, text_links=True, file_links=True) -> Report``
/// - ``rewrite(data, *, retrieval_url=None, resolver="rfc1808", profile="default",
///   max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None,
///   max_encoded_levels=4, text_links=True, file_links=True) -> bytes``
/// - ``resolve(base, reference, resolver="rfc1808") -> str``
/// - ``scan(paths, *, jobs=None, retrieval_url=None, resolver="rfc1808", profile="default",
///   max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None,
///   max_encoded_levels=4, text_links=True, file_links=True) -> Iterator[Record]`` (each ``Record`` a
///   read-only mapping, equal to the ``dict`` of the command's JSON line)
///
/// ``data`` is one message as stored (RFC 5322 with MIME, LF or CRLF line endings, a leading
/// mbox ``From`` line allowed): ``bytes``, ``bytearray``, ``memoryview`` (any object with the
/// buffer protocol) or an ``email.message.Message``, which is serialized with its
/// ``as_bytes()``. An mbox of more than one message (``data`` starts with ``From `` and a later
/// line starting with ``From `` starts a message, by the mbox rules of ``scan``) raises
/// ``ValueError``: ``scan`` reads an mbox file message by message, as the command does.
/// Options:
///
/// - ``max_message_bytes``: ``data`` larger than this (in bytes) raises ``ValueError``, where
///   the command reports a ``too_large`` error; 64 MiB by default, the command's default. The
///   header and decoded-size limits of the analysis follow it, as ``--max-message-bytes``
///   does on the command line (whose name their diagnostics give).
/// - ``retrieval_url``: the URL the message was retrieved from, the root's base when no header
///   or ``<base>`` gives one (RFC 1808 section 3.3). One without a scheme is not used and the
///   report says so in a diagnostic.
/// - ``resolver``: ``"rfc1808"`` (RFC 1808 section 4 as written), ``"rfc3986"`` (RFC 3986
///   section 5.2, strict) or ``"whatwg"`` (the URL Standard, as browsers resolve links).
/// - ``profile``: ``"default"`` (``Base``, else ``Content-Base``, else
///   ``Content-Location``), ``"rfc1808"`` (only ``Base``) or ``"mhtml"`` (RFC 2557:
///   ``Content-Location``, else ``Content-Base``; ``thismessage:/`` at the root).
/// - ``max_urls``: how many URL records one message may have; past it the rest are left out,
///   each part that lost some has a ``url_limit`` diagnostic, and ``rewrite`` leaves such a
///   part unchanged. It bounds the memory one message takes.
/// - ``max_depth``: how deep entities may nest (the message at 0, each body part and
///   encapsulated message one deeper); the content of a deeper one is not walked, with a
///   ``depth_limit`` diagnostic. 100 by default.
/// - ``max_entities``: how many entities of one message are walked; the rest are skipped with
///   an ``entity_limit`` diagnostic. ``None`` (the default): a count that follows the
///   message's size, as ``--max-entities`` does (``mimebase scan --help`` gives it), far above
///   what real mail holds.
/// - ``max_encoded_levels``: how many base64- or quoted-printable-encoded encapsulated
///   messages may enclose one another; a deeper one is not walked, with an
///   ``encoded_level_limit`` diagnostic. 4 by default.
///
/// The diagnostics of these limits name the command line's option that raises them
/// (``--max-depth``, …): the keyword argument of the same name without ``--`` and with ``_``.
/// - ``text_links``: whether the links a mail client makes of plain text are reported (URL
///   records whose ``source`` is ``"text"``: URLs, ``www.`` hosts and e-mail addresses in
///   ``text/plain`` and ``text/enriched`` bodies); ``True`` by default. ``False`` reports only
///   header, HTML and SVG URLs.
/// - ``file_links``: whether the links inside the files a reader opens are reported (PDF
///   files, calendars, shortcut files, office documents, and the members of ZIP archives,
///   URL records whose ``source`` is ``"pdf:…"``, ``"calendar:…"``, ``"shortcut:…"`` or
///   ``"office:…"``); ``True`` by default.
///
/// An error about an argument starts with its name (``max_urls: must be at least 0,
/// got -1``): a value of the wrong type raises ``TypeError``, a value out of range (a
/// negative count, ``jobs`` below 1) or an unknown option value ``ValueError``. Problems in a message never raise: they are ``Report.diagnostics``.
/// The functions release the GIL while the engine works, so threads analyze in parallel.
#[pymodule]
#[pyo3(name = "mimebase")]
fn mimebase_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_function(wrap_pyfunction!(analyze, module)?)?;
    module.add_function(wrap_pyfunction!(rewrite, module)?)?;
    module.add_function(wrap_pyfunction!(resolve, module)?)?;
    module.add_function(wrap_pyfunction!(scan::scan, module)?)?;
    module.add_class::<Report>()?;
    module.add_class::<Entity>()?;
    module.add_class::<Url>()?;
    module.add_class::<Target>()?;
    module.add_class::<Summary>()?;
    module.add_class::<Diagnostic>()?;
    module.add_class::<scan::Scan>()?;
    module.add_class::<records::Record>()?;
    // A record is a read-only mapping: `isinstance(record, Mapping)` holds, as it did of the
    // dicts `scan` yielded before.
    module
        .py()
        .import("collections.abc")?
        .getattr("Mapping")?
        .call_method1("register", (module.getattr("Record")?,))?;
    Ok(())
}

/// Finds every entity of a message, its base and where the base came from, and every URL in
/// its headers and HTML bodies, resolved.
///
/// ``data``: one message (see the module's help for the accepted types and the options).
/// Returns a ``Report``. Never raises on message content; raises ``ValueError`` for an unknown
/// ``resolver`` or ``profile``, for ``data`` larger than ``max_message_bytes`` and for an mbox
/// of more than one message (read those with ``scan``; one message with a leading ``From ``
/// line is analyzed as it is), and ``TypeError`` for ``data`` of another type.
#[pyfunction]
#[pyo3(signature = (
    data,
    *,
    retrieval_url = None,
    resolver = Resolver::Rfc1808,
    profile = Profile::Default,
    max_message_bytes = 67_108_864,
    max_urls = 100_000,
    max_depth = 100,
    max_entities = None,
    max_encoded_levels = 4,
    text_links = true,
    file_links = true,
),
text_signature = "(data, *, retrieval_url=None, resolver='rfc1808', profile='default', max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None, max_encoded_levels=4, text_links=True, file_links=True)"
)]
#[allow(clippy::too_many_arguments)] // each is a keyword argument of the Python function
fn analyze(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::retrieval_url)] retrieval_url: Option<String>,
    #[pyo3(from_py_with = args::resolver)] resolver: Resolver,
    #[pyo3(from_py_with = args::profile)] profile: Profile,
    #[pyo3(from_py_with = args::max_message_bytes)] max_message_bytes: u64,
    #[pyo3(from_py_with = args::max_urls)] max_urls: usize,
    #[pyo3(from_py_with = args::max_depth)] max_depth: usize,
    #[pyo3(from_py_with = args::max_entities)] max_entities: Option<usize>,
    #[pyo3(from_py_with = args::max_encoded_levels)] max_encoded_levels: usize,
    #[pyo3(from_py_with = args::text_links)] text_links: bool,
    #[pyo3(from_py_with = args::file_links)] file_links: bool,
) -> PyResult<Report> {
    let limits = Limits {
        max_urls,
        max_depth,
        max_entities,
        max_encoded_levels,
    };
    let options = limits
        .apply(options(retrieval_url, resolver, profile))
        .with_text_links(text_links)
        .with_file_links(file_links)
        .with_max_message_bytes(usize::try_from(max_message_bytes).unwrap_or(usize::MAX));
    let message = message_bytes(data)?;
    let raw = message.as_bytes();
    one_message(py, raw, max_message_bytes, "analyze")?;
    let report = py.detach(|| mimebase::analyze(raw, &options));
    Ok(Report { report })
}

/// The message with every resolvable relative URL of its HTML bodies written in absolute form,
/// as ``bytes``; every other byte is the input's, and a message with nothing to change comes
/// back equal to the input.
///
/// The same as the ``mimebase rewrite`` command for one message, with the same options as
/// ``analyze``. A part that could not be written again faithfully (e.g. a charset that does
/// not round-trip) is left unchanged. Raises like ``analyze``: an mbox of more than one
/// message raises ``ValueError`` (the command rewrites an mbox file message by message).
#[pyfunction]
#[pyo3(signature = (
    data,
    *,
    retrieval_url = None,
    resolver = Resolver::Rfc1808,
    profile = Profile::Default,
    max_message_bytes = 67_108_864,
    max_urls = 100_000,
    max_depth = 100,
    max_entities = None,
    max_encoded_levels = 4,
    text_links = true,
    file_links = true,
),
text_signature = "(data, *, retrieval_url=None, resolver='rfc1808', profile='default', max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None, max_encoded_levels=4, text_links=True, file_links=True)"
)]
#[allow(clippy::too_many_arguments)] // each is a keyword argument of the Python function
fn rewrite<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    #[pyo3(from_py_with = args::retrieval_url)] retrieval_url: Option<String>,
    #[pyo3(from_py_with = args::resolver)] resolver: Resolver,
    #[pyo3(from_py_with = args::profile)] profile: Profile,
    #[pyo3(from_py_with = args::max_message_bytes)] max_message_bytes: u64,
    #[pyo3(from_py_with = args::max_urls)] max_urls: usize,
    #[pyo3(from_py_with = args::max_depth)] max_depth: usize,
    #[pyo3(from_py_with = args::max_entities)] max_entities: Option<usize>,
    #[pyo3(from_py_with = args::max_encoded_levels)] max_encoded_levels: usize,
    #[pyo3(from_py_with = args::text_links)] text_links: bool,
    #[pyo3(from_py_with = args::file_links)] file_links: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let limits = Limits {
        max_urls,
        max_depth,
        max_entities,
        max_encoded_levels,
    };
    let options = limits
        .apply(options(retrieval_url, resolver, profile))
        .with_text_links(text_links)
        .with_file_links(file_links)
        .with_max_message_bytes(usize::try_from(max_message_bytes).unwrap_or(usize::MAX));
    let message = message_bytes(data)?;
    let raw = message.as_bytes();
    one_message(py, raw, max_message_bytes, "rewrite")?;
    let rewritten = py.detach(|| mimebase::rewrite(raw, &options).message);
    Ok(PyBytes::new(py, &rewritten))
}

/// Resolves ``reference`` against ``base`` and returns the absolute URL.
///
/// ``resolver``: ``"rfc1808"`` (RFC 1808 section 4 exactly as written, the default),
/// ``"rfc3986"`` (RFC 3986 section 5.2, strict, with remove_dot_segments) or ``"whatwg"`` (the
/// URL Standard's parser). Neither string is trimmed or re-encoded.
///
/// Raises ``ValueError`` with the reason when the pair cannot be resolved (a base without a
/// scheme, except with ``"rfc3986"``, which then returns a relative reference by RFC 3986
/// section 5.2.2 as written; for ``"whatwg"``, a base or reference its parser rejects), or when
/// ``resolver`` is unknown.
///
/// >>> resolve("http://a/b/c/d;p?q", "../g")
/// 'http://a/b/g'
#[pyfunction]
#[pyo3(
    signature = (base, reference, resolver = Resolver::Rfc1808),
    text_signature = "(base, reference, resolver='rfc1808')"
)]
fn resolve(
    #[pyo3(from_py_with = args::base)] base: String,
    #[pyo3(from_py_with = args::reference)] reference: String,
    #[pyo3(from_py_with = args::resolver)] resolver: Resolver,
) -> PyResult<String> {
    resolver
        .resolve(&base, &reference)
        .map_err(|error| PyValueError::new_err(error.to_string()))
}

/// Everything ``analyze`` found in one message.
///
/// Reports compare equal when they hold the same records (``==``; not hashable), and pickle:
/// a report is rebuilt by ``Report.from_dict`` from its ``to_dict()``.
///
/// ``entities``, ``urls`` and ``diagnostics`` are new lists of ``Entity``, ``Url`` and
/// ``Diagnostic`` at each access; ``to_dict()`` is the same report as the JSON the
/// ``mimebase`` command writes.
#[pyclass(module = "mimebase", frozen, eq)]
#[derive(PartialEq)]
struct Report {
    report: mimebase::Report,
}

#[pymethods]
impl Report {
    /// The root message's ``Message-ID`` field (RFC 5322 section 3.6.4), unfolded and trimmed,
    /// angle brackets kept as written; ``None`` when there is none.
    #[getter]
    fn message_id(&self) -> Option<String> {
        self.report.message_id.clone()
    }

    /// The root message's ``Summary``: its ``Subject``, ``From``, ``Date`` and ``Message-ID``
    /// fields (the record's ``"summary"``).
    #[getter]
    fn summary(&self) -> Summary {
        Summary::from(&self.report.summary)
    }

    /// True when no limit cut the analysis (every entity, field, body and URL of the message
    /// was read); False when one did, and the diagnostics say which. A mail filter that must
    /// see every link should treat an incomplete report as a failure.
    #[getter]
    fn complete(&self) -> bool {
        self.report.complete
    }

    /// Every entity (``Entity``), in document order: a parent before its children.
    #[getter]
    fn entities(&self) -> Vec<Entity> {
        self.report.entities.iter().map(Entity::from).collect()
    }

    /// Every URL found (``Url``): entities in document order; within one entity its header URLs
    /// first, then its HTML URLs in document order.
    #[getter]
    fn urls(&self) -> Vec<Url> {
        self.report.urls.iter().map(Url::from).collect()
    }

    /// Every problem found in the message (``Diagnostic``), in the order found.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.report
            .diagnostics
            .iter()
            .map(Diagnostic::from)
            .collect()
    }

    /// The report as a ``dict``: the record ``mimebase inspect --json`` writes for this message
    /// without its ``"type"`` and ``"path"`` keys, that is ``message_id``, ``complete``,
    /// ``summary``, ``entities``, ``urls`` and ``diagnostics``, as documented in the library's ``report`` module (byte
    /// ranges as ``{"start": s, "end": e}``, 0-based, half-open, in bytes).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        records::to_python(py, &self.report)
    }

    /// The ``Report`` whose ``to_dict()`` is ``data`` (a mapping of the same keys and values,
    /// e.g. the JSON of ``mimebase inspect --json`` read with ``json.loads``, whose ``"type"``
    /// and ``"path"`` keys are ignored). Raises ``ValueError`` naming what is missing or wrong,
    /// ``TypeError`` for ``data`` that is not JSON-serializable.
    #[staticmethod]
    fn from_dict(data: &Bound<'_, PyAny>) -> PyResult<Report> {
        let py = data.py();
        let text = py
            .import("json")?
            .call_method1("dumps", (data,))
            .map_err(|error| PyTypeError::new_err(format!("data: not a report's dict: {error}")))?;
        let text: String = text.extract()?;
        let report = serde_json::from_str(&text).map_err(|error| {
            PyValueError::new_err(format!("data: not a report's dict: {error}"))
        })?;
        Ok(Report { report })
    }

    /// Pickling: the report is rebuilt by ``Report.from_dict`` from its ``to_dict()``.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let rebuild = py.get_type::<Report>().getattr("from_dict")?;
        Ok((rebuild, (self.to_dict(py)?,)))
    }

    fn __repr__(&self) -> String {
        format!(
            "<mimebase.Report message_id={} complete={} entities={} urls={} diagnostics={}>",
            py_repr(self.report.message_id.as_deref()),
            if self.report.complete {
                "True"
            } else {
                "False"
            },
            self.report.entities.len(),
            self.report.urls.len(),
            self.report.diagnostics.len()
        )
    }
}

/// One entity of the message: the root message, a body part or an encapsulated message.
///
/// Part identifiers are IMAP section specifications (RFC 3501 section 6.4.5): ``"HEADER"`` for
/// the root, ``"1"``, ``"2.1"`` for body parts, ``"2.HEADER"`` for the message carried by body
/// part 2.
#[pyclass(module = "mimebase", frozen, get_all)]
struct Entity {
    /// Its part identifier, e.g. ``"2.1"``.
    part: String,
    /// ``"message"`` (the root or an encapsulated message), ``"body_part"``, or ``"member"``
    /// (a file inside a ZIP archive part, named ``"2!/docs/page.html"``: the archive's section,
    /// ``!/``, the member's name in the archive).
    kind: String,
    /// The enclosing entity's part identifier; ``None`` for the root.
    parent: Option<String>,
    /// The media type, ``type/subtype``, lowercase; the RFC 2045 section 5.2 default when there
    /// is no usable ``Content-Type``.
    content_type: String,
    /// The header block as ``(start, end)``: byte offsets, 0-based, half-open, into the message
    /// given (or into the decoded body of ``decoded_from``).
    header: (usize, usize),
    /// The body as ``(start, end)``, like ``header``.
    body: (usize, usize),
    /// ``None`` when ``header`` and ``body`` index the message given; else the base64- or
    /// quoted-printable-encoded ``message/rfc822`` part whose decoded body they index.
    decoded_from: Option<String>,
    /// The effective base URL of the content, or ``None`` when there is no base.
    base: Option<String>,
    /// Where ``base`` came from: ``"html:base"``, ``"header:Base"``, ``"header:Content-Base"``,
    /// ``"header:Content-Location"``, ``"inherited"``, ``"retrieval"``, ``"thismessage"``,
    /// ``"attachment"`` (an HTML or SVG file sent under another media type, opened from a
    /// temporary file: no base reaches the network) or ``"none"``.
    base_source: String,
    /// For an ``"inherited"`` base: the part whose header (or, for the root, the retrieval URL)
    /// set it; else ``None``.
    inherited_from: Option<String>,
    /// The header-level base (what header URLs resolve against and what enclosed entities
    /// inherit); differs from ``base`` only when an HTML ``<base href>`` overrides it.
    header_base: Option<String>,
    /// Where ``header_base`` came from, like ``base_source``.
    header_base_source: String,
    /// What the body was read as to find its links: ``"html"``, ``"svg"``, ``"text"``,
    /// ``"pdf"``, ``"calendar"``, ``"shortcut"``, ``"office"`` or ``"archive"``; ``None`` for a
    /// part whose body holds no links a reader reaches (multipart, message, images, other
    /// types).
    document: Option<String>,
    /// Why it was read so: ``"media_type"``, ``"file_name"`` (a file sent under another media
    /// type) or ``"content"`` (its first bytes, ``%PDF-``, ``PK``, ``{\rtf``); ``None`` when
    /// ``document`` is.
    document_by: Option<String>,
    /// True for an attachment (``Content-Disposition: attachment``, chosen by its file name or
    /// content, or a file a reader opens: PDF, calendar, shortcut, office document, archive).
    attachment: bool,
    /// For an encrypted file that was opened (a PDF, a ZIP archive): ``"empty"`` (the empty
    /// password) or ``"stated"`` (a password the message states); ``None`` otherwise.
    opened: Option<String>,
    /// When ``opened`` is ``"stated"``: the part that states the password; else ``None``.
    opened_by_part: Option<String>,
    /// When ``opened`` is ``"stated"``: the password; else ``None``.
    password: Option<String>,
    /// For an encapsulated message (a ``"message"`` entity other than the root): its
    /// ``Summary``; ``None`` for a body part and for the root, whose summary is
    /// ``Report.summary``.
    summary: Option<Summary>,
}

#[pymethods]
impl Entity {
    fn __repr__(&self) -> String {
        format!(
            "<mimebase.Entity part={} content_type={} base={} base_source={}>",
            py_repr(Some(&self.part)),
            py_repr(Some(&self.content_type)),
            py_repr(self.base.as_deref()),
            py_repr(Some(&self.base_source))
        )
    }
}

impl From<&mimebase::EntityRecord> for Entity {
    fn from(entity: &mimebase::EntityRecord) -> Self {
        Entity {
            part: entity.part.to_string(),
            kind: wire_name(&entity.kind),
            parent: entity.parent.as_ref().map(ToString::to_string),
            content_type: entity.content_type.clone(),
            header: (entity.header.start, entity.header.end),
            body: (entity.body.start, entity.body.end),
            decoded_from: entity.decoded_from.as_ref().map(ToString::to_string),
            base: entity.base.url.clone(),
            base_source: entity.base.source.as_str().to_owned(),
            inherited_from: inherited_from(&entity.base),
            header_base: entity.header_base.url.clone(),
            header_base_source: entity.header_base.source.as_str().to_owned(),
            document: entity.document.map(|d| d.kind.as_str().to_owned()),
            document_by: entity.document.map(|d| d.by.as_str().to_owned()),
            attachment: entity.document.is_some_and(|d| d.attachment),
            opened: entity.opened.as_ref().map(|opened| match opened {
                mimebase::Opened::Empty => "empty".to_owned(),
                _ => "stated".to_owned(),
            }),
            opened_by_part: match &entity.opened {
                Some(mimebase::Opened::Stated { part, .. }) => Some(part.to_string()),
                _ => None,
            },
            password: match &entity.opened {
                Some(mimebase::Opened::Stated { password, .. }) => Some(password.clone()),
                _ => None,
            },
            summary: entity.summary.as_deref().map(Summary::from),
        }
    }
}

/// One URL found in the message, and its resolution.
#[pyclass(module = "mimebase", frozen, get_all)]
struct Url {
    /// The part identifier of the entity it was found in.
    part: String,
    /// Where: ``"header:<Name>"`` (e.g. ``"header:Content-Base"``, ``"header:List-Unsubscribe"``)
    /// or ``"html:<tag>@<attribute>"`` (e.g. ``"html:a@href"``, ``"html:img@srcset"``), or
    /// ``"html:style"`` for a CSS ``url()`` in a ``<style>`` element; ``"svg:<tag>@<attribute>"``
    /// or ``"svg:style"`` in an SVG document; ``"text"`` for a link a mail client makes of
    /// plain text (the reference is the text as written, ``resolved`` the link).
    source: String,
    /// The URL as written, after header unfolding and whitespace removal, or HTML character
    /// reference decoding and trimming.
    reference: String,
    /// The absolute URL, or ``None`` with ``unresolved_reason`` saying why.
    resolved: Option<String>,
    /// ``None`` when resolved; else ``"no_base"`` (relative, and the entity has no base) or
    /// ``"resolver_error"`` (the resolver refused the pair).
    unresolved_reason: Option<String>,
    /// When ``unresolved_reason`` is ``"resolver_error"``: the resolver's message saying why
    /// it refused the pair (e.g. ``"the URL Standard's parser rejects the reference: invalid
    /// international domain name"``); else ``None``.
    error: Option<String>,
    /// The base URL it was resolved against, or ``None``.
    base: Option<String>,
    /// Where ``base`` came from (see ``Entity.base_source``).
    base_source: String,
    /// True when the base decided where the URL leads: the resolver took any part of the base
    /// (a relative or scheme-relative reference; with ``"whatwg"`` also ``http:login`` against
    /// an ``http`` base). False for an absolute reference, an unresolved one, a plain-text link.
    base_decided: bool,
    /// The resolution algorithm: ``"rfc1808"``, ``"rfc3986"`` or ``"whatwg"``.
    resolver: String,
    /// For an HTML, SVG or text URL: ``(start, end)``, byte offsets, 0-based, half-open, into
    /// the part's decoded body (transfer encoding undone, converted to UTF-8), the URL as
    /// written (the whole attribute value when it holds a character reference). ``None`` for a
    /// header URL.
    range: Option<(usize, usize)>,
    /// For a header URL: the 0-based position of its field in the entity's header block;
    /// ``None`` for an HTML URL.
    field: Option<usize>,
    /// For a header URL: the 0-based position of the URL in its field (RFC 2369 lists hold
    /// several); ``None`` for an HTML URL.
    item: Option<usize>,
    /// For a link inside an office document that is a ZIP container: the member that holds
    /// it (``"word/_rels/document.xml.rels"``), which ``range`` then indexes; else ``None``.
    member: Option<String>,
    /// For a PDF action: the number of the object that holds it; else ``None``.
    object: Option<u32>,
    /// For a PDF link: its page, 1-based (for ``"pdf:text"``, ``range`` indexes the page's
    /// extracted text); else ``None``.
    page: Option<u32>,
    /// The entity of this same message that the URL names, as a ``Target`` (its ``part`` and
    /// how it was matched, ``by``), the record's ``"target"``; ``None`` when the URL names no
    /// part of the message.
    target: Option<Target>,
    /// For the URL of a ``<base href>`` or base header field that does not set the base it
    /// would: why, the record's ``"ignored"``: ``"not_first"``, ``"in_template"``,
    /// ``"foreign_content"``, ``"unusable"``, ``"duplicate"``, ``"overridden_by:<source>"``
    /// (e.g. ``"overridden_by:header:Content-Base"``) or ``"not_in_profile"``; ``None`` for every
    /// other URL.
    ignored: Option<String>,
    /// For the ``href`` of an HTML ``a`` or ``area``: the text a reader sees as the link (the
    /// element's rendered text, white space collapsed, at most 256 characters; else the ``alt``
    /// of its images; an ``area``'s ``alt``); ``None`` for every other URL.
    text: Option<String>,
    /// The ``title`` attribute of that ``a`` or ``area`` (collapsed and cut as ``text``);
    /// ``None`` when it has none, and for every other URL.
    title: Option<String>,
    /// True when ``text`` reads as a URL or a host name whose host is not the host the link
    /// reaches (the text says ``https://bank.example.com``, the link goes elsewhere).
    text_host_differs: bool,
}

#[pymethods]
impl Url {
    fn __repr__(&self) -> String {
        format!(
            "<mimebase.Url part={} source={} reference={} resolved={}>",
            py_repr(Some(&self.part)),
            py_repr(Some(&self.source)),
            py_repr(Some(&self.reference)),
            py_repr(self.resolved.as_deref())
        )
    }
}

impl From<&mimebase::UrlRecord> for Url {
    fn from(url: &mimebase::UrlRecord) -> Self {
        let (field, item) = match &url.source {
            mimebase::UrlSource::Header { field, item, .. } => (Some(*field), Some(*item)),
            _ => (None, None),
        };
        let file = match &url.source {
            mimebase::UrlSource::File(file) => Some(file.as_ref()),
            _ => None,
        };
        let range = url
            .source
            .range()
            .or_else(|| file.and_then(|file| file.range))
            .map(|range| (range.start, range.end));
        Url {
            part: url.part.to_string(),
            source: url.source.to_string(),
            reference: url.reference.clone(),
            resolved: url.resolution.resolved().map(str::to_owned),
            unresolved_reason: url.resolution.unresolved().as_ref().map(wire_name),
            error: url.resolution.error().map(str::to_owned),
            base: url.base.url.clone(),
            base_source: url.base.source.as_str().to_owned(),
            base_decided: url.base_decided,
            resolver: url.resolver.name().to_owned(),
            range,
            field,
            item,
            member: file.and_then(|file| file.member.clone()),
            object: file.and_then(|file| file.object),
            page: file.and_then(|file| file.page),
            target: url.target.as_ref().map(|target| Target {
                part: target.part.to_string(),
                by: wire_name(&target.by),
            }),
            ignored: url.ignored.map(|why| why.to_string()),
            text: url.text().map(str::to_owned),
            title: url.title().map(str::to_owned),
            text_host_differs: url.text_host_differs(),
        }
    }
}

/// The entity of the same message that a URL names (``Url.target``): the part an inline image
/// ``cid:`` URL points at, or the page of a saved web page that a link's ``Content-Location``
/// matches. Compares equal to another ``Target`` with the same ``part`` and ``by``.
#[pyclass(module = "mimebase", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Target {
    /// The part identifier of the entity named, e.g. ``"1.2"``.
    part: String,
    /// How the URL was matched to it: ``"cid"`` (``cid:c``, the entity whose ``Content-ID`` is
    /// ``c``, RFC 2392), ``"mid"`` (``mid:m``, the message whose ``Message-ID`` is ``m``, or
    /// ``mid:m/c``, the entity with ``Content-ID`` ``c`` inside it, RFC 2392) or
    /// ``"content-location"`` (the entity's resolved ``Content-Location``, RFC 2557 section 8.2).
    by: String,
}

#[pymethods]
impl Target {
    fn __repr__(&self) -> String {
        format!(
            "<mimebase.Target part={} by={}>",
            py_repr(Some(&self.part)),
            py_repr(Some(&self.by))
        )
    }
}

/// What a mail client shows at the top of a message (``Report.summary``, ``Entity.summary``):
/// the first of each of its ``Subject``, ``From``, ``Date`` and ``Message-ID`` fields, unfolded
/// and trimmed, ``None`` when the message has no such field. Compares equal to a ``Summary``
/// with the same values.
#[pyclass(module = "mimebase", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Summary {
    /// ``Subject`` (RFC 5322 section 3.6.5), RFC 2047 encoded-words decoded.
    subject: Option<String>,
    /// ``From`` (RFC 5322 section 3.6.2), RFC 2047 encoded-words decoded, otherwise as written
    /// (not parsed into addresses); the record's ``"from"``, named ``from_`` since ``from`` is
    /// a Python keyword.
    from_: Option<String>,
    /// ``Date`` (RFC 5322 section 3.6.1), as written.
    date: Option<String>,
    /// ``Message-ID`` (RFC 5322 section 3.6.4), as written, angle brackets kept.
    message_id: Option<String>,
}

#[pymethods]
impl Summary {
    fn __repr__(&self) -> String {
        format!(
            "<mimebase.Summary subject={} from_={} date={} message_id={}>",
            py_repr(self.subject.as_deref()),
            py_repr(self.from_.as_deref()),
            py_repr(self.date.as_deref()),
            py_repr(self.message_id.as_deref())
        )
    }
}

impl From<&mimebase::Summary> for Summary {
    fn from(summary: &mimebase::Summary) -> Self {
        Summary {
            subject: summary.subject.clone(),
            from_: summary.from.clone(),
            date: summary.date.clone(),
            message_id: summary.message_id.clone(),
        }
    }
}

/// A problem found in the message; never fatal, the rest of the message is still reported.
#[pyclass(module = "mimebase", frozen, get_all)]
struct Diagnostic {
    /// The part identifier of the entity it concerns; ``None`` for the message as a whole.
    part: Option<String>,
    /// What kind of problem, e.g. ``"missing_close_delimiter"``, ``"unknown_charset"``.
    kind: String,
    /// A sentence for people, lowercase, without a trailing period.
    message: String,
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "<mimebase.Diagnostic part={} kind={} message={}>",
            py_repr(self.part.as_deref()),
            py_repr(Some(&self.kind)),
            py_repr(Some(&self.message))
        )
    }
}

impl From<&mimebase::Diagnostic> for Diagnostic {
    fn from(diagnostic: &mimebase::Diagnostic) -> Self {
        Diagnostic {
            part: diagnostic.part.as_ref().map(ToString::to_string),
            kind: wire_name(&diagnostic.kind),
            message: diagnostic.message.clone(),
        }
    }
}

/// A string or `None` as Python's `repr` writes it (close enough for a `__repr__`: Rust's
/// escapes inside double quotes).
fn py_repr(value: Option<&str>) -> String {
    match value {
        Some(text) => format!("{text:?}"),
        None => "None".to_owned(),
    }
}

/// The part an inherited base came from, as a string.
fn inherited_from(base: &BaseRecord) -> Option<String> {
    base.inherited_from.as_ref().map(ToString::to_string)
}

/// The serialized name of a unit enum variant (`DiagnosticKind`, `Unresolved`, `EntityKind`),
/// taken from the library's serde serialization so that it is the JSON's.
fn wire_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        _ => String::new(),
    }
}

/// The library's options for the keyword arguments shared by `analyze`, `rewrite` and `scan`.
/// The counts that bound the analysis of one message, as the keyword arguments give them.
pub(crate) struct Limits {
    pub max_urls: usize,
    pub max_depth: usize,
    pub max_entities: Option<usize>,
    pub max_encoded_levels: usize,
}

impl Limits {
    /// `options` with these limits; `max_entities` `None` keeps the default, which follows
    /// each message's size.
    pub(crate) fn apply(&self, options: Options) -> Options {
        let options = options
            .with_max_urls(self.max_urls)
            .with_max_depth(self.max_depth)
            .with_max_encoded_levels(self.max_encoded_levels);
        match self.max_entities {
            Some(count) => options.with_max_entities(count),
            None => options,
        }
    }
}

fn options(retrieval_url: Option<String>, resolver: Resolver, profile: Profile) -> Options {
    let options = Options::new().with_resolver(resolver).with_profile(profile);
    match retrieval_url {
        Some(url) => options.with_retrieval_url(url),
        None => options,
    }
}

/// Checks that `raw` is what `analyze` and `rewrite` take, one message no larger than `limit`
/// bytes, as the `mimebase` command reads an input: a `ValueError` when it is larger (the
/// command's `too_large` error), or when it is an mbox of more than one message (it starts
/// with `From ` and the library's mbox reader, [`mimebase::mailbox::Mbox`], finds a second
/// `From ` line that starts a message), which `scan` reads message by message. An mbox of
/// one message (a leading `From ` line) is one message, as the command reads it.
fn one_message(py: Python<'_>, raw: &[u8], limit: u64, function: &str) -> PyResult<()> {
    if raw.len() as u64 > limit {
        return Err(PyValueError::new_err(format!(
            "data: the message has {} bytes, more than max_message_bytes ({limit} bytes)",
            raw.len()
        )));
    }
    if !raw.starts_with(b"From ") {
        return Ok(());
    }
    // A limit of 0 bytes: each message is counted, not copied (`too_large`), and the reader
    // stops at the second one.
    let messages = py.detach(|| {
        mimebase::mailbox::Mbox::new(String::new(), raw, 0)
            .take(2)
            .count()
    });
    if messages > 1 {
        return Err(PyValueError::new_err(format!(
            "data: an mbox of more than one message (a second `From ` line starts a message); \
             {function}() takes one message: read an mbox file with mimebase.scan(path), which \
             yields a record per message"
        )));
    }
    Ok(())
}

/// Reads the `data` argument: `bytes`, any object with the buffer protocol (`bytearray`,
/// `memoryview`, `mmap`, …) or an `email.message.Message` (`as_bytes()`). The result is
/// always an immutable `bytes` (a buffer, which could change while the GIL is released, is
/// copied), so that the engine can read it with the GIL released.
fn message_bytes<'py>(data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(bytes.clone());
    }
    let py = data.py();
    static MESSAGE: PyOnceLock<Py<pyo3::types::PyType>> = PyOnceLock::new();
    let message_type = MESSAGE.import(py, "email.message", "Message")?;
    if data.is_instance(message_type)? {
        let serialized = data.call_method0("as_bytes")?;
        return match serialized.cast_into::<PyBytes>() {
            Ok(bytes) => Ok(bytes),
            Err(_) => Err(PyTypeError::new_err(
                "data: email.message.Message.as_bytes() did not return bytes",
            )),
        };
    }
    if let Ok(view) = PyMemoryView::from(data)
        && let Ok(bytes) = view.call_method0("tobytes")?.cast_into::<PyBytes>()
    {
        return Ok(bytes);
    }
    Err(PyTypeError::new_err(format!(
        "data: expected bytes, bytearray, memoryview or email.message.Message, got {}",
        data.get_type().name()?
    )))
}
