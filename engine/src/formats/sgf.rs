//! SGF (FF\[4\]) for Go with chess pieces, written so that any go editor opens a game of
//! rooks as the go game it is, and read back without loss.
//!
//! - Root: `GM[1]FF[4]CA[UTF-8]AP[Stonemate:VERSION]SZ[..]KM[..]`, `PB`/`PW` (names),
//!   `RE` (`B+R`, `W+3.5`, `B+T`, `0`, `Void`), `DT`, `GN`, `PC` when known.
//! - Coordinates as go editors read them: SGF `aa` is the top-left corner, so our `a1` (the
//!   bottom-left) is `a` and the last row letter (`as` on 19x19). Non-square boards write
//!   `SZ[columns:rows]`.
//! - A drop of a rook is a plain `B[pd]`/`W[pd]`: go with rooks is go. A drop of another
//!   piece adds the private property **`SMP`** with its letter: `B[pd]SMP[N]`.
//! - A move (`moving=on`) is the move to its target with the private property **`SMF`**
//!   naming the point it leaves: `d4-d7` is `B[dm]SMF[dp]` on 19x19.
//! - A pass is an empty move, `B[]` (FF\[4\]); `tt` is read as a pass on boards up to 19x19
//!   (FF\[3\]).
//! - Counting (rule 10, `counting=on`): the agreement is a last node without a move. Its
//!   private property **`SMD`** lists the agreed dead pieces' points (`SMD[]` for none), which
//!   reading turns back into the entry `dead ...`; for go editors the same node marks the
//!   count with `TB`/`TW`: each side's controlled squares (rule 8) after the dead pieces
//!   are removed, plus the points of the opponent's dead pieces (as go editors mark dead
//!   stones inside territory), each point once and in one list only (FF\[4\] lists are
//!   sets: a removed piece's point is usually territory already, and one its own side
//!   controls after the removal stays that side's). The removed stones are not written as `AE`: a setup
//!   property would change the board that later readers replay.
//! - The root's private property **`SMO`** holds every option as `key=value` words, as a
//!   challenge writes them (`board=9x9:e5 pieces=RN squares=all moving=off komi=6.5`):
//!   holes, pieces, squares and moving have no SGF property. Without `SMO` (a file from a go
//!   program), the board comes from `SZ` and the komi from `KM`.
//!
//! Reading follows the main line (the first variation at every branch) and stops there.

use super::error::{ExportError, ReadError};
use super::played::replay;
use super::record::{Format, Imported, Record, option_line};
use crate::any::{AnyGame, NewGameError};
use crate::game::{Game, GameKind};
use crate::go::{DeadPieces, Go};
use crate::options::{OptionPairs, parse_option_text};
use crate::piece::Role;
use crate::result::GameResult;
use crate::square::{Color, Square};
use crate::turn::Turn;

/// The private property of a drop's piece, when it is not a rook.
pub const PIECE_PROPERTY: &str = "SMP";
/// The private property of the point a moving piece leaves.
pub const FROM_PROPERTY: &str = "SMF";
/// The private root property holding every option.
pub const OPTIONS_PROPERTY: &str = "SMO";
/// The private property of the agreed dead pieces that end counting (rule 10).
pub const DEAD_PROPERTY: &str = "SMD";

/// At most this many nodes are read: far more than any game on a 25x25 board needs.
const MAX_NODES: usize = 100_000;

