//! The service's messages in Discord's terms: replies and notices as serenity's message
//! builders, mentions linked, and a notice sent as a new message (so that its mentions
//! ping). [`super::answer`] answers interactions with these; [`super::sender`] sends the
//! notices.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle as DiscordStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, EditInteractionResponse, Http,
};

use crate::service::{Attachment, Button, ButtonStyle, Notice, Reply, Select, Service, Target, UserId};

/// Discord's limit on a message's text, in characters.
const MAX_CONTENT: usize = 2000;
/// Discord's limits on buttons: 5 per row, 5 rows.
const BUTTONS_PER_ROW: usize = 5;
const MAX_ROWS: usize = 5;

/// Ends the process after a storage failure (the reply in hand has gone out): nothing
/// more may be served, and the supervisor restarts the bot from what is on disk. Not by
/// returning: dropping sled's database after an I/O error panics in its log.
pub fn exit_if_stopped(service: &Service) {
    if let Some(failure) = service.stopped() {
        tracing::error!(%failure, "storage failed: exiting so that a restart recovers from the disk");
        std::process::exit(1);
    }
}

/// The service writes `@name` for users; for those a notice pings, Discord needs `<@id>`.
pub fn link_mentions(service: &Service, notices: &mut [Notice]) {
    for notice in notices {
        link(&mut notice.text, &notice.mentions, |user| service.user_name(user));
    }
}

/// Turns the first `@name` of each mentioned user into `<@id>`; a user not named in the
/// text is mentioned at its start, so that the ping happens.
pub(super) fn link(text: &mut String, mentions: &[UserId], name_of: impl Fn(UserId) -> Option<String>) {
    let mut missing = Vec::new();
    for &user in mentions {
        let markup = format!("<@{}>", user.0);
        if text.contains(&markup) {
            continue;
        }
        // The service writes a pinged user as `@` and his escaped name (`text::ping`).
        let at = name_of(user).and_then(|name| find_name(text, &crate::service::text::name(&name)));
        match at {
            Some((start, end)) => text.replace_range(start..end, &markup),
            None => missing.push(markup),
        }
    }
    if !missing.is_empty() {
        *text = format!("{} {text}", missing.join(" "));
    }
}

