//! The microsyntaxes of URL-bearing attribute values: a whole value (a URL potentially surrounded
//! by spaces), a [`srcset`](https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute)
//! candidate list, a [`ping`](https://html.spec.whatwg.org/multipage/links.html#ping) list of
//! space-separated URLs, a [meta refresh](https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps)
//! value, and CSS (`style` attributes and `<style>` elements, read by [`css`]).

use std::borrow::Cow;
use std::ops::Range;

use super::UrlKind;
use crate::css;

/// Calls `found` with each URL of an entity-decoded value of the given kind: its range in
/// `value` and its reference (CSS escapes undone, trimmed of ASCII white space).
pub(crate) fn for_each_url(
    kind: UrlKind,
    value: &str,
    mut found: impl FnMut(Range<usize>, Cow<'_, str>),
) {
    let at = |range: Range<usize>| value.get(range).unwrap_or_default();
    match kind {
        UrlKind::Attribute => found(trimmed_range(value), Cow::Borrowed(trim(value))),
        UrlKind::Srcset => {
            for range in srcset_urls(value) {
                found(range.clone(), Cow::Borrowed(at(range)));
            }
        }
        UrlKind::Ping => {
            let bytes = value.as_bytes();
            let mut start = 0;
            while start < bytes.len() {
                let is_space = |b: &u8| b.is_ascii_whitespace();
                let Some(token) = bytes
                    .get(start..)
                    .and_then(|r| r.iter().position(|b| !is_space(b)))
                else {
                    break;
                };
                let token_start = start + token;
                let token_end = bytes
                    .get(token_start..)
                    .and_then(|r| r.iter().position(is_space))
                    .map_or(bytes.len(), |len| token_start + len);
                found(
                    token_start..token_end,
                    Cow::Borrowed(at(token_start..token_end)),
                );
                start = token_end;
            }
        }
        UrlKind::Refresh => {
            if let Some(range) = refresh_url(value) {
                found(range.clone(), Cow::Borrowed(trim(at(range))));
            }
        }
        UrlKind::StyleAttribute | UrlKind::StyleElement => {
            for url in css::urls(value) {
                found(url.range, Cow::Owned(trim(&url.reference).to_owned()));
            }
        }
    }
}

/// `value` without leading and trailing ASCII white space (HTML: "valid URL potentially
/// surrounded by spaces").
fn trim(value: &str) -> &str {
    value.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// The range of [`trim`]'s result inside `value`.
fn trimmed_range(value: &str) -> Range<usize> {
    let start = value.len()
        - value
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .len();
    let end = value
        .trim_end_matches(|c: char| c.is_ascii_whitespace())
        .len()
        .max(start);
    start..end
}

/// The URL of each image candidate of a `srcset` value (the HTML Standard's [parse a srcset attribute](https://html.spec.whatwg.org/multipage/images.html#parse-a-srcset-attribute), "parse a
/// srcset attribute", steps 1–10; descriptors are skipped, not validated).
fn srcset_urls(value: &str) -> Vec<Range<usize>> {
    let bytes = value.as_bytes();
    let mut urls = Vec::new();
    let mut position = 0;
    loop {
        // Splitting loop: skip ASCII white space and commas.
        while bytes
            .get(position)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b',')
        {
            position += 1;
        }
        if position >= bytes.len() {
            return urls;
        }
        // The URL: a run of non-white-space.
        let start = position;
        while bytes
            .get(position)
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            position += 1;
        }
        let mut end = position;
        let mut ended_by_comma = false;
        // "If url ends with U+002C (,), remove all trailing commas; no descriptors."
        while end > start && bytes.get(end - 1) == Some(&b',') {
            end -= 1;
            ended_by_comma = true;
        }
        if end > start {
            urls.push(start..end);
        }
        if !ended_by_comma {
            // Descriptors run to the next comma outside parentheses.
            let mut in_parens = false;
            while let Some(&b) = bytes.get(position) {
                position += 1;
                match b {
                    b'(' => in_parens = true,
                    b')' => in_parens = false,
                    b',' if !in_parens => break,
                    _ => {}
                }
            }
        }
    }
}

/// The URL of a `<meta http-equiv=refresh content>` value (the HTML Standard's [shared declarative refresh steps](https://html.spec.whatwg.org/multipage/semantics.html#shared-declarative-refresh-steps), "shared
/// declarative refresh steps"): `N; url=…`, `N, '…'`, `N …`. `None` when the value is
/// invalid or has no URL.
pub(super) fn refresh_url(value: &str) -> Option<Range<usize>> {
    let bytes = value.as_bytes();
    let at = |i: usize| bytes.get(i).copied();
    let skip_space = |mut i: usize| {
        while at(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let mut position = skip_space(0);
    let digits_start = position;
    while at(position).is_some_and(|b| b.is_ascii_digit()) {
        position += 1;
    }
    if position == digits_start && at(position) != Some(b'.') {
        return None;
    }
    while at(position).is_some_and(|b| b.is_ascii_digit() || b == b'.') {
        position += 1;
    }
    let next = at(position)?;
    if !(next == b';' || next == b',' || next.is_ascii_whitespace()) {
        return None;
    }
    position = skip_space(position);
    if matches!(at(position), Some(b';' | b',')) {
        position = skip_space(position + 1);
    }
    at(position)?;
    let mut url_start = position;
    if value
        .get(position..position + 3)
        .is_some_and(|s| s.eq_ignore_ascii_case("url"))
    {
        let after = skip_space(position + 3);
        if at(after) == Some(b'=') {
            url_start = skip_space(after + 1);
        }
    }
    let mut url_end = bytes.len();
    if let Some(quote @ (b'"' | b'\'')) = at(url_start) {
        url_start += 1;
        if let Some(close) = bytes
            .get(url_start..)
            .and_then(|rest| rest.iter().position(|&b| b == quote))
        {
            url_end = url_start + close;
        }
    }
    Some(url_start..url_end.max(url_start))
}
