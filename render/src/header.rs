//! The words around the board: the title row (game, turn, result) and each player's bar
//! (a stone of the side's colour, name, side, whose turn, prisoners or score, and the
//! pieces in hand with their counts).

use stonemate_engine::{BoardView, Color, EndReason, Outcome, Status};

use crate::board::inks;
use crate::frame::Frame;
use crate::layout::{Layout, count_label};
use crate::palette::{Base, Ground, Palette};
use crate::picture::Picture;
use crate::pieces::Mark;
use crate::text::{self, Face};
use crate::tiles::{Place, Stack, TileSet};

/// Draws the title row and both players' bars.
pub fn draw(frame: &mut Frame, picture: &Picture, layout: &Layout) {
    title_row(frame, picture, layout);
    bar(frame, picture, layout, layout.perspective.other(), layout.top_bar_y);
    bar(frame, picture, layout, layout.perspective, layout.bottom_bar_y);
}

/// What the title row says on the right: the turn to come, or how the game ended.
#[must_use]
pub fn status_text(view: &BoardView) -> String {
    match view.status {
        Status::Ongoing { .. } => format!("turn {}", view.turns_played + 1),
        Status::Finished(ending) => {
            let outcome = match ending.outcome {
                // An aborted game has no result: not a draw.
                _ if ending.reason == EndReason::Aborted => "No result".to_owned(),
                Outcome::Winner(color) => format!("{} wins", view.side_names[color.index()]),
                Outcome::Draw => "Draw".to_owned(),
            };
            format!("{outcome} · {}", ending.reason)
        }
    }
}

fn baseline(top: usize, height: usize, px: u16) -> usize {
    top + (height + text::cap_height(px)) / 2
}

fn title_row(frame: &mut Frame, picture: &Picture, layout: &Layout) {
    let palette = Palette::get();
    let px = layout.title_px;
    let base = baseline(layout.title_y, layout.title_height, px);
    let status = status_text(&picture.view);
    let finished = picture.view.status.ending().is_some();
    let (face, ramp) = if finished { (Face::Bold, &palette.accent) } else { (Face::Regular, &palette.text_dim) };
    let room = layout.width - 2 * layout.pad;
    let status = text::fit(face, px, &status, room * 2 / 3);
    let status_width = text::width(face, px, &status);
    text::draw(frame, face, px, (layout.width.saturating_sub(layout.pad + status_width), base), &status, ramp);
    let title = text::fit(Face::Bold, px, &picture.title, room.saturating_sub(status_width + layout.pad));
    text::draw(frame, Face::Bold, px, (layout.pad, base), &title, &palette.text);
}

/// The right-hand words of a player's bar: prisoners taken and points.
fn stats_text(view: &BoardView, color: Color) -> String {
    let mut parts = Vec::new();
    if let Some(prisoners) = view.prisoners {
        parts.push(format!("{} captured", prisoners[color.index()]));
    }
    if let Some(score) = view.score {
        parts.push(format!("score {}", score.of(color)));
    }
    parts.join(" · ")
}

/// The tag after a side's name: whose turn it is, or who won.
fn tag(view: &BoardView, color: Color) -> &'static str {
    match view.status {
        Status::Ongoing { to_move } if to_move == color => "to move",
        Status::Finished(ending) if ending.outcome == Outcome::Winner(color) => "wins",
        _ => "",
    }
}

fn bar(frame: &mut Frame, picture: &Picture, layout: &Layout, color: Color, top: usize) {
    let view = &picture.view;
    let palette = Palette::get();
    let swatches = TileSet::get(layout.swatch, Place::Hand(view.look));
    let ink = inks(view)[color.index()];
    let swatch_top = top + layout.bar_height.saturating_sub(layout.swatch) / 2;
    swatches.tile(Ground::Normal(Base::Page), Stack::from(Mark::Swatch(ink))).draw(frame, layout.pad, swatch_top);
    let (px, dim_px) = (layout.name_px, layout.count_px);
    let base = baseline(top, layout.bar_height, px);
    let right = layout.width - layout.pad;
    let stats = stats_text(view, color);
    let stats_width = text::width(Face::Regular, dim_px, &stats);
    text::draw(frame, Face::Regular, dim_px, (right.saturating_sub(stats_width), base), &stats, &palette.text);
    let side = view.side_names[color.index()];
    let tag = tag(view, color);
    let name = &picture.players[color.index()];
    // A player with no name of their own is shown by the side's name, once.
    let after = if name == side { String::new() } else { format!("  {side}") };
    let after_width = text::width(Face::Regular, dim_px, &after) + text::width(Face::Bold, dim_px, tag) + 8;
    let name_left = layout.pad + layout.swatch + layout.swatch / 3;
    let room = right.saturating_sub(name_left + stats_width + after_width + layout.pad);
    let name = text::fit(Face::Bold, px, name, room);
    let x = text::draw(frame, Face::Bold, px, (name_left, base), &name, &palette.text);
    let x = text::draw(frame, Face::Regular, dim_px, (x, base), &after, &palette.text_dim);
    text::draw(frame, Face::Bold, dim_px, (x + 8, base), tag, &palette.accent);
    hand(frame, picture, layout, color, top + layout.bar_height);
}

/// The pieces in a player's hand, each with its count, wrapping into as many rows as the
/// layout has.
fn hand(frame: &mut Frame, picture: &Picture, layout: &Layout, color: Color, top: usize) {
    let view = &picture.view;
    let Some(hands) = view.hands else { return };
    let palette = Palette::get();
    let hand = hands[color.index()];
    let icons = TileSet::get(layout.icon, Place::Hand(view.look));
    let ink = inks(view)[color.index()];
    let (mut x, mut row) = (layout.pad, 0);
    if hand.is_empty() {
        let base = baseline(top, layout.hand_row_height, layout.count_px);
        text::draw(frame, Face::Regular, layout.count_px, (x, base), "no pieces in hand", &palette.text_dim);
        return;
    }
    for role in hand.roles() {
        let entry = layout.hand_entry_width(hand.count(role));
        if x + entry > layout.width - layout.pad && x > layout.pad {
            (x, row) = (layout.pad, row + 1);
        }
        if row >= layout.hand_rows {
            break;
        }
        let row_top = top + row * layout.hand_row_height;
        let icon_top = row_top + layout.hand_row_height.saturating_sub(layout.icon) / 2;
        icons.tile(Ground::Normal(Base::Page), Stack::from(Mark::Piece(role, ink))).draw(frame, x, icon_top);
        let label = count_label(hand.count(role));
        let base = baseline(row_top, layout.hand_row_height, layout.count_px);
        text::draw(frame, Face::Bold, layout.count_px, (x + layout.icon + 2, base), &label, &palette.text);
        x += entry;
    }
}
