//! The marks a board view asks for, each checked on a small hand-built view by comparing
//! the drawn frames (the renderer is generic: any game's view is drawn the same way).

use crate::samples;

use stonemate_engine::{BlockMove, BoardView, Cell, Color, Look, Piece, Role, Square};
use stonemate_render::{Frame, Picture, frame, palette};

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

fn empty(look: Look, size: u8) -> BoardView {
    let cells = vec![Cell::Empty; usize::from(size) * usize::from(size)];
    BoardView { turns_played: 10, ..samples::view(size, size, look, cells) }
}

fn put(view: &mut BoardView, square: &str, color: Color, role: Role) {
    let square = sq(square);
    let index = usize::from(square.rank()) * usize::from(view.width) + usize::from(square.file());
    view.cells[index] = Cell::Piece(Piece::new(color, role));
}

fn draw(view: &BoardView) -> Frame {
    frame(&Picture::new(view.clone()))
}

/// Pixels clearly red (the colour of captures and checks).
fn red_pixels(frame: &Frame) -> usize {
    let palette = palette();
    frame
        .pixels
        .iter()
        .filter(|&&index| {
            let [r, g, b] = palette[usize::from(index)];
            i32::from(r) > i32::from(g) + 80 && i32::from(r) > i32::from(b) + 80
        })
        .count()
}

fn differing(a: &Frame, b: &Frame) -> usize {
    a.pixels.iter().zip(&b.pixels).filter(|(x, y)| x != y).count()
}

#[test]
fn a_king_in_check_stands_on_a_red_glow() {
    let mut view = empty(Look::Checkered, 8);
    put(&mut view, "e1", Color::White, Role::King);
    put(&mut view, "e8", Color::Black, Role::Rook);
    let calm = draw(&view);
    view.checked = vec![sq("e1")];
    let checked = draw(&view);
    assert!(red_pixels(&checked) > red_pixels(&calm) + 300, "{} red pixels", red_pixels(&checked));
}

#[test]
fn a_captured_king_is_drawn_as_a_king_where_it_stood() {
    let mut view = empty(Look::Plain, 7);
    view.captured = vec![(sq("d4"), Piece::new(Color::Black, Role::Stone))];
    let stone = draw(&view);
    view.captured = vec![(sq("d4"), Piece::new(Color::Black, Role::King))];
    let king = draw(&view);
    assert!(red_pixels(&king) > 20, "the capture is marked");
    assert!(differing(&king, &stone) > 30, "the king's crown shows: {} pixels differ", differing(&king, &stone));
    assert!(differing(&stone, &draw(&empty(Look::Plain, 7))) > 200, "the captured stone shows");
}

#[test]
fn stones_overwritten_by_their_own_side_look_as_they_did() {
    let mut view = empty(Look::Intersections, 9);
    put(&mut view, "d4", Color::White, Role::Stone);
    let before = draw(&view);
    view.captured = vec![(sq("d4"), Piece::new(Color::White, Role::Stone))];
    assert_eq!(draw(&view), before);
    view.captured = vec![(sq("d4"), Piece::new(Color::Black, Role::Stone))];
    assert!(red_pixels(&draw(&view)) > red_pixels(&before), "a stone of the other side is marked captured");
}

#[test]
fn rooks_are_drawn_as_stones_where_the_view_says_so() {
    let mut rooks = empty(Look::Intersections, 9);
    put(&mut rooks, "c3", Color::Black, Role::Rook);
    let figures = draw(&rooks);
    rooks.stone_role = Some(Role::Rook);
    let mut stones = empty(Look::Intersections, 9);
    put(&mut stones, "c3", Color::Black, Role::Stone);
    assert_eq!(draw(&rooks), draw(&stones));
    assert_ne!(figures, draw(&stones));
}

#[test]
fn star_points_are_drawn_on_empty_intersections_only() {
    let mut view = empty(Look::Intersections, 9);
    let plain = draw(&view);
    view.star_points = vec![sq("c3"), sq("e5")];
    let starred = draw(&view);
    assert!(differing(&starred, &plain) > 20);
    put(&mut view, "c3", Color::Black, Role::Stone);
    put(&mut view, "e5", Color::White, Role::Stone);
    let mut covered = empty(Look::Intersections, 9);
    put(&mut covered, "c3", Color::Black, Role::Stone);
    put(&mut covered, "e5", Color::White, Role::Stone);
    assert_eq!(draw(&view), draw(&covered), "a stone hides its star point");
}

#[test]
fn a_moved_block_is_framed_instead_of_lit() {
    let mut view = empty(Look::Intersections, 12);
    put(&mut view, "e7", Color::Black, Role::Stone);
    let block = BlockMove { from: sq("e4"), to: sq("e7"), size: 3 };
    view.block_move = Some(block);
    let framed = draw(&view);
    view.last_turn = ["d3", "e3", "f3", "d4", "e4", "f4", "d5", "e5", "f5", "d6", "e6", "f6"].map(sq).to_vec();
    assert_eq!(draw(&view), framed, "the squares of the footprints are not lit");
    view.block_move = None;
    let lit = draw(&view);
    assert!(differing(&lit, &framed) > 1000);
}

/// The picture's own `marked` squares (a generic overlay: the service crosses out the
/// pieces proposed as dead in go's counting) are crossed out in red over what stands there,
/// and only there.
#[test]
fn marked_squares_are_crossed_out_over_their_pieces() {
    let mut view = empty(Look::Intersections, 9);
    put(&mut view, "c3", Color::White, Role::Stone);
    put(&mut view, "g7", Color::Black, Role::Stone);
    let plain = Picture::new(view);
    let mut marked = plain.clone();
    marked.marked = vec![sq("c3")];
    let (before, after) = (frame(&plain), frame(&marked));
    assert!(red_pixels(&after) > red_pixels(&before) + 100, "{} red pixels", red_pixels(&after));
    // Crossing g7 instead changes other pixels: the mark is drawn where it is asked.
    let mut elsewhere = plain.clone();
    elsewhere.marked = vec![sq("g7")];
    assert!(differing(&frame(&elsewhere), &after) > 200);
}
