//! `extract`: every leaf entity of a message as a file, HTML, SVG and CSS parts with the URLs
//! that name another part of the message (see [`target`](crate::target)) pointing at that
//! part's file, so that the message's page opens from disk as a browser shows the message (an
//! MHTML archive, an HTML mail with its images): with its images, stylesheets, fonts and
//! frames, and without a URL that reaches a file outside the directory. Every other URL is
//! made inert and each page carries a Content-Security-Policy, so that opening it contacts no
//! one ([`Network::Offline`], what [`extract()`] does); or, [`Network::Online`], kept as the
//! archive shows it, relative ones made absolute.
//!
//! This module decides the files' names and contents; writing them into a directory is the
//! caller's (the `mimebase extract` command writes them and an `index.json`).
//!
//! # Contents
//!
//! Every leaf entity (one with no entity inside it) becomes one file, its body with the
//! transfer encoding undone (RFC 2045 §6); an encapsulated message that is not walked into is
//! written as it is, as a `.eml` file. An archive (a ZIP part) is written as the file it is,
//! not as its members ([`EntityKind::Member`] entities are not written): the message sent the
//! archive, and a reader who opens the written file unpacks it as the sent one. In HTML parts (every URL source that
//! [`analyze`](crate::analyze()) reports, CSS in `style` attributes and `<style>` elements
//! included) and CSS parts (`text/css`: every `url()`, `@import` string and `image-set()`
//! string), each URL
//!
//! - that names another entity (a [`target`](crate::UrlRecord::target): `cid:`, `mid:`, a
//!   `Content-Location`) is replaced by the relative path of that entity's file,
//!   percent-encoded (RFC 3986 §2.1), with the URL's fragment kept;
//! - that is relative and resolved, but names no entity, is replaced by its resolved form, as
//!   [`rewrite`](crate::rewrite()) writes it: left relative, it would name a file beside (or
//!   above) the written one;
//! - that would reach a local file other than those written is replaced by `about:invalid#`
//!   and the reference percent-encoded, a URL no browser loads: a `file:` URL (written so,
//!   or resolved against a `file:` base, as pages saved by Word are), a relative reference
//!   that did not resolve (no base) or resolved only against `thismessage:/` (RFC 2557 §5
//!   (e)), which in the written file would resolve against the file's own `file:` URL
//!   (`../../etc/x`, `//host/share`, a Windows network path);
//! - is otherwise left as written: same-document references (empty, or a fragment alone),
//!   absolute URLs of other schemes naming no entity;
//! - offline ([`Network::Offline`]), when it is not then the path of a file, a same-document
//!   reference or a URL of a local scheme (the Fetch Standard's `about`, `blob` and `data`,
//!   which never leave the browser), is replaced by `about:invalid#` and what it would be
//!   written as online (the resolved URL of a relative reference) percent-encoded: a link,
//!   an image, a frame, a stylesheet, a font, `srcset` candidates, `ping` URLs, a form's
//!   `action`, `<object data>`, `<embed src>`, SVG `href`s, CSS `url()` and `@import`, a
//!   `<meta http-equiv=refresh>` (a browser then opens an empty page rather than the one it
//!   named), a `<link rel=preconnect>` or `dns-prefetch`, which no policy governs.
//!
//! Offline, every file a browser opens from disk as a page by its name (`.html`, `.htm`,
//! `.shtml`, `.xhtml`, `.xht`, `.svg`) also gets a Content-Security-Policy, [`POLICY`], that
//! forbids every load but of `file:` and `data:` URLs, and runs no script: it stops what no
//! rewriting reached (a part that could not be changed, a URL the scan does not report, a URL
//! an SVG entity brings in). In HTML it is a `<meta http-equiv="Content-Security-Policy">`
//! inserted into `<head>` before anything that fetches; in an SVG or XHTML document an XHTML
//! `<head>` holding that `<meta>` right after the root's start tag, which Chromium applies
//! (WebKit finds a document's head by the same rule; Firefox only under an `<html>` root, so
//! there an SVG file relies on its inert URLs). The bytes are inserted, nothing else changes.
//! A page where it cannot go (an XML document with no root start tag) gets a
//! [`DiagnosticKind::RewriteSkipped`] diagnostic saying so.
//!
//! A part's URLs resolve against its effective base (RFC 2557 §5: an MHTML part's
//! `Content-Location`), a frame's against its own, a stylesheet's against the stylesheet's
//! (CSS Values and Units §4.5.1), as [`analyze`](crate::analyze()) resolves them, with one
//! difference: `thismessage:/`.
//!
//! `extract`'s job is to show the message as a reader shows it, and a reader of a
//! `multipart/related` message (an MHTML reader, a mail client showing an HTML body with its
//! images) finds the parts its page names by their `Content-Location` even when no part
//! gives an absolute one: `<img src="image1">` and a part with `Content-Location: image1`.
//! RFC 2557 §5 (e) makes that work by resolving such relative URLs against `thismessage:/`
//! when nothing else gives a base, so under the `default` profile [`extract`] ends base
//! precedence the way the `mhtml` profile does: the root's base, when no header, `<base
//! href>` or retrieval URL gives one, is `thismessage:/` (reported as such in
//! [`Extracted::report`]). `analyze` does not, because it reports where the message's URLs
//! lead on the web, and `thismessage:/` leads nowhere. The `rfc1808` profile is taken as
//! chosen (no such base), and the `mhtml` profile has it anyway. A relative URL that names
//! no part still leads nowhere; it is written inert and counted in
//! [`ExtractedFile::inert_urls`].
//!
//! The HTML
//! Standard resolves a page's URLs against its `<base href>`, which in the written page would
//! turn the relative file paths back into URLs on the web: a `<base href>` is replaced by the
//! page's own file name (every other URL being a file path or absolute, it then changes
//! nothing). On an element whose URL now points at a file, `crossorigin` and `integrity` are
//! renamed `data-crossorigin` and `data-integrity`: a page opened from disk has an opaque
//! origin, for which a CORS fetch of another file fails (HTML Standard §2.5.4, CORS settings
//! attributes), and a stylesheet changed here no longer matches its digest (Subresource
//! Integrity §3.3.5). Elements whose URLs stay on the web keep both.
//!
//! The splicing is [`rewrite`](crate::rewrite())'s: only the bytes of those URLs (and
//! attribute names) change, escaped for where they stand (HTML attribute quoting, CSS
//! escapes), in the part's own charset (a stylesheet's as CSS Syntax §3.2 determines it: byte
//! order mark, `charset` parameter, `@charset`, UTF-8), and the new text must read back the
//! same URLs. A part that cannot be changed faithfully is written decoded and unchanged, with
//! a [`DiagnosticKind::RewriteSkipped`] diagnostic (offline, a page still gets its policy,
//! which stops its loads, not a refresh or a link followed). The HTML file keeps the part's
//! charset and has no `Content-Type` beside it: a browser opening it from disk goes by
//! `<meta charset>` or guesses.
//!
//! A target that is not a leaf is followed to the leaf that stands for it: the root of a
//! `multipart/related` (its `start` parameter's Content-ID, else its first body part, RFC
//! 2387 §3.2), the last part of a `multipart/alternative` (RFC 2046 §5.1.4: the preferred
//! one), the first part of any other multipart, the message inside a `message/rfc822` part.
//!
//! # File names
//!
//! All files are in one directory, without subdirectories, so that a relative path is a file
//! name. A name is the last path segment of the entity's `Content-Location` (percent-decoded),
//! else the `filename` parameter of `Content-Disposition`, else the `name` parameter of
//! `Content-Type`, when that name is safe; otherwise `part-<part>.<extension>` from the media
//! type. A name is safe when it is at most 120 bytes and none of these holds: it is empty, `.`
//! or `..`, begins with `.` (hidden, or a relative path), contains `/`, `\`, NUL, a C0 or C1
//! control character or DEL, one of `<>:"|?*` (not allowed on Windows), ends with a space or
//! `.` (Windows strips them), or its part before the first `.` is a Windows device name
//! (`CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`, `CONIN$`, `CONOUT$`, in any
//! case). A fallback name for a part nested so deep that its identifier passes 100 bytes is
//! `part-n<position>.<extension>` (0-based position in document order). Characters of Unicode's
//! general category Cf (bidirectional controls, zero-width characters) are dropped from a
//! suggested name first. A part whose media type a browser opens by file extension (HTML,
//! XHTML, CSS, JavaScript, images, fonts) gets that type's extension when its name has none
//! of the type's: the stem is kept (`Node.js` of an HTML part is written `Node.html`). Names
//! are unique under full Unicode case folding (case-insensitive file systems): a second
//! `a.png` (or `A.PNG`) becomes `a-2.png`, then `a-3.png`; `index.json` is taken by the index.
//!
//! Why hand-written: the file naming rules are this command's own decisions; the
//! percent-encoding is the `percent-encoding` crate's, case folding the `caseless` crate's,
//! general categories the `unicode-properties` crate's, the media-type table is a handful of
//! common types (a reverse lookup in `mime_guess` lists every extension of a type in no
//! order of preference, `jfif` before `jpg`).

