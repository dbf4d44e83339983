//! Commands racing on one game: many threads submit the same turn, different turns, and
//! turns out of turn at the same moment; one turn of the mover is applied per position,
//! and the stored record is exactly the sequence of confirmed turns.

use std::sync::Barrier;

use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::StdRng};
use stonemate_bot::service::{Command, GameId, Settings};
use stonemate_bot::store::{MemoryStore, Phase, SledStore};
use stonemate_engine::{AnyGame, GameKind};

use super::common::{Table, caller, mv_in};

const THREADS: usize = 8;
const ROUNDS: usize = 16;

/// Who submits what in one round: the mover's turn `a` (four threads), his other turn
/// `b` (two), `a` by the waiting player, and junk by the mover.
fn submissions(mover: &str, waiting: &str, a: &str, b: &str) -> Vec<(String, String)> {
    let mut list = vec![(mover.to_owned(), a.to_owned()); 4];
    list.extend([(mover.to_owned(), b.to_owned()), (mover.to_owned(), b.to_owned())]);
    list.push((waiting.to_owned(), a.to_owned()));
    list.push((mover.to_owned(), "zz".to_owned()));
    list
}

fn race(table: &Table, id: GameId, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut confirmed = Vec::new();
    for _ in 0..ROUNDS {
        let record = table.record(id);
        let position = AnyGame::replay(GameKind::Go, &record.options, &record.turns).unwrap().game;
        let side = position.to_move().unwrap();
        let mover = record.name_of(record.seats.player(side).unwrap()).to_owned();
        let waiting = record.name_of(record.seats.other(record.seats.player(side).unwrap())).to_owned();
        let mut legal: Vec<String> = position.legal_turn_texts().into_iter().filter(|t| t != "pass").collect();
        legal.shuffle(&mut rng);
        let jobs = submissions(&mover, &waiting, &legal[0], &legal[1]);
        let barrier = Barrier::new(THREADS);
        let results: Vec<(String, bool)> = std::thread::scope(|scope| {
            let handles: Vec<_> = jobs
                .iter()
                .map(|(who, turn)| {
                    let (service, barrier) = (&table.service, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        (turn.clone(), service.handle(&caller(who), mv_in(turn, id)).reply.ok)
                    })
                })
                .collect();
            handles.into_iter().map(|handle| handle.join().unwrap()).collect()
        });
        // The mover's turns exclude each other; the waiting player's `a` becomes legal if
        // the mover's `b` landed first, and then it is applied after it.
        let ok = |n: std::ops::Range<usize>| results[n].iter().filter(|(_, ok)| *ok).count();
        assert_eq!(ok(0..6) + ok(7..8), 1, "one turn of the mover per position: {results:?}");
        assert!(ok(6..7) <= 1);
        let mut applied: Vec<String> = results.iter().filter(|(_, ok)| *ok).map(|(turn, _)| turn.clone()).collect();
        let stored = table.record(id).turns;
        let mut new = stored[confirmed.len()..].to_vec();
        applied.sort();
        new.sort();
        assert_eq!(applied, new, "the stored turns are exactly the confirmed ones");
        confirmed = stored;
    }
    let record = table.record(id);
    let replay = AnyGame::replay(GameKind::Go, &record.options, &record.turns).unwrap();
    assert!(replay.error.is_none());
    assert_eq!(record.version, 2 + record.turns.len() as u64, "one write per applied turn");
    assert!(record.turns.len() >= ROUNDS);
}

#[test]
fn racing_turns_on_sled_apply_exactly_the_legal_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
    let id = table.go("alice", "bob", 3, "board=9x9");
    race(&table, id, 1);
}

#[test]
fn racing_turns_in_memory_apply_exactly_the_legal_sequence() {
    let table = Table::with(MemoryStore::new(), Settings::default());
    let id = table.go("alice", "bob", 3, "board=9x9");
    race(&table, id, 2);
}

#[test]
fn racing_accepts_and_resigns_apply_once() {
    let dir = tempfile::tempdir().unwrap();
    let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
    let id = table.challenge("alice", "bob", "go", 3, "board=9x9");
    let barrier = Barrier::new(THREADS);
    let oks: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|n| {
                let (service, barrier) = (&table.service, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    let response = if n % 2 == 0 {
                        service.handle(&caller("bob"), Command::Accept { challenge: Some(id) })
                    } else {
                        service.press(&caller("bob"), &format!("decline:{}", id.0))
                    };
                    usize::from(response.reply.ok)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).sum()
    });
    assert_eq!(oks, 1, "one answer to a challenge");
    assert_eq!(table.record(id).version, 2);
}

#[test]
fn racing_ticks_send_each_notice_once() {
    let dir = tempfile::tempdir().unwrap();
    // With timeouts = "claim", in games both players began: one notice per time out.
    let settings = Settings { timeouts: stonemate_bot::service::Timeouts::Claim, ..Settings::default() };
    let table = Table::with(SledStore::open(dir.path()).unwrap(), settings);
    for opponent in ["b1", "b2", "b3"] {
        let id = table.go("alice", opponent, 1, "board=9x9");
        super::ratings::opening(&table, id, "alice", opponent);
    }
    table.advance(stonemate_bot::clock::Span::days(2));
    let barrier = Barrier::new(THREADS);
    let sent: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                let (service, barrier) = (&table.service, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    service.tick().len()
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).sum()
    });
    assert_eq!(sent, 3, "one timeout notice per game");
}

#[test]
fn racing_rematch_presses_make_one_game() {
    for round in 0..8 {
        let table = Table::new();
        let id = table.go("alice", "bob", 3, "board=9x9");
        table.ok("alice", Command::Resign { game: Some(id) });
        assert!(table.service.press(&caller("alice"), &format!("resign:{}", id.0)).reply.ok);
        // Both players press Rematch, each twice, at the same moment.
        let barrier = Barrier::new(4);
        std::thread::scope(|scope| {
            for who in ["alice", "bob", "alice", "bob"] {
                let (service, barrier) = (&table.service, &barrier);
                scope.spawn(move || {
                    barrier.wait();
                    service.press(&caller(who), &format!("rematch:{}", id.0))
                });
            }
        });
        let records: Vec<_> = (2..=8).filter_map(|n| table.service.store().load(GameId(n)).unwrap()).collect();
        let standing: Vec<_> = records.iter().filter(|record| record.phase != Phase::Withdrawn).collect();
        let [rematch] = standing.as_slice() else { panic!("round {round}: {records:#?}") };
        assert_eq!(rematch.origin.rematch_of, Some(id));
        assert_eq!(rematch.phase, Phase::Playing, "round {round}: the other player's press accepted it");
    }
}
