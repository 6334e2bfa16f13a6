//! The URLs of the files a reader opens from the message: a part read as a PDF, a calendar, a
//! shortcut or an office document ([`DocumentKind`]) is decoded (its transfer encoding
//! undone), handed to the room of its format, and each link the room finds becomes a URL
//! record with a [`UrlSource::File`] source.
//!
//! A file has no base of its own but the one a PDF may declare (`/URI` `/Base`, ISO 32000-1
//! §12.6.4.7): a reader opens it from a temporary file, so a relative reference in it names a
//! file beside that copy, which no one else can reach. Such references are reported
//! unresolved against the [`BaseSource::Attachment`](crate::BaseSource::Attachment) base, as
//! those of an HTML attachment found by its name.

use std::borrow::Cow;
use std::sync::Arc;

use super::passwords::{StatedPassword, stated_passwords};
use super::text::decode_text;
use super::{HtmlState, Sink, resolve_detailed, take_decoded, url_limit};
use crate::calendar::{self, ValueKind};
use crate::html;
use crate::html::link_text::text_host_differs;
use crate::mime::{self, Entity, Walk};
use crate::options::Options;
use crate::pdf;
use crate::report::{
    BaseRecord, ByteRange, Diagnostic, DiagnosticKind, FileSource, Opened, UrlRecord, UrlSource,
};
use crate::shortcut;
use crate::text::{self, Completeness, OffsetMap, ShownText};
use crate::vocab::{BaseSource, DocumentKind};
use crate::{archive, office};

/// What reading one file's links shares: the entity, where records go, and the URLs of
/// the entity that did not fit the message's budget.
pub(super) struct FileUrls<'s, 'a> {
    /// The entity read.
    pub entity: &'s Entity,
    /// Its index in the walk.
    pub index: usize,
    /// The base of a file without one of its own ([`BaseSource::Attachment`]).
    pub base: &'s Arc<BaseRecord>,
    /// The analysis' options.
    pub options: &'s Options,
    /// Where records go.
    pub sink: &'s mut Sink<'a>,
    /// The entity's diagnostics.
    pub diagnostics: &'s mut Vec<Diagnostic>,
    /// URLs found past [`Options::with_max_urls`].
    not_recorded: usize,
}

impl<'s, 'a> FileUrls<'s, 'a> {
    /// Reading the file of `entity` (at `index` in the walk), against `base` when it has none
    /// of its own.
    pub(super) fn new(
        entity: &'s Entity,
        index: usize,
        base: &'s Arc<BaseRecord>,
        options: &'s Options,
        sink: &'s mut Sink<'a>,
        diagnostics: &'s mut Vec<Diagnostic>,
    ) -> Self {
        FileUrls {
            entity,
            index,
            base,
            options,
            sink,
            diagnostics,
            not_recorded: 0,
        }
    }

    /// Hands on a URL record for `reference`, found at `source`, resolved against `base`
    /// (the file's, when `None`), with what a reader sees of it (`link`), if the message's
    /// URL budget has room.
    fn emit(
        &mut self,
        source: FileSource,
        reference: String,
        base: Option<&Arc<BaseRecord>>,
        link: Option<Box<crate::report::LinkText>>,
    ) {
        let Some(left) = self.sink.url_budget.checked_sub(1) else {
            self.not_recorded += 1;
            return;
        };
        self.sink.url_budget = left;
        let base = base.unwrap_or(self.base);
        let resolver = self.options.resolver();
        let (resolution, base_decided) = resolve_detailed(resolver, base, &reference, None);
        let link = link.map(|mut link| {
            link.text_host_differs = text_host_differs(&link.text, resolution.resolved());
            link
        });
        let record = UrlRecord {
            part: self.entity.part.clone(),
            source: UrlSource::File(Box::new(source)),
            reference,
            resolution,
            base: Arc::clone(base),
            base_decided,
            resolver,
            target: None,
            ignored: None,
            link,
        };
        self.sink.emit(record, self.index);
    }

