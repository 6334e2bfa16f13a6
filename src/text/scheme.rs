//! Which URLs Thunderbird makes a link of once it has found them:
//! `mozTXTToHTMLConv::CheckURLAndCreateHTML`, which asks `ShouldLinkify` about the scheme and
//! then has the IO service parse the URL (`NewURI`).

/// The schemes `ShouldLinkify` links whatever the machine: `http`, `https` and `mailto` by
/// name, then every scheme whose protocol handler is built in (not an
/// `nsIExternalProtocolHandler`), as registered in the `components.conf` files of Gecko
/// (`netwerk/build/`: `about`, `data`, `file`, `moz-extension`, `moz-page-thumb`,
/// `moz-safe-about`, `moz-src`, `resource`, `view-source`, `ws`, `wss`; elsewhere in Gecko:
/// `blob`, `chrome`, `jar`, `javascript`, `moz-icon`) and of Thunderbird (`cid`, `imap`,
/// `mailbox`, `news`, `snews`). Sorted, for the binary search.
///
/// Every other scheme goes to the external protocol handler, and is linked only when the
/// reader's system has an application registered for it (`ExternalAppExistsForScheme`).
/// That depends on the machine, not the message, so we do not link those schemes: `ftp`
/// among them, since Gecko no longer has an FTP handler of its own.
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

/// The longest name in [`LINKED_SCHEMES`], in bytes: a longer scheme is not linked.
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
    colon
        && !name.is_empty()
        && LINKED_SCHEMES
            .binary_search_by(|s| s.as_bytes().cmp(name))
            .is_ok()
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
    ada_url::Url::can_parse(url, None)
}

#[cfg(test)]
mod tests {
    use super::{LINKED_SCHEMES, LONGEST_SCHEME, is_linked_scheme};

    #[test]
    fn the_table_is_sorted_and_its_longest_name_known() {
        assert!(LINKED_SCHEMES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            LINKED_SCHEMES.iter().map(|s| s.len()).max(),
            Some(LONGEST_SCHEME)
        );
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
