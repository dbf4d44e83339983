//! Table pictures (the bot's standings): drawn frames compared with each other, the PNG
//! decoded with `image`, and golden images like the boards' (`golden.rs` says how to
//! regenerate them).

use crate::golden;
use crate::tables::{self, NAMES};

use stonemate_render::{Frame, ROWS_PER_PAGE, Row, Section, TABLE_WIDTH, Table, palette};

/// The bounding box (x0, y0, x1, y1), inclusive, of the pixels where two frames of one
/// size differ; `None` if they are the same.
fn changed(a: &Frame, b: &Frame) -> Option<(usize, usize, usize, usize)> {
    assert_eq!((a.width, a.height), (b.width, b.height), "frames of one size");
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for (index, (pa, pb)) in a.pixels.iter().zip(&b.pixels).enumerate() {
        if pa != pb {
            let (x, y) = (index % a.width, index / a.width);
            let (x0, y0, x1, y1) = bounds.unwrap_or((x, y, x, y));
            bounds = Some((x0.min(x), y0.min(y), x1.max(x), y1.max(y)));
        }
    }
    bounds
}

/// `table` with the cell at (section, row, column) replaced by `content`.
fn with_cell(table: &Table, (section, row, column): (usize, usize, usize), content: &str) -> Table {
    let mut table = table.clone();
    table.sections[section].rows[row].cells[column] = content.to_owned();
    table
}

/// The rows of pixels where the cell at `at` is drawn (found by blanking it).
fn cell_box(table: &Table, at: (usize, usize, usize)) -> (usize, usize, usize, usize) {
    changed(&table.frame(), &with_cell(table, at, "").frame()).expect("the cell is drawn")
}

fn decode(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png).expect("a PNG").to_rgb8()
}

#[test]
fn a_page_is_the_table_width_and_grows_with_its_rows() {
    let heights: Vec<u32> = [1, 2, 10, 25]
        .into_iter()
        .map(|rows| {
            let picture = decode(&tables::single(rows).png());
            assert_eq!(picture.width() as usize, TABLE_WIDTH);
            picture.height()
        })
        .collect();
    assert!(heights.windows(2).all(|pair| pair[0] < pair[1]), "{heights:?}");
}

#[test]
fn every_row_is_drawn_below_the_one_before_within_its_own_band() {
    let table = tables::single(ROWS_PER_PAGE);
    let boxes: Vec<_> = (0..ROWS_PER_PAGE).map(|row| cell_box(&table, (0, row, 1))).collect();
    for pair in boxes.windows(2) {
        assert!(pair[0].3 < pair[1].1, "rows overlap: {:?} then {:?}", pair[0], pair[1]);
    }
}

#[test]
fn sections_are_drawn_apart_under_their_own_headings() {
    let table = tables::standings();
    let rows_of = |section: usize| table.sections[section].rows.len();
    let last_of_first = cell_box(&table, (0, rows_of(0) - 1, 1));
    let first_of_second = cell_box(&table, (1, 0, 1));
    let within = cell_box(&table, (0, 1, 1)).1 - cell_box(&table, (0, 0, 1)).1;
    let across = first_of_second.1 - last_of_first.1;
    assert!(across > within + 20, "sections not apart: {across} px across, {within} within");
    // The second section's heading lies between the two.
    let mut renamed = table.clone();
    renamed.sections[1].heading = "Another name".into();
    let heading = changed(&table.frame(), &renamed.frame()).expect("the heading is drawn");
    assert!(last_of_first.3 < heading.1 && heading.3 < first_of_second.1, "{heading:?}");
}

#[test]
fn a_name_of_10_kilobytes_is_cut_to_its_column() {
    let table = tables::single(3);
    let huge = "Ω".repeat(5_000);
    assert!(huge.len() >= 10_000);
    let long = with_cell(&table, (0, 1, 1), &huge);
    let name = changed(&long.frame(), &with_cell(&table, (0, 1, 1), "").frame()).expect("the name is drawn");
    let points = cell_box(&table, (0, 1, 2));
    assert!(name.2 < points.0, "the name ({name:?}) runs into the points ({points:?})");
    let bytes = long.png();
    assert_eq!(decode(&bytes).dimensions(), decode(&table.png()).dimensions());
    assert!(bytes.len() <= 60 * 1024);
}

