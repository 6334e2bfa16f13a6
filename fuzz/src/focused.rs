//! Oracles of the focused fuzz targets: one stage of the pipeline each, on small inputs, so
//! that each runs thousands of times per second (the whole-pipeline `analyze` target runs a
//! few dozen). They reach the crate-internal stages through `mimebase::fuzzing`, a hidden
//! module that exists for them; it is the one place to change when a stage is replaced.

use mimebase::fuzzing;
use mimebase::url::{has_scheme, strip_reference};
use mimebase::{DiagnosticKind, Options, Resolver, UrlSource};

/// `mime_split`: the MIME splitter with small limits. Every entity's header comes before its
/// body, both inside the bytes they index; parents come before their children; a child in
/// its parent's buffer lies inside the parent's body; the limits hold.
pub fn check_mime_split(data: &[u8]) {
    let options = Options::new()
        .with_max_depth(8)
        .with_max_entities(64)
        .with_max_decoded_bytes(64 << 10)
        .with_max_encoded_levels(3)
        .with_max_header_bytes(1024);
    let split = fuzzing::split(data, &options);
    assert!(!split.entities.is_empty(), "the root is always an entity");
    assert!(
        split.entities.len() <= 64,
        "{} entities",
        split.entities.len()
    );
    assert_eq!(split.buffer_lens.first(), Some(&data.len()));
    // How many encoded encapsulated messages enclose each entity: one more than its parent
    // when it lives in a decoded buffer of its own. The limit is on this nesting, not on the
    // number of decoded buffers (sibling parts may each hold one).
    let mut encoded_levels: Vec<usize> = Vec::with_capacity(split.entities.len());
    for (index, entity) in split.entities.iter().enumerate() {
        let level = match entity.parent {
            Some(parent) if split.entities[parent].buffer != entity.buffer => {
                encoded_levels[parent] + 1
            }
            Some(parent) => encoded_levels[parent],
            None => 0,
        };
        assert!(level <= 3, "entity {index} inside {level} encoded levels");
        encoded_levels.push(level);
        let len = split.buffer_lens[entity.buffer];
        assert!(
            entity.header.start <= entity.header.end
                && entity.header.end <= entity.body.start
                && entity.body.start <= entity.body.end
                && entity.body.end <= len,
            "entity {index}: header {:?} body {:?} in {len} bytes",
            entity.header,
            entity.body
        );
        assert!(
            entity.depth <= 8,
            "entity {index} at depth {}",
            entity.depth
        );
        match entity.parent {
            None => assert_eq!(index, 0, "only the root has no parent"),
            Some(parent) => {
                assert!(parent < index, "parent {parent} after child {index}");
                let parent = &split.entities[parent];
                assert_eq!(entity.depth, parent.depth + 1);
                if entity.buffer == parent.buffer {
                    assert!(
                        parent.body.start <= entity.header.start
                            && entity.body.end <= parent.body.end,
                        "entity {index} {:?}..{:?} outside its parent's body {:?}",
                        entity.header,
                        entity.body,
                        parent.body
                    );
                } else {
                    assert!(
                        entity.buffer > parent.buffer,
                        "a decoded buffer nests deeper"
                    );
                }
            }
        }
    }
}

/// `headers`: the header block reader, then the base-field and list-field value readers on
/// every field. Ranges are ordered and in bounds; names are bytes other than controls, space,
/// DEL and `:`;
/// values are unfolded (no CR or LF) and trimmed; base values and list URLs hold no white
/// space; comment stripping only removes characters.
pub fn check_headers(data: &[u8]) {
    let block = fuzzing::header_block(data, 1024);
    assert!(block.range.start == 0);
    assert!(
        block.range.end <= block.body_start && block.body_start <= data.len(),
        "header {:?}, body at {}",
        block.range,
        block.body_start
    );
    for (name, value) in &block.fields {
        assert!(!name.is_empty());
        assert!(
            name.chars().all(|c| c > ' ' && c != '\u{7f}' && c != ':'),
            "name {name:?}"
        );
        assert!(
            !value.contains(['\r', '\n']),
            "value {value:?} not unfolded"
        );
        assert_eq!(value.trim_matches([' ', '\t']), value, "value not trimmed");
        let base = fuzzing::base_value(value);
        assert!(!base.chars().any(char::is_whitespace), "base {base:?}");
        for url in fuzzing::list_urls(value) {
            assert!(!url.is_empty());
            assert!(!url.chars().any(char::is_whitespace), "list URL {url:?}");
        }
        let stripped = fuzzing::strip_comments(value);
        assert!(
            is_subsequence(&stripped, value),
            "{stripped:?} from {value:?}"
        );
    }
}

