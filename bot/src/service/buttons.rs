//! What a button of ours asks ([`Action`]): one type whose text form is the button's
//! `custom_id` and reads back as the same action ([`Display`](fmt::Display) and
//! [`FromStr`] round-trip), so that a press needs nothing but the stored record and works
//! after a restart. Text we did not make reads as nothing.

use std::fmt;
use std::str::FromStr;

use super::types::{Button, ButtonStyle, GameId};

/// Where a `/history` button leads, from the turn the message shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// To the start: the board before any turn.
    First,
    /// One turn back.
    Back,
    /// One turn on.
    Next,
    /// To the board after the last turn.
    Last,
}

impl Step {
    /// Every step, in the order the buttons are shown.
    pub const ALL: [Step; 4] = [Step::First, Step::Back, Step::Next, Step::Last];

    /// The step's word in a `custom_id`. Discord wants the ids of one message distinct,
    /// and First and Back may lead to the same turn.
    fn word(self) -> &'static str {
        match self {
            Step::First => "first",
            Step::Back => "back",
            Step::Next => "next",
            Step::Last => "last",
        }
    }

    /// The button's label.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Step::First => "First",
            Step::Back => "Back",
            Step::Next => "Next",
            Step::Last => "Last",
        }
    }

    /// The turn this step shows from `shown` of `turns`, or `None` when it leads nowhere
    /// (back from the start, on from the last turn): such buttons are left out.
    #[must_use]
    pub fn target(self, shown: usize, turns: usize) -> Option<usize> {
        match self {
            Step::First => (shown > 0).then_some(0),
            Step::Back => shown.checked_sub(1),
            Step::Next => (shown < turns).then_some(shown + 1),
            Step::Last => (shown < turns).then_some(turns),
        }
    }
}

/// The choices made so far in a turn picker, as its `custom_id`s keep them: the values of
/// [`stonemate_engine::Picker`]'s steps joined by `.` (`R.e`), at most
/// [`PickPath::MAX`] bytes of `A-Z a-z 0-9 =` and dots. A `Copy` value, so that
/// [`Action`] stays one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PickPath {
    bytes: [u8; PickPath::MAX],
    len: u8,
}

impl PickPath {
    /// The longest path kept: with the game, the version and the word it keeps a
    /// `custom_id` within Discord's 100 characters.
    pub const MAX: usize = 48;

    /// No choice made yet.
    pub const EMPTY: PickPath = PickPath { bytes: [0; PickPath::MAX], len: 0 };

    /// The path written as `text`, if it is one.
    #[must_use]
    pub fn new(text: &str) -> Option<PickPath> {
        let allowed = |b: u8| b.is_ascii_alphanumeric() || b == b'=' || b == b'.';
        if text.len() > PickPath::MAX || !text.bytes().all(allowed) {
            return None;
        }
        if !text.is_empty() && text.split('.').any(str::is_empty) {
            return None;
        }
        let mut bytes = [0; PickPath::MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(PickPath { bytes, len: text.len() as u8 })
    }

    /// The path as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (checked in `new`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// The values chosen, in order.
    #[must_use]
    pub fn steps(&self) -> Vec<&str> {
        if self.len == 0 { Vec::new() } else { self.as_str().split('.').collect() }
    }

    /// The path with `value` chosen next, if it fits.
    #[must_use]
    pub fn then(&self, value: &str) -> Option<PickPath> {
        if value.is_empty() || value.contains('.') {
            return None;
        }
        if self.len == 0 { PickPath::new(value) } else { PickPath::new(&format!("{}.{value}", self.as_str())) }
    }

    /// The path without its last choice.
    #[must_use]
    pub fn back(&self) -> PickPath {
        let text = self.as_str();
        PickPath::new(text.rsplit_once('.').map_or("", |(head, _)| head)).unwrap_or(PickPath::EMPTY)
    }
}

impl fmt::Debug for PickPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PickPath({:?})", self.as_str())
    }
}

