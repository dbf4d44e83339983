//! `/rules`: a short summary of each game's rules, options and notation, in our words.
//! The full rules (with rulings) are in the project's rules files; these say enough to
//! start playing.

use stonemate_engine::GameKind;

/// The summary shown by `/rules`.
#[must_use]
pub fn summary(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Chego => CHEGO,
        GameKind::Gess => GESS,
        GameKind::IChess => ICHESS,
        GameKind::Go => GO,
        GameKind::Chogo => CHOGO,
    }
}

const CHEGO: &str = "**Chego** (A. Pfeiffer): chess pieces, a go-like aim.
• The board starts empty; White begins. A turn drops one piece from your hand, or passes.
• A square is neutral when nobody attacks it or both sides attack it with equally many pieces. You may drop only on an empty neutral square, and the new piece must attack at least one empty square and no occupied one; none of your other pieces may be left attacking no empty square.
• After your drop, every enemy piece that attacks no empty square is captured.
• Two passes in a row end the game. Score: empty squares you control plus pieces you captured.
• Options: `board=8x8` (4 to 16 a side, holes as `board=8x8:d4,e5`), `set=K1 Q1 R2 B2 N2 P8` or `set=unlimited RNB`.
• Notation: a drop is `Ne4` (also `N@e4`, `N=e4`, `N*e4`); `pass`.";

const GESS: &str = "**Gess**: go stones moved as chess pieces on a 20x20 grid.
• Black moves first. A piece is any 3x3 area holding some of your stones and none of the opponent's, named by its centre.
• It moves in the directions where its outer ring has a stone: any distance with a stone in the centre, otherwise 1 to 3 squares. It stops at the first stone it runs into, and removes every stone under its new footprint (yours too). Stones pushed onto the outer edge are removed.
• A ring is an empty square surrounded by eight of your stones. Destroy the opponent's last ring to win; you may not break your own last ring. A player with no legal move loses. No passing.
• Notation: `k7-i5` (centre before and after; `k7i5` works too).";

const ICHESS: &str = "**iChess** (Pangus Ho): chess with drops and a deployment phase.
• Only the pawns start on the board (ranks 3 and 6). First both players drop their other pieces, one per turn, on empty squares of their own half (ranks 1-4 for White); the king comes last and not onto an attacked square.
• Then a turn moves a piece as in chess (no castling, no en passant, pawns step one square straight and capture straight ahead, like shogi) or drops a captured piece into your own half. Captured pieces change sides and go to the capturer's hand.
• A pawn ending in the far half may promote to a ferz (one step diagonally); on the last rank it must. No two unpromoted own pawns on a file by drops.
• Checkmate wins; no legal turn loses; the fourth repetition is a draw (perpetual check loses).
• Notation: `Nh2`, `Rad1`, `BxNg5`, `Pc5`, `Pc5=F`, drops `R=a1` (also `R@a1`, `R*a1`); `g4-h2` works too.";

const GO: &str = "**Go with chess pieces** (H. Bodlaender): go, where stones are chess pieces.
• Black moves first. A turn drops a piece of the set on an empty square, or passes (with `moving=on`, a piece may also move to an empty square).
• A piece is alive if it can move to an empty square, or to the square of a friendly live piece. After your turn every enemy piece that is not alive is captured; you may not leave your own pieces dead. Simple ko applies.
• Two passes end the game. Score: empty squares only your pieces can reach, plus prisoners, plus komi for White.
• With rooks (the default) this is ordinary go.
• Options: `board=19x19` (2 to 25 a side, holes as `board=9x9:e5`), `pieces=RN`, `squares=all|light|dark`, `moving=off|on`, `komi=6.5`.
• Notation: a drop is `R@d4` (also `R=d4`, `R*d4`, `Rd4`, and just `d4` with one piece type), `d4-d7` for a move, `pass`.";

const CHOGO: &str = "**Chogo** (D. Jagger): soldiers and a king on a 44-cell board.
• White (bottom) moves first. Your first turn drops your king on your half (`K@d2`).
• A soldier slides like a rook over empty cells; a king steps one cell orthogonally. A piece between two enemy pieces (left-right or above-below) is trapped and cannot move alone.
• A solid rectangle of your pieces may slide together as a tandem. When the opponent has a city (an empty area closed by his pieces), you may instead put any one of your untrapped pieces into it (mole drop).
• After each turn, every piece with no empty neighbour and at least two enemy neighbours is captured. Capture the enemy king to win; no legal turn loses; 50 turns without a capture draw.
• Notation: `d2-d5`, tandems `d5d7-d3` or `f3g4-d3`, mole drop `e1@b6`, king drop `K@d2` (also `K=d2`, `K*d2`, `Kd2`).";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_summary_with_its_notation() {
        for kind in GameKind::ALL {
            let text = summary(kind);
            assert!(text.contains(kind.title()), "{kind}");
            assert!(text.contains("Notation"), "{kind}");
            assert!(text.chars().count() < 1800, "{kind}: too long for one message");
        }
    }

    /// Every game with drops takes `X@sq`, `X=sq` and `X*sq`, and its summary says so.
    #[test]
    fn every_drop_game_names_the_three_drop_forms() {
        let forms = [
            (GameKind::Chego, "N", "e4"),
            (GameKind::IChess, "R", "a1"),
            (GameKind::Go, "R", "d4"),
            (GameKind::Chogo, "K", "d2"),
        ];
        for (kind, letter, square) in forms {
            for mark in ['@', '=', '*'] {
                let form = format!("`{letter}{mark}{square}`");
                assert!(summary(kind).contains(&form), "{kind}: {form} is not named");
            }
        }
    }
}
