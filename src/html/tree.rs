//! The part of HTML tree construction the scan needs: which namespace a start tag's element is
//! in, which elements are open inside foreign content, and which elements hold raw text.
//!
//! A tokenizer alone does not know when text is raw: that is decided by tree construction, with
//! **scripting disabled**, as mail clients render. The sets below are named as the HTML
//! Standard names them; each cites the standard's anchor.

use html5gum::State;
use memchr::memmem;

/// The namespace of an element ([HTML Standard: namespaces](https://infra.spec.whatwg.org/#namespaces);
/// [foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Namespace {
    /// The HTML namespace.
    Html,
    /// The SVG namespace: `<svg>` and what it holds.
    Svg,
    /// The MathML namespace: `<math>` and what it holds.
    MathMl,
}

/// The element's name as the HTML Standard's tree construction gives it: an HTML `image`
/// start tag makes an `img` element ("in body", a start tag whose tag name is "image"), and
/// SVG names have their camel case back ("adjust SVG tag names" of
/// [foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign);
/// only those of SVG elements that hold URLs here).
pub(super) fn element_name(tag: &[u8], namespace: Namespace) -> &[u8] {
    match (namespace, tag) {
        (Namespace::Html, b"image") => b"img",
        (Namespace::Svg, b"feimage") => b"feImage",
        _ => tag,
    }
}

/// An element open inside foreign content.
#[derive(Debug)]
struct OpenElement {
    /// Local name, lowercase.
    name: Box<[u8]>,
    /// SVG or MathML, or HTML (inside an integration point).
    namespace: Namespace,
}

impl OpenElement {
    fn is_foreign(&self) -> bool {
        self.namespace != Namespace::Html
    }
}

/// Start tags that leave foreign content (the list in the rules for
/// [parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign):
/// "a start tag whose tag name is one of …"; `font` only with `color`, `face` or `size`, which
/// is left out here).
const BREAKOUT_TAGS: &[&str] = &[
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// The [void elements](https://html.spec.whatwg.org/multipage/syntax.html#void-elements) (and
/// the legacy ones the parser treats alike): they have no end tag and are never open.
const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "param", "keygen", "basefont", "bgsound", "frame",
];

fn is_in(list: &[&str], name: &[u8]) -> bool {
    list.iter().any(|item| item.as_bytes() == name)
}

/// The tokenizer state an HTML start tag switches to, scripting disabled (the
/// [generic raw text and RCDATA element parsing algorithms](https://html.spec.whatwg.org/multipage/parsing.html#generic-raw-text-element-parsing-algorithm)
/// as "in head" and "in body" apply them): `title` and `textarea` are RCDATA; `style`, `xmp`,
/// `iframe`, `noembed` and `noframes` RAWTEXT; `script` script data; `plaintext` PLAINTEXT.
/// `noscript` content is markup, since mail clients render with scripting off.
pub(super) fn text_state(tag: &[u8]) -> Option<State> {
    match tag {
        b"title" | b"textarea" => Some(State::RcData),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some(State::RawText),
        b"script" => Some(State::ScriptData),
        b"plaintext" => Some(State::PlainText),
        _ => None,
    }
}

/// The end of the raw text of an element named `tag` whose content starts at `start`: the
/// start of the first end tag `</tag` (ASCII case-insensitive) followed by white space, `/` or
/// `>` (an [appropriate end tag token](https://html.spec.whatwg.org/multipage/parsing.html#appropriate-end-tag-token)),
/// or the end of the text.
pub(super) fn raw_text_end(text: &str, start: usize, tag: &[u8]) -> usize {
    let bytes = text.as_bytes();
    let rest = bytes.get(start..).unwrap_or_default();
    for at in memmem::find_iter(rest, b"</") {
        let name_start = at + 2;
        let name = rest.get(name_start..name_start + tag.len());
        if name.is_some_and(|name| name.eq_ignore_ascii_case(tag))
            && matches!(
                rest.get(name_start + tag.len()),
                Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>')
            )
        {
            return start + at;
        }
    }
    bytes.len()
}