#[test]
fn a_long_name_ends_with_an_ellipsis() {
    let table = tables::single(1);
    let long = NAMES[8].repeat(3);
    let cut = changed(&with_cell(&table, (0, 0, 1), &long).frame(), &with_cell(&table, (0, 0, 1), "").frame());
    let whole = changed(&with_cell(&table, (0, 0, 1), NAMES[8]).frame(), &with_cell(&table, (0, 0, 1), "").frame());
    let (cut, whole) = (cut.expect("drawn"), whole.expect("drawn"));
    // Cut to the column: it reaches further than the short name, and no further than it.
    assert!(cut.2 >= whole.2);
    let ellipsis = with_cell(&table, (0, 0, 1), &(long.clone() + &long)).frame();
    assert_eq!(ellipsis, with_cell(&table, (0, 0, 1), &long).frame(), "both are cut to the same beginning");
}

#[test]
fn an_empty_table_is_a_title_headings_and_a_line_saying_so() {
    let empty = Table { sections: Vec::new(), ..tables::single(0) };
    let picture = decode(&empty.png());
    assert_eq!(picture.width() as usize, TABLE_WIDTH);
    assert!(picture.height() < decode(&tables::single(1).png()).height() + 40);
    assert_eq!(empty.rows(), 0);
    // Nothing at all is still a picture.
    let nothing = decode(&Table::default().png());
    assert_eq!(nothing.width() as usize, TABLE_WIDTH);
    // An empty section draws its heading.
    let headed = Table { sections: vec![Section { heading: "Division 1".into(), rows: Vec::new() }], ..empty.clone() };
    assert_ne!(headed.frame(), empty.frame());
}

#[test]
fn names_in_every_script_are_drawn() {
    let table = tables::single(1);
    let replacement = with_cell(&table, (0, 0, 1), "\u{FFFD}").frame();
    for name in NAMES {
        let drawn = with_cell(&table, (0, 0, 1), name).frame();
        assert!(changed(&drawn, &replacement).is_some(), "{name} is drawn as a missing character");
        assert!(changed(&drawn, &with_cell(&table, (0, 0, 1), "").frame()).is_some(), "{name}: nothing drawn");
    }
}

#[test]
fn rows_past_the_page_size_are_not_drawn_and_are_counted() {
    let full = tables::single(ROWS_PER_PAGE);
    let over = tables::single(ROWS_PER_PAGE + 5);
    assert_eq!(over.rows(), ROWS_PER_PAGE + 5);
    let (full_frame, over_frame) = (full.frame(), over.frame());
    assert!(over_frame.height > full_frame.height, "the line saying rows were left out");
    let hidden_changed = with_cell(&over, (0, ROWS_PER_PAGE + 2, 1), "someone else").frame();
    assert_eq!(hidden_changed, over_frame, "a row past the page is not drawn");
    // Past the page, a whole section is dropped.
    let mut sections = full.clone();
    sections.sections.push(Section { heading: "Division 9".into(), rows: vec![Row::new(["1", "x"])] });
    assert_eq!(sections.frame().height, over_frame.height);
}

#[test]
fn marked_rows_are_highlighted_or_greyed() {
    let table = tables::single(3);
    let palette = palette();
    let brightest = |frame: &Frame, (x0, y0, x1, y1): (usize, usize, usize, usize)| {
        let mut best = 0;
        for y in y0..=y1 {
            for x in x0..=x1 {
                best = best.max(palette[usize::from(frame.get(x, y))].iter().map(|&c| u32::from(c)).sum::<u32>());
            }
        }
        best
    };
    let area = cell_box(&table, (0, 1, 1));
    let mut greyed = table.clone();
    greyed.sections[0].rows[1] = greyed.sections[0].rows[1].clone().dimmed();
    assert!(brightest(&greyed.frame(), area) + 60 < brightest(&table.frame(), area));
    let mut own = table.clone();
    own.sections[0].rows[1] = own.sections[0].rows[1].clone().highlighted();
    let band = changed(&table.frame(), &own.frame()).expect("the highlight is drawn");
    let [r, g, b] = palette[usize::from(own.frame().get(band.0, (area.1 + area.3) / 2))];
    assert!(g > r + 40 && g > b + 40, "a green bar at the row's start: {band:?} {:?}", [r, g, b]);
}

