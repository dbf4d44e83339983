//! The loaded game ([`Loaded`]: the record and its replayed position) and what is drawn and
//! said about it: side names, the result, board pictures. A picture in a channel is drawn
//! the same way up for everyone, whoever asked (the side whose home is rank 1 at the
//! bottom, as on lichess), so that a channel's pictures keep one orientation from turn to
//! turn; a private reply shows the viewer's own side.

use stonemate_engine::{AnyGame, BoardView, Color, EndReason, GameKind, GameResult, HalfPoints, Square, Status};
use stonemate_render::Picture;

use super::error::Refusal;
use super::text;
use super::types::{GameId, UserId};
use crate::service::handlers::challenge::refusal::ChallengeRefusal;
use crate::store::{CalledOff, ColorChoice, GameRecord, Phase, Stored};

/// A record as a command sees it: the stored record and the position its turns lead to.
/// `Games::commit` (the service's games part) writes its next version.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The stored record, as read (its `version` is the one a write expects).
    pub record: GameRecord,
    /// The position after the record's turns (the start position for a challenge).
    pub position: AnyGame,
    /// The bytes the record was read from, which its commit has the store check (`None`: a
    /// record not read from the store, or written since: the commit reads it).
    pub stored: Option<Stored>,
}

impl Loaded {
    /// The record's id.
    #[must_use]
    pub fn id(&self) -> GameId {
        self.record.id
    }

    /// How the game calls its sides, `[white, black]`, in lower case: `white`, `black`
    /// (Chogo's second side is `green`).
    #[must_use]
    pub fn side_names(&self) -> [String; 2] {
        self.position.view().side_names.map(str::to_lowercase)
    }

    /// The name of one side, in lower case.
    #[must_use]
    pub fn side_name(&self, side: Color) -> String {
        let [white, black] = self.side_names();
        if side == Color::White { white } else { black }
    }

