//! `stonemate console` as `docs/commands.md` describes it: lines in, replies out, `--json`,
//! `#channel`, `!advance`, images written under `--out`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

fn console(dir: &Path, json: bool, input: &str) -> String {
    console_with(dir, json, &[], input)
}

/// [`console`] with more arguments.
fn console_with(dir: &Path, json: bool, arguments: &[&str], input: &str) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_stonemate"));
    command.arg("console").arg("--data").arg(dir.join("db")).arg("--out").arg(dir.join("out")).args(arguments);
    if json {
        command.arg("--json");
    }
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

const SESSION: &str = r#"
@alice /challenge opponent:@bob game:go color:white days:1 options:"board=9x9 komi=6.5"
#lobby @bob /accept
@bob /accept
@bob /move notation:e5
@alice /move notation:e5
@alice /move notation:c7
@bob /move notation:g3
!advance 2d
@alice /fly
"#;

#[test]
fn json_lines_carry_the_spec_fields() {
    let dir = tempfile::tempdir().unwrap();
    let output = console_with(dir.path(), true, &["--timeouts", "claim"], SESSION);
    let replies: Vec<Value> = output.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    for reply in &replies {
        for field in ["user", "command", "ok", "private", "text", "files", "mentions", "game"] {
            assert!(reply.get(field).is_some(), "{field} missing in {reply}");
        }
        for file in reply["files"].as_array().unwrap() {
            assert!(Path::new(file.as_str().unwrap()).exists(), "{file} written");
        }
    }
    let first = &replies[0];
    assert_eq!(
        (first["user"].as_str(), first["command"].as_str(), first["ok"].as_bool()),
        (Some("alice"), Some("challenge"), Some(true))
    );
    assert_eq!(first["mentions"], serde_json::json!(["bob"]));
    assert_eq!(first["game"], 1);
    // In #lobby bob has no challenge; in #general he has one.
    assert_eq!((replies[1]["ok"].as_bool(), replies[1]["private"].as_bool()), (Some(false), Some(true)));
    assert_eq!(replies[2]["ok"], true);
    // One message per turn: the reply to bob's turn in the game's channel pings alice,
    // and no second message from nobody repeats it.
    let turn = &replies[3];
    assert_eq!((turn["user"].as_str(), turn["command"].as_str()), (Some("bob"), Some("move")), "{turn}");
    assert_eq!(turn["mentions"], serde_json::json!(["alice"]));
    assert_eq!(replies[4]["user"], "alice", "{}", replies[4]);
    let refused = replies.iter().find(|r| r["user"] == "alice" && r["command"] == "move").unwrap();
    assert_eq!(refused["ok"], false);
    assert!(refused["text"].as_str().unwrap().contains("e5 is not empty"));
    // Two days later alice's time has run out: bob is told he may claim.
    let timeout = replies.iter().find(|r| r["text"].as_str().unwrap().contains("ran out")).unwrap();
    assert!(timeout["user"].is_null());
    assert_eq!(timeout["mentions"], serde_json::json!(["bob"]));
    assert_eq!(replies.last().unwrap()["ok"], false, "an unknown command is refused");
}

#[test]
fn a_time_out_in_the_console_ends_the_game_and_tells_both_players() {
    let dir = tempfile::tempdir().unwrap();
    let session = "@alice /challenge opponent:@bob game:go color:white days:1 options:board=9x9\n@bob /accept\n\
                   @bob /move notation:e5\n@alice /move notation:c7\n!advance 2d\n@bob /legal game:1\n";
    let output = console(dir.path(), true, session);
    let replies: Vec<Value> = output.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let told: Vec<&Value> = replies.iter().filter(|r| r["text"].as_str().unwrap().contains("ran out")).collect();
    let mentions: Vec<&Value> = told.iter().map(|r| &r["mentions"]).collect();
    assert_eq!(mentions, [&serde_json::json!(["bob"]), &serde_json::json!(["alice"])], "{output}");
    assert!(told[0]["text"].as_str().unwrap().contains("alice (white) wins by time (W+T)"), "{output}");
    let legal = replies.last().unwrap();
    assert_eq!(legal["ok"], false, "no legal turns in a game that is over: {legal}");
}

/// The name of the newest snapshot sled wrote in `db`: `snap.` and the log position it
/// covers, in hexadecimal of fixed width (so that names sort as positions); `None` when
/// there is none (sled writes none for a database it opened empty).
fn newest_snapshot(db: &Path) -> Option<String> {
    let names = std::fs::read_dir(db).unwrap().map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned());
    names.filter(|name| name.starts_with("snap.") && !name.ends_with(".generating")).max()
}

