//! The rule errors of the games as users meet them: through `AnyGame::play_text`, the path
//! every turn typed in Discord or the console takes. One row per error: the game, its
//! options, the turns before, the text, and the error expected (by variant name).
//!
//! Rows for positions deep in a game were found by a throwaway search (random playouts,
//! every candidate text tried); the records are plain turns, checked here like the rest.
//!
//! `every_error_has_a_row_or_a_reason_text_cannot_reach_it` reads the variants of each
//! game's error enum from the engine's source: each has a row, or stands in `BEYOND_TEXT`
//! with the reason no text reaches it.

use stonemate_engine::notation::record_tokens;
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, GameKind, TurnError};

/// (game, options, turns before, text, expected variant)
type Row = (GameKind, &'static str, &'static str, &'static str, &'static str);

const ROWS: &[Row] = &[
    // Go with chess pieces: Black moves first.
    (GameKind::Go, "board=9x9", "", "zz", "Notation"),
    (GameKind::Go, "board=9x9", "pass pass", "e5", "GameOver"),
    (GameKind::Go, "board=9x9:e5", "", "e5", "NoSuchSquare"),
    (GameKind::Go, "board=9x9", "e5", "e5", "Occupied"),
    (GameKind::Go, "board=9x9", "", "N@e5", "NotInSet"),
    (GameKind::Go, "board=9x9", "e5 d4", "e5-e6", "MovingOff"),
    (GameKind::Go, "board=9x9 moving=on", "", "d4-d5", "NoOwnPiece"),
    (GameKind::Go, "board=9x9 moving=on pieces=N", "N@e5 N@a1", "e5-e6", "Unreachable"),
    (GameKind::Go, "board=9x9", "e5 a2 e6 b1", "a1", "Suicide"),
    (GameKind::Go, "board=9x9", "d5 f6 e6 f4 e4 g5 a1 e5 f5", "e5", "Ko"),
    (GameKind::Go, "board=9x9 counting=on", "e5 pass", "dead e5", "NotCounting"),
    (GameKind::Go, "board=9x9 counting=on", "e5 pass pass", "dead e5 d4", "NoDeadPiece"),
    // Chego: White begins.
    (GameKind::Chego, "", "", "zz", "Notation"),
    (GameKind::Chego, "", "pass pass", "Ne4", "GameOver"),
    (GameKind::Chego, "board=8x8:d4", "", "Nd4", "NoSuchSquare"),
    (GameKind::Chego, "", "Ne4 Na8", "Ne4", "Occupied"),
    (GameKind::Chego, "set=K1", "", "Qe4", "NotInHand"),
    (GameKind::Chego, "", "Re1", "Qe8", "NotNeutral"),
    (GameKind::Chego, "board=4x4:b1,a2,b2", "", "Ka1", "AttacksNoEmptySquare"),
    (GameKind::Chego, "", "Ne4", "Bh7", "AttacksOccupied"),
    (GameKind::Chego, "", "Pe7 Kg2 Nd1 Pa2 Bg6", "Nb1", "Suicide"),
    // iChess: White deploys first, king last.
    (GameKind::IChess, "", "", "zz", "Notation"),
    (GameKind::IChess, "", "", "D=e2", "NotAPiece"),
    (GameKind::IChess, "", "Q=d1 Q=d8", "Q=e1", "NotInHand"),
    (GameKind::IChess, "", "", "K=e1", "KingNotLast"),
    (GameKind::IChess, "", "", "R=a5", "OutsideDropZone"),
    (GameKind::IChess, "", "", "R=a3", "Occupied"),
    (GameKind::IChess, "", "", "a3a4", "DeploymentDropsOnly"),
    (GameKind::IChess, "", DEPLOYED, "d4d5", "NoOwnPiece"),
    (GameKind::IChess, "", DEPLOYED, "a1c2", "OwnPieceOnTarget"),
    (GameKind::IChess, "", DEPLOYED, "c2c4", "Unreachable"),
    (GameKind::IChess, "", DEPLOYED, "a1a2=F", "OnlyPawnsPromote"),
    (GameKind::IChess, "", DEPLOYED, "c3c4=F", "PromotionOutsideZone"),
    (GameKind::IChess, "", DEPLOYED, "Na1a3", "NoSuchPiece"),
    (GameKind::IChess, "", EXAMPLE, "a3a4", "GameOver"),
    (
        GameKind::IChess,
        "",
        "B=f1 R=h8 R=a4 B=f7 B=b4 R=g5 N=g2 B=c5 R=g1 N=g7 Q=h4 Q=c7 N=c4 N=d8",
        "K=d4",
        "KingDropAttacked",
    ),
    (
        GameKind::IChess,
        "",
        "Q=f1 N=f8 N=b4 R=e8 B=h2 B=d8 R=a1 N=e5 B=e4 R=a8 R=c4 Q=c7 N=f2 B=g7 K=h4 K=h7 NxPa6 RxNa6",
        "P=g4",
        "DoublePawn",
    ),
    (
        GameKind::IChess,
        "",
        "N=f4 N=h5 Q=e4 B=c8 N=c2 B=d5 B=d4 R=e8 B=f2 R=b5 R=c1 N=g8 R=g2 Q=a7 K=a2 K=f7",
        "b3b4",
        "ExposesKing",
    ),
    (
        GameKind::IChess,
        "",
        "N=b4 N=h7 B=a1 Q=d7 Q=a4 N=d8 B=c1 R=b5 R=d4 R=b8 R=c2 B=d5 N=g2 B=f7 K=h4 K=e8",
        "h4g5",
        "KingIntoCheck",
    ),
    (
        GameKind::IChess,
        "",
        "B=b2 R=f7 R=f1 Q=b8 Q=a4 B=e8 B=a2 B=b5 R=c4 N=d7 N=g1 R=g5 N=h2 N=g8 K=c1 K=d5 Kd1 Qd8 Rc5+",
        "d8a8",
        "StillInCheck",
    ),
    (GameKind::IChess, "", DEPLOYED, "c2xd4", "NothingToCapture"),
    // Gess: Black (ranks 2-7) moves first.
    (GameKind::Gess, "", "", "zz", "Notation"),
    (GameKind::Gess, "", "", "pass", "NoPassing"),
    (GameKind::Gess, "", "", "k10-k11", "NoOwnStone"),
    (GameKind::Gess, "", EXAMPLE, "k8-k9", "GameOver"),
    (GameKind::Gess, "", "", "k8-k8", "Stationary"),
    (GameKind::Gess, "", "", "i3-i11", "Blocked"),
    (GameKind::Gess, "", "", "n4-m3", "BreaksOwnLastRing"),
    (GameKind::Gess, "", "", "o18-f17", "EnemyStoneInPiece"),
    (GameKind::Gess, "", "", "q2-k2", "TooFar"),
    (GameKind::Gess, "", "", "k8-m9", "NotALine"),
    (GameKind::Gess, "", "", "d6-d5", "NoStoneForDirection"),
    // Chogo: White begins with the king drop.
    (GameKind::Chogo, "", "", "zz", "Notation"),
    (GameKind::Chogo, "", "", "pass", "NoPassing"),
    (GameKind::Chogo, "", "", "d2-d5", "KingDropFirst"),
    (GameKind::Chogo, "", "", "K@d5", "BeyondHalfway"),
    (GameKind::Chogo, "", "", "K@d1", "Occupied"),
    (GameKind::Chogo, "", "", "S@c4", "OnlyKingDrops"),
    (GameKind::Chogo, "", "K@d4 K@e5", "K@c4", "KingAlreadyDropped"),
    (GameKind::Chogo, "", "K@d4 K@e5", "d1-d5", "Blocked"),
    (GameKind::Chogo, "", "K@d4 K@e5", "b2-c3", "NotOrthogonal"),
    (GameKind::Chogo, "", "K@d4 K@e5", "d4-d6", "KingStepsOne"),
    (GameKind::Chogo, "", "K@d4 K@e5", "c4-c5", "NoOwnPiece"),
    (GameKind::Chogo, "", "K@d4 K@e5", "c1e2-c3", "TandemNotSolid"),
    (GameKind::Chogo, "", "K@d4 K@e5", "c1c1-c2", "TandemTooSmall"),
    (GameKind::Chogo, "", EXAMPLE, "e4-e3", "GameOver"),
    (GameKind::Chogo, "", "K@d3 K@g4 e1f1-e6 a5-e5", "e6@f4", "MoleTrapped"),
    (GameKind::Chogo, "", "K@d3 K@g4 e1f1-e6 a5-e5", "e6-c6", "Trapped"),
    (GameKind::Chogo, "", "K@e3 K@h4", "c1f1-d7", "TandemBlocked"),
    (GameKind::Chogo, "", "K@d4 K@e5", "e1@d5", "NotInCity"),
    (GameKind::Chogo, "", "K@d4 K@e5", "c1d1-e5", "TandemTargetOffLine"),
    (GameKind::Chogo, "", "K@c3 K@g4 d1e1-d6 a5-d5 b2-b3 h5-e5", "d6e6-c6", "TandemAllTrapped"),
];

