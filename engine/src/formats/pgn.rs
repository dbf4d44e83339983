//! PGN for iChess: the seven tag roster, `Variant "iChess"`, and the turns in our own
//! notation with move numbers, so that chess databases and viewers file the game, and
//! `stonemate replay` reads it back.
//!
//! - Tags, in this order: `Event` (the game's title, else `?`), `Site` (else `?`), `Date`
//!   (`2026.11.24`, else `????.??.??`), `Round` (`-`), `White`, `Black`, `Result` (`1-0`,
//!   `0-1`, `1/2-1/2`, `*` while the game goes on or when it was called off), `Variant`
//!   (`iChess`), then `Termination` once finished (`normal`, `time forfeit`, `abandoned`).
//! - The private tag **`StonemateOptions`** holds the game's options as `key=value` words,
//!   written when there are any (iChess has none today; the tag keeps a future option from
//!   being lost).
//! - Movetext: `1. R=a1 R=h8 2. B=f4 ...`, then the result token; lines stay under 80
//!   characters. Deployment drops are written `R=a1`, which PGN's symbol tokens allow.
//!
//! Reading takes the first game of the text; comments, variations and NAGs are skipped.

use super::error::{ExportError, ReadError};
use super::played::replay;
use super::record::{Format, Imported, Record, option_line};
use crate::game::{EndReason, GameKind, Outcome};
use crate::options::{OptionPairs, parse_option_text};
use crate::square::Color;

/// The private tag that holds the options.
pub const OPTIONS_TAG: &str = "StonemateOptions";

/// The `Variant` tag's value for iChess.
pub const VARIANT: &str = "iChess";

/// Movetext lines are broken before this width, as PGN's export format asks.
const LINE_WIDTH: usize = 79;

/// Writes an iChess game as PGN.
pub fn write(record: &Record) -> Result<String, ExportError> {
    if record.kind != GameKind::IChess {
        return Err(ExportError::WrongGame { format: Format::Pgn, expected: GameKind::IChess, kind: record.kind });
    }
    let (played, game) = replay(record)?;
    let known = |text: &Option<String>| text.clone().unwrap_or_else(|| "?".to_owned());
    let date = record
        .date
        .map_or_else(|| "????.??.??".to_owned(), |date| format!("{:04}.{:02}.{:02}", date.year, date.month, date.day));
    let result = result_token(record);
    let mut tags = vec![
        ("Event", known(&record.title)),
        ("Site", known(&record.site)),
        ("Date", date),
        ("Round", "-".to_owned()),
        ("White", record.players[Color::White.index()].clone()),
        ("Black", record.players[Color::Black.index()].clone()),
        ("Result", result.to_owned()),
        ("Variant", VARIANT.to_owned()),
    ];
    if let Some(ending) = record.ending {
        tags.push(("Termination", termination(ending.reason).to_owned()));
    }
    let options = game.option_pairs();
    if !options.is_empty() {
        tags.push((OPTIONS_TAG, option_line(&options)));
    }
    let mut pgn = String::new();
    for (name, value) in tags {
        pgn.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    pgn.push('\n');
    let mut words: Vec<String> = Vec::new();
    for (index, played) in played.iter().enumerate() {
        if index % 2 == 0 {
            words.push(format!("{}.", index / 2 + 1));
        }
        words.push(played.text.clone());
    }
    words.push(result.to_owned());
    pgn.push_str(&wrap(&words));
    Ok(pgn)
}

/// The result token: White's score first.
fn result_token(record: &Record) -> &'static str {
    match record.ending {
        None => "*",
        Some(ending) if ending.reason == EndReason::Aborted => "*",
        Some(ending) => match ending.outcome {
            Outcome::Winner(Color::White) => "1-0",
            Outcome::Winner(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        },
    }
}

/// The `Termination` tag's standard values.
fn termination(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Timeout => "time forfeit",
        EndReason::Aborted | EndReason::Forfeit => "abandoned",
        _ => "normal",
    }
}

/// A tag value with `\` and `"` escaped and line breaks made spaces.
fn escape(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for ch in value.chars() {
        match ch {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(ch);
            }
            '\n' | '\r' | '\t' => escaped.push(' '),
            _ => escaped.push(ch),
        }
    }
    escaped
}

/// The words joined by spaces into lines under [`LINE_WIDTH`], each line ended.
fn wrap(words: &[String]) -> String {
    let mut text = String::new();
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    text.push_str(&line);
    text.push('\n');
    text
}

