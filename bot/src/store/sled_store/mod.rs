//! The bot's database: sled 0.34, one tree, the keys of [`super::keys`]. Each batch is
//! one sled transaction (its checks, then its writes); a flush is sled's flush, then an
//! `fdatasync` of sled's files ([`DurableSync`], shared by concurrent commits). A write
//! whose flush or sync fails is [`StoreError::Unsure`]: sled has already applied it in
//! memory and may have written it.
//!
//! **Opening** takes a few milliseconds at any size ([`check`] says how records are
//! checked: at their first read, and by a full check beside the service) and brings the
//! directory back by itself from what a crash or a full disk leaves behind ([`recover`]).
//! A second process gets [`StoreError::InUse`]; a database sled cannot read stops with
//! [`StoreError::Damaged`], naming the directory and the command that restores it.
//!
//! **What a start costs** is sled's recovery: it reads its newest snapshot (the page table:
//! where each page of the tree lies in the log), then the log from the beginning of the
//! segment that snapshot ends in, and writes a new snapshot; sled 0.34 writes snapshots at
//! no other time. So:
//!
//! - an import ends by opening the database once more ([`settle`]): the import's
//!   whole log is read there, and the first start after it reads only the snapshot (at
//!   100,000 games, about a minute of reading moved out of the bot's start); so does every
//!   clean end of a console or a bot that wrote ([`Closing`]), so that a start after a day
//!   of turns does not read the day's log;
//! - new databases compress their log ([`sled_config`]): the records of a page compress
//!   well, so that there are fewer bytes to keep; a start reads (and decompresses, message
//!   by message) one log segment again, so its size bounds that part ([`SEGMENT_BYTES`]);
//! - the full check waits until the service runs, then paces itself ([`check::Pace`]);
//! - a panic of sled while it reads (a page that passes its checksum but does not
//!   decompress) is answered like other damage ([`guarded`]).
//!
//! What is left grows with the pages of the tree (sled splits a leaf past 16 keys, and a
//! game has 3 to 4) and with the log's free segments, which every start zeroes again.

mod backend;
mod closing;
mod open;
mod read_only;
pub mod recover;
mod settings;
#[cfg(test)]
mod testing;
mod tree;

pub use backend::Sled;
pub use closing::Closing;
pub use open::{SledStore, open_for_streams};
pub use read_only::ReadOnlyCopy;
pub use settings::sled_config;
