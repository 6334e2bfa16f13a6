//! Resolving relative URLs as [RFC 1808 §4] specifies, steps 1–7, over the [§2.4] parse of
//! [`Components`].
//!
//! The RFC's vocabulary is kept: the *base URL*, the *embedded URL* (the reference as written),
//! and the components `scheme`, `net_loc`, `path`, `params`, `query`, `fragment`.
//!
//! The algorithm is followed literally, including where later RFCs changed the outcome:
//! `../../../g` against `http://a/b/c/d;p?q#f` gives `http://a/../g` (RFC 1808 §5.2), `http:g`
//! is returned as it is, the base's fragment is kept for an empty reference, and `?` or `;`
//! with nothing after them count as empty, so they inherit the base's query or params
//! (steps 3 and 5 test for "non-empty"). The two places where this module departs from or
//! clarifies the text are documented on [`resolve`] (step 1) and on [`Components::recombine`]
//! (step 7). Before step 1 the embedded URL is stripped of white space and C0 controls as
//! every resolver does ([`strip_reference`]).
//!
//! [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
//! [§2.4]: https://www.rfc-editor.org/rfc/rfc1808#section-2.4

use super::components::Components;
use super::{ResolveError, Resolved, strip_reference};

/// Resolves the `embedded` URL against the `base` URL by [RFC 1808 §4] steps 1–7 and returns
/// the absolute URL as a string.
///
/// The embedded URL is first stripped ([`strip_reference`]: ASCII tab, LF and CR removed,
/// leading and trailing C0 controls and spaces trimmed), so `" g\t"` is `g` and an embedded
/// URL of spaces alone is empty (step 2a).
///
/// Runs in time linear in `base.len() + embedded.len()`: step 6's iterative pattern removals
/// are done with one stack over the path segments (the RFC itself suggests "a pair of segment
/// stacks" may be more efficient), so megabyte-long paths are fine. Never panics.
///
/// ```
/// # use mimebase::url::rfc1808::resolve;
/// let base = "http://a/b/c/d;p?q#f";
/// assert_eq!(resolve(base, "g;x?y#s")?, "http://a/b/c/g;x?y#s");
/// assert_eq!(resolve(base, "../../../g")?, "http://a/../g");
/// assert_eq!(resolve(base, "")?, "http://a/b/c/d;p?q#f");
/// assert_eq!(resolve(base, " ht\ntp://spl\nit.example/p ")?, "http://split.example/p");
/// # Ok::<(), mimebase::url::ResolveError>(())
/// ```
///
/// # Errors
///
/// [`ResolveError::BaseWithoutScheme`] when `base` has no scheme (§2.4.2).
///
/// **Deviation (step 1).** The RFC says: "If the base URL is the empty string (unknown), the
/// embedded URL is interpreted as an absolute URL and we are done." Here every base without a
/// scheme, the empty one included, is an error, whatever the embedded URL is. A base without a
/// scheme is not an absolute URL and cannot supply the scheme that step 2c inherits, and the
/// caller must be able to tell "no base" apart from a successful resolution so that it can
/// report relative URLs as unresolved (RFC 1808 §3.4: no base). Callers that want the RFC's
/// outcome for
/// absolute references check [`has_scheme`](super::has_scheme) first.
///
/// [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
pub fn resolve(base: &str, embedded: &str) -> Result<String, ResolveError> {
    resolve_detailed(base, embedded).map(|resolved| resolved.url)
}