/// Reads the first game of a PGN text: its tags and the turns of its main line.
pub fn read(text: &str) -> Result<Imported, ReadError> {
    let mut reader = Reader { text, at: 0 };
    let tags = reader.tags()?;
    let tag = |name: &str| tags.iter().find(|(key, _)| key == name).map(|(_, value)| value.clone());
    let variant = tag("Variant").unwrap_or_default();
    if !variant.trim().eq_ignore_ascii_case(VARIANT) {
        return Err(ReadError::UnknownVariant { variant });
    }
    let options = match tag(OPTIONS_TAG) {
        Some(line) => parse_option_text(&line)?,
        None => OptionPairs::new(),
    };
    let turns = reader.movetext()?;
    Ok(Imported {
        format: Format::Pgn,
        kind: Some(GameKind::IChess),
        options,
        players: [tag("White"), tag("Black")],
        turns,
    })
}

/// A cursor over PGN text.
struct Reader<'a> {
    text: &'a str,
    /// A byte offset, always on a character boundary.
    at: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn syntax(&self, expected: &'static str) -> ReadError {
        ReadError::Syntax { format: Format::Pgn, at: self.at, expected }
    }

    fn skip_space(&mut self) {
        let trimmed = self.rest().trim_start_matches(|ch: char| ch.is_whitespace() || ch == '\u{feff}');
        self.at = self.text.len() - trimmed.len();
    }

    /// Skips up to and past `end`, or to the end of the text.
    fn skip_past(&mut self, end: char) {
        self.at = match self.rest().find(end) {
            Some(offset) => self.at + offset + end.len_utf8(),
            None => self.text.len(),
        };
    }

    /// The tag pairs `[Name "value"]` at the start of the game.
    fn tags(&mut self) -> Result<Vec<(String, String)>, ReadError> {
        let mut tags = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some('[') {
                return Ok(tags);
            }
            self.at += 1;
            self.skip_space();
            let name_length = self.rest().find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).unwrap_or(0);
            if name_length == 0 {
                return Err(self.syntax("a tag name"));
            }
            let name = self.rest()[..name_length].to_owned();
            self.at += name_length;
            self.skip_space();
            if self.peek() != Some('"') {
                return Err(self.syntax("a tag value in double quotes"));
            }
            self.at += 1;
            let value = self.string()?;
            self.skip_space();
            if self.peek() != Some(']') {
                return Err(self.syntax("`]` after the tag value"));
            }
            self.at += 1;
            tags.push((name, value));
        }
    }

    /// A string's text after its opening quote, up to the closing one, with `\` escapes
    /// resolved.
    fn string(&mut self) -> Result<String, ReadError> {
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((offset, ch)) = chars.next() {
            match ch {
                '"' => {
                    self.at += offset + 1;
                    return Ok(value);
                }
                '\\' => match chars.next() {
                    Some((_, escaped)) => value.push(escaped),
                    None => break,
                },
                '\n' => break,
                _ => value.push(ch),
            }
        }
        Err(self.syntax("`\"` closing the tag value on its line"))
    }

    /// The turns of the main line, up to the result token or the next game's tags.
    fn movetext(&mut self) -> Result<Vec<String>, ReadError> {
        let mut turns = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                None | Some('[') => return Ok(turns),
                Some('{') => self.skip_past('}'),
                Some(';') => self.skip_past('\n'),
                Some('(') => self.skip_variation()?,
                Some(')') => return Err(self.syntax("a turn, not `)` outside a variation")),
                Some(_) => {
                    let token = self.symbol();
                    if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                        return Ok(turns);
                    }
                    if let Some(turn) = turn_text(token) {
                        turns.push(turn.to_owned());
                    }
                }
            }
        }
    }

    /// The next word: up to whitespace or a character that starts something else.
    fn symbol(&mut self) -> &str {
        let rest = &self.text[self.at..];
        let length = rest
            .find(|ch: char| ch.is_whitespace() || ['{', '}', ';', '(', ')', '['].contains(&ch))
            .unwrap_or(rest.len())
            .max(rest.chars().next().map_or(0, char::len_utf8));
        self.at += length;
        &rest[..length]
    }

    /// A variation `( ... )`, nested ones and comments inside included.
    fn skip_variation(&mut self) -> Result<(), ReadError> {
        let mut depth = 0usize;
        while let Some(ch) = self.peek() {
            self.at += ch.len_utf8();
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' => self.skip_past('}'),
                ';' => self.skip_past('\n'),
                _ => {}
            }
        }
        Err(self.syntax("`)` closing the variation"))
    }
}

/// A movetext word as a turn: move numbers (`12.`, `12...`, glued as in `12.e4`), NAGs
/// (`$1`) and annotation marks (`!`, `?!`) are not turns.
fn turn_text(token: &str) -> Option<&str> {
    if token.starts_with('$') {
        return None;
    }
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
    let rest = if digits > 0 && dots > 0 { &token[digits + dots..] } else { token };
    let rest = rest.trim_start_matches('.').trim_end_matches(['!', '?']);
    (!rest.is_empty()).then_some(rest)
}
