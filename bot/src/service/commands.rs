//! The one list of commands ([`COMMANDS`]): each command's name, descriptions, options and
//! how its options become a typed [`Command`]. The Discord registration, the console's
//! parser and `/help` are all made from it, so adding a command means one entry here and
//! one handler in the service.
//!
//! Option values reach [`Spec::command`] as [`Args`]: text as typed (made safe to quote,
//! [`text::typed`]), numbers, users. Every value is parsed here, once, at the edge; a bad
//! one is refused with the same [`Refusal`] the service would give.

use stonemate_ai::Level;
use stonemate_engine::{AnyGame, GameKind};

use super::error::Refusal;
use super::games::parse_id;
use super::text;
use super::types::{Command, Field, GameId, User};
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
}

/// What `/games status:` takes.
pub const STATUSES: [&str; 2] = ["active", "finished"];

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
            Kind::Status => STATUSES.to_vec(),
            Kind::Text
            | Kind::Suggested(_)
            | Kind::Days
            | Kind::ExtraDays
            | Kind::User
            | Kind::VacationDays
            | Kind::Page => Vec::new(),
        }
    }
}

/// One option of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    /// What Discord shows under the option.
    pub description: &'static str,
    pub required: bool,
    pub kind: Kind,
}

/// One command: its name as users type it, what Discord and `/help` say of it, its
/// options, and how they become a [`Command`].
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    /// What Discord shows in the command list (at most 100 characters).
    pub description: &'static str,
    /// The command's line in `/help`.
    pub help: &'static str,
    pub options: &'static [OptionSpec],
    /// Only members who may manage the server see it (Discord's default permissions).
    pub admin: bool,
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
}

/// The command called `name`.
#[must_use]
pub fn find(name: &str) -> Option<&'static Spec> {
    COMMANDS.iter().find(|spec| spec.name == name)
}

