//! The entity tree against two lenient parsers, over real mail: every message of
//! `../shared/corpus/messages/` (mail other projects wrote, read in place), and the small
//! messages of `tests/data/tree-cases/`, written here, one malformation each (a header line
//! without a colon, a continuation line that lost its white space, an 8-bit byte in a field
//! name, a `: value` line, white space before a colon, `Content-Type: image/com/x`, a
//! `Content-Type` whose `;` was lost, in a message and in body parts, base64 `message/rfc822`
//! with and without a text footer, `message/partial`, `message/external-body`, a first line
//! that is no field, in a message, in body parts and in an encapsulated message, a body part
//! that starts with its content, one whose header has no empty line after it, a UTF-8 byte
//! order mark, `From :` on the first line, an HTML part in `x-uuencode`).
//!
//! The two oracles:
//!
//! - **Python's `email`**: `tests/support/email_tree.py` parses each message with
//!   `email.message_from_bytes` (policy `compat32`) and writes its tree in our shape: each
//!   entity's part identifier as we number parts, its kind, parent and media type
//!   (`get_content_type()`). The test needs `python3` (3.9 or later, standard library only)
//!   and fails when there is none, rather than passing without comparing.
//! - **GMime 3** (the parser of notmuch, Balsa and other clients), through its Python bindings
//!   (`tests/support/gmime_tree.py`), which also gives the content of each `text/html` part:
//!   where both trees have a `text/html` part, its text must be ours
//!   ([`html_parts_read_as_gmime_reads_them`]). GMime is the oracle of parts and types; where
//!   it cannot be imported (Debian's `gir1.2-gmime-3.0` and `python3-gi` missing, which
//!   `.ci/run` installs where it can) its half is skipped and the test prints why.
//!
//! Where the trees differ, the difference is the first entity that differs on a path from the
//! root (the entities below it are not compared: they follow from it). Every difference must be
//! listed, in [`PYTHON`] or [`GMIME`], keyed by file and part, with what each side has and the
//! class that explains it; an unlisted difference fails, and so does a listed one that no
//! longer occurs, so that the lists stay true as the splitter changes. The classes say which
//! side RFC 2045, RFC 2046 and RFC 5322 support, and what the other clients do.
//!
//! Python's `email` ends a header at the first line that is neither a field (`name:` with a
//! name of printable ASCII and no white space before the colon) nor a continuation, and reads
//! the rest as the body; we skip such a line and read the fields after it, as GMime and mime4j
//! do, so the two differ on `tree-cases/encoded-word-line.eml`, `lost-continuation*.eml` (the
//! shape of MimeKit's `issue358` test message, an Office 365 header, whose
//! `multipart/alternative` MimeKit's own test expects) and `8bit-name*.eml`:
//! [`Class::HeaderLineNotAField`], with GMime, mime4j and MimeKit on our side.
//!
//! One more oracle checks the numbering: the part numbers of RFC 3501 §6.4.5's example.

mod known;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::process::Command;

use mimebase::{EntityKind, Options, analyze, analyze_with_html_text};

use crate::support::{corpus, files_under, gmime, root};

use known::{Class, GMIME, PYTHON};

/// Files below the two directories that are not messages, each with the reason.
const NOT_MESSAGES: &[(&str, &str)] = &[(
    "messages/FEATURES.jsonl",
    "the corpus's description of its messages (JSON lines), not a message",
)];

/// One entity as both sides describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Node {
    kind: &'static str,
    parent: Option<String>,
    content_type: String,
}

/// A tree: part identifiers in document order, and each one's entity.
type Tree = Vec<(String, Node)>;

fn ours(raw: &[u8]) -> Tree {
    analyze(raw, &Options::new())
        .entities
        .into_iter()
        .map(|e| {
            let kind = match e.kind {
                EntityKind::Message => "message",
                EntityKind::BodyPart => "body_part",
            };
            let node = Node {
                kind,
                parent: e.parent.map(|p| p.as_str().to_owned()),
                content_type: e.content_type,
            };
            (e.part.as_str().to_owned(), node)
        })
        .collect()
}

/// What an oracle gives for one file: its tree, `None` where it reads no message, and the
/// text of each `text/html` part it gives the text of, by part.
struct Theirs {
    tree: Option<Tree>,
    html: HashMap<String, String>,
}

