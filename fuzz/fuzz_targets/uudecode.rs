//! Fuzzes the uuencode transfer decoder: bounds on any body, and round trips through a
//! reference encoder (see `mimebase_fuzz::focused::check_uudecode`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_uudecode(data));
