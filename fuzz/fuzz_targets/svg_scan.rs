//! Fuzzes the SVG scanner on a decoded document (see `mimebase_fuzz::focused::check_svg_scan`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::focused::check_svg_scan(data));
