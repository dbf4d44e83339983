//! The store at scale (issue 28), beside an empty database in the same run: builds a
//! database of N games (100,000 by default) with `stonemate import`, then measures the
//! time to open it and answer a first command, the memory of that process, the disk it
//! takes, and the import's time and peak memory; on sled and on PostgreSQL (a throwaway
//! cluster of Debian's `postgresql`, durable defaults). The same keys and values in SQLite
//! (`sqlite3`, one table of keys) are the reference for the bytes per game.
//!
//! Each database is then used for a while (`--turns N`, 2,000 by default: games between new
//! players, two turns each, through one console session) and started again: a start after
//! a day of turns, which on sled also reads what that day wrote to the log. Each start is
//! given as wall time and as the CPU time of the process until its first reply. On sled,
//! a second database is imported with sled's own 512 KiB log segments (what databases
//! made before session 10 have) beside the 64 KiB of a new one (`--no-old-segments` leaves
//! it out).
//!
//! `scripts/store-harness [--games N] [--turns N] [--no-postgres | --no-sled]
//! [--no-old-segments] [--keep]` (builds in release, then runs this; `--keep` leaves the
//! export and the databases in the temporary directory it names, to profile a start on
//! them). `scripts/store-harness --imports 20000,100000,200000` only imports exports of
//! those sizes, one after the other, each into a new sled database, and exports each again:
//! their time and peak memory (with `--keep`, the files stay). `--no-sled` measures
//! PostgreSQL alone, without the sled import (minutes at 100,000 games) and its SQLite
//! reference before it.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::StdRng};
use stonemate_bot::clock::{Clock, Span, SystemClock, Timestamp};
use stonemate_bot::ids::{ChannelId, GameId, GuildId, UserId};
use stonemate_bot::store::backend::{KeyRange, chunks};
use stonemate_bot::store::sample::sample_record;
use stonemate_bot::store::{Finish, GameRecord, Origin, Phase, SledStore, UserRecord};
use stonemate_engine::{AnyGame, Color, EndReason, Ending, GameKind, Outcome};
use stonemate_tests::postgres::{Cluster, DURABLE};

/// Distinct games played at random; the N records cycle through them.
const POOL: usize = 300;
/// Players: each in about N / PLAYERS * 2 games.
const PLAYERS: u64 = 5_000;

#[derive(Debug)]
struct Args {
    games: u32,
    turns: u32,
    stonemate: PathBuf,
    postgres: bool,
    sled: bool,
    old_segments: bool,
    /// Keep the databases and the export (for profiling a start on them).
    keep: bool,
    /// Only imports, one per size, each into a new sled database: their peak memory.
    imports: Vec<u32>,
}

fn args() -> Args {
    let mut args = Args {
        games: 100_000,
        turns: 2_000,
        stonemate: sibling("stonemate-under-test"),
        postgres: true,
        sled: true,
        old_segments: true,
        keep: false,
        imports: Vec::new(),
    };
    let mut given = std::env::args().skip(1);
    while let Some(arg) = given.next() {
        match arg.as_str() {
            "--games" => args.games = given.next().and_then(|n| n.parse().ok()).expect("--games N"),
            "--turns" => args.turns = given.next().and_then(|n| n.parse().ok()).expect("--turns N"),
            "--no-old-segments" => args.old_segments = false,
            "--stonemate" => args.stonemate = given.next().map(PathBuf::from).expect("--stonemate PATH"),
            "--no-postgres" => args.postgres = false,
            "--no-sled" => args.sled = false,
            "--keep" => args.keep = true,
            "--imports" => {
                let sizes = given.next().expect("--imports N,N,...");
                args.imports = sizes.split(',').map(|n| n.trim().parse().expect("--imports N,N,...")).collect();
            }
            other => panic!(
                "unknown argument {other}: [--games N] [--turns N] [--stonemate PATH] [--no-postgres | --no-sled] \
                 [--no-old-segments] [--keep] [--imports N,N,...]"
            ),
        }
    }
    args
}

/// A binary built beside this one.
fn sibling(name: &str) -> PathBuf {
    std::env::current_exe().unwrap().with_file_name(name)
}

/// A game's options and turns.
type Played = (Vec<(String, String)>, Vec<String>);

