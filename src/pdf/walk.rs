//! The walk over the document's objects that finds its actions, in the order of the
//! [module docs](super): the catalog (ISO 32000-1 §7.7.2), the page tree (§7.7.3) and each
//! page's annotations (§12.5), the interactive form (§12.7.2), the outline (§12.3.3), then
//! every object.
//!
//! Every walk is a loop over an explicit stack with a set of the dictionaries it has met (by
//! address: lopdf's objects do not move while the walk borrows them), so that a cycle of
//! references (`/Next`, `/Kids`, `/Parent`) ends, and no input deepens the call stack.
//! References are followed at most [`MAX_REFERENCE_CHAIN`] in a row.

use std::collections::{HashMap, HashSet};
use std::ptr;

use lopdf::{Dictionary, Document, Object, ObjectId};

use super::actions::{action_type, targets};
use super::prepare::restore_markers;
use super::string::uri_string;
use super::{Link, Place, Problem, ProblemKind, Source};

/// How many references in a row are followed to reach an object (a reference to a
/// reference is legal, if odd; a longer chain is a loop or an attack).
const MAX_REFERENCE_CHAIN: usize = 32;

/// How deep the page tree may be: deeper nodes are skipped, as lopdf's own page iterator
/// skips them. Real trees are a few levels deep.
const MAX_PAGE_TREE_DEPTH: usize = 256;

/// How deep the field tree of an interactive form may be (§12.7.3.1: fields nest through
/// `/Kids`). Real forms nest a few levels.
const MAX_FIELD_DEPTH: usize = 64;

/// What the walk found.
pub(crate) struct Found {
    /// The catalog's `/URI` `/Base`, decoded.
    pub base: Option<String>,
    /// The links, sorted as the [module docs](super) say.
    pub links: Vec<Link>,
    /// The pages that are indirect objects, with their numbers (1-based, page tree order),
    /// for text extraction.
    pub pages: Vec<(u32, ObjectId)>,
    /// What the walk could not read.
    pub problems: Vec<Problem>,
}

/// `object` with references followed: the object itself and the identifier of the last
/// reference followed, or `holder` when `object` is direct. `None` when a reference leads
/// nowhere or the chain is longer than [`MAX_REFERENCE_CHAIN`].
pub(crate) fn resolve<'a>(
    document: &'a Document,
    object: &'a Object,
    holder: Option<ObjectId>,
) -> Option<(&'a Object, Option<ObjectId>)> {
    let mut current = object;
    let mut holder = holder;
    for _ in 0..MAX_REFERENCE_CHAIN {
        match current {
            Object::Reference(id) => {
                holder = Some(*id);
                current = document.objects.get(id)?;
            }
            other => return Some((other, holder)),
        }
    }
    None
}

/// The dictionary `object` leads to, with the identifier of the object that holds it.
fn dictionary<'a>(
    document: &'a Document,
    object: &'a Object,
    holder: Option<ObjectId>,
) -> Option<(&'a Dictionary, Option<ObjectId>)> {
    let (object, holder) = resolve(document, object, holder)?;
    object.as_dict().ok().map(|d| (d, holder))
}

/// The walk's state.
struct Walker<'a> {
    /// The document walked.
    document: &'a Document,
    /// Whether strings need [`restore_markers`].
    restore: bool,
    /// [`Limits::max_links`](super::Limits::max_links).
    max_links: usize,
    /// Action dictionaries met, by address: each is reported once.
    actions: HashSet<*const Dictionary>,
    /// Arrays (of `/Next`, `/Annots`, `/Kids`) and additional-actions dictionaries already
    /// walked, by address: one that many objects share is walked once, so that the walk
    /// stays linear in the document's size.
    walked: HashSet<*const Object>,
    /// Links found, in the order found.
    links: Vec<Link>,
    /// Problems met.
    problems: Vec<Problem>,
    /// Whether `max_links` was reached: the walk then stops.
    full: bool,
    /// The number of each page that is an indirect object (for a widget's `/P`).
    page_numbers: HashMap<ObjectId, u32>,
}

impl<'a> Walker<'a> {
    /// Whether `object` is met for the first time (see [`Walker::walked`]).
    fn first_walk(&mut self, object: &Object) -> bool {
        self.walked.insert(ptr::from_ref(object))
    }

