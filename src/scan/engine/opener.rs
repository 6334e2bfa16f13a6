//! The builders of [`Batch`] that replace how inputs are opened, and, in tests, how many cores
//! there are and how messages are analyzed (here to keep the engine's file to its own code).

#[cfg(test)]
use super::Analyzer;
use super::Batch;
use crate::mailbox::{Found, Opened};

/// How an input is opened: [`mailbox::open`](crate::mailbox::open), or [`Batch::with_opener`]'s function.
pub(super) type Open = Box<dyn Fn(Found, u64) -> Opened + Send + Sync>;

impl Batch {
    /// Opens each input with `open` instead of [`mailbox::open`](crate::mailbox::open): it gets what the inputs
    /// gave and the size limit in bytes ([`Batch::with_max_message_bytes`]), and runs on the
    /// thread that opens the input, outside the engine's locks. `mimebase scan --state` reads
    /// an mbox file from where the last run stopped this way ([`mailbox::open_at`](crate::mailbox::open_at)).
    ///
    /// ### Default
    ///
    /// [`mailbox::open`](crate::mailbox::open).
    #[must_use]
    pub fn with_opener<F>(mut self, open: F) -> Self
    where
        F: Fn(Found, u64) -> Opened + Send + Sync + 'static,
    {
        self.open = Box::new(open);
        self
    }

    /// Replaces the bound of the jobs, so that tests run several workers on any machine.
    #[cfg(test)]
    pub(super) fn with_cores(mut self, cores: usize) -> Self {
        self.cores = cores;
        self
    }

    /// Replaces [`analyze`](crate::analyze), so that tests can make it panic.
    #[cfg(test)]
    pub(super) fn with_analyzer(mut self, analyzer: Analyzer) -> Self {
        self.analyzer = analyzer;
        self
    }
}
