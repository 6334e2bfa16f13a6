//! What a reader sees of a link ([`LinkText`]): the rendered text of an `a` element, gathered
//! by the scan as the tokenizer reads the link (the text between the tokens inside it), with
//! white space collapsed and cut to
//! [`LinkText::MAX_CHARS`]; and whether a text that reads as a URL or a host name names
//! another host than the link reaches.
//!
//! The text is what the HTML Standard's [`innerText`] gives for the element in a browser that
//! applies only its default style sheet (the [rendering] section), once its line breaks and
//! tabs are read as white space too: text is collected where it is rendered, elements that are
//! not rendered (`display: none`, and content a browser never shows) hide theirs, and the start
//! and end of a block, `<br>` and table cells separate words. Which elements do which is the
//! two tables below. Why no HTML tree builder (html5ever) does this: the scan has no tree, for
//! speed, and the text of a link is a little of the document that the tokenizer already reads;
//! what tree construction would change about where a link ends is approximated in the
//! tokenizer's emitter (see there).
//!
//! [`innerText`]: https://html.spec.whatwg.org/multipage/dom.html#the-innertext-idl-attribute
//! [rendering]: https://html.spec.whatwg.org/multipage/rendering.html

use std::borrow::Cow;

use crate::report::LinkText;
use crate::vocab::element;

/// True for the HTML elements whose content a reader does not see: those the HTML Standard's
/// [hidden elements](https://html.spec.whatwg.org/multipage/rendering.html#hidden-elements)
/// style sheet gives `display: none` and that can hold text (`datalist`, `head`, `noembed`,
/// `noframes`, `rp`, `script`, `style`, `template`, `title`), and those whose content is
/// replaced by what the element shows (`iframe`, whose text is never rendered; `textarea`,
/// whose text is the control's value; `select`, a control; `audio` and `video`, whose
/// content is for browsers that cannot play them). Inline SVG (`svg`) is counted with them:
/// its text is drawn as graphics, not laid out as the link's text.
pub(super) fn hides_content(tag: &[u8]) -> bool {
    matches!(
        tag,
        b"script"
            | b"style"
            | b"template"
            | b"title"
            | b"noembed"
            | b"noframes"
            | b"iframe"
            | b"textarea"
            | b"select"
            | b"datalist"
            | b"head"
            | b"rp"
            | b"audio"
            | b"video"
            | b"svg"
    )
}

/// True for the HTML elements whose start and end separate the words before and after them:
/// those the HTML Standard's [rendering](https://html.spec.whatwg.org/multipage/rendering.html)
/// section lays out as blocks (`display: block`, `list-item`, `table`, `table-caption`: the
/// "required line breaks" of `innerText`), table rows and cells (the line feed and tab
/// `innerText` puts between them), and `br` (a line feed).
pub(super) fn separates(tag: &[u8]) -> bool {
    matches!(
        tag,
        b"address"
            | b"article"
            | b"aside"
            | b"blockquote"
            | b"br"
            | b"caption"
            | b"center"
            | b"dd"
            | b"details"
            | b"dialog"
            | b"dir"
            | b"div"
            | b"dl"
            | b"dt"
            | b"fieldset"
            | b"figcaption"
            | b"figure"
            | b"footer"
            | b"form"
            | b"h1"
            | b"h2"
            | b"h3"
            | b"h4"
            | b"h5"
            | b"h6"
            | b"header"
            | b"hgroup"
            | b"hr"
            | b"legend"
            | b"li"
            | b"listing"
            | b"main"
            | b"menu"
            | b"nav"
            | b"ol"
            | b"p"
            | b"plaintext"
            | b"pre"
            | b"search"
            | b"section"
            | b"summary"
            | b"table"
            | b"td"
            | b"th"
            | b"tr"
            | b"ul"
            | b"xmp"
    )
}

/// The HTML Standard's [ASCII whitespace](https://infra.spec.whatwg.org/#ascii-whitespace):
/// what the collapsed text makes one space of.
fn is_white_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{c}' | '\r')
}

