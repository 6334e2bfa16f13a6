//! Object streams (ISO 32000-1 §7.5.7), expanded with bounds after lopdf has loaded the
//! file without them (see [`prepare`](super::prepare) for why lopdf does not).
//!
//! An object stream's content starts with an index of `N` pairs of integers, an object
//! number and the offset of that object relative to `/First`; the objects follow. Each
//! object is parsed from its own bytes only, from its offset to the next larger offset of
//! the index (or the end): an index that names one offset many times, or offsets inside
//! another object, then costs no more than the stream's length. An offset named twice gives
//! its object to the first number only. Each object is parsed by lopdf, from a stream of one
//! entry made of those bytes.
//!
//! Which copy of an object counts follows the cross-reference table, as lopdf does for the
//! streams it expands: an object whose entry names another object stream, or marks it free,
//! is not taken from this one, and an object already loaded outside object streams stays.

use lopdf::xref::XrefEntry;
use lopdf::{DecompressError, Dictionary, Document, Error, Object, ObjectId, ObjectStream, Stream};

use super::prepare::{FIRST_MARKER, OBJSTM_MARKER};
use super::{Budget, Problem, ProblemKind};

/// Whether a stream's dictionary makes it an object stream: its `/Type` is `ObjStm`, as the
/// room renamed it.
fn is_object_stream(dictionary: &Dictionary) -> bool {
    matches!(
        dictionary.get(b"Type").and_then(Object::as_name),
        Ok(OBJSTM_MARKER | b"ObjStm")
    )
}

/// The `/First` entry of an object stream's dictionary (renamed, or not), in bytes.
fn first_offset(dictionary: &Dictionary) -> Option<usize> {
    dictionary
        .get(FIRST_MARKER)
        .or_else(|_| dictionary.get(b"First"))
        .and_then(Object::as_i64)
        .ok()
        .and_then(|first| usize::try_from(first).ok())
}

/// The pairs of the index, (object number, offset after `/First`), read as lopdf reads them:
/// integers separated by white space, a `%` comment running to the end of its line. At
/// most `max_pairs` are read.
fn index_pairs(index: &[u8], max_pairs: usize) -> Vec<(u32, usize)> {
    let numbers = index
        .split(|&b| b == b'\r' || b == b'\n')
        .flat_map(|line| {
            let code = line.split(|&b| b == b'%').next().unwrap_or_default();
            code.split(|b| b.is_ascii_whitespace() || *b == b'\0')
                .filter(|word| !word.is_empty())
        })
        .map(|word| {
            std::str::from_utf8(word)
                .ok()
                .and_then(|w| w.parse::<u64>().ok())
        });
    let mut pairs = Vec::new();
    let mut pending: Option<Option<u64>> = None;
    for number in numbers {
        match pending.take() {
            None => pending = Some(number),
            Some(object) => {
                if let (Some(object), Some(offset)) = (object, number)
                    && let (Ok(object), Ok(offset)) =
                        (u32::try_from(object), usize::try_from(offset))
                {
                    pairs.push((object, offset));
                }
                if pairs.len() >= max_pairs {
                    break;
                }
            }
        }
    }
    pairs
}

/// Whether the object numbered `number` may be taken from the object stream `container`,
/// by the cross-reference table.
fn accepts(document: &Document, number: u32, container: u32) -> bool {
    match document.reference_table.get(number) {
        Some(XrefEntry::Compressed {
            container: named, ..
        }) => *named == container,
        Some(XrefEntry::Free | XrefEntry::UnusableFree) => false,
        Some(XrefEntry::Normal { .. }) | None => true,
    }
}

