//! What the search knows about each game beyond its rules: the order in which a node tries
//! its turns, the playout policy, where a playout stops, and how the position is scored
//! there.
//!
//! Uniform random play says little in most of these games: go and Chego end only after
//! two passes, Gess has no pass at all, and a random move in iChess or Chogo ignores every
//! threat. So playouts are short in the tactical games and end in an evaluation (material,
//! rings, the king's neighbours), while go and Chego play on to the end, go never filling
//! its own eyes.

use crate::fastgo::FastGo;
use rand::Rng;
use rand::seq::SliceRandom;
use stonemate_engine::chogo::Chogo;
use stonemate_engine::gess::Gess;
use stonemate_engine::go::Go;
use stonemate_engine::ichess::IChess;
use stonemate_engine::{AnyGame, Board, Cell, Color, Game, GameKind, Outcome, Role, Score, Square, Status, Turn};

/// Turns a playout plays in the tactical games before the evaluation takes over.
fn playout_plies(kind: GameKind) -> u32 {
    match kind {
        GameKind::IChess | GameKind::Chogo => 8,
        GameKind::Gess => 2,
        // Played out to the end; the limit only guards against a game that will not end.
        GameKind::Go | GameKind::Chego => 600,
    }
}

/// White's expected result, from 0 (Black wins) to 1 (White wins): exact once the game is
/// over, otherwise an estimate from the position alone.
#[must_use]
pub fn evaluate(game: &AnyGame) -> f64 {
    if let Status::Finished(ending) = game.status() {
        return match ending.outcome {
            Outcome::Winner(Color::White) => 1.0,
            Outcome::Winner(Color::Black) => 0.0,
            Outcome::Draw => 0.5,
        };
    }
    match game {
        AnyGame::Go(go) => points(go.score(), go.board()),
        AnyGame::Chego(chego) => points(chego.score(), chego.board()),
        AnyGame::IChess(ichess) => squash(material(ichess), 6.0),
        AnyGame::Chogo(chogo) => squash(chogo_balance(chogo), 3.0),
        AnyGame::Gess(gess) => squash(gess_balance(gess), 8.0),
    }
}

/// Plays a playout from `game` (changing it) and returns White's expected result.
pub fn rollout(game: &mut AnyGame, rng: &mut impl Rng) -> f64 {
    for _ in 0..playout_plies(game.kind()) {
        if game.to_move().is_none() {
            break;
        }
        let played = match game {
            AnyGame::Go(go) => go_step(go, rng),
            _ => {
                let turns = game.legal_turns();
                let turn = playout_turn(game, &turns, rng);
                turn.is_some_and(|turn| game.play(turn).is_ok())
            }
        };
        if !played {
            break;
        }
    }
    evaluate(game)
}

/// The turns of a new node, in the order the search will try them (last first): shuffled,
/// then the promising ones moved to the end.
#[must_use]
pub fn order_turns(game: &AnyGame, mut turns: Vec<Turn>, rng: &mut impl Rng) -> Vec<Turn> {
    turns.shuffle(rng);
    // Only iChess needs the board picture (which piece a move takes).
    let cells = match game {
        AnyGame::IChess(_) => Some(game.view()),
        _ => None,
    };
    let mover = game.to_move().unwrap_or(Color::White);
    turns.sort_by_cached_key(|&turn| match (game, &cells) {
        (AnyGame::IChess(_), Some(view)) => {
            target(turn).and_then(|to| victim(view.cell(to))).map_or(1, |role| 2 + role_value(role) as i32)
        }
        (AnyGame::Go(go), _) => i32::from(target(turn).is_some_and(|to| !fills_own_eye(go.board(), to, mover))),
        (AnyGame::Chego(_), _) => i32::from(turn != Turn::Pass),
        _ => 1,
    });
    turns
}

