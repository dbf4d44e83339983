//! The stored layout of a [`GameRecord`]: one flat JSON object, as format 1 began it
//! (the players by challenge order and by colour, every pending thing beside the turns),
//! written and read by a private mirror ([`StoredGame`]) so that the record's own shape
//! can change without touching a database, an export or the fixtures of earlier formats.
//! [`upgrade`] reads format 1.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};
use stonemate_ai::Level;
use stonemate_engine::{Color, GameKind};

use super::clock::TurnClock;
use super::finish::Finish;
use super::game::{GameRecord, Origin, Phase, Thread, TournamentTag};
use super::names::{color_name, kind_name, level_name};
use super::pending::{Asked, Conditional, Counting, Pending, Takeback};
use super::seats::{ColorChoice, Seat, Seats};
use crate::clock::Timestamp;
use crate::ids::{ChannelId, GameId, GuildId, UserId};

/// The layout of records written by this build. Format 1 stored the result as display
/// text; [`upgrade`] reads it.
pub const FORMAT: u32 = 2;

/// A game record as stored (format 2), borrowing from the record it is written from and
/// owning what it was read into. Fields missing in JSON were added after format 1 began
/// (`guild`, `draw_offered_at`, `rematch_of`, `level`, `takeback`, `counting`,
/// `conditionals`, `tournament`, `takeback_asked_at`, `thread`): they read as none. The order of the fields is the order they are
/// written in.
#[derive(Serialize, Deserialize)]
struct StoredGame<'a> {
    format: u32,
    id: GameId,
    version: u64,
    #[serde(rename = "game", with = "kind_name")]
    kind: GameKind,
    options: Cow<'a, [(String, String)]>,
    challenger: UserId,
    opponent: UserId,
    /// `[challenger, opponent]`.
    names: [Cow<'a, str>; 2],
    color: ColorChoice,
    /// `[white, black]`, once the challenge is accepted.
    players: Option<[UserId; 2]>,
    days: u8,
    channel: ChannelId,
    #[serde(default)]
    guild: Option<GuildId>,
    created: Timestamp,
    expires: Timestamp,
    phase: Phase,
    turns: Cow<'a, [String]>,
    clock: Option<TurnClock>,
    #[serde(with = "color_name")]
    draw_offer: Option<Color>,
    #[serde(default, skip_serializing_if = "Asked::is_empty")]
    draw_offered_at: Asked,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rematch_of: Option<GameId>,
    result: Option<Cow<'a, Finish>>,
    #[serde(default, with = "level_name", skip_serializing_if = "Option::is_none")]
    level: Option<Level>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    takeback: Option<Takeback>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    counting: Option<Cow<'a, Counting>>,
    #[serde(default, skip_serializing_if = "<[Conditional]>::is_empty")]
    conditionals: Cow<'a, [Conditional]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tournament: Option<TournamentTag>,
    #[serde(default, skip_serializing_if = "Asked::is_empty")]
    takeback_asked_at: Asked,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    thread: Option<Thread>,
}

impl<'a> From<&'a GameRecord> for StoredGame<'a> {
    fn from(record: &'a GameRecord) -> StoredGame<'a> {
        let GameRecord { id, version, kind, options, days, seats, origin, phase, turns, clock, pending, result } =
            record;
        StoredGame {
            format: FORMAT,
            id: *id,
            version: *version,
            kind: *kind,
            options: Cow::Borrowed(options),
            challenger: seats.challenger.user,
            opponent: seats.opponent.user,
            names: [Cow::Borrowed(&seats.challenger.name), Cow::Borrowed(&seats.opponent.name)],
            color: seats.color,
            players: seats.by_color(),
            days: *days,
            channel: origin.channel,
            guild: origin.guild,
            created: origin.created,
            expires: origin.expires,
            phase: *phase,
            turns: Cow::Borrowed(turns),
            clock: *clock,
            draw_offer: pending.draw_offer,
            draw_offered_at: pending.draw_offered_at,
            rematch_of: origin.rematch_of,
            result: result.as_ref().map(Cow::Borrowed),
            level: seats.bot,
            takeback: pending.takeback,
            counting: pending.counting.as_ref().map(Cow::Borrowed),
            conditionals: Cow::Borrowed(&pending.conditionals),
            tournament: origin.tournament,
            takeback_asked_at: pending.takeback_asked_at,
            thread: origin.thread,
        }
    }
}

