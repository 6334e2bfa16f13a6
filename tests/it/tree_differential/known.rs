//! The differences from each oracle that are known, each in a class with its reason: which side
//! RFC 2045, RFC 2046 and RFC 5322 support, and what the other parsers do.

/// Why a tree may differ from an oracle's. Each reason says what the oracle does, what we do,
/// which side the RFC supports, and what the other clients do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Class {
    EncodedMessage,
    BoundaryTrailingSpace,
    HeaderLineNotAField,
    SpaceBeforeColon,
    JunkAfterMediaType,
    NotAnEncapsulatedMessage,
    PartFirstLineNotAField,
    NoEmptyLineInPart,
    ByteOrderMark,
    MessageFirstLineNotAField,
    EmptyPartBetweenDelimiters,
    DuplicateContentType,
    MediaTypeWithoutSubtype,
    FoldedBoundary,
    EnvelopeLineInEncapsulatedMessage,
}

impl Class {
    pub(super) fn reason(self) -> &'static str {
        match self {
            Class::EncodedMessage => {
                "message/rfc822 in base64: we decode the body and walk the message in it, as \
                 mime4j does (its expected XML shows the nested messages); Python parses the \
                 still-encoded text as a message without header (text/plain); GMime keeps the \
                 part as a leaf. RFC 2046 §5.2.1 allows only 7bit, 8bit and binary here, so the \
                 sender is wrong and no reading is required; decoding recovers what was sent"
            }
            Class::BoundaryTrailingSpace => {
                "a boundary parameter that ends in spaces (mime4j's `weird-boundary` test \
                 message has one): Python strips the trailing white space from the boundary, so a line with one \
                 space less is a delimiter and starts one more part; we, GMime and mime4j's \
                 expected XML match the boundary as written. RFC 2046 §5.1.1: a boundary ends \
                 in a `bcharsnospace` and has at most 70 characters, so the parameter is \
                 invalid; matching it as written is the literal reading"
            }
            Class::SpaceBeforeColon => {
                "`Content-Type :` with white space before the colon: Python's header pattern \
                 has no room for it and ends the header (text/plain); we and GMime read the \
                 field. RFC 5322 §4.5.3 (obs-optional: field-name *WSP \":\") says such fields \
                 must be accepted: we are right"
            }
            Class::HeaderLineNotAField => {
                "a header line that is not a field before the Content-Type (an encoded word or \
                 a continuation line without its leading white space, an Office 365 message \
                 among them; or a field name with an 8-bit byte): Python ends the header at \
                 that line, so the fields after it become body (text/plain); we skip the line \
                 and read the fields after it up to the empty line, as GMime does (it also \
                 takes the 8-bit name as a field, as we do), as mime4j's expected XML for \
                 `malformedHeader-nocrlfcrlf` shows, and as MimeKit's tests expect of \
                 `issue358` (multipart/alternative). RFC 5322 §2.2 and §3.6.8: the line is no \
                 field; nothing says the header ends there, and the clients read on"
            }
            Class::JunkAfterMediaType => {
                "a Content-Type whose `;` was lost (`text/html charset=utf-8`, `multipart/mixed \
                 boundary=x`) or with more after its subtype (`image/com/x`): we read the valid \
                 type/subtype at its start, with the parameters after the next `;` only, as \
                 GMime does (so `multipart/mixed boundary=x` has no boundary and no parts, for \
                 GMime too; MimeKit reads the same type, and Thunderbird, cutting the type at \
                 `;` or white space, too); Python keeps the whole value as the type when it \
                 has one `/` (`text/html charset=utf-8`, not HTML) and reads text/plain when it \
                 has more. RFC 2045 §5.1 makes the value invalid and §5.2 would read \
                 text/plain: we read it as the clients show it, so that no HTML part they show \
                 is missed"
            }
            Class::NotAnEncapsulatedMessage => {
                "message/partial and message/external-body: Python parses every message/* body \
                 but delivery-status as a message; we and GMime keep them as leaves. RFC 2046 \
                 §5.2.2: a partial body is a fragment of a message, only the first one begins \
                 with its header; §5.2.3: an external-body's body is the header of a message \
                 stored elsewhere, not a message of this one: we are right"
            }
            Class::PartFirstLineNotAField => {
                "a body part or encapsulated message whose first line is no field, with a \
                 Content-Type after it before the empty line: Python reads no header (the first \
                 line ends it) and the part is text/plain; we skip the lines before the first \
                 field and read the fields, as GMime and MimeKit do (their parsers skip such \
                 lines) and Thunderbird (which reads every line up to the empty line as the \
                 part's header): the part is the HTML they show. RFC 2046 §5.1.1 wants the \
                 part's header right after the delimiter; nothing says a junk line ends it"
            }
            Class::NoEmptyLineInPart => {
                "a body part with no empty line before the next delimiter, whose first line is \
                 no field: GMime reads all its lines as a header (skipping those that are no \
                 field), so the part is empty, of the type a Content-Type line among them gives \
                 (text/html here), or, without any field, no part at all; we read no header \
                 when no empty line ends one, and the part is text/plain with those lines as \
                 its body, as Python reads it (RFC 2046 §5.1.1: a header ends with an empty \
                 line; the content is the lines after the delimiter). GMime shows nothing of \
                 such a part, so we hide nothing it shows"
            }
            Class::ByteOrderMark => {
                "a message that starts with a UTF-8 byte order mark: we skip it, as MimeKit's \
                 parser does, and read the header after it; GMime takes it for part of the \
                 first field's name (`\u{feff}Content-Type` is no Content-Type: text/plain), \
                 and Python's `email` reads no header at all (text/plain). RFC 5322 has no \
                 room for it; the clients that skip it show the message its header describes"
            }
            Class::MessageFirstLineNotAField => {
                "a message whose first line is no field (nor an mbox `From ` line): GMime \
                 reads no message at all; we and Python read it all as body (text/plain), so \
                 that whatever it holds is still scanned"
            }
            Class::EmptyPartBetweenDelimiters => {
                "two delimiter lines in a row (MIME-tools' `double-bound` messages): we read an \
                 empty body part between them (no header, no content: text/plain), as mime4j's \
                 expected XML has it and as the messages' author counted (the subjects of the \
                 parts after each doubled delimiter say `[2]`, `[4]`, `[6]`); GMime and Python \
                 read no part there, and neither does MimeKit (its parser's `ImmediateBoundary` \
                 case, with a FIXME that asks whether to add the empty part), so the parts after \
                 it have numbers one less. RFC 2046 §5.1.1 supports neither: a delimiter is CRLF \
                 and `--boundary`, and the CRLF that ends the first line cannot also begin the \
                 second, so strictly the second line is content, where the boundary must not \
                 occur. Nothing is shown or hidden either way; only the numbering differs"
            }
            Class::DuplicateContentType => {
                "two Content-Type fields in one header (MIME-tools' `multi-bad`: `multipart/mixed` \
                 with its boundary, then `text/plain`): we read the first, as Python's `email` \
                 (`get` returns the first), mime4j (its expected XML has the multipart) and \
                 MimeKit (`MimeParser.GetContentType` returns the first) do; GMime reads the last \
                 (text/plain: the whole body as text, preamble included). RFC 2045 §3 allows one \
                 (`entity-headers := [ content CRLF ] …`) and says nothing of which of two wins; \
                 the body is written as the first one says (its delimiter occurs in it), and we \
                 read it as most readers do"
            }
            Class::MediaTypeWithoutSubtype => {
                "`Content-type: text`, with no subtype (in MIME-tools' `multi-digest`): we read \
                 text/plain, as Python's `email` does and as RFC 2045 §5.2 recommends for a \
                 Content-Type that is not valid; GMime reads application/octet-stream, as MimeKit \
                 does (`MimeParser.GetContentType` gives that type to a value it cannot parse). \
                 We are right, and the text part's links stay found"
            }
            Class::FoldedBoundary => {
                "a quoted boundary parameter folded across two lines (`boundary=\"simple` CRLF \
                 ` boundary\"`, RFC 2046 §5.1.1's example boundary, in MIME-tools' \
                 `multi-simple`, `multi-clen`, `multi-badnames` and `multi-digest`): we unfold \
                 the field before reading it (RFC 5322 §2.2.3: a CRLF followed by white space is \
                 removed, wherever it is), so the boundary is `simple boundary` and the parts \
                 are found, as GMime and mime4j's expected XML find them; Python's `email` \
                 (compat32) keeps the CRLF in the quoted string, finds no delimiter and gives the \
                 multipart no parts. We are right"
            }
            Class::EnvelopeLineInEncapsulatedMessage => {
                "in MimeKit's `content-length` mbox, forwarded messages (message/rfc822) whose \
                 first line is their own envelope line, quoted by the mbox as `>From - …`: we \
                 undo the quoting, as an mboxrd reader does, skip that line (no field) and read \
                 the fields after it (application/x-pkcs7-mime), as GMime does and as MimeKit's \
                 summary of the file (`content-length-summary.txt`, beside it in MimeKit's tests) \
                 lists them; Python's `mailbox.mbox` keeps the `>`, and `email` ends the header \
                 at a first line that is no field (text/plain). The shape of \
                 PartFirstLineNotAField, and the same reasons"
            }
        }
    }
}

