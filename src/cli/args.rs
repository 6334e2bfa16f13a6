//! Command-line arguments. Help text comes from these doc comments.

use std::path::{Path, PathBuf};

use super::output::escape;
use super::size::parse_bytes;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum, ValueHint};
use mimebase::scan::RecordField;
use mimebase::{Options, Profile, Resolver};

/// Effective base URLs of every part of an email message (RFC 1808 §3), every URL resolved.
///
/// Every URL a reader can reach is resolved against its part's base: in headers, HTML and SVG
/// documents (attachments and <iframe srcdoc> included), the links a mail client makes of
/// plain text, and the links inside the files a reader opens (PDF files, encrypted ones with a
/// password the message states, calendar invitations, shortcut files, office documents, the
/// members of ZIP archives).
///
/// Exit status: 0 every input processed; 1 some input could not be read or analyzed (each
/// named on stderr; the others were processed); 2 usage error (nothing processed), or output
/// could not be written (the file named); 130, 143 or 129 (in the shell) after SIGINT,
/// SIGTERM or SIGHUP, the files being written removed (`scan`: after SIGINT or SIGTERM, its
/// lines written so far, its summary line and its --state saved).
#[derive(Debug, Parser)]
#[command(name = "mimebase", version, after_help = TOP_EXAMPLES)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: Command,
}

const TOP_EXAMPLES: &str = "\
Examples:
  mimebase inspect message.eml
  mimebase urls --retrieval-url https://archive.example/msg/42 message.eml
  mimebase rewrite --in-place message.eml
  mimebase scan --jobs 4 ~/Maildir > urls.ndjson
  mimebase resolve http://a/b/c/d ../g";

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Show the tree: each part's type, base, where the base came from, and its URLs.
    ///
    /// An mbox input (one whose first line starts `From `, after a UTF-8 byte order mark if there is one, and is not an obsolete `From :` field) is split into its messages, each a
    /// tree of its own headed `== FILE`, or `== FILE at byte OFFSET` for every message after
    /// the first (OFFSET: the byte offset of its `From ` line).
    #[command(after_help = "\
Examples:
  mimebase inspect message.eml
  mimebase inspect --json a.eml b.eml | jq .entities
  mimebase inspect --color always message.eml | less -R
  mimebase inspect --html -o report.html message.eml

Text output escapes control characters: see `mimebase urls --help`.")]
    Inspect(InspectArgs),
    /// Print one line per URL: the resolved URL, a tab, the URL as written.
    ///
    /// The first column is empty when the URL could not be resolved. With more than one input, or a directory,
    /// each line starts with the input file's name and a tab; for a message of an mbox after
    /// the first, the name is followed by `:OFFSET` (the byte offset of its `From ` line, as
    /// `grep -b` writes it). An mbox input (one whose first line starts `From `, after a UTF-8 byte order mark if there is one, and is not an obsolete `From :` field) is split into
    /// its messages, each resolved against its own bases; a directory or Maildir is walked as
    /// `scan` walks it.
    ///
    /// Text output is escaped so that no control character reaches the terminal and every
    /// line reads back unambiguously, with the escapes of a Rust string literal: `\\` for a
    /// backslash, `\t` `\n` `\r`, `\xHH` for the other C0 controls and DEL, `\u{HH}` for C1
    /// controls and `\u{HHHH}` for the bidirectional formatting characters.
    #[command(after_help = "\
Examples:
  mimebase urls message.eml
  mimebase urls --json message.eml | jq -r .resolved
  mimebase urls -I *.eml | cut -f1 | sort -u
  mimebase urls -0 message.eml | xargs -0 -n1 echo")]
    Urls(UrlsArgs),
    /// Write the message with its HTML bodies' relative URLs made absolute.
    ///
    /// Every resolvable relative URL of its HTML bodies is written in absolute form; every
    /// other byte stays as it was. Same-document references (an empty value,
    /// `#fragment`) are kept as written.
    ///
    /// An mbox (a FILE whose first line starts `From `, after a UTF-8 byte order mark if there is one, and is not an obsolete `From :` field) is written back as an mbox, each
    /// message rewritten against its own bases: the same `From ` lines and separators, the
    /// mboxrd quoting (`>From `) redone. A message that could not be written back exactly
    /// (a line beginning `From ` unquoted in it) is written as it was, with a diagnostic; a
    /// message over --max-message-bytes is copied from FILE as it was (from standard input it
    /// cannot be: the output then stops there, exit code 1, and -o or --in-place write
    /// nothing).
    ///
    /// With --in-place, FILE may be several files, directories and Maildirs, walked as `scan`
    /// walks them (--hidden, --glob, --iglob): each file found is rewritten in place as it
    /// would be alone, a Maildir message under its own name, an mbox whole. One that cannot be
    /// read, is not a regular file or changed meanwhile is named on stderr and the next is
    /// rewritten (exit code 1); one that cannot be written stops the run (exit code 2).
    /// Without --in-place, FILE is one file (stdout and -o take one message or mbox).
    #[command(after_help = "\
