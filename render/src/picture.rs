//! What one picture shows: the engine's board view and the words around it.

use stonemate_engine::{BoardView, Color, Square};

/// Everything one picture shows: the position and the words around it.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The position, as the engine describes it for any game.
    pub view: BoardView,
    /// A heading such as `#12 Chego`.
    pub title: String,
    /// The players' display names, `[white, black]`.
    pub players: [String; 2],
    /// Whose side is drawn at the bottom.
    pub perspective: Color,
    /// Extra squares to mark, such as the targets `/legal` lists.
    pub highlights: Vec<Square>,
    /// Arrows drawn over the board, from a cell's centre to another's: a turn shown
    /// before it is played (the turn picker's preview).
    pub arrows: Vec<(Square, Square)>,
    /// Squares to cross out, such as pieces proposed as dead: a large cross over whatever
    /// stands there. What the marking means is the caller's to say.
    pub marked: Vec<Square>,
}

impl Picture {
    /// A picture of `view` with no title, the side names as player names, the side whose
    /// home is rank 1 at the bottom, and nothing highlighted or marked.
    #[must_use]
    pub fn new(view: BoardView) -> Picture {
        let players = view.side_names.map(str::to_owned);
        let perspective = view.first_rank_side;
        Picture {
            view,
            title: String::new(),
            players,
            perspective,
            highlights: Vec::new(),
            arrows: Vec::new(),
            marked: Vec::new(),
        }
    }
}
