//! Properties of the three resolvers that hold for every input, checked over generated inputs
//! (the fuzz targets in `fuzz/` assert the same invariants on mutated inputs), where hand-picked
//! examples would only find the mistakes someone thought of.
//!
//! - all three: a reference resolves as its stripped form does (tabs and newlines removed,
//!   C0 controls and spaces trimmed, `strip_reference`).
//! - `rfc1808`: an absolute reference is returned unchanged (RFC 1808 §4 step 2b), once
//!   stripped.
//! - `rfc3986`: no `.` or `..` segment in the target's path, except when the path is the base's
//!   (§5.2.2 copies the base path as it is for an empty reference path); resolving the empty
//!   reference against a target gives the target without its fragment (§5.1 strips the base's
//!   fragment); a target resolves to itself as a reference (for a base with a scheme, when the
//!   target has nothing to strip: it holds the base's tabs and spaces as they are); a base
//!   without a scheme gives a target without one, unless the reference has one.
//! - all three: no panic on arbitrary strings (non-ASCII, control characters, 1 MB inputs);
//!   `whatwg` results re-parse (with ada, and with the `url` crate) and serialize to
//!   themselves.
//!
//! The inputs come from a small xorshift PRNG with fixed seeds, so every run tests the same
//! strings.

use mimebase::url::rfc3986::{self, Parts};
use mimebase::url::{ResolveError, Resolver, has_scheme, rfc1808, strip_reference, whatwg};
use url::Url;

use crate::support::xorshift::XorShift;

/// Pieces of URLs: delimiters, dot segments (literal and percent-encoded), schemes (valid,
/// special, and only valid for the RFC 3986 Appendix B regex), authorities, Windows drive
/// letters, backslashes, whitespace, control characters and non-ASCII text.
const PIECES: &[&str] = &[
    "/", "/", "/", "//", ".", "..", "./", "../", "/.", "/..", "%2e", "%2E%2e", "?", "#", ";", ":",
    "@", "a", "b", "g", "x", "http:", "g:", "file:", "mailto:", "a+b.c-d:", "1x:", "é:", "http://",
    "//a", "a:80", "[::1]", "u@h", "C:", "c|", "\\", "%", "%zz", "%41", " ", "\t", "\n", "\u{0}",
    "\u{7f}", "\u{1b}", "é", "日本", "\u{200b}", "\u{feff}", "?q", "#f", "=",
];

fn generated(rng: &mut XorShift) -> String {
    let len = rng.below(12);
    (0..len).map(|_| rng.pick(PIECES)).collect()
}

/// Generated `(base, reference)` pairs: half of the bases get a scheme for sure.
fn pairs(seed: u64, count: usize) -> Vec<(String, String)> {
    let mut rng = XorShift(seed);
    (0..count)
        .map(|i| {
            let mut base = generated(&mut rng);
            if i % 2 == 0 {
                let scheme = rng.pick(&["http://a/", "g:", "file:///", "x:/", "HTTP://A"]);
                base.insert_str(0, scheme);
            }
            (base, generated(&mut rng))
        })
        .collect()
}

fn has_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|segment| segment == "." || segment == "..")
}

fn without_fragment(target: &str) -> &str {
    target.split_once('#').map_or(target, |(before, _)| before)
}

#[test]
fn rfc1808_returns_an_absolute_reference_unchanged() {
    let mut checked = 0;
    for (base, reference) in pairs(0x0123_4567_89AB_CDEF, 50_000) {
        let got = rfc1808::resolve(&base, &reference);
        let stripped = strip_reference(&reference);
        if !has_scheme(&base) {
            assert_eq!(got, Err(ResolveError::BaseWithoutScheme), "base {base:?}");
        } else if has_scheme(&stripped) {
            assert_eq!(got.as_deref(), Ok(&*stripped), "base {base:?}");
            checked += 1;
        }
    }
    // The absolute references of a fixed list too, against every kind of base.
    for reference in [
        "g:h",
        "http:g",
        "http:",
        "mailto:a@b",
        "a+b.c-d:../x",
        "HTTP://A/./b",
    ] {
        for base in ["http://a/b/c/d;p?q#f", "g:", "file:///x", "x:y/../z"] {
            assert_eq!(rfc1808::resolve(base, reference).as_deref(), Ok(reference));
            checked += 1;
        }
    }
    assert!(
        checked > 5_000,
        "only {checked} absolute references checked"
    );
}

