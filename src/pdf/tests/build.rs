//! Writing small PDF files for the tests: objects, a correct cross-reference table, and
//! the broken variants.

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;

/// A PDF file under construction: numbered objects in order, the trailer's extra entries.
#[derive(Clone, Default)]
pub(super) struct Pdf {
    /// Object number and body (what goes between `obj` and `endobj`).
    objects: Vec<(u32, Vec<u8>)>,
    /// Where each object number is in `objects`.
    index: std::collections::HashMap<u32, usize>,
    /// Trailer entries besides `/Size` and `/Root`.
    trailer: Vec<u8>,
}

/// zlib-compressed `data` (FlateDecode, ISO 32000-1 §7.4.4).
pub(super) fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

/// A stream object's body: `dictionary` entries, `/Length`, and the data.
pub(super) fn stream(dictionary: &str, data: &[u8]) -> Vec<u8> {
    let mut body = format!("<< {dictionary} /Length {} >>\nstream\n", data.len()).into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(b"\nendstream");
    body
}

/// A FlateDecode stream object's body.
pub(super) fn flate_stream(dictionary: &str, data: &[u8]) -> Vec<u8> {
    stream(
        &format!("{dictionary} /Filter /FlateDecode"),
        &deflate(data),
    )
}

impl Pdf {
    /// An empty file.
    pub(super) fn new() -> Self {
        Self::default()
    }

    /// A catalog (1), a page tree (2) and one page (3), each with extra entries, and the
    /// page's content stream (4) showing `text` in Helvetica (font 5).
    pub(super) fn one_page(catalog: &str, page: &str, text: &str) -> Self {
        let content = format!("BT /F1 12 Tf 72 712 Td ({text}) Tj ET");
        Self::new()
            .object(1, format!("<< /Type /Catalog /Pages 2 0 R {catalog} >>"))
            .object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
            .object(
                3,
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
                     /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R {page} >>"
                ),
            )
            .object(4, stream("", content.as_bytes()))
            .object(
                5,
                "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            )
    }

    /// Adds object `number` with `body`, or replaces its body if it is there.
    pub(super) fn object(mut self, number: u32, body: impl AsRef<[u8]>) -> Self {
        let body = body.as_ref().to_vec();
        match self.index.get(&number) {
            Some(&at) => self.objects[at].1 = body,
            None => {
                self.index.insert(number, self.objects.len());
                self.objects.push((number, body));
            }
        }
        self
    }

    /// Adds trailer entries.
    pub(super) fn trailer(mut self, entries: &str) -> Self {
        self.trailer.extend_from_slice(entries.as_bytes());
        self.trailer.push(b' ');
        self
    }

