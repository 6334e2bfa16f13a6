//! `mimebase_options`: how messages are analyzed, set by name and value.

use std::ffi::c_char;
use std::str::FromStr;

use mimebase::{Options, Profile, Resolver};

use crate::{boundary, boundary_any, bytes, mimebase_status, mimebase_str};

/// How `mimebase_analyze` works: the resolver, the profile of base
/// precedence, the retrieval URL, the limits. Opaque: made by `mimebase_options_new`, changed
/// by `mimebase_options_set`, freed by `mimebase_options_free`.
#[allow(non_camel_case_types)]
pub struct mimebase_options {
    /// The library's options, as set so far.
    pub(crate) options: Options,
    /// The largest message `mimebase_analyze` analyzes, in bytes.
    pub(crate) max_message_bytes: usize,
    /// The message of the last `mimebase_options_set` that failed; empty when none did.
    error: String,
}

/// The default of `max_message_bytes`: 64 MiB, the largest message `mimebase scan` reads.
const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The option names, in the order the error message lists them.
const NAMES: &[&str] = &[
    "resolver",
    "profile",
    "retrieval_url",
    "text_links",
    "file_links",
    "max_message_bytes",
    "max_urls",
    "max_depth",
    "max_entities",
    "max_header_bytes",
    "max_decoded_bytes",
    "max_encoded_levels",
    "max_file_bytes",
    "max_file_objects",
    "max_archive_depth",
    "max_archive_members",
    "max_passwords",
];

impl Default for mimebase_options {
    fn default() -> Self {
        mimebase_options {
            options: Options::new(),
            max_message_bytes: MAX_MESSAGE_BYTES,
            error: String::new(),
        }
    }
}

impl mimebase_options {
    /// Sets option `name` to `value`, or says why not (a message for people).
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let options = self.options.clone();
        self.options = match name {
            "resolver" => options.with_resolver(parse::<Resolver>(value)?),
            "profile" => options.with_profile(parse::<Profile>(value)?),
            "retrieval_url" if value.is_empty() => options.without_retrieval_url(),
            "retrieval_url" => options.with_retrieval_url(value),
            "text_links" => options.with_text_links(flag(name, value)?),
            "file_links" => options.with_file_links(flag(name, value)?),
            "max_message_bytes" => {
                self.max_message_bytes = number(name, value)?;
                options.with_max_message_bytes(self.max_message_bytes)
            }
            "max_urls" => options.with_max_urls(number(name, value)?),
            "max_depth" => options.with_max_depth(number(name, value)?),
            "max_entities" => options.with_max_entities(number(name, value)?),
            "max_header_bytes" => options.with_max_header_bytes(number(name, value)?),
            "max_decoded_bytes" => options.with_max_decoded_bytes(number(name, value)?),
            "max_encoded_levels" => options.with_max_encoded_levels(number(name, value)?),
            "max_file_bytes" => options.with_max_file_bytes(number(name, value)?),
            "max_file_objects" => options.with_max_file_objects(number(name, value)?),
            "max_archive_depth" => options.with_max_archive_depth(number(name, value)?),
            "max_archive_members" => options.with_max_archive_members(number(name, value)?),
            "max_passwords" => options.with_max_passwords(number(name, value)?),
            _ => {
                return Err(format!(
                    "unknown option {name:?}: the options are {}",
                    NAMES.join(", ")
                ));
            }
        };
        Ok(())
    }
}

/// `value` read as a name of the vocabulary `T` (a resolver, a profile); the error names those
/// it could be (`unknown resolver "fast": expected one of rfc1808, rfc3986, whatwg`).
fn parse<T: FromStr<Err: std::fmt::Display>>(value: &str) -> Result<T, String> {
    value.parse().map_err(|error: T::Err| error.to_string())
}

/// `value` read as a flag: `true` or `false`.
fn flag(name: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "invalid value {value:?} for {name}: expected true or false"
        )),
    }
}

/// `value` read as a count: decimal digits only (no sign, no blanks), at most `SIZE_MAX`.
fn number(name: &str, value: &str) -> Result<usize, String> {
    if !value.is_empty()
        && value.bytes().all(|byte| byte.is_ascii_digit())
        && let Ok(number) = value.parse()
    {
        return Ok(number);
    }
    Err(format!(
        "invalid value {value:?} for {name}: expected a whole number from 0 to {}",
        usize::MAX
    ))
}

