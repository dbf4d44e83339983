//! Reading a sled database the process may not write ([`ReadOnlyCopy`]): a backup on
//! read-only media, a directory of another user. sled 0.34 writes at every open (its lock,
//! a new snapshot, its log's free segments zeroed), so such a directory is read from a copy.

use std::path::{Path, PathBuf};

/// A copy of a read-only sled directory, in the temporary directory, removed when dropped.
#[derive(Debug)]
pub struct ReadOnlyCopy {
    dir: PathBuf,
}

impl ReadOnlyCopy {
    /// A copy of the database in `dir` when the process may not write its log (`db`);
    /// `None` when it may, or when there is no log (nothing to copy: sled makes a new
    /// database, or says why it cannot). Nothing in `dir` is written.
    ///
    /// # Errors
    /// When the copy cannot be made (a full temporary directory), with both places named.
    pub fn of(dir: &Path) -> Result<Option<ReadOnlyCopy>, String> {
        let log = dir.join("db");
        if !log.is_file() || !refuses_writes(&log) {
            return Ok(None);
        }
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let name = format!("stonemate-read-{}-{}", std::process::id(), nanos.as_nanos());
        let copy = ReadOnlyCopy { dir: std::env::temp_dir().join(name) };
        copy_tree(dir, &copy.dir).map_err(|error| {
            format!(
                "{} is read-only, and sled writes whatever it opens: it is read from a copy, and \
                 the copy into {} failed ({error}); set TMPDIR to a directory with room",
                dir.display(),
                copy.dir.display()
            )
        })?;
        Ok(Some(copy))
    }

    /// Where the copy is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for ReadOnlyCopy {
    fn drop(&mut self) {
        if let Err(error) = std::fs::remove_dir_all(&self.dir) {
            tracing::warn!(copy = %self.dir.display(), %error, "cannot remove the copy of a read-only database");
        }
    }
}

/// Whether opening `file` for writing is refused (permissions, a read-only file system).
/// Opening it writes nothing.
fn refuses_writes(file: &Path) -> bool {
    match std::fs::OpenOptions::new().write(true).open(file) {
        Ok(_) => false,
        Err(error) => {
            matches!(error.kind(), std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem)
        }
    }
}

/// Copies the directory `from` into a new directory `to`, files writable by their owner
/// (a copy of read-only files keeps their mode, which sled could not open).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
            let mut permissions = std::fs::metadata(&target)?.permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o600);
            std::fs::set_permissions(&target, permissions)?;
        }
    }
    Ok(())
}
