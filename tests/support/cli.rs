//! Running the `mimebase` binary as a user runs it, for the command-line tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `mimebase ARGS` in the crate's directory with `stdin` on standard input.
pub fn mimebase(args: &[&str], stdin: &[u8]) -> Output {
    run(env!("CARGO_BIN_EXE_mimebase"), args, stdin)
}

/// Runs `program ARGS` in the crate's directory with `stdin` on standard input.
pub fn run(program: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A usage error ends the process before it reads standard input.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Standard output, which must be UTF-8.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}
