//! Which URLs Thunderbird makes a link of once it has found them:
//! `mozTXTToHTMLConv::CheckURLAndCreateHTML`, which asks `ShouldLinkify` about the scheme and
//! then has the IO service parse the URL (`NewURI`).

/// The longest name [`is_linked_name`] accepts, in bytes: a longer scheme is not linked.
const LONGEST_SCHEME: usize = 14;

/// True when `ShouldLinkify` links URLs of the scheme that `url` starts with, the scheme
/// read as `net_ExtractURLScheme` reads it (RFC 3986 §3.1: a letter, then letters, digits,
/// `+`, `-` and `.`, up to the first `:`; ASCII case-insensitive). White space inside the
/// scheme is skipped, as `net_ExtractURLScheme` skips tab, CR and LF (the text of a link in
/// angle brackets keeps its white space until the whole URL is stripped of it).
pub(super) fn is_linked_scheme(url: &str) -> bool {
    let mut name = [0u8; LONGEST_SCHEME];
    let mut len = 0;
    let mut colon = false;
    for byte in url.bytes() {
        match byte {
            b':' => {
                colon = true;
                break;
            }
            b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' | 0 => continue,
            b if b.is_ascii_alphabetic() || (len > 0 && is_scheme_byte(b)) => {
                let Some(slot) = name.get_mut(len) else {
                    return false;
                };
                *slot = b.to_ascii_lowercase();
                len += 1;
            }
            _ => return false,
        }
    }
    let Some(name) = name.get(..len) else {
        return false;
    };
    colon && is_linked_name(name)
}

/// True for the schemes (lowercase) that `ShouldLinkify` links whatever the machine: `http`,
/// `https` and `mailto` by name, then every scheme whose protocol handler is built in (not an
/// `nsIExternalProtocolHandler`), as registered in the `components.conf` files of Gecko
/// (`netwerk/build/`: `about`, `data`, `file`, `moz-extension`, `moz-page-thumb`,
/// `moz-safe-about`, `moz-src`, `resource`, `view-source`, `ws`, `wss`; elsewhere in Gecko:
/// `blob`, `chrome`, `jar`, `javascript`, `moz-icon`) and of Thunderbird (`cid`, `imap`,
/// `mailbox`, `news`, `snews`).
///
/// Every other scheme goes to the external protocol handler, and is linked only when the
/// reader's system has an application registered for it (`ExternalAppExistsForScheme`).
/// That depends on the machine, not the message, so we do not link those schemes: `ftp`
/// among them, since Gecko no longer has an FTP handler of its own.
fn is_linked_name(name: &[u8]) -> bool {
    matches!(
        name,
        b"about"
            | b"blob"
            | b"chrome"
            | b"cid"
            | b"data"
            | b"file"
            | b"http"
            | b"https"
            | b"imap"
            | b"jar"
            | b"javascript"
            | b"mailbox"
            | b"mailto"
            | b"moz-extension"
            | b"moz-icon"
            | b"moz-page-thumb"
            | b"moz-safe-about"
            | b"moz-src"
            | b"news"
            | b"resource"
            | b"snews"
            | b"view-source"
            | b"ws"
            | b"wss"
    )
}

/// A byte of a scheme after its first (RFC 3986 §3.1).
fn is_scheme_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')
}

/// True when the IO service would make a URI of `url` (`NewURI` in
/// `CheckURLAndCreateHTML`). We ask the URL Standard's parser (ada) instead of Gecko's, which
/// follows the same standard for the schemes that have hosts; for the others both accept
/// nearly anything.
pub(super) fn parses(url: &str) -> bool {
    surely_parses(url) || ada_url::Url::can_parse(url, None)
}