/// What a turn picker's component does with its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PickPress {
    /// The select menu: the chosen value is added to the path.
    Choose,
    /// A choice's own button (a step of few choices): its path already holds the choice.
    Tap,
    /// Undoes the last choice.
    Back,
    /// Plays the turn the path names.
    Confirm,
    /// Closes the picker, playing nothing.
    Cancel,
}

impl PickPress {
    const ALL: [PickPress; 5] =
        [PickPress::Choose, PickPress::Tap, PickPress::Back, PickPress::Confirm, PickPress::Cancel];

    /// The word of the `custom_id`: `pick`, `pick-at`, `pick-back`, `pick-confirm`,
    /// `pick-cancel`.
    fn word(self) -> &'static str {
        match self {
            PickPress::Choose => "pick",
            PickPress::Tap => "pick-at",
            PickPress::Back => "pick-back",
            PickPress::Confirm => "pick-confirm",
            PickPress::Cancel => "pick-cancel",
        }
    }
}

/// What a press of one of our buttons asks, about one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `accept:12`: accept the challenge (open or not).
    Accept(GameId),
    /// `decline:12`.
    Decline(GameId),
    /// `resign:7`: confirms `/resign`.
    Resign(GameId),
    /// `draw-accept:7`.
    DrawAccept(GameId),
    /// `draw-decline:7`.
    DrawDecline(GameId),
    /// `rematch:7`: a finished game's Rematch.
    Rematch(GameId),
    /// `takeback-accept:7`: the opponent takes back the requested turns.
    TakebackAccept(GameId),
    /// `takeback-decline:7`.
    TakebackDecline(GameId),
    /// `dead-accept:7:1a2b3c4d`: accepts the proposal of dead pieces in the counting phase
    /// (go, rule 10) that the button was shown with, named by `proposal_tag`.
    AcceptDead {
        /// The game.
        id: GameId,
        /// The tag of the proposal shown.
        proposal: u32,
    },
    /// `resume:7`: leaves the counting phase and plays on (go, rule 10).
    Resume(GameId),
    /// `history-back:7:4`: `/history` with the board after `turn` turns.
    History {
        /// Which button it was.
        step: Step,
        /// The game.
        id: GameId,
        /// The turn count of the board to show.
        turn: usize,
    },
    /// `play:7`: opens the turn picker of the game (the Play button).
    Play(GameId),
    /// `next-game:7`: shows the board of the game (the Next game button, which leads to
    /// the presser's most urgent game where he is to move).
    NextGame(GameId),
    /// `pick:7:12:R.e` (and `pick-at`, `pick-back`, `pick-confirm`, `pick-cancel`): a step
    /// of the turn picker opened at version `version` of the game's record, with `path`
    /// chosen (for `pick-at`, a choice's button, the choice included).
    Pick {
        /// What the component does.
        press: PickPress,
        /// The game.
        id: GameId,
        /// The record's version when the picker opened: a picker of an older version is
        /// refused (the game moved on).
        version: u64,
        /// The choices made so far.
        path: PickPath,
    },
}

impl Button {
    /// The Rematch button of a finished game: the press names the game, so it works after
    /// a restart.
    #[must_use]
    pub fn rematch(id: GameId) -> Button {
        Action::Rematch(id).button("Rematch", ButtonStyle::Primary)
    }
}

impl Button {
    /// The Play button: opens the turn picker of the game for the player to move.
    #[must_use]
    pub fn play(id: GameId) -> Button {
        Action::Play(id).button("Play", ButtonStyle::Primary)
    }

    /// The Next game button: the board of game `id`, the presser's most urgent game where
    /// he is to move.
    #[must_use]
    pub fn next_game(id: GameId) -> Button {
        Action::NextGame(id).button("Next game", ButtonStyle::Secondary)
    }
}

/// How every history button's `custom_id` starts.
const HISTORY: &str = "history-";

/// The word of [`Action::AcceptDead`].
const ACCEPT_DEAD: &str = "dead-accept";

