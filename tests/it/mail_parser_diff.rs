//! Differential check of the entity tree against mail-parser's (entities as the crate docs define them):
//! over every message of `../shared/corpus/messages/`, the entities in document order with
//! their depth and content type. Every difference is listed in [`KNOWN_DIFFERENCES`] with
//! its reason; an unlisted difference fails, and so does a listed one that no longer occurs.

use mail_parser::{Message, MessageParser, MimeHeaders, PartType};
use mimebase::{Options, analyze};

use crate::support::{corpus_messages, corpus_or_skip};

/// (corpus file, why our tree differs from mail-parser's).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// mail-parser's tree as (depth, type/subtype), pre-order, a `message/rfc822` part followed
/// by the message it holds one level deeper, as our entities are.
fn mail_parser_tree(
    message: &Message<'_>,
    part: u32,
    depth: usize,
    out: &mut Vec<(usize, String)>,
) {
    let Some(node) = message.part(part) else {
        return;
    };
    let essence = node
        .content_type()
        .map(|ct| {
            format!(
                "{}/{}",
                ct.ctype().to_ascii_lowercase(),
                ct.subtype().unwrap_or_default().to_ascii_lowercase()
            )
        })
        .unwrap_or_else(|| "text/plain".to_owned());
    out.push((depth, essence));
    match &node.body {
        PartType::Multipart(children) => {
            for &child in children {
                mail_parser_tree(message, child, depth + 1, out);
            }
        }
        PartType::Message(inner) => mail_parser_tree(inner, 0, depth + 1, out),
        _ => {}
    }
}

fn our_tree(raw: &[u8]) -> Vec<(usize, String)> {
    let report = analyze(raw, &Options::new());
    let mut depths = std::collections::HashMap::new();
    report
        .entities
        .iter()
        .map(|e| {
            let depth = e.parent.as_ref().map_or(0, |p| depths[p] + 1);
            depths.insert(e.part.clone(), depth);
            (depth, e.content_type.clone())
        })
        .collect()
}

#[test]
fn entity_trees_match_mail_parser() {
    let mut compared = 0;
    let mut differing = Vec::new();
    let Some(corpus) = corpus_or_skip("") else {
        return;
    };
    let Some(messages) = corpus_messages() else {
        return;
    };
    assert_eq!(messages.len(), 75);
    for path in messages {
        let raw = std::fs::read(&path).unwrap();
        let name = path.strip_prefix(&corpus).unwrap().display().to_string();
        let theirs = {
            let message = MessageParser::default()
                .parse(&raw[..])
                .expect("mail-parser parses it");
            let mut tree = Vec::new();
            mail_parser_tree(&message, 0, 0, &mut tree);
            tree
        };
        let ours = our_tree(&raw);
        compared += 1;
        if ours != theirs {
            differing.push(name.clone());
            if !KNOWN_DIFFERENCES.iter().any(|(file, _)| *file == name) {
                panic!("{name}: trees differ\n ours:   {ours:?}\n theirs: {theirs:?}");
            }
        }
    }
    for (file, reason) in KNOWN_DIFFERENCES {
        assert!(
            differing.iter().any(|d| d == file),
            "{file} no longer differs ({reason})"
        );
    }
    eprintln!(
        "mail-parser differential: {compared} messages, {} known differences",
        differing.len()
    );
}
