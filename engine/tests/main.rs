//! The engine's integration tests, as one test binary (each binary links the whole engine,
//! so one per crate keeps builds short): one module per game and area, and the helpers
//! they share (`common`) declared once.

mod common;

mod board_view;
mod chego_oracle;
mod chego_properties;
mod chego_rules;
mod chogo;
mod drop_notation;
mod error_paths;
mod formats;
mod gess_naive;
mod gess_properties;
mod gess_rules;
mod go_gnugo;
mod go_properties;
mod go_rules;
mod ichess_notation;
mod ichess_oracle;
mod ichess_perft;
mod ichess_properties;
mod ichess_rules;
mod picker;
mod replay;
mod sgf_gnugo;
