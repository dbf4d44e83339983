//! iChess's deployment: pieces do not move until play begins, so what an enemy drop can
//! attack then is lost (issue 42: hard dropped its queen on the front of its zone and lost
//! it for a knight at the first play move). The threat the evaluation charges, and hard's
//! drops keeping clear of it.

use stonemate_ai::deployment::worst_threat;
use stonemate_ai::{Budget, Method, SearchConfig, search_with};
use stonemate_engine::ichess::{Bare, IChess};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, Color, GameKind, Piece, Role, Square, Turn};

fn bare(fen: &str) -> Bare {
    Bare::of(&IChess::from_fen(fen).expect("a legal set-up"))
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

#[test]
fn a_queen_on_the_front_of_the_zone_is_open_to_a_knight_drop() {
    // Black's queen on d5 (seed 4202, game 2); White still holds both knights.
    let position = bare("8/8/pppppppp/3q4/8/PPPPPPPP/8/8[KQRRBBNNkrrbbnn] w");
    let threat = worst_threat(&position, Color::Black).expect("the queen is open");
    assert_eq!(threat.piece, Piece::new(Color::Black, Role::Queen));
    assert_eq!(threat.square, sq("d5"));
    assert_eq!(threat.attacker, Role::Knight, "the cheapest attacker: {threat:?}");
    assert!(threat.dropped);
    // From b4, f4, c3 or e3; c3 and e3 hold White's pawns.
    assert!([sq("b4"), sq("f4")].contains(&threat.from), "{threat:?}");
    assert_eq!(threat.loss, 950 - 320, "the queen for the knight");
    assert_eq!(worst_threat(&position, Color::White), None, "White has only pawns down");
}

#[test]
fn a_knight_already_attacking_the_queen_is_seen_on_the_board() {
    // Seed 4202, game 2 after White's N=f4. The pawn on d6 defends d5 (a pawn takes
    // straight ahead): the queen goes for the knight.
    let position = bare("8/8/pppppppp/3q4/5N2/PPPPPPPP/8/8[KQRRBBNkrrbbnn] b");
    let threat = worst_threat(&position, Color::Black).expect("the queen is attacked");
    assert_eq!((threat.square, threat.attacker, threat.from), (sq("d5"), Role::Knight, sq("f4")));
    assert!(!threat.dropped, "the knight on the board, not the one still in hand: {threat:?}");
    assert_eq!(threat.loss, 950 - 320);
    // Without the pawn nothing defends it: the whole queen.
    let undefended = bare("8/8/ppp1pppp/3q4/5N2/PPPPPPPP/8/8[KQRRBBNkrrbbnn] b");
    assert_eq!(worst_threat(&undefended, Color::Black).map(|threat| threat.loss), Some(950));
}

#[test]
fn a_queen_behind_its_pawns_is_out_of_reach_of_every_drop() {
    // No knight dropped on ranks 1-4 reaches rank 8, and the pawns on rank 6 close every
    // line to d8.
    let position = bare("3q4/8/pppppppp/8/8/PPPPPPPP/8/8[KQRRBBNNkrrbbnn] w");
    assert_eq!(worst_threat(&position, Color::Black), None);
}

#[test]
fn a_rook_drop_on_an_open_file_threatens_a_queen_the_bishops_cannot_reach() {
    // White's queen on h4, its h-pawn gone: a Black rook dropped on h5 or h8 attacks it;
    // Black's knights and bishops are already on the board, out of reach.
    let position = bare("1n2b3/1n2b3/ppppppp1/8/7Q/PPPPPPP1/8/8[KRRBBNNkrrq] w");
    let threat = worst_threat(&position, Color::White).expect("the queen is open");
    assert_eq!((threat.square, threat.attacker), (sq("h4"), Role::Rook), "{threat:?}");
    assert_eq!(threat.loss, 950 - 500);
}

#[test]
fn no_threat_is_charged_once_the_deployment_is_over() {
    // The free queen of tests/alphabeta.rs: pieces move now, and the search sees it.
    assert_eq!(worst_threat(&bare("4k3/8/8/3q4/5N2/8/8/4K3[] w"), Color::Black), None);
}

/// Hard's drop at a reduced budget (50,000 alpha-beta nodes, as `pinned.rs` also searches),
/// without a time limit, so that the test repeats.
fn hards_drop(game: &AnyGame) -> Turn {
    search_with(game, &SearchConfig::new(Budget::nodes(2_500), 1), Method::Strong).expect("ongoing").turn
}

/// Issue 42: hard's drop no longer puts a piece where the enemy's cheaper piece, dropped,
/// takes it: for White from the start (it dropped Q=c4, open to a knight dropped on a5 or
/// e5) and for Black after the example game's first drops (it dropped Q=c5 after 11).
#[test]
fn hard_does_not_drop_a_piece_where_an_enemy_drop_wins_it() {
    let path = format!("{}/../examples/ichess.txt", env!("CARGO_MANIFEST_DIR"));
    let tokens = record_tokens(&std::fs::read_to_string(path).expect("the example record"));
    for plies in [0, 1, 4, 11] {
        let mut game = AnyGame::replay(GameKind::IChess, &[], &tokens[..plies]).expect("default options").game;
        let mover = game.to_move().expect("ongoing");
        let turn = hards_drop(&game);
        game.play(turn).expect("legal");
        let AnyGame::IChess(ichess) = &game else { unreachable!("an iChess game") };
        let Turn::Drop { to, .. } = turn else { panic!("a deployment drop, not {turn:?}") };
        let threat = worst_threat(&Bare::of(ichess), mover);
        assert!(
            threat.is_none_or(|threat| threat.square != to),
            "after {plies}: {} is open: {threat:?} ({})",
            game.format_turn(turn),
            ichess.fen()
        );
    }
}
