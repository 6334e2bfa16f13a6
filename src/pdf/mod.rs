//! The PDF room: the links a reader of a PDF file (ISO 32000-1) can reach, read from the
//! file's bytes. It knows nothing about the message the file came in.
//!
//! # What a viewer runs
//!
//! A PDF viewer opens a URL when it runs an *action* (ISO 32000-1 §12.6): the reader clicks
//! a link annotation or a form field, a page opens or closes, the document opens, a bookmark
//! is chosen. Six types of action name a resource outside the document: `URI` (§12.6.4.7:
//! the URI itself), `Launch` (§12.6.4.5), `GoToR` (§12.6.4.3), `GoToE` (§12.6.4.4),
//! `SubmitForm` (§12.7.5.2) and `ImportData` (§12.7.5.4), which name a file specification
//! (§7.11). `JavaScript` actions (§12.6.4.16) are not links and are skipped, although pdf.js
//! makes a link of a script that only calls `app.launchURL` or `window.open` with a literal
//! URL. Every action may name more in its `/Next` entry (§12.6.2), a dictionary or an array.
//!
//! Each link is reported with its *place*, serialized by the caller as `pdf:<place>`: where
//! the action was found, `/`, and the action type (`annot/URI`, `OpenAction/Launch`,
//! `object/URI`):
//!
//! | Where         | What holds the action                                                  |
//! |---------------|------------------------------------------------------------------------|
//! | `annot`       | the `/A` entry of a page's annotation (§12.5.6.5, Table 173; widgets)  |
//! | `annot-AA`    | an entry of an annotation's `/AA` additional actions (§12.6.3, Table 194) |
//! | `OpenAction`  | the catalog's `/OpenAction` (§7.7.2, Table 28)                          |
//! | `AA`          | an entry of the catalog's or a page's `/AA` (§12.6.3, Tables 195, 197) |
//! | `field`       | an AcroForm field's `/A` or `/AA` (§12.7.3.1, Table 220)               |
//! | `outline`     | a bookmark's `/A` (§12.3.3, Table 153)                                  |
//! | `object`      | an action dictionary found in no place above                           |
//!
//! and the action types `URI`, `Launch`, `GoToR`, `GoToE`, `SubmitForm`, `ImportData`. An
//! action reached through `/Next` keeps the place of the action that names it. An action
//! reached from two places is reported once, at the first place the walk below reaches it
//! (a widget that is both an annotation and a field is an `annot`). `object` links are
//! ones a viewer may never run (an orphaned annotation, a `/PA` entry, an action of a page
//! beyond the page tree): a mail filter still wants them.
//!
//! # What is read
//!
//! In this order: the catalog (`/Root`), its `/URI` dictionary's `/Base` (§12.6.4.7,
//! Table 207), its `/OpenAction` and `/AA`; the page tree (`/Pages`, `/Kids`), and for each
//! page its `/Annots` and `/AA`; the fields of `/AcroForm` (`/Fields`, `/Kids`); the
//! bookmarks (`/Outlines`, `/First`, `/Next`); then every object of the document, for the
//! action dictionaries not met yet. Links are sorted by the number of the indirect object
//! that holds the action (the action itself when it is indirect, or the annotation, page,
//! field or catalog it is written in), then by place in the order of the table, then in the
//! order they were found.
//!
//! A `/URI` is returned as written, relative or not; the caller resolves it against
//! [`Reading::base`]. What viewers do with a relative URI, from their sources:
//!
//! - PDFium (`CPDF_Action::GetURI`) prepends `/Base` to a URI with no `:` by concatenation,
//!   not RFC 3986 resolution, and returns the URI as it is when the catalog has no `/URI`
//!   dictionary. Chromium's viewer (`navigator.ts`, `guessUrlWithoutScheme_`) then takes a
//!   URI without `://` (and not `mailto:`) as `http://` + URI when the part before its first
//!   `/` has two dots or more (`www.example.com/x`, "as Acrobat Reader XI does", its comment
//!   says), as the document URL's origin + URI when it starts with `/`, and otherwise
//!   resolves it against the document URL; it opens only `http`, `https`, `ftp`, `file` and
//!   `mailto` URLs.
//! - pdf.js resolves the URI against `/Base` when that is a valid absolute URL, else against
//!   the document's URL (`Catalog.baseUrl`, `createValidAbsoluteUrl`), makes `http://www.…`
//!   of a URI that starts with `www.` (`addDefaultProtocol`), and makes no link of a
//!   relative URI it cannot resolve.
//! - Acrobat resolves against `/Base`, else against the location of the file (from its
//!   documentation and the behaviour Chromium copies, not from source).
//!
//! A file attached to a message is opened from a temporary file, so without `/Base` a
//! relative URI leads to a local path, except for the `www.`-like ones above.
//!
//! A file specification is reported only when it is a URL: when its dictionary says so
//! (`/FS /URL`, §7.11.5), as written; otherwise when it starts with a scheme of two
//! characters or more (RFC 3986 §3.1), so that `C:\dir\file` and `\\host\share` are not.
//! Each of `/UF`, `/F`, `/Unix`, `/Mac` and `/DOS`, and a `Launch` action's `/Win`, `/Mac`
//! and `/Unix` entries, counts: viewers differ in which they take.
//!
//! The text of each page is extracted for the caller to find the URLs a viewer makes links
//! of ([`text`]). Strings are decoded by [`string`].
//!
//! # Why lopdf, and where it is adapted
//!
//! lopdf is the kept-up PDF reader of the Rust ecosystem with no unsafe code: it reads
//! cross-reference tables and streams, incremental updates, rebuilds a broken cross-reference
//! table by scanning for objects, bounds parse nesting at 100, decrypts the standard
//! security handler (revisions 2 to 6, RC4 and AES) and bounds each stream's decompression.
//! The room adapts it where it does too much for a daemon that reads hostile mail:
//!
//! - It parses object streams in time and memory that grow with the square of their size
//!   (every index entry may name the same large object): [`prepare`] hides object streams
//!   from it and [`objstm`] expands them, each object parsed from its own bytes only.
//! - Its nesting bound of 100 takes about 2 MiB of stack in a debug build: [`read`] runs
//!   lopdf on a thread of its own with [`READER_STACK_BYTES`] of stack, whatever the caller's.
//! - Its text extraction holds every operation of a page at once (a few hundred bytes per
//!   byte of content), walks the page tree again for each page, skips form XObjects, and
//!   builds a map with an entry per code of a ToUnicode range (a range of 2³² codes in a few
//!   bytes): [`text`] reads operations one at a time with lopdf's parser and fonts, follows
//!   forms, and refuses such CMaps.
//! - Its load re-reads the whole file when the page tree is missing; the room asks it not to
//!   (by passing an object filter) and rebuilds the cross-reference table itself, once,
//!   after object streams are expanded.
//! - Its decompression limit is per stream; the room divides its budget by the number of
//!   streams lopdf can decompress while loading ([`prepare::stream_limit`]).
//!
//! Every walk of the room is an explicit stack or a bounded loop, with a set of what it has
//! seen, so that a cycle of references ends and no input deepens the call stack; the one
//! recursion, into nested form XObjects while extracting text, stops at 16 levels.
//!
//! # Encryption
//!
//! An encrypted file (ISO 32000-1 §7.6) is opened as a viewer opens it: with the empty user
//! password, which is all a file with only an owner password needs, else with the passwords
//! the caller gives, in order ([`open`]). A file that stays closed gives no link and no
//! text, and a [`ProblemKind::Encrypted`] problem; [`Reading::encryption`] names its
//! security handler and revision either way.
//!
//! # Limits
//!
//! See [`Limits`]. Reaching one is a [`ProblemKind::Limit`] problem, and the reading goes on
//! with what it has. A file lopdf cannot read at all, even by rebuilding its cross-reference
//! table, is a [`ProblemKind::Broken`] problem; so is a panic inside lopdf, which is caught.