/// A short tag naming one proposal of dead pieces at one point of a game (its turn count
/// and its text), so that an Accept button accepts the proposal it was shown with and no
/// later one. A checksum (CRC-32) keeps the `custom_id` short and is the same in every
/// build, so the button works after a restart.
#[must_use]
pub fn proposal_tag(turns: usize, proposal: &str) -> u32 {
    crc32fast::hash(format!("{turns} {proposal}").as_bytes())
}

impl Action {
    /// Whether the answer to the press is for the presser alone: his turn picker (Play and
    /// its steps, but the turn Confirm plays is public), and his next game, which is
    /// nobody else's business.
    #[must_use]
    pub fn is_private(self) -> bool {
        match self {
            Action::Play(_) | Action::NextGame(_) => true,
            Action::Pick { press, .. } => press != PickPress::Confirm,
            _ => false,
        }
    }

    /// The button that asks this.
    #[must_use]
    pub fn button(self, label: &str, style: ButtonStyle) -> Button {
        Button { custom_id: self.to_string(), label: label.to_owned(), style }
    }

    /// The word of a one-game action.
    fn word(self) -> &'static str {
        match self {
            Action::Accept(_) => "accept",
            Action::Decline(_) => "decline",
            Action::Resign(_) => "resign",
            Action::DrawAccept(_) => "draw-accept",
            Action::DrawDecline(_) => "draw-decline",
            Action::Rematch(_) => "rematch",
            Action::TakebackAccept(_) => "takeback-accept",
            Action::TakebackDecline(_) => "takeback-decline",
            Action::AcceptDead { .. } => ACCEPT_DEAD,
            Action::Resume(_) => "resume",
            Action::History { .. } => "history",
            Action::Play(_) => "play",
            Action::NextGame(_) => "next-game",
            Action::Pick { press, .. } => press.word(),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::History { step, id, turn } => write!(f, "{HISTORY}{}:{}:{turn}", step.word(), id.0),
            Action::Pick { id, version, path, .. } => {
                write!(f, "{}:{}:{version}:{}", self.word(), id.0, path.as_str())
            }
            Action::AcceptDead { id, proposal } => write!(f, "{ACCEPT_DEAD}:{}:{proposal:08x}", id.0),
            Action::Accept(id)
            | Action::Resume(id)
            | Action::Decline(id)
            | Action::Resign(id)
            | Action::DrawAccept(id)
            | Action::DrawDecline(id)
            | Action::Rematch(id)
            | Action::Play(id)
            | Action::NextGame(id)
            | Action::TakebackAccept(id)
            | Action::TakebackDecline(id) => write!(f, "{}:{}", self.word(), id.0),
        }
    }
}

/// A `custom_id` we did not make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotOurs;

impl FromStr for Action {
    type Err = NotOurs;

