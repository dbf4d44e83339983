//! The render benchmarks.
//!
//! - `first/...` (printed, not a criterion group, run first while every cache is cold):
//!   the first picture of each board size: go boards 2x2 to 25x25 and the other games'
//!   busy samples, timed once each; the median and the slowest are printed.
//! - `cycle/every_size`: the steady state of drawing every one of those boards in turn,
//!   one picture per iteration (a cache too small for them all shows up here).
//! - `render/chego`, `render/gess`, `render/ichess`, `render/go`, `render/chogo`: one busy
//!   middle-game position per game drawn to PNG bytes at 800 pixels; the PNG size of each
//!   is printed before it is timed.
//!
//! - `names/latin`, `names/cyrillic`, `names/arabic`, `names/devanagari`, `names/bengali`,
//!   `names/tamil`, `names/emoji`, `names/cjk`: an iChess position whose two players have
//!   32-character names (the longest Discord allows) in that script, drawn hot; the PNG size of each is printed before it is timed, and
//!   the time of its first picture (fonts still deflated, glyphs not yet rasterised);
//!   `names/latin-short`, the same picture with a short Latin name, is the reference.
//!
//! Run with `cargo bench -p stonemate-render --bench render`.

mod common;
#[path = "../tests/samples/mod.rs"]
mod samples;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use stonemate_engine::GameKind;
use stonemate_render::{Picture, png};

/// A go board of `size` x `size` with rooks, some way into a game chosen by a fixed rule.
fn go_board(size: u8) -> Picture {
    let turns = (usize::from(size) * usize::from(size) * 2 / 3).min(120);
    common::played(GameKind::Go, &[("board", format!("{size}x{size}"))], turns)
}

/// Every board size the pictures come in.
fn every_size() -> Vec<(String, Picture)> {
    let mut boards: Vec<(String, Picture)> =
        (2..=25).map(|size| (format!("go-{size}x{size}"), go_board(size))).collect();
    boards.push(("go-19x19-rnb".into(), samples::go_busy()));
    boards.push(("chego".into(), samples::chego_busy()));
    boards.push(("gess".into(), samples::gess_busy()));
    boards.push(("ichess".into(), samples::ichess_busy()));
    boards.push(("chogo".into(), samples::chogo_busy()));
    boards
}

fn first_pictures(boards: &[(String, Picture)]) {
    let mut times: Vec<(Duration, &str)> = boards
        .iter()
        .map(|(name, picture)| {
            let start = Instant::now();
            std::hint::black_box(png(picture));
            (start.elapsed(), name.as_str())
        })
        .collect();
    times.sort();
    let (median, (max, slowest)) = (times[times.len() / 2].0, times[times.len() - 1]);
    eprintln!("first/every_size: {} boards, median {median:.2?}, max {max:.2?} ({slowest})", times.len());
}

fn cycle(c: &mut Criterion) {
    let boards = every_size();
    first_pictures(&boards);
    let mut next = 0;
    c.bench_function("cycle/every_size", |b| {
        b.iter(|| {
            next = (next + 1) % boards.len();
            png(std::hint::black_box(&boards[next].1))
        });
    });
}

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

fn names(c: &mut Criterion) {
    let mut group = c.benchmark_group("names");
    // The same picture with a short Latin name: the reference the others are beside.
    let reference = ("latin-short", "olivia".to_owned());
    for (script, name) in std::iter::once(reference).chain(samples::longest_names()) {
        let picture = samples::named(&name);
        let start = Instant::now();
        let bytes = png(&picture);
        let first = start.elapsed();
        // The thread's CPU time too: on a shared machine wall time is mostly waiting.
        let mut cpu: Vec<Duration> = (0..300)
            .map(|_| {
                let start = cpu_time::ThreadTime::now();
                std::hint::black_box(png(&picture));
                start.elapsed()
            })
            .collect();
        cpu.sort();
        eprintln!(
            "names/{script}: {} bytes, first picture {first:.2?}, cpu median {:.2?} max {:.2?} ({name})",
            bytes.len(),
            cpu[cpu.len() / 2],
            cpu[cpu.len() - 1]
        );
        group.bench_function(script, |b| b.iter(|| png(std::hint::black_box(&picture))));
    }
    group.finish();
}

criterion_group!(benches, names, cycle, render);
criterion_main!(benches);
