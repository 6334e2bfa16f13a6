//! `libmimebase`: mimebase's analysis for programs written in C, or in any language that calls
//! C (LuaJIT's FFI, Perl's FFI::Platypus, Python's ctypes): the effective base URL of every
//! part of an email message (RFC 1808 §3, RFC 2110, RFC 2557) and every URL a reader can reach
//! in it, resolved.
//!
//! The header is `capi/include/mimebase.h`, generated from this crate by cbindgen; `README.md`
//! beside it says how to build, install and link the library. In C:
//!
//! ```c
//! mimebase_options *options = mimebase_options_new();
//! mimebase_options_set(options, "resolver", 8, "whatwg", 6);
//! mimebase_report *report = NULL;
//! if (mimebase_analyze(message, message_len, options, &report) == MIMEBASE_OK) {
//!     for (size_t i = 0; i < mimebase_report_url_count(report); i++) {
//!         mimebase_url url;
//!         mimebase_report_url(report, i, &url);
//!         if (url.resolved.ptr != NULL)
//!             printf("%.*s\n", (int)url.resolved.len, url.resolved.ptr);
//!     }
//!     mimebase_report_free(report);
//! }
//! mimebase_options_free(options);
//! ```
//!
//! # Ownership and lifetimes
//!
//! - A `mimebase_options` comes from [`mimebase_options_new`] and is freed with
//!   [`mimebase_options_free`]; a `mimebase_report` comes from [`mimebase_analyze`] and is
//!   freed with [`mimebase_report_free`]. Nothing else allocates for the caller, and the
//!   caller frees nothing else.
//! - Every string handed out is a [`mimebase_str`]: a pointer and a length in bytes, UTF-8,
//!   **not** NUL-terminated, borrowed from the object it came from. The strings of a report
//!   (those of its records and its JSON) stay valid, unchanged, until that report is freed;
//!   the options' error message until the next [`mimebase_options_set`] or
//!   [`mimebase_options_free`] on those options. A string with a NULL `ptr` (and `len` 0) is
//!   "none": the field has no value. An empty value has a non-NULL `ptr` and `len` 0.
//! - The records ([`mimebase_url`], [`mimebase_entity`]) are plain structs the caller owns
//!   (on its stack, say), filled by copy; only the strings in them are borrowed.
//! - The message's bytes are only read during [`mimebase_analyze`]: the caller may free them
//!   as soon as it returns. The report keeps copies of what it hands out.
//! - [`mimebase_version`] returns a static string.
//!
//! What is undefined, as everywhere in C: passing a pointer that did not come from the
//! matching constructor, or one already freed (freeing twice included); using a string after
//! its object was freed; a pointer and length that do not describe readable memory. The API
//! is shaped so that the remaining mistakes are refused: every pointer argument is checked for
//! NULL, every length against what an object can be, every index against the count, and a
//! record is copied out rather than pointed into, so nothing but the strings can outlive its
//! report.
//!
//! # Errors
//!
//! A function that can fail returns a [`mimebase_status`]; [`mimebase_options_set`] also keeps a
//! message for people ([`mimebase_options_error`]). A function whose result is a count, a flag
//! or a string returns 0 or "none" for a NULL handle. Bad input *inside* the message is never
//! an error: it is a diagnostic in the report, as in the Rust library.
//!
//! No panic crosses the boundary: every function catches one (there should be none: the
//! analysis is written to be total over its input) and returns
//! [`mimebase_status::MIMEBASE_ERROR_INTERNAL`], NULL, 0 or "none". The panic's message is
//! printed on standard error by Rust's default panic hook, which the library leaves as the
//! program set it. Running out of memory aborts the process, as it does in Rust programs.
//!
//! # Threads
//!
//! Every function may be called from any thread. Calls on *different* objects never interfere.
//! Calls that only read an object (those taking a `const` pointer: [`mimebase_analyze`] with
//! shared options, every `mimebase_report_*` accessor, [`mimebase_options_error`]) may run at
//! the same time on the same object; a call that changes or frees an object
//! ([`mimebase_options_set`], [`mimebase_options_free`], [`mimebase_report_free`]) must not
//! run at the same time as any other call on that object. So a filter may share one options
//! object among its worker threads, each analyzing its own messages into its own reports.
//!
//! # ABI
//!
//! The shared library's SONAME is `libmimebase.so.0`. Within one SONAME, functions and enum
//! values are only added, never changed or removed, and the structs the caller allocates
//! ([`mimebase_str`], [`mimebase_url`], [`mimebase_entity`]) never change size or layout: a new
//! field means a new struct and a new accessor. Anything else bumps the SONAME.

use std::ffi::c_char;
use std::panic::{AssertUnwindSafe, UnwindSafe, catch_unwind};

mod options;
mod report;

pub use options::{
    mimebase_options, mimebase_options_error, mimebase_options_free, mimebase_options_new,
    mimebase_options_set,
};
pub use report::{
    mimebase_analyze, mimebase_entity, mimebase_opened, mimebase_report, mimebase_report_complete,
    mimebase_report_entity, mimebase_report_entity_count, mimebase_report_entity_opened,
    mimebase_report_free, mimebase_report_json, mimebase_report_summary, mimebase_report_url,
    mimebase_report_url_count, mimebase_report_url_ignored, mimebase_summary, mimebase_url,
};

