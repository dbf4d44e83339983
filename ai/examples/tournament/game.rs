//! One game of the arena: played to its end (or adjudicated), refereed where a referee
//! exists, and kept as a record.

use std::time::{Duration, Instant};

use stonemate_ai::knowledge;
use stonemate_engine::formats::{self, Record};
use stonemate_engine::{AnyGame, Color, EndReason, Ending, GameKind, Outcome, Turn};

use crate::fsf::fsf_referee;
use crate::gnugo::{Count, agreed_winner, gnugo_referee, our_go_result, white_margin, winner_by};
use crate::player::{Failure, Player, Random};

/// How one game went.
pub(crate) struct Played {
    /// The winner as 0 (first player of the pairing), 1 (second), or `None` for a draw.
    pub(crate) winner: Option<usize>,
    pub(crate) adjudicated: bool,
    pub(crate) forfeit: Option<String>,
    pub(crate) turns: usize,
    pub(crate) times: [Vec<Duration>; 2],
    /// The turns played, and the same in our notation.
    pub(crate) history: Vec<Turn>,
    pub(crate) texts: Vec<String>,
    /// The position at the end.
    pub(crate) end: AnyGame,
}

pub(crate) fn options(kind: GameKind) -> Vec<(String, String)> {
    match kind {
        GameKind::Go => vec![("board".into(), "9x9".into()), ("komi".into(), "6.5".into())],
        _ => Vec::new(),
    }
}

/// The random opening of a game: how many turns, drawn with which seed.
#[derive(Clone, Copy)]
pub(crate) struct Opening {
    pub(crate) turns: usize,
    pub(crate) seed: u64,
}

/// Plays one game; `first_color` is the colour of `players[0]`. The opening's turns are
/// drawn at random and count for neither player's time.
pub(crate) fn play(
    kind: GameKind,
    players: &mut [Box<dyn Player>; 2],
    first_color: Color,
    seed: u64,
    opening: Opening,
    max_turns: usize,
) -> Played {
    let start = AnyGame::new(kind, &options(kind)).expect("valid options");
    let mut game = start.clone();
    let mut history = Vec::new();
    let mut texts = Vec::new();
    let mut times = [Vec::new(), Vec::new()];
    let seat = |color: Color| usize::from(color != first_color);
    while let Some(color) = game.to_move() {
        if history.len() >= max_turns {
            let value = knowledge::evaluate(&game);
            let winner = if value > 0.6 {
                Some(seat(Color::White))
            } else if value < 0.4 {
                Some(seat(Color::Black))
            } else {
                None
            };
            let turns = history.len();
            return Played { winner, adjudicated: true, forfeit: None, turns, times, history, texts, end: game };
        }
        let who = seat(color);
        if history.len() < opening.turns {
            let drawn = Random.choose(&start, &history, &game, opening.seed.wrapping_add(history.len() as u64));
            let Ok(turn) = drawn else { break };
            texts.push(game.format_turn(turn));
            game.play(turn).expect("a legal turn applies");
            history.push(turn);
            continue;
        }
        let clock = Instant::now();
        let choice = players[who].choose(
            &start,
            &history,
            &game,
            seed.wrapping_mul(1_000_003).wrapping_add(history.len() as u64),
        );
        times[who].push(clock.elapsed());
        let turn = match choice {
            Ok(turn) => turn,
            Err(e) => return forfeit(1 - who, format!("{}: {e}", players[who].name()), history, texts, times, game),
        };
        let text = game.format_turn(turn);
        if let Err(e) = game.play(turn) {
            let reason = format!("{} played {turn}: {e}", players[who].name());
            return forfeit(1 - who, reason, history, texts, times, game);
        }
        history.push(turn);
        texts.push(text);
    }
    let winner = match game.status().ending().map(|e| e.outcome) {
        Some(Outcome::Winner(color)) => Some(seat(color)),
        _ => None,
    };
    Played { winner, adjudicated: false, forfeit: None, turns: history.len(), times, history, texts, end: game }
}

pub(crate) fn forfeit(
    winner: usize,
    reason: String,
    history: Vec<Turn>,
    texts: Vec<String>,
    times: [Vec<Duration>; 2],
    end: AnyGame,
) -> Played {
    let turns = history.len();
    Played { winner: Some(winner), adjudicated: false, forfeit: Some(reason), turns, times, history, texts, end }
}