fn is_subsequence(part: &str, whole: &str) -> bool {
    let mut chars = whole.chars();
    part.chars().all(|c| chars.any(|w| w == c))
}

/// `html_scan`: the HTML scanner on a decoded body (the input as UTF-8, lossily). Every
/// range is in bounds on character boundaries, inside its attribute value, in document
/// order; the `<base>` index points at a `base` element's URL; where the value holds nothing
/// the HTML or CSS tokenizer would change (a character reference, a CSS escape, NUL, CR,
/// form feed), the reference is exactly the text at its range.
pub fn check_html_scan(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let scan = fuzzing::html_scan(&text);
    let mut previous_value_start = 0;
    for url in &scan.urls {
        let Some(at) = text.get(url.range.clone()) else {
            panic!(
                "range {:?} not in the text or not on char boundaries",
                url.range
            )
        };
        if let Some(value) = &url.value {
            assert!(text.get(value.clone()).is_some(), "value {value:?}");
            assert!(
                value.start <= url.range.start && url.range.end <= value.end,
                "range {:?} outside its value {value:?}",
                url.range
            );
            assert!(value.start >= previous_value_start, "values out of order");
            previous_value_start = value.start;
        }
        if !at.contains(['&', '\\', '\0', '\r', '\x0c']) {
            assert_eq!(
                url.reference,
                at.trim_matches(is_ascii_ws),
                "at {:?}",
                url.range
            );
        }
    }
    if let Some(base) = scan.base {
        assert_eq!(scan.urls[base].tag, "base");
    }
    // A fetch attribute's name is the name, outside every URL value (renaming it must not
    // overlap a URL's edit), and belongs to an element with a URL.
    for (name, urls) in &scan.fetch_attributes {
        let Some(at) = text.get(name.clone()) else {
            panic!("name {name:?} not in the text or not on char boundaries")
        };
        assert!(
            at.eq_ignore_ascii_case("crossorigin") || at.eq_ignore_ascii_case("integrity"),
            "{at:?} at {name:?}"
        );
        for url in &scan.urls {
            let value = url.value.clone().unwrap_or(url.range.clone());
            assert!(
                name.end <= value.start || value.end <= name.start,
                "name {name:?} inside the value {value:?}"
            );
        }
        assert!(
            scan.urls.iter().any(|url| urls.contains(&url.range.start)),
            "no URL in {urls:?}"
        );
    }
}

/// `srcdoc`: the URLs of `<iframe srcdoc>` documents in a decoded HTML body (the input as
/// UTF-8, lossily). Every range is in bounds on character boundaries, in document order, and
/// inside the value of a `srcdoc` attribute of the body's own document; for a URL one
/// `srcdoc` deep, the raw text at its range, its character references decoded (the `srcdoc`
/// value's), holds the URL's text in the `srcdoc` document (the range is exact, or widened
/// only over references), which holds the reference as written or, its own references
/// decoded (the inner attribute value's), as the reference; the URLs of the body's
/// own document are unchanged by the documents inside it (the `html_scan` target checks them).
pub fn check_srcdoc(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (urls, values) = fuzzing::srcdoc_scan(&text);
    let mut previous = 0;
    // The tokenizer's input stream turns CR and CR LF into LF and NUL into U+FFFD in a value.
    let normalize = |s: &str| {
        s.replace("\r\n", "\n")
            .replace('\r', "\n")
            .replace('\0', "\u{fffd}")
    };
    for url in &urls {
        let Some(at) = text.get(url.range.clone()) else {
            panic!(
                "range {:?} not in the text or not on char boundaries",
                url.range
            )
        };
        assert!(
            url.range.start >= previous,
            "out of order at {:?}",
            url.range
        );
        previous = url.range.start;
        assert!(url.depth >= 1, "depth {}", url.depth);
        assert!(
            values
                .iter()
                .any(|v| v.start <= url.range.start && url.range.end <= v.end),
            "range {:?} outside every srcdoc value {values:?}",
            url.range
        );
        if url.depth == 1 {
            let inner = htmlize::unescape_attribute(at);
            let decoded = normalize(&inner);
            let reference = normalize(&url.reference);
            assert!(
                decoded.contains(&reference)
                    || normalize(&htmlize::unescape_attribute(&*inner)).contains(&reference),
                "{:?} at {:?} does not hold {:?}",
                decoded,
                url.range,
                url.reference
            );
        }
    }
    let own = fuzzing::html_scan(&text);
    for url in &own.urls {
        assert!(
            !values
                .iter()
                .any(|v| v.start < url.range.start && url.range.end < v.end),
            "a URL of the document itself at {:?} inside a srcdoc value",
            url.range
        );
    }
}

