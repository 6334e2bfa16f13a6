//! The links that a word-processing field code or a spreadsheet formula names, found in its
//! decoded text: field codes by the syntax of ECMA-376 Part 1 §17.16.1 (the same in RTF's
//! `\fldinst`, RTF 1.9.1 "Fields"), formulas by the string literals of ECMA-376 Part 1
//! §18.17 (and OpenFormula's, ODF 1.3 Part 4).

use std::ops::Range;

/// A link a field code or formula names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    /// The field's name, in capitals (`HYPERLINK`, `INCLUDEPICTURE`, `INCLUDETEXT`).
    pub place: &'static str,
    /// The link as the application follows it: the argument with its escapes decoded.
    pub target: String,
    /// The bytes of the decoded field code or formula the target is written at (0-based,
    /// half-open, inside the quotes).
    pub range: Range<usize>,
}

/// The fields that name a resource, with the letters of their switches that take an
/// argument (the others take none), as §17.16.5 defines them: HYPERLINK (`\l` bookmark,
/// `\o` tooltip, `\t` target frame), INCLUDEPICTURE (`\c` converter), INCLUDETEXT (`\c`
/// converter, `\n` namespace, `\t` transform, `\x` XPath).
/// INCLUDEPICTURE and INCLUDETEXT are loaded, not clicked: Word fetches their targets when it
/// updates fields, so a reader reaches them by opening the document.
const FIELDS: [(&str, &[&str]); 3] = [
    ("HYPERLINK", &["l", "o", "t"]),
    ("INCLUDEPICTURE", &["c"]),
    ("INCLUDETEXT", &["c", "n", "t", "x"]),
];

/// A field argument (§17.16.1): text, quoted or not.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Argument {
    /// Its text, `\\` and `\"` decoded to `\` and `"` ("To include a double-quote character
    /// in text, it shall be preceded with a backslash").
    text: String,
    /// Where the text is written in the field code, inside the quotes.
    range: Range<usize>,
}

/// The link the field code `code` names, if it is one of [`FIELDS`] with a target: its first
/// field argument. For HYPERLINK, the `\l` switch's argument is a location in the target
/// (§17.16.5, HYPERLINK: a location in the file, such as a bookmark, for the hyperlink to
/// jump to): with a target it becomes the target's
/// fragment, as Word opens it (`url#bookmark`, the range staying the URL's); alone it is a
/// place in the document itself, reported as `#bookmark` at the bookmark's range.
pub(super) fn field_link(code: &str) -> Option<Found> {
    let mut cursor = Cursor { code, at: 0 };
    cursor.skip_space();
    let start = cursor.at;
    while cursor
        .peek()
        .is_some_and(|c| !c.is_whitespace() && c != '\\' && c != '"')
    {
        cursor.bump();
    }
    let name = code.get(start..cursor.at)?;
    let (place, with_argument) = FIELDS
        .iter()
        .find(|(field, _)| field.eq_ignore_ascii_case(name))?;
    let mut target = None;
    let mut location = None;
    loop {
        cursor.skip_space();
        match cursor.peek() {
            None => break,
            Some('\\') if cursor.switch_follows() => {
                cursor.bump();
                let switch = cursor.switch();
                if with_argument
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(&switch))
                {
                    cursor.skip_space();
                    let argument = cursor.argument();
                    if switch.eq_ignore_ascii_case("l") && *place == "HYPERLINK" {
                        location.get_or_insert(argument);
                    }
                }
            }
            Some(_) => {
                let argument = cursor.argument();
                target.get_or_insert(argument);
            }
        }
    }
    match (target, location) {
        (Some(target), location) if !target.text.is_empty() => {
            let mut text = target.text;
            if let Some(location) = location.filter(|l| !l.text.is_empty()) {
                text.push('#');
                text.push_str(&location.text);
            }
            Some(Found {
                place,
                target: text,
                range: target.range,
            })
        }
        (_, Some(location)) if !location.text.is_empty() => Some(Found {
            place,
            target: format!("#{}", location.text),
            range: location.range,
        }),
        _ => None,
    }
}

/// A reading position in a field code.
struct Cursor<'c> {
    /// The field code.
    code: &'c str,
    /// The byte offset read to.
    at: usize,
}

