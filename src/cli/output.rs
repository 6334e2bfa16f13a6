//! Human and line-oriented output of a [`Report`].
//!
//! # Escaping
//!
//! Text output (the `inspect` tree, `urls` lines, `resolve` lines, diagnostics on stderr)
//! holds strings taken from messages, which may hold anything: a phishing message can carry
//! an escape sequence that retitles or clears the terminal. [`escape`] writes every such
//! string with the escapes of a Rust string literal, so that nothing reaches the terminal
//! as a control character and every line reads back to exactly the string it shows:
//!
//! | character | written as |
//! |---|---|
//! | `\` | `\\` |
//! | TAB, LF, CR | `\t`, `\n`, `\r` |
//! | other C0 controls (U+0000–U+001F) and DEL (U+007F) | `\xHH`, e.g. `\x1b` |
//! | C1 controls (U+0080–U+009F) | `\u{HH}`, e.g. `\u{9b}` |
//! | bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) | `\u{HHHH}`, e.g. `\u{202e}` |
//!
//! The bidirectional formatting characters are not controls to a terminal, but they reorder
//! what it shows (`moc.knab` read as `bank.com`), which is what a phishing URL wants.
//! Every other character is written as it is. JSON output needs none of this: JSON strings
//! escape controls already.
//!
//! A diagnostic's message holds the text it quotes as it is, between plain double quotes
//! (`Content-Base "rel<ESC>/" is not used as a base: …`); the escaping is done once, here,
//! when the message is printed as text (`Content-Base "rel\x1b/" …`).
//!
//! An input's name is a path, whose bytes need not be UTF-8 (a Latin-1 file name on Linux).
//! Each byte of it that is not part of a UTF-8 character is written `\xHH` (`\x80`–`\xff`),
//! as in a Rust byte string literal, and the rest as above ([`Name::escaped`]): `a\xff.eml`
//! and `a\xfe.eml` stay two names, each of which reads back to the bytes of its file. No
//! character is written `\x80`–`\xff` (C1 controls are `\u{HH}`), so the escape is
//! unambiguous. JSON output has the bytes in a `path_bytes` field.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};

use anstyle::{AnsiColor, Style};
use mimebase::report::{MessageLine, UrlLine};
use mimebase::scan::{Compression, Format, ScanErrorKind, ScanLine, Source};
use mimebase::{
    BaseRecord, BaseSource, Document, Options, PartId, Report, Resolution, Summary, Unresolved,
    UrlRecord,
};

use super::args::{ColorArg, UrlField};
pub(super) use super::words::{
    document_label, ignored_reason, is_unchanged, opened_note, source_label,
};

/// `text` with every character of the table in the [module docs](self) escaped; borrowed
/// when there is nothing to escape.
pub(crate) fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            '\0'..='\x1f' | '\x7f' => {
                let _ = write!(escaped, "\\x{:02x}", u32::from(c));
            }
            c if needs_escape(c) => {
                let _ = write!(escaped, "\\u{{{:x}}}", u32::from(c));
            }
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// How an input is named in output: its [`Source::path`] and, when that lost some of the
/// path's bytes (not UTF-8), its [`Source::path_bytes`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Name<'a> {
    path: &'a str,
    bytes: Option<&'a [u8]>,
    /// How the input was compressed ([`Source::compression`]), for JSON records.
    compression: Option<Compression>,
}

impl<'a> Name<'a> {
    /// The name of the input `source` was read from.
    pub(crate) fn of(source: &'a Source) -> Self {
        Name {
            path: &source.path,
            bytes: source.path_bytes.as_deref(),
            compression: source.compression,
        }
    }