Examples:
  mimebase rewrite message.eml > absolute.eml
  mimebase rewrite --retrieval-url https://archive.example/msg/42 -o out.eml message.eml
  mimebase rewrite --in-place message.eml
  mimebase rewrite --in-place --iglob '*.eml' .")]
    Rewrite(RewriteArgs),
    /// Resolve each REF against BASE and print the results.
    ///
    /// One line per REF, in order; with no REF, read references from standard input, one per line. A REF that cannot be
    /// resolved prints an empty line and a diagnostic, and the exit code is 1.
    #[command(after_help = "\
Examples:
  mimebase resolve 'http://a/b/c/d;p?q' g ../g //g
  mimebase resolve --resolver whatwg https://example.com/a/ -- -dash
  printf '../x\\n?y\\n' | mimebase resolve http://a/b/c")]
    Resolve(ResolveArgs),
    /// Write one NDJSON line per message of files, directories, Maildirs and mbox files.
    ///
    /// One line per message, in input order: where it was found, its Message-ID, entities, URLs and
    /// diagnostics; an input that cannot be read becomes an error line and the scan goes on
    /// (exit code 1 at the end). A summary goes to stderr, and a progress bar when stderr is a
    /// terminal. The lines are documented in the library's `scan` module.
    #[command(after_help = "\
Examples:
  mimebase scan ~/Maildir archive.mbox > urls.ndjson
  find . -name '*.eml' -print0 | mimebase scan --paths-from - -0 --jobs 4
  mimebase scan --jobs 1 --paths-from - < paths.txt || test $? -eq 1")]
    Scan(ScanArgs),
    /// Print a completion script for SHELL on stdout.
    #[command(after_help = "\
Examples:
  mimebase completions bash > ~/.local/share/bash-completion/completions/mimebase
  mimebase completions zsh > ~/.zfunc/_mimebase
  mimebase completions fish > ~/.config/fish/completions/mimebase.fish")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout: of mimebase, or of one of its commands.
    #[command(after_help = "\
Examples:
  mimebase man | man -l -
  mimebase man rewrite > mimebase-rewrite.1")]
    Man(ManArgs),
    /// Write every part of a message as a file in a directory, its pages made offline.
    ///
    /// Its HTML, SVG and CSS parts are written with each URL that names another part (cid:, mid:, Content-Location) pointing at that
    /// part's file and every other URL made inert, so that opening a page contacts no one (with
    /// --online, kept, relative ones made absolute), and an index.json; prints the path of the
    /// main page (the main HTML file; for a message without HTML, the file of its body).
    ///
    /// An mbox (a PATH whose first line starts `From `, after a UTF-8 byte order mark if there is one, and is not an obsolete `From :` field) of more than one message gives each
    /// message a subdirectory of OUT named by the byte offset of its `From ` line (`OUT/0/`,
    /// `OUT/5234/`, …, the offsets `inspect`, `urls` and `scan` give), and a line on stdout
    /// per message; an mbox of one message is extracted into OUT itself.
    ///
    /// Several PATHs, or a directory (walked as `scan` walks, with --hidden, --glob, --iglob),
    /// give each file a folder `OUT/NAME/RELATIVE/`: NAME the file name of the PATH given
    /// (`NAME~2`, `NAME~3`, … for a later PATH of the same name), RELATIVE the file's path
    /// below it (nothing for a file given), and each message of an mbox of several messages
    /// `OUT/NAME/RELATIVE/OFFSET/`. An input that cannot be read is named on stderr and the
    /// others are extracted (exit code 1).
    #[command(after_help = "\
Examples:
  mimebase extract --dir parts message.eml
  mimebase extract --dir parts --force --retrieval-url https://archive.example/msg/42 message.eml
  mimebase extract --dir as-archived --online message.eml
  mimebase extract --dir messages archive.mbox
  mimebase extract --dir pages a.eml b.eml ~/Maildir")]
    Extract(ExtractArgs),
}

