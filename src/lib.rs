//! mimebase finds, for every part of an email message, its effective base URL and where that
//! base came from (RFC 1808 §3, RFC 2110, RFC 2557), and resolves against it every URL a
//! reader can reach: in its headers, its HTML bodies (`<iframe srcdoc>` documents included),
//! its HTML and SVG documents (attachments found by their file name included) and the links a
//! mail client makes of its plain text ([`Document`] says which parts are read, and as what).
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
//! assert_eq!(link.resolution.resolved(), Some("http://example.com/news/today.html"));
//! // The base decided where it leads, and the reader sees "today".
//! assert!(link.base_decided);
//! assert_eq!(link.text(), Some("today"));
//! ```
//!
//! Every URL record says whether a base decided where it leads ([`UrlRecord::base_decided`]),
//! and the `href` of an HTML link carries what a reader sees of it ([`LinkText`]: its text,
//! its title, and whether the text names another host than the link reaches).
//!
//! The pieces, in the order data flows: [`mime`](crate::analyze) splits the message into
//! entities, `base` decides each entity's base ([base precedence](#base-precedence)),
//! `document` decides which parts are read and as what, `headers`, `html`, `svg` and `text`
//! find the URLs ([`UrlSource`]), [`url`] resolves them ([`Resolver`]) and
//! [`Report`] holds the result.
//!
//! # Entities
//!
//! An *entity* is the top-level message, each body part, and each encapsulated message: the
//! body of a `message/rfc822`, `message/global` or `message/news` part, and a part of a
//! `multipart/digest` that has no `Content-Type` (RFC 2046 §5.1.5: it defaults to
//! `message/rfc822`). An encapsulated message is an entity of its own, inside the body part
//! that carries it. Entities are named by IMAP section numbers ([`PartId`], RFC 3501 §6.4.5).
//!
//! # Base precedence
//!
//! For an entity E inside an entity P (P is absent for the root message), E's base is the
//! first of these that applies (RFC 1808 §3, extended by RFC 2110 §4.2 and RFC 2557 §5):
//!
//! 1. **Content base**, for HTML content only (RFC 1808
//!    §3.1; RFC 2557 §5 (a)): the first `<base>` element with an `href`, in document order,
//!    in the HTML namespace (as the HTML Standard's tree construction decides it: a `<base>`
//!    inside `<svg>` or `<math>` is foreign unless it sits in an HTML or MathML text
//!    integration point) and not inside `<template>` (the HTML Standard's "frozen base
//!    URL"). As in the HTML Standard it applies to every URL of the document, also those
//!    before it. Its value, entity-decoded, is resolved against E's header-level base; a value
//!    the resolver refuses, or a `data:` or `javascript:` URL, is not used (the HTML
//!    Standard's "fallback base URL" applies), with a diagnostic. An SVG document's first
//!    `<base href>` in the XHTML namespace is its content base too (Chromium applies it).
//! 2. **E's own base header field** (RFC 1808 §3.1): `Base`, else `Content-Base` (RFC 2110
//!    §4.2), else `Content-Location` (RFC 2557 §4–5), names compared case-insensitively. The
//!    value is unfolded, its RFC 2047 encoded-words decoded, all white space removed (RFC 1808
//!    §3.1: "any whitespace (including that used for line folding) inside the angle brackets
//!    is ignored") and one wrapper `<URL:…>`, `<…>` or `"…"` removed. A relative value is
//!    resolved against P's header-level base (RFC 2557 §5); when P has none, or the value is
//!    empty, the field is reported, not used, and the next field is tried, with a diagnostic.
//!    Of a field given twice, the first counts.
//! 3. **The encapsulating entity** (RFC 1808 §3.2; RFC 2557 §5 (c)): P's header-level base,
//!    down `multipart/*` parts and also into encapsulated messages.
//! 4. **The retrieval URL** (RFC 1808 §3.3; RFC 2557 §5 (d)):
//!    [`Options::with_retrieval_url`], the root's base when nothing above gives one, and so,
//!    through step 3, the base of every part below it.
//! 5. **None** (RFC 1808 §3.4): relative URLs are reported unresolved, with the reason.
//!
//! Steps 2–5 give an entity's *header-level base*, which its header URLs resolve against and
//! its parts inherit; step 1 gives the *content base* of an HTML part. A [`Profile`] changes
//! step 2 (and, for MHTML, step 5). Every base is reported with its [`BaseSource`].
//!
//! An HTML or SVG file found only by its file name (`application/octet-stream;
//! name="invoice.html"`) is opened by its reader from a temporary file, so no step gives its
//! content a network base: [`BaseSource::Attachment`]. Plain-text links have no base at all:
//! each is the absolute URL a mail client makes of the text.

// Cargo.toml's `[lints]` sets the lints of every target; the library also forbids unsafe code,
// so that no module of it can allow it.
#![forbid(unsafe_code)]

mod analyze;
mod archive;
mod base;
mod calendar;
mod css;
mod document;
pub mod extract;
#[doc(hidden)]
pub mod fuzzing;
mod headers;
mod html;
pub mod mailbox;
mod mime;
mod office;
mod options;
mod password;
mod pdf;
pub mod report;
mod rewrite;
pub mod scan;
mod shortcut;
#[doc(hidden)]
pub mod stages;
mod svg;
pub mod target;
pub(crate) mod text;
pub mod url;
pub mod vocab;

#[cfg(test)]
mod testing;

/// Every ```` ```rust ```` block of the README, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use analyze::{analyze, analyze_streaming, analyze_with_html_text};
pub use extract::{Extracted, ExtractedFile, extract};
pub use options::{Options, Profile};
pub use report::{
    BaseIgnored, BaseRecord, ByteRange, Diagnostic, DiagnosticKind, Document, EntityKind,
    EntityRecord, FileSource, HtmlText, LinkText, Opened, PartId, Report, Resolution, Summary,
    Target, Unresolved, UrlRecord, UrlSource,
};
pub use rewrite::{Rewritten, rewrite};
pub use url::ResolveError;
pub use vocab::{BaseSource, ChosenBy, DocumentKind, FieldName, Resolver, TargetMatch};
