//! Helpers shared by the unit tests.

/// Every string of at most `longest` bytes over `alphabet` (the empty one included), shortest
/// first: `alphabet.len()`^0 + … + `alphabet.len()`^`longest` of them.
pub(crate) fn every_string(alphabet: &[u8], longest: usize) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut last = all.clone();
    for _ in 0..longest {
        last = last
            .iter()
            .flat_map(|string| {
                alphabet.iter().map(move |&b| {
                    let mut string = string.clone();
                    string.push(b);
                    string
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// Says that `test` (or part of it) is skipped because `what` is missing: one line on standard
/// error, `skipped: TEST: WHAT is missing`, written to the `Stderr` handle itself so that a
/// plain `cargo test` shows it (libtest captures the print macros' output of a passing test).
/// With `MIMEBASE_REQUIRE_ORACLES` set, as in CI, where `.ci/run` installs every oracle, the
/// test fails instead.
pub(crate) fn skip_missing(test: &str, what: &str) {
    use std::io::Write as _;
    let required = std::env::var_os("MIMEBASE_REQUIRE_ORACLES")
        .is_some_and(|value| !value.is_empty() && value != "0");
    assert!(
        !required,
        "{test}: {what} is missing and MIMEBASE_REQUIRE_ORACLES is set (.ci/run installs it)"
    );
    let _ = std::io::stderr().write_all(format!("skipped: {test}: {what} is missing\n").as_bytes());
}
