//! Paths whose bytes are not UTF-8 (Latin-1 file names on Linux): every record names the file
//! it came from. `a\xff.eml` and `a\xfe.eml` are both `a\u{fffd}.eml` as UTF-8 strings; the
//! JSON's `path_bytes` and the text output's `\xHH` escapes give each one's bytes back, and the
//! test opens the file by them. The oracle for the names is the file system itself: the bytes
//! `std::fs::read_dir` lists, and the file each opens.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::cli::{MIMEBASE, command, json_lines, output, stdout};
use crate::support::workdir;

/// A message whose only base is `base` (in `Content-Base`), with one relative link.
fn message(base: &str) -> Vec<u8> {
    format!("Content-Base: {base}\nContent-Type: text/html\n\n<a href=\"x.html\">x</a>\n")
        .into_bytes()
}

/// The directory of the test: `a\xff.eml` (base `http://ff.example/`), `a\xfe.eml` (an mbox of
/// two messages, bases `http://fe1.example/` and `http://fe2.example/`) and `b.eml` (a UTF-8
/// name, base `http://b.example/`).
fn files(name: &str) -> PathBuf {
    let dir = workdir(name);
    fs::write(
        dir.join(OsStr::from_bytes(b"a\xff.eml")),
        message("http://ff.example/"),
    )
    .unwrap();
    let mbox = [
        &b"From x Mon Jan  1 00:00:00 2024\n"[..],
        &message("http://fe1.example/"),
        b"\nFrom y Mon Jan  1 00:00:01 2024\n",
        &message("http://fe2.example/"),
    ]
    .concat();
    fs::write(dir.join(OsStr::from_bytes(b"a\xfe.eml")), mbox).unwrap();
    fs::write(dir.join("b.eml"), message("http://b.example/")).unwrap();
    let mut listed: Vec<Vec<u8>> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_vec())
        .collect();
    listed.sort();
    assert_eq!(listed, [&b"a\xfe.eml"[..], b"a\xff.eml", b"b.eml"]);
    dir
}

/// The base of the message at `offset` of the file at `path` (bytes, relative to `dir`), read
/// from the file: what the record of that message must say.
fn base_in_file(dir: &Path, path: &[u8], offset: u64) -> String {
    let bytes = fs::read(dir.join(OsStr::from_bytes(path))).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let rest = &text[usize::try_from(offset).unwrap()..];
    let start = rest.find("Content-Base: ").unwrap() + "Content-Base: ".len();
    rest[start..].lines().next().unwrap().to_owned()
}

/// The path a JSON record names: `path_bytes` when present (then `path` must be its lossy
/// UTF-8 form), else `path`.
fn record_path(line: &Value) -> Vec<u8> {
    let path = line["path"].as_str().unwrap();
    match line.get("path_bytes") {
        Some(bytes) => {
            let bytes: Vec<u8> = bytes
                .as_array()
                .unwrap()
                .iter()
                .map(|b| u8::try_from(b.as_u64().unwrap()).unwrap())
                .collect();
            assert_eq!(String::from_utf8_lossy(&bytes), path);
            assert!(std::str::from_utf8(&bytes).is_err(), "{line}");
            bytes
        }
        None => path.as_bytes().to_vec(),
    }
}

/// Reads back a name escaped by the text output: `\\`, `\t`, `\n`, `\r`, `\xHH` (one byte),
/// `\u{H…}` (one character), every other character as it is.
fn unescape(text: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            continue;
        }
        match chars.next().unwrap() {
            '\\' => bytes.push(b'\\'),
            't' => bytes.push(b'\t'),
            'n' => bytes.push(b'\n'),
            'r' => bytes.push(b'\r'),
            'x' => {
                let hex: String = chars.by_ref().take(2).collect();
                bytes.push(u8::from_str_radix(&hex, 16).unwrap());
            }
            'u' => {
                let hex: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                let c = char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap();
                bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
            other => panic!("unknown escape \\{other} in {text:?}"),
        }
    }
    bytes
}

fn run(dir: &Path, args: &[&OsStr]) -> std::process::Output {
    let mut command = command(MIMEBASE, &[]);
    command.args(args).current_dir(dir);
    let output = output(&mut command, b"");
    assert!(output.status.success(), "{output:?}");
    output
}

const FF: &[u8] = b"a\xff.eml";
const FE: &[u8] = b"a\xfe.eml";

fn os(bytes: &[u8]) -> &OsStr {
    OsStr::from_bytes(bytes)
}

