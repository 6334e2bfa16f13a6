//! `mimebase inspect --html`: one self-contained HTML page for people to look at.
//!
//! The page holds, for each message (a section of its own, in input order, as the text tree
//! has a heading per message): the summary a mail client shows (`Subject`, `From`, `Date`,
//! `Message-ID`) with how many parts and URLs the message has; the part tree, drawn as nested
//! lists with CSS alone, each part with its type, its base and where the base came from; the
//! table of URLs (where found, as written, where it leads, the link's text, and its flags),
//! the rows whose destination a base decided and those whose text names another host than
//! the link reaches highlighted, each by a class, a background and a word, so that colour is
//! not the only sign; and the diagnostics. An input that cannot be read is a section that
//! says so. Like the text tree, the table leaves out the absolute URLs that nothing changed
//! unless `--all` ([`is_unchanged`]), and says how many it left out.
//!
//! # What the page does not do
//!
//! A report on a hostile message must not become an attack itself, nor a way to tell its
//! sender that it was read. So:
//!
//! - The first element of `<head>` is a Content-Security-Policy of `default-src 'none';
//!   style-src 'unsafe-inline'` ([CSP Level 3](https://www.w3.org/TR/CSP3/)): no script,
//!   image, font, frame, media, connection or style sheet from anywhere; only the page's own
//!   `<style>` element applies. `default-src` does not govern `base-uri`, `form-action` or
//!   navigation, and the page needs none of them: it has no `<base>`, no form and no link.
//! - No element carries a URL: URLs from the message are text in table cells, never an
//!   `href`, `src`, `action` or `style` value, so nothing is loaded or followed, even by a
//!   click. The only attributes the page writes are its own: `lang`, `charset`,
//!   `http-equiv`, `name`, `content` and `class`, whose values are fixed strings.
//! - Every string from the message (and every input name) is first escaped as the text
//!   output escapes it ([`escape`]: controls, DEL, C1 controls and bidirectional formatting
//!   characters as `\x1b`, `\u{202e}`, …), so that the page says what the terminal says, then
//!   HTML-escaped (`&`, `<`, `>`, `"`, `'` as character references, by `htmlize`), so that it
//!   is text and never markup.
//!
//! The page is valid HTML (the HTML Standard's [syntax](https://html.spec.whatwg.org/multipage/syntax.html)):
//! `<!DOCTYPE html>`, `<meta charset="utf-8">` within the first 1024 bytes, and a `<title>`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;

use mimebase::scan::Source;
use mimebase::{BaseRecord, BaseSource, EntityRecord, PartId, Report, Resolution};
use mimebase::{Summary, UrlRecord};

use super::output::{
    Name, document_label, escape, ignored_reason, is_unchanged, opened_note, place, source_label,
};

/// The page's policy: nothing may be loaded, and only its own inline style applies.
pub(crate) const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'";

