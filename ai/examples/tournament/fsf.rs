//! Fairy-Stockfish over UCI: an opponent in iChess (deploying for itself in its
//! `[ichess-deploy]` variant, or with our bot deploying for it), and the referee that looks
//! at how an iChess game against it ended.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use stonemate_engine::ichess::IChess;
use stonemate_engine::{AnyGame, Role, Turn};

use crate::bot::Bot;
use crate::player::{Failure, Player};

/// Fairy-Stockfish in iChess.
pub(crate) struct Fsf {
    pub(crate) nodes: u64,
    /// `None`: Fairy-Stockfish makes its own deployment drops (`fsf:N`); `Some`: our bot
    /// makes them for it (`fsfbot:N`, the harness of sessions 8-11).
    pub(crate) deployer: Option<Bot>,
    pub(crate) ini: String,
}

/// Fairy-Stockfish's variant for the play phase, and the one for deployment (drops are
/// mandatory while a hand holds pieces).
pub(crate) const PLAY: &str = "ichess";
pub(crate) const DEPLOY: &str = "ichess-deploy";

/// The UCI `position` command for a deployment turn, in [`DEPLOY`]: our position, with each
/// king kept out of its hand while other pieces are there. Rule 3 (the king is dropped
/// last) cannot be said in the variant; this is how `ichess_oracle.py` plays it.
pub(crate) fn fsf_deploy_position(now: &IChess) -> Result<String, Failure> {
    let fen = now.fen();
    let (placement, side) = fen.split_once(' ').ok_or("fen")?;
    let (board, hands) = placement.split_once('[').ok_or("fen without hands")?;
    let hands = hands.trim_end_matches(']');
    let kept = |pieces: String, king: char| if pieces.len() > 1 { pieces.replace(king, "") } else { pieces };
    let white = kept(hands.chars().filter(char::is_ascii_uppercase).collect(), 'K');
    let black = kept(hands.chars().filter(char::is_ascii_lowercase).collect(), 'k');
    Ok(format!("position fen {board}[{white}{black}] {side} - - 0 1"))
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
pub(crate) fn fsf_ask(
    ini: &str,
    variant: &str,
    position: &str,
    go: &str,
) -> Result<(Vec<String>, Option<String>), Failure> {
    let script = format!(
        "setoption name VariantPath value {ini}\nsetoption name UCI_Variant value {variant}\n{position}\n{go}\n"
    );
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
    let (lines, best) = fsf_ask(ini, PLAY, &position, "go depth 1")?;
    if best.as_deref() != Some("(none)") {
        return Ok("has moves".into());
    }
    let mated = lines.iter().any(|line| line.contains("score mate 0") || line.contains("score mate -0"));
    Ok(if mated { "mated" } else { "stalemated" }.into())
}

impl Player for Fsf {
    fn name(&self) -> String {
        let prefix = if self.deployer.is_some() { "fsfbot" } else { "fsf" };
        format!("{prefix}:{}", self.nodes)
    }

    fn choose(&mut self, start: &AnyGame, history: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure> {
        let AnyGame::IChess(ichess) = game else { return Err("Fairy-Stockfish plays only iChess".into()) };
        let deploying = stonemate_engine::ichess::Bare::of(ichess).deploying();
        let (variant, position) = match (&mut self.deployer, deploying) {
            (Some(deployer), true) => return deployer.choose(start, history, game, seed),
            (None, true) => (DEPLOY, fsf_deploy_position(ichess)?),
            (_, false) => (PLAY, fsf_position(start, history, ichess)?),
        };
        let (_, best) = fsf_ask(&self.ini, variant, &position, &format!("go nodes {}", self.nodes))?;
        let best = best.ok_or("Fairy-Stockfish gave no move")?;
        if best == "(none)" {
            return Err("Fairy-Stockfish has no move".into());
        }
        from_uci(&best, game)
    }
}

#[cfg(test)]
mod tests {
    use stonemate_engine::GameKind;

    use super::*;

    fn ini() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/oracles/ichess.ini").to_owned()
    }

    /// Fairy-Stockfish plays every drop of both deployments; each is read and applied by
    /// our engine, and the kings come last.
    #[test]
    fn fairy_stockfishs_deployment_drops_apply_in_our_engine() {
        let start = AnyGame::new(GameKind::IChess, &[]).expect("iChess");
        let mut fsf = Fsf { nodes: 200, deployer: None, ini: ini() };
        let (mut game, mut history) = (start.clone(), Vec::new());
        for drop in 0..16 {
            let AnyGame::IChess(ichess) = &game else { unreachable!() };
            assert!(stonemate_engine::ichess::Bare::of(ichess).deploying(), "drop {drop}");
            let turn = fsf.choose(&start, &history, &game, 0).expect("Fairy-Stockfish deploys");
            let Turn::Drop { role, .. } = turn else { panic!("drop {drop}: {turn} is not a drop") };
            assert_eq!(role == Role::King, drop >= 14, "drop {drop}: {turn}");
            game.play(turn).unwrap_or_else(|e| panic!("drop {drop}: our engine refuses {turn}: {e}"));
            history.push(turn);
        }
        let AnyGame::IChess(ichess) = &game else { unreachable!() };
        assert!(!stonemate_engine::ichess::Bare::of(ichess).deploying());
        // And the play phase goes on in [ichess] from the deployed position.
        let turn = fsf.choose(&start, &history, &game, 0).expect("Fairy-Stockfish moves");
        game.play(turn).expect("its first move applies");
    }

    #[test]
    fn the_kings_stay_out_of_fairy_stockfishs_hands_until_last() {
        let AnyGame::IChess(start) = AnyGame::new(GameKind::IChess, &[]).expect("iChess") else { unreachable!() };
        let position = fsf_deploy_position(&start).expect("a position");
        assert!(!position.contains('K') && !position.contains('k'), "{position}");
    }
}
