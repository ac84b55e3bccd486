//! Kalah positions as SVG diagrams: the two rows and the stores at their ends and, with a move,
//! its sowing and capture, each step listed with its clause id.

use plotters::prelude::*;

use super::position::Position;
use super::rules::{Played, State};
use super::Side;
use crate::diagram::{
    arrow, drawing, font, left_font, put, side_name, DiagramError, GREY, HARVEST, LINE, MAX_STEPS,
    PIT, SOW, START, WOOD,
};

/// The title of a diagram without a move: the player to move or, for a finished game, the
/// result, the scores and the clause that ended it.
pub fn title(state: &State) -> String {
    let Some(o) = state.outcome() else {
        return format!("{} to move", state.position().to_move());
    };
    let [south, north] = o.scores;
    match o.winner {
        Some(w) => format!(
            "The game is over: {w} wins {south}-{north} (kalah {})",
            o.clause
        ),
        None => format!(
            "The game is over: a draw, {south}-{north} (kalah {})",
            o.clause
        ),
    }
}

/// A place on the ring of `m` pits a row: South's pits 0..m, South's store m, North's pits
/// m+1..=2m (from North's left), North's store 2m+1 (as the optimized engine counts them).
fn centre(m: usize, place: usize) -> (i32, i32) {
    let x = |i: usize| 230 + i as i32 * 90;
    match place {
        p if p < m => (x(p), 250),
        p if p == m => (x(m), 200),
        p if p <= 2 * m => (x(2 * m - p), 150),
        _ => (140, 200),
    }
}

/// Where each pit of a board of `m` pits a row is on the diagram (the stores are no pits).
pub fn pit_places(m: usize) -> Vec<crate::registry::PitPlace> {
    (0..2 * m + 2)
        .filter(|&place| place != m && place != 2 * m + 1)
        .map(|place| {
            let (x, y) = centre(m, place);
            let side = if place < m { Side::South } else { Side::North };
            let pit = if place < m { place } else { place - m - 1 };
            crate::registry::PitPlace {
                name: super::Move { pit: pit as u8 }.letter(side).to_string(),
                x,
                y,
                r: 36,
            }
        })
        .collect()
}

/// The places a sowing of `seeds` from South's or North's pit `pit` passes, in order (the
/// opponent's store skipped, the emptied pit sown into on a lap: K.2.2, K.2.3).
fn sowing(m: usize, side: Side, pit: usize, seeds: usize) -> Vec<usize> {
    let len = 2 * m + 2;
    let start = side.index() * (m + 1) + pit;
    let skipped = (side.opponent().index() * (m + 1) + m) % len;
    let mut path = Vec::with_capacity(seeds);
    let mut at = start;
    while path.len() < seeds {
        at = (at + 1) % len;
        if at != skipped {
            path.push(at);
        }
    }
    path
}

