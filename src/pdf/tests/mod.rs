//! Tests of the PDF room: files written by hand ([`build`]), compared with pypdf and qpdf
//! where they can be ([`tools`]).

mod bombs;
mod build;
mod crypt;
mod links;
mod oracle;
mod strings;
mod tools;

use super::{Limits, Link, Opened, ProblemKind, Reading, read};

/// [`read`] with the default limits and no password.
fn read_plain(bytes: &[u8]) -> Reading {
    read(bytes, &[], &Limits::default())
}

/// The links as (place, target) pairs.
fn places(reading: &Reading) -> Vec<(&'static str, &str)> {
    reading
        .links
        .iter()
        .map(|link| (link.place.as_str(), link.target.as_str()))
        .collect()
}

/// The link whose target is `target`.
#[track_caller]
fn link<'a>(reading: &'a Reading, target: &str) -> &'a Link {
    reading
        .links
        .iter()
        .find(|link| link.target == target)
        .unwrap_or_else(|| panic!("no link {target:?} in {:#?}", reading.links))
}

/// Asserts that the reading has no problems.
#[track_caller]
fn assert_clean(reading: &Reading) {
    assert!(
        reading.problems.is_empty(),
        "problems: {:#?}",
        reading.problems
    );
}

/// Asserts that a problem of `kind` was reported.
#[track_caller]
fn assert_problem(reading: &Reading, kind: ProblemKind) {
    assert!(
        reading.problems.iter().any(|p| p.kind == kind),
        "no {kind:?} problem in {:#?}",
        reading.problems
    );
}

/// Asserts that every URI pypdf reads from the link annotations of `bytes` is among the
/// links of `reading` (the oracle of the tests that can have one).
#[track_caller]
fn assert_oracle(name: &str, bytes: &[u8], reading: &Reading, password: Option<&str>) {
    let Some(uris) = tools::pypdf_uris(name, bytes, password) else {
        return;
    };
    for uri in &uris {
        assert!(
            reading.links.iter().any(|link| &link.target == uri),
            "{name}: pypdf reads {uri:?}, the room does not: {:#?}",
            reading.links
        );
    }
}

/// Asserts that the file is read as not encrypted.
#[track_caller]
fn assert_not_encrypted(reading: &Reading) {
    assert_eq!(reading.opened, Opened::NotEncrypted);
    assert_eq!(reading.encryption, None);
}