    /// A diagnostic of the entity.
    fn diagnose(&mut self, kind: DiagnosticKind, message: String) {
        self.diagnostics.push(Diagnostic {
            part: Some(self.entity.part.clone()),
            kind,
            message,
        });
    }

    /// The entity's body, its transfer encoding undone, when it fits what is left of
    /// [`Options::with_max_decoded_bytes`] (else `None`, with a diagnostic).
    fn decoded<'b>(&mut self, bytes: &'b [u8], state: &mut HtmlState) -> Option<Cow<'b, [u8]>> {
        let body = mime::decoded_body(bytes, self.entity, self.diagnostics);
        take_decoded(
            state,
            body.len(),
            self.entity,
            self.options,
            self.diagnostics,
        )
        .then_some(body)
    }

    /// The diagnostic for the URLs past the message's budget, if any.
    pub(super) fn finish(self) {
        if self.not_recorded > 0 {
            self.diagnostics.push(url_limit(
                self.entity,
                self.not_recorded,
                "file",
                self.options,
            ));
        }
    }

    /// The source of a link found in file `kind` at `place`.
    fn source(kind: DocumentKind, place: impl Into<Cow<'static, str>>) -> FileSource {
        FileSource {
            kind,
            place: place.into(),
            member: None,
            range: None,
            object: None,
            page: None,
            linkified: false,
        }
    }

    /// Hands on the links a mail client makes of the plain text `shown` (Thunderbird's rules,
    /// as for a text body), each with `source` and its range mapped back through `shown`.
    fn text_links(&mut self, shown: &ShownText, source: &FileSource) {
        let completeness = text::find_links(&shown.text, |link| {
            let range = shown.map.source_range(link.range.clone());
            let reference = shown.text.get(link.range).unwrap_or_default().to_owned();
            let source = FileSource {
                range: Some(range.into()),
                linkified: true,
                ..source.clone()
            };
            self.emit_text_link(source, reference, link.href);
        });
        if completeness == Completeness::WorkLimitReached {
            self.diagnose(
                DiagnosticKind::TextLimit,
                format!(
                    "the text of {}:{} holds more would-be URLs that do not parse than the link finder checks; the links after them are not reported",
                    source.kind, source.place
                ),
            );
        }
    }

    /// A plain-text link: its record's reference is the text as written, its URL the link
    /// the client makes of it (`http://` before a `www.` host), with no base.
    fn emit_text_link(&mut self, source: FileSource, reference: String, href: String) {
        let Some(left) = self.sink.url_budget.checked_sub(1) else {
            self.not_recorded += 1;
            return;
        };
        self.sink.url_budget = left;
        let resolver = self.options.resolver();
        let no_base = BaseRecord::none();
        let (resolution, _) = resolve_detailed(resolver, &no_base, &href, None);
        let record = UrlRecord {
            part: self.entity.part.clone(),
            source: UrlSource::File(Box::new(source)),
            reference,
            resolution,
            base: Arc::new(no_base),
            base_decided: false,
            resolver,
            target: None,
            ignored: None,
            link: None,
        };
        self.sink.emit(record, self.index);
    }

    /// Hands on the URLs of the HTML document `shown` (as an HTML body's, against its own
    /// `<base href>` when that is an absolute URL, else against the file's base), each with
    /// `source` and its range mapped back through `shown`.
    fn html_links(&mut self, shown: &ShownText, source: &FileSource) {
        let scan = html::scan(&shown.text, self.sink.url_budget);
        self.not_recorded += scan.not_recorded;
        let resolver = self.options.resolver();
        let content_base = scan
            .base_reference(&shown.text)
            .and_then(|href| {
                resolve_detailed(resolver, &BaseRecord::none(), href, None)
                    .0
                    .into_resolved()
            })
            .map(|url| {
                Arc::new(BaseRecord {
                    url: Some(url),
                    source: BaseSource::HtmlBase,
                    inherited_from: None,
                })
            });
        let ranges: Vec<ByteRange> = scan.urls.iter().map(|url| scan.part_range(url)).collect();
        for (mut found, range) in scan.urls.into_iter().zip(ranges) {
            let reference = found.reference(&shown.text).to_owned();
            let source = FileSource {
                range: Some(shown.map.source_range(range.start..range.end).into()),
                ..source.clone()
            };
            self.emit(source, reference, content_base.as_ref(), found.link.take());
        }
    }
}