/// What a function that can fail returns. The numbers are part of the ABI: they never change,
/// and new ones are only added.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum mimebase_status {
    /// Success.
    MIMEBASE_OK = 0,
    /// A required pointer argument was NULL (or a pointer was NULL with a nonzero length).
    MIMEBASE_ERROR_NULL = 1,
    /// A bad name, value, length or index: an option name or value the library does not know
    /// (see `mimebase_options_error` for which), text that is not UTF-8, a length larger
    /// than any object (over `PTRDIFF_MAX` bytes), an index not below its count.
    MIMEBASE_ERROR_INVALID = 2,
    /// The message is larger than the `max_message_bytes` option: it was not analyzed.
    MIMEBASE_ERROR_TOO_LARGE = 3,
    /// A panic inside mimebase, caught at the boundary (a bug: please report it with the
    /// message). The call had no effect; no object was created.
    MIMEBASE_ERROR_INTERNAL = 4,
}

/// A string handed out by the library: `len` bytes of UTF-8 at `ptr`, **not** NUL-terminated
/// (print it with `printf("%.*s", (int)s.len, s.ptr)`). Borrowed from the object it came from
/// and valid until that object is freed (see each function). `ptr` NULL (and `len` 0) means
/// "none": the field has no value; an empty string has a non-NULL `ptr` (to a valid, static
/// location) and `len` 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct mimebase_str {
    /// The first byte, or NULL for "none".
    pub ptr: *const c_char,
    /// The length in bytes.
    pub len: usize,
}

impl mimebase_str {
    /// "None": NULL and 0.
    pub(crate) const NONE: mimebase_str = mimebase_str {
        ptr: std::ptr::null(),
        len: 0,
    };

    /// A view of `text`, which must outlive every use of the view (the caller's object owns
    /// it). An empty string points to a static empty C string rather than to the dangling
    /// address Rust gives an empty slice, so that C code may pass it to `memcpy` and the like.
    pub(crate) fn of(text: &str) -> mimebase_str {
        if text.is_empty() {
            return mimebase_str {
                ptr: c"".as_ptr(),
                len: 0,
            };
        }
        mimebase_str {
            ptr: text.as_ptr().cast(),
            len: text.len(),
        }
    }

    /// A view of `text`, or "none".
    pub(crate) fn of_option(text: Option<&str>) -> mimebase_str {
        text.map_or(Self::NONE, Self::of)
    }
}

/// The version of the library, NUL-terminated and static (never freed): `"0.1.0"`, the
/// version of the mimebase release it was built from.
#[unsafe(no_mangle)]
pub extern "C" fn mimebase_version() -> *const c_char {
    VERSION.as_ptr()
}

/// `mimebase_version`'s text, with its NUL.
const VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
) {
    Ok(version) => version,
    Err(_) => c"",
};

/// Runs `body`, turning a panic into `on_panic`: no unwinding crosses into C, where it would be
/// undefined behaviour (an `extern "C"` function would abort the process instead).
pub(crate) fn boundary<T>(on_panic: T, body: impl FnOnce() -> T + UnwindSafe) -> T {
    catch_unwind(body).unwrap_or(on_panic)
}

/// `boundary` for a closure that holds references the caller handed over: after a panic
/// nothing the closure touched is used again (a report being built is dropped, options are
/// only read), so no broken invariant can be observed.
pub(crate) fn boundary_any<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    boundary(on_panic, AssertUnwindSafe(body))
}

/// The bytes at `ptr`, `len` long, checked as far as C allows: NULL is refused unless `len`
/// is 0 (an empty input), and a length over `isize::MAX` (which no object has) is refused.
///
/// # Safety
///
/// When `ptr` is not NULL, it must point to `len` readable bytes that stay unchanged for
/// `'a`.
pub(crate) unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], mimebase_status> {
    if len > isize::MAX as usize {
        return Err(mimebase_status::MIMEBASE_ERROR_INVALID);
    }
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(mimebase_status::MIMEBASE_ERROR_NULL)
        };
    }
    // SAFETY: `ptr` is not NULL and, by this function's contract, points to `len` readable
    // bytes that stay unchanged for `'a`; `len` is at most `isize::MAX`, as
    // `slice::from_raw_parts` requires.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_the_crates() {
        // SAFETY: the pointer is the static NUL-terminated VERSION.
        let version = unsafe { std::ffi::CStr::from_ptr(mimebase_version()) };
        assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }

    #[test]
    fn bytes_refuses_null_with_a_length_and_lengths_no_object_has() {
        // SAFETY: NULL with a length is refused before any read.
        let null_with_length = unsafe { bytes(std::ptr::null(), 1) };
        assert_eq!(null_with_length, Err(mimebase_status::MIMEBASE_ERROR_NULL));
        // SAFETY: an empty input needs no memory.
        let empty = unsafe { bytes(std::ptr::null(), 0) };
        assert_eq!(empty, Ok(&[][..]));
        let one = [1u8];
        // SAFETY: the length is refused before any read.
        let too_long = unsafe { bytes(one.as_ptr(), usize::MAX) };
        assert_eq!(too_long, Err(mimebase_status::MIMEBASE_ERROR_INVALID));
    }

    #[test]
    fn a_panic_becomes_the_value_given() {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let value = boundary_any(7, || -> i32 { panic!("inside") });
        std::panic::set_hook(previous);
        assert_eq!(value, 7);
    }
}
