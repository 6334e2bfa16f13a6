//! The text of each page, as a viewer extracts it for copying or search (ISO 32000-1 §9.4),
//! for the caller to find the URLs a viewer turns into links (pdf.js and Acrobat link
//! `http://…` and `www.…` in page text).
//!
//! lopdf parses the content streams (`Content::decode_iter`, one operation at a time) and
//! decodes the strings with each font's encoding (`get_font_encoding_with_limit`: the
//! font's `/Encoding` and `/Differences`, or its ToUnicode CMap). The room does not call
//! lopdf's `extract_text_with_limit`, which holds every operation of a page at once (a few
//! hundred bytes of memory per byte of content), walks the whole page tree again for each
//! page, numbers pages its own way, and skips form XObjects; the interpretation of the
//! operators is the room's:
//!
//! - `Tf` selects a font of the current resources (the page's own or inherited `/Resources`,
//!   §7.7.3.4); `Tj`, `'`, `"` and `TJ` show strings (§9.4.3);
//! - `'`, `"`, `T*`, `Tm`, `ET`, and `Td`/`TD` with a vertical move, start a new line
//!   (lopdf breaks lines at `T*` and `ET` only, which runs lines written with `Td` together);
//! - in a `TJ` array, an adjustment below −100 thousandths of an em is a word space;
//! - `Do` of a form XObject (§8.10) interprets the form's content with its resources, up
//!   to [`MAX_FORM_DEPTH`] forms deep and never a form inside itself, and restores the font
//!   after it. Files that impose or merge pages (pdfjam, printers' n-up) put a whole page's
//!   text in a form.
//!
//! Bounds: a page's content, with the forms it draws, is read up to a 64th of
//! [`Limits::max_decompressed_bytes`](super::Limits::max_decompressed_bytes), since lopdf
//! builds about 60 bytes of objects per byte of one operation; strings are decoded 1 KiB at
//! a time, since a ToUnicode entry may map one code to 256 characters; and the text kept
//! stops at [`Limits::max_text_bytes`](super::Limits::max_text_bytes).
//!
//! Every ToUnicode CMap (§9.10.3) of the document is checked before lopdf parses it
//! ([`cmap_is_safe`]): lopdf makes an entry for every code of every `bfrange`, so that one
//! range of 4-byte codes (`<00000000> <FFFFFFFF>`) is 2³² entries, and it compares every code
//! of the text with every `codespacerange`. A CMap that could cost too much is replaced by
//! null in the document, and its font's text is decoded without it.

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;

use lopdf::content::Content;
use lopdf::{DecompressError, Dictionary, Document, Encoding, Error, Object, ObjectId};

use super::prepare::restore_markers;
use super::walk::resolve;
use super::{Budget, Limits, PageText, Problem, ProblemKind, panic_message};

/// What part of [`Limits::max_decompressed_bytes`] one page's content may take (see the
/// [module docs](self)).
const PAGE_CONTENT_SHARE: usize = 64;

/// How many form XObjects may nest (ISO 32000-1 §8.10): real files nest a few.
const MAX_FORM_DEPTH: usize = 16;

/// How many `/Parent` steps are followed to find a page's inherited resources (the depth
/// bound of the page tree walk).
const MAX_INHERITANCE: usize = 256;

/// How many bytes of a string are decoded at once.
const DECODE_CHUNK: usize = 1024;

/// Most codes that the ranges of a ToUnicode CMap may span, counting 3- and 4-byte codes
/// only (1- and 2-byte codes cannot exceed 65 536 however they are written). A real CMap's
/// ranges stay within one last byte (Adobe Technical Note #5411: a range "shall not cross"
/// it).
const MAX_WIDE_RANGE_CODES: u64 = 65_536;

/// Most hexadecimal strings a ToUnicode CMap's `codespacerange` sections may hold. Real
/// ones hold a handful; the specification allows 100 ranges per section.
const MAX_CODESPACE_STRINGS: usize = 512;

/// The hexadecimal strings of a CMap (`<` 2 to 8 hex digits `>`, as lopdf reads codes):
/// their offsets and their digits.
fn hex_strings(cmap: &[u8]) -> Vec<(usize, &[u8])> {
    memchr::memchr_iter(b'<', cmap)
        .filter_map(|open| {
            let rest = cmap.get(open + 1..)?;
            let digits = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
            let closed = rest.get(digits) == Some(&b'>');
            (closed && (2..=8).contains(&digits) && digits % 2 == 0)
                .then(|| rest.get(..digits).map(|d| (open, d)))
                .flatten()
        })
        .collect()
}

