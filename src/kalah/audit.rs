//! OpenSpiel's `mancala` games (the dump of experiments/openspiel/dump_games.py --game kalah)
//! replayed under a reading: per game the first ply where the legal moves, the stores or the
//! result differ, the clause that decides it, and the readings under which the whole game agrees.

use crate::audit::{Choice, Deviation, GameAudit};
pub use crate::openspiel_dump::{BadRecord, LineError, Ply, Record};
use crate::openspiel_dump::{ReplayClauses, Replayed};

use super::notation::Move;
use super::rules::{Rules, State};
use super::variant::{EndTest, Sweep, Variant};
use super::Side;

/// The largest score a dump may give: every seed of Kalah(6,12).
const MAX_SCORE: u8 = 144;

/// The games of a dump, or the error of each bad line.
pub fn read_openspiel(text: &str) -> Vec<Result<Record, LineError>> {
    crate::openspiel_dump::read(text, MAX_SCORE)
}

/// Our own transcript (spec: kalah K.5.2) as a record: moves only.
pub fn from_transcript(
    game: &str,
    text: &str,
) -> Result<Record, super::transcript::TranscriptError> {
    let plies = super::transcript::transcript_moves(text)
        .map(|w| {
            w.map(|w| Ply {
                letter: w.mv.letter(w.side),
                legal: None,
                scores: None,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Record {
        game: game.to_string(),
        source: game.to_string(),
        plies,
        end: None,
    })
}

/// The Kalah reference engine as OpenSpiel's records replay it.
impl Replayed for Rules {
    type State = State;
    const GAME: &'static str = "kalah";
    const NUMBERS: &'static str = "stores";
    const CLAUSES: ReplayClauses = ReplayClauses {
        turn: "K.2.4",
        allowed: "K.2.1",
        illegal: "K.2.1",
        numbers: "K.3",
        goes_on: "K.4.1",
    };

    fn start(&self) -> State {
        self.new_game()
    }

    fn to_move(&self, s: &State) -> Side {
        s.position().to_move()
    }

    fn text(&self, s: &State) -> String {
        s.position().to_string()
    }

    fn pit(&self, letter: char) -> Result<u8, (&'static str, String)> {
        // spec: kalah K.5.1 the first m letters: one past the board is no pit of this reading
        let pits = self.variant.pits;
        Move::from_letter(letter, pits)
            .map(|(_, mv)| mv.pit)
            .ok_or_else(|| {
                (
                    "K.5.1",
                    format!("no pit {letter} on a board of {pits} pits a row"),
                )
            })
    }

    fn legal_mask(&self, s: &State) -> u8 {
        self.legal_moves(s).iter().map(|m| 1u8 << m.pit).sum()
    }

    fn play(&self, s: &State, pit: u8) -> Result<(State, Option<&'static str>), String> {
        let played = Rules::play(self, s, Move { pit }).map_err(|e| e.to_string())?;
        let last = played.trace.last().map(|s| s.clause);
        Ok((played.state, last))
    }

    fn numbers(&self, s: &State) -> [u8; 2] {
        Side::BOTH.map(|side| s.position().store(side))
    }

    fn outcome(&self, s: &State) -> Option<([u8; 2], Option<Side>, &'static str)> {
        s.outcome().map(|o| (o.scores, o.winner, o.clause))
    }
}

/// Replays `record` under `rules`: the first deviation in play.
pub fn replay(rules: &Rules, record: &Record) -> Result<Option<Deviation>, BadRecord> {
    crate::openspiel_dump::replay(rules, record)
}

/// The clause a reading choice settles.
fn choice_clause(name: &str) -> &'static str {
    match name.split('=').next() {
        Some("empty-capture") => "K.3.2",
        Some("end") => "K.4.1",
        Some("sweep") => "K.4.2",
        _ => "K.4.4",
    }
}

/// The choices Kalah engines make where the rule texts part, each with two values (a third
/// sweep, to no one, is the `no-sweep` preset's and is not tried).
const CHOICES: [[Choice<Variant>; 2]; 4] = [
    [
        ("empty-capture=off", |v| Variant {
            empty_capture: false,
            ..v
        }),
        ("empty-capture=on", |v| Variant {
            empty_capture: true,
            ..v
        }),
    ],
    [
        ("end=either-row-empty", |v| Variant {
            end: EndTest::EitherRowEmpty,
            ..v
        }),
        ("end=mover-starved", |v| Variant {
            end: EndTest::MoverStarved,
            ..v
        }),
    ],
    [
        ("sweep=to-owner", |v| Variant {
            sweep: Sweep::ToOwner,
            ..v
        }),
        ("sweep=to-emptier", |v| Variant {
            sweep: Sweep::ToEmptier,
            ..v
        }),
    ],
    [
        ("cap=1001", |v| Variant {
            ply_cap: Some(1001),
            ..v
        }),
        ("cap=none", |v| Variant { ply_cap: None, ..v }),
    ],
];

/// Every reading that differs from `base` in the choices engines make, named by the choices
/// that differ, fewest first.
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
