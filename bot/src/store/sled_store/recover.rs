//! What a start clears by itself ([`leftovers`]), and the way back from real damage
//! ([`restore_hint`]).

use std::path::{Path, PathBuf};

use crate::store::backups;

/// Removes what an interrupted sled leaves in `dir` that would stop every later
/// start: `snap.*.generating` files. sled writes a snapshot under that name, syncs it,
/// then renames it into place, and keeps the previous snapshot until then; a start on
/// a full disk (or a crash) leaves the file empty or cut, and sled 0.34 then takes it
/// for the newest snapshot and fails with "Read corrupted data at file offset None"
/// forever. Such a file is never a finished snapshot, so removing it brings back the
/// state sled had before it began. Returns the files removed.
///
/// # Errors
/// When the directory cannot be read or a file removed.
pub fn leftovers(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        // A new database: nothing left over.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("snap.") && name.ends_with(".generating") {
            tracing::warn!(
                file = %entry.path().display(),
                "removing a snapshot sled did not finish (a crash or a full disk): the previous one stands"
            );
            std::fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    if !removed.is_empty() {
        // The removal must outlive a crash, or the next start meets the file again.
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(removed)
}

/// How to restore the database in `dir` from an export: with the exact command when
/// the bot's own exports are in `dir/backups` (the default of `backup_dir`).
#[must_use]
pub fn restore_hint(dir: &Path) -> String {
    let aside = PathBuf::from(format!("{}.damaged", dir.display()));
    let (shown, aside_shown) = (quoted(dir), quoted(&aside));
    match backups::newest(&backups::default_dir(dir)) {
        Some(newest) => {
            let name = newest.file_name().map(PathBuf::from).unwrap_or_default();
            let file = quoted(&backups::default_dir(&aside).join(name));
            format!(
                "the database is in {shown}; restore it from an export: stop the bot, then run \
                 `mv {shown} {aside_shown} && stonemate import --data {shown} {file}` \
                 (the newest export the bot wrote; a newer one from `stonemate export` or another \
                 `backup_dir` is better), and start the bot again"
            )
        }
        None => format!(
            "the database is in {shown}; restore it from an export: stop the bot, then run \
             `mv {shown} {aside_shown} && stonemate import --data {shown} FILE` with FILE the newest \
             export (the bot writes them into `backup_dir` when `backup_every_hours` is set, or \
             `stonemate export` made one), and start the bot again"
        ),
    }
}

/// A path as a shell reads it back.
fn quoted(path: &Path) -> String {
    let text = path.display().to_string();
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) { text } else { format!("'{}'", text.replace('\'', "'\\''")) }
}

#[cfg(test)]
mod tests {
    use crate::store::SledStore;
    use crate::store::error::StoreError;
    use crate::store::sled_store::testing::database;

    #[test]
    fn damaged_sled_files_stop_with_the_directory_and_the_exact_restore_command() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("db");
        database(&dir, 3);
        let backups = dir.join("backups");
        std::fs::create_dir_all(&backups).unwrap();
        for name in ["stonemate-20261101T000000Z.jsonl", "stonemate-20261120T060000Z.jsonl", "notes.txt"] {
            std::fs::write(backups.join(name), b"").unwrap();
        }
        // A finished snapshot that is garbage: not a leftover, real damage.
        std::fs::write(dir.join("snap.00000000FFFFFFFF"), b"garbage, not a snapshot").unwrap();
        let error = SledStore::open(&dir).unwrap_err();
        let StoreError::Damaged(message) = &error else { panic!("{error:?}") };
        let shown = dir.display();
        assert!(message.starts_with(&format!("the database is damaged: sled's files in {shown}")), "{message}");
        let command = format!(
            "`mv {shown} {shown}.damaged && stonemate import --data {shown} \
             {shown}.damaged/backups/stonemate-20261120T060000Z.jsonl`"
        );
        assert!(message.contains(&command), "{message}");
    }
}
