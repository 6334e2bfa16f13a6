//! Loading the file with lopdf, and opening it when it is encrypted (ISO 32000-1 §7.6).
//!
//! The first load gives no password: lopdf then tries the empty user password, which is
//! how every viewer opens a file that only has an owner password. If the trailer still has
//! its `/Encrypt` entry, the file stayed closed (lopdf removes the entry when it decrypts,
//! and keeps the security handler's state, so `/Encrypt` in the loaded trailer tells
//! "closed" from "opened with the empty password", and the state tells "opened" from "not
//! encrypted"). Each password is then checked against the closed document's encryption
//! dictionary, which costs a key derivation and no parsing, and the file is loaded once more
//! with the first one that authenticates (as user or owner password, as lopdf accepts).

use std::panic::{AssertUnwindSafe, catch_unwind};

use lopdf::{DecompressError, Document, Error, LoadOptions, Object, ObjectId};

use super::{
    Budget, Encryption, Limits, Opened, Problem, ProblemKind, lowercase_message, objstm,
    panic_message, prepare, prepare::Prepared, walk,
};

/// The document, and how it was opened.
pub(crate) struct Opening {
    /// The loaded document, with its object streams expanded; `None` when it could not be
    /// loaded or stayed closed.
    pub document: Option<Document>,
    /// Whether and how the file was decrypted.
    pub opened: Opened,
    /// The security handler, when the file is encrypted.
    pub encryption: Option<Encryption>,
}

/// Why a load failed: a problem's kind and message.
type LoadError = (ProblemKind, String);

/// The object filter passed to lopdf: it keeps every object. Its presence alone matters:
/// lopdf re-reads the whole file when the page tree did not load, unless it was given a
/// filter, and before the room has expanded object streams the page tree is often missing.
///
/// lopdf keeps the object it passes in when the filter returns `Some`, and uses the object
/// returned only for the members of the object streams it expands, which it never does here
/// (see [`prepare`]); so the object is left alone and null is returned,
/// which costs no copy.
fn keep(id: ObjectId, _object: &mut Object) -> Option<(ObjectId, Object)> {
    Some((id, Object::Null))
}

/// Whether the loaded trailer still names an encryption dictionary: the file stayed closed.
fn is_closed(document: &Document) -> bool {
    document.trailer.has(b"Encrypt")
}

/// One lopdf load of `bytes`, with a panic caught. `stream_limit` bounds each stream
/// lopdf decompresses; `reconstruct` asks it to rebuild the cross-reference table by
/// scanning for objects first (without it, lopdf rebuilds the table only when it cannot
/// read it).
fn load_once(
    bytes: &[u8],
    password: Option<&str>,
    stream_limit: usize,
    reconstruct: bool,
) -> Result<Document, LoadError> {
    let options = LoadOptions {
        password: password.map(str::to_owned),
        filter: Some(keep),
        strict: false,
        max_decompressed_size: Some(stream_limit),
        force_reconstruct: reconstruct,
    };
    match catch_unwind(AssertUnwindSafe(|| {
        Document::load_mem_with_options(bytes, options)
    })) {
        Ok(Ok(document)) => Ok(document),
        Ok(Err(error)) => {
            let kind = match error {
                Error::Decompress(DecompressError::MemoryLimitExceeded { .. }) => {
                    ProblemKind::Limit
                }
                _ => ProblemKind::Broken,
            };
            let message = lowercase_message(&error.to_string());
            Err((kind, format!("cannot load the file: {message}")))
        }
        Err(payload) => Err((
            ProblemKind::Broken,
            format!("lopdf panicked while loading: {}", panic_message(&*payload)),
        )),
    }
}

/// An integer entry of a dictionary.
fn integer(dictionary: &lopdf::Dictionary, key: &[u8]) -> Option<i64> {
    dictionary.get(key).and_then(Object::as_i64).ok()
}

/// The security handler of a closed document, from its encryption dictionary.
fn describe_closed(document: &Document) -> Encryption {
    let dictionary = document
        .trailer
        .get(b"Encrypt")
        .ok()
        .and_then(|object| walk::resolve(document, object, None))
        .and_then(|(object, _)| object.as_dict().ok());
    Encryption {
        handler: dictionary
            .and_then(|d| d.get(b"Filter").and_then(Object::as_name).ok())
            .map(|name| String::from_utf8_lossy(name).into_owned())
            .unwrap_or_default(),
        version: dictionary.and_then(|d| integer(d, b"V")),
        revision: dictionary.and_then(|d| integer(d, b"R")),
    }
}

/// The security handler of a document lopdf decrypted: the standard one, the only one it
/// knows.
fn describe_opened(document: &Document) -> Option<Encryption> {
    document.encryption_state.as_ref().map(|state| Encryption {
        handler: "Standard".to_owned(),
        version: Some(state.version()),
        revision: Some(state.revision()),
    })
}