#[test]
fn a_full_page_in_every_script_stays_within_60_kilobytes() {
    for table in [tables::standings(), tables::single(ROWS_PER_PAGE)] {
        let bytes = table.png();
        assert!(bytes.len() <= 60 * 1024, "{} bytes", bytes.len());
    }
    // The longest names in every script on every row.
    let mut long = tables::single(ROWS_PER_PAGE);
    for (index, row) in long.sections[0].rows.iter_mut().enumerate() {
        row.cells[1] = NAMES[index % NAMES.len()].repeat(4).chars().take(32).collect();
    }
    let bytes = long.png();
    assert!(bytes.len() <= 60 * 1024, "{} bytes", bytes.len());
}

#[test]
fn the_png_holds_exactly_the_drawn_frame() {
    let palette = palette();
    let table = tables::standings();
    let frame = table.frame();
    let picture = decode(&table.png());
    assert_eq!((picture.width() as usize, picture.height() as usize), (frame.width, frame.height));
    let expected: Vec<u8> = frame.pixels.iter().flat_map(|&index| palette[usize::from(index)]).collect();
    assert!(picture.into_raw() == expected, "decoded pixels differ from the frame");
}

#[test]
fn tables_match_their_golden_images() {
    let empty = Table { sections: Vec::new(), ..tables::single(0) };
    let failures: Vec<String> = [("table-standings", tables::standings()), ("table-empty", empty)]
        .iter()
        .filter_map(|(name, table)| golden::check_bytes(name, &table.png()).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A page is sent as a 4-bit PNG (issue #39: a page within 1 ms): it decodes with `image`
/// to the table's size, within 60 KB, with the page's ground and the highlight's mark in
/// their own colours, for a full page and for the last page of 1,000 players.
#[test]
fn a_page_is_a_4_bit_png_within_60_kilobytes_in_the_tables_colours() {
    const PAGE: [u8; 3] = [0x26, 0x24, 0x21];
    const ACCENT: [u8; 3] = [0x8c, 0xc8, 0x4b];
    for table in [tables::standings(), tables::last_of_thousand()] {
        let bytes = table.png();
        assert!(bytes.len() <= 60 * 1024, "{} bytes", bytes.len());
        let header = png::Decoder::new(std::io::Cursor::new(&bytes)).read_info().expect("a PNG");
        assert_eq!(header.info().bit_depth, png::BitDepth::Four);
        let picture = decode(&bytes);
        assert_eq!((picture.width() as usize, picture.height() as usize), (TABLE_WIDTH, table.frame().height));
        assert_eq!(picture.get_pixel(2, 2).0, PAGE, "the page's ground in a corner");
    }
    let table = tables::standings();
    let (_, top, _, bottom) = cell_box(&table, (1, 2, 1));
    let picture = decode(&table.png());
    assert_eq!(picture.get_pixel(17, ((top + bottom) / 2) as u32).0, ACCENT, "the highlighted row's mark");
}

/// A page of long names in every script is over 60 KB under the fast coder, so it is
/// deflated again unfiltered at zlib level 1: that PNG too holds exactly the drawn frame.
#[test]
fn a_page_too_dense_for_the_fast_coder_still_holds_the_drawn_frame() {
    let mut table = tables::single(ROWS_PER_PAGE);
    for (index, row) in table.sections[0].rows.iter_mut().enumerate() {
        row.cells[1] = NAMES[index % NAMES.len()].repeat(4).chars().take(32).collect();
    }
    let bytes = table.png();
    assert!(bytes.len() <= 60 * 1024, "{} bytes", bytes.len());
    let frame = table.frame();
    let expected: Vec<u8> = frame.pixels.iter().flat_map(|&index| palette()[usize::from(index)]).collect();
    assert!(decode(&bytes).into_raw() == expected, "decoded pixels differ from the frame");
}
