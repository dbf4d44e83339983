//! `stonemate run --shards`: a malformed or impossible range stops the start at once
//! (exit 2, like any bad argument), saying what is wrong, before any token is looked at.

use std::process::Command;

fn run_with_shards(shards: &str) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_stonemate"))
        .args(["run", "--config", "/nonexistent/config.toml", "--shards", shards])
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_bad_shard_range_is_refused_with_its_reason() {
    for (shards, reason) in [
        ("2-1/4", "runs backwards"),
        ("0-4/4", "shard 4 does not exist among 4"),
        ("0-0/0", "at least 1 shard"),
        ("0-1", "FIRST-LAST/TOTAL"),
        ("+0-1/4", "digits 0-9 only"),
    ] {
        let (code, stderr) = run_with_shards(shards);
        assert_eq!(code, Some(2), "{shards}: {stderr}");
        assert!(stderr.contains("--shards") && stderr.contains(reason), "{shards}: {stderr}");
    }
}

#[test]
fn a_good_shard_range_passes_on_to_the_token_check() {
    // No token: the start stops there, after the range was read.
    let (code, stderr) = run_with_shards("0-1/4");
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("no Discord token"), "{stderr}");
}
