//! Action dictionaries (ISO 32000-1 §12.6) and the URLs they name: a `URI` action's URI
//! (§12.6.4.7) and the file specifications (§7.11) of `Launch`, `GoToR`, `GoToE`,
//! `SubmitForm` and `ImportData` actions, when they are URLs.

use lopdf::{Dictionary, Document, Object};

use super::ActionType;
use super::prepare::restore_markers;
use super::string::{has_scheme, text_string, uri_string};
use super::walk::resolve;

/// The type of an action dictionary (its `/S`, ISO 32000-1 §12.6.2, Table 193), when it is
/// one whose target the room reports.
pub(crate) fn action_type(document: &Document, action: &Dictionary) -> Option<ActionType> {
    let kind = action.get(b"S").ok()?;
    let (kind, _) = resolve(document, kind, None)?;
    match kind.as_name().ok()? {
        b"URI" => Some(ActionType::Uri),
        b"Launch" => Some(ActionType::Launch),
        b"GoToR" => Some(ActionType::GoToR),
        b"GoToE" => Some(ActionType::GoToE),
        b"SubmitForm" => Some(ActionType::SubmitForm),
        b"ImportData" => Some(ActionType::ImportData),
        _ => None,
    }
}

/// The bytes of a string object, with the renames of the raw pass undone when `restore`.
fn string_bytes(object: &Object, restore: bool) -> Option<Vec<u8>> {
    match object {
        Object::String(bytes, _) if restore => Some(restore_markers(bytes).into_owned()),
        Object::String(bytes, _) => Some(bytes.clone()),
        _ => None,
    }
}

/// The targets of the action `action` of type `kind`: the URLs a viewer may open when it
/// runs it, in the order of the dictionary, without repeats.
pub(crate) fn targets(
    document: &Document,
    action: &Dictionary,
    kind: ActionType,
    restore: bool,
) -> Vec<String> {
    let mut found = Vec::new();
    let entry = |key: &[u8]| {
        action
            .get(key)
            .ok()
            .and_then(|object| resolve(document, object, None))
            .map(|(object, _)| object)
    };
    match kind {
        ActionType::Uri => {
            // pdf.js reads a name as a path: "some bad PDFs do not put parentheses around
            // relative URLs".
            let uri = match entry(b"URI") {
                Some(Object::Name(name)) => Some(format!("/{}", String::from_utf8_lossy(name))),
                Some(object) => string_bytes(object, restore).map(|bytes| uri_string(&bytes)),
                None => None,
            };
            if let Some(uri) = uri.filter(|uri| !uri.is_empty()) {
                found.push(uri);
            }
        }
        ActionType::Launch => {
            if let Some(file) = entry(b"F") {
                file_specification(document, file, restore, &mut found);
            }
            // ISO 32000-1 Table 203: `/Win` is a dictionary whose `/F` is the file; `/Mac`
            // and `/Unix` have no defined form, and a string there names a file too.
            for key in [&b"Win"[..], b"Mac", b"Unix"] {
                match entry(key) {
                    Some(Object::Dictionary(launch)) => {
                        if let Some((file, _)) = launch
                            .get(b"F")
                            .ok()
                            .and_then(|f| resolve(document, f, None))
                        {
                            push_if_url(string_bytes(file, restore), false, &mut found);
                        }
                    }
                    Some(other) => push_if_url(string_bytes(other, restore), false, &mut found),
                    None => {}
                }
            }
        }
        ActionType::GoToR | ActionType::GoToE | ActionType::SubmitForm | ActionType::ImportData => {
            if let Some(file) = entry(b"F") {
                file_specification(document, file, restore, &mut found);
            }
        }
    }
    found
}

/// Adds the string `bytes` to `found` when it is a URL: always when `declared` (the file
/// specification says `/FS /URL`), otherwise when it starts with a scheme
/// ([`has_scheme`]).
fn push_if_url(bytes: Option<Vec<u8>>, declared: bool, found: &mut Vec<String>) {
    let Some(bytes) = bytes else { return };
    let text = uri_string(&bytes);
    push_text(text, declared, found);
}

/// [`push_if_url`] for text already decoded.
fn push_text(text: String, declared: bool, found: &mut Vec<String>) {
    if text.is_empty() || !(declared || has_scheme(&text)) || found.contains(&text) {
        return;
    }
    found.push(text);
}

/// Adds the URLs of the file specification `file` (ISO 32000-1 §7.11) to `found`: a file
/// specification string (§7.11.2), or a dictionary (§7.11.3, Table 44) whose `/FS /URL`
/// makes `/F` a URL (§7.11.5), or whose `/UF` (a text string), `/F`, `/Unix`, `/Mac` and
/// `/DOS` (byte strings) name files.
fn file_specification(document: &Document, file: &Object, restore: bool, found: &mut Vec<String>) {
    let specification = match file {
        Object::Dictionary(specification) => specification,
        Object::Stream(stream) => &stream.dict,
        other => {
            push_if_url(string_bytes(other, restore), false, found);
            return;
        }
    };
    let entry = |key: &[u8]| {
        specification
            .get(key)
            .ok()
            .and_then(|object| resolve(document, object, None))
            .and_then(|(object, _)| string_bytes(object, restore))
    };
    let is_url = specification
        .get(b"FS")
        .and_then(Object::as_name)
        .is_ok_and(|fs| fs == b"URL");
    if is_url {
        push_if_url(entry(b"F"), true, found);
        return;
    }
    if let Some(unicode) = entry(b"UF") {
        push_text(text_string(&unicode), false, found);
    }
    for key in [&b"F"[..], b"Unix", b"Mac", b"DOS"] {
        push_if_url(entry(key), false, found);
    }
}