/// Reads the calendar of `entity` (at `index`, its ranges indexing `bytes`) and hands on a
/// record for each of its links (see the [`calendar`] module for which).
pub(super) fn calendar_urls(bytes: &[u8], state: &mut HtmlState, mut urls: FileUrls<'_, '_>) {
    let Some(body) = urls.decoded(bytes, state) else {
        return;
    };
    let text = decode_text(&body, urls.entity, urls.diagnostics);
    calendar::linked_properties(&text, |property| {
        let source = FileUrls::source(DocumentKind::Calendar, property.name);
        match property.kind {
            ValueKind::Uri => {
                let range = property
                    .value
                    .map
                    .source_range(0..property.value.text.len());
                let source = FileSource {
                    range: Some(range.into()),
                    ..source
                };
                urls.emit(source, property.value.text, None, None);
            }
            ValueKind::Text => urls.text_links(&property.value, &source),
            ValueKind::Html => urls.html_links(&property.value, &source),
        }
    });
    urls.finish();
}

/// Reads the shortcut file of `entity` and hands on a record for its link.
pub(super) fn shortcut_urls(bytes: &[u8], state: &mut HtmlState, mut urls: FileUrls<'_, '_>) {
    let Some(body) = urls.decoded(bytes, state) else {
        return;
    };
    match shortcut::link(&body) {
        Ok(link) => {
            let source = FileSource {
                range: link.range.map(ByteRange::from),
                ..FileUrls::source(DocumentKind::Shortcut, "URL")
            };
            urls.emit(source, link.reference, None, None);
        }
        Err(error) => urls.diagnose(DiagnosticKind::FileError, error.to_string()),
    }
    urls.finish();
}

/// The passwords the message states, looked for the first time a file asks for them.
pub(super) struct Stated<'w> {
    /// The passwords, once looked for.
    pub found: Option<Vec<StatedPassword>>,
    /// The message's walk and bytes, to look in.
    pub walk: &'w Walk,
    /// The raw message.
    pub raw: &'w [u8],
}

impl Stated<'_> {
    /// The passwords, looked for now if they were not yet.
    fn get(&mut self, options: &Options) -> &[StatedPassword] {
        let (walk, raw) = (self.walk, self.raw);
        self.found
            .get_or_insert_with(|| stated_passwords(walk, raw, options))
    }
}

/// The kind and message of the diagnostic of a problem that the archive reader met in a ZIP
/// container (`what`: `archive`, `office document`).
pub(super) fn archive_problem(problem: &archive::Problem, what: &str) -> (DiagnosticKind, String) {
    let kind = match problem.kind {
        archive::ProblemKind::Broken => DiagnosticKind::FileError,
        archive::ProblemKind::Limit => DiagnosticKind::FileLimit,
        archive::ProblemKind::Encrypted => DiagnosticKind::EncryptedFile,
    };
    let message = match &problem.member {
        Some(member) => format!("{what}, member {member}: {}", problem.message),
        None => format!("{what}: {}", problem.message),
    };
    (kind, message)
}

/// How a file that a password opened was opened, from the index of the password among
/// `stated`.
pub(super) fn opened_by(stated: &[StatedPassword], index: usize) -> Option<Opened> {
    stated.get(index).map(|s| Opened::Stated {
        part: s.part.clone(),
        password: s.password.clone(),
    })
}