/// The value of hexadecimal digits (at most 8).
fn hex_value(digits: &[u8]) -> Option<u64> {
    u64::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
}

/// Whether lopdf can parse the ToUnicode CMap `cmap` (its decoded content) in bounded time
/// and memory.
///
/// Both checks count more than lopdf can, never less. Every `bfrange` of lopdf's grammar is
/// two hexadecimal strings in a row with only spaces between, so the codes it spans are at
/// most the sum, over all consecutive pairs of strings of the same width, of the second
/// minus the first. Every `codespacerange` entry of lopdf's grammar lies between the
/// keyword `begincodespacerange` and the first `endcodespacerange` after it that no `%`
/// before it on its line may have made a comment.
pub(crate) fn cmap_is_safe(cmap: &[u8]) -> bool {
    let strings = hex_strings(cmap);
    let mut wide_codes = 0u64;
    for pair in strings.windows(2) {
        let [(_, low), (_, high)] = pair else {
            continue;
        };
        if low.len() != high.len() || low.len() < 6 {
            continue;
        }
        if let (Some(low), Some(high)) = (hex_value(low), hex_value(high))
            && high >= low
        {
            wide_codes = wide_codes.saturating_add(high - low + 1);
        }
    }
    if wide_codes > MAX_WIDE_RANGE_CODES {
        return false;
    }
    // Positions in increasing order, searched by bisection so that the check stays linear
    // in the CMap's length whatever it repeats.
    let line_ends: Vec<usize> = memchr::memchr2_iter(b'\n', b'\r', cmap).collect();
    let percents: Vec<usize> = memchr::memchr_iter(b'%', cmap).collect();
    let last_before = |positions: &[usize], at: usize| {
        positions
            .partition_point(|&p| p < at)
            .checked_sub(1)
            .and_then(|index| positions.get(index).copied())
    };
    let ends: Vec<usize> = memchr::memmem::find_iter(cmap, b"endcodespacerange")
        .filter(|&end| {
            let line_start = last_before(&line_ends, end).map_or(0, |eol| eol + 1);
            last_before(&percents, end).is_none_or(|percent| percent < line_start)
        })
        .collect();
    let offsets: Vec<usize> = strings.iter().map(|&(at, _)| at).collect();
    let mut codespace_strings = 0usize;
    for begin in memchr::memmem::find_iter(cmap, b"begincodespacerange") {
        let end = ends
            .get(ends.partition_point(|&end| end <= begin))
            .copied()
            .unwrap_or(cmap.len());
        let inside = offsets
            .partition_point(|&at| at < end)
            .saturating_sub(offsets.partition_point(|&at| at <= begin));
        codespace_strings = codespace_strings.saturating_add(inside);
    }
    codespace_strings <= MAX_CODESPACE_STRINGS
}

/// The ToUnicode CMaps named anywhere in the document: every indirect `/ToUnicode` of
/// every dictionary, nested ones included (fonts of pages, of form XObjects, of
/// annotations' appearances), each once, in object order.
fn named_cmaps(document: &Document) -> Vec<ObjectId> {
    let mut cmaps = Vec::new();
    let mut listed = HashSet::new();
    for object in document.objects.values() {
        let mut stack = vec![object];
        while let Some(object) = stack.pop() {
            let dictionary = match object {
                Object::Dictionary(dictionary) => dictionary,
                Object::Stream(stream) => &stream.dict,
                Object::Array(items) => {
                    stack.extend(items.iter());
                    continue;
                }
                _ => continue,
            };
            if let Ok(Object::Reference(cmap)) = dictionary.get(b"ToUnicode")
                && listed.insert(*cmap)
            {
                cmaps.push(*cmap);
            }
            stack.extend(dictionary.iter().map(|(_, value)| value));
        }
    }
    cmaps
}

/// Checks every ToUnicode CMap of the document ([`cmap_is_safe`]), and replaces by null
/// those that are not safe or do not decompress within the limit (which the budget running
/// out makes them). Each CMap counts twice against `budget`: lopdf decompresses it again.
fn guard_cmaps(
    document: &mut Document,
    limit: usize,
    budget: &mut Budget,
    problems: &mut Vec<Problem>,
) {
    let mut unsafe_cmaps = Vec::new();
    for cmap in named_cmaps(document) {
        let Some(Object::Stream(stream)) = document.objects.get(&cmap) else {
            continue;
        };
        let problem = |message: &str| Problem {
            object: Some(cmap.0),
            ..Problem::new(ProblemKind::Limit, message)
        };
        match stream.get_plain_content_with_limit(limit.min(budget.remaining())) {
            Ok(content) => {
                budget.spend(content.len().saturating_mul(2));
                if !cmap_is_safe(&content) {
                    problems.push(problem("ToUnicode CMap with too many codes; ignored"));
                    unsafe_cmaps.push(cmap);
                }
            }
            Err(Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                problems.push(problem(
                    "ToUnicode CMap decompresses past the limit; ignored",
                ));
                unsafe_cmaps.push(cmap);
            }
            // lopdf fails the same way, and uses the font's other encoding.
            Err(_) => {}
        }
    }
    for cmap in unsafe_cmaps {
        document.objects.insert(cmap, Object::Null);
    }
}

