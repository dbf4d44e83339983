//! The renderer's integration tests, as one test binary (one per crate keeps builds short):
//! one module per area, and the sample boards they share (`samples`) declared once.

mod samples;
mod tables;

mod animation;
mod golden;
mod marks;
mod table;
