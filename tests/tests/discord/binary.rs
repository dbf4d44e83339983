//! The real `stonemate` binary, started as an operator starts it (`stonemate run --config
//! FILE` with `DISCORD_TOKEN` set), connects to the fake Discord, stops cleanly on SIGTERM,
//! and finds its challenge again after a restart: the Accept button pressed before the
//! restart still works, because its id names the action and the challenge.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use stonemate_tests::fake_discord::{FakeDiscord, RequestKind, payloads};

use super::harness::*;

/// The `stonemate` binary: `bot/src/main.rs`, which this package builds too.
fn stonemate_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_stonemate-under-test"))
}

/// The most verbose log, so that the test would see a token leaking into any line.
fn write_config(dir: &Path, fake: &FakeDiscord) -> PathBuf {
    let path = dir.join("config.toml");
    let database = dir.join("db");
    let text = format!(
        "database = {:?}\nlog_level = \"trace\"\ntick_seconds = 1\n\n[discord]\nguilds = [{GUILD}]\napi_base = {:?}\n",
        database.display().to_string(),
        fake.base()
    );
    std::fs::write(&path, text).expect("write the config file");
    path
}

/// A running `stonemate` and the thread collecting its log (read as it comes, so that a
/// full pipe never blocks it).
/// Dropping it (a failed test) kills the process.
struct Running {
    child: Child,
    log: Option<std::thread::JoinHandle<String>>,
    stopped: bool,
}

