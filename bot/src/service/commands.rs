//! The one list of commands ([`COMMANDS`], made by `commands!` below): each command is
//! declared once, as its name, descriptions, typed options and handler. From that one
//! declaration come the typed [`Command`] (its options as fields), the reading of its
//! options, the call of its handler, the Discord registration, the console's parser and
//! `/help`; so adding a command means one entry here and one handler in the feature's
//! module under `handlers/`.
//!
//! An option's name is its field's name, written once. Option values reach
//! [`Spec::command`] as [`Args`]: text as typed (made safe to quote, [`text::typed`]),
//! numbers, users. Every value is read here, once, at the edge, by its field's type
//! ([`Read`]); a bad one is refused with the same [`Refusal`] the service would give.

use stonemate_ai::{Level, UnknownLevel};
use stonemate_engine::game::UnknownGame;
use stonemate_engine::{AnyGame, GameKind, Turn};

use super::Parts;
use super::error::Refusal;
use super::games::parse_id;
use super::handlers::{
    challenge, community, conditional, counting, endings, history, picker, takeback, turns, vacation, views,
};
use super::text;
use super::types::{Caller, Field, GameId, GameStatus, Reply, Response, User};
use crate::store::{ColorChoice, NotifyMode};

pub use super::limits::{MAX_DAYS, MAX_PAGE, MAX_VACATION_DAYS};

/// What an option holds, and how Discord offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text.
    Text,
    /// Free text that the service suggests values for while it is typed.
    Suggested(Field),
    /// Days per move: 0 (no clock) to [`MAX_DAYS`].
    Days,
    /// Extra days: 1 to [`MAX_DAYS`].
    ExtraDays,
    /// A user.
    User,
    /// One of the five games, by name.
    Game,
    /// `white`, `black` or `random`.
    Color,
    /// `channel`, `dm` or `off`.
    Notify,
    /// The bot's level: `easy`, `medium` or `hard`.
    Level,
    /// Vacation days: 0 (back now) to [`MAX_VACATION_DAYS`].
    VacationDays,
    /// A page of a list: 1 to [`MAX_PAGE`].
    Page,
    /// Which games `/games` lists: `active` or `finished`.
    Status,
    /// A setting: `on` or `off`.
    OnOff,
}

impl Kind {
    /// The numbers it takes, `(min, max)`, for numbers.
    #[must_use]
    pub fn range(self) -> Option<(i64, i64)> {
        match self {
            Kind::Days => Some((0, MAX_DAYS.into())),
            Kind::ExtraDays => Some((1, MAX_DAYS.into())),
            Kind::VacationDays => Some((0, MAX_VACATION_DAYS.into())),
            Kind::Page => Some((1, MAX_PAGE.into())),
            _ => None,
        }
    }

    /// The fixed choices Discord offers for it (none for free values).
    #[must_use]
    pub fn choices(self) -> Vec<&'static str> {
        match self {
            Kind::Game => GameKind::ALL.iter().map(|kind| kind.name()).collect(),
            Kind::Color => ColorChoice::ALL.iter().map(|color| color.name()).collect(),
            Kind::Notify => NotifyMode::ALL.iter().map(|mode| mode.name()).collect(),
            Kind::Level => Level::ALL.iter().map(|level| level.name()).collect(),
            Kind::Status => GameStatus::ALL.iter().map(|status| status.name()).collect(),
            Kind::OnOff => vec!["on", "off"],
            Kind::Text
            | Kind::Suggested(_)
            | Kind::Days
            | Kind::ExtraDays
            | Kind::User
            | Kind::VacationDays
            | Kind::Page => Vec::new(),
        }
    }

    /// Why `given` is refused as a number of this kind.
    fn out_of_range(self, given: i64) -> Refusal {
        match self {
            Kind::ExtraDays => Refusal::BadExtraDays(given),
            Kind::VacationDays => Refusal::BadVacationDays(given),
            Kind::Page => Refusal::BadPage(given),
            _ => Refusal::BadDays(given),
        }
    }
}

/// One option of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name as users type it (`game`, `days`).
    pub name: &'static str,
    /// What Discord shows under the option.
    pub description: &'static str,
    /// Whether the command needs it.
    pub required: bool,
    /// What it takes, and how it is read and suggested.
    pub kind: Kind,
}

