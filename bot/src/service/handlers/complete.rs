//! Autocomplete suggestions: the caller's games and challenges, legal turns, squares.
//! At most 25, filtered by what was typed; never trusted when the command comes.

use stonemate_engine::Square;

use super::views::turn_squares;
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Games;
use crate::service::games::{Fit, parse_id};
use crate::service::types::{Caller, Choice, Field, GameId};
use crate::store::{GameRecord, NOBODY, Phase};

/// Discord shows at most 25 choices.
pub const MAX_CHOICES: usize = 25;

/// Keeps the names that start with `typed` first, then those that contain it.
fn filter(names: impl Iterator<Item = (String, String)>, typed: &str) -> Vec<Choice> {
    let typed = typed.trim().trim_start_matches('#').to_ascii_lowercase();
    let (mut starts, mut contains) = (Vec::new(), Vec::new());
    for (name, value) in names {
        let lower = value.to_ascii_lowercase();
        if lower.starts_with(&typed) {
            starts.push(Choice { name, value });
        } else if name.to_ascii_lowercase().contains(&typed) {
            contains.push(Choice { name, value });
        }
        if starts.len() >= MAX_CHOICES {
            break;
        }
    }
    starts.extend(contains);
    starts.truncate(MAX_CHOICES);
    starts
}

fn game_choice(record: &GameRecord, caller: &Caller) -> (String, String) {
    let opponent = record.name_of(record.seats.other(caller.user.id));
    let name: String = format!("{} {} vs {opponent}", record.id, record.kind.name()).chars().take(100).collect();
    (name, record.id.0.to_string())
}

/// The suggestions for `field`; see [`Service::autocomplete`].
pub(crate) fn choices(
    games: &Games,
    caller: &Caller,
    field: Field,
    typed: &str,
    named: Option<&str>,
) -> Result<Vec<Choice>, Failure> {
    let me = caller.user.id;
    match field {
        Field::Game => {
            let records = games.records_of(caller, me, Phase::Playing)?;
            Ok(filter(records.iter().map(|record| game_choice(record, caller)), typed))
        }
        Field::Challenge => {
            let mut records = games.records_of(caller, me, Phase::Challenge)?;
            // Others' open challenges in this channel are the caller's to accept too.
            let open = games.records_of(caller, NOBODY, Phase::Challenge)?;
            records.extend(open.into_iter().filter(|r| r.challenger() != me && r.channel() == caller.channel));
            Ok(filter(records.iter().map(|record| game_choice(record, caller)), typed))
        }
        Field::Notation => {
            let position = games.open(caller, reference(named)?, Fit::ToMove)?.position;
            let texts = position.legal_turn_texts().into_iter().map(|text| (text.clone(), text));
            Ok(filter(texts, typed))
        }
        Field::Square => {
            let position = games.open(caller, reference(named)?, Fit::ToMove)?.position;
            let mut squares: Vec<Square> =
                position.legal_turns().iter().filter_map(|turn| turn_squares(turn).0.first().copied()).collect();
            squares.sort_by_key(|square| square.index());
            squares.dedup();
            Ok(filter(squares.into_iter().map(|s| (s.to_string(), s.to_string())), typed))
        }
    }
}

/// The game named by the `game` option typed so far (blank: the one meant here).
fn reference(typed: Option<&str>) -> Result<Option<GameId>, Refusal> {
    typed.filter(|typed| !typed.trim().is_empty()).map(parse_id).transpose()
}
