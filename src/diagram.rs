//! Board diagrams as SVG: a Bao or Oware position as a player draws it, and with a move, its path
//! (sowings, harvests, kichwa, house, where it stopped), each step numbered with its clause id.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::bao::trace::{Event, SidePit, Step};
use crate::bao::{Direction, Pit, Position, Row, Rules, Side, Stage};

/// A drawing the SVG backend could not make.
#[derive(Debug, thiserror::Error)]
#[error("drawing: {0}")]
pub struct DiagramError(String);

/// The CLI's errors are text.
impl From<DiagramError> for String {
    fn from(e: DiagramError) -> String {
        e.to_string()
    }
}

impl DiagramError {
    fn from_backend(e: impl std::fmt::Display) -> DiagramError {
        DiagramError(e.to_string())
    }
}

/// The comment right after the root tag of every drawing this tool makes (diagrams and plots):
/// a file at an output's place is replaced only if it carries it.
pub const MARK: &str = "<!-- drawn by mancala-lab -->";

/// `svg` (an SVG document) with [`MARK`] after its root element's start tag.
pub fn marked(mut svg: String) -> String {
    if let Some(end) = svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|j| i + j + 1))
    {
        svg.insert_str(end, &format!("\n{MARK}"));
    }
    svg
}

/// Whether `text` is a whole drawing this tool made, as it writes them: one `svg` element of the
/// SVG namespace and nothing around it, [`MARK`] right after its start tag.
pub fn is_drawing(text: &str) -> bool {
    let body = text.trim_start_matches('\u{feff}').trim();
    let Some(end) = body.find('>') else {
        return false;
    };
    body.starts_with("<svg")
        && body[..end].contains("http://www.w3.org/2000/svg")
        && body[end + 1..].trim_start().starts_with(MARK)
        && body.ends_with("</svg>")
        && body.matches("<svg").count() == 1
        && body.matches("</svg>").count() == 1
}

/// Steps drawn on the board and listed under it; a longer move's rest is counted, not drawn.
pub const MAX_STEPS: usize = 40;

const WOOD: RGBColor = RGBColor(222, 184, 135);
const PIT: RGBColor = RGBColor(250, 240, 220);
const HOUSE: RGBColor = RGBColor(139, 69, 19);
const SOW: RGBColor = RGBColor(30, 90, 200);
const HARVEST: RGBColor = RGBColor(200, 30, 30);
const START: RGBColor = RGBColor(20, 140, 60);
const KICHWA: RGBColor = RGBColor(130, 40, 160);
const GREY: RGBColor = RGBColor(110, 110, 110);

/// Width of a diagram.
const WIDTH: u32 = 900;
/// Height of the board part of a diagram (the step list follows it).
const BOARD_HEIGHT: i32 = 420;
/// Height of one line of the step list.
const LINE: i32 = 18;

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// The centre of a Bao pit: North's back row on top, as South sees the board.
fn bao_centre(side: Side, pit: Pit) -> (i32, i32) {
    let n = i32::from(pit.number());
    let (row, col) = match (side, pit.row()) {
        (Side::North, Row::Back) => (0, 8 - n),
        (Side::North, Row::Front) => (1, 8 - n),
        (Side::South, Row::Front) => (2, n - 1),
        (Side::South, Row::Back) => (3, n - 1),
    };
    (
        120 + col * 76,
        80 + row * 76 + if row >= 2 { 24 } else { 0 },
    )
}

fn font(size: u32, color: &RGBColor) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(color)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

fn left_font(size: u32, color: &RGBColor) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(color)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

/// Draws an element, the backend's error as text.
macro_rules! put {
    ($area:expr, $element:expr $(,)?) => {
        $area.draw($element).map_err(DiagramError::from_backend)
    };
}

/// An arrow along `points` with a head `short` pixels before the last point (the edge of a pit
/// rather than its count).
fn arrow(
    area: &Area,
    points: &[(i32, i32)],
    color: &RGBColor,
    short: f64,
) -> Result<(), DiagramError> {
    let mut points = points.to_vec();
    if let [.., (x0, y0), (x1, y1)] = points[..] {
        let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
        let len = dx.hypot(dy).max(1.0);
        let cut = short.min(len / 2.0);
        let last = points.len() - 1;
        points[last] = (x1 - (dx / len * cut) as i32, y1 - (dy / len * cut) as i32);
    }
    put!(
        area,
        &PathElement::new(points.clone(), color.stroke_width(3))
    )?;
    if let [.., (x0, y0), (x1, y1)] = points[..] {
        let (dx, dy) = (f64::from(x1 - x0), f64::from(y1 - y0));
        let len = dx.hypot(dy).max(1.0);
        let (ux, uy) = (dx / len, dy / len);
        let at = |along: f64, across: f64| {
            (
                x1 - (ux * along - uy * across) as i32,
                y1 - (uy * along + ux * across) as i32,
            )
        };
        put!(
            area,
            &Polygon::new(
                vec![(x1, y1), at(14.0, 6.0), at(14.0, -6.0)],
                color.filled()
            ),
        )?;
    }
    Ok(())
}