mod names;
pub(crate) mod policy;
mod stylesheet;

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use encoding_rs::UTF_8;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::analyze::{HtmlPart, Keep, analyze_collecting, resolve};
use crate::mime::{self, Entity, Walk};
use crate::options::Options;
use crate::report::{
    Diagnostic, DiagnosticKind, EntityKind, PartId, Report, Resolution, UrlRecord, UrlSource,
};
use crate::rewrite::{absolute_form, is_editable, is_same_document, splice_decoded};
use crate::target::Linker;
use crate::url::{has_scheme, strip_reference};
use crate::vocab::FieldName;

use names::Names;
use policy::Flavor;
pub use policy::POLICY;

/// Whether the pages [`extract_with`] writes may reach the network when they are opened (see
/// the [module docs](mod@crate::extract)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Network {
    /// Every URL that names no part of the message, and is not a `data:`, `about:` or
    /// `blob:` URL, is written inert (`about:invalid#…`), and every HTML and SVG page carries
    /// a Content-Security-Policy ([`POLICY`]) that forbids loads but from `file:` and
    /// `data:` URLs: opened, the page contacts no one. What [`extract`] does.
    #[default]
    Offline,
    /// URLs on the web are kept (relative ones made absolute), as the archive shows the
    /// page, remote images included; no policy is inserted.
    Online,
}

