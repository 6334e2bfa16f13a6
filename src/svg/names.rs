//! Namespaces (Namespaces in XML 1.0) and the attributes that hold URLs, by namespace.
//!
//! The namespace bindings are kept here rather than by `quick-xml`'s `NamespaceResolver`,
//! for two reasons: a declaration's value must be read as an attribute value (a browser binds
//! `xmlns:x="http://www.w3.org/1999/xl&#105;nk"` to XLink), and `NamespaceResolver` takes
//! the value as written; and its look-up walks every binding in scope, so that a document with
//! many declarations and many elements would take time quadratic in its length, where this
//! table's look-up takes constant time.

use std::collections::HashMap;

use crate::html::{UrlKind, html_url_attribute};
use crate::vocab::SVG_PRESENTATION_ATTRIBUTES as PRESENTATION_ATTRIBUTES;

/// The SVG namespace.
pub(super) const SVG: &str = "http://www.w3.org/2000/svg";
/// The XHTML namespace (an HTML element in an XML document).
pub(super) const XHTML: &str = "http://www.w3.org/1999/xhtml";
/// The XLink namespace, of `xlink:href` whatever its prefix.
pub(super) const XLINK: &str = "http://www.w3.org/1999/xlink";
/// The namespace of the `xml` prefix, bound without a declaration.
const XML: &str = "http://www.w3.org/XML/1998/namespace";

/// The namespaces the scan tells apart; every other one is [`Ns::Other`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ns {
    /// No namespace: unprefixed attributes, and elements with no default namespace.
    None,
    /// SVG.
    Svg,
    /// XHTML.
    Xhtml,
    /// XLink.
    XLink,
    /// Any other namespace (MathML, `xml`, a private one).
    Other,
}

impl Ns {
    /// The namespace named by a declaration's value (already normalized): empty for none.
    fn of(uri: &str) -> Ns {
        match uri {
            "" => Ns::None,
            SVG => Ns::Svg,
            XHTML => Ns::Xhtml,
            XLINK => Ns::XLink,
            _ => Ns::Other,
        }
    }
}

/// The namespace bindings in scope: each prefix (`""` for the default namespace) with the
/// namespaces bound to it, innermost last, and for each open element the prefixes it bound.
#[derive(Debug, Default)]
pub(super) struct Namespaces {
    /// The bindings of each prefix, innermost last.
    bound: HashMap<Box<str>, Vec<Ns>>,
    /// For each open element, how many bindings it added, in `added`.
    levels: Vec<usize>,
    /// The prefixes bound by the open elements, in order.
    added: Vec<Box<str>>,
}

impl Namespaces {
    /// Opens an element's scope; its declarations are then [`bind`](Self::bind)ed.
    pub fn open(&mut self) {
        self.levels.push(0);
    }

    /// Binds `prefix` (`""` for the default namespace) to the namespace `uri` in the
    /// innermost scope.
    pub fn bind(&mut self, prefix: &str, uri: &str) {
        // `xmlns:p=""` is a namespace error (Namespaces in XML 1.0 §3); the prefix is bound
        // to nothing the scan knows.
        let ns = match Ns::of(uri) {
            Ns::None if !prefix.is_empty() => Ns::Other,
            ns => ns,
        };
        self.bound.entry(prefix.into()).or_default().push(ns);
        self.added.push(prefix.into());
        if let Some(level) = self.levels.last_mut() {
            *level += 1;
        }
    }

    /// Closes the innermost scope, removing its bindings.
    pub fn close(&mut self) {
        let count = self.levels.pop().unwrap_or(0);
        for _ in 0..count {
            if let Some(prefix) = self.added.pop()
                && let Some(bindings) = self.bound.get_mut(&prefix)
            {
                bindings.pop();
            }
        }
    }

    /// The namespace of `prefix`, `None` when it is not declared. `xml` is always bound.
    fn lookup(&self, prefix: &str) -> Option<Ns> {
        match self.bound.get(prefix).and_then(|b| b.last()) {
            Some(ns) => Some(*ns),
            None if prefix == "xml" => Some(Ns::of(XML)),
            None if prefix.is_empty() => Some(Ns::None),
            None => None,
        }
    }

    /// An element's namespace and local name. An undeclared prefix puts the element in no
    /// namespace (libxml2 reports a namespace error and reads on; Chromium makes an element
    /// named `prefix:local` in no namespace).
    pub fn element<'n>(&self, qname: &'n str) -> (Ns, &'n str) {
        match split_qname(qname) {
            Some((prefix, local)) if !local.contains(':') => {
                (self.lookup(prefix).unwrap_or(Ns::None), local)
            }
            Some(_) => (Ns::None, qname),
            None => (self.lookup("").unwrap_or(Ns::None), qname),
        }
    }

    /// An attribute's namespace and local name; `None` when its prefix is not declared
    /// (Chromium stops the document at such an attribute: it cannot make its name).
    /// Unprefixed attributes are in no namespace.
    pub fn attribute<'n>(&self, qname: &'n str) -> Option<(Ns, &'n str)> {
        match split_qname(qname) {
            Some((prefix, local)) => Some((self.lookup(prefix)?, local)),
            None => Some((Ns::None, qname)),
        }
    }
}

