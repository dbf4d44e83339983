//! Tournaments in every store (issue 39): a start writes the tournament and all its first
//! games in one batch or nothing, a Swiss round is paired once whoever races to pair it,
//! and an export carries tournaments.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier};

use stonemate_bot::clock::Timestamp;
use stonemate_bot::ids::{ChannelId, GameId, GuildId, TournamentId, UserId};
use stonemate_bot::store::backend::{Batch, Entries, KeyRange};
use stonemate_bot::store::sample::sample_record;
use stonemate_bot::store::tournaments::{Change, Joined};
use stonemate_bot::store::{
    Backend, GameRecord, Phase, PostgresStore, Store, StoreError, TournamentRecord, TournamentStatus, TournamentTag,
    Tournaments, check, export,
};
use stonemate_engine::GameKind;
use stonemate_tournament::{Colour, Format, GameRef, GameResult, Step, Tournament};

use super::Kind;

const NOW: Timestamp = Timestamp(1_750_000_000_000);
const SERVER: GuildId = GuildId(1);

/// An open tournament of `players` entrants (users 101, 102, ...).
fn open(format: Format, players: u64) -> TournamentRecord {
    TournamentRecord {
        id: TournamentId(0),
        version: 0,
        guild: SERVER,
        channel: ChannelId(1),
        creator: UserId(100),
        name: "Autumn cup".into(),
        kind: GameKind::Go,
        options: Vec::new(),
        days: 3,
        format,
        rated: true,
        max: 100,
        starts_at: Some(NOW),
        created: NOW,
        status: TournamentStatus::Open,
        entrants: (1..=players).map(|n| Joined { user: UserId(100 + n), name: format!("player{n}") }).collect(),
        state: None,
        games: Vec::new(),
        standings_message: None,
    }
}

/// The game record of one tournament game, as a start or a round makes it.
fn game_of(record: &TournamentRecord, state: &Tournament, game: GameRef) -> (GameRef, GameRecord) {
    let played = state.game(game).unwrap();
    let users = [UserId(played.pairing.white.0), UserId(played.pairing.black.0)];
    let mut made = sample_record(record.kind, &record.options, users, NOW);
    made.origin.tournament = Some(TournamentTag { id: record.id, round: played.round });
    (game, made)
}

/// The change that starts `record` (read as `stored`): the state and every first game.
fn start(tournaments: &Tournaments, id: TournamentId) -> Result<(TournamentRecord, Vec<GameRecord>), StoreError> {
    let (record, stored) = tournaments.read(id)?.unwrap();
    let state = Tournament::start(record.format, &record.entrants_rated(|_| None)).unwrap();
    let games = (0..state.games().len() as u32).map(|n| game_of(&record, &state, GameRef(n))).collect();
    let to = TournamentRecord { status: TournamentStatus::Running, state: Some(state), ..record.clone() };
    tournaments.write(Change {
        from: (&record, &stored),
        to,
        new_games: games,
        changed: Vec::new(),
        notices: &|_| Vec::new(),
    })
}

/// Fails, while armed, every batch that writes a tournament: as a disk that fails
/// mid-start would.
#[derive(Debug)]
struct Failing {
    inner: Arc<dyn Backend>,
    armed: AtomicBool,
}

impl Backend for Failing {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }
    fn scan(&self, range: &KeyRange) -> Result<Entries, StoreError> {
        self.inner.scan(range)
    }
    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        if self.armed.load(Ordering::SeqCst) && batch.writes.iter().any(|(key, _)| key.first() == Some(&b't')) {
            return Err(StoreError::Database("injected: the write failed".into()));
        }
        self.inner.apply(batch)
    }
    fn next_id(&self) -> Result<u64, StoreError> {
        self.inner.next_id()
    }
    fn flush(&self) -> Result<(), StoreError> {
        self.inner.flush()
    }
}

pub fn a_start_writes_the_tournament_and_all_its_games_or_nothing(kind: Kind) {
    let fresh = kind.open();
    let failing = Arc::new(Failing { inner: fresh.store.backend().clone(), armed: AtomicBool::new(false) });
    let store = Store::from(failing.clone());
    let tournaments = Tournaments::of(&store);
    let id = tournaments.create(open(Format::RoundRobin { division: 10, double: false }, 7)).unwrap().id;
    assert_eq!(id, TournamentId(1));
    // A game made before, so that the tournament's games take the ids after it.
    store.create(sample_record(GameKind::Go, &[], [UserId(1), UserId(2)], NOW)).unwrap();
    let before = store.dump().unwrap();
    failing.armed.store(true, Ordering::SeqCst);
    assert!(matches!(start(&tournaments, id), Err(StoreError::Database(_))));
    assert_eq!(store.dump().unwrap(), before, "a failed start writes no game and no state");
    assert_eq!(tournaments.load(id).unwrap().unwrap().status, TournamentStatus::Open);
    failing.armed.store(false, Ordering::SeqCst);
    let (started, games) = start(&tournaments, id).unwrap();
    assert_eq!(games.len(), 21, "7 players, everyone against everyone");
    assert_eq!(started.games, (2..=22).map(GameId).collect::<Vec<_>>());
    assert_eq!(tournaments.load(id).unwrap().unwrap(), started);
    for game in &games {
        let stored = store.load(game.id).unwrap().unwrap();
        assert_eq!(stored.origin.tournament.map(|tag| tag.id), Some(id));
        assert_eq!(stored.phase, Phase::Playing);
    }
    assert_eq!(store.create(sample_record(GameKind::Go, &[], [UserId(1), UserId(2)], NOW)).unwrap().id, GameId(23));
    assert_eq!(tournaments.in_server(SERVER).unwrap(), [(id, TournamentStatus::Running)]);
    assert_eq!(tournaments.running().unwrap(), [id]);
    assert!(tournaments.starting(NOW).unwrap().is_empty(), "a started tournament no longer waits to start");
    assert_eq!(check::check(&store), Ok(23), "the check reads tournament keys as data");
}

