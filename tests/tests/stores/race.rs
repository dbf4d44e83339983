//! Two processes (not threads) racing on one game in one PostgreSQL database: each plays
//! random legal turns for whoever is to move, so they keep submitting different turns for
//! the same position. The stored game must be exactly the confirmed turns, legal in order.

use std::process::Command as Process;

use stonemate_bot::service::Settings;
use stonemate_bot::store::PostgresStore;
use stonemate_engine::AnyGame;

use super::common::Table;

const PROCESSES: usize = 2;
const TURNS: usize = 60;

#[test]
fn two_processes_racing_on_one_game_apply_exactly_the_legal_sequence() {
    let database = stonemate_tests::postgres::database();
    let table = Table::with(PostgresStore::open(&database.url).unwrap(), Settings::default());
    let id = table.go("alice", "bob", 3, "board=9x9");
    // All processes start before any is waited on.
    let children: Vec<_> = (0..PROCESSES)
        .map(|seed| {
            Process::new(env!("CARGO_BIN_EXE_race_player"))
                .args([database.url.as_str(), &id.0.to_string(), &TURNS.to_string(), &seed.to_string()])
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut confirmed = Vec::new();
    let mut refused = 0;
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "a player process failed: {}", output.status);
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            match line.split_once(' ') {
                Some(("ok", turn)) => confirmed.push(turn.to_owned()),
                Some(("no", _)) => refused += 1,
                _ => panic!("unexpected line {line:?}"),
            }
        }
    }
    eprintln!("{} turns confirmed, {refused} refused", confirmed.len());
    let record = table.record(id);
    let replay = AnyGame::replay(record.kind, &record.options, &record.turns).unwrap();
    assert!(replay.error.is_none(), "the stored turns are legal in order");
    let mut stored = record.turns.clone();
    stored.sort();
    confirmed.sort();
    assert_eq!(stored, confirmed, "the stored turns are exactly the confirmed ones");
    assert_eq!(record.version, 2 + record.turns.len() as u64, "one write per applied turn");
    assert!(refused > 0, "the processes never raced (no turn was refused)");
}
