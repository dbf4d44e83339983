//! What a button of ours asks ([`Action`]): one type whose text form is the button's
//! `custom_id` and reads back as the same action ([`Display`](fmt::Display) and
//! [`FromStr`] round-trip), so that a press needs nothing but the stored record and works
//! after a restart. Text we did not make reads as nothing.
//!
//! Each button is declared once, beside the command of its feature in the list of
//! commands (`buttons:` in an entry of `table`), as its word, its fields and its handler.
//! This module makes the type from the list (`actions!`) and holds what every button
//! shares: the codecs of an id's fields ([`IdField`]) and of the words that name one of a
//! few values ([`IdWord`]: `history-back`, `pick-confirm`). The handlers are called from
//! `commands`, which reads the same list, so that this module needs none of them.

use std::fmt;
use std::str::FromStr;

use super::types::{Button, ButtonStyle, GameId};
use crate::ids::TournamentId;

/// One field of a button's `custom_id`, between colons: written as text that reads back
/// as the same value. No field's text holds a colon.
pub trait IdField: Copy {
    /// Writes the field.
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result;

    /// The field written as `text`, if it is one we write.
    fn read(text: &str) -> Option<Self>;

    /// Texts of the field, for the tests made from the list of buttons.
    #[cfg(test)]
    const EXAMPLES: &'static [&'static str];
}

/// The end of a button's word that names one of a few values (`back` of `history-back`),
/// so that one declared button stands for a family of words.
pub trait IdWord: Copy + 'static {
    /// Every value, each with its own word.
    const VALUES: &'static [Self];

    /// What the value adds to the button's word.
    fn suffix(self) -> &'static str;

    /// The value whose suffix is `text`.
    fn read(text: &str) -> Option<Self> {
        Self::VALUES.iter().copied().find(|value| value.suffix() == text)
    }
}

/// A plain word: nothing added (what `actions!` puts for a button without a tag).
impl IdWord for () {
    const VALUES: &'static [()] = &[()];

    fn suffix(self) -> &'static str {
        ""
    }
}

/// A number in decimal digits (no sign, no space).
fn digits<T: FromStr>(text: &str) -> Option<T> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

/// `12`.
impl IdField for GameId {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{}", self.0)
    }

    fn read(text: &str) -> Option<GameId> {
        digits(text).map(GameId)
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["12", "0", "4294967295"];
}

/// A tournament: `1` (for `T1`).
impl IdField for TournamentId {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{}", self.0)
    }

    fn read(text: &str) -> Option<TournamentId> {
        digits(text).map(TournamentId)
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["1", "12", "4294967295"];
}

/// A turn count: `4`.
impl IdField for usize {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{self}")
    }

    fn read(text: &str) -> Option<usize> {
        digits(text)
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["4", "0", "1000"];
}

/// A record's version: `9`.
impl IdField for u64 {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{self}")
    }

    fn read(text: &str) -> Option<u64> {
        digits(text)
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["9", "0", "18446744073709551615"];
}

/// Where a `/history` button leads, from the turn the message shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Step {
    /// To the start: the board before any turn.
    First,
    /// One turn back.
    Back,
    /// One turn on.
    Next,
    /// To the board after the last turn.
    Last,
}

impl Step {
    /// Every step, in the order the buttons are shown.
    pub const ALL: [Step; 4] = [Step::First, Step::Back, Step::Next, Step::Last];

    /// The button's label.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Step::First => "First",
            Step::Back => "Back",
            Step::Next => "Next",
            Step::Last => "Last",
        }
    }

    /// The turn this step shows from `shown` of `turns`, or `None` when it leads nowhere
    /// (back from the start, on from the last turn): such buttons are left out.
    #[must_use]
    pub fn target(self, shown: usize, turns: usize) -> Option<usize> {
        match self {
            Step::First => (shown > 0).then_some(0),
            Step::Back => shown.checked_sub(1),
            Step::Next => (shown < turns).then_some(shown + 1),
            Step::Last => (shown < turns).then_some(turns),
        }
    }
}

/// The choices made so far in a turn picker, as its `custom_id`s keep them: the values of
/// [`stonemate_engine::Picker`]'s steps joined by `.` (`R.e`), at most
/// [`PickPath::MAX`] bytes of `A-Z a-z 0-9 =` and dots. A `Copy` value, so that
/// [`Action`] stays one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PickPath {
    bytes: [u8; PickPath::MAX],
    len: u8,
}

