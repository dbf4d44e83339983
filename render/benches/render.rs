//! The `render` benchmark group: one busy middle-game position per game drawn to PNG
//! bytes at 800 pixels (`render/chego`, `render/gess`, `render/ichess`, `render/go`,
//! `render/chogo`). The PNG size of each is printed before it is timed.
//!
//! Run with `cargo bench -p stonemate-render --bench render`.

#[path = "../tests/samples/mod.rs"]
mod samples;

use criterion::{Criterion, criterion_group, criterion_main};
use stonemate_render::png;

fn render(c: &mut Criterion) {
    let positions = [
        ("chego", samples::chego_busy()),
        ("gess", samples::gess_busy()),
        ("ichess", samples::ichess_busy()),
        ("go", samples::go_busy()),
        ("chogo", samples::chogo_busy()),
    ];
    let mut group = c.benchmark_group("render");
    for (name, picture) in &positions {
        let bytes = png(picture);
        eprintln!("render/{name}: {} bytes", bytes.len());
        group.bench_function(*name, |b| b.iter(|| png(std::hint::black_box(picture))));
    }
    group.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
