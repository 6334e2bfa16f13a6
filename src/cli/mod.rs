//! The command line: arguments in, library calls, text out. stdout carries data, stderr
//! diagnostics prefixed `mimebase:`; a closed pipe ends quietly.
//!
//! Exit codes, as grep and ripgrep use them: 0 every input processed; 1 some input could not
//! be read or analyzed (each named on stderr, the others still processed); 2 a usage error
//! (nothing was processed) or output that could not be written (the run stopped there).

mod args;
mod extract;
mod html;
mod output;
mod rewrite;
mod scan;
mod size;
mod state;
mod words;
mod write;

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use args::{Args, ColorArg, Command, InputArgs, ManArgs, ResolveArgs};
use mimebase::mailbox::{self, Found, Input, Message, Messages, Opened, Roots, Walker};
use output::escape;

/// Exit code: some input could not be read or analyzed; the others were processed.
pub(crate) const EXIT_INPUT_FAILED: u8 = 1;
/// Exit code: a usage error, or output that could not be written.
pub(crate) const EXIT_USAGE: u8 = 2;

/// Runs the command line and returns the process's exit code.
pub(crate) fn run() -> ExitCode {
    let args = Args::parse();
    if let Some(resolution) = args.resolution()
        && let Err(message) = resolution.check()
    {
        usage_error(Some(args.command.name()), &message);
    }
    if let Some(globs) = args.globs() {
        globs_or_exit(globs, args.command.name());
    }
    match &args.command {
        Command::Inspect(inspect) => {
            // `-o -` is stdout, as `-` is for inputs.
            let file = inspect
                .output
                .as_deref()
                .filter(|&path| path != Path::new("-"));
            let printer = if inspect.html {
                output::Printer::Html(html::Page::new(&inspect.inputs.files, inspect.all))
            } else if inspect.json {
                output::Printer::InspectJson
            } else {
                let color = match inspect.color {
                    ColorArg::Auto if file.is_some() => false,
                    when => output::use_color(when),
                };
                output::Printer::Inspect {
                    color,
                    all: inspect.all,
                }
            };
            match file {
                Some(path) => run_inputs_into(&inspect.inputs, &printer, path),
                None => run_inputs(&inspect.inputs, &printer),
            }
        }
        Command::Urls(urls) => {
            let printer = if urls.json {
                output::Printer::UrlsJson {
                    base_decided_only: urls.base_decided,
                }
            } else {
                // As grep: names are shown when there can be more than one input file.
                let several =
                    urls.inputs.files.len() > 1 || urls.inputs.files.iter().any(|f| f.is_dir());
                // `--fields` names its columns: the name comes first only when asked for (`-H`).
                let with_filename = if urls.fields.is_empty() {
                    urls.with_filename || (several && !urls.no_filename)
                } else {
                    urls.with_filename
                };
                output::Printer::Urls {
                    with_filename,
                    terminator: if urls.null { b'\0' } else { b'\n' },
                    fields: urls.fields.clone(),
                    base_decided_only: urls.base_decided,
                }
            };
            run_inputs(&urls.inputs, &printer)
        }
        Command::Resolve(resolve) => run_resolve(resolve),
        Command::Rewrite(args) => rewrite::run(args),
        Command::Scan(scan) => scan::run(scan),
        Command::Completions(completions) => {
            let mut command = Args::command();
            let mut out = Vec::new();
            clap_complete::generate(completions.shell, &mut command, "mimebase", &mut out);
            write_all(&out)
        }
        Command::Man(man) => run_man(man),
        Command::Extract(extract) => extract::run(extract),
    }
}

/// Ends the process with clap's usage error for `message` (exit code 2).
fn usage_error(subcommand: Option<&str>, message: &str) -> ! {
    let mut command = Args::command();
    command.build();
    // The usage line shown is the command's own (`mimebase inspect [OPTIONS] [PATH]...`).
    let mut shown = match subcommand.and_then(|name| command.find_subcommand(name)) {
        Some(sub) => sub.clone(),
        None => command,
    };
    shown
        .error(clap::error::ErrorKind::ValueValidation, message)
        .exit()
}

