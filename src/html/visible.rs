//! The text a reader sees of an HTML document, roughly: what the stated-password finder reads
//! (see the `password` module), where only the words and their order matter.
//!
//! html5gum's own token stream, with its naive switch to raw text after `<script>`,
//! `<style>` and the like, is enough here: text inside `<script>`, `<style>`, `<template>`,
//! `<head>` and `<title>` is left out, a block element's tag (`<p>`, `<div>`, `<br>`, `<li>`,
//! `<tr>`, `<h1>`…) ends a line, and any other tag separates words only when white space does.

use html5gum::emitters::default::DefaultEmitter;
use html5gum::{Token, Tokenizer};

use super::guard::too_many_quoted_values;

/// The elements whose tags end a line of the text a reader sees (HTML Standard, the
/// rendering section's block-level elements, as `innerText` gives them line breaks).
const BLOCKS: &[&[u8]] = &[
    b"address",
    b"article",
    b"aside",
    b"blockquote",
    b"br",
    b"dd",
    b"div",
    b"dl",
    b"dt",
    b"fieldset",
    b"figcaption",
    b"figure",
    b"footer",
    b"form",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"header",
    b"hr",
    b"li",
    b"main",
    b"nav",
    b"ol",
    b"p",
    b"pre",
    b"section",
    b"table",
    b"td",
    b"th",
    b"tr",
    b"ul",
];

/// The elements whose content a reader does not see.
const HIDDEN: &[&[u8]] = &[
    b"script",
    b"style",
    b"template",
    b"head",
    b"title",
    b"noembed",
];

/// The text of the HTML document `html` (see the module docs); `None` for a document that
/// holds a tag the tokenizer cannot take ([`super::MAX_QUOTED_VALUES_PER_TAG`]).
pub(crate) fn visible_text(html: &str) -> Option<String> {
    if too_many_quoted_values(html.as_bytes()).is_some() {
        return None;
    }
    let mut text = String::with_capacity(html.len() / 2);
    let mut hidden = 0usize;
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    for token in Tokenizer::new_with_emitter(html, emitter).flatten() {
        match token {
            Token::StartTag(tag) => {
                if HIDDEN.contains(&tag.name.as_slice()) && !tag.self_closing {
                    hidden += 1;
                } else if BLOCKS.contains(&tag.name.as_slice()) {
                    text.push('\n');
                }
            }
            Token::EndTag(tag) => {
                if HIDDEN.contains(&tag.name.as_slice()) {
                    hidden = hidden.saturating_sub(1);
                } else if BLOCKS.contains(&tag.name.as_slice()) {
                    text.push('\n');
                }
            }
            Token::String(string) if hidden == 0 => {
                text.push_str(&String::from_utf8_lossy(&string));
            }
            _ => {}
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::visible_text;

    #[test]
    fn words_in_order_and_blocks_as_lines() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body><p>Senha do PDF: <b>12&#51;</b></p><div>next</div><script>var x = 'Senha: no';</script></body></html>";
        assert_eq!(visible_text(html).unwrap(), "\nSenha do PDF: 123\n\nnext\n");
    }
}
