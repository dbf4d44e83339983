//! Who plays a record ([`Seats`]): the two seats in one order, the challenger's and the
//! opponent's, each held once with the user's shown name, and what fixes their colours.
//! Every question by colour ([`Seats::player`], [`Seats::side_of`]) is answered from the
//! challenger's side, so the players cannot be held in two orders that disagree.

use serde::{Deserialize, Serialize};
use stonemate_ai::Level;
use stonemate_engine::Color;

use crate::ids::UserId;

/// The opponent of an open challenge until someone accepts it (Discord numbers nobody 0).
/// The player index lists a server's open challenges under this user.
pub const NOBODY: UserId = UserId(0);

/// The colour the challenger asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White for the challenger.
    White,
    /// Black for the challenger.
    Black,
    /// A side drawn by lot when the challenge is accepted.
    Random,
}

impl ColorChoice {
    /// Every choice, in the order Discord offers them.
    pub const ALL: [ColorChoice; 3] = [ColorChoice::White, ColorChoice::Black, ColorChoice::Random];

    /// The choice as users type it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

/// One player's seat: the user, and the name he was last seen with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Seat {
    /// The user ([`NOBODY`] in the opponent's seat of an open challenge).
    pub user: UserId,
    /// His shown name, the latest seen.
    pub name: String,
}

impl Seat {
    /// `user`'s seat, shown as `name`.
    #[must_use]
    pub fn new(user: UserId, name: String) -> Seat {
        Seat { user, name }
    }
}

/// The two players of a record in challenge order, and what fixes their colours: the
/// colour the challenger asked for, then, once the challenge is accepted, the side he
/// plays (the opponent plays the other).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Seats {
    /// The user who made the challenge.
    pub challenger: Seat,
    /// The user it is addressed to; [`NOBODY`] while an open challenge waits.
    pub opponent: Seat,
    /// The colour the challenger asked for.
    pub color: ColorChoice,
    /// The side the challenger plays, fixed when the challenge is accepted (`None`
    /// before).
    pub challenger_side: Option<Color>,
    /// The level of Stonemate's own player when it holds the opponent's seat; `None` in a
    /// game between two people. It marks the games against the bot, so that ratings can
    /// leave them out.
    pub bot: Option<Level>,
}

impl Seats {
    /// A challenge from `challenger` to `opponent`, who asked for `color`: no side fixed
    /// yet, between two people.
    #[must_use]
    pub fn new(challenger: Seat, opponent: Seat, color: ColorChoice) -> Seats {
        Seats { challenger, opponent, color, challenger_side: None, bot: None }
    }

    /// Fixes the sides: the challenger plays `challenger_side`, the opponent the other.
    pub fn fix_sides(&mut self, challenger_side: Color) {
        self.challenger_side = Some(challenger_side);
    }

    /// The user playing `side`, once the sides are fixed.
    #[must_use]
    pub fn player(&self, side: Color) -> Option<UserId> {
        let challenger = self.challenger_side?;
        Some(if side == challenger { self.challenger.user } else { self.opponent.user })
    }

    /// `[white, black]`, once the sides are fixed.
    #[must_use]
    pub fn by_color(&self) -> Option<[UserId; 2]> {
        Some([self.player(Color::White)?, self.player(Color::Black)?])
    }

    /// The side `user` plays, if he plays.
    #[must_use]
    pub fn side_of(&self, user: UserId) -> Option<Color> {
        let challenger = self.challenger_side?;
        if user == self.challenger.user {
            Some(challenger)
        } else if user == self.opponent.user {
            Some(challenger.other())
        } else {
            None
        }
    }

    /// The seat of `user` (one of the two; the opponent's for anyone else).
    #[must_use]
    pub fn seat_of(&self, user: UserId) -> &Seat {
        if user == self.challenger.user { &self.challenger } else { &self.opponent }
    }

    /// Whether `user` is the challenger or the opponent.
    #[must_use]
    pub fn involves(&self, user: UserId) -> bool {
        user == self.challenger.user || user == self.opponent.user
    }

    /// The other one of the two.
    #[must_use]
    pub fn other(&self, user: UserId) -> UserId {
        if user == self.challenger.user { self.opponent.user } else { self.challenger.user }
    }

    /// Whether the opponent's seat waits for anyone to take it (an open challenge).
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.opponent.user == NOBODY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seats() -> Seats {
        let seat = |id, name: &str| Seat::new(UserId(id), name.to_owned());
        Seats::new(seat(11, "alice"), seat(12, "bob"), ColorChoice::Random)
    }

    #[test]
    fn colours_follow_the_challengers_side_once_it_is_fixed() {
        let mut seats = seats();
        assert_eq!((seats.by_color(), seats.side_of(UserId(11))), (None, None));
        seats.fix_sides(Color::Black);
        assert_eq!(seats.by_color(), Some([UserId(12), UserId(11)]));
        assert_eq!((seats.side_of(UserId(11)), seats.side_of(UserId(12))), (Some(Color::Black), Some(Color::White)));
        assert_eq!((seats.player(Color::White), seats.side_of(UserId(13))), (Some(UserId(12)), None));
    }

    #[test]
    fn each_seat_is_found_by_its_user() {
        let seats = seats();
        assert_eq!((seats.seat_of(UserId(12)).name.as_str(), seats.other(UserId(12))), ("bob", UserId(11)));
        assert!(seats.involves(UserId(11)) && !seats.involves(UserId(13)) && !seats.is_open());
    }
}
