//! Sizes in bytes as the command line takes them (`--max-message-bytes 64M`).

use super::output::escape;

/// A size in bytes: a number (digits, or digits, `.` and more digits), then optionally `K`,
/// `M`, `G` (or `KiB`, …: powers of 1024) or `KB`, `MB`, `GB` (powers of 1000),
/// case-insensitive, as GNU coreutils reads sizes. A fraction is taken too (`1.5M` is 1572864
/// bytes), rounded down to a whole byte; a fraction of a byte with no suffix is refused.
pub(super) fn parse_bytes(text: &str) -> Result<u64, String> {
    let not_a_size = || {
        format!(
            "\"{}\" is not a size in bytes (e.g. 1048576, 64M, 1.5G)",
            escape(text)
        )
    };
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (whole, rest) = text.split_at(digits);
    let (fraction, suffix) = match rest.strip_prefix('.') {
        Some(rest) => {
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (fraction, suffix) = rest.split_at(digits);
            if fraction.is_empty() {
                return Err(not_a_size());
            }
            (fraction, suffix)
        }
        None => ("", rest),
    };
    let whole: u64 = whole.parse().map_err(|_| not_a_size())?;
    let unit: u64 = match suffix.to_ascii_lowercase().as_str() {
        "" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        _ => {
            return Err(format!(
                "unknown size suffix \"{}\" (K, M, G, KB, MB, GB)",
                escape(suffix)
            ));
        }
    };
    if unit == 1 && !fraction.is_empty() {
        return Err(format!(
            "\"{}\" is a fraction of a byte: give whole bytes or a suffix (K, M, G, KB, MB, GB)",
            escape(text)
        ));
    }
    // The fraction's bytes, unit × 0.DIGITS rounded down, from its first 18 digits (those fit
    // in a u64; the ones after them change the product by far less than a byte).
    let kept = fraction.get(..fraction.len().min(18)).unwrap_or_default();
    let fraction_bytes = if kept.is_empty() {
        0
    } else {
        let numerator: u64 = kept.parse().map_err(|_| not_a_size())?;
        let denominator = 10u64.pow(u32::try_from(kept.len()).unwrap_or(18));
        u64::try_from(u128::from(numerator) * u128::from(unit) / u128::from(denominator))
            .unwrap_or(u64::MAX)
    };
    whole
        .checked_mul(unit)
        .and_then(|bytes| bytes.checked_add(fraction_bytes))
        .ok_or_else(|| format!("\"{}\" is more bytes than can be counted", escape(text)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_take_coreutils_suffixes() {
        for (text, bytes) in [
            ("1048576", 1 << 20),
            ("64M", 64 << 20),
            ("64m", 64 << 20),
            ("64MiB", 64 << 20),
            ("2K", 2048),
            ("1G", 1 << 30),
            ("5MB", 5_000_000),
            ("1kb", 1000),
        ] {
            assert_eq!(super::parse_bytes(text), Ok(bytes), "{text}");
        }
        // Fractions, rounded down to a whole byte.
        for (text, bytes) in [
            ("1.5M", 1_572_864),
            ("0.5k", 512),
            ("1.5MB", 1_500_000),
            ("0.1K", 102),
            ("2.0G", 2 << 30),
            ("1.0000000001G", 1 << 30),
            ("0.0000000000000000000009G", 0),
        ] {
            assert_eq!(super::parse_bytes(text), Ok(bytes), "{text}");
        }
        for bad in [
            "",
            "M",
            "1T",
            "1.M",
            ".5M",
            "1.5",
            "1.5.5M",
            "-1",
            "99999999999999999999G",
        ] {
            assert!(super::parse_bytes(bad).is_err(), "{bad}");
        }
    }
}
