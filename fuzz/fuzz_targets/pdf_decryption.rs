//! Fuzzes the PDF reader's decryption with passwords (see `mimebase_fuzz::files::check_pdf_decryption`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mimebase_fuzz::files::check_pdf_decryption(data));