    /// The name for text output: [`escape`]d, and each byte that is not UTF-8 written
    /// `\xHH` (see the [module docs](self)).
    pub(crate) fn escaped(self) -> Cow<'a, str> {
        let Some(bytes) = self.bytes else {
            return escape(self.path);
        };
        let mut escaped = String::with_capacity(bytes.len() + 8);
        for chunk in bytes.utf8_chunks() {
            escaped.push_str(&escape(chunk.valid()));
            for byte in chunk.invalid() {
                let _ = write!(escaped, "\\x{byte:02x}");
            }
        }
        Cow::Owned(escaped)
    }
}

fn needs_escape(c: char) -> bool {
    matches!(
        c,
        '\\' | '\0'..='\x1f'
            | '\x7f'..='\u{9f}'
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// Whether to colour stdout for `--color WHEN`. `auto`, in this order: no colour when
/// `NO_COLOR` is set to a non-empty value (<https://no-color.org>); colour when
/// `CLICOLOR_FORCE` is set to a non-empty value other than `0`
/// (<https://bixense.com/clicolors/>); no colour when `CLICOLOR` is `0`; else colour when
/// stdout is a terminal and `TERM` is set and not `dumb` (or `CLICOLOR` is set, or `CI`).
pub(crate) fn use_color(when: ColorArg) -> bool {
    match when {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => auto_color(io::stdout().is_terminal(), |name| std::env::var_os(name)),
    }
}

/// `--color auto`'s choice for a stdout that is a `terminal` or not, the environment read
/// through `var`.
fn auto_color(terminal: bool, var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let set = |name: &str| var(name).is_some_and(|value| !value.is_empty());
    let clicolor = var("CLICOLOR");
    if set("NO_COLOR") {
        false
    } else if var("CLICOLOR_FORCE").is_some_and(|value| !value.is_empty() && value != "0") {
        true
    } else if clicolor.as_ref().is_some_and(|value| value == "0") {
        false
    } else {
        let term = var("TERM");
        let term_colours = term.is_some_and(|term| term != "dumb");
        terminal && (term_colours || clicolor.is_some() || var("CI").is_some())
    }
}

/// How `inspect` and `urls` print each input.
pub(crate) enum Printer {
    /// `inspect`: the tree, coloured or not, with every URL or (not `all`) without those
    /// that are absolute and unchanged ([`is_unchanged`]).
    Inspect { color: bool, all: bool },
    /// `inspect --json`: one [`MessageLine`] per input.
    InspectJson,
    /// `inspect --html`: a section of the page per message.
    Html(super::html::Page),
    /// `urls`: one line per URL, the input's name first or not, ended by `terminator`; with
    /// `fields`, those columns instead (`--fields`); only the base-decided URLs when
    /// `base_decided_only` (`--base-decided`).
    Urls {
        with_filename: bool,
        terminator: u8,
        fields: Vec<UrlField>,
        base_decided_only: bool,
    },
    /// `urls --json`: one [`UrlLine`] per URL (per base-decided URL when `base_decided_only`).
    UrlsJson { base_decided_only: bool },
}

impl Printer {
    /// Analyzes the message `raw` of the input `name` and prints it (`offset` as for
    /// [`Printer::report`]): `urls` writes each URL as the analysis makes it
    /// ([`mimebase::analyze_streaming`]), so that the records of a message are never all held
    /// at once; `inspect` prints the whole report.
    pub(crate) fn message(
        &self,
        out: &mut dyn Write,
        name: Name<'_>,
        offset: Option<u64>,
        raw: Vec<u8>,
        options: &Options,
    ) -> io::Result<()> {
        let mut written = Ok(());
        let mut each = |url: &UrlRecord| -> io::Result<()> {
            match self {
                Printer::Urls {
                    base_decided_only: true,
                    ..
                }
                | Printer::UrlsJson {
                    base_decided_only: true,
                } if !url.base_decided => Ok(()),
                Printer::Urls {
                    with_filename,
                    terminator,
                    fields,
                    ..
                } => url_line(
                    out,
                    (name, offset),
                    *with_filename,
                    fields,
                    *terminator,
                    url,
                ),
                Printer::UrlsJson { .. } => url_json(out, name, offset, url),
                Printer::Inspect { .. } | Printer::InspectJson | Printer::Html(_) => Ok(()),
            }
        };
        match self {
            Printer::Urls { .. } | Printer::UrlsJson { .. } => {
                // After a failed write the analysis runs to its end, writing nothing more.
                let report = mimebase::analyze_streaming(&raw, options, |url| {
                    if written.is_ok() {
                        written = each(&url);
                    }
                });
                note_limits(name, offset, &report);
                written
            }
            Printer::Inspect { .. } | Printer::InspectJson | Printer::Html(_) => {
                let report = mimebase::analyze(&raw, options);
                // The message is not needed to print its report.
                drop(raw);
                note_limits(name, offset, &report);
                self.report(out, name, offset, &report)
            }
        }
    }

    /// Prints the report of a message of the input `name`; `offset`: for a message of an
    /// mbox file, the byte offset of its `From ` line (see [`mbox_offset`]).
    pub(crate) fn report(
        &self,
        out: &mut dyn Write,
        name: Name<'_>,
        offset: Option<u64>,
        report: &Report,
    ) -> io::Result<()> {
        match self {
            Printer::Inspect { color, all } => {
                inspect(out, name, offset, report, &Palette::new(*color), *all)
            }
            Printer::InspectJson => inspect_json(out, name, offset, report),
            Printer::Html(page) => page.message(out, name, offset, report),
            Printer::Urls {
                with_filename,
                terminator,
                fields,
                base_decided_only,
            } => report
                .urls
                .iter()
                .filter(|url| url.base_decided || !base_decided_only)
                .try_for_each(|url| {
                    url_line(
                        out,
                        (name, offset),
                        *with_filename,
                        fields,
                        *terminator,
                        url,
                    )
                }),
            Printer::UrlsJson { base_decided_only } => report
                .urls
                .iter()
                .filter(|url| url.base_decided || !base_decided_only)
                .try_for_each(|url| url_json(out, name, offset, url)),
        }
    }

    /// Prints what is printed for an input or a message that could not be read (an I/O
    /// error, a message over the size limit): an `error` record in JSON, the same record as
    /// `scan` writes; a section saying so in HTML; nothing in text (stderr has the diagnostic).
    pub(crate) fn error(
        &self,
        out: &mut dyn Write,
        source: &Source,
        kind: ScanErrorKind,
        message: &str,
    ) -> io::Result<()> {
        match self {
            Printer::InspectJson | Printer::UrlsJson { .. } => {
                serde_json::to_writer(&mut *out, &ScanLine::error(source, kind, message))?;
                writeln!(out)
            }
            Printer::Html(page) => page.error(out, source, message),
            Printer::Inspect { .. } | Printer::Urls { .. } => Ok(()),
        }
    }
}

/// The library's sentence for a failure of `kind`, as the command line says it on stderr and
/// in `error` records: a message over the size limit names the option that sets the limit,
/// which the library's own sentence does not, since its users (the Python module among them)
/// set the limit otherwise.
/// Says on stderr, one `mimebase:` line each, where a limit cut the analysis of a message of
/// the input `name` (see [`Report::complete`]): the output alone (URL lines, the tree, the
/// JSON, which says `"complete": false`) would not tell a shorter list from the whole one.
fn note_limits(name: Name<'_>, offset: Option<u64>, report: &Report) {
    if report.complete {
        return;
    }
    let name = name.escaped();
    let place = match offset {
        Some(offset) => format!("{name} at byte {offset}"),
        None => name.into_owned(),
    };
    for diagnostic in report.diagnostics.iter().filter(|d| d.kind.is_limit()) {
        let part = diagnostic
            .part
            .as_ref()
            .map_or(String::new(), |p| format!("part {}: ", escape(p.as_str())));
        eprintln!(
            "mimebase: {place}: incomplete: {part}{}",
            escape(&diagnostic.message)
        );
    }
}

pub(crate) fn failure_message(kind: ScanErrorKind, message: &str) -> Cow<'_, str> {
    if kind == ScanErrorKind::TooLarge {
        Cow::Owned(format!("{message} (--max-message-bytes)"))
    } else {
        Cow::Borrowed(message)
    }
}

/// The offset that names a message in `inspect` and `urls` output: that of a message of an
/// mbox file after the first; `None` for a message at the start of its file (a file that is
/// one message, the first message of an mbox), which the input's name alone names. So the
/// output for a file holding one message is the same whether or not it starts with an mbox
/// `From ` line (as the messages of many archives do), and a reader takes a missing offset
/// as 0.
pub(crate) fn mbox_offset(source: &Source) -> Option<u64> {
    match source.format {
        Some(Format::Mbox) => source.offset.filter(|&offset| offset > 0),
        _ => None,
    }
}

/// How stderr names where a failure happened, as `scan` does: the input's name, followed by
/// `at byte N` for a message of an mbox file (the first one included, since the failure
/// concerns one message of several), escaped.
pub(crate) fn place(source: &Source) -> String {
    let name = Name::of(source).escaped();
    match (source.format, source.offset) {
        (Some(Format::Mbox), Some(offset)) => format!("{name} at byte {offset}"),
        _ => name.into_owned(),
    }
}

/// `mimebase inspect --json`: one [`MessageLine`] per message.
fn inspect_json(
    out: &mut dyn Write,
    name: Name<'_>,
    offset: Option<u64>,
    report: &Report,
) -> io::Result<()> {
    let line = MessageLine {
        path: name.path,
        path_bytes: name.bytes,
        compression: name.compression,
        offset,
        report,
    };
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)
}

