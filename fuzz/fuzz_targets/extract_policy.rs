//! Fuzzes where `extract` puts the Content-Security-Policy of an offline page (see
//! `mimebase_fuzz::focused::check_extract_policy`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_extract_policy(data));
