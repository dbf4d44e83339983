//! The Discord adapter: `stonemate run`. A thin layer over the game service built on
//! serenity and poise: the commands are registered from the service's one list of them
//! and each makes one service call (`commands.rs`), buttons go to the service too (`events.rs`), answers and notices go
//! back as Discord messages (`reply.rs`), a background task puts in the outbox what falls
//! due (`ticker.rs`), and another sends the outbox's notices (`outbox.rs`).

mod answer;
mod autocomplete;
mod caller;
pub mod commands;
mod events;
mod patience;
mod permissions;
mod reply;
mod sender;
mod ticker;
pub mod token;
pub mod types;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use poise::serenity_prelude as serenity;
use serenity::{ClientBuilder, CreateAllowedMentions, GatewayIntents, GuildId, HttpBuilder};
use tokio::sync::{RwLock, mpsc, watch};
use tracing::{error, info, warn};

use crate::ai_pool::{Answer, Pool};
use crate::clock::{DeadlineStyle, SystemClock};
use crate::config::{Config, Secret};
use crate::service::{GameId, Service, Settings, User, text};
use crate::shards::ShardRange;
use crate::store::{Closing, Store, StoreError};
use patience::Try;
use types::{Data, Error};

/// How long shutdown waits for commands being handled before it flushes anyway.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// How often the outbox's sender looks for notices falling due (retries) unwoken.
const OUTBOX_EVERY: Duration = Duration::from_secs(1);
/// How long shutdown waits for the gateway connection to close.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);

/// Runs the bot on the configured database until Ctrl-C or SIGTERM, once Discord has
/// accepted the token (nothing is opened before).
pub async fn run(config: Config) -> anyhow::Result<()> {
    let (stopping, stopped) = watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        stopping.send_replace(true);
    });
    let until_stopped = |mut stopped: watch::Receiver<bool>| async move {
        let _ = stopped.wait_for(|stop| *stop).await;
    };
    let http = http(config.token()?, config.discord.api_base.as_deref());
    token::check(&http, until_stopped(stopped.clone())).await?;
    let (service, closing) = open_service_when_reachable(&config, until_stopped(stopped.clone())).await?;
    let outcome = serve(config, service, until_stopped(stopped)).await;
    // `serve` closed the store: a run that wrote leaves sled a snapshot, so that the next
    // start does not read the whole run's log again (off the runtime: it reads the disk).
    match tokio::task::spawn_blocking(move || closing.settle()).await {
        Ok(Ok(true)) => info!("the database has a fresh snapshot"),
        Ok(Ok(false)) => {}
        Ok(Err(error)) => warn!(%error, "no snapshot at the end: the next start reads this run's log"),
        Err(error) => warn!(%error, "the snapshot at the end failed"),
    }
    outcome
}

/// The game service on the configured database, with the real clock.
///
/// # Errors
/// When the database cannot be opened.
pub fn open_service(config: &Config) -> anyhow::Result<Service> {
    let store = crate::store::open_at(&config.database).with_context(|| cannot_open(config))?;
    Ok(service_on(store, config))
}

fn cannot_open(config: &Config) -> String {
    format!("cannot open the database at {}", crate::store::shown(&config.database))
}

/// [`open_service`] off the runtime's threads (a PostgreSQL store's client blocks, and
/// panics on them), trying again while the database server does not answer (it may be
/// starting with the machine), until `stop` completes.
async fn open_service_when_reachable(
    config: &Config,
    stop: impl Future<Output = ()>,
) -> anyhow::Result<(Service, Closing)> {
    let (store, closing) = patience::until_done("the database", stop, || {
        let database = config.database.clone();
        async move {
            match tokio::task::spawn_blocking(move || crate::store::open_closing(&database)).await {
                Ok(Ok(opened)) => Try::Done(opened),
                Ok(Err(StoreError::Unreachable(why))) => Try::Again(why),
                Ok(Err(error)) => Try::Fatal(anyhow::Error::new(error).context(cannot_open(config))),
                Err(panicked) => Try::Fatal(anyhow::Error::new(panicked).context(cannot_open(config))),
            }
        }
    })
    .await?;
    Ok((service_on(store, config), closing))
}