/// The page's style sheet. Fonts are the generic families, so that the page looks the same
/// wherever it is opened without loading one. The tree's lines are borders of `::before` and
/// `::after` boxes of each list item.
const STYLE: &str = "\
:root { color-scheme: light; }
body { font: 15px/1.45 sans-serif; color: #1d1d1f; background: #fff; margin: 1.2em 1.5em 2em; }
h1 { font-size: 1.35em; margin: 0 0 .2em; }
h2 { font-size: 1.15em; margin: 1.6em 0 .6em; padding: .35em .6em; background: #e9edf3;
  border-left: 5px solid #3d4a5c; overflow-wrap: anywhere; }
h3 { font-size: 1em; margin: 1.3em 0 .4em; }
p { margin: .4em 0; }
.about, .left-out, footer { color: #555; }
.mono, .url, .part, .type, .source { font-family: monospace; font-size: .93em; }
td, dd { overflow-wrap: break-word; }
.url { overflow-wrap: anywhere; }
.none { color: #6b6b6b; font-style: italic; }
.problem { color: #a01010; }
table { border-collapse: collapse; }
table.summary th { text-align: left; font-weight: 600; padding: .1em 1.2em .1em 0; vertical-align: top; }
table.summary td { padding: .1em 0; }
table.links { width: 100%; table-layout: fixed; font-size: .92em; }
table.links th, table.links td { border: 1px solid #c9ced6; padding: .3em .45em; text-align: left;
  vertical-align: top; }
table.links thead th { background: #e9edf3; }
th.col-part { width: 4.5em; }
th.col-where { width: 8.5em; }
th.col-written { width: 20%; }
th.col-reached { width: 28%; }
th.col-flags { width: 9.5em; }
tr.decided td { background: #fff0c2; }
tr.host-differs td { background: #ffd9d5; }
.flag { display: inline-block; font-size: .85em; font-weight: 700; padding: 0 .35em; margin: 0 .2em .2em 0;
  border: 1px solid; border-radius: 3px; }
.flag.decided { color: #5c3d00; background: #ffdf7a; border-color: #b88a00; }
.flag.host-differs { color: #7a0d0d; background: #ffb8b0; border-color: #c0392b; }
.flag.ignored { color: #444; background: #eee; border-color: #999; font-weight: 600; }
.link-title { color: #555; }
.target { color: #28527a; }
ul.tree, ul.tree ul { list-style: none; margin: 0; padding: 0; }
ul.tree ul { margin-left: .55em; }
ul.tree li { position: relative; padding: .15em 0 .15em 1.4em; }
ul.tree > li { padding-left: 0; }
ul.tree ul > li::before { content: \"\"; position: absolute; left: 0; top: 0; width: 1.05em; height: .95em;
  border-left: 1px solid #8a93a0; border-bottom: 1px solid #8a93a0; }
ul.tree ul > li::after { content: \"\"; position: absolute; left: 0; top: .95em; bottom: 0;
  border-left: 1px solid #8a93a0; }
ul.tree ul > li:last-child::after { display: none; }
.node-head .part { font-weight: 700; }
.node-line { margin-left: 1.2em; font-size: .93em; }
.label { color: #555; }
.count { color: #555; font-size: .9em; }
ul.diagnostics { margin: .2em 0; padding-left: 1.4em; }
section.failed p { font-weight: 600; }
footer { margin-top: 2.5em; padding-top: .5em; border-top: 1px solid #ddd; font-size: .85em; }
";

/// `text`, a string from the message or an input's name, for the page: escaped as the text
/// output escapes it ([`escape`]), then HTML-escaped, so that it is text in any element or
/// quoted attribute value.
fn text(text: &str) -> Cow<'_, str> {
    match escape(text) {
        Cow::Borrowed(plain) => htmlize::escape_all_quotes(plain),
        Cow::Owned(escaped) => Cow::Owned(htmlize::escape_all_quotes(escaped).into_owned()),
    }
}

/// The page of `inspect --html`: its head, written by [`Page::start`], a section for each
/// message or failed input, and its end, written by [`Page::finish`].
#[derive(Debug)]
pub(crate) struct Page {
    /// The `<title>`: the inputs, as the command line named them.
    title: String,
    /// `--all`: every URL in the tables, not only those something changed.
    all: bool,
}

impl Page {
    /// The page for the inputs `files` (none: standard input), with every URL or (not `all`)
    /// without those that are absolute and unchanged.
    pub(crate) fn new(files: &[PathBuf], all: bool) -> Self {
        let name = |path: &PathBuf| match path.to_string_lossy() {
            name if name == "-" => "standard input".to_owned(),
            name => name.into_owned(),
        };
        let title = match files {
            [] => "standard input".to_owned(),
            [one] => name(one),
            [first, rest @ ..] => format!("{} and {} more", name(first), rest.len()),
        };
        Page { title, all }
    }

    /// Writes the page's head, up to where the first section starts.
    pub(crate) fn start(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
             <meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>mimebase inspect: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
             <h1>mimebase inspect</h1>\n\
             <p class=\"about\">Each part&#8217;s base and where it came from, and every URL a \
             reader can reach, as written and as resolved. Rows marked \
             <span class=\"flag decided\">base-decided</span> lead where a base sent them; \
             rows marked <span class=\"flag host-differs\">text names another host</span> show \
             a text that names another host than the link reaches.</p>\n",
            text(&self.title)
        )
    }

    /// Writes the end of the page.
    pub(crate) fn finish(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "<footer>Written by mimebase {}. This page runs no script and loads nothing: \
             every URL on it is text, not a link.</footer>\n</body>\n</html>\n",
            env!("CARGO_PKG_VERSION")
        )
    }

    /// Writes the section of an input or a message that could not be read: its name (as
    /// stderr gives it) and why.
    pub(crate) fn error(
        &self,
        out: &mut dyn Write,
        source: &Source,
        message: &str,
    ) -> io::Result<()> {
        writeln!(
            out,
            "<section class=\"message failed\">\n<h2 class=\"mono\">{}</h2>\n\
             <p class=\"problem\">Could not be read: {}</p>\n</section>",
            text(&place(source)),
            text(message)
        )
    }

    /// Writes the section of the report of a message of the input `name`; `offset`: for a
    /// message of an mbox file after the first, the byte offset of its `From ` line.
    pub(crate) fn message(
        &self,
        out: &mut dyn Write,
        name: Name<'_>,
        offset: Option<u64>,
        report: &Report,
    ) -> io::Result<()> {
        // The name is escaped for text already; the page escapes it for HTML too.
        let name = name.escaped();
        let heading = match offset {
            Some(offset) => format!("{name} at byte {offset}"),
            None => name.into_owned(),
        };
        writeln!(
            out,
            "<section class=\"message\">\n<h2 class=\"mono\">{}</h2>",
            htmlize::escape_all_quotes(heading)
        )?;
        self.summary(out, report)?;
        out.write_all(b"<h3>Parts</h3>\n")?;
        tree(out, report)?;
        out.write_all(b"<h3>URLs</h3>\n")?;
        self.links(out, report)?;
        out.write_all(b"<h3>Diagnostics</h3>\n")?;
        diagnostics(out, report)?;
        out.write_all(b"</section>\n")
    }

    /// The root message's summary, and what the analysis found in figures.
    fn summary(&self, out: &mut dyn Write, report: &Report) -> io::Result<()> {
        out.write_all(b"<table class=\"summary\">\n")?;
        summary_rows(out, &report.summary)?;
        let decided = report.urls.iter().filter(|url| url.base_decided).count();
        let differs = report
            .urls
            .iter()
            .filter(|url| url.text_host_differs())
            .count();
        writeln!(
            out,
            "<tr><th>Parts</th><td>{}</td></tr>\n\
             <tr><th>URLs</th><td>{} ({decided} base-decided, {differs} whose text names \
             another host)</td></tr>",
            report.entities.len(),
            report.urls.len(),
        )?;
        if report.complete {
            out.write_all(b"<tr><th>Analysis</th><td>complete</td></tr>\n")?;
        } else {
            out.write_all(
                b"<tr><th>Analysis</th><td class=\"problem\">incomplete: a limit cut it \
                  (see the diagnostics)</td></tr>\n",
            )?;
        }
        out.write_all(b"</table>\n")
    }

    /// The table of the message's URLs, in the report's order (entities in document order;
    /// in each, header URLs, then body URLs in document order), without the unchanged ones
    /// unless `--all`.
    fn links(&self, out: &mut dyn Write, report: &Report) -> io::Result<()> {
        let shown = report
            .urls
            .iter()
            .filter(|url| self.all || !is_unchanged(url));
        let left_out = report.urls.len() - shown.clone().count();
        if left_out < report.urls.len() {
            out.write_all(
                b"<table class=\"links\">\n<thead><tr><th class=\"col-part\">Part</th>\
                  <th class=\"col-where\">Found in</th><th class=\"col-written\">Written</th>\
                  <th class=\"col-reached\">Reached</th><th>Link text</th>\
                  <th class=\"col-flags\">Flags</th></tr></thead>\n<tbody>\n",
            )?;
            for url in shown {
                link_row(out, url)?;
            }
            out.write_all(b"</tbody>\n</table>\n")?;
        } else if report.urls.is_empty() {
            out.write_all(b"<p class=\"none\">No URLs.</p>\n")?;
        }
        match left_out {
            0 => Ok(()),
            1 => out.write_all(
                b"<p class=\"left-out\">(1 absolute URL unchanged, not shown: --all shows it)</p>\n",
            ),
            n => writeln!(
                out,
                "<p class=\"left-out\">({n} absolute URLs unchanged, not shown: --all shows \
                 them)</p>"
            ),
        }
    }
}

/// The rows of a message's summary: `Subject`, `From`, `Date`, `Message-ID`, `(none)` for a
/// field the message lacks.
fn summary_rows(out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
    for (label, value) in [
        ("Subject", &summary.subject),
        ("From", &summary.from),
        ("Date", &summary.date),
        ("Message-ID", &summary.message_id),
    ] {
        match value {
            Some(value) => writeln!(out, "<tr><th>{label}</th><td>{}</td></tr>", text(value))?,
            None => writeln!(
                out,
                "<tr><th>{label}</th><td class=\"none\">(none)</td></tr>"
            )?,
        }
    }
    Ok(())
}

/// The entity tree as nested lists: an entity's `<li>` holds a `<ul>` of its children. The
/// entities come parent first, each entity's descendants right after it (document order),
/// so the lists open and close as the depth goes up and down; an entity whose parent is not
/// in the report is put beside the root, and none is put more than one level below the one
/// before it. The loop writes each entity once, and closes at most the lists it opened.
fn tree(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    // What each entity has, counted in one pass over the URLs and one over the diagnostics.
    let mut counts: HashMap<&PartId, Counts> = HashMap::new();
    for url in &report.urls {
        let counts = counts.entry(&url.part).or_default();
        counts.urls += 1;
        counts.decided += usize::from(url.base_decided);
        counts.differs += usize::from(url.text_host_differs());
    }
    for part in report.diagnostics.iter().filter_map(|d| d.part.as_ref()) {
        counts.entry(part).or_default().diagnostics += 1;
    }
    let mut depths: HashMap<&PartId, usize> = HashMap::new();
    let mut last: Option<usize> = None;
    out.write_all(b"<ul class=\"tree\">\n")?;
    for entity in &report.entities {
        let depth = entity
            .parent
            .as_ref()
            .and_then(|parent| depths.get(parent))
            .map_or(0, |depth| depth + 1);
        let depth = match last {
            None => {
                out.write_all(b"<li>")?;
                0
            }
            Some(last) if depth > last => {
                out.write_all(b"\n<ul>\n<li>")?;
                last + 1
            }
            Some(last) => {
                out.write_all(b"</li>\n")?;
                for _ in depth..last {
                    out.write_all(b"</ul></li>\n")?;
                }
                out.write_all(b"<li>")?;
                depth
            }
        };
        depths.insert(&entity.part, depth);
        last = Some(depth);
        let counts = counts.get(&entity.part).copied().unwrap_or_default();
        node(out, entity, counts)?;
    }
    if let Some(last) = last {
        out.write_all(b"</li>\n")?;
        for _ in 0..last {
            out.write_all(b"</ul></li>\n")?;
        }
    }
    out.write_all(b"</ul>\n")
}

/// What the tree shows of one entity: its part identifier, type and (for an attachment) how
/// it was read; the summary of an encapsulated message; its base and where the base came
/// from; its header-level base when the content's base differs; and how many URLs and
/// diagnostics it has.
fn node(out: &mut dyn Write, entity: &EntityRecord, counts: Counts) -> io::Result<()> {
    write!(
        out,
        "<div class=\"node-head\"><span class=\"part\">{}</span> <span class=\"type\">{}</span>",
        text(entity.part.as_str()),
        text(&entity.content_type)
    )?;
    if let Some(label) = document_label(entity.document) {
        write!(out, " <span class=\"label\">{}</span>", text(&label))?;
    }
    let mut said = Vec::new();
    if counts.urls > 0 {
        said.push(plural(counts.urls, "URL", "URLs"));
    }
    if counts.decided > 0 {
        said.push(format!("{} base-decided", counts.decided));
    }
    if counts.differs > 0 {
        said.push(format!("{} whose text names another host", counts.differs));
    }
    if counts.diagnostics > 0 {
        said.push(plural(counts.diagnostics, "diagnostic", "diagnostics"));
    }
    if !said.is_empty() {
        write!(out, " <span class=\"count\">({})</span>", said.join(", "))?;
    }
    out.write_all(b"</div>\n")?;
    // The root's summary heads the section; an encapsulated message's is shown here.
    if entity.parent.is_some()
        && let Some(summary) = entity.summary.as_deref()
    {
        out.write_all(b"<table class=\"summary node-line\">\n")?;
        summary_rows(out, summary)?;
        out.write_all(b"</table>\n")?;
    }
    base_line(out, "base", &entity.base)?;
    if entity.base != entity.header_base {
        base_line(out, "header-level base", &entity.header_base)?;
    }
    if let Some(opened) = &entity.opened {
        writeln!(
            out,
            "<div class=\"node-line\"><span class=\"label\">opened</span> {}</div>",
            text(&opened_note(opened))
        )?;
    }
    Ok(())
}

/// What the tree says an entity has.
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    /// URL records.
    urls: usize,
    /// Of them, those whose destination a base decided.
    decided: usize,
    /// Of them, links whose text names another host than they reach.
    differs: usize,
    /// Diagnostics of the entity.
    diagnostics: usize,
}

/// `count` and the noun for it: `1 URL`, `3 URLs`.
fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// A line of the tree that names a base and where it came from, as the text tree does.
fn base_line(out: &mut dyn Write, label: &str, base: &BaseRecord) -> io::Result<()> {
    write!(
        out,
        "<div class=\"node-line\"><span class=\"label\">{label}</span> "
    )?;
    match (&base.url, base.source, &base.inherited_from) {
        (None, BaseSource::Attachment, _) => out.write_all(
            b"<span class=\"none\">none</span> \
              <span class=\"label\">(attachment, opened from a temporary file)</span>",
        )?,
        (None, _, _) => out.write_all(b"<span class=\"none\">none</span>")?,
        (Some(url), BaseSource::Inherited, Some(from)) => write!(
            out,
            "<span class=\"url\">{}</span> <span class=\"label\">(inherited from {})</span>",
            text(url),
            text(from.as_str())
        )?,
        (Some(url), source, _) => write!(
            out,
            "<span class=\"url\">{}</span> <span class=\"label\">(<span class=\"source\">{}\
             </span>)</span>",
            text(url),
            text(source.as_str())
        )?,
    }
    out.write_all(b"</div>\n")
}

/// One row of the URL table: part, where found, as written, where it leads (or why it leads
/// nowhere, and the part it names), the link's text and title, and the flags. A row whose
/// destination a base decided has the class `decided`, one whose text names another host
/// `host-differs`; each also says so in its flags cell.
fn link_row(out: &mut dyn Write, url: &UrlRecord) -> io::Result<()> {
    let differs = url.text_host_differs();
    let class = match (url.base_decided, differs) {
        (true, true) => " class=\"decided host-differs\"",
        (true, false) => " class=\"decided\"",
        (false, true) => " class=\"host-differs\"",
        (false, false) => "",
    };
    write!(
        out,
        "<tr{class}><td class=\"part\">{}</td><td class=\"source\">{}</td>\
         <td class=\"url\">{}</td>",
        text(url.part.as_str()),
        text(&source_label(&url.source)),
        text(&url.reference)
    )?;
    match &url.resolution {
        Resolution::Resolved(resolved) => {
            write!(out, "<td><span class=\"url\">{}</span>", text(resolved))?;
        }
        Resolution::NoBase => {
            out.write_all(b"<td><span class=\"problem\">unresolved: relative, no base</span>")?;
        }
        resolution => write!(
            out,
            "<td><span class=\"problem\">unresolved: the resolver refused it ({})</span>",
            text(resolution.error().unwrap_or_default())
        )?,
    }
    if let Some(target) = &url.target {
        write!(
            out,
            "<div class=\"target\">names part {} ({})</div>",
            text(target.part.as_str()),
            text(target.by.as_str())
        )?;
    }
    out.write_all(b"</td><td>")?;
    if let Some(link) = url.link.as_deref() {
        if !link.text.is_empty() {
            write!(out, "&#8220;{}&#8221;", text(&link.text))?;
        }
        if let Some(title) = &link.title {
            write!(
                out,
                "<div class=\"link-title\">title &#8220;{}&#8221;</div>",
                text(title)
            )?;
        }
    }
    out.write_all(b"</td><td>")?;
    if url.base_decided {
        out.write_all(b"<span class=\"flag decided\">base-decided</span>")?;
    }
    if differs {
        out.write_all(b"<span class=\"flag host-differs\">text names another host</span>")?;
    }
    if let Some(reason) = ignored_reason(url) {
        write!(
            out,
            "<span class=\"flag ignored\">ignored: {}</span>",
            text(&reason)
        )?;
    }
    out.write_all(b"</td></tr>\n")
}

/// The message's diagnostics, each with its part (`message` for the message as a whole), in
/// the order found.
fn diagnostics(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    if report.diagnostics.is_empty() {
        return out.write_all(b"<p class=\"none\">None.</p>\n");
    }
    out.write_all(b"<ul class=\"diagnostics\">\n")?;
    for diagnostic in &report.diagnostics {
        match &diagnostic.part {
            Some(part) => write!(
                out,
                "<li><span class=\"part\">part {}</span>: ",
                text(part.as_str())
            )?,
            None => out.write_all(b"<li><span class=\"part\">message</span>: ")?,
        }
        writeln!(
            out,
            "<span class=\"problem\">{}</span></li>",
            text(&diagnostic.message)
        )?;
    }
    out.write_all(b"</ul>\n")
}
