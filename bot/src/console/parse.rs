//! Reading console lines: `[[server]] [#channel] @user /command option:value ...`,
//! `!advance 2d`, `@user !press accept:12`, `[server] !admin @user`. Values with spaces
//! are written in double quotes.

use crate::clock::Span;
use crate::service::{Command, User, UserId};

/// One console line, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// Nothing to do (blank, or a `//` comment).
    Blank,
    Advance(Span),
    Command {
        /// `[server]` before everything else; `None`: the home server.
        server: Option<String>,
        channel: Option<String>,
        user: String,
        command: Command,
    },
    Press {
        server: Option<String>,
        channel: Option<String>,
        user: String,
        custom_id: String,
    },
    /// `!admin @user`: the user may manage the line's server (Discord's Manage Server).
    Admin {
        server: Option<String>,
        user: String,
    },
}

/// A line that cannot be read, with what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineError(pub String);

fn error<T>(text: impl Into<String>) -> Result<T, LineError> {
    Err(LineError(text.into()))
}

/// A console user's id: the same name always gives the same id (FNV-1a of the lower-case
/// name), so ids survive restarts without a table.
#[must_use]
pub fn user_id(name: &str) -> UserId {
    UserId(hash(name) >> 1 | 1 << 62)
}

/// FNV-1a, 64 bits: stable across builds, unlike the standard library's hasher.
#[must_use]
pub fn hash(name: &str) -> u64 {
    name.to_lowercase()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

/// A user named in a line (`@bob` or `bob`).
fn user(text: &str) -> Result<User, LineError> {
    let name = text.trim().trim_start_matches('@');
    if name.is_empty() || name.chars().count() > 32 || name.contains(char::is_whitespace) {
        return error(format!("`{text}` is not a user: write @name"));
    }
    Ok(User { id: user_id(name), name: name.to_owned() })
}

/// Words separated by spaces; double quotes keep spaces in a word (and are dropped).
fn words(text: &str) -> Result<Vec<String>, LineError> {
    let mut words = Vec::new();
    let (mut word, mut quoted, mut started) = (String::new(), false, false);
    for ch in text.chars() {
        match ch {
            '"' => (quoted, started) = (!quoted, true),
            ch if ch.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            ch => (word, started) = (word + ch.encode_utf8(&mut [0; 4]), true),
        }
    }
    if quoted {
        return error("a double quote is not closed");
    }
    if started {
        words.push(word);
    }
    Ok(words)
}

/// Reads one line of console input.
pub fn line(text: &str) -> Result<Line, LineError> {
    let mut words = words(text)?.into_iter().peekable();
    let Some(first) = words.peek().cloned() else { return Ok(Line::Blank) };
    if first.starts_with("//") {
        return Ok(Line::Blank);
    }
    if first == "!advance" {
        let span = words.nth(1).ok_or_else(|| LineError("write !advance 30m, 5h or 2d".into()))?;
        return span.parse().map(Line::Advance).map_err(|e: crate::clock::BadDuration| LineError(e.to_string()));
    }
    let server = match first.strip_prefix('[') {
        Some(rest) => {
            words.next();
            Some(server_name(rest)?)
        }
        None => None,
    };
    if words.peek().is_some_and(|word| word == "!admin") {
        let rest: Vec<String> = words.skip(1).collect();
        return match rest.as_slice() {
            [name] if name.starts_with('@') => Ok(Line::Admin { server, user: user(name)?.name }),
            _ => error("write !admin @user"),
        };
    }
    let channel = words.peek().and_then(|word| word.strip_prefix('#')).map(|name| name.to_ascii_lowercase());
    if channel.is_some() {
        words.next();
    }
    let Some(name) = words.next().filter(|word| word.starts_with('@')) else {
        return error("a line is `@user /command option:value ...` (or `#channel @user ...`, `!advance 2d`)");
    };
    let user = user(&name)?.name;
    let rest: Vec<String> = words.collect();
    match rest.first().map(String::as_str) {
        Some("!press") => match rest.get(1) {
            Some(id) => Ok(Line::Press { server, channel, user, custom_id: id.clone() }),
            None => error("write @user !press accept:12"),
        },
        Some(command) if command.starts_with('/') => {
            let command = build(&command[1..], &rest[1..])?;
            Ok(Line::Command { server, channel, user, command })
        }
        _ => error(format!("after @{user} comes a /command")),
    }
}

/// The name in `[name]` (the `[` already taken off), in lower case.
fn server_name(rest: &str) -> Result<String, LineError> {
    match rest.strip_suffix(']') {
        Some(name) if !name.is_empty() && name.chars().count() <= 32 && !name.contains(['[', ']']) => {
            Ok(name.to_ascii_lowercase())
        }
        _ => error(format!("`[{rest}` is not a server: write [name] (one word) before the rest")),
    }
}

/// The `option:value` pairs of a command, checked against the names it takes.
struct Options {
    command: &'static str,
    pairs: Vec<(String, String)>,
}

impl Options {
    fn read(command: &'static str, known: &[&str], words: &[String]) -> Result<Options, LineError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for word in words {
            let Some((key, value)) = word.split_once(':') else {
                return error(format!("`{word}` is not an option: write name:value"));
            };
            let key = key.to_ascii_lowercase();
            if !known.contains(&key.as_str()) {
                let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
                return error(format!("/{command} has no option `{key}` (it takes: {known})"));
            }
            if pairs.iter().any(|(k, _)| *k == key) {
                return error(format!("option `{key}` is given twice"));
            }
            pairs.push((key, value.to_owned()));
        }
        Ok(Options { command, pairs })
    }

    fn get(&self, key: &str) -> Option<String> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    fn need(&self, key: &str) -> Result<String, LineError> {
        self.get(key).ok_or_else(|| LineError(format!("/{} needs the option {key}:", self.command)))
    }

    fn number(&self, key: &str) -> Result<Option<i64>, LineError> {
        self.get(key)
            .map(|value| {
                value.trim().parse().map_err(|_| LineError(format!("option {key}: `{value}` is not a number")))
            })
            .transpose()
    }
}