impl TryFrom<StoredGame<'_>> for GameRecord {
    type Error = String;

    /// The record a stored one describes; refused when its players by colour are not its
    /// challenger and opponent (the two orders must agree to be held once).
    fn try_from(stored: StoredGame<'_>) -> Result<GameRecord, String> {
        let [challenger_name, opponent_name] = stored.names.map(Cow::into_owned);
        let challenger_side = match stored.players {
            None => None,
            Some(players) if players == [stored.challenger, stored.opponent] => Some(Color::White),
            Some(players) if players == [stored.opponent, stored.challenger] => Some(Color::Black),
            Some([white, black]) => {
                return Err(format!(
                    "record {}: its players (white {}, black {}) are not its challenger {} and opponent {}",
                    stored.id, white.0, black.0, stored.challenger.0, stored.opponent.0
                ));
            }
        };
        let seats = Seats {
            challenger: Seat::new(stored.challenger, challenger_name),
            opponent: Seat::new(stored.opponent, opponent_name),
            color: stored.color,
            challenger_side,
            bot: stored.level,
        };
        let origin = Origin {
            channel: stored.channel,
            guild: stored.guild,
            created: stored.created,
            expires: stored.expires,
            rematch_of: stored.rematch_of,
            tournament: stored.tournament,
            thread: stored.thread,
        };
        let pending = Pending {
            draw_offer: stored.draw_offer,
            draw_offered_at: stored.draw_offered_at,
            takeback: stored.takeback,
            takeback_asked_at: stored.takeback_asked_at,
            counting: stored.counting.map(Cow::into_owned),
            conditionals: stored.conditionals.into_owned(),
        };
        Ok(GameRecord {
            id: stored.id,
            version: stored.version,
            kind: stored.kind,
            options: stored.options.into_owned(),
            days: stored.days,
            seats,
            origin,
            phase: stored.phase,
            turns: stored.turns.into_owned(),
            clock: stored.clock,
            pending,
            result: stored.result.map(Cow::into_owned),
        })
    }
}

impl Serialize for GameRecord {
    /// Writes the stored layout of this build ([`FORMAT`]), borrowing the record.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StoredGame::from(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for GameRecord {
    /// Reads the stored layout ([`FORMAT`]; format 1 once [`upgrade`]d).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameRecord, D::Error> {
        GameRecord::try_from(StoredGame::deserialize(deserializer)?).map_err(D::Error::custom)
    }
}

/// Rewrites a stored game record of an older format as this one reads it. Format 1 kept
/// the result as `{winner, finish, reason}` with `reason` the text players read; the
/// reason is read back into a [`Finish`] (an aborting player's name, which format 1
/// stored escaped for Discord, is unescaped).
pub fn upgrade(mut value: serde_json::Value) -> Result<serde_json::Value, String> {
    if value.get("format").and_then(serde_json::Value::as_u64) != Some(1) {
        return Ok(value);
    }
    if let Some(result) = value.get_mut("result").filter(|result| !result.is_null()) {
        let text = |key: &str| result.get(key).and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
        let (finish, reason) = (text("finish"), text("reason"));
        let reason = match finish.as_str() {
            "rules" => serde_json::json!({ "rules": reason }),
            "resignation" | "agreement" | "timeout" => serde_json::json!(finish),
            "aborted" => serde_json::json!({ "aborted": { "by": unescape(after(&reason, "aborted by ", "")?) } }),
            "admin-aborted" => {
                let by = after(&reason, "aborted by an administrator (", ")")?;
                serde_json::json!({ "admin-aborted": { "by": unescape(by) } })
            }
            other => return Err(format!("unknown finish `{other}`")),
        };
        *result = serde_json::json!({ "winner": result.get("winner").cloned(), "reason": reason });
    }
    value["format"] = serde_json::json!(FORMAT);
    Ok(value)
}

fn after<'a>(text: &'a str, prefix: &str, suffix: &str) -> Result<&'a str, String> {
    text.strip_prefix(prefix)
        .and_then(|rest| rest.strip_suffix(suffix))
        .ok_or_else(|| format!("unknown reason `{text}`"))
}

/// The name format 1 escaped with a backslash before each markup character.
fn unescape(escaped: &str) -> String {
    let mut name = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(ch) = chars.next() {
        name.push(if ch == '\\' { chars.next().unwrap_or(ch) } else { ch });
    }
    name
}

#[cfg(test)]
mod tests {
    use stonemate_engine::{self as engine, EndReason, Outcome};

    use super::*;
    use crate::store::record::CalledOff;

    fn upgraded(result: serde_json::Value) -> Result<Option<Finish>, String> {
        let record = serde_json::json!({ "format": 1, "result": result });
        let value = upgrade(record)?;
        assert_eq!(value["format"], serde_json::json!(FORMAT));
        serde_json::from_value(value["result"].clone()).map_err(|error| error.to_string())
    }

    #[test]
    fn format_1_results_are_read_back_as_data() {
        let rules = serde_json::json!({ "winner": "black", "finish": "rules", "reason": "two passes" });
        let ending =
            Finish::new(engine::Ending { outcome: Outcome::Winner(Color::Black), reason: EndReason::TwoPasses });
        assert_eq!(upgraded(rules), Ok(Some(ending)));
        let resigned = serde_json::json!({ "winner": "white", "finish": "resignation", "reason": "resignation" });
        assert_eq!(
            upgraded(resigned),
            Ok(Some(Finish::new(engine::Ending {
                outcome: Outcome::Winner(Color::White),
                reason: EndReason::Resignation
            })))
        );
        assert_eq!(upgraded(serde_json::Value::Null), Ok(None));
    }