/// True for the [HTML integration points](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point)
/// and [MathML text integration points](https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point)
/// (names lowercase, as the tokenizer gives them). `annotation-xml` with an HTML `encoding` is
/// one too in the standard; the scan keeps no attribute of it to tell.
fn is_integration_point(name: &[u8]) -> bool {
    matches!(
        name,
        b"foreignobject" | b"desc" | b"title" | b"mi" | b"mo" | b"mn" | b"ms" | b"mtext"
    )
}

/// What tree construction keeps that the scan needs: the elements open inside foreign content
/// and the open `<template>` elements. This is the part of tree construction the scan needs,
/// not all of it: misnested end tags that the adoption agency algorithm would reorder are
/// taken as written.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// Open `<template>` elements.
    template_depth: usize,
    /// Elements open inside foreign content, innermost last; empty in HTML content.
    foreign: Vec<OpenElement>,
}

impl Tree {
    /// The namespace of the element a start tag named `tag` (lowercase) makes, from the open
    /// foreign elements; a breakout tag closes the foreign elements here.
    pub(super) fn start_tag_namespace(&mut self, tag: &[u8]) -> Namespace {
        let mut namespace = match tag {
            b"svg" => Namespace::Svg,
            b"math" => Namespace::MathMl,
            _ => Namespace::Html,
        };
        if let Some(current) = self.foreign.last()
            && current.is_foreign()
            && !is_integration_point(&current.name)
        {
            if is_in(BREAKOUT_TAGS, tag) {
                // Pop until the current node is HTML or an integration point.
                while self
                    .foreign
                    .last()
                    .is_some_and(|e| e.is_foreign() && !is_integration_point(&e.name))
                {
                    self.foreign.pop();
                }
            } else {
                namespace = current.namespace;
            }
        }
        namespace
    }

    /// The end of a start tag named `tag` in `namespace`: an element that can hold others is
    /// pushed while inside foreign content, and an HTML `<template>` is counted.
    pub(super) fn open(&mut self, tag: &[u8], namespace: Namespace, self_closing: bool) {
        let opens = match namespace {
            Namespace::Html => !self.foreign.is_empty() && !is_in(VOID_ELEMENTS, tag),
            Namespace::Svg | Namespace::MathMl => !self_closing,
        };
        if opens {
            self.foreign.push(OpenElement {
                name: tag.into(),
                namespace,
            });
        }
        if tag == b"template" && namespace == Namespace::Html {
            self.template_depth += 1;
        }
    }

    /// An end tag named `tag`: closes the innermost open element of that name inside foreign
    /// content, with everything opened after it.
    pub(super) fn close(&mut self, tag: &[u8]) {
        if tag == b"template" {
            self.template_depth = self.template_depth.saturating_sub(1);
        }
        if let Some(at) = self.foreign.iter().rposition(|e| *e.name == *tag) {
            self.foreign.truncate(at);
        } else if (tag == b"p" || tag == b"br")
            && self.foreign.last().is_some_and(OpenElement::is_foreign)
        {
            while self.foreign.last().is_some_and(OpenElement::is_foreign) {
                self.foreign.pop();
            }
        }
    }

    /// True inside a `<template>`, whose content is not the document's (a `<base>` there is
    /// not the [frozen base URL](https://html.spec.whatwg.org/multipage/semantics.html#frozen-base-url)'s).
    pub(super) fn in_template(&self) -> bool {
        self.template_depth > 0
    }

    /// True when the [adjusted current node](https://html.spec.whatwg.org/multipage/parsing.html#adjusted-current-node)
    /// is an element not in the HTML namespace: the tokenizer then reads CDATA sections.
    pub(super) fn in_foreign_content(&self) -> bool {
        self.foreign.last().is_some_and(OpenElement::is_foreign)
    }
}