/// Random legal games of go on 9x9, 10 to 60 turns long.
fn pool() -> Vec<Played> {
    let mut rng = StdRng::seed_from_u64(28);
    let options = vec![("board".to_owned(), "9x9".to_owned())];
    (0..POOL)
        .map(|n| {
            let mut position = AnyGame::new(GameKind::Go, &options).unwrap();
            let mut turns = Vec::new();
            for _ in 0..10 + n % 51 {
                let mut legal: Vec<String> = position.legal_turn_texts().into_iter().filter(|t| t != "pass").collect();
                legal.shuffle(&mut rng);
                let Some(turn) = legal.pop() else { break };
                turns.push(position.play_text(&turn).unwrap());
            }
            (position.option_pairs(), turns)
        })
        .collect()
}

fn record(n: u32, pool: &[Played], now: Timestamp) -> GameRecord {
    let (options, turns) = &pool[n as usize % pool.len()];
    let white = UserId(u64::from(n) % PLAYERS + 100);
    let black = UserId((u64::from(n) * 7 + 1) % PLAYERS + 100);
    let black = if black == white { UserId(black.0 + 1) } else { black };
    let playing = n % 3 == 0;
    let record = sample_record(GameKind::Go, options, [white, black], now);
    GameRecord {
        id: GameId(n + 1),
        version: 2 + turns.len() as u64,
        origin: Origin {
            channel: ChannelId(1000 + u64::from(n % 40)),
            guild: Some(GuildId(1 + u64::from(n % 4))),
            expires: now + Span::days(7),
            ..record.origin
        },
        phase: if playing { Phase::Playing } else { Phase::Finished },
        turns: turns.clone(),
        clock: if playing { record.clock } else { None },
        result: if playing {
            None
        } else {
            Some(Finish::new(Ending { outcome: Outcome::Winner(Color::White), reason: EndReason::Resignation }).at(now))
        },
        ..record
    }
}

/// Writes an export of `games` games and their players.
fn write_export(path: &Path, games: u32) {
    let pool = pool();
    // Made now, as a bot's database is: the playing games' turns run for days yet. (Made
    // in the past, every one of them would time out at the first start, and the start would
    // measure tens of thousands of timeouts instead of opening the database.)
    let now = SystemClock.now();
    let mut out = BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(out, "{{\"stonemate_export\":1}}").unwrap();
    for n in 0..games {
        serde_json::to_writer(&mut out, &serde_json::json!({ "game": record(n, &pool, now) })).unwrap();
        writeln!(out).unwrap();
    }
    writeln!(out, "{{\"last_id\":{games}}}").unwrap();
    for user in 0..PLAYERS.min(u64::from(games) + 1) {
        let user = UserRecord::new(UserId(user + 100), format!("player{}", user + 100));
        serde_json::to_writer(&mut out, &serde_json::json!({ "user": user })).unwrap();
        writeln!(out).unwrap();
    }
    out.flush().unwrap();
}

/// The peak and current resident memory of a running process, in KiB.
fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status.lines().find_map(|line| line.strip_prefix(name)?.trim().strip_suffix("kB")?.trim().parse().ok())
    };
    (field("VmHWM:").unwrap_or(0), field("VmRSS:").unwrap_or(0))
}

/// Runs `command` to its end, sampling its peak memory; returns the time, the peak (KiB)
/// and the standard error.
fn run_measured(mut command: Command) -> (Duration, u64, String) {
    let started = Instant::now();
    let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut peak = 0;
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(memory(child.id()).0);
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(child.wait().unwrap().success(), "{stderr}");
    (elapsed, peak, stderr)
}

/// The CPU time a running process has used so far, all its threads together (the
/// scheduler's nanoseconds, `/proc/PID/task/*/schedstat`).
fn cpu(pid: u32) -> Duration {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).into_iter().flatten().flatten();
    let nanos = tasks.filter_map(|task| {
        let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
        stat.split_whitespace().next()?.parse::<u64>().ok()
    });
    Duration::from_nanos(nanos.sum())
}

#[derive(Debug)]
/// What a start costs: the time to open and answer a first command, the CPU time until
/// then, and the memory then.
struct Start {
    first_reply: Duration,
    cpu: Duration,
    rss_kib: u64,
    peak_kib: u64,
    reply: String,
}

impl Start {
    fn said(&self) -> String {
        format!("{:.0} ms ({:.0} ms CPU)", self.first_reply.as_secs_f64() * 1e3, self.cpu.as_secs_f64() * 1e3)
    }
}

