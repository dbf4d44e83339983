//! The command line: `stonemate replay` and the other subcommands.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::output;
use crate::replay::{self, RecordArgs, read_record};

/// Slow, correspondence-style chess/go hybrids on Discord.
#[derive(Debug, Parser)]
#[command(name = "stonemate", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The tools of `stonemate`, one per subcommand.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Plays a record and prints the position as JSON (exit 1 at an illegal turn).
    Replay(RecordArgs),
    /// Plays on a local database from lines on standard input, without Discord.
    Console(ConsoleArgs),
    /// Draws the position after a record as a PNG, or the whole game as a GIF (--animate).
    Render(crate::render_cmd::RenderArgs),
    /// Runs the Discord bot until Ctrl-C or SIGTERM (token from DISCORD_TOKEN).
    Run(RunArgs),
    /// Prints the turn the bot would play after a record (exit 1 at an illegal turn).
    Suggest(crate::suggest::SuggestArgs),
    /// Writes every record of a stopped bot's database as JSON Lines (to FILE or stdout).
    Export(BackupArgs),
    /// Reads an export (FILE or stdin) into an empty database.
    Import(BackupArgs),
}

/// `stonemate export|import [--data DIR | --database URL] [FILE]`.
#[derive(Debug, clap::Args)]
pub struct BackupArgs {
    /// The database directory (default: stonemate-data).
    #[arg(long, value_name = "DIR", default_value = crate::console::DEFAULT_DATA)]
    pub data: PathBuf,
    /// A PostgreSQL database instead (`postgres://user@host:port/name`).
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    pub database: Option<String>,
    /// The export file (default: standard output for export, standard input for import).
    pub file: Option<PathBuf>,
}

/// Where the bot's settings are.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The settings file (see config.example.toml); a missing file means the defaults,
    /// overridden by the environment.
    #[arg(long, value_name = "FILE", default_value = "config.toml")]
    pub config: PathBuf,
    /// The database directory (overrides the `database` setting).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// A PostgreSQL database instead (`postgres://...`; overrides the `database` setting).
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    pub database: Option<String>,
    /// The Discord shards this process runs, `FIRST-LAST/TOTAL` (e.g. `0-1/4`; overrides
    /// the `shards` setting): several processes share one token, each with its own range.
    #[arg(long, value_name = "FIRST-LAST/TOTAL")]
    pub shards: Option<crate::shards::ShardRange>,
}

/// `stonemate console [--data DIR | --database URL] [--out DIR] [--json] [--timeouts MODE]`.
#[derive(Debug, clap::Args)]
pub struct ConsoleArgs {
    /// The database directory (default: stonemate-data).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// A PostgreSQL database instead (`postgres://...`); images then go to `out` here.
    #[arg(long, value_name = "URL", conflicts_with = "data")]
    pub database: Option<String>,
    /// Where images and files are written (default: `out` next to the database).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Print every reply as one JSON object per line.
    #[arg(long)]
    pub json: bool,
    /// What a turn whose time runs out does, as the `timeouts` setting of `stonemate
    /// run`: `automatic` (the player loses at once) or `claim` (the opponent may /claim).
    #[arg(long, value_name = "MODE", default_value = "automatic")]
    pub timeouts: crate::service::Timeouts,
}

/// Runs a parsed command line; the exit status follows `docs/replay-cli.md` (2: bad arguments).
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Replay(args) => run_replay(&args),
        Command::Console(args) => crate::console::main(console_options(args)),
        Command::Run(args) => run_bot(&args),
        Command::Render(args) => crate::render_cmd::run(&args),
        Command::Suggest(args) => crate::suggest::run(&args),
        Command::Export(args) => run_backup("export", &args, export),
        Command::Import(args) => run_backup("import", &args, import),
    }
}

fn console_options(args: ConsoleArgs) -> crate::console::Options {
    let options = match args.database {
        Some(address) => crate::console::Options::at_address(&address, args.out, args.json),
        None => crate::console::Options::new(args.data, args.out, args.json),
    };
    crate::console::Options { timeouts: args.timeouts, ..options }
}

impl BackupArgs {
    /// The database named: the address of `--database`, else the directory of `--data`.
    fn location(&self) -> PathBuf {
        self.database.as_ref().map_or_else(|| self.data.clone(), PathBuf::from)
    }
}

/// Runs `export` or `import`; errors go to standard error, exit 1.
fn run_backup(name: &str, args: &BackupArgs, action: fn(&BackupArgs) -> Result<String, String>) -> ExitCode {
    match action(args) {
        Ok(summary) => {
            output::error(&format!("stonemate {name}: {summary}"));
            ExitCode::SUCCESS
        }
        Err(error) => {
            output::error(&format!("stonemate {name}: {error}"));
            ExitCode::FAILURE
        }
    }
}

/// A progress line on standard error, only when it is a terminal (`None` otherwise):
/// `what` counted as they go, with the rate.
fn progress_bar(total_bytes: Option<u64>, what: &str) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let (bar, template) = match total_bytes {
        Some(total) => (
            indicatif::ProgressBar::new(total),
            format!("{{bar:30}} {{bytes}}/{{total_bytes}} {{msg}} {what} ({{eta}} left)"),
        ),
        None => (indicatif::ProgressBar::new_spinner(), format!("{{spinner}} {{msg}} {what} ({{elapsed}})")),
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template).unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(4));
    Some(bar)
}