/// Writes a game of Go with chess pieces as SGF.
pub fn write(record: &Record) -> Result<String, ExportError> {
    if record.kind != GameKind::Go {
        return Err(ExportError::WrongGame { format: Format::Sgf, expected: GameKind::Go, kind: record.kind });
    }
    let (played, game) = replay(record)?;
    let view = game.view();
    let (width, height) = (view.width, view.height);
    let mut sgf = String::from("(;GM[1]FF[4]CA[UTF-8]");
    push(&mut sgf, "AP", &format!("Stonemate:{}", env!("CARGO_PKG_VERSION")));
    let size = if width == height { width.to_string() } else { format!("{width}:{height}") };
    push(&mut sgf, "SZ", &size);
    if let Some((_, komi)) = game.option_pairs().iter().find(|(key, _)| key == "komi") {
        push(&mut sgf, "KM", komi);
    }
    push(&mut sgf, OPTIONS_PROPERTY, &option_line(&game.option_pairs()));
    push(&mut sgf, "PB", &record.players[Color::Black.index()]);
    push(&mut sgf, "PW", &record.players[Color::White.index()]);
    if let Some(ending) = record.ending {
        push(&mut sgf, "RE", &GameResult::new(ending, game.score()).to_string());
    }
    if let Some(date) = record.date {
        push(&mut sgf, "DT", &format!("{:04}-{:02}-{:02}", date.year, date.month, date.day));
    }
    if let Some(title) = &record.title {
        push(&mut sgf, "GN", title);
    }
    if let Some(site) = &record.site {
        push(&mut sgf, "PC", site);
    }
    for played in &played {
        sgf.push_str("\n;");
        node(&mut sgf, played.mover, played.turn, height);
    }
    if let AnyGame::Go(go) = &game {
        if let Some(dead) = go.agreed_dead() {
            sgf.push_str("\n;");
            counting_node(&mut sgf, go, dead, height);
        }
    }
    sgf.push_str(")\n");
    Ok(sgf)
}

/// One move node's properties.
fn node(sgf: &mut String, mover: Color, turn: Turn, height: u8) {
    let colour = if mover == Color::Black { "B" } else { "W" };
    match turn {
        Turn::Drop { role, to } => {
            push(sgf, colour, &point(to, height));
            if role != Role::Rook {
                push(sgf, PIECE_PROPERTY, &role.letter().to_string());
            }
        }
        Turn::Move { from, to, .. } => {
            push(sgf, colour, &point(to, height));
            push(sgf, FROM_PROPERTY, &point(from, height));
        }
        // Go with chess pieces has no other kind of turn; a pass is the empty move.
        _ => push(sgf, colour, ""),
    }
}

/// The node of the agreement that ends counting: `SMD` with the dead pieces' points, and
/// the count as `TB`/`TW` (territory after their removal, plus the dead pieces' points).
/// SGF lists of points hold each point at most once, and a point is either side's, never
/// both: a dead piece's point goes to its capturer unless, once the piece is removed, the
/// piece's own side controls it (an agreement may call any piece dead), where it stays
/// that side's territory as the board shows it.
fn counting_node(sgf: &mut String, go: &Go, dead: &DeadPieces, height: u8) {
    let points = |squares: &mut dyn Iterator<Item = Square>| squares.map(|s| point(s, height)).collect::<Vec<_>>();
    push_list(sgf, DEAD_PROPERTY, &points(&mut dead.squares()));
    let owner = go.owner().unwrap_or_default();
    let controller = |square: Square| owner.iter().find(|&&(at, _)| at == square).and_then(|&(_, side)| side);
    let captured = go.view().captured;
    for (id, side) in [("TB", Color::Black), ("TW", Color::White)] {
        let territory = owner.iter().filter(|&&(_, owner)| owner == Some(side)).map(|&(square, _)| square);
        let dead_opponents = captured
            .iter()
            .filter(|(square, piece)| piece.color != side && controller(*square) != Some(piece.color))
            .map(|&(square, _)| square);
        let mut squares: Vec<Square> = territory.chain(dead_opponents).collect();
        squares.sort_unstable();
        squares.dedup();
        if !squares.is_empty() {
            push_list(sgf, id, &points(&mut squares.into_iter()));
        }
    }
}

/// Appends `ID[value][value]...`; an empty list is written `ID[]`, as SGF writes "none".
fn push_list(sgf: &mut String, id: &str, values: &[String]) {
    if values.is_empty() {
        push(sgf, id, "");
        return;
    }
    push(sgf, id, &values[0]);
    for value in &values[1..] {
        push(sgf, "", value);
    }
}

/// A square as an SGF point: column letter from the left, row letter from the top.
fn point(square: Square, height: u8) -> String {
    let row = height - 1 - square.rank();
    [letter(square.file()), letter(row)].iter().collect()
}

/// `a`..`z` for 0..26, then `A`..`Z` (boards here stop at 25).
fn letter(index: u8) -> char {
    if index < 26 { char::from(b'a' + index) } else { char::from(b'A' + index - 26) }
}

/// Appends `ID[value]` with `]` and `\` escaped, as SGF text requires.
fn push(sgf: &mut String, id: &str, value: &str) {
    sgf.push_str(id);
    sgf.push('[');
    for ch in value.chars() {
        if ch == ']' || ch == '\\' {
            sgf.push('\\');
        }
        sgf.push(ch);
    }
    sgf.push(']');
}

