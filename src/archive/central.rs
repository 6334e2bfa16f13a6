//! Reading an archive through its central directory (APPNOTE.TXT §4.3.12–16), as unzip tools
//! and mail clients do.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use zip::ZipArchive;
use zip::result::ZipError;

use super::collect::{Attempt, Collector, guarded, read_bounded};
use super::{Problem, ProblemKind, names};

/// An archive over the caller's bytes.
type Archive<'b> = ZipArchive<Cursor<&'b [u8]>>;

/// Reads the members of `bytes` that `wanted` accepts into `collector`.
///
/// # Errors
///
/// A [`ProblemKind::Broken`] problem when no central directory can be read; the caller then
/// walks the local headers.
pub(super) fn read(
    bytes: &[u8],
    collector: &mut Collector<'_>,
    wanted: &mut dyn FnMut(&str) -> bool,
) -> Result<(), Problem> {
    let mut archive = match catch_unwind(|| ZipArchive::new(Cursor::new(bytes))) {
        Ok(Ok(archive)) => archive,
        Ok(Err(error)) => {
            return Err(Problem::new(
                ProblemKind::Broken,
                None,
                format!("no central directory can be read, local headers are walked: {error}"),
            ));
        }
        Err(_) => {
            return Err(Problem::new(
                ProblemKind::Broken,
                None,
                "no central directory can be read, local headers are walked: the zip reader panicked",
            ));
        }
    };
    if archive.has_duplicate_names() {
        collector.problem(Problem::new(
            ProblemKind::Broken,
            None,
            "members with the same name: only the last entry of each is read",
        ));
    }
    for index in 0..archive.len() {
        if collector.is_stopped() {
            break;
        }
        let Some((name, is_encrypted)) = entry(&archive, index) else {
            collector.problem(Problem::new(
                ProblemKind::Broken,
                None,
                format!("central directory entry {index} cannot be read"),
            ));
            continue;
        };
        let Some(name) = name else { continue };
        if !wanted(&name) {
            continue;
        }
        collector.take(&name, is_encrypted, &mut |password, limit| {
            guarded(|| open_and_read(&mut archive, index, password, limit))
        });
    }
    Ok(())
}

/// The decoded name of entry `index` (`None` for a directory) and whether it is encrypted;
/// `None` when the entry cannot be had.
fn entry(archive: &Archive<'_>, index: usize) -> Option<(Option<String>, bool)> {
    catch_unwind(AssertUnwindSafe(|| {
        let entry = archive.by_index_data(index).ok()?;
        let name =
            (!entry.is_dir()).then(|| names::decode(entry.name_raw(), entry.flags().as_u16()));
        Some((name, entry.encrypted()))
    }))
    .ok()
    .flatten()
}

/// Opens entry `index` with `password` (`None` when it is not encrypted) and reads at most
/// `limit` bytes of it (one more to tell a larger member).
fn open_and_read(
    archive: &mut Archive<'_>,
    index: usize,
    password: Option<&[u8]>,
    limit: usize,
) -> Attempt {
    let file = match password {
        None => archive.by_index(index),
        Some(password) => archive.by_index_decrypt(index, password),
    };
    match file {
        Ok(file) => {
            let declared = file.size();
            Attempt::Read(read_bounded(file, declared, limit))
        }
        Err(ZipError::InvalidPassword) => Attempt::WrongPassword,
        Err(error) => Attempt::Failed(error),
    }
}