/// The oracle's trees of `files`, in order, from one run of `script` (in `tests/support/`)
/// by `python`.
fn oracle(python: &str, script: &str, files: &[PathBuf]) -> Vec<Theirs> {
    let script = root().join("tests/support").join(script);
    let output = Command::new(python)
        .arg(&script)
        .args(files)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "this test needs {python} (to run {}), and running it failed: {e}",
                script.display()
            )
        });
    assert!(
        output.status.success(),
        "{} failed: {}\n{}",
        script.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    let trees: Vec<Theirs> = text
        .lines()
        .zip(files)
        .map(|(line, file)| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(value["file"].as_str(), file.to_str(), "{line}");
            let Some(entities) = value["entities"].as_array() else {
                return Theirs {
                    tree: None,
                    html: HashMap::new(),
                };
            };
            let mut html = HashMap::new();
            let tree = entities
                .iter()
                .map(|e| {
                    let kind = match e["kind"].as_str().unwrap() {
                        "message" => "message",
                        "body_part" => "body_part",
                        other => panic!("unknown kind {other}"),
                    };
                    let node = Node {
                        kind,
                        parent: e["parent"].as_str().map(str::to_owned),
                        content_type: e["content_type"].as_str().unwrap().to_owned(),
                    };
                    let part = e["part"].as_str().unwrap().to_owned();
                    if let Some(text) = e["html"].as_str() {
                        html.insert(part.clone(), text.to_owned());
                    }
                    (part, node)
                })
                .collect();
            Theirs {
                tree: Some(tree),
                html,
            }
        })
        .collect();
    assert_eq!(trees.len(), files.len(), "one line per file:\n{text}");
    trees
}

/// Python's trees of `files`, in order, from one run of `email_tree.py`.
fn pythons(files: &[PathBuf]) -> Vec<Tree> {
    oracle("python3", "email_tree.py", files)
        .into_iter()
        .map(|theirs| {
            theirs
                .tree
                .expect("Python's email reads every file as a message")
        })
        .collect()
}

/// A difference: the part, and what each side has there.
type Difference = (String, Option<Node>, Option<Node>);

/// The entities that differ and whose ancestors (on either side) do not.
fn differences(ours: &Tree, theirs: &Tree) -> Vec<Difference> {
    let our_map: HashMap<&str, &Node> = ours.iter().map(|(p, n)| (p.as_str(), n)).collect();
    let their_map: HashMap<&str, &Node> = theirs.iter().map(|(p, n)| (p.as_str(), n)).collect();
    let mut order: Vec<&str> = ours.iter().map(|(p, _)| p.as_str()).collect();
    order.extend(
        theirs
            .iter()
            .map(|(p, _)| p.as_str())
            .filter(|p| !our_map.contains_key(p)),
    );
    let mut differing: HashSet<&str> = HashSet::new();
    let mut found = Vec::new();
    for part in order {
        let (a, b) = (our_map.get(part).copied(), their_map.get(part).copied());
        if a == b {
            continue;
        }
        differing.insert(part);
        let below_a_difference = [a, b].into_iter().flatten().any(|node| {
            let mut parent = node.parent.as_deref();
            while let Some(p) = parent {
                if differing.contains(p) {
                    return true;
                }
                parent = our_map
                    .get(p)
                    .or_else(|| their_map.get(p))
                    .and_then(|n| n.parent.as_deref());
            }
            false
        });
        if !below_a_difference {
            found.push((part.to_owned(), a.cloned(), b.cloned()));
        }
    }
    found
}

fn describe(node: Option<&Node>) -> String {
    node.map_or_else(|| "-".to_owned(), |n| n.content_type.clone())
}

/// Every message file, with the name it has in [`KNOWN`].
fn messages() -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    let mut skipped = HashSet::new();
    for (dir, under) in [
        (corpus(), corpus().join("messages")),
        (
            root().join("tests/data"),
            root().join("tests/data/tree-cases"),
        ),
    ] {
        for path in files_under(&under) {
            let name = path.strip_prefix(&dir).unwrap().display().to_string();
            if NOT_MESSAGES.iter().any(|(file, _)| *file == name) {
                skipped.insert(name);
            } else {
                found.push((name, path));
            }
        }
    }
    for (file, reason) in NOT_MESSAGES {
        assert!(skipped.contains(*file), "{file} is gone ({reason})");
    }
    found
}

/// Compares our tree of each message with `oracle`'s (`None` where it reads no message):
/// every difference must be in `known`, and every entry of `known` must still occur.
fn compare(
    oracle: &str,
    messages: &[(String, PathBuf)],
    theirs: &[Option<Tree>],
    known: &[(&str, &str, &str, &str, Class)],
) {
    let mut per_class: BTreeMap<Class, usize> = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut unexplained = Vec::new();
    let mut agreeing = 0;
    for ((name, path), theirs) in messages.iter().zip(theirs) {
        let raw = std::fs::read(path).unwrap();
        let ours = ours(&raw);
        let found: Vec<(String, String, String)> = match theirs {
            Some(theirs) => differences(&ours, theirs)
                .into_iter()
                .map(|(part, a, b)| (part, describe(a.as_ref()), describe(b.as_ref())))
                .collect(),
            None => vec![(
                "HEADER".to_owned(),
                describe(ours.first().map(|(_, node)| node)),
                "no message".to_owned(),
            )],
        };
        if found.is_empty() {
            agreeing += 1;
        }
        for (part, a, b) in found {
            let index = known.iter().position(|(file, p, ours, theirs, _)| {
                *file == name && *p == part && *ours == a && *theirs == b
            });
            match index {
                Some(index) => {
                    seen.insert(index);
                    *per_class.entry(known[index].4).or_default() += 1;
                }
                None => unexplained.push(format!("    ({name:?}, {part:?}, {a:?}, {b:?}, _),")),
            }
        }
    }
    let stale: Vec<String> = known
        .iter()
        .enumerate()
        .filter(|(index, _)| !seen.contains(index))
        .map(|(_, (file, part, ours, theirs, class))| {
            format!(
                "    {file} {part}: ours {ours}, {oracle} {theirs} ({})",
                class.reason()
            )
        })
        .collect();
    eprintln!(
        "{oracle} differential: {} messages, {agreeing} with the same tree; differences per \
         class: {per_class:#?}",
        messages.len()
    );
    assert!(
        unexplained.is_empty(),
        "{} differences from {oracle} are in no class:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed differences from {oracle} that no longer occur (remove them):\n{}",
        stale.join("\n")
    );
    assert!(messages.len() >= 100, "{}", messages.len());
}

