//! User text inside the service's messages. Replies are Discord markdown, so a display
//! name such as `**@everyone**` or `<@123>`, or a notation with a backtick, must not
//! format the message or look like a mention: names are escaped where they are written
//! ([`name`]), and every text option is made safe to quote when the command comes in
//! ([`typed`], applied by [`super::commands::Args`]). Whom to ping is never read from the
//! text: it is the pings of a [`Message`](super::Message).

/// Characters that Discord markdown or mentions give a meaning to; a backslash before one
/// shows it as it is.
const MARKUP: &[char] = &['\\', '*', '_', '~', '`', '|', '>', '<', '@', '#', '[', ']', '(', ')', '-', ':'];

/// Characters that show nothing but change what is around them: the bidirectional
/// controls (an override, U+202E, before a name turns the rest of its line round) and the
/// zero-width characters (a name spelled like another's, or one that shows as nothing).
/// Letters of right-to-left scripts are not among them: the Unicode bidirectional
/// algorithm lays them out by themselves.
#[must_use]
pub fn invisible(ch: char) -> bool {
    matches!(ch,
        '\u{061C}' // Arabic letter mark
        | '\u{180E}' // Mongolian vowel separator
        | '\u{200B}'..='\u{200F}' // zero width space, (non-)joiner; left-/right-to-left marks
        | '\u{202A}'..='\u{202E}' // embeddings and overrides
        | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}' // isolates
        | '\u{FEFF}' // zero width no-break space
    )
}

/// A name as it is written in a message: on one line, every markup character escaped,
/// without the characters that show nothing ([`invisible`]).
#[must_use]
pub fn name(raw: &str) -> String {
    let mut shown = String::with_capacity(raw.len() + 4);
    for ch in raw.chars().filter(|ch| !invisible(*ch)) {
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

/// Text typed by a user, made safe to quote between backticks (which is how every refusal
/// quotes it): a backtick would end the quote, a line break would start a new block, and
/// a bidirectional control would turn the message round ([`invisible`]). None is part of
/// any notation, option or id, so nothing readable is changed.
#[must_use]
pub fn typed(raw: &str) -> String {
    raw.chars()
        .filter(|ch| !invisible(*ch))
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

/// How many characters of a value typed by a user a message quotes ([`short`]).
pub const QUOTED: usize = 24;

/// A value typed by a user as a message quotes it: its first [`QUOTED`] characters, with
/// `…` when it was longer, so that no value can fill a message (Discord allows 2,000
/// characters).
#[must_use]
pub fn short(raw: &str) -> String {
    let mut chars = raw.chars();
    let mut shown: String = chars.by_ref().take(QUOTED).collect();
    if chars.next().is_some() {
        shown.push('…');
    }
    shown
}

/// The most characters Discord shows in one message.
pub const MAX_MESSAGE: usize = 2000;

/// `text` cut to [`MAX_MESSAGE`] characters (ending in `…` when cut): every reply and
/// notice passes through here on its way out, whatever made it.
pub fn fit(text: &mut String) {
    if text.chars().count() <= MAX_MESSAGE {
        return;
    }
    let keep = text.char_indices().nth(MAX_MESSAGE - 1).map_or(text.len(), |(at, _)| at);
    text.truncate(keep);
    text.push('…');
}

/// `1 turn`, `2 turns`: a count with its noun agreeing.
#[must_use]
pub fn counted(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `a`, `a and b`, `a, b and c`: items as a sentence lists them.
#[must_use]
pub fn joined(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_joined_as_sentences_list_them() {
        let items = |names: &[&str]| names.iter().map(|name| (*name).to_owned()).collect::<Vec<_>>();
        assert_eq!(joined(&items(&[])), "");
        assert_eq!(joined(&items(&["p1"])), "p1");
        assert_eq!(joined(&items(&["p1", "p2"])), "p1 and p2");
        assert_eq!(joined(&items(&["p1", "p2", "p3"])), "p1, p2 and p3");
    }

    #[test]
    fn names_cannot_format_or_mention() {
        assert_eq!(name("**@everyone**"), r"\*\*\@everyone\*\*");
        assert_eq!(name("<@123>"), r"\<\@123\>");
        assert_eq!(name("a\nb"), "a b");
        assert_eq!(name("alice"), "alice");
    }

    #[test]
    fn long_values_are_quoted_short_and_messages_fit_discord() {
        assert_eq!(short("go"), "go");
        assert_eq!(short(&"x".repeat(10_000)), format!("{}…", "x".repeat(QUOTED)));
        let mut long = "é".repeat(5000);
        fit(&mut long);
        assert_eq!(long.chars().count(), MAX_MESSAGE);
        assert!(long.ends_with('…'));
        let mut fits = "a".repeat(MAX_MESSAGE);
        fit(&mut fits);
        assert_eq!(fits.len(), MAX_MESSAGE);
    }

    #[test]
    fn typed_text_cannot_leave_its_quotes() {
        assert_eq!(typed("e4`<@1>`\n"), "e4'<@1>' ");
        assert_eq!(typed("R@d4"), "R@d4");
    }
}