/// What [`extract`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The report of the message, with a [`DiagnosticKind::RewriteSkipped`] diagnostic for
    /// each HTML or CSS part written unchanged although URLs of it were to change, and a
    /// [`DiagnosticKind::UnmatchedCid`] one for each `cid:` URL of a stylesheet that names no
    /// part.
    pub report: Report,
    /// One file per leaf entity, in document order; names are unique under full Unicode case
    /// folding and never `index.json`.
    pub files: Vec<ExtractedFile>,
    /// The file of the message's main document: the leaf that stands for the root entity
    /// (see the [module docs](mod@crate::extract)) when it is HTML, else the first HTML file,
    /// else (a message without HTML, such as a plain-text one) the leaf that stands for the
    /// root entity; `None` only when the message has no file at all.
    pub root: Option<String>,
}

/// One leaf entity as a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedFile {
    /// A safe file name (see the [module docs](mod@crate::extract)).
    pub name: String,
    /// The entity.
    pub part: PartId,
    /// Its media type, `type/subtype`, lowercase.
    pub content_type: String,
    /// Its effective base URL, if any.
    pub base: Option<String>,
    /// Its `Content-Location`, resolved when it could be, else as written; `None` without one.
    pub content_location: Option<String>,
    /// The body with its transfer encoding undone; for an HTML or CSS part, with its URLs
    /// changed (see the [module docs](mod@crate::extract)).
    pub bytes: Vec<u8>,
    /// How many URLs of an HTML, SVG or CSS file were changed: pointed at another file, made
    /// absolute or inert, or (`<base href>`) made the file's own name.
    pub rewritten_urls: usize,
    /// True when a Content-Security-Policy ([`POLICY`]) was inserted into the file (offline,
    /// a page a browser opens by its name as HTML, XHTML or SVG).
    pub csp: bool,
    /// How many of the changed URLs were written inert (`about:invalid#…`), by why: among
    /// [`ExtractedFile::rewritten_urls`].
    pub inert_urls: InertUrls,
}

