//! Fuzzes the stated-password finder (see `mimebase_fuzz::files::check_passwords`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::files::check_passwords(data));