/// One command: its name as users type it, what Discord and `/help` say of it, its
/// options, and how they become a [`Command`].
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The name users type, without the slash.
    pub name: &'static str,
    /// What Discord shows in the command list (at most 100 characters).
    pub description: &'static str,
    /// The command's line in `/help`.
    pub help: &'static str,
    /// Its options, in the order Discord shows them.
    pub options: &'static [OptionSpec],
    /// Only members who may manage the server see it (Discord's default permissions).
    pub admin: bool,
    /// Its answer is for the caller only, whatever it says: the service makes it so, and
    /// Discord's adapter defers it privately from the start.
    pub private: bool,
    build: fn(&Args) -> Result<Command, Refusal>,
}

/// Commands are told apart by name (their one key in the list).
impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        self.name == other.name
    }
}

impl Eq for Spec {}

impl Spec {
    /// The typed command these options make, or why a value is refused.
    pub fn command(&self, args: &Args) -> Result<Command, Refusal> {
        (self.build)(args)
    }

    /// The option called `name`.
    #[must_use]
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|option| option.name == name)
    }

    /// The option whose value the service suggests as `field` (the `game` a `notation`
    /// or a `square` is completed in).
    #[must_use]
    pub fn suggested(&self, field: Field) -> Option<&'static OptionSpec> {
        self.options.iter().find(|option| option.kind == Kind::Suggested(field))
    }
}

/// The command called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|spec| spec.name == name)
}

/// One option value as it came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A text, as typed.
    Text(String),
    /// A whole number.
    Number(i64),
    /// A user, with the name to show for him.
    User(User),
}

/// The option values of one command, by option name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Args {
    values: Vec<(String, Value)>,
}

impl Args {
    /// Adds a value. Text is made safe to quote and names are kept on one line
    /// ([`text::typed`]), so every refusal can quote them.
    pub fn push(&mut self, name: &str, value: Value) {
        let value = match value {
            Value::Text(raw) => Value::Text(text::typed(&raw)),
            Value::User(user) => {
                Value::User(User { id: user.id, name: user.name.chars().filter(|c| !c.is_control()).collect() })
            }
            number @ Value::Number(_) => number,
        };
        self.values.push((name.to_owned(), value));
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(key, _)| key == name).map(|(_, value)| value)
    }

    fn text(&self, name: &str) -> Option<String> {
        match self.get(name)? {
            Value::Text(text) => Some(text.clone()),
            Value::Number(number) => Some(number.to_string()),
            Value::User(user) => Some(user.name.clone()),
        }
    }

    fn number(&self, name: &str) -> Option<i64> {
        match self.get(name)? {
            Value::Number(number) => Some(*number),
            _ => None,
        }
    }
}

/// How an option of this type is read from what came in: the field's type says how, so a
/// command's options are read as its fields are typed.
pub trait Read: Sized {
    /// The value of option `name` (of `kind`), or why it is refused.
    fn read(args: &Args, name: &str, kind: Kind) -> Result<Self, Refusal>;
}

/// Text as typed (blank when left out).
impl Read for String {
    fn read(args: &Args, name: &str, _: Kind) -> Result<String, Refusal> {
        Ok(args.text(name).unwrap_or_default())
    }
}

impl Read for Option<String> {
    fn read(args: &Args, name: &str, _: Kind) -> Result<Option<String>, Refusal> {
        Ok(args.text(name))
    }
}

/// A game reference (`12`, `#12`); blank means "the one meant here".
impl Read for Option<GameId> {
    fn read(args: &Args, name: &str, _: Kind) -> Result<Option<GameId>, Refusal> {
        args.text(name).filter(|text| !text.trim().is_empty()).map(|text| parse_id(&text)).transpose()
    }
}

impl Read for GameId {
    fn read(args: &Args, name: &str, _: Kind) -> Result<GameId, Refusal> {
        parse_id(&args.text(name).unwrap_or_default())
    }
}

impl Read for GameKind {
    fn read(args: &Args, name: &str, _: Kind) -> Result<GameKind, Refusal> {
        Ok(args.text(name).unwrap_or_default().parse().map_err(short_game)?)
    }
}