/// How many URLs of a file [`extract`] wrote inert (`about:invalid#` and the URL), by why
/// (see the [module docs](mod@crate::extract)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct InertUrls {
    /// Relative references that name no part and could not be made absolute: there was no
    /// base, or only `thismessage:/` (RFC 2557 §5 (e)). Opened, these are what a reader of
    /// the message would see broken too.
    pub unresolved: usize,
    /// `file:` URLs, written so or resolved against a `file:` base: they would reach a local
    /// file other than those written.
    pub file: usize,
    /// Every other URL that names no part, [`Network::Offline`]: kept from the network.
    pub offline: usize,
}

impl InertUrls {
    /// All of them.
    pub fn total(&self) -> usize {
        self.unresolved + self.file + self.offline
    }

    /// One more of `why`.
    fn count(&mut self, why: Option<Inert>) {
        match why {
            Some(Inert::Unresolved) => self.unresolved += 1,
            Some(Inert::File) => self.file += 1,
            Some(Inert::Offline) => self.offline += 1,
            None => {}
        }
    }
}

/// Why [`new_value`] wrote a URL inert: the kinds [`InertUrls`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inert {
    Unresolved,
    File,
    Offline,
}

/// The files of every leaf entity of `raw` (see the [module docs](mod@crate::extract)), with
/// bases, profile and resolver from `options` as for [`analyze`](crate::analyze) (but for
/// `thismessage:/`, see the module docs), written [`Network::Offline`]: [`extract_with`] with
/// that.
///
/// # Errors
///
/// None: it is total over its input, like `analyze`. A part that cannot be changed is
/// written unchanged and reported in [`Extracted::report`].
///
/// ```
/// let message = b"Content-Type: multipart/related; boundary=r\r\n\r\n\
/// --r\r\nContent-Type: text/html\r\n\r\n<img src=\"cid:logo@x\">\r\n\
/// --r\r\nContent-Type: image/png\r\nContent-ID: <logo@x>\r\n\
/// Content-Disposition: inline; filename=\"logo.png\"\r\n\r\nPNG\r\n--r--\r\n";
/// let extracted = mimebase::extract(message, &mimebase::Options::new());
/// let names: Vec<&str> = extracted.files.iter().map(|f| f.name.as_str()).collect();
/// assert_eq!(names, ["part-1.html", "logo.png"]);
/// // The page carries the policy, then its own bytes, the image pointing at its file.
/// let policy = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">", mimebase::extract::POLICY);
/// assert_eq!(extracted.files[0].bytes, format!("{policy}<img src=\"logo.png\">").as_bytes());
/// assert_eq!(extracted.root.as_deref(), Some("part-1.html"));
/// ```
pub fn extract(raw: &[u8], options: &Options) -> Extracted {
    extract_with(raw, options, Network::Offline)
}

