//! User text inside the service's messages. Replies are Discord markdown, so a display
//! name such as `**@everyone**` or `<@123>`, or a notation with a backtick, must not
//! format the message or look like a mention: names are escaped where they are written
//! ([`name`]), and every text option is made safe to quote when the command comes in
//! ([`typed`], applied by [`super::commands::Args`]). Whom to ping is never read from the
//! text: it is the pings of a [`Message`](super::Message).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cannot_format_or_mention() {
        assert_eq!(name("**@everyone**"), r"\*\*\@everyone\*\*");
        assert_eq!(name("<@123>"), r"\<\@123\>");
        assert_eq!(name("a\nb"), "a b");
        assert_eq!(name("alice"), "alice");
    }

    #[test]
    fn typed_text_cannot_leave_its_quotes() {
        assert_eq!(typed("e4`<@1>`\n"), "e4'<@1>' ");
        assert_eq!(typed("R@d4"), "R@d4");
    }
}
