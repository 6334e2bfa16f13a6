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