mod actions;
mod objstm;
mod open;
mod prepare;
mod string;
mod text;
mod walk;

#[cfg(test)]
mod tests;

use std::panic::{AssertUnwindSafe, catch_unwind};

/// The stack of the thread that runs lopdf. lopdf's parsers recurse once per level of
/// nesting (arrays, dictionaries, literal strings), up to 100 levels each, and a level takes
/// about 10 KiB in a debug build; this is several times what the deepest input needs.
pub(crate) const READER_STACK_BYTES: usize = 16 * 1024 * 1024;

/// The most problems a reading reports; one more says that the rest were left out.
const MAX_PROBLEMS: usize = 64;

/// Bounds on the work of one [`read`].
///
/// ### Default
///
/// `max_decompressed_bytes` 64 MiB, `max_objects` 500 000, `max_text_bytes` 1 MiB,
/// `max_links` 10 000.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Bytes that streams may decompress to, per stream and in total.
    ///
    /// The object streams, page contents, form XObjects and ToUnicode CMaps the room
    /// decompresses itself share this as their total, and a page's content (with its forms)
    /// is read up to a 64th of it, because lopdf holds up to about 60 bytes of objects per
    /// byte of one content operation.
    ///
    /// While lopdf loads the file (once, or twice for a password or a rebuilt table) it
    /// decompresses cross-reference streams, and the object streams the cross-reference
    /// names when the file is encrypted or a stream's `/Length` lies in one. Each of those
    /// may decompress to this divided by the number of such decodes the file can call for,
    /// counted from its names (see `prepare::stream_limit`), so that a load stays within
    /// this. A file that names untyped streams as object streams escapes that count (a
    /// residual bound: each such stream costs at most the per-stream share, in time only).
    pub max_decompressed_bytes: usize,
    /// Indirect objects the document may hold: a file with more `obj` keywords is not
    /// loaded, and object streams are expanded up to this.
    pub max_objects: usize,
    /// Bytes of page text kept, over all pages (UTF-8).
    pub max_text_bytes: usize,
    /// Links reported.
    pub max_links: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_decompressed_bytes: 64 * 1024 * 1024,
            max_objects: 500_000,
            max_text_bytes: 1024 * 1024,
            max_links: 10_000,
        }
    }
}