/// `mimebase inspect` and `mimebase urls`: each input in turn, and each message of an mbox
/// input in turn, printed as it is analyzed.
///
/// Inputs are opened by the library's [`mailbox::open`], the reader `scan` uses: an input
/// that starts with `From ` (a file, or standard input; [`mailbox::is_mbox`]) is an mbox and
/// is split into its messages; no input (a file, standard input, a FIFO, a device) is read past
/// `--max-message-bytes` for one message. A message that cannot be read or is over the limit
/// is named on stderr (with `at byte N` for a message of an mbox file) and in an `error`
/// record for `--json`, and the next message, then the next input, is read; the exit code is
/// then 1.
fn run_inputs(inputs: &InputArgs, printer: &output::Printer) -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match print_inputs(inputs, printer, &mut out) {
        Ok(code) => code,
        Err(error) => write_failed(&error),
    }
}

/// [`run_inputs`] into the file `path` (`inspect -o`), written as `rewrite -o` writes: to a
/// temporary file in its directory, renamed to `path` when complete (removed on a failure or
/// a signal), or through a file that is not regular. A file that cannot be opened (a missing
/// directory) stops the run before any input is read; either failure is exit code 2, naming
/// the file.
fn run_inputs_into(inputs: &InputArgs, printer: &output::Printer, path: &Path) -> ExitCode {
    let written = write::remove_on_signal()
        .and_then(|()| write::Destination::of(path)?.open())
        .and_then(|mut file| {
            let code = print_inputs(inputs, printer, file.out())?;
            file.commit(|| Ok(()))?;
            Ok(code)
        });
    written.unwrap_or_else(|error| {
        eprintln!(
            "mimebase: writing {}: {}",
            escape(&path.display().to_string()),
            escape(&error.to_string())
        );
        ExitCode::from(EXIT_USAGE)
    })
}

