//! Fuzzes the HTML scanner on a decoded body (see `mimebase_fuzz::focused::check_html_scan`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_html_scan(data));
