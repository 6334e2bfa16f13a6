//! Fuzzes the MIME splitter with small limits (see `mimebase_fuzz::focused::check_mime_split`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_mime_split(data));
