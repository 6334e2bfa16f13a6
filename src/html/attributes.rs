//! The attributes that hold URLs: the table the scan reads them by ([`URL_ATTRIBUTES`]), the
//! quick filter that passes over every other attribute, and the lookup of a row.
//!
//! Sources: the HTML Standard's [attribute index](https://html.spec.whatwg.org/multipage/indices.html#attributes-3),
//! HTML 4.01's `%URI` attributes, and SVG 2's `href` (with the deprecated `xlink:href`) on the
//! elements that load what it points to.

use super::UrlKind;
use super::tree::Namespace;

/// The namespaces a row of [`URL_ATTRIBUTES`] applies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum In {
    /// Any namespace: the element's local name decides.
    Any,
    /// The SVG namespace only.
    Svg,
}

/// One attribute that can hold URLs: its name, the elements it holds them on (empty: any
/// element), the namespace, and how its value is read. Sources: the HTML standard's
/// attribute index, HTML 4.01's `%URI` attributes, and SVG 2's `href` (with the deprecated
/// `xlink:href`) on the elements that load what it points to.
pub(crate) struct UrlAttribute {
    /// The attribute's name, lowercase (as the tokenizer gives it).
    pub name: &'static str,
    /// The elements on which it holds URLs (local names as tree construction gives them, see
    /// [`element_name`]: lowercase, SVG's in camel case); empty for every element.
    pub elements: &'static [&'static str],
    /// The namespace it applies in.
    pub namespace: In,
    /// How the value is read.
    pub kind: UrlKind,
}