#[test]
fn a_session_that_wrote_leaves_a_snapshot_that_covers_its_last_turn() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    console(dir.path(), false, SESSION);
    let left = newest_snapshot(&db);
    assert!(left.is_some(), "no snapshot after the session");
    // sled writes a snapshot at every open, named by how far it read the log: an open that
    // finds nothing logged past the session's snapshot writes the same name again.
    let config = stonemate_bot::store::sled_config(&db).flush_every_ms(None);
    drop(config.open().unwrap());
    assert_eq!(newest_snapshot(&db), left, "the session's turns were logged past its last snapshot");
    // And the next session opens on that snapshot and plays on.
    let output = console(dir.path(), false, "@carol /challenge opponent:@dave game:go days:3\n@dave /accept\n");
    assert!(!output.contains("refused"), "{output}");
    let left = newest_snapshot(&db);
    drop(config.open().unwrap());
    assert_eq!(newest_snapshot(&db), left);
}

#[test]
fn users_and_games_persist_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    console(dir.path(), false, "@alice /challenge opponent:@Bob game:go days:0\n@bob /accept\n");
    let output = console(dir.path(), false, "@carol /games user:@bob\n");
    assert!(output.contains("#1 go vs alice"), "{output}");
    let files = std::fs::read_dir(dir.path().join("out")).unwrap().count();
    console(dir.path(), false, "@alice /board game:1\n");
    assert_eq!(std::fs::read_dir(dir.path().join("out")).unwrap().count(), files + 1, "old files are kept");
}

#[test]
fn the_history_file_reads_back_with_stonemate_replay() {
    let dir = tempfile::tempdir().unwrap();
    let script = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9 komi=6.5\"\n\
                  @bob /accept\n@bob /move notation:e5\n@alice /move notation:d4\n@bob /pass\n@alice /history\n";
    let output = console(dir.path(), true, script);
    let history: Value = serde_json::from_str(output.lines().last().unwrap()).unwrap();
    let file =
        history["files"].as_array().unwrap().iter().find_map(|f| f.as_str().filter(|f| f.ends_with(".txt"))).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    // The file says how to replay it; run exactly that.
    let line = text.lines().find_map(|line| line.strip_prefix("# replay: stonemate ")).unwrap();
    let mut args: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    args.pop();
    args.push(file.to_owned());
    let replay = Command::new(env!("CARGO_BIN_EXE_stonemate")).args(&args).output().unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let position: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!((position["turns"].as_u64(), position["options"]["komi"].as_str()), (Some(3), Some("6.5")));
}

