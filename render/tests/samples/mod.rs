//! The positions the golden-image tests and the `render` benchmark draw: real games
//! replayed from the records in `tests/records/`, and views built by hand for looks whose
//! game has not landed yet (the renderer is generic, so a hand-built view is drawn exactly
//! as the game's own would be).

#![allow(dead_code)]

use stonemate_engine::notation::record_tokens;
use stonemate_engine::{
    AnyGame, BoardView, Cell, Color, GameKind, HalfPoints, Hand, Look, Piece, Role, Score, Square, Status,
};
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
    Picture { view, title: title.to_owned(), players: players.map(str::to_owned), perspective, highlights: Vec::new() }
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

fn view(width: u8, height: u8, look: Look, cells: Vec<Cell>) -> BoardView {
    BoardView {
        width,
        height,
        cells,
        look,
        last_turn: Vec::new(),
        captured: Vec::new(),
        hands: None,
        side_names: ["White", "Black"],
        status: Status::Ongoing { to_move: Color::White },
        turns_played: 0,
        score: None,
        prisoners: None,
        owner: None,
    }
}

fn place(view: &mut BoardView, placements: &[(&str, Color, Role)]) {
    for &(names, color, role) in placements {
        for square in squares(names) {
            let index = usize::from(square.rank()) * usize::from(view.width) + usize::from(square.file());
            view.cells[index] = Cell::Piece(Piece::new(color, role));
        }
    }
}

fn clear(view: &mut BoardView, names: &str) {
    for square in squares(names) {
        let index = usize::from(square.rank()) * usize::from(view.width) + usize::from(square.file());
        view.cells[index] = Cell::Empty;
    }
}

