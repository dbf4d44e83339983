//! The table pictures (the bot's standings pages).
//!
//! - `table/standings`: a full page of 25 rows in three divisions, names in a dozen
//!   scripts, one row highlighted and one greyed, drawn and encoded to PNG bytes (hot).
//! - `table/single-25`: one section of 25 rows, no headings.
//! - `table/long-names`: 25 rows whose names are 32 characters in every script, all cut.
//! - `…/frame`: the same page drawn into a frame without the PNG encoding, to tell the
//!   two costs apart.
//!
//! The PNG size of each is printed before it is timed, with the thread's CPU time (median
//! and worst of 300): on a shared machine wall time is mostly waiting for a core.
//!
//! Run with `cargo bench -p stonemate-render --bench table`.

#[path = "../tests/tables/mod.rs"]
mod tables;

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use stonemate_render::{ROWS_PER_PAGE, Table};

fn long_names() -> Table {
    let mut table = tables::single(ROWS_PER_PAGE);
    for (index, row) in table.sections[0].rows.iter_mut().enumerate() {
        row.cells[1] = tables::NAMES[index % tables::NAMES.len()].repeat(4).chars().take(32).collect();
    }
    table
}

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("table");
    for (name, table) in
        [("standings", tables::standings()), ("single-25", tables::single(ROWS_PER_PAGE)), ("long-names", long_names())]
    {
        let bytes = table.png();
        let mut cpu: Vec<Duration> = (0..300)
            .map(|_| {
                let start = cpu_time::ThreadTime::now();
                std::hint::black_box(table.png());
                start.elapsed()
            })
            .collect();
        cpu.sort();
        eprintln!(
            "table/{name}: {} bytes, cpu median {:.2?} max {:.2?}",
            bytes.len(),
            cpu[cpu.len() / 2],
            cpu[cpu.len() - 1]
        );
        group.bench_function(name, |b| b.iter(|| std::hint::black_box(&table).png()));
        group.bench_function(format!("{name}/frame"), |b| b.iter(|| std::hint::black_box(&table).frame()));
    }
    group.finish();
}

criterion_group!(benches, table);
criterion_main!(benches);
