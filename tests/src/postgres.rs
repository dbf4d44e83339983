//! A throwaway PostgreSQL for tests: a real server from Debian's `postgresql` package, never
//! a mock. The first [`database`] call of a test binary starts one cluster (`initdb` on a
//! temporary directory, `pg_ctl start` on a free port of 127.0.0.1, the socket in that
//! directory); every call then creates a database of its own on it, so tests run in
//! parallel without seeing each other's rows.
//!
//! The cluster outlives every test of the binary and goes with the process: a watchdog
//! shell waits for the end of a pipe only this process holds, then stops the server and
//! removes the directory. The kernel closes that pipe however the process ends (tests
//! passed, a test panicked, the binary was killed), so no cluster is left behind.
//!
//! `initdb` and `pg_ctl` refuse to run as root (CI does): then every server program runs
//! as `nobody`, in a directory it owns. Without PostgreSQL the tests fail, saying what to
//! install; they never skip.

use std::fs;
use std::io::{self, Write};
use std::net::{Ipv4Addr, TcpListener};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// The superuser `initdb` creates; every test connects as it (trust authentication).
const SUPERUSER: &str = "postgres";
/// The user the server programs run as when the tests run as root.
const UNPRIVILEGED: &str = "nobody";
/// How often `start` tries another port when the free one it picked was taken meanwhile.
const START_ATTEMPTS: usize = 3;

/// What to do when the server programs are missing.
pub const INSTALL_HINT: &str = "PostgreSQL's server programs (initdb, pg_ctl) were not found on PATH nor in \
     /usr/lib/postgresql/<version>/bin: install Debian's `postgresql` package \
     (`apt-get install postgresql`), or run `scripts/test`, which installs it";

/// Server settings for tests: no fsync (a throwaway cluster need not survive power loss,
/// and the tests check transactions, not disks), room for many parallel connections.
pub const FAST: &[(&str, &str)] =
    &[("fsync", "off"), ("synchronous_commit", "off"), ("full_page_writes", "off"), ("max_connections", "400")];

/// Server settings for measuring: PostgreSQL's durable defaults (fsync on every commit).
pub const DURABLE: &[(&str, &str)] = &[("max_connections", "100")];

/// A running throwaway cluster. It stops, and its directory goes, when the process that
/// started it ends (or when it is dropped).
#[derive(Debug)]
pub struct Cluster {
    dir: PathBuf,
    port: u16,
    /// The pipe the watchdog waits on; closing it stops the cluster.
    watchdog: Mutex<Option<(ChildStdin, Child)>>,
    databases: AtomicU32,
}

/// One empty database of its own on the test binary's cluster.
#[derive(Debug, Clone)]
pub struct Database {
    /// A connection string for it: `postgres://postgres@127.0.0.1:PORT/NAME`.
    pub url: String,
    pub name: String,
}

/// A new empty database on the cluster this test binary shares (started on first use).
///
/// # Panics
/// When PostgreSQL is not installed (the message says what to install) or will not start.
#[must_use]
pub fn database() -> Database {
    static SHARED: OnceLock<Result<Cluster, String>> = OnceLock::new();
    let cluster = SHARED.get_or_init(|| Cluster::start(FAST));
    match cluster {
        Ok(cluster) => cluster.create_database().unwrap_or_else(|error| panic!("{error}")),
        Err(error) => panic!("{error}"),
    }
}

impl Cluster {
    /// Starts a cluster with `settings` (`name`, `value` pairs for `postgres -c`).
    ///
    /// # Errors
    /// Says what to install when PostgreSQL is missing, else why it did not start.
    pub fn start(settings: &[(&str, &str)]) -> Result<Cluster, String> {
        let bin = bin_dir().ok_or_else(|| INSTALL_HINT.to_owned())?;
        let runner = Runner::new(bin)?;
        let dir = runner.make_temp_dir()?;
        // The watchdog first: from here on, however this process ends, the directory goes.
        let watchdog = runner.watchdog(&dir)?;
        let data = dir.join("data");
        let initdb = runner
            .server("initdb")
            .arg("-D")
            .arg(&data)
            .args(["--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--username", SUPERUSER])
            .output();
        check("initdb", initdb)?;
        let mut last_error = String::new();
        for _ in 0..START_ATTEMPTS {
            let port = free_port().map_err(|error| format!("no free port on 127.0.0.1: {error}"))?;
            match runner.start_server(&dir, port, settings) {
                Ok(()) => {
                    let databases = AtomicU32::new(0);
                    return Ok(Cluster { dir, port, watchdog: Mutex::new(Some(watchdog)), databases });
                }
                Err(error) => last_error = error,
            }
        }
        Err(last_error)
    }