#[test]
fn rfc3986_targets_have_no_dot_segments_and_are_stable() {
    let (mut targets, mut base_paths) = (0, 0);
    let mut relative = 0;
    for (base, reference) in pairs(0xFEDC_BA98_7654_3210, 50_000) {
        let t = rfc3986::resolve(&base, &reference).unwrap();
        let ctx = format!("base {base:?} reference {reference:?} -> {t:?}");
        let stripped = strip_reference(&reference);
        let r = Parts::parse(&stripped);
        let path = Parts::parse(&t).path;
        if Parts::parse(&base).scheme.is_none() {
            // §5.2.2 as written: T.scheme is R.scheme, else Base.scheme (undefined).
            assert_eq!(Parts::parse(&t).scheme, r.scheme, "{ctx}");
            relative += usize::from(r.scheme.is_none());
        } else if r.scheme.is_none() && r.authority.is_none() && r.path.is_empty() {
            // §5.2.2: "T.path = Base.path", without remove_dot_segments.
            assert_eq!(path, Parts::parse(&base).path, "{ctx}");
            base_paths += 1;
        } else {
            assert!(!has_dot_segment(path), "dot segment in the path: {ctx}");
            if strip_reference(&t) == t {
                assert_eq!(
                    rfc3986::resolve(&base, &t).as_deref(),
                    Ok(t.as_str()),
                    "a target resolves to itself as a reference: {ctx}"
                );
                targets += 1;
            }
        }
        let again = rfc3986::resolve(&t, "").unwrap();
        assert_eq!(again, without_fragment(&t), "empty reference: {ctx}");
        assert_eq!(rfc3986::resolve(&again, "").unwrap(), again, "{ctx}");
    }
    assert!(
        targets > 20_000 && base_paths > 100 && relative > 1_000,
        "{targets} {base_paths} {relative}"
    );
}

/// The documented exception to "no dot segments": an empty reference keeps the base's path.
#[test]
fn rfc3986_empty_reference_keeps_the_base_path_as_it_is() {
    let base = "http://a/b/./c/../d?q#f";
    assert_eq!(rfc3986::resolve(base, "").unwrap(), "http://a/b/./c/../d?q");
    assert_eq!(
        rfc3986::resolve(base, "#s").unwrap(),
        "http://a/b/./c/../d?q#s"
    );
    assert_eq!(
        rfc3986::resolve(base, "?y").unwrap(),
        "http://a/b/./c/../d?y"
    );
    assert_eq!(rfc3986::resolve(base, "g").unwrap(), "http://a/b/g");
}

/// `Ok` results re-parse and serialize to themselves, with ada (the parser `whatwg` uses) and
/// with the `url` crate, except for the `file:` URLs the `url` crate 2.5.8 does not round-trip
/// (servo/rust-url#1101: it drops the host of `file://c/d:/`), which only have to parse.
#[test]
fn whatwg_results_reparse_to_themselves() {
    let (mut ok, mut url_crate_differs) = (0, 0);
    for (base, reference) in pairs(0x0F0F_F0F0_1234_4321, 50_000) {
        let Ok(t) = whatwg::resolve(&base, &reference) else {
            continue;
        };
        let ctx = format!("{t:?} (from {base:?} {reference:?})");
        let reparsed = ada_url::Url::parse(t.as_str(), None)
            .unwrap_or_else(|e| panic!("{ctx} does not parse: {e}"));
        assert_eq!(reparsed.href(), t, "{ctx}");
        assert_eq!(whatwg::parse(&t).as_deref(), Ok(t.as_str()), "{ctx}");
        let by_url_crate = Url::parse(&t).unwrap_or_else(|e| panic!("{ctx}: url crate: {e}"));
        if by_url_crate.as_str() != t {
            assert_eq!(
                by_url_crate.scheme(),
                "file",
                "{ctx} re-parses as {by_url_crate}"
            );
            url_crate_differs += 1;
        }
        ok += 1;
    }
    eprintln!(
        "whatwg: {ok} results re-parsed ({url_crate_differs} file: URLs serialized otherwise by \
         the url crate, rust-url#1101)"
    );
    assert!(ok > 5_000, "only {ok} whatwg results");
    // The cases the url crate got wrong (rust-url#1101, #1114), now right.
    // The base's path is ["", "d:", ".."]: ".." pops "d:" and, at the end of the input,
    // appends an empty segment (URL Standard, path state).
    assert_eq!(
        whatwg::resolve("file://C//d:/..", "").as_deref(),
        Ok("file://c//")
    );
    assert_eq!(Url::parse("file://c/d:/").unwrap().as_str(), "file:///d:/");
    assert_eq!(
        whatwg::resolve("file:///a/c:", "x").as_deref(),
        Ok("file:///a/x")
    );
    assert_eq!(
        whatwg::resolve("file:///w:/a:", "..").as_deref(),
        Ok("file:///w:/")
    );
}

