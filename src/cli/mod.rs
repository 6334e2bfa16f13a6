//! The command line: arguments in, library calls, text out. stdout carries data, stderr
//! diagnostics prefixed `mimebase:`; exit 0 on success, 2 when an input could not be read; a
//! closed pipe ends quietly (SPEC §6).

mod args;
mod extract;
mod output;
mod scan;

use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use args::{Args, Command, InputArgs, ResolveArgs, RewriteArgs};
use mimebase::{Report, analyze};

/// Writes one report in one output format.
type Printer = fn(&mut dyn Write, &str, &Report) -> io::Result<()>;

/// Runs the command line and returns the process's exit code.
pub(crate) fn run() -> ExitCode {
    let args = Args::parse();
    let (inputs, print): (&InputArgs, Printer) = match &args.command {
        Command::Inspect(inputs) if inputs.json => (inputs, output::inspect_json),
        Command::Inspect(inputs) => (inputs, output::inspect),
        Command::Urls(inputs) if inputs.json => (inputs, output::urls_json),
        Command::Urls(inputs) => (inputs, output::urls),
        Command::Resolve(resolve) => return run_resolve(resolve),
        Command::Rewrite(rewrite) => return run_rewrite(rewrite),
        Command::Scan(scan) => return scan::run(scan),
        Command::Extract(extract) => return extract::run(extract),
    };
    let options = inputs.resolution.options();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let stdin_only = [Path::new("-").to_path_buf()];
    let files = if inputs.files.is_empty() {
        &stdin_only[..]
    } else {
        &inputs.files[..]
    };
    for file in files {
        let name = file.display().to_string();
        let raw = match read_input(file) {
            Ok(raw) => raw,
            Err(error) => {
                eprintln!("mimebase: {name}: {error}");
                failed = true;
                continue;
            }
        };
        let report = analyze(&raw, &options);
        if let Err(error) = print(&mut out, &name, &report).and_then(|()| out.flush()) {
            return write_failed(&error);
        }
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `mimebase rewrite`: the rewritten message on stdout, each part left unchanged on stderr.
fn run_rewrite(args: &RewriteArgs) -> ExitCode {
    let options = args.resolution.options();
    let name = args.file.display().to_string();
    let raw = match read_input(&args.file) {
        Ok(raw) => raw,
        Err(error) => {
            eprintln!("mimebase: {name}: {error}");
            return ExitCode::from(2);
        }
    };
    let rewritten = mimebase::rewrite(&raw, &options);
    for diagnostic in &rewritten.report.diagnostics {
        if diagnostic.kind == mimebase::DiagnosticKind::RewriteSkipped {
            let part = diagnostic.part.as_ref().map_or("", |p| p.as_str());
            eprintln!("mimebase: {name}: part {part}: {}", diagnostic.message);
        }
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if let Err(error) = out.write_all(&rewritten.message).and_then(|()| out.flush()) {
        return write_failed(&error);
    }
    ExitCode::SUCCESS
}

/// `mimebase resolve`: one line per reference, an empty line (and exit 2) for a failure.
fn run_resolve(args: &ResolveArgs) -> ExitCode {
    let resolver = mimebase::Resolver::from(args.resolver);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for reference in &args.references {
        let line = match resolver.resolve(&args.base, reference) {
            Ok(url) => url,
            Err(error) => {
                eprintln!(
                    "mimebase: {reference:?} against {:?} ({}): {error}",
                    args.base,
                    resolver.name()
                );
                failed = true;
                String::new()
            }
        };
        if let Err(error) = writeln!(out, "{line}") {
            return write_failed(&error);
        }
    }
    if let Err(error) = out.flush() {
        return write_failed(&error);
    }
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// The exit after a failed write: quiet success on a closed pipe (SPEC §6), else 2.
fn write_failed(error: &io::Error) -> ExitCode {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("mimebase: writing output: {error}");
    ExitCode::from(2)
}

/// The bytes of `path`, or of standard input for `-`.
fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    if path == Path::new("-") {
        let mut raw = Vec::new();
        io::stdin().lock().read_to_end(&mut raw)?;
        Ok(raw)
    } else {
        std::fs::read(path)
    }
}
