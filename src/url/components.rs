//! The component parts of a URL as [RFC 1808 §2.4] parses them, and their recombination
//! ([RFC 1808 §4] step 7).
//!
//! RFC 1808 §2.1 writes a URL as
//!
//! ```text
//! <scheme>://<net_loc>/<path>;<params>?<query>#<fragment>
//! ```
//!
//! and §2.4 parses it by peeling parts off a "parse string" in a fixed order: fragment,
//! scheme, net_loc, query, params, and what is left is the path. [`Components::parse`] follows
//! that order literally, which has consequences a modern reader may not expect, for example
//! `http://a?q` has the `net_loc` `a?q`, because §2.4.3 runs before the query is removed in
//! §2.4.4.
//!
//! [RFC 1808 §2.4]: https://www.rfc-editor.org/rfc/rfc1808#section-2.4
//! [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4

use std::fmt;

/// A URL split into the six parts of [RFC 1808 §2.4], each a slice of the parsed string.
///
/// `None` means the part's delimiter was absent; `Some("")` means the delimiter was present and
/// nothing followed it. The difference matters: `file:///etc/x` has the `net_loc` `Some("")`
/// and recombines to itself, while `file:/etc/x` has `None`.
///
/// The delimiters (`":"`, `"//"`, `";"`, `"?"`, `"#"`) are not part of the slices, except that
/// `path` keeps its leading `"/"` when it has one (§2.4.6: "the url-path and the slash that may
/// precede it"), because [RFC 1808 §4] step 4 tests for that slash.
///
/// [RFC 1808 §2.4]: https://www.rfc-editor.org/rfc/rfc1808#section-2.4
/// [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Components<'a> {
    /// The scheme name without its `':'` (§2.4.2), e.g. `Some("http")`.
    pub scheme: Option<&'a str>,
    /// The network location / login after `"//"` and up to the next `'/'` (§2.4.3), e.g.
    /// `Some("user@host:8080")`; `Some("")` for `file:///x`.
    pub net_loc: Option<&'a str>,
    /// The path, including its leading `'/'` if any (§2.4.6); may be empty.
    pub path: &'a str,
    /// The parameters after the first `';'` (§2.4.5), without the `';'`.
    pub params: Option<&'a str>,
    /// The query after the first `'?'` (§2.4.4), without the `'?'`.
    pub query: Option<&'a str>,
    /// The fragment identifier after the first `'#'` (§2.4.1), without the `'#'`.
    pub fragment: Option<&'a str>,
}

