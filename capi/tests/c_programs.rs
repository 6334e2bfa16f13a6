//! The C library as C programs see it: installed with `make install` into a temporary prefix,
//! its header compiled as C99 with every warning an error, programs written in C
//! (`tests/c/*.c`) built with `pkg-config --cflags --libs mimebase` and run under valgrind
//! (leaks, reads of freed or unowned memory, uninitialized values), and their output compared
//! with what `mimebase scan` prints for the same messages.
//!
//! The library and the `mimebase` binary are built by nested `cargo build` runs in the profile
//! of this test (a no-op when they are current). valgrind is required where it can be had:
//! when it is missing the programs run without it, and each test says so on standard error.

// Test code may unwrap, index and panic: a failure is the verdict. The crate's `[lints]` deny
// these for every target, and clippy.toml exempts only `#[test]` functions, not the helpers.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use mimebase::Resolver;
use serde_json::Value;

/// The gate in front of the test corpus that the root package's tests use too: a missing
/// corpus skips the test, with one line on standard error, or fails it under
/// `MIMEBASE_REQUIRE_CORPUS`.
#[path = "../../tests/support/corpus.rs"]
mod corpus;

/// What every test uses: the installed library, the compiled C programs, the `mimebase`
/// binary.
struct Setup {
    /// Holds the prefix and the programs; removed at exit.
    _dir: tempfile::TempDir,
    /// The prefix `make install` installed into.
    prefix: PathBuf,
    /// The compiled C programs, by name.
    programs: PathBuf,
    /// The `mimebase` command line, the oracle of the JSON records.
    scan: PathBuf,
    /// valgrind, when it is installed.
    valgrind: Option<PathBuf>,
}

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The repository's sample messages.
fn samples() -> Vec<PathBuf> {
    files_in(&crate_dir().join("../samples"), |path| {
        path.extension() == Some(OsStr::new("eml"))
    })
}

/// Every file below the test corpus's `subdirectories` (`../shared/corpus`, beside the
/// repository); `None` when the corpus is absent (the test then skips).
#[track_caller]
fn corpus(subdirectories: &[&str]) -> Option<Vec<PathBuf>> {
    let root = corpus::corpus_or_skip(&crate_dir().join(".."), "")?;
    Some(
        subdirectories
            .iter()
            .flat_map(|sub| files_in(&root.join(sub), |_| true))
            .collect(),
    )
}

/// Every file under `dir` that `keep` keeps, sorted.
fn files_in(dir: &Path, keep: impl Fn(&Path) -> bool + Copy) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files_in(&path, keep));
        } else if keep(&path) {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Runs `command`, failing with its output when it fails.
fn run(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("cannot run {command:?}: {error}"));
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn find_program(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|path| path.is_file())
    })
}

/// The flags `pkg-config` gives for mimebase, from the installed `.pc`.
fn pkg_config(setup: &Setup, arguments: &[&str]) -> Vec<String> {
    let output = run(Command::new("pkg-config")
        .args(arguments)
        .arg("mimebase")
        .env("PKG_CONFIG_PATH", setup.prefix.join("lib/pkgconfig")));
    String::from_utf8(output.stdout)
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

/// The warnings every C file is compiled with: C99, all warnings, errors.
const C_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        // This test runs from <target>/<profile>/deps/; the library is built there.
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.parent().unwrap().parent().unwrap();
        let target_dir = profile_dir.parent().unwrap();
        let profile = match profile_dir.file_name().and_then(OsStr::to_str).unwrap() {
            "debug" => "dev",
            other => other,
        };
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let dir = tempfile::tempdir().unwrap();
        let prefix = dir.path().join("prefix");
        run(Command::new("make")
            .arg("-C")
            .arg(crate_dir())
            .arg("--no-print-directory")
            .arg("install")
            .arg(format!("PROFILE={profile}"))
            .arg(format!("PREFIX={}", prefix.display()))
            .arg(format!("TARGET_DIR={}", target_dir.display()))
            .env("CARGO", &cargo));
        run(Command::new(&cargo)
            .args(["build", "--locked", "-p", "mimebase", "--bin", "mimebase"])
            .args(["--profile", profile])
            .env("CARGO_TARGET_DIR", target_dir));
        let scan = profile_dir.join("mimebase");
        let valgrind = find_program("valgrind");
        let setup = Setup {
            prefix,
            programs: dir.path().join("programs"),
            scan,
            valgrind,
            _dir: dir,
        };
        std::fs::create_dir(&setup.programs).unwrap();
        let cflags = pkg_config(&setup, &["--cflags"]);
        let libs = pkg_config(&setup, &["--libs"]);
        for name in ["dump", "errors", "threads", "version"] {
            run(Command::new("cc")
                .args(C_FLAGS)
                .args(&cflags)
                .arg("-o")
                .arg(setup.programs.join(name))
                .arg(crate_dir().join(format!("tests/c/{name}.c")))
                .args(&libs)
                .arg("-pthread"));
        }
        setup
    })
}