    fn from_str(text: &str) -> Result<Action, NotOurs> {
        let (word, rest) = text.split_once(':').ok_or(NotOurs)?;
        if let Some(step) = word.strip_prefix(HISTORY) {
            let step = Step::ALL.into_iter().find(|known| known.word() == step).ok_or(NotOurs)?;
            let (id, turn) = rest.split_once(':').ok_or(NotOurs)?;
            let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            if !digits(id) || !digits(turn) {
                return Err(NotOurs);
            }
            let id = GameId(id.parse().map_err(|_| NotOurs)?);
            return Ok(Action::History { step, id, turn: turn.parse().map_err(|_| NotOurs)? });
        }
        let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if let Some(press) = PickPress::ALL.into_iter().find(|press| press.word() == word) {
            let mut fields = rest.splitn(3, ':');
            let (id, version, path) = (fields.next().ok_or(NotOurs)?, fields.next().ok_or(NotOurs)?, fields.next());
            if !digits(id) || !digits(version) {
                return Err(NotOurs);
            }
            let id = GameId(id.parse().map_err(|_| NotOurs)?);
            let version = version.parse().map_err(|_| NotOurs)?;
            let path = PickPath::new(path.ok_or(NotOurs)?).ok_or(NotOurs)?;
            return Ok(Action::Pick { press, id, version, path });
        }
        if word == ACCEPT_DEAD {
            let (id, tag) = rest.split_once(':').ok_or(NotOurs)?;
            let digits = !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit());
            let hex = tag.len() == 8 && tag.bytes().all(|b| b.is_ascii_hexdigit());
            if !digits || !hex {
                return Err(NotOurs);
            }
            let id = GameId(id.parse().map_err(|_| NotOurs)?);
            return Ok(Action::AcceptDead { id, proposal: u32::from_str_radix(tag, 16).map_err(|_| NotOurs)? });
        }
        if !digits(rest) {
            return Err(NotOurs);
        }
        let id = GameId(rest.parse::<u32>().map_err(|_| NotOurs)?);
        let one = [
            Action::Accept,
            Action::Decline,
            Action::Resign,
            Action::DrawAccept,
            Action::DrawDecline,
            Action::Rematch,
            Action::Play,
            Action::NextGame,
            Action::TakebackAccept,
            Action::TakebackDecline,
            Action::Resume,
        ];
        one.into_iter().map(|action| action(id)).find(|action| action.word() == word).ok_or(NotOurs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_as_itself() {
        let id = GameId(12);
        let mut actions = vec![
            Action::Accept(id),
            Action::Decline(id),
            Action::Resign(id),
            Action::DrawAccept(id),
            Action::DrawDecline(id),
            Action::Rematch(id),
            Action::TakebackAccept(id),
            Action::TakebackDecline(id),
            Action::Resume(id),
            Action::AcceptDead { id, proposal: 0x00ab_cdef },
        ];
        actions.extend(Step::ALL.map(|step| Action::History { step, id, turn: 4 }));
        actions.push(Action::Play(id));
        actions.push(Action::NextGame(id));
        for path in ["", "pass", "R.e.4", "move.e2.e4.=F"] {
            let path = PickPath::new(path).unwrap();
            actions.extend(PickPress::ALL.map(|press| Action::Pick { press, id, version: 9, path }));
        }
        for action in actions {
            assert_eq!(action.to_string().parse(), Ok(action), "{action}");
        }
        assert_eq!(Action::DrawAccept(id).to_string(), "draw-accept:12");
        assert_eq!(Action::AcceptDead { id, proposal: 0xab }.to_string(), "dead-accept:12:000000ab");
        assert_eq!(Action::History { step: Step::Back, id, turn: 4 }.to_string(), "history-back:12:4");
        let path = PickPath::new("R.e").unwrap();
        assert_eq!(Action::Pick { press: PickPress::Back, id, version: 3, path }.to_string(), "pick-back:12:3:R.e");
    }

    #[test]
    fn pick_paths_grow_and_shrink_by_one_choice() {
        let path = PickPath::EMPTY.then("R").and_then(|path| path.then("e")).unwrap();
        assert_eq!((path.as_str(), path.steps()), ("R.e", vec!["R", "e"]));
        assert_eq!(path.back().as_str(), "R");
        assert_eq!(path.back().back(), PickPath::EMPTY);
        assert_eq!(PickPath::EMPTY.back(), PickPath::EMPTY);
        assert!(PickPath::EMPTY.then("a.b").is_none() && PickPath::new(&"x".repeat(49)).is_none());
        let longest = format!("pick-confirm:{}:{}:{}", u32::MAX, u64::MAX, "x".repeat(PickPath::MAX));
        assert!(longest.len() <= 100, "{}", longest.len());
    }

    #[test]
    fn ids_we_did_not_make_are_not_read() {
        let forged_ids = [
            "accept",
            "accept:x",
            "sing:12",
            "history:12:4",
            "history-up:12:4",
            "accept:12:3",
            "pick:12:3",
            "pick:12:x:R",
            "pick:12:3:R..e",
            "pick:12:3:R e",
            "play:+1",
            "dead-accept:12",
            "dead-accept:12:xyz",
            "resume:12:1",
        ];
        for forged in forged_ids {
            assert_eq!(forged.parse::<Action>(), Err(NotOurs), "{forged}");
        }
    }
}
