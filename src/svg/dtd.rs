//! The document type declaration's internal subset (XML 1.0 §2.8): the entity declarations
//! (§4.2) and attribute-list defaults (§3.3.2) a browser's parser reads from it. No library
//! does this part: `quick-xml` hands over the declaration as text (skipping it correctly,
//! quoted `>` and `]` included), and the XML crates that read DTDs build documents, not
//! byte offsets. The reading here is a small reader of the declarations, one after another.
//!
//! What a browser does with it, and so what this reads (Chromium, whose parser is libxml2 with
//! entity substitution on): internal general entities are substituted in attribute values and
//! in content (where their replacement text may hold markup, which becomes elements);
//! external entities are never loaded; an attribute's default value given in an
//! `<!ATTLIST>` is the attribute's value on every element of that name that lacks it.
//! Parameter-entity references are not expanded: Chromium gives libxml2 no way to look
//! parameter entities up, so each reference is an unknown one, a warning, and the
//! declarations after it are still read.
//!
//! Where the subset cannot be read (a declaration cut short, a parameter-entity reference
//! inside a declaration), libxml2 stops the whole document; this reader keeps the
//! declarations read so far and lets the scan go on, with undeclared entities then allowed:
//! a scan that stops where the browser would not could hide links, one that reads on only
//! finds some the browser would not show.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::rc::Rc;

use super::syntax::{Reference, is_name, is_space, reference};

/// A general entity, as declared.
#[derive(Debug, Clone)]
pub(super) enum Entity {
    /// An internal entity: its replacement text (XML 1.0 §4.5: character references and line
    /// ends of the literal already processed, entity references left as written).
    Internal(Rc<str>),
    /// An external parsed entity: a browser does not load it.
    External,
    /// An unparsed entity (`NDATA`): a reference to it is an error.
    Unparsed,
}

/// The default value of an attribute, from an `<!ATTLIST>` declaration.
#[derive(Debug, Clone)]
pub(super) struct AttributeDefault {
    /// The element's name, as written (libxml2 matches defaults by the name with its prefix).
    pub element: Box<str>,
    /// The attribute's name, as written.
    pub attribute: Box<str>,
    /// The default value's literal, between its quotes.
    pub literal: Box<str>,
    /// Where the literal lies in the document.
    pub range: Range<usize>,
}

/// What the internal subset declares.
#[derive(Debug, Default)]
pub(super) struct Dtd {
    /// The general entities, by name; the first declaration of a name binds (XML 1.0 §4.2).
    general: HashMap<Box<str>, Entity>,
    /// The attribute defaults, by element name; the first declaration of an (element,
    /// attribute) pair binds (XML 1.0 §3.3).
    defaults: HashMap<Box<str>, Vec<AttributeDefault>>,
    /// The (element, attribute) pairs with a default, to find the first declaration.
    declared: HashSet<(Box<str>, Box<str>)>,
    /// True when a reference to an undeclared entity is not an error (XML 1.0 §4.1, WFC:
    /// Entity Declared): the document has an external subset or parameter-entity references,
    /// whose declarations a parser that does not read them cannot know. libxml2 then warns and
    /// drops the reference. Also set when the subset could not be read to its end.
    pub lenient: bool,
}