impl<'a> Components<'a> {
    /// Splits `url` into its parts following [RFC 1808 §2.4.1 to §2.4.6], in that order, on the
    /// "parse string" that each step shortens:
    ///
    /// 1. §2.4.1 `fragment`: everything after the first `'#'`.
    /// 2. §2.4.2 `scheme`: the one or more scheme characters (`A–Z a–z 0–9 + . -`) at the
    ///    start, when a `':'` directly follows them.
    /// 3. §2.4.3 `net_loc`: when the rest begins with `"//"`, everything after it up to, not
    ///    including, the next `'/'` (or to the end).
    /// 4. §2.4.4 `query`: everything after the first `'?'`.
    /// 5. §2.4.5 `params`: everything after the first `';'`.
    /// 6. §2.4.6 `path`: what is left, with its leading `'/'`.
    ///
    /// Every string parses; nothing is validated or decoded.
    ///
    /// ```
    /// # use mimebase::url::components::Components;
    /// let url = Components::parse("http://a/b/c/d;p?q#f");
    /// assert_eq!(url.scheme, Some("http"));
    /// assert_eq!(url.net_loc, Some("a"));
    /// assert_eq!(url.path, "/b/c/d");
    /// assert_eq!(url.params, Some("p"));
    /// assert_eq!(url.query, Some("q"));
    /// assert_eq!(url.fragment, Some("f"));
    /// assert_eq!(url.recombine(), "http://a/b/c/d;p?q#f");
    /// ```
    ///
    /// [RFC 1808 §2.4.1 to §2.4.6]: https://www.rfc-editor.org/rfc/rfc1808#section-2.4
    pub fn parse(url: &'a str) -> Components<'a> {
        // §2.4.1 Parsing the Fragment Identifier
        let (rest, fragment) = split_off_after(url, '#');
        // §2.4.2 Parsing the Scheme
        let (scheme, rest) = match split_scheme(rest) {
            Some((scheme, rest)) => (Some(scheme), rest),
            None => (None, rest),
        };
        // §2.4.3 Parsing the Network Location/Login
        let (net_loc, rest) = match rest.strip_prefix("//") {
            Some(after) => match after.find('/') {
                Some(slash) => match after.split_at_checked(slash) {
                    Some((net_loc, rest)) => (Some(net_loc), rest),
                    // Unreachable: `find` returns a char boundary.
                    None => (Some(after), ""),
                },
                None => (Some(after), ""),
            },
            None => (None, rest),
        };
        // §2.4.4 Parsing the Query Information
        let (rest, query) = split_off_after(rest, '?');
        // §2.4.5 Parsing the Parameters
        let (rest, params) = split_off_after(rest, ';');
        // §2.4.6 Parsing the Path
        Components {
            scheme,
            net_loc,
            path: rest,
            params,
            query,
            fragment,
        }
    }

    /// Recombines the parts into a URL string ([RFC 1808 §4] step 7): `scheme ":"`,
    /// `"//" net_loc`, `path`, `";" params`, `"?" query`, `"#" fragment`, each only when it is
    /// `Some` (the path always, it may be empty).
    ///
    /// **Clarification.** Step 7 only says the components "are recombined to give the absolute
    /// form". When there is a `net_loc` and the path is non-empty but does not begin with
    /// `'/'` (possible after step 6 when the base path is empty, as in base `http://a` and
    /// reference `g`), writing them side by side would glue the path onto the network location
    /// (`http://ag`). RFC 1808 §2.2 requires the `'/'` between them, so one is inserted:
    /// `http://a/g`.
    ///
    /// For the output of [`Components::parse`] with no such path, the result equals the parsed
    /// string byte for byte.
    ///
    /// [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
    pub fn recombine(&self) -> String {
        // Built in one allocation of the exact size: every resolved URL goes through here.
        let optional = |part: Option<&str>| part.map_or(0, |part| part.len() + 1);
        let slash = self.needs_slash();
        let mut url = String::with_capacity(
            optional(self.scheme)
                + self.net_loc.map_or(0, |net_loc| net_loc.len() + 2)
                + usize::from(slash)
                + self.path.len()
                + optional(self.params)
                + optional(self.query)
                + optional(self.fragment),
        );
        if let Some(scheme) = self.scheme {
            url.push_str(scheme);
            url.push(':');
        }
        if let Some(net_loc) = self.net_loc {
            url.push_str("//");
            url.push_str(net_loc);
        }
        if slash {
            url.push('/');
        }
        url.push_str(self.path);
        for (delimiter, part) in [(';', self.params), ('?', self.query), ('#', self.fragment)] {
            if let Some(part) = part {
                url.push(delimiter);
                url.push_str(part);
            }
        }
        url
    }

    /// True when a `'/'` goes between the `net_loc` and the path (see [`Components::recombine`]).
    fn needs_slash(&self) -> bool {
        self.net_loc.is_some() && !self.path.is_empty() && !self.path.starts_with('/')
    }
}

impl fmt::Display for Components<'_> {
    /// Writes [`Components::recombine`]'s string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(scheme) = self.scheme {
            write!(f, "{scheme}:")?;
        }
        if let Some(net_loc) = self.net_loc {
            write!(f, "//{net_loc}")?;
            if self.needs_slash() {
                f.write_str("/")?;
            }
        }
        f.write_str(self.path)?;
        if let Some(params) = self.params {
            write!(f, ";{params}")?;
        }
        if let Some(query) = self.query {
            write!(f, "?{query}")?;
        }
        if let Some(fragment) = self.fragment {
            write!(f, "#{fragment}")?;
        }
        Ok(())
    }
}

/// `(before, Some(after))` around the first `delimiter`, or `(s, None)` without one.
fn split_off_after(s: &str, delimiter: char) -> (&str, Option<&str>) {
    match s.split_once(delimiter) {
        Some((before, after)) => (before, Some(after)),
        None => (s, None),
    }
}

/// §2.4.2: "If the parse string contains a colon ":" after the first character and before any
/// characters not allowed as part of a scheme name (i.e., any not an alphanumeric, plus "+",
/// period ".", or hyphen "-"), the <scheme> of the URL is the substring of characters up to but
/// not including the first colon." Returns `(scheme, rest after the colon)`.
pub(super) fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !is_scheme_char(c))?;
    if end == 0 {
        return None;
    }
    let (scheme, rest) = s.split_at_checked(end)?;
    let rest = rest.strip_prefix(':')?;
    Some((scheme, rest))
}

