//! The arena: plays the bot's levels against each other, against a uniformly random
//! player, and against GNU Go (go with rooks) and Fairy-Stockfish (iChess after the
//! deployment), alternating colours, and prints win rates and time per turn.
//!
//!     cargo run --release -p stonemate-ai --example tournament -- [OPTIONS]
//!
//! Options (all optional; the defaults run the full plan of issue 17):
//!
//!     --games N            games per pairing and game (default 20)
//!     --first N            start at game N of the plan (default 1): a long plan runs in
//!                          pieces (`--first 17 --games 100` plays games 17 to 100, with
//!                          the seeds and colours those games have in the whole plan)
//!     --game LIST          chego,gess,ichess,go,chogo (default all five)
//!     --pairing A:B        repeatable; players are random, easy, medium, hard (the
//!                          bot's search), oldhard etc. (the search of 54cd0e7: plain
//!                          UCT on the engine's board), ucthard etc. (plain UCT on the
//!                          playout board), ravehard etc. (RAVE with light
//!                          playouts, issue 29's first session), stronghard etc.
//!                          (hard's search at any budget: alpha-beta in iChess,
//!                          heavy playouts in go; in Chogo session 9's Monte Carlo
//!                          hard, which hard's alpha-beta replaced), keephard etc.
//!                          (the bot's search keeping its tree between its turns, as
//!                          the bot's pool does; it prints how much it reused when its
//!                          pairing ends),
//!                          gnugo:LEVEL (go only), fsf:NODES (iChess only); default
//!                          easy:random medium:random hard:random hard:easy, plus
//!                          hard:gnugo:1 hard:gnugo:10 (go) and hard:fsf:1000 (iChess)
//!     --nodes L=N          a level's node budget instead of its own (repeatable), e.g.
//!                          --nodes hard=2000; levels then have no time limit
//!     --time L=SECONDS     a level's time per turn instead of its own (repeatable); with
//!                          --nodes for the same level, whichever ends first
//!     --threads N          search threads per bot turn (default 1)
//!     --max-turns N        adjudicate by the evaluation after N turns (default 400)
//!     --seed N             base seed (default 1)
//!     --opening N          the first N turns of every game are drawn uniformly at
//!                          random from the legal turns (default 0), the same for each
//!                          pair of games (1-2, 3-4, ...), which play it with the colours
//!                          swapped. Two players that do not draw on a seed (alpha-beta
//!                          against Fairy-Stockfish) otherwise play the same game again
//!                          and again; the table's `distinct` column counts the games
//!                          that differ in at least one turn.
//!     --records DIR        keep every game's record in DIR: SGF for go, PGN for iChess,
//!                          our own format for the others (DIR is created)
//!
//! Go is played on 9x9 with komi 6.5; the other games with their default options.
//! GNU Go is `gnugo` (or /usr/games/gnugo); Fairy-Stockfish is `fairy-stockfish` with the
//! iChess variant of engine/tests/oracles/ichess.ini. In iChess against Fairy-Stockfish,
//! our bot plays the deployment of both sides at the level of our side.
//!
//! Honest scoring. GNU Go plays with `--capture-all-dead`: it captures every dead stone
//! before it passes, as our rules (which score the board as it stands) require, instead
//! of passing and expecting them to be counted off. And every go game is also scored by a
//! referee: a fresh GNU Go replays the whole game and answers `final_score`, its own count
//! with its own judgement of dead stones. Each game's line on standard error gives our
//! score and the referee's; a disagreement (another winner or another margin) is marked
//! `DISAGREE` and listed after the table, and the table counts the pairing's wins by the
//! referee too. iChess games against Fairy-Stockfish are refereed the same way: at the end
//! Fairy-Stockfish is shown the final position and says whether the side to move is
//! mated, stalemated or has moves, which must match how our engine ended the game.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use stonemate_ai::{Budget, KeptTree, Level, Method, SearchConfig, knowledge, search_reusing, search_with};
use stonemate_engine::formats::{self, Record};
use stonemate_engine::ichess::IChess;
use stonemate_engine::{AnyGame, Color, EndReason, Ending, GameKind, Outcome, Role, Square, Turn};

type Failure = String;