/// `svg_scan`: the SVG scanner on a decoded document (the input as UTF-8, lossily). Every
/// range is in bounds on character boundaries, inside its value, sorted by start; a value
/// the scan gives decoded lies in the text; where the URL's value is not given decoded and
/// its text holds nothing XML or CSS would change (a reference, white space XML normalizes,
/// a CSS escape, NUL, form feed, markup), the reference is exactly the text at its range,
/// trimmed; the `<base>` index names a `base`; a stop lies in the text.
pub fn check_svg_scan(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let scan = fuzzing::svg_scan(&text);
    let mut previous_start = 0;
    for url in &scan.urls {
        let Some(at) = text.get(url.range.clone()) else {
            panic!(
                "range {:?} not in the text or not on char boundaries",
                url.range
            )
        };
        assert!(url.range.start >= previous_start, "URLs out of order");
        previous_start = url.range.start;
        let value = url.value.clone().unwrap_or(url.range.clone());
        assert!(text.get(value.clone()).is_some(), "value {value:?}");
        assert!(
            value.start <= url.range.start && url.range.end <= value.end,
            "range {:?} outside its value {value:?}",
            url.range
        );
        let inexact = scan.inexact_values.iter().any(|(range, _)| *range == value);
        if !inexact && !at.contains(['&', '\\', '\0', '\r', '\n', '\t', '\x0c', '<']) {
            assert_eq!(
                url.reference,
                at.trim_matches(is_ascii_ws),
                "at {:?}",
                url.range
            );
        }
    }
    for (range, _) in &scan.inexact_values {
        assert!(text.get(range.clone()).is_some(), "value {range:?}");
    }
    if let Some(base) = scan.base {
        assert_eq!(scan.urls[base].tag, "base");
    }
    if let Some(at) = scan.stopped_at {
        assert!(at <= text.len(), "stop at {at} past the end");
    }
}

fn is_ascii_ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ')
}

/// `css`: the CSS `url()` finder on a style sheet (the input as UTF-8, lossily). Ranges are
/// in bounds, on character boundaries, in order and apart; without an escape, NUL, CR or
/// form feed at its range the reference is the text there.
pub fn check_css(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut end = 0;
    for (range, reference) in fuzzing::css_urls(&text) {
        let Some(at) = text.get(range.clone()) else {
            panic!("range {range:?} not in the text or not on char boundaries")
        };
        assert!(range.start >= end, "{range:?} overlaps the URL before");
        end = range.end;
        if !at.contains(['\\', '\0', '\r', '\x0c']) {
            assert_eq!(reference, at, "at {range:?}");
        }
    }
}