/// `mimebase completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// `mimebase man`.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// A command whose page to print (`mimebase-COMMAND(1)`); none: the page of mimebase.
    #[arg(value_name = "COMMAND", value_parser = PossibleValuesParser::new(COMMAND_NAMES), hide_possible_values = true)]
    pub command: Option<String>,
}

/// The names of the commands, which `mimebase man` takes (and the completions offer).
const COMMAND_NAMES: [&str; 8] = [
    "inspect",
    "urls",
    "rewrite",
    "resolve",
    "scan",
    "completions",
    "man",
    "extract",
];

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    /// Colour when stdout is a terminal, `NO_COLOR` is unset or empty and `TERM` is not
    /// `dumb` (`CLICOLOR_FORCE` set and not `0` forces it).
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// `mimebase inspect`.
#[derive(Debug, clap::Args)]
pub(crate) struct InspectArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    /// Write NDJSON (one JSON object per line) instead of text; the records are documented
    /// in the library's `report` module.
    #[arg(long, help_heading = "Output")]
    pub json: bool,

    /// Write one HTML page instead of text: for each message its summary, the part tree with
    /// each part's type and base, a table of its URLs (base-decided links and links whose
    /// text names another host highlighted, in words as well as colour) and its diagnostics,
    /// every string from the message escaped as the text is. The page is self-contained: no
    /// script, nothing loaded (a Content-Security-Policy of `default-src 'none'`), and every
    /// URL is text, never a link.
    #[arg(long, conflicts_with_all = ["json", "color"], help_heading = "Output")]
    pub html: bool,

    /// Write the output to FILE instead of stdout (`-`: stdout): to a temporary file in its
    /// directory, renamed to FILE when complete, as `rewrite -o` writes. Output that cannot be
    /// written is exit code 2, naming FILE.
    #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath, help_heading = "Output")]
    pub output: Option<PathBuf>,

    /// When to colour the tree (`auto`: not into a FILE given with `-o`).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto, help_heading = "Output")]
    pub color: ColorArg,

    /// Also show the URLs that are absolute and unchanged (`X -> X`: resolved to what is
    /// written, no base decided them, their text names no other host and they name no part of
    /// the message). Without it the tree (and the `--html` page) shows what a base, the
    /// resolver or the message changed, and says how many unchanged URLs it left out; `--json`
    /// always has every record.
    #[arg(long, conflicts_with = "json", help_heading = "Output")]
    pub all: bool,
}

/// `mimebase urls`.
#[derive(Debug, clap::Args)]
pub(crate) struct UrlsArgs {
    #[command(flatten)]
    pub inputs: InputArgs,

    /// Write NDJSON (one JSON object per line) instead of text; the records are documented
    /// in the library's `report` module.
    #[arg(long, help_heading = "Output")]
    pub json: bool,

    /// Start each line with the input's name and a tab (the default with more than one
    /// input).
    #[arg(
        short = 'H',
        long,
        overrides_with = "no_filename",
        help_heading = "Output"
    )]
    pub with_filename: bool,

    /// Never start lines with the input's name (the default with one input).
    #[arg(
        short = 'I',
        long,
        overrides_with = "with_filename",
        help_heading = "Output"
    )]
    pub no_filename: bool,

    /// Print only the URLs whose destination a base decided (`base_decided`: the resolver took
    /// any part of the base, as for a relative or scheme-relative reference), in every output
    /// format.
    #[arg(long, help_heading = "Output")]
    pub base_decided: bool,

    /// End each line with a NUL byte instead of a newline (for `xargs -0`).
    #[arg(
        short = '0',
        long = "null",
        conflicts_with = "json",
        help_heading = "Output"
    )]
    pub null: bool,

    /// Print these columns of each URL record, separated by tabs, in the order given, instead
    /// of `resolved<TAB>reference`; the input's name comes first only with `-H` (or ask for
    /// the `path` column).
    /// A column with nothing in it is empty; values are escaped as the text output is. The
    /// columns are the fields of `--json`: `path`, `offset` (of an mbox message's `From `
    /// line), `part`, `source`, `reference`, `resolved`, `unresolved` (`no_base` or
    /// `resolver_error`), `error`, `base` (the base URL), `base_source`, `base_decided`
    /// (`true` or `false`), `resolver`, `target` (the part the URL names), `target_by` (`cid`,
    /// `mid`, `content-location`), `ignored` (why a `<base href>` or base header field does not
    /// set the base, e.g. `not_first`), and for the `href` of an HTML `a` or `area` (empty for
    /// other URLs) `text` (what a reader sees of the link), `title` and `text_host_differs`
    /// (`true` when the text reads as a URL or host name of another host than the link reaches).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        conflicts_with = "json",
        help_heading = "Output"
    )]
    pub fields: Vec<UrlField>,
}

