//! Fuzzes the plain-text link finder with its flowed and enriched maps (see
//! `mimebase_fuzz::focused::check_text_links`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_text_links(data));