/// `rewrite_part`: `rewrite` on a message of one HTML part whose body is the input after a
/// selector byte (charset, transfer encoding, resolver). Either the part is left unchanged
/// with a diagnostic, or: the header is kept byte for byte; the part reads back with the same
/// URLs in the same order, each one that was relative, resolved and not a same-document
/// reference now its resolved form and every other one as it was; rewriting again changes
/// nothing.
pub fn check_rewrite_part(data: &[u8]) {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let charset = ["utf-8", "windows-1252", "iso-8859-2", "x-unknown"][usize::from(selector & 3)];
    let encoding = ["8bit", "7bit", "quoted-printable", "base64"][usize::from(selector >> 2 & 3)];
    let resolver = [
        Resolver::Rfc1808,
        Resolver::Rfc3986,
        Resolver::Whatwg,
        Resolver::Rfc1808,
    ][usize::from(selector >> 4 & 3)];
    let eol = if selector & 0x40 != 0 { "\r\n" } else { "\n" };
    let header = format!(
        "Content-Base: http://b.example/dir/page{eol}Content-Type: text/html; charset={charset}{eol}Content-Transfer-Encoding: {encoding}{eol}{eol}"
    );
    let mut message = header.clone().into_bytes();
    message.extend_from_slice(body);
    let options = Options::new().with_resolver(resolver);
    let rewritten = mimebase::rewrite(&message, &options);
    if rewritten.message == message {
        return;
    }
    assert!(
        !rewritten
            .report
            .diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::RewriteSkipped),
        "a part reported as left unchanged changed"
    );
    assert!(
        rewritten.message.starts_with(header.as_bytes()),
        "the header changed"
    );
    let before: Vec<_> = html_urls(&rewritten.report.urls);
    let after_report = mimebase::analyze(&rewritten.message, &options);
    let after: Vec<_> = html_urls(&after_report.urls);
    assert_eq!(before.len(), after.len(), "URL count changed");
    for (old, new) in before.iter().zip(&after) {
        // Told as the resolvers read the reference, stripped.
        let stripped = strip_reference(&old.reference);
        let same_document = stripped.is_empty() || stripped.starts_with('#');
        let expected = match old.resolution.resolved() {
            Some(resolved)
                if !has_scheme(&stripped)
                    && !same_document
                    && !resolved.starts_with("thismessage:") =>
            {
                resolved
            }
            _ => &old.reference,
        };
        assert_eq!(
            &new.reference, expected,
            "rewritten from {:?}",
            old.reference
        );
    }
    let again = mimebase::rewrite(&rewritten.message, &options);
    assert!(
        again.message == rewritten.message,
        "rewrite is not idempotent"
    );
}

fn html_urls(urls: &[mimebase::UrlRecord]) -> Vec<&mimebase::UrlRecord> {
    urls.iter()
        .filter(|u| !matches!(u.source, UrlSource::Header { .. }))
        .collect()
}

/// `uudecode`: the uuencode transfer decoder. On the input as a body: no panic, fewer bytes
/// out than in, nothing without a `begin` line. Then a round trip: the input's bytes
/// after the first (the payload) encoded by [`uuencode`], the reference encoder below, with
/// the line width, zero character, line ending and lines before `begin` that the first byte
/// picks, decode to the payload exactly, with nothing reported damaged.
pub fn check_uudecode(data: &[u8]) {
    let decoded = fuzzing::uudecode(data);
    assert!(
        decoded.bytes.is_empty() || decoded.bytes.len() < data.len(),
        "{} bytes out of {}",
        decoded.bytes.len(),
        data.len()
    );
    if decoded.no_begin {
        assert!(decoded.bytes.is_empty());
    }
    let Some((&selector, payload)) = data.split_first() else {
        return;
    };
    let width = usize::from(selector % 45) + 1;
    let zero = if selector & 0x40 == 0 { b'`' } else { b' ' };
    let eol: &[u8] = if selector & 0x80 == 0 { b"\n" } else { b"\r\n" };
    let mut body = Vec::new();
    if selector % 3 == 0 {
        body.extend_from_slice(b"Here is the file:");
        body.extend_from_slice(eol);
        body.extend_from_slice(eol);
    }
    body.extend_from_slice(&uuencode(payload, width, zero, eol));
    let round = fuzzing::uudecode(&body);
    assert_eq!(round.bytes, payload, "width {width}, zero {zero}");
    assert!(
        !round.no_begin && !round.no_end && round.bad_lines == 0 && round.after_end == 0,
        "{round:?}"
    );
}