impl Read for Option<GameKind> {
    fn read(args: &Args, name: &str, _: Kind) -> Result<Option<GameKind>, Refusal> {
        let kind = args.text(name).filter(|name| !name.trim().is_empty()).map(|name| name.parse());
        Ok(kind.transpose().map_err(short_game)?)
    }
}

/// The refusal of an unknown game quotes only the start of what was typed.
fn short_game(error: UnknownGame) -> UnknownGame {
    UnknownGame(text::short(&error.0))
}

impl Read for Option<User> {
    fn read(args: &Args, name: &str, _: Kind) -> Result<Option<User>, Refusal> {
        match args.get(name) {
            Some(Value::User(user)) => Ok(Some(user.clone())),
            _ => Ok(None),
        }
    }
}

/// `given` if it is in `kind`'s range, else the refusal of the kind.
fn in_range(kind: Kind, given: i64) -> Result<u8, Refusal> {
    let (min, max) = kind.range().unwrap_or((0, 0));
    let number = u8::try_from(given).ok().filter(|number| (min..=max).contains(&i64::from(*number)));
    number.ok_or_else(|| kind.out_of_range(given))
}

/// A number in its kind's range, when given.
impl Read for Option<u8> {
    fn read(args: &Args, name: &str, kind: Kind) -> Result<Option<u8>, Refusal> {
        args.number(name).map(|given| in_range(kind, given)).transpose()
    }
}

/// A number in its kind's range (0 when left out, refused unless the range has it).
impl Read for u8 {
    fn read(args: &Args, name: &str, kind: Kind) -> Result<u8, Refusal> {
        in_range(kind, args.number(name).unwrap_or_default())
    }
}

/// A page number (1 when left out).
impl Read for u32 {
    fn read(args: &Args, name: &str, kind: Kind) -> Result<u32, Refusal> {
        let given = args.number(name).unwrap_or(1);
        let (min, max) = kind.range().unwrap_or((1, MAX_PAGE.into()));
        let page = u32::try_from(given).ok().filter(|page| (min..=max).contains(&i64::from(*page)));
        page.ok_or_else(|| kind.out_of_range(given))
    }
}

/// Medium when left out.
impl Read for Level {
    fn read(args: &Args, name: &str, _: Kind) -> Result<Level, Refusal> {
        let level = args.text(name).map_or(Ok(Level::Medium), |name| name.parse());
        // The refusal quotes only the start of what was typed.
        Ok(level.map_err(|error: UnknownLevel| UnknownLevel(text::short(&error.0)))?)
    }
}

impl Read for NotifyMode {
    fn read(args: &Args, name: &str, _: Kind) -> Result<NotifyMode, Refusal> {
        let text = args.text(name).unwrap_or_default();
        text.parse().map_err(|()| Refusal::BadMode(text.chars().take(20).collect()))
    }
}

/// Active when left out.
impl Read for GameStatus {
    fn read(args: &Args, name: &str, _: Kind) -> Result<GameStatus, Refusal> {
        let typed = args.text(name);
        match typed.as_deref().map(|text| text.trim().to_ascii_lowercase()).as_deref() {
            None | Some("" | "active") => Ok(GameStatus::Active),
            Some("finished") => Ok(GameStatus::Finished),
            Some(_) => Err(Refusal::BadStatus(typed.unwrap_or_default().chars().take(20).collect())),
        }
    }
}

/// `on` or `off`, when given.
impl Read for Option<bool> {
    fn read(args: &Args, name: &str, _: Kind) -> Result<Option<bool>, Refusal> {
        let Some(typed) = args.text(name).filter(|text| !text.trim().is_empty()) else { return Ok(None) };
        match typed.trim().to_ascii_lowercase().as_str() {
            "on" => Ok(Some(true)),
            "off" => Ok(Some(false)),
            _ => Err(Refusal::BadOnOff(typed.chars().take(20).collect())),
        }
    }
}