impl Cursor<'_> {
    /// The character at the position.
    fn peek(&self) -> Option<char> {
        self.code.get(self.at..)?.chars().next()
    }

    /// Moves past the character at the position.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        Some(c)
    }

    /// Moves past white space.
    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// True when the backslash at the position starts a switch: `\!` or `\` and a Latin
    /// letter (§17.16.1 `field-switch-character`).
    fn switch_follows(&self) -> bool {
        let mut rest = self.code.get(self.at..).unwrap_or_default().chars().skip(1);
        rest.next()
            .is_some_and(|c| c == '!' || c.is_ascii_alphabetic())
    }

    /// Reads a switch's name after its backslash: `!`, or one or two Latin letters.
    fn switch(&mut self) -> String {
        if self.peek() == Some('!') {
            self.bump();
            return "!".to_owned();
        }
        let mut name = String::new();
        while name.len() < 2 && self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            name.extend(self.bump());
        }
        name
    }

    /// Reads a field argument: quoted (to the next `"` not escaped, or the end) or up to
    /// white space.
    fn argument(&mut self) -> Argument {
        let quoted = self.peek() == Some('"');
        if quoted {
            self.bump();
        }
        let start = self.at;
        let mut text = String::new();
        let mut end = start;
        while let Some(c) = self.peek() {
            if (quoted && c == '"') || (!quoted && c.is_whitespace()) {
                break;
            }
            self.bump();
            if c == '\\' && matches!(self.peek(), Some('\\' | '"')) {
                text.extend(self.bump());
            } else {
                text.push(c);
            }
            end = self.at;
        }
        if quoted {
            self.bump();
        }
        Argument {
            text,
            range: start..end,
        }
    }
}

/// The links of the `HYPERLINK` calls in the formula `formula` whose first argument is a
/// string literal (a computed one, `HYPERLINK(A1)`, names no link that can be read without
/// evaluating the sheet). Spreadsheet string literals double their quotes (`""`); they and
/// quoted sheet names (`'Sheet 1'!A1`) are skipped, so that a literal that holds the word
/// `HYPERLINK(` is not taken for a call.
pub(super) fn formula_links(formula: &str) -> Vec<Found> {
    let bytes = formula.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => at = literal(formula, at).1,
            b'\'' => at = quoted_name(bytes, at),
            _ if is_identifier(byte) => {
                let start = at;
                while bytes.get(at).copied().is_some_and(is_identifier) {
                    at += 1;
                }
                let name = formula.get(start..at).unwrap_or_default();
                if !name.eq_ignore_ascii_case("HYPERLINK") {
                    continue;
                }
                let mut next = skip_space(bytes, at);
                if bytes.get(next) != Some(&b'(') {
                    continue;
                }
                next = skip_space(bytes, next + 1);
                if bytes.get(next) == Some(&b'"') {
                    let ((target, range), end) = literal(formula, next);
                    if !target.is_empty() {
                        found.push(Found {
                            place: "HYPERLINK",
                            target,
                            range,
                        });
                    }
                    at = end;
                }
            }
            _ => at += 1,
        }
    }
    found
}

/// True for the bytes of a function name or cell reference (letters, digits, `_`, `.`, and
/// the bytes of non-ASCII characters).
fn is_identifier(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'.' || byte >= 0x80
}

/// The offset of the first byte at or after `at` that is not white space.
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

/// The string literal whose opening quote is at `at`: its text (`""` decoded to `"`) and
/// range inside the quotes, and the offset past its closing quote (the end, if it has none).
fn literal(formula: &str, at: usize) -> ((String, Range<usize>), usize) {
    let bytes = formula.as_bytes();
    let start = at + 1;
    let mut text = String::new();
    let mut run = start;
    let mut index = start;
    loop {
        match bytes.get(index) {
            None => {
                text.push_str(formula.get(run..index).unwrap_or_default());
                return ((text, start..index), index);
            }
            Some(b'"') if bytes.get(index + 1) == Some(&b'"') => {
                text.push_str(formula.get(run..=index).unwrap_or_default());
                index += 2;
                run = index;
            }
            Some(b'"') => {
                text.push_str(formula.get(run..index).unwrap_or_default());
                return ((text, start..index), index + 1);
            }
            Some(_) => index += 1,
        }
    }
}

/// The offset past the quoted sheet name whose opening quote is at `at` (`''` inside it is
/// a quote).
fn quoted_name(bytes: &[u8], at: usize) -> usize {
    let mut index = at + 1;
    loop {
        match bytes.get(index) {
            None => return index,
            Some(b'\'') if bytes.get(index + 1) == Some(&b'\'') => index += 2,
            Some(b'\'') => return index + 1,
            Some(_) => index += 1,
        }
    }
}
