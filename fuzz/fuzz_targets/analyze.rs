//! Fuzzes `analyze` and `rewrite` on mutated real mail (see `mimebase_fuzz::check_analyze`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::check_analyze(data));
