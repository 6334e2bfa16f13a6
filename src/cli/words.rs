//! What the `inspect` tree and its HTML page say of records, in words (not escaped: each
//! caller escapes for where it writes, the terminal or HTML).

use mimebase::{BaseIgnored, ChosenBy, Document, DocumentKind, Opened, UrlRecord, UrlSource};

/// Why the URL of a `<base href>` or base header field does not set the base it would, in
/// words (`not the first <base href>`); `None` for any other URL. Not escaped.
pub(crate) fn ignored_reason(url: &UrlRecord) -> Option<String> {
    let why = url.ignored?;
    let field = match &url.source {
        UrlSource::Header { name, .. } => name.as_str(),
        _ => "field",
    };
    let text = match why {
        BaseIgnored::NotFirst => "not the first <base href>".to_owned(),
        BaseIgnored::InTemplate => "inside <template>".to_owned(),
        BaseIgnored::ForeignContent => "in SVG or MathML content, not an HTML <base>".to_owned(),
        BaseIgnored::Unusable => "cannot be a base, see below".to_owned(),
        BaseIgnored::Duplicate => format!("not the first {field} field"),
        BaseIgnored::OverriddenBy(source) => format!(
            "{} takes precedence",
            source.as_str().trim_start_matches("header:")
        ),
        BaseIgnored::NotInProfile => format!("{field} is not a base in this profile"),
        _ => why.to_string(),
    };
    Some(text)
}

/// What the tree says of how a part was read, unescaped:
/// `(attachment, read as pdf by its content)`; `None` when it says nothing.
pub(crate) fn document_label(document: Option<Document>) -> Option<String> {
    let document = document?;
    Some(match document.by {
        ChosenBy::FileName => format!("(attachment, read as {} by its file name)", document.kind),
        ChosenBy::Content => format!("(attachment, read as {} by its content)", document.kind),
        _ if document.kind.is_file() || document.kind == DocumentKind::Archive => {
            format!("(attachment, read as {})", document.kind)
        }
        _ if document.attachment => "(attachment)".to_owned(),
        _ => return None,
    })
}

/// How an encrypted file was opened, in words, unescaped: `with the empty password`, `with
/// the password "4821" that part 1 states`.
pub(crate) fn opened_note(opened: &Opened) -> String {
    match opened {
        Opened::Empty => "with the empty password".to_owned(),
        Opened::Stated { part, password } => {
            format!("with the password \"{password}\" that part {part} states")
        }
        _ => "with a password".to_owned(),
    }
}

/// Where a URL was found, as its record's `source` says it, and for a URL inside an
/// `<iframe srcdoc>` document how deep: `html:a@href (srcdoc)`, `html:a@href (srcdoc 2)`; for
/// a link inside a file, where in the file: `pdf:annot/URI (page 1, object 12)`,
/// `office:relationship (word/_rels/document.xml.rels)`. Not escaped.
pub(crate) fn source_label(source: &UrlSource) -> String {
    match source {
        UrlSource::Html { srcdoc: 1, .. } => format!("{source} (srcdoc)"),
        UrlSource::Html { srcdoc, .. } if *srcdoc > 1 => format!("{source} (srcdoc {srcdoc})"),
        UrlSource::File(file) => {
            let mut place = Vec::new();
            if let Some(member) = &file.member {
                place.push(member.clone());
            }
            if let Some(page) = file.page {
                place.push(format!("page {page}"));
            }
            if let Some(object) = file.object {
                place.push(format!("object {object}"));
            }
            if place.is_empty() {
                source.to_string()
            } else {
                format!("{source} ({})", place.join(", "))
            }
        }
        _ => source.to_string(),
    }
}

/// True for a URL that `inspect` leaves out without `--all`: resolved to the reference as
/// written (an absolute URL the resolver took as it is), no base decided it, it names no part
/// of the message, no link text names another host than it reaches, and it is not a base that is
/// ignored. What is left shows
/// what a base, the resolver or the message did.
pub(crate) fn is_unchanged(url: &UrlRecord) -> bool {
    url.resolution.resolved() == Some(url.reference.as_str())
        && !url.base_decided
        && url.target.is_none()
        && !url.text_host_differs()
        && url.ignored.is_none()
}