impl Drop for Running {
    fn drop(&mut self) {
        if !self.stopped {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn start(binary: &Path, config: &Path) -> Running {
    start_with(binary, config, &[])
}

/// Starts `stonemate run` with `env` added to a clean environment (no `RUST_LOG` unless
/// given, so that the config's log level holds).
fn start_with(binary: &Path, config: &Path, env: &[(&str, &str)]) -> Running {
    let mut child = Command::new(binary)
        .args(["run", "--config"])
        .arg(config)
        .env("DISCORD_TOKEN", TOKEN)
        .env("NO_PROXY", "127.0.0.1,localhost")
        .env_remove("STONEMATE_LOG")
        .env_remove("RUST_LOG")
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start stonemate");
    let mut stderr = child.stderr.take().expect("stderr");
    let log = std::thread::spawn(move || {
        let mut log = String::new();
        let _ = stderr.read_to_string(&mut log);
        log
    });
    Running { child, log: Some(log), stopped: false }
}

/// Sends SIGTERM and waits for a successful exit; returns what it logged.
fn terminate(running: Running) -> String {
    let (exit, log) = terminate_with_status(running);
    assert!(exit.success(), "stonemate exited with {exit}:\n{log}");
    log
}

/// Sends SIGTERM and waits for the exit; returns it and what was logged.
fn terminate_with_status(running: Running) -> (std::process::ExitStatus, String) {
    let status = Command::new("kill").args(["-TERM", &running.child.id().to_string()]).status().expect("run kill");
    assert!(status.success(), "kill -TERM failed");
    wait_for_exit(running)
}

/// Waits (at most [`WAIT`]) for the exit; returns it and what was logged.
fn wait_for_exit(mut running: Running) -> (std::process::ExitStatus, String) {
    let child = &mut running.child;
    let deadline = Instant::now() + WAIT;
    let exit = loop {
        if let Some(exit) = child.try_wait().expect("wait for stonemate") {
            break exit;
        }
        if Instant::now() > deadline {
            panic!("stonemate did not stop within {WAIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    running.stopped = true;
    let log = running.log.take().expect("the log reader").join().expect("the log reader");
    (exit, log)
}

async fn connect(fake: &FakeDiscord) {
    assert!(fake.wait_connected(WAIT).await, "stonemate did not connect to the fake gateway");
    let registered = fake.take(WAIT, |r| r.kind == RequestKind::Commands { guild: Some(GUILD) }).await;
    assert!(registered.is_some(), "stonemate did not register its commands");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_stops_on_sigterm_and_keeps_its_games() {
    init();
    let binary = stonemate_binary();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("binary");
    let config = write_config(&dir, &fake);
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));

    let first = start(&binary, &config);
    connect(&fake).await;
    let options = json!([user("opponent", &bob), text("game", "go"), text("options", "board=9x9")]);
    let challenge = command(&fake, &alice, "challenge", options).await;
    assert!(!challenge.is_private(), "{}", challenge.content());
    let log = tokio::task::spawn_blocking(move || terminate(first)).await.expect("stop");
    assert!(fake.wait_disconnected(WAIT).await, "the gateway connection stayed open");
    assert!(!log.contains(TOKEN) && !log.contains("never-logged"), "the token was logged:\n{log}");
    assert!(log.contains("registered the commands"), "expected a log of the registration:\n{log}");

    let second = start(&binary, &config);
    connect(&fake).await;
    let accept = button(&challenge, "accept");
    let started = answer(&fake, &fake.press(&bob, &challenge.message.clone().expect("message"), &accept)).await;
    assert!(!started.is_private(), "the challenge made before the restart is gone: {}", started.content());
    assert_pngs(&started);
    let log = tokio::task::spawn_blocking(move || terminate(second)).await.expect("stop");
    assert!(!log.contains(TOKEN), "the token was logged:\n{log}");
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}

/// A server turns threads on; at the next start the bot checks its roles there and warns
/// the operator, naming the permissions, when they would refuse a game's thread; once they
/// grant them, the log says so and warns no more. No other server is asked about.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_start_the_binary_warns_where_its_roles_refuse_threads() {
    init();
    let binary = stonemate_binary();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("binary-thread-permissions");
    let config = write_config(&dir, &fake);
    let mut alice = player(&fake, "alice");
    alice.permissions |= payloads::MANAGE_GUILD;
    let asked = |r: &stonemate_tests::fake_discord::Recorded| {
        r.kind == RequestKind::Member { guild: GUILD, user: fake.bot_id() }
    };

    let first = start(&binary, &config);
    connect(&fake).await;
    let set = command(&fake, &alice, "settings", json!([text("threads", "on")])).await;
    assert!(set.content().contains("threads on"), "{}", set.content());
    let log = tokio::task::spawn_blocking(move || terminate(first)).await.expect("stop");
    assert!(!log.contains("threads are on"), "no server had threads on at this start:\n{log}");
    assert!(fake.take(Duration::ZERO, asked).await.is_none(), "asked about a server without threads");

    // A manager took the thread permissions from the bot's role.
    fake.grant_bot(payloads::INVITE_PERMISSIONS & !payloads::THREAD_PERMISSIONS);
    let second = start(&binary, &config);
    connect(&fake).await;
    assert!(fake.take(WAIT, |r| r.kind == RequestKind::Roles { guild: GUILD }).await.is_some());
    assert!(fake.take(WAIT, asked).await.is_some(), "the bot's own roles were not asked for");
    let log = tokio::task::spawn_blocking(move || terminate(second)).await.expect("stop");
    let warning = log.lines().find(|line| line.contains("the bot's roles do not allow them"));
    let warning = warning.unwrap_or_else(|| panic!("no warning:\n{log}"));
    assert!(warning.contains("WARN") && warning.contains(&format!("guild={GUILD}")), "{warning}");
    assert!(warning.contains("missing=Create Public Threads, Send Messages in Threads"), "{warning}");

    fake.grant_bot(payloads::INVITE_PERMISSIONS);
    let third = start(&binary, &config);
    connect(&fake).await;
    assert!(fake.take(WAIT, asked).await.is_some(), "the bot's own roles were not asked for");
    let log = tokio::task::spawn_blocking(move || terminate(third)).await.expect("stop");
    assert!(log.contains("threads are on; the bot may open them"), "{log}");
    assert!(!log.contains("do not allow them"), "{log}");
    assert!(fake.unknown_requests().is_empty(), "{:?}", fake.unknown_requests());
}

#[test]
fn the_binary_without_a_token_says_how_to_give_one() {
    let dir = scratch_dir("no-token");
    let output = Command::new(stonemate_binary())
        .args(["run", "--config"])
        .arg(dir.join("missing.toml"))
        .env_remove("DISCORD_TOKEN")
        .env("STONEMATE_DATABASE", dir.join("db"))
        .stdin(Stdio::null())
        .output()
        .expect("run stonemate");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("DISCORD_TOKEN"), "{stderr}");
    assert!(!dir.join("db").exists(), "nothing may start without a token");
}

/// Regression: against a 401 the bot used to retry forever, logging every 5 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_the_binary_with_a_message() {
    let fake = FakeDiscord::start().await;
    fake.refuse_token();
    let dir = scratch_dir("refused-token");
    let config = write_config(&dir, &fake);
    let running = start(&stonemate_binary(), &config);
    let (exit, log) = tokio::task::spawn_blocking(move || wait_for_exit(running)).await.expect("wait");
    assert_eq!(exit.code(), Some(2), "{log}");
    assert!(log.contains("Discord refused the token (401 Unauthorized)"), "{log}");
    assert!(log.contains("DISCORD_TOKEN"), "{log}");
    assert!(!log.contains(TOKEN), "the token was logged:\n{log}");
    assert!(!dir.join("db").exists(), "the database was opened before the token was accepted");
}

/// Network trouble is retried and said so in the log, which `RUST_LOG` filters (over the
/// config's `log_level`) and which carries no colour codes when it is not a terminal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn network_trouble_is_retried_and_logged_as_rust_log_says() {
    let dir = scratch_dir("unreachable");
    // Port 1 (tcpmux) is served by nobody: every request fails to connect. (A port freed by
    // the test itself could be taken at once by another test's fake Discord.)
    let closed = "127.0.0.1:1";
    let config = dir.join("config.toml");
    let text = format!(
        "database = {:?}\nlog_level = \"error\"\n\n[discord]\napi_base = \"http://{closed}\"\n",
        dir.join("db").display().to_string()
    );
    std::fs::write(&config, text).expect("write the config file");
    let running = start_with(&stonemate_binary(), &config, &[("RUST_LOG", "warn")]);
    // Tries at 0 s and 1 s, and the next only at 3 s: the pause doubles.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (exit, log) = tokio::task::spawn_blocking(move || terminate_with_status(running)).await.expect("stop");
    assert!(log.matches("cannot reach Discord; trying again").count() >= 2, "{log}");
    assert!(log.contains("retry_in=1s") && log.contains("retry_in=2s"), "{log}");
    assert!(!log.contains('\u{1b}'), "colour codes in a piped log:\n{log}");
    assert_eq!(exit.code(), Some(1), "{log}");
    assert!(log.contains("stopped before Discord could be reached"), "{log}");
}

/// Regression: on a PostgreSQL database the binary panicked at start (the blocking client
/// ran on the async runtime's thread). It answers a command, stops cleanly on SIGTERM, and
/// finds the challenge again after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_runs_on_postgresql_across_a_restart() {
    init();
    let database = tokio::task::spawn_blocking(stonemate_tests::postgres::database).await.expect("a database");
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("binary-postgres");
    let config = write_config(&dir, &fake);
    let written = std::fs::read_to_string(&config).expect("read the config");
    let written = written.replacen(
        &format!("database = {:?}", dir.join("db").display().to_string()),
        &format!("database = {:?}", database.url),
        1,
    );
    std::fs::write(&config, written).expect("write the config");
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));

    let first = start(&stonemate_binary(), &config);
    connect(&fake).await;
    let options = json!([user("opponent", &bob), text("game", "go"), text("options", "board=9x9")]);
    let challenge = command(&fake, &alice, "challenge", options).await;
    assert!(!challenge.is_private(), "{}", challenge.content());
    let log = tokio::task::spawn_blocking(move || terminate(first)).await.expect("stop");
    assert!(!log.contains("panicked"), "{log}");
    assert!(fake.wait_disconnected(WAIT).await, "the gateway connection stayed open");

    let second = start(&stonemate_binary(), &config);
    connect(&fake).await;
    let accept = button(&challenge, "accept");
    let started = answer(&fake, &fake.press(&bob, &challenge.message.clone().expect("message"), &accept)).await;
    assert!(!started.is_private(), "the challenge made before the restart is gone: {}", started.content());
    let log = tokio::task::spawn_blocking(move || terminate(second)).await.expect("stop");
    assert!(!log.contains("panicked"), "{log}");
    assert!(!dir.join("db").exists(), "a sled directory was made beside PostgreSQL");
}