/// A uuencoded file (`begin 644 f`, data lines, a zero-length line, `end`), as the historical
/// uuencode writes it: each line a length character (32 plus the byte count) and then four
/// characters for every three bytes (the last group padded with zero bits), six bits each
/// written as 32 plus their value, `zero` standing for a value of 0 (`` ` `` or space);
/// `width` bytes per line (45 for uuencode).
pub fn uuencode(payload: &[u8], width: usize, zero: u8, eol: &[u8]) -> Vec<u8> {
    let character = |value: u8| if value == 0 { zero } else { 32 + value };
    let mut out = b"begin 644 f".to_vec();
    out.extend_from_slice(eol);
    for line in payload.chunks(width.clamp(1, 63)) {
        out.push(character(line.len() as u8));
        for group in line.chunks(3) {
            let bits = (u32::from(group[0]) << 16)
                | (u32::from(group.get(1).copied().unwrap_or(0)) << 8)
                | u32::from(group.get(2).copied().unwrap_or(0));
            for shift in [18, 12, 6, 0] {
                out.push(character(((bits >> shift) & 0x3f) as u8));
            }
        }
        out.extend_from_slice(eol);
    }
    out.push(zero);
    out.extend_from_slice(eol);
    out.extend_from_slice(b"end");
    out.extend_from_slice(eol);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference encoder writes what Python's `binascii.b2a_uu` writes for the same bytes
    /// (`backtick=True` for `` ` ``, the default for space).
    #[test]
    fn uuencode_writes_lines_as_binascii_does() {
        assert_eq!(
            uuencode(b"abc", 45, b'`', b"\n"),
            b"begin 644 f\n#86)C\n`\nend\n"
        );
        assert_eq!(
            uuencode(&[0, 0, 0, 255], 45, b'`', b"\r\n"),
            b"begin 644 f\r\n$````_P``\r\n`\r\nend\r\n"
        );
        assert_eq!(
            uuencode(&[0, 0, 0, 255], 2, b' ', b"\n"),
            b"begin 644 f\n\"    \n\" /\\ \n \nend\n"
        );
    }
}
/// `text_links`: the plain-text link finder (Thunderbird's rules) on the input after a
/// selector byte (`% 4`: 0 the text as it is, 1 a `format=flowed` body, 2 the same with
/// `delsp=yes`, 3 a `text/enriched` body). Links are in bounds, on character boundaries, in
/// order and apart, each within one line; the URL is the link's text inside its delimiters
/// without white space, after `http://` for a `www.` host (which it starts with) and
/// `mailto:` for an address; an undelimited link holds no white space and does not end in
/// the punctuation Thunderbird drops; every URL parses. Moving the text down one line moves its links and
/// changes nothing else. The flowed and enriched maps cover the shown text in order, point
/// into the body in ascending order, and copied pieces are the body's bytes; the links found
/// in the shown text map back to ascending ranges in the body.
pub fn check_text_links(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let body = String::from_utf8_lossy(rest);
    let shown = match selector % 4 {
        0 => None,
        1 => Some(fuzzing::unflow(&body, false)),
        2 => Some(fuzzing::unflow(&body, true)),
        _ => Some(fuzzing::enriched_text(&body)),
    };
    let text = shown.as_ref().map_or(&*body, |s| s.text.as_str());
    let (links, complete) = fuzzing::text_links(text);
    check_links(text, &links);
    if complete {
        let moved = format!("line\n{text}");
        let (moved_links, _) = fuzzing::text_links(&moved);
        let moved_back: Vec<_> = moved_links
            .iter()
            .map(|l| (l.range.start - 5..l.range.end - 5, l.href.as_str()))
            .collect();
        let original: Vec<_> = links
            .iter()
            .map(|l| (l.range.clone(), l.href.as_str()))
            .collect();
        assert_eq!(moved_back, original, "links moved with their line");
    }
    if let Some(shown) = &shown {
        check_map(&body, shown);
        let mut end = 0;
        for link in &links {
            let source = shown.source_range(link.range.clone());
            assert!(
                source.start <= source.end && source.end <= body.len(),
                "{source:?}"
            );
            assert!(body.is_char_boundary(source.start) && body.is_char_boundary(source.end));
            assert!(
                source.start >= end,
                "{source:?} overlaps the link before in the body"
            );
            end = source.end;
        }
    }
}