/// Runs the C program `name` with `arguments`, linked with the installed shared library, under
/// valgrind when there is one; returns its standard output. Fails when the program fails or
/// valgrind finds an error (a leak included).
fn run_c(name: &str, arguments: &[&OsStr]) -> Vec<u8> {
    let setup = setup();
    let program = setup.programs.join(name);
    let mut command = match &setup.valgrind {
        Some(valgrind) => {
            let mut command = Command::new(valgrind);
            command
                .args(["--error-exitcode=99", "--leak-check=full"])
                .args(["--errors-for-leak-kinds=definite,indirect,possible"])
                .arg(&program);
            command
        }
        None => {
            eprintln!(
                "{name}: valgrind is not installed: run without it (memory errors unchecked)"
            );
            Command::new(&program)
        }
    };
    command
        .args(arguments)
        .env("LD_LIBRARY_PATH", setup.prefix.join("lib"));
    let output = run(&mut command);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if setup.valgrind.is_some() {
        // valgrind's verdict, as it words it, for the test's log.
        let summary: Vec<&str> = stderr
            .lines()
            .filter(|line| {
                [
                    "ERROR SUMMARY",
                    "definitely lost",
                    "in use at exit",
                    "All heap blocks",
                ]
                .iter()
                .any(|part| line.contains(part))
            })
            .collect();
        eprintln!("{name} under valgrind:\n{}", summary.join("\n"));
        assert!(
            stderr.contains("ERROR SUMMARY: 0 errors from 0 contexts"),
            "{stderr}"
        );
    }
    output.stdout
}

/// What `mimebase scan` prints for each of `files` read as one message, with `options`
/// (command-line flags), by file: the files are linked into a Maildir, whose files are one
/// message each whatever their first bytes (as the C library reads its input), and `path`
/// is then set to `-`, which the C library writes.
fn scan_lines(files: &[PathBuf], options: &[&str]) -> Vec<Vec<u8>> {
    let setup = setup();
    let maildir = tempfile::tempdir().unwrap();
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir(maildir.path().join(sub)).unwrap();
    }
    let mut by_path = BTreeMap::new();
    for (index, file) in files.iter().enumerate() {
        let link = maildir.path().join(format!("cur/{index}"));
        std::os::unix::fs::symlink(file.canonicalize().unwrap(), &link).unwrap();
        by_path.insert(link.to_str().unwrap().to_owned(), index);
    }
    let output = run(Command::new(&setup.scan)
        .arg("scan")
        .args(options)
        .arg(maildir.path()));
    let mut lines = vec![Vec::new(); files.len()];
    for line in output.stdout.split(|&byte| byte == b'\n') {
        if line.is_empty() {
            continue;
        }
        let value: Value = serde_json::from_slice(line).unwrap();
        let path = value["path"].as_str().unwrap();
        let index = by_path[path];
        assert_eq!(value["format"], "file", "{path}");
        // The path is plain ASCII, written as it is.
        let prefix = format!("{{\"type\":\"message\",\"path\":\"{path}\",");
        let rest = line.strip_prefix(prefix.as_bytes()).unwrap();
        lines[index] = [&b"{\"type\":\"message\",\"path\":\"-\","[..], rest].concat();
    }
    for (file, line) in files.iter().zip(&lines) {
        assert!(
            !line.is_empty(),
            "scan printed no line for {}",
            file.display()
        );
    }
    lines
}