/// A column of `urls --fields`: a field of a URL record (`urls --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[value(rename_all = "snake_case")]
pub(crate) enum UrlField {
    Path,
    Offset,
    Part,
    Source,
    Reference,
    Resolved,
    Unresolved,
    Error,
    Base,
    BaseSource,
    BaseDecided,
    Resolver,
    Target,
    TargetBy,
    Ignored,
    Text,
    Title,
    TextHostDiffers,
}

/// `mimebase extract`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExtractArgs {
    /// Messages, mbox files, directories and Maildirs to extract, read as `scan` reads them;
    /// `-` (or none, without --paths-from) reads standard input.
    #[arg(value_name = "PATH")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub list: PathListArgs,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// The directory to write into; created when missing.
    #[arg(long, value_name = "OUT", value_hint = ValueHint::DirPath, help_heading = "Output")]
    pub dir: PathBuf,

    /// Replace files that already exist in OUT (without it, nothing is written when one
    /// does). Each file is written to a temporary name and renamed when all are written; a
    /// file that cannot be written (a full disk) removes what the run wrote (exit code 2).
    #[arg(long, help_heading = "Output")]
    pub force: bool,

    /// Write every URL that names no part of the message, and is not a data:, about: or blob:
    /// URL, inert (about:invalid# and the URL, percent-encoded), and into every HTML and SVG
    /// page a Content-Security-Policy that forbids loads but of files and data: URLs, so that
    /// opening a page contacts no one (no remote image, font, frame or ping). The default.
    #[arg(long, overrides_with = "online", help_heading = "Network")]
    pub offline: bool,

    /// Keep the URLs on the web, relative ones made absolute, and insert no policy: the pages
    /// show what the archive shows, remote images included, and contact those servers when
    /// opened (a tracking image tells its sender the message was read, and from where).
    #[arg(long, overrides_with = "offline", help_heading = "Network")]
    pub online: bool,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

/// `mimebase rewrite`.
#[derive(Debug, clap::Args)]
pub(crate) struct RewriteArgs {
    /// The message or mbox to rewrite; `-` (or none, without --paths-from) reads standard
    /// input. With --in-place, any number of files, directories and Maildirs, read as `scan`
    /// reads them, each file rewritten in place.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub list: PathListArgs,

    #[command(flatten)]
    pub walk: WalkArgs,

    /// Write the message to OUTPUT instead of stdout: to a temporary file in OUTPUT's
    /// directory, then renamed over OUTPUT, so OUTPUT is never half-written. An existing
    /// OUTPUT keeps its owner, group, mode and extended attributes; one that is not a regular
    /// file (/dev/null, a FIFO) is written through, as the shell's `>` does.
    #[arg(short, long, value_name = "OUTPUT", help_heading = "Output")]
    pub output: Option<PathBuf>,

    /// Replace FILE with the rewritten message, the same way as `-o FILE` (a temporary file,
    /// then a rename; FILE keeps its owner, group, mode and extended attributes; a symbolic
    /// link is followed; another hard link keeps the old content). FILE is left untouched when
    /// nothing changes. A FILE that is not a regular file is refused (exit code 2). An mbox
    /// is locked as mail programs lock it (fcntl, flock, FILE.lock; waiting at most 10 s for
    /// another program's lock), and any FILE is checked unchanged, and still there, before
    /// the rename.
    #[arg(long, conflicts_with = "output", help_heading = "Output")]
    pub in_place: bool,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

/// `mimebase resolve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ResolveArgs {
    /// The base URL.
    #[arg(value_name = "BASE")]
    pub base: String,

    /// References to resolve; an empty one is valid (RFC 1808 §5.2: the base itself). None:
    /// read them from standard input, one per line (a trailing CR is removed).
    #[arg(value_name = "REF", allow_hyphen_values = true)]
    pub references: Vec<String>,

    /// The resolution algorithm.
    #[arg(long, value_parser = resolver_parser(), default_value_t = Resolver::default(), help_heading = "Resolution")]
    pub resolver: Resolver,
}