/// Every resolver reads a reference as its stripped form (URL Standard, basic URL parser:
/// "remove any leading and trailing C0 control or space", "remove all ASCII tab or newline"):
/// the generated references, and each again with tabs, newlines and C0 controls put around
/// and inside it.
#[test]
fn every_resolver_reads_a_reference_as_its_stripped_form() {
    let mut rng = XorShift(0x7AB0_0A0D_1F20_0009);
    let mut strips = 0;
    for (base, reference) in pairs(0x0A0D_0920_1F00_7AB5, 10_000) {
        let at = reference
            .char_indices()
            .map(|(i, _)| i)
            .nth(rng.below(4))
            .unwrap_or(reference.len());
        let (head, tail) = reference.split_at(at);
        let inside = rng.pick(&["\t", "\n", "\r", "\r\n", "\t\n\r"]);
        let around = rng.pick(&[" ", "\u{0}", "\u{1f}\t", "\n \u{c}", "\u{1}\u{8}\u{b}"]);
        let padded = format!("{around}{head}{inside}{tail}{around}");
        let stripped = strip_reference(&padded);
        assert!(
            !stripped.contains(['\t', '\n', '\r'])
                && !stripped.starts_with(|c: char| c <= ' ')
                && !stripped.ends_with(|c: char| c <= ' '),
            "{padded:?} -> {stripped:?}"
        );
        for resolver in Resolver::ALL {
            for written in [&reference, &padded] {
                assert_eq!(
                    resolver.resolve(&base, written),
                    resolver.resolve(&base, &strip_reference(written)),
                    "{} base {base:?} reference {written:?}",
                    resolver.name()
                );
                strips += usize::from(strip_reference(written) != written.as_str());
            }
        }
    }
    assert!(strips > 30_000, "only {strips} references needed stripping");
}

/// Inputs no resolver may panic on; every resolver runs on every pair of them.
fn hostile_inputs() -> Vec<String> {
    let mb = 1 << 20;
    let mut inputs: Vec<String> = [
        "",
        " ",
        "\u{0}",
        "\t\n\r",
        "\u{7f}\u{80}",
        "\u{1}http://a/",
        "http://a/\u{0}/..",
        "é",
        "日本語:/x",
        "http://日本.jp/ä/../ö",
        "\u{feff}http://a",
        "\u{202e}/..",
        "http://[",
        "http://[::1",
        "http://a:99999999999/",
        "http://%zz/",
        "file:C|/..",
        "file://C:/..",
        "\\\\a\\b",
        "a:\\..\\..",
        "%",
        "%2",
        "%2e%2E/..",
        "#",
        "?",
        ";",
        "//",
        "///",
        ":",
        "g:h",
        "mailto:",
        "data:,x",
        "javascript:alert(1)",
        "http:",
        "http:/..//a",
        "x:/.//",
        "\u{10FFFF}",
        "a\u{0}b:c",
    ]
    .iter()
    .map(|&s| s.to_owned())
    .collect();
    inputs.extend([
        "../".repeat(mb / 3),
        "a/".repeat(mb / 2),
        "/".repeat(mb),
        "%2e/".repeat(mb / 4),
        format!("http://a/{}", "b/..".repeat(mb / 4)),
        "é".repeat(mb / 2),
        "\u{0}".repeat(mb),
        format!("g:{}", ";?#".repeat(mb / 3)),
        format!("http://{}/", "a".repeat(mb)),
    ]);
    inputs
}

#[test]
fn resolvers_never_panic_on_hostile_inputs() {
    let inputs = hostile_inputs();
    let bases: Vec<&str> = inputs
        .iter()
        .map(String::as_str)
        .chain(["http://a/b/c/d;p?q#f", "file:///C:/x", "x:", "x:/a"])
        .collect();
    let small: Vec<&str> = bases.iter().copied().filter(|s| s.len() < 1024).collect();
    let mut calls = 0;
    for resolver in Resolver::ALL {
        // Every reference against the small bases, every base against a small reference: the
        // huge strings meet each other only through the short list above.
        for &base in &small {
            for reference in &inputs {
                let _ = resolver.resolve(base, reference);
                calls += 1;
            }
        }
        for &base in &bases {
            for reference in ["", "g", "../..", "#f", "?q", "//h/p"] {
                let _ = resolver.resolve(base, reference);
                calls += 1;
            }
        }
    }
    // And the generated pairs.
    for (base, reference) in pairs(0x5555_AAAA_3333_CCCC, 20_000) {
        for resolver in Resolver::ALL {
            let _ = resolver.resolve(&base, &reference);
            calls += 1;
        }
    }
    assert!(calls > 60_000);
}
