//! The third-party readers that the tests of the file formats compare with: Python modules
//! (`pypdf`, `icalendar`, `python-docx`, `openpyxl`, `odfpy`, and the standard library's
//! `configparser`, `plistlib`, `zipfile`) and programs (`qpdf`), which `.ci/run` installs.
//!
//! A test whose oracle is missing says so on one line (`skipped: …`) and returns; with
//! `MIMEBASE_REQUIRE_ORACLES` set, as in CI, it fails instead, so that CI runs every one.

use std::path::Path;
use std::process::Command;

use super::skipped;

/// The environment variable that makes a missing oracle a failure.
pub const REQUIRE: &str = "MIMEBASE_REQUIRE_ORACLES";

/// Reports that `what` is missing for `test`: a failure under [`REQUIRE`], else a `skipped:`
/// line.
#[track_caller]
fn missing(test: &str, what: &str) {
    let required = std::env::var_os(REQUIRE).is_some_and(|v| !v.is_empty() && v != "0");
    if required {
        panic!("{test}: {what} is missing and {REQUIRE} is set (.ci/run installs it)");
    }
    skipped(&format!("{test}: {what} is missing"));
}

/// The name of the running test, as libtest names its thread.
fn test_name() -> String {
    std::thread::current().name().unwrap_or("a test").to_owned()
}

/// `python3` when it can import every one of `modules`; else `None`, after saying so (see
/// the module docs).
#[track_caller]
pub fn python(modules: &[&str]) -> Option<&'static str> {
    let script = modules
        .iter()
        .map(|m| format!("import {m}"))
        .collect::<Vec<_>>()
        .join("; ");
    match Command::new("python3").args(["-c", &script]).output() {
        Ok(output) if output.status.success() => Some("python3"),
        Ok(output) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let last = stderr.lines().last().unwrap_or_default().to_owned();
            missing(
                &test_name(),
                &format!("Python's {} ({last})", modules.join(", ")),
            );
            None
        }
        Err(error) => {
            missing(&test_name(), &format!("python3 ({error})"));
            None
        }
    }
}

/// The program `name` when it runs (`name --version` succeeds); else `None`, after saying so.
#[track_caller]
pub fn program(name: &'static str) -> Option<&'static str> {
    match Command::new(name).arg("--version").output() {
        Ok(output) if output.status.success() => Some(name),
        _ => {
            missing(&test_name(), &format!("the program {name}"));
            None
        }
    }
}

/// Runs the Python `script` (its text) with `args`, and returns what it prints, as UTF-8;
/// panics with its standard error when it fails.
pub fn run_python(python: &str, script: &str, args: &[&Path]) -> String {
    let mut command = Command::new(python);
    command.arg("-c").arg(script).args(args);
    run(command)
}

/// Runs the Python script at `script` below the crate (`tests/support/…`) with `args`, and
/// returns what it prints, as UTF-8; panics with its standard error when it fails.
pub fn run_script(python: &str, script: &str, args: &[&std::ffi::OsStr]) -> String {
    let mut command = Command::new(python);
    command.arg(super::root().join(script)).args(args);
    run(command)
}

/// What `command` prints, as UTF-8; a panic with its standard error when it fails.
fn run(mut command: Command) -> String {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "the oracle failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}
