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
pub(super) fn summary(entity: &Entity) -> Summary {
    let first = |name: FieldName| {
        entity
            .fields
            .iter()
            .find(|field| field.is(name))
            .map(|field| field.value.as_str())
    };
    // The value is trimmed already; a decoded one may start or end with decoded white space.
    let decoded = |value: &str| match decode_encoded_words(value) {
        Cow::Borrowed(value) => value.to_owned(),
        Cow::Owned(decoded) => decoded.trim().to_owned(),
    };
    Summary {
        subject: first(FieldName::Subject).map(decoded),
        from: first(FieldName::From).map(decoded),
        date: first(FieldName::Date).map(str::to_owned),
        message_id: first(FieldName::MessageId).map(str::to_owned),
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
        let inner = report.entities[1].summary.as_ref().unwrap();
        assert_eq!(report.entities[1].part.as_str(), "1.HEADER");
        assert_eq!(inner.subject.as_deref(), Some(""));
        assert_eq!(inner.from, None);
        assert_eq!(inner.message_id.as_deref(), Some("<inner@example>"));
        assert_eq!(report.summary_of(&report.entities[1].part), Some(inner));
        assert_eq!(report.summary_of(&report.entities[0].part), Some(root));
    }
}
