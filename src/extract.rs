//! `extract`: every leaf entity of a message as a file, HTML parts with the URLs that name
//! another part of the message (see [`target`](crate::target)) pointing at that part's
//! file, so that the message's page opens offline with its images and frames.
//!
//! This module decides the files' names and contents; writing them into a directory is the
//! caller's (the `mimebase extract` command writes them and an `index.json`).
//!
//! # Contents
//!
//! Every leaf entity (one with no entity inside it) becomes one file, its body with the
//! transfer encoding undone (RFC 2045 §6); an encapsulated message that is not walked into is
//! written as it is, as a `.eml` file. An HTML part with URLs that have a
//! [`target`](crate::UrlRecord::target) has each of them replaced by the relative path of the
//! target's file, percent-encoded (RFC 3986 §2.1), with the URL's fragment kept; the splicing
//! is [`rewrite`](crate::rewrite())'s: only the bytes of those URLs change, escaped for where
//! they stand, in the part's own charset, and the new HTML must read back the same URLs. A
//! part that cannot be changed faithfully is written decoded and unchanged, with a
//! [`DiagnosticKind::RewriteSkipped`] diagnostic. Same-document references (empty, or a
//! fragment alone) are left as written. The HTML file keeps the part's charset and has no
//! `Content-Type` beside it: a browser opening it from disk goes by `<meta charset>` or
//! guesses.
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

use std::collections::{HashMap, HashSet};

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use crate::analyze::{Keep, analyze_collecting};
use crate::mime::{self, Entity, Walk};
use crate::options::Options;
use crate::report::{Diagnostic, DiagnosticKind, PartId, Report, UrlSource};
use crate::rewrite::splice_decoded;
use crate::vocab::FieldName;

/// What [`extract`] returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The report of the message, with a [`DiagnosticKind::RewriteSkipped`] diagnostic for
    /// each HTML part written unchanged although it had URLs to point at files.
    pub report: Report,
    /// One file per leaf entity, in document order; names are unique ignoring ASCII case and
    /// never `index.json`.
    pub files: Vec<ExtractedFile>,
    /// The file of the message's main document: the leaf that stands for the root entity
    /// (see the [module docs](mod@crate::extract)) when it is HTML, else the first HTML file;
    /// `None` when there is no HTML part.
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
    /// The body with its transfer encoding undone; for an HTML part, with the URLs that name
    /// other parts pointing at their files.
    pub bytes: Vec<u8>,
    /// How many URLs were changed to point at another file.
    pub rewritten_urls: usize,
}

