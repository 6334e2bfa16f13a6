//! Oracles for the readers of the files a reader opens: calendars, shortcuts, archives,
//! office documents, PDF files, and the stated-password finder. Each `check_*` panics when an
//! invariant of its reader fails, so that libFuzzer reports the input.

use mimebase::fuzzing;

/// The calendar reader: every value maps back into the text, on character boundaries, its
/// pieces in order, and a copied piece is the text's bytes.
pub fn check_calendar(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for property in fuzzing::calendar_properties(&text) {
        let mut shown_end = 0;
        let mut source_end = 0;
        for (shown, source, copied) in &property.pieces {
            assert_eq!(shown.start, shown_end, "pieces follow one another");
            assert!(source.start >= source_end, "sources ascend");
            assert!(source.end <= text.len());
            if *copied {
                assert_eq!(
                    property.value.as_bytes().get(shown.clone()),
                    text.as_bytes().get(source.clone()),
                    "a copied piece is the text's bytes"
                );
            }
            shown_end = shown.end;
            source_end = source.end;
        }
        if !property.pieces.is_empty() {
            assert_eq!(shown_end, property.value.len(), "the map covers the value");
        }
    }
}

/// The shortcut reader: a range is inside the file, and holds the link as written.
pub fn check_shortcut(data: &[u8]) {
    if let Ok((reference, Some(range))) = fuzzing::shortcut_link(data) {
        let written = data
            .get(range.clone())
            .expect("the range is inside the file");
        // An INI value's range holds it as written (quotes and escapes aside); a property
        // list's range is where the URL's bytes were found.
        if !data.starts_with(b"bplist") {
            assert!(
                written == reference.as_bytes() || reference.len() <= written.len(),
                "{range:?}: {reference:?}"
            );
        } else {
            assert_eq!(written, reference.as_bytes());
        }
    }
}

/// The archive reader: within its limits whatever the archive declares, and the password
/// that opened it is one of those given. The first byte chooses the limits.
pub fn check_archive(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let max_member = 1usize << (8 + selector % 12);
    let max_total = max_member * 4;
    let max_members = 1 + usize::from(selector / 12) % 64;
    let passwords = ["secret".to_owned(), String::new(), "infected".to_owned()];
    let (opened, members, _) =
        fuzzing::archive_members(rest, &passwords, max_member, max_total, max_members);
    if let Some(i) = opened {
        assert!(i == usize::MAX || i < passwords.len());
    }
    assert!(members.len() <= max_members, "{} members", members.len());
    let total: usize = members.iter().map(|(_, len)| len).sum();
    assert!(total <= max_total, "{total} bytes");
    assert!(members.iter().all(|(_, len)| *len <= max_member));
}

/// The office reader: every range of an RTF file is inside it, and holds the target's bytes
/// or more (escapes written); a package's ranges are inside their member.
pub fn check_office(data: &[u8]) {
    for (_, target, member, range) in fuzzing::office_links(data, 1 << 20) {
        assert!(range.start <= range.end);
        if member.is_none() {
            assert!(range.end <= data.len(), "{range:?}");
        }
        assert!(!target.is_empty() || range.is_empty() || member.is_some());
    }
}

/// The stated-password finder: bounded, and every candidate is a word of the text.
pub fn check_passwords(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let found = fuzzing::stated_passwords(&text, 16);
    assert!(found.len() <= 16);
    for candidate in &found {
        assert!(!candidate.is_empty() && candidate.chars().count() <= 64);
        assert!(text.contains(candidate.as_str()), "{candidate:?}");
    }
}

/// The PDF reader on objects and streams: within its limits, whatever the file declares. The
/// first byte chooses the limits.
pub fn check_pdf(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let max_decompressed = 1usize << (10 + selector % 12);
    let max_text = 1usize << (6 + selector % 8);
    let max_links = 1 + usize::from(selector / 8);
    let read = fuzzing::pdf_read(rest, &[], max_decompressed, max_text, max_links);
    assert!(read.links.len() <= max_links, "{} links", read.links.len());
    assert!(
        read.text_bytes <= max_text,
        "{} bytes of text",
        read.text_bytes
    );
    assert!(
        read.links
            .iter()
            .all(|(_, page)| page.is_none_or(|p| p >= 1))
    );
}

/// The PDF reader's decryption: the password that opened a file is one of those given, and a
/// file opened by one is read as a file opened by that one alone.
pub fn check_pdf_decryption(data: &[u8]) {
    let passwords = ["nope".to_owned(), "secret123".to_owned(), "123".to_owned()];
    let read = fuzzing::pdf_read(data, &passwords, 1 << 20, 1 << 16, 64);
    if let Some(i) = read.opened.filter(|&i| i != usize::MAX) {
        let password = passwords.get(i).expect("one of those given").clone();
        let alone = fuzzing::pdf_read(data, &[password], 1 << 20, 1 << 16, 64);
        assert_eq!(alone.opened, Some(0));
        assert_eq!(alone.links, read.links);
    }
}
