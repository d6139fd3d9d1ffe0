//! The arena's report as one HTML page: the ratings drawn as points with
//! their 95% intervals (SVG, drawn here: no script, no network), the
//! crosstable, the Weng-Lin ratings of games of more seats, and the levels.

use tabula_engine::arena::Arena;

use super::report::Standings;

const ROW: f64 = 34.0;
const LEFT: f64 = 150.0;
const PLOT: f64 = 520.0;

/// Text made safe inside HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Points with whiskers, one row an agent in `order` (strongest at the
/// top), on a scale that holds every interval (the heading above names the
/// scale); `values[a]` is agent a's rating and interval. Ticks carry a sign
/// when `signed` (Elo's are about 0).
fn plot(agents: &[String], order: &[usize], values: &[(f64, f64)], signed: bool) -> String {
    let names: Vec<&str> = order.iter().map(|&a| agents[a].as_str()).collect();
    let values: Vec<(f64, f64)> = order.iter().map(|&a| values[a]).collect();
    let (lo, hi) = scale(&values, signed);
    let x = |v: f64| LEFT + (v - lo) / (hi - lo) * PLOT;
    let height = ROW * names.len() as f64 + 50.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"14\">\n",
        LEFT + PLOT + 30.0
    );
    // Grid lines at round values, with their labels under the plot.
    let step = nice_step((hi - lo) / 6.0);
    let mut tick = (lo / step).ceil() * step;
    while tick <= hi {
        let at = x(tick);
        svg += &format!(
            "<line x1=\"{at:.1}\" y1=\"10\" x2=\"{at:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\n<text x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n",
            height - 30.0,
            height - 12.0,
            format_tick(tick, step, signed)
        );
        tick += step;
    }
    for (row, (name, &(value, interval))) in names.iter().zip(&values).enumerate() {
        let y = 20.0 + row as f64 * ROW;
        svg += &format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            LEFT - 12.0,
            y + 5.0,
            escape(name)
        );
        if interval.is_finite() {
            let (a, b) = (x(value - interval), x(value + interval));
            svg += &format!(
                "<line x1=\"{a:.1}\" y1=\"{y:.1}\" x2=\"{b:.1}\" y2=\"{y:.1}\" stroke=\"#2a6\" stroke-width=\"3\"/>\n\
                 <line x1=\"{a:.1}\" y1=\"{:.1}\" x2=\"{a:.1}\" y2=\"{:.1}\" stroke=\"#2a6\" stroke-width=\"2\"/>\n\
                 <line x1=\"{b:.1}\" y1=\"{:.1}\" x2=\"{b:.1}\" y2=\"{:.1}\" stroke=\"#2a6\" stroke-width=\"2\"/>\n",
                y - 7.0,
                y + 7.0,
                y - 7.0,
                y + 7.0,
            );
        } else {
            // Met nobody yet: any rating would do, so the whisker has no end.
            svg += &format!(
                "<line x1=\"{LEFT:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#bdb\" stroke-width=\"2\"/>\n",
                LEFT + PLOT
            );
        }
        svg += &format!("<circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"6\" fill=\"#153\"/>\n", x(value));
    }
    svg + "</svg>\n"
}

/// The scale of a plot of `(value, interval)` rows: every point and every
/// finite whisker inside (an agent that has met nobody has an infinite
/// interval), zero too when `signed`, with a margin either side.
pub fn scale(rows: &[(f64, f64)], signed: bool) -> (f64, f64) {
    let ends = rows.iter().flat_map(|&(value, interval)| {
        let i = if interval.is_finite() { interval } else { 0.0 };
        [value - i, value + i]
    });
    let zero = signed.then_some(0.0);
    let (lo, hi) =
        ends.chain(zero).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = match (lo.is_finite(), hi > lo) {
        (false, _) => (-1.0, 1.0),
        (true, true) => (lo, hi),
        (true, false) => (lo - 1.0, hi + 1.0),
    };
    let pad = (hi - lo) * 0.06;
    (lo - pad, hi + pad)
}

/// 1, 2 or 5 times a power of ten, near `raw`.
pub fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.abs().max(1e-9).log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&s| s >= raw).unwrap_or(10.0 * power)
}

