//! The settings sled fixes when it makes a database ([`Storage`]), read back from its
//! `conf` so that every database opens with its own, and those of a new one
//! ([`sled_config`]).

use std::path::Path;

/// The zstd level of a compressed database: zstd's own default, fast enough to cost a turn
/// little beside the sync (a page of records compresses in tens of microseconds).
const COMPRESSION_LEVEL: i32 = 3;

/// The log segment of a new database: 64 KiB (sled's own is 512 KiB).
///
/// At every start sled 0.34 reads again, from its beginning, the segment its snapshot ends
/// in (`raw_segment_iter_from` starts at the segment's first byte and skips what the
/// snapshot holds only after reading it), and in a compressed database it decompresses
/// each message read with a new zstd context (`maybe_decompress`, tens of microseconds
/// each): a start costs up to one segment of small messages. Measured at 100,000 games
/// after 2,000 turns (a sled-only harness, loaded machine, five starts each): 410-470 ms a
/// start with 512 KiB segments, 110-180 ms with 128 KiB, 64-115 ms with 64 KiB, and the
/// disk shrinks too (docs/scaling.md). sled also needs a new segment's room on the disk
/// sooner with small segments; since notices keep what to draw instead of their PNG, a
/// turn writes little enough that a bot on a filling disk still confirms a dozen turns
/// or more before it stops (`bot/tests/full_disk.rs`). Each database keeps the segments
/// it was made with ([`Storage::of`]): older ones stay at 512 KiB.
pub(super) const SEGMENT_BYTES: usize = 64 * 1024;

/// sled's settings for the database in `dir`: those it was made with ([`Storage::of`]),
/// since sled 0.34 refuses to open a database with others, so that databases made before
/// compression or with sled's default segments still open; a new database compresses its
/// log with zstd (a page holds up to 16 records of one layout, so that they shrink well) in
/// segments of [`SEGMENT_BYTES`]. Tools that open the directory with sled alone use this.
#[must_use]
pub fn sled_config(dir: &Path) -> sled::Config {
    let storage = Storage::of(dir);
    sled::Config::new()
        .path(dir)
        .use_compression(storage.compressed)
        .compression_factor(COMPRESSION_LEVEL)
        .segment_size(storage.segment_bytes)
}

/// The settings sled fixes when it makes a database (its `conf` file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Storage {
    compressed: bool,
    segment_bytes: usize,
}

impl Storage {
    /// What a new database gets.
    const NEW: Storage = Storage { compressed: true, segment_bytes: SEGMENT_BYTES };
    /// sled's defaults: what databases made before the store chose its own settings use.
    const SLED_DEFAULT: Storage = Storage { compressed: false, segment_bytes: 512 * 1024 };

    /// The settings of the database in `dir`, as its `conf` says; a directory without a
    /// log (`db`) is a new database; a log without `conf` (sled writes a lost one again
    /// from the settings given) was made with sled's defaults, as were the databases from
    /// before these settings.
    fn of(dir: &Path) -> Storage {
        match std::fs::read(dir.join("conf")) {
            Ok(conf) => Storage::parse(&conf),
            Err(_) if dir.join("db").exists() => Storage::SLED_DEFAULT,
            Err(_) => Storage::NEW,
        }
    }

    /// Reads sled's `conf`: lines of `key: value`, then a 4-byte checksum. A setting that
    /// is missing or unreadable keeps sled's default, so that sled itself judges the file.
    fn parse(conf: &[u8]) -> Storage {
        let text = conf.get(..conf.len().saturating_sub(4)).unwrap_or_default();
        let mut storage = Storage::SLED_DEFAULT;
        for line in String::from_utf8_lossy(text).lines() {
            let Some((key, value)) = line.split_once(": ") else { continue };
            match key.trim() {
                "use_compression" => storage.compressed = value.trim() == "true",
                "segment_size" => {
                    storage.segment_bytes = value.trim().parse().unwrap_or(Storage::SLED_DEFAULT.segment_bytes);
                }
                _ => {}
            }
        }
        storage
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SledStore;
    use crate::store::check::sample_record;
    use crate::store::sled_store::testing::open_when_free_store;

    /// A `conf` as sled writes it: its lines, then a checksum (any 4 bytes for the parse).
    fn conf(text: &str) -> Vec<u8> {
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(b"\n:\x0a ");
        bytes
    }

    #[test]
    fn sleds_conf_is_read_line_by_line() {
        let compressed = conf("segment_size: 131072\nuse_compression: true\nversion: 0.34\n");
        assert_eq!(Storage::parse(&compressed), Storage { compressed: true, segment_bytes: 131_072 });
        // A value that merely contains the words is no setting.
        let plain = conf("segment_size: 524288\nuse_compression: false\nversion: 0.34 use_compression: true\n");
        assert_eq!(Storage::parse(&plain), Storage::SLED_DEFAULT);
        assert_eq!(Storage::parse(b""), Storage::SLED_DEFAULT);
    }

    #[test]
    fn a_new_database_gets_its_settings_and_old_ones_keep_theirs() {
        let tmp = tempfile::tempdir().unwrap();
        let new = tmp.path().join("new");
        assert_eq!(Storage::of(&new), Storage::NEW);
        drop(SledStore::open(&new).unwrap());
        assert_eq!(Storage::of(&new), Storage::NEW, "as its conf now says");
        let text = std::fs::read(new.join("conf")).unwrap();
        assert!(String::from_utf8_lossy(&text).contains(&format!("segment_size: {SEGMENT_BYTES}\n")));

        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format1-db");
        assert_eq!(Storage::of(&fixture), Storage::SLED_DEFAULT);

        // Made with other settings: those stay.
        let previous = tmp.path().join("previous");
        let config = sled::Config::new().path(&previous).use_compression(true).segment_size(256 * 1024);
        drop(config.flush_every_ms(None).open().unwrap());
        assert_eq!(Storage::of(&previous), Storage { compressed: true, segment_bytes: 256 * 1024 });
        let created = SledStore::open(&previous).unwrap().create(sample_record(1, 3)).unwrap();
        let store = open_when_free_store(&previous);
        assert_eq!(store.load(created.id).unwrap().unwrap().turns.len(), 3);
        assert_eq!(Storage::of(&previous), Storage { compressed: true, segment_bytes: 256 * 1024 }, "kept");
    }
}
