//! `image`'s PNG encoder against ours, end to end on the same busy boards at 800 pixels:
//!
//! - `encode/{board}/indexed`: what the renderer does (the indexed frame, its palette, the
//!   `png` crate writing the file around image data deflated by zlib-rs at level 2);
//! - `encode/{board}/image-fast` and `.../image-default`: the same frame expanded to RGB
//!   (`image` writes no palette images) and written by `image`'s `PngEncoder` with
//!   `CompressionType::Fast` or `Default` and adaptive filtering.
//!
//! Sizes are printed before timing. Run with
//! `cargo bench -p stonemate-render --bench encoders`.

#[path = "../tests/samples/mod.rs"]
mod samples;

use criterion::{Criterion, criterion_group, criterion_main};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ExtendedColorType, ImageEncoder};
use stonemate_render::{Picture, frame, palette, png};

fn with_image(picture: &Picture, compression: CompressionType) -> Vec<u8> {
    let frame = frame(picture);
    let palette = palette();
    let rgb: Vec<u8> = frame.pixels.iter().flat_map(|&index| palette[usize::from(index)]).collect();
    let mut bytes = Vec::new();
    PngEncoder::new_with_quality(&mut bytes, compression, FilterType::Adaptive)
        .write_image(&rgb, frame.width as u32, frame.height as u32, ExtendedColorType::Rgb8)
        .expect("writing to memory cannot fail");
    bytes
}

fn encoders(c: &mut Criterion) {
    let boards = [("go", samples::go_busy()), ("chego", samples::chego_busy()), ("gess", samples::gess_busy())];
    let mut group = c.benchmark_group("encode");
    for (name, picture) in &boards {
        eprintln!(
            "encode/{name}: indexed {} bytes, image-fast {} bytes, image-default {} bytes",
            png(picture).len(),
            with_image(picture, CompressionType::Fast).len(),
            with_image(picture, CompressionType::Default).len()
        );
        group.bench_function(format!("{name}/indexed"), |b| b.iter(|| png(std::hint::black_box(picture))));
        group.bench_function(format!("{name}/image-fast"), |b| {
            b.iter(|| with_image(std::hint::black_box(picture), CompressionType::Fast))
        });
        group.bench_function(format!("{name}/image-default"), |b| {
            b.iter(|| with_image(std::hint::black_box(picture), CompressionType::Default))
        });
    }
    group.finish();
}

criterion_group!(benches, encoders);
criterion_main!(benches);
