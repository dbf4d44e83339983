//! The bot's settings: a TOML file (`config.toml`, see `config.example.toml`) overlaid by
//! the environment. The Discord token is a [`Secret`] so that it never reaches a log line
//! through `Debug`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::clock::{MAX_DAYS, Span};
use crate::service::Timeouts;
use crate::shards::ShardRange;

/// The latest `discord.defer_ms` that still leaves time to defer within Discord's 3 s.
pub const MAX_DEFER_MS: u64 = 2500;

/// Everything `stonemate run` needs to know.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The game database: a sled directory (created when missing), or a PostgreSQL
    /// address (`postgres://...`, see [`crate::store::open_at`]).
    pub database: PathBuf,
    /// A `tracing` filter: `info`, `debug`, or per crate like `stonemate_bot=debug,warn`.
    pub log_level: String,
    /// Time per move of a challenge that does not say (`days`), 0 = no clock.
    pub default_days: u8,
    /// When the player to move is reminded: time left before the deadline (`"24h"`).
    #[serde(deserialize_with = "durations")]
    pub reminders: Vec<Span>,
    /// Days of `/vacation` per player and calendar year.
    pub vacation_days_per_year: u16,
    /// What a turn whose time runs out does: `"automatic"` (the player loses at once) or
    /// `"claim"` (the waiting player may `/claim` the win).
    pub timeouts: Timeouts,
    /// How often the bot looks for reminders, timeouts and expired challenges, in seconds.
    pub tick_seconds: u64,
    /// How many of Stonemate's own searches (its turns in games against it) run at once,
    /// each on one thread, beside the commands.
    pub ai_workers: usize,
    /// The Discord shards this process runs (`FIRST-LAST/TOTAL`); `None`: all of one.
    pub shards: Option<ShardRange>,
    /// Hours between scheduled exports (0: none; see [`crate::backup`]).
    pub backup_every_hours: u32,
    /// Where scheduled exports go; `None`: `backups` inside a sled database's directory
    /// (a PostgreSQL database needs one named).
    pub backup_dir: Option<PathBuf>,
    /// How many scheduled exports are kept (the newest).
    pub backup_keep: usize,
    /// The `[discord]` table.
    pub discord: DiscordConfig,
}

/// The `[discord]` table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// The bot token; better given as `DISCORD_TOKEN` than written in a file.
    pub token: Option<Secret>,
    /// Guilds to register the commands in (instantly); empty registers them globally.
    pub guilds: Vec<u64>,
    /// Another address for Discord's HTTP API (an HTTP proxy for Discord, or a test
    /// double); unset means Discord itself.
    pub api_base: Option<String>,
    /// Milliseconds a command may work before the bot tells Discord it needs more time
    /// (Discord's limit for the first answer is 3 s).
    pub defer_ms: u64,
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig { token: None, guilds: Vec::new(), api_base: None, defer_ms: 1500 }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            database: PathBuf::from("stonemate-data"),
            log_level: "info".to_owned(),
            default_days: 3,
            reminders: vec![Span::days(1), Span::HOUR],
            vacation_days_per_year: 30,
            timeouts: Timeouts::Automatic,
            tick_seconds: 60,
            ai_workers: 1,
            shards: None,
            backup_every_hours: 0,
            backup_dir: None,
            backup_keep: 7,
            discord: DiscordConfig::default(),
        }
    }
}

