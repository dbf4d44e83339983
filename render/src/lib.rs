//! Board pictures: turns the engine's generic [`stonemate_engine::BoardView`] into PNG
//! images. Knows nothing about individual games.