/// `white`, `black`, `random` (or nothing), or the game's own name for a side (Chogo's
/// `green`).
fn color(text: Option<&str>, kind: GameKind) -> Result<ColorChoice, Refusal> {
    let sides = AnyGame::new(kind, &[]).map_or(["White", "Black"], |game| game.view().side_names);
    let lower = text.map(|text| text.trim().to_ascii_lowercase());
    match lower.as_deref() {
        None | Some("" | "random") => Ok(ColorChoice::Random),
        Some(name) if name == "white" || name.eq_ignore_ascii_case(sides[0]) => Ok(ColorChoice::White),
        Some(name) if name == "black" || name.eq_ignore_ascii_case(sides[1]) => Ok(ColorChoice::Black),
        Some(_) => Err(Refusal::BadColor(text.unwrap_or_default().chars().take(20).collect())),
    }
}

/// `/help`: every command in one line, from the list, and where each game's rules are.
#[must_use]
pub fn help_text() -> String {
    let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
    let rules = format!("Each game's rules: `/rules game:NAME`, where NAME is {}.", games.join(", "));
    let ratings = "Ratings: `/stats` and `/leaderboard` say how they are counted.";
    let text = |line: fn(&Spec) -> &'static str| {
        let mut lines = vec!["**Stonemate's commands**".to_owned()];
        lines.extend(COMMANDS.iter().map(|spec| format!("`/{}` — {}", spec.name, line(spec))));
        lines.extend([rules.clone(), ratings.to_owned()]);
        lines.join("\n")
    };
    // A message holds 2,000 characters: past that, each command gets its short description.
    let long = text(|spec| spec.help);
    if long.chars().count() <= text::MAX_MESSAGE { long } else { text(|spec| spec.description) }
}

/// `/help`, for anyone, privately.
fn help() -> Response {
    Response {
        reply: Reply { ok: true, private: true, message: help_text().into(), ..Reply::default() },
        notices: Vec::new(),
    }
}

/// Reads one option: by its field's type ([`Read`]), or by the reader the entry names
/// (`via`), given the text as typed.
macro_rules! read {
    ($args:ident, $field:ident: $ty:ty, $kind:expr) => {
        <$ty as Read>::read($args, stringify!($field), $kind)?
    };
    ($args:ident, $field:ident: $ty:ty, $kind:expr, $via:expr) => {
        ($via)($args.text(stringify!($field)).as_deref())?
    };
}

/// The one list: each entry declares a command (its variant of [`Command`], name,
/// descriptions, options as typed fields, handler), and the macro makes the enum, the
/// [`COMMANDS`] table, the reading of options and the call of the handler from it.
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $name:literal {
            description: $description:literal,
            help: $help:literal,
            admin: $admin:literal,
            $(private: $private:literal,)?
            options: {$(
                $field:ident: $ty:ty = ($required:literal, $kind:expr, $option:literal) $(via $via:expr)?
            ),* $(,)?},
            run: |$parts:ident, $caller:ident| $run:expr $(,)?
        }
    ),* $(,)?) => {
        /// One command, its options read ([`Spec::command`] makes it from what the user
        /// typed). A `game` or `challenge` of `None` means the caller's only matching game
        /// in this channel (or the reply lists them).
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Command {$(
            $(#[doc = $doc])*
            $variant {$(
                #[doc = $option]
                $field: $ty,
            )*},
        )*}

        /// Every command, in the order of `docs/commands.md`.
        pub const COMMANDS: &[Spec] = &[$(
            Spec {
                name: $name,
                description: $description,
                help: $help,
                options: &[$(
                    OptionSpec { name: stringify!($field), description: $option, required: $required, kind: $kind },
                )*],
                admin: $admin,
                private: false $(|| $private)?,
                build: |args| {
                    // `/help` reads nothing.
                    let _ = args;
                    $(let $field: $ty = read!(args, $field: $ty, $kind $(, $via)?);)*
                    Ok(Command::$variant { $($field),* })
                },
            },
        )*];

        impl Command {
            /// Whether its answer is only for the caller (declared `private: true`).
            #[must_use]
            pub fn is_private(&self) -> bool {
                match self {$(
                    Command::$variant { .. } => false $(|| $private)?,
                )*}
            }

            /// Runs the command's handler.
            pub(super) fn run(self, parts: &Parts, caller: &Caller) -> Result<Response, Refusal> {
                match self {$(
                    Command::$variant { $($field),* } => {
                        let ($parts, $caller) = (parts, caller);
                        $run
                    }
                )*}
            }
        }
    };
}

