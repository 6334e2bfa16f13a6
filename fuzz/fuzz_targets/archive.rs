//! Fuzzes the ZIP archive reader and its limits (see `mimebase_fuzz::files::check_archive`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::files::check_archive(data));
