//! A table of players around one service on an in-memory store (or sled), with a clock
//! the tests move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use stonemate_bot::clock::{Clock, ManualClock, Span, Timestamp};
use stonemate_bot::console::{Console, Options};
use stonemate_bot::service::commands::{self, Args, Value};
use stonemate_bot::service::{
    Caller, ChannelId, ColorChoice, Command, GameId, GuildId, Response, Service, Settings, User, UserId,
};
use stonemate_bot::store::{Backend, Batch, GameRecord, KeyRange, MemoryStore, Phase, RatingChange, Store, StoreError};
use stonemate_engine::GameKind;

/// The channel everyone plays in unless a test says otherwise.
pub const GENERAL: ChannelId = ChannelId(100);

pub struct Table {
    pub service: Arc<Service>,
    pub clock: Arc<ManualClock>,
}

pub fn user(name: &str) -> User {
    let id = name.bytes().fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    User::new(id, name)
}

pub fn caller(name: &str) -> Caller {
    caller_in(name, GENERAL)
}

pub fn caller_in(name: &str, channel: ChannelId) -> Caller {
    Caller::new(user(name), channel, Some(HOME))
}

/// The server everyone plays in unless a test says otherwise.
pub const HOME: GuildId = GuildId(1);

/// A member of `guild`, in a channel of that server.
pub fn in_server(name: &str, guild: GuildId) -> Caller {
    Caller::new(user(name), ChannelId(guild.0 * 1000), Some(guild))
}

/// A member who may manage `guild` (Manage Server).
pub fn admin_of(name: &str, guild: GuildId) -> Caller {
    let channel = if guild == HOME { GENERAL } else { ChannelId(guild.0 * 1000) };
    Caller { admin: true, ..Caller::new(user(name), channel, Some(guild)) }
}

pub fn mv(notation: &str) -> Command {
    Command::Move { notation: notation.into(), game: None }
}

pub fn mv_in(notation: &str, id: GameId) -> Command {
    Command::Move { notation: notation.into(), game: Some(id) }
}

pub fn game_opt(id: GameId) -> Option<GameId> {
    Some(id)
}

/// A command as a user types it (options as text, numbers and users), made typed by the
/// list of commands as the console and Discord make it: bad values are refused there.
#[derive(Debug, Clone)]
pub enum Call {
    Typed(Command),
    Text(&'static commands::Spec, Args),
}

impl From<Command> for Call {
    fn from(command: Command) -> Call {
        Call::Typed(command)
    }
}

/// The command `name` with these option values.
pub fn typed(name: &str, options: &[(&str, Value)]) -> Call {
    let spec = commands::find(name).expect("a command of the list");
    let mut args = Args::default();
    for (option, value) in options {
        args.push(option, value.clone());
    }
    Call::Text(spec, args)
}

/// Stonemate's own player in [`Table::with_silent_bot`].
pub fn stonemate() -> User {
    User::new(999, "stonemate")
}

/// A text option value.
pub fn text(value: &str) -> Value {
    Value::Text(value.to_owned())
}

impl Table {
    pub fn new() -> Table {
        Table::with(MemoryStore::new(), Settings::default())
    }

    /// A table with Stonemate's own player ([`stonemate`]), asked its turns but never
    /// answering, and no pictures drawn.
    pub fn with_silent_bot() -> Table {
        let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
        let settings = Settings { render: |_| Vec::new(), animate: |_| Vec::new(), ..Settings::default() };
        let service = Service::new(MemoryStore::new(), clock.clone(), settings).with_bot(stonemate(), |_| {});
        Table { service: Arc::new(service), clock }
    }

    pub fn with(store: impl Into<Store>, settings: Settings) -> Table {
        let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
        Table { service: Arc::new(Service::new(store, clock.clone(), settings)), clock }
    }

    pub fn run(&self, who: &str, command: impl Into<Call>) -> Response {
        self.call(&caller(who), command.into())
    }

    fn call(&self, caller: &Caller, call: Call) -> Response {
        match call {
            Call::Typed(command) => self.service.handle(caller, command),
            Call::Text(spec, args) => self.service.handle_args(caller, spec, &args),
        }
    }

    /// Runs a command that must succeed.
    #[track_caller]
    pub fn ok(&self, who: &str, command: impl Into<Call>) -> Response {
        self.ok_as(&caller(who), command)
    }

