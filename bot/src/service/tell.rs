//! Messages for players, made the way each chose to be told (`/notify`): turn pings and
//! results. They are written with the change that causes them
//! ([`Parts::commit`](super::parts::Parts::commit)).

use super::loaded::Loaded;
use super::parts::Parts;
use super::types::{ChannelId, Message, Notice, NotifyMode, Target, UserId};
use super::users::Players;
use crate::store::GameRecord;

/// A message for `user` about `record`, sent the way he chose (`players` knows how: the
/// game's players' records as this command read them). `always` messages (results,
/// timeouts) still go to the channel, without a ping, when he chose `off`. The message
/// pings only in the channel, and only `user`.
pub(crate) fn tell(
    parts: &Parts,
    (record, players): (&GameRecord, &Players),
    user: UserId,
    message: Message,
    always: bool,
) -> Option<Notice> {
    if parts.seat.is_bot(user) {
        // The bot learns of its games from the store, not from messages.
        return None;
    }
    let (target, message) = match players.notify_mode(user) {
        NotifyMode::Channel => (Target::Channel(record.channel()), message.quiet().pinging(user, record.name_of(user))),
        NotifyMode::Dm => (Target::Direct(user), message.quiet()),
        NotifyMode::Off if always => (Target::Channel(record.channel()), message.quiet()),
        NotifyMode::Off => return None,
    };
    Some(Notice {
        target,
        message,
        images: Vec::new(),
        about: Some(record.id),
        buttons: Vec::new(),
        standings: None,
        thread: None,
    })
}

/// Whether a public message in `channel` is where `user` would be pinged about `record`: he
/// is told in the game's channel (not the bot, not by direct message, not off), and
/// `channel` is that channel. The reply to a turn then pings him itself, instead of a
/// second message with the same board ([`turn_ping`]).
pub(crate) fn pinged_in(
    parts: &Parts,
    (record, players): (&GameRecord, &Players),
    user: UserId,
    channel: ChannelId,
) -> bool {
    record.is_in(channel) && !parts.seat.is_bot(user) && players.notify_mode(user) == NotifyMode::Channel
}

/// Pings the player to move in `game`, naming the opponent's last turn, with the board
/// (in a direct message from his side, in the channel the game's one way up) and **Play**.
pub(crate) fn turn_ping(parts: &Parts, game: &Loaded, players: &Players) -> Option<Notice> {
    // Turns alternate, so the last one is the opponent's.
    let opponent = game.mover().map(|user| game.record.name_of(game.record.seats.other(user)));
    let last = game.record.turns.last().zip(opponent).map(|(last, opponent)| match last.as_str() {
        "pass" => Message::new().name(opponent).push(" passed."),
        turn => Message::new().name(opponent).push(format!(" played {turn}.")),
    });
    turn_ping_saying(parts, game, players, last)
}

/// [`turn_ping`] that says `news` (what happened since the opponent's turn, such as a
/// resumed counting) after the turn, instead of the opponent's last turn.
pub(crate) fn turn_ping_saying(
    parts: &Parts,
    game: &Loaded,
    players: &Players,
    news: Option<Message>,
) -> Option<Notice> {
    let record = &game.record;
    let user = game.mover()?;
    let opponent = record.name_of(record.seats.other(user));
    let mut message = Message::new()
        .ping(user, record.name_of(user))
        .push(format!(", it is your turn in {} ({} against ", record.id, record.kind.title()))
        .name(opponent)
        .push(format!("){}.", parts.clocks.time_left(record)));
    if let Some(news) = news {
        message = message.push(" ").then(news);
    }
    let mut notice = tell(parts, (record, players), user, message, false)?;
    notice.buttons.push(super::types::Button::play(record.id));
    let board = match notice.target {
        Target::Direct(_) => parts.pictures.board(game, user, Vec::new()),
        Target::Channel(_) => parts.pictures.public_board(game),
    };
    notice.images.push(board);
    Some(notice)
}

/// Tells the players other than `except` how the game ended (or the challenge). The
/// notices carry no Rematch button: in the channel, the reply to `except` has one, and
/// a press in a direct message would come from no server.
pub(crate) fn result_notices(
    parts: &Parts,
    (record, players): (&GameRecord, &Players),
    text: &Message,
    except: Option<UserId>,
) -> Vec<Notice> {
    let told = |user| {
        let message = Message::new().ping(user, record.name_of(user)).push(": ").then(text.clone());
        tell(parts, (record, players), user, message, true)
    };
    [record.challenger(), record.opponent()].into_iter().filter(|user| Some(*user) != except).filter_map(told).collect()
}