    /// The header, the objects, and the offset of each object.
    fn body(&self) -> (Vec<u8>, Vec<(u32, usize)>) {
        let mut out = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec();
        let mut offsets = Vec::new();
        for (number, body) in &self.objects {
            offsets.push((*number, out.len()));
            out.extend_from_slice(format!("{number} 0 obj\n").as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        (out, offsets)
    }

    /// The file, with a correct cross-reference table (ISO 32000-1 §7.5.4).
    pub(super) fn build(&self) -> Vec<u8> {
        let (mut out, offsets) = self.body();
        let size = offsets.iter().map(|(n, _)| n + 1).max().unwrap_or(1);
        let start = out.len();
        write_xref(&mut out, &offsets, size, &self.trailer, None, start);
        out
    }

    /// The file with no cross-reference table and a `startxref` that points nowhere: a
    /// reader must find the objects by scanning.
    pub(super) fn build_without_xref(&self) -> Vec<u8> {
        let (mut out, offsets) = self.body();
        let size = offsets.iter().map(|(n, _)| n + 1).max().unwrap_or(1);
        let trailer = String::from_utf8_lossy(&self.trailer).into_owned();
        out.extend_from_slice(
            format!("trailer\n<< /Size {size} /Root 1 0 R {trailer}>>\nstartxref\n999999\n%%EOF\n")
                .as_bytes(),
        );
        out
    }

    /// The file with a cross-reference table whose offsets are all wrong by 7 bytes.
    pub(super) fn build_with_shifted_xref(&self) -> Vec<u8> {
        let (mut out, offsets) = self.body();
        let shifted: Vec<(u32, usize)> = offsets.iter().map(|&(n, o)| (n, o + 7)).collect();
        let size = offsets.iter().map(|(n, _)| n + 1).max().unwrap_or(1);
        let start = out.len();
        write_xref(&mut out, &shifted, size, &self.trailer, None, start);
        out
    }

    /// `base` (a whole file) with this file's objects appended as an incremental update
    /// (ISO 32000-1 §7.5.6): a new cross-reference section for them, and a trailer with
    /// `/Prev`.
    pub(super) fn append_to(&self, base: &[u8]) -> Vec<u8> {
        let prev = previous_startxref(base);
        let mut out = base.to_vec();
        let mut offsets = Vec::new();
        for (number, body) in &self.objects {
            offsets.push((*number, out.len()));
            out.extend_from_slice(format!("{number} 0 obj\n").as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let size = offsets
            .iter()
            .map(|(n, _)| n + 1)
            .max()
            .unwrap_or(1)
            .max(64);
        let start = out.len();
        write_xref(&mut out, &offsets, size, &self.trailer, Some(prev), start);
        out
    }
}

/// The offset `startxref` of `file` names.
fn previous_startxref(file: &[u8]) -> usize {
    let text = String::from_utf8_lossy(file);
    let at = text.rfind("startxref").unwrap();
    text[at + 9..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// Writes a cross-reference table with one subsection per object, the trailer and
/// `startxref`.
fn write_xref(
    out: &mut Vec<u8>,
    offsets: &[(u32, usize)],
    size: u32,
    trailer: &[u8],
    prev: Option<usize>,
    start: usize,
) {
    out.extend_from_slice(b"xref\n0 1\n0000000000 65535 f \n");
    let mut sorted = offsets.to_vec();
    sorted.sort_unstable();
    for (number, offset) in sorted {
        out.extend_from_slice(format!("{number} 1\n{offset:010} 00000 n \n").as_bytes());
    }
    let prev = prev.map(|p| format!("/Prev {p} ")).unwrap_or_default();
    out.extend_from_slice(format!("trailer\n<< /Size {size} /Root 1 0 R {prev}").as_bytes());
    out.extend_from_slice(trailer);
    out.extend_from_slice(format!(">>\nstartxref\n{start}\n%%EOF\n").as_bytes());
}

/// An object stream's body (ISO 32000-1 §7.5.7) holding `objects` (number, text),
/// compressed.
pub(super) fn object_stream(objects: &[(u32, &str)]) -> Vec<u8> {
    let mut index = String::new();
    let mut data = String::new();
    for (number, text) in objects {
        index.push_str(&format!("{number} {} ", data.len()));
        data.push_str(text);
        data.push('\n');
    }
    let first = index.len();
    let content = format!("{index}{data}");
    flate_stream(
        &format!("/Type /ObjStm /N {} /First {first}", objects.len()),
        content.as_bytes(),
    )
}

impl Pdf {
    /// The file with a cross-reference stream (ISO 32000-1 §7.5.8) instead of a table, as
    /// object `xref`, naming the objects of `compressed` (number, object stream, index) as
    /// stored in object streams.
    pub(super) fn build_with_xref_stream(
        &self,
        xref: u32,
        compressed: &[(u32, u32, u16)],
    ) -> Vec<u8> {
        let (mut out, offsets) = self.body();
        let size = offsets
            .iter()
            .map(|(n, _)| n + 1)
            .chain(compressed.iter().map(|(n, _, _)| n + 1))
            .chain([xref + 1])
            .max()
            .unwrap();
        let start = out.len();
        let mut data = Vec::new();
        for number in 0..size {
            let entry: (u8, u32, u16) = if number == xref {
                (1, u32::try_from(start).unwrap(), 0)
            } else if let Some((_, offset)) = offsets.iter().find(|(n, _)| *n == number) {
                (1, u32::try_from(*offset).unwrap(), 0)
            } else if let Some((_, container, index)) =
                compressed.iter().find(|(n, _, _)| *n == number)
            {
                (2, *container, *index)
            } else {
                (0, 0, 0)
            };
            data.push(entry.0);
            data.extend_from_slice(&entry.1.to_be_bytes());
            data.extend_from_slice(&entry.2.to_be_bytes());
        }
        let trailer = String::from_utf8_lossy(&self.trailer).into_owned();
        let body = stream(
            &format!("/Type /XRef /Size {size} /Root 1 0 R /W [1 4 2] {trailer}"),
            &data,
        );
        out.extend_from_slice(format!("{xref} 0 obj\n").as_bytes());
        out.extend_from_slice(&body);
        out.extend_from_slice(format!("\nendobj\nstartxref\n{start}\n%%EOF\n").as_bytes());
        out
    }
}

/// `data` in ASCIIHexDecode form (ISO 32000-1 §7.4.2), with its end marker.
pub(super) fn ascii_hex(data: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = data
        .iter()
        .flat_map(|b| format!("{b:02X}").into_bytes())
        .collect();
    out.push(b'>');
    out
}

/// `data` in ASCII85Decode form (ISO 32000-1 §7.4.3), with its end marker.
pub(super) fn ascii85(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for chunk in data.chunks(4) {
        let mut group = [0u8; 4];
        group[..chunk.len()].copy_from_slice(chunk);
        let mut value = u32::from_be_bytes(group);
        if chunk.len() == 4 && value == 0 {
            out.push(b'z');
            continue;
        }
        let mut digits = [0u8; 5];
        for digit in digits.iter_mut().rev() {
            *digit = u8::try_from(value % 85).unwrap() + b'!';
            value /= 85;
        }
        out.extend_from_slice(&digits[..chunk.len() + 1]);
    }
    out.extend_from_slice(b"~>");
    out
}

/// `data` as PNG rows of `columns` bytes, each with the predictor "Up" (ISO 32000-1
/// §7.4.4.4, `/Predictor 12`): the difference with the row above.
pub(super) fn png_up_rows(data: &[u8], columns: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut above = vec![0u8; columns];
    for row in data.chunks(columns) {
        let mut full = row.to_vec();
        full.resize(columns, 0);
        out.push(2);
        out.extend(full.iter().zip(&above).map(|(b, a)| b.wrapping_sub(*a)));
        above = full;
    }
    out
}

/// `data` in LZWDecode form (ISO 32000-1 §7.4.4): 9-bit codes, each a literal byte, with a
/// clear-table code often enough that the code width never grows.
pub(super) fn lzw_literals(data: &[u8]) -> Vec<u8> {
    const CLEAR: u16 = 256;
    const END: u16 = 257;
    let mut codes = Vec::new();
    for chunk in data.chunks(200) {
        codes.push(CLEAR);
        codes.extend(chunk.iter().map(|&b| u16::from(b)));
    }
    codes.push(END);
    let mut out = Vec::new();
    let (mut bits, mut count) = (0u32, 0u32);
    for code in codes {
        bits = bits << 9 | u32::from(code);
        count += 9;
        while count >= 8 {
            count -= 8;
            out.push(u8::try_from(bits >> count & 0xFF).unwrap());
        }
    }
    if count > 0 {
        out.push(u8::try_from(bits << (8 - count) & 0xFF).unwrap());
    }
    out
}
