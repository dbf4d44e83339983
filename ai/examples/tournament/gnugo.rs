//! GNU Go over GTP: an opponent in go with rooks, and the referee that counts every go
//! game with its own judgement of dead stones.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use stonemate_engine::{AnyGame, Color, Role, Square, Turn};

use crate::player::{Failure, Player};

/// GNU Go over GTP, kept in step by replaying the turns it has not seen.
pub(crate) struct GnuGo {
    pub(crate) level: u32,
    pub(crate) process: Option<Gtp>,
}

pub(crate) struct Gtp {
    pub(crate) child: Child,
    pub(crate) stdin: ChildStdin,
    pub(crate) stdout: BufReader<ChildStdout>,
    pub(crate) sent: usize,
}

pub(crate) const GTP_FILES: &[u8] = b"ABCDEFGHJKLMNOPQRST";

impl Gtp {
    fn ask(&mut self, command: &str) -> Result<String, Failure> {
        writeln!(self.stdin, "{command}").map_err(|e| e.to_string())?;
        self.stdin.flush().map_err(|e| e.to_string())?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("gnugo closed its output".into());
            }
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(line.trim());
        }
        match answer.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_owned()),
            None => Err(format!("gnugo: {command}: {answer}")),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

pub(crate) fn gtp_color(color: Color) -> &'static str {
    if color == Color::Black { "black" } else { "white" }
}

pub(crate) fn gtp_vertex(turn: Turn) -> Result<String, Failure> {
    match turn {
        Turn::Pass => Ok("pass".into()),
        Turn::Drop { to, .. } => Ok(format!("{}{}", GTP_FILES[usize::from(to.file())] as char, to.rank() + 1)),
        other => Err(format!("GNU Go cannot play {other}")),
    }
}

pub(crate) fn from_gtp_vertex(text: &str) -> Result<Turn, Failure> {
    let text = text.trim().to_ascii_uppercase();
    if text == "PASS" {
        return Ok(Turn::Pass);
    }
    if text == "RESIGN" {
        return Err("resign".into());
    }
    let file = GTP_FILES.iter().position(|&c| text.starts_with(c as char)).ok_or(format!("vertex {text}"))?;
    let rank: u8 = text[1..].parse().map_err(|_| format!("vertex {text}"))?;
    let to = Square::new(file as u8, rank - 1).ok_or(format!("vertex {text}"))?;
    Ok(Turn::Drop { role: Role::Rook, to })
}

impl Player for GnuGo {
    fn name(&self) -> String {
        format!("gnugo:{}", self.level)
    }

    fn choose(&mut self, start: &AnyGame, history: &[Turn], game: &AnyGame, _: u64) -> Result<Turn, Failure> {
        if history.is_empty() || self.process.as_ref().is_none_or(|p| p.sent > history.len()) {
            self.process = Some(self.start(game)?);
        }
        let gtp = self.process.as_mut().ok_or("no gnugo")?;
        let mut replay = start.clone();
        for (i, &turn) in history.iter().enumerate() {
            let color = replay.to_move().ok_or("game over")?;
            if i >= gtp.sent {
                gtp.ask(&format!("play {} {}", gtp_color(color), gtp_vertex(turn)?))?;
                gtp.sent = i + 1;
            }
            replay.play(turn).map_err(|e| e.to_string())?;
        }
        let color = game.to_move().ok_or("game over")?;
        let answer = gtp.ask(&format!("genmove {}", gtp_color(color)))?;
        gtp.sent = history.len() + 1;
        from_gtp_vertex(&answer)
    }
}

impl GnuGo {
    fn start(&self, game: &AnyGame) -> Result<Gtp, Failure> {
        let mut gtp = spawn_gnugo(&["--level", &self.level.to_string(), "--capture-all-dead"])?;
        setup_board(&mut gtp, game)?;
        Ok(gtp)
    }
}

pub(crate) fn gnugo_binary() -> &'static str {
    if std::path::Path::new("/usr/games/gnugo").exists() { "/usr/games/gnugo" } else { "gnugo" }
}

/// A GNU Go process in GTP mode with these extra arguments.
pub(crate) fn spawn_gnugo(extra: &[&str]) -> Result<Gtp, Failure> {
    let mut child = Command::new(gnugo_binary())
        .args(["--mode", "gtp"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("gnugo: {e} (apt-get install gnugo)"))?;
    let stdin = child.stdin.take().ok_or("gnugo stdin")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("gnugo stdout")?);
    Ok(Gtp { child, stdin, stdout, sent: 0 })
}

/// The board size and komi of `game`, on a cleared board.
pub(crate) fn setup_board(gtp: &mut Gtp, game: &AnyGame) -> Result<(), Failure> {
    let view = game.view();
    gtp.ask(&format!("boardsize {}", view.width))?;
    gtp.ask("clear_board")?;
    let komi = game.option_pairs().into_iter().find(|(k, _)| k == "komi").map_or("0".into(), |(_, v)| v);
    gtp.ask(&format!("komi {komi}"))?;
    Ok(())
}

