//! Mutated archives never make a panic escape.

use zip::write::SimpleFileOptions;
use zip::{AesMode, CompressionMethod};

use super::{Raw, Rng, built, deflated, written, zero_bomb, zipcrypto};
use crate::archive::{Limits, read};

/// Mutated archives (plain, encrypted both ways, hand-built with a bomb) never make a panic
/// escape, and never read past the limits. Each archive gets bit flips, a cut, or bytes
/// spliced in; AES archives fewer, each costing key derivations.
#[test]
fn mutated_archives_never_panic() {
    let rounds: usize = std::env::var("ROOM_MUTATION_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let plain = written(
        &[("a.txt", b"alpha alpha alpha"), ("b/c.xml", b"<c/>")],
        deflated(),
    );
    let stored = written(
        &[("a.txt", b"alpha"), ("d/", b"")],
        SimpleFileOptions::default().compression_method(CompressionMethod::Stored),
    );
    let zipcrypto = zipcrypto(&[("a", b"secret text"), ("b", b"more")], 8, b"pw");
    let aes = written(
        &[("a", b"secret text")],
        deflated().with_aes_encryption(AesMode::Aes256, "pw"),
    );
    let bomb = zero_bomb(100_000);
    let bombed = built(&[Raw {
        name: b"z",
        flags: 0,
        method: 8,
        crc: 0,
        data: &bomb,
        size: 99,
    }]);
    let limits = Limits {
        max_members: 50,
        max_member_bytes: 1 << 16,
        max_total_bytes: 1 << 18,
    };
    let passwords = vec!["pw".to_owned()];
    let mut rng = Rng(0x5eed);
    let mut panics = 0;
    for (original, count) in [
        (plain, 800),
        (stored, 400),
        (zipcrypto, 500),
        (aes, 60),
        (bombed, 300),
    ] {
        for _ in 0..count * rounds {
            let mut bytes = original.clone();
            match rng.below(4) {
                0 => bytes.truncate(rng.below(bytes.len())),
                1 => {
                    let at = rng.below(bytes.len());
                    let junk: Vec<u8> = (0..rng.below(8) + 1).map(|_| rng.next() as u8).collect();
                    bytes.splice(at..at, junk);
                }
                _ => {
                    for _ in 0..=rng.below(3) {
                        let at = rng.below(bytes.len());
                        bytes[at] ^= 1 << rng.below(8);
                    }
                }
            }
            let reading = read(&bytes, &passwords, &limits);
            let total: usize = reading.members.iter().map(|m| m.bytes.len()).sum();
            assert!(total <= limits.max_total_bytes);
            panics += reading
                .problems
                .iter()
                .filter(|p| p.message.contains("panicked"))
                .count();
        }
    }
    println!("zip crate panics caught: {panics}");
}
