//! Every game with drops reads a drop written with `@`, `=` or `*` between the piece and
//! the square, and prints it back in its own canonical form.

use stonemate_engine::{AnyGame, GameKind};

#[test]
fn every_drop_game_reads_the_three_drop_marks() {
    let drops = [
        (GameKind::Chego, "N", "e4", "Ne4"),
        (GameKind::IChess, "R", "a1", "R=a1"),
        (GameKind::Go, "R", "d4", "R@d4"),
        (GameKind::Chogo, "K", "d2", "K@d2"),
    ];
    for (kind, letter, square, printed) in drops {
        for mark in ['@', '=', '*'] {
            let mut game = AnyGame::new(kind, &[]).expect("the default options");
            let text = format!("{letter}{mark}{square}");
            let played = game.play_text(&text).map_err(|error| error.to_string());
            assert_eq!(played, Ok(printed.to_owned()), "{kind}: {text}");
        }
    }
}