/// GNU Go's counts of a finished go game: the referee.
pub(crate) struct GnuCount {
    /// `final_score` under GNU Go's default (Japanese) rules: territory and prisoners, as
    /// our rules 8-9 count; such as `W+3.5`.
    pub(crate) territory: String,
    /// `final_score` with `--chinese-rules`: area (stones on the board and territory).
    pub(crate) area: String,
    /// `final_status_list dead`: the stones GNU Go counts off the board (ours do not).
    pub(crate) dead: String,
}

/// Replays `history` in a fresh GNU Go started with `extra` arguments.
fn replayed(start: &AnyGame, history: &[Turn], extra: &[&str]) -> Result<Gtp, Failure> {
    let mut gtp = spawn_gnugo(extra)?;
    setup_board(&mut gtp, start)?;
    let mut replay = start.clone();
    for &turn in history {
        let color = replay.to_move().ok_or("the game ended before its last turn")?;
        gtp.ask(&format!("play {} {}", gtp_color(color), gtp_vertex(turn)?))?;
        replay.play(turn).map_err(|e| e.to_string())?;
    }
    Ok(gtp)
}

/// GNU Go's own counts of a go game after replaying it in fresh processes, with its own
/// judgement of dead stones: the referee of every go game.
pub(crate) fn gnugo_referee(start: &AnyGame, history: &[Turn]) -> Result<GnuCount, Failure> {
    let mut japanese = replayed(start, history, &[])?;
    let territory = japanese.ask("final_score")?;
    let dead = japanese.ask("final_status_list dead")?;
    let area = replayed(start, history, &["--chinese-rules"])?.ask("final_score")?;
    let dead = if dead.is_empty() { "-".to_owned() } else { dead.split_whitespace().collect::<Vec<_>>().join(" ") };
    Ok(GnuCount { territory, area, dead })
}

/// Who won by two counts of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Count {
    /// Both name this winner (`None`: both say draw).
    Agreed(Option<Color>),
    /// They name different winners, or one could not be read: a win for neither.
    Disputed,
}

/// The winner that our count and the referee's both name (results as `W+3.5`, `B+0.5`,
/// `0`); the margins may differ.
pub(crate) fn agreed_winner(ours: &str, theirs: &str) -> Count {
    match (white_margin(ours).map(winner_by), white_margin(theirs).map(winner_by)) {
        (Some(a), Some(b)) if a == b => Count::Agreed(a),
        _ => Count::Disputed,
    }
}

/// The winner of a game that White wins by `margin` points (negative: Black).
pub(crate) fn winner_by(margin: f64) -> Option<Color> {
    if margin > 0.0 {
        Some(Color::White)
    } else if margin < 0.0 {
        Some(Color::Black)
    } else {
        None
    }
}

/// A go result as White's margin in points (`B+2.5` is -2.5, `0` a draw).
pub(crate) fn white_margin(text: &str) -> Option<f64> {
    let text = text.trim();
    if text == "0" {
        return Some(0.0);
    }
    let (side, margin) = text.split_once('+')?;
    let margin: f64 = margin.parse().ok()?;
    match side {
        "W" => Some(margin),
        "B" => Some(-margin),
        _ => None,
    }
}

/// Our engine's count as GNU Go writes it.
pub(crate) fn our_go_result(game: &AnyGame) -> String {
    let Some(score) = game.score() else { return "?".into() };
    let margin = f64::from(score.white.0 - score.black.0) / 2.0;
    if margin > 0.0 {
        format!("W+{margin:.1}")
    } else if margin < 0.0 {
        format!("B+{:.1}", -margin)
    } else {
        "0".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_counts_only_when_both_counts_name_the_winner() {
        assert_eq!(agreed_winner("W+0.5", "W+8.5"), Count::Agreed(Some(Color::White)));
        assert_eq!(agreed_winner("B+2.5", "B+0.5"), Count::Agreed(Some(Color::Black)));
        assert_eq!(agreed_winner("0", "0"), Count::Agreed(None));
        // Issue 42's three close games: each a win for neither.
        assert_eq!(agreed_winner("W+0.5", "B+2.5"), Count::Disputed);
        assert_eq!(agreed_winner("B+2.5", "W+1.5"), Count::Disputed);
        assert_eq!(agreed_winner("W+1.5", "B+0.5"), Count::Disputed);
        assert_eq!(agreed_winner("W+0.5", "0"), Count::Disputed);
        assert_eq!(agreed_winner("?", "W+1.5"), Count::Disputed);
    }

    #[test]
    fn gnugo_results_read_as_whites_margin() {
        assert_eq!(white_margin("W+3.5"), Some(3.5));
        assert_eq!(white_margin("B+2.0"), Some(-2.0));
        assert_eq!(white_margin("0"), Some(0.0));
        assert_eq!(white_margin("resign"), None);
    }
}
