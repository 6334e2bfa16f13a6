//! Reference resolution of [RFC 3986 §5.2], strict: §5.2.1 (parse), §5.2.2 (transform
//! references), §5.2.3 (merge paths), §5.2.4 (`remove_dot_segments`) and §5.3 (component
//! recomposition).
//!
//! The vocabulary is RFC 3986's: a reference `R` is resolved against a base `Base` into the
//! target `T`; components are `scheme`, `authority`, `path`, `query`, `fragment`.
//!
//! [RFC 3986 §5.2]: https://www.rfc-editor.org/rfc/rfc3986#section-5.2

use super::{ResolveError, Resolved, strip_reference};

/// The five components of a URI reference (RFC 3986 §3). `None` is "undefined", distinct
/// from the empty string (§5.2.1: "a component is undefined if its associated delimiter does
/// not appear in the URI reference").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Parts<'a> {
    /// `scheme`, without its `:`.
    pub scheme: Option<&'a str>,
    /// `authority`, without its `//`.
    pub authority: Option<&'a str>,
    /// `path`, always defined (possibly empty).
    pub path: &'a str,
    /// `query`, without its `?`.
    pub query: Option<&'a str>,
    /// `fragment`, without its `#`.
    pub fragment: Option<&'a str>,
}

impl<'a> Parts<'a> {
    /// Splits a reference with the regular expression of [RFC 3986 Appendix B]
    /// `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`, which matches every
    /// string, so this never fails; it does not validate the characters of each component.
    ///
    /// [RFC 3986 Appendix B]: https://www.rfc-editor.org/rfc/rfc3986#appendix-B
    pub fn parse(reference: &'a str) -> Parts<'a> {
        let (rest, fragment) = match reference.split_once('#') {
            Some((rest, fragment)) => (rest, Some(fragment)),
            None => (reference, None),
        };
        let (rest, query) = match rest.split_once('?') {
            Some((rest, query)) => (rest, Some(query)),
            None => (rest, None),
        };
        let (scheme, rest) = match rest.find([':', '/']) {
            Some(colon) if colon > 0 && rest.get(colon..colon + 1) == Some(":") => {
                (rest.get(..colon), rest.get(colon + 1..).unwrap_or_default())
            }
            _ => (None, rest),
        };
        let (authority, path) = match rest.strip_prefix("//") {
            Some(after) => {
                let end = after.find('/').unwrap_or(after.len());
                let (authority, path) = after.split_at_checked(end).unwrap_or((after, ""));
                (Some(authority), path)
            }
            None => (None, rest),
        };
        Parts {
            scheme,
            authority,
            path,
            query,
            fragment,
        }
    }

    /// Component recomposition ([RFC 3986 §5.3]).
    ///
    /// [RFC 3986 §5.3]: https://www.rfc-editor.org/rfc/rfc3986#section-5.3
    pub fn recompose(&self) -> String {
        let mut result = String::new();
        if let Some(scheme) = self.scheme {
            result.push_str(scheme);
            result.push(':');
        }
        if let Some(authority) = self.authority {
            result.push_str("//");
            result.push_str(authority);
        }
        result.push_str(self.path);
        if let Some(query) = self.query {
            result.push('?');
            result.push_str(query);
        }
        if let Some(fragment) = self.fragment {
            result.push('#');
            result.push_str(fragment);
        }
        result
    }
}

/// Resolves the reference `r` against `base` ([RFC 3986 §5.2.2], strict: a reference with a
/// scheme is taken as it is, even when the scheme is the base's).
///
/// The base's fragment is not used (§5.1: the base is "stripped of any fragment component").
/// The reference is first stripped of white space and C0 controls ([`strip_reference`]: ASCII
/// tab, LF and CR removed, leading and trailing C0 controls and spaces trimmed; RFC 3986
/// Appendix C: "the whitespace should be ignored when the URI is extracted").
///
/// **A base without a scheme** is accepted and §5.2.2 is applied as written: nothing in §5.2
/// needs the base's scheme, `T.scheme = Base.scheme` then leaves the target without one, and
/// the result is a relative reference (`baz` against `/foo/bar` is `/foo/baz`; [`has_scheme`]
/// tells the two apart; a first path segment with a `:` is written `./seg:ment`, as §4.2
/// requires of a relative-path reference). §5.1 asks for an absolute base, so this goes beyond the RFC; it serves
/// callers that resolve within a relative context. Where an absolute result is required (a base
/// for a MIME entity or an HTML part), the caller refuses a base without a scheme itself.
///
/// # Errors
///
/// None: every pair of strings resolves (the `Result` is the one all resolvers share).
///
/// ```
/// use mimebase::url::rfc3986::resolve;
/// assert_eq!(resolve("http://a/b/c/d;p?q", "../../../g").unwrap(), "http://a/g");
/// assert_eq!(resolve("http://a/b/c/d;p?q", ";x").unwrap(), "http://a/b/c/;x");
/// assert_eq!(resolve("/foo/bar", "baz").unwrap(), "/foo/baz");
/// assert_eq!(resolve("/foo?bar", "?y").unwrap(), "/foo?y");
/// assert_eq!(resolve("http://a/b/c/d;p?q", "\tg/\nh ").unwrap(), "http://a/b/c/g/h");
/// ```
///
/// [RFC 3986 §5.2.2]: https://www.rfc-editor.org/rfc/rfc3986#section-5.2.2
/// [`has_scheme`]: super::has_scheme
pub fn resolve(base: &str, r: &str) -> Result<String, ResolveError> {
    resolve_detailed(base, r).map(|resolved| resolved.url)
}

/// [`resolve`], saying whether the base decided the result ([`Resolved::base_decided`]):
/// true unless `R.scheme` is defined (§5.2.2: then `T` is `R` with its dot segments removed,
/// and nothing is taken from the base).
///
/// ```
/// use mimebase::url::rfc3986::resolve_detailed;
/// assert!(resolve_detailed("http://a/b/c/d;p?q", "//g").unwrap().base_decided);
/// assert!(!resolve_detailed("http://a/b/c/d;p?q", "g:h").unwrap().base_decided);
/// ```
///
/// # Errors
///
/// As [`resolve`].
pub fn resolve_detailed(base: &str, r: &str) -> Result<Resolved, ResolveError> {
    let base = Parts::parse(base);
    let reference = strip_reference(r);
    let r = Parts::parse(&reference);
    let merged;
    let t = if r.scheme.is_some() {
        merged = remove_dot_segments(r.path);
        Parts { path: &merged, ..r }
    } else if r.authority.is_some() {
        merged = remove_dot_segments(r.path);
        Parts {
            scheme: base.scheme,
            path: &merged,
            ..r
        }
    } else if r.path.is_empty() {
        Parts {
            scheme: base.scheme,
            authority: base.authority,
            path: base.path,
            query: r.query.or(base.query),
            fragment: r.fragment,
        }
    } else {
        merged = if r.path.starts_with('/') {
            remove_dot_segments(r.path)
        } else {
            remove_dot_segments(&merge(&base, r.path))
        };
        Parts {
            scheme: base.scheme,
            authority: base.authority,
            path: &merged,
            query: r.query,
            fragment: r.fragment,
        }
    };
    // A relative target (only from a base without a scheme) must not read as having one:
    // RFC 3986 §4.2, "a path segment that contains a colon character (e.g., "this:that")
    // cannot be used as the first segment of a relative-path reference ... Such a segment
    // must be preceded by a dot-segment".
    let guarded;
    let t = if t.scheme.is_none() && t.authority.is_none() && first_segment_has_colon(t.path) {
        guarded = format!("./{}", t.path);
        Parts {
            path: &guarded,
            ..t
        }
    } else {
        t
    };
    Ok(Resolved {
        url: t.recompose(),
        base_decided: r.scheme.is_none(),
    })
}

/// Whether the first segment of a relative path holds a `:`.
fn first_segment_has_colon(path: &str) -> bool {
    !path.starts_with('/')
        && path
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
}

/// Merge paths ([RFC 3986 §5.2.3]).
///
/// [RFC 3986 §5.2.3]: https://www.rfc-editor.org/rfc/rfc3986#section-5.2.3
fn merge(base: &Parts<'_>, r_path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{r_path}");
    }
    match base.path.rfind('/') {
        Some(slash) => format!("{}{r_path}", base.path.get(..=slash).unwrap_or_default()),
        None => r_path.to_owned(),
    }
}