/// The resource dictionary of the page `page` (ISO 32000-1 §7.7.3.3, Table 30): its own
/// `/Resources`, or the nearest ancestor's (§7.7.3.4: the entry is inherited), up a
/// `/Parent` chain of at most [`MAX_INHERITANCE`] steps without repeats.
fn page_resources(document: &Document, page: ObjectId) -> Option<&Dictionary> {
    let mut node = document.objects.get(&page)?.as_dict().ok()?;
    let mut seen = HashSet::new();
    for _ in 0..MAX_INHERITANCE {
        if !seen.insert(ptr::from_ref(node)) {
            return None;
        }
        if let Some((Object::Dictionary(resources), _)) = node
            .get(b"Resources")
            .ok()
            .and_then(|resources| resolve(document, resources, None))
        {
            return Some(resources);
        }
        let (parent, _) = resolve(document, node.get(b"Parent").ok()?, None)?;
        node = parent.as_dict().ok()?;
    }
    None
}

/// The resource named `name` in the category `category` (`Font`, `XObject`) of
/// `resources` (ISO 32000-1 §7.8.3, Table 33), with references followed.
fn resource<'a>(
    document: &'a Document,
    resources: Option<&'a Dictionary>,
    category: &[u8],
    name: &[u8],
) -> Option<(&'a Object, Option<ObjectId>)> {
    let (entries, _) = resolve(document, resources?.get(category).ok()?, None)?;
    resolve(document, entries.as_dict().ok()?.get(name).ok()?, None)
}