/// RFC 1808 §2.2: `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`; §2.4.2 also accepts
/// upper case ("parsers should accept upper case letters as equivalent to lower case").
fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[track_caller]
    fn check(url: &str, expected: Components<'_>) {
        let parsed = Components::parse(url);
        assert_eq!(parsed, expected, "parsing {url:?}");
        assert_eq!(parsed.recombine(), url, "recombining {url:?}");
    }

    #[test]
    fn parses_every_part() {
        check(
            "http://a/b/c/d;p?q#f",
            Components {
                scheme: Some("http"),
                net_loc: Some("a"),
                path: "/b/c/d",
                params: Some("p"),
                query: Some("q"),
                fragment: Some("f"),
            },
        );
        check(
            "ftp://user:pw@host:21/pub/x;type=d",
            Components {
                scheme: Some("ftp"),
                net_loc: Some("user:pw@host:21"),
                path: "/pub/x",
                params: Some("type=d"),
                ..Components::default()
            },
        );
    }

    #[test]
    fn empty_net_loc_is_not_absent_net_loc() {
        check(
            "file:///etc/x",
            Components {
                scheme: Some("file"),
                net_loc: Some(""),
                path: "/etc/x",
                ..Components::default()
            },
        );
        check(
            "file:/etc/x",
            Components {
                scheme: Some("file"),
                path: "/etc/x",
                ..Components::default()
            },
        );
        check(
            "//",
            Components {
                net_loc: Some(""),
                ..Components::default()
            },
        );
    }

    #[test]
    fn empty_delimited_parts_are_some_empty() {
        check(
            "http:;?#",
            Components {
                scheme: Some("http"),
                params: Some(""),
                query: Some(""),
                fragment: Some(""),
                ..Components::default()
            },
        );
        check("", Components::default());
    }

    #[test]
    fn parse_order_is_the_rfc_order() {
        // §2.4.1 first: a '#' hides everything after it from the other steps.
        check(
            "g#s?t;u:v",
            Components {
                path: "g",
                fragment: Some("s?t;u:v"),
                ..Components::default()
            },
        );
        // §2.4.3 before §2.4.4: the query stays in the net_loc when no '/' follows it.
        check(
            "http://a?q",
            Components {
                scheme: Some("http"),
                net_loc: Some("a?q"),
                ..Components::default()
            },
        );
        // §2.4.4 before §2.4.5: a ';' inside the query is not a params delimiter.
        check(
            "g?y;x",
            Components {
                path: "g",
                query: Some("y;x"),
                ..Components::default()
            },
        );
        // §2.4.5: params run from the first ';' and may hold '/'.
        check(
            "g;x=1/./y",
            Components {
                path: "g",
                params: Some("x=1/./y"),
                ..Components::default()
            },
        );
    }

    #[test]
    fn scheme_needs_scheme_characters_then_a_colon() {
        assert_eq!(Components::parse("g:h").scheme, Some("g"));
        assert_eq!(Components::parse("HTTP+x.y-z:").scheme, Some("HTTP+x.y-z"));
        assert_eq!(Components::parse(":h").scheme, None);
        assert_eq!(Components::parse("./g:h").scheme, None);
        assert_eq!(Components::parse("a b:c").scheme, None);
        assert_eq!(Components::parse("é:c").scheme, None);
        assert_eq!(Components::parse("ab").scheme, None);
    }

    #[test]
    fn recombine_inserts_slash_between_net_loc_and_relative_path() {
        let url = Components {
            scheme: Some("http"),
            net_loc: Some("a"),
            path: "g",
            ..Components::default()
        };
        assert_eq!(url.recombine(), "http://a/g");
        let no_path = Components {
            path: "",
            query: Some("y"),
            ..url
        };
        assert_eq!(no_path.recombine(), "http://a?y");
    }

    #[test]
    fn parse_never_panics_and_round_trips() {
        let pieces = [
            "", "a", "/", "//", ":", "#", "?", ";", "é", "x:", ".", "..", "%",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let url = format!("{a}{b}{c}{d}");
                        let parsed = Components::parse(&url);
                        // The parser never yields a net_loc followed by a path that does not
                        // begin with '/', so recombination gives back the input exactly.
                        assert_eq!(parsed.recombine(), url);
                    }
                }
            }
        }
    }
}