/// The game service on `store`, with the real clock and the config's settings.
fn service_on(store: Store, config: &Config) -> Service {
    let settings = Settings {
        default_days: config.default_days,
        deadlines: DeadlineStyle::Discord,
        reminders: config.reminders.clone(),
        vacation_days_per_year: config.vacation_days_per_year,
        timeouts: config.timeouts,
        ..Settings::default()
    };
    Service::new(store, Arc::new(SystemClock), settings)
}

/// Runs the bot with `service` until `stop` completes, then shuts down cleanly: closes
/// the gateway, waits for the commands in progress, and closes the database.
pub async fn serve(
    config: Config,
    service: Service,
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let token = config.token()?.clone();
    let bot_http = Arc::new(http(&token, config.discord.api_base.as_deref()));
    let busy = Arc::new(RwLock::new(()));
    let (service, pool, answers) = with_bot(&bot_http, service, config.ai_workers).await;
    let service = Arc::new(service);
    let outbox = Arc::new(sender::Outbox::new(service.clone(), bot_http.clone()));
    let answering = tokio::spawn(apply_answers(outbox.clone(), service.clone(), busy.clone(), answers));
    let defer_after = Duration::from_millis(config.discord.defer_ms);
    let data = Data { service: service.clone(), busy: busy.clone(), defer_after, outbox: outbox.clone() };
    // With shards split over processes, the one running shard 0 registers the commands
    // and checks the servers' permissions.
    let registers = config.shards.is_none_or(ShardRange::runs_first_shard);
    let checking = if registers { permissions::check_at_start(bot_http, &service).await } else { None };
    let http = http(&token, config.discord.api_base.as_deref());
    let guilds = if registers { Some(config.discord.guilds.clone()) } else { None };
    let framework = framework(data, guilds);
    let mut client = ClientBuilder::new_with_http(http, GatewayIntents::empty())
        .framework(framework)
        .await
        .context("cannot build the Discord client")?;

    let (stop_ticker, ticking) = watch::channel(false);
    let every = Duration::from_secs(config.tick_seconds);
    let backups = config.backups()?.map(|backups| {
        info!(dir = %backups.dir().display(), "scheduled exports on");
        tokio::spawn(backups.run(service.clone(), busy.clone(), every, ticking.clone()))
    });
    let ticker = tokio::spawn(ticker::run(outbox.clone(), service.clone(), busy.clone(), every, ticking.clone()));
    // Sends what an earlier run left in the outbox at once, then whatever falls due.
    let sender = tokio::spawn(outbox.run(OUTBOX_EVERY, ticking));

    let shards = config.shards.map_or_else(|| "all".to_owned(), |range| range.to_string());
    info!(database = %crate::store::shown(&config.database), %shards, "starting");
    let outcome = connect_until(&mut client, config.shards, stop).await.context("the Discord connection failed");
    stop_ticker.send_replace(true);
    // A check under way says what it found (a slow Discord does not hold the stop up).
    if let Some(mut checking) = checking
        && tokio::time::timeout(CLOSE_TIMEOUT, &mut checking).await.is_err()
    {
        checking.abort();
    }
    let _ = ticker.await;
    if let Some(backups) = backups {
        let _ = backups.await;
    }
    // Notices it did not send stay in the outbox for the next start.
    let _ = sender.await;
    // Running searches finish (each is bounded) and their answers are applied; waiting
    // ones are asked again at the next start.
    if let Some(pool) = pool {
        let _ = tokio::task::spawn_blocking(move || pool.shutdown()).await;
    }
    answering.abort();
    let _ = answering.await;
    if tokio::time::timeout(DRAIN_TIMEOUT, busy.write()).await.is_err() {
        warn!("commands still running after {DRAIN_TIMEOUT:?}; closing the database anyway");
    }
    // Every write of the store is durable when it returns; dropping the last handle
    // closes the database, off the runtime's threads (PostgreSQL's client blocks there).
    drop(client);
    // A shard runner's task may still hold the framework (and with it the service) for a
    // moment; the last handle must not be dropped on the runtime, so wait for it.
    let waited = tokio::time::timeout(CLOSE_TIMEOUT, async {
        while Arc::strong_count(&service) > 1 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    if waited.await.is_err() {
        warn!("the gateway still holds the service after {CLOSE_TIMEOUT:?}; closing the database anyway");
    }
    let _ = tokio::task::spawn_blocking(move || drop(service)).await;
    info!("stopped");
    outcome
}

/// Lets Stonemate's own player play as the bot's Discord user (asked of Discord): its
/// questions go to a worker pool, its answers come back on the returned receiver. Without
/// the current user (Discord did not say), the service runs without it.
async fn with_bot(
    http: &serenity::Http,
    service: Service,
    workers: usize,
) -> (Service, Option<Arc<Pool<GameId>>>, mpsc::UnboundedReceiver<Answer<GameId>>) {
    let (sender, answers) = mpsc::unbounded_channel();
    let me = match http.get_current_user().await {
        Ok(me) => me,
        Err(error) => {
            warn!(%error, "cannot learn the bot's own user: it will not play");
            return (service, None, answers);
        }
    };
    let user = User::new(me.id.get(), me.name.clone());
    let pool = Arc::new(Pool::new(workers, 1, Arc::new(move |answer| drop(sender.send(answer)))));
    let submit = Arc::clone(&pool);
    // Reads the bot's games, off the runtime's threads like every store call.
    let submit = move |job| {
        submit.submit(job);
    };
    let joined = tokio::task::spawn_blocking(move || service.with_bot(user, submit)).await;
    let service = joined.unwrap_or_else(|panicked| std::panic::resume_unwind(panicked.into_panic()));
    (service, Some(pool), answers)
}

/// Applies the bot's answers as they come and has what they make sent, like the ticker.
async fn apply_answers(
    outbox: Arc<sender::Outbox>,
    service: Arc<Service>,
    busy: Arc<RwLock<()>>,
    mut answers: mpsc::UnboundedReceiver<Answer<GameId>>,
) {
    while let Some(answer) = answers.recv().await {
        let _busy = busy.read().await;
        let applying = service.clone();
        match tokio::task::spawn_blocking(move || applying.apply_answer(answer)).await {
            Ok(_) => outbox.wake(),
            Err(error) => error!(%error, "applying the bot's answer failed"),
        }
    }
}

/// Runs the gateway connection (of `range`'s shards, else the only one) until it fails or
/// `stop` completes; then closes it.
async fn connect_until(
    client: &mut serenity::Client,
    range: Option<ShardRange>,
    stop: impl Future<Output = ()>,
) -> Result<(), serenity::Error> {
    let shards = client.shard_manager.clone();
    let mut start = std::pin::pin!(async {
        match range {
            // serenity's `Range` end is the last shard *included* (its start_connection
            // boots `end - start + 1` shards), so `first..last` is FIRST-LAST.
            Some(range) => client.start_shard_range(range.first()..range.last(), range.total()).await,
            None => client.start().await,
        }
    });
    tokio::select! {
        outcome = &mut start => outcome,
        () = stop => {
            info!("shutting down");
            shards.shutdown_all().await;
            // Before the first shard is up there is nothing to close and start() runs on.
            tokio::time::timeout(CLOSE_TIMEOUT, start).await.unwrap_or(Ok(()))
        }
    }
}

/// The HTTP client, pointed at `api_base` when set. serenity only honours the base with
/// its rate limiter off, so behind `api_base` rate limits are the proxy's business (a
/// test double has none).
fn http(token: &Secret, api_base: Option<&str>) -> serenity::Http {
    // Nothing may ping unless a message says whom.
    let builder = HttpBuilder::new(token.expose()).default_allowed_mentions(no_pings());
    let Some(base) = api_base else { return builder.build() };
    let builder = builder.proxy(base).ratelimiter_disabled(true);
    // An HTTP_PROXY meant for the outside world must not swallow a local address.
    match is_loopback(base).then(|| reqwest::Client::builder().use_rustls_tls().no_proxy().build()) {
        Some(Ok(client)) => builder.client(client).build(),
        _ => builder.build(),
    }
}

fn is_loopback(base: &str) -> bool {
    let host = base.split("://").nth(1).unwrap_or("");
    ["127.", "localhost", "[::1]"].iter().any(|local| host.starts_with(local))
}

/// The framework; it registers the commands in `guilds` (see [`register`]) unless `None`.
fn framework(data: Data, guilds: Option<Vec<u64>>) -> poise::Framework<Data, Error> {
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        // poise's own replies (its error messages quote what the user typed) ping nobody.
        allowed_mentions: Some(no_pings()),
        on_error: |error| Box::pin(on_error(error)),
        event_handler: |framework, event| Box::pin(events::on_event(framework, event)),
        ..Default::default()
    };
    poise::Framework::builder()
        .options(options)
        .initialize_owners(false)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                match guilds {
                    Some(guilds) => register(ctx, &framework.options().commands, &guilds).await,
                    None => info!("the process running shard 0 registers the commands"),
                }
                Ok(data)
            })
        })
        .build()
}

