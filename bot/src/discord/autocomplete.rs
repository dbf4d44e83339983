//! Autocompletion of `game`, `challenge`, `notation` and `square` options: the service
//! suggests, Discord shows at most 25. Suggestions are only help; whatever the user
//! finally submits is parsed and checked again by the service.

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CommandDataOptionValue, CommandInteraction, CreateAutocompleteResponse};

use super::caller::caller;
use super::types::{Data, Error};
use crate::service::Field;
use crate::service::commands::find;

/// Discord's limits: 25 choices, names and values of at most 100 characters.
const MAX_CHOICES: usize = 25;
const MAX_CHOICE_LENGTH: usize = 100;

/// The suggestions for `field` while `partial` is typed.
pub async fn suggest(
    app: poise::ApplicationContext<'_, Data, Error>,
    field: Field,
    partial: &str,
) -> CreateAutocompleteResponse {
    let caller = caller(app.interaction);
    // The game the other option names (as typed), under whatever name the command gives it.
    let spec = find(&app.interaction.data.name);
    let typed_game =
        spec.and_then(|spec| spec.suggested(Field::Game)).and_then(|option| option_text(app.interaction, option.name));
    let partial = cut(partial);
    let service = poise::Context::from(app).data().service.clone();
    let work = move || service.autocomplete(&caller, field, &partial, typed_game.as_deref());
    let choices = match tokio::task::spawn_blocking(work).await {
        Ok(choices) => choices,
        Err(error) => {
            tracing::warn!(%error, "autocomplete failed");
            Vec::new()
        }
    };
    let choices = choices.into_iter().take(MAX_CHOICES).map(|c| AutocompleteChoice::new(cut(&c.name), cut(&c.value)));
    CreateAutocompleteResponse::new().set_choices(choices.collect())
}

/// What the user has typed so far in another option (`game` while completing `notation`).
fn option_text(interaction: &CommandInteraction, name: &str) -> Option<String> {
    let option = interaction.data.options.iter().find(|option| option.name == name)?;
    match &option.value {
        CommandDataOptionValue::String(text) => Some(cut(text)),
        CommandDataOptionValue::Autocomplete { value, .. } => Some(cut(value)),
        CommandDataOptionValue::Integer(number) => Some(number.to_string()),
        _ => None,
    }
}

fn cut(text: &str) -> String {
    text.chars().take(MAX_CHOICE_LENGTH).collect()
}