/// `mimebase urls --json`: one [`UrlLine`] per URL.
/// One [`UrlLine`] of `mimebase urls --json`.
fn url_json(
    out: &mut dyn Write,
    name: Name<'_>,
    offset: Option<u64>,
    url: &UrlRecord,
) -> io::Result<()> {
    let line = UrlLine {
        path: name.path,
        path_bytes: name.bytes,
        compression: name.compression,
        offset,
        url,
    };
    serde_json::to_writer(&mut *out, &line)?;
    writeln!(out)
}

/// `mimebase urls`: one line per URL, `resolved<TAB>reference` (the first column empty when
/// unresolved), after `name<TAB>` when given (`name:offset<TAB>` for a message of an mbox
/// file, as `grep -b` writes a byte offset), each field [`escape`]d so that a tab or a line
/// break inside one cannot be mistaken for a separator.
/// One line of `mimebase urls`: `resolved<TAB>reference`, after the input's name (and the
/// offset of an mbox message's `From ` line) when `with_filename`; or, with `fields`, those
/// columns of the record, tab-separated, each escaped and empty when it has no value (after
/// the same name when `with_filename`).
fn url_line(
    out: &mut dyn Write,
    (name, offset): (Name<'_>, Option<u64>),
    with_filename: bool,
    fields: &[UrlField],
    terminator: u8,
    url: &UrlRecord,
) -> io::Result<()> {
    if with_filename {
        match offset {
            Some(offset) => write!(out, "{}:{offset}\t", name.escaped())?,
            None => write!(out, "{}\t", name.escaped())?,
        }
    }
    if !fields.is_empty() {
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                out.write_all(b"\t")?;
            }
            let text: Cow<'_, str> = match field {
                UrlField::Path => name.escaped(),
                UrlField::Offset => offset.map_or(Cow::Borrowed(""), |o| Cow::Owned(o.to_string())),
                UrlField::Part => escape(url.part.as_str()),
                UrlField::Source => Cow::Owned(escape(&url.source.to_string()).into_owned()),
                UrlField::Reference => escape(&url.reference),
                UrlField::Resolved => escape(url.resolution.resolved().unwrap_or_default()),
                UrlField::Unresolved => Cow::Borrowed(match url.resolution.unresolved() {
                    Some(Unresolved::NoBase) => "no_base",
                    Some(_) => "resolver_error",
                    None => "",
                }),
                UrlField::Error => escape(url.resolution.error().unwrap_or_default()),
                UrlField::Base => escape(url.base.url.as_deref().unwrap_or_default()),
                UrlField::BaseSource => Cow::Borrowed(url.base.source.as_str()),
                UrlField::BaseDecided => {
                    Cow::Borrowed(if url.base_decided { "true" } else { "false" })
                }
                UrlField::Resolver => Cow::Borrowed(url.resolver.as_str()),
                UrlField::Target => url
                    .target
                    .as_ref()
                    .map_or(Cow::Borrowed(""), |t| escape(t.part.as_str())),
                UrlField::TargetBy => {
                    Cow::Borrowed(url.target.as_ref().map_or("", |t| t.by.as_str()))
                }
                UrlField::Ignored => url
                    .ignored
                    .map_or(Cow::Borrowed(""), |why| Cow::Owned(why.to_string())),
                UrlField::Text => escape(url.text().unwrap_or_default()),
                UrlField::Title => escape(url.title().unwrap_or_default()),
                UrlField::TextHostDiffers => Cow::Borrowed(match &url.link {
                    Some(link) if link.text_host_differs => "true",
                    Some(_) => "false",
                    None => "",
                }),
            };
            out.write_all(text.as_bytes())?;
        }
        return out.write_all(&[terminator]);
    }
    write!(
        out,
        "{}\t{}",
        escape(url.resolution.resolved().unwrap_or_default()),
        escape(&url.reference)
    )?;
    out.write_all(&[terminator])
}