/// The C library's URL records as `dump` prints them, from the JSON record: part, source,
/// reference, resolved, unresolved, base, base source, target part.
fn url_fields(url: &Value) -> Vec<Value> {
    vec![
        url["part"].clone(),
        url["source"].clone(),
        url["reference"].clone(),
        url["resolved"].clone(),
        url.get("unresolved").cloned().unwrap_or(Value::Null),
        url["base"]["url"].clone(),
        url["base"]["source"].clone(),
        url.get("target")
            .map_or(Value::Null, |target| target["part"].clone()),
    ]
}

/// The entity records as `dump` prints them, from the JSON record, with the summary of a
/// message entity (`summary`: the report's for the root, the record's own for an encapsulated
/// message; four nulls for a body part), and how an encrypted file was opened (the numbers of
/// `mimebase_opened`, and the part stating the password).
fn entity_fields(entity: &Value, summary: Option<&Value>) -> Vec<Value> {
    let document = entity.get("document");
    let said = |key: &str| summary.map_or(Value::Null, |summary| summary[key].clone());
    vec![
        entity["part"].clone(),
        entity["kind"].clone(),
        entity["parent"].clone(),
        entity["content_type"].clone(),
        entity["base"]["url"].clone(),
        entity["base"]["source"].clone(),
        entity["header_base"]["url"].clone(),
        entity["header_base"]["source"].clone(),
        document.map_or(Value::Null, |d| d["kind"].clone()),
        document.map_or(Value::Null, |d| d["by"].clone()),
        Value::from(u8::from(
            document.is_some_and(|d| d["attachment"] == Value::Bool(true)),
        )),
        said("subject"),
        said("from"),
        said("date"),
        said("message_id"),
        Value::from(match entity["opened"]["with"].as_str() {
            None => 0,
            Some("empty") => 1,
            Some(_) => 2,
        }),
        entity["opened"]["part"].clone(),
    ]
}

/// Whether the base decided where `url` (a record of the JSON) leads, found another way than
/// the library's: the same reference resolved against a base of a scheme of its own, which
/// only an absolute reference is not changed by, leads elsewhere (or nowhere).
fn base_decided_by_another_base(url: &Value) -> bool {
    let (Some(resolved), Some(_)) = (url["resolved"].as_str(), url["base"]["url"].as_str()) else {
        return false;
    };
    let resolver: Resolver = url["resolver"].as_str().unwrap().parse().unwrap();
    let reference = url["reference"].as_str().unwrap();
    let other = resolver.resolve("x-mimebase-oracle://oracle.invalid/o/p/q", reference);
    other.ok().as_deref() != Some(resolved)
}

