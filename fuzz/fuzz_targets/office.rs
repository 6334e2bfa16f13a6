//! Fuzzes the office document reader: Office Open XML relationships and fields, OpenDocument links, RTF fields (see `mimebase_fuzz::files::check_office`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::files::check_office(data));
