//! User text inside the service's messages. Replies are Discord markdown, so a display
//! name such as `**@everyone**` or `<@123>`, or a notation with a backtick, must not
//! format the message or look like a mention: names are escaped where they are written
//! ([`name`]), and every text option is made safe to quote when the command comes in
//! ([`command`]). Whom to ping is never read from the text: it is [`Reply::mentions`].
//!
//! [`Reply::mentions`]: super::Reply::mentions

use super::types::{Command, User};

/// Characters that Discord markdown or mentions give a meaning to; a backslash before one
/// shows it as it is.
const MARKUP: &[char] = &['\\', '*', '_', '~', '`', '|', '>', '<', '@', '#', '[', ']', '(', ')', '-', ':'];

/// A name as it is written in a message: on one line, every markup character escaped.
#[must_use]
pub fn name(raw: &str) -> String {
    let mut shown = String::with_capacity(raw.len() + 4);
    for ch in raw.chars() {
        if ch.is_control() {
            shown.push(' ');
            continue;
        }
        if MARKUP.contains(&ch) {
            shown.push('\\');
        }
        shown.push(ch);
    }
    shown
}

/// `@name`, escaped: how a message names a user it pings (the adapter turns it into a
/// Discord mention of the id the reply lists).
#[must_use]
pub fn ping(raw: &str) -> String {
    format!("@{}", name(raw))
}

/// Text typed by a user, made safe to quote between backticks (which is how every refusal
/// quotes it): a backtick would end the quote, and a line break would start a new block.
/// Neither is part of any notation, option or id, so nothing readable is changed.
#[must_use]
pub fn typed(raw: &str) -> String {
    raw.chars()
        .map(|ch| {
            if ch == '`' {
                '\''
            } else if ch.is_control() {
                ' '
            } else {
                ch
            }
        })
        .collect()
}

fn user(user: User) -> User {
    User { id: user.id, name: user.name.chars().filter(|ch| !ch.is_control()).collect() }
}

fn opt(text: Option<String>) -> Option<String> {
    text.map(|text| typed(&text))
}

/// The command with every text option made safe to quote ([`typed`]), and names on one
/// line.
#[must_use]
pub fn command(command: Command) -> Command {
    match command {
        Command::Challenge { opponent, game, color, days, options } => Command::Challenge {
            opponent: user(opponent),
            game: typed(&game),
            color: opt(color),
            days,
            options: opt(options),
        },
        Command::Accept { challenge } => Command::Accept { challenge: opt(challenge) },
        Command::Decline { challenge } => Command::Decline { challenge: opt(challenge) },
        Command::Withdraw { challenge } => Command::Withdraw { challenge: opt(challenge) },
        Command::Move { notation, game } => Command::Move { notation: typed(&notation), game: opt(game) },
        Command::Drop { piece, square, game } => {
            Command::Drop { piece: typed(&piece), square: typed(&square), game: opt(game) }
        }
        Command::Pass { game } => Command::Pass { game: opt(game) },
        Command::Resign { game } => Command::Resign { game: opt(game) },
        Command::Draw { game } => Command::Draw { game: opt(game) },
        Command::Abort { game } => Command::Abort { game: opt(game) },
        Command::Claim { game } => Command::Claim { game: opt(game) },
        Command::ExtraTime { game, days } => Command::ExtraTime { game: opt(game), days },
        Command::Board { game } => Command::Board { game: opt(game) },
        Command::History { game } => Command::History { game: opt(game) },
        Command::Games { user: who } => Command::Games { user: who.map(user) },
        Command::Legal { game, square } => Command::Legal { game: opt(game), square: opt(square) },
        Command::Rules { game } => Command::Rules { game: typed(&game) },
        Command::Notify { mode } => Command::Notify { mode: typed(&mode) },
        Command::AdminAbort { game } => Command::AdminAbort { game: typed(&game) },
        Command::Help => Command::Help,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_format_or_mention() {
        assert_eq!(name("**@everyone**"), r"\*\*\@everyone\*\*");
        assert_eq!(name("<@123>"), r"\<\@123\>");
        assert_eq!(name("a\nb"), "a b");
        assert_eq!(name("alice"), "alice");
        assert_eq!(ping("bob_"), r"@bob\_");
    }

    #[test]
    fn typed_text_cannot_leave_its_quotes() {
        assert_eq!(typed("e4`<@1>`\n"), "e4'<@1>' ");
        assert_eq!(typed("R@d4"), "R@d4");
    }
}