/// Runs `dump` over `files` with the C options `c_options` and checks, for every file, that
/// the JSON record equals `mimebase scan`'s line with `scan_options`, and that the records
/// read through the accessors say what the JSON says. Returns the records, by file.
fn dump_matches_scan(files: &[PathBuf], c_options: &[&str], scan_options: &[&str]) -> Vec<Value> {
    let mut arguments: Vec<&OsStr> = Vec::new();
    for option in c_options {
        arguments.push(OsStr::new("-o"));
        arguments.push(OsStr::new(option));
    }
    arguments.extend(files.iter().map(|file| file.as_os_str()));
    let output = run_c("dump", &arguments);
    let expected = scan_lines(files, scan_options);
    let lines: Vec<&[u8]> = output
        .split(|&byte| byte == b'\n')
        .filter(|line| !line.is_empty())
        .collect();
    assert_eq!(lines.len(), 2 * files.len());
    let mut all_records = Vec::new();
    let mut decided = 0;
    for ((file, scan_line), pair) in files.iter().zip(&expected).zip(lines.chunks(2)) {
        let (json, records) = (pair[0], pair[1]);
        assert!(
            json == scan_line.as_slice(),
            "{}: the C library's JSON differs from scan's:\n{}\n{}",
            file.display(),
            String::from_utf8_lossy(json),
            String::from_utf8_lossy(scan_line)
        );
        let report: Value = serde_json::from_slice(json).unwrap();
        let records: Value = serde_json::from_slice(records).unwrap();
        assert_eq!(
            records["complete"],
            Value::from(u8::from(report["complete"] == Value::Bool(true))),
            "{}",
            file.display()
        );
        let entities: Vec<Vec<Value>> = report["entities"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, entity)| {
                let summary = if i == 0 {
                    Some(&report["summary"])
                } else {
                    entity.get("summary")
                };
                entity_fields(entity, summary)
            })
            .collect();
        let c_entities: Vec<Vec<Value>> =
            serde_json::from_value(records["entities"].clone()).unwrap();
        assert_eq!(c_entities, entities, "{}", file.display());
        let urls = report["urls"].as_array().unwrap();
        let c_urls: Vec<Vec<Value>> = serde_json::from_value(records["urls"].clone()).unwrap();
        assert_eq!(c_urls.len(), urls.len(), "{}", file.display());
        for (c_url, url) in c_urls.iter().zip(urls) {
            assert_eq!(c_url[..8], url_fields(url)[..], "{}", file.display());
            let oracle = base_decided_by_another_base(url);
            assert_eq!(
                c_url[8],
                Value::from(u8::from(oracle)),
                "{}: base_decided of {url}",
                file.display()
            );
            decided += usize::from(oracle);
            assert_eq!(
                c_url[10],
                url.get("ignored").cloned().unwrap_or(Value::Null),
                "{}: ignored of {url}",
                file.display()
            );
        }
        all_records.push(records);
    }
    eprintln!(
        "dump: {} files, {} URL records ({decided} decided by a base), JSON equal to scan's",
        files.len(),
        all_records
            .iter()
            .map(|records| records["urls"].as_array().unwrap().len())
            .sum::<usize>()
    );
    all_records
}

#[test]
fn the_header_compiles_as_c99_with_every_warning_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("header.c");
    std::fs::write(
        &source,
        "#include <mimebase.h>\nint main(void) { return 0; }\n",
    )
    .unwrap();
    run(Command::new("cc")
        .args(C_FLAGS)
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg("-fsyntax-only")
        .arg(&source));
    // And as C++, which it declares `extern "C"` for.
    match find_program("c++") {
        Some(cxx) => {
            run(Command::new(cxx)
                .args(["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"])
                .args(["-x", "c++", "-fsyntax-only", "-I"])
                .arg(crate_dir().join("include"))
                .arg(&source));
        }
        None => eprintln!("no c++ compiler: the header is not compiled as C++"),
    }
}

/// The functions the header declares.
fn declared_functions() -> BTreeSet<String> {
    let header = std::fs::read_to_string(crate_dir().join("include/mimebase.h")).unwrap();
    let mut names = BTreeSet::new();
    // Declarations start in the first column; comments are indented.
    for line in header.lines().filter(|line| !line.starts_with(' ')) {
        for (at, _) in line.match_indices("mimebase_") {
            let name: String = line[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if line[at + name.len()..].starts_with('(') {
                names.insert(name);
            }
        }
    }
    names
}

#[test]
fn the_shared_library_exports_the_header_s_functions_and_nothing_else() {
    let setup = setup();
    let library = setup.prefix.join("lib/libmimebase.so");
    let output = run(Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&library));
    let exported: BTreeSet<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_whitespace().last().map(str::to_owned))
        .collect();
    for symbol in &exported {
        assert!(symbol.starts_with("mimebase_"), "{symbol} is exported");
    }
    assert_eq!(exported, declared_functions());
    let dynamic = run(Command::new("readelf").arg("-d").arg(&library));
    assert!(
        String::from_utf8_lossy(&dynamic.stdout).contains("Library soname: [libmimebase.so.0]"),
        "{}",
        String::from_utf8_lossy(&dynamic.stdout)
    );
}

