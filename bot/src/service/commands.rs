//! The commands as the service reads them ([`COMMANDS`], made by `commands!` below from
//! the one list in `table`, where each command is declared once, as its
//! name, descriptions, typed options and handler). From that one declaration come the
//! typed [`Command`] (its options as fields), the reading of its options, the call of its
//! handler, the Discord registration, the console's parser and `/help`; so adding a
//! command means one entry in the list and one handler in the feature's module under
//! `handlers/`. A button is declared in the entry of its feature's command, and its press
//! calls its handler from here (`Action::run`).
//!
//! An option's name is its field's name, written once. Option values reach
//! [`Spec::command`] as [`Args`]: text as typed (made safe to quote, [`text::typed`]),
//! numbers, users. Every value is read here, once, at the edge, by its field's type
//! ([`Read`]); a bad one is refused with the same [`Refusal`] the service would give.

use stonemate_ai::{Level, UnknownLevel};
use stonemate_engine::game::UnknownGame;
use stonemate_engine::{AnyGame, GameKind, Turn};

use super::buttons::Action;
use super::error::{Failure, Refusal};
use super::games::parse_id;
use super::handlers::tournament::{self, ListStatus, TournamentFormat};
use super::handlers::{
    challenge, community, conditional, counting, digest, endings, explore, history, picker, score, takeback, turns,
    vacation, views,
};
use super::options::{Arg, keys};
use super::parts::Parts;
use super::text;
use super::types::{Caller, Field, GameId, GameStatus, Reply, Response, User};
use crate::ids::TournamentId;
use crate::service::input::BadValue;
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
    /// An hour of the day, UTC: 0 to 23.
    Hour,
    /// A tournament's format: `round-robin` or `swiss`.
    Format,
    /// Which tournaments `/tournament list` shows: `open`, `running` or `finished`.
    TournamentStatus,
    /// A tournament's days per move: 1 to [`MAX_DAYS`] (its games always have a clock).
    TournamentDays,
    /// A Swiss's rounds: 1 to 30.
    Rounds,
    /// The most players of a round-robin division: 3 to 30.
    Division,
    /// The most players of a tournament: 2 to 1,000.
    Players,
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
            Kind::Hour => Some((0, 23)),
            Kind::TournamentDays => Some((1, MAX_DAYS.into())),
            Kind::Rounds => Some((1, 30)),
            Kind::Division => Some((3, 30)),
            Kind::Players => Some((2, 1_000)),
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
            Kind::Format => vec!["round-robin", "swiss"],
            Kind::TournamentStatus => vec!["open", "running", "finished"],
            Kind::Text
            | Kind::Suggested(_)
            | Kind::Days
            | Kind::ExtraDays
            | Kind::User
            | Kind::VacationDays
            | Kind::Page
            | Kind::Hour
            | Kind::TournamentDays
            | Kind::Rounds
            | Kind::Division
            | Kind::Players => Vec::new(),
        }
    }

    /// What a number of this kind counts, for its refusal.
    fn what(self) -> &'static str {
        match self {
            Kind::TournamentDays => "days per move of a tournament",
            Kind::Rounds => "the number of Swiss rounds",
            Kind::Division => "players per division",
            _ => "players",
        }
    }

    /// Why `given` is refused as a number of this kind.
    fn out_of_range(self, given: i64) -> BadValue {
        match self {
            Kind::ExtraDays => BadValue::ExtraDays(given),
            Kind::VacationDays => BadValue::VacationDays(given),
            Kind::Page => BadValue::Page(given),
            Kind::Hour => BadValue::Hour(given),
            Kind::TournamentDays | Kind::Rounds | Kind::Division | Kind::Players => {
                let (min, max) = self.range().unwrap_or_default();
                BadValue::OutOfRange { what: self.what(), min, max, given }
            }
            _ => BadValue::Days(given),
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
    /// What Discord shows in the command list (at most 100 characters once
    /// [`Spec::description`] filled in its examples).
    description: &'static str,
    /// The command's line in `/help` ([`Spec::help`]).
    help: &'static str,
    /// The option values the description and help show, each where a `{}` stands in
    /// them, in order: made from the options' declarations, so no text keeps a renamed
    /// option's old name.
    examples: &'static [Arg],
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
    /// What Discord shows in the command list.
    #[must_use]
    pub fn description(&self) -> String {
        self.filled(self.description)
    }

    /// The command's line in `/help`.
    #[must_use]
    pub fn help(&self) -> String {
        self.filled(self.help)
    }

    /// `text` with its `{}`s replaced by the examples, in order.
    fn filled(&self, text: &str) -> String {
        let mut pieces = text.split("{}");
        let mut filled = pieces.next().unwrap_or_default().to_owned();
        for (piece, example) in
            pieces.zip(self.examples.iter().map(ToString::to_string).chain(std::iter::repeat(String::new())))
        {
            filled.push_str(&example);
            filled.push_str(piece);
        }
        filled
    }

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

/// The command called `name` (a subcommand: `tournament join`).
#[must_use]
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|spec| spec.name == name)
}