/// Registers the commands in the configured guilds (at once), else globally. A failure is
/// logged: the bot still answers the commands Discord already knows.
async fn register(ctx: &serenity::Context, commands: &[poise::Command<Data, Error>], guilds: &[u64]) {
    if guilds.is_empty() {
        match poise::builtins::register_globally(ctx, commands).await {
            Ok(()) => info!(count = commands.len(), "registered the commands globally"),
            Err(error) => error!(%error, "could not register the commands globally"),
        }
    }
    for &guild in guilds {
        match poise::builtins::register_in_guild(ctx, commands, GuildId::new(guild)).await {
            Ok(()) => info!(count = commands.len(), guild, "registered the commands"),
            Err(error) => error!(%error, guild, "could not register the commands"),
        }
    }
}

/// Every error ends as a private reply to whoever ran the command, and in the log.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            error!(command = %ctx.command().name, %error, "command failed");
            private(ctx, "Sorry, something went wrong on the bot's side. Please try again.").await;
        }
        poise::FrameworkError::ArgumentParse { error, input, ctx, .. } => {
            // Both quote what the user typed: escaped, so that it cannot mention or format.
            let error = text::name(&error.to_string());
            let text = match input {
                Some(input) => format!("Could not read {}: {error}", text::name(&format!("{input:?}"))),
                None => format!("Could not read the options: {error}"),
            };
            private(ctx, &text).await;
        }
        poise::FrameworkError::CommandStructureMismatch { description, ctx, .. } => {
            warn!(command = %ctx.command().name, description, "Discord sent an outdated command");
            private(ctx.into(), "This command has changed; Discord will show the new version shortly.").await;
        }
        other => {
            if let Err(error) = poise::builtins::on_error(other).await {
                error!(%error, "could not report an error");
            }
        }
    }
}

/// Mentions allowed in a message that must ping nobody.
fn no_pings() -> CreateAllowedMentions {
    CreateAllowedMentions::new().everyone(false).empty_roles().empty_users()
}

async fn private(ctx: types::Context<'_>, text: &str) {
    let reply = poise::CreateReply::default().content(text).ephemeral(true).allowed_mentions(no_pings());
    if let Err(error) = ctx.send(reply).await {
        warn!(%error, "could not send an error reply");
    }
}

/// Completes at Ctrl-C or (on Unix) SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