/// The styles of the `inspect` tree; all plain without colour.
struct Palette {
    heading: Style,
    part: Style,
    label: Style,
    url: Style,
    source: Style,
    problem: Style,
}

impl Palette {
    fn new(color: bool) -> Self {
        if !color {
            let plain = Style::new();
            return Palette {
                heading: plain,
                part: plain,
                label: plain,
                url: plain,
                source: plain,
                problem: plain,
            };
        }
        Palette {
            heading: Style::new().bold(),
            part: Style::new().bold().fg_color(Some(AnsiColor::Blue.into())),
            label: Style::new().dimmed(),
            url: Style::new().fg_color(Some(AnsiColor::Green.into())),
            source: Style::new().fg_color(Some(AnsiColor::Cyan.into())),
            problem: Style::new().fg_color(Some(AnsiColor::Yellow.into())),
        }
    }
}

/// `text`, escaped, in `style`.
fn paint(style: Style, text: &str) -> String {
    format!("{style}{}{style:#}", escape(text))
}

/// `mimebase inspect`: the entity tree, indented by depth, with each entity's base and URLs.
/// Every string from the message is [`escape`]d.
///
/// A URL that names an entity of the same message ends with `  -> part 2 (cid)`: the entity
/// and how it was matched (`cid`, `mid` or `content-location`). A URL whose destination a base
/// decided is marked `(base-decided)`. Under the `href` of an `a` or `area`, a line shows what
/// a reader sees of the link: `text "…"`, `title "…"`, and `! the text names another host`
/// when it does. Without `all`, the URLs that are absolute and unchanged ([`is_unchanged`])
/// are left out, and a line at the end of each part says how many.
///
/// The heading names the input, and for a message of an mbox file after the first the byte
/// offset of its `From ` line: `== archive.mbox at byte 1234`.
///
/// A message entity (the root, an encapsulated message) starts with its summary: `Subject`,
/// `From`, `Date` and `Message-ID`, escaped, `(none)` for a missing field. The URL of a
/// `<base href>` or base header field that does not set the base ends with why, e.g.
/// `  (ignored: not the first <base href>)`.
///
/// ```text
/// == samples/nested.eml
/// HEADER  multipart/mixed
///   Subject  News of the day
///   From  News <news@example.com>
///   Date  Thu, 20 Jun 2024 09:00:00 +0000
///   Message-ID  (none)
///   base  http://example.com/news/  (header:Content-Base)
///   1  text/html
///     base  http://example.com/news/  (inherited from HEADER)
///     html:a@href  today.html  ->  http://example.com/news/today.html  (base-decided)
///       text "Today's news"
/// ```
fn inspect(
    out: &mut dyn Write,
    name: Name<'_>,
    offset: Option<u64>,
    report: &Report,
    palette: &Palette,
    all: bool,
) -> io::Result<()> {
    let name = name.escaped();
    let heading = match offset {
        Some(offset) => format!("== {name} at byte {offset}"),
        None => format!("== {name}"),
    };
    // The name is escaped already, and the rest of the heading needs no escaping.
    let style = palette.heading;
    writeln!(out, "{style}{heading}{style:#}")?;
    // Diagnostics of the message as a whole, and of parts that are not in the tree (a part
    // past the entity or depth limit): shown first, each with its part.
    let shown: HashSet<&PartId> = report.entities.iter().map(|e| &e.part).collect();
    for diagnostic in &report.diagnostics {
        let line = match &diagnostic.part {
            None => format!("! {}", diagnostic.message),
            Some(part) if !shown.contains(part) => {
                format!("! part {}: {}", part.as_str(), diagnostic.message)
            }
            Some(_) => continue,
        };
        writeln!(out, "{}", paint(palette.problem, &line))?;
    }
    let mut depths: HashMap<&PartId, usize> = HashMap::new();
    for entity in &report.entities {
        let depth = entity
            .parent
            .as_ref()
            .and_then(|p| depths.get(p))
            .map_or(0, |d| d + 1);
        depths.insert(&entity.part, depth);
        let indent = "  ".repeat(depth);
        writeln!(
            out,
            "{indent}{}  {}{}",
            paint(palette.part, entity.part.as_str()),
            escape(&entity.content_type),
            document_note(entity.document, palette)
        )?;
        if let Some(summary) = report.summary_of(&entity.part) {
            summary_lines(out, &indent, summary, palette)?;
        }
        writeln!(
            out,
            "{indent}  {}  {}",
            paint(palette.label, "base"),
            describe(&entity.base, palette)
        )?;
        if entity.base != entity.header_base {
            writeln!(
                out,
                "{indent}  {}  {}",
                paint(palette.label, "header-level base"),
                describe(&entity.header_base, palette)
            )?;
        }
        if let Some(opened) = &entity.opened {
            writeln!(
                out,
                "{indent}  {}  {}",
                paint(palette.label, "opened"),
                escape(&opened_note(opened))
            )?;
        }
        let mut left_out = 0usize;
        for url in report.urls.iter().filter(|u| u.part == entity.part) {
            if !all && is_unchanged(url) {
                left_out += 1;
                continue;
            }
            let decided = if url.base_decided {
                format!("  {}", paint(palette.label, "(base-decided)"))
            } else {
                String::new()
            };
            writeln!(
                out,
                "{indent}  {}  {}{decided}{}{}",
                paint(palette.source, &source_label(&url.source)),
                resolution(url, palette),
                target(url),
                ignored(url, palette)
            )?;
            if let Some(line) = link_line(url, palette) {
                writeln!(out, "{indent}    {line}")?;
            }
        }
        if left_out > 0 {
            let note = match left_out {
                1 => "(1 absolute URL unchanged, not shown: --all shows it)".to_owned(),
                n => format!("({n} absolute URLs unchanged, not shown: --all shows them)"),
            };
            writeln!(out, "{indent}  {}", paint(palette.label, &note))?;
        }
        for diagnostic in report
            .diagnostics
            .iter()
            .filter(|d| d.part.as_ref() == Some(&entity.part))
        {
            writeln!(
                out,
                "{indent}  {}",
                paint(palette.problem, &format!("! {}", diagnostic.message))
            )?;
        }
    }
    Ok(())
}