/// Whether and how the file was decrypted (ISO 32000-1 §7.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opened {
    /// The trailer has no `/Encrypt`.
    NotEncrypted,
    /// Encrypted, and opened with the empty user password, as every viewer opens it
    /// without asking (an owner password only restricts what the reader may do).
    EmptyPassword,
    /// Encrypted, and opened with the password at this index (0-based) of the passwords
    /// given to [`read`].
    Password(usize),
    /// Encrypted, and not opened: no link or text was read.
    Closed,
}

/// The security handler of an encrypted file (ISO 32000-1 §7.6.1, Table 20; §7.6.3.2,
/// Table 21).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Encryption {
    /// `/Filter`: `Standard` for passwords (§7.6.3), or another handler's name.
    pub handler: String,
    /// `/V`, the algorithm (1–5), when known.
    pub version: Option<i64>,
    /// `/R`, the revision of the standard handler (2–6), when known.
    pub revision: Option<i64>,
}

/// Where an action was found: the first half of a [`Place`] (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Source {
    /// A page's annotation, its `/A` entry.
    Annot,
    /// A page's annotation, an entry of its `/AA`.
    AnnotAa,
    /// The catalog's `/OpenAction`.
    OpenAction,
    /// An entry of the catalog's or a page's `/AA`.
    Aa,
    /// An AcroForm field's `/A` or `/AA`.
    Field,
    /// A bookmark's `/A`.
    Outline,
    /// Anywhere else in the document.
    Object,
}

/// The type of an action that names something outside the document (ISO 32000-1
/// §12.6.4.1, Table 198): the second half of a [`Place`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum ActionType {
    /// `URI` (§12.6.4.7).
    Uri,
    /// `Launch` (§12.6.4.5).
    Launch,
    /// `GoToR`, a remote go-to (§12.6.4.3).
    GoToR,
    /// `GoToE`, an embedded go-to (§12.6.4.4).
    GoToE,
    /// `SubmitForm` (§12.7.5.2).
    SubmitForm,
    /// `ImportData` (§12.7.5.4).
    ImportData,
}

/// Where a link was found: the place of the action and its type, serialized as
/// [`Place::as_str`] (`annot/URI`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Place {
    /// What holds the action.
    pub source: Source,
    /// The action's type.
    pub action: ActionType,
}