/// Someone who picks turns.
trait Player {
    fn name(&self) -> String;
    /// The turn to play in `game`, reached from `start` by `history`.
    fn choose(&mut self, start: &AnyGame, history: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure>;
}

struct Random;

impl Player for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _: &AnyGame, _: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        game.legal_turns().choose(&mut rng).copied().ok_or_else(|| "no legal turn".into())
    }
}

struct Bot {
    level: Level,
    /// `None`: the level's own budget for the game.
    budget: Option<Budget>,
    threads: usize,
    /// The bot's search, or a baseline (`old` and `uct` players).
    method: Method,
    /// `Some` for a `keep` player: the tree of its last search and what it reused.
    reuse: Option<Reuse>,
}

/// A `keep` player's tree and its count of what the kept trees brought.
#[derive(Default)]
struct Reuse {
    /// The player's name, for the count printed when it is dropped.
    player: String,
    /// The tree of the last search and the game's turns up to its root.
    kept: Option<(Vec<Turn>, KeptTree)>,
    searches: u64,
    /// Searches that started with playouts from the kept tree.
    reused: u64,
    /// Playouts at the root that kept trees brought, together.
    visits: u64,
    /// New playouts made, together.
    nodes: u64,
}

impl Drop for Reuse {
    fn drop(&mut self) {
        if self.searches > 0 {
            let per = |n: u64| n as f64 / self.searches as f64;
            eprintln!(
                "{}: {} searches, {} from a kept tree; per search {:.0} playouts kept at the start, {:.0} new",
                self.player,
                self.searches,
                self.reused,
                per(self.visits),
                per(self.nodes)
            );
        }
    }
}

impl Player for Bot {
    fn name(&self) -> String {
        let prefix = match self.method {
            Method::Current if self.reuse.is_some() => "keep",
            Method::Current => "",
            Method::PlainUct => "uct",
            Method::Baseline => "old",
            Method::RaveLight => "rave",
            Method::Strong => "strong",
        };
        format!("{prefix}{}", self.level.name())
    }

    fn choose(&mut self, _: &AnyGame, history: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure> {
        let budget = self.budget.unwrap_or_else(|| self.level.budget(game.kind()));
        let config = SearchConfig { budget, seed, threads: self.threads };
        let Some(reuse) = self.reuse.as_mut() else {
            return search_with(game, &config, self.method)
                .map(|result| result.turn)
                .ok_or_else(|| "no legal turn".into());
        };
        // The tree of this game's last search, if this game continues it (a new game does not).
        let (kept, since) = match reuse.kept.take() {
            Some((turns, tree)) if history.starts_with(&turns) => (Some(tree), &history[turns.len()..]),
            _ => (None, &[][..]),
        };
        let (result, tree) =
            search_reusing(game, &config, self.method, kept, since).ok_or_else(|| Failure::from("no legal turn"))?;
        let visits = result.root.iter().map(|root| root.visits).sum::<u64>().saturating_sub(result.nodes);
        reuse.searches += 1;
        reuse.reused += u64::from(visits > 0);
        reuse.visits += visits;
        reuse.nodes += result.nodes;
        reuse.kept = tree.map(|tree| (history.to_vec(), tree));
        Ok(result.turn)
    }
}

/// GNU Go over GTP, kept in step by replaying the turns it has not seen.
struct GnuGo {
    level: u32,
    process: Option<Gtp>,
}

struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    sent: usize,
}

const GTP_FILES: &[u8] = b"ABCDEFGHJKLMNOPQRST";

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

fn gtp_color(color: Color) -> &'static str {
    if color == Color::Black { "black" } else { "white" }
}

fn gtp_vertex(turn: Turn) -> Result<String, Failure> {
    match turn {
        Turn::Pass => Ok("pass".into()),
        Turn::Drop { to, .. } => Ok(format!("{}{}", GTP_FILES[usize::from(to.file())] as char, to.rank() + 1)),
        other => Err(format!("GNU Go cannot play {other}")),
    }
}

fn from_gtp_vertex(text: &str) -> Result<Turn, Failure> {
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

fn gnugo_binary() -> &'static str {
    if std::path::Path::new("/usr/games/gnugo").exists() { "/usr/games/gnugo" } else { "gnugo" }
}

