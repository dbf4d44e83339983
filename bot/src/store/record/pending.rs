//! What waits between the two players of a game ([`Pending`]): a draw offer, a takeback
//! request, a counting proposal, conditional lines. One rule says what a turn does to all
//! of it ([`Pending::after_turn`]) and one what the end of the game does
//! ([`Pending::finished`]), so that a feature adding something pending adds it here, with
//! its rule, instead of to every handler that plays or ends a game.

use serde::{Deserialize, Serialize};
use stonemate_engine::Color;

use super::names::color_name;
use crate::ids::UserId;

/// What waits between the players: offers, requests and proposals standing, and the
/// conditional lines stored. Empty ([`Pending::default`]) in a new game and once it is
/// over.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Pending {
    /// The side that offered a draw, while the offer stands.
    pub draw_offer: Option<Color>,
    /// When each side last offered a draw: he offers again only once his opponent has
    /// played two turns since (the one rule for requests).
    pub draw_offered_at: Asked,
    /// A player's request to take back his last turn, waiting for the opponent's answer
    /// (`/takeback`).
    pub takeback: Option<Takeback>,
    /// When each side last asked for a takeback (forgotten once one is granted): he asks
    /// again only once his opponent has played two turns since, as for draw offers.
    pub takeback_asked_at: Asked,
    /// The counting phase of go's rule 10 while it waits for an agreement: the standing
    /// proposal. `None` otherwise, also once a player resumed play (the engine still counts
    /// until the first turn of resumed play).
    pub counting: Option<Counting>,
    /// The conditional lines the players stored (`/conditional`), oldest first; only their
    /// owners see them.
    pub conditionals: Vec<Conditional>,
}

impl Pending {
    /// What a turn does to what is pending. `played`: the sides that played in it (the
    /// mover, and the waiting player whose conditional line answered at once); `lines`:
    /// the conditional lines still waiting once the turn was followed; `counting`: the
    /// proposal the new position opens (go's rule 10, after the passes), if any.
    ///
    /// Playing on answers the opponent's draw offer with a no (a side's own offer stands);
    /// a takeback request lapses (it asked for the position before this turn); a standing
    /// counting proposal gives way to what the position opens.
    pub fn after_turn(&mut self, played: &[Color], lines: Vec<Conditional>, counting: Option<Counting>) {
        if self.draw_offer.is_some_and(|side| played.contains(&side.other())) {
            self.draw_offer = None;
        }
        self.takeback = None;
        self.conditionals = lines;
        self.counting = counting;
    }

    /// What the end of a game does: nothing stays pending, nor is anything offered again.
    pub fn finished(&mut self) {
        *self = Pending::default();
    }
}

/// When each side (`[white, black]`) last made one kind of request of his opponent: the
/// number of turns recorded then. A side asks again only once his opponent has played
/// enough turns since, so that a request turned down is not repeated at every moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Asked(pub [Option<u32>; 2]);

impl Asked {
    /// When `side` last asked: the number of turns recorded then.
    #[must_use]
    pub fn of(self, side: Color) -> Option<u32> {
        self.0[Asked::slot(side)]
    }

    /// `side` asks now, with `turns` turns recorded.
    pub fn ask(&mut self, side: Color, turns: usize) {
        self.0[Asked::slot(side)] = Some(u32::try_from(turns).unwrap_or(u32::MAX));
    }

    /// Forgets `side`'s last request: it was granted, so it limits nothing.
    pub fn forget(&mut self, side: Color) {
        self.0[Asked::slot(side)] = None;
    }

    /// Whether neither side asked (the field is then left out of the stored record).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }

    fn slot(side: Color) -> usize {
        usize::from(side == Color::Black)
    }
}

/// A request to take back a turn: who asked, and when (the number of turns then played; a
/// turn played after it makes it stale).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Takeback {
    /// The player who asked.
    pub by: UserId,
    /// How many turns had been played when he asked.
    pub turns: usize,
}

/// A proposal of dead pieces in the counting phase (go, rule 10).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counting {
    /// The proposed dead pieces as the record's agreement writes them: `dead c3 d4`, or
    /// `dead -` for none.
    pub proposal: String,
    /// The side that stands behind it (who proposed it, or accepted the engine's); `None`
    /// while it is the engine's estimate that opened counting, which nobody accepted yet.
    /// The proposal stands once the other side accepts it too.
    #[serde(with = "color_name")]
    pub by: Option<Color>,
    /// The proposal a player stood behind that this one replaced, if any: the bot resumes
    /// play rather than propose again what was just turned down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
}

/// A conditional line (`/conditional`): turns a player expects and his answers to them,
/// `THEIRS MINE THEIRS MINE ...`, played the moment the expected turn comes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conditional {
    /// The player who stored it.
    pub owner: UserId,
    /// The turns still to come, as the game prints them: the opponent's expected turn
    /// first, then the answer, and so on.
    pub turns: Vec<String>,
    /// The number of turns in the record when its first turn is expected: a line waits
    /// for that turn only, so anything that changes the record otherwise (a takeback)
    /// leaves it behind.
    pub at: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(owner: u64) -> Conditional {
        Conditional { owner: UserId(owner), turns: vec!["R@e5".to_owned(), "R@d4".to_owned()], at: 2 }
    }

    fn proposal() -> Counting {
        Counting { proposal: "dead -".to_owned(), by: None, replaced: None }
    }

    fn standing(draw_offer: Color) -> Pending {
        Pending {
            draw_offer: Some(draw_offer),
            draw_offered_at: Asked([Some(3), None]),
            takeback: Some(Takeback { by: UserId(11), turns: 4 }),
            takeback_asked_at: Asked([None, Some(4)]),
            counting: Some(proposal()),
            conditionals: vec![line(11), line(12)],
        }
    }

    #[test]
    fn a_turn_answers_the_opponents_draw_offer_and_keeps_the_movers_own() {
        let mut pending = standing(Color::Black);
        pending.after_turn(&[Color::White], Vec::new(), None);
        assert_eq!(pending.draw_offer, None, "white played on: black's offer is declined");
        let mut pending = standing(Color::White);
        pending.after_turn(&[Color::White], Vec::new(), None);
        assert_eq!(pending.draw_offer, Some(Color::White));
        // A conditional answer in the same write plays on for the other side too.
        pending.after_turn(&[Color::Black, Color::White], Vec::new(), None);
        assert_eq!(pending.draw_offer, None);
    }

    #[test]
    fn a_turn_lets_a_takeback_lapse_and_replaces_lines_and_proposal() {
        let mut pending = standing(Color::White);
        pending.after_turn(&[Color::White], vec![line(12)], None);
        assert_eq!((pending.takeback, pending.counting.as_ref()), (None, None));
        assert_eq!(pending.conditionals, [line(12)]);
        assert_eq!(pending.draw_offered_at, Asked([Some(3), None]), "when each side last offered is kept");
        assert_eq!(pending.takeback_asked_at, Asked([None, Some(4)]), "and when each last asked for a takeback");
        pending.after_turn(&[Color::Black], Vec::new(), Some(proposal()));
        assert_eq!(pending.counting, Some(proposal()));
    }

    #[test]
    fn nothing_stays_pending_in_a_finished_game() {
        let mut pending = standing(Color::Black);
        pending.finished();
        assert_eq!(pending, Pending::default());
    }
}
