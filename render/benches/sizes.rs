//! Pictures at many board sizes: whether the cache of pre-drawn tiles keeps up when the
//! pictures asked for cycle through N distinct tile sets (cell size and place), for
//! N = 1, 16, 48, 100 and 200, under the tile cache's byte budget ("bytes") and under the
//! old policy of at most 48 sets ("48 sets"), alternately in the same run.
//!
//! The sizes come first from what users reach (every game, boards of every shape the games
//! allow, as stills at 800 pixels, then as animation frames at 560), then from other long
//! sides, until there are 200 distinct sets. A picture is kept in the list only if it
//! needs a tile set no earlier picture needed.
//!
//! For each N and policy it prints the median and the worst of the pictures drawn while
//! cycling (after one round that fills the cache), the worst first round, and the hot cost
//! of the same pictures (each drawn right after itself). Each is given as wall time and as
//! the thread's CPU time: on a shared machine the worst wall time is mostly the thread
//! waiting for a core, while its CPU time is the work the picture took. Plain timing, no
//! criterion: the worst picture is what matters here, and criterion reports means.
//!
//! Run with `cargo bench -p stonemate-render --bench sizes`.

mod common;
#[path = "../tests/samples/mod.rs"]
mod samples;

use std::time::{Duration, Instant};

use common::played;

use cpu_time::ThreadTime;

use stonemate_engine::GameKind;
use stonemate_render::{CacheLimit, OLD_MAX_CACHED_SETS, Picture, TILE_CACHE_BYTES, png_at, set_tile_cache_limit};

/// Boards of every game; across their shapes they reach every cell size the games allow
/// (a board 2 wide or 2 high is sized by its other side alone).
fn boards() -> Vec<Picture> {
    let mut boards = vec![
        samples::go_busy(),
        samples::chego_busy(),
        samples::gess_busy(),
        samples::ichess_busy(),
        samples::chogo_busy(),
    ];
    let mut shapes: Vec<(u8, u8)> = (2..=25).flat_map(|n| [(n, n), (n, 2), (2, n)]).collect();
    shapes.dedup();
    for (pieces, turns) in [("R", 40), ("RNB", 40)] {
        for &(width, height) in &shapes {
            let options = [("board", format!("{width}x{height}")), ("pieces", pieces.to_owned())];
            boards.push(played(GameKind::Go, &options, turns.min(usize::from(width) * usize::from(height) / 2)));
        }
    }
    for n in 4..=16u8 {
        for (width, height) in [(n, n), (n, 4), (4, n)] {
            boards.push(played(GameKind::Chego, &[("board", format!("{width}x{height}"))], 30));
        }
    }
    boards
}

/// (picture, long side) pairs, each needing a tile set no earlier pair needed.
fn cases(boards: &[Picture], wanted: usize) -> Vec<(&Picture, usize)> {
    set_tile_cache_limit(CacheLimit::Sets(usize::MAX), true);
    let mut cases = Vec::new();
    let mut sets = 0;
    let long_sides = [800, 560].into_iter().chain((10..40).map(|i| i * 40).filter(|&side| side != 800 && side != 560));
    'found: for long_side in long_sides {
        for board in boards {
            let _ = png_at(board, long_side);
            let (now, _) = stonemate_render::tile_cache_usage();
            if now > sets {
                sets = now;
                cases.push((board, long_side));
                if cases.len() == wanted {
                    break 'found;
                }
            }
        }
        if long_side == 560 {
            let (sets, bytes) = stonemate_render::tile_cache_usage();
            eprintln!(
                "reachable: {} pictures (stills and animation frames) need {sets} tile sets, {:.1} MiB",
                cases.len(),
                bytes as f64 / f64::from(1 << 20)
            );
        }
    }
    cases
}

/// One picture's (wall, CPU) time.
#[derive(Debug, Clone, Copy, Default)]
struct Times {
    wall: Duration,
    cpu: Duration,
}

fn time(picture: &Picture, long_side: usize) -> Times {
    let (start, cpu) = (Instant::now(), ThreadTime::now());
    std::hint::black_box(png_at(std::hint::black_box(picture), long_side));
    Times { wall: start.elapsed(), cpu: cpu.elapsed() }
}

/// (median, worst) of one measure of `times`.
fn spread(times: &[Times], measure: fn(&Times) -> Duration) -> (f64, f64) {
    let mut values: Vec<Duration> = times.iter().map(measure).collect();
    values.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    (ms(values[values.len() / 2]), ms(values[values.len() - 1]))
}

fn run(name: &str, limit: CacheLimit, cases: &[(&Picture, usize)]) {
    set_tile_cache_limit(limit, true);
    let first: Vec<Times> = cases.iter().map(|&(picture, side)| time(picture, side)).collect();
    let rounds = (600 / cases.len()).max(3);
    let cycled: Vec<Times> =
        (0..rounds).flat_map(|_| cases.iter().map(|&(picture, side)| time(picture, side))).collect();
    let hot: Vec<Times> = cases
        .iter()
        .flat_map(|&(picture, side)| {
            let _ = png_at(picture, side);
            [time(picture, side), time(picture, side), time(picture, side)]
        })
        .collect();
    let (sets, bytes) = stonemate_render::tile_cache_usage();
    let slowest = (0..cycled.len()).max_by_key(|&i| cycled[i].cpu).unwrap_or(0);
    let over = cycled.iter().filter(|times| times.cpu > Duration::from_millis(3)).count();
    let wall = |times: &Times| times.wall;
    let cpu = |times: &Times| times.cpu;
    let (cycled_wall, cycled_cpu, hot_wall, hot_cpu) =
        (spread(&cycled, wall), spread(&cycled, cpu), spread(&hot, wall), spread(&hot, cpu));
    let (first_wall, first_cpu) = (spread(&first, wall).1, spread(&first, cpu).1);
    println!(
        "N={:<3} {name:<7} | cycling median {:5.2} ms (cpu {:5.2}), worst {:6.2} ms (cpu {:6.2}; round {}, long side {}; {over} of {} over 3 ms cpu) | hot median {:5.2} (cpu {:5.2}), worst cpu {:5.2} | first round worst {:6.2} (cpu {:6.2}) | cache {sets} sets, {:.1} MiB",
        cases.len(),
        cycled_wall.0,
        cycled_cpu.0,
        cycled_wall.1,
        cycled_cpu.1,
        slowest / cases.len(),
        cases[slowest % cases.len()].1,
        cycled.len(),
        hot_wall.0,
        hot_cpu.0,
        hot_cpu.1,
        first_wall,
        first_cpu,
        bytes as f64 / f64::from(1 << 20),
    );
}

fn main() {
    let boards = boards();
    let all = cases(&boards, 200);
    for n in [1, 16, 48, 100, 200] {
        let cases = &all[..n.min(all.len())];
        run("48 sets", CacheLimit::Sets(OLD_MAX_CACHED_SETS), cases);
        run("bytes", CacheLimit::Bytes(TILE_CACHE_BYTES), cases);
    }
}
