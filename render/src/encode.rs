//! Encoding an indexed frame as a PNG: palette colour type, the `Up` row filter (a row of
//! a board picture mostly repeats the row above, which the filter turns into zeros) and
//! a fixed, fast zlib level. Deflate is zlib-rs (the `png` crate's `zlib-rs` feature),
//! which is several times faster than the default backend at low levels.

use png::{BitDepth, ColorType, DeflateCompression, Encoder, Filter};

use crate::frame::Frame;
use crate::palette::Palette;

/// The deflate setting of every board picture: chosen by measuring our five games at
/// 800 pixels (`cargo bench -p stonemate-render`). Level 1 of zlib-rs uses a fixed
/// Huffman code and misses the 40 KB target on busy 19x19 boards; level 2 meets it at
/// about the same speed.
pub const PNG_COMPRESSION: DeflateCompression = DeflateCompression::Level(2);
pub const PNG_FILTER: Filter = Filter::Up;
/// A picture larger than this at [`PNG_COMPRESSION`] (only crowded boards far beyond a
/// normal game) is encoded again at [`FALLBACK_COMPRESSION`], trading time for size.
pub const MAX_PNG_BYTES: usize = 40 * 1024;
pub const FALLBACK_COMPRESSION: DeflateCompression = DeflateCompression::Level(6);

/// The frame as PNG bytes.
#[must_use]
pub fn png(frame: &Frame) -> Vec<u8> {
    let bytes = encode(frame, PNG_COMPRESSION);
    if bytes.len() <= MAX_PNG_BYTES { bytes } else { encode(frame, FALLBACK_COMPRESSION) }
}

fn encode(frame: &Frame, compression: DeflateCompression) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(MAX_PNG_BYTES);
    let mut encoder = Encoder::new(&mut bytes, frame.width as u32, frame.height as u32);
    encoder.set_color(ColorType::Indexed);
    encoder.set_depth(BitDepth::Eight);
    encoder.set_palette(Palette::get().bytes());
    encoder.set_deflate_compression(compression);
    encoder.set_filter(PNG_FILTER);
    let mut writer = encoder.write_header().expect("writing to memory cannot fail");
    writer.write_image_data(&frame.pixels).expect("the frame matches the header");
    writer.finish().expect("writing to memory cannot fail");
    bytes
}