/// The command `name` with its options, as the Discord adapter would pass it.
fn build(name: &str, words: &[String]) -> Result<Command, LineError> {
    let name = name.to_ascii_lowercase();
    let (command, known): (&'static str, &[&str]) = match name.as_str() {
        "challenge" => ("challenge", &["opponent", "game", "color", "days", "options"]),
        "accept" => ("accept", &["challenge"]),
        "decline" => ("decline", &["challenge"]),
        "withdraw" => ("withdraw", &["challenge"]),
        "move" => ("move", &["notation", "game"]),
        "drop" => ("drop", &["piece", "square", "game"]),
        "extratime" => ("extratime", &["game", "days"]),
        "games" => ("games", &["user"]),
        "legal" => ("legal", &["game", "square"]),
        "rules" => ("rules", &["game"]),
        "notify" => ("notify", &["mode"]),
        "help" => ("help", &[]),
        "pass" | "resign" | "draw" | "abort" | "claim" | "board" | "history" | "admin-abort" => {
            (simple_name(&name), &["game"])
        }
        _ => return error(format!("there is no command /{name}")),
    };
    let o = Options::read(command, known, words)?;
    let game = o.get("game");
    Ok(match command {
        "challenge" => Command::Challenge {
            opponent: user(&o.need("opponent")?)?,
            game: o.need("game")?,
            color: o.get("color"),
            days: o.number("days")?,
            options: o.get("options"),
        },
        "accept" => Command::Accept { challenge: o.get("challenge") },
        "decline" => Command::Decline { challenge: o.get("challenge") },
        "withdraw" => Command::Withdraw { challenge: o.get("challenge") },
        "move" => Command::Move { notation: o.need("notation")?, game },
        "drop" => Command::Drop { piece: o.need("piece")?, square: o.need("square")?, game },
        "extratime" => {
            let days = o.number("days")?.ok_or_else(|| LineError("/extratime needs the option days:".into()))?;
            Command::ExtraTime { game, days }
        }
        "games" => Command::Games { user: o.get("user").map(|name| user(&name)).transpose()? },
        "legal" => Command::Legal { game, square: o.get("square") },
        "rules" => Command::Rules { game: o.need("game")? },
        "notify" => Command::Notify { mode: o.need("mode")? },
        "pass" => Command::Pass { game },
        "resign" => Command::Resign { game },
        "draw" => Command::Draw { game },
        "abort" => Command::Abort { game },
        "claim" => Command::Claim { game },
        "board" => Command::Board { game },
        "history" => Command::History { game },
        "help" => Command::Help,
        _ => Command::AdminAbort { game: o.need("game")? },
    })
}

