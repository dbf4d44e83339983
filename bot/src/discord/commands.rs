//! The slash commands of `docs/commands.md`, made from the service's one list of them
//! ([`COMMANDS`]): each becomes a poise command whose options Discord shows, and whose one
//! action reads the options, has the list make a typed [`Command`](crate::service::Command), hands it to the
//! service and sends its answer. Checks and wording are the service's.

use poise::serenity_prelude as serenity;
use serenity::{CommandOptionType, CreateCommandOption, ResolvedValue};

use super::answer::{self, Interaction};
use super::autocomplete;
use super::caller::{caller, display_name};
use super::types::{Context, Data, Error};
use crate::service::commands::{Args, COMMANDS, Kind, OptionSpec, Spec, Value, find};
use crate::service::{Field, Service, User};

type PoiseCommand = poise::Command<Data, Error>;
type ApplicationContext<'a> = poise::ApplicationContext<'a, Data, Error>;

/// Every command, for the framework and for registration. All are for servers only
/// (games belong to servers): Discord offers none in direct messages, and poise refuses one
/// that comes from there anyway.
pub fn all() -> Vec<PoiseCommand> {
    let mut commands: Vec<PoiseCommand> = Vec::new();
    for spec in COMMANDS {
        let Some((group, name)) = spec.group() else {
            commands.push(command(spec));
            continue;
        };
        // A subcommand (`tournament join`) goes under its command, made at its first.
        let mut sub = command(spec);
        (sub.name, sub.qualified_name) = (name.into(), spec.name.into());
        match commands.iter_mut().find(|made| made.name == group) {
            Some(parent) => parent.subcommands.push(sub),
            None => commands.push(PoiseCommand {
                name: group.into(),
                qualified_name: group.into(),
                identifying_name: group.into(),
                source_code_name: group.into(),
                description: Some(format!("/{group} and its subcommands.").into()),
                subcommands: vec![sub],
                subcommand_required: true,
                // Poise registers only commands with a slash action; Discord never invokes
                // a command with subcommands itself (`run` then finds no spec and does nothing).
                slash_action: Some(|ctx| Box::pin(run(ctx))),
                guild_only: true,
                install_context: Some(vec![serenity::InstallationContext::Guild]),
                ..PoiseCommand::default()
            }),
        }
    }
    commands
}

fn command(spec: &Spec) -> PoiseCommand {
    let permissions = if spec.admin { serenity::Permissions::MANAGE_GUILD } else { serenity::Permissions::empty() };
    PoiseCommand {
        name: spec.name.into(),
        qualified_name: spec.name.into(),
        identifying_name: spec.name.into(),
        source_code_name: spec.name.into(),
        description: Some(spec.description().into()),
        parameters: spec.options.iter().map(parameter).collect(),
        slash_action: Some(|ctx| Box::pin(run(ctx))),
        default_member_permissions: permissions,
        guild_only: true,
        install_context: Some(vec![serenity::InstallationContext::Guild]),
        ..PoiseCommand::default()
    }
}

// A parameter as poise's own macro makes it (its hidden fields filled by poise), for
// `parameter` to fill in from the list: no field of poise's is written by hand. (A doc
// comment here would become the command's description.)
#[poise::command(slash_command)]
async fn blank(_ctx: Context<'_>, #[description = "-"] _value: String) -> Result<(), Error> {
    Ok(())
}

fn parameter(option: &OptionSpec) -> poise::CommandParameter<Data, Error> {
    let mut parameter = blank().parameters.remove(0);
    parameter.name = option.name.into();
    parameter.description = Some(option.description.into());
    parameter.required = option.required;
    parameter.type_setter = Some(type_setter(option.kind));
    parameter.autocomplete_callback = match option.kind {
        Kind::Suggested(field) => Some(autocomplete_for(field)),
        _ => None,
    };
    parameter
}

type Setter = fn(CreateCommandOption) -> CreateCommandOption;

