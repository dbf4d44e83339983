//! The table pictures (the bot's standings pages).
//!
//! - `table/standings`: a full page of 25 rows in three divisions, names in a dozen
//!   scripts, one row highlighted and one greyed, drawn and encoded to PNG bytes (hot).
//! - `table/single-25`: one section of 25 rows, no headings.
//! - `table/long-names`: 25 rows whose names are 32 characters in every script, all cut.
//! - `table/last-of-1000`: the last page of a Swiss of 1,000 players (ranks 976 to 1,000).
//! - `…/8bit`: the page encoded as before issue #39 (8-bit, every shade, zlib-rs), beside
//!   the 4-bit page the bot sends.
//! - `…/frame`: the same page drawn into a frame without the PNG encoding, to tell the
//!   two costs apart.
//!
//! The PNG size of each is printed before it is timed, with the thread's CPU time (median,
//! 90th percentile and worst of 300, the two paths taking turns): on a shared machine wall time is mostly waiting for a core.
//!
//! Run with `cargo bench -p stonemate-render --bench table`.

#[path = "../tests/tables/mod.rs"]
mod tables;

use criterion::{Criterion, criterion_group, criterion_main};
use stonemate_render::{ROWS_PER_PAGE, Table};

fn long_names() -> Table {
    let mut table = tables::single(ROWS_PER_PAGE);
    for (index, row) in table.sections[0].rows.iter_mut().enumerate() {
        row.cells[1] = tables::NAMES[index % tables::NAMES.len()].repeat(4).chars().take(32).collect();
    }
    table
}

/// One way of making a page's PNG.
type Encode = fn(&Table) -> Vec<u8>;

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("table");
    let tables = [
        ("standings", tables::standings()),
        ("single-25", tables::single(ROWS_PER_PAGE)),
        ("long-names", long_names()),
        ("last-of-1000", tables::last_of_thousand()),
    ];
    for (name, table) in tables {
        // The old path and the new one in turn, so that both see the same load.
        let paths: [(&str, Encode); 2] = [("8bit", Table::png_8bit), ("png", Table::png)];
        let mut cpu = [Vec::new(), Vec::new()];
        for _ in 0..300 {
            for (times, (_, path)) in cpu.iter_mut().zip(paths) {
                let start = cpu_time::ThreadTime::now();
                std::hint::black_box(path(&table));
                times.push(start.elapsed());
            }
        }
        for (times, (path_name, path)) in cpu.iter_mut().zip(paths) {
            times.sort();
            eprintln!(
                "table/{name} {path_name}: {} bytes, cpu median {:.2?} p90 {:.2?} max {:.2?}",
                path(&table).len(),
                times[times.len() / 2],
                times[times.len() * 9 / 10],
                times[times.len() - 1]
            );
        }
        group.bench_function(format!("{name}/8bit"), |b| b.iter(|| std::hint::black_box(&table).png_8bit()));
        group.bench_function(name, |b| b.iter(|| std::hint::black_box(&table).png()));
        group.bench_function(format!("{name}/frame"), |b| b.iter(|| std::hint::black_box(&table).frame()));
    }
    group.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
