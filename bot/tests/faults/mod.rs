//! Real I/O faults for tests: builds the `LD_PRELOAD` shim of `shim.c` with the system C
//! compiler, and runs a child process (this test binary, re-executed on one test) under
//! it, failing chosen calls on the files of one directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

const SOURCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/faults/shim.c");

/// Which calls fail, and how. See `shim.c` for the meaning of each field.
#[derive(Debug, Clone, Copy)]
pub struct Fault {
    /// Comma-separated call names: `pwrite`, `fdatasync`, `fsync`, `sync_file_range`, ...
    pub calls: &'static str,
    /// The first matching call to fail, from 1, counted once `armed_by` exists.
    pub nth: u32,
    /// How many fail from there (0: all).
    pub times: u32,
    /// `EIO` or `ENOSPC`.
    pub errno: &'static str,
}

/// The shim's shared library, compiled once per test run into the target directory.
pub fn shim() -> &'static Path {
    static SHIM: OnceLock<PathBuf> = OnceLock::new();
    SHIM.get_or_init(compile)
}

fn compile() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join("stonemate-fault-shim.so");
    // Built under a name of its own, then renamed: test binaries may race here.
    let building = dir.join(format!("stonemate-fault-shim.{}.so", std::process::id()));
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-o"])
        .arg(&building)
        .arg(SOURCE)
        .arg("-ldl")
        .status()
        .unwrap_or_else(|error| {
            panic!("the fault-injection tests build a C shim and need a C compiler `cc` ({error}): install gcc (Debian: apt-get install gcc)")
        });
    assert!(status.success(), "cc could not build {SOURCE}: {status}");
    std::fs::rename(&building, &out).unwrap();
    out
}

/// Re-runs this test binary on the one test `child` with the shim preloaded, failing
/// `fault` on files under `faulty` once the file `armed_by` exists; `env` goes to the
/// child as well.
pub fn run_child(child: &str, faulty: &Path, armed_by: &Path, fault: Fault, env: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command.args(["--exact", child, "--nocapture", "--test-threads=1"]);
    preload(&mut command, faulty, armed_by, fault);
    for (name, value) in env {
        command.env(name, value);
    }
    command.output().unwrap()
}

/// Makes `command` run under the shim, failing `fault` on files under `faulty` once the
/// file `armed_by` exists.
pub fn preload(command: &mut Command, faulty: &Path, armed_by: &Path, fault: Fault) {
    command
        .env("LD_PRELOAD", shim())
        .env("STONEMATE_FAULT_PATH", faulty)
        .env("STONEMATE_FAULT_ARMED_BY", armed_by)
        .env("STONEMATE_FAULT_CALLS", fault.calls)
        .env("STONEMATE_FAULT_NTH", fault.nth.to_string())
        .env("STONEMATE_FAULT_TIMES", fault.times.to_string())
        .env("STONEMATE_FAULT_ERRNO", fault.errno);
}
