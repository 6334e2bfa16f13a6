//! Running the `mimebase` binary as a user runs it, for the command-line tests.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary Cargo built for these tests.
pub const MIMEBASE: &str = env!("CARGO_BIN_EXE_mimebase");

/// Runs `mimebase ARGS` in the crate's directory with `stdin` on standard input.
pub fn mimebase(args: &[&str], stdin: &[u8]) -> Output {
    output(&mut command(MIMEBASE, args), stdin)
}

/// Runs `mimebase ARGS` in `dir` with `stdin` on standard input.
pub fn mimebase_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    output(command(MIMEBASE, args).current_dir(dir), stdin)
}

/// Runs `program ARGS` in the crate's directory with `stdin` on standard input.
pub fn run(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    output(&mut command(program, args), stdin)
}

/// `program ARGS` to run in the crate's directory, without the colour variables of the
/// environment the tests run in (`NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`), so that output
/// does not depend on the developer's shell.
pub fn command(program: &str, args: &[&str]) -> Command {
    let mut command = Command::new(program);
    command
        .args(args)
        .current_dir(super::root())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

/// Runs `command` with `stdin` on standard input, written by a thread of its own so that a
/// large input and a large output cannot wait on each other, and collects its output.
pub fn output(command: &mut Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // A usage error ends the process before it reads standard input: a broken pipe is no
    // failure here (what the process printed tells).
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    output
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error, which must be UTF-8.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Standard output read as NDJSON: one JSON value per line.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// `mimebase ARGS` in `dir`, and its peak resident memory in KiB as `/usr/bin/time -f %M`
/// measures it; `None`, said as a skipped measure, where that program is missing.
pub fn measured_in(dir: &Path, args: &[&str]) -> (Output, Option<u64>) {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        super::skipped("/usr/bin/time is missing: peak memory not measured");
        let output = Command::new(MIMEBASE)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        return (output, None);
    }
    let output = Command::new(time)
        .args(["-f", "%M", "-o", "rss", MIMEBASE])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    // `time` writes "Command exited with non-zero status 1" first when it is not 0.
    let written = std::fs::read_to_string(dir.join("rss")).unwrap();
    let rss = written.lines().last().unwrap().trim().parse().unwrap();
    (output, Some(rss))
}
