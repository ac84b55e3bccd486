//! Board diagrams as SVG, what every game's drawing shares: the page, colours, fonts, arrows,
//! step badges, the side panels and the drawing mark; each game draws its board in its folder.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::side::Side;

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
    pub(crate) fn from_backend(e: impl std::fmt::Display) -> DiagramError {
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

pub(crate) const WOOD: RGBColor = RGBColor(222, 184, 135);
pub(crate) const PIT: RGBColor = RGBColor(250, 240, 220);
pub(crate) const HOUSE: RGBColor = RGBColor(139, 69, 19);
pub(crate) const SOW: RGBColor = RGBColor(30, 90, 200);
pub(crate) const HARVEST: RGBColor = RGBColor(200, 30, 30);
pub(crate) const START: RGBColor = RGBColor(20, 140, 60);
pub(crate) const KICHWA: RGBColor = RGBColor(130, 40, 160);
pub(crate) const GREY: RGBColor = RGBColor(110, 110, 110);

/// Width of a diagram.
pub(crate) const WIDTH: u32 = 900;
/// Height of the board part of a diagram (the step list follows it).
pub(crate) const BOARD_HEIGHT: i32 = 420;
/// Height of one line of the step list.
pub(crate) const LINE: i32 = 18;

pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

pub(crate) fn font(size: u32, color: &RGBColor) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(color)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

pub(crate) fn left_font(size: u32, color: &RGBColor) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(color)
        .pos(Pos::new(HPos::Left, VPos::Center))
}

/// Draws an element, the backend's error as text.
macro_rules! put {
    ($area:expr, $element:expr $(,)?) => {
        $area
            .draw($element)
            .map_err($crate::diagram::DiagramError::from_backend)
    };
}
pub(crate) use put;

/// An arrow along `points` with a head `short` pixels before the last point (the edge of a pit
/// rather than its count).
pub(crate) fn arrow(
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
pub(crate) fn badge(
    area: &Area,
    at: (i32, i32),
    k: usize,
    color: &RGBColor,
) -> Result<(), DiagramError> {
    put!(area, &Circle::new(at, 9, color.filled()))?;
    put!(area, &Text::new(k.to_string(), at, font(11, &WHITE)))
}

/// A side's name at the left of its rows (centred on `y`), its box of `value` and `label` at
/// `x` on the right, and, for the player to move, a marker beside the name.
pub(crate) fn side_panel(
    area: &Area,
    side: Side,
    y: i32,
    (x, value, label): (i32, &str, &str),
    to_move: bool,
) -> Result<(), DiagramError> {
    // The marker last, after the box, as the committed pictures were drawn.
    side_name(area, side, y, false)?;
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
        to_move_marker(area, side, y)?;
    }
    Ok(())
}

/// A side's name at the left of its rows (centred on `y`) and, for the player to move, a marker
/// beside it.
pub(crate) fn side_name(
    area: &Area,
    side: Side,
    y: i32,
    to_move: bool,
) -> Result<(), DiagramError> {
    put!(
        area,
        &Text::new(format!("{side}"), (8, y), left_font(15, &BLACK))
    )?;
    if to_move {
        to_move_marker(area, side, y)?;
    }
    Ok(())
}

/// The marker of the player to move beside its name (centred on `y`).
fn to_move_marker(area: &Area, side: Side, y: i32) -> Result<(), DiagramError> {
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
    )
}

/// A diagram `height` pixels high: a white page with `title` at its top, and what `draw` puts
/// on it; the SVG document.
pub(crate) fn drawing(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bao::diagram::bao_svg;
    use crate::bao::Position;

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