/// The `game` option of commands about one game.
const GAME: Kind = Kind::Suggested(Field::Game);
const CHALLENGE: Kind = Kind::Suggested(Field::Challenge);

commands! {
    /// `/challenge`: `days` per move (default 3, 0 = no clock); `options` text such as
    /// `board=9x9 pieces=N komi=6.5`. Without an opponent, an open challenge: anyone in
    /// the channel but the challenger may accept it.
    Challenge "challenge" {
        description: "Challenge someone to a game.",
        help: "challenge someone: `opponent` (leave it out for an open challenge anyone here may accept), `game`, \
               and optionally `color`, `days` per move, `options`",
        admin: false,
        // Discord takes required options first: `game` before the optional `opponent`.
        options: {
            game: GameKind = (true, Kind::Game, "Which game"),
            opponent: Option<User> = (false, Kind::User, "Who to play (default: anyone in this channel may accept)"),
            color: ColorChoice = (false, Kind::Color, "Your colour (default: random)") via |text| color(text, game),
            days: Option<u8> = (false, Kind::Days, "Days per move, 0 = no clock (default 3)"),
            options: Option<String> = (false, Kind::Text, "Game options, e.g. board=9x9 pieces=N komi=6.5"),
            level: Level = (false, Kind::Level, "How hard Stonemate plays, when you challenge it (default: medium)"),
        },
        run: |parts, caller| {
            let options = challenge::Terms::options(options.as_deref())?;
            let terms =
                challenge::Terms { opponent: opponent.as_ref(), kind: game, color, days, options, level, rematch_of: None };
            challenge::challenge(parts, caller, terms)
        },
    },
    /// `/accept`: the game starts.
    Accept "accept" {
        description: "Accept a challenge: the game starts.",
        help: "accept a challenge (yours, or an open one in this channel): the game starts",
        admin: false,
        options: { challenge: Option<GameId> = (false, CHALLENGE, "Which challenge (default: the only one)") },
        run: |parts, caller| challenge::accept(parts, caller, challenge),
    },
    /// `/decline`.
    Decline "decline" {
        description: "Decline a challenge.",
        help: "decline a challenge",
        admin: false,
        options: { challenge: Option<GameId> = (false, CHALLENGE, "Which challenge (default: the only one)") },
        run: |parts, caller| challenge::decline(parts, caller, challenge),
    },
    /// `/withdraw`: the challenger takes back the challenge.
    Withdraw "withdraw" {
        description: "Take back a challenge you made.",
        help: "take back a challenge you sent",
        admin: false,
        options: { challenge: Option<GameId> = (false, CHALLENGE, "Which challenge (default: the only one)") },
        run: |parts, caller| challenge::withdraw(parts, caller, challenge),
    },
    /// `/move`: any turn in the game's notation (move, drop, pass, tandem, mole drop).
    Move "move" {
        description: "Play a turn in the game's notation: a move, drop, pass, tandem or mole drop.",
        help: "play a turn in the game's notation: a move, drop, pass, tandem or mole drop",
        admin: false,
        options: {
            notation: String = (true, Kind::Suggested(Field::Notation), "The turn, e.g. e2-e4, R@d4, pass"),
            game: Option<GameId> = (false, GAME, "Which game (default: your only one here)"),
        },
        run: |parts, caller| picker::typed(parts, caller, game, turns::Played::Typed(&notation)),
    },
    /// `/play`: the caller's private turn picker (as the Play button).
    Play "play" {
        description: "Pick your turn by tapping: choose it step by step, see it, confirm it.",
        help: "pick your turn by tapping, with a preview before it is played (as the Play button)",
        admin: false,
        private: true,
        options: { game: Option<GameId> = (false, GAME, "Which game (default: the one where you are to move here)") },
        run: |parts, caller| picker::open(parts, caller, game),
    },
    /// `/drop`: a piece letter and a square, for games with drops.
    Drop "drop" {
        description: "Drop a piece from your hand.",
        help: "drop a piece from your hand: `piece` and `square`",
        admin: false,
        options: {
            piece: String = (true, Kind::Text, "The piece letter, e.g. R"),
            square: String = (true, Kind::Text, "The square, e.g. d4"),
            game: Option<GameId> = (false, GAME, "Which game (default: your only one here)"),
        },
        run: |parts, caller| turns::drop(parts, caller, game, &piece, &square),
    },
    /// `/pass`: the player to move passes.
    Pass "pass" {
        description: "Pass your turn.",
        help: "pass your turn",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| turns::turn(parts, caller, game, turns::Played::Turn(Turn::Pass)),
    },
    /// Asks to confirm with a button (`resign:ID`); the press ends the game.
    Resign "resign" {
        description: "Resign (asks you to confirm).",
        help: "resign (asks you to confirm)",
        admin: false,
        private: true,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| endings::ask_resign(parts, caller, game),
    },
    /// Offers a draw, or accepts the opponent's pending offer.
    Draw "draw" {
        description: "Offer a draw, or accept your opponent's offer.",
        help: "offer a draw, or accept the one offered",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| endings::draw(parts, caller, game),
    },
    /// Asks the opponent to take back the caller's last turn (and the opponent's after
    /// it); the opponent answers with buttons.
    Takeback "takeback" {
        description: "Ask your opponent to take back your last turn.",
        help: "ask to take back your last turn (and your opponent's after it)",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| takeback::ask(parts, caller, game),
    },
    /// In a go game's counting phase (rule 10): proposes the pieces on `squares` as dead
    /// (`none`: none), or shows the standing proposal.
    Dead "dead" {
        description: "Counting in go: propose which pieces are dead, or see the proposal standing.",
        help: "in a go game's counting phase: propose the dead pieces (`squares`), or see the proposal",
        admin: false,
        options: {
            game: Option<GameId> = (false, GAME, "Which game"),
            squares: Option<String> = (false, Kind::Text, "The dead pieces' squares, e.g. c3 d4 (none: no piece)"),
        },
        run: |parts, caller| counting::dead(parts, caller, game, squares.as_deref()),
    },
    /// Stores a conditional line while the opponent is to move, shows the caller's lines,
    /// or removes them (`line:clear`).
    Conditional "conditional" {
        description: "Queue answers to expected turns: THEIRS MINE THEIRS MINE ... (only you see them).",
        help: "queue answers to expected turns (`line`: theirs, yours, ...; `clear`); only you see them",
        admin: false,
        private: true,
        options: {
            game: Option<GameId> = (false, GAME, "Which game"),
            line: Option<String> = (false, Kind::Text, "Their turn, your answer, ... e.g. e5 d4 c3 d3; clear removes your lines"),
        },
        run: |parts, caller| conditional::conditional(parts, caller, game, line.as_deref()),
    },
    /// Ends a game without result while no turn has been played.
    Abort "abort" {
        description: "End a game without result before either side has played.",
        help: "end a game without result before any turn is played",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| endings::abort(parts, caller, game),
    },
    /// Wins a game whose opponent's time for the current turn has run out.
    Claim "claim" {
        description: "Win a game whose opponent has run out of time.",
        help: "win a game whose opponent has run out of time",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| endings::claim(parts, caller, game),
    },
    /// Gives the opponent `days` (1-14) more for the current turn.
    ExtraTime "extratime" {
        description: "Give your opponent more time for this turn.",
        help: "give your opponent more `days` for this turn",
        admin: false,
        options: {
            days: u8 = (true, Kind::ExtraDays, "How many days more"),
            game: Option<GameId> = (false, GAME, "Which game"),
        },
        run: |parts, caller| endings::extra_time(parts, caller, game, days),
    },
    /// `/board`: the game's board as it stands.
    Board "board" {
        description: "Show a game's board.",
        help: "show a game's board",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| views::show_board(parts, caller, game),
    },
    /// `/history`: the game's turns, result and record, with an animated replay.
    History "history" {
        description: "A game's turns, result and record, with an animated replay.",
        help: "the turns so far, the result, the record file and a replay",
        admin: false,
        options: { game: Option<GameId> = (false, GAME, "Which game") },
        run: |parts, caller| history::history(parts, caller, game),
    },
    /// Active games and pending challenges of `user` (default: the caller); or, with
    /// `status` finished, his finished games, most recently finished first, one `page`
    /// (from 1) at a time.
    Games "games" {
        description: "Active games (opponent, game, whose turn, deadline), or finished ones with results.",
        help: "the active games and challenges of a user (you by default); `status:finished` pages through the finished ones, newest first",
        admin: false,
        private: true,
        options: {
            user: Option<User> = (false, Kind::User, "Whose games (default: yours)"),
            status: GameStatus = (false, Kind::Status, "active (default) or finished"),
            page: u32 = (false, Kind::Page, "Which page of finished games (default 1)"),
        },
        run: |parts, caller| match status {
            GameStatus::Active => views::games(parts, caller, user.as_ref()),
            GameStatus::Finished => views::finished_games(parts, caller, user.as_ref(), page),
        },
    },
    /// The legal turns, or those from `square`, highlighted on the board.
    Legal "legal" {
        description: "The legal turns, highlighted on the board.",
        help: "the legal turns (from a `square`), marked on the board",
        admin: false,
        private: true,
        options: {
            game: Option<GameId> = (false, GAME, "Which game"),
            square: Option<String> = (false, Kind::Suggested(Field::Square), "Only the turns from this square"),
        },
        run: |parts, caller| views::legal(parts, caller, game, square.as_deref()),
    },
    /// A summary of a game's rules and notation.
    Rules "rules" {
        description: "A short summary of a game's rules and notation.",
        help: "a summary of a game's rules and notation",
        admin: false,
        private: true,
        options: { game: GameKind = (true, Kind::Game, "Which game") },
        run: |parts, caller| {
            let _ = (parts, caller);
            views::rules(game)
        },
    },
    /// `/notify`: how the caller is told it is his turn.
    Notify "notify" {
        description: "How you are told that it is your turn.",
        help: "how you are told that it is your turn: channel, dm or off",
        admin: false,
        private: true,
        options: { mode: NotifyMode = (true, Kind::Notify, "channel, dm or off") },
        run: |parts, caller| views::set_notify(parts, caller, mode),
    },
    /// `/settings`: shows the caller's settings, setting `confirm` when given.
    Settings "settings" {
        description: "Your settings; confirm:on previews a typed /move or /drop before it is played.",
        help: "your settings; `confirm:on` shows a typed /move or /drop with Confirm and Cancel before it is played",
        admin: false,
        private: true,
        options: { confirm: Option<bool> = (false, Kind::OnOff, "on: preview typed turns before they are played") },
        run: |parts, caller| picker::settings(parts, caller, confirm),
    },
    /// Pauses the clocks of all the caller's games for `days` (0-30; 0 ends the pause).
    Vacation "vacation" {
        description: "Pause the clocks of all your games for some days (0 ends your vacation).",
        help: "pause the clocks of all your games for `days` (0 ends it early), within a yearly allowance",
        admin: false,
        private: true,
        options: { days: u8 = (true, Kind::VacationDays, "How many days, 0 to 30 (0: back now)") },
        run: |parts, caller| vacation::vacation(parts, caller, days),
    },
    /// Ends any game of the caller's server without result; needs [`Caller::admin`].
    AdminAbort "admin-abort" {
        description: "End any game of this server without result (needs the Manage Server permission).",
        help: "end any game without result (Manage Server permission)",
        admin: true,
        options: { game: GameId = (true, GAME, "Which game, e.g. 12") },
        run: |parts, caller| endings::admin_abort(parts, caller, game),
    },
    /// Games, wins, losses, draws and rating of `user` (default: the caller), per game (or
    /// only `game`), in the caller's server.
    Stats "stats" {
        description: "Games, wins, losses, draws and rating per game, in this server.",
        help: "a player's games, wins, losses, draws and rating per game here (`user`, `game` optional)",
        admin: false,
        options: {
            user: Option<User> = (false, Kind::User, "Whose (default: yours)"),
            game: Option<GameKind> = (false, Kind::Game, "Only this game"),
        },
        run: |parts, caller| community::stats(parts, caller, user.as_ref(), game),
    },
    /// The best-rated players of `game` in the caller's server.
    Leaderboard "leaderboard" {
        description: "The ten best-rated players of a game in this server.",
        help: "the ten best-rated players of a `game` here, and your place",
        admin: false,
        options: { game: GameKind = (true, Kind::Game, "Which game") },
        run: |parts, caller| community::leaderboard(parts, caller, game),
    },
    /// Every command in one line each, and where the rules are.
    Help "help" {
        description: "Every command in one line, and where each game's rules are.",
        help: "this list",
        admin: false,
        private: true,
        options: {},
        run: |parts, caller| {
            let _ = (parts, caller);
            Ok(help())
        },
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(pairs: &[(&str, Value)]) -> Args {
        let mut args = Args::default();
        for (name, value) in pairs {
            args.push(name, value.clone());
        }
        args
    }

    fn text(value: &str) -> Value {
        Value::Text(value.to_owned())
    }

    #[test]
    fn names_are_unique_and_options_belong_to_their_command() {
        for (index, spec) in COMMANDS.iter().enumerate() {
            assert!(COMMANDS[..index].iter().all(|other| other.name != spec.name), "/{} twice", spec.name);
            assert!(!spec.description.is_empty() && spec.description.chars().count() <= 100, "/{}", spec.name);
        }
        assert_eq!(
            COMMANDS.iter().filter(|spec| spec.admin).map(|spec| spec.name).collect::<Vec<_>>(),
            ["admin-abort"]
        );
    }

    /// Discord refuses to register a command whose required option follows an optional one.
    #[test]
    fn required_options_come_first() {
        for spec in COMMANDS {
            let first_optional = spec.options.iter().position(|option| !option.required).unwrap_or(spec.options.len());
            assert!(spec.options[first_optional..].iter().all(|option| !option.required), "/{}", spec.name);
        }
    }

    #[test]
    fn a_challenge_without_opponent_is_open() {
        let command = find("challenge").unwrap().command(&args(&[("game", text("go"))])).unwrap();
        let open = Command::Challenge {
            game: GameKind::Go,
            opponent: None,
            color: ColorChoice::Random,
            days: None,
            options: None,
            level: Level::Medium,
        };
        assert_eq!(command, open);
    }

    #[test]
    fn values_are_parsed_into_typed_commands() {
        let opponent = User::new(2, "bob");
        let spec = find("challenge").unwrap();
        let command = spec.command(&args(&[
            ("opponent", Value::User(opponent.clone())),
            ("game", text("chogo")),
            ("color", text("Green")),
            ("days", Value::Number(0)),
        ]));
        let expected = Command::Challenge {
            opponent: Some(opponent),
            game: GameKind::Chogo,
            color: ColorChoice::Black,
            days: Some(0),
            options: None,
            level: Level::Medium,
        };
        assert_eq!(command.unwrap(), expected);
        let board = find("board").unwrap().command(&args(&[("game", text(" #12 "))])).unwrap();
        assert_eq!(board, Command::Board { game: Some(GameId(12)) });
        assert_eq!(
            find("board").unwrap().command(&args(&[("game", text(" "))])).unwrap(),
            Command::Board { game: None }
        );
    }

    #[test]
    fn bad_values_are_refused_with_the_services_words() {
        let refused =
            |name: &str, pairs: &[(&str, Value)]| find(name).unwrap().command(&args(pairs)).unwrap_err().to_string();
        assert!(refused("rules", &[("game", text("poker"))]).contains("no game called `poker`"));
        assert_eq!(refused("notify", &[("mode", text("loud"))]), "`loud` is not a notify mode: use channel, dm or off");
        assert_eq!(
            refused("board", &[("game", text("x`y"))]),
            "`x'y` is not a game id: write its number, like 12 or #12"
        );
        assert_eq!(refused("extratime", &[("days", Value::Number(15))]), "extra time must be 1 to 14 days, not 15");
        let challenge = [("game", text("go")), ("days", Value::Number(15))];
        assert_eq!(refused("challenge", &challenge), "days per move must be 0 to 14 (0: no clock), not 15");
    }
}
