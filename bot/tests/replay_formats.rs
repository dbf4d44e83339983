//! `stonemate replay` reads SGF and PGN as well as our own records, telling them apart by
//! their content: the files `/history` attaches replay to the same JSON as its own record;
//! a file from a go program replays with the board it names; `--game` must agree with the
//! record's own game and `--option` with its options, else exit status 2 says which.

use crate::cli;

use std::path::Path;
use std::process::Output;

use serde_json::Value;
use stonemate_engine::notation::record_tokens;

fn replay(args: &[&str], stdin: &str) -> Output {
    cli::stonemate("replay", args, stdin)
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("JSON on stdout ({e}): {output:?}"))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs `script` in the console on a fresh database in `dir`; returns the files of the
/// last reply (the `/history` at its end).
fn history_files(dir: &Path, script: &str) -> Vec<String> {
    let data = dir.join("data");
    let output = cli::stonemate("console", &["--data", data.to_str().unwrap(), "--json"], script);
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let history: Value = serde_json::from_str(text.lines().last().expect("a reply")).unwrap();
    assert_eq!(history["command"], "history", "{history}");
    history["files"].as_array().unwrap().iter().map(|file| file.as_str().unwrap().to_owned()).collect()
}

fn ending(files: &[String], extension: &str) -> String {
    files
        .iter()
        .find(|file| file.ends_with(extension))
        .cloned()
        .unwrap_or_else(|| panic!("no {extension} in {files:?}"))
}

/// The record file replayed as its `# replay:` line says, and the exported file replayed
/// with `--game` alone: both print the same JSON, and exit 0.
fn same_json(record: &str, exported: &str, kind: &str) {
    let text = std::fs::read_to_string(record).unwrap();
    let line = text.lines().find_map(|line| line.strip_prefix("# replay: stonemate replay ")).unwrap();
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.pop();
    args.push(record);
    let own = replay(&args, "");
    assert_eq!(own.status.code(), Some(0), "{own:?}");
    let other = replay(&["--game", kind, exported], "");
    assert_eq!(other.status.code(), Some(0), "{}: {}", exported, stderr(&other));
    assert_eq!(json(&other), json(&own), "{exported} replays like {record}");
}

#[test]
fn a_history_sgf_replays_like_the_own_record() {
    let dir = tempfile::tempdir().unwrap();
    let script = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9 komi=6.5 pieces=RN counting=off\"\n\
                  @bob /accept\n@bob /move notation:R@e5\n@alice /move notation:N@d4\n@bob /move notation:N@c3\n\
                  @alice /pass\n@bob /pass\n@alice /history\n";
    let files = history_files(dir.path(), script);
    let (record, sgf) = (ending(&files, ".txt"), ending(&files, ".sgf"));
    same_json(&record, &sgf, "go");
    let position = json(&replay(&["--game", "go", &sgf], ""));
    assert_eq!((position["turns"].as_u64(), position["status"].as_str()), (Some(5), Some("finished")));
    assert_eq!(position["options"]["pieces"], "RN", "the SGF carries every option");
}

#[test]
fn a_history_pgn_replays_like_the_own_record() {
    let dir = tempfile::tempdir().unwrap();
    let turns = record_tokens(include_str!("../../examples/ichess.txt"));
    let mut script = "@alice /challenge opponent:@bob game:ichess color:white days:0\n@bob /accept\n".to_owned();
    for (index, turn) in turns.iter().enumerate() {
        let who = if index % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("@{who} /move notation:{turn}\n"));
    }
    script.push_str("@alice /history\n");
    let files = history_files(dir.path(), &script);
    let (record, pgn) = (ending(&files, ".txt"), ending(&files, ".pgn"));
    same_json(&record, &pgn, "ichess");
    let position = json(&replay(&["--game", "ichess", &pgn], ""));
    assert_eq!((position["result"].as_str(), position["reason"].as_str()), (Some("white"), Some("checkmate")));
}

#[test]
fn an_sgf_from_a_go_program_replays_on_the_board_it_names() {
    let sgf = "(;GM[1]FF[4]SZ[9]KM[6.5]PB[black]PW[white];B[ee];W[cc];B[];W[tt])";
    let output = replay(&["--game", "go", "-"], sgf);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let position = json(&output);
    assert_eq!(position["options"]["board"], "9x9");
    assert_eq!(position["options"]["komi"], "6.5");
    assert_eq!(position["turns"], 4);
    assert_eq!(position["board"][4], "....r....", "SGF ee is the centre, e5");
    assert_eq!(position["board"][2], "..R......", "SGF cc is c7, counted from the top");
    assert_eq!(position["reason"], "two passes");
}

#[test]
fn options_the_record_does_not_set_are_added() {
    let sgf = "(;GM[1]FF[4]SZ[5];B[cc])";
    let position = json(&replay(&["--game", "go", "--option", "pieces=RN", "--option", "komi=0.5", "-"], sgf));
    let options = &position["options"];
    assert_eq!((options["pieces"].as_str(), options["komi"].as_str()), (Some("RN"), Some("0.5")));
    assert_eq!(options["board"], "5x5", "from the record");
    assert_eq!(position["board"][2], "..r..");
}

#[test]
fn a_flag_that_disagrees_with_the_record_is_refused_naming_both() {
    let sgf = "(;GM[1]FF[4]SZ[9];B[ee])";
    let other_game = replay(&["--game", "chego", "-"], sgf);
    assert_eq!(other_game.status.code(), Some(2), "{other_game:?}");
    assert!(other_game.stdout.is_empty());
    let message = stderr(&other_game);
    assert!(
        message.contains("SGF is a record of Go with chess pieces") && message.contains("not of Chego"),
        "{message}"
    );

    let other_board = replay(&["--game", "go", "--option", "board=13x13", "-"], sgf);
    assert_eq!(other_board.status.code(), Some(2));
    let message = stderr(&other_board);
    assert!(message.contains("board=13x13") && message.contains("board=9x9"), "{message}");
    let same_board = replay(&["--game", "go", "--option", "board=9x9", "-"], sgf);
    assert_eq!(same_board.status.code(), Some(0), "the record's own value agrees: {}", stderr(&same_board));

    let pgn = "[Event \"?\"]\n[Variant \"iChess\"]\n\n1. R=a1 *\n";
    let output = replay(&["--game", "go", "-"], pgn);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("PGN is a record of iChess"), "{}", stderr(&output));
}

#[test]
fn a_broken_sgf_or_pgn_exits_2_and_an_illegal_turn_1() {
    let broken = replay(&["--game", "go", "-"], "(;GM[1]FF[4]SZ[9];B[ee]");
    assert_eq!(broken.status.code(), Some(2), "{broken:?}");
    assert!(stderr(&broken).contains("SGF is not well formed"), "{}", stderr(&broken));
    let chess = replay(&["--game", "ichess", "-"], "[Event \"?\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n");
    assert_eq!(chess.status.code(), Some(2));
    assert!(stderr(&chess).contains("Atomic"), "{}", stderr(&chess));
    // Read, then played: a turn the rules refuse is reported as in our own records.
    let illegal = replay(&["--game", "go", "-"], "(;GM[1]FF[4]SZ[9];B[ee];W[ee])");
    assert_eq!(illegal.status.code(), Some(1), "{illegal:?}");
    let position = json(&illegal);
    assert_eq!((position["error"]["index"].as_u64(), position["turns"].as_u64()), (Some(2), Some(1)));
}
