//! Options named through their declarations: [`keys`] holds a typed key for every option
//! of every command (`keys::Games::status`), made from the one list in
//! [`table`](super::table), and [`Usage`] writes a command line with them
//! (`/games status:finished page:2`). A text that quotes an option does it through its
//! key, so renaming the option breaks the build instead of leaving the text behind.
//!
//! This module depends on nothing else in the service, so that every part (handlers,
//! refusals, notices, the adapters) may quote options.

use std::fmt;

/// One option of one command, named through its declaration ([`keys`]:
/// `keys::Games::status`), so that a text quoting it is checked by the compiler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionKey {
    /// The command's name.
    pub command: &'static str,
    /// The option's name.
    pub name: &'static str,
}

impl OptionKey {
    /// `status:finished`: this option given `value`, as users type it.
    #[must_use]
    pub const fn with(self, value: &'static str) -> Arg {
        Arg { key: self, value }
    }

    /// `/games status:finished`: the command with this option given `value`.
    #[must_use]
    pub fn usage(self, value: impl fmt::Display) -> Usage {
        Usage { command: self.command, args: Vec::new() }.and(self, value)
    }
}

/// One option given a value, shown as users type it: `status:finished`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arg {
    key: OptionKey,
    value: &'static str,
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.key.name, self.value)
    }
}

/// A command line as a text shows it, `/games status:finished page:2`, its options named
/// through their declarations ([`OptionKey::usage`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Usage {
    command: &'static str,
    args: Vec<(&'static str, String)>,
}

impl Usage {
    /// The same line with `key` (an option of the same command) given `value` too.
    #[must_use]
    pub fn and(mut self, key: OptionKey, value: impl fmt::Display) -> Usage {
        debug_assert_eq!(key.command, self.command, "an option of another command");
        self.args.push((key.name, value.to_string()));
        self
    }
}

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "/{}", self.command)?;
        self.args.iter().try_for_each(|(name, value)| write!(f, " {name}:{value}"))
    }
}

/// Makes [`keys`] from the list of commands: of each entry, only its name and options.
macro_rules! option_keys {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $name:literal { $($entry:tt)* }
    ),* $(,)?) => {
        /// Typed keys to every command's options, `keys::Games::status`, for the texts
        /// that quote an option ([`OptionKey::usage`]).
        pub mod keys {$(
            #[doc = concat!("The options of `/", $name, "`.")]
            #[allow(non_snake_case)]
            pub mod $variant {
                option_keys!(@options $name; $($entry)*);
            }
        )*}
    };
    // The entry's options: one key each.
    (@options $name:literal; options: {$(
        $field:ident: $ty:ty = ($required:literal, $kind:expr, $option:literal) $(via $via:expr)?
    ),* $(,)?} $($rest:tt)*) => {$(
        #[doc = $option]
        #[allow(non_upper_case_globals)]
        pub const $field: super::super::OptionKey =
            super::super::OptionKey { command: $name, name: stringify!($field) };
    )*};
    // What comes before them (descriptions, flags, examples): passed over.
    (@options $name:literal; $skip:tt $($rest:tt)*) => {
        option_keys!(@options $name; $($rest)*);
    };
}

super::table::command_table!(option_keys);