/// Remove dot segments ([RFC 3986 §5.2.4]), rules A–E in order, in time linear in the
/// length of `path` (the output buffer only ever loses its last segment).
///
/// ```
/// use mimebase::url::rfc3986::remove_dot_segments;
/// assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
/// assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
/// ```
///
/// [RFC 3986 §5.2.4]: https://www.rfc-editor.org/rfc/rfc3986#section-5.2.4
pub fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output = String::with_capacity(path.len());
    while !input.is_empty() {
        // A. a prefix of "../" or "./" is removed.
        if let Some(rest) = input
            .strip_prefix("../")
            .or_else(|| input.strip_prefix("./"))
        {
            input = rest;
        // B. a prefix of "/./" or "/." as the whole input becomes "/".
        } else if input.starts_with("/./") {
            input = input.get(2..).unwrap_or_default();
        } else if input == "/." {
            input = "/";
        // C. a prefix of "/../" or "/.." as the whole input becomes "/", and the last
        //    segment of the output is removed with its preceding "/".
        } else if input.starts_with("/../") || input == "/.." {
            input = if input == "/.." {
                "/"
            } else {
                input.get(3..).unwrap_or_default()
            };
            output.truncate(output.rfind('/').unwrap_or(0));
        // D. "." or ".." as the whole input is removed.
        } else if input == "." || input == ".." {
            input = "";
        // E. the first segment, with its initial "/" if any, moves to the output.
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input
                .get(start..)
                .and_then(|rest| rest.find('/'))
                .map_or(input.len(), |i| i + start);
            let (segment, rest) = input.split_at_checked(end).unwrap_or((input, ""));
            output.push_str(segment);
            input = rest;
        }
    }
    output
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(reference: &str, expected: &str) {
        assert_eq!(
            resolve("http://a/b/c/d;p?q", reference).unwrap(),
            expected,
            "reference {reference:?}"
        );
    }

    /// RFC 3986 §5.4.1 Normal Examples.
    #[test]
    fn section_5_4_1_normal_examples() {
        check("g:h", "g:h");
        check("g", "http://a/b/c/g");
        check("./g", "http://a/b/c/g");
        check("g/", "http://a/b/c/g/");
        check("/g", "http://a/g");
        check("//g", "http://g");
        check("?y", "http://a/b/c/d;p?y");
        check("g?y", "http://a/b/c/g?y");
        check("#s", "http://a/b/c/d;p?q#s");
        check("g#s", "http://a/b/c/g#s");
        check("g?y#s", "http://a/b/c/g?y#s");
        check(";x", "http://a/b/c/;x");
        check("g;x", "http://a/b/c/g;x");
        check("g;x?y#s", "http://a/b/c/g;x?y#s");
        check("", "http://a/b/c/d;p?q");
        check(".", "http://a/b/c/");
        check("./", "http://a/b/c/");
        check("..", "http://a/b/");
        check("../", "http://a/b/");
        check("../g", "http://a/b/g");
        check("../..", "http://a/");
        check("../../", "http://a/");
        check("../../g", "http://a/g");
    }

    /// RFC 3986 §5.4.2 Abnormal Examples (strict parser).
    #[test]
    fn section_5_4_2_abnormal_examples() {
        check("../../../g", "http://a/g");
        check("../../../../g", "http://a/g");
        check("/./g", "http://a/g");
        check("/../g", "http://a/g");
        check("g.", "http://a/b/c/g.");
        check(".g", "http://a/b/c/.g");
        check("g..", "http://a/b/c/g..");
        check("..g", "http://a/b/c/..g");
        check("./../g", "http://a/b/g");
        check("./g/.", "http://a/b/c/g/");
        check("g/./h", "http://a/b/c/g/h");
        check("g/../h", "http://a/b/c/h");
        check("g;x=1/./y", "http://a/b/c/g;x=1/y");
        check("g;x=1/../y", "http://a/b/c/y");
        check("g?y/./x", "http://a/b/c/g?y/./x");
        check("g?y/../x", "http://a/b/c/g?y/../x");
        check("g#s/./x", "http://a/b/c/g#s/./x");
        check("g#s/../x", "http://a/b/c/g#s/../x");
        check("http:g", "http:g");
    }

    #[test]
    fn base_fragment_is_not_used() {
        assert_eq!(resolve("http://a/b#f", "").unwrap(), "http://a/b");
    }

    /// §5.2.2 as written with a base that has no scheme: the target has none either.
    #[track_caller]
    fn relative(base: &str, reference: &str, expected: &str) {
        assert_eq!(
            resolve(base, reference).unwrap(),
            expected,
            "{reference:?} against {base:?}"
        );
    }

    #[test]
    fn base_without_a_scheme_gives_a_relative_target() {
        relative("/foo/bar", "baz", "/foo/baz");
        relative("/foo?bar", "?y", "/foo?y");
        relative("/foo/bar", "../../../x", "/x");
        relative("//a/b", "g", "//a/g");
        relative("//a", "g", "//a/g");
        relative("a/b", "c", "a/c");
        relative("a", "b", "b");
        relative("", "http://a/./g", "http://a/g");
        relative("", "", "");
        relative("/foo/bar#f", "", "/foo/bar");
        relative("x/y", "mailto:z", "mailto:z");
        // §4.2: a first segment with a colon gets "./" in front, so it does not read as a scheme.
        relative("a", "./x:y", "./x:y");
        relative("a/b", "../x:y", "/x:y");
        relative("#//1x:u@h//?", "../http://http:./", "./http://http:./");
    }

    #[test]
    fn merge_with_authority_and_empty_path() {
        assert_eq!(resolve("http://a", "g").unwrap(), "http://a/g");
        assert_eq!(resolve("http://a?q", "").unwrap(), "http://a?q");
    }

    #[test]
    fn remove_dot_segments_section_5_2_4_examples() {
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
        assert_eq!(remove_dot_segments("/.."), "/");
        assert_eq!(remove_dot_segments("a/.."), "/");
        assert_eq!(remove_dot_segments("../a/./b"), "a/b");
    }

    #[test]
    fn long_dot_paths_finish() {
        let path = "/a".repeat(100_000) + &"/..".repeat(100_000) + "/g";
        assert_eq!(remove_dot_segments(&path), "/g");
    }
}