    #[test]
    fn format_1_abort_names_are_unescaped() {
        let aborted = serde_json::json!({ "winner": null, "finish": "aborted", "reason": r"aborted by \*\*al\_ice" });
        let by = "**al_ice".to_owned();
        assert_eq!(upgraded(aborted), Ok(Some(Finish::called_off(CalledOff::Player(by)))));
        let text = r"aborted by an administrator (mod \(x\))";
        let admin = serde_json::json!({ "winner": null, "finish": "admin-aborted", "reason": text });
        let by = "mod (x)".to_owned();
        assert_eq!(upgraded(admin), Ok(Some(Finish::called_off(CalledOff::Admin(by)))));
    }

    #[test]
    fn unknown_format_1_reasons_are_refused() {
        let odd = serde_json::json!({ "winner": "white", "finish": "rules", "reason": "a coin toss" });
        assert!(upgraded(odd).is_err());
        let odd = serde_json::json!({ "winner": null, "finish": "aborted", "reason": "gone" });
        assert!(upgraded(odd).is_err());
    }

    /// A playing game with everything set that format 2 stores, as the flat layout (before
    /// the record had parts) wrote it, byte for byte.
    const EVERYTHING: &str = concat!(
        r#"{"format":2,"id":7,"version":5,"game":"go","options":[["board","9x9"]],"challenger":11,"#,
        r#""opponent":12,"names":["alice","bob"],"color":"black","players":[12,11],"days":3,"#,
        r#""channel":100,"guild":1,"created":1000,"expires":2000,"phase":"playing","turns":["R@e5","R@d4"],"#,
        r#""clock":{"started":1500,"deadline":1900,"remind_at":1800,"timeout_told":false},"draw_offer":"white","#,
        r#""draw_offered_at":[1,null],"rematch_of":3,"result":null,"level":"easy","#,
        r#""takeback":{"by":11,"turns":2},"counting":{"proposal":"dead -","by":"black"},"#,
        r#""conditionals":[{"owner":12,"turns":["R@e4"],"at":2}],"takeback_asked_at":[null,0]}"#
    );

    #[test]
    fn records_are_written_in_the_flat_layout_of_format_2() {
        let record: GameRecord = serde_json::from_str(EVERYTHING).unwrap();
        assert_eq!(record.seats.challenger, Seat::new(UserId(11), "alice".to_owned()));
        assert_eq!(record.seats.by_color(), Some([UserId(12), UserId(11)]));
        assert_eq!((record.level(), record.origin.rematch_of), (Some(Level::Easy), Some(GameId(3))));
        assert_eq!(record.pending.draw_offer, Some(Color::White));
        assert_eq!(record.pending.conditionals[0].owner, UserId(12));
        assert_eq!(serde_json::to_string(&record).unwrap(), EVERYTHING);
    }

    #[test]
    fn fields_added_after_format_1_began_read_as_none_and_are_left_out() {
        let old = r#"{"format":1,"id":1,"version":2,"game":"go","options":[],"challenger":11,"opponent":12,"names":["alice","bob"],"color":"white","players":[11,12],"days":0,"channel":100,"created":1,"expires":2,"phase":"playing","turns":["R@e5"],"clock":null,"draw_offer":null,"result":null}"#;
        let record: GameRecord = serde_json::from_value(upgrade(serde_json::from_str(old).unwrap()).unwrap()).unwrap();
        assert_eq!((record.guild(), record.level(), &record.pending), (None, None, &Pending::default()));
        assert_eq!(record.seats.player(Color::White), Some(UserId(11)));
        let written = serde_json::to_string(&record).unwrap();
        let expected = old
            .replace(r#""format":1"#, r#""format":2"#)
            .replace(r#""channel":100,"#, r#""channel":100,"guild":null,"#);
        assert_eq!(written, expected);
    }

    #[test]
    fn a_games_thread_is_written_when_it_has_one_and_older_records_read_as_none() {
        let record: GameRecord = serde_json::from_str(EVERYTHING).unwrap();
        assert_eq!(record.origin.thread, None, "a record written before threads");
        for thread in [Thread::Open(ChannelId(555)), Thread::Refused] {
            let with = GameRecord { origin: Origin { thread: Some(thread), ..record.origin }, ..record.clone() };
            let written = serde_json::to_string(&with).unwrap();
            assert!(written.ends_with(r#","thread":{"open":555}}"#) || written.ends_with(r#","thread":"refused"}"#));
            assert_eq!(serde_json::from_str::<GameRecord>(&written).unwrap(), with);
        }
    }

    #[test]
    fn players_who_are_not_the_challenger_and_the_opponent_are_refused() {
        let odd = EVERYTHING.replace(r#""players":[12,11]"#, r#""players":[12,13]"#);
        let error = serde_json::from_str::<GameRecord>(&odd).unwrap_err().to_string();
        assert!(error.contains("are not its challenger 11 and opponent 12"), "{error}");
    }
}