/// One node of the main line: its properties, in order.
type Node = Vec<(String, Vec<String>)>;

/// Reads an SGF game of Go with chess pieces: options, names and turns.
pub fn read(text: &str) -> Result<Imported, ReadError> {
    let nodes = main_line(text)?;
    let root = nodes.first().ok_or(ReadError::Syntax { format: Format::Sgf, at: 0, expected: "a node `;`" })?;
    if let Some(game) = value(root, "GM").filter(|game| game.trim() != "1") {
        return Err(ReadError::NotGo { game: game.to_owned() });
    }
    let options = root_options(root)?;
    let game = AnyGame::new(GameKind::Go, &options).map_err(|error| match error {
        NewGameError::Options(error) => ReadError::Options(error),
        NewGameError::Unavailable(_) => ReadError::NotGo { game: "1".to_owned() },
    })?;
    let view = game.view();
    let mut turns = Vec::new();
    for node in &nodes {
        if let Some(property) = node.iter().map(|(id, _)| id).find(|id| ["AB", "AW", "AE"].contains(&id.as_str())) {
            return Err(ReadError::Setup { property: property.clone() });
        }
        if let Some(turn) = node_turn(node, turns.len() + 1, view.width, view.height)? {
            turns.push(turn);
        }
    }
    let name = |id| value(root, id).map(str::to_owned);
    Ok(Imported { format: Format::Sgf, kind: Some(GameKind::Go), options, players: [name("PW"), name("PB")], turns })
}

/// The options: `SMO` when the file has it, else the board size and komi a go program
/// writes.
fn root_options(root: &Node) -> Result<OptionPairs, ReadError> {
    if let Some(line) = value(root, OPTIONS_PROPERTY) {
        return Ok(parse_option_text(line)?);
    }
    let mut options = OptionPairs::new();
    if let Some(size) = value(root, "SZ") {
        let size = size.trim();
        let board = match size.split_once(':') {
            Some((columns, rows)) => format!("{}x{}", columns.trim(), rows.trim()),
            None => format!("{size}x{size}"),
        };
        options.push(("board".to_owned(), board));
    }
    if let Some(komi) = value(root, "KM") {
        options.push(("komi".to_owned(), komi.trim().to_owned()));
    }
    Ok(options)
}

/// The turn a node plays, in our notation, or `None` for a node without a move. A node with
/// `SMD` is the agreement that ends counting, read as the entry `dead ...`.
fn node_turn(node: &Node, index: usize, width: u8, height: u8) -> Result<Option<String>, ReadError> {
    if let Some((_, points)) = node.iter().find(|(id, _)| id == DEAD_PROPERTY) {
        let mut squares = Vec::new();
        for point in points.iter().map(|point| point.trim()).filter(|point| !point.is_empty()) {
            let square = parse_point(point, width, height);
            squares.push(square.ok_or_else(|| ReadError::BadPoint { index, point: point.to_owned() })?);
        }
        return Ok(Some(DeadPieces::new(squares).to_string()));
    }
    let (black, white) = (value(node, "B"), value(node, "W"));
    let (found, target) = match (black, white) {
        (Some(_), Some(_)) => return Err(ReadError::TwoMoves { index }),
        (Some(target), None) => (Color::Black, target),
        (None, Some(target)) => (Color::White, target),
        (None, None) => return Ok(None),
    };
    // Black moves first in Go with chess pieces, and turns alternate (passes included).
    let expected = if index % 2 == 1 { Color::Black } else { Color::White };
    if found != expected {
        return Err(ReadError::OutOfTurn { index, expected, found });
    }
    let target = target.trim();
    if target.is_empty() || (target == "tt" && width <= 19 && height <= 19) {
        return Ok(Some("pass".to_owned()));
    }
    let square = |point: &str| {
        parse_point(point, width, height).ok_or_else(|| ReadError::BadPoint { index, point: point.to_owned() })
    };
    let to = square(target)?;
    if let Some(from) = value(node, FROM_PROPERTY) {
        return Ok(Some(format!("{}-{to}", square(from.trim())?)));
    }
    let role = match value(node, PIECE_PROPERTY) {
        Some(letter) => {
            let mut chars = letter.trim().chars();
            match (chars.next().and_then(Role::from_letter), chars.next()) {
                (Some(role), None) => role,
                _ => return Err(ReadError::BadPiece { index, piece: letter.to_owned() }),
            }
        }
        None => Role::Rook,
    };
    Ok(Some(Turn::Drop { role, to }.to_string()))
}

