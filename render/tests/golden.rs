//! Golden images: each sample position is rendered and compared, decoded pixel by decoded
//! pixel, with the PNG checked in under `tests/golden/`. After a deliberate change to the
//! pictures, look at the new ones and regenerate them with
//!
//! ```text
//! STONEMATE_BLESS=1 cargo test -p stonemate-render --test main golden::
//! ```
//!
//! A mismatch writes the new picture to `target/golden-diff/` for comparison.

use crate::samples;

use std::path::{Path, PathBuf};

use stonemate_render::{Picture, png};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Width, height and RGB pixels of a PNG.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(::png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut pixels).expect("one frame");
    pixels.truncate(info.buffer_size());
    assert_eq!(info.color_type, ::png::ColorType::Rgb, "pictures are palette images, expanded to RGB");
    (info.width, info.height, pixels)
}

fn check(name: &str, picture: &Picture) -> Result<(), String> {
    check_bytes(name, &png(picture))
}

/// Compares the PNG `bytes` with the golden image `name` (or writes it when blessing).
pub fn check_bytes(name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = golden_dir().join(format!("{name}.png"));
    if std::env::var_os("STONEMATE_BLESS").is_some() {
        std::fs::create_dir_all(golden_dir()).map_err(|e| e.to_string())?;
        std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read(&path).map_err(|e| format!("{name}: {e} (run with STONEMATE_BLESS=1)"))?;
    let (expected, actual) = (decode(&expected), decode(bytes));
    if expected == actual {
        return Ok(());
    }
    let diff_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/golden-diff");
    let _ = std::fs::create_dir_all(&diff_dir);
    let _ = std::fs::write(diff_dir.join(format!("{name}.png")), bytes);
    let differing = expected.2.chunks(3).zip(actual.2.chunks(3)).filter(|(a, b)| a != b).count();
    Err(format!(
        "{name}: {}x{} expected, {}x{} drawn, {differing} pixels differ (new picture in target/golden-diff)",
        expected.0, expected.1, actual.0, actual.1
    ))
}

#[test]
fn every_sample_matches_its_golden_image() {
    let failures: Vec<String> =
        samples::all().iter().filter_map(|sample| check(sample.name, &sample.picture).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn pictures_stay_within_800_pixels_and_40_kilobytes() {
    for sample in samples::all() {
        let bytes = png(&sample.picture);
        let (width, height, _) = decode(&bytes);
        assert!(width.max(height) <= 800, "{}: {width}x{height}", sample.name);
        assert!(bytes.len() <= 40 * 1024, "{}: {} bytes", sample.name, bytes.len());
    }
}

#[test]
fn the_longest_names_in_any_script_stay_within_40_kilobytes() {
    for (script, name) in samples::longest_names() {
        assert_eq!(name.chars().count(), 32, "{script}");
        let bytes = png(&samples::named(&name));
        let (width, height, _) = decode(&bytes);
        assert!(width.max(height) <= 800, "{script}: {width}x{height}");
        assert!(bytes.len() <= 40 * 1024, "{script}: {} bytes", bytes.len());
    }
}

#[test]
fn the_png_holds_exactly_the_drawn_frame() {
    let palette = stonemate_render::palette();
    for sample in samples::all().iter().take(4) {
        let frame = stonemate_render::frame(&sample.picture);
        let (width, height, pixels) = decode(&png(&sample.picture));
        assert_eq!((width as usize, height as usize), (frame.width, frame.height));
        let expected: Vec<u8> = frame.pixels.iter().flat_map(|&index| palette[usize::from(index)]).collect();
        assert!(pixels == expected, "{}: decoded pixels differ from the frame", sample.name);
    }
}
