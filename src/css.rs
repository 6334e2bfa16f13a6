//! CSS URL references in `style` attributes and `<style>` elements, found with `cssparser`'s
//! tokenizer (CSS Syntax Level 3), which undoes CSS escapes: `url(…)` (CSS Values §4.5), the
//! string of `@import "…"` (CSS Cascade §2.1: "a `<string>` ... is interpreted as a `<url>`"),
//! and the strings of `image-set("…" 1x)` (CSS Images 4 §2.2.1, also `-webkit-image-set`).

use cssparser::{Parser, ParserInput, Token};

/// Deepest nesting of CSS blocks (`{`, `(`, `[`, functions) that is searched; deeper blocks
/// are skipped, so that no style sheet can exhaust the stack.
const MAX_BLOCK_DEPTH: usize = 32;

/// One `url(…)` of a style sheet or declaration list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CssUrl {
    /// The URL's bytes in the CSS text: inside the parentheses and quotes, white space
    /// around it excluded.
    pub range: std::ops::Range<usize>,
    /// The URL with CSS escapes undone.
    pub reference: String,
}

/// Every URL of `css`, in order: `url(a.png)`, `url("a.png")`, `@import "a.css"` and the
/// strings of `image-set("a.png" 1x)`.
pub(crate) fn urls(css: &str) -> Vec<CssUrl> {
    if !may_hold_urls(css) {
        return Vec::new();
    }
    tokenized_urls(css)
}

/// [`urls`] without the filter of [`may_hold_urls`]: every token of `css` is read.
fn tokenized_urls(css: &str) -> Vec<CssUrl> {
    let mut input = ParserInput::new(css);
    let mut parser = Parser::new(&mut input);
    let mut found = Vec::new();
    collect(&mut parser, css, 0, false, &mut found);
    found
}

/// False when `css` cannot hold a URL, which the tokenizer need not then read. Each form needs
/// a literal `(` or `@`, which no escape can make (CSS Syntax §4.3.4; §4.3.1: an escaped `@`
/// does not start an at-keyword): a function token whose name is `url` or ends in `image-set`
/// (`-webkit-image-set`), an unquoted `url(` token, or the at-keyword `import`. Without a
/// backslash no name is escaped, so each of these is also spelt out literally, in any ASCII
/// case, right before its `(` or after its `@`; style sheets with colours (`rgb(`), `calc(`,
/// `@media` and no URL are passed over.
fn may_hold_urls(css: &str) -> bool {
    let bytes = css.as_bytes();
    if memchr::memchr(b'\\', bytes).is_some() {
        return memchr::memchr2(b'(', b'@', bytes).is_some();
    }
    let ends_with = |end: usize, name: &[u8]| {
        end.checked_sub(name.len())
            .and_then(|start| bytes.get(start..end))
            .is_some_and(|before| before.eq_ignore_ascii_case(name))
    };
    memchr::memchr2_iter(b'(', b'@', bytes).any(|at| {
        if bytes.get(at) == Some(&b'@') {
            bytes
                .get(at + 1..at + 7)
                .is_some_and(|name| name.eq_ignore_ascii_case(b"import"))
        } else {
            ends_with(at, b"url") || ends_with(at, b"image-set")
        }
    })
}

/// The URL of a quoted string token that spans `start..end` of `css`.
fn string_url(css: &str, start: usize, end: usize, value: &str) -> CssUrl {
    CssUrl {
        range: string_range(css, start, end),
        reference: value.to_owned(),
    }
}

/// Collects the URLs of a block; `strings_are_urls` inside `image-set()`, whose string
/// arguments are URLs.
fn collect(
    parser: &mut Parser<'_, '_>,
    css: &str,
    depth: usize,
    strings_are_urls: bool,
    found: &mut Vec<CssUrl>,
) {
    loop {
        let start = parser.position().byte_index();
        let token = match parser.next_including_whitespace_and_comments() {
            Ok(token) => token.clone(),
            Err(_) => return,
        };
        match token {
            Token::QuotedString(value) if strings_are_urls => {
                let end = parser.position().byte_index();
                found.push(string_url(css, start, end, &value));
            }
            Token::AtKeyword(name) if name.eq_ignore_ascii_case("import") => {
                // `@import "x.css"`: the string is the URL; `@import url(x.css)` comes round
                // the loop again.
                let before = parser.state();
                parser.skip_whitespace();
                let string_start = parser.position().byte_index();
                match parser.next_including_whitespace_and_comments() {
                    Ok(Token::QuotedString(value)) => {
                        let value = value.to_string();
                        let end = parser.position().byte_index();
                        found.push(string_url(css, string_start, end, &value));
                    }
                    _ => parser.reset(&before),
                }
            }
            Token::Function(name)
                if (name.eq_ignore_ascii_case("image-set")
                    || name.eq_ignore_ascii_case("-webkit-image-set"))
                    && depth < MAX_BLOCK_DEPTH =>
            {
                let _ = parser.parse_nested_block(
                    |inner| -> Result<(), cssparser::ParseError<'_, ()>> {
                        collect(inner, css, depth + 1, true, found);
                        Ok(())
                    },
                );
            }
            Token::UnquotedUrl(value) => {
                let end = parser.position().byte_index();
                found.push(CssUrl {
                    range: inner_range(css, start, end),
                    reference: value.to_string(),
                });
            }
            Token::Function(name)
                if name.eq_ignore_ascii_case("url") && depth < MAX_BLOCK_DEPTH =>
            {
                let _ = parser.parse_nested_block(
                    |inner| -> Result<(), cssparser::ParseError<'_, ()>> {
                        inner.skip_whitespace();
                        let string_start = inner.position().byte_index();
                        if let Ok(Token::QuotedString(value)) = inner.next() {
                            let value = value.to_string();
                            let string_end = inner.position().byte_index();
                            found.push(CssUrl {
                                range: string_range(css, string_start, string_end),
                                reference: value,
                            });
                        }
                        Ok(())
                    },
                );
            }
            Token::Function(_)
            | Token::ParenthesisBlock
            | Token::SquareBracketBlock
            | Token::CurlyBracketBlock
                if depth < MAX_BLOCK_DEPTH =>
            {
                let _ = parser.parse_nested_block(
                    |inner| -> Result<(), cssparser::ParseError<'_, ()>> {
                        collect(inner, css, depth + 1, false, found);
                        Ok(())
                    },
                );
            }
            _ => {}
        }
    }
}

