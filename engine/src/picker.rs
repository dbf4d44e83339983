//! The turn picker: every legal turn as a path of choices a player taps, for any game.
//!
//! Each legal turn is spelt as a list of tokens in full detail (a drop: the piece, the
//! file, the rank; a move: the file and rank it starts from, where it goes, the
//! promotion; a tandem: its two corners and where it goes; a mole drop: the piece and the
//! city cell). A *step* offers the distinct next tokens of the turns still possible, made
//! shorter where that stays within [`MAX_CHOICES`]:
//!
//! - a file and its ranks are offered as whole squares when all of them fit in one step;
//! - a step of a few single choices and one group (the only piece to drop, "move a piece"
//!   among passes and drops) offers the group's own choices in its place;
//! - a step with one choice only is taken at once, and a single turn left ends the path.
//!
//! Every choice therefore leads to at least one legal turn, and no step offers more than
//! [`MAX_CHOICES`]: tokens of one position in the paths are of one kind (files, ranks,
//! promotions), except the first (a pass, the pieces to drop and three groups).
//!
//! A path is the list of [`PickOption::value`]s chosen, which are short ASCII words without
//! dots, so a caller may keep a path as text (`R.e4`) and ask again later.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

use crate::any::AnyGame;
use crate::game::{BoardView, Cell};
use crate::piece::Role;
use crate::square::Square;
use crate::turn::Turn;

/// The most choices one step offers (what a Discord select menu holds).
pub const MAX_CHOICES: usize = 25;

/// One piece of a turn's path. The order of the variants is the order choices are listed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Token {
    Pass,
    /// A drop of this role.
    Drop(Role),
    /// A move of a piece (or of a Gess block, by its centre).
    Move,
    /// A Chogo tandem.
    Tandem,
    /// A Chogo mole drop.
    Mole,
    File(u8),
    Rank(u8),
    Promote(Option<Role>),
}

impl Token {
    /// The token's part of a choice's value.
    fn word(self) -> String {
        match self {
            Token::Pass => "pass".to_owned(),
            Token::Drop(role) => role.letter().to_string(),
            Token::Move => "move".to_owned(),
            Token::Tandem => "tandem".to_owned(),
            Token::Mole => "mole".to_owned(),
            Token::File(file) => char::from(b'a' + file).to_string(),
            Token::Rank(rank) => (u16::from(rank) + 1).to_string(),
            Token::Promote(Some(role)) => format!("={}", role.letter()),
            Token::Promote(None) => "=".to_owned(),
        }
    }

    /// A group whose choices may be offered in its place (see the module documentation).
    fn is_group(self) -> bool {
        matches!(self, Token::Drop(_) | Token::Move | Token::Tandem | Token::Mole)
    }
}

fn square_tokens(square: Square) -> [Token; 2] {
    [Token::File(square.file()), Token::Rank(square.rank())]
}

/// A turn in full detail.
fn tokens(turn: Turn) -> Vec<Token> {
    let mut path = Vec::with_capacity(7);
    match turn {
        Turn::Pass => path.push(Token::Pass),
        Turn::Drop { role, to } => {
            path.push(Token::Drop(role));
            path.extend(square_tokens(to));
        }
        Turn::Move { from, to, promotion } => {
            path.push(Token::Move);
            path.extend(square_tokens(from));
            path.extend(square_tokens(to));
            path.push(Token::Promote(promotion));
        }
        Turn::Tandem { from, to } => {
            path.push(Token::Tandem);
            path.extend(square_tokens(from.low()));
            path.extend(square_tokens(from.high()));
            path.extend(square_tokens(to));
        }
        Turn::Relocate { from, to } => {
            path.push(Token::Mole);
            path.extend(square_tokens(from));
            path.extend(square_tokens(to));
        }
    }
    path
}

