//! `/score` (spec, fourth wave "following games"): privately, the estimate of a go or
//! Chego game as it stands (go's dead pieces guessed as the counting phase guesses them),
//! in the go form; refused in other games and where the game's options say
//! `analysis=off`, which records and `/board` keep.

use stonemate_bot::service::{Command, GameId};
use stonemate_engine::{AnyGame, EndReason, Ending, GameKind, GameResult};

use super::common::{Table, mv_in, typed};

/// `/score` in game `id`.
fn score(id: GameId) -> super::common::Call {
    typed("score", &[("game", super::common::text(&id.0.to_string()))])
}

/// Plays `turns` alternately, `first` then `second`.
fn play(table: &Table, id: GameId, (first, second): (&str, &str), turns: &[&str]) {
    for (index, turn) in turns.iter().enumerate() {
        table.ok(if index % 2 == 0 { first } else { second }, mv_in(turn, id));
    }
}

/// 5x5, Black (bob) walls the c-file, White (alice) the d-file; White's rook at a3 sits in
/// Black's area, where it cannot live. No one has passed: the game goes on.
const WALLS: [&str; 12] = ["c1", "d1", "c2", "d2", "c3", "d3", "c4", "d4", "c5", "d5", "pass", "a3"];

/// The go form of the result a record would end with if both passed now and `dead` were
/// agreed, computed by the engine alone.
fn counted_result(options: &[(String, String)], turns: &[String], dead: &str) -> String {
    let mut all: Vec<String> = turns.to_vec();
    all.extend(["pass", "pass", dead].map(str::to_owned));
    let replay = AnyGame::replay(GameKind::Go, options, &all).expect("options");
    assert_eq!(replay.error, None);
    let score = replay.game.score().expect("scored");
    GameResult::new(Ending { outcome: score.outcome(), reason: EndReason::Counted }, Some(score)).to_string()
}

#[test]
fn score_in_go_crosses_out_the_dead_rook_and_counts_without_it_privately() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=5x5 komi=0.5");
    play(&table, id, ("bob", "alice"), &WALLS);
    let before = table.record(id);
    let response = table.ok("bob", score(id));
    let reply = &response.reply;
    assert!(reply.private, "an estimate is for the caller only");
    assert!(response.notices.is_empty());
    assert_eq!(reply.images.len(), 1, "the board with the estimate marked");
    let expected = counted_result(&before.options, &before.turns, "dead a3");
    assert!(reply.text().contains(&format!(": {expected} (")), "{expected} in {}", reply.text());
    assert!(reply.text().contains("Dead: a3 (crossed out"), "{}", reply.text());
    assert_eq!(table.record(id), before, "the game is not touched");
    // The game goes on from where it was: Black (bob) to move.
    table.ok("bob", mv_in("pass", id));
}

#[test]
fn score_in_chego_counts_controlled_squares_and_captures_as_they_stand() {
    let table = Table::new();
    let id = table.challenge("alice", "bob", "chego", 3, "board=4x4 set=R2 N2");
    table.ok("bob", Command::Accept { challenge: super::common::game_opt(id) });
    play(&table, id, ("alice", "bob"), &["Ra1", "Rd4"]);
    let record = table.record(id);
    let replay = AnyGame::replay(GameKind::Chego, &record.options, &record.turns).expect("options");
    let score = replay.game.score().expect("Chego is scored");
    let expected =
        GameResult::new(Ending { outcome: score.outcome(), reason: EndReason::Counted }, Some(score)).to_string();
    let reply = table.ok("carol", score_of(id)).reply;
    assert!(reply.private && reply.images.len() == 1);
    assert!(
        reply.text().contains(&format!(": {expected} (white {}, black {})", score.white, score.black)),
        "{}",
        reply.text()
    );
    assert!(!reply.text().contains("Dead"), "Chego removes no dead pieces: {}", reply.text());
}

/// The same as [`score`]: an onlooker may ask as a player may.
fn score_of(id: GameId) -> super::common::Call {
    score(id)
}

#[test]
fn score_is_refused_where_analysis_is_off_and_in_games_without_points() {
    let table = Table::new();
    let off = table.go("alice", "bob", 3, "board=9x9 analysis=off");
    let record = table.record(off);
    assert!(record.options.contains(&("analysis".to_owned(), "off".to_owned())), "{:?}", record.options);
    let board = table.ok("carol", Command::Board { game: Some(off) }).reply.text();
    assert!(board.contains("analysis=off"), "{board}");
    let refusal = table.refused("bob", score(off));
    assert!(refusal.contains("analysis=off"), "{refusal}");
    let on = table.go("carol", "dave", 3, "board=9x9");
    assert!(!table.record(on).options.iter().any(|(key, _)| key == "analysis"), "on is the bare default");
    let board = table.ok("carol", Command::Board { game: Some(on) }).reply.text();
    assert!(board.contains("analysis=on"), "{board}");
    let gess = table.challenge("erin", "frank", "gess", 3, "analysis=on");
    table.ok("frank", Command::Accept { challenge: super::common::game_opt(gess) });
    let refusal = table.refused("erin", score(gess));
    assert!(refusal.contains("estimates go and Chego games"), "{refusal}");
    let refusal = table.refused(
        "erin",
        typed(
            "challenge",
            &[("game", super::common::text("ichess")), ("options", super::common::text("analysis=maybe"))],
        ),
    );
    assert!(refusal.contains("`analysis`"), "{refusal}");
}