/// `stonemate console` on `database`, its replies as JSON on a pipe, pictures in `out`.
fn console(stonemate: &Path, database: &[&str], out: &Path) -> Child {
    Command::new(stonemate)
        .arg("console")
        .args(database)
        .arg("--out")
        .arg(out)
        .arg("--json")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

/// Starts `stonemate console` on `database`, asks one `/board`, and measures.
fn start(stonemate: &Path, database: &[&str], out: &Path, game: u32) -> Start {
    let started = Instant::now();
    let mut child = console(stonemate, database, out);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "@player{} /board game:{game}", 100 + (game - 1) % PLAYERS as u32).unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let reply = loop {
        let line = lines.next().expect("a reply").unwrap();
        if line.contains("\"command\":\"board\"") {
            break line;
        }
    };
    let first_reply = started.elapsed();
    let cpu = cpu(child.id());
    let (peak_kib, rss_kib) = memory(child.id());
    drop(stdin);
    for _ in lines {}
    child.wait().unwrap();
    Start { first_reply, cpu, rss_kib, peak_kib, reply: reply.chars().take(90).collect() }
}

/// Starts `stonemate console` on `database` three times; the starts' figures.
fn starts(stonemate: &Path, database: &[&str], out: &Path, game: u32) -> String {
    let starts: Vec<String> = (0..3).map(|_| start(stonemate, database, out, game).said()).collect();
    starts.join(", ")
}

/// A day of use: `turns` turns through one console session on `database`, in games
/// between new players (a challenge, its acceptance, two turns), each turn's notice
/// delivered as the console does. Returns how long the session took.
fn play_turns(stonemate: &Path, database: &[&str], out: &Path, turns: u32) -> Duration {
    let mut input = String::new();
    for n in 0..turns.div_ceil(2) {
        let (white, black) = (format!("day{n}w"), format!("day{n}b"));
        input.push_str(&format!(
            "@{white} /challenge opponent:@{black} game:go color:white days:3 options:board=9x9\n@{black} /accept\n\
             @{black} /move notation:e5\n@{white} /move notation:d4\n"
        ));
    }
    let started = Instant::now();
    let mut child = console(stonemate, database, out);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let refused = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .filter(|line| line.contains("\"command\"") && line.contains("\"ok\":false"))
        .count();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(refused, 0, "every command of the day is taken");
    started.elapsed()
}

/// The bytes a directory takes on disk (its files' allocated blocks).
fn disk_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let metadata = entry.metadata().unwrap();
        total += if metadata.is_dir() { disk_bytes(&entry.path()) } else { metadata.blocks() * 512 };
    }
    total
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn row(what: &str, empty: &str, full: &str) {
    println!("  {what:<34} {empty:>16} {full:>18}");
}

/// Reports one store: empty beside full.
fn report(name: &str, games: u32, empty: &Start, full: &Start, import: (Duration, u64), disk: (u64, u64)) {
    println!("\n{name}: empty database | {games} games");
    row(
        "open + first reply",
        &format!("{:.1} ms", empty.first_reply.as_secs_f64() * 1e3),
        &format!("{:.1} ms", full.first_reply.as_secs_f64() * 1e3),
    );
    row("memory at the first reply (RSS)", &mib(empty.rss_kib), &mib(full.rss_kib));
    row("peak memory until then", &mib(empty.peak_kib), &mib(full.peak_kib));
    row("disk", &format!("{} KiB", disk.0 / 1024), &format!("{:.1} MiB", disk.1 as f64 / 1048576.0));
    let per_game = disk.1.saturating_sub(disk.0) as f64 / f64::from(games.max(1));
    row("disk per game", "", &format!("{per_game:.0} B"));
    row("import: time, peak memory", "", &format!("{:.1} s, {}", import.0.as_secs_f64(), mib(import.1)));
    println!("  first reply: {}", full.reply);
}