/// Text as a reader sees it, built a piece at a time: every run of white space one space, none
/// at either end, at most [`LinkText::MAX_CHARS`] characters (the rest is dropped as it comes).
#[derive(Debug, Default)]
pub(crate) struct Collapsed {
    /// The text so far, without a trailing space.
    text: String,
    /// How many characters `text` holds.
    chars: usize,
    /// White space came after the last character: a space goes before the next one.
    space: bool,
}

impl Collapsed {
    /// True once the text holds [`LinkText::MAX_CHARS`] characters: what comes after is
    /// dropped.
    pub(crate) fn is_full(&self) -> bool {
        self.chars >= LinkText::MAX_CHARS
    }

    /// True when no character other than white space has come.
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Adds `text`.
    pub(crate) fn push_str(&mut self, text: &str) {
        // A word at a time: the white space between words is one space. White space is ASCII,
        // so every cut is on a character boundary.
        let mut start = 0;
        for (at, &byte) in text.as_bytes().iter().enumerate() {
            if matches!(byte, b' ' | b'\t' | b'\n' | b'\x0c' | b'\r') {
                if start < at {
                    self.push_word(text.get(start..at).unwrap_or_default());
                    if self.is_full() {
                        return;
                    }
                }
                self.separate();
                start = at + 1;
            }
        }
        self.push_word(text.get(start..).unwrap_or_default());
    }

    /// Adds `word`, which holds no white space, after a space when one is due.
    fn push_word(&mut self, word: &str) {
        if word.is_empty() || self.is_full() {
            return;
        }
        if self.space {
            if self.chars + 2 > LinkText::MAX_CHARS {
                // No room for the space and a character after it: the text ends here.
                self.chars = LinkText::MAX_CHARS;
                return;
            }
            self.text.push(' ');
            self.chars += 1;
            self.space = false;
        }
        let room = LinkText::MAX_CHARS - self.chars;
        let count = if word.is_ascii() {
            word.len()
        } else {
            word.chars().count()
        };
        if count <= room {
            self.text.push_str(word);
            self.chars += count;
        } else {
            let end = word
                .char_indices()
                .nth(room)
                .map_or(word.len(), |(at, _)| at);
            self.text.push_str(word.get(..end).unwrap_or_default());
            self.chars = LinkText::MAX_CHARS;
        }
    }

    /// Separates what came before from what comes next by white space (a `<br>`, a block's
    /// edge, a table cell's).
    pub(crate) fn separate(&mut self) {
        self.space = !self.text.is_empty();
    }

    /// The text.
    pub(crate) fn into_string(self) -> String {
        self.text
    }

    /// The text, copied into a string of its own size, and this emptied for the next text
    /// (its buffer kept).
    fn take(&mut self) -> String {
        let text = String::from(self.text.as_str());
        self.clear();
        text
    }

    /// Empties this for the next text, keeping its buffer.
    fn clear(&mut self) {
        self.text.clear();
        self.chars = 0;
        self.space = false;
    }
}

/// `text` with its white space collapsed and cut as a link's text is ([`Collapsed`]).
pub(crate) fn collapse(text: &str) -> String {
    let mut collapsed = Collapsed::default();
    collapsed.push_str(text);
    collapsed.into_string()
}

/// Whether `text`, the text of a link that resolves to `resolved` (`None`: unresolved), reads
/// as a URL or a host name ([`text_host`]) whose host is not the resolved URL's, both as the
/// URL Standard serializes a host; a resolved URL without a host (`mailto:`) differs from
/// every host. See [`LinkText::text_host_differs`].
// Out of line, with what it calls: the Public Suffix List's matcher is large, and kept apart
// from the analysis loop's code.
#[inline(never)]
pub(crate) fn text_host_differs(text: &str, resolved: Option<&str>) -> bool {
    let Some(resolved) = resolved else {
        return false;
    };
    let Some(named) = text_host(text) else {
        return false;
    };
    let reached = ada_url::Url::parse(resolved, None)
        .ok()
        .map(|url| url.hostname().to_owned());
    reached.as_deref() != Some(named.as_str())
}

