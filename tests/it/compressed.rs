//! Compressed inputs (gzip, bzip2, xz, zstd): each command reads them as the plain file they
//! decompress to, the plain file's records being the oracle; a broken stream is a read error
//! after the messages decoded before it; a decompression bomb stops at the size limit in
//! bounded memory; `rewrite --in-place` refuses a compressed file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::cli::{json_lines, measured_in, mimebase_in, stderr};
use crate::support::{corpus_or_skip, files_under, root, workdir, write};

/// `data` compressed as `name` (`gzip`, `bzip2`, `xz`, `zstd`) with that format's encoder, in
/// two members, streams or frames (the second starting at half of `data`), so that every
/// reader must go on past the first; zstd gets a skippable frame between its two.
fn compress(name: &str, data: &[u8]) -> Vec<u8> {
    let (first, second) = data.split_at(data.len() / 2);
    let mut out = Vec::new();
    for (i, half) in [first, second].into_iter().enumerate() {
        match name {
            "gzip" => {
                let mut encoder = flate2::write::GzEncoder::new(&mut out, Default::default());
                encoder.write_all(half).unwrap();
                encoder.finish().unwrap();
            }
            "bzip2" => {
                let mut encoder = bzip2::write::BzEncoder::new(&mut out, Default::default());
                encoder.write_all(half).unwrap();
                encoder.finish().unwrap();
            }
            "xz" => {
                let options = lzma_rust2::XzOptions::with_preset(6);
                let mut encoder = lzma_rust2::XzWriter::new(&mut out, options).unwrap();
                encoder.write_all(half).unwrap();
                encoder.finish().unwrap();
            }
            "zstd" => {
                if i == 1 {
                    // A skippable frame (RFC 8878 §3.1.2): magic, length, bytes.
                    out.extend_from_slice(&0x184D_2A50_u32.to_le_bytes());
                    out.extend_from_slice(&4_u32.to_le_bytes());
                    out.extend_from_slice(b"skip");
                }
                out.extend_from_slice(&zstd::encode_all(half, 3).unwrap());
            }
            _ => unreachable!("{name}"),
        }
    }
    out
}

const FORMATS: [(&str, &str); 4] = [
    ("gzip", "gz"),
    ("bzip2", "bz2"),
    ("xz", "xz"),
    ("zstd", "zst"),
];

/// The lines `mimebase ARGS` prints in `dir`, and its exit code.
fn lines(dir: &Path, args: &[&str], stdin: &[u8]) -> (Vec<Value>, Option<i32>, String) {
    let output = mimebase_in(dir, args, stdin);
    (json_lines(&output), output.status.code(), stderr(&output))
}

/// `lines` with `path` set to `plain` and `compression` checked to be `expected` and removed:
/// what must equal the plain file's lines.
fn as_plain(mut lines: Vec<Value>, plain: &str, expected: &str) -> Vec<Value> {
    for line in &mut lines {
        let object = line.as_object_mut().unwrap();
        assert_eq!(object.remove("compression"), Some(Value::from(expected)));
        object.insert("path".into(), Value::from(plain));
    }
    lines
}

/// An mbox of the corpus: the first 300 messages of the TREC 2007 spam corpus (each file
/// starts with its own `From ` line), one after another with an empty line between.
fn corpus_mbox() -> Option<Vec<u8>> {
    let dir = corpus_or_skip("bench/trec07p")?;
    let mut mbox = Vec::new();
    for file in files_under(&dir).iter().take(300) {
        let message = fs::read(file).unwrap();
        assert!(message.starts_with(b"From "), "{}", file.display());
        mbox.extend_from_slice(&message);
        if !message.ends_with(b"\n") {
            mbox.push(b'\n');
        }
        mbox.push(b'\n');
    }
    Some(mbox)
}

#[test]
fn scan_of_a_compressed_mbox_gives_the_plain_files_records() {
    let Some(mbox) = corpus_mbox() else { return };
    let dir = workdir("scan-mbox");
    write(&dir.join("box.mbox"), &mbox);
    for (name, extension) in FORMATS {
        let compressed = compress(name, &mbox);
        // Not a mimebase name: the format is told by the bytes.
        write(&dir.join(format!("box.{extension}")), &compressed);
        assert!(compressed.len() < mbox.len() / 2, "{name}");
    }
    // The default limit reads the compressed files whole, then decompresses them; one under
    // their size streams them, and the plain file too (some messages are then too large).
    for limit in ["64M", "60K"] {
        let (plain, code, _) = lines(
            &dir,
            &["scan", "--max-message-bytes", limit, "box.mbox"],
            b"",
        );
        assert!(plain.len() >= 300, "{}", plain.len());
        for (name, extension) in FORMATS {
            let file = format!("box.{extension}");
            let args = ["scan", "--max-message-bytes", limit, file.as_str()];
            let (read, read_code, stderr) = lines(&dir, &args, b"");
            assert_eq!(read_code, code, "{name} {limit}: {stderr}");
            assert_eq!(as_plain(read, "box.mbox", name), plain, "{name} {limit}");
        }
    }
    // Standard input too, and with --jobs 1.
    let (plain, _, _) = lines(&dir, &["scan", "--jobs", "1", "-"], &mbox);
    let gz = compress("gzip", &mbox);
    let (read, _, _) = lines(&dir, &["scan", "--jobs", "1", "-"], &gz);
    assert_eq!(as_plain(read, "-", "gzip"), plain);
}