/// The files of every leaf entity of `raw` (see the [module docs](mod@crate::extract)), with
/// bases, profile and resolver from `options` as for [`analyze`](crate::analyze) (but for
/// `thismessage:/`, see the module docs), and URLs on the web made inert or kept as `network`
/// says.
///
/// # Errors
///
/// None: it is total over its input, like `analyze`. A part that cannot be changed is
/// written unchanged (offline, a page then still gets its policy) and reported in
/// [`Extracted::report`].
///
/// ```
/// use mimebase::extract::{Network, extract_with};
/// let message = b"Content-Type: text/html\r\n\r\n<title>t</title><img src=\"https://t.example/o.gif\">";
/// let online = extract_with(message, &mimebase::Options::new(), Network::Online);
/// assert_eq!(online.files[0].bytes, b"<title>t</title><img src=\"https://t.example/o.gif\">");
/// let offline = extract_with(message, &mimebase::Options::new(), Network::Offline);
/// let page = String::from_utf8(offline.files[0].bytes.clone()).unwrap();
/// assert_eq!(
///     page,
///     format!(
///         "<title>t</title><meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\
///          <img src=\"about:invalid#https%3A%2F%2Ft.example%2Fo.gif\">",
///         mimebase::extract::POLICY
///     )
/// );
/// ```
pub fn extract_with(raw: &[u8], options: &Options, network: Network) -> Extracted {
    // Rendered as an MHTML reader renders it: see "Bases" in the module docs.
    let options = &options.clone().with_thismessage_root();
    let analysis = analyze_collecting(raw, options, Keep::Rewritable);
    let mut report = analysis.report;
    let walk = analysis.walk;
    let children = children(&walk);
    let index_of: HashMap<&PartId, usize> = walk
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| (&e.part, i))
        .collect();
    // Each entity's first Content-Location: resolved when it could be, else as written (for
    // the index and the file name), and the first that resolved (what URLs are matched
    // against, as `analyze` matched them).
    let mut written_location: Vec<Option<String>> = vec![None; walk.entities.len()];
    let mut resolved_location: Vec<Option<String>> = vec![None; walk.entities.len()];
    for url in &report.urls {
        let UrlSource::Header {
            name: FieldName::ContentLocation,
            ..
        } = url.source
        else {
            continue;
        };
        let Some(&index) = index_of.get(&url.part) else {
            continue;
        };
        let resolved = url.resolution.resolved();
        if let Some(slot) = written_location.get_mut(index).filter(|s| s.is_none()) {
            *slot = Some(resolved.unwrap_or(&url.reference).to_owned());
        }
        if let Some(slot) = resolved_location.get_mut(index).filter(|s| s.is_none()) {
            *slot = resolved.map(str::to_owned);
        }
    }
    let mut names = Names::default();
    let mut file_of_entity: HashMap<usize, usize> = HashMap::new();
    let mut entity_of_file = Vec::new();
    let mut files = Vec::new();
    for (index, entity) in walk.entities.iter().enumerate() {
        // An archive is written as the file it is; its members are inside it.
        if entity.kind == EntityKind::Member || !children.get(index).is_some_and(Vec::is_empty) {
            continue;
        }
        let content_location = written_location.get_mut(index).and_then(Option::take);
        let name = names.claim(entity, index, content_location.as_deref());
        let mut diagnostics = Vec::new();
        let bytes = mime::decoded_body(walk.bytes(raw, entity.buffer), entity, &mut diagnostics)
            .into_owned();
        file_of_entity.insert(index, files.len());
        entity_of_file.push(index);
        files.push(ExtractedFile {
            name,
            part: entity.part.clone(),
            content_type: entity.content_type.essence(),
            base: report.entities.get(index).and_then(|r| r.base.url.clone()),
            content_location,
            bytes,
            rewritten_urls: 0,
            csp: false,
            inert_urls: InertUrls::default(),
        });
    }
    let file_names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    let file_for = |part: &PartId| -> Option<usize> {
        let leaf = leaf_for(&walk, &children, *index_of.get(part)?)?;
        file_of_entity.get(&leaf).copied()
    };
    // The relative URL of the file of the entity `part`, with the fragment of `reference`.
    let path_to = |part: &PartId, reference: &str| -> Option<String> {
        let name = file_names.get(file_for(part)?)?;
        let mut path = utf8_percent_encode(name, PATH).to_string();
        if let Some((_, fragment)) = reference.split_once('#') {
            path.push('#');
            path.push_str(fragment);
        }
        Some(path)
    };
    // The new value of each HTML URL record, and why it is inert when it is: see the module
    // docs.
    let (new_values, inert_why): (Vec<Option<String>>, Vec<Option<Inert>>) = report
        .urls
        .iter()
        .map(|url| {
            let (UrlSource::Html { tag, attribute, .. } | UrlSource::Svg { tag, attribute, .. }) =
                &url.source
            else {
                return None;
            };
            if tag == "base" && *attribute == Some("href") {
                let own = file_names.get(file_for(&url.part)?)?;
                return Some((utf8_percent_encode(own, PATH).to_string(), None));
            }
            new_value(
                &url.reference,
                &url.resolution,
                url.target.as_ref().map(|t| &t.part),
                &path_to,
                network,
            )
        })
        .map(|value| match value {
            Some((value, why)) => (Some(value), why),
            None => (None, None),
        })
        .unzip();
    let mut diagnostics = Vec::new();
    for part in &analysis.html {
        let Some(entity) = walk.entities.get(part.entity) else {
            continue;
        };
        let Some(&file) = file_of_entity.get(&part.entity) else {
            continue;
        };
        // URLs an SVG entity brought in (or in a `<style>` of several runs of text) cannot be
        // edited: they are left as they are, and the others still change.
        let left: HashSet<usize> = part
            .urls
            .iter()
            .filter(|(url, _)| !is_editable(part, url))
            .map(|(_, record)| *record)
            .collect();
        let to_change = |record: usize| {
            !left.contains(&record) && new_values.get(record).is_some_and(Option::is_some)
        };
        let count = part
            .urls
            .iter()
            .filter(|(_, record)| to_change(*record))
            .count();
        let live = left
            .iter()
            .filter(|record| new_values.get(**record).is_some_and(Option::is_some))
            .count();
        if live > 0 && network == Network::Offline {
            diagnostics.push(Diagnostic {
                part: Some(entity.part.clone()),
                kind: DiagnosticKind::RewriteSkipped,
                message: format!(
                    "URLs left as written, brought in by an entity or in a <style> element whose text is not one run of characters: {live}; offline, only the Content-Security-Policy stops their loads"
                ),
            });
        }
        // A part that lost URLs to the limit may hold links to other parts among them: it is
        // written unchanged and said so (`splice_decoded` refuses it), even when none of its
        // recorded URLs names a part.
        if count == 0 && part.urls_not_recorded == 0 {
            continue;
        }
        let new_value = |record: usize| {
            if left.contains(&record) {
                return None;
            }
            new_values.get(record).and_then(|v| v.as_deref())
        };
        let renames = fetch_attribute_renames(part, &report.urls, &new_values);
        match splice_decoded(raw, &walk, entity, part, &new_value, &renames) {
            Ok((bytes, _)) => {
                if let Some(file) = files.get_mut(file) {
                    file.bytes = bytes;
                    file.rewritten_urls = count;
                    for (_, record) in part.urls.iter().filter(|(_, r)| to_change(*r)) {
                        file.inert_urls
                            .count(inert_why.get(*record).copied().flatten());
                    }
                }
            }
            Err(reason) => diagnostics.push(unchanged(entity, &reason, network)),
        }
    }
    let mut linker = Linker::new(&walk, |index| {
        resolved_location.get(index).cloned().flatten()
    });
    let resolver = options.resolver();
    for (file, &index) in entity_of_file.iter().enumerate() {
        let (Some(entity), Some(record)) = (walk.entities.get(index), report.entities.get(index))
        else {
            continue;
        };
        if entity.content_type.essence() != "text/css" {
            continue;
        }
        let Some(bytes) = files.get(file).map(|f| f.bytes.as_slice()) else {
            continue;
        };
        // A stylesheet's URLs resolve against the stylesheet's own URL (CSS Values §4.5.1):
        // its base, as for any part.
        let mut inert_urls = InertUrls::default();
        let mut new_value = |reference: &str| {
            let resolution = resolve(resolver, &record.base, reference, Some(UTF_8));
            let target = linker.find(
                reference,
                resolution.resolved(),
                index,
                &entity.part,
                &mut diagnostics,
            );
            let (value, why) = new_value(
                reference,
                &resolution,
                target.as_ref().map(|t| &t.part),
                &path_to,
                network,
            )?;
            inert_urls.count(why);
            Some(value)
        };
        match stylesheet::rewrite(bytes, entity.content_type.param("charset"), &mut new_value) {
            Ok(None) => {}
            Ok(Some((bytes, count))) => {
                if let Some(file) = files.get_mut(file) {
                    file.bytes = bytes;
                    file.rewritten_urls = count;
                    file.inert_urls = inert_urls;
                }
            }
            Err(reason) => diagnostics.push(unchanged(entity, &reason, network)),
        }
    }
    if network == Network::Offline {
        for file in &mut files {
            let Some(flavor) = page_flavor(&file.name) else {
                continue;
            };
            match policy::insert(&file.bytes, flavor) {
                Ok(bytes) => {
                    file.bytes = bytes;
                    file.csp = true;
                }
                Err(no_place) => diagnostics.push(Diagnostic {
                    part: Some(file.part.clone()),
                    kind: DiagnosticKind::RewriteSkipped,
                    message: format!(
                        "no Content-Security-Policy inserted: {}; only its inert URLs keep the page offline",
                        no_place.reason()
                    ),
                }),
            }
        }
    }
    report.diagnostics.extend(diagnostics);
    let is_html = |file: &ExtractedFile| {
        matches!(
            file.content_type.as_str(),
            "text/html" | "application/xhtml+xml"
        )
    };
    let body = file_for(&PartId::root()).and_then(|i| files.get(i));
    let root = body
        .filter(|f| is_html(f))
        .or_else(|| files.iter().find(|f| is_html(f)))
        .or(body)
        .map(|f| f.name.clone());
    Extracted {
        report,
        files,
        root,
    }
}

