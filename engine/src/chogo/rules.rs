//! Chogo's board and the rules that only read a position: which cells exist, traps
//! (rule 6), captures (rule 9), cities (rule 8, ruling H4), solid rectangles (rule 7) and
//! where single pieces and tandems can go (rules 5 and 7).

use crate::board::Board;
use crate::piece::Role;
use crate::square::{Color, Shape, Square, SquareSet};
use crate::turn::Rect;

pub const WIDTH: u8 = 8;
pub const HEIGHT: u8 = 7;

/// Rule 1: each corner and its two neighbours, as (file, rank) from 0.
const MISSING: [(u8, u8); 12] =
    [(0, 0), (1, 0), (0, 1), (6, 0), (7, 0), (7, 1), (0, 5), (0, 6), (1, 6), (7, 5), (6, 6), (7, 6)];

/// The 44-cell board: an 8x7 rectangle less three cells at each corner.
#[must_use]
pub fn shape() -> Shape {
    Shape::rectangle(WIDTH, HEIGHT).with_holes(MISSING.iter().filter_map(|&(file, rank)| Square::new(file, rank)))
}

/// The four orthogonal directions pieces and tandems move in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

impl Direction {
    pub const ALL: [Direction; 4] = [Direction::North, Direction::East, Direction::South, Direction::West];

    /// (files, ranks) of one step.
    #[must_use]
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }
}

/// The existing cell `distance` steps from `square` in `dir` (`None` past an edge or at a
/// missing cell).
#[must_use]
pub fn step(shape: &Shape, square: Square, dir: Direction, distance: u8) -> Option<Square> {
    let (df, dr) = dir.delta();
    let n = i32::from(distance);
    square.offset(df * n, dr * n).filter(|&to| shape.contains(to))
}

/// The direction and distance from `from` to `to` along a file or rank.
#[must_use]
pub fn line(from: Square, to: Square) -> Option<(Direction, u8)> {
    let (ff, fr, tf, tr) = (from.file(), from.rank(), to.file(), to.rank());
    match (ff == tf, fr == tr) {
        (true, false) if tr > fr => Some((Direction::North, tr - fr)),
        (true, false) => Some((Direction::South, fr - tr)),
        (false, true) if tf > ff => Some((Direction::East, tf - ff)),
        (false, true) => Some((Direction::West, ff - tf)),
        _ => None,
    }
}

/// The enemy of the piece on `square` next to it in `dir`, if there is one.
fn enemy_at(board: &Board, square: Square, color: Color, dir: Direction) -> Option<Square> {
    step(board.shape(), square, dir, 1).filter(|&next| board.get(next).is_some_and(|piece| piece.color != color))
}

/// Rule 6: the two enemies on opposite sides that trap the piece on `square`, if any.
#[must_use]
pub fn trap(board: &Board, square: Square) -> Option<(Square, Square)> {
    let color = board.get(square)?.color;
    [(Direction::West, Direction::East), (Direction::South, Direction::North)]
        .into_iter()
        .find_map(|(a, b)| Some((enemy_at(board, square, color, a)?, enemy_at(board, square, color, b)?)))
}

#[must_use]
pub fn is_trapped(board: &Board, square: Square) -> bool {
    trap(board, square).is_some()
}

/// Rule 9: no empty orthogonal neighbour (missing cells and the edge are not empty) and at
/// least two enemy orthogonal neighbours.
fn is_enclosed(board: &Board, square: Square, color: Color) -> bool {
    let mut enemies = 0;
    for dir in Direction::ALL {
        let Some(next) = step(board.shape(), square, dir, 1) else { continue };
        match board.get(next) {
            None => return false,
            Some(piece) if piece.color != color => enemies += 1,
            Some(_) => {}
        }
    }
    enemies >= 2
}

/// Rule 9: every piece of either side that the capture rule removes, found on the board as
/// it stands, so that the removals happen all at the same time.
#[must_use]
pub fn enclosed_pieces(board: &Board) -> SquareSet {
    board.pieces().filter(|&(square, piece)| is_enclosed(board, square, piece.color)).map(|(s, _)| s).collect()
}

/// A connected group of empty cells and which sides' pieces border it.
struct Area {
    cells: SquareSet,
    touches: [bool; 2],
}

fn empty_area(board: &Board, start: Square) -> Area {
    let mut area = Area { cells: SquareSet::EMPTY, touches: [false; 2] };
    area.cells.insert(start);
    let mut queue = vec![start];
    while let Some(cell) = queue.pop() {
        for dir in Direction::ALL {
            let Some(next) = step(board.shape(), cell, dir, 1) else { continue };
            match board.get(next) {
                Some(piece) => area.touches[piece.color.index()] = true,
                None if !area.cells.contains(next) => {
                    area.cells.insert(next);
                    queue.push(next);
                }
                None => {}
            }
        }
    }
    area
}

/// Rule 8 and ruling H4: the empty cells of the opponent's cities, seen by `mover`. A city is
/// a connected empty area bordered by the opponent's pieces (and missing cells and edges);
/// an area touching any piece of `mover` is never a city.
#[must_use]
pub fn city_cells(board: &Board, mover: Color) -> SquareSet {
    let mut seen = SquareSet::EMPTY;
    let mut cities = SquareSet::EMPTY;
    for start in board.shape().squares() {
        if board.get(start).is_some() || seen.contains(start) {
            continue;
        }
        let area = empty_area(board, start);
        let is_city = area.touches[mover.other().index()] && !area.touches[mover.index()];
        for cell in area.cells.iter() {
            seen.insert(cell);
            if is_city {
                cities.insert(cell);
            }
        }
    }
    cities
}

