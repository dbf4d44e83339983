//! Encoding an indexed frame as a PNG: 8-bit palette colour, every row with the `Up` filter
//! (a row of a board picture mostly repeats the row above, which the filter turns into
//! zeros), deflated by zlib-rs at a fixed, fast level.
//!
//! The `png` crate writes the file (signature, header, palette, chunk framing and CRCs);
//! the image data is deflated here by a `flate2` compressor made once per thread and reset
//! between pictures, because allocating the deflate state (several hundred kilobytes of
//! window and hash tables) for every picture cost about a fifth of its time.

use std::cell::RefCell;

use flate2::{Compress, Compression, FlushCompress, Status};
use png::{BitDepth, ColorType, Encoder};

use crate::frame::Frame;
use crate::palette::Palette;

/// The zlib level of every board picture, chosen by measuring our five games at 800
/// pixels (`cargo bench -p stonemate-render`): zlib-rs level 1 uses a fixed Huffman code
/// and misses the 40 KB target on busy 19x19 boards (44 KB) without being faster there;
/// level 2 meets it; higher levels cost much more time for a few kilobytes.
pub const PNG_LEVEL: u32 = 2;
/// A picture larger than this at [`PNG_LEVEL`] (only crowded boards far beyond a normal
/// game) is deflated again at [`FALLBACK_LEVEL`], trading time for size.
pub const MAX_PNG_BYTES: usize = 40 * 1024;
/// The zlib level of the second, slower try for pictures over [`MAX_PNG_BYTES`].
pub const FALLBACK_LEVEL: u32 = 6;

/// PNG row filter 0: the row as it is.
const NONE: u8 = 0;
/// PNG row filter 2: each byte minus the byte above it.
const UP: u8 = 2;

/// The reusable state of one thread's encoder.
struct Deflater {
    compress: Compress,
    /// The fallback of 4-bit pictures, at [`NIBBLE_FALLBACK_LEVEL`].
    quick: Compress,
    filtered: Vec<u8>,
    /// The packed 4-bit row above and the one being packed.
    rows: (Vec<u8>, Vec<u8>),
    deflated: Vec<u8>,
}

thread_local! {
    static DEFLATER: RefCell<Deflater> = RefCell::new(Deflater {
        compress: Compress::new(Compression::new(PNG_LEVEL), true),
        quick: Compress::new(Compression::new(NIBBLE_FALLBACK_LEVEL), true),
        filtered: Vec::new(),
        rows: (Vec::new(), Vec::new()),
        deflated: Vec::new(),
    });
}

/// The frame as PNG bytes: a board picture, within [`MAX_PNG_BYTES`] where a second try
/// can make it so.
#[must_use]
pub fn png(frame: &Frame) -> Vec<u8> {
    png_within(frame, MAX_PNG_BYTES)
}

/// The frame as PNG bytes, deflated again at [`FALLBACK_LEVEL`] only when the fast level
/// leaves it over `budget` bytes: each kind of picture has its own budget (a table page of
/// text is larger than a board and has a larger one), so that its usual size never pays
/// for the slow second try.
#[must_use]
pub fn png_within(frame: &Frame, budget: usize) -> Vec<u8> {
    DEFLATER.with_borrow_mut(|deflater| {
        filter_up(frame, &mut deflater.filtered);
        deflater.compress.reset();
        deflate(&mut deflater.compress, &deflater.filtered, &mut deflater.deflated);
        if deflater.deflated.len() > budget {
            let mut thorough = Compress::new(Compression::new(FALLBACK_LEVEL), true);
            deflate(&mut thorough, &deflater.filtered, &mut deflater.deflated);
        }
        write_png(frame, &deflater.deflated, BitDepth::Eight, &Palette::get().bytes())
    })
}

/// The zlib level of a 4-bit picture that `fdeflate` leaves over its budget (a page of
/// long names in many scripts): zlib-rs at level 1 on unfiltered rows, measured on table
/// pages as the fastest way to 40-45 KB (level 2 takes twice as long).
const NIBBLE_FALLBACK_LEVEL: u32 = 1;

/// The frame as a 4-bit PNG: each pixel's index mapped through `slots` to one of at most
/// 16 colours, whose `r g b` bytes are `palette`. Half the bytes of the 8-bit picture to
/// deflate, filtered with `Up` and deflated by `fdeflate` (the `png` crate's fast coder:
/// runs of zeros and a fixed code made for filtered pictures, about a third of what zlib-rs
/// at [`PNG_LEVEL`] takes on the 8-bit rows). If that is over `budget` bytes, the rows are deflated unfiltered by
/// zlib-rs at [`NIBBLE_FALLBACK_LEVEL`] instead (smaller on dense text, and slower).
#[must_use]
pub fn png_nibbles(frame: &Frame, slots: &[u8; 256], palette: &[u8], budget: usize) -> Vec<u8> {
    DEFLATER.with_borrow_mut(|deflater| {
        let Deflater { quick, filtered, rows, deflated, .. } = deflater;
        pack_nibbles(frame, slots, UP, filtered, rows);
        deflated.clear();
        let mut fast = fdeflate::Compressor::new(&mut *deflated).expect("writing to memory cannot fail");
        fast.write_data(filtered).expect("writing to memory cannot fail");
        fast.finish().expect("writing to memory cannot fail");
        if deflated.len() > budget {
            pack_nibbles(frame, slots, NONE, filtered, rows);
            quick.reset();
            deflate(quick, filtered, deflated);
        }
        write_png(frame, deflated, BitDepth::Four, palette)
    })
}