/// The files of every leaf entity of `raw` (see the [module docs](mod@crate::extract)), with
/// bases, profile and resolver from `options` as for [`analyze`](crate::analyze).
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
/// assert_eq!(extracted.files[0].bytes, b"<img src=\"logo.png\">");
/// assert_eq!(extracted.root.as_deref(), Some("part-1.html"));
/// ```
pub fn extract(raw: &[u8], options: &Options) -> Extracted {
    let analysis = analyze_collecting(raw, options, Keep::Rewritable);
    let mut report = analysis.report;
    let walk = analysis.walk;
    let children = children(&walk);
    let leaves: Vec<usize> = (0..walk.entities.len())
        .filter(|&i| children.get(i).is_some_and(Vec::is_empty))
        .collect();
    let mut names = Names::default();
    let mut file_of_entity: HashMap<usize, usize> = HashMap::new();
    let mut files = Vec::with_capacity(leaves.len());
    for &index in &leaves {
        let Some(entity) = walk.entities.get(index) else {
            continue;
        };
        let record = report.entities.get(index);
        let content_location = report
            .urls
            .iter()
            .find(|u| {
                u.part == entity.part
                    && matches!(
                        u.source,
                        UrlSource::Header {
                            name: FieldName::ContentLocation,
                            ..
                        }
                    )
            })
            .map(|u| u.resolution.resolved().unwrap_or(&u.reference).to_owned());
        let name = names.claim(entity, index, content_location.as_deref());
        let mut diagnostics = Vec::new();
        let bytes = mime::decoded_body(walk.bytes(raw, entity.buffer), entity, &mut diagnostics)
            .into_owned();
        file_of_entity.insert(index, files.len());
        files.push(ExtractedFile {
            name,
            part: entity.part.clone(),
            content_type: entity.content_type.essence(),
            base: record.and_then(|r| r.base.url.clone()),
            content_location,
            bytes,
            rewritten_urls: 0,
        });
    }
    let index_of: HashMap<&PartId, usize> = walk
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| (&e.part, i))
        .collect();
    let file_for = |part: &PartId| -> Option<usize> {
        let leaf = leaf_for(&walk, &children, *index_of.get(part)?)?;
        file_of_entity.get(&leaf).copied()
    };
    // The new value of each URL record that names another part: its file's path.
    let new_values: Vec<Option<String>> = report
        .urls
        .iter()
        .map(|url| {
            let target = url.target.as_ref()?;
            if url.reference.is_empty() || url.reference.starts_with('#') {
                return None;
            }
            let file = files.get(file_for(&target.part)?)?;
            let mut path = utf8_percent_encode(&file.name, PATH).to_string();
            if let Some((_, fragment)) = url.reference.split_once('#') {
                path.push('#');
                path.push_str(fragment);
            }
            Some(path)
        })
        .collect();
    let mut skipped = Vec::new();
    for part in &analysis.html {
        let Some(entity) = walk.entities.get(part.entity) else {
            continue;
        };
        let Some(&file) = file_of_entity.get(&part.entity) else {
            continue;
        };
        let count = part
            .urls
            .iter()
            .filter(|(_, record)| new_values.get(*record).is_some_and(Option::is_some))
            .count();
        // A part that lost URLs to the limit may hold links to other parts among them: it is
        // written unchanged and said so (`splice_decoded` refuses it), even when none of its
        // recorded URLs names a part.
        if count == 0 && part.urls_not_recorded == 0 {
            continue;
        }
        let new_value = |record: usize| new_values.get(record).and_then(|v| v.as_deref());
        match splice_decoded(raw, &walk, entity, part, &new_value) {
            Ok((bytes, _)) => {
                if let Some(file) = files.get_mut(file) {
                    file.bytes = bytes;
                    file.rewritten_urls = count;
                }
            }
            Err(reason) => skipped.push(Diagnostic {
                part: Some(entity.part.clone()),
                kind: DiagnosticKind::RewriteSkipped,
                message: format!("part written unchanged: {reason}"),
            }),
        }
    }
    report.diagnostics.extend(skipped);
    let is_html = |file: &ExtractedFile| {
        matches!(
            file.content_type.as_str(),
            "text/html" | "application/xhtml+xml"
        )
    };
    let root = file_for(&PartId::root())
        .and_then(|i| files.get(i))
        .filter(|f| is_html(f))
        .or_else(|| files.iter().find(|f| is_html(f)))
        .map(|f| f.name.clone());
    Extracted {
        report,
        files,
        root,
    }
}

