//! Table pictures: a title line, column headings, and rows of text cells grouped in
//! sections (each with its own heading), drawn with the board pictures' fonts and text
//! (every script a name can hold) into the same palette frame and PNG encoder. Knows
//! nothing about what the table is of: the bot draws tournament standings with it.
//!
//! One call draws one page. A page holds at most [`ROWS_PER_PAGE`] rows; the caller pages.
//! Rows past that are not drawn, and the page's last line says how many were left out.
//! Columns are as wide as their widest cell ([`Width::Fit`], capped at an equal share of
//! the picture) or share what is left ([`Width::Fill`]); a cell that does not fit is cut
//! with `…`, never drawn past its column.

use std::cell::RefCell;
use std::sync::OnceLock;

use crate::encode;
use crate::frame::Frame;
use crate::palette::{ACCENT, PAGE, Palette, Rgb, TEXT, TEXT_DIM, TEXT_LEVELS, mix};
use crate::text::{self, Face};

/// The most rows one page shows (over all its sections): the bot's page size.
pub const ROWS_PER_PAGE: usize = 25;
/// The most columns a table shows; further columns (and their cells) are left out.
pub const MAX_COLUMNS: usize = 8;
/// A cell's text is first cut to this many characters (then to its column's width), so
/// that a huge text costs no more to measure than a long name.
pub const MAX_CELL_CHARS: usize = 128;
/// The width of every table picture, in pixels.
pub const TABLE_WIDTH: usize = 640;
/// The most bytes a table page's PNG should take (issue #39: 60 KB). A full page of 25 rows
/// of names in many scripts deflates to 40-50 KB at the fast level; under the board
/// pictures' 40 KB budget such a page was deflated a second time at the slow level, which
/// took four times as long (about 4 ms against 1 ms) to save a few kilobytes.
pub const MAX_TABLE_PNG_BYTES: usize = 60 * 1024;

const PAD: usize = 16;
const GAP: usize = 14;
const TITLE_HEIGHT: usize = 46;
const TITLE_PX: u16 = 24;
const NOTE_PX: u16 = 17;
const HEADING_HEIGHT: usize = 30;
const HEADING_PX: u16 = 16;
const SECTION_GAP: usize = 10;
const SECTION_HEIGHT: usize = 36;
const SECTION_PX: u16 = 19;
const ROW_HEIGHT: usize = 32;
const ROW_PX: u16 = 19;
const FOOTER_HEIGHT: usize = 32;
const FOOTER_PX: u16 = 16;
/// The bar at the left end of a highlighted row.
const MARK_WIDTH: usize = 4;

/// How a column's cells sit in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Align {
    /// Text from the column's left edge.
    #[default]
    Left,
    /// Text ending at the column's right edge: numbers, so that their digits line up.
    Right,
}

/// How wide a column is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Width {
    /// As wide as its widest cell or heading, but at most an equal share of the picture.
    #[default]
    Fit,
    /// The room the other columns leave, shared equally among the `Fill` columns.
    Fill,
}

/// One column: its heading and how its cells are laid out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Column {
    /// The heading, such as `Pts`.
    pub heading: String,
    /// Where cells sit in the column.
    pub align: Align,
    /// How wide the column is.
    pub width: Width,
}

impl Column {
    /// A column of names: left-aligned, taking the room the others leave.
    #[must_use]
    pub fn name(heading: &str) -> Column {
        Column { heading: heading.to_owned(), align: Align::Left, width: Width::Fill }
    }

    /// A column of numbers: right-aligned, as wide as its widest cell.
    #[must_use]
    pub fn number(heading: &str) -> Column {
        Column { heading: heading.to_owned(), align: Align::Right, width: Width::Fit }
    }
}

/// One row: its cells, one per column in order (missing ones are empty, extra ones are
/// left out), and how it is marked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Row {
    /// The cells' texts.
    pub cells: Vec<String>,
    /// Drawn on a tinted band in bold, with a bar at its left end: the caller's own row.
    pub highlight: bool,
    /// Drawn in grey: a row that no longer counts, such as a withdrawn player's.
    pub dim: bool,
}

impl Row {
    /// A plain row of `cells`.
    #[must_use]
    pub fn new<S: Into<String>>(cells: impl IntoIterator<Item = S>) -> Row {
        Row { cells: cells.into_iter().map(Into::into).collect(), highlight: false, dim: false }
    }

