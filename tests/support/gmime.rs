//! GMime 3, the oracle of parts, types and transfer decoding, through its Python bindings
//! (Debian's `gir1.2-gmime-3.0` and `python3-gi`, which `.ci/run` installs where it can).

use std::process::Command;
use std::sync::OnceLock;

/// The environment variable that names the one interpreter to try instead of the usual ones,
/// so that the path taken where GMime is missing can be run on purpose:
/// `MIMEBASE_GMIME_PYTHON=/path/to/venv/bin/python3 cargo test --test it tree_differential`
/// (a virtual environment has no `gi`) prints why the GMime halves are skipped.
pub const PYTHON_VAR: &str = "MIMEBASE_GMIME_PYTHON";

/// The Python interpreter that can import GMime 3, or why there is none. Debian's bindings
/// belong to the system interpreter, `/usr/bin/python3`, which is tried first, then
/// `python3`; with [`PYTHON_VAR`] set, only the interpreter it names.
pub fn python() -> Result<&'static str, String> {
    const IMPORT: &str =
        "import gi; gi.require_version('GMime', '3.0'); from gi.repository import GMime";
    static CHOSEN: OnceLock<Option<String>> = OnceLock::new();
    let candidates = match CHOSEN.get_or_init(|| std::env::var(PYTHON_VAR).ok()) {
        Some(python) => vec![python.as_str()],
        None => vec!["/usr/bin/python3", "python3"],
    };
    let mut why = Vec::new();
    for python in candidates {
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
