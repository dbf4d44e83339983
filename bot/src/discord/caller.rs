//! Who calls, from where, in the service's terms ([`Caller`]), read from an interaction.

use poise::serenity_prelude as serenity;

use crate::service::{Caller, ChannelId, GuildId, User};

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
pub fn display_name(user: &serenity::User, member: Option<&serenity::Member>) -> String {
    member.and_then(|m| m.nick.clone()).or_else(|| user.global_name.clone()).unwrap_or_else(|| user.name.clone())
}