/// The SVG of a position and, with a move (its pit from the mover's left, and the ply), its
/// sowing, capture and steps.
pub fn svg(pos: &Position, title: &str, mv: Option<(u8, &Played)>) -> Result<String, DiagramError> {
    let m = usize::from(pos.pits());
    let steps: Vec<String> = mv.map_or(Vec::new(), |(_, p)| {
        p.trace.iter().map(|s| s.to_string()).collect()
    });
    let shown = steps.len().min(MAX_STEPS);
    let height = 340 + LINE * (shown as i32 + 2);
    let count = |place: usize| -> u8 {
        match place {
            p if p < m => pos.pit(Side::South, p as u8),
            p if p == m => pos.store(Side::South),
            p if p <= 2 * m => pos.pit(Side::North, (p - m - 1) as u8),
            _ => pos.store(Side::North),
        }
    };
    drawing(height, title, |area| {
        let right = centre(m, m).0 + 55;
        put!(
            area,
            &Rectangle::new([(85, 95), (right, 305)], WOOD.filled())
        )?;
        for place in 0..2 * m + 2 {
            let (x, y) = centre(m, place);
            let store = place == m || place == 2 * m + 1;
            if store {
                put!(
                    area,
                    &Rectangle::new([(x - 36, y - 90), (x + 36, y + 90)], PIT.filled())
                )?;
            } else {
                put!(area, &Circle::new((x, y), 36, PIT.filled()))?;
                let side = if place < m { Side::South } else { Side::North };
                let pit = if place < m { place } else { place - m - 1 };
                let name = super::Move { pit: pit as u8 }.letter(side).to_string();
                put!(area, &Text::new(name, (x + 26, y + 28), font(11, &GREY)))?;
            }
            put!(
                area,
                &Text::new(count(place).to_string(), (x, y - 2), font(22, &BLACK))
            )?;
        }
        // The stores are on the board, at the rows' ends.
        for (side, y) in [(Side::North, 150), (Side::South, 250)] {
            side_name(area, side, y, pos.to_move() == side)?;
        }
        if let Some((pit, played)) = mv {
            let side = pos.to_move();
            let from = side.index() * (m + 1) + usize::from(pit);
            let path = sowing(m, side, usize::from(pit), usize::from(count(from)));
            put!(
                area,
                &Circle::new(centre(m, from), 40, START.stroke_width(4))
            )?;
            let mut points = vec![centre(m, from)];
            // One lap drawn; a longer sowing's later laps pass the same places.
            let lap = 2 * m + 1;
            points.extend(path.iter().take(lap).map(|&p| centre(m, p)));
            if path.len() > lap {
                points.push(centre(m, *path.last().expect("a sowing")));
            }
            arrow(area, &points, &SOW, 20.0)?;
            if played.captured > 0 {
                // spec: kalah K.3.1 the last seed's pit and the pit opposite it
                let last = *path.last().expect("a sowing");
                for p in [last, 2 * m - last] {
                    put!(
                        area,
                        &Circle::new(centre(m, p), 40, HARVEST.stroke_width(4))
                    )?;
                }
            }
        }
        let mut y = 340;
        for (i, text) in steps.iter().take(shown).enumerate() {
            let line = format!("{}. {text}", i + 1);
            put!(area, &Text::new(line, (20, y), left_font(13, &BLACK)))?;
            y += LINE;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sowing_skips_the_opponents_store_and_laps_through_the_emptied_pit() {
        // Kalah(6,n): South's C with 4 seeds: D, E, F, South's store.
        assert_eq!(sowing(6, Side::South, 2, 4), [3, 4, 5, 6]);
        // North's f with 3 seeds: North's store (13), then South's A, B.
        assert_eq!(sowing(6, Side::North, 5, 3), [13, 0, 1]);
        // South's F with 14 seeds: a lap of 13 places (North's store skipped) back to F, then
        // South's store again.
        let path = sowing(6, Side::South, 5, 14);
        assert!(!path.contains(&13));
        assert_eq!(&path[12..], [5, 6]);
        // Kalah(1,n): South's A with 3 seeds: South's store, North's a, North's store skipped, A.
        assert_eq!(sowing(1, Side::South, 0, 3), [1, 2, 0]);
    }

    #[test]
    fn a_move_is_drawn_with_its_steps_and_a_capture_ringed() {
        use crate::kalah::{Move, Rules, Variant};
        let rules = Rules::new(Variant::OPENSPIEL);
        let start = rules.new_game();
        let played = rules.play(&start, Move { pit: 2 }).unwrap();
        let drawn = svg(start.position(), "South plays C", Some((2, &played))).unwrap();
        assert!(drawn.contains("1. [kalah K.2.1] sow 4 from C"), "{drawn}");
        assert!(
            drawn.contains("2. [kalah K.2.4] South moves again"),
            "{drawn}"
        );
        let harvest = "#C81E1E";
        assert!(!drawn.to_uppercase().contains(harvest));
        // South's B (4 seeds) ends in F, empty, opposite North's a with 4: a capture of 5.
        let text = "to_move: South\nscores: 0 4\nnorth: 4 4 4 4 4 4\nsouth: 4 4 4 4 4 0\n";
        let variant = Variant::OPENSPIEL;
        let pos = Position::parse(text, &variant).unwrap();
        let rules = Rules::new(variant);
        let state = rules.state_from(pos);
        let played = rules.play(&state, Move { pit: 1 }).unwrap();
        assert_eq!(played.captured, 5);
        let drawn = svg(&pos, "South plays B", Some((1, &played))).unwrap();
        assert!(drawn.contains("[kalah K.3.1] capture 4 from a"), "{drawn}");
        assert_eq!(drawn.to_uppercase().matches(harvest).count(), 2, "{drawn}");
    }
}