impl Place {
    /// The place as the caller serializes it after `pdf:`: the source, `/`, the action type
    /// as ISO 32000-1 Table 198 spells it. These strings are a contract.
    pub(crate) fn as_str(self) -> &'static str {
        use ActionType::{GoToE, GoToR, ImportData, Launch, SubmitForm, Uri};
        use Source::{Aa, Annot, AnnotAa, Field, Object, OpenAction, Outline};
        match (self.source, self.action) {
            (Annot, Uri) => "annot/URI",
            (Annot, Launch) => "annot/Launch",
            (Annot, GoToR) => "annot/GoToR",
            (Annot, GoToE) => "annot/GoToE",
            (Annot, SubmitForm) => "annot/SubmitForm",
            (Annot, ImportData) => "annot/ImportData",
            (AnnotAa, Uri) => "annot-AA/URI",
            (AnnotAa, Launch) => "annot-AA/Launch",
            (AnnotAa, GoToR) => "annot-AA/GoToR",
            (AnnotAa, GoToE) => "annot-AA/GoToE",
            (AnnotAa, SubmitForm) => "annot-AA/SubmitForm",
            (AnnotAa, ImportData) => "annot-AA/ImportData",
            (OpenAction, Uri) => "OpenAction/URI",
            (OpenAction, Launch) => "OpenAction/Launch",
            (OpenAction, GoToR) => "OpenAction/GoToR",
            (OpenAction, GoToE) => "OpenAction/GoToE",
            (OpenAction, SubmitForm) => "OpenAction/SubmitForm",
            (OpenAction, ImportData) => "OpenAction/ImportData",
            (Aa, Uri) => "AA/URI",
            (Aa, Launch) => "AA/Launch",
            (Aa, GoToR) => "AA/GoToR",
            (Aa, GoToE) => "AA/GoToE",
            (Aa, SubmitForm) => "AA/SubmitForm",
            (Aa, ImportData) => "AA/ImportData",
            (Field, Uri) => "field/URI",
            (Field, Launch) => "field/Launch",
            (Field, GoToR) => "field/GoToR",
            (Field, GoToE) => "field/GoToE",
            (Field, SubmitForm) => "field/SubmitForm",
            (Field, ImportData) => "field/ImportData",
            (Outline, Uri) => "outline/URI",
            (Outline, Launch) => "outline/Launch",
            (Outline, GoToR) => "outline/GoToR",
            (Outline, GoToE) => "outline/GoToE",
            (Outline, SubmitForm) => "outline/SubmitForm",
            (Outline, ImportData) => "outline/ImportData",
            (Object, Uri) => "object/URI",
            (Object, Launch) => "object/Launch",
            (Object, GoToR) => "object/GoToR",
            (Object, GoToE) => "object/GoToE",
            (Object, SubmitForm) => "object/SubmitForm",
            (Object, ImportData) => "object/ImportData",
        }
    }
}

/// One link: the target of an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    /// Where the action was found, and its type.
    pub place: Place,
    /// The URI of a `URI` action, or the URL of a file specification, decoded as text
    /// ([`string::uri_string`]) and otherwise as written: possibly relative, not trimmed.
    pub target: String,
    /// The number of the indirect object that holds the action (the action itself when it
    /// is indirect, else the annotation, page, field, bookmark or catalog it is written in).
    pub object: Option<u32>,
    /// The page (1-based, in page tree order) of the annotation or page `/AA` that holds
    /// the action, or the page a field's widget names with `/P`.
    pub page: Option<u32>,
}

/// The text of one page as a viewer extracts it (see [`text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PageText {
    /// The page number, 1-based, in page tree order (the numbers of [`Link::page`]).
    pub page: u32,
    /// The text, lines separated by LF.
    pub text: String,
}

/// What kind of trouble a [`Problem`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProblemKind {
    /// The file, or a part of it, is not a PDF that can be read.
    Broken,
    /// A [`Limits`] bound, or a bound of the room's own, was reached.
    Limit,
    /// The file is encrypted and was not opened.
    Encrypted,
}

/// Something that kept the room from reading all of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// What happened, lowercase, without a trailing period.
    pub message: String,
    /// The number of the object concerned, if any.
    pub object: Option<u32>,
    /// The page concerned (1-based), if any.
    pub page: Option<u32>,
}

impl Problem {
    /// A problem about no object or page in particular.
    pub(crate) fn new(kind: ProblemKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            object: None,
            page: None,
        }
    }
}

/// Everything [`read`] found in one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    /// Whether the file was encrypted, and how it was opened.
    pub opened: Opened,
    /// The security handler, when the file is encrypted.
    pub encryption: Option<Encryption>,
    /// The catalog's `/URI` dictionary's `/Base` (ISO 32000-1 §12.6.4.7, Table 207), decoded
    /// as a URI string, for the caller to resolve relative links against.
    pub base: Option<String>,
    /// The links, in the order of the [module docs](self).
    pub links: Vec<Link>,
    /// The text of each page that has any, in page order.
    pub pages: Vec<PageText>,
    /// What kept the room from reading all of the file, in the order met.
    pub problems: Vec<Problem>,
}