fn simple_name(name: &str) -> &'static str {
    ["pass", "resign", "draw", "abort", "claim", "board", "history", "admin-abort"]
        .into_iter()
        .find(|known| *known == name)
        .unwrap_or("board")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(text: &str) -> Command {
        match line(text) {
            Ok(Line::Command { command, .. }) => command,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_spec_example_lines_read() {
        let Command::Challenge { opponent, game, color, days, options } =
            command("@alice /challenge opponent:@bob game:chego color:white days:0")
        else {
            panic!()
        };
        assert_eq!((opponent.name.as_str(), game.as_str()), ("bob", "chego"));
        assert_eq!((color.as_deref(), days, options), (Some("white"), Some(0), None));
        assert_eq!(command("@bob /accept"), Command::Accept { challenge: None });
        assert_eq!(command("@alice /move notation:Qe4"), Command::Move { notation: "Qe4".into(), game: None });
        let drop = Command::Drop { piece: "Q".into(), square: "d6".into(), game: None };
        assert_eq!(command("@bob /drop piece:Q square:d6"), drop);
        assert_eq!(line("!advance 2d"), Ok(Line::Advance(Span::days(2))));
    }

    #[test]
    fn quoted_values_and_channels() {
        let Ok(Line::Command { server, channel, command, .. }) =
            line(r#"#Lobby @alice /challenge opponent:@bob game:go options:"board=9x9 komi=6.5""#)
        else {
            panic!()
        };
        assert_eq!((server, channel.as_deref()), (None, Some("lobby")));
        assert!(matches!(command, Command::Challenge { options: Some(o), .. } if o == "board=9x9 komi=6.5"));
    }

    #[test]
    fn servers_and_admins() {
        let Ok(Line::Command { server, channel, user, .. }) = line("[Work] #dev @alice /board game:3") else {
            panic!()
        };
        assert_eq!((server.as_deref(), channel.as_deref(), user.as_str()), (Some("work"), Some("dev"), "alice"));
        let Ok(Line::Press { server, .. }) = line("[work] @bob !press accept:1") else { panic!() };
        assert_eq!(server.as_deref(), Some("work"));
        assert_eq!(line("[work] !admin @Carol"), Ok(Line::Admin { server: Some("work".into()), user: "Carol".into() }));
        assert_eq!(line("!admin @carol"), Ok(Line::Admin { server: None, user: "carol".into() }));
        for bad in ["[] @alice /board", "[work @alice /board", "!admin", "[work] !admin nobody here"] {
            assert!(line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_lines_say_why() {
        for bad in [
            "alice /move",
            "@alice move",
            "@alice /fly",
            "@alice /move",
            "@alice /move notation:e4 colour:red",
            "@alice /move notation:e4 notation:e5",
            "@alice /challenge opponent:@bob game:go days:three",
            "@alice /move notation:\"e4",
            "!advance soon",
        ] {
            assert!(line(bad).is_err(), "{bad}");
        }
        assert_eq!(line("   "), Ok(Line::Blank));
    }

    #[test]
    fn user_ids_are_stable_and_ignore_case() {
        assert_eq!(user_id("Alice"), user_id("alice"));
        assert_ne!(user_id("alice"), user_id("bob"));
        assert_eq!(user_id("alice").0, hash("alice") >> 1 | 1 << 62);
    }
}