/// Characters written as `%hh` in a file name used as a relative URL path: all but
/// RFC 3986 unreserved characters.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The indices of the entities directly inside each entity, in document order.
fn children(walk: &Walk) -> Vec<Vec<usize>> {
    let mut children = vec![Vec::new(); walk.entities.len()];
    for (index, entity) in walk.entities.iter().enumerate() {
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

/// The file names given so far, case-folded, with `index.json` taken from the start, and for
/// each name asked for, the number to try next for it.
struct Names {
    taken: HashSet<String>,
    next_number: HashMap<String, u64>,
    /// How many names were tried, for the test that naming stays linear.
    tried: usize,
}

impl Default for Names {
    fn default() -> Self {
        Names {
            taken: HashSet::from(["index.json".to_owned()]),
            next_number: HashMap::new(),
            tried: 0,
        }
    }
}

impl Names {
    /// A unique safe name for `entity`: the name it suggests, its extension made the one its
    /// media type has where a browser opens a file by its extension (see [`with_extension_of`]),
    /// or a fallback name.
    fn claim(&mut self, entity: &Entity, ordinal: usize, content_location: Option<&str>) -> String {
        let essence = entity.content_type.essence();
        let wanted = suggested_names(entity, content_location)
            .into_iter()
            .map(|name| without_format_characters(&name))
            .map(|name| with_extension_of(&name, &essence))
            .find(|name| is_safe_name(name))
            .unwrap_or_else(|| fallback_name(entity, ordinal));
        self.unique(&wanted)
    }

    /// `name`, or `stem-2.ext`, `stem-3.ext`, … when it is taken. Names are compared with
    /// full Unicode case folding (`É.txt` and `é.txt`, the Kelvin sign and `k`, `ß` and `ss`
    /// are one name), as case-insensitive file systems compare them. Each name asked for
    /// remembers the number it reached, so that many parts suggesting one name cost no more
    /// than as many different names.
    fn unique(&mut self, name: &str) -> String {
        let (stem, extension) = match name.rfind('.') {
            Some(dot) if dot > 0 => (name.get(..dot).unwrap_or(name), name.get(dot..)),
            _ => (name, None),
        };
        let key = caseless::default_case_fold_str(name);
        let mut number = self.next_number.get(&key).copied().unwrap_or(1);
        let mut candidate = if number == 1 {
            name.to_owned()
        } else {
            format!("{stem}-{number}{}", extension.unwrap_or_default())
        };
        while {
            self.tried += 1;
            !self
                .taken
                .insert(caseless::default_case_fold_str(&candidate))
        } {
            number += 1;
            candidate = format!("{stem}-{number}{}", extension.unwrap_or_default());
        }
        self.next_number.insert(key, number + 1);
        candidate
    }
}

/// `name` without the characters of Unicode's general category Cf (format): bidirectional
/// controls such as U+202E, which make `inv\u{202E}lmth.exe` show as `invexe.html`,
/// zero-width characters, the byte order mark, soft hyphens.
fn without_format_characters(name: &str) -> String {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    name.chars()
        .filter(|c| c.general_category() != GeneralCategory::Format)
        .collect()
}

/// `name` with the extension of the media type `essence` when a browser opening the file from
/// disk goes by its extension to show it (HTML, XHTML, CSS, JavaScript, images, fonts) and
/// `name`'s extension is not one of that type's: the stem is kept and the extension replaced
/// (`Node.js` of a `text/html` part becomes `Node.html`), or added when there is none
/// (`758` becomes `758.html`). Other types keep the name they suggest.
fn with_extension_of(name: &str, essence: &str) -> String {
    let Some(accepted) = browser_extensions(essence) else {
        return name.to_owned();
    };
    let (stem, current) = match name.rfind('.') {
        Some(dot) if dot > 0 => (name.get(..dot).unwrap_or(name), name.get(dot + 1..)),
        _ => (name, None),
    };
    if current.is_some_and(|ext| accepted.iter().any(|a| a.eq_ignore_ascii_case(ext))) {
        return name.to_owned();
    }
    format!("{stem}.{}", extension(essence))
}

/// The extensions a browser reads as the media type `essence`, for the types it opens from
/// disk by extension; `None` for the others.
fn browser_extensions(essence: &str) -> Option<&'static [&'static str]> {
    Some(match essence {
        "text/html" => &["html", "htm", "shtml"],
        "application/xhtml+xml" => &["xhtml", "xht"],
        "text/css" => &["css"],
        "text/javascript" | "application/javascript" | "application/x-javascript" => &["js", "mjs"],
        "image/png" => &["png"],
        "image/jpeg" | "image/jpg" | "image/pjpeg" => &["jpg", "jpeg", "jpe", "jfif"],
        "image/gif" => &["gif"],
        "image/svg+xml" => &["svg"],
        "image/webp" => &["webp"],
        "image/bmp" => &["bmp"],
        "image/x-icon" | "image/vnd.microsoft.icon" => &["ico"],
        "font/woff" | "application/font-woff" => &["woff"],
        "font/woff2" => &["woff2"],
        "font/ttf" => &["ttf"],
        _ => return None,
    })
}

/// The names an entity suggests for itself, best first: the last segment of its
/// `Content-Location`, the `filename` of `Content-Disposition`, the `name` of
/// `Content-Type`.
fn suggested_names(entity: &Entity, content_location: Option<&str>) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(location) = content_location {
        let path = location
            .split(['?', '#'])
            .next()
            .unwrap_or_default()
            .rsplit('/')
            .next()
            .unwrap_or_default();
        names.push(
            percent_encoding::percent_decode_str(path)
                .decode_utf8_lossy()
                .into_owned(),
        );
    }
    if let Some(name) = entity
        .fields
        .iter()
        .find(|f| f.is(FieldName::ContentDisposition))
        .and_then(|field| disposition_filename(&field.value))
    {
        names.push(name);
    }
    if let Some(name) = entity.content_type.param("name") {
        names.push(name.to_owned());
    }
    names
}