/// The summary of a message entity, one line per field, in the order a mail client shows
/// them; `(none)` for a field the message lacks.
fn summary_lines(
    out: &mut dyn Write,
    indent: &str,
    summary: &Summary,
    palette: &Palette,
) -> io::Result<()> {
    for (name, value) in [
        ("Subject", &summary.subject),
        ("From", &summary.from),
        ("Date", &summary.date),
        ("Message-ID", &summary.message_id),
    ] {
        let value = match value {
            Some(value) => escape(value),
            None => Cow::Owned(paint(palette.label, "(none)")),
        };
        writeln!(out, "{indent}  {}  {value}", paint(palette.label, name))?;
    }
    Ok(())
}

/// `  (ignored: …)` for the URL of a `<base href>` or base header field that does not set the
/// base it would ([`BaseIgnored`]), saying why; nothing for any other URL.
fn ignored(url: &UrlRecord, palette: &Palette) -> String {
    ignored_reason(url).map_or_else(String::new, |text| {
        format!(
            "  {}",
            paint(palette.problem, &format!("(ignored: {text})"))
        )
    })
}

/// `  (attachment)`, or `  (attachment, read as html by its file name)`,
/// `  (attachment, read as pdf by its content)`, `  (attachment, read as calendar)`, for an
/// attachment; nothing for a part read by its media type in the message, or not read at all.
fn document_note(document: Option<Document>, palette: &Palette) -> String {
    document_label(document).map_or_else(String::new, |note| {
        format!("  {}", paint(palette.label, &note))
    })
}