/// [`resolve`], saying whether the base decided the result ([`Resolved::base_decided`]):
/// true unless step 2b took the embedded URL as an absolute URL (it starts with a scheme
/// name), since steps 2a and 2c inherit the whole base or at least its scheme.
///
/// ```
/// # use mimebase::url::rfc1808::resolve_detailed;
/// let base = "http://a/b/c/d;p?q#f";
/// assert!(resolve_detailed(base, "")?.base_decided);
/// assert!(resolve_detailed(base, "//g")?.base_decided);
/// assert!(!resolve_detailed(base, "http:g")?.base_decided);
/// # Ok::<(), mimebase::url::ResolveError>(())
/// ```
///
/// # Errors
///
/// As [`resolve`].
pub fn resolve_detailed(base: &str, embedded: &str) -> Result<Resolved, ResolveError> {
    let decided = |url: String| Resolved {
        url,
        base_decided: true,
    };
    // Step 1: "The base URL is established according to the rules of Section 3. If the base
    // URL is the empty string (unknown), the embedded URL is interpreted as an absolute URL and
    // we are done." The caller established the base; one without a scheme is refused (see the
    // deviation above).
    let base_url = Components::parse(base);
    let Some(base_scheme) = base_url.scheme else {
        return Err(ResolveError::BaseWithoutScheme);
    };

    // White space and C0 controls are not part of the embedded URL (see `strip_reference`).
    let embedded = strip_reference(embedded);

    // Step 2: "Both the base and embedded URLs are parsed into their component parts as
    // described in Section 2.4."
    let mut url = Components::parse(&embedded);

    // Step 2a: "If the embedded URL is entirely empty, it inherits the entire base URL (i.e.,
    // is set equal to the base URL) and we are done." The base is returned as written,
    // fragment included.
    if embedded.is_empty() {
        return Ok(decided(base.to_owned()));
    }

    // Step 2b: "If the embedded URL starts with a scheme name, it is interpreted as an absolute
    // URL and we are done." It is returned unchanged, even when the scheme is the base's
    // (`http:g` stays `http:g`).
    if url.scheme.is_some() {
        return Ok(Resolved {
            url: embedded.into_owned(),
            base_decided: false,
        });
    }

    // Step 2c: "Otherwise, the embedded URL inherits the scheme of the base URL."
    url.scheme = Some(base_scheme);

    // Holds the path built by step 6, which `url.path` then borrows.
    let merged_path: String;
    'step_7: {
        // Step 3: "If the embedded URL's <net_loc> is non-empty, we skip to Step 7. Otherwise,
        // the embedded URL inherits the <net_loc> (if any) of the base URL." An empty net_loc
        // (`///g`) is not non-empty, so it too inherits the base's.
        if url.net_loc.is_some_and(|net_loc| !net_loc.is_empty()) {
            break 'step_7;
        }
        url.net_loc = base_url.net_loc;

        // Step 4: "If the embedded URL path is preceded by a slash "/", the path is not
        // relative and we skip to Step 7."
        if url.path.starts_with('/') {
            break 'step_7;
        }

        // Step 5: "If the embedded URL path is empty (and not preceded by a slash), then the
        // embedded URL inherits the base URL path, and
        //   a) if the embedded URL's <params> is non-empty, we skip to step 7; otherwise, it
        //      inherits the <params> of the base URL (if any) and
        //   b) if the embedded URL's <query> is non-empty, we skip to step 7; otherwise, it
        //      inherits the <query> of the base URL (if any) and we skip to step 7."
        if url.path.is_empty() {
            url.path = base_url.path;
            // 5a
            if url.params.is_some_and(|params| !params.is_empty()) {
                break 'step_7;
            }
            url.params = base_url.params;
            // 5b
            if url.query.is_some_and(|query| !query.is_empty()) {
                break 'step_7;
            }
            url.query = base_url.query;
            break 'step_7;
        }

        // Step 6: "The last segment of the base URL's path (anything following the rightmost
        // slash "/", or the entire path if no slash is present) is removed and the embedded
        // URL's path is appended in its place." Then sub-steps a)–d), see `step_6_a_to_d`.
        merged_path = step_6_a_to_d(base_url.path, url.path);
        url.path = &merged_path;
    }

    // Step 7: "The resulting URL components, including any inherited from the base URL, are
    // recombined to give the absolute form of the embedded URL." The fragment is the embedded
    // URL's own: "Fragment identifiers are only inherited from the base URL when the entire
    // embedded URL is empty" (step 2a).
    Ok(decided(url.recombine()))
}