/// Reads the PDF file of `entity` and hands on a record for each of its links: the targets of
/// its actions, resolved against its `/URI` `/Base` when it has one, and the links a viewer
/// makes of its pages' text. Returns the file's base (`pdf:base`), if it has one, and how it
/// was opened, if it is encrypted.
pub(super) fn pdf_urls(
    bytes: &[u8],
    state: &mut HtmlState,
    stated: &mut Stated<'_>,
    mut urls: FileUrls<'_, '_>,
) -> (Option<Arc<BaseRecord>>, Option<Opened>) {
    let Some(body) = urls.decoded(bytes, state) else {
        return (None, None);
    };
    let options = urls.options;
    let limits = pdf::Limits {
        max_decompressed_bytes: options.max_file_bytes(),
        max_objects: options.max_file_objects(),
        max_text_bytes: options.max_file_bytes(),
        max_links: urls.sink.url_budget.saturating_add(1),
    };
    let mut reading = pdf::read(&body, &[], &limits);
    let mut opened = None;
    if reading.opened == pdf::Opened::Closed {
        let passwords: Vec<String> = stated
            .get(options)
            .iter()
            .map(|s| s.password.clone())
            .collect();
        if !passwords.is_empty() {
            reading = pdf::read(&body, &passwords, &limits);
        }
    }
    match reading.opened {
        pdf::Opened::EmptyPassword => opened = Some(Opened::Empty),
        pdf::Opened::Password(index) => opened = opened_by(stated.get(options), index),
        pdf::Opened::NotEncrypted | pdf::Opened::Closed => {}
    }
    for problem in &reading.problems {
        let (kind, raises) = match problem.kind {
            pdf::ProblemKind::Broken => (DiagnosticKind::FileError, ""),
            pdf::ProblemKind::Limit => (
                DiagnosticKind::FileLimit,
                " (--max-file-bytes and --max-file-objects raise the limits)",
            ),
            pdf::ProblemKind::Encrypted => (DiagnosticKind::EncryptedFile, ""),
        };
        let place = match (problem.object, problem.page) {
            (Some(object), Some(page)) => format!(" (object {object}, page {page})"),
            (Some(object), None) => format!(" (object {object})"),
            (None, Some(page)) => format!(" (page {page})"),
            (None, None) => String::new(),
        };
        urls.diagnose(kind, format!("PDF: {}{place}{raises}", problem.message));
    }
    let resolver = options.resolver();
    let base = reading.base.as_deref().and_then(|base| {
        let url = resolve_detailed(resolver, &BaseRecord::none(), base, None)
            .0
            .into_resolved()?;
        Some(Arc::new(BaseRecord {
            url: Some(url),
            source: BaseSource::PdfBase,
            inherited_from: None,
        }))
    });
    if reading.base.is_some() && base.is_none() {
        urls.diagnose(
            DiagnosticKind::FileError,
            "PDF: the /URI dictionary's /Base is not an absolute URL; relative links are not resolved against it".to_owned(),
        );
    }
    for link in reading.links {
        let source = FileSource {
            object: link.object,
            page: link.page,
            ..FileUrls::source(DocumentKind::Pdf, link.place.as_str())
        };
        urls.emit(source, link.target, base.as_ref(), None);
    }
    for page in &reading.pages {
        let shown = ShownText {
            text: page.text.clone(),
            map: OffsetMap::identity(page.text.len()),
        };
        let source = FileSource {
            page: Some(page.page),
            ..FileUrls::source(DocumentKind::Pdf, "text")
        };
        urls.text_links(&shown, &source);
    }
    urls.finish();
    (base, opened)
}

/// Reads the office document of `entity` (Office Open XML, OpenDocument, RTF) and hands on a
/// record for each of its links.
pub(super) fn office_urls(bytes: &[u8], state: &mut HtmlState, mut urls: FileUrls<'_, '_>) {
    let Some(body) = urls.decoded(bytes, state) else {
        return;
    };
    let limits = archive::Limits {
        max_members: urls.options.max_archive_members(),
        max_member_bytes: urls.options.max_file_bytes(),
        max_total_bytes: urls.options.max_file_bytes(),
    };
    let reading = office::links(&body, &[], &limits);
    for problem in &reading.problems {
        let (kind, message) = archive_problem(problem, "office document");
        urls.diagnose(kind, message);
    }
    for link in reading.links {
        let source = FileSource {
            member: link.member,
            range: Some(link.range.into()),
            ..FileUrls::source(DocumentKind::Office, link.place)
        };
        urls.emit(source, link.target, None, None);
    }
    urls.finish();
}