/// Each line's JSON reply, as (command, ok, text).
fn replies(output: &str) -> Vec<(String, bool, String)> {
    output
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .map(|reply| {
            let command = reply["command"].as_str().unwrap_or("").to_owned();
            (command, reply["ok"].as_bool().unwrap(), reply["text"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn servers_keep_their_games_and_their_administrators() {
    let dir = tempfile::tempdir().unwrap();
    let session = "\
@alice /challenge opponent:@bob game:go color:white days:1 options:board=9x9
@bob /accept
[work] @bob /board game:1
[work] !admin @mallory
[work] @mallory /admin-abort game:1
@mallory /admin-abort game:1
!admin @mod
@mod /admin-abort game:1
";
    let replies = replies(&console(dir.path(), true, session));
    let texts: Vec<&str> = replies.iter().map(|(_, _, text)| text.as_str()).collect();
    assert_eq!(texts[2], "there is no game or challenge #1", "another server's #general: {texts:?}");
    assert_eq!(replies[3].0, "!admin");
    assert_eq!(texts[4], "there is no game or challenge #1", "an admin of [work] rules only there");
    assert!(texts[5].contains("Manage Server"), "{}", texts[5]);
    assert!(replies[7].1 && texts[7].contains("aborted by an administrator"), "{}", texts[7]);
}

/// Regression: `/move notation:D=a1` in an iChess game killed the console.
#[test]
fn a_foreign_drop_in_ichess_is_refused_and_the_console_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let session = "\
@alice /challenge opponent:@bob game:ichess color:white days:0
@bob /accept
@alice /move notation:D=a1
@alice /move notation:W@b2
@alice /move notation:A*c1
@alice /move notation:N=b1
";
    let replies = replies(&console(dir.path(), true, session));
    assert!(replies.len() >= 6, "the console went on: {replies:?}");
    for (_, ok, text) in &replies[2..5] {
        assert!(!ok && text.contains("iChess has no"), "{text}");
    }
    assert!(replies[5].1, "{:?}", replies[5]);
}

/// Regression: `options:"set=K1 Q1 R2 B2 N2 P8"`, as the README and `/rules` write a Chego
/// set, was refused ("`Q1` is not an option").
#[test]
fn a_chego_set_is_typed_as_the_rules_write_it() {
    let dir = tempfile::tempdir().unwrap();
    let line = "@alice /challenge opponent:@bob game:chego options:\"set=K1 Q1 R2 B2 N2 P8 board=6x6\"\n";
    let output = console(dir.path(), false, line);
    assert!(output.starts_with("[@alice /challenge] @bob, alice challenges you to Chego"), "{output}");
    assert!(output.contains("(board=6x6 set=K1 Q1 R2 B2 N2 P8; 3 days per move;"), "{output}");
}

#[test]
fn help_lists_the_commands_in_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let output = console(dir.path(), false, "@alice /help\n");
    assert!(output.starts_with("[@alice /help] (private) **Stonemate's commands**"), "{output}");
    assert!(output.contains("`/legal` — "), "{output}");
}

#[test]
fn piped_input_gets_no_greeting_and_no_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let output = console(dir.path(), false, "@alice /help\n");
    assert!(!output.contains(&stonemate_bot::console::greeting()) && !output.contains("> "), "{output}");
}

#[test]
fn a_terminal_user_is_greeted_and_prompted() {
    let dir = tempfile::tempdir().unwrap();
    let mut options = stonemate_bot::console::Options::new(Some(dir.path().join("db")), None, false);
    options.interactive = true;
    let mut console = stonemate_bot::console::Console::open(options).unwrap();
    let mut output = Vec::new();
    console.run(&b"@alice /help\n"[..], &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    let (greeting, rest) = output.split_once('\n').unwrap();
    assert_eq!(greeting, stonemate_bot::console::greeting());
    assert!(greeting.contains("@alice /challenge opponent:@bob game:go") && greeting.contains("/help"), "{greeting}");
    assert!(rest.starts_with("> [@alice /help]"), "{rest}");
    assert!(rest.ends_with("\n> "), "a prompt for the next line: {rest}");
}

#[test]
fn stonemate_plays_its_turn_before_the_next_line_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let input = "@alice /challenge opponent:@stonemate game:go color:black level:easy options:\"board=9x9\"\n\
                 @alice /move notation:e5\n\
                 @alice /board\n";
    let output = console(dir.path(), true, input);
    let replies: Vec<Value> = output.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let started = &replies[0];
    assert_eq!(started["ok"], true, "{started}");
    assert!(started["text"].as_str().unwrap().contains("vs Stonemate (easy)"), "{started}");
    let moved = replies.iter().position(|r| r["command"] == "move").unwrap();
    let board = replies.iter().position(|r| r["command"] == "board").unwrap();
    // Between alice's turn and her next line: the bot's turn, from nobody, with the board.
    let bot = &replies[moved + 1];
    assert!(bot["user"].is_null() && bot["command"].is_null(), "{bot}");
    assert!(bot["text"].as_str().unwrap().starts_with("stonemate played "), "{bot}");
    assert_eq!(bot["files"].as_array().unwrap().len(), 1, "{bot}");
    assert!(moved + 1 < board);
    assert!(replies[board]["text"].as_str().unwrap().contains("2 turns played"), "{}", replies[board]);
}

/// The turn picker in the console: a select menu prints as `select: ID` and its choices as
/// `VALUE (LABEL)`, `--json` lists it under `"selects"`, and `@USER !select ID VALUE`
/// chooses as a user would on Discord.
#[test]
fn a_turn_is_picked_with_select_lines() {
    let dir = tempfile::tempdir().unwrap();
    let start =
        "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=3x3 komi=0.5\"\n@bob /accept\n";
    let output = console(dir.path(), false, &format!("{start}@bob /play\n"));
    let id = output.lines().find_map(|line| line.trim().strip_prefix("select: ")).expect("a select line").to_owned();
    assert!(id.starts_with("pick:1:"), "{output}");
    assert!(output.contains("\n      pass (pass)\n") && output.contains("\n      Rb2 (b2)\n"), "{output}");

    let output = console(dir.path(), true, &format!("@bob /play\n@bob !select {id} Rb2\n"));
    let replies: Vec<Value> = output.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let select = &replies[0]["selects"][0];
    assert_eq!(select["id"], id.as_str());
    let options = select["options"].as_array().unwrap();
    assert!(options.contains(&serde_json::json!({"value": "Rb2", "label": "b2"})), "{select}");
    let preview = &replies[1];
    assert_eq!((preview["command"].as_str(), preview["ok"].as_bool()), (Some("!select"), Some(true)));
    assert_eq!(preview["selects"], serde_json::json!([]), "the last step previews the turn");
    let buttons = preview["buttons"].as_array().unwrap();
    let confirm = buttons.iter().filter_map(Value::as_str).find(|id| id.starts_with("pick-confirm:")).unwrap();

    let output = console(dir.path(), true, &format!("@bob !press {confirm}\n@bob !press {confirm}\n"));
    let replies: Vec<Value> = output.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!((replies[0]["ok"].as_bool(), replies[0]["private"].as_bool()), (Some(true), Some(false)));
    assert!(replies[0]["text"].as_str().unwrap().contains("R@b2"), "{}", replies[0]);
    let again = replies.iter().skip(1).find(|reply| reply["command"] == "!press").unwrap();
    assert_eq!(again["ok"], false, "a second Confirm is refused: {again}");
}

#[test]
fn a_takeback_is_asked_and_answered_in_the_console_as_on_discord() {
    let dir = tempfile::tempdir().unwrap();
    let session = "@alice /challenge opponent:@bob game:go color:white options:board=9x9\n@bob /accept\n\
                   @bob /move notation:e5\n@bob /takeback\n@alice !press takeback-accept:1\n@bob /board\n";
    let output = console(dir.path(), true, session);
    let replies: Vec<Value> = output.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let asked = replies.iter().find(|r| r["command"] == "takeback").unwrap();
    assert_eq!(asked["text"], "@alice, bob asks to take back R@e5 in #1.");
    assert_eq!(asked["mentions"], serde_json::json!(["alice"]));
    assert_eq!(asked["buttons"], serde_json::json!(["takeback-accept:1", "takeback-decline:1"]));
    let accepted = replies.iter().find(|r| r["command"] == "!press").unwrap();
    assert!(
        accepted["text"].as_str().unwrap().starts_with("alice accepts: R@e5 taken back in #1. @bob to move"),
        "{accepted}"
    );
    let board = replies.iter().find(|r| r["command"] == "board").unwrap();
    assert!(board["text"].as_str().unwrap().contains("0 turns played"), "{board}");
}

/// Counting in go (rule 10) in the console: the two passes show the proposal, `/dead`
/// proposes, Resume is pressed with `!press`, and both proposing the same set ends the
/// game with the record's `dead` entry, which `stonemate replay` reads.
#[test]
fn counting_and_resuming_in_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let mut script =
        String::from("@alice /challenge opponent:@bob game:go color:white days:0 options:board=5x5\n@bob /accept\n");
    let turns = ["c1", "d1", "c2", "d2", "c3", "d3", "c4", "d4", "c5", "d5", "pass", "a3", "pass", "pass"];
    for (index, turn) in turns.iter().enumerate() {
        let who = if index % 2 == 0 { "bob" } else { "alice" };
        script.push_str(&format!("@{who} /move notation:{turn}\n"));
    }
    script.push_str("@alice !press resume:1\n@bob /pass\n@alice /pass\n");
    script.push_str("@bob /dead squares:a3\n@alice /dead squares:a3\n@alice /history\n");
    let output = console(dir.path(), true, &script);
    let replies = replies(&output);
    let opened = replies.iter().filter(|(command, ok, _)| command == "move" && *ok).nth(13).unwrap();
    assert!(opened.2.contains("Both passed") && opened.2.contains("/dead"), "{}", opened.2);
    assert!(replies.iter().any(|(command, ok, text)| command == "!press" && *ok && text.contains("resumes play")));
    let over = replies.iter().rev().find(|(command, _, _)| command == "dead").unwrap();
    assert!(over.1 && over.2.contains("B+6"), "{}", over.2);
    let history = &replies.last().unwrap().2;
    assert!(history.contains("dead a3"), "{history}");
}

#[test]
fn a_line_that_cannot_be_read_quotes_at_most_a_short_value() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(2_000);
    let input = format!(
        "@alice /challenge opponent:@bob game:go days:{long}\n@alice /{long}\n@{long} /games\n!advance {long}\n"
    );
    let output = console(dir.path(), false, &input);
    let cut = format!("{}…", "x".repeat(24));
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(
        lines,
        [
            format!("[nobody] refused (private) console: option days: `{cut}` is not a number"),
            format!("[nobody] refused (private) console: there is no command /{cut}"),
            format!("[nobody] refused (private) console: `@{}…` is not a user: write @name", "x".repeat(23)),
            format!(
                "[nobody] refused (private) console: `{cut}` is not a duration: write a number and a unit, like 30m, 5h or 2d"
            ),
        ]
    );
}

#[test]
fn the_text_mode_writes_control_and_bidi_characters_of_a_typed_name_as_escapes() {
    let dir = tempfile::tempdir().unwrap();
    let output = console(
        dir.path(),
        false,
        "@eve\x1b[2J\x07 /games\n@alice /challenge opponent:@bob game:go days:3\x1b[2J\n@mal\u{202E}lory /games\n",
    );
    let hidden = |ch: char| (ch.is_control() && ch != '\n') || stonemate_bot::service::text::invisible(ch);
    assert!(!output.contains(hidden), "{output:?}");
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(
        lines,
        [
            r"[@eve\u{1b}[2J\u{7} /games] (private) eve \[2J  has no active games or challenges.",
            "[nobody] refused (private) console: option days: `3 [2J` is not a number",
            r"[@mal\u{202e}lory /games] (private) mallory has no active games or challenges.",
        ]
    );
}