/// The object written in `bytes`, parsed by lopdf on its own.
fn parse_object(bytes: &[u8]) -> Option<Object> {
    const INDEX: &[u8] = b"0 0\n";
    let mut dictionary = Dictionary::new();
    dictionary.set("Type", Object::Name(b"ObjStm".to_vec()));
    dictionary.set("N", 1);
    dictionary.set("First", i64::try_from(INDEX.len()).unwrap_or(0));
    let mut content = Vec::with_capacity(INDEX.len() + bytes.len());
    content.extend_from_slice(INDEX);
    content.extend_from_slice(bytes);
    let stream = Stream::new(dictionary, content);
    ObjectStream::new_with_limit(&stream, None)
        .ok()?
        .objects
        .remove(&(0, 0))
}

/// Expands every object stream of `document` into its objects, within `budget` and while
/// the document holds at most `max_objects` objects. Problems go to `problems`.
pub(crate) fn expand(
    document: &mut Document,
    max_objects: usize,
    budget: &mut Budget,
    problems: &mut Vec<Problem>,
) {
    let containers: Vec<ObjectId> = document
        .objects
        .iter()
        .filter_map(|(id, object)| match object {
            Object::Stream(stream) if is_object_stream(&stream.dict) => Some(*id),
            _ => None,
        })
        .collect();
    for container in containers {
        if document.objects.len() >= max_objects {
            problems.push(Problem {
                object: Some(container.0),
                ..Problem::new(
                    ProblemKind::Limit,
                    format!("the document holds {max_objects} objects; object streams left unread"),
                )
            });
            return;
        }
        let objects = match read_container(document, container, max_objects, budget) {
            Ok(objects) => objects,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        for (id, object) in objects {
            if document.objects.len() >= max_objects {
                break;
            }
            document.objects.entry(id).or_insert(object);
        }
    }
}

/// The objects of the object stream `container` that the cross-reference table lets it
/// give, at most as many as `max_objects` leaves room for.
fn read_container(
    document: &Document,
    container: ObjectId,
    max_objects: usize,
    budget: &mut Budget,
) -> Result<Vec<(ObjectId, Object)>, Problem> {
    let problem = |kind, message: String| Problem {
        object: Some(container.0),
        ..Problem::new(kind, message)
    };
    let Some(Object::Stream(stream)) = document.objects.get(&container) else {
        return Ok(Vec::new());
    };
    let content = match stream.get_plain_content_with_limit(budget.remaining()) {
        Ok(content) => content,
        Err(Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
            budget.spend(budget.remaining());
            return Err(problem(
                ProblemKind::Limit,
                "object stream decompresses past the limit".to_owned(),
            ));
        }
        Err(error) => {
            return Err(problem(
                ProblemKind::Broken,
                format!(
                    "cannot decompress object stream: {}",
                    super::lowercase_message(&error.to_string())
                ),
            ));
        }
    };
    budget.spend(content.len());
    let Some(first) = first_offset(&stream.dict) else {
        return Err(problem(
            ProblemKind::Broken,
            "object stream without /First".to_owned(),
        ));
    };
    let Some(index) = content.get(..first) else {
        return Err(problem(
            ProblemKind::Broken,
            "object stream /First past its end".to_owned(),
        ));
    };
    let room = max_objects.saturating_sub(document.objects.len());
    let mut pairs = index_pairs(index, room);
    // By offset, and the first number of each offset only; a stable sort keeps index order.
    pairs.sort_by_key(|&(_, offset)| offset);
    pairs.dedup_by_key(|&mut (_, offset)| offset);
    let starts: Vec<usize> = pairs
        .iter()
        .map(|&(_, offset)| first.saturating_add(offset))
        .collect();
    let mut objects = Vec::new();
    for (position, &(number, _)) in pairs.iter().enumerate() {
        let id = (number, 0);
        if document.objects.contains_key(&id) || !accepts(document, number, container.0) {
            continue;
        }
        let (Some(&start), end) = (starts.get(position), starts.get(position + 1)) else {
            continue;
        };
        let end = end.copied().unwrap_or(content.len()).min(content.len());
        let Some(bytes) = content.get(start..end) else {
            continue;
        };
        if let Some(object) = parse_object(bytes) {
            objects.push((id, object));
        }
    }
    Ok(objects)
}
