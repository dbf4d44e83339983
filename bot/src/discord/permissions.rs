//! At its start the bot checks, in every server that turned threads on, that its roles let
//! it open a game's thread and post in it, and tells the operator in the log where they do
//! not. The games there go on in their channels either way (a refused thread is said once
//! in the channel); the log says why and what to grant before players ask.
//!
//! Only the server's roles are read, not each channel's overwrites: a channel may still
//! refuse what the roles grant, and the refusal covers that case.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{GuildId, Http, Permissions, UserId};
use tracing::{info, warn};

use crate::service::Service;
use crate::store::Servers;

/// What a game's thread needs of the bot: opening it, and posting in it.
pub const FOR_THREADS: Permissions = Permissions::CREATE_PUBLIC_THREADS.union(Permissions::SEND_MESSAGES_IN_THREADS);

/// The servers with threads on and the bot's own user, read from `service`; then checks
/// them in the background with `http` (a slow Discord must not hold the start up).
pub async fn check_at_start(http: Arc<Http>, service: &Arc<Service>) -> Option<tokio::task::JoinHandle<()>> {
    let me = UserId::new(service.bot_user()?.id.0);
    let reading = Arc::clone(service);
    let threaded = tokio::task::spawn_blocking(move || Servers::of(reading.store()).threaded()).await;
    let guilds = match threaded {
        Ok(Ok(guilds)) => guilds,
        Ok(Err(error)) => {
            warn!(%error, "cannot read which servers turned threads on: their permissions are not checked");
            return None;
        }
        Err(error) => {
            warn!(%error, "reading which servers turned threads on failed");
            return None;
        }
    };
    let guilds: Vec<GuildId> =
        guilds.into_iter().filter(|guild| guild.0 != 0).map(|guild| GuildId::new(guild.0)).collect();
    Some(tokio::spawn(async move { check_threads(&http, me, &guilds).await }))
}

/// Logs, for each of `guilds`, whether the roles of the bot (`me`) there give it
/// [`FOR_THREADS`]; a warning names what is missing.
async fn check_threads(http: &Http, me: UserId, guilds: &[GuildId]) {
    for &guild in guilds {
        match missing(http, guild, me, FOR_THREADS).await {
            Ok(lacking) if lacking.is_empty() => info!(guild = guild.get(), "threads are on; the bot may open them"),
            Ok(lacking) => warn!(
                guild = guild.get(),
                missing = %lacking.get_permission_names().join(", "),
                "threads are on in this server but the bot's roles do not allow them: its games' threads will \
                 be refused and the games go on in their channels; grant the bot's role the missing permissions \
                 (the README's invite link asks for them)"
            ),
            Err(error) => warn!(guild = guild.get(), %error, "cannot check that the bot may open threads here"),
        }
    }
}

/// What of `needed` the roles of user `me` in `guild` do not grant: `@everyone`'s (the
/// role whose id is the server's) and his own, Administrator granting everything.
async fn missing(http: &Http, guild: GuildId, me: UserId, needed: Permissions) -> serenity::Result<Permissions> {
    let roles = http.get_guild_roles(guild).await?;
    let member = http.get_member(guild, me).await?;
    let granted = roles
        .iter()
        .filter(|role| role.id.get() == guild.get() || member.roles.contains(&role.id))
        .fold(Permissions::empty(), |granted, role| granted | role.permissions);
    Ok(if granted.administrator() { Permissions::empty() } else { needed - granted })
}
