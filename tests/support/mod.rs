//! What the integration tests share: the generated adversarial messages, a deterministic PRNG,
//! and running the `mimebase` binary.

pub mod adversarial;
#[cfg(feature = "cli")]
pub mod cli;
pub mod xorshift;