/// The oracles of one text's links.
fn check_links(text: &str, links: &[fuzzing::TextLink]) {
    let strip = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '\x0c' | '\t' | '\r' | '\n' | ' ' | '\0'))
            .collect()
    };
    let mut end = 0;
    for link in links {
        let range = link.range.clone();
        let Some(at) = text.get(range.clone()) else {
            panic!("range {range:?} not in the text or not on char boundaries")
        };
        assert!(!at.is_empty(), "empty link at {range:?}");
        assert!(range.start >= end, "{range:?} overlaps the link before");
        end = range.end;
        assert!(!at.contains(['\n', '\r']), "{at:?} spans lines");
        let inner = match link.delimiter {
            "rfc1738" => at.strip_prefix("<URL:").and_then(|s| s.strip_suffix('>')),
            "angle" => at.strip_prefix('<').and_then(|s| s.strip_suffix('>')),
            "quotes" => at.strip_prefix('"').and_then(|s| s.strip_suffix('"')),
            _ => {
                assert!(
                    !at.contains([' ', '\t', '\u{a0}', '\u{3000}']),
                    "{at:?} holds white space"
                );
                assert!(
                    !at.ends_with(['.', ',', ';', '!', '?', '-', ':', '\'']),
                    "{at:?} ends in punctuation"
                );
                Some(at)
            }
        };
        let Some(inner) = inner else {
            panic!("{at:?} is not delimited as {}", link.delimiter)
        };
        let url = strip(inner);
        assert!(
            ada_url::Url::can_parse(&link.href, None),
            "{:?} does not parse",
            link.href
        );
        match link.kind {
            "www" => {
                assert!(
                    url.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("www.")),
                    "{url:?}"
                );
                assert_eq!(link.href, format!("http://{url}"));
            }
            "email" => {
                assert!(url.contains('@'), "{url:?}");
                assert_eq!(link.href, format!("mailto:{url}"));
            }
            _ => {
                assert!(url.contains(':'), "{url:?}");
                assert_eq!(link.href, url);
            }
        }
    }
}

/// The oracles of a map from a shown text back to its body.
fn check_map(body: &str, shown: &fuzzing::Shown) {
    let mut shown_end = 0;
    let mut source_end = 0;
    for (piece, source, copied) in &shown.pieces {
        assert_eq!(
            piece.start, shown_end,
            "pieces cover the shown text in order"
        );
        assert!(piece.start < piece.end, "empty piece {piece:?}");
        assert!(
            source.start >= source_end,
            "{source:?} goes back in the body"
        );
        assert!(
            source.start <= source.end && source.end <= body.len(),
            "{source:?}"
        );
        if *copied {
            assert_eq!(
                shown.text.get(piece.clone()),
                body.get(source.clone()),
                "copied {piece:?}"
            );
        }
        shown_end = piece.end;
        source_end = source.end;
    }
    assert_eq!(
        shown_end,
        shown.text.len(),
        "the pieces cover the shown text"
    );
}

