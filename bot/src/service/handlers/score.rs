//! `/score`: privately, an estimate of a go or Chego game's result as the position stands.
//! In go, the dead pieces are guessed by the estimate the counting phase opens with
//! ([`stonemate_ai::counting::estimate_dead`], on a copy of the game as counting would find
//! it if both passed now), crossed out on the board, and the board is counted without
//! them; in Chego, which removes no dead pieces, the board is counted as it stands (rule 8).
//! The territory is marked on the picture; the score is written in the go form (`B+4.5`).
//! Refused where the game's options say `analysis=off`, and in tournament games.

pub(crate) mod refusal;

use stonemate_engine::go::DeadPieces;
use stonemate_engine::{Analysis, AnyGame, EndReason, Ending, GameResult, Score};

use crate::service::error::{Failure, Refusal};
use crate::service::games::Fit;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::types::{Caller, GameId, Reply, Response};
use crate::store::Phase;
use refusal::ScoreRefusal;

/// What an estimate found: the position counted (the dead pieces removed), the dead
/// pieces, and the score.
struct Estimate {
    counted: AnyGame,
    dead: DeadPieces,
    score: Score,
}

/// `/score`: the estimate of `id` (default: the caller's game here), privately.
pub(crate) fn score(parts: &Parts, caller: &Caller, id: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open(caller, id, Fit::Any)?;
    allowed(&game)?;
    let estimate = estimate(&game.position).ok_or(ScoreRefusal::NotScored { id: game.id(), kind: game.record.kind })?;
    let message = described(&game, &estimate);
    let marked = estimate.dead.squares().collect();
    let images = vec![parts.pictures.estimate_board(&game, &estimate.counted, Some(caller.user.id), marked)];
    let reply = Reply { ok: true, message: message.into(), images, about: Some(game.id()), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// Refuses a game an estimate may not be given in: one that is over, one not scored by
/// points, one whose options say `analysis=off`, a tournament game.
fn allowed(game: &Loaded) -> Result<(), Failure> {
    let id = game.id();
    if game.record.phase == Phase::Finished {
        return Err(Refusal::GameOver { id, result: game.result() }.into());
    }
    if game.position.score().is_none() {
        return Err(ScoreRefusal::NotScored { id, kind: game.record.kind }.into());
    }
    if game.position.analysis() == Analysis::Off {
        return Err(ScoreRefusal::AnalysisOff(id).into());
    }
    if game.record.origin.tournament.is_some() {
        return Err(ScoreRefusal::Tournament(id).into());
    }
    Ok(())
}

/// The estimate of `position`: go counted without the pieces the counting phase would
/// propose as dead; Chego as it stands. `None` for the other games.
fn estimate(position: &AnyGame) -> Option<Estimate> {
    match position {
        AnyGame::Go(go) => {
            let counting = AnyGame::Go(go.counting_now());
            let dead = stonemate_ai::counting::estimate_dead(&counting)?;
            let mut counted = counting;
            counted.play_text(&dead.to_string()).ok()?;
            let score = counted.score()?;
            Some(Estimate { counted, dead, score })
        }
        AnyGame::Chego(_) => {
            Some(Estimate { counted: position.clone(), dead: DeadPieces::NONE, score: position.score()? })
        }
        _ => None,
    }
}

/// `B+4.5`: the score in the go form (`0` for equal points).
fn go_form(score: Score) -> String {
    GameResult::new(Ending { outcome: score.outcome(), reason: EndReason::Counted }, Some(score)).to_string()
}

/// The reply's text: the score, each side's points, and what the board marks.
fn described(game: &Loaded, estimate: &Estimate) -> String {
    let Estimate { dead, score, .. } = estimate;
    let [white, black] = game.side_names();
    let points = format!("{white} {}, {black} {}", score.white, score.black);
    let dead = match (&game.position, dead.is_empty()) {
        (AnyGame::Go(_), true) => " No piece looks dead.".to_owned(),
        (AnyGame::Go(_), false) => {
            let squares: Vec<String> = dead.squares().map(|square| square.to_string()).collect();
            format!(" Dead: {} (crossed out on the board).", squares.join(" "))
        }
        _ => String::new(),
    };
    format!(
        "Estimate of {} as the position stands: {} ({points}).{dead} The territory is marked on the board. \
         Only you see this; it is not a result.",
        game.id(),
        go_form(*score)
    )
}