/// The decoded content of the page `page`: its content streams (ISO 32000-1 §7.8.2, the
/// `/Contents` stream or array) one after the other, each followed by a line feed, at most
/// `limit` bytes in all. A stream that does not decode is left out, as a viewer renders
/// nothing of it.
fn page_content(document: &Document, page: ObjectId, limit: usize) -> Result<Vec<u8>, Problem> {
    let mut content = Vec::new();
    let Some(Object::Dictionary(dictionary)) = document.objects.get(&page) else {
        return Ok(content);
    };
    let Some((contents, _)) = dictionary
        .get(b"Contents")
        .ok()
        .and_then(|contents| resolve(document, contents, None))
    else {
        return Ok(content);
    };
    let streams: Vec<&Object> = match contents {
        Object::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for stream in streams {
        let Some((Object::Stream(stream), _)) = resolve(document, stream, None) else {
            continue;
        };
        match stream.decompressed_content_with_limit(limit.saturating_sub(content.len())) {
            Ok(decoded) => {
                content.extend_from_slice(&decoded);
                content.push(b'\n');
            }
            Err(Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                return Err(Problem::new(
                    ProblemKind::Limit,
                    "page content decompresses past the limit; its text was not read",
                ));
            }
            Err(_) => {}
        }
    }
    Ok(content)
}

/// The state of the interpretation of one page's content, form XObjects included.
struct Interpreter<'a, 'c> {
    /// The document read.
    document: &'a Document,
    /// The encodings of the fonts met so far.
    cache: &'c mut EncodingCache<'a>,
    /// The text so far.
    text: String,
    /// The most bytes `text` may hold.
    max_bytes: usize,
    /// The current font, by the address of its dictionary.
    font: Option<*const Dictionary>,
    /// The bytes of content the page may still decompress (form XObjects count).
    content_left: usize,
    /// The most one stream may decompress to (the page's share), for fonts' CMaps.
    content_limit: usize,
    /// The decompression budget of the whole reading.
    budget: &'c mut Budget,
    /// Whether strings need [`restore_markers`].
    restore: bool,
    /// The form XObjects being interpreted, outermost first: a form that draws itself is
    /// not entered again.
    forms: Vec<ObjectId>,
    /// Whether a form was left out because it decompresses past the page's share.
    past_limit: bool,
}

impl<'a> Interpreter<'a, '_> {
    /// Whether the text reached its bound.
    fn is_full(&self) -> bool {
        self.text.len() >= self.max_bytes
    }

    /// Starts a new line, unless the text is empty or already at the start of one.
    fn new_line(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    /// Selects the font named `name` in `resources`, and reads its encoding once.
    fn select_font(&mut self, resources: Option<&'a Dictionary>, name: Option<&Object>) {
        let document = self.document;
        let font = name
            .and_then(|name| name.as_name().ok())
            .and_then(|name| resource(document, resources, b"Font", name))
            .and_then(|(font, _)| font.as_dict().ok());
        self.font = font.map(ptr::from_ref);
        if let Some(font) = font {
            let limit = self.content_limit;
            self.cache.entry(ptr::from_ref(font)).or_insert_with(|| {
                // A ToUnicode stream written directly in the font could not be checked;
                // lopdf does not read one so, but the font is left undecoded if it ever does.
                if matches!(font.get(b"ToUnicode"), Ok(Object::Stream(_))) {
                    None
                } else {
                    font.get_font_encoding_with_limit(document, limit).ok()
                }
            });
        }
    }

    /// Adds the characters of the string operand `operand` in the current font, 1 KiB of
    /// bytes at a time.
    fn show(&mut self, operand: Option<&Object>) {
        let Some(Object::String(bytes, _)) = operand else {
            return;
        };
        let Some(Some(encoding)) = self.font.and_then(|font| self.cache.get(&font)) else {
            return;
        };
        let bytes = if self.restore {
            restore_markers(bytes)
        } else {
            std::borrow::Cow::Borrowed(bytes.as_slice())
        };
        for chunk in bytes.chunks(DECODE_CHUNK) {
            // An encoding that lopdf cannot apply shows nothing, as in lopdf.
            if encoding.write_to_string(chunk, &mut self.text).is_err()
                || self.text.len() >= self.max_bytes
            {
                return;
            }
        }
    }

    /// Interprets the form XObject named `name` in `resources` (ISO 32000-1 §8.10), if it
    /// is one, not already being interpreted, and less than [`MAX_FORM_DEPTH`] deep. The
    /// text state is restored after it, as `Do` saves the graphics state (§8.10.1).
    fn draw(&mut self, resources: Option<&'a Dictionary>, name: Option<&Object>) {
        let document = self.document;
        let Some((Object::Stream(form), Some(id))) = name
            .and_then(|name| name.as_name().ok())
            .and_then(|name| resource(document, resources, b"XObject", name))
        else {
            return;
        };
        let is_form = form.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Form");
        if !is_form || self.forms.len() >= MAX_FORM_DEPTH || self.forms.contains(&id) {
            return;
        }
        let limit = self.content_left.min(self.budget.remaining());
        let content = match form.decompressed_content_with_limit(limit) {
            Ok(content) => content,
            Err(Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                self.content_left = 0;
                self.past_limit = true;
                return;
            }
            // A viewer draws nothing of a stream it cannot decode.
            Err(_) => return,
        };
        self.content_left = self.content_left.saturating_sub(content.len());
        self.budget.spend(content.len());
        // A form without resources uses the page's (ISO 32000-1 §7.8.3, for PDF 1.1 files).
        let form_resources = form
            .dict
            .get(b"Resources")
            .ok()
            .and_then(|r| resolve(document, r, None))
            .and_then(|(r, _)| r.as_dict().ok())
            .or(resources);
        let font = self.font;
        self.forms.push(id);
        self.run(&content, form_resources);
        self.forms.pop();
        self.font = font;
    }

    /// Interprets `content` with `resources` (see the [module docs](self)).
    fn run(&mut self, content: &[u8], resources: Option<&'a Dictionary>) {
        for operation in Content::decode_iter(content) {
            // A viewer renders what comes before an error; lopdf stops there too.
            let Ok(operation) = operation else { break };
            let operands = &operation.operands;
            match operation.operator.as_str() {
                "Tf" => self.select_font(resources, operands.first()),
                "Tj" => self.show(operands.first()),
                "'" => {
                    self.new_line();
                    self.show(operands.first());
                }
                "\"" => {
                    self.new_line();
                    self.show(operands.get(2));
                }
                "TJ" => {
                    let Some(Object::Array(items)) = operands.first() else {
                        continue;
                    };
                    for item in items {
                        if matches!(item, Object::String(..)) {
                            self.show(Some(item));
                        } else if is_below(item, -100.0) && !self.text.ends_with([' ', '\n']) {
                            self.text.push(' ');
                        }
                    }
                }
                "T*" | "Tm" | "ET" => self.new_line(),
                "Td" | "TD" if !is_zero(operands.get(1)) => self.new_line(),
                "Do" => self.draw(resources, operands.first()),
                _ => {}
            }
            if self.is_full() {
                break;
            }
        }
    }

    /// The text, cut to at most `max_bytes` at a character boundary.
    fn finish(mut self) -> String {
        if self.text.len() > self.max_bytes {
            let mut end = self.max_bytes;
            while !self.text.is_char_boundary(end) {
                end -= 1;
            }
            self.text.truncate(end);
        }
        self.text
    }
}

/// Whether a number operand is below `bound`.
fn is_below(object: &Object, bound: f32) -> bool {
    match object {
        #[allow(clippy::cast_precision_loss)]
        Object::Integer(value) => (*value as f32) < bound,
        Object::Real(value) => *value < bound,
        _ => false,
    }
}

/// Whether a number operand is zero (or not a number).
fn is_zero(object: Option<&Object>) -> bool {
    match object {
        Some(Object::Integer(value)) => *value == 0,
        Some(Object::Real(value)) => *value == 0.0,
        _ => true,
    }
}

/// The encodings of fonts met so far, by the address of the font dictionary (`None` for a
/// font lopdf gives no encoding for).
type EncodingCache<'a> = HashMap<*const Dictionary, Option<Encoding<'a>>>;

/// What one page's text may take.
struct PageBounds {
    /// Bytes of content the page may decompress, form XObjects included.
    content: usize,
    /// Bytes of text it may keep.
    text: usize,
    /// Whether strings need [`restore_markers`].
    restore: bool,
}

/// The text of one page within `bounds`, and the problem that cut it short if any; its
/// content counts against `budget`.
fn page_text<'a>(
    document: &'a Document,
    page: ObjectId,
    cache: &mut EncodingCache<'a>,
    budget: &mut Budget,
    bounds: &PageBounds,
) -> Result<(String, Option<Problem>), Problem> {
    let content = page_content(document, page, bounds.content.min(budget.remaining()))?;
    budget.spend(content.len());
    let mut interpreter = Interpreter {
        document,
        cache,
        text: String::new(),
        max_bytes: bounds.text,
        font: None,
        content_left: bounds.content.saturating_sub(content.len()),
        content_limit: bounds.content,
        budget,
        restore: bounds.restore,
        forms: Vec::new(),
        past_limit: false,
    };
    interpreter.run(&content, page_resources(document, page));
    let problem = interpreter.past_limit.then(|| {
        Problem::new(
            ProblemKind::Limit,
            "a form XObject decompresses past the limit; its text was not read",
        )
    });
    Ok((interpreter.finish(), problem))
}