/// `--profile`: the library's [`Profile`] names, read by its `FromStr`, with a line of help
/// for each (shown by `--help`, the man pages and the completions).
fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    let values = Profile::ALL.map(|profile| {
        PossibleValue::new(profile.as_str()).help(match profile {
            Profile::Rfc1808 => "RFC 1808 alone: only the Base header gives a base",
            Profile::Mhtml => {
                "RFC 2557 (MHTML) alone: Content-Location, else Content-Base; thismessage:/ at the root"
            }
            _ => "Base, else Content-Base, else Content-Location; then inheritance, the retrieval URL",
        })
    });
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Profile>())
}

/// `--resolver`: the library's [`Resolver`] names, read by its `FromStr`, with a line of help
/// for each.
fn resolver_parser() -> impl TypedValueParser<Value = Resolver> {
    let values = Resolver::ALL.map(|resolver| {
        PossibleValue::new(resolver.as_str()).help(match resolver {
            Resolver::Rfc3986 => "RFC 3986 §5.2, strict, with remove_dot_segments",
            Resolver::Whatwg => {
                "The WHATWG URL Standard, as browsers and mail clients resolve links"
            }
            _ => "RFC 1808 §4, exactly as written (the default)",
        })
    });
    PossibleValuesParser::new(values).try_map(|name| name.parse::<Resolver>())
}

/// The inputs of `inspect` and `urls`, and the options every command shares.
#[derive(Debug, clap::Args)]
pub(crate) struct InputArgs {
    /// Messages, mbox files, directories and Maildirs to read, as `scan` reads them (a
    /// directory's files in byte order of their names, a Maildir's `cur/` then `new/`); `-`
    /// (or none at all) reads standard input.
    #[arg(value_name = "PATH")]
    pub files: Vec<PathBuf>,

    /// Also read files and directories whose names begin with `.` inside the directories
    /// given (passed over by default, as `.git/`; a Maildir's Maildir++ `.Folder`s and the
    /// paths given are always read).
    #[arg(long, help_heading = "Input")]
    pub hidden: bool,

    #[command(flatten)]
    pub globs: GlobArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

/// `--hidden`, `--glob` and `--iglob` for `rewrite` and `extract`.
#[derive(Debug, clap::Args)]
pub(crate) struct WalkArgs {
    /// Also read files and directories whose names begin with `.` inside the directories
    /// given (passed over by default, as `.git/`; a Maildir's Maildir++ `.Folder`s and the
    /// paths given are always read).
    #[arg(long, help_heading = "Input")]
    pub hidden: bool,

    #[command(flatten)]
    pub globs: GlobArgs,
}

/// `--paths-from` and `--null`: more paths, read from a list, for `scan`, `rewrite` and
/// `extract`.
#[derive(Debug, clap::Args)]
pub(crate) struct PathListArgs {
    /// Read more paths from FILE, one per line (`-`: standard input), after those given as
    /// arguments; empty lines are skipped, a trailing CR is removed. Paths are read as the
    /// command goes, so the list may be endless (a Hadoop Streaming or Spark pipe stage).
    #[arg(long, value_name = "FILE", help_heading = "Input")]
    pub paths_from: Option<PathBuf>,

    /// With --paths-from: the paths are separated by NUL bytes (as `find -print0` writes them).
    #[arg(
        short = '0',
        long = "null",
        requires = "paths_from",
        help_heading = "Input"
    )]
    pub null: bool,
}

impl PathListArgs {
    /// The list and its separator, as [`Roots::new`](mimebase::mailbox::Roots::new) takes them.
    pub fn list(&self) -> Option<(&Path, u8)> {
        let separator = if self.null { 0 } else { b'\n' };
        self.paths_from.as_deref().map(|list| (list, separator))
    }

    /// True when the list is read from standard input (`--paths-from -`).
    pub fn reads_stdin(&self) -> bool {
        self.paths_from.as_deref() == Some(Path::new("-"))
    }
}

/// `--glob` and `--iglob`: which files found in directories are read, for every command
/// that walks directories.
#[derive(Debug, clap::Args)]
pub(crate) struct GlobArgs {
    /// Read only the files found in directories that GLOB matches, or with `!GLOB`, not those
    /// (nor the directories); repeatable, the last glob that matches deciding, as ripgrep's
    /// --glob: a glob without `/` matches the file name (`*.eml`), one with `/` the path
    /// relative to the directory given (`cur/*`, `/archive/**`); with any glob without `!`, a
    /// file that none matches is not read. The paths given are read whatever their name.
    #[arg(
        short = 'g',
        long = "glob",
        value_name = "GLOB",
        help_heading = "Input"
    )]
    pub glob: Vec<String>,

    /// As --glob, matched without regard to case; taken after every --glob, as ripgrep does.
    #[arg(long = "iglob", value_name = "GLOB", help_heading = "Input")]
    pub iglob: Vec<String>,
}