impl PickPath {
    /// The longest path kept: with the game, the version and the word it keeps a
    /// `custom_id` within Discord's 100 characters.
    pub const MAX: usize = 48;

    /// No choice made yet.
    pub const EMPTY: PickPath = PickPath { bytes: [0; PickPath::MAX], len: 0 };

    /// The path written as `text`, if it is one.
    #[must_use]
    pub fn new(text: &str) -> Option<PickPath> {
        let allowed = |b: u8| b.is_ascii_alphanumeric() || b == b'=' || b == b'.';
        if text.len() > PickPath::MAX || !text.bytes().all(allowed) {
            return None;
        }
        if !text.is_empty() && text.split('.').any(str::is_empty) {
            return None;
        }
        let mut bytes = [0; PickPath::MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(PickPath { bytes, len: text.len() as u8 })
    }

    /// The path as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (checked in `new`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// The values chosen, in order.
    #[must_use]
    pub fn steps(&self) -> Vec<&str> {
        if self.len == 0 { Vec::new() } else { self.as_str().split('.').collect() }
    }

    /// The path with `value` chosen next, if it fits.
    #[must_use]
    pub fn then(&self, value: &str) -> Option<PickPath> {
        if value.is_empty() || value.contains('.') {
            return None;
        }
        if self.len == 0 { PickPath::new(value) } else { PickPath::new(&format!("{}.{value}", self.as_str())) }
    }

    /// The path without its last choice.
    #[must_use]
    pub fn back(&self) -> PickPath {
        let text = self.as_str();
        PickPath::new(text.rsplit_once('.').map_or("", |(head, _)| head)).unwrap_or(PickPath::EMPTY)
    }
}

impl fmt::Debug for PickPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PickPath({:?})", self.as_str())
    }
}

/// The step's word in a `custom_id` (`history-back`). Discord wants the ids of one message
/// distinct, and First and Back may lead to the same turn.
impl IdWord for Step {
    const VALUES: &'static [Step] = &Step::ALL;

    fn suffix(self) -> &'static str {
        match self {
            Step::First => "first",
            Step::Back => "back",
            Step::Next => "next",
            Step::Last => "last",
        }
    }
}

/// `R.e`; empty when nothing is chosen yet.
impl IdField for PickPath {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(self.as_str())
    }

    fn read(text: &str) -> Option<PickPath> {
        PickPath::new(text)
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["R.e", "", "pass", "move.e2.e4.=F"];
}

/// What a turn picker's component does with its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PickPress {
    /// The select menu: the chosen value is added to the path.
    Choose,
    /// A choice's own button (a step of few choices): its path already holds the choice.
    Tap,
    /// Undoes the last choice.
    Back,
    /// Plays the turn the path names.
    Confirm,
    /// Closes the picker, playing nothing.
    Cancel,
}

/// The word of the `custom_id`: `pick`, `pick-at`, `pick-back`, `pick-confirm`,
/// `pick-cancel`.
impl IdWord for PickPress {
    const VALUES: &'static [PickPress] =
        &[PickPress::Choose, PickPress::Tap, PickPress::Back, PickPress::Confirm, PickPress::Cancel];

    fn suffix(self) -> &'static str {
        match self {
            PickPress::Choose => "",
            PickPress::Tap => "-at",
            PickPress::Back => "-back",
            PickPress::Confirm => "-confirm",
            PickPress::Cancel => "-cancel",
        }
    }
}

/// A line of turns a **Keep as conditional** button carries (`/explore`): the turns
/// joined by commas, at most [`KeptLine::MAX`] bytes of printable ASCII without a colon
/// (no notation uses either). A `Copy` value, so that [`Action`] stays one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeptLine {
    bytes: [u8; KeptLine::MAX],
    len: u8,
}

impl KeptLine {
    /// The longest line kept: with the word, a game below a million and a version below
    /// a billion it keeps a `custom_id` within Discord's 100 characters.
    pub const MAX: usize = 72;

