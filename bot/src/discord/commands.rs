//! The slash commands of `commands.md`, one typed function each: read the options, hand
//! one [`Command`] to the service, send its answer. Checks and wording are the service's.

use poise::serenity_prelude as serenity;

use super::autocomplete::{challenge_ids, game_ids, squares, turns};
use super::choices::{ColorChoice, GameChoice, NotifyChoice};
use super::reply::{self, Interaction};
use super::types::{Context, Error};
use crate::service::{Caller, ChannelId, Command, GuildId, User};

/// Every command, for the framework and for registration. All are for servers only
/// (games belong to servers): Discord offers none in direct messages, and poise refuses one
/// that comes from there anyway.
pub fn all() -> Vec<poise::Command<super::types::Data, Error>> {
    let mut commands = vec![
        challenge(),
        accept(),
        decline(),
        withdraw(),
        r#move(),
        drop(),
        pass(),
        resign(),
        draw(),
        abort(),
        claim(),
        extratime(),
        board(),
        history(),
        games(),
        legal(),
        rules(),
        notify(),
        admin_abort(),
        help(),
    ];
    for command in &mut commands {
        command.guild_only = true;
        command.install_context = Some(vec![serenity::InstallationContext::Guild]);
    }
    commands
}

/// Challenge someone to a game.
#[poise::command(slash_command)]
pub async fn challenge(
    ctx: Context<'_>,
    #[description = "Who to play"] opponent: serenity::User,
    #[description = "Which game"] game: GameChoice,
    #[description = "Your colour (default: random)"] color: Option<ColorChoice>,
    #[description = "Days per move, 0 = no clock (default 3)"]
    #[min = 0]
    #[max = 14]
    days: Option<i64>,
    #[description = "Game options, e.g. board=9x9 pieces=N komi=6.5"] options: Option<String>,
) -> Result<(), Error> {
    let opponent = User::new(opponent.id.get(), display_name(&opponent, None));
    let color = color.map(|color| color.name().to_owned());
    let game = game.name().to_owned();
    run(ctx, Command::Challenge { opponent, game, color, days, options }).await
}

/// Accept a challenge: the game starts.
#[poise::command(slash_command)]
pub async fn accept(
    ctx: Context<'_>,
    #[description = "Which challenge (default: the only one)"]
    #[autocomplete = "challenge_ids"]
    challenge: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Accept { challenge }).await
}

/// Decline a challenge.
#[poise::command(slash_command)]
pub async fn decline(
    ctx: Context<'_>,
    #[description = "Which challenge (default: the only one)"]
    #[autocomplete = "challenge_ids"]
    challenge: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Decline { challenge }).await
}

/// Take back a challenge you made.
#[poise::command(slash_command)]
pub async fn withdraw(
    ctx: Context<'_>,
    #[description = "Which challenge (default: the only one)"]
    #[autocomplete = "challenge_ids"]
    challenge: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Withdraw { challenge }).await
}

/// Play a turn in the game's notation: a move, drop, pass, tandem or mole drop.
#[poise::command(slash_command, rename = "move")]
pub async fn r#move(
    ctx: Context<'_>,
    #[description = "The turn, e.g. e2-e4, R@d4, pass"]
    #[autocomplete = "turns"]
    notation: String,
    #[description = "Which game (default: your only one here)"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Move { notation, game }).await
}

/// Drop a piece from your hand.
#[poise::command(slash_command)]
pub async fn drop(
    ctx: Context<'_>,
    #[description = "The piece letter, e.g. R"] piece: String,
    #[description = "The square, e.g. d4"] square: String,
    #[description = "Which game (default: your only one here)"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Drop { piece, square, game }).await
}

/// Pass your turn.
#[poise::command(slash_command)]
pub async fn pass(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Pass { game }).await
}

/// Resign (asks you to confirm).
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Resign { game }).await
}

/// Offer a draw, or accept your opponent's offer.
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Draw { game }).await
}

/// End a game without result before either side has played.
#[poise::command(slash_command)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Abort { game }).await
}

/// Win a game whose opponent has run out of time.
#[poise::command(slash_command)]
pub async fn claim(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Claim { game }).await
}