/// A string that `Debug` and `Display` print as `[redacted]`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// Wraps `value` so that it is not printed.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself, for the one place that has to send it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    /// The file is not valid TOML, or has unknown or mistyped settings.
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        source: toml::de::Error,
    },
    #[error("environment variable {var}: {reason}")]
    /// An environment variable's value cannot be used.
    Environment {
        /// The variable's name.
        var: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    #[error("setting {key}: {reason}")]
    /// A setting's value is out of its range.
    Invalid {
        /// The setting's key, as written in the file (`discord.defer_ms`).
        key: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// Neither the file nor the environment gives a Discord token.
    #[error("no Discord token: set DISCORD_TOKEN or discord.token in the config file")]
    MissingToken,
}

/// The environment variables read, with what they replace in the file.
pub const ENVIRONMENT: [(&str, &str); 7] = [
    ("DISCORD_TOKEN", "discord.token"),
    ("STONEMATE_DATABASE", "database"),
    ("STONEMATE_LOG", "log_level"),
    ("STONEMATE_DEFAULT_DAYS", "default_days"),
    ("STONEMATE_GUILDS", "discord.guilds (comma-separated ids)"),
    ("STONEMATE_API_BASE", "discord.api_base"),
    ("STONEMATE_SHARDS", "shards"),
];

impl Config {
    /// Reads `path` (a missing file means the defaults) and overlays the process
    /// environment.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => Some(text),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(ConfigError::Read { path: path.to_owned(), source }),
        };
        Config::from_sources(path, text.as_deref(), |var| std::env::var(var).ok())
    }

    /// Builds the settings from the text of the file at `path` (if there is one) and an
    /// environment lookup.
    pub fn from_sources(
        path: &Path,
        file: Option<&str>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let mut config: Config = match file {
            Some(text) => {
                toml::from_str(text).map_err(|source| ConfigError::Parse { path: path.to_owned(), source })?
            }
            None => Config::default(),
        };
        config.overlay_environment(env)?;
        config.validate()?;
        Ok(config)
    }

    fn overlay_environment(&mut self, env: impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        let env = |var| env(var).filter(|value: &String| !value.trim().is_empty());
        if let Some(token) = env("DISCORD_TOKEN") {
            self.discord.token = Some(Secret::new(token.trim()));
        }
        if let Some(path) = env("STONEMATE_DATABASE") {
            self.database = PathBuf::from(path);
        }
        if let Some(level) = env("STONEMATE_LOG") {
            self.log_level = level;
        }
        if let Some(days) = env("STONEMATE_DEFAULT_DAYS") {
            self.default_days = days.trim().parse().map_err(|_| ConfigError::Environment {
                var: "STONEMATE_DEFAULT_DAYS",
                reason: format!("{days:?} is not a number of days"),
            })?;
        }
        if let Some(guilds) = env("STONEMATE_GUILDS") {
            self.discord.guilds = parse_guilds(&guilds)?;
        }
        if let Some(base) = env("STONEMATE_API_BASE") {
            self.discord.api_base = Some(base);
        }
        if let Some(shards) = env("STONEMATE_SHARDS") {
            let range = shards.parse().map_err(|error: crate::shards::ShardsError| ConfigError::Environment {
                var: "STONEMATE_SHARDS",
                reason: error.to_string(),
            })?;
            self.shards = Some(range);
        }
        Ok(())
    }

    fn validate(&mut self) -> Result<(), ConfigError> {
        if self.default_days > MAX_DAYS {
            let reason = format!("{} is more than {MAX_DAYS} days", self.default_days);
            return Err(ConfigError::Invalid { key: "default_days", reason });
        }
        if self.ai_workers == 0 {
            return Err(ConfigError::Invalid { key: "ai_workers", reason: "must be at least 1".into() });
        }
        if self.tick_seconds == 0 {
            return Err(ConfigError::Invalid { key: "tick_seconds", reason: "must be at least 1".into() });
        }
        if self.backup_keep == 0 {
            return Err(ConfigError::Invalid { key: "backup_keep", reason: "must be at least 1".into() });
        }
        if self.discord.defer_ms > MAX_DEFER_MS {
            let reason = format!("{} ms leaves no time to defer within Discord's 3 s", self.discord.defer_ms);
            return Err(ConfigError::Invalid { key: "discord.defer_ms", reason });
        }
        if self.discord.guilds.contains(&0) {
            return Err(ConfigError::Invalid { key: "discord.guilds", reason: "0 is not a guild id".into() });
        }
        if let Some(base) = &mut self.discord.api_base {
            if !(base.starts_with("http://") || base.starts_with("https://")) {
                let reason = format!("{base:?} must start with http:// or https://");
                return Err(ConfigError::Invalid { key: "discord.api_base", reason });
            }
            // serenity glues the route (`/api/v10/...`) straight onto the base.
            *base = base.trim_end_matches('/').to_owned();
        }
        Ok(())
    }

    /// The scheduled exports (`None`: off), with their directory: `backup_dir`, else
    /// `backups` inside a sled database's directory. Asked once the database is final
    /// (after `--data` or `--database`).
    ///
    /// # Errors
    /// On PostgreSQL without `backup_dir`: the bot has no directory of its own there.
    pub fn backups(&self) -> Result<Option<crate::backup::Backups>, ConfigError> {
        if self.backup_every_hours == 0 {
            return Ok(None);
        }
        let on_postgres = self.database.to_str().is_some_and(crate::store::is_address);
        let dir = match (&self.backup_dir, on_postgres) {
            (Some(dir), _) => dir.clone(),
            (None, false) => crate::store::backups::default_dir(&self.database),
            (None, true) => {
                let reason = "scheduled exports of a PostgreSQL database need a directory: set backup_dir".into();
                return Err(ConfigError::Invalid { key: "backup_dir", reason });
            }
        };
        let every = crate::clock::Span::HOUR * i64::from(self.backup_every_hours);
        Ok(Some(crate::backup::Backups::new(dir, every, self.backup_keep)))
    }

    /// The token, or why the bot cannot start without one.
    pub fn token(&self) -> Result<&Secret, ConfigError> {
        self.discord.token.as_ref().filter(|token| !token.expose().is_empty()).ok_or(ConfigError::MissingToken)
    }
}