/// A step number in a small disc.
fn badge(area: &Area, at: (i32, i32), k: usize, color: &RGBColor) -> Result<(), DiagramError> {
    put!(area, &Circle::new(at, 9, color.filled()))?;
    put!(area, &Text::new(k.to_string(), at, font(11, &WHITE)))
}

/// A side's name at the left of its rows (centred on `y`), its box of `value` and `label` at
/// `x` on the right, and, for the player to move, a marker beside the name.
fn side_panel(
    area: &Area,
    side: Side,
    y: i32,
    (x, value, label): (i32, &str, &str),
    to_move: bool,
) -> Result<(), DiagramError> {
    put!(
        area,
        &Text::new(format!("{side}"), (8, y), left_font(15, &BLACK))
    )?;
    put!(
        area,
        &Rectangle::new([(x, y - 40), (x + 90, y + 40)], WOOD.filled())
    )?;
    put!(
        area,
        &Text::new(value.to_string(), (x + 45, y - 6), font(22, &BLACK))
    )?;
    put!(
        area,
        &Text::new(label.to_string(), (x + 45, y + 22), font(12, &GREY))
    )?;
    if to_move {
        // Above North's name, below South's.
        let away = if side == Side::North { -1 } else { 1 };
        let tip = y + 26 * away;
        put!(
            area,
            &Polygon::new(
                vec![(30, tip - 7), (30, tip + 7), (48, tip)],
                START.filled()
            )
        )?;
        put!(
            area,
            &Text::new("to move", (8, tip + 16 * away), left_font(11, &START))
        )?;
    }
    Ok(())
}

/// The pits a sowing of `seeds` from `first` passes, its last pit last (one lap at most drawn).
fn sowing_path(first: Pit, seeds: u8, direction: Direction, end: Pit) -> Vec<Pit> {
    let mut path = vec![first];
    let mut pit = first;
    for _ in 1..usize::from(seeds).min(16) {
        pit = pit.next(direction);
        path.push(pit);
    }
    if *path.last().expect("one pit at least") != end {
        path.push(end);
    }
    path
}

/// A diagram `height` pixels high: a white page with `title` at its top, and what `draw` puts
/// on it; the SVG document.
fn drawing(
    height: i32,
    title: &str,
    draw: impl FnOnce(&Area) -> Result<(), DiagramError>,
) -> Result<String, DiagramError> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (WIDTH, height as u32)).into_drawing_area();
        area.fill(&WHITE).map_err(DiagramError::from_backend)?;
        put!(
            area,
            &Text::new(title.to_string(), (20, 22), left_font(18, &BLACK))
        )?;
        draw(&area)?;
        area.present().map_err(DiagramError::from_backend)?;
    }
    Ok(marked(svg))
}

