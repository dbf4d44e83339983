//! iChess perft: the counts of `tests/data/ichess-perft.txt` (cross-checked with
//! Fairy-Stockfish by `tests/oracles/fsf_perft.py`), read and checked by one test.

use stonemate_engine::ichess::IChess;

const TABLE: &str = include_str!("data/ichess-perft.txt");

#[derive(Debug, Default)]
struct Entry {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    for line in TABLE.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#')) {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => entries.push(Entry { id: value.to_owned(), ..Entry::default() }),
            "fen" => entries.last_mut().expect("an id comes first").fen = value.to_owned(),
            "perft" => {
                let (depth, count) = value.split_once(' ').expect("perft DEPTH COUNT");
                let count = (depth.parse().expect("a depth"), count.parse().expect("a count"));
                entries.last_mut().expect("an id comes first").counts.push(count);
            }
            "fsf" => {}
            other => panic!("unknown line `{other}` in the perft table"),
        }
    }
    entries
}

#[test]
fn perft_table() {
    let entries = entries();
    assert!(entries.len() >= 8, "the table lists its positions");
    for entry in entries {
        let game = IChess::from_fen(&entry.fen).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        assert_eq!(game.fen(), entry.fen, "{}: the set-up text round-trips", entry.id);
        assert!(!entry.counts.is_empty(), "{} has counts", entry.id);
        for (depth, count) in entry.counts {
            assert_eq!(game.perft(depth), count, "{} perft {depth}", entry.id);
        }
    }
}
