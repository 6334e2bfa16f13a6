//! The mboxrd quoting of `From ` lines (RFC 4155 Appendix A): undone when a message is read
//! out of an mbox, redone when it is written back to one.

use std::io;

/// Undoes mboxrd quoting in a message that starts with its `From ` line, as every message
/// of an mbox is given to [`analyze`](crate::analyze): every later line that begins with one
/// or more `>` followed by `From ` loses its first `>` (`>From ` → `From `, `>>From ` →
/// `>From `). One pass, however many lines are quoted.
///
/// mboxrd is the member of the mbox family (RFC 4155 §2 and its Appendix A) that quotes
/// every such line when a message is stored, so that this undoes the quoting exactly; the
/// older mboxo quotes only `From ` lines, and its stored `>From ` lines then lose a `>` they
/// had in the message, as in every mboxrd reader.
pub fn unquote(message: &mut Vec<u8>) {
    let mut quoted = memchr::memmem::find_iter(message, b">From ")
        .filter_map(|at| {
            let before = message.get(..at).unwrap_or_default();
            let first = before.iter().rposition(|&b| b != b'>').map_or(0, |i| i + 1);
            (first > 0 && before.get(first - 1) == Some(&b'\n')).then_some(first)
        })
        .peekable();
    if quoted.peek().is_none() {
        return;
    }
    let mut unquoted = Vec::with_capacity(message.len());
    let mut copied = 0;
    for first in quoted {
        unquoted.extend_from_slice(message.get(copied..first).unwrap_or_default());
        copied = first + 1;
    }
    unquoted.extend_from_slice(message.get(copied..).unwrap_or_default());
    *message = unquoted;
}

/// Writes `message` (one that starts with its `From ` line) to `out` with mboxrd quoting, the
/// inverse of [`unquote`]: every later line that begins with zero or more `>` followed by
/// `From ` gets one more `>` before it. Lines end at `\n` (so CRLF lines too); nothing else
/// changes.
///
/// `quote` then [`unquote`] gives back `message`, and [`unquote`] then `quote` gives back the
/// stored message exactly when no line after the first of the stored message begins with
/// `From ` unquoted ([`quoted_len`] tells: it is then the stored length).
///
/// # Errors
///
/// Those of `out`.
pub fn quote(message: &[u8], out: &mut dyn io::Write) -> io::Result<()> {
    let mut copied = 0;
    for at in lines_to_quote(message) {
        out.write_all(message.get(copied..at).unwrap_or_default())?;
        out.write_all(b">")?;
        copied = at;
    }
    out.write_all(message.get(copied..).unwrap_or_default())
}

/// The length in bytes of `message` once [`quote`]d.
pub fn quoted_len(message: &[u8]) -> usize {
    message.len() + lines_to_quote(message).count()
}

/// The offsets of the lines after the first that begin with `>*From `.
fn lines_to_quote(message: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', message).filter_map(|newline| {
        let start = newline + 1;
        let line = message.get(start..)?;
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        line.get(quotes..)?.starts_with(b"From ").then_some(start)
    })
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn unquote_removes_one_quote_per_line() {
        let mut message = b"From a\n>From b\n>>>From c\nx>From d\n>From".to_vec();
        unquote(&mut message);
        assert_eq!(message, b"From a\nFrom b\n>>From c\nx>From d\n>From");
    }

    fn quoted(message: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        quote(message, &mut out).unwrap();
        assert_eq!(out.len(), quoted_len(message));
        out
    }

    #[test]
    fn quote_is_the_inverse_of_unquote() {
        let stored = b"From a\r\n>From b\r\n>>>From c\nx>From d\n>From";
        let mut message = stored.to_vec();
        unquote(&mut message);
        // `>From` without the space is not a quoted `From ` line.
        assert_eq!(message, b"From a\r\nFrom b\r\n>>From c\nx>From d\n>From");
        assert_eq!(quoted(&message), stored);
        // A `From ` line stored unquoted (a From field in the header block, so not a
        // separator) cannot come back: the quoted length tells.
        let stored = b"From a\nx: y\nFrom : b\n";
        let mut message = stored.to_vec();
        unquote(&mut message);
        assert_eq!(quoted_len(&message), stored.len() + 1);
        assert_eq!(quoted(&message), b"From a\nx: y\n>From : b\n");
    }
}
