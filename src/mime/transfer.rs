//! Undoing a `Content-Transfer-Encoding` (RFC 2045 §6).
//!
//! Base64 is mail-parser's decoder (`base64_decode`), which already decodes whole groups at a
//! time. Quoted-printable (RFC 2045 §6.7) is ours, and here is why: mail-parser's
//! `quoted_printable_decode` looks at every byte on its own, which stood out in a scan's
//! profile, and the `quoted_printable` crate's decoder (0.5) is slower still, since it collects
//! the body into a `String` one character at a time (`docs/PERFORMANCE.md` has the figures).
//! That crate also drops every 8-bit byte, writes CR LF for every line break whatever the body
//! had and keeps malformed escapes that mail-parser refuses, so the decoded text, and with it
//! every byte range we report, would change. [`quoted_printable`] gives exactly mail-parser's
//! result (a test compares the two on generated input), but copies each run of plain bytes at
//! once, found with `memchr`.

use memchr::memchr3;

/// Hex digit values; `None` for bytes that are not hex digits (either case, as mail-parser).
fn hex(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// Where the byte-at-a-time part of the decoder is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Escape {
    /// After `=`.
    Equals,
    /// After `=` and one hex digit (its value).
    Hex(u8),
}

/// Decodes a quoted-printable body (RFC 2045 §6.7) into `out` (appended), with the same
/// result as mail-parser 0.11.9's `quoted_printable_decode`: a soft line break (`=` at the end
/// of a line, white space allowed between) is removed; white space at the end of a line is
/// removed (rule 3); line breaks are written as LF until the body's first CR, as CR LF from
/// then on; bare CRs are dropped.
///
/// # Errors
///
/// Returns `false`, with `out` in an unspecified state past its original length, when the
/// body is not quoted-printable: `=` followed by `=`, or by a byte that is neither a hex digit
/// nor white space, or a hex digit followed by anything but a second one.
pub(crate) fn quoted_printable(body: &[u8], out: &mut Vec<u8>) -> bool {
    out.reserve(body.len());
    let mut line_break: &[u8] = b"\n";
    // How many bytes at the end of `out` are white space written since the last line break
    // or decoded byte: removed if the line ends there.
    let mut trailing_space = 0usize;
    let mut rest = body;
    while let Some(at) = memchr3(b'=', b'\n', b'\r', rest) {
        let (run, tail) = rest.split_at(at);
        out.extend_from_slice(run);
        let spaces = run
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        trailing_space = if spaces == run.len() {
            trailing_space + spaces
        } else {
            spaces
        };
        let Some((&special, after)) = tail.split_first() else {
            break;
        };
        rest = after;
        match special {
            b'\n' => {
                out.truncate(out.len().saturating_sub(trailing_space));
                out.extend_from_slice(line_break);
                trailing_space = 0;
            }
            b'\r' => line_break = b"\r\n",
            // The common escapes at once: `=XY`, a soft line break `=\r\n` or `=\n`. Each
            // gives what the byte-by-byte loop below gives for it.
            _ if let [high, low, tail @ ..] = rest
                && let (Some(high), Some(low)) = (hex(*high), hex(*low)) =>
            {
                out.push((high << 4) | low);
                trailing_space = 0;
                rest = tail;
            }
            _ if let [b'\r', b'\n', tail @ ..] = rest => {
                line_break = b"\r\n";
                trailing_space = 0;
                rest = tail;
            }
            _ if let [b'\n', tail @ ..] = rest => {
                trailing_space = 0;
                rest = tail;
            }
            _ => {
                // Any other escape: byte by byte until it is over.
                let mut escape = Escape::Equals;
                loop {
                    let Some((&byte, after)) = rest.split_first() else {
                        return true;
                    };
                    rest = after;
                    match (byte, escape) {
                        (b'=', _) => return false,
                        (b'\n', Escape::Equals) => {
                            trailing_space = 0;
                            break;
                        }
                        (b'\n', Escape::Hex(_)) => {
                            // mail-parser ends the line and still waits for the second digit.
                            out.truncate(out.len().saturating_sub(trailing_space));
                            out.extend_from_slice(line_break);
                            trailing_space = 0;
                        }
                        (b'\r', _) => line_break = b"\r\n",
                        (_, Escape::Equals) => match hex(byte) {
                            Some(high) => escape = Escape::Hex(high),
                            None if byte.is_ascii_whitespace() => {}
                            None => return false,
                        },
                        (_, Escape::Hex(high)) => match hex(byte) {
                            Some(low) => {
                                out.push((high << 4) | low);
                                trailing_space = 0;
                                break;
                            }
                            None => return false,
                        },
                    }
                }
            }
        }
    }
    out.extend_from_slice(rest);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours(body: &[u8]) -> Option<Vec<u8>> {
        let mut out = b"kept".to_vec();
        quoted_printable(body, &mut out).then(|| out.split_off(4))
    }

    #[test]
    fn rfc2045_rules() {
        assert_eq!(ours(b"a=3Db=\r\nc  \r\nd").unwrap(), b"a=bc\r\nd");
        assert_eq!(ours(b"caf=C3=A9 \t\nx").unwrap(), "café\nx".as_bytes());
        assert_eq!(ours(b"soft= \t\nbreak").unwrap(), b"softbreak");
        assert_eq!(ours(b"a==41"), None);
        assert_eq!(ours(b"a=4G"), None);
        assert_eq!(ours(b"a=G1"), None);
        assert_eq!(ours(b"ends=").unwrap(), b"ends");
    }

    /// Byte-identical to mail-parser's decoder on inputs made of the bytes that matter.
    #[test]
    fn same_as_mail_parser() {
        const ALPHABET: &[u8] = b"a= \t\r\n4fG\x0c\xc3";
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200_000 {
            let len = (next() % 24) as usize;
            let body: Vec<u8> = (0..len)
                .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
                .collect();
            let theirs = mail_parser::decoders::quoted_printable::quoted_printable_decode(&body);
            assert_eq!(ours(&body), theirs, "{:?}", String::from_utf8_lossy(&body));
        }
    }
}
