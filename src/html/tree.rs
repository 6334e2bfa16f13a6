//! The part of HTML tree construction the scan needs: which namespace a start tag's element is
//! in, which elements are open inside foreign content, and which elements hold raw text.
//!
//! A tokenizer alone does not know when text is raw: that is decided by tree construction, with
//! **scripting disabled**, as mail clients render. The sets below are named as the HTML
//! Standard names them; each cites the standard's anchor. Which namespace a start tag's
//! element is in follows the [tree construction dispatcher](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher):
//! a start tag goes to the rules of HTML content outside foreign content, inside an HTML
//! element, a [MathML text integration point](https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point)
//! (but for `mglyph` and `malignmark`) or an [HTML integration point](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point),
//! and for `<svg>` inside MathML `annotation-xml`; else to the rules for
//! [parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign),
//! which keep the current node's namespace unless the tag breaks out.

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
    /// True for an [HTML integration point](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point),
    /// decided when its start tag ended (see [`is_html_integration_point`]).
    is_html_integration_point: bool,
}

impl OpenElement {
    fn is_foreign(&self) -> bool {
        self.namespace != Namespace::Html
    }

    /// True for a [MathML text integration point](https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point):
    /// a MathML `mi`, `mo`, `mn`, `ms` or `mtext` element.
    fn is_mathml_text_integration_point(&self) -> bool {
        self.namespace == Namespace::MathMl
            && matches!(&*self.name, b"mi" | b"mo" | b"mn" | b"ms" | b"mtext")
    }

    /// True for a MathML `annotation-xml` element, where an `<svg>` start tag makes an SVG
    /// element even when the element is no HTML integration point (the [tree construction
    /// dispatcher](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher)).
    fn is_mathml_annotation_xml(&self) -> bool {
        self.namespace == Namespace::MathMl && &*self.name == b"annotation-xml"
    }

    /// True when the element is an HTML element or an integration point of either kind: where
    /// the rules for [parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)
    /// stop popping elements before they reprocess a breakout token ("while the current node
    /// is not a MathML text integration point, an HTML integration point, or an element in
    /// the HTML namespace, pop elements from the stack of open elements").
    fn ends_breakout(&self) -> bool {
        !self.is_foreign()
            || self.is_mathml_text_integration_point()
            || self.is_html_integration_point
    }
}

/// True when an element named `tag` (lowercase) in `namespace` is an [HTML integration point](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point):
/// a MathML `annotation-xml` element whose start tag had an `encoding` attribute whose value
/// is `text/html` or `application/xhtml+xml`, ASCII case-insensitive (`has_html_encoding`),
/// or an SVG `foreignObject`, `desc` or `title` element.
fn is_html_integration_point(tag: &[u8], namespace: Namespace, has_html_encoding: bool) -> bool {
    match namespace {
        Namespace::MathMl => tag == b"annotation-xml" && has_html_encoding,
        Namespace::Svg => matches!(tag, b"foreignobject" | b"desc" | b"title"),
        Namespace::Html => false,
    }
}

/// True for the value of an `annotation-xml` `encoding` attribute that makes the element an
/// [HTML integration point](https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point):
/// `text/html` or `application/xhtml+xml`, ASCII case-insensitive, nothing trimmed.
pub(super) fn is_html_encoding(value: &str) -> bool {
    value.eq_ignore_ascii_case("text/html") || value.eq_ignore_ascii_case("application/xhtml+xml")
}

/// The attribute of `annotation-xml` that can make it an HTML integration point.
pub(super) const ENCODING: &str = "encoding";

/// True for the attributes that make a `<font>` start tag in foreign content a breakout tag
/// (`color`, `face`, `size`; names lowercase).
pub(super) fn is_font_breakout_attribute(name: &[u8]) -> bool {
    matches!(name, b"color" | b"face" | b"size")
}

/// What tree construction reads of a start tag besides its name.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct StartTagAttributes {
    /// The tag has a `color`, `face` or `size` attribute, which makes `<font>` a breakout tag
    /// in foreign content.
    pub(super) has_font_breakout_attribute: bool,
    /// The tag has an `encoding` attribute whose value [`is_html_encoding`].
    pub(super) has_html_encoding: bool,
}

