//! `stonemate console`: the game service on a local database, driven by lines on standard
//! input instead of Discord (`docs/commands.md`, "The console"). For trying the bot without a
//! token, and for scripts (`--json`: one JSON object per reply).

pub mod parse;

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};
use stonemate_engine::GameKind;

use crate::ai_pool::{self, Job};
use crate::clock::{Clock, ManualClock, SystemClock};
use crate::service::options::keys;
use crate::service::{
    Attachment, Caller, ChannelId, Delivery, GameId, GuildId, Notice, Reply, Service, Settings, Target, ThreadStep,
    Timeouts, User, UserId, text, thread_name,
};
use crate::store::StoreError;
use parse::Line;

/// The database directory when `--data` is not given.
pub const DEFAULT_DATA: &str = "stonemate-data";
/// Everyone talks in this channel unless a line names another.
pub const DEFAULT_CHANNEL: &str = "general";
/// Lines act from this server unless they start with `[server]`.
pub const DEFAULT_SERVER: &str = "home";

/// The line that greets someone typing at a terminal.
#[must_use]
pub fn greeting() -> String {
    let example = keys::Challenge::opponent.usage("@bob").and(keys::Challenge::game, GameKind::Go.name());
    format!(
        "Stonemate console: type a command as on Discord, after a user name, like `@alice {example}` (`@alice /help` \
         lists the commands, `!advance 2d` moves the clock, Ctrl-D ends)."
    )
}

/// The bot's own user: challenge `@stonemate` to play against Stonemate's player.
pub const BOT_NAME: &str = "stonemate";

/// The bot's questions, answered between two lines (each once, in order).
type Questions = Arc<Mutex<VecDeque<Job<GameId>>>>;

/// What the console shows before each line it reads from a terminal.
pub const PROMPT: &str = "> ";

/// The console's settings (`--data` or `--database`, `--out`, `--json`).
#[derive(Debug, Clone)]
pub struct Options {
    /// The database: a sled directory, or a PostgreSQL address ([`crate::store::open_at`]).
    pub data: PathBuf,
    /// Where pictures and files of replies are written.
    pub out: PathBuf,
    /// Print each reply as one JSON object (`--json`), for scripts.
    pub json: bool,
    /// Someone types at a terminal: greet him and show a prompt (never in scripts).
    pub interactive: bool,
    /// What a turn whose time runs out does (`--timeouts`), as on Discord.
    pub timeouts: Timeouts,
}

impl Options {
    /// The defaults of `docs/commands.md`: images go to `out` next to the database.
    #[must_use]
    pub fn new(data: Option<PathBuf>, out: Option<PathBuf>, json: bool) -> Options {
        let data = data.unwrap_or_else(|| PathBuf::from(DEFAULT_DATA));
        let out = out.unwrap_or_else(|| data.parent().unwrap_or(Path::new("")).join("out"));
        Options { data, out, json, interactive: false, timeouts: Timeouts::default() }
    }

    /// On the PostgreSQL database at `address` (`--database`): images go to `out` in the
    /// working directory unless `out` says otherwise.
    #[must_use]
    pub fn at_address(address: &str, out: Option<PathBuf>, json: bool) -> Options {
        let out = out.unwrap_or_else(|| PathBuf::from("out"));
        Options { data: PathBuf::from(address), out, json, interactive: false, timeouts: Timeouts::default() }
    }
}

/// A running console: the service, its movable clock, and the names it has seen.
#[derive(Debug)]
pub struct Console {
    service: Service,
    clock: Arc<ManualClock>,
    options: Options,
    users: HashMap<UserId, String>,
    /// Each channel seen, as (server, name): a line's, or a game's thread.
    channels: HashMap<ChannelId, (String, String)>,
    /// Who may manage which server (`!admin`), for this run.
    admins: HashSet<(GuildId, UserId)>,
    next_file: u32,
    /// What the bot was asked and has not answered yet.
    questions: Questions,
    /// What the database is owed once the console has closed it ([`Console::close`]).
    closing: crate::store::Closing,
}