/// The range inside a quoted string token spanning `start..end`: without its opening quote,
/// and without its closing quote when it has one (a string cut short by the end of the text
/// or of the line has none).
fn string_range(css: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let bytes = css.as_bytes();
    let quote = bytes.get(start).copied();
    let inner_start = (start + 1).min(end);
    let closed = end > inner_start && end >= 1 && bytes.get(end - 1).copied() == quote;
    inner_start..if closed { end - 1 } else { end }
}

/// The range of the URL inside an unquoted `url( … )` token spanning `start..end`.
fn inner_range(css: &str, start: usize, end: usize) -> std::ops::Range<usize> {
    let token = css.get(start..end).unwrap_or_default();
    let open = token.find('(').map_or(0, |i| i + 1);
    let close = token.rfind(')').unwrap_or(token.len()).max(open);
    let inner = token.get(open..close).unwrap_or_default();
    let leading = inner.len() - inner.trim_start().len();
    let trimmed = inner.trim();
    let from = start + open + leading;
    from..from + trimmed.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(css: &str) -> Vec<(&str, String)> {
        urls(css)
            .into_iter()
            .map(|u| (&css[u.range], u.reference))
            .collect()
    }

    #[test]
    fn unquoted_quoted_and_nested() {
        let css = r#"body { background: url( a.png ) } @media print { .x { background-image: URL("b c.png"), url('d.png') } }"#;
        assert_eq!(
            found(css),
            [
                ("a.png", "a.png".to_owned()),
                ("b c.png", "b c.png".to_owned()),
                ("d.png", "d.png".to_owned())
            ]
        );
    }

    #[test]
    fn escapes_are_undone_and_comments_skipped() {
        assert_eq!(
            found(r"/* url(no.png) */ a{b:url(x\29 y.png)}")[0].1,
            "x)y.png"
        );
        assert_eq!(found(r"/* url(no.png) */ a{b:url(x\29 y.png)}").len(), 1);
    }

    #[test]
    fn unterminated_string_keeps_its_last_character() {
        assert_eq!(
            found("b:url('img/borde="),
            [("img/borde=", "img/borde=".to_owned())]
        );
        // A string cut by a line break is a bad string (CSS Syntax §4.3.5): no URL.
        assert!(found("b:url(\"x\n)").is_empty());
    }

    #[test]
    fn import_strings_and_image_set_strings() {
        let css = r#"@import "a.css" screen; @IMPORT url(b.css); @import 'c\2e css'; @media x { p { background: image-set("d.png" 1x, url(e.png) 2x, type("image/avif") "f.avif") } } p { content: "not a url" } q{b:-webkit-image-set('g.png' 1x)}"#;
        assert_eq!(
            found(css),
            [
                ("a.css", "a.css".to_owned()),
                ("b.css", "b.css".to_owned()),
                ("c\\2e css", "c.css".to_owned()),
                ("d.png", "d.png".to_owned()),
                ("e.png", "e.png".to_owned()),
                ("f.avif", "f.avif".to_owned()),
                ("g.png", "g.png".to_owned())
            ]
        );
    }

    #[test]
    fn declaration_list_of_a_style_attribute() {
        assert_eq!(
            found("background:url(bg.gif) no-repeat"),
            [("bg.gif", "bg.gif".to_owned())]
        );
    }

    #[test]
    fn the_filter_passes_every_style_sheet_with_a_url_and_not_others() {
        let with_urls = [
            "a{b:URL(x.png)}",
            "a{b:Url( 'x.png' )}",
            "@IMPORT 'a.css';",
            "@import\t\"a.css\";",
            "p{background:-WEBKIT-Image-Set('a.png' 1x)}",
            r"a{b:u\72l(x.png)}",
            r"a{b:\75rl('x.png')}",
            r"@\69mport 'a.css';",
        ];
        for css in with_urls {
            assert!(may_hold_urls(css), "{css}");
            assert_eq!(urls(css), tokenized_urls(css), "{css}");
            assert_eq!(urls(css).len(), 1, "{css}");
        }
        let without = [
            "a{color:rgb(1,2,3)} @media screen {b{width:calc(1px + 2%)}}",
            "a{b:url/**/(x.png)} @charset 'utf-8'; c{d:myurl-ish}",
            "p{font-family:'url(x)'} @importx 'a.css';",
        ];
        for css in without {
            assert_eq!(tokenized_urls(css), [], "{css}");
        }
        assert!(!may_hold_urls(without[0]) && !may_hold_urls(without[1]));
    }

    #[test]
    fn deep_nesting_does_not_exhaust_the_stack() {
        let css = "{".repeat(200_000) + "url(x)";
        assert!(urls(&css).is_empty());
        let shallow = "{".repeat(10) + "a:url(x)";
        assert_eq!(urls(&shallow).len(), 1);
    }
}
