//! URL-bearing header fields: the base fields `Base`, `Content-Base`,
//! `Content-Location`, the RFC 2369 `List-*` fields and `Archived-At` (RFC 5064).
//!
//! Values arrive unfolded ([`Field::value`](crate::mime::Field)); this module removes what
//! surrounds the URL. Hand-written because these are the formats this project exists for: no
//! library parses RFC 1808 `<URL:…>` wrappers or RFC 2369 lists.

use mail_parser::HeaderValue;
use mail_parser::parsers::MessageStream;

use crate::mime::ContentType;
use crate::mime::header::strip_comments;

/// The URL in a base field's value (base precedence step 2, RFC 1808 §3.1): RFC 2047 encoded-words
/// decoded (mail-parser's `parse_unstructured`), all white space removed ("any whitespace
/// (including that used for line folding) inside the angle brackets is ignored"), then one
/// wrapper `<URL:…>`, `<…>` or `"…"` removed. The result may be empty.
pub(crate) fn base_value(value: &str) -> String {
    let decoded = decode_encoded_words(value);
    let compact: String = decoded.chars().filter(|c| !c.is_whitespace()).collect();
    let unwrapped = if let Some(inner) = compact.strip_prefix('<').and_then(|v| v.strip_suffix('>'))
    {
        strip_url_label(inner)
    } else if let Some(inner) = compact.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        inner
    } else {
        &compact
    };
    unwrapped.to_owned()
}

/// `value` with its RFC 2047 encoded-words decoded, when it has any (mail-parser's
/// `parse_unstructured`, which also decodes the encoded-words of a phrase, RFC 2047 §5 (3),
/// and collapses the white space between adjacent ones, §6.2). Empty when all it holds are
/// encoded-words of nothing.
pub(crate) fn decode_encoded_words(value: &str) -> std::borrow::Cow<'_, str> {
    // Most values hold no `=?`: one pass of `memchr`, without a substring searcher's set-up.
    let bytes = value.as_bytes();
    if !memchr::memchr_iter(b'=', bytes).any(|at| bytes.get(at + 1) == Some(&b'?')) {
        return value.into();
    }
    let mut input = value.as_bytes().to_vec();
    input.push(b'\n');
    match MessageStream::new(&input).parse_unstructured() {
        HeaderValue::Text(text) => text.into_owned().into(),
        HeaderValue::Empty => "".into(),
        _ => value.into(),
    }
}

/// The `URL` parameter of `message/external-body; access-type=URL` (RFC 2017 §3), white
/// space removed (RFC 2017: "any whitespace ... should be ignored"), if the content type is
/// that.
pub(crate) fn external_body_url(content_type: &ContentType) -> Option<String> {
    if content_type.media_type != "message" || content_type.subtype != "external-body" {
        return None;
    }
    let access_type = content_type.param("access-type")?;
    if !access_type.trim().eq_ignore_ascii_case("url") {
        return None;
    }
    let url: String = content_type
        .param("url")?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    (!url.is_empty()).then_some(url)
}

/// `URL:x` → `x`, the label compared ASCII case-insensitively (RFC 1738 §2.2 `<URL:…>`).
fn strip_url_label(inner: &str) -> &str {
    match inner.get(..4) {
        Some(label) if label.eq_ignore_ascii_case("URL:") => inner.get(4..).unwrap_or_default(),
        _ => inner,
    }
}

/// The URLs of an RFC 2369 field (`List-*`) or of `Archived-At` (RFC 5064), in order.
///
/// RFC 2369 §2: "a list of one or more URLs, each enclosed in angle brackets and separated
/// by commas"; white space inside the brackets is ignored, text outside them (comments, the
/// `NO` of `List-Post`) holds no URL. A value with no angle bracket at all is taken whole,
/// white space removed, as senders of `Archived-At` sometimes write it bare.
pub(crate) fn list_urls(value: &str) -> Vec<String> {
    if !value.contains('<') {
        let bare = base_value(&strip_comments(value));
        if bare.is_empty() || bare.eq_ignore_ascii_case("NO") {
            return Vec::new();
        }
        return vec![bare];
    }
    let mut urls = Vec::new();
    let mut rest = value;
    while let Some((_, after_open)) = rest.split_once('<') {
        let (inside, after_close) = after_open.split_once('>').unwrap_or((after_open, ""));
        let url = if inside.contains(char::is_whitespace) {
            let joined: String = inside.chars().filter(|c| !c.is_whitespace()).collect();
            strip_url_label(&joined).to_owned()
        } else {
            strip_url_label(inside).to_owned()
        };
        if !url.is_empty() {
            urls.push(url);
        }
        rest = after_close;
    }
    urls
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_value_removes_whitespace_and_wrappers() {
        assert_eq!(
            base_value("<URL:http://www.ics.uci.edu/Test/a/b/c>"),
            "http://www.ics.uci.edu/Test/a/b/c"
        );
        assert_eq!(base_value("<url:http://a/ b/c>"), "http://a/b/c");
        assert_eq!(base_value("\"http://x/y/\""), "http://x/y/");
        assert_eq!(base_value("<../rel/>"), "../rel/");
        assert_eq!(base_value(" page.html "), "page.html");
        assert_eq!(base_value("<>"), "");
        assert_eq!(
            base_value("=?utf-8?q?http://x/caf=C3=A9/?="),
            "http://x/café/"
        );
    }

    #[test]
    fn rfc2369_lists() {
        assert_eq!(
            list_urls(
                "<mailto:l@x?subject=help> (List Instructions),\r\n <http://www.host.com/list/>"
            ),
            ["mailto:l@x?subject=help", "http://www.host.com/list/"]
        );
        assert_eq!(
            list_urls("NO (posting not allowed on this list)"),
            Vec::<String>::new()
        );
        assert_eq!(
            list_urls("<ftp://ftp.host.com/list.txt> (FTP),\n <mailto:x>"),
            ["ftp://ftp.host.com/list.txt", "mailto:x"]
        );
        assert_eq!(list_urls("<http://a/ b\n c>"), ["http://a/bc"]);
        assert_eq!(
            list_urls("http://archive.example/msg/1"),
            ["http://archive.example/msg/1"]
        );
    }
}