/// One choice of a step, as offered: the value sent back and the words shown.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PickOption {
    /// What the path holds for this choice: a short ASCII word without dots (`e4`, `R`, `=F`).
    pub value: String,
    /// What the player reads (`Knight g1 to f3`, `to f3 (takes Pawn)`, `e-file`), at most 100
    /// characters.
    pub label: String,
}

/// Where a path leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// More to choose: the next step's choices (at least two).
    Choose(Vec<PickOption>),
    /// The path names one legal turn.
    Done(Turn),
}

/// A path that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PickError {
    /// A value that is not among the step's choices (the position changed, or it was made up).
    #[error("`{0}` is not one of the choices here")]
    UnknownChoice(String),
    /// A choice after the path already named a turn.
    #[error("the turn is already chosen")]
    AlreadyChosen,
    /// No legal turn at all: the game is over.
    #[error("there is no legal turn to choose")]
    NoLegalTurn,
}

/// The turns still possible after some choices, and how many tokens of theirs are chosen.
#[derive(Debug, Clone)]
struct State {
    turns: Vec<usize>,
    depth: usize,
}

/// One choice of a step, before it is named: the tokens it chooses (from `start` on) and
/// the turns it leads to (forced tokens after it taken).
#[derive(Debug, Clone)]
struct Choice {
    start: usize,
    tokens: Vec<Token>,
    state: State,
}

/// A step passed on a path, with the index of the choice taken in it.
type Taken = (Vec<Choice>, usize);

/// The legal turns of a position as paths of choices. See the module documentation.
#[derive(Debug, Clone)]
pub struct Picker {
    paths: Vec<(Vec<Token>, Turn)>,
    view: BoardView,
}

impl Picker {
    /// The picker of `game`'s legal turns, for the side to move.
    #[must_use]
    pub fn new(game: &AnyGame) -> Picker {
        let mut turns = game.legal_turns();
        turns.sort_by_key(|turn| tokens(*turn));
        turns.dedup();
        Picker { paths: turns.into_iter().map(|turn| (tokens(turn), turn)).collect(), view: game.view() }
    }

    /// Where `path` leads: the next step's choices, or the turn it names.
    pub fn at<S: AsRef<str>>(&self, path: &[S]) -> Result<Pick, PickError> {
        let (state, _) = self.follow(path)?;
        Ok(match state.turns.as_slice() {
            [only] => Pick::Done(self.paths[*only].1),
            _ => Pick::Choose(self.options_of(&self.step(&state))),
        })
    }

    /// The choices `path` made, as they were offered (their labels say what was chosen).
    pub fn chosen<S: AsRef<str>>(&self, path: &[S]) -> Result<Vec<PickOption>, PickError> {
        let (_, taken) = self.follow(path)?;
        Ok(taken.iter().map(|(step, index)| self.options_of(step).swap_remove(*index)).collect())
    }

    /// The next step's choices after `path` (none once it names a turn).
    pub fn options<S: AsRef<str>>(&self, path: &[S]) -> Result<Vec<PickOption>, PickError> {
        Ok(match self.at(path)? {
            Pick::Choose(options) => options,
            Pick::Done(_) => Vec::new(),
        })
    }

    /// The turn `path` names, if it names one.
    #[must_use]
    pub fn turn<S: AsRef<str>>(&self, path: &[S]) -> Option<Turn> {
        match self.at(path) {
            Ok(Pick::Done(turn)) => Some(turn),
            _ => None,
        }
    }

    /// The path that names `turn`, if it is legal: what a player would tap for it.
    #[must_use]
    pub fn path_to(&self, turn: Turn) -> Option<Vec<String>> {
        let wanted = tokens(turn);
        let index = self.paths.binary_search_by(|(path, _)| path.cmp(&wanted)).ok()?;
        let mut state = self.start().ok()?;
        let mut path = Vec::new();
        while state.turns.len() > 1 {
            let choice = self.step(&state).into_iter().find(|choice| choice.state.turns.contains(&index))?;
            path.push(word(&choice));
            state = choice.state;
        }
        Some(path)
    }