/// The SVG of a Bao position and, with a move, the move's steps on it.
pub fn bao_svg(pos: &Position, title: &str, steps: &[Step]) -> Result<String, DiagramError> {
    let shown = steps.len().min(MAX_STEPS);
    let height = BOARD_HEIGHT + LINE * (shown as i32 + 2);
    drawing(height, title, |area| {
        put!(area, &Rectangle::new([(70, 35), (690, 385)], WOOD.filled()),)?;
        put!(
            area,
            &PathElement::new(vec![(70, 210), (690, 210)], HOUSE.stroke_width(2)),
        )?;
        for side in Side::BOTH {
            for pit in Pit::all() {
                draw_bao_pit(area, pos, side, pit)?;
            }
            // The store, the house's state, the side's name and the mover's mark.
            let y = if side == Side::North { 118 } else { 302 };
            let store = pos.store(side).to_string();
            side_panel(area, side, y, (710, &store, "store"), pos.to_move() == side)?;
            let house = if pos.house_owned(side) {
                "house owned"
            } else {
                "house lost"
            };
            put!(area, &Text::new(house, (820, y), left_font(12, &GREY)))?;
        }
        if let Some(pit) = pos.blocked() {
            blocked_mark(area, bao_centre(pos.to_move(), pit))?;
        }
        let mut marks = StepMarks::default();
        for (i, step) in steps.iter().take(shown).enumerate() {
            draw_bao_step(area, i + 1, step, &mut marks)?;
        }
        // Counts and step numbers go on top of the paths.
        for side in Side::BOTH {
            for pit in Pit::all() {
                let (x, y) = bao_centre(side, pit);
                put!(area, &Circle::new((x, y - 2), 13, PIT.filled()))?;
                put!(
                    area,
                    &Text::new(
                        pos.board().get(side, pit).to_string(),
                        (x, y - 2),
                        font(20, &BLACK)
                    )
                )?;
            }
        }
        for (at, k, color) in marks.badges {
            badge(area, at, k, &color)?;
        }
        let mut y = BOARD_HEIGHT;
        for (i, step) in steps.iter().take(shown).enumerate() {
            put!(
                area,
                &Text::new(format!("{}. {step}", i + 1), (20, y), left_font(13, &BLACK)),
            )?;
            y += LINE;
        }
        if steps.len() > shown {
            let rest = format!(
                "... and {} more steps (all of them: bao explain)",
                steps.len() - shown
            );
            put!(area, &Text::new(rest, (20, y), left_font(13, &GREY)))?;
        }
        Ok(())
    })
}

fn draw_bao_pit(area: &Area, pos: &Position, side: Side, pit: Pit) -> Result<(), DiagramError> {
    let (x, y) = bao_centre(side, pit);
    if pit.is_house() {
        let owned = pos.house_owned(side);
        put!(
            area,
            &Rectangle::new([(x - 30, y - 30), (x + 30, y + 30)], PIT.filled())
        )?;
        let border = if owned {
            HOUSE.stroke_width(4)
        } else {
            GREY.stroke_width(1)
        };
        put!(
            area,
            &Rectangle::new([(x - 30, y - 30), (x + 30, y + 30)], border)
        )?;
    } else {
        put!(area, &Circle::new((x, y), 30, PIT.filled()))?;
    }
    put!(
        area,
        &Text::new(pit.name(side), (x + 20, y + 22), font(10, &GREY)),
    )
}

/// A red ring with a cross broken around the count: the kutakatia-ed pit (5.1).
fn blocked_mark(area: &Area, (x, y): (i32, i32)) -> Result<(), DiagramError> {
    put!(area, &Circle::new((x, y), 33, HARVEST.stroke_width(3)))?;
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        put!(
            area,
            &PathElement::new(
                vec![(x + 14 * dx, y + 14 * dy), (x + 27 * dx, y + 27 * dy)],
                HARVEST.stroke_width(3)
            )
        )?;
    }
    Ok(())
}

/// Where a move's step numbers go, drawn after the paths, and the pit its last sowing ended in.
#[derive(Default)]
struct StepMarks {
    badges: Vec<((i32, i32), usize, RGBColor)>,
    visits: std::collections::HashMap<SidePit, usize>,
    last_end: Option<SidePit>,
}

impl StepMarks {
    /// Numbers step `k` at pit `p`, in the next free place around it.
    fn badge(&mut self, p: SidePit, k: usize, color: RGBColor) {
        const SLOTS: [(i32, i32); 8] = [
            (-24, -24),
            (24, -24),
            (-24, 24),
            (24, 24),
            (0, -33),
            (0, 33),
            (-33, 0),
            (33, 0),
        ];
        let n = self.visits.entry(p).or_default();
        let (dx, dy) = SLOTS[*n % SLOTS.len()];
        *n += 1;
        let (x, y) = bao_centre(p.side, p.pit);
        self.badges.push(((x + dx, y + dy), k, color));
    }
}

