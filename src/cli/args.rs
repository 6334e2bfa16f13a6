//! Command-line arguments (SPEC §6). Help text comes from these doc comments.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

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
}

/// Inputs and the options every command shares.
#[derive(Debug, clap::Args)]
pub(crate) struct InputArgs {
    /// Messages to read; `-` (or none at all) reads standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// The URL the message was retrieved from: the base of the root message when no header
    /// or <base> gives one (RFC 1808 §3.3).
    #[arg(long, value_name = "URL", help_heading = "Resolution")]
    pub retrieval_url: Option<String>,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn args_are_consistent() {
        super::Args::command().debug_assert();
    }
}
