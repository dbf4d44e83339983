//! Storage under real I/O faults: sled and the durable syncer on real files, with an
//! `LD_PRELOAD` shim (`faults/shim.c`) failing chosen calls. A failed write or sync must
//! reach the committer as an error, never as success, and a restart must keep what was
//! confirmed.

use crate::faults;

use std::path::{Path, PathBuf};

use faults::{Fault, run_child};
use stonemate_bot::store::durable::{GroupSync, SledFiles};

/// Set only in the child process: the database directory it works on.
const CHILD_DIR: &str = "STONEMATE_FAULT_CHILD_DIR";
/// The file whose creation arms the shim.
const CHILD_ARM: &str = "STONEMATE_FAULT_CHILD_ARM";
const CONFIRMED: &[u8] = b"confirmed";
const REFUSED: &[u8] = b"refused";

fn open(dir: &Path) -> sled::Db {
    sled::Config::new().path(dir).open().unwrap()
}

/// The child's part (does nothing in a normal run): one commit that must succeed, then,
/// with the fault armed, a second one; prints the second's outcome and exits at once, as
/// a fail-stopping service would.
#[test]
fn child() {
    let Some(dir) = std::env::var_os(CHILD_DIR).map(PathBuf::from) else { return };
    let db = open(&dir);
    let sync = GroupSync::new(SledFiles::open(&dir).unwrap());
    db.insert(CONFIRMED, b"1").unwrap();
    db.flush().unwrap();
    sync.sync().expect("the first commit, before any fault, is durable");
    std::fs::write(std::env::var_os(CHILD_ARM).unwrap(), b"").unwrap();
    db.insert(REFUSED, b"2").unwrap();
    let outcome = match db.flush() {
        Err(error) => format!("write failed: {error}"),
        Ok(_) => match sync.sync() {
            Err(error) => format!("sync failed: {error}"),
            Ok(_) => "confirmed".to_owned(),
        },
    };
    println!("outcome: {outcome}");
    std::process::exit(0);
}

/// Runs the child under `fault`; returns its outcome line and the database directory.
fn commit_under(fault: Fault) -> (String, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let arm = tmp.path().join("armed");
    // The test's full name in the one test binary, module path included.
    let output = run_child("storage_faults::child", &dir, &arm, fault, &[(CHILD_DIR, &dir), (CHILD_ARM, &arm)]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The harness prints "test storage_faults::child ... " before it on the same line.
    let outcome = stdout.lines().find_map(|line| line.split_once("outcome: ").map(|(_, outcome)| outcome));
    let outcome = outcome.unwrap_or_else(|| panic!("the child gave no outcome\nstdout:\n{stdout}\nstderr:\n{stderr}"));
    assert!(stderr.contains("stonemate-fault: failing"), "the shim injected nothing:\n{stderr}");
    (outcome.to_owned(), tmp)
}

/// After the child: what a restart (without the shim) finds.
fn restarted(tmp: &tempfile::TempDir) -> sled::Db {
    open(&tmp.path().join("data"))
}

#[test]
fn a_failed_fdatasync_reaches_the_committer_as_a_sync_error() {
    let fault = Fault { calls: "fdatasync", nth: 1, times: 1, errno: "EIO" };
    let (outcome, tmp) = commit_under(fault);
    assert!(outcome.starts_with("sync failed: syncing "), "{outcome}");
    assert!(outcome.contains("/data/db") && outcome.contains("Input/output error"), "{outcome}");
    assert!(restarted(&tmp).get(CONFIRMED).unwrap().is_some());
}

#[test]
fn a_failed_pwrite_reaches_the_committer_as_a_write_error_and_the_change_is_not_on_disk() {
    let fault = Fault { calls: "pwrite", nth: 1, times: 1, errno: "ENOSPC" };
    let (outcome, tmp) = commit_under(fault);
    assert!(outcome.starts_with("write failed: ") && outcome.contains("No space left"), "{outcome}");
    let db = restarted(&tmp);
    assert!(db.get(CONFIRMED).unwrap().is_some());
    assert!(db.get(REFUSED).unwrap().is_none());
}

#[test]
fn a_failed_sync_file_range_reaches_the_committer_as_a_write_error_yet_the_change_may_be_on_disk() {
    let fault = Fault { calls: "sync_file_range", nth: 1, times: 1, errno: "EIO" };
    let (outcome, tmp) = commit_under(fault);
    assert!(outcome.starts_with("write failed: ") && outcome.contains("Input/output error"), "{outcome}");
    let db = restarted(&tmp);
    assert!(db.get(CONFIRMED).unwrap().is_some());
    // sled's flush error does not say whether its pwrite had already succeeded: here it
    // had, and the "failed" change is back after the restart. A flush error therefore
    // means "outcome unknown", like a failed sync, not "nothing changed".
    assert!(db.get(REFUSED).unwrap().is_some());
}