/// One option value as it came in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Number(i64),
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

    fn user(&self, name: &str) -> Option<User> {
        match self.get(name)? {
            Value::User(user) => Some(user.clone()),
            _ => None,
        }
    }

    /// A game reference (`12`, `#12`); blank means "the one meant here".
    fn reference(&self, name: &str) -> Result<Option<GameId>, Refusal> {
        self.text(name).filter(|text| !text.trim().is_empty()).map(|text| parse_id(&text)).transpose()
    }

    fn game(&self) -> Result<Option<GameId>, Refusal> {
        self.reference("game")
    }

    fn kind(&self) -> Result<GameKind, Refusal> {
        Ok(self.text("game").unwrap_or_default().parse()?)
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

fn challenge(args: &Args) -> Result<Command, Refusal> {
    let game = args.kind()?;
    let color = color(args.text("color").as_deref(), game)?;
    let days = args
        .number("days")
        .map(|days| u8::try_from(days).ok().filter(|d| *d <= MAX_DAYS).ok_or(Refusal::BadDays(days)))
        .transpose()?;
    let level = args.text("level").map_or(Ok(Level::Medium), |name| name.parse())?;
    let options = args.text("options");
    Ok(match args.user("opponent") {
        Some(opponent) => Command::Challenge { opponent, game, color, days, options, level },
        None => Command::OpenChallenge { game, color, days, options },
    })
}

fn stats(args: &Args) -> Result<Command, Refusal> {
    let game = args.text("game").filter(|name| !name.trim().is_empty()).map(|name| name.parse()).transpose()?;
    Ok(Command::Stats { user: args.user("user"), game })
}

fn extra_time(args: &Args) -> Result<Command, Refusal> {
    let given = args.number("days").unwrap_or_default();
    let days = u8::try_from(given).ok().filter(|days| (1..=MAX_DAYS).contains(days));
    Ok(Command::ExtraTime { days: days.ok_or(Refusal::BadExtraDays(given))?, game: args.game()? })
}

fn notify(args: &Args) -> Result<Command, Refusal> {
    let text = args.text("mode").unwrap_or_default();
    let mode = text.parse().map_err(|()| Refusal::BadMode(text.chars().take(20).collect()))?;
    Ok(Command::Notify { mode })
}

/// `/games`: the active games by default, or a page of the finished ones.
fn games(args: &Args) -> Result<Command, Refusal> {
    let user = args.user("user");
    let status = args.text("status").map(|text| text.trim().to_ascii_lowercase());
    let given = args.number("page").unwrap_or(1);
    let page = u32::try_from(given).ok().filter(|page| (1..=MAX_PAGE).contains(page));
    let page = page.ok_or(Refusal::BadPage(given))?;
    match status.as_deref() {
        None | Some("" | "active") => Ok(Command::Games { user }),
        Some("finished") => Ok(Command::Finished { user, page }),
        Some(_) => Err(Refusal::BadStatus(args.text("status").unwrap_or_default().chars().take(20).collect())),
    }
}

fn vacation(args: &Args) -> Result<Command, Refusal> {
    let given = args.number("days").unwrap_or_default();
    let days = u8::try_from(given).ok().filter(|days| *days <= MAX_VACATION_DAYS);
    Ok(Command::Vacation { days: days.ok_or(Refusal::BadVacationDays(given))? })
}

fn admin_abort(args: &Args) -> Result<Command, Refusal> {
    Ok(Command::AdminAbort { game: parse_id(&args.text("game").unwrap_or_default())? })
}

const GAME: OptionSpec =
    OptionSpec { name: "game", description: "Which game", required: false, kind: Kind::Suggested(Field::Game) };
const ONLY_GAME: OptionSpec = OptionSpec { description: "Which game (default: your only one here)", ..GAME };
const CHALLENGE: OptionSpec = OptionSpec {
    name: "challenge",
    description: "Which challenge (default: the only one)",
    required: false,
    kind: Kind::Suggested(Field::Challenge),
};
const GAME_KIND: OptionSpec = OptionSpec { name: "game", description: "Which game", required: true, kind: Kind::Game };

/// A command whose one option is `game`.
macro_rules! on_game {
    ($name:literal, $variant:ident, $description:literal, $help:literal) => {
        Spec {
            name: $name,
            description: $description,
            help: $help,
            options: &[GAME],
            admin: false,
            build: |args| Ok(Command::$variant { game: args.game()? }),
        }
    };
}

/// Every command, in the order of `commands.md`.
pub const COMMANDS: [Spec; 23] = [
    Spec {
        name: "challenge",
        description: "Challenge someone to a game.",
        help: "challenge someone: `opponent` (leave it out for an open challenge anyone here may accept), `game`, \
               and optionally `color`, `days` per move, `options`",
        // Discord takes required options first: `game` before the optional `opponent`.
        options: &[
            GAME_KIND,
            OptionSpec {
                name: "opponent",
                description: "Who to play (default: anyone in this channel may accept)",
                required: false,
                kind: Kind::User,
            },
            OptionSpec {
                name: "color",
                description: "Your colour (default: random)",
                required: false,
                kind: Kind::Color,
            },
            OptionSpec {
                name: "days",
                description: "Days per move, 0 = no clock (default 3)",
                required: false,
                kind: Kind::Days,
            },
            OptionSpec {
                name: "options",
                description: "Game options, e.g. board=9x9 pieces=N komi=6.5",
                required: false,
                kind: Kind::Text,
            },
            OptionSpec {
                name: "level",
                description: "How hard Stonemate plays, when you challenge it (default: medium)",
                required: false,
                kind: Kind::Level,
            },
        ],
        admin: false,
        build: challenge,
    },
    Spec {
        name: "accept",
        description: "Accept a challenge: the game starts.",
        help: "accept a challenge (yours, or an open one in this channel): the game starts",
        options: &[CHALLENGE],
        admin: false,
        build: |args| Ok(Command::Accept { challenge: args.reference("challenge")? }),
    },
    Spec {
        name: "decline",
        description: "Decline a challenge.",
        help: "decline a challenge",
        options: &[CHALLENGE],
        admin: false,
        build: |args| Ok(Command::Decline { challenge: args.reference("challenge")? }),
    },
    Spec {
        name: "withdraw",
        description: "Take back a challenge you made.",
        help: "take back a challenge you sent",
        options: &[CHALLENGE],
        admin: false,
        build: |args| Ok(Command::Withdraw { challenge: args.reference("challenge")? }),
    },
    Spec {
        name: "move",
        description: "Play a turn in the game's notation: a move, drop, pass, tandem or mole drop.",
        help: "play a turn in the game's notation: a move, drop, pass, tandem or mole drop",
        options: &[
            OptionSpec {
                name: "notation",
                description: "The turn, e.g. e2-e4, R@d4, pass",
                required: true,
                kind: Kind::Suggested(Field::Notation),
            },
            ONLY_GAME,
        ],
        admin: false,
        build: |args| Ok(Command::Move { notation: args.text("notation").unwrap_or_default(), game: args.game()? }),
    },
    Spec {
        name: "drop",
        description: "Drop a piece from your hand.",
        help: "drop a piece from your hand: `piece` and `square`",
        options: &[
            OptionSpec { name: "piece", description: "The piece letter, e.g. R", required: true, kind: Kind::Text },
            OptionSpec { name: "square", description: "The square, e.g. d4", required: true, kind: Kind::Text },
            ONLY_GAME,
        ],
        admin: false,
        build: |args| {
            let (piece, square) = (args.text("piece").unwrap_or_default(), args.text("square").unwrap_or_default());
            Ok(Command::Drop { piece, square, game: args.game()? })
        },
    },
    on_game!("pass", Pass, "Pass your turn.", "pass your turn"),
    on_game!("resign", Resign, "Resign (asks you to confirm).", "resign (asks you to confirm)"),
    on_game!("draw", Draw, "Offer a draw, or accept your opponent's offer.", "offer a draw, or accept the one offered"),
    on_game!(
        "abort",
        Abort,
        "End a game without result before either side has played.",
        "end a game without result before any turn is played"
    ),
    on_game!(
        "claim",
        Claim,
        "Win a game whose opponent has run out of time.",
        "win a game whose opponent has run out of time"
    ),
    Spec {
        name: "extratime",
        description: "Give your opponent more time for this turn.",
        help: "give your opponent more `days` for this turn",
        options: &[
            OptionSpec { name: "days", description: "How many days more", required: true, kind: Kind::ExtraDays },
            GAME,
        ],
        admin: false,
        build: extra_time,
    },
    on_game!("board", Board, "Show a game's board.", "show a game's board"),
    on_game!(
        "history",
        History,
        "A game's turns, result and record, with an animated replay.",
        "the turns so far, the result, the record file and a replay"
    ),
    Spec {
        name: "games",
        description: "Active games (opponent, game, whose turn, deadline), or finished ones with results.",
        help: "the active games and challenges of a user (you by default); `status:finished` pages through the finished ones, newest first",
        options: &[
            OptionSpec { name: "user", description: "Whose games (default: yours)", required: false, kind: Kind::User },
            OptionSpec {
                name: "status",
                description: "active (default) or finished",
                required: false,
                kind: Kind::Status,
            },
            OptionSpec {
                name: "page",
                description: "Which page of finished games (default 1)",
                required: false,
                kind: Kind::Page,
            },
        ],
        admin: false,
        build: games,
    },
    Spec {
        name: "legal",
        description: "The legal turns, highlighted on the board.",
        help: "the legal turns (from a `square`), marked on the board",
        options: &[
            GAME,
            OptionSpec {
                name: "square",
                description: "Only the turns from this square",
                required: false,
                kind: Kind::Suggested(Field::Square),
            },
        ],
        admin: false,
        build: |args| Ok(Command::Legal { game: args.game()?, square: args.text("square") }),
    },
    Spec {
        name: "rules",
        description: "A short summary of a game's rules and notation.",
        help: "a summary of a game's rules and notation",
        options: &[GAME_KIND],
        admin: false,
        build: |args| Ok(Command::Rules { game: args.kind()? }),
    },
    Spec {
        name: "notify",
        description: "How you are told that it is your turn.",
        help: "how you are told that it is your turn: channel, dm or off",
        options: &[OptionSpec { name: "mode", description: "channel, dm or off", required: true, kind: Kind::Notify }],
        admin: false,
        build: notify,
    },
    Spec {
        name: "vacation",
        description: "Pause the clocks of all your games for some days (0 ends your vacation).",
        help: "pause the clocks of all your games for `days` (0 ends it early), within a yearly allowance",
        options: &[OptionSpec {
            name: "days",
            description: "How many days, 0 to 30 (0: back now)",
            required: true,
            kind: Kind::VacationDays,
        }],
        admin: false,
        build: vacation,
    },
    Spec {
        name: "admin-abort",
        description: "End any game of this server without result (needs the Manage Server permission).",
        help: "end any game without result (Manage Server permission)",
        options: &[OptionSpec {
            name: "game",
            description: "Which game, e.g. 12",
            required: true,
            kind: Kind::Suggested(Field::Game),
        }],
        admin: true,
        build: admin_abort,
    },
    Spec {
        name: "stats",
        description: "Games, wins, losses, draws and rating per game, in this server.",
        help: "a player's games, wins, losses, draws and rating per game here (`user`, `game` optional)",
        options: &[
            OptionSpec { name: "user", description: "Whose (default: yours)", required: false, kind: Kind::User },
            OptionSpec { name: "game", description: "Only this game", required: false, kind: Kind::Game },
        ],
        admin: false,
        build: stats,
    },
    Spec {
        name: "leaderboard",
        description: "The ten best-rated players of a game in this server.",
        help: "the ten best-rated players of a `game` here, and your place",
        options: &[GAME_KIND],
        admin: false,
        build: |args| Ok(Command::Leaderboard { game: args.kind()? }),
    },
    Spec {
        name: "help",
        description: "Every command in one line, and where each game's rules are.",
        help: "this list",
        options: &[],
        admin: false,
        build: |_| Ok(Command::Help),
    },
];

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
        for spec in &COMMANDS {
            let first_optional = spec.options.iter().position(|option| !option.required).unwrap_or(spec.options.len());
            assert!(spec.options[first_optional..].iter().all(|option| !option.required), "/{}", spec.name);
        }
    }

    #[test]
    fn a_challenge_without_opponent_is_open() {
        let command = find("challenge").unwrap().command(&args(&[("game", text("go"))])).unwrap();
        let open = Command::OpenChallenge { game: GameKind::Go, color: ColorChoice::Random, days: None, options: None };
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
            opponent,
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