    /// The row, highlighted.
    #[must_use]
    pub fn highlighted(self) -> Row {
        Row { highlight: true, ..self }
    }

    /// The row, greyed.
    #[must_use]
    pub fn dimmed(self) -> Row {
        Row { dim: true, ..self }
    }
}

/// A group of rows drawn apart from the others under its own heading (a division); an
/// empty heading draws no heading line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Section {
    /// The heading, such as `Division 1`.
    pub heading: String,
    /// The rows, top first.
    pub rows: Vec<Row>,
}

/// One page of a table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Table {
    /// The title line, such as `T3 · Swiss · iChess`.
    pub title: String,
    /// Words on the right of the title line, such as `round 4 of 7 · page 1/2`.
    pub note: String,
    /// The columns, left to right (at most [`MAX_COLUMNS`] are shown).
    pub columns: Vec<Column>,
    /// The sections, top first (at most [`ROWS_PER_PAGE`] rows in all are shown).
    pub sections: Vec<Section>,
}

thread_local! {
    /// The frame each thread draws tables into, kept between pictures.
    static FRAME: RefCell<Frame> = RefCell::new(Frame::default());
}

impl Table {
    /// The page as PNG bytes, [`TABLE_WIDTH`] pixels wide and as tall as its rows.
    #[must_use]
    pub fn png(&self) -> Vec<u8> {
        FRAME.with_borrow_mut(|frame| {
            let inks = Inks::get();
            draw(self, frame, &inks.slotted);
            encode::png_nibbles(frame, &inks.colours, MAX_TABLE_PNG_BYTES)
        })
    }

    /// The page as the 8-bit PNG of all its shades that pages were before issue #39 (2.8 ms
    /// a page against the 1 ms asked): kept only so that the `table` benchmark can set the
    /// two side by side.
    #[doc(hidden)]
    #[must_use]
    pub fn png_8bit(&self) -> Vec<u8> {
        FRAME.with_borrow_mut(|frame| {
            draw(self, frame, &Inks::get().shaded);
            encode::png_within(frame, MAX_TABLE_PNG_BYTES)
        })
    }

    /// The page as an indexed frame in [`crate::palette()`]'s colours, each pixel the
    /// colour the PNG holds (for tests that compare pixels).
    #[must_use]
    pub fn frame(&self) -> Frame {
        let inks = Inks::get();
        let mut frame = Frame::default();
        draw(self, &mut frame, &inks.slotted);
        for pixel in &mut frame.pixels {
            *pixel = inks.local[usize::from(*pixel)];
        }
        frame
    }

    /// How many rows the page holds in all its sections (those past [`ROWS_PER_PAGE`]
    /// are not drawn).
    #[must_use]
    pub fn rows(&self) -> usize {
        self.sections.iter().map(|section| section.rows.len()).sum()
    }
}

/// The backgrounds text is drawn on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ground {
    Page,
    /// Every other row, a shade lighter than the page, to guide the eye along a row.
    Stripe,
    Highlight,
}

/// The colours a page is drawn in: fills, and the text ramps from each ground into each
/// ink, as indices either into the palette or into the page's 16 colours.
#[derive(Debug)]
struct Shades {
    grounds: [u8; 3],
    /// `[ground][bright, dim, accent]`.
    ramps: [[[u8; TEXT_LEVELS]; 3]; 3],
    rule: u8,
    mark: u8,
}

impl Shades {
    fn ground(&self, ground: Ground) -> u8 {
        self.grounds[ground as usize]
    }

    fn ramp(&self, ground: Ground, ink: usize) -> &[u8; TEXT_LEVELS] {
        &self.ramps[ground as usize][ink]
    }

    /// The same shades with each index `index` replaced by `slots[index]`.
    fn mapped(&self, slots: &[u8; 256]) -> Shades {
        let slot = |index: u8| slots[usize::from(index)];
        Shades {
            grounds: self.grounds.map(slot),
            ramps: self.ramps.map(|inks| inks.map(|ramp| ramp.map(slot))),
            rule: slot(self.rule),
            mark: slot(self.mark),
        }
    }
}

/// The table's colours. The grounds are palette colours; the ramps on the stripe and the
/// highlight are the palette's nearest colours to each blend (the palette has no ramps of
/// its own for them, and needs none: its greys and accent steps are close). A page is drawn
/// straight in the slots of its 16 colours (`slotted`), so that encoding it looks nothing up.
#[derive(Debug)]
struct Inks {
    /// In palette indices, every shade (the 8-bit page of before issue #39).
    shaded: Shades,
    /// In slots of `local`, each shade the nearest of the 16.
    slotted: Shades,
    /// The at most 16 palette indices a page is encoded in (see [`local_colours`]).
    local: Vec<u8>,
    /// The `r g b` bytes of `local`, the PNG's palette.
    colours: Vec<u8>,
}

