//! Tests of the archive room: archives written by the `zip` crate's writer, by hand (for
//! what no writer makes: bombs, lying sizes, CP437 names, truncations, ZipCrypto), by
//! Info-ZIP's `zip` and Python's `pyzipper` where they are installed; and mutated archives
//! that must not make the room panic. This file holds the archive builders the tests share.

mod encryption;
mod limits;
mod mutation;
mod reading;

use std::io::{Cursor, Write};
use std::process::Command;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::{Limits, ProblemKind, Reading};

/// The password of the encrypted test archives.
pub(super) const PASSWORD: &str = "secret123";

/// An archive written by the `zip` crate: `(name, bytes)` members with `options`.
pub(super) fn written(members: &[(&str, &[u8])], options: SimpleFileOptions) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in members {
        if let Some(directory) = name.strip_suffix('/') {
            writer.add_directory(directory, options).unwrap();
        } else {
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

/// Options for a deflated member.
pub(super) fn deflated() -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(CompressionMethod::Deflated)
}

/// A member of a hand-built archive.
pub(super) struct Raw<'a> {
    /// The stored name.
    pub name: &'a [u8],
    /// The general purpose bit flag.
    pub flags: u16,
    /// The compression method (0 stored, 8 deflated).
    pub method: u16,
    /// The declared CRC-32.
    pub crc: u32,
    /// The bytes as stored (compressed, encrypted).
    pub data: &'a [u8],
    /// The declared uncompressed size.
    pub size: u32,
}