/// What a URL of an extracted HTML, SVG or CSS file is written as: the path of the file of
/// the entity it names (`target`), else its absolute form when it is relative and resolved
/// (see [`absolute_form`]), else as it was (`None`); but a URL that would then reach a local
/// file other than those written (a `file:` URL, or a relative reference that did not
/// resolve, or only against `thismessage:/`, which in the written file would resolve against
/// the file's own `file:` URL: `../../etc/x`, `//host/share`) is written [`inert`]. A
/// same-document reference is kept (`None`). [`Network::Offline`] writes every URL that does
/// not then name a file [`inert`] (the absolute form in its fragment) unless its scheme is a
/// local one (see [`is_local_scheme`]). With the value, why it is inert when it is.
fn new_value(
    reference: &str,
    resolution: &Resolution,
    target: Option<&PartId>,
    path_to: &dyn Fn(&PartId, &str) -> Option<String>,
    network: Network,
) -> Option<(String, Option<Inert>)> {
    let stripped = strip_reference(reference);
    if is_same_document(&stripped) {
        return None;
    }
    if let Some(path) = target.and_then(|part| path_to(part, reference)) {
        return Some((path, None));
    }
    let online = match absolute_form(reference, resolution) {
        Some(absolute) if !is_file_url(absolute) => Some((absolute.to_owned(), None)),
        Some(_) => Some((inert(&stripped), Some(Inert::File))),
        None if is_file_url(&stripped) => Some((inert(&stripped), Some(Inert::File))),
        None if !has_scheme(&stripped) => Some((inert(&stripped), Some(Inert::Unresolved))),
        None => None,
    };
    // What the online page holds; inert ones are `about:` URLs, and kept.
    let written = online
        .as_ref()
        .map_or(&*stripped, |(value, _)| value.as_str());
    if network == Network::Offline && !is_local_scheme(written) {
        return Some((inert(written), Some(Inert::Offline)));
    }
    online
}