/// A message file of the samples, for `inspect` and `urls`.
fn sample() -> (PathBuf, Vec<u8>) {
    let path = root().join("samples/html-mail-inline-images.eml");
    let bytes = fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn inspect_and_urls_read_a_compressed_message_and_standard_input() {
    let (_, message) = sample();
    let dir = workdir("one-message");
    write(&dir.join("m.eml"), &message);
    for (name, extension) in FORMATS {
        let file = format!("m.eml.{extension}");
        let compressed = compress(name, &message);
        write(&dir.join(&file), &compressed);
        for command in ["inspect", "urls"] {
            let (plain, code, _) = lines(&dir, &[command, "--json", "m.eml"], b"");
            assert_eq!(code, Some(0));
            assert!(!plain.is_empty());
            let (read, code, stderr) = lines(&dir, &[command, "--json", &file], b"");
            assert_eq!(code, Some(0), "{stderr}");
            assert_eq!(as_plain(read, "m.eml", name), plain, "{command} {name}");
            let (read, code, stderr) = lines(&dir, &[command, "--json", "-"], &compressed);
            assert_eq!(code, Some(0), "{stderr}");
            assert_eq!(as_plain(read, "m.eml", name), plain, "{command} {name} -");
        }
    }
}

#[test]
fn a_truncated_stream_keeps_the_messages_before_and_ends_with_a_read_error() {
    let Some(mbox) = corpus_mbox() else { return };
    let dir = workdir("truncated");
    write(&dir.join("box.mbox"), &mbox);
    let (plain, _, _) = lines(&dir, &["scan", "box.mbox"], b"");
    for (name, extension) in FORMATS {
        let compressed = compress(name, &mbox);
        // Cut inside the second member, stream or frame: the first half decodes whole.
        let cut = compressed.len() * 9 / 10;
        let file = format!("cut.{extension}");
        write(&dir.join(&file), &compressed[..cut]);
        let (mut read, code, stderr) = lines(&dir, &["scan", &file], b"");
        assert_eq!(code, Some(1), "{name}: {stderr}");
        let error = read.pop().unwrap();
        assert_eq!(error["type"], "error", "{name}");
        assert_eq!(error["kind"], "read", "{name}");
        assert_eq!(error["compression"], name, "{name}");
        let why = error["message"].as_str().unwrap();
        assert!(
            why.starts_with(&format!("{name} decompression failed after ")),
            "{name}: {why}"
        );
        // The messages before the break are those of the plain file, in order; the error
        // stands at the offset where the message it broke started.
        assert!(read.len() >= plain.len() / 3, "{name}: {}", read.len());
        let read = as_plain(read, "box.mbox", name);
        assert_eq!(read[..], plain[..read.len()], "{name}");
        assert_eq!(error["offset"], plain[read.len()]["offset"], "{name}");
    }
}

#[test]
fn rewrite_in_place_refuses_a_compressed_file_and_rewrites_it_decompressed_elsewhere() {
    let (_, message) = sample();
    let dir = workdir("rewrite");
    write(&dir.join("m.eml"), &message);
    let compressed = compress("gzip", &message);
    write(&dir.join("m.eml.gz"), &compressed);
    let output = mimebase_in(&dir, &["rewrite", "--in-place", "m.eml.gz"], b"");
    assert_eq!(output.status.code(), Some(1));
    let said = stderr(&output);
    assert!(
        said.contains("m.eml.gz: the file is gzip-compressed: --in-place cannot replace it"),
        "{said}"
    );
    assert_eq!(fs::read(dir.join("m.eml.gz")).unwrap(), compressed);
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // To stdout and to -o: the plain file's rewrite.
    let plain = mimebase_in(&dir, &["rewrite", "m.eml"], b"");
    assert_eq!(plain.status.code(), Some(0));
    let read = mimebase_in(&dir, &["rewrite", "m.eml.gz"], b"");
    assert_eq!(read.status.code(), Some(0), "{}", stderr(&read));
    assert_eq!(read.stdout, plain.stdout);
    let written = mimebase_in(&dir, &["rewrite", "m.eml.gz", "-o", "out.eml"], b"");
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    assert_eq!(fs::read(dir.join("out.eml")).unwrap(), plain.stdout);
    // A message of a compressed mbox over the limit cannot be copied from the file by its
    // offset (one in the decompressed stream): nothing is written, as from standard input.
    let mbox = fs::read(root().join("samples/two.mbox")).unwrap();
    write(&dir.join("two.mbox.gz"), &compress("gzip", &mbox));
    let args = [
        "rewrite",
        "--max-message-bytes",
        "10",
        "two.mbox.gz",
        "-o",
        "two.out",
    ];
    let refused = mimebase_in(&dir, &args, b"");
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("nothing written to two.out"),
        "{}",
        stderr(&refused)
    );
    assert!(!dir.join("two.out").exists());
}