/// `qname` split at its first colon, if it has one. Names are short: a byte loop is quicker
/// than a searcher.
fn split_qname(qname: &str) -> Option<(&str, &str)> {
    let colon = qname.bytes().position(|b| b == b':')?;
    Some((qname.get(..colon)?, qname.get(colon + 1..)?))
}

/// When `qname` declares a namespace: the prefix it binds (`""` for `xmlns`).
pub(super) fn declared_prefix(qname: &str) -> Option<&str> {
    if qname == "xmlns" {
        return Some("");
    }
    qname.strip_prefix("xmlns:")
}

/// The SVG elements whose `href` (or XLink `href`) is a URL a browser follows: a link (`a`),
/// or a resource it loads (`image`, `use`, `feImage`; `script` is not, with scripting off).
const SVG_HREF_ELEMENTS: [&str; 4] = ["a", "image", "use", "feImage"];

/// The name and kind of a URL-bearing attribute, in namespace `attribute_ns` with local name
/// `attribute`, of the element `element` in namespace `element_ns`; `None` for an attribute
/// that holds no URL. Names are compared exactly: XML is case-sensitive, so `<A>` is not `a`
/// and `HREF` is not `href`. The name given for an XLink `href` is `xlink:href`, whatever the
/// prefix the document binds to XLink.
pub(super) fn url_attribute(
    element_ns: Ns,
    element: &str,
    attribute_ns: Ns,
    attribute: &str,
) -> Option<(&'static str, UrlKind)> {
    match (element_ns, attribute_ns) {
        (Ns::Svg, Ns::None) => match attribute {
            "href" if SVG_HREF_ELEMENTS.contains(&element) => Some(("href", UrlKind::Attribute)),
            "style" => Some(("style", UrlKind::StyleAttribute)),
            // PRESENTATION_ATTRIBUTES, spelt out so that the compiler tells them apart by
            // length first: most attributes of a drawing are none of them.
            "fill" | "stroke" | "filter" | "clip-path" | "mask" | "marker-start" | "marker-mid"
            | "marker-end" | "cursor" => PRESENTATION_ATTRIBUTES
                .iter()
                .find(|name| **name == attribute)
                .map(|name| (*name, UrlKind::StyleAttribute)),
            _ => None,
        },
        (Ns::Svg, Ns::XLink) if attribute == "href" && SVG_HREF_ELEMENTS.contains(&element) => {
            Some(("xlink:href", UrlKind::Attribute))
        }
        (Ns::Xhtml, Ns::None) => html_url_attribute(element.as_bytes(), attribute.as_bytes()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_resolve_by_scope() {
        let mut ns = Namespaces::default();
        ns.open();
        ns.bind("", SVG);
        ns.bind("q", XLINK);
        assert_eq!(ns.element("svg"), (Ns::Svg, "svg"));
        assert_eq!(ns.attribute("q:href"), Some((Ns::XLink, "href")));
        assert_eq!(ns.attribute("xlink:href"), None);
        assert_eq!(ns.attribute("xml:base"), Some((Ns::Other, "base")));
        ns.open();
        ns.bind("q", "urn:other");
        ns.bind("", "");
        assert_eq!(ns.attribute("q:href"), Some((Ns::Other, "href")));
        assert_eq!(ns.element("image"), (Ns::None, "image"));
        ns.close();
        assert_eq!(ns.attribute("q:href"), Some((Ns::XLink, "href")));
        assert_eq!(ns.element("x:image"), (Ns::None, "image"));
        assert_eq!(ns.element("a:b:c"), (Ns::None, "a:b:c"));
    }

    #[test]
    fn the_url_attributes() {
        let svg = |e, a_ns, a| url_attribute(Ns::Svg, e, a_ns, a).map(|(name, _)| name);
        assert_eq!(svg("a", Ns::None, "href"), Some("href"));
        assert_eq!(svg("feImage", Ns::XLink, "href"), Some("xlink:href"));
        assert_eq!(svg("feimage", Ns::None, "href"), None);
        assert_eq!(svg("A", Ns::None, "href"), None);
        assert_eq!(svg("image", Ns::None, "HREF"), None);
        assert_eq!(svg("script", Ns::None, "href"), None);
        assert_eq!(svg("linearGradient", Ns::None, "href"), None);
        for name in PRESENTATION_ATTRIBUTES {
            assert_eq!(
                svg("rect", Ns::None, name),
                Some(name),
                "the match spells it"
            );
        }
        assert_eq!(svg("g", Ns::None, "style"), Some("style"));
        assert_eq!(svg("image", Ns::Svg, "href"), None);
        let xhtml = |e, a| url_attribute(Ns::Xhtml, e, Ns::None, a).map(|(name, _)| name);
        assert_eq!(xhtml("a", "href"), Some("href"));
        assert_eq!(xhtml("img", "srcset"), Some("srcset"));
        assert_eq!(xhtml("A", "href"), None);
        assert_eq!(xhtml("div", "fill"), None);
        assert_eq!(url_attribute(Ns::None, "a", Ns::None, "href"), None);
        assert_eq!(url_attribute(Ns::Other, "image", Ns::None, "href"), None);
    }
}
