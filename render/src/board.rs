//! Drawing the board: grounds, grid lines, pieces, marks and coordinates, into the indexed
//! frame. Only fills and tile copies happen here; every shape was pre-drawn.

use std::collections::HashMap;

use stonemate_engine::{BoardView, Cell, Color, Look, Role, Square};

use crate::frame::Frame;
use crate::layout::Layout;
use crate::motion;
use crate::palette::{Base, Ground, Ink, Palette};
use crate::picture::Picture;
use crate::pieces::Mark;
use crate::text::{self, Face};
use crate::tiles::{Place, Stack, TileSet};

/// How the pieces of each side are painted, `[white, black]`.
pub fn inks(view: &BoardView) -> [Ink; 2] {
    [Ink::of_side(view.side_names[0], Color::White), Ink::of_side(view.side_names[1], Color::Black)]
}

/// Draws the board of `picture` where `layout` puts it.
pub fn draw(frame: &mut Frame, picture: &Picture, layout: &Layout) {
    let view = &picture.view;
    let grounds = grounds(view, layout);
    let palette = Palette::get();
    for &(square, ground) in &grounds {
        let (x, y) = layout.cell_origin(square);
        frame.fill(x, y, layout.cell, layout.cell, palette.ground(ground));
        if matches!(view.cell(square), Cell::OffLimits) {
            hatch(frame, (x, y), layout.cell, palette.hatch);
        }
    }
    match view.look {
        Look::Checkered => {}
        Look::Plain => cell_borders(frame, view, layout),
        Look::Intersections => grid_lines(frame, view, layout),
    }
    let tiles = TileSet::get(layout.cell, Place::Board(view.look));
    let inks = inks(view);
    for &(square, ground) in &grounds {
        let (x, y) = layout.cell_origin(square);
        if let Ground::Owned(_, ink) = ground {
            territory(frame, (x, y), layout.cell, ink);
        }
        let stack = stack(picture, inks, square);
        if !stack.is_empty() {
            tiles.tile(ground, stack).draw(frame, x, y);
        }
    }
    if let Some(block) = view.block_move {
        motion::draw(frame, layout, block);
    }
    if !picture.arrows.is_empty() {
        motion::arrows(frame, layout, &picture.arrows);
    }
    coordinates(frame, view, layout);
}

/// The role a piece is drawn as: a stone where the view says its role is drawn so.
fn shown(view: &BoardView, role: Role) -> Role {
    if view.stone_role == Some(role) { Role::Stone } else { role }
}

/// What the cell of `square` shows, bottom first: a star point, the glow of a king in
/// check, the piece, the sign of a capture, the picture's own highlight, and its cross.
fn stack(picture: &Picture, inks: [Ink; 2], square: Square) -> Stack {
    let view = &picture.view;
    let ink = |color: Color| inks[color.index()];
    let cell = view.cell(square);
    let mut stack = Stack::default();
    if view.look == Look::Intersections && cell == Cell::Empty && view.star_points.contains(&square) {
        stack.push(Mark::Star);
    }
    if view.checked.contains(&square) {
        stack.push(Mark::Check);
    }
    if let Cell::Piece(piece) = cell {
        stack.push(Mark::Piece(shown(view, piece.role), ink(piece.color)));
    }
    if let Some(&(_, taken)) = view.captured.iter().find(|(at, _)| *at == square) {
        match cell {
            // Overwritten by a piece of the same side: the square looks as it did.
            Cell::Piece(piece) if piece.color == taken.color => {}
            Cell::Piece(_) => stack.push(Mark::CapturedCorner),
            _ => {
                stack.push(Mark::Ghost(shown(view, taken.role), ink(taken.color)));
                stack.push(Mark::CapturedCorner);
            }
        }
    }
    if picture.highlights.contains(&square) {
        stack.push(if matches!(cell, Cell::Piece(_)) { Mark::Ring } else { Mark::Dot });
    }
    if picture.marked.contains(&square) {
        stack.push(Mark::Crossed);
    }
    stack
}

/// Every existing square and its ground.
fn grounds(view: &BoardView, layout: &Layout) -> Vec<(Square, Ground)> {
    let owners: HashMap<Square, Option<Color>> = view.owner.iter().flatten().copied().collect();
    let inks = inks(view);
    layout
        .squares()
        .filter_map(|square| {
            let base = match (view.cell(square), view.look) {
                (Cell::Missing, _) => return None,
                (Cell::OffLimits, _) => Base::OffLimits,
                (_, Look::Checkered) if square.is_dark() => Base::Dark,
                (_, Look::Checkered) => Base::Light,
                (_, Look::Plain) => Base::Plain,
                (_, Look::Intersections) => Base::Wood,
            };
            let owner = owners.get(&square).copied().flatten().filter(|_| view.cell(square) == Cell::Empty);
            let ground = match owner {
                // A moved block shows its frames instead of lit squares.
                _ if view.block_move.is_none() && view.last_turn.contains(&square) => Ground::Last(base),
                Some(color) if base != Base::OffLimits => Ground::Owned(base, inks[color.index()]),
                _ => Ground::Normal(base),
            };
            Some((square, ground))
        })
        .collect()
}