/// Whether `password` opens the closed `document` (as its user or owner password).
fn authenticates(document: &Document, password: &str) -> bool {
    catch_unwind(AssertUnwindSafe(|| {
        document.authenticate_password(password).is_ok()
    }))
    .unwrap_or(false)
}

/// The message of the problem for a file that stayed closed.
fn closed_message(encryption: &Encryption, tried: usize) -> String {
    if encryption.handler != "Standard" {
        format!(
            "encrypted with the security handler {:?}, which cannot be opened",
            encryption.handler
        )
    } else if tried == 0 {
        "encrypted with a user password, and no password was given".to_owned()
    } else {
        format!("encrypted with a user password; none of the {tried} passwords tried opens it")
    }
}

/// Whether the catalog leads to the root of a page tree, which is what a viewer needs.
fn has_page_tree(document: &Document) -> bool {
    document
        .trailer
        .get(b"Root")
        .ok()
        .and_then(|root| walk::resolve(document, root, None))
        .and_then(|(catalog, _)| catalog.as_dict().ok())
        .and_then(|catalog| catalog.get(b"Pages").ok())
        .and_then(|pages| walk::resolve(document, pages, None))
        .and_then(|(pages, _)| pages.as_dict().ok())
        .is_some_and(|pages| pages.has(b"Kids"))
}

/// Loads and opens the prepared file, and expands its object streams (see the
/// [module docs](self)). Problems go to `problems`.
pub(crate) fn open(
    prepared: &Prepared,
    passwords: &[String],
    limits: &Limits,
    budget: &mut Budget,
    problems: &mut Vec<Problem>,
) -> Opening {
    let mut opening = Opening {
        document: None,
        opened: Opened::NotEncrypted,
        encryption: None,
    };
    if prepared.objects > limits.max_objects {
        problems.push(Problem::new(
            ProblemKind::Limit,
            format!(
                "the file may hold {} objects, more than the {} allowed",
                prepared.objects, limits.max_objects
            ),
        ));
        return opening;
    }
    let stream_limit = prepare::stream_limit(prepared, limits.max_decompressed_bytes);
    let first = match load_once(&prepared.bytes, None, stream_limit, false) {
        Ok(document) => document,
        Err((kind, message)) => {
            problems.push(Problem::new(kind, message));
            return opening;
        }
    };
    let (document, password) = if is_closed(&first) {
        let encryption = describe_closed(&first);
        let opened = passwords
            .iter()
            .enumerate()
            .find(|(_, password)| authenticates(&first, password));
        let Some((index, password)) = opened else {
            problems.push(Problem::new(
                ProblemKind::Encrypted,
                closed_message(&encryption, passwords.len()),
            ));
            opening.opened = Opened::Closed;
            opening.encryption = Some(encryption);
            return opening;
        };
        match load_once(&prepared.bytes, Some(password), stream_limit, false) {
            Ok(document) if !is_closed(&document) => {
                opening.opened = Opened::Password(index);
                opening.encryption = describe_opened(&document).or(Some(encryption));
                (document, Some(password.as_str()))
            }
            Ok(_) => {
                problems.push(Problem::new(
                    ProblemKind::Encrypted,
                    format!("password {index} authenticates but does not decrypt the file"),
                ));
                opening.opened = Opened::Closed;
                opening.encryption = Some(encryption);
                return opening;
            }
            Err((kind, message)) => {
                problems.push(Problem::new(kind, message));
                opening.opened = Opened::Closed;
                opening.encryption = Some(encryption);
                return opening;
            }
        }
    } else {
        if first.was_encrypted() {
            opening.opened = Opened::EmptyPassword;
            opening.encryption = describe_opened(&first);
        }
        (first, None)
    };
    opening.document = Some(finish(
        document,
        &prepared.bytes,
        password,
        stream_limit,
        limits,
        budget,
        problems,
    ));
    opening
}

/// Expands the object streams of a loaded document; when its page tree is still missing
/// and its cross-reference table was read as written, loads it once more with the table
/// rebuilt (what lopdf would have done itself without the filter), and keeps that load if
/// it finds the page tree.
fn finish(
    mut document: Document,
    bytes: &[u8],
    password: Option<&str>,
    stream_limit: usize,
    limits: &Limits,
    budget: &mut Budget,
    problems: &mut Vec<Problem>,
) -> Document {
    objstm::expand(&mut document, limits.max_objects, budget, problems);
    let rebuilt = document.xref_recovery == Some(lopdf::xref::XrefRecovery::Reconstructed);
    if has_page_tree(&document) || rebuilt {
        return document;
    }
    let Ok(mut again) = load_once(bytes, password, stream_limit, true) else {
        return document;
    };
    if is_closed(&again) {
        return document;
    }
    let mut again_problems = Vec::new();
    objstm::expand(&mut again, limits.max_objects, budget, &mut again_problems);
    if has_page_tree(&again) {
        problems.extend(again_problems);
        again
    } else {
        document
    }
}
