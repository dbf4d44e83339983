//! The positions the golden-image tests and the `render` benchmark draw: real games
//! replayed from the records in `tests/records/`, and views built by hand for looks whose
//! game has not landed yet (the renderer is generic, so a hand-built view is drawn exactly
//! as the game's own would be).

#![allow(dead_code)]

use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, BoardView, Cell, Color, GameKind, Hand, Look, Piece, Role, Square, Status};
use stonemate_render::Picture;

/// A named picture.
pub struct Sample {
    pub name: &'static str,
    pub picture: Picture,
}

fn square(name: &str) -> Square {
    name.parse().expect("sample squares are valid")
}

fn squares(names: &str) -> Vec<Square> {
    names.split_whitespace().map(square).collect()
}

fn replay(kind: GameKind, options: &[(&str, &str)], record: &str) -> BoardView {
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    let replay = AnyGame::replay(kind, &options, &record_tokens(record)).expect("sample options are valid");
    assert!(replay.error.is_none(), "sample record does not replay: {:?}", replay.error);
    replay.game.view()
}

fn picture(view: BoardView, title: &str, players: [&str; 2], perspective: Color) -> Picture {
    Picture {
        view,
        title: title.to_owned(),
        players: players.map(str::to_owned),
        perspective,
        highlights: Vec::new(),
        arrows: Vec::new(),
        marked: Vec::new(),
    }
}

/// Go with chess pieces, 19x19 with rooks, bishops and knights, 150 turns in.
pub fn go_busy() -> Picture {
    let view = replay(GameKind::Go, &[("pieces", "RNB")], include_str!("../records/go-19x19-rnb.txt"));
    picture(view, "#31 Go with chess pieces", ["alice", "Bartholomew the Magnificent"], Color::White)
}

/// A 9x9 game of rooks ended by two passes: owners shaded, result shown.
pub fn go_finished() -> Picture {
    let view = replay(GameKind::Go, &[("board", "9x9")], include_str!("../records/go-9x9-finished.txt"));
    picture(view, "#8 Go with chess pieces", ["carol", "dave"], Color::White)
}

/// Every fairy piece on 13x13, seen by Black, with squares highlighted.
pub fn go_fairy_black() -> Picture {
    let record = include_str!("../records/go-13x13-fairy.txt");
    let view = replay(GameKind::Go, &[("board", "13x13"), ("pieces", "QKPWFDAHG")], record);
    let mut picture = picture(view, "#12 Go with chess pieces", ["erin", "frank"], Color::Black);
    picture.highlights = squares("a1 b2 m13 g7");
    picture
}

fn board(width: u8, height: u8, fill: impl Fn(Square) -> Cell) -> Vec<Cell> {
    (0..height)
        .flat_map(|rank| (0..width).map(move |file| (file, rank)))
        .map(|(f, r)| fill(Square::new(f, r).unwrap()))
        .collect()
}

pub fn view(width: u8, height: u8, look: Look, cells: Vec<Cell>) -> BoardView {
    BoardView::plain(width, height, cells, look, Status::Ongoing { to_move: Color::White }, 0)
}

fn place(view: &mut BoardView, placements: &[(&str, Color, Role)]) {
    for &(names, color, role) in placements {
        for square in squares(names) {
            let index = usize::from(square.rank()) * usize::from(view.width) + usize::from(square.file());
            view.cells[index] = Cell::Piece(Piece::new(color, role));
        }
    }
}

/// The first `turns` turns of a record.
fn opening(record: &str, turns: usize) -> String {
    record_tokens(record).into_iter().take(turns).collect::<Vec<_>>().join(" ")
}

/// Gess 60 turns in, seen by Black (who moves first and sits at the bottom by default
/// for White; flipped here): the last move's footprints lit.
pub fn gess_busy() -> Picture {
    let record = opening(include_str!("../records/gess-full.txt"), 60);
    picture(replay(GameKind::Gess, &[], &record), "#54 Gess", ["gina", "hal"], Color::Black)
}