impl Dtd {
    /// The general entity `name`, if declared.
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.general.get(name)
    }

    /// The attribute defaults declared for elements named `element` (as written).
    pub fn defaults(&self, element: &str) -> &[AttributeDefault] {
        self.defaults.get(element).map_or(&[], Vec::as_slice)
    }

    /// True when any attribute default is declared.
    pub fn has_defaults(&self) -> bool {
        !self.defaults.is_empty()
    }

    /// Reads a document type declaration: `declaration` is the text between `<!DOCTYPE` and
    /// its closing `>`, found at byte `offset` of the document.
    pub fn read(declaration: &str, offset: usize) -> Dtd {
        let mut dtd = Dtd::default();
        let mut reader = Cursor::new(declaration, 0);
        reader.skip_space();
        reader.name();
        reader.skip_space();
        if reader.keyword("SYSTEM") || reader.keyword("PUBLIC") {
            // An external subset, which a browser does not load.
            dtd.lenient = true;
            while reader.quoted().is_some() {
                reader.skip_space();
            }
        }
        reader.skip_space();
        if reader.eat("[") && dtd.read_subset(&mut reader, offset).is_err() {
            dtd.lenient = true;
        }
        dtd
    }

    /// Reads the declarations of the internal subset, up to its `]`. `Err` when a
    /// declaration cannot be read.
    fn read_subset(&mut self, reader: &mut Cursor<'_>, offset: usize) -> Result<(), ()> {
        loop {
            reader.skip_space();
            if reader.rest().starts_with(']') {
                return Ok(());
            }
            if reader.eat("<!--") {
                reader.skip_past("-->")?;
            } else if reader.eat("<?") {
                reader.skip_past("?>")?;
            } else if reader.keyword("<!ENTITY") {
                if let Some((name, entity)) = reader.entity_declaration()? {
                    self.general.entry(name).or_insert(entity);
                }
            } else if reader.keyword("<!ATTLIST") {
                for default in reader.attlist_declaration(offset)? {
                    let pair = (default.element.clone(), default.attribute.clone());
                    if self.declared.insert(pair) {
                        self.defaults
                            .entry(default.element.clone())
                            .or_default()
                            .push(default);
                    }
                }
            } else if reader.keyword("<!ELEMENT") || reader.keyword("<!NOTATION") {
                reader.skip_declaration()?;
            } else if reader.eat("%") {
                // Not expanded (see the module docs): an unknown parameter entity.
                reader.name().ok_or(())?;
                if !reader.eat(";") {
                    return Err(());
                }
                self.lenient = true;
            } else {
                return Err(());
            }
        }
    }
}

/// A reading position in a text of declarations.
struct Cursor<'t> {
    /// The text.
    text: &'t str,
    /// Byte offset of the next byte to read.
    at: usize,
}

impl<'t> Cursor<'t> {
    fn new(text: &'t str, at: usize) -> Self {
        Cursor { text, at }
    }

