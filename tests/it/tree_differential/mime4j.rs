//! mime4j's expected trees, the third oracle: beside each message of `suites/mime4j/`
//! (MIME-tools' test messages, as mime4j's `mimetools-testmsgs` holds them), a `.xml` file
//! holds the tree mime4j's parser must give of it, which mime4j's own tests compare with its
//! output.
//!
//! The XML has an element per entity: `<message>` (its `<header>` of `<field>`s, then its
//! body) and `<body-part>` (the same), and one per body: `<multipart>` (a `<preamble>`, the
//! `<body-part>`s, an `<epilogue>`), a `<message>` (the encapsulated message) or `<body>` (a
//! leaf's content). It names no media type: those are in the fields, for a parser to read.
//! So the trees are compared by their shape: each entity's part, kind and parent, and whether
//! its body is a multipart, an encapsulated message or a leaf (in place of its media type).

use std::collections::HashSet;

use quick_xml::events::Event;
use quick_xml::reader::Reader;

use super::{Node, Tree};

/// The shape of an entity whose body holds body parts.
const MULTIPART: &str = "multipart";
/// The shape of an entity whose body is a message.
const MESSAGE: &str = "message";
/// The shape of an entity whose body is content.
const LEAF: &str = "leaf";

/// The IMAP section (RFC 3501 §6.4.5) of an entity's body parts: empty for the root message.
fn section(part: &str) -> &str {
    if part == "HEADER" {
        ""
    } else {
        part.strip_suffix(".HEADER").unwrap_or(part)
    }
}

/// The part identifier of the `index`th (from 1) body part of `part`'s multipart body.
fn child(part: &str, index: usize) -> String {
    match section(part) {
        "" => index.to_string(),
        prefix => format!("{prefix}.{index}"),
    }
}

/// The part identifier of the message in `part`'s body, as we number it (`HEADER` ->
/// `1.HEADER`, a body part `2` -> `2.HEADER`), as `tests/support/email_tree.py` does.
fn encapsulated(part: &str) -> String {
    if part == "HEADER" || part.ends_with(".HEADER") {
        format!("{}.HEADER", child(part, 1))
    } else {
        format!("{part}.HEADER")
    }
}

/// mime4j's expected tree in `xml`, each entity's media type replaced by its shape. Two of the
/// files hold Latin-1 bytes in a body; they are read as UTF-8 with replacement characters, which
/// leaves the elements as they are.
pub(super) fn tree(xml: &[u8]) -> Tree {
    let xml = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&xml);
    let mut tree: Tree = Vec::new();
    // The entities open at this point of the document: each one's index in `tree` and the
    // number of its body parts seen so far.
    let mut open: Vec<(usize, usize)> = Vec::new();
    loop {
        let (start, name) = match reader.read_event().unwrap() {
            Event::Start(element) => (true, element.name().into_inner().to_owned()),
            Event::Empty(element) => (false, element.name().into_inner().to_owned()),
            Event::End(element) => {
                if matches!(element.name().into_inner(), "message" | "body-part") {
                    open.pop().unwrap();
                }
                continue;
            }
            Event::Eof => break,
            _ => continue,
        };
        let (part, kind, parent) = match name.as_str() {
            "message" => match open.last() {
                None => ("HEADER".to_owned(), "message", None),
                Some(&(index, _)) => {
                    let node = &mut tree[index];
                    node.1.content_type = MESSAGE.to_owned();
                    (encapsulated(&node.0), "message", Some(node.0.clone()))
                }
            },
            "body-part" => {
                let (index, parts) = open.last_mut().unwrap();
                *parts += 1;
                let parent = tree[*index].0.clone();
                (child(&parent, *parts), "body_part", Some(parent))
            }
            "multipart" => {
                let (index, _) = open.last().unwrap();
                tree[*index].1.content_type = MULTIPART.to_owned();
                continue;
            }
            _ => continue,
        };
        let node = Node {
            kind,
            parent,
            content_type: LEAF.to_owned(),
        };
        tree.push((part, node));
        if start {
            open.push((tree.len() - 1, 0));
        }
    }
    assert!(open.is_empty(), "unclosed elements");
    tree
}

/// Our tree with each entity's media type replaced by its shape: a message where it has an
/// encapsulated message, a multipart where its media type is `multipart/*`, else a leaf.
pub(super) fn shapes(tree: Tree) -> Tree {
    let encapsulating: HashSet<String> = tree
        .iter()
        .filter(|(_, node)| node.kind == "message")
        .filter_map(|(_, node)| node.parent.clone())
        .collect();
    tree.into_iter()
        .map(|(part, mut node)| {
            let shape = if encapsulating.contains(&part) {
                MESSAGE
            } else if node.content_type.starts_with("multipart/") {
                MULTIPART
            } else {
                LEAF
            };
            node.content_type = shape.to_owned();
            (part, node)
        })
        .collect()
}