/// A new options object with the library's defaults: the `rfc1808` resolver, the `default`
/// profile, no retrieval URL, plain-text links reported, `max_message_bytes` 64 MiB
/// (67108864 bytes) and the Rust library's documented limits.
///
/// The caller owns it and frees it with `mimebase_options_free`. Returns NULL only when a
/// panic was caught (never expected).
#[unsafe(no_mangle)]
pub extern "C" fn mimebase_options_new() -> *mut mimebase_options {
    boundary(std::ptr::null_mut(), || {
        Box::into_raw(Box::new(mimebase_options::default()))
    })
}

/// Frees `options`, made by `mimebase_options_new`; NULL is accepted and does nothing.
///
/// Reports made with these options stay valid: they hold nothing of them.
///
/// # Safety
///
/// `options` is NULL or a pointer from `mimebase_options_new` not yet freed; no other call
/// on it may run at the same time, and it is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_options_free(options: *mut mimebase_options) {
    if options.is_null() {
        return;
    }
    boundary_any((), || {
        // SAFETY: `options` is not NULL and, by this function's contract, came from
        // `Box::into_raw` in `mimebase_options_new` and is freed once.
        drop(unsafe { Box::from_raw(options) });
    });
}

/// Sets the option named by `name` (`name_len` bytes) to `value` (`value_len` bytes). Names and
/// values are ASCII, compared exactly (case matters), without NUL terminators:
///
/// | name | value | default |
/// |------|-------|---------|
/// | `resolver` | `rfc1808`, `rfc3986` or `whatwg` (the link a reader's client opens; what a filter wants) | `rfc1808` |
/// | `profile` | `default`, `rfc1808` or `mhtml` (which base header fields count) | `default` |
/// | `retrieval_url` | the URL the message was retrieved from (the root's base when nothing else gives one); empty for none | none |
/// | `text_links` | `true` or `false`: report the links a client makes of plain text | `true` |
/// | `file_links` | `true` or `false`: report the links inside the files a reader opens (PDF, calendar, shortcut, office, ZIP members) | `true` |
/// | `max_message_bytes` | the largest message analyzed, in bytes; a larger one is `MIMEBASE_ERROR_TOO_LARGE` | 67108864 (64 MiB) |
/// | `max_urls` | URL records per message | 100000 |
/// | `max_depth` | how deep entities may nest | 100 |
/// | `max_entities` | entities walked per message | (64 MiB + 4 × the message's size) / 2 KiB |
/// | `max_header_bytes` | the largest header block of one entity, in bytes | 67108864 |
/// | `max_decoded_bytes` | bytes that decoding may produce for one message | 67108864 |
/// | `max_encoded_levels` | encoded encapsulated messages nested in one another | 4 |
/// | `max_file_bytes` | bytes that decompressing one file may produce | 33554432 (32 MiB) |
/// | `max_file_objects` | objects read of one PDF file | 200000 |
/// | `max_archive_depth` | ZIP archives nested in one another | 4 |
/// | `max_archive_members` | members read of one ZIP archive | 1000 |
/// | `max_passwords` | passwords the message states, tried on each encrypted file | 16 |
///
/// Numbers are decimal digits only. Reaching a `max_*` limit other than `max_message_bytes`
/// makes the report incomplete (`mimebase_report_complete`
/// returns 0) and leaves a diagnostic in its JSON; the rest of the message is still analyzed.
///
/// # Errors
///
/// - `MIMEBASE_ERROR_NULL`: `options` is NULL, or `name` or `value` is
///   NULL with a nonzero length;
/// - `MIMEBASE_ERROR_INVALID`: an unknown name, a value the option does
///   not take, a name or value that is not UTF-8, a length over `PTRDIFF_MAX`. The options are
///   unchanged and `mimebase_options_error` says what was wrong.
///
/// # Safety
///
/// `options` is NULL or a live pointer from `mimebase_options_new`, with no other call on it
/// running at the same time; `name` and `value` are NULL or point to `name_len` and
/// `value_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_options_set(
    options: *mut mimebase_options,
    name: *const c_char,
    name_len: usize,
    value: *const c_char,
    value_len: usize,
) -> mimebase_status {
    boundary_any(mimebase_status::MIMEBASE_ERROR_INTERNAL, || {
        // SAFETY: by this function's contract `options` is NULL or a live, unshared pointer
        // from `mimebase_options_new`.
        let Some(options) = (unsafe { options.as_mut() }) else {
            return mimebase_status::MIMEBASE_ERROR_NULL;
        };
        // SAFETY: by this function's contract `name` and `value` are NULL or point to that many
        // readable bytes, which are only read during this call.
        let (name, value) =
            match unsafe { (bytes(name.cast(), name_len), bytes(value.cast(), value_len)) } {
                (Ok(name), Ok(value)) => (name, value),
                (Err(status), _) | (_, Err(status)) => {
                    options.error = match status {
                        mimebase_status::MIMEBASE_ERROR_NULL => {
                            "a NULL name or value with a nonzero length".to_owned()
                        }
                        _ => "a length larger than any object".to_owned(),
                    };
                    return status;
                }
            };
        let outcome = match (std::str::from_utf8(name), std::str::from_utf8(value)) {
            (Ok(name), Ok(value)) => options.set(name, value),
            (Err(_), _) => Err(format!(
                "the option name {} is not UTF-8",
                String::from_utf8_lossy(name).escape_debug()
            )),
            (_, Err(_)) => Err(format!(
                "the value {} is not UTF-8",
                String::from_utf8_lossy(value).escape_debug()
            )),
        };
        match outcome {
            Ok(()) => mimebase_status::MIMEBASE_OK,
            Err(message) => {
                options.error = message;
                mimebase_status::MIMEBASE_ERROR_INVALID
            }
        }
    })
}