    /// The legal turns `path` still leaves possible (all of them for an empty path).
    pub fn turns_after<S: AsRef<str>>(&self, path: &[S]) -> Result<Vec<Turn>, PickError> {
        let (state, _) = self.follow(path)?;
        Ok(state.turns.iter().map(|&index| self.paths[index].1).collect())
    }

    /// Every legal turn, once each, in the picker's order.
    pub fn turns(&self) -> impl Iterator<Item = Turn> + '_ {
        self.paths.iter().map(|(_, turn)| *turn)
    }

    /// Takes the choices of `path` one by one from the start: where they lead, and each
    /// step passed with the index of the choice taken in it.
    fn follow<S: AsRef<str>>(&self, path: &[S]) -> Result<(State, Vec<Taken>), PickError> {
        let mut state = self.start()?;
        let mut taken = Vec::with_capacity(path.len());
        for value in path {
            if state.turns.len() == 1 {
                return Err(PickError::AlreadyChosen);
            }
            let value = value.as_ref();
            let step = self.step(&state);
            let index = step.iter().position(|choice| word(choice) == value);
            let index = index.ok_or_else(|| PickError::UnknownChoice(value.chars().take(40).collect()))?;
            state = step[index].state.clone();
            taken.push((step, index));
        }
        Ok((state, taken))
    }

    fn start(&self) -> Result<State, PickError> {
        if self.paths.is_empty() {
            return Err(PickError::NoLegalTurn);
        }
        Ok(self.settle(State { turns: (0..self.paths.len()).collect(), depth: 0 }))
    }

    /// Takes every forced token: while all the turns left agree on the next one.
    fn settle(&self, mut state: State) -> State {
        while state.turns.len() > 1 && self.children(&state).len() == 1 {
            state.depth += 1;
        }
        state
    }

    /// The distinct next tokens, in order, each with the turns it leads to (settled).
    fn children(&self, state: &State) -> Vec<Choice> {
        let mut by_token: BTreeMap<Token, Vec<usize>> = BTreeMap::new();
        for &index in &state.turns {
            if let Some(&token) = self.paths[index].0.get(state.depth) {
                by_token.entry(token).or_default().push(index);
            }
        }
        let (start, depth) = (state.depth, state.depth + 1);
        by_token
            .into_iter()
            .map(|(token, turns)| Choice { start, tokens: vec![token], state: State { turns, depth } })
            .collect()
    }

    /// The choices of the step at `state` (which has more than one turn left).
    fn step(&self, state: &State) -> Vec<Choice> {
        let mut choices = self.children(state);
        for choice in &mut choices {
            choice.state = self.settle(choice.state.clone());
        }
        let choices = self.whole_squares(choices);
        self.open_groups(choices)
    }

    /// The choices `choice` opens into, each choosing `choice`'s tokens (and the forced
    /// ones after them) first.
    fn open(&self, choice: &Choice) -> Vec<Choice> {
        let path = &self.paths[choice.state.turns[0]].0;
        self.step(&choice.state)
            .into_iter()
            .map(|inner| {
                let mut tokens = path[choice.start..inner.start].to_vec();
                tokens.extend(inner.tokens);
                Choice { start: choice.start, tokens, state: inner.state }
            })
            .collect()
    }

    /// Whether a choice is a file whose squares could be offered instead.
    fn is_open_file(choice: &Choice) -> bool {
        choice.state.turns.len() > 1 && matches!(choice.tokens[..], [Token::File(_)])
    }

    /// Files offered as whole squares when all of them fit in the step.
    fn whole_squares(&self, choices: Vec<Choice>) -> Vec<Choice> {
        if !choices.iter().any(Picker::is_open_file) {
            return choices;
        }
        let mut opened = Vec::with_capacity(MAX_CHOICES);
        for choice in &choices {
            if Picker::is_open_file(choice) {
                opened.extend(self.open(choice))
            } else {
                opened.push(choice.clone())
            }
            if opened.len() > MAX_CHOICES {
                return choices;
            }
        }
        opened
    }

    /// Groups offered by their own choices while the step stays within [`MAX_CHOICES`],
    /// biggest group first; a piece to drop only when it is the only one.
    fn open_groups(&self, choices: Vec<Choice>) -> Vec<Choice> {
        let drops = choices.iter().filter(|choice| matches!(choice.tokens[..], [Token::Drop(_)])).count();
        let openable = |choice: &Choice| {
            choice.state.turns.len() > 1
                && matches!(choice.tokens[..], [token] if token.is_group())
                && (drops == 1 || !matches!(choice.tokens[0], Token::Drop(_)))
        };
        let mut groups: Vec<usize> = (0..choices.len()).filter(|&index| openable(&choices[index])).collect();
        if choices.len() == 1 || groups.is_empty() {
            return choices;
        }
        groups.sort_by_key(|&index| Reverse(choices[index].state.turns.len()));
        let mut opened: Vec<Option<Vec<Choice>>> = vec![None; choices.len()];
        let mut count = choices.len();
        for index in groups {
            let inner = self.open(&choices[index]);
            if count - 1 + inner.len() <= MAX_CHOICES {
                count += inner.len() - 1;
                opened[index] = Some(inner);
            }
        }
        let mut result = Vec::with_capacity(count);
        for (choice, opened) in choices.into_iter().zip(opened) {
            match opened {
                Some(inner) => result.extend(inner),
                None => result.push(choice),
            }
        }
        result
    }

    /// The choices of one step as offered: their values and labels.
    fn options_of(&self, choices: &[Choice]) -> Vec<PickOption> {
        // The piece to drop goes without saying when dropping is the only kind of turn
        // offered besides a pass (go with one piece): "d4" then says it all.
        let kinds: BTreeSet<Token> = choices
            .iter()
            .filter(|choice| choice.start == 0)
            .filter_map(|choice| choice.tokens.first().copied())
            .filter(|token| token.is_group())
            .collect();
        let mixed = kinds.len() > 1;
        choices
            .iter()
            .map(|choice| {
                let label: String = self.label(choice, mixed).chars().take(100).collect();
                PickOption { value: word(choice), label }
            })
            .collect()
    }

    /// The words for a choice: everything it settles of its turn (any of its turns: they
    /// agree on the chosen tokens), the forced tokens after it included, so that no two
    /// choices of a step read the same: `Knight e2 to c3`, `drop a Pawn on the d-file`,
    /// `to e5 (takes Pawn)`, `promote to Queen`. What earlier steps chose is not repeated
    /// (it is on the message). `mixed`: the step offers several kinds of turn, so a drop
    /// names its piece.
    fn label(&self, choice: &Choice, mixed: bool) -> String {
        let (path, turn) = &self.paths[choice.state.turns[0]];
        // A choice that names a whole turn knows all of it.
        let end = if choice.state.turns.len() == 1 { path.len() } else { choice.state.depth };
        let known = Known { start: choice.start, end };
        let place = |square: Square, file: usize| known.place(square, file);
        match *turn {
            Turn::Pass => "pass".to_owned(),
            Turn::Drop { role, .. } if end == 1 => format!("drop a {} ({})", title(role), role.letter()),
            Turn::Drop { role, to } => match place(to, 1) {
                Some(place) if known.start == 0 && mixed => format!("drop a {} on {}", title(role), place.on()),
                Some(place) => place.alone(),
                None => String::new(),
            },
            Turn::Move { .. } if end == 1 => "move a piece".to_owned(),
            Turn::Move { from, to, promotion } => {
                let mut words = self.journey(known, from, to);
                match (promotion, known.covers(5)) {
                    (Some(role), true) if words.is_empty() => words = format!("promote to {}", title(role)),
                    (Some(role), true) => words.push_str(&format!(", promote to {}", title(role))),
                    (None, true) if words.is_empty() => words = "no promotion".to_owned(),
                    _ => {}
                }
                words
            }
            Turn::Tandem { .. } if end == 1 => "move a tandem".to_owned(),
            Turn::Tandem { from, to } => {
                let tandem = match (known.start < 5, end) {
                    (false, _) => None,
                    (true, 5..) => Some(format!("tandem {}{}", from.low(), from.high())),
                    (true, 3..) => Some(format!("tandem with corner {}", from.low())),
                    (true, _) => place(from.low(), 1).map(|place| format!("tandem on {}", place.on())),
                };
                let target = place(to, 5).filter(|_| known.end > 5).map(|place| format!("to {}", place.on()));
                tandem.into_iter().chain(target).collect::<Vec<_>>().join(" ")
            }
            Turn::Relocate { .. } if end == 1 => "mole drop".to_owned(),
            Turn::Relocate { from, to } => {
                let words = self.journey(known, from, to);
                if known.start == 0 { format!("mole drop: {words}") } else { words }
            }
        }
    }

    /// What a choice settles of a move from `from` to `to` (tokens 1-2 and 3-4 of its
    /// path): the piece where it stands (`Rook d4`), then where it goes (`to e5 (takes
    /// Pawn)`), or a file of either.
    fn journey(&self, known: Known, from: Square, to: Square) -> String {
        let source = (known.start < 3).then(|| known.place(from, 1)).flatten().map(|place| match place {
            Place::Square(square) => match self.view.cell(square) {
                Cell::Piece(piece) => format!("{} {square}", title(piece.role)),
                _ => square.to_string(),
            },
            file => file.alone(),
        });
        let target =
            (known.start < 5 && known.end > 3).then(|| known.place(to, 3)).flatten().map(|place| match place {
                Place::Square(square) => match self.view.cell(square) {
                    Cell::Piece(piece) => format!("to {square} (takes {})", title(piece.role)),
                    _ => format!("to {square}"),
                },
                file => format!("to {}", file.on()),
            });
        source.into_iter().chain(target).collect::<Vec<_>>().join(" ")
    }
}