/// Turns a playout of hard's search plays before the evaluation takes over. Gess and
/// Chogo play none: the node is scored by the evaluation at once, which is cheaper and
/// less noisy than a few random turns (the tree reads the tactics). Chego's playouts stop
/// after 8 drops instead of running to the end, and its score (controlled squares and
/// captures) as it then stands judges them. With the turn orders below (and RAVE in
/// Chego), hard won 91 of 100 Chego and 77 of 100 Gess games against the baseline at
/// 0.5 s a turn (`TOURNAMENT.md`, session 9); at hard's own budget Gess's lost 6 to 14,
/// so only `Method::Strong` still plays it (issue 42).
fn strong_plies(kind: GameKind) -> u32 {
    match kind {
        GameKind::Chego => 8,
        GameKind::Gess | GameKind::Chogo => 0,
        other => playout_plies(other),
    }
}

/// Hard's playout in Chego, Gess and Chogo (changing `game`): White's expected result.
/// `played` hears each turn of the playout with its mover.
pub(crate) fn strong_rollout(game: &mut AnyGame, rng: &mut impl Rng, mut played: impl FnMut(Color, Turn)) -> f64 {
    if !matches!(game.kind(), GameKind::Chego | GameKind::Gess | GameKind::Chogo) {
        return rollout(game, rng);
    }
    for _ in 0..strong_plies(game.kind()) {
        let Some(mover) = game.to_move() else { break };
        let turns = game.legal_turns();
        let Some(turn) = playout_turn(game, &turns, rng) else { break };
        if game.play(turn).is_err() {
            break;
        }
        played(mover, turn);
    }
    evaluate(game)
}

/// Hard's order of a new node's turns (last first) in Gess and Chogo: the turns that can
/// take something (Gess: a footprint over enemy stones; Chogo: a piece stopping next to
/// an enemy one, above all the enemy king) tried first. Chego, whose hard search chooses
/// by RAVE, keeps the other levels' order.
pub(crate) fn strong_order_turns(game: &AnyGame, mut turns: Vec<Turn>, rng: &mut impl Rng) -> Vec<Turn> {
    let mover = game.to_move().unwrap_or(Color::White);
    match game {
        AnyGame::Gess(gess) => {
            turns.shuffle(rng);
            turns.sort_by_cached_key(|&turn| i32::from(gess_captures(gess, turn)));
            turns
        }
        AnyGame::Chogo(chogo) => {
            turns.shuffle(rng);
            let board = chogo.board();
            turns.sort_by_cached_key(|&turn| {
                let Some(to) = target(turn) else { return 0 };
                let mut key = 0;
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if let Some(piece) = board.shape().step(to, df, dr).and_then(|next| board.get(next))
                        && piece.color != mover
                    {
                        key = key.max(if piece.role == Role::King { 2 } else { 1 });
                    }
                }
                key
            });
            turns
        }
        // The other games (and Chego) keep the order of the other levels.
        _ => order_turns(game, turns, rng),
    }
}

/// [`order_turns`] for go on the playout board: real drops that do not fill an own eye
/// last (tried first), passing and eye-filling first.
pub(crate) fn order_go_turns(go: &FastGo, mut turns: Vec<Turn>, rng: &mut impl Rng) -> Vec<Turn> {
    turns.shuffle(rng);
    let mover = go.to_move().unwrap_or(Color::White);
    turns.sort_by_cached_key(|&turn| i32::from(target(turn).is_some_and(|to| !go.fills_own_eye(to, mover))));
    turns
}

/// A playout's choice among `turns`: captures first in iChess (the biggest victim) and
/// Gess, real drops before passing in Chego, uniform otherwise.
fn playout_turn(game: &AnyGame, turns: &[Turn], rng: &mut impl Rng) -> Option<Turn> {
    match game {
        AnyGame::IChess(ichess) if rng.gen_bool(0.75) => {
            best_capture(ichess, turns).or_else(|| turns.choose(rng).copied())
        }
        AnyGame::Gess(gess) if rng.gen_bool(0.5) => {
            let captures: Vec<Turn> = turns.iter().copied().filter(|&turn| gess_captures(gess, turn)).collect();
            captures.choose(rng).or_else(|| turns.choose(rng)).copied()
        }
        AnyGame::Chego(_) => {
            let drops: Vec<Turn> = turns.iter().copied().filter(|&turn| turn != Turn::Pass).collect();
            drops.choose(rng).copied().or(Some(Turn::Pass))
        }
        _ => turns.choose(rng).copied(),
    }
}

