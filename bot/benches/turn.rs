//! One turn end to end through the service — load the record, check the turn against the
//! position, apply it, write it to sled with a flush, render the board PNG — on the
//! largest board (Go with chess pieces, 25x25). Measured on an empty database and on one
//! with 100,000 games already stored.
//!
//! Besides criterion's report it prints the median and 99th percentile of single turns
//! (criterion reports means of batches), and the render cost alone for comparison.
//!
//! `cargo bench -p stonemate-bot --bench turn`

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng, rngs::StdRng};
use stonemate_bot::clock::{Clock, ManualClock, SystemClock};
use stonemate_bot::service::{Caller, ChannelId, Command, Field, GameId, GuildId, Service, Settings, User, UserId};
use stonemate_bot::store::sample::sample_record;
use stonemate_bot::store::{ColorChoice, GameRecord, MemoryStore, Origin, Phase, SledStore, Store};
use stonemate_engine::{AnyGame, GameKind};

const OPTIONS: &str = "board=25x25";
const STORED_GAMES: u32 = 100_000;
const SAMPLES: usize = 600;
const WARM_UP: usize = 300;

fn caller(name: &str, id: u64) -> Caller {
    Caller::new(User::new(id, name), ChannelId(1), Some(GuildId(1)))
}

/// A long random legal game on 25x25 without passes: the turns to submit.
fn script(rng: &mut StdRng, turns: usize) -> Vec<String> {
    let options = vec![("board".to_owned(), "25x25".to_owned())];
    let mut position = AnyGame::new(GameKind::Go, &options).unwrap();
    let mut played = Vec::new();
    while played.len() < turns {
        let text = (0..400).find_map(|_| {
            let text = format!("R@{}{}", (b'a' + rng.gen_range(0..25u8)) as char, rng.gen_range(1..=25));
            position.clone().play_text(&text).ok().map(|_| text)
        });
        let Some(text) = text else { break };
        position.play_text(&text).unwrap();
        played.push(text);
    }
    played
}

/// Plays turns of the script, starting new games when one runs out; yields the time of
/// each `handle` call.
struct Player {
    service: Service,
    script: Vec<String>,
    id: GameId,
    next: usize,
}

impl Player {
    fn new(store: impl Into<Store>, script: Vec<String>, render: bool) -> Player {
        let clock = Arc::new(ManualClock::at(SystemClock.now()));
        // A fast run plays the script through more often than the active-game limit
        // allows between the same two players (old games stay unfinished).
        let mut settings = Settings { max_active_games: usize::MAX, ..Settings::default() };
        if !render {
            settings.render = |_| Vec::new();
        }
        let service = Service::new(store, clock, settings);
        let mut player = Player { service, script, id: GameId(0), next: 0 };
        player.start();
        player
    }

    fn start(&mut self) {
        let challenge = Command::Challenge {
            opponent: Some(User::new(2, "bob")),
            game: GameKind::Go,
            color: ColorChoice::White,
            days: Some(3),
            options: Some(OPTIONS.into()),
            level: stonemate_bot::service::Level::Medium,
        };
        let reply = self.service.handle(&caller("alice", 1), challenge).reply;
        self.id = reply.about.expect("challenge made");
        let accept = Command::Accept { challenge: Some(self.id) };
        assert!(self.service.handle(&caller("bob", 2), accept).reply.ok);
        self.next = 0;
    }

    /// One timed turn.
    fn turn(&mut self) -> Duration {
        if self.next == self.script.len() {
            self.start();
        }
        // Black (bob) moves first in Go with chess pieces.
        let who = if self.next % 2 == 0 { caller("bob", 2) } else { caller("alice", 1) };
        let command = Command::Move { notation: self.script[self.next].clone(), game: Some(self.id) };
        self.next += 1;
        let started = Instant::now();
        let response = self.service.handle(&who, command);
        let elapsed = started.elapsed();
        assert!(response.reply.ok, "{}", response.reply.text());
        elapsed
    }
}

