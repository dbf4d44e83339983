//! Why `/explore` is refused.

/// A refused exploration.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ExploreRefusal {
    /// A line with no turn in it.
    #[error("write the turns to try in `line`, in the game's notation, like `line:\"e5 d4 c3\"`")]
    EmptyLine,
}