/// The end of the same game: Black's last move breaks White's last ring.
pub fn gess_finished() -> Picture {
    let view = replay(GameKind::Gess, &[], include_str!("../records/gess-full.txt"));
    picture(view, "#54 Gess", ["gina", "hal"], Color::White)
}

/// Chogo 40 turns in: the missing corners, crowned kings, Green as the second side.
pub fn chogo_busy() -> Picture {
    let view = replay(GameKind::Chogo, &[], include_str!("../records/chogo-busy.txt"));
    picture(view, "#77 Chogo", ["ivan", "judy"], Color::White)
}

/// Chogo won by capturing the king, seen by Green.
pub fn chogo_finished() -> Picture {
    let view = replay(GameKind::Chogo, &[], include_str!("../records/chogo-finished.txt"));
    picture(view, "#78 Chogo", ["ivan", "judy"], Color::Black)
}

/// Chogo before the kings are dropped: both kings in hand.
pub fn chogo_start() -> Picture {
    picture(replay(GameKind::Chogo, &[], "K@d3"), "#79 Chogo", ["ivan", "judy"], Color::White)
}

/// Chego 24 turns in: hands with counts, prisoners and score, the last drop lit.
pub fn chego_busy() -> Picture {
    let view = replay(GameKind::Chego, &[], include_str!("../records/chego-busy.txt"));
    picture(view, "#3 Chego", ["kim", "lee"], Color::White)
}

/// The example game of the rules to its end: owners shaded, result and score.
pub fn chego_finished() -> Picture {
    let view = replay(GameKind::Chego, &[], include_str!("../records/chego-finished.txt"));
    picture(view, "#5 Chego", ["kim", "lee"], Color::White)
}

/// Chego on 9x9 with two holes and an endless set of fairy pieces, seen by Black.
pub fn chego_holes_black() -> Picture {
    let options = [("board", "9x9:e5,d4"), ("set", "unlimited QWFDAHGN")];
    let view = replay(GameKind::Chego, &options, include_str!("../records/chego-9x9-holes-unlimited.txt"));
    picture(view, "#6 Chego", ["kim", "lee"], Color::Black)
}

/// Every catalogue piece on a checkered board with two full hands (an `unlimited` Chego
/// set), to check that each has its own glyph and that long hands wrap.
pub fn chego_every_piece() -> Picture {
    let mut view = view(8, 8, Look::Checkered, board(8, 8, |_| Cell::Empty));
    let roles = Role::ALL;
    for (i, role) in roles.iter().enumerate() {
        let (file, rank) = ((i % 8) as u8, (i / 8) as u8);
        let white = Square::new(file, rank).unwrap().to_string();
        let black = Square::new(file, 7 - rank).unwrap().to_string();
        place(&mut view, &[(white.as_str(), Color::White, *role), (black.as_str(), Color::Black, *role)]);
    }
    let mut hand = Hand::default();
    for role in Role::CATALOGUE {
        hand.set(role, Hand::UNLIMITED);
    }
    hand.set(Role::Pawn, 8);
    view.hands = Some([hand, hand]);
    view.turns_played = 0;
    picture(view, "#4 Chego", ["mallory", "niaj"], Color::White)
}

/// iChess 36 turns in, seen by Black: pieces in hand after captures, a promoted ferz,
/// the last move a capture.
pub fn ichess_busy() -> Picture {
    let record = opening(include_str!("../records/ichess-full.txt"), 36);
    picture(replay(GameKind::IChess, &[], &record), "#19 iChess", ["olivia", "peggy"], Color::Black)
}

/// iChess during deployment: most pieces still in hand.
pub fn ichess_deployment() -> Picture {
    let record = opening(include_str!("../records/ichess-full.txt"), 9);
    picture(replay(GameKind::IChess, &[], &record), "#20 iChess", ["olivia", "peggy"], Color::White)
}

/// The example game to White's checkmate.
pub fn ichess_mate() -> Picture {
    let view = replay(GameKind::IChess, &[], include_str!("../records/ichess-full.txt"));
    picture(view, "#21 iChess", ["olivia", "peggy"], Color::White)
}