#[test]
fn a_program_links_with_pkg_config_shared_and_static() {
    let setup = setup();
    let output = run_c("version", &[]);
    let expected = format!(
        "libmimebase {}: http://example.com/news/today.html\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(String::from_utf8(output).unwrap(), expected);

    // Statically: the archive, and what `pkg-config --static` says it needs.
    let program = setup.programs.join("version-static");
    let libs: Vec<String> = pkg_config(setup, &["--static", "--libs"])
        .into_iter()
        .filter(|flag| flag != "-lmimebase" && !flag.starts_with("-L"))
        .collect();
    run(Command::new("cc")
        .args(C_FLAGS)
        .args(pkg_config(setup, &["--cflags"]))
        .arg("-o")
        .arg(&program)
        .arg(crate_dir().join("tests/c/version.c"))
        .arg(setup.prefix.join("lib/libmimebase.a"))
        .args(&libs));
    let dynamic = run(Command::new("readelf").arg("-d").arg(&program));
    assert!(!String::from_utf8_lossy(&dynamic.stdout).contains("libmimebase"));
    let output = run(&mut Command::new(&program));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}

#[test]
fn error_paths() {
    let sample = crate_dir().join("../samples/basestriker.eml");
    run_c("errors", &[sample.as_os_str()]);
}

#[test]
fn threads_on_separate_reports_and_one_shared() {
    let samples = samples();
    let arguments: Vec<&OsStr> = samples.iter().map(|path| path.as_os_str()).collect();
    run_c("threads", &arguments);
}

#[test]
fn the_samples_match_scan() {
    dump_matches_scan(&samples(), &[], &[]);
    dump_matches_scan(
        &samples(),
        &[
            "resolver=whatwg",
            "profile=mhtml",
            "retrieval_url=http://retrieval.example/d/",
        ],
        &[
            "--resolver",
            "whatwg",
            "--profile",
            "mhtml",
            "--retrieval-url",
            "http://retrieval.example/d/",
        ],
    );
}

#[test]
fn the_corpus_matches_scan() {
    let Some(all) = corpus(&["messages", "suites"]) else {
        return;
    };
    dump_matches_scan(&all, &[], &[]);
    dump_matches_scan(
        &corpus(&["messages"]).unwrap(),
        &["resolver=whatwg"],
        &["--resolver", "whatwg"],
    );
}

#[test]
fn the_files_a_reader_opens_match_scan() {
    // The filters' messages with their links inside files, one of them an encrypted PDF that
    // the password its text states opens.
    let files = files_in(&crate_dir().join("../tests/data/filters/files"), |path| {
        path.extension().is_some_and(|e| e == "eml")
    });
    assert_eq!(files.len(), 6);
    let records = dump_matches_scan(&files, &[], &[]);
    // The C records' entities: [..., opened, stating part] at their end.
    let stated: Vec<&Value> = records
        .iter()
        .flat_map(|record| record["entities"].as_array().unwrap())
        .filter(|entity| entity[15] == 2)
        .map(|entity| &entity[16])
        .collect();
    assert_eq!(stated, [&Value::from("1")]);
}

#[test]
fn image_sources_are_flagged() {
    let message = crate_dir().join("tests/data/images.eml");
    let records = dump_matches_scan(std::slice::from_ref(&message), &[], &[]);
    let mut flagged = BTreeMap::new();
    for url in records[0]["urls"].as_array().unwrap() {
        let source = url[1].as_str().unwrap().to_owned();
        let is_image = url[9].as_u64().unwrap() == 1;
        assert_eq!(
            *flagged.entry(source.clone()).or_insert(is_image),
            is_image,
            "{source}"
        );
    }
    let expected: BTreeMap<String, bool> = [
        ("header:Content-Base", false),
        ("header:List-Unsubscribe", false),
        ("html:a@href", false),
        ("html:link@href", false),
        ("html:img@src", true),
        ("html:img@srcset", true),
        ("html:source@srcset", true),
        ("html:input@src", true),
        ("html:video@poster", true),
        ("html:video@src", false),
        ("html:body@background", true),
        ("html:td@background", true),
        ("html:image@href", true),
        ("html:div@style", false),
        ("html:style", false),
        ("html:iframe@src", false),
        ("html:form@action", false),
    ]
    .into_iter()
    .map(|(source, image)| (source.to_owned(), image))
    .collect();
    assert_eq!(flagged, expected);
}
