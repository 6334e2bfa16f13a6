//! Fuzzes the CSS url() finder (see `mimebase_fuzz::focused::check_css`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_css(data));