/// Names in Chinese, Korean, Cyrillic and Arabic, with emoji, one of them in no font.
pub fn ichess_names() -> Picture {
    let record = opening(include_str!("../records/ichess-full.txt"), 12);
    let view = replay(GameKind::IChess, &[], &record);
    picture(view, "#22 iChess", ["李小龍 김민준 😀", "Мария محمد 🎉"], Color::White)
}

/// Names in Devanagari and Tamil, a title in Bengali: shaped words from the fallback fonts.
pub fn ichess_names_indic() -> Picture {
    let record = opening(include_str!("../records/ichess-full.txt"), 12);
    let view = replay(GameKind::IChess, &[], &record);
    picture(view, "#23 iChess · সত্যজিৎ রায়", ["सत्यम क्षत्रिय 🏆", "சுப்பிரமணிய பாரதி"], Color::White)
}

/// Names as long as Discord allows (32 characters) in eight scripts, by script: Latin
/// (with accents), Cyrillic and Arabic (right to left) beside the fallback fonts' scripts.
pub fn longest_names() -> [(&'static str, String); 8] {
    let cut = |name: &str| -> String { name.chars().take(32).collect() };
    [
        ("latin", cut("Jean-Baptiste Émile de Montgolfière")),
        ("cyrillic", cut("Александр Сергеевич Пушкин-Гончаров")),
        ("arabic", cut("عبد الرحمن بن محمد بن خلدون الحضرمي")),
        ("devanagari", cut("अमिताभ हरिवंश राय बच्चन श्रीवास्तव क्षत्रिय")),
        ("bengali", cut("সত্যজিৎ রায় রবীন্দ্রনাথ ঠাকুর বন্দ্যোপাধ্যায়")),
        ("tamil", cut("சுப்பிரமணிய பாரதி கல்கி கிருஷ்ணமூர்த்தி")),
        ("emoji", cut("🎉🔥😀🏆🐉🌸⚡🎲🧠👑🚀🍀🌈🦄🎯🐼🌟🎵🍕⭐🎮🦊🌊🍩🎨🐢🌙🍒🎈🔔🐝🌵")),
        ("cjk", cut("李小龍張學友劉德華梁朝偉周潤發成龍甄子丹黃飛鴻葉問霍元甲陳真洪金寶林青霞張曼玉王菲")),
    ]
}

/// A picture whose two players carry `name`.
pub fn named(name: &str) -> Picture {
    let record = opening(include_str!("../records/ichess-full.txt"), 12);
    let view = replay(GameKind::IChess, &[], &record);
    picture(view, "#24 iChess", [name, name], Color::White)
}

/// Every sample, by file name.
pub fn all() -> Vec<Sample> {
    vec![
        Sample { name: "go-19x19-busy", picture: go_busy() },
        Sample { name: "go-9x9-finished", picture: go_finished() },
        Sample { name: "go-13x13-fairy-black", picture: go_fairy_black() },
        Sample { name: "gess-busy-black", picture: gess_busy() },
        Sample { name: "gess-finished", picture: gess_finished() },
        Sample { name: "chogo-busy", picture: chogo_busy() },
        Sample { name: "chogo-finished-green", picture: chogo_finished() },
        Sample { name: "chogo-start", picture: chogo_start() },
        Sample { name: "chego-busy", picture: chego_busy() },
        Sample { name: "chego-finished", picture: chego_finished() },
        Sample { name: "chego-9x9-holes-black", picture: chego_holes_black() },
        Sample { name: "chego-every-piece", picture: chego_every_piece() },
        Sample { name: "ichess-busy-black", picture: ichess_busy() },
        Sample { name: "ichess-deployment", picture: ichess_deployment() },
        Sample { name: "ichess-mate", picture: ichess_mate() },
        Sample { name: "ichess-names", picture: ichess_names() },
        Sample { name: "ichess-names-indic", picture: ichess_names_indic() },
    ]
}
