//! What the bot answers when the game asks it something: its turn (or resigning), or a
//! draw offer. One search ([`search`]) and the thresholds of [`verdict`](crate::verdict)
//! decide both, so the bot in a game and `stonemate suggest` agree.

use stonemate_engine::{AnyGame, Color, Turn};

use crate::search::{KeptTree, Method, Proof, SearchConfig, SearchResult, search, search_reusing};
use crate::verdict::{accepts_draw, resigns};

/// What the bot is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Question {
    /// The bot is to move: its turn, or resigning.
    Turn,
    /// The opponent offers a draw; `bot` is the bot's colour (it need not be to move).
    DrawOffer {
        /// The colour the bot plays in the game.
        bot: Color,
    },
    /// The game is counting dead pieces (go, rule 10): the bot's judgement of them is
    /// asked of [`judge_dead`](crate::judge_dead), not of a search; `bot` is the bot's
    /// colour.
    Counting {
        /// The colour the bot plays in the game.
        bot: Color,
    },
}

/// The bot's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Play this turn (the answer to [`Question::Turn`]).
    Play(Turn),
    /// Give the game up (to [`Question::Turn`], when the position is hopeless).
    Resign,
    /// Take the draw offered ([`Question::DrawOffer`]).
    AcceptDraw,
    /// Refuse the draw offered and play on ([`Question::DrawOffer`]).
    DeclineDraw,
}

/// The bot's answer and the search it came from (the value is the side to move's, as
/// searched).
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// The answer to the question.
    pub decision: Decision,
    /// The search the answer rests on: its best turn, value and statistics.
    pub result: SearchResult,
}

/// Searches the position and answers `question`; `None` when the game is over, and for
/// [`Question::Counting`], which no search answers.
///
/// A turn is resigned only when [`resigns`] says the position is hopeless; a draw is
/// accepted only when [`accepts_draw`] finds it even or worse *for the bot*, whichever
/// side is to move.
#[must_use]
pub fn decide(game: &AnyGame, question: Question, config: &SearchConfig) -> Option<Decided> {
    if matches!(question, Question::Counting { .. }) {
        return None;
    }
    answer(game, question, search(game, config)?)
}

/// [`decide`] with the search's tree kept between the bot's turns ([`search_reusing`] with
/// [`Method::Current`]): `kept` is the tree of an earlier search in the same game and
/// `since` the turns played from that search's position to `game`. Returns the answer and
/// the tree to pass on; `None` (and no tree) when `decide` would answer `None`.
///
/// Without a tree it answers as `decide` does; with one, as the same history of searches
/// does (a seed alone no longer says which).
#[must_use]
pub fn decide_reusing(
    game: &AnyGame,
    question: Question,
    config: &SearchConfig,
    kept: Option<KeptTree>,
    since: &[Turn],
) -> Option<(Decided, Option<KeptTree>)> {
    if matches!(question, Question::Counting { .. }) {
        return None;
    }
    let (result, kept) = search_reusing(game, config, Method::Current, kept, since)?;
    Some((answer(game, question, result)?, kept))
}

/// The answer to `question` that a search's result gives.
fn answer(game: &AnyGame, question: Question, result: SearchResult) -> Option<Decided> {
    let decision = match question {
        Question::Turn if resigns(&result) => Decision::Resign,
        Question::Turn => Decision::Play(result.turn),
        Question::DrawOffer { bot } => {
            let for_bot = if game.to_move() == Some(bot) { result.clone() } else { seen_by_other_side(&result) };
            if accepts_draw(&for_bot) { Decision::AcceptDraw } else { Decision::DeclineDraw }
        }
        Question::Counting { .. } => return None,
    };
    Some(Decided { decision, result })
}

/// The search's verdict from the side not to move: the complement of the value, the
/// proof reversed.
fn seen_by_other_side(result: &SearchResult) -> SearchResult {
    let proven = result.proven.map(|proof| match proof {
        Proof::Win => Proof::Loss,
        Proof::Draw => Proof::Draw,
        Proof::Loss => Proof::Win,
    });
    SearchResult { value: 1.0 - result.value, proven, ..result.clone() }
}

#[cfg(test)]
mod tests {
    use stonemate_engine::ichess::IChess;

    use super::*;
    use crate::search::Budget;

    fn config(nodes: u64) -> SearchConfig {
        SearchConfig { budget: Budget::nodes(nodes), seed: 3, threads: 1 }
    }

    /// White: Kb6, Qg1 against Black's lone Ka8; White mates in one.
    fn white_mates() -> AnyGame {
        AnyGame::IChess(IChess::from_fen("k7/8/1K6/8/8/8/8/6Q1[] w").expect("a legal set-up"))
    }

    #[test]
    fn the_winning_side_declines_a_draw_and_the_losing_side_accepts_it_whoever_is_to_move() {
        let game = white_mates();
        let asked = |bot| decide(&game, Question::DrawOffer { bot }, &config(2_000)).expect("ongoing").decision;
        assert_eq!(asked(Color::White), Decision::DeclineDraw);
        assert_eq!(asked(Color::Black), Decision::AcceptDraw);
    }

    #[test]
    fn a_won_position_is_played_not_resigned() {
        let decided = decide(&white_mates(), Question::Turn, &config(2_000)).expect("ongoing");
        assert_eq!(decided.decision, Decision::Play(decided.result.turn));
    }

    #[test]
    fn a_proven_loss_is_resigned() {
        // Black to move: Ka8's only turn is Kb8 (Kb6 covers a7 and b7), and Qg8 mates.
        let game = AnyGame::IChess(IChess::from_fen("k7/8/1K6/8/8/8/8/6Q1[] b").expect("a legal set-up"));
        let decided = decide(&game, Question::Turn, &config(5_000)).expect("ongoing");
        assert_eq!(decided.result.proven, Some(Proof::Loss), "{decided:?}");
        assert_eq!(decided.decision, Decision::Resign);
    }

    #[test]
    fn a_finished_game_asks_nothing() {
        let mut game = AnyGame::new(stonemate_engine::GameKind::Go, &[]).expect("default options");
        game.play_text("pass").unwrap();
        game.play_text("pass").unwrap();
        assert_eq!(decide(&game, Question::Turn, &config(10)), None);
    }
}
