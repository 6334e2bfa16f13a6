//! mimebase finds, for every part of an email message, its effective base URL and where that
//! base came from (RFC 1808 §3, RFC 2110, RFC 2557), and resolves every URL in its headers and
//! HTML bodies against it.
//!
//! ```
//! use mimebase::{analyze, BaseSource, Options};
//!
//! let message = b"Content-Type: multipart/mixed; boundary=b\r\n\
//! Content-Base: http://example.com/news/\r\n\
//! \r\n\
//! --b\r\n\
//! Content-Type: text/html\r\n\
//! \r\n\
//! <a href=\"today.html\">today</a>\r\n\
//! --b--\r\n";
//! let report = analyze(message, &Options::new());
//!
//! let html_part = &report.entities[1];
//! assert_eq!(html_part.part.as_str(), "1");
//! assert_eq!(html_part.base.source, BaseSource::Inherited);
//! let link = report.urls.last().unwrap();
//! assert_eq!(link.resolved.as_deref(), Some("http://example.com/news/today.html"));
//! ```
//!
//! The pieces, in the order data flows: [`mime`](crate::analyze) splits the message into
//! entities, `base` decides each entity's base ([SPEC §3]), `html` and `headers` find the
//! URLs ([SPEC §5]), [`url`] resolves them ([SPEC §4]) and [`Report`] holds the result.
//!
//! [SPEC §3]: Report
//! [SPEC §4]: url
//! [SPEC §5]: UrlRecord

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

mod analyze;
mod base;
mod css;
pub mod extract;
#[doc(hidden)]
pub mod fuzzing;
mod headers;
mod html;
pub mod mailbox;
mod mime;
mod options;
pub mod report;
mod rewrite;
pub mod scan;
pub mod target;
pub mod url;

pub use analyze::analyze;
pub use extract::{Extracted, ExtractedFile, extract};
pub use options::{Options, Profile};
pub use report::{
    BaseRecord, BaseSource, ByteRange, Diagnostic, DiagnosticKind, EntityKind, EntityRecord,
    PartId, Report, Unresolved, UrlRecord, UrlSource,
};
pub use rewrite::{Rewritten, rewrite};
pub use target::{Target, TargetMatch};
pub use url::{ResolveError, Resolver};
