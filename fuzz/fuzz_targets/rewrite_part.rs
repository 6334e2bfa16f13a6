//! Fuzzes rewrite of a one-part HTML message (see `mimebase_fuzz::focused::check_rewrite_part`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_rewrite_part(data));
