//! File names of extracted parts (see the [module docs](mod@crate::extract) for the rules).

use std::collections::{HashMap, HashSet};

use crate::mime::Entity;
use crate::vocab::FieldName;

/// The file names given so far, case-folded, with `index.json` taken from the start, and for
/// each name asked for, the number to try next for it.
pub(super) struct Names {
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
    pub(super) fn claim(
        &mut self,
        entity: &Entity,
        ordinal: usize,
        content_location: Option<&str>,
    ) -> String {
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
        // The HTML alternatives some clients render are HTML documents to a browser.
        "text/html" | "text/x-amp-html" | "text/watch-html" => &["html", "htm", "shtml"],
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
        .and_then(|field| crate::document::disposition_filename(&field.value))
    {
        names.push(name);
    }
    if let Some(name) = entity.content_type.param("name") {
        names.push(name.to_owned());
    }
    names
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
        "text/html" | "text/x-amp-html" | "text/watch-html" => "html",
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
        assert_eq!(with_extension_of("offer", "text/x-amp-html"), "offer.html");
        assert_eq!(
            with_extension_of("glance", "text/watch-html"),
            "glance.html"
        );
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