impl Inks {
    fn get() -> &'static Inks {
        static INKS: OnceLock<Inks> = OnceLock::new();
        INKS.get_or_init(|| {
            let palette = Palette::get();
            let grounds =
                [palette.index(PAGE), palette.nearest(mix(PAGE, TEXT, 0.08)), palette.nearest(mix(PAGE, ACCENT, 0.25))];
            let ramp = |ground: u8, ink: Rgb| -> [u8; TEXT_LEVELS] {
                let ground = palette.rgb(ground);
                std::array::from_fn(|level| palette.nearest(mix(ground, ink, level as f32 / (TEXT_LEVELS - 1) as f32)))
            };
            let ramps = grounds.map(|ground| [ramp(ground, TEXT), ramp(ground, TEXT_DIM), ramp(ground, ACCENT)]);
            let (rule, mark) = (palette.nearest(mix(PAGE, TEXT, 0.25)), palette.index(ACCENT));
            let local = local_colours(&grounds, &ramps, [rule, mark]);
            let slots = std::array::from_fn(|index| nearest(&local, palette.rgb(index.min(palette.len() - 1) as u8)));
            let colours = local.iter().flat_map(|&index| palette.rgb(index)).collect();
            let shaded = Shades { grounds, ramps, rule, mark };
            Inks { slotted: shaded.mapped(&slots), shaded, local, colours }
        })
    }
}

/// The 16 colours a page is encoded in, so that it is a 4-bit PNG (half the bytes to
/// deflate of 8 bits, the colours a page uses being about 40): the grounds, the rule and
/// the mark, each ink at full strength, and a few steps of each ramp from the page (and one
/// on the highlight) for the edges of anti-aliased glyphs; every other shade a ramp draws
/// becomes the nearest of these.
fn local_colours(grounds: &[u8; 3], ramps: &[[[u8; TEXT_LEVELS]; 3]; 3], marks: [u8; 2]) -> Vec<u8> {
    let steps: [(usize, usize, &[usize]); 5] = [
        (0, BRIGHT, &[2, 4, 6, 7, 9]),
        (0, DIM, &[3, 6, 9]),
        (0, ACCENTED, &[4, 9]),
        (1, BRIGHT, &[4]),
        (2, BRIGHT, &[5]),
    ];
    let mut local: Vec<u8> = grounds.iter().chain(&marks).copied().collect();
    for (ground, ink, levels) in steps {
        local.extend(levels.iter().map(|&level| ramps[ground][ink][level]));
    }
    local.dedup();
    let mut seen = [false; 256];
    local.retain(|&index| !std::mem::replace(&mut seen[usize::from(index)], true));
    local.truncate(16);
    local
}

/// The slot in `local` of the colour nearest `colour` (by the palette's weighted distance).
fn nearest(local: &[u8], colour: Rgb) -> u8 {
    let palette = Palette::get();
    let distance = |index: &u8| {
        let entry = palette.rgb(*index);
        let d = |i: usize| i32::from(entry[i]) - i32::from(colour[i]);
        3 * d(0) * d(0) + 4 * d(1) * d(1) + 2 * d(2) * d(2)
    };
    local.iter().enumerate().min_by_key(|(_, index)| distance(index)).map_or(0, |(slot, _)| slot as u8)
}

const BRIGHT: usize = 0;
const DIM: usize = 1;
const ACCENTED: usize = 2;

/// `text` cut to [`MAX_CELL_CHARS`] characters, with `…` if it was longer.
fn clip(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_CELL_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]).into(),
        None => text.into(),
    }
}

/// The face a row's cells are set in.
fn face(row: &Row) -> Face {
    if row.highlight { Face::Bold } else { Face::Regular }
}

/// The rows of each section that the page shows (sections left empty by the cut are
/// dropped), and how many rows were left out.
fn page(table: &Table) -> (Vec<(&str, &[Row])>, usize) {
    let mut room = ROWS_PER_PAGE;
    let mut shown = Vec::new();
    for section in &table.sections {
        if room == 0 {
            break;
        }
        let rows = &section.rows[..section.rows.len().min(room)];
        room -= rows.len();
        shown.push((section.heading.as_str(), rows));
    }
    let drawn: usize = shown.iter().map(|(_, rows)| rows.len()).sum();
    (shown, table.rows() - drawn)
}