fn describe(base: &BaseRecord, palette: &Palette) -> String {
    match (&base.url, base.source, &base.inherited_from) {
        (None, BaseSource::Attachment, _) => format!(
            "none  {}",
            paint(palette.label, "(attachment, opened from a temporary file)")
        ),
        (None, _, _) => "none".to_owned(),
        (Some(url), BaseSource::Inherited, Some(from)) => format!(
            "{}  {}",
            paint(palette.url, url),
            paint(palette.label, &format!("(inherited from {from})"))
        ),
        (Some(url), source, _) => format!(
            "{}  {}",
            paint(palette.url, url),
            paint(palette.label, &format!("({source})"))
        ),
    }
}

/// What a reader sees of a link: `text "…"`, `title "…"`, and a warning when the text names
/// another host than the link reaches; `None` for a URL without link text, or with neither a
/// text nor a title.
fn link_line(url: &UrlRecord, palette: &Palette) -> Option<String> {
    let link = url.link.as_deref()?;
    let mut line = Vec::new();
    if !link.text.is_empty() {
        line.push(format!(
            "{} \"{}\"",
            paint(palette.label, "text"),
            escape(&link.text)
        ));
    }
    if let Some(title) = &link.title {
        line.push(format!(
            "{} \"{}\"",
            paint(palette.label, "title"),
            escape(title)
        ));
    }
    if link.text_host_differs {
        line.push(paint(
            palette.problem,
            "! the text names another host than the link reaches",
        ));
    }
    (!line.is_empty()).then(|| line.join("  "))
}

