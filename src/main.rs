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

fn main() -> std::process::ExitCode {
    cli::run()
}
