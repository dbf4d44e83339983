//! The names of the exports the bot writes of its own database (`backup_every_hours`):
//! what a file is called, which files are ours, and the newest of them. The scheduled
//! exports ([`crate::backup`]) write and prune by these names; the store names the newest
//! in the way back from damage (the sled store's `recover::restore_hint`).
//!
//! File names are `stonemate-YYYYMMDDTHHMMSSZ.jsonl` (UTC), so they sort by time; a file
//! being written is hidden (`.stonemate-….jsonl.tmp`) until it is complete.

use std::fs;
use std::path::{Path, PathBuf};

use crate::clock::Timestamp;

const PREFIX: &str = "stonemate-";
const SUFFIX: &str = ".jsonl";
/// `YYYYMMDDTHHMMSSZ`: fixed width, so names sort as times do.
const STAMP_LEN: usize = 16;
/// Temporary files start with a dot (hidden, never taken for an export) and end so.
const TEMPORARY_SUFFIX: &str = ".tmp";

/// Where the exports of a sled database in `database` go unless `backup_dir` says
/// otherwise: `backups` inside its directory.
#[must_use]
pub fn default_dir(database: &Path) -> PathBuf {
    database.join("backups")
}

/// The name of the export written at `now`: `stonemate-20261124T083000Z.jsonl`.
#[must_use]
pub fn file_name(now: Timestamp) -> String {
    let instant = jiff::Timestamp::from_millisecond(now.0).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    format!("{PREFIX}{}{SUFFIX}", instant.strftime("%Y%m%dT%H%M%SZ"))
}

/// The name an export called `name` has while it is written.
#[must_use]
pub fn temporary_name(name: &str) -> String {
    format!(".{name}{TEMPORARY_SUFFIX}")
}

/// The newest export the bot wrote in `dir` (`None`: none, or no such directory).
#[must_use]
pub fn newest(dir: &Path) -> Option<PathBuf> {
    let names = fs::read_dir(dir).ok()?.filter_map(|entry| entry.ok()?.file_name().into_string().ok());
    // Names sort as their times do.
    names.filter(|name| is_export(name)).max().map(|name| dir.join(name))
}

/// Whether `name` is the temporary file of one of our exports.
#[must_use]
pub fn is_temporary(name: &str) -> bool {
    name.strip_prefix('.').and_then(|rest| rest.strip_suffix(TEMPORARY_SUFFIX)).is_some_and(is_export)
}

/// Whether `name` is one of our exports (and so may be pruned).
#[must_use]
pub fn is_export(name: &str) -> bool {
    let stamp = name.strip_prefix(PREFIX).and_then(|rest| rest.strip_suffix(SUFFIX));
    stamp.is_some_and(|stamp| {
        stamp.len() == STAMP_LEN
            && stamp.bytes().enumerate().all(|(i, byte)| match i {
                8 => byte == b'T',
                15 => byte == b'Z',
                _ => byte.is_ascii_digit(),
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Span;

    const START: Timestamp = Timestamp(1_795_000_000_000);

    #[test]
    fn file_names_sort_by_time() {
        assert_eq!(file_name(START), "stonemate-20261118T110640Z.jsonl");
        let later = [START + Span(1000), START + Span::HOUR, START + Span::DAY * 400];
        for time in later {
            assert!(file_name(START) < file_name(time), "{}", file_name(time));
            assert!(is_export(&file_name(time)));
        }
        for other in ["stonemate-data", "stonemate-20261117T184640Z.json", "stonemate-2026111xT184640Z.jsonl", "notes"]
        {
            assert!(!is_export(other), "{other}");
        }
    }

    #[test]
    fn a_temporary_file_is_told_from_the_export_it_becomes() {
        let name = file_name(START);
        assert!(is_temporary(&temporary_name(&name)) && !is_export(&temporary_name(&name)));
        assert!(!is_temporary(&name) && !is_temporary(".notes.tmp"));
    }

    #[test]
    fn the_newest_export_is_found_among_other_files() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(newest(&dir.path().join("none")), None);
        for name in [file_name(START), file_name(START + Span::DAY), temporary_name(&file_name(START + Span::DAY * 2))]
        {
            fs::write(dir.path().join(name), b"").unwrap();
        }
        fs::write(dir.path().join("notes.txt"), b"").unwrap();
        assert_eq!(newest(dir.path()), Some(dir.path().join(file_name(START + Span::DAY))));
    }
}