impl GlobArgs {
    /// The walk's [`Globs`](mimebase::mailbox::Globs); a glob that cannot be read is a usage
    /// error naming it.
    pub fn globs(&self) -> Result<mimebase::mailbox::Globs, String> {
        let globs = self.glob.iter().map(|glob| (glob.as_str(), false));
        let iglobs = self.iglob.iter().map(|glob| (glob.as_str(), true));
        mimebase::mailbox::Globs::new(globs.chain(iglobs)).map_err(|error| {
            format!(
                "{} \"{}\": {}",
                if self.glob.contains(&error.pattern) {
                    "--glob"
                } else {
                    "--iglob"
                },
                escape(&error.pattern),
                escape(&error.reason)
            )
        })
    }
}

/// `--max-message-bytes`: how much of any input every command that reads messages reads.
#[derive(Debug, clap::Args)]
pub(crate) struct LimitArgs {
    /// A message larger than this is reported as a `too_large` error and not read into
    /// memory, whatever the input is (a file, standard input, a FIFO, a device such as
    /// /dev/zero: none is read past the limit); the next message of an mbox file, and the
    /// next input, are still read. The limits of the analysis that follow a message's size
    /// are this size too: a header block, and the bytes decoding may produce (a body decodes
    /// to no more than its own size, so only a message that decodes what it decoded, an
    /// encoded message inside an encoded one, can pass it); a diagnostic for either says
    /// this option raises it. In bytes, or with a suffix as GNU coreutils reads them:
    /// K, M, G (or KiB, MiB, GiB) for 1024, 1024², 1024³; KB, MB, GB for 1000, 1000², 1000³.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_bytes, help_heading = "Input")]
    pub max_message_bytes: u64,
}

impl LimitArgs {
    /// `--max-message-bytes` as the library's options take it (the analysis limits derived
    /// from it follow it: `Options::with_max_message_bytes`).
    pub fn bytes(&self) -> usize {
        usize::try_from(self.max_message_bytes).unwrap_or(usize::MAX)
    }
}

/// `--retrieval-url`, `--resolver`, `--profile`: how every command that reads messages finds
/// bases and resolves URLs.
#[derive(Debug, clap::Args)]
pub(crate) struct ResolutionArgs {
    /// The URL the message was retrieved from: the base of the root message when no header
    /// or <base> gives one (RFC 1808 §3.3). It must be an absolute URL (with a scheme) that
    /// the resolver accepts as a base.
    #[arg(long, value_name = "URL", help_heading = "Resolution")]
    pub retrieval_url: Option<String>,

    /// The resolution algorithm.
    #[arg(long, value_parser = resolver_parser(), default_value_t = Resolver::default(), help_heading = "Resolution")]
    pub resolver: Resolver,

    /// Which rules of base precedence apply.
    #[arg(long, value_parser = profile_parser(), default_value_t = Profile::default(), help_heading = "Resolution")]
    pub profile: Profile,

    /// How many URLs of one message are recorded (header, HTML, SVG and text URLs together, in document
    /// order). Past it the rest are left out with a `url_limit` diagnostic naming the parts
    /// that lost some; the message's parts and bases are still all reported, and `rewrite`
    /// and `extract` leave a part that lost URLs unchanged. It bounds the memory one message
    /// can take (about 250 bytes per URL).
    #[arg(long, value_name = "COUNT", default_value_t = Options::new().max_urls(), help_heading = "Input")]
    pub max_urls: usize,

    /// How deep entities may nest (the message at 0, each body part and encapsulated message
    /// one deeper); the content of a deeper one is not walked, with a `depth_limit` diagnostic.
    #[arg(long, value_name = "LEVELS", default_value_t = Options::new().max_depth(), help_heading = "Input")]
    pub max_depth: usize,

    /// How many entities of one message are walked; the rest are skipped with an
    /// `entity_limit` diagnostic [default: (64 MiB + 4 × the message's size) / 2 KiB, which
    /// only a message of parts averaging under 512 bytes reaches].
    #[arg(long, value_name = "COUNT", help_heading = "Input")]
    pub max_entities: Option<usize>,

    /// How many base64- or quoted-printable-encoded encapsulated messages may enclose one
    /// another; a deeper one is not walked, with an `encoded_level_limit` diagnostic.
    #[arg(long, value_name = "LEVELS", default_value_t = Options::new().max_encoded_levels(), help_heading = "Input")]
    pub max_encoded_levels: usize,

