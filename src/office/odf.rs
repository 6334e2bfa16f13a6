//! OpenDocument packages (ODF 1.3): the clickable links of `content.xml` and `styles.xml`,
//! and the parts the manifest says are encrypted.

use std::collections::HashSet;

use quick_xml::events::Event;

use super::field::formula_links;
use super::xml::{self, Document, NotWellFormed};
use super::{Sink, read_xml_part};
use crate::archive::{Member, ProblemKind};

/// The text namespace.
const TEXT: [&str; 1] = ["urn:oasis:names:tc:opendocument:xmlns:text:1.0"];
/// The drawing namespace.
const DRAW: [&str; 1] = ["urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"];
/// The form namespace.
const FORM: [&str; 1] = ["urn:oasis:names:tc:opendocument:xmlns:form:1.0"];
/// The presentation namespace.
const PRESENTATION: [&str; 1] = ["urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"];
/// The table namespace.
const TABLE: [&str; 1] = ["urn:oasis:names:tc:opendocument:xmlns:table:1.0"];
/// XLink, whose `href` the linking elements carry.
const XLINK: [&str; 1] = ["http://www.w3.org/1999/xlink"];
/// The manifest namespace (ODF 1.3 Part 2).
const MANIFEST: [&str; 1] = ["urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"];

/// The manifest's name in the package.
const MANIFEST_PART: &str = "META-INF/manifest.xml";

/// The elements whose `xlink:href` a reader clicks, with the place each is reported at.
const CLICKABLE: [(&[&str], &str, &str); 4] = [
    (&TEXT, "a", "text:a@xlink:href"),
    (&DRAW, "a", "draw:a@xlink:href"),
    (&FORM, "button", "form:button@xlink:href"),
    (
        &PRESENTATION,
        "event-listener",
        "presentation:event-listener@xlink:href",
    ),
];

/// True for the members that may hold links (`content.xml` and `styles.xml`, of the
/// document or of an object embedded in a subfolder) and for the manifest.
pub(super) fn is_wanted(name: &str) -> bool {
    let file = name.rsplit('/').next().unwrap_or(name);
    name == MANIFEST_PART || file == "content.xml" || file == "styles.xml"
}

/// Reads the links of `members` (those [`is_wanted`] kept) into `sink`, the manifest first so
/// that the parts it lists as encrypted are not read as XML.
pub(super) fn links(members: &[Member], sink: &mut Sink) {
    let mut encrypted = HashSet::new();
    if let Some(manifest) = members.iter().find(|member| member.name == MANIFEST_PART) {
        read_xml_part(manifest, sink, |document, _| {
            encrypted_parts(document, &mut encrypted)
        });
    }
    for member in members.iter().filter(|member| member.name != MANIFEST_PART) {
        if sink.is_full() {
            break;
        }
        if encrypted.contains(member.name.as_str()) {
            sink.problem(
                ProblemKind::Encrypted,
                Some(&member.name),
                "part encrypted with a password (odf package encryption is not read)".to_owned(),
            );
            continue;
        }
        read_xml_part(member, sink, |document, sink| {
            content(document, &member.name, sink)
        });
    }
}

/// Adds to `encrypted` the paths of the manifest's `manifest:file-entry` elements that hold
/// a `manifest:encryption-data`.
fn encrypted_parts(
    document: &Document<'_>,
    encrypted: &mut HashSet<String>,
) -> Result<(), NotWellFormed> {
    let text = document.text.as_ref();
    let mut entry: Option<String> = None;
    xml::each_event(text, |resolver, event, _| {
        match &event {
            Event::Start(start) if xml::is_element(resolver, start, &MANIFEST, "file-entry") => {
                entry = xml::attribute(resolver, text, start, &MANIFEST, "full-path")
                    .map(|(raw, at)| xml::attribute_value(raw, at).text().to_owned());
            }
            Event::Start(start) | Event::Empty(start)
                if xml::is_element(resolver, start, &MANIFEST, "encryption-data") =>
            {
                if let Some(path) = entry.take() {
                    encrypted.insert(path);
                }
            }
            _ => {}
        }
        true
    })
}

/// Reads the links of a `content.xml` or `styles.xml` part.
fn content(document: &Document<'_>, member: &str, sink: &mut Sink) -> Result<(), NotWellFormed> {
    let text = document.text.as_ref();
    xml::each_event(text, |resolver, event, _| {
        let (Event::Start(start) | Event::Empty(start)) = &event else {
            return true;
        };
        for (namespaces, local, place) in CLICKABLE {
            if xml::is_element(resolver, start, namespaces, local)
                && let Some((raw, at)) = xml::attribute(resolver, text, start, &XLINK, "href")
            {
                let value = xml::attribute_value(raw, at);
                let target = value.text().trim();
                if !target.is_empty() {
                    sink.add(
                        place,
                        target,
                        Some(member),
                        document.part_range(at..at + raw.len()),
                    );
                }
            }
        }
        let is_cell = xml::is_element(resolver, start, &TABLE, "table-cell")
            || xml::is_element(resolver, start, &TABLE, "covered-table-cell");
        if is_cell && let Some((raw, at)) = xml::attribute(resolver, text, start, &TABLE, "formula")
        {
            let formula = xml::attribute_value(raw, at);
            for found in formula_links(formula.text()) {
                let range = document.part_range(formula.source(found.range));
                sink.add(found.place, &found.target, Some(member), range);
            }
        }
        !sink.is_full()
    })
}