/// The same keys and values as the sled database in SQLite: its bytes.
fn sqlite_bytes(sled_dir: &Path, work: &Path) -> u64 {
    let file = work.join("reference.sqlite");
    let sql_path = work.join("reference.sql");
    let mut sql = BufWriter::new(std::fs::File::create(&sql_path).unwrap());
    writeln!(
        sql,
        "PRAGMA journal_mode=WAL; BEGIN; CREATE TABLE kv (key BLOB PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;"
    )
    .unwrap();
    let store = SledStore::open(sled_dir).unwrap();
    let hex = |bytes: &[u8]| bytes.iter().map(|byte| format!("{byte:02x}")).collect::<String>();
    for entries in chunks(store.backend().as_ref(), KeyRange::all(), 1_000) {
        for (key, value) in entries.unwrap() {
            writeln!(sql, "INSERT INTO kv VALUES (X'{}', X'{}');", hex(&key), hex(&value)).unwrap();
        }
    }
    writeln!(sql, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE);").unwrap();
    drop(sql);
    drop(store);
    let status = Command::new("sqlite3")
        .arg(&file)
        .stdin(std::fs::File::open(&sql_path).unwrap())
        .stdout(Stdio::null())
        .status()
        .expect("sqlite3 runs (apt-get install sqlite3)");
    assert!(status.success());
    std::fs::metadata(&file).unwrap().len()
}

/// `stonemate export` of `database` into a file in `work` (removed after): its time, peak
/// memory and what it said.
fn exported(stonemate: &Path, database: &[&str], work: &Path) -> String {
    let file = work.join("exported.jsonl");
    let mut export = Command::new(stonemate);
    export.arg("export").args(database).arg(&file);
    let (took, peak, said) = run_measured(export);
    let _ = std::fs::remove_file(&file);
    format!("export: {:.1} s, peak memory {} ({})", took.as_secs_f64(), mib(peak), said.trim())
}

/// `--imports`: an export of each size imported into a new sled database, then exported
/// again, one size after the other in the same run: the import's and the export's time and
/// peak memory (they must not grow with the games), then the files are removed.
fn imports(stonemate: &Path, sizes: &[u32], work: &Path, keep: bool) {
    println!("sled imports into a new database, then exports of it: games, time, peak memory, disk");
    for &games in sizes {
        let (export, dir) = (work.join(format!("games-{games}.jsonl")), work.join(format!("sled-{games}")));
        write_export(&export, games);
        let mut import = Command::new(stonemate);
        import.arg("import").arg("--data").arg(&dir).arg(&export);
        let (took, peak, _) = run_measured(import);
        let disk = disk_bytes(&dir) as f64 / 1048576.0;
        let again = work.join(format!("again-{games}.jsonl"));
        let mut exported = Command::new(stonemate);
        exported.arg("export").arg("--data").arg(&dir).arg(&again);
        let (export_took, export_peak, _) = run_measured(exported);
        let lines = |file: &Path| std::fs::read_to_string(file).unwrap().lines().count();
        assert_eq!(lines(&again), lines(&export), "the export gives back every line imported");
        println!(
            "  {games:>8} games: import {:>6.1} s, peak {}, {disk:.1} MiB; export {:>5.1} s, peak {}",
            took.as_secs_f64(),
            mib(peak),
            export_took.as_secs_f64(),
            mib(export_peak)
        );
        let _ = std::fs::remove_file(&again);
        if !keep {
            let _ = std::fs::remove_dir_all(&dir);
            let _ = std::fs::remove_file(&export);
        }
    }
}