/// `extract_policy`: the page `data` (HTML, or XML when its first byte is odd) with the policy
/// inserted as `extract` writes it offline. Oracles: the output is the input with the element
/// inserted at one place, every other byte kept (where the element's ends match the input's
/// bytes around it, several places give the same output: one of them must pass). HTML (UTF-8
/// input): html5gum, an HTML tokenizer of its own switching states after `<title>`, `<style>`
/// and the other raw-text elements, reads every token before that place as a doctype, a
/// comment, white space, a start tag of `html`, `head`, `meta` or `title`, a title's text or
/// its end tag (so the parser is still before `<body>`, where the `<meta>` goes into
/// `<head>`), and the output holds one more `<meta http-equiv="Content-Security-Policy">`
/// start tag with the policy as its content than the input (the element is a tag, not text
/// inside a comment, a value or a title). XML: the SVG scan finds the same URLs in the output,
/// and stops where it stopped in the input (after the element, moved by its length).
pub fn check_extract_policy(data: &[u8]) {
    let Some((&selector, page)) = data.split_first() else {
        return;
    };
    let xml = selector & 1 == 1;
    let Some(out) = fuzzing::policy_insert(page, xml) else {
        assert!(xml, "an HTML page always has a place for the policy");
        return;
    };
    let policy = mimebase::extract::POLICY;
    let element = if xml {
        format!(
            "<head xmlns=\"http://www.w3.org/1999/xhtml\"><meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\"/></head>"
        )
    } else {
        format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">")
    };
    let utf16 = page.starts_with(b"\xff\xfe") || page.starts_with(b"\xfe\xff");
    let inserted = out
        .len()
        .checked_sub(page.len())
        .expect("the output is longer");
    let common = out.iter().zip(page).take_while(|(a, b)| a == b).count();
    let places: Vec<usize> = (0..=common.min(page.len()))
        .filter(|&p| {
            out[p + inserted..] == page[p..]
                && (utf16 || &out[p..p + inserted] == element.as_bytes())
        })
        .collect();
    assert!(!places.is_empty(), "not one insertion: {page:?} -> {out:?}");
    if utf16 {
        return;
    }
    // The tokenizer and the scan read UTF-8 text from its start (a byte order mark is text).
    let (Ok(before), Ok(after)) = (std::str::from_utf8(page), std::str::from_utf8(&out)) else {
        return;
    };
    if before.starts_with('\u{feff}') {
        return;
    }
    if !xml {
        assert!(
            places.iter().any(|&p| html_prefix_allowed(&before[..p])),
            "a token before the policy that is not allowed there: {before:?} at {places:?}"
        );
        assert_eq!(
            policy_metas(after),
            policy_metas(before) + 1,
            "the <meta> is not a tag of its own: {before:?} at {places:?}"
        );
    } else {
        let old = fuzzing::svg_scan(before);
        let new = fuzzing::svg_scan(after);
        let references = |scan: &fuzzing::SvgScan| -> Vec<String> {
            scan.urls.iter().map(|u| u.reference.clone()).collect()
        };
        assert_eq!(references(&old), references(&new), "{before:?}");
        assert!(
            places.iter().any(|&p| {
                let moved = old
                    .stopped_at
                    .map(|s| if s >= p { s + inserted } else { s });
                moved == new.stopped_at
            }),
            "{before:?} -> {after:?}: stops {:?}, {:?}",
            old.stopped_at,
            new.stopped_at
        );
    }
}

/// Whether every token of `prefix` (the text of a page before the policy) is one the policy
/// may follow, a title whole.
fn html_prefix_allowed(prefix: &str) -> bool {
    use html5gum::{DefaultEmitter, Token, Tokenizer};
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    let mut in_title = false;
    for token in Tokenizer::new_with_emitter(prefix, emitter).flatten() {
        let allowed = match &token {
            Token::Doctype(_) | Token::Comment(_) | Token::Error(_) => true,
            Token::String(text) => {
                in_title
                    || text
                        .value
                        .iter()
                        .all(|b| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' '))
            }
            Token::StartTag(tag) => {
                let name = tag.name.as_slice();
                in_title = name == b"title";
                matches!(name, b"html" | b"head" | b"meta" | b"title")
            }
            Token::EndTag(tag) => {
                let was = in_title;
                in_title = false;
                was && tag.name.as_slice() == b"title"
            }
        };
        if !allowed {
            return false;
        }
    }
    !in_title
}

/// How many start tags of `text` are `<meta http-equiv="Content-Security-Policy">` with the
/// policy as content, as html5gum reads them.
fn policy_metas(text: &str) -> usize {
    use html5gum::{DefaultEmitter, Token, Tokenizer};
    let mut emitter = DefaultEmitter::default();
    emitter.naively_switch_states(true);
    Tokenizer::new_with_emitter(text, emitter)
        .flatten()
        .filter(|token| match token {
            Token::StartTag(tag) => {
                tag.name.as_slice() == b"meta"
                    && tag
                        .attributes
                        .get(b"http-equiv".as_slice())
                        .is_some_and(|v| v.as_slice() == b"Content-Security-Policy")
                    && tag
                        .attributes
                        .get(b"content".as_slice())
                        .is_some_and(|v| v.as_slice() == mimebase::extract::POLICY.as_bytes())
            }
            _ => false,
        })
        .count()
}
