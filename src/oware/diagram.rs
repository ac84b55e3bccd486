//! Oware positions as SVG diagrams: the board as a player draws it and, with a move, its sowing
//! and captures, each step listed with its clause id.

use plotters::prelude::*;

use crate::diagram::{
    arrow, drawing, font, left_font, put, side_panel, DiagramError, GREY, HARVEST, LINE, MAX_STEPS,
    PIT, SOW, START, WOOD,
};
use crate::side::Side;

/// The title of an Oware diagram without a move: the player to move or, for a finished game, that
/// it is over, the result, the scores and the clause that ended it, as `oware replay` says.
pub fn oware_title(g: &crate::oware::Game) -> String {
    use crate::oware::game::Verdict;
    let Some(o) = g.outcome() else {
        return format!("{} to move", g.position().to_move());
    };
    let [south, north] = o.scores;
    match (o.verdict, o.winner) {
        (Verdict::RulesSilent, _) => format!(
            "The game stopped at {south}-{north}: the rules are silent here (oware {})",
            o.clause
        ),
        (Verdict::Decided, Some(winner)) => format!(
            "The game is over: {winner} wins {south}-{north} (oware {})",
            o.clause
        ),
        (Verdict::Decided, None) => {
            format!(
                "The game is over: a draw, {south}-{north} (oware {})",
                o.clause
            )
        }
    }
}

/// The centre of an Oware pit (0–5 South's A–F left to right, 6–11 North's a–f right to left).
fn oware_centre(pit: usize) -> (i32, i32) {
    if pit < 6 {
        (150 + pit as i32 * 90, 250)
    } else {
        (150 + (11 - pit) as i32 * 90, 150)
    }
}

/// Where each of the 12 pits is on the diagram.
pub fn oware_pit_places() -> Vec<crate::registry::PitPlace> {
    (0..12)
        .map(|i| {
            let (x, y) = oware_centre(i);
            crate::registry::PitPlace {
                name: crate::oware::rules::pit_name(i).to_string(),
                x,
                y,
                r: 36,
            }
        })
        .collect()
}

/// A move drawn on an Oware diagram: the pit emptied, the seeds it captured, its steps.
pub struct OwareMove<'a> {
    /// Pit index 0–11 emptied by the move.
    pub from: usize,
    /// Seeds the move captured.
    pub captured: u8,
    /// The steps, clause id and text.
    pub steps: &'a [(&'static str, String)],
}

/// The pits an Oware sowing from `from` passes, in order (counter-clockwise, the emptied pit
/// skipped on later laps).
fn oware_sowing(pits: &[u8; 12], from: usize) -> Vec<usize> {
    let mut path = Vec::new();
    let mut pit = from;
    while path.len() < usize::from(pits[from]) {
        pit = (pit + 1) % 12;
        if pit != from {
            path.push(pit);
        }
    }
    path
}

/// The opponent pits a move captured: the run of twos and threes back from the last pit sown,
/// kept only when their seeds add up to what the engine says was captured.
fn oware_captured(pits: &[u8; 12], from: usize, path: &[usize], captured: u8) -> Vec<usize> {
    let mut after = *pits;
    after[from] = 0;
    for &p in path {
        after[p] += 1;
    }
    let theirs = |p: usize| (p < 6) != (from < 6);
    let mut run = Vec::new();
    let mut total = 0u32;
    let mut p = *path.last().unwrap_or(&from);
    while theirs(p) && (2..=3).contains(&after[p]) && run.len() < 6 {
        run.push(p);
        total += u32::from(after[p]);
        p = (p + 11) % 12;
    }
    if total == u32::from(captured) && captured > 0 {
        run
    } else {
        Vec::new()
    }
}

/// The SVG of an Oware position and, with a move, its sowing, captures and steps.
pub fn oware_svg(
    pits: &[u8; 12],
    scores: [u8; 2],
    to_move: Side,
    title: &str,
    mv: Option<&OwareMove>,
) -> Result<String, DiagramError> {
    let steps = mv.map_or(&[][..], |m| m.steps);
    let shown = steps.len().min(MAX_STEPS);
    let height = 340 + LINE * (shown as i32 + 2);
    drawing(height, title, |area| {
        put!(area, &Rectangle::new([(90, 95), (660, 305)], WOOD.filled()))?;
        for (i, &n) in pits.iter().enumerate() {
            let (x, y) = oware_centre(i);
            put!(area, &Circle::new((x, y), 36, PIT.filled()))?;
            put!(
                area,
                &Text::new(n.to_string(), (x, y - 2), font(22, &BLACK))
            )?;
            let name = crate::oware::rules::pit_name(i).to_string();
            put!(area, &Text::new(name, (x + 26, y + 28), font(11, &GREY)))?;
        }
        for (side, y) in [(Side::North, 150), (Side::South, 250)] {
            let score = scores[side.index()].to_string();
            side_panel(area, side, y, (690, &score, "score"), to_move == side)?;
        }
        if let Some(m) = mv {
            let path = oware_sowing(pits, m.from);
            put!(
                area,
                &Circle::new(oware_centre(m.from), 40, START.stroke_width(4))
            )?;
            let mut points = vec![oware_centre(m.from)];
            // One lap drawn; a longer sowing's later laps pass the same pits.
            points.extend(path.iter().take(11).map(|&p| oware_centre(p)));
            if path.len() > 11 {
                points.push(oware_centre(*path.last().expect("a sowing")));
            }
            arrow(area, &points, &SOW, 20.0)?;
            for p in oware_captured(pits, m.from, &path, m.captured) {
                put!(
                    area,
                    &Circle::new(oware_centre(p), 40, HARVEST.stroke_width(4))
                )?;
            }
        }
        let mut y = 340;
        for (i, (clause, text)) in steps.iter().take(shown).enumerate() {
            let line = format!("{}. [oware {clause}] {text}", i + 1);
            put!(area, &Text::new(line, (20, y), left_font(13, &BLACK)))?;
            y += LINE;
        }
        Ok(())
    })
}
