//! The entity tree against lenient parsers, over real mail: every message of
//! `../shared/corpus/messages/` (mail other projects wrote, read in place), of
//! `../shared/corpus/suites/` (other projects' test messages, read in place: MIME-tools'
//! messages from mime4j's `mimetools-testmsgs`, two of MimeKit's, one of SpamAssassin's, and
//! pages saved by browsers as MHTML), and the small messages of `tests/data/tree-cases/`,
//! written here, one malformation each (a header line without a colon, a continuation line
//! that lost its white space, an 8-bit byte in a field name, a `: value` line, white space
//! before a colon, `Content-Type: image/com/x`, a `Content-Type` whose `;` was lost, in a
//! message and in body parts, base64 `message/rfc822` with and without a text footer,
//! `message/partial`, `message/external-body`, a first line that is no field, in a message, in
//! body parts and in an encapsulated message, a body part that starts with its content, one
//! whose header has no empty line after it, a UTF-8 byte order mark, `From :` on the first
//! line, an HTML part in `x-uuencode`). A file that is no message is listed in
//! [`NOT_MESSAGES`] with the reason; an mbox file of several messages (as `mimebase scan` tells
//! one, [`is_mbox`]) is listed in [`MBOXES`] and compared message by message, each named
//! `FILE#N` (N counted from 1), with the oracles reading it as an mbox too.
//!
//! The oracles:
//!
//! - **Python's `email`**: `tests/support/email_tree.py` parses each message with
//!   `email.message_from_bytes` (policy `compat32`) and writes its tree in our shape: each
//!   entity's part identifier as we number parts, its kind, parent and media type
//!   (`get_content_type()`); an mbox is split by `mailbox.mbox`. The test needs `python3` (3.9
//!   or later, standard library only) and fails when there is none, rather than passing without
//!   comparing.
//! - **GMime 3** (the parser of notmuch, Balsa and other clients), through its Python bindings
//!   (`tests/support/gmime_tree.py`; an mbox is read in GMime's mbox format), which also gives
//!   the content of each `text/html` part: where both trees have a `text/html` part, its text
//!   must be ours ([`html_parts_read_as_gmime_reads_them`]). GMime is the oracle of parts and
//!   types; where it cannot be imported (Debian's `gir1.2-gmime-3.0` and `python3-gi` missing,
//!   which `.ci/run` installs where it can) its half is skipped and the test prints why.
//! - **mime4j's expected trees**: each message of `suites/mime4j/` comes with the tree mime4j's
//!   parser must give of it, in XML (`mime4j`): it says where mime4j sees messages, body parts,
//!   multiparts and leaves, not media types, so it is compared on that shape.
//!
//! Where the trees differ, the difference is the first entity that differs on a path from the
//! root (the entities below it are not compared: they follow from it). Every difference must be
//! listed, in [`PYTHON`], [`GMIME`] or [`MIME4J`], keyed by file and part, with what each side
//! has and the class that explains it; an unlisted difference fails, and so does a listed one
//! that no longer occurs, so that the lists stay true as the splitter changes. The classes say
//! which side RFC 2045, RFC 2046 and RFC 5322 support, and what the other parsers do.
//!
//! Python's `email` ends a header at the first line that is neither a field (`name:` with a
//! name of printable ASCII and no white space before the colon) nor a continuation, and reads
//! the rest as the body; we skip such a line and read the fields after it, as GMime and mime4j
//! do, so the two differ on `tree-cases/encoded-word-line.eml`, `lost-continuation*.eml` (the
//! shape of MimeKit's `issue358` test message, an Office 365 header, whose
//! `multipart/alternative` MimeKit's own test expects; `suites/mimekit/issue358.txt` is that
//! message) and `8bit-name*.eml`: [`Class::HeaderLineNotAField`], with GMime, mime4j and
//! MimeKit on our side.
//!
//! One more oracle checks the numbering: the part numbers of RFC 3501 §6.4.5's example.

mod known;
mod mime4j;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use mimebase::mailbox::{self, MBOX_HEAD_BYTES, Mbox, is_mbox};
use mimebase::{EntityKind, Options, analyze, analyze_with_html_text};

use crate::support::{corpus_or_skip, files_under, gmime, root};