#[test]
fn entity_trees_match_python_email() {
    let messages = messages();
    let paths: Vec<PathBuf> = messages.iter().map(|(_, p)| p.clone()).collect();
    let theirs: Vec<Option<Tree>> = pythons(&paths).into_iter().map(Some).collect();
    compare("Python's email", &messages, &theirs, PYTHON);
}

#[test]
fn entity_trees_match_gmime() {
    let python = match gmime::python() {
        Ok(python) => python,
        Err(why) => {
            eprintln!("the GMime differential is skipped: {why}");
            return;
        }
    };
    let messages = messages();
    let paths: Vec<PathBuf> = messages.iter().map(|(_, p)| p.clone()).collect();
    let theirs: Vec<Option<Tree>> = oracle(python, "gmime_tree.py", &paths)
        .into_iter()
        .map(|theirs| theirs.tree)
        .collect();
    compare("GMime", &messages, &theirs, GMIME);
}

/// Where GMime and we both have a `text/html` part of a message of `tree-cases/`, we read the
/// same text: the body after a header whose first line is no field, an HTML part behind a
/// `Content-Type` whose `;` was lost, a uuencoded one, a message whose first line is `From :`.
#[test]
fn html_parts_read_as_gmime_reads_them() {
    let python = match gmime::python() {
        Ok(python) => python,
        Err(why) => {
            eprintln!("the GMime comparison of HTML parts is skipped: {why}");
            return;
        }
    };
    let cases = files_under(&root().join("tests/data/tree-cases"));
    let theirs = oracle(python, "gmime_tree.py", &cases);
    let mut compared = Vec::new();
    for (path, theirs) in cases.iter().zip(&theirs) {
        let raw = std::fs::read(path).unwrap();
        let (_, texts) = analyze_with_html_text(&raw, &Options::new());
        for text in texts {
            let part = text.part.as_str();
            if let Some(gmime) = theirs.html.get(part) {
                let name = path.file_name().unwrap().to_string_lossy();
                assert_eq!(&text.text, gmime, "{name} part {part}");
                compared.push(format!("{name}:{part}"));
            }
        }
    }
    for case in [
        "part-junk-first-line.eml:2",
        "part-junk-lines-then-fields.eml:2",
        "part-content-type-junk.eml:1",
        "part-multipart-lost-semicolon.eml:2.1",
        "rfc822-junk-first-line.eml:1.HEADER",
        "uuencoded-html.eml:1",
        "from-field-first.eml:1",
    ] {
        assert!(
            compared.iter().any(|c| c == case),
            "{case} not compared: {compared:?}"
        );
    }
    eprintln!("{} HTML parts read as GMime reads them", compared.len());
}

/// The part numbers of RFC 3501 §6.4.5's example, the oracle of how both sides number parts:
/// `tree-cases/rfc3501-example.eml` is a message with that structure (each part says its
/// section number). Its message entities are named by their `HEADER` section, as the RFC
/// lists them.
#[test]
fn part_numbers_are_those_of_rfc_3501_example() {
    const RFC_3501: &[(&str, &str)] = &[
        ("HEADER", "multipart/mixed"),
        ("1", "text/plain"),
        ("2", "application/octet-stream"),
        ("3", "message/rfc822"),
        ("3.HEADER", "multipart/mixed"),
        ("3.1", "text/plain"),
        ("3.2", "application/octet-stream"),
        ("4", "multipart/mixed"),
        ("4.1", "image/gif"),
        ("4.2", "message/rfc822"),
        ("4.2.HEADER", "multipart/mixed"),
        ("4.2.1", "text/plain"),
        ("4.2.2", "multipart/alternative"),
        ("4.2.2.1", "text/plain"),
        ("4.2.2.2", "text/richtext"),
    ];
    let path = root().join("tests/data/tree-cases/rfc3501-example.eml");
    let expected: Vec<(String, String)> = RFC_3501
        .iter()
        .map(|(part, ct)| ((*part).to_owned(), (*ct).to_owned()))
        .collect();
    let summary = |tree: &Tree| -> Vec<(String, String)> {
        tree.iter()
            .map(|(p, n)| (p.clone(), n.content_type.clone()))
            .collect()
    };
    pretty_assertions::assert_eq!(summary(&ours(&std::fs::read(&path).unwrap())), expected);
    pretty_assertions::assert_eq!(summary(&pythons(&[path])[0]), expected, "Python's email");
}