    /// What is left to read.
    fn rest(&self) -> &'t str {
        self.text.get(self.at..).unwrap_or_default()
    }

    /// Skips XML white space; true when there was some.
    fn skip_space(&mut self) -> bool {
        let skipped = self.rest().bytes().take_while(|&b| is_space(b)).count();
        self.at += skipped;
        skipped > 0
    }

    /// Reads `literal` when it comes next.
    fn eat(&mut self, literal: &str) -> bool {
        let found = self.rest().starts_with(literal);
        if found {
            self.at += literal.len();
        }
        found
    }

    /// Reads `keyword` when it comes next followed by white space, by a character that ends
    /// a name (a quote, `(`, `>`, `[`, `%`), or by the end of the text.
    fn keyword(&mut self, keyword: &str) -> bool {
        let rest = self.rest();
        let follows = rest.get(keyword.len()..).map(str::as_bytes);
        let ends = match follows {
            Some([]) => true,
            Some([b, ..]) => is_space(*b) || matches!(b, b'"' | b'\'' | b'(' | b'>' | b'[' | b'%'),
            None => false,
        };
        ends && self.eat(keyword)
    }

    /// Skips past the next `end`.
    fn skip_past(&mut self, end: &str) -> Result<(), ()> {
        let found = self.rest().find(end).ok_or(())?;
        self.at += found + end.len();
        Ok(())
    }

    /// Reads a [`Name`](is_name).
    fn name(&mut self) -> Option<&'t str> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| {
                c.is_ascii_whitespace()
                    || matches!(
                        c,
                        '"' | '\'' | '>' | '[' | ';' | '(' | '%' | '|' | ')' | ','
                    )
            })
            .unwrap_or(rest.len());
        let name = rest.get(..len)?;
        if !is_name(name) {
            return None;
        }
        self.at += len;
        Some(name)
    }

    /// Reads a quoted literal; returns its content and its range in the text.
    fn quoted(&mut self) -> Option<(&'t str, Range<usize>)> {
        let rest = self.rest();
        let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let len = rest.get(1..)?.find(quote)?;
        let start = self.at + 1;
        self.at = start + len + 1;
        Some((rest.get(1..1 + len)?, start..start + len))
    }

    /// Skips the rest of a declaration, to its `>`, over quoted literals.
    fn skip_declaration(&mut self) -> Result<(), ()> {
        loop {
            let rest = self.rest();
            let next = rest.find(['"', '\'', '>']).ok_or(())?;
            self.at += next;
            if self.eat(">") {
                return Ok(());
            }
            self.quoted().ok_or(())?;
        }
    }

    /// Reads the end of a declaration: optional white space and `>`.
    fn end(&mut self) -> Result<(), ()> {
        self.skip_space();
        if self.eat(">") { Ok(()) } else { Err(()) }
    }

    /// Reads an entity declaration after `<!ENTITY` (XML 1.0 §4.2 `EntityDecl`): a general
    /// entity's name and what it is; `None` for a parameter entity.
    fn entity_declaration(&mut self) -> Result<Option<(Box<str>, Entity)>, ()> {
        self.skip_space();
        let parameter = self.eat("%");
        if parameter && !self.skip_space() {
            return Err(());
        }
        let name: Box<str> = self.name().ok_or(())?.into();
        if !self.skip_space() {
            return Err(());
        }
        if let Some((literal, _)) = self.quoted() {
            let text = replacement_text(literal).ok_or(())?;
            self.end()?;
            return Ok((!parameter).then_some((name, Entity::Internal(text))));
        }
        if self.keyword("SYSTEM") {
            self.skip_space();
            self.quoted().ok_or(())?;
        } else if self.keyword("PUBLIC") {
            self.skip_space();
            self.quoted().ok_or(())?;
            self.skip_space();
            self.quoted().ok_or(())?;
        } else {
            return Err(());
        }
        let spaced = self.skip_space();
        let unparsed = spaced && !parameter && self.keyword("NDATA");
        if unparsed {
            self.skip_space();
            self.name().ok_or(())?;
        }
        self.end()?;
        Ok(match (parameter, unparsed) {
            (true, _) => None,
            (false, true) => Some((name, Entity::Unparsed)),
            (false, false) => Some((name, Entity::External)),
        })
    }

    /// Reads an attribute-list declaration after `<!ATTLIST` (XML 1.0 §3.3 `AttlistDecl`)
    /// and returns its defaults (of the attributes with a default value).
    fn attlist_declaration(&mut self, offset: usize) -> Result<Vec<AttributeDefault>, ()> {
        self.skip_space();
        let element: Box<str> = self.name().ok_or(())?.into();
        let mut defaults = Vec::new();
        loop {
            self.skip_space();
            if self.eat(">") {
                return Ok(defaults);
            }
            let attribute = self.name().ok_or(())?;
            self.skip_space();
            // AttType: a keyword, `NOTATION (…)` or an enumeration `(…)`.
            if self.keyword("NOTATION") {
                self.skip_space();
            }
            if self.eat("(") {
                self.skip_past(")")?;
            } else {
                self.name().ok_or(())?;
            }
            self.skip_space();
            if self.keyword("#REQUIRED") || self.keyword("#IMPLIED") {
                continue;
            }
            if self.keyword("#FIXED") {
                self.skip_space();
            }
            let (literal, range) = self.quoted().ok_or(())?;
            if literal.contains('<') {
                return Err(());
            }
            defaults.push(AttributeDefault {
                element: element.clone(),
                attribute: attribute.into(),
                literal: literal.into(),
                range: offset + range.start..offset + range.end,
            });
        }
    }
}