    /// The line written as `text` (turns joined by commas), if it is one.
    #[must_use]
    pub fn new(text: &str) -> Option<KeptLine> {
        let allowed = |b: u8| b.is_ascii_graphic() && b != b':';
        if text.len() > KeptLine::MAX || !text.bytes().all(allowed) || text.split(',').any(str::is_empty) {
            return None;
        }
        let mut bytes = [0; KeptLine::MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(KeptLine { bytes, len: text.len() as u8 })
    }

    /// The line as text: the turns joined by commas.
    #[must_use]
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (checked in `new`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }

    /// The turns, in order.
    pub fn turns(&self) -> impl Iterator<Item = &str> {
        self.as_str().split(',')
    }
}

impl fmt::Debug for KeptLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeptLine({:?})", self.as_str())
    }
}

/// `e5,d4,c3,d3`.
impl IdField for KeptLine {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(self.as_str())
    }

    fn read(text: &str) -> Option<KeptLine> {
        KeptLine::new(text)
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["e5,d4", "R@e5,R@d4,c3,d3", "Nxe5,Pc5=F"];
}

/// A short tag naming one proposal of dead pieces at one point of a game (its turn count
/// and its text), so that an Accept button accepts the proposal it was shown with and no
/// later one. A checksum (CRC-32) keeps the `custom_id` short and is the same in every
/// build, so the button works after a restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProposalTag(pub u32);

impl ProposalTag {
    /// The tag of `proposal` after `turns` turns.
    #[must_use]
    pub fn of(turns: usize, proposal: &str) -> ProposalTag {
        ProposalTag(crc32fast::hash(format!("{turns} {proposal}").as_bytes()))
    }
}

/// Eight hex digits: `000000ab`.
impl IdField for ProposalTag {
    fn write(self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(out, "{:08x}", self.0)
    }

    fn read(text: &str) -> Option<ProposalTag> {
        let hex = text.len() == 8 && text.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| u32::from_str_radix(text, 16).ok().map(ProposalTag)).flatten()
    }

    #[cfg(test)]
    const EXAMPLES: &'static [&'static str] = &["00abcdef", "000000ab", "ffffffff"];
}

/// A `custom_id` we did not make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotOurs;

impl Action {
    /// The button that asks this.
    #[must_use]
    pub fn button(self, label: &str, style: ButtonStyle) -> Button {
        Button { custom_id: self.to_string(), label: label.to_owned(), style }
    }
}