/// The rows of `frame`, two pixels a byte (the left one in the high nibble), each pixel
/// its slot, each row after the filter byte `filter` (`None` or `Up`) and filtered by it.
/// A row the same as the one above (most rows of a band of text) is not looked up again:
/// under `Up` it is zeros, under `None` a copy. `rows` holds the packed row above and the
/// one being packed.
fn pack_nibbles(frame: &Frame, slots: &[u8; 256], filter: u8, out: &mut Vec<u8>, rows: &mut (Vec<u8>, Vec<u8>)) {
    let width = frame.width.max(1);
    let (above, current) = rows;
    above.clear();
    out.clear();
    out.reserve((width.div_ceil(2) + 1) * frame.height);
    let mut above_pixels: &[u8] = &[];
    for row in frame.pixels.chunks_exact(width) {
        out.push(filter);
        if row == above_pixels {
            match filter {
                UP => out.resize(out.len() + above.len(), 0),
                _ => out.extend_from_slice(above),
            }
            continue;
        }
        current.clear();
        let pairs = row.chunks_exact(2);
        let last = pairs.remainder().first().map(|&pixel| slots[usize::from(pixel)] << 4);
        current.extend(pairs.map(|pair| slots[usize::from(pair[0])] << 4 | slots[usize::from(pair[1])]));
        current.extend(last);
        if filter == UP && !above.is_empty() {
            out.extend(current.iter().zip(above.iter()).map(|(pixel, up)| pixel.wrapping_sub(*up)));
        } else {
            out.extend_from_slice(current);
        }
        std::mem::swap(above, current);
        above_pixels = row;
    }
}

/// A PNG file around image data that is already filtered and deflated.
fn write_png(frame: &Frame, idat: &[u8], depth: BitDepth, palette: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(idat.len() + palette.len() + 64);
    let mut encoder = Encoder::new(&mut bytes, frame.width as u32, frame.height as u32);
    encoder.set_color(ColorType::Indexed);
    encoder.set_depth(depth);
    encoder.set_palette(palette);
    let mut writer = encoder.write_header().expect("writing to memory cannot fail");
    writer.write_chunk(png::chunk::IDAT, idat).expect("writing to memory cannot fail");
    writer.finish().expect("writing to memory cannot fail");
    bytes
}

/// The rows of `frame`, each as the filter byte `Up` and its differences from the row
/// above (the first row's "above" is zeros, so it stays as it is).
fn filter_up(frame: &Frame, filtered: &mut Vec<u8>) {
    filtered.clear();
    filtered.reserve(frame.pixels.len() + frame.height);
    let mut above: &[u8] = &[];
    for row in frame.pixels.chunks_exact(frame.width.max(1)) {
        filtered.push(UP);
        if above.is_empty() {
            filtered.extend_from_slice(row);
        } else {
            filtered.extend(row.iter().zip(above).map(|(pixel, up)| pixel.wrapping_sub(*up)));
        }
        above = row;
    }
}

/// `input` as one zlib stream in `output`.
fn deflate(compress: &mut Compress, input: &[u8], output: &mut Vec<u8>) {
    output.clear();
    output.reserve(MAX_PNG_BYTES);
    let start = compress.total_in();
    loop {
        let consumed = (compress.total_in() - start) as usize;
        let status = compress
            .compress_vec(&input[consumed..], output, FlushCompress::Finish)
            .expect("deflating into memory cannot fail");
        if status == Status::StreamEnd {
            return;
        }
        output.reserve(output.capacity().max(4096));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_up_filter_turns_repeated_rows_into_zeros() {
        let frame = Frame { width: 3, height: 2, pixels: vec![5, 6, 7, 5, 6, 9] };
        let mut filtered = Vec::new();
        filter_up(&frame, &mut filtered);
        assert_eq!(filtered, vec![UP, 5, 6, 7, UP, 0, 0, 2]);
    }

    #[test]
    fn a_picture_within_its_budget_is_deflated_once() {
        // Rows of a repeating pattern with some noise: the slow level finds more matches.
        let (width, height) = (320, 200);
        let pixels = (0..width * height).map(|i: usize| ((i % 37) * (i / width % 5) + (i * 7919) % 3) as u8).collect();
        let frame = Frame { width, height, pixels };
        let fast = png_within(&frame, usize::MAX);
        assert_eq!(png_within(&frame, fast.len() + 64), fast, "within its budget: the fast level's bytes");
        let thorough = png_within(&frame, 0);
        assert!(thorough.len() < fast.len(), "{} against {}", thorough.len(), fast.len());
    }
}
