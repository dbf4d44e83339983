//! Fairy-Stockfish over UCI: an opponent in iChess's play phase (our bot deploys for
//! it), and the referee that looks at how an iChess game against it ended.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use stonemate_engine::ichess::IChess;
use stonemate_engine::{AnyGame, Role, Turn};

use crate::bot::Bot;
use crate::player::{Failure, Player};

/// Fairy-Stockfish for iChess's play phase; our bot deploys for it.
pub(crate) struct Fsf {
    pub(crate) nodes: u64,
    pub(crate) deployer: Bot,
    pub(crate) ini: String,
}

pub(crate) fn uci(turn: Turn) -> Result<String, Failure> {
    match turn {
        Turn::Drop { role, to } => Ok(format!("{}@{to}", role.letter())),
        Turn::Move { from, to, promotion } => Ok(format!("{from}{to}{}", if promotion.is_some() { "+" } else { "" })),
        other => Err(format!("not an iChess turn: {other}")),
    }
}

pub(crate) fn from_uci(text: &str, game: &AnyGame) -> Result<Turn, Failure> {
    let bad = || format!("cannot read Fairy-Stockfish's move {text}");
    let turn = if let Some((role, to)) = text.split_once('@') {
        let role = role.chars().next().and_then(|c| Role::from_letter(c.to_ascii_uppercase())).ok_or_else(bad)?;
        Turn::Drop { role, to: to.parse().map_err(|_| bad())? }
    } else {
        let promotion = text.ends_with('+').then_some(Role::Ferz);
        let squares = text.trim_end_matches('+');
        let (from, to) = squares.split_at(2.min(squares.len()));
        Turn::Move { from: from.parse().map_err(|_| bad())?, to: to.parse().map_err(|_| bad())?, promotion }
    };
    // A forced promotion on the last rank may come without its mark.
    if let Turn::Move { from, to, promotion: None } = turn
        && game.clone().play(turn).is_err()
    {
        return Ok(Turn::Move { from, to, promotion: Some(Role::Ferz) });
    }
    Ok(turn)
}

/// The UCI `position` command for the play phase of an iChess game: the position after
/// the deployment, then the moves since.
pub(crate) fn fsf_position(start: &AnyGame, history: &[Turn], now: &IChess) -> Result<String, Failure> {
    let mut replay = start.clone();
    let mut play_start = None;
    let mut moves = Vec::new();
    for &turn in history {
        if let (None, AnyGame::IChess(position)) = (&play_start, &replay)
            && !stonemate_engine::ichess::Bare::of(position).deploying()
        {
            play_start = Some(position.fen());
        }
        if play_start.is_some() {
            moves.push(uci(turn)?);
        }
        replay.play(turn).map_err(|e| e.to_string())?;
    }
    let fen = play_start.unwrap_or_else(|| now.fen());
    let (placement, side) = fen.split_once(' ').ok_or("fen")?;
    let placement = placement.replace('F', "+P").replace('f', "+p");
    Ok(format!("position fen {placement} {side} - - 0 1 moves {}", moves.join(" ")))
}

/// Runs one `go` command of a fresh Fairy-Stockfish in the iChess variant: its output lines
/// up to `bestmove`, and the best move.
pub(crate) fn fsf_ask(ini: &str, position: &str, go: &str) -> Result<(Vec<String>, Option<String>), Failure> {
    let script =
        format!("setoption name VariantPath value {ini}\nsetoption name UCI_Variant value ichess\n{position}\n{go}\n");
    let binary = if std::path::Path::new("/usr/games/fairy-stockfish").exists() {
        "/usr/games/fairy-stockfish"
    } else {
        "fairy-stockfish"
    };
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("fairy-stockfish: {e} (apt-get install fairy-stockfish)"))?;
    let mut stdin = child.stdin.take().ok_or("fsf stdin")?;
    stdin.write_all(script.as_bytes()).map_err(|e| e.to_string())?;
    let stdout = BufReader::new(child.stdout.take().ok_or("fsf stdout")?);
    let mut lines = Vec::new();
    let mut best = None;
    for line in stdout.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(rest) = line.strip_prefix("bestmove ") {
            best = rest.split_whitespace().next().map(str::to_owned);
            break;
        }
        lines.push(line);
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    Ok((lines, best))
}

/// Fairy-Stockfish's word on the final position of an iChess game: `mated`, `stalemated`
/// or `has moves`.
pub(crate) fn fsf_referee(ini: &str, start: &AnyGame, history: &[Turn], end: &IChess) -> Result<String, Failure> {
    let position = fsf_position(start, history, end)?;
    let (lines, best) = fsf_ask(ini, &position, "go depth 1")?;
    if best.as_deref() != Some("(none)") {
        return Ok("has moves".into());
    }
    let mated = lines.iter().any(|line| line.contains("score mate 0") || line.contains("score mate -0"));
    Ok(if mated { "mated" } else { "stalemated" }.into())
}

impl Player for Fsf {
    fn name(&self) -> String {
        format!("fsf:{}", self.nodes)
    }

    fn choose(&mut self, start: &AnyGame, history: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure> {
        let AnyGame::IChess(ichess) = game else { return Err("Fairy-Stockfish plays only iChess".into()) };
        if stonemate_engine::ichess::Bare::of(ichess).deploying() {
            return self.deployer.choose(start, history, game, seed);
        }
        let position = fsf_position(start, history, ichess)?;
        let (_, best) = fsf_ask(&self.ini, &position, &format!("go nodes {}", self.nodes))?;
        let best = best.ok_or("Fairy-Stockfish gave no move")?;
        if best == "(none)" {
            return Err("Fairy-Stockfish has no move".into());
        }
        from_uci(&best, game)
    }
}