/// Makes [`Action`] from the buttons the list of commands declares (`buttons:` in an
/// entry): one variant per button, with its fields; its `custom_id` (the word, the tag's
/// suffix, then each field after a colon) written and read by the fields' codecs; and
/// whether its answer is private (`private`, or `private if` a condition on its fields).
macro_rules! actions {
    // The type of a button's tag: `()` for a plain word.
    (@tag) => { () };
    (@tag $tag:ident) => { $tag };
    // Whether a press is private: not declared, declared, declared on a condition.
    (@private) => { false };
    (@private yes) => { true };
    (@private yes $condition:expr) => { $condition };
    ($(
        $(#[doc = $doc:literal])*
        $command:ident $name:literal {
            description: $description:tt,
            help: $help:tt,
            admin: $admin:tt,
            $(private: $private:tt,)?
            $(examples: $examples:tt,)?
            options: $options:tt,
            run: |$parts:ident, $caller:ident| $run:expr,
            $(buttons: {$(
                $(#[doc = $button_doc:literal])*
                $action:ident $word:literal $($tag:ident: $tag_type:ident)? ($($field:ident: $type:ty),* $(,)?)
                    $(private $(if $secret:expr)?)?
                    => |$press_parts:ident, $press_caller:ident $(, $choice:ident)?| $press:expr
            ),* $(,)?} $(,)?)?
        }
    ),* $(,)?) => {
        /// What a press of one of our buttons asks, about one game: one variant per button
        /// of the list of commands, where each is declared beside its command.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action {$($($(
            $(#[doc = $button_doc])*
            $action {
                $(
                    #[doc = concat!("The `", stringify!($tag_type), "` the word names.")]
                    $tag: $tag_type,
                )?
                $(
                    #[doc = concat!("The id's `", stringify!($field), "`.")]
                    $field: $type,
                )*
            },
        )*)?)*}

        impl Action {
            /// Whether the answer to the press is for the presser alone, as its button is
            /// declared.
            #[must_use]
            #[allow(unused_variables)]
            pub fn is_private(self) -> bool {
                match self {$($($(
                    Action::$action { $($tag,)? $($field,)* } => actions!(@private $(yes $($secret)?)?),
                )*)?)*}
            }

            /// Every declared word, with ids of example fields: for the tests.
            #[cfg(test)]
            fn declared() -> Vec<(String, Vec<String>)> {
                let mut declared = Vec::new();
                $($($(
                    for tag in <actions!(@tag $($tag_type)?) as IdWord>::VALUES {
                        let word = format!("{}{}", $word, tag.suffix());
                        let ids = (0..3).map(|round: usize| {
                            let mut id = word.clone();
                            $(
                                let examples = <$type as IdField>::EXAMPLES;
                                id = format!("{id}:{}", examples[round % examples.len()]);
                            )*
                            id
                        });
                        declared.push((word.clone(), ids.collect()));
                    }
                )*)?)*
                declared
            }
        }

        impl fmt::Display for Action {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match *self {$($($(
                    Action::$action { $($tag,)? $($field,)* } => {
                        f.write_str($word)?;
                        $(f.write_str(IdWord::suffix($tag))?;)?
                        $(
                            f.write_str(":")?;
                            IdField::write($field, f)?;
                        )*
                        Ok(())
                    }
                )*)?)*}
            }
        }

        impl FromStr for Action {
            type Err = NotOurs;

            fn from_str(text: &str) -> Result<Action, NotOurs> {
                /// Each button's reader: its action, when `word` and `fields` make its id.
                const READERS: &[fn(&str, &[&str]) -> Option<Action>] = &[$($($(
                    |word, fields| {
                        let rest = word.strip_prefix($word)?;
                        // A tagged word reads its tag from the rest; a plain one is whole.
                        $(let ($tag, rest) = (<$tag_type as IdWord>::read(rest)?, "");)?
                        if !rest.is_empty() {
                            return None;
                        }
                        let mut fields = fields.iter().copied();
                        $(let $field = <$type as IdField>::read(fields.next()?)?;)*
                        fields.next().is_none().then_some(Action::$action { $($tag,)? $($field,)* })
                    },
                )*)?)*];
                let mut parts = text.split(':');
                let word = parts.next().unwrap_or_default();
                let fields: Vec<&str> = parts.collect();
                READERS.iter().find_map(|read| read(word, &fields)).ok_or(NotOurs)
            }
        }
    };
}