/// The [void elements](https://html.spec.whatwg.org/multipage/syntax.html#void-elements) (and
/// the legacy ones the parser treats alike): never open, so never on [`OpenLink`]'s stack.
fn is_void(tag: &[u8]) -> bool {
    matches!(
        tag,
        b"area"
            | b"base"
            | b"br"
            | b"col"
            | b"embed"
            | b"hr"
            | b"img"
            | b"input"
            | b"link"
            | b"meta"
            | b"source"
            | b"track"
            | b"wbr"
            | b"param"
            | b"keygen"
            | b"basefont"
            | b"bgsound"
            | b"frame"
    )
}

/// Start tags that close the table cell (or row) a link stands in, unless the link holds a
/// table of its own (the HTML Standard's ["in cell"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intd)
/// and ["in row"](https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intr)
/// insertion modes: "close the cell", which also clears the list of active formatting
/// elements, so that no copy of the link goes on in the next cell).
fn closes_cell(tag: &[u8]) -> bool {
    matches!(
        tag,
        b"td" | b"th" | b"tr" | b"tbody" | b"thead" | b"tfoot" | b"caption" | b"col" | b"colgroup"
    )
}

/// How deep elements inside one link are followed; deeper ones are not kept (their end tags
/// then end the link), so that the work per tag stays bounded.
const MAX_OPEN: usize = 256;

/// The `a` element whose text the scan is gathering, from its start tag to where it ends;
/// between links it waits, closed, its buffers kept for the next one (a page has many links,
/// and each would otherwise grow its own).
///
/// Where a link ends is where tree construction takes the element off the stack of open
/// elements, approximated without the stack of the elements around it: at `</a>`, at the next
/// `<a>` (the adoption agency closes the first), at the end of the document, at the end tag of
/// an element not opened inside the link (which, in a document that opened it, closes the
/// element and the link inside it: `</td>`, `</p>`, `</font>` of an element around the link),
/// and at a start tag that closes the table cell the link is in (`<td>`, `<tr>`, … with no
/// table opened inside the link). Text that the adoption agency algorithm wraps in a copy of
/// the link after such an end (`<b><a href=x>one</b>two`) is the copy's, not the link's: the
/// link's text is `one`, as a browser's DOM has it.
#[derive(Debug, Default)]
pub(super) struct OpenLink {
    /// Index in the scan's URLs of the element's `href` URL; `None` while no link is open.
    url: Option<usize>,
    /// Where in the document the link's text goes on: the end of the last token read inside
    /// it (a byte offset).
    text_from: usize,
    /// The element's `title`, collapsed.
    title: Option<String>,
    /// The rendered text so far.
    text: Collapsed,
    /// The `alt` texts of the `img` elements inside, for a link without text.
    alts: Collapsed,
    /// The elements open inside the link, innermost last (names from the vocabulary's table,
    /// so that the common ones take no allocation), each with whether it hides its content (at
    /// most [`MAX_OPEN`]).
    open: Vec<(Cow<'static, str>, bool)>,
    /// How many of `open` hide their content: text and images count only when none does.
    hidden: usize,
}

impl OpenLink {
    /// True from a link's start tag to its end.
    pub(super) fn is_open(&self) -> bool {
        self.url.is_some()
    }

    /// Opens the link whose `href` URL is `url` (closing none: see [`close`](Self::close)),
    /// with the element's `title` attribute, collapsed.
    pub(super) fn open(&mut self, url: usize, title: Option<String>) {
        self.url = Some(url);
        self.title = title;
        self.open.clear();
        self.hidden = 0;
    }

    /// Where the link's text goes on (a byte offset in the document).
    pub(super) fn text_from(&self) -> usize {
        self.text_from
    }

    /// The link's text goes on at byte `position` of the document: the end of a token read
    /// inside it.
    pub(super) fn text_resumes_at(&mut self, position: usize) {
        self.text_from = position;
    }

