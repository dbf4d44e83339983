//! `stonemate suggest`: the bot's turn after a record, plain or as JSON, and its exit
//! statuses (1: a turn of the record is illegal; 2: bad arguments or a finished game).

use crate::cli;

use std::process::Output;

use serde_json::Value;
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

fn suggest(args: &[&str], stdin: &str) -> Output {
    cli::stonemate("suggest", args, stdin)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {output:?}"))
}

/// Whether `turn` is legal after `record` in `kind` with these options.
fn legal_after(kind: GameKind, options: &[(&str, &str)], record: &str, turn: &str) -> bool {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let replay = AnyGame::replay(kind, &options, &record_tokens(record)).expect("valid options");
    assert!(replay.error.is_none());
    replay.game.legal_turn_texts().contains(&turn.to_owned())
}

#[test]
fn the_turn_is_printed_alone_on_one_line_in_the_games_notation() {
    let output =
        suggest(&["--game", "go", "--option", "board=9x9", "--nodes", "60", "--seed", "3", "--threads", "1"], "e5 c3");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 1, "{text:?}");
    let turn = text.trim_end();
    assert!(legal_after(GameKind::Go, &[("board", "9x9")], "e5 c3", turn), "{turn}");
}

#[test]
fn every_game_gets_a_legal_suggestion_from_its_start() {
    for kind in GameKind::ALL {
        let output = suggest(&["--game", kind.name(), "--nodes", "20", "--seed", "1", "--threads", "1"], "");
        assert_eq!(output.status.code(), Some(0), "{kind}: {output:?}");
        let turn = stdout(&output).trim_end().to_owned();
        assert!(legal_after(kind, &[], "", &turn), "{kind}: {turn}");
    }
}

#[test]
fn json_gives_the_turn_and_the_search_figures() {
    let output = suggest(&["--game", "chogo", "--json", "--nodes", "80", "--seed", "5", "--threads", "2"], "K@d3 K@e5");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value = json(&output);
    let turn = value["turn"].as_str().expect("turn is text");
    assert!(legal_after(GameKind::Chogo, &[], "K@d3 K@e5", turn), "{turn}");
    assert_eq!(value["nodes"], 80);
    assert_eq!(value["seed"], 5);
    assert_eq!(value["threads"], 2);
    assert_eq!(value["level"], "medium");
    let v = value["value"].as_f64().expect("value is a number");
    assert!((0.0..=1.0).contains(&v));
    assert!(value["time_ms"].as_u64().is_some());
    assert!(value["accepts_draw"].is_boolean() && value["resigns"].is_boolean());
    let candidates = value["candidates"].as_array().expect("candidates");
    assert!(!candidates.is_empty() && candidates.len() <= 5);
}

#[test]
fn the_same_seed_suggests_the_same_turn() {
    let args = ["--game", "ichess", "--json", "--nodes", "150", "--seed", "99", "--threads", "2"];
    let first = json(&suggest(&args, "Q=d1 q=d8"));
    let again = json(&suggest(&args, "Q=d1 q=d8"));
    assert_eq!(first["turn"], again["turn"]);
    assert_eq!(first["nodes"], again["nodes"]);
    assert_eq!(first["value"], again["value"]);
    assert_eq!(first["candidates"], again["candidates"]);
}

#[test]
fn a_proven_win_is_reported_as_proven() {
    // Gess is not needed: in go on 2x2, after Black's a1 and White's pass, Black's pass
    // ends the game with Black owning the board.
    let output =
        suggest(&["--game", "go", "--option", "board=2x2", "--json", "--nodes", "200", "--seed", "1"], "a1 pass");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value = json(&output);
    assert_eq!(value["turn"], "pass");
    assert_eq!(value["proven"], "win");
    assert_eq!(value["value"], 1.0);
}

#[test]
fn an_illegal_turn_of_the_record_exits_1_naming_it() {
    let output = suggest(&["--game", "go", "--option", "board=5x5", "--nodes", "10"], "c3 c3");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("turn 2") && stderr.contains("c3"), "{stderr}");
    assert!(output.stdout.is_empty());
}

/// The README's example: a game in progress, so that the command there prints a turn.
#[test]
fn the_readme_example_has_a_turn_to_suggest() {
    let record = include_str!("../../examples/go-9x9-opening.txt");
    let output = suggest(&["--game", "go", "--option", "board=9x9", "--nodes", "60", "--seed", "1"], record);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(legal_after(GameKind::Go, &[("board", "9x9")], record, stdout(&output).trim_end()), "{output:?}");
}

#[test]
fn a_finished_game_exits_2_with_no_turn_to_suggest() {
    let output = suggest(&["--game", "go", "--option", "board=5x5", "--nodes", "10"], "c3 pass pass");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("over"));
    assert!(output.stdout.is_empty());
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        &["--game", "go", "--level", "expert"][..],
        &["--game", "checkers"],
        &["--game", "go", "--option", "board"],
        &["--game", "go", "--option", "colour=red"],
        &["--game", "go", "--threads", "0"],
        &["--game", "go", "--nodes", "many"],
        &["--game", "go", "/no/such/record.txt"],
    ] {
        let output = suggest(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    }
}

#[test]
fn a_time_budget_overrides_the_level() {
    let output =
        suggest(&["--game", "go", "--option", "board=9x9", "--level", "hard", "--budget-ms", "50", "--json"], "");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value = json(&output);
    assert!(value["time_ms"].as_u64().expect("time") < 2_000, "{value}");
    assert_eq!(value["level"], "hard");
}
