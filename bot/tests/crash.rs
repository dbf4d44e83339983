//! The crash test: `stonemate console --json` plays a scripted stream of turns and is
//! killed with SIGKILL at random moments, many times. After each kill the database is
//! opened again: every turn the console confirmed is there (a turn is confirmed only after
//! the flush), nothing else is, and every record replays.
//!
//! Bounded to about 25 seconds; the seed is printed so a failure can be repeated with
//! `STONEMATE_CRASH_SEED=...`.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};
use serde_json::Value;
use stonemate_bot::service::GameId;
use stonemate_bot::store::{GameRecord, Phase, SledStore};
use stonemate_engine::{AnyGame, GameKind};

const BUDGET: Duration = Duration::from_secs(25);
const MAX_RUNS: usize = 80;
const TURNS_PER_RUN: usize = 24;

/// Every record in the database, by id (ids are dense from 1).
fn records(data: &Path) -> Vec<GameRecord> {
    // Other bot tests' children, spawned while this test has the database open, hold a
    // copy of its locked file until they exec: the open waits that moment out itself.
    let store = SledStore::open(data).unwrap_or_else(|error| panic!("the database opens after a crash: {error:?}"));
    (1..).map_while(|id| store.load(GameId(id)).expect("records read")).collect()
}

fn replay(record: &GameRecord) -> AnyGame {
    let replay = AnyGame::replay(GameKind::Go, &record.options, &record.turns).expect("options are valid");
    assert!(replay.error.is_none(), "{} does not replay: {:?}", record.id, replay.error);
    replay.game
}

/// A random legal continuation of the game, without passes (two passes end it) unless
/// nothing else is left; returns `(player name, turn)` pairs.
fn continuation(record: &GameRecord, rng: &mut StdRng) -> Vec<(String, String)> {
    let mut position = replay(record);
    let mut turns = Vec::new();
    for _ in 0..TURNS_PER_RUN {
        let Some(color) = position.to_move() else { break };
        let player = record.name_of(record.seats.player(color).unwrap()).to_owned();
        let mut legal: Vec<String> = position.legal_turn_texts().into_iter().filter(|t| t != "pass").collect();
        legal.shuffle(rng);
        let turn = legal.pop().unwrap_or_else(|| "pass".to_owned());
        position.play_text(&turn).unwrap();
        turns.push((player, turn));
    }
    turns
}

/// The lines of one run, and for each line the turn it plays in the game (if any).
fn script(records: &[GameRecord], rng: &mut StdRng) -> (Vec<String>, Option<GameRecord>, Vec<String>) {
    let playing = records.iter().rev().find(|record| record.phase == Phase::Playing);
    if let Some(record) = playing {
        let turns = continuation(record, rng);
        let lines =
            turns.iter().map(|(who, turn)| format!("@{who} /move notation:{turn} game:{}", record.id.0)).collect();
        return (lines, Some(record.clone()), turns.into_iter().map(|(_, turn)| turn).collect());
    }
    let mut lines = Vec::new();
    let pending = records.iter().rev().find(|record| record.phase == Phase::Challenge);
    match pending {
        Some(record) => lines.push(format!("@bob /accept challenge:{}", record.id.0)),
        None => {
            lines.push("@alice /challenge opponent:@bob game:go color:white days:3 options:board=9x9".to_owned());
            lines.push("@bob /accept".to_owned());
        }
    }
    (lines, None, Vec::new())
}

/// Starts the console and a thread that collects its JSON replies.
fn spawn(dir: &Path) -> (Child, mpsc::Receiver<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stonemate"))
        .args(["console", "--json", "--data"])
        .arg(dir.join("db"))
        .arg("--out")
        .arg(dir.join("out"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the console starts");
    let stdout = child.stdout.take().unwrap();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let value: Value = serde_json::from_str(&line).expect("every line is JSON");
            if send.send(value).is_err() {
                break;
            }
        }
    });
    (child, receive)
}

/// Runs the console on `lines`, kills it after `delay`; returns how many leading lines
/// were confirmed (replied `ok`), and how many replies came at all.
fn run_and_kill(dir: &Path, lines: &[String], delay: Duration) -> (usize, usize) {
    let (mut child, replies) = spawn(dir);
    let mut stdin = child.stdin.take().unwrap();
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    stdin.write_all(text.as_bytes()).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(delay);
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    drop(stdin);
    let answers: Vec<Value> = replies.iter().filter(|reply| !reply["user"].is_null()).collect();
    let confirmed = answers.iter().take_while(|reply| reply["ok"] == Value::Bool(true)).count();
    for reply in &answers[confirmed..] {
        assert_eq!(reply["ok"], Value::Bool(true), "a scripted line was refused: {reply}");
    }
    (confirmed, answers.len())
}

#[test]
fn confirmed_turns_survive_sigkill_and_every_record_replays() {
    let seed = std::env::var("STONEMATE_CRASH_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(rand::random);
    println!("seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (mut runs, mut confirmed_turns, mut kills_mid_stream) = (0, 0, 0);
    while runs < MAX_RUNS && started.elapsed() < BUDGET {
        let before = records(&dir.path().join("db"));
        before.iter().for_each(|record| _ = replay(record));
        let (lines, played, turns) = script(&before, &mut rng);
        let delay = Duration::from_millis(rng.gen_range(0..400));
        let (confirmed, answered) = run_and_kill(dir.path(), &lines, delay);
        if answered < lines.len() {
            kills_mid_stream += 1;
        }
        let after = records(&dir.path().join("db"));
        after.iter().for_each(|record| _ = replay(record));
        if let Some(played) = played {
            let stored = &after[played.id.0 as usize - 1].turns;
            let applied = stored.len() - played.turns.len();
            assert_eq!(stored[..played.turns.len()], played.turns[..], "earlier turns are kept");
            assert_eq!(stored[played.turns.len()..], turns[..applied], "turns are stored in the order sent");
            assert!(applied >= confirmed, "run {runs}: {confirmed} turns confirmed but {applied} stored");
            assert!(applied <= confirmed + 1, "at most the turn in flight is stored unconfirmed");
            confirmed_turns += confirmed;
        } else if confirmed == lines.len() {
            assert!(after.iter().any(|record| record.phase == Phase::Playing), "a confirmed accept starts a game");
        }
        runs += 1;
    }
    println!("{runs} runs, {kills_mid_stream} killed mid-stream, {confirmed_turns} confirmed turns checked");
    assert!(runs >= 10 && kills_mid_stream >= 5 && confirmed_turns >= 20, "the test exercised too little");
}