/// The differences from Python's `email`: (file, part, our media type, Python's, class), `-`
/// where a side has no such entity. Python's values were produced by
/// `tests/support/email_tree.py` with CPython 3.11's `email`.
pub(super) const PYTHON: &[(&str, &str, &str, &str, Class)] = &[
    (
        "tree-cases/boundary-trailing-space.eml",
        "2",
        "-",
        "text/plain",
        Class::BoundaryTrailingSpace,
    ),
    (
        "tree-cases/b64-rfc822.eml",
        "1.HEADER",
        "multipart/mixed",
        "text/plain",
        Class::EncodedMessage,
    ),
    (
        "tree-cases/space-before-colon.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::SpaceBeforeColon,
    ),
    (
        "tree-cases/message-external-body.eml",
        "1.HEADER",
        "-",
        "text/html",
        Class::NotAnEncapsulatedMessage,
    ),
    (
        "tree-cases/message-partial.eml",
        "1.HEADER",
        "-",
        "text/plain",
        Class::NotAnEncapsulatedMessage,
    ),
    (
        "tree-cases/b64-footer-rfc822.eml",
        "1.HEADER",
        "multipart/mixed",
        "text/plain",
        Class::EncodedMessage,
    ),
    (
        "tree-cases/8bit-name-utf8.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::HeaderLineNotAField,
    ),
    (
        "tree-cases/8bit-name.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::HeaderLineNotAField,
    ),
    (
        "tree-cases/encoded-word-line.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::HeaderLineNotAField,
    ),
    (
        "tree-cases/lost-continuation-nospace.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::HeaderLineNotAField,
    ),
    (
        "tree-cases/lost-continuation.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::HeaderLineNotAField,
    ),
    (
        "tree-cases/lost-semicolon-quoted.eml",
        "HEADER",
        "multipart/mixed",
        "multipart/mixed boundary=\"x\"",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/lost-semicolon.eml",
        "HEADER",
        "multipart/mixed",
        "multipart/mixed boundary=x",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/image-com-x.eml",
        "HEADER",
        "image/com",
        "text/plain",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/mp-extra-slash.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/part-content-type-junk.eml",
        "1",
        "text/html",
        "text/html charset=utf-8",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/part-content-type-junk.eml",
        "2",
        "image/png",
        "text/plain",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/part-multipart-lost-semicolon.eml",
        "1",
        "multipart/alternative",
        "multipart/alternative boundary=inner",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/part-multipart-lost-semicolon.eml",
        "2",
        "multipart/related",
        "multipart/related junk",
        Class::JunkAfterMediaType,
    ),
    (
        "tree-cases/part-junk-first-line.eml",
        "2",
        "text/html",
        "text/plain",
        Class::PartFirstLineNotAField,
    ),
    (
        "tree-cases/part-junk-lines-then-fields.eml",
        "2",
        "text/html",
        "text/plain",
        Class::PartFirstLineNotAField,
    ),
    (
        "tree-cases/rfc822-junk-first-line.eml",
        "1.HEADER",
        "text/html",
        "text/plain",
        Class::PartFirstLineNotAField,
    ),
    (
        "tree-cases/byte-order-mark.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::ByteOrderMark,
    ),
    (
        "suites/mime4j/2002_06_12_doublebound.msg",
        "2",
        "text/plain",
        "text/html",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/2002_06_12_doublebound.msg",
        "3",
        "text/html",
        "-",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "1",
        "text/plain",
        "text/html",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "5",
        "text/plain",
        "text/html",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "8",
        "text/html",
        "image/gif",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "9",
        "text/html",
        "-",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "10",
        "image/gif",
        "-",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/multi-2gifs-base64.msg",
        "1.HEADER",
        "multipart/mixed",
        "text/plain",
        Class::EncodedMessage,
    ),
    (
        "suites/mime4j/multi-badnames.msg",
        "1",
        "text/plain",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-badnames.msg",
        "2",
        "text/plain",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-badnames.msg",
        "3",
        "text/plain",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-clen.msg",
        "1",
        "text/plain",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-clen.msg",
        "2",
        "text/x-numbers",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-clen.msg",
        "3",
        "text/x-alphabet",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-digest.msg",
        "1",
        "message/rfc822",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-digest.msg",
        "2",
        "message/rfc822",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-simple.msg",
        "1",
        "text/plain",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mime4j/multi-simple.msg",
        "2",
        "text/plain",
        "-",
        Class::FoldedBoundary,
    ),
    (
        "suites/mimekit/content-length.mbox.txt#16",
        "1.HEADER",
        "application/x-pkcs7-mime",
        "text/plain",
        Class::EnvelopeLineInEncapsulatedMessage,
    ),
    (
        "suites/mimekit/content-length.mbox.txt#17",
        "2.HEADER",
        "application/x-pkcs7-mime",
        "text/plain",
        Class::EnvelopeLineInEncapsulatedMessage,
    ),
    (
        "suites/mimekit/issue358.txt",
        "HEADER",
        "multipart/alternative",
        "text/plain",
        Class::HeaderLineNotAField,
    ),
];