fn draw_bao_step(
    area: &Area,
    k: usize,
    step: &Step,
    marks: &mut StepMarks,
) -> Result<(), DiagramError> {
    let at = |p: SidePit| bao_centre(p.side, p.pit);
    match &step.event {
        Event::Start { at: p, .. } => {
            put!(area, &Circle::new(at(*p), 34, START.stroke_width(4)))?;
            marks.badge(*p, k, START);
        }
        Event::StoreSeed { at: p, .. } => {
            // From the store along the gap between the two fields, then into the pit: not a
            // sowing, so not drawn as one.
            let (x, y) = at(*p);
            let (store, gap) = if p.side == Side::North {
                ((710, 118), 200)
            } else {
                ((710, 302), 220)
            };
            put!(
                area,
                &PathElement::new(
                    vec![store, (700, gap), (x, gap), (x, y)],
                    START.stroke_width(2)
                )
            )?;
            marks.badge(*p, k, START);
        }
        Event::Sow {
            first,
            seeds,
            direction,
            end,
            ..
        } => {
            // Sowings along one row are set apart by a few pixels each.
            let offset = ((k % 5) as i32 - 2) * 5;
            let points: Vec<(i32, i32)> = sowing_path(first.pit, *seeds, *direction, end.pit)
                .into_iter()
                .map(|pit| {
                    let (x, y) = bao_centre(first.side, pit);
                    (x + offset, y + offset)
                })
                .collect();
            if points.len() == 1 {
                put!(area, &Circle::new(points[0], 6, SOW.filled()))?;
            } else {
                arrow(area, &points, &SOW, 20.0)?;
            }
            marks.badge(*end, k, SOW);
            marks.last_end = Some(*end);
        }
        Event::PickUp { at: p, .. } => marks.badge(*p, k, SOW),
        Event::HouseTax { at: p } => {
            put!(area, &Circle::new(at(*p), 38, HOUSE.stroke_width(3)))?;
            marks.badge(*p, k, HOUSE);
        }
        Event::Capture { at: p, from, .. } => {
            arrow(area, &[at(*from), at(*p)], &HARVEST, 20.0)?;
            marks.badge(*from, k, HARVEST);
        }
        Event::Kichwa { at: p, .. } => {
            put!(area, &Circle::new(at(*p), 34, KICHWA.stroke_width(3)))?;
            marks.badge(*p, k, KICHWA);
        }
        Event::HousePlayed { at: p } => {
            put!(area, &Circle::new(at(*p), 36, HOUSE.stroke_width(3)))?;
            marks.badge(*p, k, HOUSE);
        }
        Event::Kutakatia { at: p } => {
            blocked_mark(area, at(*p))?;
            marks.badge(*p, k, HARVEST);
        }
        Event::End(_) => {
            // Where the move stopped: a black square round the pit of its last sowing.
            if let Some(p) = marks.last_end {
                let (x, y) = at(p);
                put!(
                    area,
                    &Rectangle::new([(x - 37, y - 37), (x + 37, y + 37)], BLACK.stroke_width(3))
                )?;
                marks.badge(p, k, BLACK);
            }
        }
        Event::HouseLost { .. } | Event::GameOver { .. } => {}
    }
    Ok(())
}

/// (under `rules`), that it is over and who won by which clause, as `bao moves` says.
pub fn bao_title_under(rules: &Rules, pos: &Position, mv: Option<&str>) -> String {
    let stage = match pos.stage() {
        Stage::Kunamua => "kunamua",
        Stage::Mtaji => "mtaji",
    };
    match (mv, rules.outcome(pos)) {
        (Some(mv), _) => format!("{} plays {mv} ({stage} stage)", pos.to_move()),
        (None, Some(out)) => format!(
            "The game is over: {} wins (bao {}) ({stage} stage)",
            out.winner, out.clause
        ),
        (None, None) => format!("{} to move ({stage} stage)", pos.to_move()),
    }
}

/// The title of an Oware diagram without a move: the player to move or, for a finished game, that
/// it is over, the result, the scores and the clause that ended it, as `oware replay` says.
pub fn oware_title(g: &crate::oware::Game) -> String {
    use crate::oware::rules::Verdict;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a drawing as this tool writes it is one: notes before it, a second document after
    /// it, or a drawing without the mark are not.
    #[test]
    fn a_drawing_is_only_what_this_tool_writes() {
        let drawing = bao_svg(&Position::start(), "start", &[]).unwrap();
        assert!(is_drawing(&drawing));
        assert!(is_drawing(&format!("\u{feff}\n{drawing}\n\n")));
        let other = "<svg xmlns=\"http://www.w3.org/2000/svg\"><text>user art</text></svg>";
        for text in [
            format!("<!-- my notes -->\n# Game 12\nImportant notes.\n{drawing}"),
            format!("<?xml version=\"1.0\"?>\n{drawing}"),
            format!("{drawing}\n{other}"),
            format!("{other}\n{drawing}"),
            drawing.replacen(MARK, "", 1),
            other.to_string(),
            String::new(),
        ] {
            assert!(!is_drawing(&text), "{}", &text[..text.len().min(120)]);
        }
    }
}
