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

/// What `fdeflate` makes of `Up`-filtered table pages, in bytes per non-zero byte of its
/// input, at the least: measured at 1.48-1.53 on pages of every kind (runs of zeros cost it
/// next to nothing), and taken a little lower so that only a page clearly too dense for it
/// skips it. A page whose non-zero bytes would come to more than its budget at this rate
/// goes straight to zlib-rs, instead of being deflated twice.
const FAST_BYTES_PER_LITERAL: (usize, usize) = (7, 5);

/// The frame as a 4-bit PNG: each pixel is already a slot below 16 of the colours whose
/// `r g b` bytes are `palette`. Half the bytes of the 8-bit picture to deflate, filtered
/// with `Up` and deflated by `fdeflate` (the `png` crate's fast coder: runs of zeros and a
/// fixed code made for filtered pictures, about a third of what zlib-rs at [`PNG_LEVEL`]
/// takes on the 8-bit rows). If that is over `budget` bytes, the rows are deflated
/// unfiltered by zlib-rs at [`NIBBLE_FALLBACK_LEVEL`] instead (smaller on dense text, and
/// slower; it is taken at once when [`FAST_BYTES_PER_LITERAL`] says the fast coder
/// would miss).
#[must_use]
pub fn png_nibbles(frame: &Frame, palette: &[u8], budget: usize) -> Vec<u8> {
    DEFLATER.with_borrow_mut(|deflater| {
        let Deflater { quick, filtered, rows, deflated, .. } = deflater;
        let literals = pack_nibbles(frame, UP, filtered, rows);
        deflated.clear();
        if literals * FAST_BYTES_PER_LITERAL.0 / FAST_BYTES_PER_LITERAL.1 <= budget {
            let mut fast = fdeflate::Compressor::new(&mut *deflated).expect("writing to memory cannot fail");
            fast.write_data(filtered).expect("writing to memory cannot fail");
            fast.finish().expect("writing to memory cannot fail");
        }
        if deflated.is_empty() || deflated.len() > budget {
            pack_nibbles(frame, NONE, filtered, rows);
            quick.reset();
            deflate(quick, filtered, deflated);
        }
        write_png(frame, deflated, BitDepth::Four, palette)
    })
}

/// The rows of `frame`, two pixels a byte (the left one in the high nibble), each row
/// after the filter byte `filter` (`None` or `Up`) and filtered by it. A row the same as
/// the one above (most rows of a band of text) is not packed again: under `Up` it is
/// zeros, under `None` a copy. `rows` holds the packed row above and the one being packed.
/// Returns how many bytes of the rows (filter bytes aside) are not zero, under `Up`.
fn pack_nibbles(frame: &Frame, filter: u8, out: &mut Vec<u8>, rows: &mut (Vec<u8>, Vec<u8>)) -> usize {
    let width = frame.width.max(1);
    let packed = width.div_ceil(2);
    let (above, current) = rows;
    // Above the first row, `Up` sees zeros: the row as it is.
    above.clear();
    above.resize(packed, 0);
    out.clear();
    out.reserve((packed + 1) * frame.height);
    let mut above_pixels: &[u8] = &[];
    let mut literals = 0;
    for row in frame.pixels.chunks_exact(width) {
        out.push(filter);
        let start = out.len();
        if row == above_pixels {
            match filter {
                UP => out.resize(start + packed, 0),
                _ => out.extend_from_slice(above),
            }
            continue;
        }
        pack_row(row, current);
        if filter == UP {
            out.resize(start + packed, 0);
            literals += subtract(current, above, &mut out[start..]);
        } else {
            out.extend_from_slice(current);
        }
        std::mem::swap(above, current);
        above_pixels = row;
    }
    literals
}

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// `row`'s pixels (each below 16) two a byte, the left one in the high nibble: eight at a
/// time as one word, whose byte pairs fold into four bytes in three shifts.
fn pack_row(row: &[u8], packed: &mut Vec<u8>) {
    packed.clear();
    packed.resize(row.len().div_ceil(2), 0);
    let words = row.chunks_exact(8);
    let rest = words.remainder();
    let whole = 4 * (row.len() / 8);
    for (out, word) in packed.chunks_exact_mut(4).zip(words) {
        // Little-endian: each 16-bit lane holds a left pixel `l` low and a right one `r` high.
        let word = u64::from_le_bytes(word.try_into().expect("chunks of eight"));
        let pairs = ((word << 4) | (word >> 8)) & 0x00ff_00ff_00ff_00ff;
        let pairs = (pairs | (pairs >> 8)) & 0x0000_ffff_0000_ffff;
        out.copy_from_slice(&((pairs | (pairs >> 16)) as u32).to_le_bytes());
    }
    for (out, pair) in packed[whole..].iter_mut().zip(rest.chunks(2)) {
        *out = pair[0] << 4 | pair.get(1).copied().unwrap_or(0);
    }
}

/// `out = current - above`, byte by byte (wrapping, the `Up` filter), eight bytes at a time
/// in one word; returns how many bytes of `out` are not zero.
fn subtract(current: &[u8], above: &[u8], out: &mut [u8]) -> usize {
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().expect("chunks of eight"));
    let mut literals = 0;
    let triples = out.chunks_exact_mut(8).zip(current.chunks_exact(8)).zip(above.chunks_exact(8));
    for ((out, current), above) in triples {
        let (x, y) = (word(current), word(above));
        // Each byte's difference without borrowing from the next byte (Hacker's Delight 2-18).
        let difference = ((x | HIGH_BITS) - (y & !HIGH_BITS)) ^ ((x ^ !y) & HIGH_BITS);
        out.copy_from_slice(&difference.to_le_bytes());
        // A byte's high bit, after adding 0x7f to its low seven, is set when it is not zero.
        let low = !HIGH_BITS;
        literals += ((((difference & low) + low) | difference) & HIGH_BITS).count_ones() as usize;
    }
    let whole = 8 * (out.len() / 8);
    for ((out, current), above) in out[whole..].iter_mut().zip(&current[whole..]).zip(&above[whole..]) {
        *out = current.wrapping_sub(*above);
        literals += usize::from(*out != 0);
    }
    literals
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
    fn rows_are_packed_two_pixels_a_byte_the_left_one_high() {
        // 21 pixels: two whole words, then a pair and a pixel left alone.
        let row: Vec<u8> = (0..21).map(|i| (i * 7 % 16) as u8).collect();
        let mut packed = Vec::new();
        pack_row(&row, &mut packed);
        let expected: Vec<u8> = row.chunks(2).map(|pair| pair[0] << 4 | pair.get(1).copied().unwrap_or(0)).collect();
        assert_eq!(packed, expected);
        assert_eq!(packed[..2], [0x07, 0xe5]);
    }

    #[test]
    fn rows_are_subtracted_byte_by_byte_with_the_literals_counted() {
        // 19 bytes: two whole words and three left, with every borrow a byte can make.
        let current: Vec<u8> = (0..19).map(|i| (i * 53 % 256) as u8).collect();
        let above: Vec<u8> =
            (0..19).map(|i| if i % 3 == 0 { (i * 53 % 256) as u8 } else { (i * 97 % 256) as u8 }).collect();
        let mut out = vec![0; 19];
        let literals = subtract(&current, &above, &mut out);
        let expected: Vec<u8> = current.iter().zip(&above).map(|(c, a)| c.wrapping_sub(*a)).collect();
        assert_eq!(out, expected);
        assert_eq!(literals, expected.iter().filter(|&&byte| byte != 0).count());
        assert_eq!(literals, 12, "every third byte is its own above");
    }

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
