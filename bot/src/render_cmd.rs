//! `stonemate render`: draws the position after a record as a PNG, or with `--animate`
//! every position of it as an animated GIF. Reads records like `stonemate replay`.
//!
//! Exit status: 0 when the picture was written after every turn played; 1 when a turn
//! could not be played (the picture shows the position before it, and the error is
//! printed); 2 for bad arguments or a file that cannot be read or written.

use std::path::PathBuf;
use std::process::ExitCode;

use stonemate_engine::{AnyGame, Color, GameKind, ReplayError};
use stonemate_render::Picture;

use crate::replay::{self, RecordArgs, option_pairs, read_record};

/// What to draw and where.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The record to draw.
    #[command(flatten)]
    pub record: RecordArgs,
    /// Where to write the picture (a PNG, or a GIF with --animate).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Draw the whole game as an animated GIF instead of the last position.
    #[arg(long)]
    pub animate: bool,
    /// The side drawn at the bottom: white or black (default: the side whose home is
    /// rank 1, which is Black in Gess).
    #[arg(long, value_parser = parse_side)]
    pub perspective: Option<Color>,
    /// The heading above the board (default: the game's name).
    #[arg(long)]
    pub title: Option<String>,
    /// The first player's name (default: the side's name, such as White).
    #[arg(long)]
    pub white: Option<String>,
    /// The second player's name (default: the side's name, such as Black or Green).
    #[arg(long)]
    pub black: Option<String>,
}

fn parse_side(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "first" => Ok(Color::White),
        "black" | "green" | "second" => Ok(Color::Black),
        _ => Err(format!("`{text}` is not a side: use white or black")),
    }
}

/// Runs `stonemate render`.
pub fn run(args: &RenderArgs) -> ExitCode {
    match render(args) {
        Ok(None) => ExitCode::SUCCESS,
        Ok(Some(error)) => {
            crate::output::error(&format!("stonemate render: {error}; the picture shows the position before it"));
            ExitCode::from(1)
        }
        Err(message) => {
            crate::output::error(&format!("stonemate render: {message}"));
            ExitCode::from(2)
        }
    }
}

/// Draws and writes the picture; returns the turn that could not be played, if any.
fn render(args: &RenderArgs) -> Result<Option<ReplayError>, String> {
    let record = read_record(args.record.file.as_ref()).map_err(|e| e.to_string())?;
    let options = option_pairs(&args.record.options).map_err(|e| e.to_string())?;
    let (options, turns) = replay::read_turns(args.record.kind, &options, &record).map_err(|e| e.to_string())?;
    let (positions, error) = positions(args.record.kind, &options, &turns, args.animate)?;
    let pictures: Vec<Picture> = positions.into_iter().map(|position| picture(args, &position)).collect();
    let bytes = if args.animate {
        stonemate_render::animation(&pictures)
    } else {
        stonemate_render::png(pictures.last().expect("the start position is always there"))
    };
    std::fs::write(&args.out, bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(error)
}

/// The positions of the record: only the last one, or with `every` each one from the
/// start; and the first turn that could not be played.
fn positions(
    kind: GameKind,
    options: &[(String, String)],
    turns: &[String],
    every: bool,
) -> Result<(Vec<AnyGame>, Option<ReplayError>), String> {
    let (mut positions, error) =
        stonemate_engine::replay::positions(kind, options, turns).map_err(|e| e.to_string())?;
    if !every {
        positions.drain(..positions.len() - 1);
    }
    Ok((positions, error))
}

fn picture(args: &RenderArgs, position: &AnyGame) -> Picture {
    let view = position.view();
    let [white, black] = view.side_names;
    Picture {
        title: args.title.clone().unwrap_or_else(|| position.kind().title().to_owned()),
        players: [
            args.white.clone().unwrap_or_else(|| white.to_owned()),
            args.black.clone().unwrap_or_else(|| black.to_owned()),
        ],
        perspective: args.perspective.unwrap_or(view.first_rank_side),
        highlights: Vec::new(),
        arrows: Vec::new(),
        marked: Vec::new(),
        view,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(record: &str, name: &str, animate: bool) -> RenderArgs {
        let dir = std::env::temp_dir().join(format!("stonemate-render-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join(format!("{name}.txt"));
        std::fs::write(&file, record).unwrap();
        RenderArgs {
            record: RecordArgs { kind: GameKind::Go, options: vec!["board=9x9".to_owned()], file: Some(file) },
            out: dir.join(format!("{name}.out")),
            animate,
            perspective: Some(Color::Black),
            title: None,
            white: Some("alice".to_owned()),
            black: None,
        }
    }

    #[test]
    fn render_writes_a_png_of_the_last_position() {
        let args = args("R@e5 R@d4 R@c3", "png", false);
        assert!(render(&args).unwrap().is_none());
        let bytes = std::fs::read(&args.out).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }

    #[test]
    fn render_stops_at_an_illegal_turn_and_draws_the_position_before_it() {
        let args = args("R@e5 R@e5", "illegal", false);
        let error = render(&args).unwrap().expect("the second drop is refused");
        assert_eq!(error.index, 2);
        let before = args_picture_bytes("R@e5");
        assert_eq!(std::fs::read(&args.out).unwrap(), before);
    }

    fn args_picture_bytes(record: &str) -> Vec<u8> {
        let args = args(record, "before", false);
        render(&args).unwrap();
        std::fs::read(&args.out).unwrap()
    }

    #[test]
    fn render_animate_writes_a_gif_of_every_position() {
        let args = args("R@e5 R@d4 R@c3 pass", "gif", true);
        assert!(render(&args).unwrap().is_none());
        let bytes = std::fs::read(&args.out).unwrap();
        assert_eq!(&bytes[..6], b"GIF89a");
    }

    #[test]
    fn unknown_options_are_bad_arguments() {
        let mut args = args("", "bad", false);
        args.record.options = vec!["colour=red".to_owned()];
        assert!(render(&args).is_err());
    }
}