    #[track_caller]
    pub fn ok_as(&self, caller: &Caller, command: impl Into<Call>) -> Response {
        let command = command.into();
        let response = self.call(caller, command.clone());
        assert!(response.reply.ok, "{} {command:?} was refused: {}", caller.user.name, response.reply.text());
        response
    }

    /// Runs a command that must be refused privately, changing nothing in the store;
    /// returns the refusal text.
    #[track_caller]
    pub fn refused(&self, who: &str, command: impl Into<Call>) -> String {
        self.refused_as(&caller(who), command)
    }

    #[track_caller]
    pub fn refused_as(&self, caller: &Caller, command: impl Into<Call>) -> String {
        let command = command.into();
        let before = self.service.store().dump().unwrap();
        let response = self.call(caller, command.clone());
        assert!(!response.reply.ok, "{command:?} was not refused: {}", response.reply.text());
        assert!(response.reply.private, "refusals are private");
        assert!(response.notices.is_empty(), "refusals send nothing");
        assert_eq!(self.service.store().dump().unwrap(), before, "{command:?} changed the store");
        response.reply.text()
    }

    /// A button press that must be refused, changing nothing.
    #[track_caller]
    pub fn press_refused(&self, who: &str, id: &str) -> String {
        self.press_refused_as(&caller(who), id)
    }

    #[track_caller]
    pub fn press_refused_as(&self, caller: &Caller, id: &str) -> String {
        let before = self.service.store().dump().unwrap();
        let response = self.service.press(caller, id);
        assert!(!response.reply.ok && response.reply.private, "{id}: {}", response.reply.text());
        assert_eq!(self.service.store().dump().unwrap(), before, "{id} changed the store");
        response.reply.text()
    }

    pub fn challenge(&self, from: &str, to: &str, kind: &str, days: u8, options: &str) -> GameId {
        let command = Command::Challenge {
            opponent: Some(user(to)),
            game: kind.parse().expect("a game name"),
            color: ColorChoice::White,
            days: Some(days),
            options: Some(options.into()),
            level: stonemate_bot::service::Level::Medium,
        };
        self.ok(from, command).reply.about.expect("a challenge reply names its id")
    }

    /// A Go challenge on 9x9 from `from` (wherever he is) to `to`.
    pub fn challenge_from(&self, from: &Caller, to: &str) -> GameId {
        let command = Command::Challenge {
            opponent: Some(user(to)),
            game: GameKind::Go,
            color: ColorChoice::White,
            days: Some(3),
            options: Some("board=9x9".into()),
            level: stonemate_bot::service::Level::Medium,
        };
        self.ok_as(from, command).reply.about.expect("a challenge reply names its id")
    }

    /// A game of Go with chess pieces: `white` challenges (and plays white), `black`
    /// accepts and moves first (ruling G1).
    pub fn go(&self, white: &str, black: &str, days: u8, options: &str) -> GameId {
        let id = self.challenge(white, black, "go", days, options);
        self.ok(black, Command::Accept { challenge: game_opt(id) });
        id
    }

    pub fn record(&self, id: GameId) -> GameRecord {
        self.service.store().load(id).unwrap().expect("the record exists")
    }

    pub fn advance(&self, span: Span) {
        self.clock.advance(span);
    }

    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }
}

/// A store that, once armed, first lets "another process" change a rating that the next
/// rating write is about, then does that write; or fails a write outright. It wraps the
/// backend: a record's update is a batch that checks the record's stored bytes, and a
/// rating write is one that puts a rating key.
#[derive(Debug, Default)]
pub struct Meddling {
    pub inner: MemoryStore,
    /// A rating to slip in before the next rated write (and the record whose write carries it).
    pub slip_in: Mutex<Option<(GameRecord, RatingChange)>>,
    /// Fails the next write that changes a rating.
    pub fail: AtomicBool,
    /// Fails the write after this many more succeed (once).
    pub fail_after: Mutex<Option<usize>>,
    /// Loses the race of the write after this many more succeed (once): answered as a
    /// conflict, as when another command wrote the record first.
    pub conflict_after: Mutex<Option<usize>>,
}

impl Meddling {
    /// Whether `batch` updates a stored record (as opposed to creating one or writing
    /// notices, users, reports on their own).
    fn updates_a_record(batch: &Batch) -> bool {
        batch.checks.iter().any(|(key, value)| key.first() == Some(&b'g') && value.is_some())
    }

    fn writes_a_rating(batch: &Batch) -> bool {
        batch.writes.iter().any(|(key, _)| key.first() == Some(&b'r'))
    }

