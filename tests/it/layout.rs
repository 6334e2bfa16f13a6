//! The library's layout, as its module docs describe it: data flows one way. The module graph of
//! `src/` (each top-level module of the library, and the `crate::` paths its files name outside
//! comments) has no circle; the vocabulary imports nothing; the resolvers import only the
//! vocabulary; the data model (`report`) imports only the vocabulary; and no source file (of
//! the library or of the C library in `capi/`) is over 900 lines, so that a file holds one
//! concern.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest a source file may be, in lines.
const MAX_LINES: usize = 900;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// `code` without its comments (`//…` to the end of the line, `/* … */`) and without the
/// contents of string and character literals, which may hold `crate::` as text.
fn code_only(code: &str) -> String {
    let bytes = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if let Some(raw) = rest.strip_prefix("r#\"") {
            i += 3 + raw.find("\"#").map_or(raw.len(), |end| end + 2);
            out.push_str("\"\"");
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && rest.as_bytes()[j] != b'"' {
                j += if rest.as_bytes()[j] == b'\\' { 2 } else { 1 };
            }
            i += (j + 1).min(rest.len());
            out.push_str("\"\"");
        } else if rest.starts_with("b'") || rest.starts_with('\'') {
            // A character literal ('x', '\n', b'"') or a lifetime ('a): only a literal closes.
            let start = usize::from(rest.starts_with('b')) + 1;
            let body = &rest[start..];
            let length = if let Some(escaped) = body.strip_prefix('\\') {
                escaped.find('\'').map(|end| end + 2)
            } else {
                body.char_indices()
                    .nth(1)
                    .filter(|&(_, c)| c == '\'')
                    .map(|(at, _)| at)
            };
            match length {
                Some(length) => {
                    i += start + length + 1;
                    out.push_str("' '");
                }
                None => {
                    i += 1;
                    out.push('\'');
                }
            }
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The top-level modules named by the `crate::` paths of `code`: `crate::a::b` names `a`, and
/// `crate::{a::x, b}` names `a` and `b`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        // `$crate::` in a macro names the crate too; any other identifier before it does not.
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.insert(first_segment(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            names.insert(first_segment(&item));
        } else {
            names.insert(first_segment(rest));
        }
    }
    names.remove("");
    names
}

fn first_segment(path: &str) -> String {
    path.trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The library's module graph: each top-level module (a file `src/x.rs` or a folder
/// `src/x/`) and the other top-level modules its files name. The binary (`src/main.rs`,
/// `src/cli/`) is another crate, whose `crate::` is the binary's own root: left out.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = src();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in rust_files(&src) {
        let relative = file.strip_prefix(&src).unwrap();
        let top = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap()
            .trim_end_matches(".rs")
            .to_owned();
        if top == "main" || top == "cli" || top == "lib" {
            continue;
        }
        let code = code_only(&fs::read_to_string(&file).unwrap());
        let names = graph.entry(top.clone()).or_default();
        for name in crate_paths(&code) {
            // A re-export at the crate root (`crate::Options`) would hide the module it comes
            // from: library code names that module (`crate::options::Options`).
            assert!(
                !name.starts_with(char::is_uppercase),
                "{}: `crate::{name}` names a root re-export; name its module",
                relative.display()
            );
            if name != top {
                names.insert(name);
            }
        }
    }
    graph
}

/// A circle in `graph`, if there is one, as the modules along it.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut circle = path[start..].to_vec();
            circle.push(node.to_owned());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_module_graph_has_no_circle() {
    let graph = module_graph();
    assert!(graph.len() > 10, "{graph:?}");
    assert_eq!(find_circle(&graph), None, "{graph:#?}");
}

#[test]
fn the_model_imports_only_the_vocabulary() {
    let graph = module_graph();
    let allowed: [(&str, &[&str]); 3] =
        [("vocab", &[]), ("url", &["vocab"]), ("report", &["vocab"])];
    for (module, may_import) in allowed {
        let imports = &graph[module];
        let extra: Vec<_> = imports
            .iter()
            .filter(|name| !may_import.contains(&name.as_str()))
            .collect();
        assert!(extra.is_empty(), "{module} imports {extra:?}");
    }
}

#[test]
fn no_source_file_is_over_900_lines() {
    // The library's sources, and the C library's (capi/, a crate of the workspace).
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = [src(), root.join("capi/src"), root.join("capi/tests")]
        .iter()
        .flat_map(|dir| rust_files(dir))
        .collect();
    assert!(files.iter().any(|file| file.starts_with(root.join("capi"))));
    let long: Vec<_> = files
        .into_iter()
        .map(|file| {
            let lines = fs::read_to_string(&file).unwrap().lines().count();
            (
                file.strip_prefix(root).unwrap().display().to_string(),
                lines,
            )
        })
        .filter(|&(_, lines)| lines > MAX_LINES)
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

/// The checks above rely on these helpers; each is shown to catch what it must.
#[test]
fn the_helpers_find_paths_and_circles() {
    let code = code_only(
        "use crate::{a::x, b::{c, d}};\n// crate::comment\nlet s = \"crate::text\";\n\
         let c = '\"'; fn f<'a>() { crate::e::g(); $crate::h::i!(); }\n/* crate::block */",
    );
    let found: Vec<_> = crate_paths(&code).into_iter().collect();
    assert_eq!(found, ["a", "b", "e", "h"]);
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", &["b"][..]),
        ("b", &["c"][..]),
        ("c", &["a"][..]),
        ("d", &[][..]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.iter().map(|s| s.to_string()).collect()))
    .collect();
    assert_eq!(
        find_circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let mut acyclic = graph.clone();
    acyclic.get_mut("c").unwrap().clear();
    assert_eq!(find_circle(&acyclic), None);
}
