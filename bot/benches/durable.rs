//! What a durable commit costs: sled writes + `flush()` + a [`DurableSync`] round, with 1,
//! 2, 4 and 8 threads writing distinct keys, beside `flush()` alone (not durable on power
//! loss) and the machine's own `fdatasync` rate on the same file system, measured in the
//! same run.
//!
//! Each iteration is one commit; criterion reports commits/s ("elem/s"). After each
//! durable case it prints how many sync rounds the commits took.
//!
//! `cargo bench -p stonemate-bot --bench durable`
//!
//! On the 2-core build machine (virtual disk, load average ~6 from other builds), one run:
//! write + fdatasync 242/s; flush only 8.9k/s (1 thread) to 21.7k/s (8); durable 287/s
//! (1 thread, one round per commit), 825/s (2), 7.4k/s (4, 1.8 commits per round),
//! 13.8k/s (8, 3.6 commits per round).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stonemate_bot::store::durable::{DurableSync, GroupSync, SledFiles};

const THREADS: [usize; 4] = [1, 2, 4, 8];
/// About one game record.
const VALUE_BYTES: usize = 400;
/// Keys each thread cycles through, so the tree stays small.
const KEYS_PER_THREAD: u64 = 64;

/// A directory on the file system of the target directory (not a tmpfs `/tmp`).
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap()
}

fn open(dir: &Path) -> (sled::Db, DurableSync) {
    let db = sled::Config::new().path(dir).cache_capacity(64 * 1024 * 1024).open().unwrap();
    let sync = GroupSync::new(SledFiles::open(dir).unwrap());
    (db, sync)
}

/// Numbers every commit: sled skips writing a value equal to the stored one.
static COMMITS: AtomicU64 = AtomicU64::new(0);

/// `commits` commits spread over `threads` threads; the wall time of them all.
fn commit_on_threads(db: &sled::Db, sync: Option<&DurableSync>, threads: usize, commits: u64) -> Duration {
    let start = Instant::now();
    thread::scope(|scope| {
        for thread in 0..threads as u64 {
            let share = commits / threads as u64 + u64::from(thread < commits % threads as u64);
            scope.spawn(move || {
                let mut value = vec![b'x'; VALUE_BYTES];
                for i in 0..share {
                    let key = ((thread << 32) | (i % KEYS_PER_THREAD)).to_be_bytes();
                    value[..8].copy_from_slice(&COMMITS.fetch_add(1, Ordering::Relaxed).to_be_bytes());
                    db.insert(key, value.as_slice()).unwrap();
                    db.flush().unwrap();
                    if let Some(sync) = sync {
                        sync.sync().unwrap();
                    }
                }
            });
        }
    });
    start.elapsed()
}

fn fdatasync_rate(c: &mut Criterion) {
    let dir = scratch();
    let file = File::create(dir.path().join("probe")).unwrap();
    let block = [b'y'; VALUE_BYTES];
    let mut group = c.benchmark_group("fdatasync");
    group.throughput(Throughput::Elements(1));
    let mut offset = 0u64;
    group.bench_function("small write + fdatasync", |b| {
        b.iter(|| {
            file.write_all_at(&block, offset % (1 << 20)).unwrap();
            offset += VALUE_BYTES as u64;
            file.sync_data().unwrap();
        })
    });
    group.finish();
}

fn commits(c: &mut Criterion) {
    let mut group = c.benchmark_group("commit");
    group.throughput(Throughput::Elements(1));
    for threads in THREADS {
        let dir = scratch();
        let (db, _) = open(dir.path());
        group.bench_function(format!("sled flush only, {threads} threads"), |b| {
            b.iter_custom(|iters| commit_on_threads(&db, None, threads, iters))
        });
    }
    for threads in THREADS {
        let dir = scratch();
        let (db, sync) = open(dir.path());
        let mut total = 0;
        group.bench_function(format!("durable, {threads} threads"), |b| {
            b.iter_custom(|iters| {
                total += iters;
                commit_on_threads(&db, Some(&sync), threads, iters)
            })
        });
        eprintln!("durable, {threads} threads: {total} commits in {} sync rounds", sync.rounds());
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default().sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! { name = benches; config = config(); targets = fdatasync_rate, commits }
criterion_main!(benches);