    /// Reports the targets of `action` if it is of a reported type.
    fn report(
        &mut self,
        action: &Dictionary,
        holder: Option<ObjectId>,
        source: Source,
        page: Option<u32>,
    ) {
        let Some(kind) = action_type(self.document, action) else {
            return;
        };
        for target in targets(self.document, action, kind, self.restore) {
            if self.links.len() >= self.max_links {
                if !self.full {
                    self.problems.push(Problem::new(
                        ProblemKind::Limit,
                        format!("more than {} links; the rest were left out", self.max_links),
                    ));
                }
                self.full = true;
                return;
            }
            self.links.push(Link {
                place: Place {
                    source,
                    action: kind,
                },
                target,
                object: holder.map(|id| id.0),
                page,
            });
        }
    }

    /// Reports the action `start` and the actions its `/Next` entries name (ISO 32000-1
    /// §12.6.2: a dictionary or an array of them), in the order a viewer runs them.
    fn action(
        &mut self,
        start: &'a Object,
        holder: Option<ObjectId>,
        source: Source,
        page: Option<u32>,
    ) {
        // The flag says the object is a `/Next` value, which may be an array of actions.
        let mut stack = vec![(start, holder, false)];
        while let Some((object, holder, is_next)) = stack.pop() {
            if self.full {
                return;
            }
            let Some((object, holder)) = resolve(self.document, object, holder) else {
                continue;
            };
            match object {
                Object::Dictionary(action) => {
                    if !self.actions.insert(ptr::from_ref(action)) {
                        continue;
                    }
                    self.report(action, holder, source, page);
                    if let Ok(next) = action.get(b"Next") {
                        stack.push((next, holder, true));
                    }
                }
                Object::Array(actions) if is_next && self.first_walk(object) => {
                    stack.extend(actions.iter().rev().map(|a| (a, holder, false)));
                }
                _ => {}
            }
        }
    }

    /// Reports every action of an additional-actions dictionary (ISO 32000-1 §12.6.3), in
    /// the order of its entries.
    fn additional(
        &mut self,
        additional: &'a Object,
        holder: Option<ObjectId>,
        source: Source,
        page: Option<u32>,
    ) {
        let Some((object, holder)) = resolve(self.document, additional, holder) else {
            return;
        };
        let Ok(entries) = object.as_dict() else {
            return;
        };
        if !self.first_walk(object) {
            return;
        }
        for (_, action) in entries.iter() {
            self.action(action, holder, source, page);
        }
    }

    /// The pages of the page tree rooted at the catalog's `/Pages`, in order, with their
    /// identifiers when they are indirect. A node is a page when its `/Type` is `Page` or
    /// it has no `/Kids`, as pdf.js decides.
    fn page_tree(&mut self, catalog: &'a Dictionary) -> Vec<(&'a Dictionary, Option<ObjectId>)> {
        let mut pages = Vec::new();
        let Ok(root) = catalog.get(b"Pages") else {
            self.problems.push(Problem::new(
                ProblemKind::Broken,
                "the catalog has no page tree",
            ));
            return pages;
        };
        let mut stack = vec![(root, 0usize)];
        let mut seen = HashSet::new();
        let mut too_deep = false;
        while let Some((object, depth)) = stack.pop() {
            let Some((node, id)) = dictionary(self.document, object, None) else {
                continue;
            };
            if !seen.insert(ptr::from_ref(node)) {
                continue;
            }
            let is_page = node.get(b"Type").and_then(Object::as_name).ok() == Some(b"Page")
                || !node.has(b"Kids");
            if is_page {
                pages.push((node, id));
                continue;
            }
            let kids = node
                .get(b"Kids")
                .ok()
                .and_then(|kids| resolve(self.document, kids, None))
                .map(|(kids, _)| kids);
            let Some(Object::Array(kids)) = kids.filter(|kids| self.first_walk(kids)) else {
                continue;
            };
            if depth >= MAX_PAGE_TREE_DEPTH {
                if !too_deep {
                    self.problems.push(Problem {
                        object: id.map(|id| id.0),
                        ..Problem::new(ProblemKind::Limit, "the page tree is too deep")
                    });
                }
                too_deep = true;
                continue;
            }
            stack.extend(kids.iter().rev().map(|kid| (kid, depth + 1)));
        }
        pages
    }

