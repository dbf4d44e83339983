//! Gateway events besides slash commands: button presses and select menu choices go to
//! the service, whose `custom_id`s (`accept:12`, `resign:12`, `pick:12:3:R`) carry the
//! action and the game, so components keep working after a restart.

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, FullEvent};
use tracing::{debug, info, warn};

use super::answer::{self, Interaction};
use super::caller::caller_of;
use super::types::{Data, Error};

/// Discord's limit on a `custom_id`; anything longer did not come from us.
const MAX_CUSTOM_ID: usize = 100;

pub async fn on_event(framework: poise::FrameworkContext<'_, Data, Error>, event: &FullEvent) -> Result<(), Error> {
    match event {
        FullEvent::Ready { data_about_bot } => {
            info!(user = %data_about_bot.user.name, "connected to the Discord gateway");
        }
        FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(press) } => {
            on_press(framework, press).await?;
        }
        _ => {}
    }
    Ok(())
}

async fn on_press(
    framework: poise::FrameworkContext<'_, Data, Error>,
    press: &ComponentInteraction,
) -> Result<(), Error> {
    let caller = caller_of(&press.user, press.member.as_ref(), press.channel_id, press.guild_id);
    let custom_id: String = press.data.custom_id.chars().take(MAX_CUSTOM_ID).collect();
    debug!(%custom_id, user = caller.user.id.0, "button");
    let interaction = Interaction { id: press.id, token: &press.token, press: true, private: false };
    let http = &framework.serenity_context.http;
    // A select menu sends the value chosen; a button nothing.
    let chosen = match &press.data.kind {
        serenity::ComponentInteractionDataKind::StringSelect { values } => {
            Some(values.first().cloned().unwrap_or_default())
        }
        _ => None,
    };
    let reply = answer::answer(http, interaction, framework.user_data, move |service| match chosen {
        Some(value) => service.select(&caller, &custom_id, &value),
        None => service.press(&caller, &custom_id),
    })
    .await?;
    // A step of `/history` is the message itself, buttons and all.
    if reply.ok && !reply.private && !reply.replaces_message {
        retire_buttons(http, press).await;
    }
    Ok(())
}

/// Takes the buttons off a message once one of them has done its work (the challenge is
/// accepted or declined, the draw offer answered), so that nobody presses them again. A
/// private message cannot be edited this way; there the service refuses a second press.
async fn retire_buttons(http: &serenity::Http, press: &ComponentInteraction) {
    let private = press.message.flags.is_some_and(|flags| flags.contains(serenity::MessageFlags::EPHEMERAL));
    if private || press.message.components.is_empty() {
        return;
    }
    let edit = serenity::EditMessage::new().components(Vec::new());
    if let Err(error) = press.channel_id.edit_message(http, press.message.id, edit).await {
        warn!(%error, message = %press.message.id, "could not take the buttons off a message");
    }
}