/// Durations written as the console writes them (`"24h"`, `"30m"`).
fn durations<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<Span>, D::Error> {
    let texts = Vec::<String>::deserialize(deserializer)?;
    texts.iter().map(|text| text.parse().map_err(serde::de::Error::custom)).collect()
}

fn parse_guilds(text: &str) -> Result<Vec<u64>, ConfigError> {
    text.split(',')
        .map(str::trim)
        .filter(|id| !id.is_empty())
        .map(|id| {
            id.parse().map_err(|_| ConfigError::Environment {
                var: "STONEMATE_GUILDS",
                reason: format!("{id:?} is not a guild id"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(file: Option<&str>, env: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let lookup = |var: &str| env.iter().find(|(k, _)| *k == var).map(|(_, v)| v.to_string());
        Config::from_sources(Path::new("config.toml"), file, lookup)
    }

    #[test]
    fn missing_file_means_defaults() {
        let config = config(None, &[]).unwrap();
        assert_eq!(config, Config::default());
        assert_eq!(config.default_days, 3);
        assert!(matches!(config.token(), Err(ConfigError::MissingToken)));
    }

    #[test]
    fn example_file_reads_and_every_setting_is_documented() {
        let example = include_str!("../../config.example.toml");
        let config = config(Some(example), &[]).unwrap();
        assert_eq!(config.default_days, 3);
        for key in [
            "database",
            "log_level",
            "default_days",
            "tick_seconds",
            "ai_workers",
            "shards",
            "backup_every_hours",
            "backup_dir",
            "backup_keep",
            "reminders",
            "vacation_days_per_year",
            "timeouts",
            "[discord]",
            "token",
            "guilds",
            "api_base",
            "defer_ms",
        ] {
            assert!(example.contains(key), "config.example.toml does not mention {key}");
        }
        for (var, _) in ENVIRONMENT {
            assert!(example.contains(var), "config.example.toml does not mention {var}");
        }
    }

    #[test]
    fn file_settings_are_read() {
        let file = "database = \"/var/lib/stonemate\"\nlog_level = \"debug\"\ndefault_days = 7\n\
                    [discord]\ntoken = \"abc\"\nguilds = [1, 2]\napi_base = \"http://127.0.0.1:9/\"\n";
        let config = config(Some(file), &[]).unwrap();
        assert_eq!(config.database, PathBuf::from("/var/lib/stonemate"));
        assert_eq!(config.log_level, "debug");
        assert_eq!(config.default_days, 7);
        assert_eq!(config.discord.guilds, [1, 2]);
        assert_eq!(config.discord.api_base.as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(config.token().unwrap().expose(), "abc");
    }

    #[test]
    fn environment_overrides_the_file() {
        let file = "default_days = 7\n[discord]\ntoken = \"from-file\"\n";
        let env = [("DISCORD_TOKEN", "from-env"), ("STONEMATE_GUILDS", "10, 20"), ("STONEMATE_DEFAULT_DAYS", "0")];
        let config = config(Some(file), &env).unwrap();
        assert_eq!(config.token().unwrap().expose(), "from-env");
        assert_eq!(config.discord.guilds, [10, 20]);
        assert_eq!(config.default_days, 0);
    }

    #[test]
    fn shards_come_from_the_file_or_the_environment() {
        let from_file = config(Some("shards = \"0-1/4\""), &[]).unwrap();
        assert_eq!(from_file.shards.map(|range| range.to_string()).as_deref(), Some("0-1/4"));
        let from_env = config(Some("shards = \"0-1/4\""), &[("STONEMATE_SHARDS", "2-3/4")]).unwrap();
        assert_eq!(from_env.shards.map(|range| range.to_string()).as_deref(), Some("2-3/4"));
        let bad = config(None, &[("STONEMATE_SHARDS", "2-3")]);
        assert!(matches!(bad, Err(ConfigError::Environment { var: "STONEMATE_SHARDS", .. })), "{bad:?}");
        assert_eq!(config(None, &[]).unwrap().shards, None);
    }

    #[test]
    fn scheduled_exports_are_off_unless_asked_and_go_next_to_a_sled_database() {
        assert_eq!(config(None, &[]).unwrap().backups().unwrap(), None);
        let sled = config(Some("database = \"/var/lib/stonemate\"\nbackup_every_hours = 6"), &[]).unwrap();
        let backups = sled.backups().unwrap().expect("scheduled exports on");
        assert_eq!(backups.dir(), Path::new("/var/lib/stonemate/backups"));
        let named = config(Some("backup_every_hours = 6\nbackup_dir = \"/srv/exports\""), &[]).unwrap();
        assert_eq!(named.backups().unwrap().unwrap().dir(), Path::new("/srv/exports"));
        let no_keep = config(Some("backup_every_hours = 6\nbackup_keep = 0"), &[]);
        assert!(matches!(no_keep, Err(ConfigError::Invalid { key: "backup_keep", .. })), "{no_keep:?}");
    }

    #[test]
    fn scheduled_exports_of_postgresql_need_a_directory() {
        let file = "database = \"postgres://bot@db/stonemate\"\nbackup_every_hours = 24";
        let error = config(Some(file), &[]).unwrap().backups().unwrap_err();
        assert!(matches!(error, ConfigError::Invalid { key: "backup_dir", .. }), "{error:?}");
        assert!(error.to_string().contains("set backup_dir"), "{error}");
        let with_dir = format!("{file}\nbackup_dir = \"/srv/exports\"");
        assert!(config(Some(&with_dir), &[]).unwrap().backups().unwrap().is_some());
    }

    #[test]
    fn reminders_and_vacations_are_read() {
        let file = "reminders = [\"2d\", \"30m\"]\nvacation_days_per_year = 10\n";
        let read = config(Some(file), &[]).unwrap();
        assert_eq!(read.reminders, [Span::days(2), Span::MINUTE * 30]);
        assert_eq!(read.vacation_days_per_year, 10);
        assert_eq!(config(None, &[]).unwrap().reminders, [Span::days(1), Span::HOUR]);
    }

    #[test]
    fn timeouts_are_automatic_unless_set_to_claim() {
        assert_eq!(config(None, &[]).unwrap().timeouts, Timeouts::Automatic);
        assert_eq!(config(Some("timeouts = \"claim\""), &[]).unwrap().timeouts, Timeouts::Claim);
        assert!(matches!(config(Some("timeouts = \"never\""), &[]), Err(ConfigError::Parse { .. })));
        assert!(matches!(config(Some("reminders = [\"soon\"]"), &[]), Err(ConfigError::Parse { .. })));
    }

    #[test]
    fn debug_never_shows_the_token() {
        let config = config(None, &[("DISCORD_TOKEN", "MTIz.secret-token")]).unwrap();
        let shown = format!("{config:?} {:?}", config.token().unwrap());
        assert!(!shown.contains("secret-token"), "{shown}");
        assert!(shown.contains("[redacted]"));
    }

    #[test]
    fn unknown_keys_and_bad_values_are_refused() {
        assert!(matches!(config(Some("databse = \"x\""), &[]), Err(ConfigError::Parse { .. })));
        let too_long = config(Some("default_days = 15"), &[]);
        assert!(matches!(too_long, Err(ConfigError::Invalid { key: "default_days", .. })));
        let no_workers = config(Some("ai_workers = 0"), &[]);
        assert!(matches!(no_workers, Err(ConfigError::Invalid { key: "ai_workers", .. })));
        assert_eq!(config(Some("ai_workers = 2"), &[]).unwrap().ai_workers, 2);
        let bad_base = config(Some("[discord]\napi_base = \"discord.com\""), &[]);
        assert!(matches!(bad_base, Err(ConfigError::Invalid { key: "discord.api_base", .. })));
        let bad_shards = config(Some("shards = \"1-0/2\""), &[]);
        assert!(matches!(bad_shards, Err(ConfigError::Parse { .. })), "{bad_shards:?}");
        let bad_guild = config(None, &[("STONEMATE_GUILDS", "12,abc")]);
        assert!(matches!(bad_guild, Err(ConfigError::Environment { .. })));
    }
}
