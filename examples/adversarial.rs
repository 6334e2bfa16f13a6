//! Writes the adversarial inputs of `tests/support/adversarial.rs` into a directory, for
//! `scripts/adversarial` to time the release binary on them.
//!
//! Usage: `cargo run --release --example adversarial -- DIR`

// Test code, which may index (and uses only part of it here).
#[path = "../tests/support/adversarial.rs"]
#[allow(dead_code, clippy::indexing_slicing)]
mod adversarial;

fn main() -> std::io::Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .ok_or_else(|| std::io::Error::other("usage: adversarial DIR"))?;
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir)?;
    for (name, bytes) in adversarial::all() {
        std::fs::write(dir.join(format!("{name}.eml")), bytes)?;
    }
    Ok(())
}
