//! Fuzzes the three resolvers with their oracles: the first byte selects the resolver
//! (`% 3`, in the order of `Resolver::ALL`), the rest is `base '\n' reference`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mimebase::url::Resolver;

fuzz_target!(|data: &[u8]| {
    if let Some((&selector, rest)) = data.split_first() {
        let resolver = Resolver::ALL[usize::from(selector) % Resolver::ALL.len()];
        mimebase_fuzz::run(resolver, rest);
    }
});
