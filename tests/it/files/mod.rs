//! Links inside the files a reader opens: calendars, shortcuts, PDF files, office documents
//! and archives, each compared with a third-party reader of its format (`tests/support/
//! oracle.rs`), and the bombs and traps of those formats.

#[cfg(feature = "cli")]
mod bombs;
mod calendar;
mod office;
mod pdf;
mod shortcut;

use mimebase::{Options, Report, UrlRecord, analyze};

/// A `multipart/mixed` message of a text part and one attachment per `(content type, file
/// name, bytes)`, each base64-encoded (as mail clients send files).
pub fn message_with(files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    message_saying("See the attachments.", files)
}

/// [`message_with`], its text part saying `text`.
pub fn message_saying(text: &str, files: &[(&str, &str, &[u8])]) -> Vec<u8> {
    use base64::Engine as _;
    let mut message = format!("From: sender@example.com\r\nSubject: files\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n").into_bytes();
    for (content_type, name, bytes) in files {
        message.extend_from_slice(
            format!(
                "--b\r\nContent-Type: {content_type}; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            )
            .as_bytes(),
        );
        let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
        for line in encoded.as_bytes().chunks(76) {
            message.extend_from_slice(line);
            message.extend_from_slice(b"\r\n");
        }
    }
    message.extend_from_slice(b"--b--\r\n");
    message
}

/// The report of `message` with the default options.
pub fn report_of(message: &[u8]) -> Report {
    analyze(message, &Options::new())
}

/// The records of part `part` whose source starts with `prefix`.
pub fn records<'r>(report: &'r Report, part: &str, prefix: &str) -> Vec<&'r UrlRecord> {
    report
        .urls
        .iter()
        .filter(|u| u.part.as_str() == part && u.source.to_string().starts_with(prefix))
        .collect()
}
