//! `include/mimebase.h` is what cbindgen makes of this crate with `cbindgen.toml`: the test
//! regenerates it and fails when the checked-in header differs (a change to an exported item
//! without the header regenerated). `MIMEBASE_BLESS=1` writes the new header instead.

use std::path::Path;

#[test]
fn the_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .unwrap();
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = crate_dir.join("include/mimebase.h");
    if std::env::var_os("MIMEBASE_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "{} is stale: regenerate it with `MIMEBASE_BLESS=1 cargo test -p mimebase-capi --test header` and commit it",
        path.display()
    );
}