    /// Text of the document inside the link: what lies between two tokens (tags, comments,
    /// doctypes), as written. The tokenizer reads it too, but the emitter takes it here from
    /// the document, between the tokens it is told of, so that text outside links costs
    /// nothing. Its character references are decoded as the HTML Standard's
    /// [character reference state](https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state)
    /// decodes them in text (`htmlize`'s `unescape`, which follows it: `&amp`, `&notit;` and
    /// `&#x80;` as a browser reads them); a reference cannot span two runs, since none holds a
    /// `<`. Line breaks need no normalizing: they are white space. A NUL is dropped, as tree
    /// construction drops it ("in body": "ignore the token").
    pub(super) fn text(&mut self, text: &str) {
        if self.hidden > 0 || self.text.is_full() || text.is_empty() {
            return;
        }
        let without_nul;
        let text = if text.contains('\0') {
            without_nul = text.replace('\0', "");
            without_nul.as_str()
        } else {
            text
        };
        if memchr::memchr(b'&', text.as_bytes()).is_some() {
            self.text.push_str(&htmlize::unescape(text));
        } else {
            self.text.push_str(text);
        }
    }

    /// A start tag inside the link: the element's local name (`img` for `<image>`), whether
    /// it is in the HTML namespace, has the self-closing flag or a `hidden` attribute, and the
    /// `alt` of an `img`. Returns true when the tag ends the link (it is not then taken in).
    pub(super) fn start_tag(
        &mut self,
        tag: &[u8],
        is_html: bool,
        self_closing: bool,
        hidden: bool,
        alt: Option<&str>,
    ) -> bool {
        if !is_html {
            if !self_closing {
                self.push(tag, hidden || hides_content(tag));
            }
            return false;
        }
        if tag == b"a" {
            return true;
        }
        if closes_cell(tag) && !self.open.iter().any(|(name, _)| name == "table") {
            return true;
        }
        if separates(tag) {
            self.text.separate();
        }
        if tag == b"img"
            && self.hidden == 0
            && !hidden
            && let Some(alt) = alt
        {
            self.alts.separate();
            self.alts.push_str(alt);
        }
        if !is_void(tag) {
            self.push(tag, hidden || hides_content(tag));
        }
        false
    }

    /// Keeps an element opened inside the link.
    fn push(&mut self, tag: &[u8], hides: bool) {
        if self.open.len() < MAX_OPEN {
            self.open.push((element(tag), hides));
            self.hidden += usize::from(hides);
        }
    }

    /// An end tag inside the link. Returns true when it ends the link: `</a>` (unless an SVG
    /// `a` inside is open), or the end of an element that was not opened inside it.
    pub(super) fn end_tag(&mut self, tag: &[u8]) -> bool {
        if tag == b"br" {
            // Tree construction reads `</br>` as `<br>`.
            self.text.separate();
            return false;
        }
        let Some(at) = self
            .open
            .iter()
            .rposition(|(name, _)| name.as_bytes() == tag)
        else {
            return !is_void(tag);
        };
        for (name, hides) in self.open.drain(at..) {
            self.hidden = self.hidden.saturating_sub(usize::from(hides));
            if separates(name.as_bytes()) {
                self.text.separate();
            }
        }
        false
    }