    /// Leave out the links found in plain text (URL records whose source is `text`: URLs,
    /// `www.` hosts and e-mail addresses of text/plain and text/enriched bodies, which mail
    /// clients show as links); only header, HTML and SVG URLs are reported.
    #[arg(long, help_heading = "Resolution")]
    pub no_text_links: bool,

    /// Leave out the links inside the files a reader opens (URL records whose source is
    /// `pdf:…`, `calendar:…`, `shortcut:…` or `office:…`, and the members of ZIP archives):
    /// such parts are not read at all.
    #[arg(long, help_heading = "Resolution")]
    pub no_file_links: bool,

    /// The most bytes that decompressing one file may produce (a PDF's streams, an archive's
    /// members together); a stream or member past it is not read, with a `file_limit`
    /// diagnostic. Bytes, with a suffix as --max-message-bytes.
    #[arg(long, value_name = "BYTES", default_value = "32M", value_parser = parse_bytes, help_heading = "Input")]
    pub max_file_bytes: u64,

    /// The most objects read of one PDF file; a file with more is not read, with a
    /// `file_limit` diagnostic.
    #[arg(long, value_name = "COUNT", default_value_t = Options::new().max_file_objects(), help_heading = "Input")]
    pub max_file_objects: usize,

    /// How deep ZIP archives may nest (a ZIP part at 1, a ZIP member of it at 2); the members
    /// of a deeper one are not read, with a `file_limit` diagnostic.
    #[arg(long, value_name = "LEVELS", default_value_t = Options::new().max_archive_depth(), help_heading = "Input")]
    pub max_archive_depth: usize,

    /// How many members of one ZIP archive are read; the rest are not, with a `file_limit`
    /// diagnostic.
    #[arg(long, value_name = "COUNT", default_value_t = Options::new().max_archive_members(), help_heading = "Input")]
    pub max_archive_members: usize,

    /// How many passwords that the message states (in its text and HTML parts) are tried on
    /// each encrypted PDF or ZIP file that the empty password does not open.
    #[arg(long, value_name = "COUNT", default_value_t = Options::new().max_passwords(), help_heading = "Input")]
    pub max_passwords: usize,
}

impl ResolutionArgs {
    /// Checks what clap cannot check alone: the retrieval URL must be absolute and usable as
    /// a base by the chosen resolver. The error is a usage error (exit code 2), reported
    /// before any input is read.
    pub fn check(&self) -> Result<(), String> {
        let Some(url) = &self.retrieval_url else {
            return Ok(());
        };
        if !mimebase::url::has_scheme(url) {
            return Err(format!(
                "--retrieval-url \"{}\" is not an absolute URL (it has no scheme)",
                escape(url)
            ));
        }
        let resolver = self.resolver;
        match resolver.resolve(url, "") {
            Ok(_) => Ok(()),
            Err(error) => Err(format!(
                "--retrieval-url \"{}\" is not usable as a base ({}): {}",
                escape(url),
                resolver.name(),
                escape(&error.to_string())
            )),
        }
    }

    /// The library's options for these arguments.
    pub fn options(&self) -> Options {
        let mut options = Options::new()
            .with_resolver(self.resolver)
            .with_profile(self.profile)
            .with_max_urls(self.max_urls)
            .with_max_depth(self.max_depth)
            .with_max_encoded_levels(self.max_encoded_levels)
            .with_text_links(!self.no_text_links)
            .with_file_links(!self.no_file_links)
            .with_max_file_bytes(usize::try_from(self.max_file_bytes).unwrap_or(usize::MAX))
            .with_max_file_objects(self.max_file_objects)
            .with_max_archive_depth(self.max_archive_depth)
            .with_max_archive_members(self.max_archive_members)
            .with_max_passwords(self.max_passwords);
        if let Some(count) = self.max_entities {
            options = options.with_max_entities(count);
        }
        match &self.retrieval_url {
            Some(url) => options.with_retrieval_url(url.clone()),
            None => options,
        }
    }
}

/// `mimebase scan`.
#[derive(Debug, clap::Args)]
pub(crate) struct ScanArgs {
    /// Files, directories (walked recursively, in byte order of names), Maildir folders (cur/
    /// and new/, then Maildir++ subfolders) and mbox files (a file whose first line starts
    /// `From `, after a UTF-8 byte order mark if there is one, and is not an obsolete `From :`
    /// field); `-` reads standard input.
    #[arg(value_name = "PATH", required_unless_present = "paths_from")]
    pub paths: Vec<PathBuf>,