/// iChess after the deployment of `examples/ichess.txt` (White to move).
const DEPLOYED: &str = "R=a1 R=h8 B=f4 R=f8 R=h1 N=c7 N=c2 B=e7 B=e2 N=g7 N=f2 B=d5 Q=d1 Q=d8 K=e1 K=e8";
/// Stands for the whole example record of the game (`examples/`), which ends the game.
const EXAMPLE: &str = "example";

fn example(kind: GameKind) -> &'static str {
    match kind {
        GameKind::IChess => include_str!("../../examples/ichess.txt"),
        GameKind::Chogo => include_str!("../../examples/chogo.txt"),
        GameKind::Gess => include_str!("../../examples/gess.txt"),
        GameKind::Go => include_str!("../../examples/go-9x9.txt"),
        GameKind::Chego => include_str!("../../examples/chego.txt"),
    }
}

/// `Go(Occupied { .. })` → `Occupied`.
fn variant(error: &TurnError) -> String {
    let debug = format!("{error:?}");
    let inner = debug.split_once('(').map_or(debug.as_str(), |(_, rest)| rest);
    inner.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_owned()
}

fn reached(row: &Row) -> Result<String, String> {
    let (kind, options, before, text, _) = *row;
    let pairs = parse_option_text(options).map_err(|e| format!("options: {e}"))?;
    let mut game = AnyGame::new(kind, &pairs).map_err(|e| format!("new: {e}"))?;
    let turns = if before == EXAMPLE { record_tokens(example(kind)) } else { record_tokens(before) };
    for turn in &turns {
        game.play_text(turn).map_err(|e| format!("turn `{turn}` before: {e}"))?;
    }
    let view = game.view();
    let error = game.play_text(text).map(|printed| format!("accepted as {printed}")).err();
    let error = error.ok_or_else(|| format!("`{text}` was accepted"))?;
    // A refused turn changes nothing.
    if game.view() != view {
        return Err(format!("`{text}` was refused but changed the position"));
    }
    Ok(variant(&error))
}