/// Every attribute the scan reads URLs from. Adding a row is all it takes to scan another
/// attribute.
pub(crate) const URL_ATTRIBUTES: &[UrlAttribute] = &[
    UrlAttribute {
        name: "href",
        elements: &["a", "area", "link", "base"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "src",
        elements: &[
            "img", "script", "iframe", "frame", "embed", "input", "source", "track", "audio",
            "video",
        ],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "action",
        elements: &["form"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "formaction",
        elements: &["button", "input"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "cite",
        elements: &["blockquote", "q", "del", "ins"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "background",
        elements: &["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "longdesc",
        elements: &[],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "usemap",
        elements: &[],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "data",
        elements: &["object"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "codebase",
        elements: &["object"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "poster",
        elements: &["video"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "manifest",
        elements: &["html"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "profile",
        elements: &["head"],
        namespace: In::Any,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "srcset",
        elements: &["img", "source"],
        namespace: In::Any,
        kind: UrlKind::Srcset,
    },
    UrlAttribute {
        name: "imagesrcset",
        elements: &["link"],
        namespace: In::Any,
        kind: UrlKind::Srcset,
    },
    UrlAttribute {
        name: "ping",
        elements: &["a", "area"],
        namespace: In::Any,
        kind: UrlKind::Ping,
    },
    UrlAttribute {
        name: "href",
        elements: &["image", "use", "feImage"],
        namespace: In::Svg,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "xlink:href",
        elements: &["a", "image", "use", "feImage"],
        namespace: In::Svg,
        kind: UrlKind::Attribute,
    },
    UrlAttribute {
        name: "content",
        elements: &["meta"],
        namespace: In::Any,
        kind: UrlKind::Refresh,
    },
    UrlAttribute {
        name: "style",
        elements: &[],
        namespace: In::Any,
        kind: UrlKind::StyleAttribute,
    },
];

/// The attribute that makes a `<meta content>` a refresh (the HTML Standard's [refresh state](https://html.spec.whatwg.org/multipage/semantics.html#attr-meta-http-equiv-refresh)).
pub(crate) const HTTP_EQUIV: &str = "http-equiv";

/// The attribute whose text stands for an image (`img`) or is the text of an image map's
/// link (`area`): what a reader sees of a link without text.
pub(super) const ALT: &str = "alt";

/// The attribute a reader sees as a link's tooltip.
pub(super) const TITLE: &str = "title";

/// The attribute that hides an element ([the `hidden` attribute](https://html.spec.whatwg.org/multipage/interaction.html#the-hidden-attribute):
/// `display: none`).
pub(super) const HIDDEN: &str = "hidden";

/// The attributes that what a reader sees of a link depends on, whose values the scan keeps
/// on the elements that need them.
pub(super) const TEXT_ATTRIBUTES: [&str; 3] = [ALT, TITLE, HIDDEN];

/// The attribute of `<iframe>` that holds a whole document (the HTML Standard's
/// [`srcdoc`](https://html.spec.whatwg.org/multipage/iframe-embed-object.html#attr-iframe-srcdoc)),
/// scanned in turn.
pub(super) const SRCDOC: &str = "srcdoc";

/// The attributes that change how their element's URLs are fetched, whose names the scan
/// notes (see [`FetchAttribute`](super::FetchAttribute)).
pub(super) const FETCH_ATTRIBUTES: [&str; 2] = ["crossorigin", "integrity"];

/// A quick filter on attribute names, built from [`URL_ATTRIBUTES`], [`HTTP_EQUIV`],
/// [`SRCDOC`], [`FETCH_ATTRIBUTES`] and [`TEXT_ATTRIBUTES`] at compile time: bit `first byte % 32` of entry `length % 16` is set
/// for every name the scan keeps or notes. Most attributes (`class`, `width`, `id`, …) fail it, and the table is not searched.
const NAME_FILTER: [u32; 16] = name_filter();

// Indexing in a `const fn` runs at compile time: out of bounds would fail the build, and
// `%` keeps every index in bounds.
#[allow(clippy::indexing_slicing)]
const fn name_filter() -> [u32; 16] {
    let mut filter = [0u32; 16];
    let mut i = 0;
    let fetch = URL_ATTRIBUTES.len() + 2;
    let text = fetch + FETCH_ATTRIBUTES.len();
    while i < text + TEXT_ATTRIBUTES.len() {
        let name = if i < URL_ATTRIBUTES.len() {
            URL_ATTRIBUTES[i].name.as_bytes()
        } else if i == URL_ATTRIBUTES.len() {
            HTTP_EQUIV.as_bytes()
        } else if i == URL_ATTRIBUTES.len() + 1 {
            SRCDOC.as_bytes()
        } else if i < text {
            FETCH_ATTRIBUTES[(i - fetch) % FETCH_ATTRIBUTES.len()].as_bytes()
        } else {
            TEXT_ATTRIBUTES[(i - text) % TEXT_ATTRIBUTES.len()].as_bytes()
        };
        filter[name.len() % 16] |= 1 << (name[0] % 32);
        i += 1;
    }
    filter
}

/// False when no name the scan keeps can be `attribute` (see [`NAME_FILTER`]).
pub(super) fn may_be_kept(attribute: &[u8]) -> bool {
    attribute.first().is_some_and(|&first| {
        NAME_FILTER
            .get(attribute.len() % 16)
            .is_some_and(|bits| bits & (1 << (first % 32)) != 0)
    })
}

/// The row of [`URL_ATTRIBUTES`] for `attribute` on `tag` (both lowercase) in `namespace`,
/// if any.
pub(super) fn url_attribute(
    tag: &[u8],
    attribute: &[u8],
    namespace: Namespace,
) -> Option<&'static UrlAttribute> {
    URL_ATTRIBUTES.iter().find(|row| {
        row.name.as_bytes() == attribute
            && (row.namespace == In::Any || namespace == Namespace::Svg)
            && (row.elements.is_empty() || row.elements.iter().any(|e| e.as_bytes() == tag))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab;

    /// The fetch attributes pass the name filter, and the emitter's spelt-out match takes them.
    #[test]
    fn fetch_attributes_pass_the_filter() {
        for name in FETCH_ATTRIBUTES {
            assert!(may_be_kept(name.as_bytes()), "{name}");
            assert!(
                matches!(name.as_bytes(), b"crossorigin" | b"integrity"),
                "{name}"
            );
        }
    }

    /// Every name the table holds is one the vocabulary knows, so that a record the scan
    /// writes reads back; and every element it names is one of the vocabulary's elements.
    #[test]
    fn the_table_uses_the_vocabulary() {
        for row in URL_ATTRIBUTES {
            assert_eq!(vocab::url_attribute_name(row.name), Some(row.name));
            for name in row.elements {
                assert!(vocab::ELEMENT_NAMES.contains(name), "{name}");
            }
        }
        // The vocabulary's other names are those the SVG scan reads in SVG documents.
        for name in vocab::URL_ATTRIBUTE_NAMES {
            assert!(
                URL_ATTRIBUTES.iter().any(|row| row.name == *name)
                    || vocab::SVG_PRESENTATION_ATTRIBUTES.contains(name),
                "{name}"
            );
        }
        for name in vocab::SVG_PRESENTATION_ATTRIBUTES {
            assert_eq!(vocab::url_attribute_name(name), Some(name));
        }
    }

    #[test]
    fn the_filter_passes_every_kept_name() {
        for row in URL_ATTRIBUTES {
            assert!(may_be_kept(row.name.as_bytes()), "{}", row.name);
        }
        assert!(may_be_kept(HTTP_EQUIV.as_bytes()));
        assert!(may_be_kept(SRCDOC.as_bytes()));
        for name in TEXT_ATTRIBUTES {
            assert!(may_be_kept(name.as_bytes()), "{name}");
        }
        // The common attributes that hold no URL fail it, so the table is not searched.
        for other in ["class", "width", "id", "border", "align"] {
            assert!(!may_be_kept(other.as_bytes()), "{other}");
        }
    }
}