/// `  -> part 2 (cid)` for a URL that names an entity of the message, else nothing.
fn target(url: &UrlRecord) -> String {
    url.target.as_ref().map_or_else(String::new, |target| {
        format!("  -> part {} ({})", target.part, target.by)
    })
}

fn resolution(url: &UrlRecord, palette: &Palette) -> String {
    let reference = escape(&url.reference);
    let arrow = paint(palette.label, "->");
    match &url.resolution {
        Resolution::Resolved(resolved) => {
            format!("{reference}  {arrow}  {}", paint(palette.url, resolved))
        }
        Resolution::NoBase => format!(
            "{reference}  {arrow}  {}",
            paint(palette.problem, "unresolved: relative, no base")
        ),
        _ => format!(
            "{reference}  {arrow}  {}",
            paint(palette.problem, "unresolved: the resolver refused it")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{Name, Source, auto_color, escape};

    /// `--color auto` in each environment, on a terminal and into a pipe. The expected
    /// values are the rules of <https://bixense.com/clicolors/> and <https://no-color.org>:
    /// `CLICOLOR_FORCE` forces colour when set and not `0`, `NO_COLOR` (non-empty) wins.
    #[test]
    fn auto_color_follows_no_color_and_clicolor() {
        /// Variables and their values.
        type Env<'a> = &'a [(&'a str, &'a str)];
        let cases: &[(Env, bool, bool)] = &[
            // (environment, on a terminal, into a pipe)
            (&[("TERM", "xterm")], true, false),
            (&[], false, false),
            (&[("TERM", "dumb")], false, false),
            (&[("TERM", "xterm"), ("NO_COLOR", "1")], false, false),
            (&[("TERM", "xterm"), ("NO_COLOR", "")], true, false),
            (&[("TERM", "xterm"), ("CLICOLOR_FORCE", "1")], true, true),
            (&[("TERM", "dumb"), ("CLICOLOR_FORCE", "yes")], true, true),
            (&[("TERM", "xterm"), ("CLICOLOR_FORCE", "0")], true, false),
            (&[("TERM", "xterm"), ("CLICOLOR_FORCE", "")], true, false),
            (&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")], false, false),
            (&[("TERM", "xterm"), ("CLICOLOR", "0")], false, false),
            (&[("CLICOLOR", "0"), ("CLICOLOR_FORCE", "1")], true, true),
            (&[("TERM", "dumb"), ("CLICOLOR", "1")], true, false),
        ];
        for &(env, terminal, pipe) in cases {
            let var = |name: &str| {
                env.iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| value.into())
            };
            assert_eq!(auto_color(true, var), terminal, "terminal, {env:?}");
            assert_eq!(auto_color(false, var), pipe, "pipe, {env:?}");
        }
    }

    #[test]
    fn escapes_controls_backslash_and_bidi_reversibly() {
        assert_eq!(escape("http://a/b"), "http://a/b");
        assert_eq!(escape("x\u{1b}]0;pwned\u{7}y"), "x\\x1b]0;pwned\\x07y");
        assert_eq!(escape("x\\ny.html"), "x\\\\ny.html");
        assert_eq!(escape("x\ny.html"), "x\\ny.html");
        assert_eq!(
            escape("\t\r\u{7f}\u{85}\u{9b}"),
            "\\t\\r\\x7f\\u{85}\\u{9b}"
        );
        assert_eq!(escape("a\u{202e}b\u{2066}"), "a\\u{202e}b\\u{2066}");
        assert_eq!(escape("é\u{a0}日本"), "é\u{a0}日本");
    }

    #[test]
    fn a_name_that_is_not_utf8_keeps_its_bytes_as_escapes() {
        let source = |bytes: &[u8]| Source {
            path_bytes: (std::str::from_utf8(bytes).is_err()).then(|| bytes.to_vec()),
            ..Source::file(String::from_utf8_lossy(bytes), 0)
        };
        let ff = source(b"a\xff.eml");
        let fe = source(b"a\xfe.eml");
        assert_eq!(ff.path, fe.path);
        assert_eq!(Name::of(&ff).escaped(), "a\\xff.eml");
        assert_eq!(Name::of(&fe).escaped(), "a\\xfe.eml");
        // UTF-8 characters, controls and backslashes around them as `escape` writes them; a
        // truncated UTF-8 sequence is bytes.
        let mixed = source(b"\xc3\xa9\\\n\xe6\x97\x1b.eml");
        assert_eq!(Name::of(&mixed).escaped(), "é\\\\\\n\\xe6\\x97\\x1b.eml");
        assert_eq!(Name::of(&source(b"b\n.eml")).escaped(), "b\\n.eml");
    }
}