/// A server's id. `home` keeps the id every console record had before servers could be
/// named, so old databases stay in the home server.
fn guild_id(server: &str) -> GuildId {
    if server == DEFAULT_SERVER { GuildId(1) } else { GuildId(parse::hash(&format!("[{server}]")) >> 2 | 1 << 61) }
}

/// A channel's id: channels belong to their server, so `#general` of two servers differ
/// (the home server's keep their old ids).
fn channel_id(server: &str, name: &str) -> ChannelId {
    let full = if server == DEFAULT_SERVER { format!("#{name}") } else { format!("[{server}]#{name}") };
    ChannelId(parse::hash(&full) >> 1)
}

/// Opens a game's thread in the console: a channel of `parent`'s server named by the
/// thread's name in the form a line can write after `#` (`#12 ann vs bob` is
/// `#12-ann-vs-bob`). Returns its id.
fn open_thread(channels: &mut HashMap<ChannelId, (String, String)>, parent: ChannelId, name: &str) -> ChannelId {
    let server = channels.get(&parent).map_or_else(|| DEFAULT_SERVER.to_owned(), |(server, _)| server.clone());
    let words: Vec<String> =
        name.split(|ch: char| !ch.is_alphanumeric()).filter(|word| !word.is_empty()).map(str::to_lowercase).collect();
    let name = words.join("-");
    let id = channel_id(&server, &name);
    channels.insert(id, (server, name));
    id
}

/// How a channel is printed: `#general`, or `[work] #general` outside the home server.
fn channel_label(server: &str, name: &str) -> String {
    if server == DEFAULT_SERVER { format!("#{name}") } else { format!("[{server}] #{name}") }
}

impl Console {
    /// Opens the database (sled allows one process at a time; PostgreSQL when `data` is
    /// an address).
    pub fn open(options: Options) -> Result<Console, StoreError> {
        let (store, closing) = crate::store::open_closing(&options.data)?;
        let clock = Arc::new(ManualClock::at(SystemClock.now()));
        let questions = Questions::default();
        let queue = Arc::clone(&questions);
        let bot = User { id: parse::user_id(BOT_NAME), name: BOT_NAME.to_owned() };
        let settings = Settings { timeouts: options.timeouts, ..Settings::default() };
        let service = Service::new(store, clock.clone(), settings).with_bot(bot, move |job| {
            let mut queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
            if !queue.contains(&job) {
                queue.push_back(job);
            }
        });
        let next_file = last_file_number(&options.out) + 1;
        let channels = HashMap::from([(
            channel_id(DEFAULT_SERVER, DEFAULT_CHANNEL),
            (DEFAULT_SERVER.to_owned(), DEFAULT_CHANNEL.to_owned()),
        )]);
        let (users, admins) = (HashMap::new(), HashSet::new());
        Ok(Console { service, clock, options, users, channels, admins, next_file, questions, closing })
    }

    /// Closes the database at the end of a session: on sled, a session that wrote leaves a
    /// snapshot, so that the next start does not read what it wrote again
    /// ([`crate::store::Closing`]). Returns whether it did.
    ///
    /// # Errors
    /// When the snapshot cannot be taken (what was written stays durable: only the next
    /// start is slower).
    pub fn close(mut self) -> Result<bool, StoreError> {
        let closing = std::mem::take(&mut self.closing);
        // Every handle of the store goes with the service.
        drop(self);
        closing.settle()
    }