/// True for a URL whose scheme is one of the Fetch Standard's local schemes, `about`, `blob`
/// and `data` (ASCII case-insensitive): fetching one never leaves the browser (a `data:` URL
/// holds its content, `about:blank` is empty, a `blob:` URL names an object a script of the
/// page made), so it contacts no one and is kept offline.
fn is_local_scheme(url: &str) -> bool {
    ["about:", "blob:", "data:"].iter().any(|scheme| {
        url.get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
    })
}

/// How a browser opening the file `name` from disk reads it, by its extension (ASCII
/// case-insensitive), when it is a page: HTML (`.html`, `.htm`, `.shtml`) or XML (`.svg`,
/// `.xhtml`, `.xht`). A browser goes by the extension, not by what the part was sent as, and
/// shows a file of another or no extension as text or downloads it, so that only these
/// files need the policy.
fn page_flavor(name: &str) -> Option<Flavor> {
    let (_, extension) = name.rsplit_once('.')?;
    let is = |list: &[&str]| list.iter().any(|e| extension.eq_ignore_ascii_case(e));
    if is(&["html", "htm", "shtml"]) {
        Some(Flavor::Html)
    } else if is(&["svg", "xhtml", "xht"]) {
        Some(Flavor::Xml)
    } else {
        None
    }
}

/// True for a URL with the scheme `file` (ASCII case-insensitive).
fn is_file_url(url: &str) -> bool {
    url.get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("file:"))
}

