//! Where everything goes: the picture is a column of a title row, the bar of the player
//! at the top, the board with its coordinates, and the bar of the player at the bottom
//! (the one the picture is for). Sizes are named at 800 pixels on the long side and scale
//! with it. Also the one helper for orientation: which square is shown where.

use stonemate_engine::{BoardView, Color, Hand, Square};

use crate::text::{self, Face};

/// The long side of a board picture.
pub const LONG_SIDE: usize = 800;
/// Cells are never larger than this (at 800 pixels), so tiny boards stay compact.
const MAX_CELL: f32 = 96.0;
/// The narrowest picture: room for a name and a score beside a narrow board.
const MIN_WIDTH: f32 = 440.0;
const PAD: f32 = 12.0;
const TITLE_HEIGHT: f32 = 38.0;
const BAR_HEIGHT: f32 = 42.0;
const HAND_ROW_HEIGHT: f32 = 46.0;
const GAP: f32 = 6.0;
const COORD_WIDTH: f32 = 28.0;
const COORD_HEIGHT: f32 = 24.0;
pub const TITLE_PX: f32 = 23.0;
pub const NAME_PX: f32 = 21.0;
pub const COUNT_PX: f32 = 17.0;
const COORD_PX: f32 = 16.0;
/// A piece in hand.
const ICON: f32 = 40.0;
/// The stone beside a player's name.
const SWATCH: f32 = 28.0;

/// The geometry of one picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    pub pad: usize,
    pub cell: usize,
    /// The board's top-left corner.
    pub board_x: usize,
    pub board_y: usize,
    pub files: u8,
    pub ranks: u8,
    /// The side whose bar is at the bottom.
    pub perspective: Color,
    /// Whether rank 1 is at the top (the picture is for the side whose home is the last rank).
    pub flipped: bool,
    pub title_y: usize,
    pub title_height: usize,
    /// The tops of the two players' bars.
    pub top_bar_y: usize,
    pub bottom_bar_y: usize,
    pub bar_height: usize,
    pub hand_rows: usize,
    pub hand_row_height: usize,
    pub icon: usize,
    pub swatch: usize,
    pub title_px: u16,
    pub name_px: u16,
    pub count_px: u16,
    pub coord_px: u16,
    pub coord_width: usize,
}

fn px(value: f32, scale: f32) -> usize {
    (value * scale).round() as usize
}

impl Layout {
    /// The layout of `view` with `long_side` pixels on the long side and `hand_rows` rows
    /// of pieces in each hand (0 for games without hands).
    #[must_use]
    pub fn new(view: &BoardView, perspective: Color, long_side: usize, hand_rows: usize) -> Layout {
        let k = long_side as f32 / LONG_SIDE as f32;
        let (pad, gap) = (px(PAD, k), px(GAP, k));
        let (title_height, bar_height, hand_row_height) =
            (px(TITLE_HEIGHT, k), px(BAR_HEIGHT, k), px(HAND_ROW_HEIGHT, k));
        let (coord_width, coord_height) = (px(COORD_WIDTH, k), px(COORD_HEIGHT, k));
        let bar = bar_height + hand_rows * hand_row_height;
        let fixed_height = 2 * pad + title_height + 2 * bar + gap + coord_height;
        let fixed_width = 2 * pad + coord_width;
        let (files, ranks) = (view.width.max(1), view.height.max(1));
        let cell = (long_side.saturating_sub(fixed_height) / usize::from(ranks))
            .min(long_side.saturating_sub(fixed_width) / usize::from(files))
            .min(px(MAX_CELL, k))
            .max(4);
        let board_width = cell * usize::from(files);
        let width = (fixed_width + board_width).max(px(MIN_WIDTH, k));
        let board_x = pad + coord_width + (width - fixed_width - board_width) / 2;
        let top_bar_y = pad + title_height;
        let board_y = top_bar_y + bar + gap;
        let bottom_bar_y = board_y + cell * usize::from(ranks) + coord_height;
        let coord_px = (COORD_PX * k).min(cell as f32 * 0.5).max(9.0);
        Layout {
            width,
            height: bottom_bar_y + bar + pad,
            pad,
            cell,
            board_x,
            board_y,
            files,
            ranks,
            perspective,
            flipped: perspective != view.first_rank_side,
            title_y: pad,
            title_height,
            top_bar_y,
            bottom_bar_y,
            bar_height,
            hand_rows,
            hand_row_height,
            icon: px(ICON, k),
            swatch: px(SWATCH, k),
            title_px: (TITLE_PX * k).round() as u16,
            name_px: (NAME_PX * k).round() as u16,
            count_px: (COUNT_PX * k).round() as u16,
            coord_px: coord_px.round() as u16,
            coord_width,
        }
    }

    /// The column and row (from the top left) where `square` is shown.
    #[must_use]
    pub fn screen(&self, square: Square) -> (usize, usize) {
        let (file, rank) = (usize::from(square.file()), usize::from(square.rank()));
        let (files, ranks) = (usize::from(self.files), usize::from(self.ranks));
        if self.flipped { (files - 1 - file, rank) } else { (file, ranks - 1 - rank) }
    }

    /// The square shown at `column` and `row` (from the top left), if any.
    #[must_use]
    pub fn square_at(&self, column: usize, row: usize) -> Option<Square> {
        let (files, ranks) = (usize::from(self.files), usize::from(self.ranks));
        if column >= files || row >= ranks {
            return None;
        }
        let (file, rank) = if self.flipped { (files - 1 - column, row) } else { (column, ranks - 1 - row) };
        Square::new(file as u8, rank as u8)
    }

    /// The top-left pixel of the cell of `square`.
    #[must_use]
    pub fn cell_origin(&self, square: Square) -> (usize, usize) {
        let (column, row) = self.screen(square);
        (self.board_x + column * self.cell, self.board_y + row * self.cell)
    }

    /// The squares of the board, in no particular order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ranks).flat_map(move |rank| (0..self.files).filter_map(move |file| Square::new(file, rank)))
    }

    /// The width of one hand entry: the icon, its count, and the gap after it.
    #[must_use]
    pub fn hand_entry_width(&self, count: u8) -> usize {
        let label = count_label(count);
        let label_width = if label.is_empty() { 0 } else { text::width(Face::Bold, self.count_px, &label) + 2 };
        self.icon + label_width + self.icon / 4
    }
}

/// The count printed beside a piece in hand: nothing for one, `∞` for an endless supply.
#[must_use]
pub fn count_label(count: u8) -> String {
    match count {
        0 | 1 => String::new(),
        Hand::UNLIMITED => "∞".to_owned(),
        count => count.to_string(),
    }
}

/// How many rows each hand needs so that both hands of `view` fit (0 without hands),
/// judged at the narrowest picture width so that it never depends on the board.
#[must_use]
pub fn hand_rows(view: &BoardView, long_side: usize) -> usize {
    let Some(hands) = view.hands else { return 0 };
    let probe = Layout::new(view, Color::White, long_side, 1);
    let room = px(MIN_WIDTH, long_side as f32 / LONG_SIDE as f32) - 2 * probe.pad;
    hands.iter().map(|hand| rows_for(&probe, hand, room)).max().unwrap_or(1).max(1)
}

fn rows_for(layout: &Layout, hand: &Hand, room: usize) -> usize {
    let (mut rows, mut used) = (1, 0);
    for role in hand.roles() {
        let entry = layout.hand_entry_width(hand.count(role));
        if used + entry > room && used > 0 {
            rows += 1;
            used = 0;
        }
        used += entry;
    }
    rows
}