pub fn an_export_carries_tournaments(kind: Kind) {
    let source = Kind::Memory.open();
    let tournaments = Tournaments::of(&source.store);
    let running = tournaments.create(open(Format::Swiss { rounds: Some(3) }, 9)).unwrap().id;
    let waiting = tournaments.create(open(Format::RoundRobin { division: 4, double: true }, 3)).unwrap().id;
    start(&tournaments, running).unwrap();
    let mut lines = Vec::new();
    export::export(&source.store, &mut lines).unwrap();
    let fresh = kind.open();
    assert_eq!(export::import(&fresh.store, lines.as_slice()).unwrap(), 4, "round 1 of a 9-player Swiss");
    assert_eq!(fresh.store.dump().unwrap(), source.store.dump().unwrap());
    let copied = Tournaments::of(&fresh.store);
    assert_eq!(copied.starting(NOW).unwrap(), [waiting]);
    assert_eq!(copied.create(open(Format::Swiss { rounds: None }, 2)).unwrap().id, TournamentId(3));
}

/// Ends every unfinished game of round `round` (White wins) and records it, as the
/// game-end hook does: all but the last in one change each.
fn finish_round(store: &Store, id: TournamentId) -> (TournamentRecord, Tournament) {
    let tournaments = Tournaments::of(store);
    let record = tournaments.load(id).unwrap().unwrap();
    let mut state = record.state.clone().unwrap();
    for (index, game) in state.games().to_vec().iter().enumerate() {
        if game.result.is_none() {
            let mut ended = store.load(record.games[index]).unwrap().unwrap();
            ended.version += 1;
            ended.phase = Phase::Finished;
            ended.clock = None;
            store.update_with(&ended, &[], &[]).unwrap();
            let step = state.record(GameRef(index as u32), GameResult::Win { winner: Colour::White }).unwrap();
            assert!(!matches!(step, Step::Waiting) || index + 1 < state.games().len());
        }
    }
    (record, state)
}

/// Two processes on one PostgreSQL database both see the round's last result and both
/// pair the next round: one writes it, the other is refused and, reading again, finds it
/// paired: the round's games exist once.
#[test]
fn two_processes_on_one_postgres_database_pair_a_round_once() {
    let database = stonemate_tests::postgres::database();
    let stores: [Store; 2] =
        [PostgresStore::open(&database.url).unwrap().into(), PostgresStore::open(&database.url).unwrap().into()];
    let tournaments = Tournaments::of(&stores[0]);
    let id = tournaments.create(open(Format::Swiss { rounds: Some(3) }, 9)).unwrap().id;
    start(&tournaments, id).unwrap();
    let (record, state) = finish_round(&stores[0], id);
    assert_eq!(state.round(), 2, "the last result paired round 2");
    let barrier = Barrier::new(2);
    let outcomes: Vec<Result<usize, StoreError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = stores
            .iter()
            .map(|store| {
                let (barrier, record, state) = (&barrier, &record, &state);
                scope.spawn(move || {
                    let tournaments = Tournaments::of(store);
                    let (read, stored) = tournaments.read(id).unwrap().unwrap();
                    assert_eq!(&read, record);
                    let first = read.games.len() as u32;
                    let games =
                        (first..state.games().len() as u32).map(|n| game_of(&read, state, GameRef(n))).collect();
                    let to = TournamentRecord { state: Some(state.clone()), ..read.clone() };
                    barrier.wait();
                    let change = Change {
                        from: (&read, &stored),
                        to,
                        new_games: games,
                        changed: Vec::new(),
                        notices: &|_| Vec::new(),
                    };
                    tournaments.write(change).map(|(_, games)| games.len())
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    let written: Vec<usize> = outcomes.iter().filter_map(|outcome| outcome.as_ref().ok().copied()).collect();
    assert_eq!(written, [4], "{outcomes:?}");
    assert!(outcomes.iter().any(|outcome| matches!(outcome, Err(StoreError::Conflict))), "{outcomes:?}");
    let paired = tournaments.load(id).unwrap().unwrap();
    assert_eq!(paired.games.len(), 8, "rounds 1 and 2, four games each");
    let mut ids = paired.games.clone();
    ids.dedup();
    assert_eq!(ids.len(), 8);
    // Four games of round 1 and four of round 2: no game was made twice.
    assert_eq!(stores[1].load(GameId(9)).unwrap(), None);
    assert_eq!(check::check(&stores[1]), Ok(8));
}
