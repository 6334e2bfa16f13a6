//! Fuzzes the calendar reader (see `mimebase_fuzz::files::check_calendar`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::files::check_calendar(data));
