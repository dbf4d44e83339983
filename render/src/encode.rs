//! Encoding an indexed frame as a PNG: 8-bit palette colour, every row with the `Up` filter
//! (a row of a board picture mostly repeats the row above, which the filter turns into
//! zeros), deflated by zlib-rs at a fixed, fast level.
//!
//! The chunks are written here rather than by an image library so that the deflate state
//! (several hundred kilobytes of window and hash tables) and the filter buffer are made
//! once per thread and reset between pictures, not allocated for each one: measured, that
//! saves about a fifth of the time of a picture.

use std::cell::RefCell;

use flate2::{Compress, Compression, Crc, FlushCompress, Status};

use crate::frame::Frame;
use crate::palette::Palette;

/// The zlib level of every board picture, chosen by measuring our five games at 800
/// pixels (`cargo bench -p stonemate-render`): zlib-rs level 1 uses a fixed Huffman code
/// and misses the 40 KB target on busy 19x19 boards; level 2 meets it at about the same
/// speed; higher levels cost much more time for a few kilobytes.
pub const PNG_LEVEL: u32 = 2;
/// A picture larger than this at [`PNG_LEVEL`] (only crowded boards far beyond a normal
/// game) is deflated again at [`FALLBACK_LEVEL`], trading time for size.
pub const MAX_PNG_BYTES: usize = 40 * 1024;
pub const FALLBACK_LEVEL: u32 = 6;

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
/// PNG colour type 3: palette indices.
const INDEXED: u8 = 3;
/// PNG row filter 2: each byte minus the byte above it.
const UP: u8 = 2;

/// The reusable state of one thread's encoder.
struct Encoder {
    compress: Compress,
    filtered: Vec<u8>,
    deflated: Vec<u8>,
}

thread_local! {
    static ENCODER: RefCell<Encoder> = RefCell::new(Encoder {
        compress: Compress::new(Compression::new(PNG_LEVEL), true),
        filtered: Vec::new(),
        deflated: Vec::new(),
    });
}

/// The frame as PNG bytes.
#[must_use]
pub fn png(frame: &Frame) -> Vec<u8> {
    ENCODER.with_borrow_mut(|encoder| encoder.png(frame))
}

impl Encoder {
    fn png(&mut self, frame: &Frame) -> Vec<u8> {
        filter_up(frame, &mut self.filtered);
        self.compress.reset();
        deflate(&mut self.compress, &self.filtered, &mut self.deflated);
        if self.deflated.len() > MAX_PNG_BYTES {
            let mut thorough = Compress::new(Compression::new(FALLBACK_LEVEL), true);
            deflate(&mut thorough, &self.filtered, &mut self.deflated);
        }
        let palette = Palette::get().bytes();
        let mut bytes = Vec::with_capacity(self.deflated.len() + palette.len() + 64);
        bytes.extend_from_slice(&SIGNATURE);
        let mut header = Vec::with_capacity(13);
        header.extend_from_slice(&(frame.width as u32).to_be_bytes());
        header.extend_from_slice(&(frame.height as u32).to_be_bytes());
        // Bit depth 8, palette colour, deflate, adaptive filtering, no interlace.
        header.extend_from_slice(&[8, INDEXED, 0, 0, 0]);
        chunk(&mut bytes, b"IHDR", &header);
        chunk(&mut bytes, b"PLTE", &palette);
        chunk(&mut bytes, b"IDAT", &self.deflated);
        chunk(&mut bytes, b"IEND", &[]);
        bytes
    }
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

/// Appends a PNG chunk: length, type, data, and the CRC of type and data.
fn chunk(bytes: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    bytes.extend_from_slice(&(data.len() as u32).to_be_bytes());
    bytes.extend_from_slice(kind);
    bytes.extend_from_slice(data);
    let mut crc = Crc::new();
    crc.update(kind);
    crc.update(data);
    bytes.extend_from_slice(&crc.sum().to_be_bytes());
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
    fn chunks_carry_the_standard_crc() {
        let mut bytes = Vec::new();
        chunk(&mut bytes, b"IEND", &[]);
        assert_eq!(bytes, [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xae, 0x42, 0x60, 0x82]);
    }
}