/// An SGF point (`pd`) on a board of `width` x `height`, as our square.
fn parse_point(point: &str, width: u8, height: u8) -> Option<Square> {
    let index = |ch: char| match ch {
        'a'..='z' => Some(ch as u8 - b'a'),
        'A'..='Z' => Some(ch as u8 - b'A' + 26),
        _ => None,
    };
    let mut chars = point.chars();
    let (column, row) = (index(chars.next()?)?, index(chars.next()?)?);
    if chars.next().is_some() || column >= width || row >= height {
        return None;
    }
    Square::new(column, height - 1 - row)
}

/// The first value of property `id` in a node.
fn value<'a>(node: &'a Node, id: &str) -> Option<&'a str> {
    node.iter().find(|(name, _)| name == id).and_then(|(_, values)| values.first()).map(String::as_str)
}

/// The nodes of the first game's main line. The main line ends at the first `)`: every
/// later variation branches off it.
fn main_line(text: &str) -> Result<Vec<Node>, ReadError> {
    let mut reader = Reader { text, at: 0 };
    let syntax = |at, expected| ReadError::Syntax { format: Format::Sgf, at, expected };
    reader.skip_space();
    if !reader.eat('(') {
        return Err(syntax(reader.at, "`(`"));
    }
    let mut nodes: Vec<Node> = Vec::new();
    loop {
        reader.skip_space();
        match reader.peek() {
            Some(';') => {
                reader.at += 1;
                if nodes.len() == MAX_NODES {
                    return Err(syntax(reader.at, "fewer nodes"));
                }
                nodes.push(Vec::new());
            }
            Some('(') => reader.at += 1,
            Some(')') => return Ok(nodes),
            Some(ch) if ch.is_ascii_alphabetic() => {
                let node = nodes.last_mut().ok_or(syntax(reader.at, "`;` before a property"))?;
                node.push(reader.property()?);
            }
            _ => return Err(syntax(reader.at, "a node, a property, `(` or `)`")),
        }
    }
}

/// A cursor over SGF text.
struct Reader<'a> {
    text: &'a str,
    /// A byte offset, always on a character boundary.
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }

    fn eat(&mut self, ch: char) -> bool {
        let found = self.peek() == Some(ch);
        if found {
            self.at += ch.len_utf8();
        }
        found
    }

    fn skip_space(&mut self) {
        while let Some(ch) = self.peek().filter(|ch| ch.is_whitespace()) {
            self.at += ch.len_utf8();
        }
    }

    /// `ID[value][value]...`; FF\[3\] lower-case letters in the name are dropped, as FF\[4\]
    /// says readers should.
    fn property(&mut self) -> Result<(String, Vec<String>), ReadError> {
        let mut id = String::new();
        while let Some(ch) = self.peek().filter(char::is_ascii_alphabetic) {
            if ch.is_ascii_uppercase() {
                id.push(ch);
            }
            self.at += 1;
        }
        let mut values = Vec::new();
        loop {
            self.skip_space();
            if !self.eat('[') {
                break;
            }
            values.push(self.value()?);
        }
        if values.is_empty() || id.is_empty() {
            return Err(ReadError::Syntax {
                format: Format::Sgf,
                at: self.at,
                expected: "a property name and `[value]`",
            });
        }
        Ok((id, values))
    }

    /// The text up to the closing `]`, with `\` escapes resolved.
    fn value(&mut self) -> Result<String, ReadError> {
        let mut value = String::new();
        let mut chars = self.text[self.at..].char_indices();
        while let Some((offset, ch)) = chars.next() {
            match ch {
                ']' => {
                    self.at += offset + 1;
                    return Ok(value);
                }
                '\\' => match chars.next() {
                    // A soft line break (escaped newline) is removed.
                    Some((_, '\n' | '\r')) => {}
                    Some((_, escaped)) => value.push(escaped),
                    None => break,
                },
                _ => value.push(ch),
            }
        }
        Err(ReadError::Syntax { format: Format::Sgf, at: self.text.len(), expected: "`]`" })
    }
}