/// The message of the last `mimebase_options_set` on `options` that failed, for people
/// (`unknown resolver "fast": expected one of rfc1808, rfc3986, whatwg`); "none" when none
/// failed, or `options` is NULL.
///
/// The string belongs to `options` and stays valid until the next `mimebase_options_set` or
/// `mimebase_options_free` on them.
///
/// # Safety
///
/// `options` is NULL or a live pointer from `mimebase_options_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mimebase_options_error(options: *const mimebase_options) -> mimebase_str {
    boundary_any(mimebase_str::NONE, || {
        // SAFETY: by this function's contract `options` is NULL or live; it is only read.
        match unsafe { options.as_ref() } {
            Some(options) if !options.error.is_empty() => mimebase_str::of(&options.error),
            _ => mimebase_str::NONE,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_settable_and_bad_values_say_why() {
        let mut options = mimebase_options::default();
        for name in NAMES {
            let value = match *name {
                "resolver" => "whatwg",
                "profile" => "mhtml",
                "retrieval_url" => "http://example.com/",
                "text_links" | "file_links" => "false",
                _ => "7",
            };
            assert_eq!(options.set(name, value), Ok(()), "{name}");
        }
        assert_eq!(options.options.resolver(), Resolver::Whatwg);
        assert_eq!(options.options.profile(), Profile::Mhtml);
        assert_eq!(options.options.retrieval_url(), Some("http://example.com/"));
        assert!(!options.options.text_links());
        assert!(!options.options.file_links());
        assert_eq!(options.options.max_file_bytes(), 7);
        assert_eq!(options.options.max_passwords(), 7);
        assert_eq!(options.max_message_bytes, 7);
        assert_eq!(options.options.max_entities(), Some(7));
        options.set("retrieval_url", "").unwrap();
        assert_eq!(options.options.retrieval_url(), None);
        // Clearing the retrieval URL keeps every other option.
        assert_eq!(options.options.max_entities(), Some(7));
        assert_eq!(options.options.max_encoded_levels(), 7);
        assert_eq!(options.options.resolver(), Resolver::Whatwg);

        let error = options.set("resolver", "fast").unwrap_err();
        assert!(
            error.contains("\"fast\"") && error.contains("whatwg"),
            "{error}"
        );
        for bad in ["", "-1", "+1", " 1", "1e3", "99999999999999999999999"] {
            let error = options.set("max_urls", bad).unwrap_err();
            assert!(error.contains("max_urls"), "{error}");
        }
        let error = options.set("Resolver", "whatwg").unwrap_err();
        assert!(error.starts_with("unknown option \"Resolver\""), "{error}");
        assert_eq!(options.options.resolver(), Resolver::Whatwg);
    }
}