/// Start tags that leave foreign content (the list in the rules for
/// [parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign):
/// "a start tag whose tag name is one of …"; `font` is one only "if the token has any
/// attributes named "color", "face", or "size"", see [`breaks_out`]).
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

/// True when a start tag named `tag` breaks out of foreign content (the rules for
/// [parsing tokens in foreign content](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inforeign)):
/// one of [`BREAKOUT_TAGS`], or `font` with a `color`, `face` or `size` attribute.
fn breaks_out(tag: &[u8], attributes: StartTagAttributes) -> bool {
    is_in(BREAKOUT_TAGS, tag) || (tag == b"font" && attributes.has_font_breakout_attribute)
}

/// The namespace of the element a start tag makes by the rules of the "in body" insertion
/// mode in HTML content: `svg` and `math` make SVG and MathML elements, every other tag an
/// HTML element.
fn html_content_namespace(tag: &[u8]) -> Namespace {
    match tag {
        b"svg" => Namespace::Svg,
        b"math" => Namespace::MathMl,
        _ => Namespace::Html,
    }
}

/// What tree construction keeps that the scan needs: the elements open inside foreign content
/// and the open `<template>` elements. This is the part of tree construction the scan needs,
/// not all of it: misnested end tags that the adoption agency algorithm would reorder are
/// taken as written, and HTML elements outside foreign content are not kept, so an end tag
/// that would close such an element around open foreign content leaves that content open.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// Open `<template>` elements.
    template_depth: usize,
    /// Elements open inside foreign content, innermost last (the outermost `<svg>` or `<math>`
    /// first); empty in HTML content.
    foreign: Vec<OpenElement>,
}

impl Tree {
    /// The element a start token goes to by the [tree construction dispatcher](https://html.spec.whatwg.org/multipage/parsing.html#tree-construction-dispatcher),
    /// when the rules for parsing tokens in foreign content apply to a start tag named `tag`:
    /// the current node is foreign and neither a MathML text integration point (except for
    /// `mglyph` and `malignmark`), nor a MathML `annotation-xml` given `<svg>`, nor an HTML
    /// integration point. `None` when the rules of HTML content apply.
    fn foreign_content_node(&self, tag: &[u8]) -> Option<&OpenElement> {
        let node = self.foreign.last()?;
        let html_content = !node.is_foreign()
            || (node.is_mathml_text_integration_point()
                && !matches!(tag, b"mglyph" | b"malignmark"))
            || (node.is_mathml_annotation_xml() && tag == b"svg")
            || node.is_html_integration_point;
        (!html_content).then_some(node)
    }

    /// The namespace of the element a start tag named `tag` (lowercase) with `attributes`
    /// makes: in foreign content the current node's, unless the tag [`breaks_out`]; in HTML
    /// content, and after a breakout, [`html_content_namespace`].
    pub(super) fn start_tag_namespace(
        &self,
        tag: &[u8],
        attributes: StartTagAttributes,
    ) -> Namespace {
        match self.foreign_content_node(tag) {
            Some(node) if !breaks_out(tag, attributes) => node.namespace,
            _ => html_content_namespace(tag),
        }
    }

