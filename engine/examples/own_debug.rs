use stonemate_engine::go::{Go, playout_ownership};
use stonemate_engine::{Game, GameOptions, options::parse_option_text};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut game = Go::new(GameOptions::from_pairs(&parse_option_text(&args[1]).unwrap()).unwrap());
    for t in args[2].split_whitespace() {
        game.play_text(t).unwrap();
    }
    let t = std::time::Instant::now();
    let own = playout_ownership(&game, 32, 7);
    eprintln!("{:?}", t.elapsed());
    let v = game.view();
    for r in (0..v.height).rev() {
        let mut line = String::new();
        for f in 0..v.width {
            let sq = stonemate_engine::Square::new(f, r).unwrap();
            let o = own.iter().find(|(s, _)| *s == sq).map_or(9.0, |x| x.1);
            line.push_str(&format!("{}{:+.2} ", v.cell(sq).char(), o));
        }
        println!("{line}");
    }
    let t = std::time::Instant::now();
    println!("{}", game.estimate_dead());
    eprintln!("{:?}", t.elapsed());
}
