//! What a confirmed turn costs the store, beside the disk's plain `fdatasync` and SQLite
//! (WAL, `synchronous=FULL`) in the same run, on the file system of the target directory:
//!
//! - `turn/*`: one writer. `store` is a turn as the service writes it on sled: the record
//!   with its index entries and one notice in one batch, made durable, then the notice
//!   claimed and removed as when it is delivered (these two marks take no sync of their
//!   own). `fdatasync` writes the same bytes to a file and syncs it; `sqlite` updates a row
//!   of them and inserts and deletes the notice, each in its own transaction.
//! - `writers/*/N`: N threads, each playing its own game: durable turns per second.
//!
//! Criterion reports the time per turn and, for `writers`, turns/s ("elem/s").
//!
//! `cargo bench -p stonemate-bot --bench store_sync`

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stonemate_bot::clock::{Span, Timestamp};
use stonemate_bot::ids::{ChannelId, UserId};
use stonemate_bot::store::sample::sample_record;
use stonemate_bot::store::{GameRecord, Origin, Queued, SledStore};
use stonemate_engine::GameKind;

const WRITERS: [usize; 4] = [1, 2, 4, 8];
/// Turns each writer plays per measured batch.
const TURNS: u64 = 40;

/// A directory on the file system of the target directory (not a tmpfs `/tmp`).
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap()
}

/// A game of 40 turns between players `2n + 10` and `2n + 11`.
fn record(n: u64) -> GameRecord {
    let turns = ["R@e5", "R@d4", "R@e4", "R@d5", "R@c3", "R@f6", "R@g7", "R@b2"];
    let options = [("board".to_owned(), "9x9".to_owned())];
    let players = [UserId(2 * n + 10), UserId(2 * n + 11)];
    let record = sample_record(GameKind::Go, &options, players, Timestamp(1_795_000_000_000));
    GameRecord {
        origin: Origin { channel: ChannelId(7), ..record.origin },
        turns: (0..40).map(|i| turns[i % turns.len()].to_owned()).collect(),
        ..record
    }
}

/// A notice as the service queues it for a turn (its text and what to draw).
fn notice() -> Vec<u8> {
    br#"{"to":{"channel":7},"text":"@player11, it is your turn in #1 (Go with chess pieces against player10).","mentions":[11],"game":1,"picture":{"game":1,"version":3}}"#.to_vec()
}

/// One turn of `record` on the store: the record and a notice, durable; then the notice
/// claimed and removed, as a delivery does.
fn store_turn(store: &SledStore, record: &mut GameRecord) {
    record.version += 1;
    let clock = record.clock.as_mut().unwrap();
    clock.deadline = clock.deadline + Span(1);
    let now = Timestamp(0);
    store.update_with(record, &[], &[Queued::new(now, notice())]).unwrap();
    for claimed in store.outbox().claim(now, now + Span::MINUTE, 16).unwrap() {
        store.outbox().remove_notice(claimed.id).unwrap();
    }
}

/// The disk alone: the turn's bytes written at the end of a file, then `fdatasync`.
fn fdatasync_turn(file: &File, offset: &mut u64, bytes: &[u8]) {
    file.write_all_at(bytes, *offset).unwrap();
    *offset = (*offset + bytes.len() as u64) % (64 << 20);
    file.sync_data().unwrap();
}

fn sqlite(path: &std::path::Path) -> rusqlite::Connection {
    let connection = rusqlite::Connection::open(path).unwrap();
    connection.busy_timeout(Duration::from_secs(30)).unwrap();
    let mode: String = connection.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0)).unwrap();
    assert_eq!(mode, "wal");
    connection.execute_batch("PRAGMA synchronous=FULL").unwrap();
    connection
        .execute_batch(
            "CREATE TABLE IF NOT EXISTS games (id INTEGER PRIMARY KEY, version INTEGER, record BLOB);
             CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY, due INTEGER, body BLOB);",
        )
        .unwrap();
    connection
}

