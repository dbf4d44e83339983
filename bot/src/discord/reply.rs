//! The service's messages in Discord's terms: replies and notices as serenity's message
//! builders, pings rendered as Discord mentions, and a notice sent as a new message (so that its mentions
//! ping). [`super::answer`] answers interactions with these; [`super::sender`] sends the
//! notices.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle as DiscordStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage, CreateSelectMenu,
    CreateSelectMenuKind, CreateSelectMenuOption, CreateThread, EditInteractionResponse, EditMessage, EditThread, Http,
};

use crate::service::{
    Attachment, Button, ButtonStyle, Message as ServiceMessage, Notice, Reply, Select, Service, Target,
};

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

/// A message's text in Discord's markup: a ping is `<@id>`, names are escaped.
fn render(message: &ServiceMessage) -> String {
    message.render(|user, _| format!("<@{}>", user.0))
}

/// The Discord channel a notice goes to (a direct message's channel opened for it).
async fn channel_of(http: &Http, notice: &Notice) -> Result<serenity::ChannelId, serenity::Error> {
    Ok(match notice.target {
        Target::Channel(channel) => serenity::ChannelId::new(channel.0),
        Target::Direct(user) => serenity::UserId::new(user.0).create_dm_channel(http).await?.id,
    })
}

/// Sends a notice as a new message: in its channel, or as a direct message. Returns the
/// message's id.
pub async fn send_notice(http: &Http, notice: &Notice) -> Result<u64, serenity::Error> {
    let channel = channel_of(http, notice).await?;
    let message = Draft::new(&notice.message, notice.images.iter(), (&[], &notice.buttons));
    Ok(channel.send_message(http, message.into_create()).await?.id.get())
}

/// Opens a public thread named `name` in the notice's channel; returns its id. A thread
/// idle for a week is archived by Discord; the bot's next post reopens it.
pub async fn open_thread(http: &Http, notice: &Notice, name: &str) -> Result<u64, serenity::Error> {
    let parent = channel_of(http, notice).await?;
    let builder = CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    Ok(parent.create_thread(http, builder).await?.id.get())
}

/// Posts the notice in its thread, then archives the thread: the game is over. A thread
/// the bot may not archive is left to Discord's own archiving.
pub async fn close_thread(http: &Http, notice: &Notice) -> Result<u64, serenity::Error> {
    let message = send_notice(http, notice).await?;
    let thread = channel_of(http, notice).await?;
    if let Err(error) = thread.edit_thread(http, EditThread::new().archived(true)).await {
        tracing::warn!(%error, thread = thread.get(), "a finished game's thread could not be archived");
    }
    Ok(message)
}

/// Edits `message` into the notice: its text, its pictures (instead of the old ones) and
/// its buttons. An edit pings no one anew.
pub async fn edit_notice(http: &Http, notice: &Notice, message: u64) -> Result<(), serenity::Error> {
    let channel = channel_of(http, notice).await?;
    let draft = Draft::new(&notice.message, notice.images.iter(), (&[], &notice.buttons));
    channel.edit_message(http, serenity::MessageId::new(message), draft.into_message_edit()).await?;
    Ok(())
}

/// A message's parts in Discord's terms, ready for any of serenity's message builders.
pub(super) struct Draft {
    content: String,
    files: Vec<CreateAttachment>,
    rows: Vec<CreateActionRow>,
    mentions: CreateAllowedMentions,
}

impl Draft {
    pub(super) fn of(reply: &Reply) -> Draft {
        let components = (reply.selects.as_slice(), reply.buttons.as_slice());
        Draft::new(&reply.message, reply.images.iter().chain(&reply.files), components)
    }

    fn new<'a>(
        message: &ServiceMessage,
        files: impl Iterator<Item = &'a Attachment>,
        (selects, buttons): (&[Select], &[Button]),
    ) -> Draft {
        let users: Vec<serenity::UserId> =
            message.mentions().iter().map(|user| serenity::UserId::new(user.0)).collect();
        Draft {
            content: content(&render(message)),
            files: files.map(|file| CreateAttachment::bytes(file.bytes.clone(), file.name.clone())).collect(),
            rows: rows(selects, buttons),
            // Only the users the message pings may be pinged: never @everyone or roles.
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

    fn into_message_edit(self) -> EditMessage {
        // Files replace those of the message edited.
        let edit = EditMessage::new().content(self.content).components(self.rows).remove_all_attachments();
        self.files.into_iter().fold(edit.allowed_mentions(self.mentions), EditMessage::new_attachment)
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

    #[test]
    fn pings_are_discord_mentions_and_the_only_ones_allowed() {
        let message =
            ServiceMessage::new().ping(crate::service::UserId(7), "bob").push(", ").name("<@8>").push(" moved.");
        assert_eq!(render(&message), r"<@7>, \<\@8\> moved.");
        let built = Draft::new(&message, std::iter::empty(), (&[], &[]));
        assert_eq!(built.content, render(&message));
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