/// The `filename` parameter of a `Content-Disposition` value (RFC 2183 §2.3, RFC 2231
/// continuations and charsets), through mail-parser's field parser.
fn disposition_filename(value: &str) -> Option<String> {
    let mut input = value.as_bytes().to_vec();
    input.push(b'\n');
    let mail_parser::HeaderValue::ContentType(parsed) =
        mail_parser::parsers::MessageStream::new(&input).parse_content_type()
    else {
        return None;
    };
    parsed
        .attributes()
        .unwrap_or_default()
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case("filename"))
        .map(|a| a.value.to_string())
}

/// Longest name used as it is, in bytes.
const MAX_NAME_BYTES: usize = 120;

/// Whether `name` can be used as a file name inside the output directory as it is (see the
/// module docs for the rules).
pub(crate) fn is_safe_name(name: &str) -> bool {
    if name.is_empty() || name.len() > MAX_NAME_BYTES || name.starts_with('.') {
        return false;
    }
    if name.ends_with([' ', '.']) {
        return false;
    }
    if name.chars().any(|c| {
        c.is_control() || matches!(c, '/' | '\\' | '<' | '>' | ':' | '"' | '|' | '?' | '*')
    }) {
        return false;
    }
    let device = name.split('.').next().unwrap_or(name).trim_end();
    let device = device.to_ascii_uppercase();
    let is_device = matches!(
        device.as_str(),
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
    ) || ((device.starts_with("COM") || device.starts_with("LPT"))
        && device.len() == 4
        && device
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_digit() && c != '0'));
    !is_device
}

/// `part-<part>.<extension>`; for a part identifier longer than 100 bytes (deep nesting),
/// `part-n<ordinal>.<extension>` with the entity's 0-based position in document order, so that
/// the name stays within file system limits.
fn fallback_name(entity: &Entity, ordinal: usize) -> String {
    let extension = extension(&entity.content_type.essence());
    let part = entity.part.as_str();
    if part.len() <= 100 {
        format!("part-{part}.{extension}")
    } else {
        format!("part-n{ordinal}.{extension}")
    }
}

