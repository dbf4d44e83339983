//! What a user set ([`UserRecord`]): how he is told it is his turn, his vacations, whether
//! a typed turn waits for his confirmation, his daily digest.

use serde::{Deserialize, Serialize};

use super::stored::FORMAT;
use crate::clock::Timestamp;
use crate::ids::{GameId, GuildId, UserId};

/// How a player is told that it is his turn (`/notify`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NotifyMode {
    /// A new message in the game's channel, mentioning him (the default).
    #[default]
    Channel,
    /// A direct message.
    Dm,
    /// No pings (results and timeouts still appear in the channel, without a mention).
    Off,
}

impl NotifyMode {
    /// Every mode, in the order `/notify` offers them.
    pub const ALL: [NotifyMode; 3] = [NotifyMode::Channel, NotifyMode::Dm, NotifyMode::Off];

    /// The mode's name as users type it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            NotifyMode::Channel => "channel",
            NotifyMode::Dm => "dm",
            NotifyMode::Off => "off",
        }
    }
}

impl std::str::FromStr for NotifyMode {
    type Err = ();

    /// A mode by its name, in any case, spaces around ignored.
    fn from_str(text: &str) -> Result<NotifyMode, ()> {
        let text = text.trim();
        NotifyMode::ALL.into_iter().find(|mode| mode.name().eq_ignore_ascii_case(text)).ok_or(())
    }
}

/// What a user set, and his latest name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRecord {
    /// The record layout ([`FORMAT`]).
    pub format: u32,
    /// The user's Discord id.
    pub id: UserId,
    /// His latest shown name.
    pub name: String,
    /// How he is told it is his turn.
    pub notify: NotifyMode,
    /// The vacations he took (`/vacation`), oldest first; the last may still run.
    /// Missing in JSON (records from before vacations): none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vacations: Vec<Vacation>,
    /// Whether a typed `/move` or `/drop` first shows its preview, to be confirmed
    /// (`/settings confirm:on`). Missing in JSON (records from before the setting): off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub confirm: bool,
    /// The hour (UTC, 0-23) of his daily digest of the games where he is to move
    /// (`/notify digest:on hour:H`); `None`: no digest. Missing in JSON (records from
    /// before the digest): none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<u8>,
    /// The last day (days since 1970, UTC) whose digest is done: written, or nothing to
    /// tell. Missing in JSON: none yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digested: Option<i64>,
    /// His challenges that ended lately without a game, oldest first, so that one turned
    /// down is not sent again at once (see `Closed` in the challenge handler, which keeps
    /// this list short). Missing in JSON (records from before the rule): none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<ClosedChallenge>,
}

impl UserRecord {
    /// A user with nothing set but his name.
    #[must_use]
    pub fn new(id: UserId, name: String) -> UserRecord {
        UserRecord {
            format: FORMAT,
            id,
            name,
            notify: NotifyMode::default(),
            vacations: Vec::new(),
            confirm: false,
            digest: None,
            digested: None,
            closed: Vec::new(),
        }
    }

    /// The end of his vacation running at `now`, if one runs.
    #[must_use]
    pub fn away_until(&self, now: Timestamp) -> Option<Timestamp> {
        self.vacations.last().filter(|vacation| vacation.start <= now && now < vacation.end).map(|v| v.end)
    }
}

/// A time a player's clocks stood still (`/vacation`): from `start` to `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Vacation {
    /// When it began.
    pub start: Timestamp,
    /// When it ends (exclusive): from then on his clocks run again.
    pub end: Timestamp,
}

/// A challenge that ended without a game: declined by its opponent, or withdrawn by the
/// challenger whose record keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClosedChallenge {
    /// The challenge: a command run again after losing a race marks it once.
    pub challenge: GameId,
    /// Whom it challenged.
    pub opponent: UserId,
    /// The server it was made in (`None`: a record without one).
    pub guild: Option<GuildId>,
    /// When it ended.
    pub at: Timestamp,
    /// Whether the opponent declined it (else its challenger withdrew it).
    pub declined: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_from_before_the_digest_opens_without_one_and_the_digest_round_trips() {
        let old = r#"{"format":1,"id":42,"name":"alice","notify":"dm"}"#;
        let user: UserRecord = serde_json::from_str(old).expect("an old record opens");
        assert_eq!((user.digest, user.digested, user.notify), (None, None, NotifyMode::Dm));
        assert!(user.closed.is_empty());
        let closed = ClosedChallenge {
            challenge: GameId(3),
            opponent: UserId(7),
            guild: Some(GuildId(9)),
            at: Timestamp(60),
            declined: true,
        };
        let set = UserRecord { digest: Some(23), digested: Some(19_675), closed: vec![closed], ..user };
        let again: UserRecord = serde_json::from_str(&serde_json::to_string(&set).unwrap()).unwrap();
        assert_eq!(again, set);
    }
}