/// The tokens of a turn's path a choice settles: from `start` (before it, chosen earlier)
/// to `end` (after it, still open).
#[derive(Debug, Clone, Copy)]
struct Known {
    start: usize,
    end: usize,
}

/// How much of a square is known.
#[derive(Debug, Clone, Copy)]
enum Place {
    File(u8),
    Square(Square),
}

impl Known {
    fn covers(self, index: usize) -> bool {
        (self.start..self.end).contains(&index)
    }

    /// How much is known of `square`, whose file is token `file` of the path (its rank the
    /// next): nothing when no token of it is known yet.
    fn place(self, square: Square, file: usize) -> Option<Place> {
        match self.end {
            end if end > file + 1 => Some(Place::Square(square)),
            end if end > file => Some(Place::File(square.file())),
            _ => None,
        }
    }
}

impl Place {
    /// After "on" or "to": `d4`, `the d-file`.
    fn on(self) -> String {
        match self {
            Place::Square(square) => square.to_string(),
            Place::File(file) => format!("the {}-file", char::from(b'a' + file)),
        }
    }

    /// On its own: `d4`, `d-file`.
    fn alone(self) -> String {
        match self {
            Place::Square(square) => square.to_string(),
            Place::File(file) => format!("{}-file", char::from(b'a' + file)),
        }
    }
}