impl Spec {
    /// The command it is a subcommand of (`tournament` for `tournament join`), and its own
    /// name under it; `None` for a command of its own.
    #[must_use]
    pub fn group(&self) -> Option<(&'static str, &'static str)> {
        self.name.split_once(' ')
    }
}

/// Whether `name` is a command with subcommands (`tournament`).
#[must_use]
pub fn is_group(name: &str) -> bool {
    COMMANDS.iter().any(|spec| spec.group().is_some_and(|(group, _)| group == name))
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
    number.ok_or_else(|| kind.out_of_range(given).into())
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
        page.ok_or_else(|| kind.out_of_range(given).into())
    }
}

/// A number in its kind's range, when given.
impl Read for Option<u32> {
    fn read(args: &Args, name: &str, kind: Kind) -> Result<Option<u32>, Refusal> {
        let Some(given) = args.number(name) else { return Ok(None) };
        let (min, max) = kind.range().unwrap_or((0, 0));
        let number = u32::try_from(given).ok().filter(|number| (min..=max).contains(&i64::from(*number)));
        number.map(Some).ok_or_else(|| kind.out_of_range(given).into())
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
        text.parse().map_err(|()| BadValue::Mode(text.chars().take(20).collect()).into())
    }
}

/// Left out: unchanged.
impl Read for Option<NotifyMode> {
    fn read(args: &Args, name: &str, kind: Kind) -> Result<Option<NotifyMode>, Refusal> {
        match args.text(name).filter(|text| !text.trim().is_empty()) {
            Some(_) => NotifyMode::read(args, name, kind).map(Some),
            None => Ok(None),
        }
    }
}

/// Active when left out.
impl Read for GameStatus {
    fn read(args: &Args, name: &str, _: Kind) -> Result<GameStatus, Refusal> {
        let typed = args.text(name);
        match typed.as_deref().map(|text| text.trim().to_ascii_lowercase()).as_deref() {
            None | Some("" | "active") => Ok(GameStatus::Active),
            Some("finished") => Ok(GameStatus::Finished),
            Some(_) => Err(BadValue::Status(typed.unwrap_or_default().chars().take(20).collect()).into()),
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
            _ => Err(BadValue::OnOff(typed.chars().take(20).collect()).into()),
        }
    }
}

/// `white`, `black`, `random` (or nothing), or the game's own name for a side (Chogo's
/// `green`).
fn color(text: Option<&str>, kind: GameKind) -> Result<ColorChoice, Refusal> {
    let sides = AnyGame::new(kind, &[]).map_or(["White", "Black"], |position| position.view().side_names);
    let lower = text.map(|text| text.trim().to_ascii_lowercase());
    match lower.as_deref() {
        None | Some("" | "random") => Ok(ColorChoice::Random),
        Some(name) if name == "white" || name.eq_ignore_ascii_case(sides[0]) => Ok(ColorChoice::White),
        Some(name) if name == "black" || name.eq_ignore_ascii_case(sides[1]) => Ok(ColorChoice::Black),
        Some(_) => Err(BadValue::Color(text.unwrap_or_default().chars().take(20).collect()).into()),
    }
}

/// What `/help` says of `/tournament`, whose subcommands share one line.
const GROUPS_HELP: &str = "this server's tournaments";

/// `/help`: every command in one line, from the list, and where each game's rules are.
#[must_use]
pub fn help_text() -> String {
    let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
    let rules =
        format!("Each game's rules: `{}`, where NAME is {}.", keys::Rules::game.usage("NAME"), games.join(", "));
    let ratings = "Ratings: `/stats` and `/leaderboard` say how they are counted.";
    let text = |line: fn(&Spec) -> String| {
        let mut lines = vec!["**Stonemate's commands**".to_owned()];
        for spec in COMMANDS {
            match spec.group() {
                None => lines.push(format!("`/{}` — {}", spec.name, line(spec))),
                // A command with subcommands is one line: its subcommands, then what it is for.
                Some((group, _))
                    if COMMANDS.iter().find(|s| s.group().is_some_and(|(g, _)| g == group)) == Some(spec) =>
                {
                    let subs: Vec<String> = COMMANDS
                        .iter()
                        .filter_map(|s| s.group().filter(|(g, _)| *g == group).map(|(_, sub)| sub.to_owned()))
                        .collect();
                    lines.push(format!("`/{group}` `{}` — {}", subs.join("|"), GROUPS_HELP));
                }
                Some(_) => {}
            }
        }
        lines.extend([rules.clone(), ratings.to_owned()]);
        lines.join("\n")
    };
    // A message holds 2,000 characters: past that, each command gets its short description,
    // and past that again the description's first clause.
    [text(Spec::help), text(Spec::description)]
        .into_iter()
        .find(|shown| shown.chars().count() <= text::MAX_MESSAGE)
        .unwrap_or_else(|| text(first_clause))
}