/// Gess in the middle game (built by hand until the game lands): 20x20 intersections, the
/// outer ring off limits, the last move's two 3x3 footprints lit, two stones captured.
pub fn gess_busy() -> Picture {
    let ring = |s: Square| s.file() == 0 || s.rank() == 0 || s.file() == 19 || s.rank() == 19;
    let mut view =
        view(20, 20, Look::Intersections, board(20, 20, |s| if ring(s) { Cell::OffLimits } else { Cell::Empty }));
    let black = [
        "c2 e2 g2 h2 i2 j2 k2 l2 m2 n2 p2 r2",
        "b3 c3 d3 f3 h3 i3 j3 k3 m3 o3 q3 r3 s3",
        "c4 e4 g4 h4 i4 j4 k4 l4 m4 n4 p4 r4",
        "c7 f7 i7 l7 o7 r7",
    ];
    let white = [
        "c19 e19 g19 h19 i19 j19 k19 l19 m19 n19 p19 r19",
        "b18 c18 d18 f18 h18 i18 j18 k18 m18 o18 q18 r18 s18",
        "c17 e17 g17 h17 i17 j17 k17 l17 m17 n17 p17 r17",
        "c14 f14 i14 l14 o14 r14",
    ];
    for names in black {
        place(&mut view, &[(names, Color::Black, Role::Stone)]);
    }
    for names in white {
        place(&mut view, &[(names, Color::White, Role::Stone)]);
    }
    clear(&mut view, "h4 i4 i3 c7 f7 o18 p17 r14");
    place(&mut view, &[("g10 h11 i10 e9 d8 p9 q10", Color::Black, Role::Stone)]);
    place(&mut view, &[("o12 p13 o11 k13 j12 l12 f13 e12", Color::White, Role::Stone)]);
    view.last_turn = squares("n16 o16 p16 n17 o17 p17 n18 o18 p18 n12 o12 p12 n13 o13 p13 n11 o11 p11");
    view.captured = squares("n12 p11");
    view.status = Status::Ongoing { to_move: Color::Black };
    view.turns_played = 37;
    picture(view, "#54 Gess", ["gina", "hal"], Color::Black)
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

/// Chego in the middle game (by hand until the game lands): every catalogue piece, hands
/// with counts and an endless supply, prisoners and score.
pub fn chego_busy() -> Picture {
    let mut view = view(8, 8, Look::Checkered, board(8, 8, |_| Cell::Empty));
    place(
        &mut view,
        &[("c3", Color::White, Role::King), ("d5", Color::White, Role::Queen), ("a1 h4", Color::White, Role::Rook)],
    );
    place(
        &mut view,
        &[("f2", Color::White, Role::Bishop), ("b6", Color::White, Role::Knight), ("e2 g3", Color::White, Role::Pawn)],
    );
    place(
        &mut view,
        &[("g7", Color::Black, Role::King), ("b3", Color::Black, Role::Queen), ("h8", Color::Black, Role::Rook)],
    );
    place(
        &mut view,
        &[("c7", Color::Black, Role::Bishop), ("e7", Color::Black, Role::Knight), ("a6 d7", Color::Black, Role::Pawn)],
    );
    let mut white = Hand::default();
    for (role, count) in [(Role::Rook, 1), (Role::Bishop, 1), (Role::Knight, 1), (Role::Pawn, 6)] {
        white.set(role, count);
    }
    let mut black = Hand::default();
    for (role, count) in [(Role::Queen, 0), (Role::Rook, 1), (Role::Bishop, 1), (Role::Knight, 1), (Role::Pawn, 5)] {
        black.set(role, count);
    }
    view.hands = Some([white, black]);
    view.last_turn = squares("b3");
    view.captured = squares("a4 c4");
    view.status = Status::Ongoing { to_move: Color::White };
    view.turns_played = 17;
    view.prisoners = Some([1, 2]);
    view.score = Some(Score { white: HalfPoints::whole(14), black: HalfPoints::whole(11) });
    picture(view, "#3 Chego", ["kim", "lee"], Color::White)
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

/// iChess in the play phase (by hand until the game lands), seen by Black: pieces in hand
/// after captures, a promoted ferz, the last move a capture.
pub fn ichess_busy() -> Picture {
    let mut view = view(8, 8, Look::Checkered, board(8, 8, |_| Cell::Empty));
    place(
        &mut view,
        &[("g1", Color::White, Role::King), ("d1", Color::White, Role::Queen), ("a1 f4", Color::White, Role::Rook)],
    );
    place(&mut view, &[("c2 e3", Color::White, Role::Bishop), ("f3", Color::White, Role::Knight)]);
    place(&mut view, &[("a3 b3 c4 d3 g3 h3", Color::White, Role::Pawn), ("e6", Color::White, Role::Ferz)]);
    place(
        &mut view,
        &[("e8", Color::Black, Role::King), ("d5", Color::Black, Role::Queen), ("h8", Color::Black, Role::Rook)],
    );
    place(&mut view, &[("c8 b4", Color::Black, Role::Bishop), ("g8 c6", Color::Black, Role::Knight)]);
    place(&mut view, &[("a6 b6 f6 g6 h5", Color::Black, Role::Pawn)]);
    let mut white = Hand::default();
    white.set(Role::Pawn, 2);
    white.set(Role::Knight, 1);
    let mut black = Hand::default();
    black.set(Role::Rook, 1);
    black.set(Role::Pawn, 1);
    view.hands = Some([white, black]);
    view.last_turn = squares("e5 d5");
    view.captured = squares("d5");
    view.status = Status::Ongoing { to_move: Color::White };
    view.turns_played = 41;
    picture(view, "#19 iChess", ["olivia", "peggy"], Color::Black)
}

/// Every sample, by file name.
pub fn all() -> Vec<Sample> {
    vec![
        Sample { name: "go-19x19-busy", picture: go_busy() },
        Sample { name: "go-9x9-finished", picture: go_finished() },
        Sample { name: "go-13x13-fairy-black", picture: go_fairy_black() },
        Sample { name: "gess-busy", picture: gess_busy() },
        Sample { name: "chogo-busy", picture: chogo_busy() },
        Sample { name: "chogo-finished-green", picture: chogo_finished() },
        Sample { name: "chogo-start", picture: chogo_start() },
        Sample { name: "chego-busy", picture: chego_busy() },
        Sample { name: "chego-every-piece", picture: chego_every_piece() },
        Sample { name: "ichess-busy-black", picture: ichess_busy() },
    ]
}