    /// Reports the actions of a page: its annotations' `/A` and `/AA` (ISO 32000-1
    /// §12.5.2, Table 164; Table 173), and its own `/AA` (Table 195).
    fn page(&mut self, page: &'a Dictionary, id: Option<ObjectId>, number: u32) {
        let annotations = page
            .get(b"Annots")
            .ok()
            .and_then(|annotations| resolve(self.document, annotations, id))
            .map(|(annotations, _)| annotations)
            .filter(|annotations| self.first_walk(annotations))
            .and_then(|annotations| annotations.as_array().ok());
        for annotation in annotations.into_iter().flatten() {
            let Some((annotation, holder)) = dictionary(self.document, annotation, id) else {
                continue;
            };
            if let Ok(action) = annotation.get(b"A") {
                self.action(action, holder, Source::Annot, Some(number));
            }
            if let Ok(additional) = annotation.get(b"AA") {
                self.additional(additional, holder, Source::AnnotAa, Some(number));
            }
        }
        if let Ok(additional) = page.get(b"AA") {
            self.additional(additional, id, Source::Aa, Some(number));
        }
    }

    /// Reports the actions of the interactive form's fields (ISO 32000-1 §12.7.2,
    /// Table 218; §12.7.3.1, Table 220), through `/Kids`.
    fn fields(&mut self, catalog: &'a Dictionary, catalog_id: Option<ObjectId>) {
        let fields = catalog
            .get(b"AcroForm")
            .ok()
            .and_then(|form| dictionary(self.document, form, catalog_id))
            .and_then(|(form, holder)| Some((form.get(b"Fields").ok()?, holder)))
            .and_then(|(fields, holder)| resolve(self.document, fields, holder))
            .and_then(|(fields, holder)| Some((fields.as_array().ok()?, holder)));
        let Some((fields, holder)) = fields else {
            return;
        };
        let mut stack: Vec<_> = fields.iter().rev().map(|f| (f, holder, 0usize)).collect();
        let mut seen = HashSet::new();
        let mut too_deep = false;
        while let Some((object, holder, depth)) = stack.pop() {
            if self.full {
                return;
            }
            let Some((field, holder)) = dictionary(self.document, object, holder) else {
                continue;
            };
            if !seen.insert(ptr::from_ref(field)) {
                continue;
            }
            let page = match field.get(b"P") {
                Ok(Object::Reference(page)) => self.page_numbers.get(page).copied(),
                _ => None,
            };
            if let Ok(action) = field.get(b"A") {
                self.action(action, holder, Source::Field, page);
            }
            if let Ok(additional) = field.get(b"AA") {
                self.additional(additional, holder, Source::Field, page);
            }
            let kids = field
                .get(b"Kids")
                .ok()
                .and_then(|kids| resolve(self.document, kids, holder))
                .map(|(kids, _)| kids);
            let Some(Object::Array(kids)) = kids.filter(|kids| self.first_walk(kids)) else {
                continue;
            };
            if depth >= MAX_FIELD_DEPTH {
                if !too_deep {
                    self.problems.push(Problem {
                        object: holder.map(|id| id.0),
                        ..Problem::new(ProblemKind::Limit, "the field tree is too deep")
                    });
                }
                too_deep = true;
                continue;
            }
            stack.extend(kids.iter().rev().map(|kid| (kid, holder, depth + 1)));
        }
    }

