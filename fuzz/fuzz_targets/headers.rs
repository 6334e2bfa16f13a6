//! Fuzzes header blocks, base-field values and RFC 2369 lists (see `mimebase_fuzz::focused::check_headers`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_headers(data));