/// `about:invalid#` and the reference percent-encoded: a URL no browser loads (the URL the
/// CSS Values specification gives a `url()` that does not parse), which keeps the reference
/// readable in its fragment.
fn inert(reference: &str) -> String {
    format!("about:invalid#{}", utf8_percent_encode(reference, PATH))
}

/// The edits that rename the `crossorigin` and `integrity` attributes of the elements of
/// `part` with a URL pointing at another part's file to `data-crossorigin` and
/// `data-integrity`: opened from disk, the page has an opaque origin, for which a CORS fetch
/// of a `file:` URL fails (HTML Standard §2.5.4), and a stylesheet `extract` changed no longer
/// matches its digest (Subresource Integrity §3.3.5). Elements whose URLs stay on the web keep
/// both.
fn fetch_attribute_renames(
    part: &HtmlPart,
    records: &[UrlRecord],
    new_values: &[Option<String>],
) -> Vec<(Range<usize>, String)> {
    // The fetch attributes are those of the part's own document, whose URLs' ranges are in
    // order; a `srcdoc` document's URLs index its own text.
    let own: Vec<_> = part
        .urls
        .iter()
        .filter(|(url, _)| url.document == 0)
        .collect();
    part.fetch_attributes
        .iter()
        .filter(|attribute| {
            // The URLs are in document order: those of the element follow the first one at
            // or after the start of its span.
            let first = own.partition_point(|(url, _)| url.range.start < attribute.urls.start);
            own.get(first..)
                .unwrap_or_default()
                .iter()
                .take_while(|(url, _)| attribute.urls.contains(&url.range.start))
                .copied()
                .any(|(_, record)| {
                    records.get(*record).is_some_and(|r| r.target.is_some())
                        && new_values.get(*record).is_some_and(Option::is_some)
                })
        })
        .map(|attribute| {
            let name = part.text.get(attribute.name.clone()).unwrap_or_default();
            (attribute.name.clone(), format!("data-{name}"))
        })
        .collect()
}

/// The diagnostic of a part whose URLs were left as they were although some were to change.
fn unchanged(entity: &Entity, reason: &str, network: Network) -> Diagnostic {
    let message = match network {
        Network::Online => format!("part written unchanged: {reason}"),
        Network::Offline => format!(
            "part written with its URLs unchanged: {reason}; offline, only the pages' Content-Security-Policy stops their loads (not a refresh, nor a link followed)"
        ),
    };
    Diagnostic {
        part: Some(entity.part.clone()),
        kind: DiagnosticKind::RewriteSkipped,
        message,
    }
}

/// Characters written as `%hh` in a file name used as a relative URL path: all but
/// RFC 3986 unreserved characters.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The indices of the entities directly inside each entity, in document order; the members of
/// an archive are not counted, so that the archive is a leaf, written as the file it is.
fn children(walk: &Walk) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); walk.entities.len()];
    for (index, entity) in walk.entities.iter().enumerate() {
        if entity.kind == EntityKind::Member {
            continue;
        }
        if let Some(list) = entity.parent.and_then(|p| children.get_mut(p)) {
            list.push(index);
        }
    }
    children
}

/// The leaf that stands for the entity at `index` (see the module docs).
fn leaf_for(walk: &Walk, children: &[Vec<usize>], mut index: usize) -> Option<usize> {
    // Each step goes to a child, which comes later in document order, so this ends.
    for _ in 0..=walk.entities.len() {
        let entity = walk.entities.get(index)?;
        let children = children.get(index)?;
        if children.is_empty() {
            return Some(index);
        }
        let content_type = &entity.content_type;
        let next = if content_type.media_type != "multipart" {
            children.first()
        } else if content_type.subtype == "related" {
            let start = content_type
                .param("start")
                .map(|s| s.trim().trim_start_matches('<').trim_end_matches('>'));
            start
                .and_then(|start| {
                    children.iter().find(|&&i| {
                        walk.entities.get(i).is_some_and(|child| {
                            child.fields.iter().any(|f| {
                                f.is(FieldName::ContentId)
                                    && f.value.trim().trim_start_matches('<').trim_end_matches('>')
                                        == start
                            })
                        })
                    })
                })
                .or(children.first())
        } else if content_type.subtype == "alternative" {
            children.last()
        } else {
            children.first()
        };
        index = *next?;
    }
    None
}
