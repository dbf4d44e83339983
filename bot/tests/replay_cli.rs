//! `stonemate replay` as scripts use it: arguments, the JSON object, and exit statuses
//! (the contract in `docs/replay-cli.md`).

use crate::cli;

use std::process::Output;

use serde_json::Value;
use stonemate_engine::{AnyGame, GameKind};

fn replay(args: &[&str], stdin: &str) -> Output {
    cli::stonemate("replay", args, stdin)
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {output:?}"))
}

const EXAMPLE: &str = include_str!("../../examples/go-9x9.txt");

#[test]
fn a_finished_go_game_prints_every_field_in_order() {
    let output = replay(&["--game", "go", "--option", "board=9x9", "-"], EXAMPLE);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value = json(&output);
    let keys: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
    let expected = [
        "game", "options", "turns", "status", "result", "reason", "to_move", "score", "board", "hands", "owner",
        "legal",
    ];
    assert_eq!(keys, expected);
    assert_eq!(value["game"], "go");
    assert_eq!(value["options"]["board"], "9x9");
    assert_eq!(value["options"]["pieces"], "R");
    assert_eq!(value["turns"], 20);
    assert_eq!((value["status"].as_str(), value["result"].as_str()), (Some("finished"), Some("black")));
    assert_eq!(value["reason"], "two passes");
    assert_eq!(value["to_move"], Value::Null);
    assert_eq!(value["score"], serde_json::json!({"white": 27, "black": 36}));
    assert_eq!(value["board"].as_array().unwrap().len(), 9);
    assert_eq!(value["board"][0], "...Rr....");
    assert_eq!(value["hands"], Value::Null);
    assert_eq!(value["owner"].as_object().unwrap().len(), 63);
    assert_eq!(value["owner"]["a1"], "white");
    assert_eq!(value["owner"]["i9"], "black");
    assert_eq!(value["legal"], serde_json::json!([]));
}

#[test]
fn the_record_is_read_from_a_file_and_komi_halves_print_as_decimals() {
    let dir = std::env::temp_dir().join(format!("stonemate-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("record.txt");
    std::fs::write(&file, "1. d4 # black\n1... pass\n").unwrap();
    let output = replay(&["--game", "go", "--option", "board=5x5", "--option", "komi=6.5", file.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value = json(&output);
    assert_eq!(value["turns"], 2);
    assert_eq!(value["to_move"], "black");
    assert_eq!(value["score"]["white"], 6.5);
    assert_eq!(value["score"]["black"], 24);
    assert!(value["legal"].as_array().unwrap().contains(&Value::from("pass")));
    assert!(value["legal"].as_array().unwrap().contains(&Value::from("R@a1")));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_illegal_turn_exits_1_with_the_position_before_it() {
    let output = replay(&["--game", "go", "--option", "board=5x5"], "c3 d3 c3 e5");
    assert_eq!(output.status.code(), Some(1));
    let value = json(&output);
    assert_eq!(value["turns"], 2);
    assert_eq!(value["board"][2], "..rR.");
    let error = &value["error"];
    assert_eq!(error["index"], 3);
    assert_eq!(error["turn"], "c3");
    assert!(error["message"].as_str().unwrap().contains("c3 is not empty"), "{error}");
}

#[test]
fn unreadable_turns_are_errors_too() {
    let output = replay(&["--game", "go", "--option", "board=5x5"], "c3 hello");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(json(&output)["error"]["index"], 2);
}

#[test]
fn bad_arguments_exit_2_naming_the_problem() {
    let cases: [(&[&str], &str); 4] = [
        (&["--game", "chess"], "chess"),
        (&["--game", "go", "--option", "colour=red"], "colour"),
        (&["--game", "go", "--option", "board=99x99"], "board"),
        (&["--game", "go", "--option", "board"], "board"),
    ];
    for (args, named) in cases {
        let output = replay(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?} prints no JSON");
        assert!(String::from_utf8_lossy(&output.stderr).contains(named), "{args:?}: {output:?}");
    }
    let missing = replay(&["--game", "go", "/nonexistent/record.txt"], "");
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn every_game_name_is_accepted() {
    for kind in GameKind::ALL {
        let output = replay(&["--game", kind.name()], "");
        if AnyGame::is_available(kind) {
            assert_eq!(output.status.code(), Some(0), "{kind}: {output:?}");
            assert_eq!(json(&output)["status"], "ongoing");
        } else {
            assert_eq!(output.status.code(), Some(2), "{kind}");
            assert!(String::from_utf8_lossy(&output.stderr).contains("not available yet"), "{kind}");
        }
    }
}

#[test]
fn a_go_record_ending_in_a_dead_agreement_scores_without_the_dead_pieces() {
    let args = ["--game", "go", "--option", "board=5x5", "--option", "counting=on", "-"];
    let played = "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5\npass a3 pass pass\n";
    let counting = json(&replay(&args, played));
    assert_eq!((counting["status"].as_str(), counting["to_move"].as_str()), (Some("ongoing"), Some("black")));
    assert_eq!(counting["score"], serde_json::json!({"white": 5, "black": 0}), "the rook on a3 spoils the a-file");

    let output = replay(&args, &format!("{played}dead a3 # agreed\n"));
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value = json(&output);
    assert_eq!(value["options"]["counting"], "on");
    assert_eq!(value["turns"], 15);
    assert_eq!((value["status"].as_str(), value["result"].as_str()), (Some("finished"), Some("black")));
    assert_eq!(value["reason"], "counting");
    assert_eq!(value["score"], serde_json::json!({"white": 5, "black": 6}), "five squares and the prisoner");
    assert_eq!(value["board"][2], ".r.R.", "the dead rook is off the board");
    assert_eq!(value["owner"]["a3"], "black");
    assert_eq!(value["legal"], serde_json::json!([]));

    let output = replay(&args, &format!("{played}dead c3"));
    assert_eq!(output.status.code(), Some(1));
    let value = json(&output);
    assert_eq!((value["error"]["index"].as_u64(), value["error"]["turn"].as_str()), (Some(15), Some("dead c3")));
    assert!(value["error"]["message"].as_str().unwrap().contains("rule 10"), "{value}");
}
