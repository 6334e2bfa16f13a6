//! The `mimebase` command: a thin layer over the library (see `cli`).

#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

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