impl Reading {
    /// A reading that found nothing.
    fn empty() -> Self {
        Self {
            opened: Opened::NotEncrypted,
            encryption: None,
            base: None,
            links: Vec::new(),
            pages: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Adds `problem`, unless [`MAX_PROBLEMS`] are there already (the first one left out
    /// is replaced by a note saying so).
    fn push_problem(&mut self, problem: Problem) {
        match self.problems.len() {
            n if n < MAX_PROBLEMS => self.problems.push(problem),
            n if n == MAX_PROBLEMS => self.problems.push(Problem::new(
                ProblemKind::Limit,
                "more problems were left out",
            )),
            _ => {}
        }
    }
}

/// What is left of [`Limits::max_decompressed_bytes`] for the streams the room decompresses
/// itself (object streams, page contents, ToUnicode CMaps).
#[derive(Debug)]
pub(crate) struct Budget {
    /// Bytes left.
    remaining: usize,
}

impl Budget {
    /// A budget of `bytes`.
    pub(crate) fn new(bytes: usize) -> Self {
        Self { remaining: bytes }
    }

    /// Bytes left: the most the next stream may decompress to.
    pub(crate) fn remaining(&self) -> usize {
        self.remaining
    }

    /// Counts `bytes` as decompressed.
    pub(crate) fn spend(&mut self, bytes: usize) {
        self.remaining = self.remaining.saturating_sub(bytes);
    }
}

/// The text of a panic's payload, for a problem's message.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    lowercase_message(&text)
}

/// `message` (lopdf's, or a panic's) as a problem message: first letter lowercase, no
/// trailing period.
pub(crate) fn lowercase_message(message: &str) -> String {
    let trimmed = message.trim().trim_end_matches('.');
    let mut chars = trimmed.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Reads one PDF file: its links, base and page text (see the [module docs](self)).
///
/// `passwords` are tried in order when the file is encrypted and the empty user password
/// does not open it (the caller bounds their number: each costs a key derivation, up to
/// 64 rounds of SHA-2 for revision 6). Never panics on any input: lopdf runs on a thread of
/// its own with [`READER_STACK_BYTES`] of stack, and a panic inside it becomes a
/// [`ProblemKind::Broken`] problem.
///
/// The thread gets a copy of the file rather than a borrow: a scoped thread would make the
/// standard library give the calling thread a handle of its own, kept for that thread's life,
/// which a C program calling the library (a filter daemon's thread) sees as memory lost.
pub(crate) fn read(bytes: &[u8], passwords: &[String], limits: &Limits) -> Reading {
    let (bytes, passwords, limits) = (bytes.to_vec(), passwords.to_vec(), limits.clone());
    let worker = std::thread::Builder::new()
        .name("mimebase-pdf".to_owned())
        .stack_size(READER_STACK_BYTES)
        .spawn(move || read_here(&bytes, &passwords, &limits));
    let outcome = match worker {
        Ok(handle) => handle
            .join()
            .map_err(|payload| format!("reading failed: {}", panic_message(&*payload))),
        Err(error) => Err(format!(
            "cannot start the thread that reads the file: {error}"
        )),
    };
    outcome.unwrap_or_else(|message| {
        let mut reading = Reading::empty();
        reading.push_problem(Problem::new(ProblemKind::Broken, message));
        reading
    })
}

/// [`read`] on the calling thread, with a panic caught (the thread must have
/// [`READER_STACK_BYTES`] of stack).
fn read_here(bytes: &[u8], passwords: &[String], limits: &Limits) -> Reading {
    catch_unwind(AssertUnwindSafe(|| read_document(bytes, passwords, limits))).unwrap_or_else(
        |payload| {
            let mut reading = Reading::empty();
            reading.push_problem(Problem::new(
                ProblemKind::Broken,
                format!("reading failed: {}", panic_message(&*payload)),
            ));
            reading
        },
    )
}

/// Loads, decrypts and reads the document: the steps of [`read`].
fn read_document(bytes: &[u8], passwords: &[String], limits: &Limits) -> Reading {
    let mut reading = Reading::empty();
    let mut problems = Vec::new();
    let mut budget = Budget::new(limits.max_decompressed_bytes);
    let prepared = prepare::prepare(bytes);
    let opening = open::open(&prepared, passwords, limits, &mut budget, &mut problems);
    reading.opened = opening.opened;
    reading.encryption = opening.encryption;
    if let Some(mut document) = opening.document {
        let restore = prepared.renamed > 0;
        let found = walk::walk(&document, restore, limits.max_links);
        reading.base = found.base;
        reading.links = found.links;
        problems.extend(found.problems);
        let (pages, page_problems) =
            text::extract(&mut document, &found.pages, limits, &mut budget, restore);
        reading.pages = pages;
        problems.extend(page_problems);
    }
    for problem in problems {
        reading.push_problem(problem);
    }
    reading
}
