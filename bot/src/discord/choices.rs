//! The fixed-choice options of `commands.md` (`game`, `color`, `mode`) as enums. Discord
//! shows the names and sends them back as string values (poise's own choice parameters
//! would send list indexes); a value that is not one of the choices is refused.

use poise::serenity_prelude as serenity;

/// Declares an enum whose variants are the string choices of a slash-command option.
macro_rules! string_choices {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The choice as users see and type it.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn from_name(text: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|choice| choice.name() == text)
            }
        }

        #[poise::async_trait]
        impl poise::SlashArgument for $name {
            async fn extract(
                _: &serenity::Context,
                _: &serenity::CommandInteraction,
                value: &serenity::ResolvedValue<'_>,
            ) -> Result<Self, poise::SlashArgError> {
                match value {
                    serenity::ResolvedValue::String(text) => {
                        $name::from_name(text).ok_or_else(|| not_a_choice(text, Self::ALL.iter().map(|c| c.name())))
                    }
                    _ => Err(poise::SlashArgError::new_command_structure_mismatch("expected a string choice")),
                }
            }

            fn create(builder: serenity::CreateCommandOption) -> serenity::CreateCommandOption {
                Self::ALL.iter().fold(builder.kind(serenity::CommandOptionType::String), |builder, choice| {
                    builder.add_string_choice(choice.name(), choice.name())
                })
            }
        }
    };
}

string_choices! {
    /// The five games.
    GameChoice { Chego => "chego", Gess => "gess", Ichess => "ichess", Go => "go", Chogo => "chogo" }
}

string_choices! {
    /// The challenger's colour.
    ColorChoice { White => "white", Black => "black", Random => "random" }
}

string_choices! {
    /// How a player is told that it is his turn.
    NotifyChoice { Channel => "channel", Dm => "dm", Off => "off" }
}

fn not_a_choice<'a>(text: &str, choices: impl Iterator<Item = &'a str>) -> poise::SlashArgError {
    let choices: Vec<&str> = choices.collect();
    let error = format!("{text:?} is not one of {}", choices.join(", "));
    poise::SlashArgError::new_parse(error.into(), text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_through_their_names() {
        for game in GameChoice::ALL {
            assert_eq!(GameChoice::from_name(game.name()), Some(*game));
        }
        assert_eq!(GameChoice::ALL.len(), 5);
        assert_eq!(ColorChoice::from_name("random"), Some(ColorChoice::Random));
        assert_eq!(NotifyChoice::from_name("dm"), Some(NotifyChoice::Dm));
        assert_eq!(GameChoice::from_name("chess"), None);
    }
}