fn export(args: &BackupArgs) -> Result<String, String> {
    use crate::store::export::export_with;
    // A backup on read-only media is read from a copy: sled writes whatever it opens.
    let copy = crate::store::ReadOnlyCopy::of(&args.location())?;
    let location = copy.as_ref().map_or_else(|| args.location(), |copy| copy.path().to_owned());
    // On sled, a small page cache and no full check beside it: the export reads every
    // record once, and replays each game it writes.
    let (store, _) = &crate::store::open_streaming(&location).map_err(|e| e.to_string())?;
    let bar = progress_bar(None, "records written");
    let mut progress = |lines: usize| {
        if let Some(bar) = &bar {
            bar.set_message(lines.to_string());
            bar.tick();
        }
    };
    let lines = match &args.file {
        Some(file) => {
            let out = std::fs::File::create(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let mut out = std::io::BufWriter::new(out);
            let lines = export_with(store, &mut out, &mut progress).map_err(|e| e.to_string())?;
            let out = out.into_inner().map_err(|e| e.to_string())?;
            out.sync_all().map_err(|e| format!("{}: {e}", file.display()))?;
            lines
        }
        None => export_with(store, std::io::BufWriter::new(std::io::stdout().lock()), &mut progress)
            .map_err(|e| e.to_string())?,
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let noun = if lines == 1 { "record" } else { "records" };
    if copy.is_some() {
        return Ok(format!("{lines} {noun} written (from a copy: {} is read-only)", args.location().display()));
    }
    Ok(format!("{lines} {noun} written"))
}

fn import(args: &BackupArgs) -> Result<String, String> {
    use crate::store::export::import_with;
    // The file first: a missing one must not leave an empty database behind.
    let (input, size): (Box<dyn std::io::BufRead>, Option<u64>) = match &args.file {
        Some(file) => {
            let input = std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let size = input.metadata().ok().map(|metadata| metadata.len());
            (Box::new(std::io::BufReader::with_capacity(1 << 16, input)), size)
        }
        None => (Box::new(std::io::stdin().lock()), None),
    };
    let location = args.location();
    // On sled, a small page cache: the import writes each page once.
    let (store, closing) = crate::store::open_streaming(&location).map_err(|e| e.to_string())?;
    let bar = progress_bar(size, "games imported");
    let mut progress = |bytes: u64, games: usize| {
        if let Some(bar) = &bar {
            bar.set_position(bytes);
            bar.set_message(games.to_string());
        }
    };
    let games = import_with(&store, input, &mut progress).map_err(|e| e.to_string())?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    // Every record replays, and the index is rebuilt as the check expects.
    crate::store::check::check(&store).map_err(|damage| damage.to_string())?;
    drop(store);
    // On sled, so that the first start reads a snapshot, not the whole import.
    closing.settle().map_err(|e| e.to_string())?;
    let noun = if games == 1 { "game" } else { "games" };
    Ok(format!("{games} {noun} imported into {}", crate::store::shown(&location)))
}

fn run_bot(args: &RunArgs) -> ExitCode {
    // Settings and token are checked before anything starts: exit 2 like bad arguments.
    let mut config = match crate::config::Config::load(&args.config) {
        Ok(config) => config,
        Err(error) => return bad_settings(&error),
    };
    if let Err(error) = config.token() {
        return bad_settings(&error);
    }
    if let Some(data) = &args.data {
        config.database.clone_from(data);
    }
    if let Some(address) = &args.database {
        config.database = PathBuf::from(address);
    }
    if let Some(shards) = args.shards {
        config.shards = Some(shards);
    }
    if let Err(error) = config.backups() {
        return bad_settings(&error);
    }
    if let Err(error) = init_logging(&config.log_level) {
        output::error(&format!("stonemate run: {error}"));
        return ExitCode::from(2);
    }
    if !args.config.exists() {
        tracing::info!(path = %args.config.display(), "no config file; using the defaults and the environment");
    }
    let outcome = tokio::runtime::Runtime::new()
        .map_err(anyhow::Error::from)
        .and_then(|runtime| runtime.block_on(crate::discord::run(config)));
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            output::error(&format!("stonemate run: {error:#}"));
            // A refused token is a bad setting, like a missing one.
            let refused = matches!(error.downcast_ref(), Some(crate::discord::token::StartError::TokenRefused { .. }));
            if refused { ExitCode::from(2) } else { ExitCode::FAILURE }
        }
    }
}

fn bad_settings(error: &crate::config::ConfigError) -> ExitCode {
    output::error(&format!("stonemate run: {error}"));
    ExitCode::from(2)
}

/// Logs to standard error through `tracing`, filtered by `RUST_LOG` when it is set (as
/// every Rust program does), else by the `log_level` setting; in colour only on a terminal.
fn init_logging(log_level: &str) -> Result<(), String> {
    let (source, directives) = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => ("RUST_LOG", directives),
        _ => ("log_level", log_level.to_owned()),
    };
    let filter =
        tracing_subscriber::EnvFilter::try_new(&directives).map_err(|e| format!("{source} {directives:?}: {e}"))?;
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    tracing_subscriber::fmt().with_env_filter(filter).with_ansi(colour).with_writer(std::io::stderr).init();
    Ok(())
}

fn run_replay(args: &RecordArgs) -> ExitCode {
    let outcome = read_record(args.file.as_ref()).map_err(|error| error.to_string()).and_then(|record| {
        let options = replay::option_pairs(&args.options).map_err(|e| e.to_string())?;
        replay::replay_record(args.kind, &options, &record).map_err(|e| e.to_string())
    });
    match outcome {
        Ok((json, all_played)) => {
            // A reader that stopped early (`| head`) wanted no more: not a failure.
            if let Err(error) = output::line(&json.to_string()).or_else(output::ignore_gone) {
                output::error(&format!("stonemate replay: {error}"));
                return ExitCode::FAILURE;
            }
            if all_played { ExitCode::SUCCESS } else { ExitCode::from(1) }
        }
        Err(message) => {
            output::error(&format!("stonemate replay: {message}"));
            ExitCode::from(2)
        }
    }
}
