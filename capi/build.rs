//! Gives the shared library its SONAME, `libmimebase.so.0`: programs linked with it record that
//! name and find any `libmimebase.so.0.*` the dynamic linker knows by it, so that a release
//! that keeps the ABI replaces the file without relinking them. The major version is bumped
//! (`libmimebase.so.1`) when the ABI breaks (README.md, "ABI stability").

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os.ends_with("bsd") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmimebase.so.0");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