fn main() {
    let args = args();
    assert!(args.stonemate.exists(), "{} is not built (run scripts/store-harness)", args.stonemate.display());
    let work = std::env::temp_dir().join(format!("stonemate-harness-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    if !args.imports.is_empty() {
        imports(&args.stonemate, &args.imports, &work, args.keep);
        match args.keep {
            true => println!("kept: {} (the exports, the databases; remove it when done)", work.display()),
            false => drop(std::fs::remove_dir_all(&work)),
        }
        return;
    }
    let export = work.join("games.jsonl");
    let made = Instant::now();
    write_export(&export, args.games);
    println!(
        "{} games written to an export of {:.1} MiB in {:.1} s",
        args.games,
        std::fs::metadata(&export).unwrap().len() as f64 / 1048576.0,
        made.elapsed().as_secs_f64()
    );
    let out = work.join("out");
    let middle = args.games / 2 + 1;

    if args.sled {
        // sled.
        let (empty_dir, full_dir, old_dir) = (work.join("sled-empty"), work.join("sled-full"), work.join("sled-512"));
        let path = |dir: &Path| dir.to_str().unwrap().to_owned();
        let empty = start(&args.stonemate, &["--data", &path(&empty_dir)], &out, 1);
        let mut import = Command::new(&args.stonemate);
        import.arg("import").arg("--data").arg(&full_dir).arg(&export);
        let (took, peak, said) = run_measured(import);
        let full = start(&args.stonemate, &["--data", &path(&full_dir)], &out, middle);
        let sled_disk = (disk_bytes(&empty_dir), disk_bytes(&full_dir));
        report("sled (a new database: 64 KiB log segments)", args.games, &empty, &full, (took, peak), sled_disk);
        println!("  import said: {}", said.trim());
        println!("  {}", exported(&args.stonemate, &["--data", &path(&full_dir)], &work));
        println!("  starts again: {}", starts(&args.stonemate, &["--data", &path(&full_dir)], &out, 1));
        let mut databases = vec![("empty database", empty_dir.clone()), ("new database", full_dir.clone())];
        if args.old_segments {
            // Made as before session 10: sled's 512 KiB segments, which the bot keeps.
            drop(sled::Config::new().path(&old_dir).use_compression(true).segment_size(512 * 1024).open().unwrap());
            let mut import = Command::new(&args.stonemate);
            import.arg("import").arg("--data").arg(&old_dir).arg(&export);
            let (took, peak, _) = run_measured(import);
            let old = start(&args.stonemate, &["--data", &path(&old_dir)], &out, middle);
            let disk = (sled_disk.0, disk_bytes(&old_dir));
            report("sled (made with 512 KiB log segments)", args.games, &empty, &old, (took, peak), disk);
            println!("  starts again: {}", starts(&args.stonemate, &["--data", &path(&old_dir)], &out, 1));
            databases.push(("512 KiB segments", old_dir.clone()));
        }
        println!("\nsled, after a day of {} turns (each database):", args.turns);
        for (name, dir) in &databases {
            let took = play_turns(&args.stonemate, &["--data", &path(dir)], &out, args.turns);
            let after = starts(&args.stonemate, &["--data", &path(dir)], &out, 1);
            println!("  {name}: turns played in {:.1} s; starts after them: {after}", took.as_secs_f64());
        }

        let sqlite = sqlite_bytes(&full_dir, &work);
        let sled_per_game = sled_disk.1 as f64 / f64::from(args.games);
        let sqlite_per_game = sqlite as f64 / f64::from(args.games);
        println!(
            "\nSQLite, the same keys and values: {:.1} MiB, {sqlite_per_game:.0} B per game; sled takes {:.2} times that",
            sqlite as f64 / 1048576.0,
            sled_per_game / sqlite_per_game
        );
    }

    if args.postgres {
        let cluster = Cluster::start(DURABLE).unwrap_or_else(|error| panic!("{error}"));
        let (empty_db, full_db) = (cluster.create_database().unwrap(), cluster.create_database().unwrap());
        let empty = start(&args.stonemate, &["--database", &empty_db.url], &out, 1);
        let mut import = Command::new(&args.stonemate);
        import.arg("import").arg("--database").arg(&full_db.url).arg(&export);
        let (took, peak, said) = run_measured(import);
        let full = start(&args.stonemate, &["--database", &full_db.url], &out, middle);
        let size = |name: &str| -> u64 {
            let mut client = postgres::Client::connect(&cluster.url(name), postgres::NoTls).unwrap();
            let bytes: i64 = client.query_one("SELECT pg_database_size(current_database())", &[]).unwrap().get(0);
            bytes as u64
        };
        report("PostgreSQL", args.games, &empty, &full, (took, peak), (size(&empty_db.name), size(&full_db.name)));
        println!("  import said: {}", said.trim());
        println!("  {}", exported(&args.stonemate, &["--database", &full_db.url], &work));
        let again = start(&args.stonemate, &["--database", &full_db.url], &out, 1);
        println!(
            "  a second start: first reply {:.1} ms, RSS {}",
            again.first_reply.as_secs_f64() * 1e3,
            mib(again.rss_kib)
        );
        println!("\nPostgreSQL, after a day of {} turns (each database):", args.turns);
        for (name, url) in [("empty database", &empty_db.url), ("full database", &full_db.url)] {
            let took = play_turns(&args.stonemate, &["--database", url], &out, args.turns);
            let after = starts(&args.stonemate, &["--database", url], &out, 1);
            println!("  {name}: turns played in {:.1} s; starts after them: {after}", took.as_secs_f64());
        }
    }
    if args.keep {
        println!("\nkept: {} (the export, the databases; remove it when done)", work.display());
    } else {
        let _ = std::fs::remove_dir_all(&work);
    }
}
