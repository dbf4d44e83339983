//! Board pictures: turns the engine's generic [`BoardView`] into PNG images.
//! Knows nothing about individual games.
//!
//! The API is [`Picture`] (what to draw) and [`png`] (draw it). This first renderer draws
//! plain cells and discs; the tiled, indexed renderer replaces it behind the same API.

use stonemate_engine::{BoardView, Cell, Color, Square};

/// Everything one picture shows: the position and the words around it.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    pub view: BoardView,
    /// A heading such as `#12 Chego`.
    pub title: String,
    /// The players' display names, `[white, black]`.
    pub players: [String; 2],
    /// Whose side is drawn at the bottom.
    pub perspective: Color,
    /// Extra squares to mark, such as the targets `/legal` lists.
    pub highlights: Vec<Square>,
}

const CELL: u32 = 32;

/// The picture as PNG bytes.
#[must_use]
pub fn png(picture: &Picture) -> Vec<u8> {
    let view = &picture.view;
    let (width, height) = (u32::from(view.width) * CELL, u32::from(view.height) * CELL);
    let mut pixels = vec![0u8; (width * height * 3) as usize];
    for y in 0..height {
        for x in 0..width {
            let (file, rank) = board_coordinates(view, picture.perspective, x / CELL, y / CELL);
            let colour = pixel_colour(view, file, rank, x % CELL, y % CELL);
            let at = ((y * width + x) * 3) as usize;
            pixels[at..at + 3].copy_from_slice(&colour);
        }
    }
    encode(width, height, &pixels)
}

/// The file and rank shown at column `x`, row `y` (row 0 at the top).
fn board_coordinates(view: &BoardView, perspective: Color, x: u32, y: u32) -> (u8, u8) {
    let (x, y) = (x as u8, y as u8);
    match perspective {
        Color::White => (x, view.height - 1 - y),
        Color::Black => (view.width - 1 - x, y),
    }
}

fn pixel_colour(view: &BoardView, file: u8, rank: u8, dx: u32, dy: u32) -> [u8; 3] {
    let square = Square::new(file, rank).expect("views fit the coordinate space");
    let background = match view.cell(square) {
        Cell::Missing => return [40, 40, 40],
        Cell::OffLimits => [150, 140, 120],
        _ if view.last_turn.contains(&square) => [205, 210, 106],
        _ if square.is_dark() => [181, 136, 99],
        _ => [240, 217, 181],
    };
    let (cx, cy) = (dx as i32 - CELL as i32 / 2, dy as i32 - CELL as i32 / 2);
    let inside = cx * cx + cy * cy <= (CELL as i32 * 2 / 5).pow(2);
    match view.cell(square) {
        Cell::Piece(piece) if inside => match piece.color {
            Color::White => [250, 250, 250],
            Color::Black => [20, 20, 20],
        },
        _ => background,
    }
}

fn encode(width: u32, height: u32, pixels: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    let mut writer = encoder.write_header().expect("writing to memory cannot fail");
    writer.write_image_data(pixels).expect("the buffer matches the header");
    drop(writer);
    bytes
}
