//! OpenSpiel's Oware games (the dump of experiments/openspiel/dump_games.py) replayed under a
//! reading: per game the first ply where the legal moves, the scores or the result differ, the
//! clause that decides it, and the readings under which the whole game agrees.

use crate::audit::{Choice, Deviation, GameAudit};
use crate::openspiel_dump::{ReplayClauses, Replayed};

use super::notation::Move;
use super::rules::Rules;
use super::variant::{CycleEnd, FinalSweep, GrandSlam, NoAllowedMove, Variant};
use super::{Game, Side};

pub use crate::openspiel_dump::{BadRecord, LineError, Ply, Record};

/// Our own transcript (see docs/formats.md) as a record: moves only.
pub fn from_transcript(game: &str, text: &str) -> Result<Record, super::notation::TranscriptError> {
    let moves = super::notation::parse_transcript(text)?;
    Ok(Record {
        game: game.to_string(),
        source: game.to_string(),
        plies: moves
            .iter()
            .map(|w| Ply {
                letter: w.mv.letter(w.side),
                legal: None,
                scores: None,
            })
            .collect(),
        end: None,
    })
}

/// The games of a dump (`game <index> <ply>... final <south> <north> <return>` lines; `#`
/// lines are comments), or the error of each bad line.
pub fn read_openspiel(text: &str) -> Vec<Result<Record, LineError>> {
    crate::openspiel_dump::read(text, 48)
}

/// The Oware reference engine as OpenSpiel's records replay it.
impl Replayed for Rules {
    type State = Game;
    const GAME: &'static str = "oware";
    const NUMBERS: &'static str = "scores";
    const CLAUSES: ReplayClauses = ReplayClauses {
        turn: "O.2.2",
        allowed: "O.2.3",
        illegal: "O.2",
        numbers: "O.3",
        goes_on: "O.6",
    };

    fn start(&self) -> Game {
        self.new_game()
    }

    fn to_move(&self, g: &Game) -> Side {
        g.position().to_move()
    }

    fn text(&self, g: &Game) -> String {
        g.position().print()
    }

    fn pit(&self, letter: char) -> Result<u8, (&'static str, String)> {
        Ok(Move::from_letter(letter).expect("checked when read").1.pit)
    }

    fn legal_mask(&self, g: &Game) -> u8 {
        self.legal_moves(g).iter().map(|m| 1u8 << m.pit).sum()
    }

    fn play(&self, g: &Game, pit: u8) -> Result<(Game, Option<&'static str>), String> {
        let played = Rules::play(self, g, Move { pit }).map_err(|e| e.to_string())?;
        let last = played.trace.last().map(|s| s.clause);
        Ok((played.game, last))
    }

    fn numbers(&self, g: &Game) -> [u8; 2] {
        [Side::South, Side::North].map(|s| g.position().score(s))
    }

    fn outcome(&self, g: &Game) -> Option<([u8; 2], Option<Side>, &'static str)> {
        g.outcome().map(|o| (o.scores, o.winner, o.clause))
    }
}

/// Replays `record` under `rules`: the first deviation in play.
pub fn replay(rules: &Rules, record: &Record) -> Result<Option<Deviation>, BadRecord> {
    crate::openspiel_dump::replay(rules, record)
}

/// The clause a reading choice settles.
fn choice_clause(name: &str) -> &'static str {
    match name.split('=').next() {
        Some("grand-slam") => "O.4.1",
        Some("no-allowed-move") => "O.4.2",
        Some("cycle-end") => "O.6.2",
        _ => "O.6.1",
    }
}

/// The choices engines make where the Oware sheet is silent or worded otherwise, each with its
/// two values.
const CHOICES: [[Choice<Variant>; 2]; 4] = [
    [
        ("grand-slam=forbidden", |v| Variant {
            grand_slam: GrandSlam::Forbidden,
            ..v
        }),
        ("grand-slam=captures-nothing", |v| Variant {
            grand_slam: GrandSlam::CapturesNothing,
            ..v
        }),
    ],
    [
        ("no-allowed-move=each-takes-own", |v| Variant {
            no_allowed_move: NoAllowedMove::EachTakesOwn,
            ..v
        }),
        ("no-allowed-move=allow-grand-slam", |v| Variant {
            no_allowed_move: NoAllowedMove::AllowGrandSlamWithoutCapture,
            ..v
        }),
    ],
    [
        ("cycle-end=4", |v| Variant {
            cycle_end: CycleEnd::Occurrences(4),
            ..v
        }),
        ("cycle-end=2", |v| Variant {
            cycle_end: CycleEnd::Occurrences(2),
            ..v
        }),
    ],
    [
        ("final-sweep=none", |v| Variant {
            final_sweep: FinalSweep::None,
            ..v
        }),
        ("final-sweep=each-takes-own", |v| Variant {
            final_sweep: FinalSweep::EachTakesOwn,
            ..v
        }),
    ],
];

/// Every reading that differs from `base` in the choices engines make (grand slam, every move
/// forbidden, the cycle rule, the end sweep), named by the choices that differ, fewest first.
pub fn other_readings(base: Variant) -> Vec<(String, Variant)> {
    crate::audit::other_readings(base, &CHOICES)
}

/// Audits `record` under `base`: its verdict and, for a deviation, the fewest-change readings
/// under which the whole game agrees.
pub fn audit(base: Variant, record: &Record) -> Result<GameAudit, BadRecord> {
    let mut deviation = replay(&Rules::new(base), record)?;
    let explained_by = match deviation.as_mut() {
        None => Vec::new(),
        Some(d) => crate::audit::explain(d, other_readings(base), choice_clause, |v| {
            replay(&Rules::new(v), record).map(|r| r.map(|d| d.ply))
        }),
    };
    Ok(GameAudit {
        game: record.game.clone(),
        source: record.source.clone(),
        plies: record.plies.len(),
        deviation,
        notation: Vec::new(),
        explained_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice's name, written after a preset with `--variant`, makes the reading the choice
    /// makes of that preset: one name for one choice in audits and readings.
    #[test]
    fn choice_names_are_variant_parameters() {
        for (preset, base) in [("sheet", Variant::SHEET), ("abapa", Variant::ABAPA)] {
            for (name, choose) in CHOICES.iter().flatten() {
                let written: Variant = format!("{preset}:{name}").parse().unwrap();
                assert_eq!(written, choose(base), "{preset}:{name}");
            }
        }
    }
}
