//! The tables the table tests and the `table` benchmark draw: standings pages as the bot
//! makes them, with names in every script the board pictures draw.

#![allow(dead_code)]

use stonemate_render::{Column, Row, Section, Table};

/// Names in many scripts, some long (Discord allows 32 characters).
pub const NAMES: [&str; 12] = [
    "Magnus Carlsen",
    "Иван Петров",
    "李小龍",
    "محمد علي",
    "Ελένη Παπαδοπούλου",
    "さくら 🌸",
    "अक्षय कुमार",
    "김민준",
    "Jean-Baptiste Émile de Montgolfière",
    "சுப்பிரமணிய பாரதி",
    "party 🎉🔥",
    "Zoë",
];

/// The standings columns: rank, player, points, Sonneborn-Berger, Buchholz, games played.
pub fn columns() -> Vec<Column> {
    vec![
        Column::number("#"),
        Column::name("Player"),
        Column::number("Pts"),
        Column::number("SB"),
        Column::number("Buch"),
        Column::number("Games"),
    ]
}

/// A standings row for the player ranked `rank` (1-based), numbers from a fixed rule.
pub fn row(rank: usize, name: &str) -> Row {
    let points = (30 - rank) as f32 / 2.0;
    Row::new([
        rank.to_string(),
        name.to_owned(),
        format!("{points}"),
        format!("{:.2}", points * 3.25),
        format!("{}", 40 - rank),
        format!("{}/{}", 9 - rank % 3, 9),
    ])
}

/// `rows` rows of standings starting at rank `first`, names taken in turn from [`NAMES`].
pub fn rows(first: usize, count: usize) -> Vec<Row> {
    (first..first + count).map(|rank| row(rank, NAMES[(rank - 1) % NAMES.len()])).collect()
}

/// A full page: three divisions of 9, 8 and 8 players, the reader's own row highlighted and
/// a withdrawn player greyed.
pub fn standings() -> Table {
    let mut divisions = vec![rows(1, 9), rows(10, 8), rows(18, 8)];
    divisions[1][2] = divisions[1][2].clone().highlighted();
    divisions[0][6] = divisions[0][6].clone().dimmed();
    Table {
        title: "T3 · Round robin · iChess".into(),
        note: "page 1/2".into(),
        columns: columns(),
        sections: divisions
            .into_iter()
            .enumerate()
            .map(|(index, rows)| Section { heading: format!("Division {}", index + 1), rows })
            .collect(),
    }
}

/// One section of `count` rows with no heading (a Swiss).
pub fn single(count: usize) -> Table {
    Table {
        title: "T4 · Swiss · Go".into(),
        note: "round 3 of 5".into(),
        columns: columns(),
        sections: vec![Section { heading: String::new(), rows: rows(1, count) }],
    }
}

/// The last page of a Swiss of 1,000 players: ranks 976 to 1,000, one section.
pub fn last_of_thousand() -> Table {
    let rows = (976..=1000)
        .map(|rank: usize| {
            let points = (1000 - rank) as f32 / 50.0;
            Row::new([
                rank.to_string(),
                NAMES[rank % NAMES.len()].to_owned(),
                format!("{points}"),
                format!("{:.2}", points * 3.25),
                format!("{}", 1040 - rank),
                "9/9".to_owned(),
            ])
        })
        .collect();
    Table {
        title: "T9 · Swiss · Go".into(),
        note: "round 9 of 9 · page 40/40".into(),
        columns: columns(),
        sections: vec![Section { heading: String::new(), rows }],
    }
}
