//! Ratings drawn as the HTML report draws them: a row an agent, strongest
//! at the top, its rating a point and its 95% interval a whisker, on a scale
//! with round ticks under it (and the zero line for Elo, whose mean is 0).

use bevy_egui::egui::{self, Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, pos2, vec2};

use crate::arena_run::html::{format_tick, nice_step, scale};

/// A row's height, the room under the rows for the tick labels, and the
/// widest the plot is drawn (wider only spreads the same whiskers).
const ROW: f32 = 22.0;
const TICK_ROOM: f32 = 24.0;
const MAX_WIDTH: f32 = 640.0;
/// Pixels between two ticks, about.
const TICK_SPACING: f32 = 80.0;
const TEXT: f32 = 14.0;
const WHISKER: Color32 = Color32::from_rgb(90, 190, 120);
const POINT: Color32 = Color32::from_rgb(200, 250, 215);
const GRID: Color32 = Color32::from_gray(62);
const ZERO: Color32 = Color32::from_gray(150);
/// A whisker without end (an agent that has met nobody yet), faint.
const UNBOUNDED: Color32 = Color32::from_rgb(70, 110, 80);

/// One row of the plot: the agent's name, its rating and the half-width of
/// its 95% interval (infinite when it has met nobody).
pub struct PlotRow<'a> {
    pub name: &'a str,
    pub value: f64,
    pub interval: f64,
}

pub(super) fn ratings_plot(ui: &mut egui::Ui, rows: &[PlotRow], signed: bool) {
    let width = ui.available_width().min(MAX_WIDTH);
    let height = ROW * rows.len() as f32 + TICK_ROOM + 6.0;
    let (rect, _) = ui.allocate_exact_size(vec2(width, height), Sense::hover());
    let painter = ui.painter_at(rect.expand(2.0));
    let font = FontId::proportional(TEXT);
    let text_color = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    // The names' column as wide as the longest name, within reason.
    let names = rows
        .iter()
        .map(|r| painter.layout_no_wrap(r.name.to_owned(), font.clone(), text_color).size().x)
        .fold(0.0f32, f32::max)
        .min(width * 0.4)
        + 14.0;
    let plot = Rect::from_min_max(
        pos2(rect.left() + names, rect.top()),
        pos2(rect.right() - 16.0, rect.bottom() - TICK_ROOM),
    );
    painter.rect_filled(plot, 3.0, ui.visuals().extreme_bg_color);
    let (lo, hi) = scale(&rows.iter().map(|r| (r.value, r.interval)).collect::<Vec<_>>(), signed);
    let x = |v: f64| plot.left() + ((v - lo) / (hi - lo)) as f32 * plot.width();
    let step = nice_step((hi - lo) / (plot.width() / TICK_SPACING).max(2.0) as f64);
    let mut tick = (lo / step).ceil() * step;
    while tick <= hi {
        let at = x(tick);
        let zero = signed && tick.abs() < step / 2.0;
        painter.vline(
            at,
            plot.y_range(),
            Stroke::new(if zero { 1.5 } else { 1.0 }, if zero { ZERO } else { GRID }),
        );
        painter.text(
            pos2(at, plot.bottom() + 4.0),
            Align2::CENTER_TOP,
            format_tick(tick, step, signed),
            FontId::proportional(TEXT - 1.0),
            weak,
        );
        tick += step;
    }
    for (i, row) in rows.iter().enumerate() {
        let y = plot.top() + ROW * (i as f32 + 0.5);
        painter.text(pos2(plot.left() - 10.0, y), Align2::RIGHT_CENTER, row.name, font.clone(), text_color);
        if row.interval.is_finite() {
            let (a, b) = (x(row.value - row.interval), x(row.value + row.interval));
            painter.hline(a..=b, y, Stroke::new(3.0, WHISKER));
            for end in [a, b] {
                painter.vline(end, (y - 6.0)..=(y + 6.0), Stroke::new(2.0, WHISKER));
            }
        } else {
            painter.hline(plot.x_range(), y, Stroke::new(2.0, UNBOUNDED));
        }
        painter.circle_filled(Pos2::new(x(row.value), y), 5.0, POINT);
    }
}