/// True for the commonest URLs, which the URL Standard's parser surely accepts: `mailto:` and
/// anything after it but `//` (an opaque path takes every code point), and `http://` or `https://`
/// with a host of ASCII letters, digits, `-` and `.` that is no IPv4 address (its last label
/// is not a number, as the host parser's "ends in a number checker" reads it) and has no
/// `xn--` label (which IDNA must decode), an optional port below 65536, then `/`, `?`, `#` or
/// the end (a path, query and fragment take every code point). Other URLs go to the parser.
fn surely_parses(url: &str) -> bool {
    let bytes = url.as_bytes();
    let starts = |prefix: &[u8]| {
        bytes
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    };
    // Not `mailto://`: a `//` makes the parser read a host, which can fail.
    if starts(b"mailto:") {
        return bytes.get(7..9) != Some(b"//");
    }
    let authority = if starts(b"http://") {
        7
    } else if starts(b"https://") {
        8
    } else {
        return false;
    };
    // One pass over the host and port: each label's start, whether it is all digits or
    // `0x` and hex digits (a number), and the port's value.
    let (mut label, mut digits, mut hex, mut punycode) = (authority, true, false, false);
    let (mut last_digits, mut last_hex, mut last_len) = (true, false, 0);
    let mut port: Option<u32> = None;
    let mut end = bytes.len();
    for (i, &b) in bytes.iter().enumerate().skip(authority) {
        if matches!(b, b'/' | b'?' | b'#') {
            end = i;
            break;
        }
        if let Some(value) = port.as_mut() {
            if !b.is_ascii_digit() || *value > 6553 {
                return false;
            }
            *value = *value * 10 + u32::from(b - b'0');
            continue;
        }
        match b {
            b'.' | b':' => {
                if i > label {
                    (last_digits, last_hex, last_len) = (digits, hex, i - label);
                }
                if b == b':' {
                    port = Some(0);
                }
                (label, digits, hex) = (i + 1, true, false);
            }
            b if b.is_ascii_alphanumeric() || b == b'-' => {
                let offset = i - label;
                if offset == 1 && (b == b'x' || b == b'X') && bytes.get(label) == Some(&b'0') {
                    hex = true;
                } else if !(b.is_ascii_digit() || (hex && b.is_ascii_hexdigit())) {
                    digits = false;
                    hex = hex && b.is_ascii_hexdigit();
                }
                if offset == 3
                    && bytes
                        .get(label..=i)
                        .is_some_and(|l| l.eq_ignore_ascii_case(b"xn--"))
                {
                    punycode = true;
                }
            }
            _ => return false,
        }
    }
    if port.is_none() && end > label {
        (last_digits, last_hex, last_len) = (digits, hex, end - label);
    }
    let host_len = bytes
        .get(authority..end)
        .and_then(|a| a.iter().position(|&b| b == b':'))
        .unwrap_or(end - authority);
    host_len > 0
        && last_len > 0
        && !last_digits
        && !last_hex
        && !punycode
        && port.is_none_or(|p| p <= 65535)
}

#[cfg(test)]
mod tests {
    use super::{LONGEST_SCHEME, is_linked_name, is_linked_scheme};

    /// The names of the documentation.
    const LINKED_SCHEMES: &[&str] = &[
        "about",
        "blob",
        "chrome",
        "cid",
        "data",
        "file",
        "http",
        "https",
        "imap",
        "jar",
        "javascript",
        "mailbox",
        "mailto",
        "moz-extension",
        "moz-icon",
        "moz-page-thumb",
        "moz-safe-about",
        "moz-src",
        "news",
        "resource",
        "snews",
        "view-source",
        "ws",
        "wss",
    ];

    #[test]
    fn the_names_are_linked_and_the_longest_known() {
        assert!(LINKED_SCHEMES.iter().all(|s| is_linked_name(s.as_bytes())));
        assert!(!is_linked_name(b"ftp") && !is_linked_name(b""));
        assert_eq!(
            LINKED_SCHEMES.iter().map(|s| s.len()).max(),
            Some(LONGEST_SCHEME)
        );
    }

    #[test]
    fn the_quick_check_agrees_with_the_parser() {
        for url in [
            "mailto:joe@example.com",
            "mailto://h\u{fffd}@x",
            "mailto://x:y/",
            "mailto:/x y",
            "http://example.com",
            "HTTPS://www.example.com:443/a?b#c",
            "http://example.com:/x",
            "http://a-b.example.co.uk./",
            "http://1.2.3.4/",
            "http://1.2.3.999/",
            "http://0x7f.1/",
            "http://example.com:65536/",
            "http://example.com:99999/",
            "http://xn--nxasmq6b.com/",
            "http://xn--zz/",
            "http://./",
            "http://-/",
            "http://exa_mple.com/",
            "http://user@example.com/",
        ] {
            let quick = super::surely_parses(url);
            let parser = ada_url::Url::can_parse(url, None);
            assert!(
                !quick || parser,
                "{url}: quick check accepts what the parser refuses"
            );
            assert_eq!(super::parses(url), parser, "{url}");
        }
    }

    #[test]
    fn schemes_are_read_as_net_extract_url_scheme_reads_them() {
        assert!(is_linked_scheme("HTTP://x"));
        assert!(is_linked_scheme("mailto:a@b"));
        assert!(is_linked_scheme("ht tp://x"));
        assert!(!is_linked_scheme("ftp://x"));
        assert!(!is_linked_scheme("seehttp://x"));
        assert!(!is_linked_scheme("http"));
        assert!(!is_linked_scheme("1http://x"));
        assert!(!is_linked_scheme("moz-extension-and-more://x"));
    }
}