/// An archive built by hand (APPNOTE.TXT §4.3.7, §4.3.12, §4.3.16), with whatever the
/// members declare.
pub(super) fn built(members: &[Raw<'_>]) -> Vec<u8> {
    fn u16le(out: &mut Vec<u8>, value: u16) {
        out.extend_from_slice(&value.to_le_bytes());
    }
    fn u32le(out: &mut Vec<u8>, value: u32) {
        out.extend_from_slice(&value.to_le_bytes());
    }
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for member in members {
        offsets.push(u32::try_from(out.len()).unwrap());
        u32le(&mut out, 0x0403_4b50);
        u16le(&mut out, 20);
        u16le(&mut out, member.flags);
        u16le(&mut out, member.method);
        u16le(&mut out, 0);
        u16le(&mut out, 0x21);
        u32le(&mut out, member.crc);
        u32le(&mut out, u32::try_from(member.data.len()).unwrap());
        u32le(&mut out, member.size);
        u16le(&mut out, u16::try_from(member.name.len()).unwrap());
        u16le(&mut out, 0);
        out.extend_from_slice(member.name);
        out.extend_from_slice(member.data);
    }
    let directory = out.len();
    for (member, offset) in members.iter().zip(offsets) {
        u32le(&mut out, 0x0201_4b50);
        u16le(&mut out, 20);
        u16le(&mut out, 20);
        u16le(&mut out, member.flags);
        u16le(&mut out, member.method);
        u16le(&mut out, 0);
        u16le(&mut out, 0x21);
        u32le(&mut out, member.crc);
        u32le(&mut out, u32::try_from(member.data.len()).unwrap());
        u32le(&mut out, member.size);
        u16le(&mut out, u16::try_from(member.name.len()).unwrap());
        for _ in 0..3 {
            u16le(&mut out, 0);
        }
        u16le(&mut out, 0);
        u32le(&mut out, 0);
        u32le(&mut out, offset);
        out.extend_from_slice(member.name);
    }
    let size = out.len() - directory;
    u32le(&mut out, 0x0605_4b50);
    u32le(&mut out, 0);
    let count = u16::try_from(members.len()).unwrap();
    u16le(&mut out, count);
    u16le(&mut out, count);
    u32le(&mut out, u32::try_from(size).unwrap());
    u32le(&mut out, u32::try_from(directory).unwrap());
    u16le(&mut out, 0);
    out
}

/// An archive of `members` encrypted with the traditional PKWARE cipher (APPNOTE.TXT §6.1),
/// stored (`method` 0) or deflated (8), built by hand: the `zip` crate writes ZipCrypto only
/// inside itself.
pub(super) fn zipcrypto(members: &[(&str, &[u8])], method: u16, password: &[u8]) -> Vec<u8> {
    fn update(crc: u32, byte: u8) -> u32 {
        let mut crc = crc ^ u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
        crc
    }
    struct Keys(u32, u32, u32);
    impl Keys {
        fn feed(&mut self, byte: u8) {
            self.0 = update(self.0, byte);
            self.1 = self
                .1
                .wrapping_add(self.0 & 0xff)
                .wrapping_mul(134_775_813)
                .wrapping_add(1);
            self.2 = update(self.2, (self.1 >> 24) as u8);
        }
        fn encrypt(&mut self, byte: u8) -> u8 {
            let temp = (self.2 | 2) & 0xffff;
            let cipher = byte ^ ((temp.wrapping_mul(temp ^ 1) >> 8) as u8);
            self.feed(byte);
            cipher
        }
    }
    let mut rng = Rng(0xc0ffee);
    let datas: Vec<(Vec<u8>, u32, u32)> = members
        .iter()
        .map(|(_, bytes)| {
            let crc = crc32(bytes);
            let compressed = if method == 8 {
                let mut encoder =
                    flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
                encoder.write_all(bytes).unwrap();
                encoder.finish().unwrap()
            } else {
                bytes.to_vec()
            };
            let mut keys = Keys(0x1234_5678, 0x2345_6789, 0x3456_7890);
            for &byte in password {
                keys.feed(byte);
            }
            let mut header: Vec<u8> = (0..11).map(|_| rng.next() as u8).collect();
            header.push((crc >> 24) as u8);
            let data = header
                .iter()
                .chain(&compressed)
                .map(|&b| keys.encrypt(b))
                .collect();
            (data, crc, u32::try_from(bytes.len()).unwrap())
        })
        .collect();
    let raws: Vec<Raw<'_>> = members
        .iter()
        .zip(&datas)
        .map(|((name, _), (data, crc, size))| Raw {
            name: name.as_bytes(),
            flags: 1,
            method,
            crc: *crc,
            data,
            size: *size,
        })
        .collect();
    built(&raws)
}

/// CRC-32 (ISO 3309) of `bytes`, bit by bit.
pub(super) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A raw deflate stream (RFC 1951) that inflates to `1 + 258 * repeats` zero bytes: one
/// fixed-Huffman block of a literal zero and `repeats` copies of length 258 at distance 1,
/// 13 bits each, so that a bomb of a gigabyte is built in a moment without compressing it.
pub(super) fn zero_bomb(repeats: usize) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        buffer: u64,
        count: u32,
    }
    impl Bits {
        /// Writes `count` bits of `value`, least significant first (RFC 1951 §3.1.1).
        fn put(&mut self, value: u64, count: u32) {
            self.buffer |= value << self.count;
            self.count += count;
            while self.count >= 8 {
                self.out.push(self.buffer as u8);
                self.buffer >>= 8;
                self.count -= 8;
            }
        }
        /// Writes a Huffman code of `count` bits, most significant first.
        fn code(&mut self, code: u64, count: u32) {
            let reversed = code.reverse_bits() >> (64 - count);
            self.put(reversed, count);
        }
    }
    let mut bits = Bits {
        out: Vec::with_capacity(repeats * 13 / 8 + 16),
        buffer: 0,
        count: 0,
    };
    bits.put(1, 1); // BFINAL
    bits.put(1, 2); // BTYPE 01: fixed Huffman codes
    bits.code(0b0011_0000, 8); // literal 0
    for _ in 0..repeats {
        bits.code(0b1100_0101, 8); // length code 285: 258
        bits.code(0, 5); // distance code 0: 1
    }
    bits.code(0, 7); // end of block
    bits.put(0, 7);
    bits.out
}

/// Repeats for a bomb of about a gigabyte (2^30 bytes).
pub(super) const GIGABYTE_REPEATS: usize = ((1 << 30) - 1) / 258;

/// The names of the members read, in order.
pub(super) fn names(reading: &Reading) -> Vec<&str> {
    reading.members.iter().map(|m| m.name.as_str()).collect()
}

/// The kinds of the problems met, in order.
pub(super) fn kinds(reading: &Reading) -> Vec<ProblemKind> {
    reading.problems.iter().map(|p| p.kind).collect()
}

/// Limits small enough that a bomb is cut early: 1 MiB a member, 4 MiB in all.
pub(super) fn small_limits() -> Limits {
    Limits {
        max_members: 100,
        max_member_bytes: 1 << 20,
        max_total_bytes: 4 << 20,
    }
}

/// True when `program` runs; otherwise the test says it is skipped.
pub(super) fn has_program(test: &str, program: &str, probe: &[&str]) -> bool {
    let ok = Command::new(program)
        .args(probe)
        .output()
        .is_ok_and(|output| output.status.success());
    if !ok {
        crate::testing::skip_missing(test, program);
    }
    ok
}

/// A deterministic generator of test bytes (xorshift64*).
pub(super) struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub(super) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `bound`.
    pub(super) fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}