/// How Discord shows an option of this kind: its type, range or fixed choices.
fn type_setter(kind: Kind) -> Setter {
    fn choices(builder: CreateCommandOption, kind: Kind) -> CreateCommandOption {
        let builder = builder.kind(CommandOptionType::String);
        kind.choices().into_iter().fold(builder, |builder, name| builder.add_string_choice(name, name))
    }
    fn number(builder: CreateCommandOption, kind: Kind) -> CreateCommandOption {
        let (min, max) = kind.range().unwrap_or((0, 0));
        builder.kind(CommandOptionType::Integer).min_int_value(min.unsigned_abs()).max_int_value(max.unsigned_abs())
    }
    // A setter is a plain function, so each kind names its own.
    match kind {
        Kind::Text | Kind::Suggested(_) => |b| b.kind(CommandOptionType::String),
        Kind::User => |b| b.kind(CommandOptionType::User),
        Kind::Days => |b| number(b, Kind::Days),
        Kind::ExtraDays => |b| number(b, Kind::ExtraDays),
        Kind::VacationDays => |b| number(b, Kind::VacationDays),
        Kind::Page => |b| number(b, Kind::Page),
        Kind::Hour => |b| number(b, Kind::Hour),
        Kind::Status => |b| choices(b, Kind::Status),
        Kind::Game => |b| choices(b, Kind::Game),
        Kind::Color => |b| choices(b, Kind::Color),
        Kind::Notify => |b| choices(b, Kind::Notify),
        Kind::Level => |b| choices(b, Kind::Level),
        Kind::OnOff => |b| choices(b, Kind::OnOff),
        Kind::Format => |b| choices(b, Kind::Format),
        Kind::TournamentStatus => |b| choices(b, Kind::TournamentStatus),
        Kind::TournamentDays => |b| number(b, Kind::TournamentDays),
        Kind::Rounds => |b| number(b, Kind::Rounds),
        Kind::Division => |b| number(b, Kind::Division),
        Kind::Players => |b| number(b, Kind::Players),
    }
}

type Completer =
    for<'a> fn(ApplicationContext<'a>, &'a str) -> poise::BoxFuture<'a, serenity::CreateAutocompleteResponse>;

fn autocomplete_for(field: Field) -> Completer {
    match field {
        Field::Game => |ctx, typed| Box::pin(autocomplete::suggest(ctx, Field::Game, typed)),
        Field::Challenge => |ctx, typed| Box::pin(autocomplete::suggest(ctx, Field::Challenge, typed)),
        Field::Notation => |ctx, typed| Box::pin(autocomplete::suggest(ctx, Field::Notation, typed)),
        Field::Square => |ctx, typed| Box::pin(autocomplete::suggest(ctx, Field::Square, typed)),
    }
}

/// A value Discord sent that is not one of its option's fixed choices: what was sent, and
/// why it cannot be read.
type NotAChoice = (String, String);

/// The options Discord sent, as the list reads them. A value that is not one of an
/// option's fixed choices (Discord offers only those) cannot be read.
fn args(options: &[serenity::ResolvedOption<'_>], spec: &Spec) -> Result<Args, NotAChoice> {
    let mut args = Args::default();
    for option in options {
        let Some(known) = spec.option(option.name) else { continue };
        let value = match &option.value {
            ResolvedValue::String(text) => {
                let choices = known.kind.choices();
                if !choices.is_empty() && !choices.contains(text) {
                    return Err(((*text).to_owned(), format!("{text:?} is not one of {}", choices.join(", "))));
                }
                Value::Text((*text).to_owned())
            }
            ResolvedValue::Integer(number) => Value::Number(*number),
            ResolvedValue::User(user, _) => Value::User(User::new(user.id.get(), display_name(user, None))),
            _ => continue,
        };
        args.push(option.name, value);
    }
    Ok(args)
}

/// The one action of every command: reads the options, hands them to the service (which
/// makes the typed command, or refuses a bad value) and sends its answer.
async fn run(app: ApplicationContext<'_>) -> Result<(), poise::FrameworkError<'_, Data, Error>> {
    let ctx: Context<'_> = app.into();
    // A subcommand is found by its full name (`tournament join`).
    let Some(spec) = find(&ctx.command().qualified_name) else { return Ok(()) };
    let args = args(app.args, spec)
        .map_err(|(input, error)| poise::FrameworkError::new_argument_parse(ctx, Some(input), error.into()))?;
    let caller = caller(app.interaction);
    let interaction =
        Interaction { id: app.interaction.id, token: &app.interaction.token, press: false, private: spec.private };
    tracing::debug!(command = spec.name, user = caller.user.id.0, "command");
    let handle = move |service: &Service| service.handle_args(&caller, spec, &args);
    let answered = answer::answer(ctx.http(), interaction, ctx.data(), handle).await;
    // Whatever happened, an error must not try to answer the interaction a second time.
    app.has_sent_initial_response.store(true, std::sync::atomic::Ordering::SeqCst);
    answered.map(|_reply| ()).map_err(|error| poise::FrameworkError::new_command(ctx, error))
}