/// The usual file name extension of a media type; `bin` for one not listed.
fn extension(content_type: &str) -> &'static str {
    match content_type {
        "text/html" => "html",
        "application/xhtml+xml" => "xhtml",
        "text/plain" => "txt",
        "text/css" => "css",
        "text/javascript" | "application/javascript" | "application/x-javascript" => "js",
        "text/xml" | "application/xml" => "xml",
        "text/calendar" => "ics",
        "text/csv" => "csv",
        "image/png" => "png",
        "image/jpeg" | "image/jpg" | "image/pjpeg" => "jpg",
        "image/gif" => "gif",
        "image/svg+xml" => "svg",
        "image/webp" => "webp",
        "image/bmp" => "bmp",
        "image/x-icon" | "image/vnd.microsoft.icon" => "ico",
        "image/tiff" => "tif",
        "application/pdf" => "pdf",
        "application/json" => "json",
        "application/zip" => "zip",
        "application/msword" => "doc",
        "message/rfc822" | "message/global" | "message/news" => "eml",
        "font/woff" | "application/font-woff" => "woff",
        "font/woff2" => "woff2",
        "font/ttf" => "ttf",
        "audio/mpeg" => "mp3",
        "video/mp4" => "mp4",
        _ => "bin",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names() {
        for name in [
            "",
            ".",
            "..",
            ".htaccess",
            "../x.png",
            "a/b.png",
            "a\\b.png",
            "/etc/passwd",
            "C:x.png",
            "a\0b",
            "a\nb",
            "a\u{7f}b",
            "a\u{85}b",
            "CON",
            "con.txt",
            "Lpt1.png",
            "COM9",
            "conin$",
            "nul .txt",
            "x.",
            "x ",
            "a?b",
            "a*b",
            "a|b",
            "a\"b",
            "a<b>",
        ] {
            assert!(!is_safe_name(name), "{name:?}");
        }
        for name in [
            "logo.png",
            "caf\u{e9}.png",
            "COM0.png",
            "console.log",
            "a b.png",
        ] {
            assert!(is_safe_name(name), "{name:?}");
        }
        assert!(!is_safe_name(&"a".repeat(121)));
    }

    #[test]
    fn names_are_unique_under_unicode_case_folding() {
        let mut names = Names::default();
        assert_eq!(names.unique("É.txt"), "É.txt");
        assert_eq!(names.unique("é.txt"), "é-2.txt");
        // KELVIN SIGN folds to `k`.
        assert_eq!(names.unique("\u{212A}.png"), "\u{212A}.png");
        assert_eq!(names.unique("k.png"), "k-2.png");
        assert_eq!(names.unique("straße.css"), "straße.css");
        assert_eq!(names.unique("STRASSE.css"), "STRASSE-2.css");
    }

    /// Many parts suggesting one name cost as many tries as names, not their square.
    #[test]
    fn ten_thousand_same_names_take_linear_work() {
        let mut names = Names::default();
        for i in 1..=10_000u64 {
            let expected = if i == 1 {
                "img.png".to_owned()
            } else {
                format!("img-{i}.png")
            };
            assert_eq!(names.unique("img.png"), expected);
        }
        assert_eq!(names.tried, 10_000);
    }

    #[test]
    fn format_characters_are_dropped() {
        assert_eq!(
            without_format_characters("inv\u{202E}lmth.exe"),
            "invlmth.exe"
        );
        assert_eq!(
            without_format_characters("a\u{200B}b\u{FEFF}\u{2066}c\u{00AD}.png"),
            "abc.png"
        );
        assert_eq!(without_format_characters("plain-é.png"), "plain-é.png");
    }

    /// A browser opens a file from disk by its extension: HTML, CSS, images and fonts get
    /// their type's, other types keep the name they suggest.
    #[test]
    fn the_extension_follows_the_media_type() {
        assert_eq!(with_extension_of("Node.js", "text/html"), "Node.html");
        assert_eq!(with_extension_of("758", "text/html"), "758.html");
        assert_eq!(with_extension_of("page.HTM", "text/html"), "page.HTM");
        assert_eq!(
            with_extension_of("subscribe_embed", "text/html"),
            "subscribe_embed.html"
        );
        assert_eq!(with_extension_of("logo", "image/svg+xml"), "logo.svg");
        assert_eq!(with_extension_of("photo.jpeg", "image/jpeg"), "photo.jpeg");
        assert_eq!(with_extension_of("style.php", "text/css"), "style.css");
        assert_eq!(with_extension_of("font", "font/woff2"), "font.woff2");
        assert_eq!(
            with_extension_of("report.docx", "application/octet-stream"),
            "report.docx"
        );
        assert_eq!(with_extension_of("notes.md", "text/plain"), "notes.md");
    }

    #[test]
    fn collisions_are_numbered_ignoring_case() {
        let mut names = Names::default();
        assert_eq!(names.unique("a.png"), "a.png");
        assert_eq!(names.unique("A.PNG"), "A-2.PNG");
        assert_eq!(names.unique("a.png"), "a-3.png");
        assert_eq!(names.unique("index.json"), "index-2.json");
        assert_eq!(names.unique("noext"), "noext");
        assert_eq!(names.unique("noext"), "noext-2");
    }
}