/// One go playout turn: a random drop on an empty square that is not the mover's own eye,
/// tried square by square until one is legal; a pass when none is.
fn go_step(go: &mut Go, rng: &mut impl Rng) -> bool {
    let Some(mover) = go.to_move() else { return false };
    let board = go.board();
    let mut empty: Vec<Square> = board.shape().squares().filter(|&s| board.is_empty_square(s)).collect();
    let roles = go.options().pieces.clone();
    while !empty.is_empty() {
        let square = empty.swap_remove(rng.gen_range(0..empty.len()));
        if fills_own_eye(go.board(), square, mover) {
            continue;
        }
        let role = roles.choose(rng).copied().unwrap_or(Role::Rook);
        if go.play(Turn::Drop { role, to: square }).is_ok() {
            return true;
        }
    }
    go.play(Turn::Pass).is_ok()
}

/// An empty square whose orthogonal neighbours are all the mover's, with at most one enemy
/// diagonal neighbour (none on the edge): filling it throws away a living group's eye.
fn fills_own_eye(board: &Board, square: Square, mover: Color) -> bool {
    let shape = board.shape();
    let own = |s: Square| board.get(s).is_some_and(|piece| piece.color == mover);
    let orthogonal = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    if !board.is_empty_square(square) {
        return false;
    }
    for (df, dr) in orthogonal {
        if let Some(next) = shape.step(square, df, dr)
            && !own(next)
        {
            return false;
        }
    }
    let mut enemy = 0;
    let mut off_board = 0;
    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        match shape.step(square, df, dr) {
            Some(next) => enemy += u32::from(board.get(next).is_some_and(|piece| piece.color != mover)),
            None => off_board += 1,
        }
    }
    if off_board > 0 { enemy == 0 } else { enemy <= 1 }
}

/// Where a turn lands (the drop square, the move's target); nowhere for a pass.
fn target(turn: Turn) -> Option<Square> {
    match turn {
        Turn::Drop { to, .. } | Turn::Move { to, .. } | Turn::Tandem { to, .. } | Turn::Relocate { to, .. } => Some(to),
        Turn::Pass => None,
    }
}

fn victim(cell: Cell) -> Option<Role> {
    match cell {
        Cell::Piece(piece) => Some(piece.role),
        _ => None,
    }
}

/// The capture of the most valuable piece, if any turn captures.
fn best_capture(ichess: &IChess, turns: &[Turn]) -> Option<Turn> {
    let view = ichess.view();
    turns
        .iter()
        .filter(|turn| matches!(turn, Turn::Move { .. }))
        .filter_map(|&turn| target(turn).and_then(|to| victim(view.cell(to))).map(|role| (role_value(role), turn)))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, turn)| turn)
}

/// Whether a Gess move's new footprint covers enemy stones.
fn gess_captures(gess: &Gess, turn: Turn) -> bool {
    let Turn::Move { to, .. } = turn else { return false };
    let Some(mover) = gess.to_move() else { return false };
    let enemy = gess.stones_of(mover.other());
    (-1..=1).any(|df| (-1..=1).any(|dr| to.offset(df, dr).is_some_and(|square| enemy.contains(square))))
}

/// Pawn units of an iChess piece.
fn role_value(role: Role) -> f64 {
    match role {
        Role::Queen => 9.0,
        Role::Rook => 5.0,
        Role::Bishop | Role::Knight => 3.0,
        Role::Ferz => 2.0,
        Role::Pawn => 1.0,
        _ => 0.0,
    }
}

