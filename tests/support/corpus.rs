//! The one gate in front of the test corpus, `../shared/corpus` beside the checkout: real mail,
//! saved pages and URL test vectors that other projects wrote, read in place and never copied
//! into the repository (CONTRIBUTING.md says what it holds and where each file came from).
//!
//! A fresh clone has no corpus: a test that needs it then skips, and says so in one line on
//! standard error. CI sets [`REQUIRE`], under which a missing corpus fails the test instead.
//!
//! Shared by the integration tests of the root package (`tests/support/mod.rs`) and of the C
//! library (`capi/tests/c_programs.rs`, through `#[path]`), so that both skip alike; it uses
//! nothing but the standard library.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The environment variable under which a missing corpus is an error: set to anything but
/// empty or `0`, a test that needs an absent corpus path fails instead of skipping. `.ci/run`
/// sets it.
pub const REQUIRE: &str = "MIMEBASE_REQUIRE_CORPUS";

/// `relative` below the corpus beside `repository` (the checkout's root directory), when it
/// exists. When it does not, the calling test is to return at once: this prints
/// `skipped: TEST: PATH is absent (see CONTRIBUTING.md)` on standard error and returns `None`,
/// or panics with the same words when [`REQUIRE`] is set.
///
/// The line is written to the process's standard error directly rather than with `eprintln!`:
/// libtest captures what the print macros write in a passing test and shows it only when the
/// test fails, but not what is written to the `Stderr` handle itself, so the line appears in
/// a plain `cargo test`. TEST is the name libtest gives the test's thread (the test's path
/// below the crate, as `cargo test` lists it), or the caller's file and line on any other
/// thread.
#[track_caller]
pub fn corpus_or_skip(repository: &Path, relative: &str) -> Option<PathBuf> {
    let path = repository.join("../shared/corpus").join(relative);
    if path.exists() {
        return Some(path);
    }
    let caller = std::panic::Location::caller();
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(name) if name != "main" => name.to_owned(),
        _ => format!("{}:{}", caller.file(), caller.line()),
    };
    let shown = lexically_normal(&path);
    let required = std::env::var_os(REQUIRE).is_some_and(|value| !value.is_empty() && value != "0");
    if required {
        panic!(
            "{test}: {} is absent and {REQUIRE} is set (see CONTRIBUTING.md)",
            shown.display()
        );
    }
    skipped(&format!(
        "{test}: {} is absent (see CONTRIBUTING.md)",
        shown.display()
    ));
    None
}

/// Says on standard error that a test, or part of one, is skipped: `skipped: WHY` in one line,
/// written to the `Stderr` handle itself so that a plain `cargo test` shows it (see
/// [`corpus_or_skip`]), in one write so that lines of tests running in parallel do not mix.
pub fn skipped(why: &str) {
    let _ = std::io::stderr().write_all(format!("skipped: {why}\n").as_bytes());
}

/// `path` with its `..` components applied to the components before them, without asking the
/// file system (the path does not exist): `/src/mimebase/../shared/corpus` reads
/// `/src/shared/corpus`.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
