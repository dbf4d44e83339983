//! The bot's integration tests, as one test binary (each binary links the whole bot, so
//! one per crate keeps builds short): one module per area, and the helpers they share
//! (`cli` runs the binary, `faults` injects I/O faults) declared once.

mod cli;
mod faults;

mod console;
mod crash;
mod damaged;
mod export_import;
mod full_disk;
mod fuzz;
mod old_records;
mod pipes;
mod readme;
mod replay_cli;
mod replay_formats;
mod shards_cli;
mod storage_faults;
mod storage_stop;
mod suggest_cli;
