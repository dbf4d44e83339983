//! Starting the bot against the fake Discord, and the checks every test repeats.

use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::Duration;

use std::sync::Arc;

use serde_json::{Value, json};
use stonemate_bot::clock::{Clock, ManualClock, SystemClock};
use stonemate_bot::config::{Config, DiscordConfig, Secret};
use stonemate_bot::service::{Service, Settings};
use stonemate_bot::store::SledStore;
use stonemate_tests::fake_discord::{Answer, FakeDiscord, Origin, RequestKind, Sent};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Long enough for a slow CI machine, short enough that a hang fails quickly.
pub const WAIT: Duration = Duration::from_secs(20);
pub const GUILD: u64 = 42;
pub const CHANNEL: u64 = 4242;
pub const TOKEN: &str = "fake.discord.token-never-logged";

/// Logs of serenity's warnings (a dropped event is only a WARN line) in the test output.
pub fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let filter = std::env::var("STONEMATE_TEST_LOG").unwrap_or_else(|_| "warn".to_owned());
        let _ = tracing_subscriber::fmt().with_env_filter(filter).with_test_writer().try_init();
    });
}

/// A fresh, empty directory under the target directory, for a database.
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

/// The bot's settings for talking to `fake`.
pub fn config(fake: &FakeDiscord, database: &Path) -> Config {
    Config {
        database: database.to_owned(),
        log_level: "warn".to_owned(),
        default_days: 3,
        tick_seconds: 1,
        ai_workers: 1,
        discord: DiscordConfig {
            token: Some(Secret::new(TOKEN)),
            guilds: vec![GUILD],
            api_base: Some(fake.base().to_owned()),
            ..DiscordConfig::default()
        },
        ..Config::default()
    }
}

/// The service the bot runs with in production, on a database in `dir`.
pub fn real_service(dir: &Path) -> Service {
    let config = Config { database: dir.to_owned(), ..Config::default() };
    stonemate_bot::discord::open_service(&config).expect("open the database")
}

/// A service whose clock the test moves.
pub fn manual_service(dir: &Path) -> (Service, Arc<ManualClock>) {
    manual_service_with(dir, Settings::default())
}

/// A service with `settings` whose clock the test moves.
pub fn manual_service_with(dir: &Path, settings: Settings) -> (Service, Arc<ManualClock>) {
    let store = SledStore::open(dir).expect("open the database");
    let clock = Arc::new(ManualClock::at(SystemClock.now()));
    (Service::new(store, clock.clone(), settings), clock)
}

/// The bot running in this process; [`Bot::stop`] shuts it down cleanly.
pub struct Bot {
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Bot {
    /// Starts the bot and waits until it has connected and registered its commands (in
    /// the first configured guild, or globally); returns the registered commands.
    pub async fn start(fake: &FakeDiscord, config: Config, service: Service) -> (Bot, Value) {
        let guild = config.discord.guilds.first().copied();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(stonemate_bot::discord::serve(config, service, async move {
            let _ = stopped.await;
        }));
        assert!(fake.wait_connected(WAIT).await, "the bot did not connect to the fake gateway");
        let registered = fake
            .take(WAIT, |r| r.kind == RequestKind::Commands { guild })
            .await
            .unwrap_or_else(|| panic!("the bot did not register its commands (guild {guild:?})"));
        (Bot { stop: Some(stop), task }, registered.body)
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let outcome = tokio::time::timeout(WAIT, &mut self.task).await.expect("the bot did not stop");
        outcome.expect("the bot's task panicked").expect("the bot stopped with an error");
    }
}

/// A player in the test guild.
pub fn player(fake: &FakeDiscord, name: &str) -> Origin {
    let user = fake.add_user(name);
    fake.in_guild(&user, GUILD, CHANNEL)
}

pub fn user_id(origin: &Origin) -> String {
    origin.user["id"].as_str().expect("user id").to_owned()
}

pub fn text(name: &str, value: &str) -> Value {
    json!({ "name": name, "type": 3, "value": value })
}

pub fn integer(name: &str, value: i64) -> Value {
    json!({ "name": name, "type": 4, "value": value })
}

pub fn user(name: &str, origin: &Origin) -> Value {
    json!({ "name": name, "type": 6, "value": user_id(origin) })
}

/// Waits for the answer to `sent`.
/// The custom id of `answer`'s button for `action` (`accept` finds `accept:12`).
pub fn button(answer: &Answer, action: &str) -> String {
    let ids = answer.custom_ids();
    ids.iter()
        .find(|id| id.starts_with(&format!("{action}:")))
        .cloned()
        .unwrap_or_else(|| panic!("no {action} in {ids:?}"))
}

pub async fn answer(fake: &FakeDiscord, sent: &Sent) -> Answer {
    fake.answer(sent, WAIT).await.unwrap_or_else(|| panic!("no answer to interaction {}", sent.id))
}

/// Sends a command and returns the answer.
pub async fn command(fake: &FakeDiscord, origin: &Origin, name: &str, options: Value) -> Answer {
    let sent = fake.command(origin, name, options);
    answer(fake, &sent).await
}

/// Checks that every file of the answer is a PNG that decodes, and returns how many.
pub fn assert_pngs(answer: &Answer) -> usize {
    assert!(!answer.files.is_empty(), "no image with {:?}", answer.content());
    for file in &answer.files {
        let decoder = png::Decoder::new(std::io::Cursor::new(file));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a PNG size")];
        let frame = reader.next_frame(&mut pixels).expect("PNG pixels");
        assert!(frame.width > 16 && frame.height > 16, "a tiny image: {}x{}", frame.width, frame.height);
    }
    answer.files.len()
}