/// What the referee said about one game, next to our own result.
pub(crate) struct Verdict {
    /// Ours and the referee's, as text (`W+3.5` and `B+2.0`; `checkmate` and `mated`).
    pub(crate) ours: String,
    pub(crate) theirs: String,
    pub(crate) agrees: bool,
    /// The winner by the referee's count, as a seat (go only): `None` for a draw.
    pub(crate) referee_winner: Option<Option<usize>>,
    /// Go only: whether our count and the referee's name the same winner (a win counts
    /// only then), GNU Go's area count (`--chinese-rules`) and its dead stones.
    pub(crate) count: Option<Count>,
    pub(crate) area: Option<String>,
    pub(crate) dead: Option<String>,
}

/// Asks the referee of this game, if it has one: GNU Go's count in go, Fairy-Stockfish's
/// view of the final position in iChess against it.
pub(crate) fn referee(
    kind: GameKind,
    pair: &(String, String),
    start: &AnyGame,
    played: &Played,
    first_color: Color,
) -> Option<Result<Verdict, Failure>> {
    let seat = |color: Color| usize::from(color != first_color);
    match kind {
        GameKind::Go => Some(gnugo_referee(start, &played.history).map(|counts| {
            let ours = our_go_result(&played.end);
            let theirs = counts.territory;
            let (a, b) = (white_margin(&ours), white_margin(&theirs));
            let referee_winner = b.map(|margin| winner_by(margin).map(seat));
            let count = Some(agreed_winner(&ours, &theirs));
            let (area, dead) = (Some(counts.area), Some(counts.dead));
            Verdict { agrees: a.is_some() && a == b, ours, theirs, referee_winner, count, area, dead }
        })),
        GameKind::IChess if pair.0.starts_with("fsf") || pair.1.starts_with("fsf") => {
            let AnyGame::IChess(end) = &played.end else { return None };
            let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/oracles/ichess.ini");
            if stonemate_engine::ichess::Bare::of(end).deploying() {
                return None;
            }
            Some(fsf_referee(ini, start, &played.history, end).map(|theirs| {
                let reason = played.end.status().ending().map(|ending| ending.reason);
                let ours = match (&played.forfeit, played.adjudicated, reason) {
                    (Some(_), _, _) => "forfeit".to_owned(),
                    (_, true, _) => "adjudicated".to_owned(),
                    (_, _, Some(reason)) => format!("{reason:?}"),
                    (_, _, None) => "unfinished".to_owned(),
                };
                let agrees = match (reason, theirs.as_str()) {
                    (Some(EndReason::Checkmate), "mated") | (Some(EndReason::NoLegalTurn), "stalemated") => true,
                    (Some(EndReason::Checkmate | EndReason::NoLegalTurn), _) => false,
                    // Repetitions, adjudications and forfeits leave moves on the board.
                    (_, "has moves") => true,
                    _ => false,
                };
                Verdict { ours, theirs, agrees, referee_winner: None, count: None, area: None, dead: None }
            }))
        }
        _ => None,
    }
}

/// Writes the game's record into `dir`: SGF for go (with the referee's count as a
/// comment), PGN for iChess, our own format for the rest.
pub(crate) fn keep_record(
    dir: &std::path::Path,
    name: &str,
    kind: GameKind,
    players: [String; 2],
    first_color: Color,
    played: &Played,
    verdict: Option<&Verdict>,
) -> Result<std::path::PathBuf, Failure> {
    // A forfeit is written as a resignation of the side that failed.
    let ending = match (&played.forfeit, played.winner) {
        (Some(_), Some(winner)) => {
            let color = if winner == 0 { first_color } else { first_color.other() };
            Some(Ending { outcome: Outcome::Winner(color), reason: EndReason::Resignation })
        }
        _ => played.end.status().ending(),
    };
    let record = Record {
        kind,
        options: played.end.option_pairs(),
        players,
        turns: played.texts.clone(),
        ending,
        date: None,
        title: Some(format!("tournament {name}")),
        site: None,
    };
    let (text, extension) = match kind {
        GameKind::Go => {
            let mut sgf = formats::sgf::write(&record).map_err(|e| e.to_string())?;
            if let Some(verdict) = verdict {
                let comment = format!(
                    "GC[our score {}; referee (GNU Go final_score) {}; area (--chinese-rules) {}; dead {}]",
                    verdict.ours,
                    verdict.theirs,
                    verdict.area.as_deref().unwrap_or("-"),
                    verdict.dead.as_deref().unwrap_or("-")
                );
                sgf = sgf.replacen("(;", &format!("(;{comment}"), 1);
            }
            (sgf, "sgf")
        }
        GameKind::IChess => (formats::pgn::write(&record).map_err(|e| e.to_string())?, "pgn"),
        _ => (formats::own::write(&record), "txt"),
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.{extension}"));
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}