    /// The end of a start tag named `tag` with `attributes`; returns the namespace of its
    /// element ([`start_tag_namespace`](Self::start_tag_namespace)). A breakout tag in
    /// foreign content first pops the foreign elements down to an HTML element or an
    /// integration point; then an element that can hold others is pushed while inside
    /// foreign content, and an HTML `<template>` is counted.
    pub(super) fn open(
        &mut self,
        tag: &[u8],
        attributes: StartTagAttributes,
        self_closing: bool,
    ) -> Namespace {
        if self.foreign.is_empty() {
            // HTML content, as most of a page is: only `<svg>`, `<math>` and `<template>`
            // change what is kept.
            let namespace = html_content_namespace(tag);
            match namespace {
                Namespace::Html if tag == b"template" => self.template_depth += 1,
                Namespace::Html => {}
                Namespace::Svg | Namespace::MathMl if !self_closing => {
                    self.foreign.push(OpenElement {
                        name: tag.into(),
                        namespace,
                        is_html_integration_point: false,
                    });
                }
                Namespace::Svg | Namespace::MathMl => {}
            }
            return namespace;
        }
        let namespace = self.start_tag_namespace(tag, attributes);
        if self.foreign_content_node(tag).is_some() && breaks_out(tag, attributes) {
            self.pop_to_breakout_end();
        }
        let opens = match namespace {
            Namespace::Html => !self.foreign.is_empty() && !is_in(VOID_ELEMENTS, tag),
            Namespace::Svg | Namespace::MathMl => !self_closing,
        };
        if opens {
            self.foreign.push(OpenElement {
                name: tag.into(),
                namespace,
                is_html_integration_point: is_html_integration_point(
                    tag,
                    namespace,
                    attributes.has_html_encoding,
                ),
            });
        }
        if tag == b"template" && namespace == Namespace::Html {
            self.template_depth += 1;
        }
        namespace
    }

    /// Pops foreign elements until the current node [ends a breakout](OpenElement::ends_breakout).
    fn pop_to_breakout_end(&mut self) {
        while self.foreign.last().is_some_and(|e| !e.ends_breakout()) {
            self.foreign.pop();
        }
    }

    /// An end tag named `tag`. With a foreign current node, by the rules for parsing tokens
    /// in foreign content: `</p>` and `</br>` break out; any other end tag closes the
    /// innermost foreign element of its name above the innermost open HTML element, with
    /// everything opened after it, or else goes to the rules of HTML content. By those rules
    /// (see [`close_html`](Self::close_html)) an end tag closes an HTML element of its name
    /// above the innermost integration point.
    pub(super) fn close(&mut self, tag: &[u8]) {
        if self.foreign.is_empty() {
            // HTML content: only `</template>` changes what is kept.
            if tag == b"template" {
                self.template_depth = self.template_depth.saturating_sub(1);
            }
            return;
        }
        if !self.foreign.last().is_some_and(OpenElement::is_foreign) {
            self.close_html(tag);
            return;
        }
        if tag == b"p" || tag == b"br" {
            self.pop_to_breakout_end();
            if tag == b"p" {
                self.close_html(tag);
            }
            return;
        }
        for at in (0..self.foreign.len()).rev() {
            let Some(node) = self.foreign.get(at) else {
                break;
            };
            if *node.name == *tag {
                self.foreign.truncate(at);
                return;
            }
            let below = at.checked_sub(1).and_then(|below| self.foreign.get(below));
            match below {
                Some(below) if below.is_foreign() => {}
                Some(_) => {
                    self.close_html(tag);
                    return;
                }
                // Below the outermost foreign element: HTML content the tree does not keep.
                None => break,
            }
        }
        if tag == b"template" && self.template_depth > 0 {
            // "</template>" pops every element up to the template, wherever it is.
            self.template_depth -= 1;
            self.foreign.clear();
        }
    }

    /// An end tag named `tag` by the rules of HTML content, as far as they touch the kept
    /// elements: it closes the innermost HTML element of that name, with everything opened
    /// after it, when no integration point lies between (an integration point ends the
    /// scope an end tag looks in, and is a [special](https://html.spec.whatwg.org/multipage/parsing.html#special)
    /// element that "any other end tag" stops at), and is ignored otherwise. `</template>`
    /// closes the innermost template wherever it is (the "in head" rules); a template outside
    /// the kept elements takes them all with it.
    fn close_html(&mut self, tag: &[u8]) {
        let is_template = tag == b"template";
        for at in (0..self.foreign.len()).rev() {
            let Some(node) = self.foreign.get(at) else {
                break;
            };
            if !node.is_foreign() && *node.name == *tag {
                self.foreign.truncate(at);
                if is_template {
                    self.template_depth = self.template_depth.saturating_sub(1);
                }
                return;
            }
            if node.ends_breakout() && node.is_foreign() && !is_template {
                return;
            }
        }
        if is_template && self.template_depth > 0 {
            self.template_depth -= 1;
            self.foreign.clear();
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