    /// Closes the link, if one is open: its URL's index, and what a reader sees of it (its
    /// text, else the `alt` of its images).
    pub(super) fn close(&mut self) -> Option<(usize, LinkText)> {
        let url = self.url.take()?;
        let text = if self.text.is_empty() {
            self.alts.take()
        } else {
            self.text.take()
        };
        self.text.clear();
        self.alts.clear();
        let link = LinkText {
            text,
            title: self.title.take(),
            text_host_differs: false,
        };
        Some((url, link))
    }
}

/// The characters that may enclose a URL in text, in pairs.
const ENCLOSING: [(char, char); 8] = [
    ('<', '>'),
    ('(', ')'),
    ('[', ']'),
    ('"', '"'),
    ('\'', '\''),
    ('\u{201c}', '\u{201d}'),
    ('\u{2018}', '\u{2019}'),
    ('\u{ab}', '\u{bb}'),
];

/// The host that `text` names, as the URL Standard serializes it, when the text reads as a
/// URL or a host name; `None` otherwise.
///
/// First the white space at its ends, then enclosing `<…>`, `(…)`, `[…]`, quotes and `«…»`
/// (each pair once, as long as one encloses it), then a trailing `.`, `,`, `;`, `:`, `!` or
/// `?` (any number) are taken off. Then the text reads:
///
/// - as a **URL** when it starts with a scheme and `://` (`https://bank.example.com/x`): the
///   host the URL Standard's parser finds in it, when it finds one;
/// - as a **host name** when it holds no white space and no `@` (an e-mail address is not a
///   host name), its host is written with at least one `.`, and `http://` + the text parses
///   with a host that is a domain whose suffix is on the
///   [Public Suffix List](https://publicsuffix.org/) with a label before it (so
///   `invoice.pdf` and `Mr.Smith` do not read as hosts, `bank.example.com/login` and
///   `paypal.com.evil.zip` do), or an IPv4 address written as four decimal numbers.
#[inline(never)]
pub(crate) fn text_host(text: &str) -> Option<String> {
    // A URL has a `:`, a host name a `.`: most link texts have neither.
    memchr::memchr2(b'.', b':', text.as_bytes())?;
    let mut text = text.trim_matches(is_white_space);
    // Each round takes two characters off, or stops.
    while let Some(inner) = ENCLOSING.iter().find_map(|&(open, close)| {
        text.strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
    }) {
        text = inner.trim_matches(is_white_space);
    }
    let text = text.trim_end_matches(['.', ',', ';', ':', '!', '?']);
    if text.is_empty() || text.contains(is_white_space) {
        return None;
    }
    if let Some((scheme, _)) = text.split_once("://") {
        let is_scheme = scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !is_scheme {
            return None;
        }
        let url = ada_url::Url::parse(text, None).ok()?;
        let host = url.hostname();
        return (!host.is_empty()).then(|| host.to_owned());
    }
    let authority_end = text.find(['/', '?', '#', '\\']).unwrap_or(text.len());
    let authority = text.get(..authority_end)?;
    if authority.contains('@') {
        return None;
    }
    let host_text = authority
        .rsplit_once(':')
        .map_or(authority, |(host, _port)| host);
    // Most link texts are one word without a dot: passed over before any parsing.
    let labels = host_text.split('.').count();
    if labels < 2 {
        return None;
    }
    let is_ipv4 = labels == 4
        && host_text.split('.').all(|label| {
            !label.is_empty() && label.len() <= 3 && label.bytes().all(|b| b.is_ascii_digit())
        });
    let url = ada_url::Url::parse(&format!("http://{text}"), None).ok()?;
    let host = url.hostname();
    if is_ipv4 && url.host_type() == ada_url::HostType::IPV4 {
        return Some(host.to_owned());
    }
    if url.host_type() != ada_url::HostType::Domain {
        return None;
    }
    // The suffix must be a known one, and a label must stand before it.
    let domain = psl::domain(host.as_bytes())?;
    domain.suffix().is_known().then(|| host.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_collapses_and_ends_are_trimmed() {
        assert_eq!(collapse("  a \t\n b\u{c}\r c  "), "a b c");
        assert_eq!(collapse("\u{a0}x\u{a0}"), "\u{a0}x\u{a0}");
        assert_eq!(collapse(" \n "), "");
        let mut text = Collapsed::default();
        text.separate();
        text.push_str("a");
        text.separate();
        text.separate();
        text.push_str("b ");
        text.separate();
        assert_eq!(text.into_string(), "a b");
    }

    #[test]
    fn long_text_is_cut_at_the_limit_in_characters() {
        let long = "é".repeat(LinkText::MAX_CHARS + 10);
        let cut = collapse(&long);
        assert_eq!(cut.chars().count(), LinkText::MAX_CHARS);
        // A space that would be the last character is not kept after a cut.
        let words = "ab ".repeat(200);
        let cut = collapse(&words);
        assert_eq!(cut.chars().count(), LinkText::MAX_CHARS);
        assert!(!cut.ends_with(' '));
    }

    /// The collapsed text is the words joined by one space, cut to the limit in characters,
    /// never ending with a space: checked against that definition around the limit, with
    /// characters of one to four bytes, in one piece and in pieces.
    #[test]
    fn collapse_agrees_with_joining_the_words() {
        let oracle = |text: &str| {
            let joined = text
                .split(is_white_space)
                .filter(|word| !word.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let cut: String = joined.chars().take(LinkText::MAX_CHARS).collect();
            cut.trim_end_matches(' ').to_owned()
        };
        for unit in ["a", "é", "\u{20ac}", "\u{1f600}"] {
            for word in 1..5 {
                for spaces in [" ", " \t\r\n ", "\u{c}"] {
                    for lead in ["", " ", "x"] {
                        let piece = format!("{}{spaces}", unit.repeat(word));
                        for count in [1, 2, LinkText::MAX_CHARS / 2, LinkText::MAX_CHARS] {
                            let text = format!("{lead}{}", piece.repeat(count));
                            assert_eq!(collapse(&text), oracle(&text), "{text:?}");
                            let mut pieces = Collapsed::default();
                            pieces.push_str(lead);
                            for _ in 0..count {
                                pieces.push_str(&piece);
                            }
                            assert_eq!(pieces.into_string(), oracle(&text), "{text:?}");
                        }
                    }
                }
            }
        }
    }

    /// (reference, text, title) of each link the scan finds in `html`.
    fn links(html: &str) -> Vec<(String, String, Option<String>)> {
        let scanned = super::super::scan(html, usize::MAX);
        scanned
            .urls
            .iter()
            .filter_map(|url| {
                let link = url.link.as_ref()?;
                Some((
                    url.reference(&scanned_text(&scanned, url, html)).to_owned(),
                    link.text.clone(),
                    link.title.clone(),
                ))
            })
            .collect()
    }

    /// The text a URL's range indexes: the part's, or its `srcdoc` document's.
    fn scanned_text(
        scan: &super::super::HtmlScan,
        url: &super::super::HtmlUrl,
        html: &str,
    ) -> String {
        match url.document.checked_sub(1) {
            Some(i) => scan.srcdocs[i].text.clone(),
            None => html.to_owned(),
        }
    }

    #[track_caller]
    fn texts(html: &str, expected: &[&str]) {
        let found: Vec<String> = links(html).into_iter().map(|(_, text, _)| text).collect();
        assert_eq!(found, expected, "{html}");
    }

    #[test]
    fn the_text_of_a_link_is_its_rendered_text() {
        texts(
            "<a href=x>Hello <b>wor&amp;ld</b>\r\n  again</a>",
            &["Hello wor&ld again"],
        );
        texts(
            "<a href=x>one<br>two<div>three</div>four</a>",
            &["one two three four"],
        );
        texts("<a href=x>one<span>two</span></a>", &["onetwo"]);
        texts(
            "<a href=x>a<script>no</script><style>b{}</style><template>t</template>\
             <span hidden>h<i>i</i></span><title>t</title><textarea>x</textarea>b</a>",
            &["ab"],
        );
        texts(
            "<a href=x><table><tr><td>a</td><td>b</td></tr><tr><td>c</table></a>",
            &["a b c"],
        );
        texts(
            "<a href=x>caf&eacute; &notit; &#x41;&#0;</a>",
            &["café ¬it; A\u{fffd}"],
        );
        texts("<a href=x>\u{0}n\u{0}ul</a>", &["nul"]);
        texts(
            "<a href=x><svg><text>drawn</text></svg>shown</a>",
            &["shown"],
        );
        texts(
            "<a href=x><noscript>mail clients show this</noscript></a>",
            &["mail clients show this"],
        );
    }

    #[test]
    fn a_link_without_text_shows_its_images_alt() {
        texts(
            "<a href=x> <img alt=\"Log &amp; in\"><img><img alt='now'> </a>",
            &["Log & in now"],
        );
        texts("<a href=x>text<img alt=alt></a>", &["text"]);
        texts("<a href=x><span hidden><img alt=no></span></a>", &[""]);
        texts("<a href=x></a>", &[""]);
        let area = links("<map><area href=a alt=' Area  one ' title=T></map><area href=b>");
        assert_eq!(
            area,
            [
                ("a".to_owned(), "Area one".to_owned(), Some("T".to_owned())),
                ("b".to_owned(), String::new(), None)
            ]
        );
    }

    #[test]
    fn the_title_is_kept_decoded_and_collapsed() {
        let found = links("<a title=\"Pay&amp;Co\n login\" href=x>t</a><a href=y title>u</a>");
        assert_eq!(found[0].2.as_deref(), Some("Pay&Co login"));
        assert_eq!(found[1].2.as_deref(), Some(""));
    }

    #[test]
    fn where_a_link_ends() {
        // At its end tag, at the next link, at the end of the document.
        texts(
            "<a href=1>one</a>two<a href=2>three<a href=3>four",
            &["one", "three", "four"],
        );
        // At the end of an element it sits in, and at the next cell of its table.
        texts("<b><a href=1>one</b>two</a>", &["one"]);
        texts("<table><tr><td><a href=1>one</td><td>two</table>", &["one"]);
        texts("<table><tr><td><a href=1>one<td>two</table>", &["one"]);
        // Not at the end of an element opened inside it, nor at a stray void end tag.
        texts("<a href=1><p>one</p><p>two</img></p></a>", &["one two"]);
        // An SVG `a` inside is closed by its own end tag.
        texts(
            "<a href=1>one<svg><a href=2></a></svg>two</a>three",
            &["onetwo"],
        );
    }

    #[test]
    fn links_in_srcdoc_documents_have_text() {
        let found = links("<iframe srcdoc=\"<a href=inner>In &amp;amp; out</a>\"></iframe>");
        assert_eq!(found, [("inner".to_owned(), "In & out".to_owned(), None)]);
    }

    #[test]
    fn texts_that_read_as_urls_or_hosts() {
        for (text, host) in [
            ("https://bank.example.com/login", Some("bank.example.com")),
            ("HTTPS://Bank.Example.COM", Some("bank.example.com")),
            (
                "https://bank.example.com@evil.example.net/",
                Some("evil.example.net"),
            ),
            ("<http://bank.example.com/>", Some("bank.example.com")),
            ("bank.example.com", Some("bank.example.com")),
            ("www.bank.example.com/login.", Some("www.bank.example.com")),
            ("(paypal.com)", Some("paypal.com")),
            ("paypal.com:8443/x", Some("paypal.com")),
            ("bänk.example.com", Some("xn--bnk-qla.example.com")),
            ("paypal.com.evil.zip", Some("paypal.com.evil.zip")),
            ("192.168.1.1/admin", Some("192.168.1.1")),
            ("Click here", None),
            ("Log in at bank.example.com", None),
            ("invoice.pdf", None),
            ("Mr.Smith", None),
            ("version 1.2", None),
            ("1.2", None),
            ("joe@bank.example.com", None),
            ("com", None),
            ("mailto:joe@bank.example.com", None),
            ("", None),
        ] {
            assert_eq!(text_host(text).as_deref(), host, "{text:?}");
        }
    }

    #[test]
    fn host_differs_only_for_another_host() {
        let differs = |text, resolved| text_host_differs(text, resolved);
        assert!(differs(
            "https://bank.example.com",
            Some("http://evil.example.net/x")
        ));
        assert!(!differs(
            "bank.example.com",
            Some("https://BANK.example.com/login")
        ));
        assert!(differs(
            "www.bank.example.com",
            Some("https://bank.example.com/")
        ));
        assert!(differs("bank.example.com", Some("javascript:void(0)")));
        assert!(!differs("bank.example.com", None));
        assert!(!differs("Click here", Some("http://evil.example.net/")));
    }
}