/// Give your opponent more time for this turn.
#[poise::command(slash_command)]
pub async fn extratime(
    ctx: Context<'_>,
    #[description = "How many days more"]
    #[min = 1]
    #[max = 14]
    days: i64,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::ExtraTime { game, days }).await
}

/// Show a game's board.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Board { game }).await
}

/// A game's turns, result and record, with an animated replay.
#[poise::command(slash_command)]
pub async fn history(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::History { game }).await
}

/// Active games: opponent, game, whose turn, time left.
#[poise::command(slash_command)]
pub async fn games(
    ctx: Context<'_>,
    #[description = "Whose games (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.map(|user| User::new(user.id.get(), display_name(&user, None)));
    run(ctx, Command::Games { user }).await
}

/// The legal turns, highlighted on the board.
#[poise::command(slash_command)]
pub async fn legal(
    ctx: Context<'_>,
    #[description = "Which game"]
    #[autocomplete = "game_ids"]
    game: Option<String>,
    #[description = "Only the turns from this square"]
    #[autocomplete = "squares"]
    square: Option<String>,
) -> Result<(), Error> {
    run(ctx, Command::Legal { game, square }).await
}

/// A short summary of a game's rules and notation.
#[poise::command(slash_command)]
pub async fn rules(ctx: Context<'_>, #[description = "Which game"] game: GameChoice) -> Result<(), Error> {
    run(ctx, Command::Rules { game: game.name().to_owned() }).await
}

/// How you are told that it is your turn.
#[poise::command(slash_command)]
pub async fn notify(ctx: Context<'_>, #[description = "channel, dm or off"] mode: NotifyChoice) -> Result<(), Error> {
    run(ctx, Command::Notify { mode: mode.name().to_owned() }).await
}

/// End any game of this server without result (needs the Manage Server permission).
///
/// Discord shows it only to members with Manage Server (its default permissions); the
/// service checks the permission Discord sends with the interaction, in this server.
#[poise::command(slash_command, rename = "admin-abort", default_member_permissions = "MANAGE_GUILD")]
pub async fn admin_abort(
    ctx: Context<'_>,
    #[description = "Which game, e.g. 12"]
    #[autocomplete = "game_ids"]
    game: String,
) -> Result<(), Error> {
    run(ctx, Command::AdminAbort { game }).await
}

/// Every command in one line, and where each game's rules are.
#[poise::command(slash_command)]
pub async fn help(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, Command::Help).await
}

/// Hands `command` to the service and sends its answer.
async fn run(ctx: Context<'_>, command: Command) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else { return Ok(()) };
    let caller = caller(app.interaction);
    let interaction = Interaction { id: app.interaction.id, token: &app.interaction.token };
    tracing::debug!(command = command.name(), user = caller.user.id.0, "command");
    let answered =
        reply::answer(ctx.http(), interaction, ctx.data(), move |service| service.handle(&caller, command)).await;
    // Whatever happened, an error must not try to answer the interaction a second time.
    app.has_sent_initial_response.store(true, std::sync::atomic::Ordering::SeqCst);
    answered.map(|_reply| ())
}

/// Who is calling, and from where.
pub fn caller(interaction: &serenity::CommandInteraction) -> Caller {
    caller_of(&interaction.user, interaction.member.as_deref(), interaction.channel_id, interaction.guild_id)
}

/// The caller of an interaction. `member` carries the caller's permissions in the
/// channel, as Discord computed them for this interaction: Manage Server there makes him
/// an administrator of `guild`.
pub fn caller_of(
    user: &serenity::User,
    member: Option<&serenity::Member>,
    channel: serenity::ChannelId,
    guild: Option<serenity::GuildId>,
) -> Caller {
    let admin = guild.is_some() && member.and_then(|member| member.permissions).is_some_and(|p| p.manage_guild());
    Caller {
        user: User::new(user.id.get(), display_name(user, member)),
        channel: ChannelId(channel.get()),
        guild: guild.map(|guild| GuildId(guild.get())),
        admin,
    }
}

/// The name people see: the server nickname, the display name, or the user name.
fn display_name(user: &serenity::User, member: Option<&serenity::Member>) -> String {
    member.and_then(|m| m.nick.clone()).or_else(|| user.global_name.clone()).unwrap_or_else(|| user.name.clone())
}
