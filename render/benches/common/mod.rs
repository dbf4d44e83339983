//! What the render benches share (a folder, so that cargo does not take it for a bench).

use stonemate_engine::{AnyGame, GameKind};
use stonemate_render::Picture;

/// A game of `kind` with `options`, `turns` turns in (each chosen from the legal ones by a
/// fixed rule, so every run draws the same boards).
pub fn played(kind: GameKind, options: &[(&str, String)], turns: usize) -> Picture {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect();
    let mut game = AnyGame::new(kind, &options).expect("valid options");
    for i in 0..turns {
        let legal = game.legal_turns();
        if legal.is_empty() {
            break;
        }
        let _ = game.play(legal[(i * 7919 + 13) % legal.len()]);
    }
    Picture::new(game.view())
}
