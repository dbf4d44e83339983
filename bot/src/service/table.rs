//! The one list of commands: each entry declares a command once — its name, the texts
//! Discord and `/help` show, its options as typed fields, and its handler — and the
//! buttons of its feature: each button's word, its fields (typed by their codecs in
//! [`buttons`](super::buttons)), whether its answer is private, and its handler.
//!
//! The list is a macro that hands its entries to another (`command_table!(commands)`),
//! so that three modules read the same declarations without depending on each other:
//! [`commands`](super::commands) makes the typed `Command`, the table Discord registers,
//! the reading of options and the call of the handlers, of commands and of buttons;
//! [`buttons`](super::buttons) makes the typed `Action` of the buttons (their ids and
//! privacy); [`options`](super::options) makes the typed keys (`keys::Games::status`)
//! that texts quote options through. The handlers named here are resolved where the list
//! is read (in `commands`), so the handlers can quote options and make their buttons
//! without a cycle back to the code that calls them.

/// Hands every command's declaration to the macro `$then`.
macro_rules! command_table {
    ($then:ident) => {
        $then! {
            /// `/challenge`: `days` per move (default 3, 0 = no clock); `options` text such as
            /// `board=9x9 pieces=N komi=6.5`. Without an opponent, an open challenge: anyone in
            /// the channel but the challenger may accept it.
            Challenge "challenge" {
                description: "Challenge someone to a game.",
                help: "challenge someone: `opponent` (leave it out for an open challenge anyone here may accept), `game`, \
                       and optionally `color`, `days` per move, `options`",
                admin: false,
                // Discord takes required options first: `game` before the optional `opponent`.
                options: {
                    game: GameKind = (true, Kind::Game, "Which game"),
                    opponent: Option<User> = (false, Kind::User, "Who to play (default: anyone in this channel may accept)"),
                    color: ColorChoice = (false, Kind::Color, "Your colour (default: random)") via |text| color(text, game),
                    days: Option<u8> = (false, Kind::Days, "Days per move, 0 = no clock (default 3)"),
                    options: Option<String> = (false, Kind::Text, "Game options, e.g. board=9x9 pieces=N komi=6.5"),
                    level: Level = (false, Kind::Level, "How hard Stonemate plays, when you challenge it (default: medium)"),
                },
                run: |parts, caller| {
                    let options = challenge::Terms::options(options.as_deref())?;
                    let terms =
                        challenge::Terms { opponent: opponent.as_ref(), kind: game, color, days, options, level, rematch_of: None };
                    challenge::challenge(parts, caller, terms)
                },
                buttons: {
                    /// `rematch:7`: a finished game's Rematch, a new challenge to the same opponent.
                    Rematch "rematch" (id: GameId) => |parts, caller| community::rematch(parts, caller, id),
                },
            },
            /// `/accept`: the game starts.
            Accept "accept" {
                description: "Accept a challenge: the game starts.",
                help: "accept a challenge (yours, or an open one in this channel): the game starts",
                admin: false,
                options: { challenge: Option<GameId> = (false, CHALLENGE, "Which challenge (default: the only one)") },
                run: |parts, caller| challenge::accept(parts, caller, challenge),
                buttons: {
                    /// `accept:12`: accepts the challenge (open or not).
                    Accept "accept" (id: GameId) => |parts, caller| challenge::accept(parts, caller, Some(id)),
                },
            },
            /// `/decline`.
            Decline "decline" {
                description: "Decline a challenge.",
                help: "decline a challenge",
                admin: false,
                options: { challenge: Option<GameId> = (false, CHALLENGE, "Which challenge (default: the only one)") },
                run: |parts, caller| challenge::decline(parts, caller, challenge),
                buttons: {
                    /// `decline:12`.
                    Decline "decline" (id: GameId) => |parts, caller| challenge::decline(parts, caller, Some(id)),
                },
            },
            /// `/withdraw`: the challenger takes back the challenge.
            Withdraw "withdraw" {
                description: "Take back a challenge you made.",
                help: "take back a challenge you sent",
                admin: false,
                options: { challenge: Option<GameId> = (false, CHALLENGE, "Which challenge (default: the only one)") },
                run: |parts, caller| challenge::withdraw(parts, caller, challenge),
            },
            /// `/move`: any turn in the game's notation (move, drop, pass, tandem, mole drop).
            Move "move" {
                description: "Play a turn in the game's notation: a move, drop, pass, tandem or mole drop.",
                help: "play a turn in the game's notation: a move, drop, pass, tandem or mole drop",
                admin: false,
                options: {
                    notation: String = (true, Kind::Suggested(Field::Notation), "The turn, e.g. e2-e4, R@d4, pass"),
                    game: Option<GameId> = (false, GAME, "Which game (default: your only one here)"),
                },
                run: |parts, caller| turns::turn(parts, caller, game, turns::Played::Typed(&notation)),
            },
            /// `/play`: the caller's private turn picker (as the Play button).
            Play "play" {
                description: "Pick your turn by tapping: choose it step by step, see it, confirm it.",
                help: "pick your turn by tapping, with a preview before it is played (as the Play button)",
                admin: false,
                private: true,
                options: { game: Option<GameId> = (false, GAME, "Which game (default: the one where you are to move here)") },
                run: |parts, caller| picker::open(parts, caller, game),
                buttons: {
                    /// `play:7`: opens the turn picker of the game (the Play button).
                    Play "play" (id: GameId) private => |parts, caller| picker::open(parts, caller, Some(id)),
                    /// `pick:7:12:R.e` (and `pick-at`, `pick-back`, `pick-confirm`, `pick-cancel`): a
                    /// step of the turn picker opened at `version` of the game's record (an older
                    /// one is refused: the game moved on), with `path` chosen (for `pick-at`, a
                    /// choice's button, the choice included). Private but the turn Confirm plays.
                    Pick "pick" press: PickPress (id: GameId, version: u64, path: PickPath)
                        private if press != PickPress::Confirm
                        => |parts, caller, value| picker::press(parts, caller, press, (id, version, path), value),
                },
            },
            /// `/drop`: a piece letter and a square, for games with drops.
            Drop "drop" {
                description: "Drop a piece from your hand.",
                help: "drop a piece from your hand: `piece` and `square`",
                admin: false,
                options: {
                    piece: String = (true, Kind::Text, "The piece letter, e.g. R"),
                    square: String = (true, Kind::Text, "The square, e.g. d4"),
                    game: Option<GameId> = (false, GAME, "Which game (default: your only one here)"),
                },
                run: |parts, caller| {
                    let drop = turns::dropped(&piece, &square)?;
                    turns::turn(parts, caller, game, turns::Played::Turn(drop))
                },
            },
            /// `/pass`: the player to move passes.
            Pass "pass" {
                description: "Pass your turn.",
                help: "pass your turn",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| turns::turn(parts, caller, game, turns::Played::Turn(Turn::Pass)),
            },
            /// Asks to confirm with a button (`resign:ID`); the press ends the game.
            Resign "resign" {
                description: "Resign (asks you to confirm).",
                help: "resign (asks you to confirm)",
                admin: false,
                private: true,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| endings::ask_resign(parts, caller, game),
                buttons: {
                    /// `resign:7`: confirms `/resign`.
                    Resign "resign" (id: GameId) => |parts, caller| endings::resign(parts, caller, id),
                },
            },
            /// Offers a draw, or accepts the opponent's pending offer.
            Draw "draw" {
                description: "Offer a draw, or accept your opponent's offer.",
                help: "offer a draw, or accept the one offered",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| endings::draw(parts, caller, game),
                buttons: {
                    /// `draw-accept:7`.
                    DrawAccept "draw-accept" (id: GameId) => |parts, caller| endings::answer_draw(parts, caller, id, true),
                    /// `draw-decline:7`.
                    DrawDecline "draw-decline" (id: GameId) => |parts, caller| endings::answer_draw(parts, caller, id, false),
                },
            },
            /// Asks the opponent to take back the caller's last turn (and the opponent's after
            /// it); the opponent answers with buttons.
            Takeback "takeback" {
                description: "Ask your opponent to take back your last turn.",
                help: "ask to take back your last turn (and your opponent's after it)",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| takeback::ask(parts, caller, game),
                buttons: {
                    /// `takeback-accept:7`: the opponent takes back the requested turns.
                    TakebackAccept "takeback-accept" (id: GameId) => |parts, caller| takeback::answer(parts, caller, id, true),
                    /// `takeback-decline:7`.
                    TakebackDecline "takeback-decline" (id: GameId) => |parts, caller| takeback::answer(parts, caller, id, false),
                },
            },
            /// In a go game's counting phase (rule 10): proposes the pieces on `squares` as dead
            /// (`none`: none), or shows the standing proposal.
            Dead "dead" {
                description: "Counting in go: propose which pieces are dead, or see the proposal standing.",
                help: "in a go game's counting phase: propose the dead pieces (`squares`), or see the proposal",
                admin: false,
                options: {
                    game: Option<GameId> = (false, GAME, "Which game"),
                    squares: Option<String> = (false, Kind::Text, "The dead pieces' squares, e.g. c3 d4 (none: no piece)"),
                },
                run: |parts, caller| counting::dead(parts, caller, game, squares.as_deref()),
                buttons: {
                    /// `dead-accept:7:1a2b3c4d`: accepts the proposal of dead pieces that the
                    /// button was shown with, named by its tag.
                    AcceptDead "dead-accept" (id: GameId, proposal: ProposalTag)
                        => |parts, caller| counting::accept(parts, caller, id, proposal),
                    /// `resume:7`: leaves the counting phase and plays on.
                    Resume "resume" (id: GameId) => |parts, caller| counting::resume(parts, caller, id),
                },
            },
            /// Stores a conditional line while the opponent is to move, shows the caller's lines,
            /// or removes them (`line:clear`).
            Conditional "conditional" {
                description: "Queue answers to expected turns: THEIRS MINE THEIRS MINE ... (only you see them).",
                help: "queue answers to expected turns (`line`: theirs, yours, ...; `clear`); only you see them",
                admin: false,
                private: true,
                options: {
                    game: Option<GameId> = (false, GAME, "Which game"),
                    line: Option<String> = (false, Kind::Text, "Their turn, your answer, ... e.g. e5 d4 c3 d3; clear removes your lines"),
                },
                run: |parts, caller| conditional::conditional(parts, caller, game, line.as_deref()),
            },
            /// Ends a game without result while no turn has been played.
            Abort "abort" {
                description: "End a game without result before either side has played.",
                help: "end a game without result before any turn is played",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| endings::abort(parts, caller, game),
            },
            /// Wins a game whose opponent's time for the current turn has run out.
            Claim "claim" {
                description: "Win a game whose opponent has run out of time.",
                help: "win a game whose opponent has run out of time",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| endings::claim(parts, caller, game),
            },
            /// Gives the opponent `days` (1-14) more for the current turn.
            ExtraTime "extratime" {
                description: "Give your opponent more time for this turn.",
                help: "give your opponent more `days` for this turn",
                admin: false,
                options: {
                    days: u8 = (true, Kind::ExtraDays, "How many days more"),
                    game: Option<GameId> = (false, GAME, "Which game"),
                },
                run: |parts, caller| endings::extra_time(parts, caller, game, days),
            },
            /// `/board`: the game's board as it stands.
            Board "board" {
                description: "Show a game's board.",
                help: "show a game's board",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| views::show_board(parts, caller, game),
                buttons: {
                    /// `next-game:7`: the board of the game (the Next game button, which leads to
                    /// the presser's most urgent game where he is to move), which is nobody
                    /// else's business.
                    NextGame "next-game" (id: GameId) private => |parts, caller| views::show_board(parts, caller, Some(id)),
                },
            },
            /// `/history`: the game's turns, result and record, with an animated replay.
            History "history" {
                description: "A game's turns, result and record, with an animated replay.",
                help: "the turns so far, the result, the record file and a replay",
                admin: false,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| history::history(parts, caller, game),
                buttons: {
                    /// `history-back:7:4` (and `history-first`, `-next`, `-last`): `/history` with
                    /// the board after `turn` turns.
                    History "history-" step: Step (id: GameId, turn: usize)
                        => |parts, caller| history::step_history(parts, caller, id, turn),
                },
            },
            /// Active games and pending challenges of `user` (default: the caller); or, with
            /// `status` finished, his finished games, most recently finished first, one `page`
            /// (from 1) at a time.
            Games "games" {
                description: "Active games (opponent, game, whose turn, deadline), or finished ones with results.",
                help: "the active games and challenges of a user (you by default), most urgent first, a page at a time; `{}` pages through the finished ones, newest first",
                admin: false,
                private: true,
                examples: [status = "finished"],
                options: {
                    user: Option<User> = (false, Kind::User, "Whose games (default: yours)"),
                    status: GameStatus = (false, Kind::Status, "active (default) or finished"),
                    page: u32 = (false, Kind::Page, "Which page of the list (default 1)"),
                },
                run: |parts, caller| match status {
                    GameStatus::Active => views::games(parts, caller, user.as_ref(), page),
                    GameStatus::Finished => views::finished_games(parts, caller, user.as_ref(), page),
                },
            },
            /// The estimate of a go or Chego game's result as it stands, privately.
            Score "score" {
                description: "Estimate a go or Chego game's score as it stands: dead pieces and territory marked.",
                help: "estimate a go or Chego game's score as it stands (not where its options say analysis=off)",
                admin: false,
                private: true,
                options: { game: Option<GameId> = (false, GAME, "Which game") },
                run: |parts, caller| score::score(parts, caller, game),
            },
            /// A line of turns tried on a copy of the game, privately.
            Explore "explore" {
                description: "Try a line of turns on a copy of the game: see the board after it (only you).",
                help: "try a `line` of turns on a copy of the game and see the board after it; the game is not touched",
                admin: false,
                private: true,
                options: {
                    line: String = (true, Kind::Text, "Turns from the position now, e.g. e5 d4 c3"),
                    game: Option<GameId> = (false, GAME, "Which game"),
                },
                run: |parts, caller| explore::explore(parts, caller, game, &line),
                buttons: {
                    /// `keep:7:12:e5,d4`: stores the line `/explore` showed at `version` of the
                    /// game's record as `/conditional` would (an older version is refused).
                    Keep "keep" (id: GameId, version: u64, line: KeptLine) private
                        => |parts, caller| explore::keep(parts, caller, id, version, line),
                },
            },
            /// The legal turns, or those from `square`, highlighted on the board.
            Legal "legal" {
                description: "The legal turns, highlighted on the board.",
                help: "the legal turns (from a `square`), marked on the board",
                admin: false,
                private: true,
                options: {
                    game: Option<GameId> = (false, GAME, "Which game"),
                    square: Option<String> = (false, Kind::Suggested(Field::Square), "Only the turns from this square"),
                },
                run: |parts, caller| views::legal(parts, caller, game, square.as_deref()),
            },
            /// A summary of a game's rules and notation.
            Rules "rules" {
                description: "A short summary of a game's rules and notation.",
                help: "a summary of a game's rules and notation",
                admin: false,
                private: true,
                options: { game: GameKind = (true, Kind::Game, "Which game") },
                run: |parts, caller| {
                    let _ = (parts, caller);
                    views::rules(game)
                },
            },
            /// `/notify`: how the caller is told it is his turn, and his daily digest.
            Notify "notify" {
                description: "How you are told that it is your turn; {} sends one message a day.",
                help: "how you are told that it is your turn: `mode` channel, dm or off; `{}` a daily message at `hour` (UTC) listing the games where you are to move",
                admin: false,
                private: true,
                examples: [digest = "on"],
                options: {
                    mode: Option<NotifyMode> = (false, Kind::Notify, "channel, dm or off (default: as it is)"),
                    digest: Option<bool> = (false, Kind::OnOff, "on: one direct message a day listing the games where you are to move"),
                    hour: Option<u8> = (false, Kind::Hour, "The digest's hour, 0-23 UTC (default 8)"),
                },
                run: |parts, caller| digest::set_notify(parts, caller, digest::NotifyChange { mode, digest, hour }),
            },
            /// `/settings`: shows the caller's settings, setting `confirm` when given, and the
            /// server's `threads` (Manage Server, checked by the handler: the command is
            /// everyone's).
            Settings "settings" {
                description: "Your settings; {} previews a typed /move, /drop or /pass before it is played.",
                help: "your settings; `{}` shows a typed /move, /drop or /pass with Confirm and Cancel before it is played; \
                       `{}` gives each game started in this server a thread (Manage Server)",
                admin: false,
                private: true,
                examples: [confirm = "on", threads = "on"],
                options: {
                    confirm: Option<bool> = (false, Kind::OnOff, "on: preview typed turns (and passes) before they are played"),
                    threads: Option<bool> = (false, Kind::OnOff, "This server: on = each game gets a thread (Manage Server)"),
                },
                run: |parts, caller| picker::settings(parts, caller, confirm, threads),
            },
            /// Pauses the clocks of all the caller's games for `days` (0-30; 0 ends the pause).
            Vacation "vacation" {
                description: "Pause the clocks of all your games for some days (0 ends your vacation).",
                help: "pause the clocks of all your games for `days` (0 ends it early), within a yearly allowance",
                admin: false,
                private: true,
                options: { days: u8 = (true, Kind::VacationDays, "How many days, 0 to 30 (0: back now)") },
                run: |parts, caller| vacation::vacation(parts, caller, days),
            },
            /// Ends any game of the caller's server without result; needs [`Caller::admin`].
            AdminAbort "admin-abort" {
                description: "End any game of this server without result (needs the Manage Server permission).",
                help: "end any game without result (Manage Server permission)",
                admin: true,
                options: { game: GameId = (true, GAME, "Which game, e.g. 12") },
                run: |parts, caller| endings::admin_abort(parts, caller, game),
            },
            /// Games, wins, losses, draws and rating of `user` (default: the caller), per game (or
            /// only `game`), in the caller's server.
            Stats "stats" {
                description: "Games, wins, losses, draws and rating per game, in this server.",
                help: "a player's games, wins, losses, draws and rating per game here (`user`, `game` optional)",
                admin: false,
                options: {
                    user: Option<User> = (false, Kind::User, "Whose (default: yours)"),
                    game: Option<GameKind> = (false, Kind::Game, "Only this game"),
                },
                run: |parts, caller| community::stats(parts, caller, user.as_ref(), game),
            },
            /// The best-rated players of `game` in the caller's server.
            Leaderboard "leaderboard" {
                description: "The ten best-rated players of a game in this server.",
                help: "the ten best-rated players of a `game` here, and your place",
                admin: false,
                options: { game: GameKind = (true, Kind::Game, "Which game") },
                run: |parts, caller| community::leaderboard(parts, caller, game),
            },
            /// `/tournament create`: a tournament of this server, posted with Join and Leave;
            /// needs Manage Server (checked by the handler: Discord's subcommands share one
            /// permission).
            TournamentCreate "tournament create" {
                description: "Create a tournament in this channel (needs Manage Server).",
                help: "create a round-robin or Swiss tournament here: `game`, and optionally `format`, `days`, `options`, \
                       `name`, `rounds`, `double`, `division`, `max`, `starts`, `rated` (Manage Server)",
                admin: false,
                options: {
                    game: GameKind = (true, Kind::Game, "Which game"),
                    format: TournamentFormat = (false, Kind::Format, "round-robin (default) or swiss") via tournament::format,
                    days: Option<u32> = (false, Kind::TournamentDays, "Days per move, 1-14 (default 3)"),
                    options: Option<String> = (false, Kind::Text, "Game options, e.g. board=9x9 komi=6.5"),
                    name: Option<String> = (false, Kind::Text, "The tournament's name"),
                    rounds: Option<u32> = (false, Kind::Rounds, "Swiss: rounds, 1-30 (default: enough for one winner)"),
                    double: Option<bool> = (false, Kind::OnOff, "Round robin: on = each pair plays twice"),
                    division: Option<u32> = (false, Kind::Division, "Round robin: most players per division, 3-30 (default 10)"),
                    max: Option<u32> = (false, Kind::Players, "Most players, 2-1000 (default 100)"),
                    starts: Option<String> = (false, Kind::Text, "Start by itself after this long, e.g. 2d or 12h"),
                    rated: Option<bool> = (false, Kind::OnOff, "Whether results are rated (default on)"),
                },
                run: |parts, caller| {
                    let terms = tournament::Terms {
                        game, format, days, options, name, rounds, double, division, max, starts, rated,
                    };
                    tournament::create(parts, caller, terms)
                },
            },
            /// `/tournament join` (also the Join button).
            TournamentJoin "tournament join" {
                description: "Join a tournament before it starts.",
                help: "join a tournament before it starts (also the Join button)",
                admin: false,
                options: { tournament: Option<TournamentId> = (false, Kind::Text, "Which tournament, e.g. T1 (default: the only open one)") via tournament::id },
                run: |parts, caller| tournament::join(parts, caller, tournament),
                buttons: {
                    /// `tournament-join:1`: the Join button under a new tournament.
                    TournamentJoin "tournament-join" (id: TournamentId) => |parts, caller| tournament::join(parts, caller, Some(id)),
                },
            },
            /// `/tournament leave`: before the start, leaves; after it, withdraws (his
            /// unfinished games are lost by forfeit).
            TournamentLeave "tournament leave" {
                description: "Leave a tournament; after its start, withdraw (unfinished games are forfeited).",
                help: "leave a tournament; once it has started, withdraw: your unfinished games in it are lost by forfeit",
                admin: false,
                options: { tournament: Option<TournamentId> = (false, Kind::Text, "Which tournament (default: your only one)") via tournament::id },
                run: |parts, caller| tournament::leave(parts, caller, tournament),
                buttons: {
                    /// `tournament-leave:1`: the Leave button under a new tournament.
                    TournamentLeave "tournament-leave" (id: TournamentId) => |parts, caller| tournament::leave(parts, caller, Some(id)),
                },
            },
            /// `/tournament start`: by its creator or Manage Server, with two players or more.
            TournamentStart "tournament start" {
                description: "Start a tournament now (its creator, or Manage Server).",
                help: "start a tournament now, with at least 2 players (its creator, or Manage Server)",
                admin: false,
                options: { tournament: Option<TournamentId> = (false, Kind::Text, "Which tournament (default: the only open one)") via tournament::id },
                run: |parts, caller| tournament::start(parts, caller, tournament),
            },
            /// `/tournament cancel`: removes an open tournament; ends a running one, its
            /// unfinished games aborted.
            TournamentCancel "tournament cancel" {
                description: "Cancel a tournament (its creator, or Manage Server).",
                help: "cancel a tournament: before its start it is removed, after it its unfinished games are aborted",
                admin: false,
                options: { tournament: Option<TournamentId> = (false, Kind::Text, "Which tournament (default: the only one)") via tournament::id },
                run: |parts, caller| tournament::cancel(parts, caller, tournament),
            },
            /// `/tournament standings`: public, as a picture and as text, 25 rows a page.
            TournamentStandings "tournament standings" {
                description: "A tournament's standings, as a picture and as text.",
                help: "a tournament's standings as a picture and as text, 25 rows a `page`",
                admin: false,
                options: {
                    tournament: Option<TournamentId> = (false, Kind::Text, "Which tournament (default: the only running one)") via tournament::id,
                    page: u32 = (false, Kind::Page, "Which page (default 1)"),
                },
                run: |parts, caller| tournament::standings(parts, caller, tournament, page),
            },
            /// `/tournament list`: this server's tournaments.
            TournamentList "tournament list" {
                description: "This server's tournaments: format, game, players and state.",
                help: "this server's tournaments (`status`: open, running or finished; default open and running)",
                admin: false,
                options: { status: ListStatus = (false, Kind::TournamentStatus, "open, running or finished (default: open and running)") via tournament::status },
                run: |parts, caller| tournament::list(parts, caller, status),
            },
            /// Every command in one line each, and where the rules are.
            Help "help" {
                description: "Every command in one line, and where each game's rules are.",
                help: "this list",
                admin: false,
                private: true,
                options: {},
                run: |parts, caller| {
                    let _ = (parts, caller);
                    Ok(help())
                },
            },
        }
    };
}

pub(crate) use command_table;
