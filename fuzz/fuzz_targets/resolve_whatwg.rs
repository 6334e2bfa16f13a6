//! Fuzzes the `whatwg` resolver with its oracle (see `mimebase_fuzz::check_whatwg`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mimebase::url::Resolver;

fuzz_target!(|data: &[u8]| mimebase_fuzz::run(Resolver::Whatwg, data));