super::table::command_table!(actions);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_as_itself() {
        let id = GameId(12);
        let mut actions = vec![
            Action::Accept { id },
            Action::Decline { id },
            Action::Resign { id },
            Action::DrawAccept { id },
            Action::DrawDecline { id },
            Action::Rematch { id },
            Action::TakebackAccept { id },
            Action::TakebackDecline { id },
            Action::Resume { id },
            Action::AcceptDead { id, proposal: ProposalTag(0x00ab_cdef) },
        ];
        actions.extend(Step::ALL.map(|step| Action::History { step, id, turn: 4 }));
        actions.push(Action::Play { id });
        actions.push(Action::NextGame { id });
        for path in ["", "pass", "R.e.4", "move.e2.e4.=F"] {
            let path = PickPath::new(path).unwrap();
            actions.extend(PickPress::VALUES.iter().map(|&press| Action::Pick { press, id, version: 9, path }));
        }
        for action in actions {
            assert_eq!(action.to_string().parse(), Ok(action), "{action}");
        }
    }

    /// Buttons on messages sent before an upgrade keep working: the ids we made stay the
    /// ids we read, word for word.
    #[test]
    fn the_ids_of_old_messages_read_as_before() {
        let id = GameId(12);
        let path = PickPath::new("R.e").unwrap();
        let pick = |press| Action::Pick { press, id, version: 3, path };
        let known = [
            ("accept:12", Action::Accept { id }),
            ("decline:12", Action::Decline { id }),
            ("resign:12", Action::Resign { id }),
            ("draw-accept:12", Action::DrawAccept { id }),
            ("draw-decline:12", Action::DrawDecline { id }),
            ("rematch:12", Action::Rematch { id }),
            ("takeback-accept:12", Action::TakebackAccept { id }),
            ("takeback-decline:12", Action::TakebackDecline { id }),
            ("dead-accept:12:000000ab", Action::AcceptDead { id, proposal: ProposalTag(0xab) }),
            ("resume:12", Action::Resume { id }),
            ("history-first:12:0", Action::History { step: Step::First, id, turn: 0 }),
            ("history-back:12:4", Action::History { step: Step::Back, id, turn: 4 }),
            ("history-next:12:5", Action::History { step: Step::Next, id, turn: 5 }),
            ("history-last:12:9", Action::History { step: Step::Last, id, turn: 9 }),
            ("play:12", Action::Play { id }),
            ("next-game:12", Action::NextGame { id }),
            ("pick:12:3:R.e", pick(PickPress::Choose)),
            ("pick-at:12:3:R.e", pick(PickPress::Tap)),
            ("pick-back:12:3:R.e", pick(PickPress::Back)),
            ("pick-confirm:12:3:R.e", pick(PickPress::Confirm)),
            ("pick-cancel:12:3:R.e", pick(PickPress::Cancel)),
            ("pick:12:3:", Action::Pick { press: PickPress::Choose, id, version: 3, path: PickPath::EMPTY }),
        ];
        for (text, action) in known {
            assert_eq!((text.parse(), action.to_string().as_str()), (Ok(action), text));
        }
    }

    /// Made from the list of buttons itself: no two declared words alike (a press would
    /// reach the wrong handler), and every word's ids read back as themselves.
    #[test]
    fn every_declared_button_has_its_own_word_and_reads_back() {
        let declared = Action::declared();
        let words: Vec<&str> = declared.iter().map(|(word, _)| word.as_str()).collect();
        for (index, word) in words.iter().enumerate() {
            assert!(!words[..index].contains(word), "`{word}` declared twice");
            assert!(!word.is_empty() && !word.contains(':'), "`{word}`");
        }
        let mut read = Vec::new();
        for (word, ids) in &declared {
            for id in ids {
                let action: Action = id.parse().unwrap_or_else(|_| panic!("{id} is not read"));
                assert_eq!(action.to_string(), *id);
                assert!(!read.contains(&action), "{id} reads as another word's action");
                read.push(action);
                let without_field = id.rsplit_once(':').map_or("", |(head, _)| head);
                assert_eq!(without_field.parse::<Action>(), Err(NotOurs), "{word}");
                assert_eq!(format!("{id}:1").parse::<Action>(), Err(NotOurs), "{word}");
            }
        }
        assert!(words.len() >= 21, "{words:?}");
    }

    #[test]
    fn privacy_is_as_declared() {
        let id = GameId(7);
        let pick = |press| Action::Pick { press, id, version: 1, path: PickPath::EMPTY };
        assert!(Action::Play { id }.is_private() && Action::NextGame { id }.is_private());
        assert!(pick(PickPress::Back).is_private() && !pick(PickPress::Confirm).is_private());
        assert!(!Action::Accept { id }.is_private() && !Action::History { step: Step::Back, id, turn: 1 }.is_private());
    }

    #[test]
    fn pick_paths_grow_and_shrink_by_one_choice() {
        let path = PickPath::EMPTY.then("R").and_then(|path| path.then("e")).unwrap();
        assert_eq!((path.as_str(), path.steps()), ("R.e", vec!["R", "e"]));
        assert_eq!(path.back().as_str(), "R");
        assert_eq!(path.back().back(), PickPath::EMPTY);
        assert_eq!(PickPath::EMPTY.back(), PickPath::EMPTY);
        assert!(PickPath::EMPTY.then("a.b").is_none() && PickPath::new(&"x".repeat(49)).is_none());
        let longest = format!("pick-confirm:{}:{}:{}", u32::MAX, u64::MAX, "x".repeat(PickPath::MAX));
        assert!(longest.len() <= 100, "{}", longest.len());
    }

    #[test]
    fn ids_we_did_not_make_are_not_read() {
        let forged_ids = [
            "accept",
            "accept:x",
            "sing:12",
            "history:12:4",
            "history-up:12:4",
            "accept:12:3",
            "pick:12:3",
            "pick:12:x:R",
            "pick:12:3:R..e",
            "pick:12:3:R e",
            "play:+1",
            "dead-accept:12",
            "dead-accept:12:xyz",
            "resume:12:1",
        ];
        for forged in forged_ids {
            assert_eq!(forged.parse::<Action>(), Err(NotOurs), "{forged}");
        }
    }
}