/// 100,000 games of all states by 2,000 players, written in batches with one flush.
fn fill(store: &SledStore, script: &[String]) {
    let now = SystemClock.now();
    let records = (0..STORED_GAMES).map(|n| {
        let turns = script[..(n as usize % 60)].to_vec();
        let players = [UserId(u64::from(n % 2000) + 10), UserId(u64::from((n * 7 + 1) % 2000) + 10)];
        let record = sample_record(GameKind::Go, &[], players, now);
        GameRecord {
            origin: Origin { channel: ChannelId(u64::from(n % 50)), ..record.origin },
            phase: if n % 3 == 0 { Phase::Playing } else { Phase::Finished },
            turns,
            clock: if n % 3 == 0 { record.clock } else { None },
            ..record
        }
    });
    let records: Vec<GameRecord> = records.collect();
    for chunk in records.chunks(10_000) {
        store.create_many(chunk.iter().cloned()).unwrap();
    }
}

fn percentiles(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    eprintln!(
        "{label}: {} turns, median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3
    );
}

fn render_alone(script: &[String]) {
    let options = vec![("board".to_owned(), "25x25".to_owned())];
    let position = AnyGame::replay(GameKind::Go, &options, &script[..200.min(script.len())]).unwrap().game;
    let picture = stonemate_render::Picture {
        view: position.view(),
        title: "#1 Go with chess pieces".into(),
        players: ["alice".into(), "bob".into()],
        perspective: stonemate_engine::Color::White,
        highlights: Vec::new(),
        arrows: Vec::new(),
        marked: Vec::new(),
    };
    let times = (0..100)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(stonemate_render::png(&picture));
            started.elapsed()
        })
        .collect();
    percentiles("render alone (25x25 png)", times);
}

fn bench(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(25);
    let script = script(&mut rng, 400);
    render_alone(&script);

    let mut player = Player::new(MemoryStore::new(), script.clone(), false);
    percentiles("turn without render or disk (memory store)", (0..SAMPLES).map(|_| player.turn()).collect());

    let empty = tempfile::tempdir().unwrap();
    let store = SledStore::open(empty.path()).unwrap();
    let mut player = Player::new(store.clone(), script.clone(), false);
    percentiles("turn without render, empty database", (0..SAMPLES).map(|_| player.turn()).collect());
    let mut player = Player::new(store, script.clone(), true);
    percentiles("turn, empty database", (0..SAMPLES).map(|_| player.turn()).collect());
    let (id, bob) = (player.id.0.to_string(), caller("bob", 2));
    let complete = |typed: &str| {
        let started = Instant::now();
        let choices = player.service.autocomplete(&bob, Field::Notation, typed, Some(&id));
        assert!(choices.len() <= 25);
        started.elapsed()
    };
    percentiles("autocomplete of legal turns, 25x25", (0..100).map(|i| complete(["", "R@", "R@k"][i % 3])).collect());
    c.bench_function("turn 25x25, empty database", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| player.turn()).sum());
    });

    let full = tempfile::tempdir().unwrap();
    let store = SledStore::open(full.path()).unwrap();
    let started = Instant::now();
    fill(&store, &script);
    eprintln!("stored {STORED_GAMES} games in {:.1} s", started.elapsed().as_secs_f64());
    let mut player = Player::new(store.clone(), script.clone(), false);
    // sled still writes the bulk load out in the background for a while: measure the
    // steady state, as a bot that has been running sees it.
    (0..WARM_UP).for_each(|_| _ = player.turn());
    percentiles("turn without render, 100,000 games stored", (0..SAMPLES).map(|_| player.turn()).collect());
    let mut player = Player::new(store, script, true);
    percentiles("turn, 100,000 games stored", (0..SAMPLES).map(|_| player.turn()).collect());
    c.bench_function("turn 25x25, 100k games stored", |b| {
        b.iter_custom(|iters| (0..iters).map(|_| player.turn()).sum());
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(8));
    targets = bench
}
criterion_main!(benches);