/// A column's place: left edge and width.
#[derive(Debug, Clone, Copy)]
struct Span {
    left: usize,
    width: usize,
}

/// Where each shown column goes: fit columns as wide as their widest text (up to an equal
/// share of the room), fill columns sharing the rest.
fn spans(columns: &[Column], sections: &[(&str, &[Row])]) -> Vec<Span> {
    let count = columns.len();
    if count == 0 {
        return Vec::new();
    }
    let room = TABLE_WIDTH - 2 * PAD - MARK_WIDTH - GAP * (count - 1);
    let share = room / count;
    let natural = |index: usize| {
        let rows = sections.iter().flat_map(|(_, rows)| rows.iter());
        let cells = rows.filter_map(|row| Some(text::width(face(row), ROW_PX, &clip(row.cells.get(index)?))));
        cells.chain([text::width(Face::Bold, HEADING_PX, &columns[index].heading)]).max().unwrap_or(0).min(share)
    };
    let mut widths: Vec<usize> =
        (0..count).map(|index| if columns[index].width == Width::Fit { natural(index) } else { 0 }).collect();
    let fills = columns.iter().filter(|column| column.width == Width::Fill).count();
    if let Some(left) = (room - widths.iter().sum::<usize>()).checked_div(fills) {
        for (width, column) in widths.iter_mut().zip(columns) {
            if column.width == Width::Fill {
                *width = left;
            }
        }
    }
    let mut left = PAD + MARK_WIDTH;
    widths
        .into_iter()
        .map(|width| {
            let span = Span { left, width };
            left += width + GAP;
            span
        })
        .collect()
}

/// The picture's height for the shown sections.
fn height(sections: &[(&str, &[Row])], hidden: usize) -> usize {
    let sections_height: usize = sections
        .iter()
        .map(|(heading, rows)| {
            let heading = if heading.is_empty() { 0 } else { SECTION_HEIGHT };
            SECTION_GAP + heading + rows.len() * ROW_HEIGHT
        })
        .sum();
    let footer = if hidden > 0 || sections.iter().all(|(_, rows)| rows.is_empty()) { FOOTER_HEIGHT } else { 0 };
    PAD + TITLE_HEIGHT + HEADING_HEIGHT + sections_height + footer + PAD
}

/// The baseline that centres capital letters of `px` in a line `height` tall at `top`.
fn baseline(top: usize, height: usize, px: u16) -> usize {
    top + (height + text::cap_height(px)) / 2
}

/// Draws `content` in `span` on the line whose baseline is `base`, cut to fit.
fn cell(frame: &mut Frame, (face, px): (Face, u16), span: Span, align: Align, base: usize, content: &str, ramp: &[u8]) {
    let content = clip(content);
    let mut width = text::width(face, px, &content);
    let fitted = if width > span.width {
        let fitted = text::fit(face, px, &content, span.width);
        width = text::width(face, px, &fitted);
        fitted.into()
    } else {
        content
    };
    let x = match align {
        Align::Left => span.left,
        Align::Right => span.left + span.width.saturating_sub(width),
    };
    text::draw(frame, face, px, (x, base), &fitted, ramp);
}