/// The same turn in SQLite: the record and the notice in one transaction, then the
/// notice removed in another (SQLite syncs every commit at `synchronous=FULL`).
fn sqlite_turn(connection: &mut rusqlite::Connection, id: i64, version: &mut i64, bytes: &[u8]) {
    *version += 1;
    let tx = connection.transaction().unwrap();
    tx.execute(
        "INSERT OR REPLACE INTO games (id, version, record) VALUES (?1, ?2, ?3)",
        rusqlite::params![id, *version, bytes],
    )
    .unwrap();
    tx.execute("INSERT INTO outbox (due, body) VALUES (0, ?1)", [notice()]).unwrap();
    let notice_id = tx.last_insert_rowid();
    tx.commit().unwrap();
    connection.execute("DELETE FROM outbox WHERE id = ?1", [notice_id]).unwrap();
}

fn per_turn(c: &mut Criterion) {
    let bytes = serde_json::to_vec(&record(0)).unwrap();
    let mut group = c.benchmark_group("turn");
    group.sample_size(30).measurement_time(Duration::from_secs(8));

    let dir = scratch();
    let file = File::create(dir.path().join("plain")).unwrap();
    let mut offset = 0;
    group.bench_function("fdatasync", |b| b.iter(|| fdatasync_turn(&file, &mut offset, &bytes)));

    let store = SledStore::open(&dir.path().join("sled")).unwrap();
    let mut record = store.create(record(0)).unwrap();
    group.bench_function("store", |b| b.iter(|| store_turn(&store, &mut record)));

    let mut connection = sqlite(&dir.path().join("sqlite.db"));
    let mut version = 0;
    group.bench_function("sqlite", |b| b.iter(|| sqlite_turn(&mut connection, 1, &mut version, &bytes)));
    group.finish();
}

/// Runs `turns` turns on each of `writers` threads; the wall time.
fn on_threads(writers: usize, turn: impl Fn(usize) + Sync) -> Duration {
    let start = Instant::now();
    thread::scope(|scope| {
        for writer in 0..writers {
            let turn = &turn;
            scope.spawn(move || turn(writer));
        }
    });
    start.elapsed()
}

fn writers(c: &mut Criterion) {
    let bytes = serde_json::to_vec(&record(0)).unwrap();
    let mut group = c.benchmark_group("writers");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    for writers in WRITERS {
        group.throughput(Throughput::Elements(TURNS * writers as u64));
        let dir = scratch();

        // The disk alone: each writer its own file, as independent as the disk allows.
        let files: Vec<Mutex<(File, u64)>> = (0..writers)
            .map(|w| Mutex::new((File::create(dir.path().join(format!("plain{w}"))).unwrap(), 0)))
            .collect();
        group.bench_function(format!("fdatasync/{writers}"), |b| {
            b.iter_custom(|rounds| {
                (0..rounds)
                    .map(|_| {
                        on_threads(writers, |w| {
                            let mut guard = files[w].lock().unwrap();
                            let (file, offset) = &mut *guard;
                            for _ in 0..TURNS {
                                fdatasync_turn(file, offset, &bytes);
                            }
                        })
                    })
                    .sum()
            });
        });

        let store = SledStore::open(&dir.path().join("sled")).unwrap();
        let records: Vec<Mutex<GameRecord>> =
            (0..writers).map(|w| Mutex::new(store.create(record(w as u64)).unwrap())).collect();
        group.bench_function(format!("store/{writers}"), |b| {
            b.iter_custom(|rounds| {
                (0..rounds)
                    .map(|_| {
                        on_threads(writers, |w| {
                            let mut record = records[w].lock().unwrap();
                            for _ in 0..TURNS {
                                store_turn(&store, &mut record);
                            }
                        })
                    })
                    .sum()
            });
        });

        let path = dir.path().join("sqlite.db");
        let connections: Vec<Mutex<(rusqlite::Connection, i64)>> =
            (0..writers).map(|_| Mutex::new((sqlite(&path), 0))).collect();
        group.bench_function(format!("sqlite/{writers}"), |b| {
            b.iter_custom(|rounds| {
                (0..rounds)
                    .map(|_| {
                        on_threads(writers, |w| {
                            let mut guard = connections[w].lock().unwrap();
                            let (connection, version) = &mut *guard;
                            for _ in 0..TURNS {
                                sqlite_turn(connection, w as i64 + 1, version, &bytes);
                            }
                        })
                    })
                    .sum()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, per_turn, writers);
criterion_main!(benches);
