//! Adversarial messages generated at run time (nothing a message holds may panic, hang or exhaust memory), shared by `tests/it/adversarial.rs`
//! and `examples/adversarial.rs` (which writes them to files for `scripts/adversarial`).

/// Every adversarial input: `(name, message bytes)`.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("nested-multipart-100000", nested_multipart(100_000)),
        ("nested-rfc822-100000", nested_rfc822(100_000)),
        ("base64-rfc822-wrapping-40000", base64_wrapping(40_000)),
        ("base64-rfc822-six-layers", base64_layers(6)),
        ("header-line-5mb", long_header_line(5 << 20)),
        ("siblings-100000", siblings(100_000)),
        ("garbage-8bit-nul", garbage(1 << 20)),
    ]
}

/// `levels` multiparts, each the only part of the one above.
pub fn nested_multipart(levels: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for level in 0..levels {
        out.extend(
            format!("Content-Type: multipart/mixed; boundary=b{level}\n\n--b{level}\n").bytes(),
        );
    }
    out.extend(b"Content-Type: text/html\n\n<a href=\"deep\">x</a>\n");
    for level in (0..levels).rev() {
        out.extend(format!("--b{level}--\n").bytes());
    }
    out
}

/// `levels` `message/rfc822` entities, each the body of the one above.
pub fn nested_rfc822(levels: usize) -> Vec<u8> {
    let mut out = b"Base: http://outer/\n".to_vec();
    for _ in 0..levels {
        out.extend(b"Content-Type: message/rfc822\n\n");
    }
    out.extend(b"Content-Type: text/html\n\n<a href=\"deep\">x</a>\n");
    out
}

/// One base64-encoded `message/rfc822` part whose message holds `levels` nested messages.
pub fn base64_wrapping(levels: usize) -> Vec<u8> {
    let mut out = b"Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n".to_vec();
    out.extend(base64(&nested_rfc822(levels)).bytes());
    out.push(b'\n');
    out
}

/// `layers` base64-encoded `message/rfc822` parts, each inside the one above.
pub fn base64_layers(layers: usize) -> Vec<u8> {
    let mut message = b"Content-Type: text/html\n\n<a href=\"deep\">x</a>\n".to_vec();
    for _ in 0..layers {
        let mut outer =
            b"Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\n".to_vec();
        outer.extend(base64(&message).bytes());
        outer.push(b'\n');
        message = outer;
    }
    message
}

/// A header field of `bytes` bytes on one line.
pub fn long_header_line(bytes: usize) -> Vec<u8> {
    let mut out = b"Subject: ".to_vec();
    out.resize(bytes, b'x');
    out.extend(b"\nBase: http://b/\nContent-Type: text/html\n\n<a href=\"g\">x</a>\n");
    out
}

/// A multipart with `count` parts.
pub fn siblings(count: usize) -> Vec<u8> {
    let mut out = b"Content-Type: multipart/mixed; boundary=s\n\n".to_vec();
    for _ in 0..count {
        out.extend(b"--s\nContent-Type: text/html\n\n<a href=\"g\">x</a>\n");
    }
    out.extend(b"--s--\n");
    out
}

/// `bytes` of pseudo-random bytes with NULs and 8-bit bytes, in headers and body.
pub fn garbage(bytes: usize) -> Vec<u8> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut out =
        b"Subject: \x00\xff\xfe garbage\nContent-Type: text/html; charset=\xff\x00\n\n".to_vec();
    out.extend((0..bytes).map(|_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let byte = (state >> 32) as u8;
        // Salt the noise with markup and MIME syntax so the parsers see some of it.
        match byte % 16 {
            0 => b'<',
            1 => b'\n',
            2 => b'-',
            _ => byte,
        }
    }));
    out
}

/// Standard base64 with line breaks every 76 characters.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut encoded = Vec::with_capacity(bytes.len() / 3 * 4 + 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            encoded.push(if i <= chunk.len() {
                ALPHABET[(n >> (18 - 6 * i) & 63) as usize]
            } else {
                b'='
            });
        }
    }
    let mut out = String::with_capacity(encoded.len() + encoded.len() / 76 + 1);
    for line in encoded.chunks(76) {
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out
}
