//! The `mimebase` command: a thin layer over the library (see `cli`).

// Cargo.toml's `[lints]` sets the lints of every target; the binary also forbids unsafe code,
// so that no module of it can allow it.
#![forbid(unsafe_code)]

mod cli;

/// mimalloc for the binary (the `mimalloc` feature, on by default): a scan allocates and frees
/// on every thread for every message, and mimalloc's per-thread heaps keep the threads from
/// contending for one allocator's locks. It is built without transparent huge pages (see
/// `Cargo.toml`).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::run()
}
