//! The guard against tags with too many double-quoted attribute values.
//!
//! html5gum 0.9 goes from the double-quoted attribute value state to the next attribute by a
//! direct call rather than by returning to its loop, so its stack grows by one frame per
//! double-quoted value until the tag ends: a hostile message with hundreds of thousands of
//! values in one tag would overflow the stack and abort the process. The guard counts them
//! before the tokenizer runs, and a document over the bound is not scanned.

/// The most double-quoted attribute values one tag may hold for the document to be scanned.
///
/// html5gum 0.9 goes from the double-quoted attribute value state to the next attribute by a
/// direct call rather than by returning to its loop, so the stack grows by one frame (about
/// 300 bytes in a release build) per double-quoted value until the tag ends: 300,000 values
/// in one tag (a 3.5 MB message) overflowed an 8 MiB stack and aborted the process. No real
/// tag comes near this bound, which keeps the depth to a few hundred kilobytes, well inside
/// the 2 MiB of a spawned thread's default stack. A document over it is not scanned, and the
/// caller reports that with a diagnostic.
pub(crate) const MAX_QUOTED_VALUES_PER_TAG: usize = 1_000;

/// The number of double-quoted attribute values in the first tag that holds more than
/// [`MAX_QUOTED_VALUES_PER_TAG`] of them, or `None` when no tag does.
///
/// It follows the tokenizer's tag states only as far as the bound needs, and errs towards
/// counting more: a tag starts at `<` followed by an ASCII letter or `/` (also inside raw
/// text, where the tokenizer sees no tag), a value is double-quoted when `"` follows `=` and
/// optional white space, a quoted value runs to its closing quote, and the tag ends at the
/// first `>` outside a quoted value. Documents with fewer double quotes than twice the bound
/// are passed after one `memchr` count.
pub(super) fn too_many_quoted_values(html: &[u8]) -> Option<usize> {
    if memchr::memchr_iter(b'"', html).count() / 2 <= MAX_QUOTED_VALUES_PER_TAG {
        return None;
    }
    quoted_values_over(html, MAX_QUOTED_VALUES_PER_TAG)
}

/// The number of double-quoted attribute values in the first tag that holds more than `most`
/// of them (see [`too_many_quoted_values`] for what counts as a tag and a value). Text, the
/// inside of a tag and quoted values are each crossed with one `memchr` search, not a byte at
/// a time: the documents that get here are the large ones.
fn quoted_values_over(html: &[u8], most: usize) -> Option<usize> {
    let is_space = |b: &u8| matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ');
    // The offset just past the first `b` at or after `from`, if any.
    let past = |from: usize, b: u8| memchr::memchr(b, html.get(from..)?).map(|at| from + at + 1);
    let mut at = 0;
    'text: loop {
        // Text: a tag starts at `<` followed by an ASCII letter or `/`, which it takes in.
        let open = past(at, b'<')?;
        let &first = html.get(open)?;
        if !(first.is_ascii_alphabetic() || first == b'/') {
            at = open;
            continue;
        }
        at = open + 1;
        let mut count = 0;
        loop {
            // Inside the tag: up to its end or an `=`.
            let found = at + memchr::memchr2(b'>', b'=', html.get(at..)?)?;
            at = found + 1;
            if html.get(found) == Some(&b'>') {
                continue 'text;
            }
            // After `=`: white space, then the value.
            at += html.get(at..)?.iter().take_while(|b| is_space(b)).count();
            let value = *html.get(at)?;
            at += 1;
            match value {
                b'"' => {
                    count += 1;
                    if count > most {
                        return Some(count);
                    }
                    at = past(at, b'"')?;
                }
                b'\'' => at = past(at, b'\'')?,
                b'>' => continue 'text,
                _ => {
                    // Unquoted: to white space (still in the tag) or `>` (the tag's end).
                    let end = at
                        + html
                            .get(at..)?
                            .iter()
                            .position(|b| is_space(b) || *b == b'>')?;
                    at = end + 1;
                    if html.get(end) == Some(&b'>') {
                        continue 'text;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag states of [`quoted_values_over`] followed one byte at a time, as they were
    /// written before the searches: the reference it must agree with.
    fn by_the_bytes(html: &[u8], most: usize) -> Option<usize> {
        #[derive(Clone, Copy)]
        enum At {
            Text,
            Tag,
            AfterEquals,
            Quoted(u8),
            Unquoted,
        }
        let mut at = At::Text;
        let mut count = 0usize;
        let mut previous = 0u8;
        for &byte in html {
            at = match at {
                At::Text => {
                    if previous == b'<' && (byte.is_ascii_alphabetic() || byte == b'/') {
                        count = 0;
                        At::Tag
                    } else {
                        At::Text
                    }
                }
                At::Tag => match byte {
                    b'>' => At::Text,
                    b'=' => At::AfterEquals,
                    _ => At::Tag,
                },
                At::AfterEquals => match byte {
                    b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' => At::AfterEquals,
                    b'"' => {
                        count += 1;
                        if count > most {
                            return Some(count);
                        }
                        At::Quoted(b'"')
                    }
                    b'\'' => At::Quoted(b'\''),
                    b'>' => At::Text,
                    _ => At::Unquoted,
                },
                At::Quoted(quote) if byte == quote => At::Tag,
                At::Quoted(quote) => At::Quoted(quote),
                At::Unquoted => match byte {
                    b'>' => At::Text,
                    b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' => At::Tag,
                    _ => At::Unquoted,
                },
            };
            previous = byte;
        }
        None
    }

    /// `quoted_values_over` agrees with [`by_the_bytes`] on every string of up to six bytes
    /// from an alphabet of every byte the states tell apart, and on long generated ones.
    #[test]
    fn quoted_values_are_counted_as_byte_by_byte() {
        let lines = crate::testing::every_string(b"<a/>=\"' x", 6);
        assert_eq!(lines.len(), (0..=6).map(|n| 9usize.pow(n)).sum::<usize>());
        for line in &lines {
            for most in 0..2 {
                assert_eq!(
                    quoted_values_over(line, most),
                    by_the_bytes(line, most),
                    "{:?} {most}",
                    String::from_utf8_lossy(line)
                );
            }
        }
        let pieces: [&[u8]; 15] = [
            b"<a ",
            b"href=\"x\" ",
            b"= \"",
            b"='y' ",
            b"= 'z",
            b"'",
            b">",
            b"text ",
            b"</",
            b"v=u ",
            b"w=v>",
            b"<<b",
            b"\"",
            b"=>",
            b" \t",
        ];
        let mut seed = 0x2545_f491_u64;
        let mut over = [0; 2];
        for _ in 0..300 {
            let mut html = Vec::new();
            for _ in 0..2_000 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                html.extend_from_slice(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            for most in [0, 3, 50] {
                let found = quoted_values_over(&html, most);
                assert_eq!(found, by_the_bytes(&html, most));
                over[usize::from(found.is_some())] += 1;
            }
        }
        // Both answers occur, so that the comparison says something about each.
        assert!(over[0] > 100 && over[1] > 100, "{over:?}");
    }
}