/// Rule 5: the cells a single piece on `from` can move to, ignoring traps (a soldier
/// slides over empty cells, a king steps once).
#[must_use]
pub fn slides(board: &Board, from: Square, role: Role) -> Vec<Square> {
    let reach = if role == Role::King { 1 } else { WIDTH.max(HEIGHT) };
    let mut targets = Vec::new();
    for dir in Direction::ALL {
        for distance in 1..=reach {
            match step(board.shape(), from, dir, distance) {
                Some(to) if board.get(to).is_none() => targets.push(to),
                _ => break,
            }
        }
    }
    targets
}

/// The cells of `rect` that lead when it moves in `dir`: its front row or column.
fn leading_edge(rect: Rect, dir: Direction) -> impl Iterator<Item = Square> {
    let (low, high) = (rect.low(), rect.high());
    let (files, ranks) = match dir {
        Direction::North => (low.file()..=high.file(), high.rank()..=high.rank()),
        Direction::South => (low.file()..=high.file(), low.rank()..=low.rank()),
        Direction::East => (high.file()..=high.file(), low.rank()..=high.rank()),
        Direction::West => (low.file()..=low.file(), low.rank()..=high.rank()),
    };
    ranks.flat_map(move |rank| files.clone().filter_map(move |file| Square::new(file, rank)))
}

/// Rule 7: the first cell that blocks `rect` moving `distance` cells in `dir`, if any. Only
/// the cells beyond its leading edge are entered; the cells the unit leaves count as empty.
#[must_use]
pub fn tandem_block(board: &Board, rect: Rect, dir: Direction, distance: u8) -> Option<Square> {
    let (df, dr) = dir.delta();
    for k in 1..=i32::from(distance) {
        for edge in leading_edge(rect, dir) {
            let Some(cell) = edge.offset(df * k, dr * k) else { return Some(edge) };
            if !board.is_empty_square(cell) {
                return Some(cell);
            }
        }
    }
    None
}

/// How far `rect` can slide in `dir` (rule 7).
#[must_use]
pub fn tandem_reach(board: &Board, rect: Rect, dir: Direction) -> u8 {
    (1..=WIDTH.max(HEIGHT))
        .take_while(|&distance| tandem_block(board, rect, dir, distance).is_none())
        .last()
        .unwrap_or(0)
}

/// The direction and distance meant by a tandem target (Notation): any cell outside the
/// rectangle, on one of its rows (east or west) or columns (north or south).
#[must_use]
pub fn tandem_motion(rect: Rect, to: Square) -> Option<(Direction, u8)> {
    let (low, high) = (rect.low(), rect.high());
    let (file, rank) = (to.file(), to.rank());
    if (low.rank()..=high.rank()).contains(&rank) {
        if file > high.file() {
            return Some((Direction::East, file - high.file()));
        }
        if file < low.file() {
            return Some((Direction::West, low.file() - file));
        }
    } else if (low.file()..=high.file()).contains(&file) {
        if rank > high.rank() {
            return Some((Direction::North, rank - high.rank()));
        }
        return Some((Direction::South, low.rank() - rank));
    }
    None
}

/// The canonical target: the cell reached by the lowest (rank, then file) leading piece.
#[must_use]
pub fn canonical_target(rect: Rect, dir: Direction, distance: u8) -> Option<Square> {
    let lowest = leading_edge(rect, dir).next()?;
    let (df, dr) = dir.delta();
    let n = i32::from(distance);
    lowest.offset(df * n, dr * n)
}

/// Rule 7 and ruling H4: every solid rectangle of two or more pieces of `color`, also those
/// inside larger groups, by lower-left corner then size.
#[must_use]
pub fn solid_rects(board: &Board, color: Color) -> Vec<Rect> {
    let own = board.squares_of(color);
    let run = |from: Square| {
        (0..WIDTH).take_while(|&i| from.offset(i32::from(i), 0).is_some_and(|s| own.contains(s))).count()
    };
    let mut rects = Vec::new();
    for low in own.iter() {
        let mut width = usize::MAX;
        for height in 0..HEIGHT {
            let Some(row) = low.offset(0, i32::from(height)) else { break };
            width = width.min(run(row));
            if width == 0 {
                break;
            }
            for w in 0..width {
                let high = row.offset(w as i32, 0).unwrap_or(row);
                if w > 0 || height > 0 {
                    rects.push(Rect::spanning(low, high));
                }
            }
        }
    }
    rects
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_44_cells() {
        assert_eq!(shape().square_count(), 44);
    }

    #[test]
    fn canonical_targets_follow_the_lowest_leading_piece() {
        let sq = |name: &str| name.parse::<Square>().unwrap();
        let block = Rect::spanning(sq("f3"), sq("g4"));
        assert_eq!(tandem_motion(block, sq("d4")), Some((Direction::West, 2)));
        assert_eq!(canonical_target(block, Direction::West, 2), Some(sq("d3")));
        assert_eq!(canonical_target(block, Direction::North, 1), Some(sq("f5")));
        assert_eq!(canonical_target(block, Direction::East, 1), Some(sq("h3")));
        assert_eq!(tandem_motion(block, sq("e5")), None);
        assert_eq!(tandem_motion(block, sq("g3")), None);
    }
}
