//! Fuzzes the `rfc1808` resolver with its oracle (see `mimebase_fuzz::check_rfc1808`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mimebase::url::Resolver;

fuzz_target!(|data: &[u8]| mimebase_fuzz::run(Resolver::Rfc1808, data));
