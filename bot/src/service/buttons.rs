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
    /// `dead-accept:7:1a2b3c4d`: accepts the proposal of dead pieces in the counting phase
    /// (go, rule 10) that the button was shown with, named by [`proposal_tag`].
    AcceptDead {
        /// The game.
        game: GameId,
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
        game: GameId,
        /// The turn count of the board to show.
        turn: usize,
    },
}

impl Button {
    /// The Rematch button of a finished game: the press names the game, so it works after
    /// a restart.
    #[must_use]
    pub fn rematch(game: GameId) -> Button {
        Action::Rematch(game).button("Rematch", ButtonStyle::Primary)
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
            Action::AcceptDead { .. } => ACCEPT_DEAD,
            Action::Resume(_) => "resume",
            Action::History { .. } => "history",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::History { step, game, turn } => write!(f, "{HISTORY}{}:{}:{turn}", step.word(), game.0),
            Action::AcceptDead { game, proposal } => write!(f, "{ACCEPT_DEAD}:{}:{proposal:08x}", game.0),
            Action::Accept(game)
            | Action::Resume(game)
            | Action::Decline(game)
            | Action::Resign(game)
            | Action::DrawAccept(game)
            | Action::DrawDecline(game)
            | Action::Rematch(game) => write!(f, "{}:{}", self.word(), game.0),
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
            let (game, turn) = rest.split_once(':').ok_or(NotOurs)?;
            let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            if !digits(game) || !digits(turn) {
                return Err(NotOurs);
            }
            let game = GameId(game.parse().map_err(|_| NotOurs)?);
            return Ok(Action::History { step, game, turn: turn.parse().map_err(|_| NotOurs)? });
        }
        if word == ACCEPT_DEAD {
            let (game, tag) = rest.split_once(':').ok_or(NotOurs)?;
            let digits = !game.is_empty() && game.bytes().all(|b| b.is_ascii_digit());
            let hex = tag.len() == 8 && tag.bytes().all(|b| b.is_ascii_hexdigit());
            if !digits || !hex {
                return Err(NotOurs);
            }
            let game = GameId(game.parse().map_err(|_| NotOurs)?);
            return Ok(Action::AcceptDead { game, proposal: u32::from_str_radix(tag, 16).map_err(|_| NotOurs)? });
        }
        let game = GameId(rest.parse::<u32>().map_err(|_| NotOurs)?);
        let one = [
            Action::Accept,
            Action::Decline,
            Action::Resign,
            Action::DrawAccept,
            Action::DrawDecline,
            Action::Rematch,
            Action::Resume,
        ];
        one.into_iter().map(|action| action(game)).find(|action| action.word() == word).ok_or(NotOurs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_as_itself() {
        let game = GameId(12);
        let mut actions = vec![
            Action::Accept(game),
            Action::Decline(game),
            Action::Resign(game),
            Action::DrawAccept(game),
            Action::DrawDecline(game),
            Action::Rematch(game),
            Action::Resume(game),
            Action::AcceptDead { game, proposal: 0x00ab_cdef },
        ];
        actions.extend(Step::ALL.map(|step| Action::History { step, game, turn: 4 }));
        for action in actions {
            assert_eq!(action.to_string().parse(), Ok(action), "{action}");
        }
        assert_eq!(Action::DrawAccept(game).to_string(), "draw-accept:12");
        assert_eq!(Action::AcceptDead { game, proposal: 0xab }.to_string(), "dead-accept:12:000000ab");
        assert_eq!(Action::History { step: Step::Back, game, turn: 4 }.to_string(), "history-back:12:4");
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
            "dead-accept:12",
            "dead-accept:12:xyz",
            "resume:12:1",
        ];
        for forged in forged_ids {
            assert_eq!(forged.parse::<Action>(), Err(NotOurs), "{forged}");
        }
    }
}