#[test]
fn every_row_reaches_its_error_through_play_text() {
    let mut wrong = Vec::new();
    for row in ROWS {
        match reached(row) {
            Ok(found) if found == row.4 => {}
            Ok(found) => wrong.push(format!("{:?} `{}` after `{}`: {found}, not {}", row.0, row.3, row.2, row.4)),
            Err(why) => wrong.push(format!("{:?} `{}`: {why}", row.0, row.3)),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The variant names of `enum NAME` in a source file.
fn variants(source: &str, name: &str) -> Vec<String> {
    let start = source.find(&format!("pub enum {name} {{")).expect("the enum");
    let body = &source[start..];
    let body = &body[body.find('{').unwrap_or(0) + 1..body.find("\n}").unwrap_or(body.len())];
    body.lines()
        .map(str::trim)
        .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|line| line.split(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_owned())
        .collect()
}

/// Errors that text cannot reach, with why: `play_text` parses the text into a turn of the
/// game first, and these guard `play(Turn)` against turns the parser never makes.
const BEYOND_TEXT: &[(GameKind, &str)] = &[
    // A `Turn` of a kind the game has no use for (a tandem in go, say): no notation makes one.
    (GameKind::Go, "WrongKind"),
    (GameKind::Chego, "WrongKind"),
    (GameKind::IChess, "WrongKind"),
    (GameKind::Gess, "WrongKind"),
    // The notation reads only the squares of the board and the ferz as promotion, and adds
    // the promotion a pawn move onto the last rank must make.
    (GameKind::IChess, "NoSuchSquare"),
    (GameKind::IChess, "BadPromotion"),
    (GameKind::IChess, "PromotionForced"),
    // The notation reads centres inside the board only.
    (GameKind::Gess, "CentreOutside"),
    // The notation reads cells of the board only, rewrites a tandem's target to the
    // canonical one, and has no promotion mark.
    (GameKind::Chogo, "NoSuchCell"),
    (GameKind::Chogo, "TandemNotCanonical"),
    (GameKind::Chogo, "NoPromotion"),
];

#[test]
fn every_error_has_a_row_or_a_reason_text_cannot_reach_it() {
    let enums = [
        (GameKind::Go, variants(include_str!("../src/go/error.rs"), "GoError")),
        (GameKind::Chego, variants(include_str!("../src/chego/error.rs"), "ChegoError")),
        (GameKind::IChess, variants(include_str!("../src/ichess/error.rs"), "IChessError")),
        (GameKind::Gess, variants(include_str!("../src/gess/error.rs"), "GessError")),
        (GameKind::Chogo, variants(include_str!("../src/chogo/error.rs"), "ChogoError")),
    ];
    for (kind, names) in enums {
        assert!(!names.is_empty(), "{kind:?}: no variants read");
        let missing: Vec<&String> =
            names.iter().filter(|name| !ROWS.iter().any(|row| row.0 == kind && row.4 == name.as_str())).collect();
        eprintln!(
            "{kind:?}: {} of {} errors reached through play_text; not yet: {missing:?}",
            names.len() - missing.len(),
            names.len()
        );
        let excused = |name: &str| BEYOND_TEXT.iter().any(|&(k, n)| k == kind && n == name);
        let unexplained: Vec<&&String> = missing.iter().filter(|name| !excused(name)).collect();
        assert!(unexplained.is_empty(), "{kind:?}: errors with neither a row nor a reason: {unexplained:?}");
    }
    for &(kind, name) in BEYOND_TEXT.iter() {
        assert!(!ROWS.iter().any(|row| row.0 == kind && row.4 == name), "{kind:?} {name} has a row: drop its excuse");
    }
}