    /// The port the server listens on, on 127.0.0.1.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The temporary directory of the cluster (data, socket, log).
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A connection string for database `name` on this cluster.
    #[must_use]
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{SUPERUSER}@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates a new empty database, named `test_N`.
    ///
    /// # Errors
    /// The server's refusal, as text.
    pub fn create_database(&self) -> Result<Database, String> {
        let name = format!("test_{}", self.databases.fetch_add(1, Ordering::Relaxed));
        let mut admin = postgres::Client::connect(&self.url("postgres"), postgres::NoTls)
            .map_err(|error| format!("cannot connect to the test cluster on port {}: {error}", self.port))?;
        admin.batch_execute(&format!("CREATE DATABASE {name}")).map_err(|error| format!("CREATE DATABASE: {error}"))?;
        Ok(Database { url: self.url(&name), name })
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let watchdog = self.watchdog.get_mut().map_or_else(|poisoned| poisoned.into_inner().take(), Option::take);
        if let Some((stdin, mut child)) = watchdog {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

/// Runs the server programs: directly, or as [`UNPRIVILEGED`] when this process is root.
struct Runner {
    bin: PathBuf,
    as_root: bool,
}

impl Runner {
    fn new(bin: PathBuf) -> Result<Runner, String> {
        // `/proc/self` belongs to the process's effective user.
        let uid = fs::metadata("/proc/self").map_err(|error| format!("cannot read /proc/self: {error}"))?.uid();
        Ok(Runner { bin, as_root: uid == 0 })
    }

    /// A server program (`initdb`, `pg_ctl`) as [`Runner::command`] runs it.
    fn server(&self, name: &str) -> Command {
        self.command(&self.bin.join(name))
    }

    /// `program`, under `runuser` when root. Run from `/` so that the unprivileged user
    /// never needs our directory.
    fn command(&self, program: &Path) -> Command {
        let mut command = if self.as_root {
            let mut command = Command::new("runuser");
            command.args(["-u", UNPRIVILEGED, "--"]).arg(program);
            command
        } else {
            Command::new(program)
        };
        command.current_dir("/").stdin(Stdio::null());
        command
    }

    /// A new directory under the system's temporary directory, owned by whoever runs the
    /// server.
    fn make_temp_dir(&self) -> Result<PathBuf, String> {
        let template = std::env::temp_dir().join("stonemate-pg.XXXXXXXX");
        let output = check("mktemp", self.command(Path::new("mktemp")).arg("-d").arg(template).output())?;
        Ok(PathBuf::from(String::from_utf8_lossy(&output).trim()))
    }

    /// The shell that stops the cluster and removes `dir` once its standard input closes.
    fn watchdog(&self, dir: &Path) -> Result<(ChildStdin, Child), String> {
        let pg_ctl = self.server("pg_ctl");
        let mut stop: Vec<&std::ffi::OsStr> = vec![pg_ctl.get_program()];
        stop.extend(pg_ctl.get_args());
        // A killed test may leave `initdb` or `pg_ctl start` running, still writing into
        // the directory: stop and remove again until it stays gone.
        let script = r#"cat >/dev/null
            for attempt in 1 2 3 4 5 6 7 8 9 10; do
              "$@" -D "$0/data" -m immediate -w stop >/dev/null 2>&1
              rm -rf "$0" 2>/dev/null
              [ -e "$0" ] || exit 0
              sleep 1
            done"#;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(dir)
            .args(stop)
            .current_dir("/")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group: a Ctrl-C meant for the tests must not kill it first.
            .process_group(0)
            .spawn()
            .map_err(|error| format!("cannot start the cluster's watchdog (sh): {error}"))?;
        let stdin = child.stdin.take().ok_or("the watchdog has no standard input")?;
        Ok((stdin, child))
    }

    /// `pg_ctl start`, waiting until the server accepts connections.
    fn start_server(&self, dir: &Path, port: u16, settings: &[(&str, &str)]) -> Result<(), String> {
        let mut options = format!("-p {port} -k {} -c listen_addresses=127.0.0.1", dir.display());
        for (name, value) in settings {
            options.push_str(&format!(" -c {name}={value}"));
        }
        let log = dir.join("server.log");
        let started = self
            .server("pg_ctl")
            .arg("-D")
            .arg(dir.join("data"))
            .arg("-l")
            .arg(&log)
            .args(["-w", "-t", "60", "-o", &options, "start"])
            .output();
        check("pg_ctl start", started).map(drop).map_err(|error| {
            let log = fs::read_to_string(&log).unwrap_or_default();
            format!("{error}\nserver log:\n{log}")
        })
    }
}

/// The standard output of a program that must succeed, or what went wrong.
fn check(what: &str, output: io::Result<std::process::Output>) -> Result<Vec<u8>, String> {
    let output = output.map_err(|error| format!("cannot run {what}: {error}"))?;
    if output.status.success() {
        return Ok(output.stdout);
    }
    let mut message = format!("{what} failed ({}):\n", output.status).into_bytes();
    let _ = message.write_all(&output.stdout);
    let _ = message.write_all(&output.stderr);
    Err(String::from_utf8_lossy(&message).into_owned())
}

/// A port of 127.0.0.1 that nobody listens on right now.
fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?.local_addr()?.port())
}

/// The directory holding `initdb` and `pg_ctl`: on PATH, else the newest
/// `/usr/lib/postgresql/<version>/bin` (where Debian puts them, off PATH).
#[must_use]
pub fn bin_dir() -> Option<PathBuf> {
    let has_programs = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(dir) = std::env::split_paths(&path).find(|dir| has_programs(dir)) {
        return Some(dir);
    }
    let versions = fs::read_dir("/usr/lib/postgresql").ok()?;
    let mut dirs: Vec<(u32, PathBuf)> = versions
        .filter_map(Result::ok)
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, dir)| has_programs(dir))
        .collect();
    dirs.sort();
    dirs.pop().map(|(_, dir)| dir)
}
