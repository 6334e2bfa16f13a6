//! Office Open XML packages (ECMA-376): external relationships in every relationship part
//! (Part 2), field codes in WordprocessingML (Part 1 §17.16) and `HYPERLINK` formulas in
//! SpreadsheetML (Part 1 §18.17), in the transitional and strict namespaces alike.

use quick_xml::events::{BytesStart, Event};
use quick_xml::name::NamespaceResolver;

use super::field::{field_link, formula_links};
use super::mapped::MappedText;
use super::xml::{self, Document, NotWellFormed};
use super::{MAX_CODE_BYTES, Sink, read_xml_part};
use crate::archive::{Member, ProblemKind};

/// The namespace of relationship parts (ECMA-376 Part 2), the same in strict packages.
const RELATIONSHIPS: [&str; 1] = ["http://schemas.openxmlformats.org/package/2006/relationships"];

/// The WordprocessingML namespaces: transitional and strict.
const WORDPROCESSING: [&str; 2] = [
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
];

/// The SpreadsheetML namespaces: transitional and strict.
const SPREADSHEET: [&str; 2] = [
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main",
];

/// How deep complex fields nest inside field codes before deeper ones are not read: Word
/// nests a handful at most.
const MAX_FIELD_DEPTH: usize = 64;

/// True for the members of a package that may hold links: relationship parts (`*.rels`) and
/// XML parts (`*.xml`), names compared ASCII case-insensitively as part names are; the
/// content types part holds none.
pub(super) fn is_wanted(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    (lower.ends_with(".rels") || lower.ends_with(".xml")) && lower != "[content_types].xml"
}

/// Reads the links of `members` (those [`is_wanted`] kept) into `sink`.
pub(super) fn links(members: &[Member], sink: &mut Sink) {
    for member in members {
        if sink.is_full() {
            break;
        }
        if member.name.to_ascii_lowercase().ends_with(".rels") {
            read_xml_part(member, sink, |document, sink| {
                relationships(document, &member.name, sink)
            });
        } else {
            read_xml_part(member, sink, |document, sink| {
                Content::new(document, &member.name).read(sink)
            });
        }
    }
}

/// Reads the external relationships of a relationship part: each `Relationship` whose
/// `TargetMode` is `External` (white space around it ignored, as .NET's packaging reader
/// ignores it) is a link to its `Target`.
fn relationships(
    document: &Document<'_>,
    member: &str,
    sink: &mut Sink,
) -> Result<(), NotWellFormed> {
    let text = document.text.as_ref();
    xml::each_event(text, |resolver, event, _| {
        if let Event::Start(start) | Event::Empty(start) = &event
            && xml::is_element(resolver, start, &RELATIONSHIPS, "Relationship")
        {
            let mode = xml::attribute(resolver, text, start, &[], "TargetMode")
                .map(|(raw, at)| xml::attribute_value(raw, at));
            let is_external = mode.is_some_and(|mode| mode.text().trim() == "External");
            if is_external
                && let Some((raw, at)) = xml::attribute(resolver, text, start, &[], "Target")
            {
                let value = xml::attribute_value(raw, at);
                let target = value.text().trim();
                if !target.is_empty() {
                    let range = document.part_range(at..at + raw.len());
                    sink.add("relationship", target, Some(member), range);
                }
            }
        }
        !sink.is_full()
    })
}

/// A complex field being read (ECMA-376 Part 1 §17.16.18, `w:fldChar`).
#[derive(Debug, Default)]
struct Field {
    /// Its code so far.
    code: MappedText,
    /// True once its `separate` (or `end`) was met: its code is complete and was read.
    is_read: bool,
}

/// The state of the reading of a WordprocessingML or SpreadsheetML part.
struct Content<'d, 'b> {
    /// The part's text.
    document: &'d Document<'b>,
    /// The member's name.
    member: &'d str,
    /// The complex fields open, outermost first.
    fields: Vec<Field>,
    /// How many fields are open beyond [`MAX_FIELD_DEPTH`].
    too_deep: usize,
    /// True inside a `w:instrText`.
    in_code: bool,
    /// True inside a `w:t`.
    in_text: bool,
    /// The text of the `f` element being read, if one is.
    formula: Option<MappedText>,
    /// True once a code or formula was cut at [`MAX_CODE_BYTES`].
    is_cut: bool,
}

impl<'d, 'b> Content<'d, 'b> {
    /// A reading of the part `document` of `member`.
    fn new(document: &'d Document<'b>, member: &'d str) -> Self {
        Content {
            document,
            member,
            fields: Vec::new(),
            too_deep: 0,
            in_code: false,
            in_text: false,
            formula: None,
            is_cut: false,
        }
    }

    /// Reads the part into `sink`.
    fn read(mut self, sink: &mut Sink) -> Result<(), NotWellFormed> {
        let text = self.document.text.as_ref();
        let result = xml::each_event(text, |resolver, event, range| {
            self.event(resolver, text, &event, range, sink);
            !sink.is_full()
        });
        // Fields left open at the end (or at an error) still name their links.
        while let Some(field) = self.fields.pop() {
            if !field.is_read {
                self.report_field(&field.code, sink);
            }
        }
        if self.is_cut {
            sink.problem(
                ProblemKind::Limit,
                Some(self.member),
                format!(
                    "a field code or formula longer than {MAX_CODE_BYTES} bytes was read in part"
                ),
            );
        }
        result
    }

