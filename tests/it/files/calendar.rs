//! Calendar invitations (RFC 5545), compared with Python's `icalendar`.

use std::collections::BTreeSet;

use base64::Engine as _;
use mimebase::{DocumentKind, UrlSource};
use pretty_assertions::assert_eq;

use super::{message_with, records, report_of};
use crate::support::oracle;

/// What `icalendar` reads of each property that holds links: `(name, kind, value)` lines as
/// JSON, `kind` `uri`, `text` or `html`; for HTML the `href` and `src` values of its elements
/// (Python's `html.parser`), for text the value unescaped.
const ICALENDAR: &str = r#"
import icalendar, json, sys
from html.parser import HTMLParser
class Links(HTMLParser):
    def __init__(self):
        super().__init__(); self.found = []
    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.found.append(value)
cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
out = []
for component in cal.walk():
    for name, value in component.property_items(recursive=False):
        name = name.upper()
        values = value if isinstance(value, list) else [value]
        for v in values:
            params = getattr(v, "params", {})
            if name in ("URL", "ATTACH", "CONFERENCE"):
                if name == "ATTACH" and (params.get("VALUE", "").upper() == "BINARY" or params.get("ENCODING", "").upper() == "BASE64"):
                    continue
                out.append([name, "uri", str(v)])
            elif name in ("X-ALT-DESC", "STYLED-DESCRIPTION") and params.get("FMTTYPE", "").lower() == "text/html":
                parser = Links(); parser.feed(str(v)); parser.close()
                for link in parser.found:
                    out.append([name, "html", link])
            elif name in ("DESCRIPTION", "LOCATION", "SUMMARY", "COMMENT", "X-ALT-DESC", "STYLED-DESCRIPTION"):
                out.append([name, "text", str(v)])
print(json.dumps(out))
"#;

/// Calendars in the shapes senders write: folded lines (also inside a URL and inside a UTF-8
/// sequence), TEXT escapes, quoted parameters, an inline binary attachment, LF and CRLF.
const CALENDARS: &[&str] = &[
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:1@example.com\r\nDTSTAMP:20261201T100000Z\r\nDTSTART:20261202T100000Z\r\nSUMMARY:Quarterly review\r\nURL:https://portal.example.com/events/1\r\nATTACH;FMTTYPE=application/pdf:https://files.example.net/agenda.pdf\r\nATTACH;ENCODING=BASE64;VALUE=BINARY;FMTTYPE=text/plain:aGVsbG8=\r\nDESCRIPTION:Join the call at https://meet.example.org/j/1234567 or dial in.\\nBackup: www.backup.example.com/room\r\nLOCATION:Online\\, see https://loc.example.com/map\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
    "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Test//EN\nBEGIN:VEVENT\nUID:2@example.com\nDTSTAMP:20261201T100000Z\nDTSTART:20261202T100000Z\nSUMMARY:Réunion – https://résumé.example.fr/ça\nDESCRIPTION:Une très longue description qui se poursuit sur la ligne suiva\n nte avec un lien https://long.example.com/a/very/long/pa\n th?with=query&and=more\nCOMMENT:Voir aussi https://comment.example.com/x\nX-ALT-DESC;FMTTYPE=text/html:<!DOCTYPE html><html><body><p>Rejoindre <a href=\"https://html.example.com/join?id=1&amp;x=2\">ici</a><img src=\"https://img.example.com/logo.png\"></p></body></html>\nCONFERENCE;VALUE=URI;FEATURE=VIDEO;LABEL=\"Join: now\":https://video.example.com/r/9\nEND:VEVENT\nEND:VCALENDAR\n",
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:3@example.com\r\nDTSTAMP:20261201T100000Z\r\nSUMMARY:Pay the invoice\r\nDESCRIPTION:Pay at\\nhttps://pay.example.com/inv?a=1\\;b=2\r\nX-ALT-DESC;FMTTYPE=text/plain:plain https://plain-alt.example.com/\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
];

/// The URLs a reader of `text` is shown as links: the `http://`, `https://` and `www.` runs
/// (to white space, trailing punctuation taken off), found by hand, independently of the
/// library's linkifier.
fn text_urls(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace())
        .filter_map(|word| {
            let start = ["https://", "http://", "www."]
                .iter()
                .filter_map(|p| word.find(p))
                .min()?;
            let url = word[start..].trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
            Some(if url.starts_with("www.") {
                format!("http://{url}")
            } else {
                url.to_owned()
            })
        })
        .collect()
}

#[test]
fn calendar_links_match_icalendar() {
    let Some(python) = oracle::python(&["icalendar"]) else {
        return;
    };
    let dir = crate::support::workdir("calendar_links_match_icalendar");
    for (i, calendar) in CALENDARS.iter().enumerate() {
        let path = dir.join(format!("{i}.ics"));
        std::fs::write(&path, calendar).unwrap();
        let oracle: Vec<(String, String, String)> =
            serde_json::from_str(&oracle::run_python(python, ICALENDAR, &[&path])).unwrap();
        let mut expected = BTreeSet::new();
        for (name, kind, value) in &oracle {
            match kind.as_str() {
                "text" => {
                    for url in text_urls(value) {
                        expected.insert((name.clone(), url));
                    }
                }
                _ => {
                    expected.insert((name.clone(), value.clone()));
                }
            }
        }
        for content_type in ["text/calendar; method=REQUEST", "application/octet-stream"] {
            let message = message_with(&[(content_type, "invite.ics", calendar.as_bytes())]);
            let report = report_of(&message);
            let entity = &report.entities[2];
            assert_eq!(
                entity.document.map(|d| d.kind),
                Some(DocumentKind::Calendar),
                "{i}"
            );
            let found: BTreeSet<(String, String)> = records(&report, "2", "calendar:")
                .into_iter()
                .map(|u| {
                    let UrlSource::File(file) = &u.source else {
                        panic!("{u:?}")
                    };
                    (
                        file.place.to_string(),
                        u.resolution.resolved().unwrap().to_owned(),
                    )
                })
                .collect();
            assert_eq!(found, expected, "calendar {i}, {content_type}");
        }
    }
}

#[test]
fn calendar_ranges_are_where_the_links_are_written() {
    let calendar = CALENDARS[1];
    let message = message_with(&[("text/calendar", "invite.ics", calendar.as_bytes())]);
    let report = report_of(&message);
    let links = records(&report, "2", "calendar:");
    assert!(links.len() >= 6, "{links:#?}");
    for url in links {
        let UrlSource::File(file) = &url.source else {
            panic!()
        };
        let range = file.range.unwrap();
        let written = &calendar.as_bytes()[range.start..range.end];
        let unfolded = String::from_utf8(written.to_vec())
            .unwrap()
            .replace("\n ", "")
            .replace("&amp;", "&");
        assert_eq!(unfolded, url.reference, "{url:?}");
    }
}

#[test]
fn an_inline_binary_attachment_is_no_link_and_a_bad_calendar_is_read_as_far_as_it_goes() {
    let encoded = base64::engine::general_purpose::STANDARD.encode("https://inside.example/");
    let calendar = format!(
        "BEGIN:VCALENDAR\nATTACH;VALUE=BINARY;ENCODING=BASE64:{encoded}\nthis line is no property\nURL\n:\nURL:https://after.example/\n"
    );
    let message = message_with(&[("text/calendar", "x.ics", calendar.as_bytes())]);
    let report = report_of(&message);
    let found: Vec<&str> = records(&report, "2", "calendar:")
        .iter()
        .map(|u| u.reference.as_str())
        .collect();
    assert_eq!(found, ["https://after.example/"]);
}
