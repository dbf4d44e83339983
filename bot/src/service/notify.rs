//! Messages the bot sends on its own: turn pings and results (after a command), and what
//! [`tick`] finds due in the deadline index (reminders, timeouts, expired challenges).

use stonemate_engine::AnyGame;

use super::Service;
use super::lookup;
use super::picture;
use super::text;
use super::types::{Notice, NotifyMode, Target, UserId};
use crate::clock::Timestamp;
use crate::store::{GameRecord, Phase, Side};

/// How `user` wants to be told; the default until he says otherwise is the channel.
pub fn mode(service: &Service, user: UserId) -> NotifyMode {
    service.store.user(user).ok().flatten().map(|record| record.notify).unwrap_or_default()
}

/// A message for `user` about `record`, sent the way he chose. `always` messages (results,
/// timeouts) still go to the channel, without a ping, when he chose `off`.
fn tell(service: &Service, record: &GameRecord, user: UserId, text: String, always: bool) -> Option<Notice> {
    let (target, mentions) = match mode(service, user) {
        NotifyMode::Channel => (Target::Channel(record.channel), vec![user]),
        NotifyMode::Dm => (Target::Direct(user), Vec::new()),
        NotifyMode::Off if always => (Target::Channel(record.channel), Vec::new()),
        NotifyMode::Off => return None,
    };
    Some(Notice { target, text, mentions, images: Vec::new(), game: Some(record.id) })
}

/// Time left for the current turn, as `, 2d 5h left`, or nothing without a clock.
pub fn time_left(service: &Service, record: &GameRecord) -> String {
    match record.clock {
        Some(clock) if clock.deadline <= service.now() => ", time is up".to_owned(),
        Some(clock) => format!(", {} left", clock.deadline - service.now()),
        None => String::new(),
    }
}

/// Pings the player to move in `game` (DMs carry the board from his side).
pub fn turn_ping(service: &Service, record: &GameRecord, game: &AnyGame) -> Option<Notice> {
    let side = Side::of(game.to_move()?);
    let user = record.player(side)?;
    let opponent = text::name(record.name_of(record.other(user)));
    let text = format!(
        "{}, it is your turn in {} ({} against {opponent}){}.",
        text::ping(record.name_of(user)),
        record.id,
        game.kind().title(),
        time_left(service, record)
    );
    let mut notice = tell(service, record, user, text, false)?;
    if notice.target == Target::Direct(user) {
        notice.images.push(picture::board(service, record, game, user, Vec::new()));
    }
    Some(notice)
}

/// Tells the players other than `except` how the game ended.
pub fn result_notices(service: &Service, record: &GameRecord, text: &str, except: Option<UserId>) -> Vec<Notice> {
    [record.challenger, record.opponent]
        .into_iter()
        .filter(|user| Some(*user) != except)
        .filter_map(|user| tell(service, record, user, format!("{}: {text}", text::ping(record.name_of(user))), true))
        .collect()
}

/// Everything due by now. Each record is updated with a compare-and-swap, and its
/// messages are sent only once that write is done, so each is sent once.
pub fn tick(service: &Service) -> Vec<Notice> {
    let now = service.now();
    let Ok(ids) = service.store.due(now) else { return Vec::new() };
    let mut notices = Vec::new();
    for id in ids {
        let Ok(record) = lookup::load(service, id) else { continue };
        let Some((next, mut told)) = due(service, &record, now) else { continue };
        // A record changed meanwhile (or a failed write) is looked at again next tick.
        if service.store.update(&next).is_ok() {
            notices.append(&mut told);
        }
    }
    notices
}

/// What is due for one record at `now`: the record to store and the messages to send.
fn due(service: &Service, record: &GameRecord, now: Timestamp) -> Option<(GameRecord, Vec<Notice>)> {
    let mut next = record.clone();
    next.version += 1;
    let mut notices = Vec::new();
    match record.phase {
        Phase::Challenge if record.expires <= now => {
            next.phase = Phase::Expired;
            let text = format!(
                "your challenge {} to {} ({}) expired unanswered.",
                record.id,
                text::name(&record.names[1]),
                record.game
            );
            let text = format!("{}: {text}", text::ping(&record.names[0]));
            notices.extend(tell(service, record, record.challenger, text, true));
        }
        Phase::Playing => {
            let clock = next.clock.as_mut()?;
            let game = lookup::position(service, record).ok()?;
            let mover = record.player(Side::of(game.to_move()?))?;
            let waiting = record.other(mover);
            if clock.deadline <= now && !clock.timeout_told {
                (clock.reminded, clock.timeout_told) = (true, true);
                let text = format!(
                    "{}: {}'s time for {} ran out. You may `/claim` the win, or give more time with `/extratime`.",
                    text::ping(record.name_of(waiting)),
                    text::name(record.name_of(mover)),
                    record.id
                );
                notices.extend(tell(service, record, waiting, text, true));
            } else if clock.reminder_at() <= now && !clock.reminded {
                clock.reminded = true;
                let left = clock.deadline - now;
                let ping = text::ping(record.name_of(mover));
                let text = format!("{ping}: a quarter of your time is left in {}: {left}.", record.id);
                notices.extend(tell(service, record, mover, text, false));
            } else {
                return None;
            }
        }
        _ => return None,
    }
    Some((next, notices))
}