/// White's material minus Black's, on the board and in hand (a piece in hand can go
/// anywhere in the own half, so it counts a little more).
fn material(ichess: &IChess) -> f64 {
    let view = ichess.view();
    let mut balance = 0.0;
    for cell in &view.cells {
        if let Cell::Piece(piece) = *cell {
            balance += sign(piece.color) * role_value(piece.role);
        }
    }
    if let Some(hands) = view.hands {
        for color in Color::BOTH {
            for role in hands[color.index()].roles() {
                balance += sign(color) * role_value(role) * 1.1 * f64::from(hands[color.index()].count(role));
            }
        }
    }
    balance
}

fn sign(color: Color) -> f64 {
    if color == Color::White { 1.0 } else { -1.0 }
}

/// Chogo: pieces on the board, less for trapped ones and for a king hemmed in by enemies.
fn chogo_balance(chogo: &Chogo) -> f64 {
    let board = chogo.board();
    let mut balance = 0.0;
    for (square, piece) in board.pieces() {
        let mut worth = 1.0;
        if chogo.is_trapped(square) {
            worth -= 0.3;
        }
        if piece.role == Role::King {
            worth = -king_danger(board, square, piece.color);
        }
        balance += sign(piece.color) * worth;
    }
    balance
}

/// How close a Chogo king is to capture: enemy neighbours, and its lack of empty ones.
fn king_danger(board: &Board, square: Square, color: Color) -> f64 {
    let mut enemies = 0.0;
    let mut empty = 0.0;
    for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        match board.shape().step(square, df, dr).and_then(|next| board.is_empty_square(next).then_some(next)) {
            Some(_) => empty += 1.0,
            None => {
                let enemy = board.shape().step(square, df, dr).and_then(|next| board.get(next));
                enemies += f64::from(u8::from(enemy.is_some_and(|piece| piece.color != color)));
            }
        }
    }
    enemies * 0.8 + if empty <= 1.0 { 0.8 } else { 0.0 }
}

/// Gess: stones, and rings above all (losing the last one loses the game).
fn gess_balance(gess: &Gess) -> f64 {
    let count = |color: Color| gess.stones_of(color).len() as f64 + 4.0 * gess.rings(color).len() as f64;
    count(Color::White) - count(Color::Black)
}

/// Chego and go: the points as they stand, relative to the board's size.
fn points(score: Option<Score>, board: &Board) -> f64 {
    let Some(score) = score else { return 0.5 };
    let diff = (score.white.0 - score.black.0) as f64 / 2.0;
    let scale = (board.shape().square_count() as f64 / 12.0).max(2.0);
    squash(diff, scale)
}

