//! Confirmed turns per second, each beside a reference measured in the same run:
//!
//! 1. this file system's own rate of small write + `fdatasync` (the floor of one sync per
//!    turn);
//! 2. the in-memory store (no disk at all), the ceiling the CPU sets;
//! 3. sled through the service (durable, group commit) with 1, 2, 4 and 8 threads, each on
//!    games of its own;
//! 4. PostgreSQL (a throwaway cluster with its durable defaults: fsync at each commit) with
//!    1, 2 and 4 threads in one process, and with 1, 2 and 4 processes (`turn_player`), each
//!    on games of its own.
//!
//! Every case plays 19x19 games with random legal turns for `STONEMATE_BENCH_SECONDS`
//! (default 5), no pictures drawn. Run it at low priority beside other work:
//!
//! `nice -n 10 cargo bench -p stonemate-tests --bench throughput`

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use stonemate_bot::service::Service;
use stonemate_bot::store::{MemoryStore, PostgresStore, SledStore};
use stonemate_tests::load::{PAIRS_PER_PLAYER, Played, play_until, service};
use stonemate_tests::postgres::{Cluster, DURABLE};

/// About one game record.
const RECORD_BYTES: usize = 400;

fn seconds() -> f64 {
    std::env::var("STONEMATE_BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5.0)
}

fn fdatasync_rate(duration: Duration) -> f64 {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let file = File::create(dir.path().join("probe")).unwrap();
    let block = [b'y'; RECORD_BYTES];
    let (start, mut syncs) = (Instant::now(), 0u64);
    while start.elapsed() < duration {
        file.write_all_at(&block, (syncs * RECORD_BYTES as u64) % (1 << 20)).unwrap();
        file.sync_data().unwrap();
        syncs += 1;
    }
    syncs as f64 / start.elapsed().as_secs_f64()
}

/// `threads` players on one service for `duration`; the sum of what they played.
fn on_threads(service: &Arc<Service>, threads: u64, duration: Duration) -> Played {
    let until = Instant::now() + duration;
    std::thread::scope(|scope| {
        let players: Vec<_> = (0..threads)
            .map(|thread| scope.spawn(move || play_until(service, (thread + 1) * PAIRS_PER_PLAYER, thread, until)))
            .collect();
        players.into_iter().map(|player| player.join().unwrap()).fold(Played::default(), add)
    })
}

fn add(a: Played, b: Played) -> Played {
    Played { confirmed: a.confirmed + b.confirmed, refused: a.refused + b.refused }
}

/// `processes` copies of `turn_player` on `url`, started together, for `duration`.
fn on_processes(url: &str, processes: u64, duration: Duration) -> Played {
    let now_ms = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis();
    // Time for every process to start and connect before the common start.
    let start_ms = (now_ms + 1500).to_string();
    let seconds = duration.as_secs_f64().to_string();
    let children: Vec<_> = (0..processes)
        .map(|index| {
            Command::new(env!("CARGO_BIN_EXE_turn_player"))
                .args([url, &index.to_string(), &start_ms, &seconds])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children.into_iter().map(|child| parse(&child.wait_with_output().unwrap())).fold(Played::default(), add)
}

/// `confirmed N refused M`, as `turn_player` prints it.
fn parse(output: &std::process::Output) -> Played {
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "turn_player failed: {text} {}", String::from_utf8_lossy(&output.stderr));
    let numbers: Vec<u64> = text.split_whitespace().filter_map(|word| word.parse().ok()).collect();
    match numbers.as_slice() {
        [confirmed, refused] => Played { confirmed: *confirmed, refused: *refused },
        _ => panic!("turn_player printed {text:?}"),
    }
}

fn report(case: &str, played: Played, duration: Duration, floor: f64) {
    let rate = played.confirmed as f64 / duration.as_secs_f64();
    println!("{case:<34} {rate:>8.0} turns/s  ({:.2} x the fdatasync rate; {} refused)", rate / floor, played.refused);
}

fn main() {
    let duration = Duration::from_secs_f64(seconds());
    let floor = fdatasync_rate(duration);
    println!("{:<34} {floor:>8.0} syncs/s", "write + fdatasync (this disk)");
    // The ceiling without any disk: what the CPU allows the service and the players.
    for threads in [1, 2] {
        let service = Arc::new(service(MemoryStore::new()));
        report(
            &format!("memory (no disk), {threads} threads"),
            on_threads(&service, threads, duration),
            duration,
            floor,
        );
    }
    for threads in [1, 2, 4, 8] {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let service = Arc::new(service(SledStore::open(dir.path()).unwrap()));
        report(&format!("sled, {threads} threads"), on_threads(&service, threads, duration), duration, floor);
    }
    let cluster = Cluster::start(DURABLE).unwrap_or_else(|error| panic!("{error}"));
    for threads in [1, 2, 4] {
        let database = cluster.create_database().unwrap();
        let service = Arc::new(service(PostgresStore::open(&database.url).unwrap()));
        report(
            &format!("postgres, 1 process, {threads} threads"),
            on_threads(&service, threads, duration),
            duration,
            floor,
        );
    }
    for processes in [1, 2, 4] {
        let database = cluster.create_database().unwrap();
        // Migrated once before the processes race to open it.
        drop(PostgresStore::open(&database.url).unwrap());
        let played = on_processes(&database.url, processes, duration);
        report(&format!("postgres, {processes} processes"), played, duration, floor);
    }
    println!("{:<34} {:>8.0} syncs/s (again, after)", "write + fdatasync (this disk)", fdatasync_rate(duration));
}