    /// The side to move, if the game goes on.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        self.position.to_move()
    }

    /// The player to move, if the game goes on and colours are fixed.
    #[must_use]
    pub fn mover(&self) -> Option<UserId> {
        self.to_move().and_then(|side| self.record.seats.player(side))
    }

    /// How the record came out, as players read it: `bob (black) wins by resignation`,
    /// `alice (white) wins by time (W+T)`, `bob (black) wins by 6.5 points after two
    /// passes (B+6.5)`: scored and timed results also in the go way ([`GameResult`]).
    #[must_use]
    pub fn result(&self) -> String {
        let record = &self.record;
        let Some(result) = &record.result else { return "no result".to_owned() };
        let scored = matches!(result.ending.reason, EndReason::TwoPasses | EndReason::Counted);
        let after = match result.ending.reason {
            EndReason::Counted => "counting",
            _ => "two passes",
        };
        let reason = match (result.ending.reason, &result.called_off) {
            (_, Some(CalledOff::Player(by))) => return format!("aborted by {}", text::name(by)),
            (_, Some(CalledOff::Admin(by))) => return format!("aborted by an administrator ({})", text::name(by)),
            (_, Some(CalledOff::Unstarted)) => {
                return "aborted without result: time ran out before both players had played a turn".to_owned();
            }
            _ if scored => String::new(),
            (EndReason::Resignation, None) => "resignation".to_owned(),
            (EndReason::Agreement, None) => "agreement".to_owned(),
            (EndReason::Timeout, None) => "time".to_owned(),
            (EndReason::Forfeit, None) => "forfeit".to_owned(),
            (reason, None) => reason.to_string(),
        };
        let code = self.go_result();
        match result.winner() {
            // The points decide, not the passes: say by how many.
            Some(side) if scored => match code {
                Some(code @ GameResult::Points { margin, .. }) => {
                    let unit = if margin == HalfPoints(2) { "point" } else { "points" };
                    format!("{} wins by {margin} {unit} after {after} ({code})", self.winner_name(side))
                }
                _ => format!("{} wins on points after {after}", self.winner_name(side)),
            },
            Some(side) if matches!(result.ending.reason, EndReason::Timeout | EndReason::Forfeit) => {
                let code = code.map_or_else(String::new, |code| format!(" ({code})"));
                format!("{} wins by {reason}{code}", self.winner_name(side))
            }
            Some(side) => format!("{} wins by {reason}", self.winner_name(side)),
            None if scored => format!("draw after {after}"),
            None => format!("draw ({reason})"),
        }
    }

    /// `alice (white)`: the player of `side`, named for a message.
    fn winner_name(&self, side: Color) -> String {
        let record = &self.record;
        let name = record.seats.player(side).map_or_else(|| "?".to_owned(), |user| text::name(record.name_of(user)));
        format!("{name} ({})", self.side_name(side))
    }

    /// The result written the go way (`W+6.5`, `B+R`, `W+T`), if the game is over.
    #[must_use]
    pub fn go_result(&self) -> Option<GameResult> {
        let result = self.record.result.as_ref()?;
        Some(GameResult::new(result.ending, self.position.score()))
    }

    /// ` (white 40, black 38.5)` for games that count points, else nothing.
    #[must_use]
    pub fn score(&self) -> String {
        let score = self.position.score();
        score.map_or_else(String::new, |score| format!(" (white {}, black {})", score.white, score.black))
    }

    /// The names shown for `[white, black]`; before colours are fixed, as the challenge says.
    #[must_use]
    pub fn player_names(&self) -> [String; 2] {
        let record = &self.record;
        if let Some([white, black]) = record.seats.by_color() {
            return [record.name_of(white).to_owned(), record.name_of(black).to_owned()];
        }
        let [challenger, opponent] = [&record.seats.challenger, &record.seats.opponent].map(|seat| seat.name.clone());
        match record.seats.color {
            ColorChoice::White => [challenger, opponent],
            ColorChoice::Black => [opponent, challenger],
            ColorChoice::Random => {
                let both = format!("{challenger} or {opponent}");
                [both.clone(), both]
            }
        }
    }

    /// `alice (white) vs bob (black)` once colours are fixed, else the challenge's two
    /// names; for messages, so the names are escaped.
    #[must_use]
    pub fn sides(&self) -> String {
        let [white, black] = self.player_names().map(|name| text::name(&name));
        let [white_side, black_side] = self.side_names();
        match self.record.seats.by_color() {
            Some(_) => format!("{white} ({white_side}) vs {black} ({black_side})"),
            None => format!(
                "{} vs {}",
                text::name(&self.record.seats.challenger.name),
                text::name(&self.record.seats.opponent.name)
            ),
        }
    }

    /// The side drawn at the bottom: in a private reply to `viewer`, his own (the public
    /// orientation for onlookers); in public (`None`), the game's one orientation. A go
    /// board is never turned, as go programs and the public `/board` never turn it: its
    /// points are read by their coordinates, the same for both players.
    #[must_use]
    pub fn perspective(&self, viewer: Option<UserId>) -> Color {
        let public = self.position.view().first_rank_side;
        if self.record.kind == GameKind::Go {
            return public;
        }
        viewer.and_then(|viewer| self.record.seats.side_of(viewer)).unwrap_or(public)
    }

    /// The picture of the position for `viewer` (`None`: in public), marking `highlights`.
    #[must_use]
    pub fn picture(&self, viewer: Option<UserId>, highlights: Vec<Square>) -> Picture {
        self.picture_of(&self.position, viewer, highlights)
    }

    /// The picture of `position`, one of this game's, for `viewer`.
    pub fn picture_of(&self, position: &AnyGame, viewer: Option<UserId>, highlights: Vec<Square>) -> Picture {
        Picture {
            view: self.with_result(position.view()),
            title: format!("{} {}", self.record.id, position.kind().title()),
            players: self.player_names(),
            perspective: self.perspective(viewer),
            highlights,
            arrows: Vec::new(),
            marked: Vec::new(),
        }
    }

    /// The view of the record's last position shows how the game ended, also when the
    /// board alone cannot tell (a resignation, a claimed time win, an agreed draw, an
    /// abort): the engine knows only the endings its rules make.
    fn with_result(&self, mut view: BoardView) -> BoardView {
        let last = usize::try_from(view.turns_played).is_ok_and(|played| played == self.record.turns.len());
        if let (true, Status::Ongoing { .. }, Some(result)) = (last, view.status, &self.record.result) {
            if !result.by_rules() {
                view.status = Status::Finished(result.ending);
            }
        }
        view
    }

    /// Refuses callers who cannot act in this game now; returns the caller's side.
    pub fn check_playing(&self, user: UserId) -> Result<Color, Refusal> {
        let record = &self.record;
        if !record.seats.involves(user) {
            return Err(Refusal::NotYourGame(record.id));
        }
        let state = match record.phase {
            // A game being played has its colours fixed, so a player has a side.
            Phase::Playing => return record.seats.side_of(user).ok_or(Refusal::NotYourGame(record.id)),
            Phase::Challenge => return Err(ChallengeRefusal::NotStarted(record.id).into()),
            Phase::Finished => return Err(Refusal::GameOver { id: record.id, result: self.result() }),
            Phase::Declined => "was declined",
            Phase::Withdrawn => "was withdrawn",
            Phase::Expired => "expired",
        };
        Err(ChallengeRefusal::NotPending { id: record.id, state }.into())
    }
    /// The side waiting for the opponent's turn; a game that is over is refused.
    pub fn waiting(&self) -> Result<Color, Refusal> {
        let to_move = self.to_move().ok_or_else(|| Refusal::GameOver { id: self.id(), result: self.result() })?;
        Ok(to_move.other())
    }
    /// Every position of the game from the start, in the game's public orientation: the
    /// frames of the animated replay.
    pub fn replay_pictures(&self) -> Vec<Picture> {
        let record = &self.record;
        let positions = stonemate_engine::replay::positions(record.kind, &record.options, &record.turns);
        let positions = positions.map(|(positions, _)| positions).unwrap_or_default();
        positions.iter().map(|position| self.picture_of(position, None, Vec::new())).collect()
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::clock::Timestamp;
    use crate::service::GameId;
    use crate::store::sample::sample_record;

    const ALICE: UserId = UserId(1);
    const BOB: UserId = UserId(2);
    const ONLOOKER: UserId = UserId(3);

    /// A game of `kind` between Alice (White) and Bob (Black).
    fn record(kind: GameKind) -> Loaded {
        let position = AnyGame::new(kind, &[]).expect("default options");
        let mut record = GameRecord {
            id: GameId(1),
            version: 1,
            days: 0,
            clock: None,
            ..sample_record(kind, &[], [ALICE, BOB], Timestamp(0))
        };
        record.seats.challenger.name = "alice".to_owned();
        record.seats.opponent.name = "bob".to_owned();
        record.origin.guild = None;
        Loaded { record, position, stored: None }
    }

    #[test]
    fn public_pictures_keep_one_orientation_whoever_asks() {
        for (kind, bottom) in [(GameKind::IChess, Color::White), (GameKind::Gess, Color::Black)] {
            let game = record(kind);
            assert_eq!(game.perspective(None), bottom, "{kind:?}");
            assert_eq!(game.picture(None, Vec::new()).perspective, bottom, "{kind:?}");
        }
    }

    #[test]
    fn private_go_pictures_are_never_turned() {
        let game = record(GameKind::Go);
        let public = game.perspective(None);
        assert_eq!([game.perspective(Some(ALICE)), game.perspective(Some(BOB))], [public; 2]);
    }

    #[test]
    fn private_pictures_show_the_viewers_side() {
        let game = record(GameKind::IChess);
        assert_eq!(game.perspective(Some(BOB)), Color::Black);
        assert_eq!(game.perspective(Some(ALICE)), Color::White);
        assert_eq!(game.perspective(Some(ONLOOKER)), Color::White, "onlookers see the public side");
    }
}