/// The go sign of territory: a small square of the owner's colour, crisp (pixel-aligned,
/// so it needs no tile) in the middle of an owned empty cell.
fn territory(frame: &mut Frame, (x, y): (usize, usize), cell: usize, ink: Ink) {
    let palette = Palette::get();
    let side = (cell * 3 / 10).max(5);
    let edge = (cell / 40).max(1);
    let offset = (cell - side) / 2;
    frame.fill(x + offset, y + offset, side, side, palette.index(ink.outline()));
    frame.fill(x + offset + edge, y + offset + edge, side - 2 * edge, side - 2 * edge, palette.index(ink.body()));
}

/// Diagonal hatching over an off-limits cell, aligned to the frame so that neighbouring
/// cells join up into one band.
fn hatch(frame: &mut Frame, (x, y): (usize, usize), cell: usize, index: u8) {
    let period = (cell / 5).max(5);
    for row in y..y + cell {
        let mut column = x + (period - (row + x) % period) % period;
        while column < x + cell {
            frame.set(column, row, index);
            column += period;
        }
    }
}

fn line_width(layout: &Layout) -> usize {
    (layout.cell / 30).max(1)
}

fn exists(view: &BoardView, square: Option<Square>) -> bool {
    square.is_some_and(|square| view.cell(square) != Cell::Missing)
}

/// The four borders of every existing cell (shared borders are drawn twice, harmlessly).
fn cell_borders(frame: &mut Frame, view: &BoardView, layout: &Layout) {
    let (width, line) = (line_width(layout), Palette::get().line);
    for square in layout.squares().filter(|&square| view.cell(square) != Cell::Missing) {
        let (x, y) = layout.cell_origin(square);
        let c = layout.cell;
        frame.fill(x, y, c + width, width, line);
        frame.fill(x, y + c, c + width, width, line);
        frame.fill(x, y, width, c + width, line);
        frame.fill(x + c, y, width, c + width, line);
    }
}

/// Lines through the cell centres, as on a go board: each existing cell draws the half
/// lines towards its existing neighbours, so holes interrupt the grid.
fn grid_lines(frame: &mut Frame, view: &BoardView, layout: &Layout) {
    let (width, line) = (line_width(layout), Palette::get().line);
    let c = layout.cell;
    let centre = (c - width) / 2;
    for square in layout.squares().filter(|&square| view.cell(square) != Cell::Missing) {
        let (x, y) = layout.cell_origin(square);
        let (column, row) = layout.screen(square);
        let neighbour =
            |dc: isize, dr: isize| layout.square_at(column.wrapping_add_signed(dc), row.wrapping_add_signed(dr));
        let (left, right) = (exists(view, neighbour(-1, 0)), exists(view, neighbour(1, 0)));
        let (up, down) = (exists(view, neighbour(0, -1)), exists(view, neighbour(0, 1)));
        let from_x = if left { x } else { x + centre };
        let to_x = if right { x + c } else { x + centre + width };
        frame.fill(from_x, y + centre, to_x - from_x, width, line);
        let from_y = if up { y } else { y + centre };
        let to_y = if down { y + c } else { y + centre + width };
        frame.fill(x + centre, from_y, width, to_y - from_y, line);
    }
}

/// File letters under the board and rank numbers to its left, in the picture's orientation.
fn coordinates(frame: &mut Frame, view: &BoardView, layout: &Layout) {
    let ramp = &Palette::get().text_dim;
    let px = layout.coord_px;
    let cap = text::cap_height(px);
    let below = layout.board_y + layout.cell * usize::from(view.height);
    for file in 0..view.width {
        let label = char::from(b'a' + file).to_string();
        let (x, _) = layout.cell_origin(Square::new(file, 0).expect("board files fit"));
        let left = x + (layout.cell.saturating_sub(text::width(Face::Regular, px, &label))) / 2;
        text::draw(frame, Face::Regular, px, (left, below + cap + (layout.cell / 12).max(4)), &label, ramp);
    }
    for rank in 0..view.height {
        let label = (rank + 1).to_string();
        let (_, y) = layout.cell_origin(Square::new(0, rank).expect("board ranks fit"));
        let right = layout.board_x - (layout.cell / 10).clamp(4, 8);
        let left = right.saturating_sub(text::width(Face::Regular, px, &label));
        text::draw(frame, Face::Regular, px, (left, y + (layout.cell + cap) / 2), &label, ramp);
    }
}