/// A piece's name as a label shows it: `Rook`, `Chinese knight`.
fn title(role: Role) -> String {
    let name = role.name();
    let mut chars = name.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A choice's value: its tokens' words, run together.
fn word(choice: &Choice) -> String {
    choice.tokens.iter().map(|token| token.word()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;

    fn game(kind: GameKind, options: &[(&str, &str)]) -> AnyGame {
        let options: Vec<(String, String)> = options.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        AnyGame::new(kind, &options).expect("options")
    }

    #[test]
    fn go_offers_pass_and_columns_then_rows() {
        let picker = Picker::new(&game(GameKind::Go, &[("board", "9x9")]));
        let first = picker.options::<&str>(&[]).unwrap();
        let values: Vec<&str> = first.iter().map(|option| option.value.as_str()).collect();
        assert_eq!(values, ["pass", "Ra", "Rb", "Rc", "Rd", "Re", "Rf", "Rg", "Rh", "Ri"]);
        let rows = picker.options(&["Re"]).unwrap();
        assert_eq!(rows.len(), 9);
        assert_eq!((rows[3].value.as_str(), rows[3].label.as_str()), ("4", "e4"));
        assert_eq!(picker.turn(&["Re", "4"]), Some(Turn::Drop { role: Role::Rook, to: "e4".parse().unwrap() }));
        assert_eq!(picker.turn(&["pass"]), Some(Turn::Pass));
        assert_eq!(picker.at(&["Rz"]), Err(PickError::UnknownChoice("Rz".to_owned())));
        assert_eq!(picker.at(&["pass", "Ra"]), Err(PickError::AlreadyChosen));
    }

    #[test]
    fn small_boards_offer_whole_squares() {
        let picker = Picker::new(&game(GameKind::Go, &[("board", "3x3")]));
        let first = picker.options::<&str>(&[]).unwrap();
        assert_eq!(first.len(), 10, "pass and nine squares: {first:?}");
        assert!(first.iter().any(|option| option.value == "Rb2" && option.label == "b2"), "{first:?}");
    }

    #[test]
    fn ichess_moves_name_the_piece_then_the_target() {
        let mut chess = game(GameKind::IChess, &[]);
        // Deployment first: drops only, the piece then the square.
        let picker = Picker::new(&chess);
        let first = picker.options::<&str>(&[]).unwrap();
        assert!(first.iter().all(|option| option.label.starts_with("drop a ")), "{first:?}");
        while chess.legal_turns().iter().any(|turn| matches!(turn, Turn::Drop { .. })) {
            let turn = chess.legal_turns()[0];
            chess.play(turn).unwrap();
        }
        if chess.to_move().is_some() {
            let picker = Picker::new(&chess);
            let first = picker.options::<&str>(&[]).unwrap();
            assert!(first.len() <= MAX_CHOICES && first.len() > 1, "{first:?}");
        }
    }

    #[test]
    fn labels_say_the_piece_and_where_it_goes_in_words() {
        let mut chess = game(GameKind::IChess, &[]);
        while chess.legal_turns().iter().any(|turn| matches!(turn, Turn::Drop { .. })) {
            let turn = chess.legal_turns()[0];
            chess.play(turn).unwrap();
        }
        let picker = Picker::new(&chess);
        let moves: Vec<Turn> = picker.turns().filter(|turn| matches!(turn, Turn::Move { .. })).collect();
        let names = ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"];
        for turn in moves {
            let Turn::Move { from, to, .. } = turn else { unreachable!() };
            let path = picker.path_to(turn).unwrap();
            let chosen: Vec<String> = picker.chosen(&path).unwrap().into_iter().map(|option| option.label).collect();
            let said = chosen.join(" ");
            assert!(names.iter().any(|name| said.starts_with(&format!("{name} {from}"))), "{turn}: {said}");
            assert!(said.contains(&format!("to {to}")), "{turn}: {said}");
            assert!(!said.contains("move") && !said.contains("file"), "values are not shown: {said}");
        }
        let go = Picker::new(&game(GameKind::Go, &[("board", "9x9"), ("pieces", "RN")]));
        let first: Vec<String> = go.options::<&str>(&[]).unwrap().into_iter().map(|option| option.label).collect();
        assert_eq!(first, ["pass", "drop a Rook (R)", "drop a Knight (N)"]);
        let files: Vec<String> = go.options(&["N"]).unwrap().into_iter().map(|option| option.label).collect();
        assert_eq!(files[3], "d-file");
        assert_eq!(go.chosen(&["N", "d", "4"]).unwrap()[2].label, "d4");
    }
}
