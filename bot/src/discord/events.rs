//! Gateway events besides slash commands: button presses go to the service, whose
//! `custom_id`s (`accept:12`, `resign:12`) carry the action and the game, so buttons keep
//! working after a restart.

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, FullEvent};
use tracing::{debug, info};

use super::commands::caller_of;
use super::reply::{self, Interaction};
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
    let interaction = Interaction { id: press.id, token: &press.token };
    let http = &framework.serenity_context.http;
    reply::answer(http, interaction, framework.user_data, move |service| service.press(&caller, &custom_id)).await
}