    /// Reads lines until the input ends, answering each at once.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        let prompt = if self.options.interactive {
            writeln!(output, "{}", greeting())?;
            PROMPT
        } else {
            ""
        };
        // Notices an earlier run left unsent go out first, then games left waiting for the
        // bot are played on.
        let mut first = self.delivered();
        first.extend(self.play_bot());
        for printed in first {
            writeln!(output, "{}", self.shown(printed))?;
        }
        write!(output, "{prompt}")?;
        output.flush()?;
        for line in input.lines() {
            for printed in self.line(&line?) {
                writeln!(output, "{}", self.shown(printed))?;
            }
            if self.service.stopped().is_some() {
                // Nothing more is served: the caller exits (see `main`).
                output.flush()?;
                return Ok(());
            }
            write!(output, "{prompt}")?;
            output.flush()?;
        }
        Ok(())
    }

    /// `printed` as it is written out: in text mode, a control character (an ESC from a
    /// typed name would drive the terminal) or one that shows nothing (a bidirectional
    /// override, [`text::invisible`]) is written as its escape, `\u{1b}`, and only the line
    /// breaks between a reply's lines stay; JSON escapes control characters itself.
    fn shown(&self, printed: String) -> String {
        let hidden = |ch: char| (ch.is_control() && ch != '\n') || text::invisible(ch);
        if self.options.json || !printed.contains(hidden) {
            return printed;
        }
        printed.chars().map(|ch| if hidden(ch) { ch.escape_default().to_string() } else { ch.to_string() }).collect()
    }

    /// Handles one line; returns what to print (the reply, then the notices due, read
    /// from the outbox).
    pub fn line(&mut self, text: &str) -> Vec<String> {
        let mut printed = match parse::line(text) {
            Ok(Line::Blank) => Vec::new(),
            Ok(Line::Advance(span)) => {
                self.clock.advance(span);
                vec![self.say(None, Some("!advance"), &note(format!("the clock moved {span} forward")))]
            }
            Ok(Line::Command { server, channel, user, spec, args }) => {
                let caller = self.caller(server, channel, &user);
                let response = self.service.handle_args(&caller, spec, &args);
                vec![self.say(Some(&user), Some(spec.name), &response.reply)]
            }
            Ok(Line::Admin { server, user }) => {
                let server = server.unwrap_or_else(|| DEFAULT_SERVER.to_owned());
                self.admins.insert((guild_id(&server), parse::user_id(&user)));
                let text = format!("{user} may now manage the server [{server}] (Manage Server)");
                vec![self.say(None, Some("!admin"), &note(text))]
            }
            Ok(Line::Press { server, channel, user, custom_id }) => {
                let caller = self.caller(server, channel, &user);
                let response = self.service.press(&caller, &custom_id);
                vec![self.say(Some(&user), Some("!press"), &response.reply)]
            }
            Ok(Line::Select { server, channel, user, custom_id, value }) => {
                let caller = self.caller(server, channel, &user);
                let response = self.service.select(&caller, &custom_id, &value);
                vec![self.say(Some(&user), Some("!select"), &response.reply)]
            }
            Err(error) => {
                let reply =
                    Reply { ok: false, private: true, message: format!("console: {error}").into(), ..Reply::default() };
                vec![self.say(None, None, &reply)]
            }
        };
        self.service.tick();
        printed.extend(self.delivered());
        printed.extend(self.play_bot());
        printed
    }

    /// Answers every question the bot was asked, at once and in order (a search of one
    /// thread at the game's level), printing its turns as messages from nobody: the
    /// console plays the bot before it reads the next line.
    fn play_bot(&mut self) -> Vec<String> {
        let mut printed = Vec::new();
        loop {
            let job = self.questions.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
            let Some(job) = job else { break };
            let answer = ai_pool::answer(&job, 1);
            self.service.apply_answer(answer);
            printed.extend(self.delivered());
        }
        printed
    }

    fn caller(&mut self, server: Option<String>, channel: Option<String>, user: &str) -> Caller {
        let server = server.unwrap_or_else(|| DEFAULT_SERVER.to_owned());
        let channel = channel.unwrap_or_else(|| DEFAULT_CHANNEL.to_owned());
        let (guild, id) = (guild_id(&server), channel_id(&server, &channel));
        self.channels.insert(id, (server.clone(), channel.clone()));
        let user = User { id: parse::user_id(user), name: user.to_owned() };
        self.users.insert(user.id, user.name.clone());
        let admin = self.admins.contains(&(guild, user.id));
        Caller { user, channel: id, guild: Some(guild), admin }
    }

    /// Prints every notice waiting in the outbox, oldest first: printing delivers it.
    fn delivered(&mut self) -> Vec<String> {
        // The console shows a tournament's standings as one message, named by the
        // tournament, which each later standings notice edits (as on Discord).
        // Every notice is delivered, so the edits noted here go with the notices returned.
        let mut edits = Vec::new();
        // A game's thread is a channel named after it, in its channel's server; the
        // message that opens it is shown there.
        let mut opened = Vec::new();
        let channels = &mut self.channels;
        let notices = self.service.deliver(|outgoing| {
            edits.push(outgoing.edits.is_some());
            let thread = match (&outgoing.notice.thread, outgoing.notice.target) {
                (Some(ThreadStep::Open { name }), Target::Channel(parent)) => Some(open_thread(channels, parent, name)),
                _ => None,
            };
            opened.push(thread);
            match (outgoing.notice.standings, outgoing.edits, thread) {
                (_, _, Some(thread)) => Delivery::Posted(thread.0),
                (Some(tournament), None, None) => Delivery::Posted(u64::from(tournament.0)),
                _ => Delivery::Sent,
            }
        });
        let mut printed = Vec::new();
        for ((notice, edited), thread) in notices.iter().zip(edits).zip(opened) {
            let target = thread.map_or(notice.target, Target::Channel);
            printed.push(self.notice(&Notice { target, ..notice.clone() }, edited));
        }
        printed
    }

    fn name(&self, user: UserId) -> String {
        self.users.get(&user).cloned().or_else(|| self.service.user_name(user)).unwrap_or_else(|| user.0.to_string())
    }

    /// A notice as printed: where it went, and whether it edits a message shown before.
    fn notice(&mut self, notice: &Notice, edited: bool) -> String {
        if let (Target::Channel(id), Some(game)) = (notice.target, notice.about) {
            self.know_thread(id, game);
        }
        let to = match notice.target {
            Target::Channel(id) => match self.channels.get(&id) {
                Some((server, name)) => channel_label(server, name),
                None => format!("#{}", id.0),
            },
            Target::Direct(user) => format!("@{} (dm)", self.name(user)),
        };
        let reply = Reply {
            ok: true,
            message: notice.message.clone(),
            images: notice.images.clone(),
            about: notice.about,
            buttons: notice.buttons.clone(),
            ..Reply::default()
        };
        let mut printed = self.say(None, None, &reply);
        if self.options.json {
            // Add where the message went without disturbing the fields of the spec.
            if let Ok(Value::Object(mut object)) = serde_json::from_str::<Value>(&printed) {
                object.insert("to".into(), json!(to));
                if edited {
                    object.insert("edited".into(), json!(true));
                }
                printed = Value::Object(object).to_string();
            }
        } else {
            let edited = if edited { " (edited)" } else { "" };
            printed = printed.replacen("[nobody]", &format!("[nobody → {to}]{edited}"), 1);
        }
        printed
    }

    /// Names `channel` if it is game `game`'s thread, opened before this run: its name
    /// follows from the game.
    fn know_thread(&mut self, channel: ChannelId, game: GameId) {
        if self.channels.contains_key(&channel) {
            return;
        }
        let Ok(Some(record)) = self.service.store().load(game) else { return };
        if record.thread() == Some(channel) {
            open_thread(&mut self.channels, record.channel(), &thread_name(&record));
        }
    }

    /// Writes the attachments under `--out`; returns their paths.
    fn save(&mut self, attachments: &[Attachment]) -> Vec<String> {
        let mut paths = Vec::new();
        for attachment in attachments {
            let path = self.options.out.join(format!("{:04}-{}", self.next_file, attachment.name));
            self.next_file += 1;
            let written =
                std::fs::create_dir_all(&self.options.out).and_then(|()| std::fs::write(&path, &attachment.bytes));
            match written {
                Ok(()) => paths.push(path.display().to_string()),
                Err(error) => paths.push(format!("(could not write {}: {error})", path.display())),
            }
        }
        paths
    }

    /// One printed reply: a JSON object (`--json`) or a few readable lines.
    fn say(&mut self, user: Option<&str>, command: Option<&str>, reply: &Reply) -> String {
        let mut files = self.save(&reply.images);
        files.extend(self.save(&reply.files));
        let mentions: Vec<String> = reply.message.mentions().into_iter().map(|user| self.name(user)).collect();
        if self.options.json {
            let buttons: Vec<&str> = reply.buttons.iter().map(|b| b.custom_id.as_str()).collect();
            let selects: Vec<Value> = reply
                .selects
                .iter()
                .map(|select| {
                    let options: Vec<Value> = select
                        .options
                        .iter()
                        .map(|option| json!({"value": option.value, "label": option.label}))
                        .collect();
                    json!({"id": select.custom_id, "options": options})
                })
                .collect();
            return json!({
                "user": user, "command": command, "ok": reply.ok, "private": reply.private, "text": reply.text(),
                "files": files, "mentions": mentions, "game": reply.about.map(|id| id.0), "buttons": buttons,
                "selects": selects,
            })
            .to_string();
        }
        let who = match (user, command) {
            (Some(user), Some(command)) if command.starts_with('!') => format!("[@{user} {command}]"),
            (Some(user), Some(command)) => format!("[@{user} /{command}]"),
            (None, Some(command)) => format!("[{command}]"),
            _ => "[nobody]".to_owned(),
        };
        let how = match (reply.ok, reply.private) {
            (true, false) => "",
            (true, true) => " (private)",
            (false, _) => " refused (private)",
        };
        let mut text = format!("{who}{how} {}", reply.text());
        if !mentions.is_empty() {
            text.push_str(&format!("\n    pings: @{}", mentions.join(", @")));
        }
        for file in files {
            text.push_str(&format!("\n    file: {file}"));
        }
        for select in &reply.selects {
            text.push_str(&format!("\n    select: {}", select.custom_id));
            for option in &select.options {
                text.push_str(&format!("\n      {} ({})", option.value, option.label));
            }
        }
        for button in &reply.buttons {
            text.push_str(&format!("\n    button: {} (`!press {}`)", button.label, button.custom_id));
        }
        text
    }
}

