//! Bao positions as SVG diagrams: the board as a player draws it and, with a move, its path
//! (sowings, harvests, kichwa, house, where it stopped), each step numbered with its clause id.

use plotters::prelude::*;

use crate::diagram::{
    arrow, badge, drawing, font, left_font, put, side_panel, Area, DiagramError, BOARD_HEIGHT,
    GREY, HARVEST, HOUSE, KICHWA, LINE, MAX_STEPS, PIT, SOW, START, WOOD,
};

use super::trace::{Event, SidePit, Step};
use super::{Direction, Pit, Position, Row, Rules, Side, Stage};

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

/// Where each of the 32 pits is on the diagram.
pub fn bao_pit_places() -> Vec<crate::registry::PitPlace> {
    Side::BOTH
        .into_iter()
        .flat_map(|side| Pit::all().map(move |pit| (side, pit)))
        .map(|(side, pit)| {
            let (x, y) = bao_centre(side, pit);
            crate::registry::PitPlace {
                name: pit.name(side),
                x,
                y,
                r: 30,
            }
        })
        .collect()
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

/// The title of a Bao diagram: the move played or the player to move and the stage or, for a
/// finished game (under `rules`), that it is over and who won by which clause, as `bao moves` says.
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
