//! The [`Summary`] of a message entity: the `Subject`, `From`, `Date` and `Message-ID` a mail
//! client shows at the top of a message (RFC 5322 §3.6).

use std::borrow::Cow;

use crate::headers::decode_encoded_words;
use crate::mime::Entity;
use crate::report::Summary;
use crate::vocab::FieldName;

/// The summary of `entity`'s header: the first field of each name (as clients show it),
/// `Subject` and `From` with their RFC 2047 encoded-words decoded (RFC 2047 §5 allows them in
/// unstructured text and in phrases), `Date` and `Message-ID` as written.
// Out of line, as `take_summary`: run once per message, they would only crowd the instruction
// cache of the analysis they would be inlined into.
#[inline(never)]
pub(super) fn summary(entity: &Entity) -> Summary {
    let first = |name: FieldName| {
        entity
            .fields
            .iter()
            .find(|field| field.is(name))
            .map(|field| field.value.clone())
    };
    Summary {
        subject: first(FieldName::Subject).map(decoded),
        from: first(FieldName::From).map(decoded),
        date: first(FieldName::Date),
        message_id: first(FieldName::MessageId),
    }
}

/// [`summary`], taking the values of `Subject`, `From` and `Date` out of the entity's fields
/// (left empty) instead of copying them: for the root, whose fields nothing reads after the
/// analysis has made its URLs. `Message-ID` is copied: it names the message for `mid:` URLs.
#[inline(never)]
pub(super) fn take_summary(entity: &mut Entity) -> Summary {
    let mut take = |name: FieldName| {
        entity
            .fields
            .iter_mut()
            .find(|field| field.is(name))
            .map(|field| std::mem::take(&mut field.value))
    };
    let subject = take(FieldName::Subject).map(decoded);
    let from = take(FieldName::From).map(decoded);
    let date = take(FieldName::Date);
    Summary {
        subject,
        from,
        date,
        message_id: entity
            .fields
            .iter()
            .find(|field| field.is(FieldName::MessageId))
            .map(|field| field.value.clone()),
    }
}

/// `value` with its RFC 2047 encoded-words decoded; the value is trimmed already, and a decoded
/// one is trimmed of the white space it decoded to at its ends.
fn decoded(value: String) -> String {
    match decode_encoded_words(&value) {
        Cow::Borrowed(_) => value,
        Cow::Owned(decoded) => decoded.trim().to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use crate::analyze::analyze;
    use crate::options::Options;

    /// Encoded-words decoded in `Subject` and `From` (also inside a display name), the first of
    /// repeated fields, missing fields `None` and empty ones `""`, `Date` and `Message-ID` as
    /// written; an encapsulated message has its own.
    #[test]
    fn summaries_of_the_root_and_an_encapsulated_message() {
        let message = "Subject: =?utf-8?q?Caf=C3=A9?= =?utf-8?b?IG91dmVydA==?=\r\n\
            Subject: second\r\n\
            From: =?utf-8?q?service=40bank=2Eexample?= <x@evil.example>\r\n\
            Date: Thu, 20 Jun 2024\r\n 09:00:00 +0000\r\n\
            Content-Type: message/rfc822\r\n\r\n\
            Subject:\r\nMessage-ID: <inner@example>\r\n\r\nbody\r\n";
        let report = analyze(message.as_bytes(), &Options::new());
        let root = &report.summary;
        assert_eq!(root.subject.as_deref(), Some("Café ouvert"));
        assert_eq!(
            root.from.as_deref(),
            Some("service@bank.example <x@evil.example>")
        );
        assert_eq!(
            root.date.as_deref(),
            Some("Thu, 20 Jun 2024 09:00:00 +0000")
        );
        assert_eq!(root.message_id, None);
        assert_eq!(report.entities[0].summary, None);
        let inner = report.entities[1].summary.as_deref().unwrap();
        assert_eq!(report.entities[1].part.as_str(), "1.HEADER");
        assert_eq!(inner.subject.as_deref(), Some(""));
        assert_eq!(inner.from, None);
        assert_eq!(inner.message_id.as_deref(), Some("<inner@example>"));
        assert_eq!(report.summary_of(&report.entities[1].part), Some(inner));
        // The root's, taken out of the walk, is what the copying function gives.
        let walk = crate::mime::split(message.as_bytes(), &Options::new(), &mut Vec::new());
        assert_eq!(super::summary(&walk.entities[0]), *root);
        assert_eq!(report.summary_of(&report.entities[0].part), Some(root));
    }
}