    /// Handles one event.
    fn event(
        &mut self,
        resolver: &NamespaceResolver,
        text: &str,
        event: &Event<'_>,
        range: std::ops::Range<usize>,
        sink: &mut Sink,
    ) {
        match event {
            Event::Start(start) => {
                self.element(resolver, text, start, sink);
                self.in_code |= xml::is_element(resolver, start, &WORDPROCESSING, "instrText");
                self.in_text |= xml::is_element(resolver, start, &WORDPROCESSING, "t");
                if xml::is_element(resolver, start, &SPREADSHEET, "f") {
                    self.formula = Some(MappedText::default());
                }
            }
            Event::Empty(start) => self.element(resolver, text, start, sink),
            Event::End(end) => {
                let (resolved, name) = resolver.resolve_element(end.name());
                if xml::is_in(&resolved, &WORDPROCESSING) {
                    match name.as_ref() {
                        "instrText" => self.in_code = false,
                        "t" => self.in_text = false,
                        _ => {}
                    }
                } else if xml::is_in(&resolved, &SPREADSHEET)
                    && name.as_ref() == "f"
                    && let Some(formula) = self.formula.take()
                {
                    for found in formula_links(formula.text()) {
                        let range = self.document.part_range(formula.source(found.range));
                        sink.add(found.place, &found.target, Some(self.member), range);
                    }
                }
            }
            Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                self.text(text, event, range)
            }
            _ => {}
        }
    }

    /// Handles the elements that matter whether or not they are empty: `w:fldChar` and
    /// `w:fldSimple`.
    fn element(
        &mut self,
        resolver: &NamespaceResolver,
        text: &str,
        start: &BytesStart<'_>,
        sink: &mut Sink,
    ) {
        if xml::is_element(resolver, start, &WORDPROCESSING, "fldChar") {
            let kind = xml::attribute(resolver, text, start, &WORDPROCESSING, "fldCharType")
                .map(|(raw, at)| xml::attribute_value(raw, at));
            match kind.as_ref().map(|kind| kind.text().trim()) {
                Some("begin") => self.begin(),
                Some("separate") => self.separate(sink),
                Some("end") => self.end(sink),
                _ => {}
            }
        } else if xml::is_element(resolver, start, &WORDPROCESSING, "fldSimple")
            && let Some((raw, at)) = xml::attribute(resolver, text, start, &WORDPROCESSING, "instr")
        {
            let code = xml::attribute_value(raw, at);
            self.report_field(&code, sink);
        }
    }

    /// A field begins.
    fn begin(&mut self) {
        if self.fields.len() < MAX_FIELD_DEPTH && self.too_deep == 0 {
            self.fields.push(Field::default());
        } else {
            self.too_deep += 1;
        }
    }

    /// The innermost field's code ends and its result begins.
    fn separate(&mut self, sink: &mut Sink) {
        if self.too_deep > 0 {
            return;
        }
        if let Some(field) = self.fields.last_mut()
            && !field.is_read
        {
            field.is_read = true;
            let code = std::mem::take(&mut field.code);
            self.report_field(&code, sink);
        }
    }

    /// The innermost field ends.
    fn end(&mut self, sink: &mut Sink) {
        if self.too_deep > 0 {
            self.too_deep -= 1;
        } else if let Some(field) = self.fields.pop()
            && !field.is_read
        {
            self.report_field(&field.code, sink);
        }
    }

    /// Character data: part of the innermost field's code inside a `w:instrText`; inside a
    /// `w:t` of a field's result, part of the code of the field it is nested in, if that
    /// one's code is still being read (Word puts a nested field's result into the code);
    /// part of a formula inside `f`.
    fn text(&mut self, text: &str, event: &Event<'_>, range: std::ops::Range<usize>) {
        let target = if let Some(formula) = self.formula.as_mut() {
            Some(formula)
        } else if self.too_deep > 0 {
            None
        } else if self.in_code {
            self.fields
                .last_mut()
                .filter(|field| !field.is_read)
                .map(|field| &mut field.code)
        } else if self.in_text {
            // The innermost field whose code is being read, below one whose result this is.
            let reading = self.fields.iter().rposition(|field| !field.is_read);
            match reading {
                Some(index) if index + 1 < self.fields.len() => {
                    self.fields.get_mut(index).map(|field| &mut field.code)
                }
                _ => None,
            }
        } else {
            None
        };
        if let Some(code) = target {
            if code.len() < MAX_CODE_BYTES {
                xml::push_text(code, text, event, range);
            } else {
                self.is_cut = true;
            }
        }
    }

    /// Records the link the field code `code` names, if any.
    fn report_field(&self, code: &MappedText, sink: &mut Sink) {
        if let Some(found) = field_link(code.text()) {
            let range = self.document.part_range(code.source(found.range));
            sink.add(found.place, &found.target, Some(self.member), range);
        }
    }
}
