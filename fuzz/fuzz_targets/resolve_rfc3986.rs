//! Fuzzes the `rfc3986` resolver with its oracle (see `mimebase_fuzz::check_rfc3986`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mimebase::url::Resolver;

fuzz_target!(|data: &[u8]| mimebase_fuzz::run(Resolver::Rfc3986, data));