/// The replacement text of an internal entity whose literal value is `literal` (XML 1.0
/// §4.5): line ends become LF (§2.11) and character references their characters; entity
/// references stay as written (they are read where the entity is used). `None` when the
/// literal holds a parameter-entity reference (not allowed inside a declaration of the
/// internal subset, §2.8 WFC: PEs in Internal Subset) or a malformed reference.
fn replacement_text(literal: &str) -> Option<Rc<str>> {
    let mut text = String::with_capacity(literal.len());
    let mut rest = literal;
    while let Some(stop) = rest.find(['&', '%', '\r']) {
        text.push_str(rest.get(..stop)?);
        let after = rest.get(stop..)?;
        match after.as_bytes().first() {
            Some(b'%') => return None,
            Some(b'\r') => {
                text.push('\n');
                let skip = if after.as_bytes().get(1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                rest = after.get(skip..)?;
            }
            _ => {
                let end = after.find(';')?;
                let inner = after.get(1..end)?;
                match reference(inner)? {
                    Reference::Char(c) if inner.starts_with('#') => text.push(c),
                    // A predefined or other entity: bypassed, kept as written.
                    _ => text.push_str(after.get(..=end)?),
                }
                rest = after.get(end + 1..)?;
            }
        }
    }
    text.push_str(rest);
    Some(Rc::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(document: &str) -> Dtd {
        let start = document.find("<!DOCTYPE").unwrap() + "<!DOCTYPE".len();
        let end = document.rfind('>').unwrap();
        Dtd::read(&document[start..end], start)
    }

    fn internal<'d>(dtd: &'d Dtd, name: &str) -> &'d str {
        match dtd.entity(name) {
            Some(Entity::Internal(text)) => text,
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn entities_first_declaration_binds() {
        let dtd = read(
            "<!DOCTYPE svg [ <!ENTITY a \"one&#46;&b;\r\n\"> <!ENTITY a 'two'>\n\
             <!-- <!ENTITY c 'comment'> --> <?pi <!ENTITY d 'pi'>?>\
             <!ENTITY e SYSTEM \"e.xml\"> <!ENTITY f PUBLIC 'p' 's' NDATA gif>\
             <!ELEMENT svg ANY> <!NOTATION gif SYSTEM 'g>'> ]>",
        );
        assert_eq!(internal(&dtd, "a"), "one.&b;\n");
        assert!(dtd.entity("c").is_none() && dtd.entity("d").is_none());
        assert!(matches!(dtd.entity("e"), Some(Entity::External)));
        assert!(matches!(dtd.entity("f"), Some(Entity::Unparsed)));
        assert!(!dtd.lenient);
    }

    #[test]
    fn parameter_entities_are_not_expanded() {
        let dtd =
            read("<!DOCTYPE svg [<!ENTITY % d \"<!ENTITY u 'http://pe/'>\"> %d; <!ENTITY v 'w'>]>");
        assert!(dtd.entity("u").is_none());
        assert_eq!(
            internal(&dtd, "v"),
            "w",
            "declarations after the reference are read"
        );
        assert!(
            dtd.lenient,
            "parameter-entity references make undeclared entities warnings"
        );
    }

    #[test]
    fn external_subset_makes_undeclared_entities_warnings() {
        let dtd = read("<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"svg11.dtd\">");
        assert!(dtd.lenient);
        assert!(!read("<!DOCTYPE svg>").lenient);
    }

    #[test]
    fn attribute_defaults_with_their_place() {
        let document = "<!DOCTYPE svg [<!ATTLIST image href CDATA \"d.png\" x CDATA #IMPLIED \
                        y (a|b) 'a'>\n<!ATTLIST image href CDATA 'second.png' id ID #REQUIRED>\n\
                        <!ATTLIST use xlink:href CDATA #FIXED 'u.svg'>]>";
        let dtd = read(document);
        let found: Vec<_> = dtd
            .defaults("image")
            .iter()
            .map(|d| (&*d.attribute, &*d.literal, &document[d.range.clone()]))
            .collect();
        assert_eq!(found, [("href", "d.png", "d.png"), ("y", "a", "a")]);
        let fixed = &dtd.defaults("use")[0];
        assert_eq!(
            (&*fixed.attribute, &document[fixed.range.clone()]),
            ("xlink:href", "u.svg")
        );
    }

    #[test]
    fn unreadable_subset_keeps_what_was_read() {
        let dtd = read("<!DOCTYPE svg [<!ENTITY a 'x'> <!ENTITY b \"%p;\"> <!ENTITY c 'y'>]>");
        assert!(dtd.entity("a").is_some() && dtd.entity("c").is_none());
        assert!(dtd.lenient);
    }
}
