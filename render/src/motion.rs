//! A block moved as one piece (Gess): its frame before (dashed) and after (solid), joined by
//! an arrow from the old centre to the new. Drawn straight into the indexed frame with
//! imageproc (the frame's palette indices are its grey levels), in one flat colour.

use image::{ImageBuffer, Luma};
use imageproc::drawing::draw_polygon_mut;
use imageproc::point::Point;
use stonemate_engine::BlockMove;

use crate::frame::Frame;
use crate::layout::Layout;
use crate::palette::Palette;

/// The frames and arrow of `block`.
pub fn draw(frame: &mut Frame, layout: &Layout, block: BlockMove) {
    let cell = layout.cell as f32;
    let thick = (cell / 10.0).max(2.0);
    let from = centre(layout, block.from);
    let to = centre(layout, block.to);
    let half = cell * f32::from(block.size) / 2.0;
    paint(frame, |fill| {
        outline(fill, from, half, thick, Some(cell / 2.0));
        outline(fill, to, half, thick, None);
        arrow(fill, from, to, thick, cell);
    });
}

/// An arrow from the centre of each `from` cell to the centre of its `to` cell: a turn
/// drawn over the board (the preview of a picked turn), in the colour of block moves.
pub fn arrows(frame: &mut Frame, layout: &Layout, arrows: &[(stonemate_engine::Square, stonemate_engine::Square)]) {
    let cell = layout.cell as f32;
    let thick = (cell / 8.0).max(2.0);
    paint(frame, |fill| {
        for &(from, to) in arrows {
            arrow(fill, centre(layout, from), centre(layout, to), thick, cell);
        }
    });
}

/// Fills one polygon, given by its corners in pixels.
type Brush<'a> = dyn FnMut(&[(f32, f32)]) + 'a;

/// Hands `shapes` a brush that fills polygons in the motion colour straight into the
/// indexed frame (its palette indices are its grey levels).
fn paint(frame: &mut Frame, shapes: impl FnOnce(&mut Brush)) {
    let index = Palette::get().motion;
    let (width, height) = (frame.width as u32, frame.height as u32);
    let Some(mut canvas) = ImageBuffer::<Luma<u8>, &mut [u8]>::from_raw(width, height, &mut frame.pixels[..]) else {
        return;
    };
    shapes(&mut |points: &[(f32, f32)]| {
        let corners: Vec<Point<i32>> =
            points.iter().map(|&(x, y)| Point::new(x.round() as i32, y.round() as i32)).collect();
        draw_polygon_mut(&mut canvas, &corners, Luma([index]));
    });
}

/// The pixel centre of the cell of `square`.
fn centre(layout: &Layout, square: stonemate_engine::Square) -> (f32, f32) {
    let (x, y) = layout.cell_origin(square);
    let half = layout.cell as f32 / 2.0;
    (x as f32 + half, y as f32 + half)
}

/// A square outline `thick` wide just inside the square of half-side `half` around
/// `centre`; dashed with dashes `dash` long when asked.
fn outline(fill: &mut Brush, (cx, cy): (f32, f32), half: f32, thick: f32, dash: Option<f32>) {
    let (left, top, right, bottom) = (cx - half, cy - half, cx + half - 1.0, cy + half - 1.0);
    let side = right - left;
    let pieces: Vec<(f32, f32)> = match dash {
        None => vec![(0.0, side)],
        Some(dash) => {
            let count = ((side / dash) as usize | 1).max(3);
            let step = side / count as f32;
            (0..count).step_by(2).map(|i| (i as f32 * step, (i + 1) as f32 * step)).collect()
        }
    };
    for (start, end) in pieces {
        let rect = |x0: f32, y0: f32, x1: f32, y1: f32| [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
        fill(&rect(left + start, top, left + end, top + thick - 1.0));
        fill(&rect(left + start, bottom - thick + 1.0, left + end, bottom));
        fill(&rect(left, top + start, left + thick - 1.0, top + end));
        fill(&rect(right - thick + 1.0, top + start, right, top + end));
    }
}

/// A shaft from `from` to just short of `to`, and a head whose tip is at `to`.
fn arrow(fill: &mut Brush, from: (f32, f32), to: (f32, f32), thick: f32, cell: f32) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy);
    if length < 1.0 {
        return;
    }
    let (ux, uy) = (dx / length, dy / length);
    let head = (cell * 0.55).min(length * 0.6);
    let at = |along: f32, across: f32| (from.0 + ux * along - uy * across, from.1 + uy * along + ux * across);
    let shaft_end = length - head * 0.8;
    let w = thick / 2.0 + 0.5;
    fill(&[at(0.0, -w), at(shaft_end, -w), at(shaft_end, w), at(0.0, w)]);
    fill(&[at(length, 0.0), at(length - head, head * 0.5), at(length - head, -head * 0.5)]);
}

#[cfg(test)]
mod tests {
    use stonemate_engine::{BlockMove, Square};

    use super::*;

    #[test]
    fn the_arrow_points_from_the_old_centre_to_the_new() {
        let (layout, mut frame) = blank_board();
        let (from, to) = (Square::new(3, 7).unwrap(), Square::new(9, 7).unwrap());
        draw(&mut frame, &layout, BlockMove { from, to, size: 3 });
        let index = Palette::get().motion;
        let (fx, fy) = layout.cell_origin(from);
        let (tx, _) = layout.cell_origin(to);
        let row = fy + 10;
        // The shaft runs along the row between the centres; the head is wider than it.
        assert!((fx + 15..tx).all(|x| frame.get(x, row) == index));
        let column_height = |x: usize| (0..300).filter(|&y| frame.get(x, y) == index).count();
        assert!(column_height(tx + 3) > column_height(fx + 40), "the head is at the new centre");
        // Both frames: 3 cells wide around each centre.
        assert_eq!(frame.get(fx - 20, fy - 20), index);
        assert_eq!(frame.get(tx + 39, fy - 20 + 1), index);
    }

    #[test]
    fn a_turn_arrow_runs_between_the_two_cells() {
        let (layout, mut frame) = blank_board();
        let (from, to) = (Square::new(2, 2).unwrap(), Square::new(2, 8).unwrap());
        arrows(&mut frame, &layout, &[(from, to)]);
        let index = Palette::get().motion;
        let (fx, fy) = layout.cell_origin(from);
        let (_, ty) = layout.cell_origin(to);
        let (top, bottom) = (fy.min(ty), fy.max(ty));
        assert!((top + 15..bottom).all(|y| frame.get(fx + 10, y) == index), "the shaft joins the centres");
        assert_ne!(frame.get(fx + 10 + 40, fy + 10), index, "nothing beside it");
    }

    /// A 300-pixel picture of a 15x15 board of 20-pixel cells from its corner, and its
    /// blank frame.
    fn blank_board() -> (Layout, Frame) {
        let view = stonemate_engine::AnyGame::new(stonemate_engine::GameKind::Gess, &[]).expect("gess").view();
        let layout = Layout {
            width: 300,
            height: 300,
            cell: 20,
            board_x: 0,
            board_y: 0,
            files: 15,
            ranks: 15,
            flipped: false,
            ..Layout::new(&view, stonemate_engine::Color::White, 800, 0)
        };
        let mut frame = Frame::default();
        frame.reset(300, 300, 0);
        (layout, frame)
    }
}
