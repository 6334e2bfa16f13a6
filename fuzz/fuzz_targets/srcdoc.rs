//! Fuzzes the scan of `<iframe srcdoc>` documents (see `mimebase_fuzz::focused::check_srcdoc`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_srcdoc(data));