use known::{Class, GMIME, MIME4J, PYTHON};

/// Files below the three directories that are not messages, each with the reason; `*` stands
/// for any file name.
const NOT_MESSAGES: &[(&str, &str)] = &[
    (
        "messages/FEATURES.jsonl",
        "the corpus's description of its messages (JSON lines), not a message",
    ),
    (
        "suites/MANIFEST.md",
        "where each file of suites/ comes from (repository, commit, licence), in Markdown",
    ),
    (
        "suites/mime4j/*.xml",
        "mime4j's expected tree of the `.msg` of the same name, in XML: the third oracle \
         (entity_trees_match_mime4j), not a message",
    ),
];

/// The mbox files of several messages, each with how it is read. Every other file that
/// `mimebase scan` would read as an mbox (one that starts with a `From ` line) holds one
/// message, and is compared as a message file, as the oracles read it.
const MBOXES: &[(&str, &str)] = &[(
    "suites/mimekit/content-length.mbox.txt",
    "MimeKit's test mbox: 29 messages after Netscape's `From - ` lines, each with a \
     Content-Length field; no line of a body starts with `From `, so the readers that split at \
     `From ` lines (ours, Python's `mailbox.mbox`, GMime's, which ignores Content-Length unless \
     told otherwise) find the 29 messages MimeKit's summary of the file lists",
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
        // Archive members are entities of ours that no MIME parser has: the oracles stop at
        // the archive's part.
        .filter(|e| e.kind != EntityKind::Member)
        .map(|e| {
            let kind = match e.kind {
                EntityKind::Message => "message",
                EntityKind::BodyPart => "body_part",
                EntityKind::Member => "member",
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

/// What an oracle gives for one message: its tree, `None` where it reads no message, and the
/// text of each `text/html` part it gives the text of, by part.
struct Theirs {
    tree: Option<Tree>,
    html: HashMap<String, String>,
}

/// A file given to the oracles: its path, and the number of messages we read in it where it is
/// one of [`MBOXES`] (the oracles read it as an mbox), `None` for a message file.
struct OracleFile {
    path: PathBuf,
    mbox: Option<usize>,
}

impl OracleFile {
    fn message(path: PathBuf) -> Self {
        OracleFile { path, mbox: None }
    }
}

/// An oracle's entities (a JSON list, or `null` where it reads no message).
fn theirs(entities: &serde_json::Value) -> Theirs {
    let Some(entities) = entities.as_array() else {
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
}

/// The oracle's trees of the messages of `files`, in order (an mbox's messages in the order
/// of the file), from one run of `script` (in `tests/support/`) by `python`. An mbox in
/// which the oracle finds another number of messages than we do fails the test: the trees
/// could not be paired.
fn oracle(python: &str, script: &str, files: &[OracleFile]) -> Vec<Theirs> {
    let script = root().join("tests/support").join(script);
    let mut command = Command::new(python);
    command.arg(&script);
    for file in files {
        if file.mbox.is_some() {
            command.arg("--mbox");
        }
        command.arg(&file.path);
    }
    let output = command.output().unwrap_or_else(|e| {
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
    assert_eq!(
        text.lines().count(),
        files.len(),
        "one line per file:\n{text}"
    );
    let mut trees = Vec::new();
    for (line, file) in text.lines().zip(files) {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["file"].as_str(), file.path.to_str(), "{line}");
        match file.mbox {
            None => trees.push(theirs(&value["entities"])),
            Some(ours) => {
                let messages = value["messages"].as_array().unwrap();
                assert_eq!(
                    messages.len(),
                    ours,
                    "{} reads {} messages in {}, we read {ours}",
                    script.display(),
                    messages.len(),
                    file.path.display()
                );
                trees.extend(messages.iter().map(theirs));
            }
        }
    }
    trees
}

/// Python's trees of the messages of `files`, in order, from one run of `email_tree.py`.
fn pythons(files: &[OracleFile]) -> Vec<Tree> {
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

/// One message to compare: its name in the tables (its file's path below `corpus/` or
/// `tests/data/`, with `#N` after it for the Nth message of an mbox), and its bytes.
struct Sample {
    name: String,
    raw: Vec<u8>,
}

/// Every message, and the files to give the oracles for them (an mbox gives several
/// messages, in order).
struct Messages {
    samples: Vec<Sample>,
    files: Vec<OracleFile>,
}

/// Whether `name` is `pattern`, where a `*` in `pattern` stands for a file name.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        Some((prefix, suffix)) => name
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|middle| !middle.contains('/')),
        None => pattern == name,
    }
}

/// The messages of the mbox file `raw`, split as `mimebase scan` splits it.
fn split_mbox(name: &str, raw: &[u8]) -> Vec<Vec<u8>> {
    Mbox::new(name.to_owned(), raw, u64::MAX)
        .map(|message| match message.input {
            mailbox::Input::Bytes(bytes) => bytes,
            mailbox::Input::Error(kind, why) => panic!("{name}: {kind:?}: {why}"),
        })
        .collect()
}

/// Every message below the three directories, with the files that hold them; `None` when the
/// corpus is absent (the test then skips: the lists of known differences name its messages).
#[track_caller]
fn messages() -> Option<Messages> {
    let corpus = corpus_or_skip("")?;
    let mut found = Messages {
        samples: Vec::new(),
        files: Vec::new(),
    };
    let mut skipped = HashSet::new();
    let mut mboxes = HashSet::new();
    for (dir, under) in [
        (corpus.clone(), corpus.join("messages")),
        (corpus.clone(), corpus.join("suites")),
        (
            root().join("tests/data"),
            root().join("tests/data/tree-cases"),
        ),
    ] {
        for path in files_under(&under) {
            let name = path.strip_prefix(&dir).unwrap().display().to_string();
            if let Some((pattern, _)) = NOT_MESSAGES.iter().find(|(p, _)| matches(p, &name)) {
                skipped.insert(*pattern);
                continue;
            }
            let raw = std::fs::read(&path).unwrap();
            let listed = MBOXES.iter().any(|(file, _)| *file == name);
            let split = if is_mbox(&raw[..raw.len().min(MBOX_HEAD_BYTES)]) {
                split_mbox(&name, &raw)
            } else {
                Vec::new()
            };
            assert_eq!(
                listed,
                split.len() > 1,
                "{name}: an mbox of {} messages is listed in MBOXES, and only such a file",
                split.len()
            );
            if listed {
                mboxes.insert(name.clone());
                found.files.push(OracleFile {
                    path,
                    mbox: Some(split.len()),
                });
                for (index, raw) in split.into_iter().enumerate() {
                    let name = format!("{name}#{}", index + 1);
                    found.samples.push(Sample { name, raw });
                }
            } else {
                found.files.push(OracleFile::message(path));
                found.samples.push(Sample { name, raw });
            }
        }
    }
    for (pattern, reason) in NOT_MESSAGES {
        assert!(skipped.contains(pattern), "{pattern} is gone ({reason})");
    }
    for (file, reason) in MBOXES {
        assert!(mboxes.contains(*file), "{file} is gone ({reason})");
    }
    Some(found)
}

/// Where a message comes from, for the counts: `messages`, `tree-cases`, or the project
/// below `suites/`.
fn group(name: &str) -> &str {
    let mut ends = name.match_indices('/').map(|(at, _)| at);
    let first = ends.next().unwrap_or(name.len());
    match &name[..first] {
        "suites" => &name[..ends.next().unwrap_or(name.len())],
        top => top,
    }
}

/// Compares our tree of each message, as `view` shows it, with `oracle`'s (`None` where it
/// reads no message): every difference must be in `known`, and every entry of `known` must
/// still occur. At least `minimum` messages must have been compared.
fn compare(
    oracle: &str,
    samples: &[Sample],
    theirs: &[Option<Tree>],
    known: &[(&str, &str, &str, &str, Class)],
    view: fn(Tree) -> Tree,
    minimum: usize,
) {
    assert_eq!(samples.len(), theirs.len());
    let mut per_class: BTreeMap<Class, usize> = BTreeMap::new();
    // Per group: messages, and those with the same tree.
    let mut per_group: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut seen = HashSet::new();
    let mut unexplained = Vec::new();
    for (Sample { name, raw }, theirs) in samples.iter().zip(theirs) {
        let ours = view(ours(raw));
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
        let counts = per_group.entry(group(name)).or_default();
        counts.0 += 1;
        if found.is_empty() {
            counts.1 += 1;
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
    let agreeing: usize = per_group.values().map(|(_, same)| same).sum();
    let groups: Vec<String> = per_group
        .iter()
        .map(|(group, (all, same))| format!("{group} {same}/{all}"))
        .collect();
    eprintln!(
        "{oracle} differential: {} messages, {agreeing} with the same tree ({}); differences \
         per class: {per_class:#?}",
        samples.len(),
        groups.join(", ")
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
    assert!(samples.len() >= minimum, "{}", samples.len());
}

#[test]
fn entity_trees_match_python_email() {
    let Some(Messages { samples, files }) = messages() else {
        return;
    };
    let theirs: Vec<Option<Tree>> = pythons(&files).into_iter().map(Some).collect();
    compare("Python's email", &samples, &theirs, PYTHON, |t| t, 180);
}

#[test]
fn entity_trees_match_gmime() {
    let python = match gmime::python() {
        Ok(python) => python,
        Err(why) => {
            crate::support::skipped(&format!("the GMime differential: {why}"));
            return;
        }
    };
    let Some(Messages { samples, files }) = messages() else {
        return;
    };
    let theirs: Vec<Option<Tree>> = oracle(python, "gmime_tree.py", &files)
        .into_iter()
        .map(|theirs| theirs.tree)
        .collect();
    compare("GMime", &samples, &theirs, GMIME, |t| t, 180);
}

/// Each message of `suites/mime4j/` against the tree mime4j's parser is expected to give of it
/// (the `.xml` beside it), compared on its shape ([`mime4j::shapes`]).
#[test]
fn entity_trees_match_mime4j() {
    let Some(corpus) = corpus_or_skip("") else {
        return;
    };
    let dir = corpus.join("suites/mime4j");
    let names = |extension: &str| -> Vec<PathBuf> {
        files_under(&dir)
            .into_iter()
            .filter(|path| path.extension().is_some_and(|e| e == extension))
            .map(|path| path.with_extension(""))
            .collect()
    };
    assert_eq!(
        names("msg"),
        names("xml"),
        "each .msg has its .xml, and only those"
    );
    let samples: Vec<Sample> = messages()
        .unwrap()
        .samples
        .into_iter()
        .filter(|sample| sample.name.starts_with("suites/mime4j/"))
        .collect();
    let theirs: Vec<Option<Tree>> = samples
        .iter()
        .map(|sample| {
            let xml = Path::new(&sample.name).with_extension("xml");
            Some(mime4j::tree(&std::fs::read(corpus.join(xml)).unwrap()))
        })
        .collect();
    // The XML is read into trees with every shape: the comparison can fail.
    let mut shapes: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, node) in theirs.iter().flatten().flatten() {
        *shapes.entry(node.content_type.as_str()).or_default() += 1;
    }
    eprintln!("entities in mime4j's expected trees, by shape: {shapes:?}");
    assert!(
        shapes.len() == 3 && shapes.values().all(|n| *n >= 10),
        "{shapes:?}"
    );
    compare(
        "mime4j's expected XML",
        &samples,
        &theirs,
        MIME4J,
        mime4j::shapes,
        45,
    );
}

/// Where GMime and we both have a `text/html` part of a message of `tree-cases/`, we read the
/// same text: the body after a header whose first line is no field, an HTML part behind a
/// `Content-Type` whose `;` was lost, a uuencoded one, a message whose first line is `From :`.
#[test]
fn html_parts_read_as_gmime_reads_them() {
    let python = match gmime::python() {
        Ok(python) => python,
        Err(why) => {
            crate::support::skipped(&format!("the GMime comparison of HTML parts: {why}"));
            return;
        }
    };
    let cases = files_under(&root().join("tests/data/tree-cases"));
    let files: Vec<OracleFile> = cases.iter().cloned().map(OracleFile::message).collect();
    let theirs = oracle(python, "gmime_tree.py", &files);
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
    let theirs = pythons(&[OracleFile::message(path)]);
    pretty_assertions::assert_eq!(summary(&theirs[0]), expected, "Python's email");
}