/// Draws the page into `frame` in `inks`.
fn draw(table: &Table, frame: &mut Frame, inks: &Shades) {
    let columns = &table.columns[..table.columns.len().min(MAX_COLUMNS)];
    let (sections, hidden) = page(table);
    let spans = spans(columns, &sections);
    frame.reset(TABLE_WIDTH, height(&sections, hidden), inks.ground(Ground::Page));
    let mut y = PAD;
    title(frame, table, y, inks);
    y += TITLE_HEIGHT;
    let base = baseline(y, HEADING_HEIGHT, HEADING_PX);
    for (column, &span) in columns.iter().zip(&spans) {
        let ramp = inks.ramp(Ground::Page, DIM);
        cell(frame, (Face::Bold, HEADING_PX), span, column.align, base, &column.heading, ramp);
    }
    y += HEADING_HEIGHT;
    frame.fill(PAD, y - 1, TABLE_WIDTH - 2 * PAD, 1, inks.rule);
    for (heading, rows) in &sections {
        y += SECTION_GAP;
        if !heading.is_empty() {
            let span = Span { left: PAD, width: TABLE_WIDTH - 2 * PAD };
            let base = baseline(y, SECTION_HEIGHT, SECTION_PX);
            let ramp = inks.ramp(Ground::Page, ACCENTED);
            cell(frame, (Face::Bold, SECTION_PX), span, Align::Left, base, heading, ramp);
            frame.fill(PAD, y + SECTION_HEIGHT - 2, TABLE_WIDTH - 2 * PAD, 1, inks.rule);
            y += SECTION_HEIGHT;
        }
        for (index, row) in rows.iter().enumerate() {
            draw_row(frame, inks, (columns, &spans), row, (index, y));
            y += ROW_HEIGHT;
        }
    }
    let footer = match hidden {
        0 if sections.iter().all(|(_, rows)| rows.is_empty()) => "No rows".to_owned(),
        0 => return,
        1 => "1 more row not shown".to_owned(),
        hidden => format!("{hidden} more rows not shown"),
    };
    let span = Span { left: PAD + MARK_WIDTH, width: TABLE_WIDTH - 2 * PAD };
    let base = baseline(y, FOOTER_HEIGHT, FOOTER_PX);
    cell(frame, (Face::Regular, FOOTER_PX), span, Align::Left, base, &footer, inks.ramp(Ground::Page, DIM));
}

/// The title on the left of the first line, the note on its right; the note keeps up to
/// half the line and the title is cut to what is left.
fn title(frame: &mut Frame, table: &Table, top: usize, inks: &Shades) {
    let room = TABLE_WIDTH - 2 * PAD;
    let note = text::fit(Face::Regular, NOTE_PX, &clip(&table.note), room / 2);
    let note_width = text::width(Face::Regular, NOTE_PX, &note);
    let note_span = Span { left: TABLE_WIDTH - PAD - note_width, width: note_width };
    let base = baseline(top, TITLE_HEIGHT, TITLE_PX);
    cell(frame, (Face::Regular, NOTE_PX), note_span, Align::Right, base, &note, inks.ramp(Ground::Page, DIM));
    let title_span = Span { left: PAD, width: room.saturating_sub(note_width + GAP) };
    let ramp = inks.ramp(Ground::Page, BRIGHT);
    cell(frame, (Face::Bold, TITLE_PX), title_span, Align::Left, base, &table.title, ramp);
}

/// One row: its band (striped or highlighted), its mark, and its cells.
fn draw_row(
    frame: &mut Frame,
    inks: &Shades,
    (columns, spans): (&[Column], &[Span]),
    row: &Row,
    (index, top): (usize, usize),
) {
    let ground = match (row.highlight, index % 2) {
        (true, _) => Ground::Highlight,
        (false, 1) => Ground::Stripe,
        (false, _) => Ground::Page,
    };
    if ground != Ground::Page {
        frame.fill(PAD, top, TABLE_WIDTH - 2 * PAD, ROW_HEIGHT, inks.ground(ground));
    }
    if row.highlight {
        frame.fill(PAD, top, MARK_WIDTH, ROW_HEIGHT, inks.mark);
    }
    let ramp = inks.ramp(ground, if row.dim { DIM } else { BRIGHT });
    let base = baseline(top, ROW_HEIGHT, ROW_PX);
    for ((column, &span), content) in columns.iter().zip(spans).zip(&row.cells) {
        cell(frame, (face(row), ROW_PX), span, column.align, base, content, ramp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_of_10_kilobytes_is_clipped_before_it_is_measured() {
        let long = "x".repeat(10_000);
        let clipped = clip(&long);
        assert_eq!(clipped.chars().count(), MAX_CELL_CHARS + 1);
        assert!(clipped.ends_with('…'));
        assert_eq!(clip("short"), "short");
    }

    #[test]
    fn rows_past_the_page_size_are_cut_and_counted() {
        let rows = |count: usize| (0..count).map(|i| Row::new([i.to_string()])).collect::<Vec<_>>();
        let table = Table {
            sections: vec![
                Section { heading: "A".into(), rows: rows(20) },
                Section { heading: "B".into(), rows: rows(10) },
                Section { heading: "C".into(), rows: rows(3) },
            ],
            ..Table::default()
        };
        let (shown, hidden) = page(&table);
        let counts: Vec<usize> = shown.iter().map(|(_, rows)| rows.len()).collect();
        assert_eq!(counts, [20, 5]);
        assert_eq!(hidden, 8);
    }
}