/// Step 6 of [RFC 1808 §4]: merges `embedded_path` onto `base_path` and removes the `.` and
/// `..` segments as sub-steps a)–d) say:
///
/// > a) All occurrences of "./", where "." is a complete path segment, are removed.
/// >
/// > b) If the path ends with "." as a complete path segment, that "." is removed.
/// >
/// > c) All occurrences of "<segment>/../", where <segment> is a complete path segment not
/// > equal to "..", are removed. Removal of these path segments is performed iteratively,
/// > removing the leftmost matching pattern on each iteration, until no matching pattern
/// > remains.
/// >
/// > d) If the path ends with "<segment>/..", where <segment> is a complete path segment not
/// > equal to "..", that "<segment>/.." is removed.
///
/// Instead of repeated string searches (quadratic on long paths) the segments are pushed onto
/// a stack in one left-to-right pass: a `.` segment is dropped (a), or becomes an empty last
/// segment when it ends the path (b), keeping the `/` before it; a `..` pops the segment on top
/// of the stack when that is not `..` (c), or when it ends the path (d) also leaves an empty
/// last segment, so `a/b/..` gives `a/`. Pairing each `..` with the nearest unpaired segment
/// before it is exactly what leftmost-first removal in c) converges to.
///
/// What a "complete path segment" is comes from the grammar of RFC 1808 §2.2:
/// `abs_path = "/" rel_path` and `path = fsegment *( "/" segment )`, with `segment = *pchar`.
/// So the `/` that begins an absolute path is not preceded by a segment, and `/../g` keeps its
/// `..` (`../../../g` against `http://a/b/c/d;p?q#f` gives `http://a/../g`, §5.2); an empty
/// segment between two slashes is a segment, and `a//../b` gives `a/b`.
///
/// [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
fn step_6_a_to_d(base_path: &str, embedded_path: &str) -> String {
    // "The last segment of the base URL's path ... is removed and the embedded URL's path is
    // appended in its place."
    let directory = base_path
        .rsplit_once('/')
        .map(|(directory, _last_segment)| directory);
    let (root, directory) = match directory {
        Some(directory) => match directory.strip_prefix('/') {
            // The base path is absolute: its leading '/' is not a segment boundary.
            Some(rest) => ("/", Some(rest)),
            // `rsplit_once` found the only '/' at the start: the directory is just the root.
            None if base_path.starts_with('/') && directory.is_empty() => ("/", None),
            None => ("", Some(directory)),
        },
        None => ("", None),
    };
    let segments = directory
        .into_iter()
        .flat_map(|directory| directory.split('/'))
        .chain(embedded_path.split('/'));

    let mut kept: Vec<&str> = Vec::new();
    let mut segments = segments.peekable();
    while let Some(segment) = segments.next() {
        let is_last = segments.peek().is_none();
        match segment {
            // a) "./" as a complete segment is removed.
            "." if !is_last => {}
            // b) A final "." is removed; the '/' before it stays.
            "." => kept.push(""),
            ".." => match kept.last() {
                Some(&top) if top != ".." => {
                    // c) "<segment>/../" is removed, or d) a final "<segment>/.." is removed
                    // and the '/' before it stays.
                    kept.pop();
                    if is_last {
                        kept.push("");
                    }
                }
                // No segment to remove: the ".." stays.
                _ => kept.push(".."),
            },
            _ => kept.push(segment),
        }
    }

    let mut path = String::with_capacity(base_path.len() + embedded_path.len());
    path.push_str(root);
    for (i, segment) in kept.iter().enumerate() {
        if i > 0 {
            path.push('/');
        }
        path.push_str(segment);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url::has_scheme;
    use pretty_assertions::assert_eq;

    /// The base URL of RFC 1808 §5: "Within an object with a well-defined base URL of
    /// `Base: <URL:http://a/b/c/d;p?q#f>` the relative URLs would be resolved as follows".
    const BASE: &str = "http://a/b/c/d;p?q#f";

    #[track_caller]
    fn check(embedded: &str, expected: &str) {
        assert_eq!(
            resolve(BASE, embedded).as_deref(),
            Ok(expected),
            "resolving {embedded:?} against {BASE:?}"
        );
    }

    #[track_caller]
    fn check_with(base: &str, embedded: &str, expected: &str) {
        assert_eq!(
            resolve(base, embedded).as_deref(),
            Ok(expected),
            "resolving {embedded:?} against {base:?}"
        );
    }

    /// RFC 1808 §5.1, all 24 examples, in the RFC's order.
    #[test]
    fn rfc1808_section_5_1_normal_examples() {
        check("g:h", "g:h");
        check("g", "http://a/b/c/g");
        check("./g", "http://a/b/c/g");
        check("g/", "http://a/b/c/g/");
        check("/g", "http://a/g");
        check("//g", "http://g");
        check("?y", "http://a/b/c/d;p?y");
        check("g?y", "http://a/b/c/g?y");
        check("g?y/./x", "http://a/b/c/g?y/./x");
        check("#s", "http://a/b/c/d;p?q#s");
        check("g#s", "http://a/b/c/g#s");
        check("g#s/./x", "http://a/b/c/g#s/./x");
        check("g?y#s", "http://a/b/c/g?y#s");
        check(";x", "http://a/b/c/d;x");
        check("g;x", "http://a/b/c/g;x");
        check("g;x?y#s", "http://a/b/c/g;x?y#s");
        check(".", "http://a/b/c/");
        check("./", "http://a/b/c/");
        check("..", "http://a/b/");
        check("../", "http://a/b/");
        check("../g", "http://a/b/g");
        check("../..", "http://a/");
        check("../../", "http://a/");
        check("../../g", "http://a/g");
    }

    /// RFC 1808 §5.2, all 15 examples, in the RFC's order.
    #[test]
    fn rfc1808_section_5_2_abnormal_examples() {
        check("", "http://a/b/c/d;p?q#f"); // <> (empty): the whole base, fragment included
        check("../../../g", "http://a/../g");
        check("../../../../g", "http://a/../../g");
        check("/./g", "http://a/./g");
        check("/../g", "http://a/../g");
        check("g.", "http://a/b/c/g.");
        check(".g", "http://a/b/c/.g");
        check("g..", "http://a/b/c/g..");
        check("..g", "http://a/b/c/..g");
        check("./../g", "http://a/b/g");
        check("./g/.", "http://a/b/c/g/");
        check("g/./h", "http://a/b/c/g/h");
        check("g/../h", "http://a/b/c/h");
        check("http:g", "http:g");
        check("http:", "http:");
    }

    /// Consequences of the §2.4 parse order and of steps 3 and 5 testing for "non-empty",
    /// beyond the RFC's own examples.
    #[test]
    fn literal_readings_of_the_steps() {
        // §2.4.5: the params start at the first ';' and are never dot-processed (RFC 2396 later
        // gives http://a/b/c/g;x=1/y here).
        check("g;x=1/./y", "http://a/b/c/g;x=1/./y");
        check("g;x=1/../y", "http://a/b/c/g;x=1/../y");
        // Step 5: an empty query or params is not "non-empty", so the base's is inherited.
        check("?", "http://a/b/c/d;p?q");
        check(";", "http://a/b/c/d;p?q");
        check("#", "http://a/b/c/d;p?q#");
        // Step 3: an empty net_loc is not "non-empty", so the base's is inherited.
        check("///g", "http://a/g");
        check("//", "http://a/b/c/d;p?q");
        // Step 6 only runs for relative paths; step 4 keeps absolute ones as written.
        check("/a/b/../c", "http://a/a/b/../c");
        // An empty segment between slashes is a complete segment (§2.2 `segment = *pchar`).
        check("g//../h", "http://a/b/c/g/h");
        check("g/h/..", "http://a/b/c/g/");
        check("../../../..", "http://a/../..");
    }

    #[test]
    fn empty_net_loc_is_kept() {
        check_with("file:///a/b", "c", "file:///a/c");
        check_with("file:///a/b", "../c", "file:///c");
        check_with("file:///a/b", "", "file:///a/b");
        check_with("file:///etc/x", "#top", "file:///etc/x#top");
        check_with("file:/a/b", "c", "file:/a/c");
    }

    #[test]
    fn bases_of_other_shapes() {
        // No path in the base: step 6 appends to nothing, step 7 inserts the '/'.
        check_with("http://a", "g", "http://a/g");
        check_with("http://a", "?y", "http://a?y");
        // No slash in the base path: "the entire path" is the last segment.
        check_with("foo:bar", "baz", "foo:baz");
        check_with("foo:a/b", "../../g", "foo:../g");
        check_with("mailto:a@b", "c@d", "mailto:c@d");
        check_with("x:/", "g", "x:/g");
        check_with("x:/", "..", "x:/..");
    }

    #[test]
    fn base_without_scheme_is_an_error() {
        for base in ["", "a/b", "//a/b", "/b/c", ":a", "#f", "é:a"] {
            for embedded in ["", "g", "http:g", "../x"] {
                assert_eq!(
                    resolve(base, embedded),
                    Err(ResolveError::BaseWithoutScheme),
                    "base {base:?}, embedded {embedded:?}"
                );
            }
        }
    }

    #[test]
    fn megabyte_paths_resolve_in_linear_time() {
        // 1 MiB of "a/../": each pair cancels in step 6c, leaving the base directory.
        let embedded = "a/../".repeat(1 << 20 >> 2);
        assert!(embedded.len() >= 1 << 20);
        check(&embedded, "http://a/b/c/");

        // Many "../": two cancel b/ and c/, the rest stay after the root.
        let count = 1 << 18;
        let embedded = "../".repeat(count);
        let expected = format!("http://a/{}", "../".repeat(count - 2));
        check(&embedded, &expected);

        // A deep path that is kept as it is.
        let embedded = "x/".repeat(1 << 19);
        let expected = format!("http://a/b/c/{embedded}");
        check(&embedded, &expected);
    }

    /// Generated references against a few bases: resolution never panics, absolute references
    /// come back unchanged, relative ones get the base's scheme and keep their own fragment.
    #[test]
    fn properties_over_generated_references() {
        let bases = [
            BASE,
            "file:///a/b",
            "foo:bar",
            "http://a",
            "x:/",
            "http://a//b/",
        ];
        let pieces = [
            "", "g", "/", "//", ".", "..", "./", "../", ";", ";p", "?", "?q", "#", "#f", ":", "h:",
            "é", "%2F",
        ];
        let mut count = 0;
        for base in bases {
            let base_scheme = Components::parse(base).scheme.unwrap();
            for a in pieces {
                for b in pieces {
                    for c in pieces {
                        let embedded = format!("{a}{b}{c}");
                        let resolved = resolve(base, &embedded).unwrap();
                        count += 1;
                        if has_scheme(&embedded) {
                            assert_eq!(resolved, embedded);
                            continue;
                        }
                        if embedded.is_empty() {
                            assert_eq!(resolved, base);
                            continue;
                        }
                        let parsed = Components::parse(&resolved);
                        assert_eq!(parsed.scheme, Some(base_scheme), "{base} + {embedded}");
                        assert_eq!(
                            parsed.fragment,
                            Components::parse(&embedded).fragment,
                            "{base} + {embedded}"
                        );
                        // Resolving an absolute result again changes nothing (step 2b).
                        assert_eq!(resolve(base, &resolved).unwrap(), resolved);
                    }
                }
            }
        }
        assert_eq!(count, bases.len() * pieces.len().pow(3));
    }
}