pub fn format_tick(v: f64, step: f64, signed: bool) -> String {
    let digits = if step >= 1.0 { 0 } else { 1 };
    match signed && v.abs() >= step / 2.0 {
        true => format!("{v:+.digits$}"),
        false => format!("{:.digits$}", if v.abs() < step / 2.0 { 0.0 } else { v }),
    }
}

/// The whole page.
pub fn page(arena: &Arena, s: &Standings) -> String {
    let order = s.order();
    let mut html = format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{0}</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 2em; color: #222; }}\n\
         table {{ border-collapse: collapse; margin: 1em 0; }}\n\
         td, th {{ border: 1px solid #ccc; padding: 4px 10px; text-align: right; }}\n\
         td {{ white-space: nowrap; }}\n\
         th:first-child, td:first-child {{ text-align: left; }}\n\
         .self {{ background: #eee; }}\n</style></head><body>\n<h1>{0}</h1>\n<p>{1}</p>\n",
        escape(&arena.name),
        escape(&arena.description)
    );
    if s.has_two_seat_games() {
        let elo: Vec<(f64, f64)> = s.ratings.iter().map(|r| (r.elo, r.interval)).collect();
        html += "<h2>Elo ratings, with 95% intervals</h2>\n<p>Maximum likelihood over every two-seat game of every level; the mean is 0.</p>\n";
        html += &plot(&s.agents, &order, &elo, true);
        html += "<h2>Crosstable</h2>\n<p>The row's score against the column (a draw is half a point), and the games.</p>\n<table><tr><th></th>";
        for &b in &order {
            html += &format!("<th>{}</th>", escape(&s.agents[b]));
        }
        html += "<th>Elo</th></tr>\n";
        for &a in &order {
            html += &format!("<tr><td>{}</td>", escape(&s.agents[a]));
            for &b in &order {
                html += &match (a == b, s.against(a, b)) {
                    (true, _) => "<td class=\"self\"></td>".to_owned(),
                    (false, None) => "<td></td>".to_owned(),
                    (false, Some((score, g))) => format!("<td>{score:.1}% of {g}</td>"),
                };
            }
            html += &format!("<td>{}</td></tr>\n", super::report::elo_shown(s.ratings[a], 0));
        }
        html += "</table>\n";
    }
    if let Some(multi) = &s.multi {
        let order = super::report::strongest_first(&multi.iter().map(|m| m.0).collect::<Vec<_>>());
        html += "<h2>Weng-Lin ratings, games of more than two seats</h2>\n<p>The winner first, the others tied behind; every agent starts at 25.</p>\n";
        html += &plot(&s.agents, &order, multi, false);
    }
    html += "<h2>Levels</h2>\n<table><tr><th>level</th><th>seats</th><th>games</th>";
    for &a in &order {
        html += &format!("<th>{} won</th>", escape(&s.agents[a]));
    }
    html += "<th>draws</th></tr>\n";
    for level in &s.levels {
        html += &format!(
            "<tr><td>{}</td><td>{}</td><td>{} of {}</td>",
            escape(&level.path),
            level.seats,
            level.played,
            level.planned
        );
        for &a in &order {
            html += &format!("<td>{}</td>", level.wins[a]);
        }
        html += &format!("<td>{}</td></tr>\n", level.draws);
    }
    html + "</table>\n</body></html>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_holds_every_whisker_and_zero_but_no_endless_one() {
        let (lo, hi) = scale(&[(50.0, 30.0), (-20.0, 10.0), (0.0, f64::INFINITY)], true);
        assert!(lo < -30.0 && lo > -40.0 && hi > 80.0 && hi < 90.0, "{lo} {hi}");
        let (lo, hi) = scale(&[(26.0, 1.0), (24.0, 1.0)], false);
        assert!(lo > 22.0 && hi < 28.0, "Weng-Lin's scale is not pulled to zero: {lo} {hi}");
        let (lo, hi) = scale(&[(0.0, f64::INFINITY)], true);
        assert!(lo < 0.0 && hi > 0.0 && lo.is_finite() && hi.is_finite());
    }

    #[test]
    fn an_agent_that_met_nobody_is_a_point_on_a_whisker_without_end() {
        let agents = ["a".to_owned(), "b".to_owned()];
        let svg = plot(&agents, &[0, 1], &[(40.0, 20.0), (0.0, f64::INFINITY)], true);
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 2);
    }
}