fn note(text: String) -> Reply {
    Reply { ok: true, message: text.into(), ..Reply::default() }
}

/// The highest `NNNN-` prefix among the files already in `out`, so new files never
/// overwrite old ones.
fn last_file_number(out: &Path) -> u32 {
    let Ok(entries) = std::fs::read_dir(out) else { return 0 };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.split('-').next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

/// `stonemate console`: runs on standard input and output; exit status 2 when the
/// database cannot be opened.
pub fn main(mut options: Options) -> std::process::ExitCode {
    options.interactive = std::io::stdin().is_terminal() && !options.json;
    let mut console = match Console::open(options) {
        Ok(console) => console,
        Err(error) => {
            crate::output::error(&format!("stonemate console: {error}"));
            return std::process::ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    // A reader that stopped early (`| head`) wanted no more: not a failure.
    let outcome = console.run(stdin.lock(), std::io::stdout().lock()).or_else(crate::output::ignore_gone);
    if let Some(failure) = console.service.stopped() {
        crate::output::error(&format!("stonemate console: storage failed, stopping: {failure}"));
        // Not by returning: dropping sled's database after an I/O error panics in its log.
        std::process::exit(1);
    }
    if let Err(error) = console.close() {
        // The session's turns are durable: only the next start reads more.
        crate::output::error(&format!("stonemate console: no snapshot at the end: {error}"));
    }
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            crate::output::error(&format!("stonemate console: {error}"));
            std::process::ExitCode::FAILURE
        }
    }
}
