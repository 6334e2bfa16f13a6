//! Fuzzes the PDF reader on objects and streams, and its limits (see `mimebase_fuzz::files::check_pdf`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::files::check_pdf(data));