/// A GNU Go process in GTP mode with these extra arguments.
fn spawn_gnugo(extra: &[&str]) -> Result<Gtp, Failure> {
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
fn setup_board(gtp: &mut Gtp, game: &AnyGame) -> Result<(), Failure> {
    let view = game.view();
    gtp.ask(&format!("boardsize {}", view.width))?;
    gtp.ask("clear_board")?;
    let komi = game.option_pairs().into_iter().find(|(k, _)| k == "komi").map_or("0".into(), |(_, v)| v);
    gtp.ask(&format!("komi {komi}"))?;
    Ok(())
}

/// GNU Go's own count of a go game (`final_score`, such as `W+3.5`), after replaying it
/// in a fresh process: the referee of every go game.
fn gnugo_referee(start: &AnyGame, history: &[Turn]) -> Result<String, Failure> {
    let mut gtp = spawn_gnugo(&[])?;
    setup_board(&mut gtp, start)?;
    let mut replay = start.clone();
    for &turn in history {
        let color = replay.to_move().ok_or("the game ended before its last turn")?;
        gtp.ask(&format!("play {} {}", gtp_color(color), gtp_vertex(turn)?))?;
        replay.play(turn).map_err(|e| e.to_string())?;
    }
    gtp.ask("final_score")
}

/// A go result as White's margin in points (`B+2.5` is -2.5, `0` a draw).
fn white_margin(text: &str) -> Option<f64> {
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
fn our_go_result(game: &AnyGame) -> String {
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

/// Fairy-Stockfish for iChess's play phase; our bot deploys for it.
struct Fsf {
    nodes: u64,
    deployer: Bot,
    ini: String,
}

fn uci(turn: Turn) -> Result<String, Failure> {
    match turn {
        Turn::Drop { role, to } => Ok(format!("{}@{to}", role.letter())),
        Turn::Move { from, to, promotion } => Ok(format!("{from}{to}{}", if promotion.is_some() { "+" } else { "" })),
        other => Err(format!("not an iChess turn: {other}")),
    }
}

fn from_uci(text: &str, game: &AnyGame) -> Result<Turn, Failure> {
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
fn fsf_position(start: &AnyGame, history: &[Turn], now: &IChess) -> Result<String, Failure> {
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
fn fsf_ask(ini: &str, position: &str, go: &str) -> Result<(Vec<String>, Option<String>), Failure> {
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
fn fsf_referee(ini: &str, start: &AnyGame, history: &[Turn], end: &IChess) -> Result<String, Failure> {
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

/// How one game went.
struct Played {
    /// The winner as 0 (first player of the pairing), 1 (second), or `None` for a draw.
    winner: Option<usize>,
    adjudicated: bool,
    forfeit: Option<String>,
    turns: usize,
    times: [Vec<Duration>; 2],
    /// The turns played, and the same in our notation.
    history: Vec<Turn>,
    texts: Vec<String>,
    /// The position at the end.
    end: AnyGame,
}

fn options(kind: GameKind) -> Vec<(String, String)> {
    match kind {
        GameKind::Go => vec![("board".into(), "9x9".into()), ("komi".into(), "6.5".into())],
        _ => Vec::new(),
    }
}

/// The random opening of a game: how many turns, drawn with which seed.
#[derive(Clone, Copy)]
struct Opening {
    turns: usize,
    seed: u64,
}

/// Plays one game; `first_color` is the colour of `players[0]`. The opening's turns are
/// drawn at random and count for neither player's time.
fn play(
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

fn forfeit(
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
struct Verdict {
    /// Ours and the referee's, as text (`W+3.5` and `B+2.0`; `checkmate` and `mated`).
    ours: String,
    theirs: String,
    agrees: bool,
    /// The winner by the referee's count, as a seat (go only): `None` for a draw.
    referee_winner: Option<Option<usize>>,
}

/// Asks the referee of this game, if it has one: GNU Go's count in go, Fairy-Stockfish's
/// view of the final position in iChess against it.
fn referee(
    kind: GameKind,
    pair: &(String, String),
    start: &AnyGame,
    played: &Played,
    first_color: Color,
) -> Option<Result<Verdict, Failure>> {
    let seat = |color: Color| usize::from(color != first_color);
    match kind {
        GameKind::Go => Some(gnugo_referee(start, &played.history).map(|theirs| {
            let ours = our_go_result(&played.end);
            let (a, b) = (white_margin(&ours), white_margin(&theirs));
            let referee_winner = b.map(|margin| {
                if margin > 0.0 {
                    Some(seat(Color::White))
                } else if margin < 0.0 {
                    Some(seat(Color::Black))
                } else {
                    None
                }
            });
            Verdict { agrees: a.is_some() && a == b, ours, theirs, referee_winner }
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
                Verdict { ours, theirs, agrees, referee_winner: None }
            }))
        }
        _ => None,
    }
}

/// Writes the game's record into `dir`: SGF for go (with the referee's count as a
/// comment), PGN for iChess, our own format for the rest.
fn keep_record(
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
                let comment =
                    format!("GC[our score {}; referee (GNU Go final_score) {}]", verdict.ours, verdict.theirs);
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

/// The tally of one pairing in one game.
#[derive(Default)]
struct Tally {
    wins: usize,
    draws: usize,
    losses: usize,
    adjudicated: usize,
    forfeits: Vec<String>,
    turns: usize,
    times: [Vec<Duration>; 2],
    /// Games the referee scored, and those where it agreed with our result.
    refereed: usize,
    agreed: usize,
    /// A's wins and draws by the referee's count (go).
    referee_wins: usize,
    referee_draws: usize,
    /// One line per disagreement.
    disagreements: Vec<String>,
    /// Every game's turns, to count the games that differ.
    distinct: std::collections::BTreeSet<Vec<String>>,
}

fn median_max(times: &[Duration]) -> (f64, f64) {
    let mut sorted: Vec<f64> = times.iter().map(Duration::as_secs_f64).collect();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return (0.0, 0.0);
    }
    (sorted[sorted.len() / 2], sorted[sorted.len() - 1])
}

struct Args {
    games: usize,
    /// The index (from 0) of the plan's first game to play.
    first: usize,
    kinds: Vec<GameKind>,
    pairings: Vec<(String, String)>,
    nodes: BTreeMap<Level, u64>,
    time: BTreeMap<Level, Duration>,
    threads: usize,
    max_turns: usize,
    seed: u64,
    opening: usize,
    records: Option<std::path::PathBuf>,
}

fn parse_args() -> Result<Args, Failure> {
    let mut args = Args {
        games: 20,
        first: 0,
        kinds: GameKind::ALL.to_vec(),
        pairings: Vec::new(),
        nodes: BTreeMap::new(),
        time: BTreeMap::new(),
        threads: 1,
        max_turns: 400,
        seed: 1,
        opening: 0,
        records: None,
    };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let mut value = || words.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => args.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--first" => {
                let first: usize = value()?.parse().map_err(|e| format!("--first: {e}"))?;
                args.first = first.checked_sub(1).ok_or("--first counts from 1")?;
            }
            "--game" => {
                args.kinds = value()?
                    .split(',')
                    .map(|k| k.parse().map_err(|e: stonemate_engine::game::UnknownGame| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--pairing" => {
                let text = value()?;
                let (a, b) = text.split_once(':').ok_or(format!("--pairing {text}: write A:B"))?;
                let (a, b) = match (a, b.split_once(':')) {
                    // `hard:gnugo:10`: the second player has its own colon.
                    (a, Some((b, setting))) => (a.to_owned(), format!("{b}:{setting}")),
                    (a, None) => (a.to_owned(), b.to_owned()),
                };
                args.pairings.push((a, b));
            }
            "--nodes" => {
                let text = value()?;
                let (level, nodes) = text.split_once('=').ok_or(format!("--nodes {text}: write LEVEL=N"))?;
                let level: Level = level.parse().map_err(|e: stonemate_ai::UnknownLevel| e.to_string())?;
                args.nodes.insert(level, nodes.parse().map_err(|e| format!("--nodes: {e}"))?);
            }
            "--time" => {
                let text = value()?;
                let (level, seconds) = text.split_once('=').ok_or(format!("--time {text}: write LEVEL=SECONDS"))?;
                let level: Level = level.parse().map_err(|e: stonemate_ai::UnknownLevel| e.to_string())?;
                let seconds: f64 = seconds.parse().map_err(|e| format!("--time: {e}"))?;
                args.time.insert(level, Duration::from_secs_f64(seconds));
            }
            "--threads" => args.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--max-turns" => args.max_turns = value()?.parse().map_err(|e| format!("--max-turns: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--opening" => args.opening = value()?.parse().map_err(|e| format!("--opening: {e}"))?,
            "--records" => args.records = Some(value()?.into()),
            other => return Err(format!("unknown option {other} (see the comment at the top of tournament.rs)")),
        }
    }
    Ok(args)
}

/// A player by name; `partner` is the opponent's level, at which our bot deploys for
/// Fairy-Stockfish.
fn player(name: &str, partner: Level, args: &Args) -> Result<Box<dyn Player>, Failure> {
    let bot = |level: Level| Bot {
        level,
        budget: match (args.nodes.get(&level), args.time.get(&level)) {
            (None, None) => None,
            (nodes, time) => Some(Budget { nodes: nodes.copied(), time: time.copied() }),
        },
        threads: args.threads,
        method: Method::Current,
        reuse: None,
    };
    if let Ok(level) = name.parse::<Level>() {
        return Ok(Box::new(bot(level)));
    }
    if let Some(level) = name.strip_prefix("keep").and_then(|rest| rest.parse::<Level>().ok()) {
        // (Reuse prints on drop, so it is built by assignment, not by update syntax.)
        let mut reuse = Reuse::default();
        reuse.player = name.to_owned();
        return Ok(Box::new(Bot { reuse: Some(reuse), ..bot(level) }));
    }
    for (prefix, method) in
        [("old", Method::Baseline), ("uct", Method::PlainUct), ("rave", Method::RaveLight), ("strong", Method::Strong)]
    {
        if let Some(level) = name.strip_prefix(prefix).and_then(|rest| rest.parse::<Level>().ok()) {
            return Ok(Box::new(Bot { method, ..bot(level) }));
        }
    }
    match name.split_once(':') {
        None if name == "random" => Ok(Box::new(Random)),
        Some(("gnugo", level)) => {
            Ok(Box::new(GnuGo { level: level.parse().map_err(|e| format!("{name}: {e}"))?, process: None }))
        }
        Some(("fsf", nodes)) => {
            let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/oracles/ichess.ini").to_owned();
            let nodes = nodes.parse().map_err(|e| format!("{name}: {e}"))?;
            Ok(Box::new(Fsf { nodes, deployer: bot(partner), ini }))
        }
        _ => Err(format!("unknown player {name}")),
    }
}

/// The plan of issue 17 for one game.
fn default_pairings(kind: GameKind) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = ["easy:random", "medium:random", "hard:random", "hard:easy"]
        .iter()
        .filter_map(|p| p.split_once(':'))
        .map(|(a, b)| (a.into(), b.into()))
        .collect();
    match kind {
        GameKind::Go => pairs.extend([("hard".into(), "gnugo:1".into()), ("hard".into(), "gnugo:10".into())]),
        GameKind::IChess => pairs.push(("hard".into(), "fsf:1000".into())),
        _ => {}
    }
    pairs
}

fn run_pairing(kind: GameKind, pair: &(String, String), args: &Args) -> Result<Tally, Failure> {
    let partner = |name: &str| name.parse::<Level>().unwrap_or(Level::Hard);
    let mut players = [player(&pair.0, partner(&pair.1), args)?, player(&pair.1, partner(&pair.0), args)?];
    let mut tally = Tally::default();
    for index in args.first..args.games {
        let first_color = if index % 2 == 0 { Color::White } else { Color::Black };
        let seed = args.seed.wrapping_mul(7919).wrapping_add(index as u64);
        // Both games of a pair (index 2k and 2k+1) open alike, with the colours swapped.
        let opening_seed = (args.seed ^ 0x6f70_656e).wrapping_mul(1_000_003).wrapping_add((index / 2) as u64) << 10;
        let opening = Opening { turns: args.opening, seed: opening_seed };
        let played = play(kind, &mut players, first_color, seed, opening, args.max_turns);
        tally.distinct.insert(played.texts.clone());
        match played.winner {
            Some(0) => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => tally.draws += 1,
        }
        tally.adjudicated += usize::from(played.adjudicated);
        tally.turns += played.turns;
        if let Some(reason) = &played.forfeit {
            tally.forfeits.push(reason.clone());
        }
        let result = match played.winner {
            Some(0) => pair.0.as_str(),
            Some(_) => pair.1.as_str(),
            None => "draw",
        };
        let game_name = format!("{kind} {}:{} game {} ({} as {first_color})", pair.0, pair.1, index + 1, pair.0);
        let start = AnyGame::new(kind, &options(kind)).expect("valid options");
        let verdict = match referee(kind, pair, &start, &played, first_color) {
            Some(Ok(verdict)) => Some(verdict),
            Some(Err(e)) => {
                eprintln!("{game_name}: the referee failed: {e}");
                None
            }
            None => None,
        };
        let mut referee_note = String::new();
        if let Some(verdict) = &verdict {
            tally.refereed += 1;
            tally.agreed += usize::from(verdict.agrees);
            match verdict.referee_winner {
                Some(Some(0)) => tally.referee_wins += 1,
                Some(None) => tally.referee_draws += 1,
                _ => {}
            }
            let mark = if verdict.agrees { "" } else { " DISAGREE" };
            referee_note = format!("; ours {}, referee {}{mark}", verdict.ours, verdict.theirs);
            if !verdict.agrees {
                tally.disagreements.push(format!("{game_name}: ours {}, referee {}", verdict.ours, verdict.theirs));
            }
        }
        if let Some(dir) = &args.records {
            let white_seat = usize::from(first_color != Color::White);
            let players = [pair_name(pair, white_seat), pair_name(pair, 1 - white_seat)];
            let file = format!("{kind}-{}-{}-seed{}-game{}", pair.0, pair.1.replace(':', ""), args.seed, index + 1);
            match keep_record(dir, &file, kind, players, first_color, &played, verdict.as_ref()) {
                Ok(path) => referee_note.push_str(&format!("; record {}", path.display())),
                Err(e) => eprintln!("{game_name}: the record was not kept: {e}"),
            }
        }
        eprintln!(
            "{game_name}: {result} in {} turns{}{}{referee_note}",
            played.turns,
            if played.adjudicated { " (adjudicated)" } else { "" },
            played.forfeit.as_ref().map(|r| format!(" (forfeit: {r})")).unwrap_or_default()
        );
        let [a, b] = played.times;
        tally.times[0].extend(a);
        tally.times[1].extend(b);
    }
    Ok(tally)
}

/// The name of the pairing's player in `seat` (0 or 1).
fn pair_name(pair: &(String, String), seat: usize) -> String {
    if seat == 0 { pair.0.clone() } else { pair.1.clone() }
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("tournament: {message}");
            std::process::exit(2);
        }
    };
    println!(
        "| game | A | B | games | A wins | draws | B wins | A score | adjudicated | forfeits | refereed | referee agrees | A wins by referee | turns/game | distinct | A s/turn median, max | B s/turn median, max |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut disagreements = Vec::new();
    for &kind in &args.kinds {
        let pairings = if args.pairings.is_empty() { default_pairings(kind) } else { args.pairings.clone() };
        for pair in &pairings {
            let usable = |name: &str| {
                (!name.starts_with("gnugo") || kind == GameKind::Go)
                    && (!name.starts_with("fsf") || kind == GameKind::IChess)
            };
            if !usable(&pair.0) || !usable(&pair.1) {
                continue;
            }
            match run_pairing(kind, pair, &args) {
                Ok(t) => {
                    let games = t.wins + t.draws + t.losses;
                    let score = (t.wins as f64 + 0.5 * t.draws as f64) / games.max(1) as f64 * 100.0;
                    let (am, ax) = median_max(&t.times[0]);
                    let (bm, bx) = median_max(&t.times[1]);
                    let referee_wins = if kind == GameKind::Go && t.refereed > 0 {
                        format!("{} (+{} draws)", t.referee_wins, t.referee_draws)
                    } else {
                        "-".to_owned()
                    };
                    println!(
                        "| {kind} | {} | {} | {games} | {} | {} | {} | {score:.0}% | {} | {} | {} | {} | {referee_wins} | {} | {} | {am:.3}, {ax:.3} | {bm:.3}, {bx:.3} |",
                        pair.0,
                        pair.1,
                        t.wins,
                        t.draws,
                        t.losses,
                        t.adjudicated,
                        t.forfeits.len(),
                        t.refereed,
                        t.agreed,
                        t.turns / games.max(1),
                        t.distinct.len()
                    );
                    for reason in t.forfeits.iter().take(3) {
                        eprintln!("  forfeit: {reason}");
                    }
                    disagreements.extend(t.disagreements);
                }
                Err(message) => eprintln!("{kind} {}:{}: {message}", pair.0, pair.1),
            }
        }
    }
    println!();
    if disagreements.is_empty() {
        println!("Referee: no disagreement.");
    } else {
        println!("Referee disagreements ({}):", disagreements.len());
        for line in &disagreements {
            println!("- {line}");
        }
    }
}
