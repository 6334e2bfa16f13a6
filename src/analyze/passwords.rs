//! The passwords a message states for its encrypted files ([`password`]), gathered from its
//! text and HTML parts: those a reader reads, chosen by media type (`text/plain`,
//! `text/enriched`, and the HTML types), in document order.
//!
//! This runs only for a message with an encrypted file that the empty password does not
//! open, so that the parts are decoded a second time only then.

use encoding_rs::Encoding;

use super::text::decode_text;
use super::text_encoding;
use crate::html::visible::visible_text;
use crate::mime::{self, Walk};
use crate::options::Options;
use crate::password;
use crate::report::PartId;

/// A password the message states, and the part that states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StatedPassword {
    /// The password, as written.
    pub password: String,
    /// The text or HTML part that states it.
    pub part: PartId,
}

/// The passwords the text and HTML parts of the message state, in the order to try them (by
/// part, in document order, then as [`password::stated`] orders them), at most
/// [`Options::with_max_passwords`].
pub(crate) fn stated_passwords(walk: &Walk, raw: &[u8], options: &Options) -> Vec<StatedPassword> {
    let max = options.max_passwords();
    let mut stated: Vec<StatedPassword> = Vec::new();
    for entity in &walk.entities {
        if stated.len() >= max {
            break;
        }
        let content_type = &entity.content_type;
        let is_text = content_type.media_type == "text"
            && matches!(content_type.subtype.as_str(), "plain" | "enriched");
        if !is_text && !content_type.is_html() {
            continue;
        }
        // Diagnostics of these parts were given when they were read for links.
        let mut ignored = Vec::new();
        let body = mime::decoded_body(walk.bytes(raw, entity.buffer), entity, &mut ignored);
        let text = if is_text {
            decode_text(&body, entity, &mut ignored).into_owned()
        } else {
            let (encoding, _): (&'static Encoding, bool) = text_encoding(&body, content_type);
            let (html, _) = encoding.decode_without_bom_handling(&body);
            match visible_text(&html) {
                Some(text) => text,
                None => continue,
            }
        };
        for candidate in password::stated(&text, max) {
            if stated.len() >= max {
                break;
            }
            if !stated.iter().any(|s| s.password == candidate) {
                stated.push(StatedPassword {
                    password: candidate,
                    part: entity.part.clone(),
                });
            }
        }
    }
    stated
}