/// The text of each of `pages` (number, identifier), within `limits` and `budget`: the
/// pages with text, and the problems met. `restore` says whether strings need
/// [`restore_markers`].
pub(crate) fn extract(
    document: &mut Document,
    pages: &[(u32, ObjectId)],
    limits: &Limits,
    budget: &mut Budget,
    restore: bool,
) -> (Vec<PageText>, Vec<Problem>) {
    let mut problems = Vec::new();
    let mut texts = Vec::new();
    let content = (limits.max_decompressed_bytes / PAGE_CONTENT_SHARE).max(1);
    guard_cmaps(document, content, budget, &mut problems);
    let document: &Document = document;
    let mut cache = EncodingCache::new();
    let mut kept = 0usize;
    for &(number, page) in pages {
        let room = limits.max_text_bytes.saturating_sub(kept);
        if room == 0 || budget.remaining() == 0 {
            let message = if room == 0 {
                "page text past the limit; the rest was not read"
            } else {
                "decompression limit reached; the text of the remaining pages was not read"
            };
            problems.push(Problem {
                page: Some(number),
                ..Problem::new(ProblemKind::Limit, message)
            });
            break;
        }
        let bounds = PageBounds {
            content,
            text: room,
            restore,
        };
        let result = catch_unwind(AssertUnwindSafe(|| {
            page_text(document, page, &mut cache, budget, &bounds)
        }));
        match result {
            Ok(Ok((text, problem))) => {
                kept += text.len();
                if !text.is_empty() {
                    texts.push(PageText { page: number, text });
                }
                if let Some(problem) = problem {
                    problems.push(Problem {
                        page: Some(number),
                        ..problem
                    });
                }
            }
            Ok(Err(problem)) => problems.push(Problem {
                page: Some(number),
                object: Some(page.0),
                ..problem
            }),
            Err(payload) => problems.push(Problem {
                page: Some(number),
                object: Some(page.0),
                ..Problem::new(
                    ProblemKind::Broken,
                    format!(
                        "lopdf panicked reading the page's text: {}",
                        panic_message(&*payload)
                    ),
                )
            }),
        }
    }
    (texts, problems)
}
