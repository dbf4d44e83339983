//! Answers an interaction with the service's reply, within Discord's 3-second limit
//! (deferring when the service is slow, or when the outbox's sender keeps the reply
//! waiting), then wakes the outbox's sender ([`super::sender`]) for the notices.

use poise::serenity_prelude as serenity;
use serenity::builder::Builder;
use serenity::{CreateInteractionResponse, CreateInteractionResponseMessage, Http, InteractionId};

use super::reply::{Draft, exit_if_stopped};
use super::types::{Data, Error};
use crate::service::{Reply, Response, Service};

/// The interaction being answered: a slash command or a button press.
#[derive(Debug, Clone, Copy)]
pub struct Interaction<'a> {
    pub id: InteractionId,
    pub token: &'a str,
    /// A button press: deferring it acknowledges the press without a placeholder message
    /// (Discord's DEFERRED_UPDATE_MESSAGE), so that the reply can still replace the
    /// pressed message ([`Reply::replaces_message`]) or come as a new one.
    pub press: bool,
    /// A command whose answer is private (declared so in the command list): a deferral
    /// shows its "thinking…" to the caller only, not to the whole channel.
    pub private: bool,
}

/// Runs `call` (one service call: it may render, so it is CPU work) off the async
/// executor, answers the interaction with its reply, then has its notices sent (from the
/// outbox, where the call wrote them; none goes out before the reply). Discord
/// wants an answer within 3 s: past `data.defer_after` the interaction is deferred first.
/// Returns the reply that was sent.
pub async fn answer(
    http: &Http,
    interaction: Interaction<'_>,
    data: &Data,
    call: impl FnOnce(&Service) -> Response + Send + 'static,
) -> Result<Reply, Error> {
    // Discord's clock starts now: nothing below (the shutdown gate, the outbox's sender
    // holding the replies back, a slow call) may keep the acknowledgement past it.
    let deadline = tokio::time::Instant::now() + data.defer_after;
    let mut deferred = data.defer_after.is_zero();
    if deferred {
        defer(http, interaction).await?;
    }
    // Shutdown waits for this before it closes the database.
    let _busy = data.busy.clone().read_owned().await;
    let replying = match tokio::time::timeout_at(deadline, data.outbox.replying()).await {
        Ok(replying) => replying,
        Err(_) => {
            if !deferred {
                defer(http, interaction).await?;
                deferred = true;
            }
            data.outbox.replying().await
        }
    };
    let service = data.service.clone();
    let mut task = tokio::task::spawn_blocking(move || call(&service));
    let in_time = match deferred {
        true => None,
        false => tokio::time::timeout_at(deadline, &mut task).await.ok(),
    };
    let response = match in_time {
        Some(done) => {
            let response = done?;
            let message = Draft::of(&response.reply).into_response().ephemeral(response.reply.private);
            let message = match response.reply.replaces_message {
                true => CreateInteractionResponse::UpdateMessage(message),
                false => CreateInteractionResponse::Message(message),
            };
            message.execute(http, (interaction.id, interaction.token)).await?;
            response
        }
        None => {
            if !deferred {
                defer(http, interaction).await?;
            }
            let response = task.await?;
            finish_deferred(http, interaction, &response.reply).await?;
            response
        }
    };
    drop(replying);
    data.outbox.wake();
    exit_if_stopped(&data.service);
    Ok(response.reply)
}

/// Acknowledges the interaction before its answer is ready: a press without a placeholder,
/// a command with a "thinking…" seen by whoever will see the answer.
async fn defer(http: &Http, interaction: Interaction<'_>) -> Result<(), Error> {
    let defer = match interaction.press {
        true => CreateInteractionResponse::Acknowledge,
        false => {
            CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(interaction.private))
        }
    };
    defer.execute(http, (interaction.id, interaction.token)).await?;
    Ok(())
}

/// Completes a deferred ("thinking…") reply. An edit neither pings nor changes who sees
/// the message, so a reply seen by others than the placeholder was, or one with mentions,
/// replaces it with a new follow-up.
async fn finish_deferred(http: &Http, interaction: Interaction<'_>, reply: &Reply) -> Result<(), Error> {
    let message = Draft::of(reply);
    if interaction.press {
        // The original message of an acknowledged press is the pressed one: a step of
        // `/history` edits it, any other answer is a new message.
        if reply.replaces_message {
            message.into_edit().execute(http, interaction.token).await?;
        } else {
            message.into_followup().ephemeral(reply.private).execute(http, (None, interaction.token)).await?;
        }
        return Ok(());
    }
    // The placeholder is seen as the command was declared; an edit keeps that.
    if reply.private == interaction.private && reply.message.mentions().is_empty() {
        message.into_edit().execute(http, interaction.token).await?;
    } else {
        http.delete_original_interaction_response(interaction.token).await?;
        let followup = message.into_followup().ephemeral(reply.private);
        followup.execute(http, (None, interaction.token)).await?;
    }
    Ok(())
}
