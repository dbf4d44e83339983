//! The bot's side of play: asking it again where it is to move, and applying its answers
//! through the very handlers a player's command goes through, so its turns get the same
//! checks, the same durable write and the same notices.

use crate::ai_pool::{Answer, BotDecision};
use crate::service::error::Failure;
use crate::service::parts::{Parts, retry};
use crate::service::types::{Caller, GameId, Notice};
use crate::store::Phase;

use super::{counting, endings, turns};

/// Asks the bot about every active game where it is to move or has a draw offer to
/// answer ([`Service::resume_bot`](crate::service::Service::resume_bot)).
pub(crate) fn resume(parts: &Parts) {
    let Some(bot) = parts.seat.user() else { return };
    let entries = match parts.games.entries_of(bot.id) {
        Ok(entries) => entries,
        Err(error) => {
            tracing::warn!(%error, "cannot list the bot's games");
            return;
        }
    };
    for entry in entries {
        if entry.phase == Phase::Playing
            && let Ok(game) = parts.games.load(entry.id).and_then(|record| parts.games.loaded(record))
        {
            parts.seat.ask(&game);
        }
    }
}

/// Applies the bot's answer ([`Service::apply_answer`](crate::service::Service::apply_answer)).
pub(crate) fn apply(parts: &Parts, answer: Answer<GameId>) -> Vec<Notice> {
    let Some(bot) = parts.seat.user() else { return Vec::new() };
    let id = answer.id;
    let decision = match answer.decision {
        Ok(decision) => decision,
        Err(error) => {
            tracing::warn!(game = %id, %error, "the bot has no answer");
            return Vec::new();
        }
    };
    let result = retry(|| {
        let record = parts.games.load(id)?;
        if record.phase != Phase::Playing || record.turns.len() != answer.turn_count {
            return Err(Failure::Stale);
        }
        let caller = Caller::new(bot.clone(), record.channel(), record.guild());
        match &decision {
            BotDecision::Play(turn) => turns::turn(parts, &caller, Some(id), turns::Played::Turn(*turn)),
            BotDecision::Resign => endings::resign(parts, &caller, id),
            BotDecision::AcceptDraw => endings::answer_draw(parts, &caller, id, true),
            BotDecision::DeclineDraw => endings::answer_draw(parts, &caller, id, false),
            BotDecision::Dead(estimate) => counting::bot_answer(parts, &caller, id, estimate),
        }
    });
    match result {
        // The announcement and the notices were written with the bot's change.
        Ok(response) => response.notices,
        Err(Failure::Stale) => Vec::new(),
        Err(refusal) => {
            tracing::warn!(game = %id, ?decision, %refusal, "the bot's answer was refused");
            Vec::new()
        }
    }
}