/// The first clause of a command's description (up to a colon, a semicolon or a
/// parenthesis): `/help`'s shortest line for it.
fn first_clause(spec: &Spec) -> String {
    let description = spec.description();
    let end = [": ", "; ", " ("].iter().filter_map(|sep| description.find(sep)).min().unwrap_or(description.len());
    format!("{}.", description[..end].trim_end_matches('.'))
}

/// `/help`, for anyone (privately, as declared).
fn help() -> Response {
    Response { reply: Reply { ok: true, message: help_text().into(), ..Reply::default() }, notices: Vec::new() }
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
/// descriptions, options as typed fields, handler) and its buttons, and the macro makes
/// the enum, the [`COMMANDS`] table, the reading of options and the call of the handler
/// from it, and the call of each button's handler ([`Action`]'s own parts come from the
/// same list in `buttons`).
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $name:literal {
            description: $description:literal,
            help: $help:literal,
            admin: $admin:literal,
            $(private: $private:literal,)?
            $(examples: [$($example:ident = $value:literal),* $(,)?],)?
            options: {$(
                $field:ident: $ty:ty = ($required:literal, $kind:expr, $option:literal) $(via $via:expr)?
            ),* $(,)?},
            run: |$parts:ident, $caller:ident| $run:expr,
            $(buttons: {$(
                $(#[doc = $button_doc:literal])*
                $action:ident $word:literal $($tag:ident: $tag_type:ident)? ($($button_field:ident: $button_type:ty),* $(,)?)
                    $(private $(if $secret:expr)?)?
                    => |$press_parts:ident, $press_caller:ident $(, $choice:ident)?| $press:expr
            ),* $(,)?} $(,)?)?
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
                examples: &[$($(keys::$variant::$example.with($value)),*)?],
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
            pub(super) fn run(self, parts: &Parts, caller: &Caller) -> Result<Response, Failure> {
                match self {$(
                    Command::$variant { $($field),* } => {
                        let ($parts, $caller) = (parts, caller);
                        $run
                    }
                )*}
            }
        }

        impl Action {
            /// Runs the handler of a press, as its button is declared (`value`: what was
            /// chosen in a select menu).
            pub(super) fn run(self, parts: &Parts, caller: &Caller, value: Option<&str>) -> Result<Response, Failure> {
                match self {$($($(
                    #[allow(unused_variables)]
                    Action::$action { $($tag,)? $($button_field,)* } => {
                        let ($press_parts, $press_caller) = (parts, caller);
                        $(let $choice = value;)?
                        $press
                    }
                )*)?)*}
            }
        }
    };
}

/// The `game` option of commands about one game.
const GAME: Kind = Kind::Suggested(Field::Game);
const CHALLENGE: Kind = Kind::Suggested(Field::Challenge);

super::table::command_table!(commands);

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
            let description = spec.description();
            assert!(!description.is_empty() && description.chars().count() <= 100, "/{}", spec.name);
        }
        assert_eq!(
            COMMANDS.iter().filter(|spec| spec.admin).map(|spec| spec.name).collect::<Vec<_>>(),
            ["admin-abort"]
        );
        // Discord's subcommands share their command's permissions: none of them is `admin`.
        assert!(COMMANDS.iter().all(|spec| spec.group().is_none() || !spec.admin));
    }

    /// Every `{}` in a description or help line has its example, and every example is shown.
    #[test]
    fn examples_fill_the_texts() {
        for spec in COMMANDS {
            let holes = spec.help.matches("{}").count().max(spec.description.matches("{}").count());
            assert_eq!(holes, spec.examples.len(), "/{}", spec.name);
            assert!(!spec.help().contains("{}") && !spec.description().contains("{}"), "/{}", spec.name);
        }
        assert!(find("games").unwrap().help().contains("`status:finished` pages through"));
    }

    /// Refusals tell users to name a game or challenge with the option `/board` and
    /// `/accept` declare: every command names it alike.
    #[test]
    fn game_and_challenge_options_are_named_alike() {
        for option in COMMANDS.iter().flat_map(|spec| spec.options) {
            match option.kind {
                GAME => assert_eq!(option.name, keys::Board::game.name),
                CHALLENGE => assert_eq!(option.name, keys::Accept::challenge.name),
                _ => {}
            }
        }
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