#[test]
fn scan_json_names_each_file_by_its_bytes() {
    let dir = files("scan");
    let lines = json_lines(&run(&dir, &[os(b"scan"), os(b".")]));
    let named: Vec<(Vec<u8>, u64, String)> = lines
        .iter()
        .map(|line| {
            assert_eq!(line["type"], "message", "{line}");
            let path = record_path(line);
            let offset = line["offset"].as_u64().unwrap();
            let base = line["entities"][0]["base"]["url"]
                .as_str()
                .unwrap()
                .to_owned();
            assert_eq!(base, base_in_file(&dir, &path, offset), "{line}");
            (path, offset, base)
        })
        .collect();
    let fe2 = named[1].1;
    assert_eq!(
        named,
        [
            (b"./a\xfe.eml".to_vec(), 0, "http://fe1.example/".to_owned()),
            (
                b"./a\xfe.eml".to_vec(),
                fe2,
                "http://fe2.example/".to_owned()
            ),
            (b"./a\xff.eml".to_vec(), 0, "http://ff.example/".to_owned()),
            (b"./b.eml".to_vec(), 0, "http://b.example/".to_owned()),
        ]
    );
    assert!(fe2 > 0);
    // A UTF-8 path has no `path_bytes`: lines are as they were before the field existed.
    assert!(lines[3].get("path_bytes").is_none(), "{}", lines[3]);
    assert_eq!(lines[0]["path"], "./a\u{fffd}.eml");
    assert_eq!(lines[2]["path"], "./a\u{fffd}.eml");
}

#[test]
fn unreadable_non_utf8_paths_name_themselves_in_error_records() {
    let dir = files("errors");
    let gone = OsString::from_vec(b"gone\xff.eml".to_vec());
    let mut command = command(MIMEBASE, &[]);
    command.arg("scan").arg(&gone).current_dir(&dir);
    let out = output(&mut command, b"");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["type"], "error");
    assert_eq!(record_path(&lines[0]), b"gone\xff.eml");
    // stderr names it as the text outputs do, with a name that reads back to the path.
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("mimebase: gone\\xff.eml: "), "{stderr}");
    // A symbolic link to nothing, passed over, is named the same way.
    std::os::unix::fs::symlink("nowhere", dir.join(OsStr::from_bytes(b"l\xff.eml"))).unwrap();
    let out = run(&dir, &[os(b"scan"), os(b"--quiet"), os(b".")]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("mimebase: ./l\\xff.eml: skipped: a symbolic link to nothing"),
        "{stderr}"
    );
}

#[test]
fn urls_with_filename_escapes_bytes_that_read_back_to_the_file() {
    let dir = files("urls");
    let out = run(
        &dir,
        &[os(b"urls"), os(b"-H"), os(FF), os(FE), os(b"b.eml")],
    );
    // Standard output is UTF-8 whatever the names.
    let text = stdout(&out);
    let mut names = Vec::new();
    for line in text.lines() {
        let (place, rest) = line.split_once('\t').unwrap();
        let (name, offset) = match place.rsplit_once(':') {
            Some((name, offset)) => (name, offset.parse::<u64>().unwrap()),
            None => (place, 0),
        };
        let path = unescape(name);
        let base = base_in_file(&dir, &path, offset);
        if rest.starts_with("http://") && rest.contains("x.html") {
            assert_eq!(rest, format!("{base}x.html\tx.html"), "{line}");
        }
        names.push(name.to_owned());
    }
    names.dedup();
    assert_eq!(names, ["a\\xff.eml", "a\\xfe.eml", "b.eml"]);
}

#[test]
fn inspect_names_each_file_in_text_and_json() {
    let dir = files("inspect");
    let text = stdout(&run(&dir, &[os(b"inspect"), os(FF), os(FE)]));
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(headings.len(), 3, "{text}");
    assert_eq!(headings[0], "== a\\xff.eml");
    assert_eq!(headings[1], "== a\\xfe.eml");
    assert!(headings[2].starts_with("== a\\xfe.eml at byte "), "{text}");
    for heading in headings {
        let name = heading
            .trim_start_matches("== ")
            .split(" at byte ")
            .next()
            .unwrap();
        assert!(fs::metadata(dir.join(OsStr::from_bytes(&unescape(name)))).is_ok());
    }
    let lines = json_lines(&run(&dir, &[os(b"inspect"), os(b"--json"), os(FF), os(FE)]));
    let named: Vec<(Vec<u8>, String)> = lines
        .iter()
        .map(|line| {
            let base = line["entities"][0]["base"]["url"]
                .as_str()
                .unwrap()
                .to_owned();
            let path = record_path(line);
            let offset = line.get("offset").and_then(Value::as_u64).unwrap_or(0);
            assert_eq!(base, base_in_file(&dir, &path, offset));
            (path, base)
        })
        .collect();
    assert_eq!(
        named,
        [
            (FF.to_vec(), "http://ff.example/".to_owned()),
            (FE.to_vec(), "http://fe1.example/".to_owned()),
            (FE.to_vec(), "http://fe2.example/".to_owned()),
        ]
    );
    let urls = json_lines(&run(&dir, &[os(b"urls"), os(b"--json"), os(FF)]));
    assert!(!urls.is_empty());
    for line in &urls {
        assert_eq!(record_path(line), FF);
    }
}