/// A gzip file that decompresses to `header` and then `megabytes` MiB of zeros, built cheaply:
/// 64 MiB of zeros compressed once, the member repeated (a file of concatenated members).
fn gzip_bomb(path: &Path, header: &[u8], megabytes: u64) {
    let mut chunk = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    chunk.write_all(&vec![0; 64 << 20]).unwrap();
    let chunk = chunk.finish().unwrap();
    let mut file = fs::File::create(path).unwrap();
    if !header.is_empty() {
        file.write_all(&compress("gzip", header)).unwrap();
    }
    for _ in 0..megabytes / 64 {
        file.write_all(&chunk).unwrap();
    }
}

/// `mimebase scan PATH` in `dir`: its one line, and what the input cost in resident memory
/// (KiB): the peak `/usr/bin/time` measures, less that of the same binary scanning a
/// one-line message, which is the binary's own (some 23 MB for a debug build, 10 MB for a
/// release one: a bound on the whole would test the build profile, not the input). `None`
/// where `/usr/bin/time` is missing.
fn scan_measured(dir: &Path, path: &str) -> (Value, Option<u64>) {
    fs::write(
        dir.join("small.eml"),
        b"Subject: small\n\nhttps://example.com/\n",
    )
    .unwrap();
    let (_, baseline) = measured_in(dir, &["scan", "small.eml"]);
    let (output, rss) = measured_in(dir, &["scan", path]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let mut lines = json_lines(&output);
    assert_eq!(lines.len(), 1);
    let cost = rss.zip(baseline).map(|(rss, baseline)| {
        eprintln!(
            "compressed: peak resident memory {rss} KiB, {baseline} KiB for one small message"
        );
        rss.saturating_sub(baseline)
    });
    (lines.remove(0), cost)
}

/// 100 MB (10^8 bytes) in KiB: the memory a decompression bomb may cost above the binary's
/// own, the default 64 MiB limit included.
const MEMORY_BOUND_KIB: u64 = 100_000_000 / 1024;

/// A single message that decompresses to 10 GiB: read up to the default 64 MiB limit and no
/// further, `too_large` with its length unknown.
#[test]
fn a_gzip_bomb_ends_with_too_large_in_bounded_memory() {
    let dir = workdir("bomb");
    gzip_bomb(&dir.join("bomb.gz"), b"", 10 << 10);
    let (line, rss) = scan_measured(&dir, "bomb.gz");
    assert_eq!(line["kind"], "too_large", "{line}");
    assert_eq!(line["format"], "file");
    assert_eq!(line["compression"], "gzip");
    assert_eq!(line["length"], Value::Null);
    if let Some(rss) = rss {
        assert!(rss < MEMORY_BOUND_KIB, "{rss} KiB above the binary's own");
    }
}

/// An mbox whose one message is a `From ` line and then a line that never ends. Its message
/// over the limit is counted to its end, as every mbox message is (to find the next one), so
/// the whole stream is decompressed: 1 GiB here rather than 10, so that the test's time stays
/// that of the other tests (docs/PERFORMANCE.md gives it); memory does not grow with the size
/// (the message is dropped once past the limit).
#[test]
fn a_gzip_bomb_in_an_mbox_is_counted_in_bounded_memory() {
    let dir = workdir("mbox-bomb");
    let header = b"From bomb@example.com Mon Jan  1 00:00:00 2024\nSubject: zeros\n\n";
    gzip_bomb(&dir.join("bomb.mbox.gz"), header, 1 << 10);
    let (line, rss) = scan_measured(&dir, "bomb.mbox.gz");
    assert_eq!(line["kind"], "too_large", "{line}");
    assert_eq!(line["format"], "mbox");
    assert_eq!(line["compression"], "gzip");
    assert_eq!(line["length"], header.len() as u64 + (1 << 30));
    if let Some(rss) = rss {
        assert!(rss < MEMORY_BOUND_KIB, "{rss} KiB above the binary's own");
    }
}
