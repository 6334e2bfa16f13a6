//! Tests of the office room: the field code and formula readers and the text maps on their
//! own; hand-written packages and RTF files with the links in every shape the readers know;
//! documents written by Python's office libraries, checked against an independent reading in
//! Python; and mutated documents that must not make the room panic.

mod packages;
mod python;
mod rtf;
mod units;

use std::io::{Cursor, Write};

use zip::ZipWriter;
use zip::write::SimpleFileOptions;

use super::{Link, Reading};

/// A ZIP package of `(name, text)` members, deflated.
fn package(members: &[(&str, &str)]) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in members {
        writer.start_file(*name, options).unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// The targets of a reading, in order.
fn targets(reading: &Reading) -> Vec<&str> {
    reading
        .links
        .iter()
        .map(|link| link.target.as_str())
        .collect()
}

/// The text a link's range covers in `bytes` (the member's text or the file).
fn written<'b>(bytes: &'b [u8], link: &Link) -> &'b str {
    std::str::from_utf8(&bytes[link.range.clone()]).unwrap()
}