/// Where `@name` stands in `text` as a whole word.
fn find_name(text: &str, name: &str) -> Option<(usize, usize)> {
    let needle = format!("@{name}");
    text.match_indices(&needle)
        .map(|(start, _)| (start, start + needle.len()))
        .find(|&(_, end)| !text[end..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_'))
}

/// Sends a notice as a new message: in its channel, or as a direct message.
pub async fn send_notice(http: &Http, notice: &Notice) -> Result<(), serenity::Error> {
    let channel = match notice.target {
        Target::Channel(channel) => serenity::ChannelId::new(channel.0),
        Target::Direct(user) => serenity::UserId::new(user.0).create_dm_channel(http).await?.id,
    };
    let message = Message::new(&notice.text, &notice.mentions, notice.images.iter(), (&[], &notice.buttons));
    channel.send_message(http, message.into_create()).await?;
    Ok(())
}

/// A message's parts in Discord's terms, ready for any of serenity's message builders.
pub(super) struct Message {
    content: String,
    files: Vec<CreateAttachment>,
    rows: Vec<CreateActionRow>,
    mentions: CreateAllowedMentions,
}

impl Message {
    pub(super) fn of(reply: &Reply) -> Message {
        let components = (reply.selects.as_slice(), reply.buttons.as_slice());
        Message::new(&reply.text, &reply.mentions, reply.images.iter().chain(&reply.files), components)
    }

    fn new<'a>(
        text: &str,
        mentions: &[UserId],
        files: impl Iterator<Item = &'a Attachment>,
        (selects, buttons): (&[Select], &[Button]),
    ) -> Message {
        let users: Vec<serenity::UserId> = mentions.iter().map(|user| serenity::UserId::new(user.0)).collect();
        Message {
            content: content(text),
            files: files.map(|file| CreateAttachment::bytes(file.bytes.clone(), file.name.clone())).collect(),
            rows: rows(selects, buttons),
            // Only the users the service names may be pinged: never @everyone or roles.
            mentions: CreateAllowedMentions::new().everyone(false).empty_roles().users(users),
        }
    }

    pub(super) fn into_response(self) -> CreateInteractionResponseMessage {
        let message = CreateInteractionResponseMessage::new().content(self.content).add_files(self.files);
        message.components(self.rows).allowed_mentions(self.mentions)
    }

    pub(super) fn into_followup(self) -> CreateInteractionResponseFollowup {
        let message = CreateInteractionResponseFollowup::new().content(self.content).add_files(self.files);
        message.components(self.rows).allowed_mentions(self.mentions)
    }

    pub(super) fn into_edit(self) -> EditInteractionResponse {
        // Files replace those of the message edited, and no files leave none.
        let edit = EditInteractionResponse::new().content(self.content).components(self.rows).clear_attachments();
        self.files.into_iter().fold(edit.allowed_mentions(self.mentions), EditInteractionResponse::new_attachment)
    }

    fn into_create(self) -> CreateMessage {
        let message = CreateMessage::new().content(self.content).add_files(self.files);
        message.components(self.rows).allowed_mentions(self.mentions)
    }
}

/// The text cut to Discord's limit.
fn content(text: &str) -> String {
    if text.chars().count() <= MAX_CONTENT {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(MAX_CONTENT - 1).collect();
    cut.push('…');
    cut
}

/// Each select menu on a row of its own (Discord's rule), then the buttons, five a row,
/// within Discord's five rows.
fn rows(selects: &[Select], buttons: &[Button]) -> Vec<CreateActionRow> {
    let menus = selects.iter().map(|select| CreateActionRow::SelectMenu(menu(select)));
    let buttons = buttons.chunks(BUTTONS_PER_ROW).map(|row| CreateActionRow::Buttons(row.iter().map(button).collect()));
    menus.chain(buttons).take(MAX_ROWS).collect()
}

/// Discord's limit on a select menu's options.
const MAX_OPTIONS: usize = 25;

fn menu(select: &Select) -> CreateSelectMenu {
    let options = select
        .options
        .iter()
        .take(MAX_OPTIONS)
        .map(|option| CreateSelectMenuOption::new(option.label.clone(), option.value.clone()))
        .collect();
    let menu = CreateSelectMenu::new(select.custom_id.clone(), CreateSelectMenuKind::String { options });
    menu.placeholder(select.placeholder.clone())
}

fn button(button: &Button) -> CreateButton {
    let style = match button.style {
        ButtonStyle::Primary => DiscordStyle::Primary,
        ButtonStyle::Secondary => DiscordStyle::Secondary,
        ButtonStyle::Success => DiscordStyle::Success,
        ButtonStyle::Danger => DiscordStyle::Danger,
    };
    CreateButton::new(button.custom_id.clone()).label(button.label.clone()).style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linked(text: &str, mentions: &[u64]) -> String {
        let mut text = text.to_owned();
        let mentions: Vec<UserId> = mentions.iter().map(|&id| UserId(id)).collect();
        let names =
            |user: UserId| [(7, "bob"), (8, "bo")].iter().find(|(id, _)| *id == user.0).map(|(_, n)| n.to_string());
        link(&mut text, &mentions, names);
        text
    }

    #[test]
    fn mentions_become_discord_markup_where_the_name_stands() {
        assert_eq!(linked("@bob, your move", &[7]), "<@7>, your move");
        assert_eq!(linked("@bob against @bo", &[8]), "@bob against <@8>");
        assert_eq!(linked("your move", &[7]), "<@7> your move");
        assert_eq!(linked("<@7>, your move", &[7]), "<@7>, your move");
        assert_eq!(linked("@bob, no ping", &[]), "@bob, no ping");
    }

    #[test]
    fn content_is_cut_to_discords_limit() {
        let long = "é".repeat(3000);
        let cut = content(&long);
        assert_eq!(cut.chars().count(), MAX_CONTENT);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn buttons_fill_rows_of_five() {
        let buttons: Vec<Button> = (0..7)
            .map(|n| Button { custom_id: format!("b:{n}"), label: n.to_string(), style: ButtonStyle::Primary })
            .collect();
        assert_eq!(rows(&[], &buttons).len(), 2);
    }
}