    /// Counts one record update down on `countdown`: whether this is the one it waits for.
    fn comes(countdown: &Mutex<Option<usize>>) -> bool {
        let mut left = countdown.lock().unwrap();
        match *left {
            Some(0) => {
                *left = None;
                true
            }
            Some(more) => {
                *left = Some(more - 1);
                false
            }
            None => false,
        }
    }
}

impl Backend for Meddling {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.backend().get(key)
    }
    fn scan(&self, range: &KeyRange) -> Result<Vec<(Vec<u8>, Vec<u8>)>, StoreError> {
        self.inner.backend().scan(range)
    }
    fn apply(&self, batch: &Batch) -> Result<(), StoreError> {
        if Self::updates_a_record(batch) {
            if Self::comes(&self.fail_after) {
                return Err(StoreError::Database("injected: the write failed".into()));
            }
            if Self::comes(&self.conflict_after) {
                return Err(StoreError::Conflict);
            }
        }
        if Self::writes_a_rating(batch) {
            if let Some((other, change)) = self.slip_in.lock().unwrap().take() {
                self.inner.update_with(&other, &[change], &[])?;
            }
            if self.fail.swap(false, Ordering::SeqCst) {
                return Err(StoreError::Database("injected: the transaction failed".into()));
            }
        }
        self.inner.backend().apply(batch)
    }
    fn next_id(&self) -> Result<u64, StoreError> {
        self.inner.backend().next_id()
    }
    fn flush(&self) -> Result<(), StoreError> {
        self.inner.backend().flush()
    }
}

/// The store under a service: the table's, known to be a [`Meddling`].
pub fn meddling_table() -> (Table, Arc<Meddling>) {
    let store = Arc::new(Meddling::default());
    (Table::with(store.clone(), Settings::default()), store)
}

/// The records `user` takes part in, in every server, with their phase (the player index).
pub fn games_of(store: &Store, user: UserId) -> Vec<(GameId, Phase)> {
    store.entries_of(user).unwrap().into_iter().map(|entry| (entry.id, entry.phase)).collect()
}

/// A console session on a fresh database, keeping what it printed.
pub struct Session {
    pub console: Console,
    pub printed: Vec<String>,
    _dir: tempfile::TempDir,
}

impl Session {
    pub fn new() -> Session {
        let dir = tempfile::tempdir().unwrap();
        let options = Options::new(Some(dir.path().join("db")), Some(dir.path().join("out")), false);
        Session { console: Console::open(options).unwrap(), printed: Vec::new(), _dir: dir }
    }

    /// Writes what the session printed, with its pictures, under `$STONEMATE_TRANSCRIPTS/name`
    /// when that is set (for the transcripts the docs show; `docs/tournaments.md`).
    pub fn keep_transcript(&self, name: &str) {
        let Some(root) = std::env::var_os("STONEMATE_TRANSCRIPTS") else { return };
        let kept = std::path::Path::new(&root).join(name);
        std::fs::create_dir_all(&kept).unwrap();
        let out = self._dir.path().join("out");
        let text = self.printed.join("\n").replace(&format!("{}/", out.display()), "out/");
        std::fs::write(kept.join("transcript.txt"), text + "\n").unwrap();
        let _ = std::fs::remove_dir_all(kept.join("out"));
        std::fs::create_dir_all(kept.join("out")).unwrap();
        for file in std::fs::read_dir(&out).unwrap() {
            let file = file.unwrap();
            std::fs::copy(file.path(), kept.join("out").join(file.file_name())).unwrap();
        }
    }

    /// The same session after the bot starts again: a new console over the same database.
    pub fn restarted(self) -> Session {
        let Session { console, printed, _dir: dir } = self;
        drop(console);
        let options = Options::new(Some(dir.path().join("db")), Some(dir.path().join("out")), false);
        Session { console: Console::open(options).unwrap(), printed, _dir: dir }
    }

    /// Runs one line; returns what it printed, one string per message.
    pub fn line(&mut self, line: &str) -> Vec<String> {
        let printed = self.console.line(line);
        self.printed.extend(printed.iter().cloned());
        printed
    }

    /// Runs a line whose reply must not be a refusal.
    #[track_caller]
    pub fn ok(&mut self, line: &str) -> Vec<String> {
        let printed = self.line(line);
        assert!(!printed[0].contains("refused"), "{line}: {printed:?}");
        printed
    }
}
