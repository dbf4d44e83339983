//! Moving a bot between stores through the binary (`docs/commands.md`, "Operating commands"):
//! `stonemate export --data DIR | stonemate import --database URL` gives the same games on
//! PostgreSQL, turn for turn, and the way back gives them on sled again.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use stonemate_tests::postgres as throwaway;

const BINARY: &str = env!("CARGO_BIN_EXE_stonemate-under-test");

const SCRIPT: &str = "@alice /challenge opponent:@bob game:go color:white days:0 options:\"board=9x9\"\n\
                      @bob /accept\n@bob /move notation:e5\n@alice /move notation:d4\n\
                      @carol /challenge opponent:@alice game:chego days:3\n@alice /notify mode:dm\n";
const LOOK: &str = "@alice /board game:1\n@alice /games\n@bob /games\n@carol /games\n";

/// Where a command finds its database: `--data DIR` or `--database URL`.
#[derive(Debug, Clone, Copy)]
enum Store<'a> {
    Data(&'a Path),
    Database(&'a str),
}

fn command(name: &str, store: Store<'_>) -> Command {
    let mut command = Command::new(BINARY);
    command.arg(name);
    match store {
        Store::Data(dir) => command.arg("--data").arg(dir),
        Store::Database(url) => command.arg("--database").arg(url),
    };
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    command
}

fn finished(command: &mut Command, input: &str) -> Output {
    let mut child = command.spawn().unwrap();
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn succeeded(output: Output, what: &str) -> Output {
    assert!(output.status.success(), "{what}: {}", String::from_utf8_lossy(&output.stderr));
    output
}

/// `stonemate export FROM | stonemate import TO`, as two processes joined by a pipe.
fn pipe_export_into_import(from: Store<'_>, to: Store<'_>) {
    let mut export = command("export", from).stdin(Stdio::null()).spawn().unwrap();
    let mut import = command("import", to);
    import.stdin(export.stdout.take().unwrap());
    let imported = import.spawn().unwrap().wait_with_output().unwrap();
    let exported = export.wait_with_output().unwrap();
    succeeded(exported, "export");
    let imported = succeeded(imported, "import");
    let said = String::from_utf8_lossy(&imported.stderr);
    assert!(said.contains("2 games imported"), "{said}");
}

/// The texts the console answers to [`LOOK`] (images go under `out`).
fn look(store: Store<'_>, out: &Path) -> Vec<String> {
    let output = finished(command("console", store).arg("--json").arg("--out").arg(out), LOOK);
    let replies = String::from_utf8(succeeded(output, "console").stdout).unwrap();
    let replies = replies.lines().map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap());
    replies.map(|reply| reply["text"].as_str().unwrap().to_owned()).collect()
}

fn export(store: Store<'_>) -> Vec<u8> {
    succeeded(finished(command("export", store).stdin(Stdio::null()), ""), "export").stdout
}

#[test]
fn a_bot_moves_from_sled_to_postgres_and_back_game_for_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (first, second, out) = (tmp.path().join("first"), tmp.path().join("second"), tmp.path().join("out"));
    let database = throwaway::database();
    let (sled, postgres) = (Store::Data(&first), Store::Database(&database.url));
    succeeded(finished(&mut command("console", sled), SCRIPT), "console");
    let seen = look(sled, &out);
    assert!(seen[0].contains("2 turns played"), "{seen:?}");

    pipe_export_into_import(sled, postgres);
    assert_eq!(look(postgres, &out), seen, "/board and /games on PostgreSQL");
    assert_eq!(export(postgres), export(sled));

    let back = Store::Data(&second);
    pipe_export_into_import(postgres, back);
    assert_eq!(look(back, &out), seen, "/board and /games on sled again");
    assert_eq!(export(back), export(sled));
}

#[test]
fn import_refuses_a_postgres_database_that_holds_games() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    let database = throwaway::database();
    let postgres = Store::Database(&database.url);
    succeeded(finished(command("console", postgres).arg("--out").arg(tmp.path()), SCRIPT), "console");
    succeeded(finished(&mut command("console", Store::Data(&first)), SCRIPT), "console");
    let before = export(postgres);
    let output = finished(&mut command("import", postgres), &String::from_utf8(export(Store::Data(&first))).unwrap());
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(said.contains("already holds games"), "{said}");
    assert_eq!(export(postgres), before);
}

#[test]
fn data_and_database_together_are_bad_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["console", "export", "import", "run"] {
        let mut both = command(name, Store::Data(tmp.path()));
        let output = finished(both.arg("--database").arg("postgres://nobody@127.0.0.1:9/none"), "");
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{name}: {said}");
        assert!(said.contains("cannot be used with"), "{name}: {said}");
    }
}