/// A PostgreSQL server that does not answer yet (it may be starting with the machine) is
/// waited for like Discord, each try logged, instead of failing the start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_postgresql_is_tried_again_until_stopped() {
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("postgres-unreachable");
    let config = write_config(&dir, &fake);
    // Port 1 (tcpmux) is served by nobody.
    let running = start_with(
        &stonemate_binary(),
        &config,
        &[("STONEMATE_DATABASE", "postgres://postgres@127.0.0.1:1/stonemate"), ("RUST_LOG", "warn")],
    );
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (exit, log) = tokio::task::spawn_blocking(move || terminate_with_status(running)).await.expect("stop");
    assert!(log.matches("cannot reach the database; trying again").count() >= 2, "{log}");
    assert!(log.contains("retry_in=1s") && log.contains("retry_in=2s"), "{log}");
    assert!(log.contains("stopped before the database could be reached"), "{log}");
    assert_eq!(exit.code(), Some(1), "{log}");
    assert!(!log.contains("panicked"), "{log}");
}

/// `backup_every_hours`: the running bot writes its first scheduled export at start-up,
/// into `backups` inside its sled directory, and `stonemate import` reads it back with the
/// challenge made in an earlier run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_running_binary_writes_a_scheduled_export_that_imports() {
    init();
    let binary = stonemate_binary();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("scheduled-export");
    let config = write_config(&dir, &fake);
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    let first = start(&binary, &config);
    connect(&fake).await;
    let options = json!([user("opponent", &bob), text("game", "go"), text("options", "board=9x9")]);
    assert!(!command(&fake, &alice, "challenge", options).await.is_private());
    tokio::task::spawn_blocking(move || terminate(first)).await.expect("stop");
    assert!(fake.wait_disconnected(WAIT).await);

    let text = std::fs::read_to_string(&config).expect("read the config");
    let text = text.replacen("\n[discord]", "backup_every_hours = 24\nbackup_keep = 2\n\n[discord]", 1);
    std::fs::write(&config, text).expect("write the config");
    let second = start(&binary, &config);
    connect(&fake).await;
    let backups = dir.join("db").join("backups");
    let deadline = Instant::now() + WAIT;
    let export = loop {
        let found = std::fs::read_dir(&backups).into_iter().flatten().flatten().map(|entry| entry.path()).next();
        match found {
            Some(path) if path.extension().is_some_and(|ext| ext == "jsonl") => break path,
            _ if Instant::now() > deadline => panic!("no scheduled export in {}", backups.display()),
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    let log = tokio::task::spawn_blocking(move || terminate(second)).await.expect("stop");
    assert!(log.contains("scheduled export written"), "{log}");
    let name = export.file_name().and_then(|name| name.to_str()).unwrap_or_default().to_owned();
    assert!(name.starts_with("stonemate-") && name.len() == "stonemate-20261124T083000Z.jsonl".len(), "{name}");
    let imported = Command::new(&binary)
        .args(["import", "--data"])
        .arg(dir.join("restored"))
        .arg(&export)
        .output()
        .expect("run stonemate import");
    let stderr = String::from_utf8_lossy(&imported.stderr);
    assert!(imported.status.success() && stderr.contains("1 game imported into"), "{stderr}");
}
