//! One turn end to end through the service (load, check, apply, store; no picture) on
//! sled and on PostgreSQL side by side: median and 99th percentile of single turns.
//! PostgreSQL runs a throwaway cluster with its durable defaults (fsync on each commit), on
//! 127.0.0.1; sled flushes each write as the bot does.
//!
//! `cargo bench -p stonemate-tests --bench store_turn`

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::StdRng};
use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::service::{Caller, ChannelId, Command, GameId, GuildId, Service, Settings, User};
use stonemate_bot::store::{PostgresStore, SledStore, Store};
use stonemate_engine::{AnyGame, GameKind};
use stonemate_tests::postgres::{Cluster, DURABLE};

const TURNS: usize = 1_000;
const WARM_UP: usize = 100;

/// Plays random legal turns on 19x19 games, a new pair of players for each game; returns
/// the time of each turn's `handle` call.
fn measure(store: impl Into<Store>) -> Vec<Duration> {
    let settings = Settings { render: |_| Vec::new(), ..Settings::default() };
    let service = Service::new(store, Arc::new(ManualClock::at(Timestamp(1_700_000_000_000))), settings);
    let mut rng = StdRng::seed_from_u64(7);
    let mut times = Vec::new();
    let mut pair = 0u64;
    let mut playing = None;
    while times.len() < TURNS + WARM_UP {
        let id = *playing.get_or_insert_with(|| {
            pair += 1;
            start(&service, pair)
        });
        let record = service.store().load(id).unwrap().unwrap();
        let position = AnyGame::replay(record.kind, &record.options, &record.turns).unwrap().game;
        let mut legal: Vec<String> = position.legal_turn_texts().into_iter().filter(|t| t != "pass").collect();
        legal.shuffle(&mut rng);
        let (Some(side), Some(turn)) = (position.to_move(), legal.first()) else {
            playing = None;
            continue;
        };
        let mover = record.seats.player(side).unwrap();
        let caller = Caller::new(User::new(mover.0, record.name_of(mover)), record.channel(), record.guild());
        let command = Command::Move { notation: turn.clone(), game: Some(id) };
        let began = Instant::now();
        assert!(service.handle(&caller, command).reply.ok);
        times.push(began.elapsed());
    }
    times.split_off(WARM_UP)
}

fn start(service: &Service, pair: u64) -> GameId {
    let (white, black) = (User::new(pair * 2, "white"), User::new(pair * 2 + 1, "black"));
    let caller = |user: &User| Caller::new(user.clone(), ChannelId(1), Some(GuildId(1)));
    let challenge = Command::Challenge {
        opponent: Some(black.clone()),
        game: GameKind::Go,
        color: stonemate_bot::service::ColorChoice::White,
        days: Some(3),
        options: Some("board=19x19".into()),
        level: stonemate_bot::service::Level::Medium,
    };
    let id = service.handle(&caller(&white), challenge).reply.about.expect("challenge made");
    assert!(service.handle(&caller(&black), Command::Accept { challenge: Some(id) }).reply.ok);
    id
}

fn report(name: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    let total: Duration = times.iter().sum();
    println!(
        "{name:<10} turns {:>5}  median {:>8.3} ms  p99 {:>8.3} ms  ({:.0} turns/s one after another)",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times.len() as f64 / total.as_secs_f64()
    );
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    report("sled", measure(SledStore::open(dir.path()).unwrap()));
    let cluster = Cluster::start(DURABLE).unwrap_or_else(|error| panic!("{error}"));
    let database = cluster.create_database().unwrap();
    report("postgres", measure(PostgresStore::open(&database.url).unwrap()));
}
