//! Reading console lines: `[[server]] [#channel] @user /command option:value ...`,
//! `!advance 2d`, `@user !press accept:12`, `[server] !admin @user`. Values with spaces
//! are written in double quotes.

use crate::clock::Span;
use crate::service::commands::{self, Args, Kind, Spec, Value};
use crate::service::{User, UserId, text};

/// One console line, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// Nothing to do (blank, or a `//` comment).
    Blank,
    /// `!advance 2d`: move the console's clock on by this span.
    Advance(Span),
    /// `@user /command option:value ...`: a command, as a user sends it.
    Command {
        /// `[server]` before everything else; `None`: the home server.
        server: Option<String>,
        /// `#channel`, in lower case; `None`: the console's default channel.
        channel: Option<String>,
        /// The name after `@`: who sends the command.
        user: String,
        /// Which command.
        spec: &'static Spec,
        /// Its options, read by the command's spec.
        args: Args,
    },
    /// `@user !press accept:12`: a press of the button with that `custom_id`.
    Press {
        /// `[server]` before everything else; `None`: the home server.
        server: Option<String>,
        /// `#channel`, in lower case; `None`: the console's default channel.
        channel: Option<String>,
        /// The name after `@`: who presses.
        user: String,
        /// The button's id, as Discord would send it back.
        custom_id: String,
    },
    /// `@user !select pick:12:3: Re`: a choice in the select menu with that `custom_id`.
    Select {
        /// `[server]` before everything else; `None`: the home server.
        server: Option<String>,
        /// `#channel`, in lower case; `None`: the console's default channel.
        channel: Option<String>,
        /// The name after `@`: who chooses.
        user: String,
        /// The select menu's id, as Discord would send it back.
        custom_id: String,
        /// The value of the option chosen.
        value: String,
    },
    /// `!admin @user`: the user may manage the line's server (Discord's Manage Server).
    Admin {
        /// `[server]` before everything else; `None`: the home server.
        server: Option<String>,
        /// The name after `@`.
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

/// A value typed on the line as an error quotes it: cut as the service's refusals cut
/// theirs ([`text::short`]), and kept on one line between its backticks ([`text::typed`]).
fn quoted(raw: &str) -> String {
    text::typed(&text::short(raw))
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
        return error(format!("`{}` is not a user: write @name", quoted(text)));
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
        return span
            .parse()
            .map(Line::Advance)
            .map_err(|e: crate::clock::BadDuration| LineError(format!("`{}` {e}", quoted(&span))));
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
        Some("!select") => match &rest[1..] {
            [id, value] => Ok(Line::Select { server, channel, user, custom_id: id.clone(), value: value.clone() }),
            _ => error("write @user !select ID VALUE"),
        },
        Some(command) if command.starts_with('/') => {
            // A command with subcommands takes the next word as its subcommand:
            // `/tournament join tournament:T1`.
            let (name, words) = match rest.get(1) {
                Some(sub) if commands::is_group(&command[1..].to_ascii_lowercase()) && !sub.contains(':') => {
                    (format!("{} {sub}", &command[1..]), &rest[2..])
                }
                _ => (command[1..].to_owned(), &rest[1..]),
            };
            let (spec, args) = build(&name, words)?;
            Ok(Line::Command { server, channel, user, spec, args })
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
        _ => error(format!("`[{}` is not a server: write [name] (one word) before the rest", quoted(rest))),
    }
}

/// The command `name` with its options, read as the list of commands ([`COMMANDS`])
/// describes them: the same names, types and required options as on Discord.
///
/// [`COMMANDS`]: crate::service::commands::COMMANDS
fn build(name: &str, words: &[String]) -> Result<(&'static Spec, Args), LineError> {
    let name = name.to_ascii_lowercase();
    let Some(spec) = commands::find(&name) else { return error(format!("there is no command /{}", quoted(&name))) };
    let mut args = Args::default();
    let mut given: Vec<&str> = Vec::new();
    for word in words {
        let Some((key, value)) = word.split_once(':') else {
            return error(format!("`{}` is not an option: write name:value", quoted(word)));
        };
        let key = key.to_ascii_lowercase();
        let Some(option) = spec.option(&key) else {
            let known: Vec<&str> = spec.options.iter().map(|option| option.name).collect();
            let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
            return error(format!("/{name} has no option `{}` (it takes: {known})", quoted(&key)));
        };
        if given.contains(&option.name) {
            return error(format!("option `{key}` is given twice"));
        }
        given.push(option.name);
        args.push(option.name, value_of(option.kind, &key, value)?);
    }
    if let Some(missing) = spec.options.iter().find(|option| option.required && !given.contains(&option.name)) {
        return error(format!("/{name} needs the option {}:", missing.name));
    }
    Ok((spec, args))
}

/// A value as typed: users by name, numbers as numbers, the rest as text.
fn value_of(kind: Kind, key: &str, value: &str) -> Result<Value, LineError> {
    match kind {
        Kind::User => Ok(Value::User(user(value)?)),
        _ if kind.range().is_some() => match value.trim().parse() {
            Ok(number) => Ok(Value::Number(number)),
            Err(_) => error(format!("option {key}: `{}` is not a number", quoted(value))),
        },
        _ => Ok(Value::Text(value.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use stonemate_engine::GameKind;

    use super::*;
    use crate::service::{ColorChoice, Command};

    fn command(text: &str) -> Command {
        match line(text) {
            Ok(Line::Command { spec, args, .. }) => spec.command(&args).unwrap(),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_spec_example_lines_read() {
        let Command::Challenge { opponent: Some(opponent), game: kind, color, days, options, .. } =
            command("@alice /challenge opponent:@bob game:chego color:white days:0")
        else {
            panic!()
        };
        assert_eq!((opponent.name.as_str(), kind), ("bob", GameKind::Chego));
        assert_eq!((color, days, options), (ColorChoice::White, Some(0), None));
        assert_eq!(command("@bob /accept"), Command::Accept { challenge: None });
        assert_eq!(command("@alice /move notation:Qe4"), Command::Move { notation: "Qe4".into(), game: None });
        let drop = Command::Drop { piece: "Q".into(), square: "d6".into(), game: None };
        assert_eq!(command("@bob /drop piece:Q square:d6"), drop);
        assert_eq!(line("!advance 2d"), Ok(Line::Advance(Span::days(2))));
    }

    #[test]
    fn quoted_values_and_channels() {
        let text = r#"#Lobby @alice /challenge opponent:@bob game:go options:"board=9x9 komi=6.5""#;
        let Ok(Line::Command { server, channel, .. }) = line(text) else { panic!() };
        assert_eq!((server, channel.as_deref()), (None, Some("lobby")));
        let command = command(text);
        assert!(matches!(command, Command::Challenge { options: Some(o), .. } if o == "board=9x9 komi=6.5"));
    }

    #[test]
    fn servers_and_admins() {
        let Ok(Line::Command { server, channel, user, .. }) = line("[Work] #dev @alice /board game:3") else {
            panic!()
        };
        assert_eq!((server.as_deref(), channel.as_deref(), user.as_str()), (Some("work"), Some("dev"), "alice"));
        let Ok(Line::Press { server, .. }) = line("[work] @bob !press accept:1") else { panic!() };
        let Ok(Line::Select { custom_id, value, .. }) = line("@bob !select pick:1:3: Re") else { panic!() };
        assert_eq!((custom_id.as_str(), value.as_str()), ("pick:1:3:", "Re"));
        assert!(line("@bob !select pick:1:3:").is_err());
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