/// The differences from GMime: (file, part, our media type, GMime's, class), `-` where a side
/// has no such entity, `no message` where GMime reads none. GMime's values were produced by
/// `tests/support/gmime_tree.py` with GMime 3.2.13 (Debian's `gir1.2-gmime-3.0`).
pub(super) const GMIME: &[(&str, &str, &str, &str, Class)] = &[
    (
        "messages/mime4j/base64encoded-rfc822message.msg",
        "1.HEADER",
        "text/plain",
        "-",
        Class::EncodedMessage,
    ),
    (
        "tree-cases/b64-rfc822.eml",
        "1.HEADER",
        "multipart/mixed",
        "-",
        Class::EncodedMessage,
    ),
    (
        "tree-cases/b64-footer-rfc822.eml",
        "1.HEADER",
        "multipart/mixed",
        "-",
        Class::EncodedMessage,
    ),
    (
        "tree-cases/byte-order-mark.eml",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::ByteOrderMark,
    ),
    (
        "tree-cases/first-line-not-field.eml",
        "HEADER",
        "text/plain",
        "no message",
        Class::MessageFirstLineNotAField,
    ),
    (
        "tree-cases/part-junk-fields-no-blank-line.eml",
        "1",
        "text/plain",
        "text/html",
        Class::NoEmptyLineInPart,
    ),
    (
        "tree-cases/part-starts-with-text.eml",
        "2",
        "text/plain",
        "-",
        Class::NoEmptyLineInPart,
    ),
    (
        "suites/mime4j/2002_06_12_doublebound.msg",
        "2",
        "text/plain",
        "text/html",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/2002_06_12_doublebound.msg",
        "3",
        "text/html",
        "-",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "1",
        "text/plain",
        "text/html",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "5",
        "text/plain",
        "text/html",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "8",
        "text/html",
        "image/gif",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "9",
        "text/html",
        "-",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/double-bound.msg",
        "10",
        "image/gif",
        "-",
        Class::EmptyPartBetweenDelimiters,
    ),
    (
        "suites/mime4j/multi-2gifs-base64.msg",
        "1.HEADER",
        "multipart/mixed",
        "-",
        Class::EncodedMessage,
    ),
    (
        "suites/mime4j/multi-bad.msg",
        "HEADER",
        "multipart/mixed",
        "text/plain",
        Class::DuplicateContentType,
    ),
    (
        "suites/mime4j/multi-digest.msg",
        "2.HEADER",
        "text/plain",
        "application/octet-stream",
        Class::MediaTypeWithoutSubtype,
    ),
];

/// The differences from mime4j's expected XML, on shapes (`multipart`, `message`, `leaf`):
/// (file, part, our shape, mime4j's, class), `-` where a side has no such entity. mime4j's
/// values are its files' at the commit `suites/MANIFEST.md` names. There are none: mime4j's
/// expected trees have our shape for every message, and so are on our side wherever they speak
/// to a difference above (an empty part between two delimiters, a base64 message, two
/// Content-Type fields, a folded boundary).
pub(super) const MIME4J: &[(&str, &str, &str, &str, Class)] = &[];