/// Prints every message of `inputs` on `out`; the exit code, or the error of a write.
fn print_inputs(
    inputs: &InputArgs,
    printer: &output::Printer,
    out: &mut dyn Write,
) -> io::Result<ExitCode> {
    let options = inputs
        .resolution
        .options()
        .with_max_message_bytes(inputs.limits.bytes());
    let limit = inputs.limits.max_message_bytes;
    let mut failed = false;
    if let output::Printer::Html(page) = printer {
        page.start(out)?;
    }
    let stdin_only = [Path::new("-").to_path_buf()];
    let files = if inputs.files.is_empty() {
        &stdin_only[..]
    } else {
        &inputs.files[..]
    };
    if files.iter().any(|file| file == Path::new("-")) {
        hint_when_stdin_is_a_terminal();
    }
    let walker = Walker::new(Roots::new(files.to_vec(), None))
        .with_hidden(inputs.hidden)
        // Read, and checked, before the command ran (see `run`).
        .with_globs(inputs.globs.globs().unwrap_or_default());
    for message in Messages::new(walker, limit) {
        let Message { source, input } = message;
        let offset = output::mbox_offset(&source);
        match input {
            Input::Bytes(raw) => {
                printer.message(out, output::Name::of(&source), offset, raw, &options)?;
            }
            Input::Error(kind, message) => {
                let message = output::failure_message(kind, &message);
                eprintln!("mimebase: {}: {}", output::place(&source), escape(&message));
                failed = true;
                printer.error(out, &source, kind, &message)?;
            }
        }
        out.flush()?;
    }
    if let output::Printer::Html(page) = printer {
        page.finish(out)?;
        out.flush()?;
    }
    Ok(if failed {
        ExitCode::from(EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The globs of `--glob` and `--iglob`; a glob that cannot be read ends the process with a
/// usage error naming it (exit code 2), before any input is read.
pub(crate) fn globs_or_exit(globs: &args::GlobArgs, command: &str) -> mailbox::Globs {
    globs
        .globs()
        .unwrap_or_else(|message| usage_error(Some(command), &message))
}

/// Says on stderr, when standard input is a terminal, that the command waits for a message
/// there: a command given no file reads standard input, which on a terminal looks like a hang.
pub(crate) fn hint_when_stdin_is_a_terminal() {
    if io::stdin().is_terminal() {
        eprintln!(
            "mimebase: reading a message from standard input (end it with Ctrl-D; give a FILE to read one)"
        );
    }
}

/// The messages of the input `file` (`-`: standard input), as [`mailbox::open`] reads them:
/// one, or those of an mbox, each read up to `limit` bytes; a failure is a message too.
pub(crate) fn messages(file: &Path, limit: u64) -> Box<dyn Iterator<Item = Message> + Send> {
    let found = if file == Path::new("-") {
        Found::Stdin
    } else {
        Found::File {
            path: file.to_path_buf(),
            in_maildir: false,
        }
    };
    match mailbox::open(found, limit) {
        Opened::One(message) => Box::new(std::iter::once(message)),
        Opened::Many(messages) => messages,
    }
}

/// `mimebase resolve`: one line per reference, an empty line (and exit 1) for a failure.
/// Without references on the command line, they are read from standard input, one per line.
fn run_resolve(args: &ResolveArgs) -> ExitCode {
    let resolver = args.resolver;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut resolve_one = |reference: &str, out: &mut dyn Write| -> io::Result<()> {
        let line = match resolver.resolve(&args.base, reference) {
            Ok(url) if !mimebase::url::has_scheme(&url) => {
                // Only rfc3986 resolves against a base without a scheme (§5.2.2 as written).
                eprintln!(
                    "mimebase: \"{}\" is a relative reference: the base \"{}\" has no scheme",
                    escape(&url),
                    escape(&args.base)
                );
                url
            }
            Ok(url) => url,
            Err(error) => {
                eprintln!(
                    "mimebase: \"{}\" against \"{}\" ({}): {}",
                    escape(reference),
                    escape(&args.base),
                    resolver.name(),
                    escape(&error.to_string())
                );
                failed = true;
                String::new()
            }
        };
        writeln!(out, "{}", escape(&line))
    };
    let written = if args.references.is_empty() {
        resolve_lines(&mut out, &mut resolve_one)
    } else {
        args.references
            .iter()
            .try_for_each(|reference| resolve_one(reference, &mut out))
    };
    if let Err(error) = written.and_then(|()| out.flush()) {
        return write_failed(&error);
    }
    if failed {
        ExitCode::from(EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// Calls `resolve_one` on each line of standard input (LF-terminated, a trailing CR
/// removed), flushing after each so that `resolve` works as a coprocess. A line that is not
/// UTF-8 is read with replacement characters.
fn resolve_lines(
    out: &mut io::BufWriter<io::StdoutLock<'_>>,
    resolve_one: &mut dyn FnMut(&str, &mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        resolve_one(&String::from_utf8_lossy(text), out)?;
        out.flush()?;
    }
}

/// `mimebase man`: the roff page of mimebase or of one of its commands.
fn run_man(args: &ManArgs) -> ExitCode {
    let mut command = Args::command();
    command.build();
    let page = match &args.command {
        None => command,
        Some(name) => match command.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => usage_error(
                Some("man"),
                &format!("no command named \"{}\"", escape(name)),
            ),
        },
    };
    match man_page(page) {
        Ok(out) => write_all(&out),
        Err(error) => write_failed(&error),
    }
}

/// The man page of `command`: clap_mangen's sections, with the `--help` text after the
/// options rendered as EXAMPLES (each command on a line of its own, unfilled: `.nf`) and
/// NOTES, and the EXIT STATUS and ENVIRONMENT sections every page shares, before VERSION.
fn man_page(command: clap::Command) -> io::Result<Vec<u8>> {
    let after_help = command
        .get_after_long_help()
        .or_else(|| command.get_after_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    let command = command
        .after_help(None::<&str>)
        .after_long_help(None::<&str>);
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    let mut examples = Vec::new();
    let mut notes = Vec::new();
    let mut in_examples = false;
    for line in after_help.lines() {
        if line == "Examples:" {
            in_examples = true;
        } else if line.trim().is_empty() {
            in_examples = false;
        } else if in_examples {
            examples.push(line.trim());
        } else {
            notes.push(line.trim());
        }
    }
    let mut sections = String::new();
    if !examples.is_empty() {
        sections.push_str(".SH EXAMPLES\n.nf\n");
        for example in examples {
            sections.push_str(&format!("\\&{}\n", roff_escape(example)));
        }
        sections.push_str(".fi\n");
    }
    if !notes.is_empty() {
        sections.push_str(".SH NOTES\n");
        sections.push_str(&format!("\\&{}\n", roff_escape(&notes.join(" "))));
    }
    sections.push_str(MAN_EXIT_STATUS);
    sections.push_str(MAN_ENVIRONMENT);
    let at = find_bytes(&page, b"\n.SH VERSION").map_or(page.len(), |at| at + 1);
    page.splice(at..at, sections.into_bytes());
    Ok(page)
}

/// The EXIT STATUS section of every man page, as the README's "Exit codes" gives them.
const MAN_EXIT_STATUS: &str = "\
.SH \"EXIT STATUS\"
.TP
\\fB0\\fR
Every input was processed.
.TP
\\fB1\\fR
Some input could not be read or analyzed: each is named on standard error (and in JSON output
as an \\fBerror\\fR record); the others were processed.
.TP
\\fB2\\fR
A usage error (a bad option or value: nothing was processed), or output that could not be
written (the run stopped there, the file named; what \\fBrewrite\\fR and \\fBextract\\fR
wrote is removed).
.PP
A closed pipe ends quietly. Interrupted by SIGINT, SIGTERM or SIGHUP, \\fBrewrite\\fR and
\\fBextract\\fR remove their temporary files (and \\fBextract\\fR what it wrote) and end by
the signal (130, 143 or 129 in the shell).
";

/// The ENVIRONMENT section of every man page: the variables [`output::use_color`] reads.
const MAN_ENVIRONMENT: &str = "\
.SH ENVIRONMENT
Whether \\fBinspect\\fR colours its tree with \\fB\\-\\-color auto\\fR (the default), which
colours it when standard output is a terminal; \\fB\\-\\-color always\\fR and
\\fB\\-\\-color never\\fR override all of these.
.TP
\\fBNO_COLOR\\fR
Set to a non\\-empty value: no colour, even with \\fBCLICOLOR_FORCE\\fR
(https://no\\-color.org).
.TP
\\fBCLICOLOR_FORCE\\fR
Set to a non\\-empty value other than \\fB0\\fR: colour even when standard output is not a
terminal or \\fBTERM\\fR is \\fBdumb\\fR (https://bixense.com/clicolors/).
.TP
\\fBCLICOLOR\\fR
\\fB0\\fR: no colour; another value: colour on a terminal even when \\fBTERM\\fR is unset or
\\fBdumb\\fR.
.TP
\\fBTERM\\fR
Unset or \\fBdumb\\fR: no colour on a terminal (unless \\fBCLICOLOR\\fR or \\fBCI\\fR is set).
";

/// `text` for a roff text line: backslashes, hyphen-minus signs and quotes escaped, so that
/// a command reads back as typed (groff would otherwise print a typographic quote for `'`).
fn roff_escape(text: &str) -> String {
    text.replace('\\', "\\e")
        .replace('-', "\\-")
        .replace('\'', "\\(aq")
        .replace('`', "\\(ga")
}

/// The first index of `needle` in `haystack`.
fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Writes `bytes` to stdout.
fn write_all(bytes: &[u8]) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => write_failed(&error),
    }
}

/// The exit after a failed write: quiet success on a closed pipe (the reader has what it
/// wanted, as `head` shows), else 2.
fn write_failed(error: &io::Error) -> ExitCode {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("mimebase: writing output: {}", escape(&error.to_string()));
    ExitCode::from(EXIT_USAGE)
}
