//! Command-line arguments (SPEC §6). Help text comes from these doc comments.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use mimebase::{Options, Profile, Resolver};

/// Effective base URLs for every part of an email message (RFC 1808 §3), and every URL in
/// its headers and HTML bodies resolved against them.
#[derive(Debug, Parser)]
#[command(name = "mimebase", version)]
pub(crate) struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Show the tree: each part's type, base, where the base came from, and its URLs.
    Inspect(InputArgs),
    /// Print one line per URL: the resolved URL, a tab, the URL as written. The first column
    /// is empty when the URL could not be resolved.
    Urls(InputArgs),
    /// Write the message to stdout with every resolvable relative URL of its HTML bodies in
    /// absolute form; every other byte stays as it was.
    Rewrite(RewriteArgs),
    /// Resolve each REF against BASE and print the results, one line per REF, in order. A REF
    /// that cannot be resolved prints an empty line and a diagnostic, and the exit code is 2.
    Resolve(ResolveArgs),
    /// Read files, directories, Maildir folders and mbox files and write one NDJSON line per
    /// message, in input order: where it was found, its Message-ID, entities, URLs and
    /// diagnostics; an input that cannot be read becomes an error line and the scan goes on
    /// (exit code 2 at the end). A summary goes to stderr, and a progress bar when stderr is a
    /// terminal. The lines are documented in the library's `scan` module.
    Scan(ScanArgs),
    /// Write every part of one message as a file in a directory, its HTML parts with each URL
    /// that names another part (cid:, mid:, Content-Location) pointing at that part's file,
    /// and an index.json; prints the path of the main HTML page.
    Extract(ExtractArgs),
}

/// `mimebase extract`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExtractArgs {
    /// The message to extract; `-` (or none) reads standard input.
    #[arg(value_name = "MESSAGE", default_value = "-")]
    pub file: PathBuf,

    /// The directory to write into; created when missing.
    #[arg(long, value_name = "OUT", help_heading = "Output")]
    pub dir: PathBuf,

    /// Replace files that already exist in OUT (without it, nothing is written when one
    /// does).
    #[arg(long, help_heading = "Output")]
    pub force: bool,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

/// `mimebase rewrite`.
#[derive(Debug, clap::Args)]
pub(crate) struct RewriteArgs {
    /// The message to rewrite; `-` (or none) reads standard input.
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

/// `mimebase resolve`.
#[derive(Debug, clap::Args)]
pub(crate) struct ResolveArgs {
    /// The base URL.
    #[arg(value_name = "BASE")]
    pub base: String,

    /// References to resolve; an empty one is valid (RFC 1808 §5.2: the base itself).
    #[arg(value_name = "REF", allow_hyphen_values = true)]
    pub references: Vec<String>,

    /// The resolution algorithm.
    #[arg(long, value_enum, default_value_t = ResolverArg::Rfc1808, help_heading = "Resolution")]
    pub resolver: ResolverArg,
}

/// `--profile`: the base precedence profiles of SPEC §3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProfileArg {
    /// Base, else Content-Base, else Content-Location; then inheritance, the retrieval URL.
    Default,
    /// RFC 1808 alone: only the Base header gives a base.
    Rfc1808,
    /// RFC 2557 (MHTML) alone: Content-Location, else Content-Base; thismessage:/ at the root.
    Mhtml,
}

impl From<ProfileArg> for Profile {
    fn from(arg: ProfileArg) -> Self {
        match arg {
            ProfileArg::Default => Profile::Default,
            ProfileArg::Rfc1808 => Profile::Rfc1808,
            ProfileArg::Mhtml => Profile::Mhtml,
        }
    }
}

/// `--resolver`: the algorithms of SPEC §4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ResolverArg {
    /// RFC 1808 §4, exactly as written (the default).
    Rfc1808,
    /// RFC 3986 §5.2, strict, with remove_dot_segments.
    Rfc3986,
    /// The WHATWG URL Standard, as browsers and mail clients resolve links.
    Whatwg,
}

impl From<ResolverArg> for Resolver {
    fn from(arg: ResolverArg) -> Self {
        match arg {
            ResolverArg::Rfc1808 => Resolver::Rfc1808,
            ResolverArg::Rfc3986 => Resolver::Rfc3986,
            ResolverArg::Whatwg => Resolver::Whatwg,
        }
    }
}

/// Inputs and the options every command shares.
#[derive(Debug, clap::Args)]
pub(crate) struct InputArgs {
    /// Messages to read; `-` (or none at all) reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub resolution: ResolutionArgs,

    /// Write NDJSON (one JSON object per line) instead of text; the records are documented
    /// in the library's `report` module.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
}

/// `--retrieval-url`, `--resolver`, `--profile`: how every command that reads messages finds
/// bases and resolves URLs (SPEC §6).
#[derive(Debug, clap::Args)]
pub(crate) struct ResolutionArgs {
    /// The URL the message was retrieved from: the base of the root message when no header
    /// or <base> gives one (RFC 1808 §3.3).
    #[arg(long, value_name = "URL", help_heading = "Resolution")]
    pub retrieval_url: Option<String>,

    /// The resolution algorithm.
    #[arg(long, value_enum, default_value_t = ResolverArg::Rfc1808, help_heading = "Resolution")]
    pub resolver: ResolverArg,

    /// Which rules of base precedence apply.
    #[arg(long, value_enum, default_value_t = ProfileArg::Default, help_heading = "Resolution")]
    pub profile: ProfileArg,
}

impl ResolutionArgs {
    /// The library's options for these arguments.
    pub fn options(&self) -> Options {
        let options = Options::new()
            .with_resolver(self.resolver.into())
            .with_profile(self.profile.into());
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
    /// and new/, then Maildir++ subfolders) and mbox files (a file whose first bytes are
    /// `From `); `-` reads standard input.
    #[arg(value_name = "PATH", required_unless_present = "paths_from")]
    pub paths: Vec<PathBuf>,

    /// Read more paths from FILE, one per line (`-`: standard input), after those given as
    /// arguments; empty lines are skipped, a trailing CR is removed. Paths are read as the
    /// scan goes, so the list may be endless (a Hadoop Streaming or Spark pipe stage).
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

    /// A message larger than this (in bytes) is reported as a `too_large` error and not read
    /// into memory; the rest of an mbox file goes on.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20, help_heading = "Input")]
    pub max_message_bytes: u64,

    /// How many messages are analyzed at once, each on a thread of its own [default: the
    /// number of available cores]. The output order is the input order whatever N is.
    #[arg(short, long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Performance")]
    pub jobs: Option<u16>,

    #[command(flatten)]
    pub resolution: ResolutionArgs,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn args_are_consistent() {
        super::Args::command().debug_assert();
    }
}
