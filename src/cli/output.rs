//! Human and line-oriented output of a [`Report`].

use std::collections::HashMap;
use std::io::{self, Write};

use mimebase::report::{MessageLine, UrlLine};
use mimebase::{BaseRecord, BaseSource, PartId, Report, Unresolved, UrlRecord};

/// `mimebase inspect --json`: one [`MessageLine`] per input.
pub(crate) fn inspect_json(out: &mut dyn Write, name: &str, report: &Report) -> io::Result<()> {
    serde_json::to_writer(
        &mut *out,
        &MessageLine {
            input: name,
            report,
        },
    )?;
    writeln!(out)
}

/// `mimebase urls --json`: one [`UrlLine`] per URL.
pub(crate) fn urls_json(out: &mut dyn Write, name: &str, report: &Report) -> io::Result<()> {
    for url in &report.urls {
        serde_json::to_writer(&mut *out, &UrlLine { input: name, url })?;
        writeln!(out)?;
    }
    Ok(())
}

/// `mimebase urls`: one line per URL, `resolved<TAB>reference`, the first column empty when
/// unresolved. Tabs and line breaks cannot occur in either column: header values are
/// unfolded and stripped of white space, HTML values trimmed; any that remain inside an HTML
/// value are written as `\t`, `\n`, `\r`.
pub(crate) fn urls(out: &mut dyn Write, _name: &str, report: &Report) -> io::Result<()> {
    for url in &report.urls {
        writeln!(
            out,
            "{}\t{}",
            escape(url.resolved.as_deref().unwrap_or_default()),
            escape(&url.reference)
        )?;
    }
    Ok(())
}

fn escape(text: &str) -> String {
    text.replace('\t', "\\t")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// `mimebase inspect`: the entity tree, indented by depth, with each entity's base and URLs.
///
/// A URL that names an entity of the same message ends with `  -> part 2 (cid)`: the entity
/// and how it was matched (`cid`, `mid` or `content-location`).
///
/// ```text
/// == samples/nested.eml
/// HEADER  multipart/mixed
///   base  http://example.com/news/  (header:Content-Base)
///   1  text/html
///     base  http://example.com/news/  (inherited from HEADER)
///     html:a@href  today.html  ->  http://example.com/news/today.html
/// ```
pub(crate) fn inspect(out: &mut dyn Write, name: &str, report: &Report) -> io::Result<()> {
    writeln!(out, "== {name}")?;
    for diagnostic in report.diagnostics.iter().filter(|d| d.part.is_none()) {
        writeln!(out, "! {}", diagnostic.message)?;
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
        writeln!(out, "{indent}{}  {}", entity.part, entity.content_type)?;
        if entity.base == entity.header_base {
            writeln!(out, "{indent}  base  {}", describe(&entity.base))?;
        } else {
            writeln!(out, "{indent}  base  {}", describe(&entity.base))?;
            writeln!(
                out,
                "{indent}  header-level base  {}",
                describe(&entity.header_base)
            )?;
        }
        for url in report.urls.iter().filter(|u| u.part == entity.part) {
            writeln!(
                out,
                "{indent}  {}  {}{}",
                url.source,
                resolution(url),
                target(url)
            )?;
        }
        for diagnostic in report
            .diagnostics
            .iter()
            .filter(|d| d.part.as_ref() == Some(&entity.part))
        {
            writeln!(out, "{indent}  ! {}", diagnostic.message)?;
        }
    }
    Ok(())
}

fn describe(base: &BaseRecord) -> String {
    match (&base.url, base.source, &base.inherited_from) {
        (None, _, _) => "none".to_owned(),
        (Some(url), BaseSource::Inherited, Some(from)) => format!("{url}  (inherited from {from})"),
        (Some(url), source, _) => format!("{url}  ({source})"),
    }
}

/// `  -> part 2 (cid)` for a URL that names an entity of the message, else nothing.
fn target(url: &UrlRecord) -> String {
    url.target.as_ref().map_or_else(String::new, |target| {
        format!("  -> part {} ({})", target.part, target.by)
    })
}

fn resolution(url: &UrlRecord) -> String {
    let reference = escape(&url.reference);
    match (&url.resolved, url.unresolved) {
        (Some(resolved), _) => format!("{reference}  ->  {}", escape(resolved)),
        (None, Some(Unresolved::NoBase)) => {
            format!("{reference}  ->  unresolved: relative, no base")
        }
        (None, _) => format!("{reference}  ->  unresolved: the resolver refused it"),
    }
}