    /// Reports the actions of the outline's items (ISO 32000-1 §12.3.3, Tables 152 and
    /// 153), depth first in reading order. `/First` may be renamed (see
    /// [`prepare`](super::prepare)).
    fn outlines(&mut self, catalog: &'a Dictionary, catalog_id: Option<ObjectId>) {
        let first_child = |item: &'a Dictionary| {
            item.get(super::prepare::FIRST_MARKER)
                .or_else(|_| item.get(b"First"))
                .ok()
        };
        let Some((root, holder)) = catalog
            .get(b"Outlines")
            .ok()
            .and_then(|outlines| dictionary(self.document, outlines, catalog_id))
        else {
            return;
        };
        let mut stack: Vec<_> = first_child(root).map(|c| (c, holder)).into_iter().collect();
        let mut seen = HashSet::new();
        while let Some((object, holder)) = stack.pop() {
            if self.full {
                return;
            }
            let Some((item, holder)) = dictionary(self.document, object, holder) else {
                continue;
            };
            if !seen.insert(ptr::from_ref(item)) {
                continue;
            }
            if let Ok(action) = item.get(b"A") {
                self.action(action, holder, Source::Outline, None);
            }
            // The sibling waits under the children.
            if let Ok(next) = item.get(b"Next") {
                stack.push((next, holder));
            }
            if let Some(child) = first_child(item) {
                stack.push((child, holder));
            }
        }
    }

    /// Reports the action dictionaries of every object not met by the walks above, nested
    /// ones included, in object order.
    fn remaining(&mut self) {
        let document = self.document;
        for (id, object) in &document.objects {
            let mut stack = vec![object];
            while let Some(object) = stack.pop() {
                if self.full {
                    return;
                }
                let dictionary = match object {
                    Object::Dictionary(dictionary) => dictionary,
                    Object::Stream(stream) => &stream.dict,
                    Object::Array(items) => {
                        stack.extend(items.iter().rev());
                        continue;
                    }
                    _ => continue,
                };
                if action_type(document, dictionary).is_some()
                    && self.actions.insert(ptr::from_ref(dictionary))
                {
                    self.report(dictionary, Some(*id), Source::Object, None);
                }
                stack.extend(dictionary.iter().rev().map(|(_, value)| value));
            }
        }
    }
}

/// The catalog's base URI (ISO 32000-1 §12.6.4.7, Table 207), decoded as a URI string.
fn base(document: &Document, catalog: &Dictionary, restore: bool) -> Option<String> {
    let (uri, _) = dictionary(document, catalog.get(b"URI").ok()?, None)?;
    let (base, _) = resolve(document, uri.get(b"Base").ok()?, None)?;
    let bytes = base.as_str().ok()?;
    let bytes = if restore {
        restore_markers(bytes)
    } else {
        std::borrow::Cow::Borrowed(bytes)
    };
    Some(uri_string(&bytes))
}

/// Walks `document` for its base, its links and its pages (see the [module docs](self)).
/// `restore` says whether strings need [`restore_markers`]; at most `max_links` links are
/// kept.
pub(crate) fn walk(document: &Document, restore: bool, max_links: usize) -> Found {
    let mut walker = Walker {
        document,
        restore,
        max_links,
        actions: HashSet::new(),
        walked: HashSet::new(),
        links: Vec::new(),
        problems: Vec::new(),
        full: false,
        page_numbers: HashMap::new(),
    };
    let mut found_base = None;
    let mut found_pages = Vec::new();
    let catalog = document
        .trailer
        .get(b"Root")
        .ok()
        .and_then(|root| dictionary(document, root, None));
    match catalog {
        None => walker.problems.push(Problem::new(
            ProblemKind::Broken,
            "no document catalog; only the objects were searched",
        )),
        Some((catalog, catalog_id)) => {
            found_base = base(document, catalog, restore);
            if let Ok(open) = catalog.get(b"OpenAction") {
                // An array there is a destination (Table 28), not an action.
                walker.action(open, catalog_id, Source::OpenAction, None);
            }
            if let Ok(additional) = catalog.get(b"AA") {
                walker.additional(additional, catalog_id, Source::Aa, None);
            }
            let pages = walker.page_tree(catalog);
            for (index, (_, id)) in pages.iter().enumerate() {
                let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
                if let Some(id) = id {
                    walker.page_numbers.entry(*id).or_insert(number);
                    found_pages.push((number, *id));
                }
            }
            for (index, (page, id)) in pages.iter().enumerate() {
                let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
                walker.page(page, *id, number);
            }
            walker.fields(catalog, catalog_id);
            walker.outlines(catalog, catalog_id);
        }
    }
    walker.remaining();
    let mut links = walker.links;
    links.sort_by_key(|link| (link.object.unwrap_or(u32::MAX), link.place.source));
    Found {
        base: found_base,
        links,
        pages: found_pages,
        problems: walker.problems,
    }
}
