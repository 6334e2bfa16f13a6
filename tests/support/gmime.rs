//! GMime 3, the oracle of parts, types and transfer decoding, through its Python bindings
//! (Debian's `gir1.2-gmime-3.0` and `python3-gi`, which `.ci/run` installs where it can).

use std::process::Command;

/// The Python interpreter that can import GMime 3, or why there is none. Debian's bindings
/// belong to the system interpreter, `/usr/bin/python3`, which is tried first.
pub fn python() -> Result<&'static str, String> {
    const IMPORT: &str =
        "import gi; gi.require_version('GMime', '3.0'); from gi.repository import GMime";
    let mut why = Vec::new();
    for python in ["/usr/bin/python3", "python3"] {
        match Command::new(python).args(["-c", IMPORT]).output() {
            Ok(output) if output.status.success() => return Ok(python),
            Ok(output) => {
                let stderr = String::from_utf8_lossy(&output.stderr);
                let last = stderr.lines().last().unwrap_or("").to_owned();
                why.push(format!("{python}: {last}"));
            }
            Err(error) => why.push(format!("{python}: {error}")),
        }
    }
    Err(format!(
        "GMime 3 cannot be imported ({}); install Debian's gir1.2-gmime-3.0 and python3-gi",
        why.join("; ")
    ))
}