    #[command(flatten)]
    pub list: PathListArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// How many messages are analyzed at once, each on a thread of its own [default: the
    /// number of available cores]. At most the number of available cores: a larger N is
    /// lowered to it. The output order is the input order whatever N is.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Performance")]
    pub jobs: Option<u16>,

    /// Also read files and directories whose names begin with `.` (passed over by default, as
    /// `.git/`; a Maildir's Maildir++ `.Folder`s and the paths given are always read).
    #[arg(long, help_heading = "Input")]
    pub hidden: bool,

    #[command(flatten)]
    pub globs: GlobArgs,

    /// Emit only what is new since the last run with the same FILE, and record in FILE what
    /// was read: files whose size, inode or mtime changed, new files, the messages appended
    /// to an mbox, new Maildir messages (a flag rename is the same message). An mbox rewritten
    /// or truncated before its old length is said on stderr and read whole. FILE (JSON) is
    /// replaced atomically after the output is flushed: at the end, every few seconds, and on
    /// SIGINT or SIGTERM, for exactly the records written. Not with `-` (standard input).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, help_heading = "Input")]
    pub state: Option<PathBuf>,

    /// No progress bar and no summary line on stderr; failures are still reported there.
    #[arg(short, long)]
    pub quiet: bool,

    /// Write only these keys of each `message` line (and `type`), comma-separated, in the
    /// line's own order whatever the order given: `path` (with `path_bytes`), `format`,
    /// `offset`, `length`, `message_id`, `complete`, `summary` (decoded Subject, From, Date,
    /// Message-ID), `entities`, `urls`, `diagnostics`; and `urls.KEY` for only those keys of
    /// each URL record, KEY one of `part`, `source` (with `field` and `item`, or `range`),
    /// `reference`, `resolved`, `unresolved`, `error`, `base`, `base_decided`, `resolver`,
    /// `target`, `ignored`, `text`, `title`, `text_host_differs` (as `urls --fields` names
    /// them). `error` lines are written whole. For an index: `path,offset,summary,urls.resolved`.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = record_field_parser(), help_heading = "Output")]
    pub fields: Vec<RecordField>,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

/// The names of [`RecordField`], each with its description for completions.
fn record_field_parser() -> impl TypedValueParser<Value = RecordField> {
    let values =
        RecordField::ALL.map(|field| PossibleValue::new(field.as_str()).help(field.description()));
    PossibleValuesParser::new(values).try_map(|name| name.parse::<RecordField>())
}

impl Command {
    /// The command's name, as typed (one of [`COMMAND_NAMES`]).
    pub fn name(&self) -> &'static str {
        match self {
            Command::Inspect(_) => "inspect",
            Command::Urls(_) => "urls",
            Command::Rewrite(_) => "rewrite",
            Command::Resolve(_) => "resolve",
            Command::Scan(_) => "scan",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
            Command::Extract(_) => "extract",
        }
    }
}

impl Args {
    /// The resolution options of the command, if it has them.
    pub fn resolution(&self) -> Option<&ResolutionArgs> {
        match &self.command {
            Command::Inspect(args) => Some(&args.inputs.resolution),
            Command::Urls(args) => Some(&args.inputs.resolution),
            Command::Rewrite(args) => Some(&args.resolution),
            Command::Scan(args) => Some(&args.resolution),
            Command::Extract(args) => Some(&args.resolution),
            Command::Resolve(_) | Command::Completions(_) | Command::Man(_) => None,
        }
    }

    /// The `--glob` and `--iglob` of the command, if it walks directories.
    pub fn globs(&self) -> Option<&GlobArgs> {
        match &self.command {
            Command::Inspect(args) => Some(&args.inputs.globs),
            Command::Urls(args) => Some(&args.inputs.globs),
            Command::Rewrite(args) => Some(&args.walk.globs),
            Command::Scan(args) => Some(&args.globs),
            Command::Extract(args) => Some(&args.walk.globs),
            Command::Resolve(_) | Command::Completions(_) | Command::Man(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// `mimebase man COMMAND` takes exactly the commands there are.
    #[test]
    fn man_takes_every_command_name() {
        let command = super::Args::command();
        let names: Vec<&str> = command
            .get_subcommands()
            .map(clap::Command::get_name)
            .collect();
        assert_eq!(names, super::COMMAND_NAMES);
    }

    #[test]
    fn args_are_consistent() {
        super::Args::command().debug_assert();
    }
}