fn squash(diff: f64, scale: f64) -> f64 {
    0.5 + 0.5 * (diff / scale).tanh()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn go_after(turns: &str) -> Go {
        let options = vec![("board".to_owned(), "5x5".to_owned())];
        let mut game = AnyGame::new(GameKind::Go, &options).unwrap();
        for turn in turns.split_whitespace() {
            game.play_text(turn).unwrap();
        }
        match game {
            AnyGame::Go(go) => go,
            _ => unreachable!("a go game"),
        }
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn go_playouts_never_fill_their_own_eye() {
        let go = go_after("a2 e5 b1 e4 b3 d5 c2 e3");
        assert!(fills_own_eye(go.board(), sq("b2"), Color::Black));
        assert!(!fills_own_eye(go.board(), sq("b2"), Color::White));
        assert!(!fills_own_eye(go.board(), sq("c3"), Color::Black));
        // A corner point surrounded by own stones is an eye too.
        assert!(fills_own_eye(go.board(), sq("a1"), Color::Black));
    }

    #[test]
    fn two_enemy_diagonals_make_a_false_eye_that_may_be_filled() {
        let go = go_after("a2 e5 b1 c1 b3 c3 c2 e3");
        assert!(!fills_own_eye(go.board(), sq("b2"), Color::Black));
    }

    #[test]
    fn ichess_nodes_try_the_biggest_capture_first() {
        let ichess = IChess::from_fen("4k3/8/8/3q4/5N2/8/8/4K3[] w").unwrap();
        let game = AnyGame::IChess(ichess);
        let ordered = order_turns(&game, game.legal_turns(), &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(ordered.last().map(|&turn| game.format_turn(turn)), Some("NxQd5".to_owned()));
    }

    #[test]
    fn go_nodes_try_passing_and_eye_filling_last() {
        let game = AnyGame::Go(go_after("a2 e5 b1 e4 b3 d5 c2 e3"));
        let ordered = order_turns(&game, game.legal_turns(), &mut ChaCha8Rng::seed_from_u64(1));
        let first: Vec<String> = ordered.iter().take(3).map(|&turn| game.format_turn(turn)).collect();
        assert!(first.contains(&"pass".to_owned()), "{first:?}");
        assert!(first.contains(&"R@b2".to_owned()), "{first:?}");
    }

    #[test]
    fn a_finished_game_evaluates_to_its_result() {
        let mut game = AnyGame::Go(go_after("c3"));
        game.play_text("pass").unwrap();
        game.play_text("pass").unwrap();
        assert_eq!(evaluate(&game), 0.0, "Black's stone controls the board");
    }

    #[test]
    fn material_ahead_is_better_in_ichess() {
        let ahead = AnyGame::IChess(IChess::from_fen("4k3/8/8/8/5N2/8/8/3QK3[] w").unwrap());
        let behind = AnyGame::IChess(IChess::from_fen("3qk3/8/8/8/5N2/8/8/4K3[] w").unwrap());
        assert!(evaluate(&ahead) > 0.9);
        assert!(evaluate(&behind) < 0.2);
    }

    fn replayed(kind: GameKind, record: &str) -> AnyGame {
        let tokens: Vec<String> = record.split_whitespace().map(str::to_owned).collect();
        AnyGame::replay(kind, &[], &tokens).unwrap().game
    }

    #[test]
    fn hards_chogo_nodes_try_a_turn_next_to_the_enemy_king_first() {
        // Black's king on d6: White's turns that stop next to it come last in the list
        // (the search tries the list from its end).
        let game = replayed(GameKind::Chogo, "K@e2 K@d6");
        let turns = game.legal_turns();
        let king = sq("d6");
        let next_to_king = |turn: Turn| {
            target(turn).is_some_and(|to| {
                [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|&(df, dr)| to.offset(df, dr) == Some(king))
            })
        };
        assert!(turns.iter().any(|&turn| next_to_king(turn)), "the test needs such a turn");
        let ordered = strong_order_turns(&game, turns, &mut ChaCha8Rng::seed_from_u64(1));
        assert!(next_to_king(*ordered.last().unwrap()), "{}", game.format_turn(*ordered.last().unwrap()));
    }

    #[test]
    fn hards_gess_nodes_try_captures_first() {
        // The middle of the example game, where both sides' stones are within reach.
        let path = format!("{}/../examples/gess.txt", env!("CARGO_MANIFEST_DIR"));
        let tokens = stonemate_engine::notation::record_tokens(&std::fs::read_to_string(path).unwrap());
        let game = AnyGame::replay(GameKind::Gess, &[], &tokens[..tokens.len() / 2]).unwrap().game;
        let AnyGame::Gess(gess) = &game else { unreachable!("a Gess game") };
        let turns = game.legal_turns();
        let captures = turns.iter().filter(|&&turn| gess_captures(gess, turn)).count();
        assert!(captures > 0 && captures < turns.len(), "the test needs both kinds");
        let ordered = strong_order_turns(&game, turns, &mut ChaCha8Rng::seed_from_u64(1));
        assert!(ordered[ordered.len() - captures..].iter().all(|&turn| gess_captures(gess, turn)));
    }

    #[test]
    fn rings_count_in_gess() {
        let game = AnyGame::new(GameKind::Gess, &[]).unwrap();
        assert!((evaluate(&game) - 0.5).abs() < 1e-9, "the start is even");
    }
}
