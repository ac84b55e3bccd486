//! OpenSpiel's `mancala` games (the dump of experiments/openspiel/dump_games.py --game kalah)
//! replayed under a reading: per game the first ply where the legal moves, the stores or the
//! result differ, the clause that decides it, and the readings under which the whole game agrees.

use crate::audit::{cited_clause, Choice, Deviation, GameAudit, Kind};
pub use crate::openspiel_dump::{LineError, Ply, Record};

use super::notation::Move;
use super::rules::{IllegalMove, Rules};
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

/// A bad record: a move of the player not to move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} '{letter}': {message}")]
pub struct BadRecord {
    /// The ply, from 1.
    pub ply: usize,
    /// The move letter.
    pub letter: char,
    /// What is wrong.
    pub message: String,
}

/// The letters of the pits set in `mask` (bit i: pit i from `side`'s left).
fn mask_letters(mask: u8, side: Side) -> String {
    (0..8)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| Move { pit: i }.letter(side).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The clause an illegal move's error cites.
fn illegal_clause(e: &IllegalMove) -> String {
    cited_clause(&e.to_string(), "kalah").unwrap_or_else(|| "K.2.1".into())
}

/// Replays `record` under `rules`: the first deviation in play.
pub fn replay(rules: &Rules, record: &Record) -> Result<Option<Deviation>, BadRecord> {
    let pits = rules.variant.pits;
    let mut state = rules.new_game();
    for (i, ply) in record.plies.iter().enumerate() {
        let n = i + 1;
        let to_move = state.position().to_move();
        let before = state.position().to_string();
        let dev = |kind: Kind, clause: String, ours: String, theirs: String| Deviation {
            ply: n,
            mv: ply.letter.to_string(),
            kind,
            clause,
            witness: format!(
                "{before}move: {}\nours: {ours}\nrecord: {theirs}\n",
                ply.letter
            ),
            reproduced_by: None,
        };
        // A letter past the board is no pit of this reading (K.5.1).
        let Some((side, mv)) = Move::from_letter(ply.letter, pits) else {
            return Ok(Some(dev(
                Kind::IllegalMove,
                "K.5.1".into(),
                format!("no pit {} on a board of {pits} pits a row", ply.letter),
                "legal".into(),
            )));
        };
        if side != to_move {
            return Err(BadRecord {
                ply: n,
                letter: ply.letter,
                message: format!("a pit of {side}, but {to_move} is to move (kalah K.2.4)"),
            });
        }
        let ours: u8 = rules.legal_moves(&state).iter().map(|m| 1u8 << m.pit).sum();
        if let Some(theirs) = ply.legal.filter(|&l| l != ours) {
            // Which move one side allows and the other does not, and the clause of our verdict.
            let differ = ours ^ theirs;
            let pit = (0..8).find(|i| differ >> i & 1 == 1).expect("masks differ");
            let clause = match rules.play(&state, Move { pit }) {
                Err(e) => illegal_clause(&e),
                // We allow it: the record's engine forbids a move the rules allow.
                Ok(_) => "K.2.1".to_string(),
            };
            return Ok(Some(dev(
                Kind::IllegalMove,
                clause,
                format!("legal {}", mask_letters(ours, to_move)),
                format!("legal {}", mask_letters(theirs, to_move)),
            )));
        }
        let played = match rules.play(&state, mv) {
            Ok(p) => p,
            Err(e) => {
                return Ok(Some(dev(
                    Kind::IllegalMove,
                    illegal_clause(&e),
                    e.to_string(),
                    "legal".into(),
                )))
            }
        };
        state = played.state;
        let stores = Side::BOTH.map(|s| state.position().store(s));
        if let Some(theirs) = ply.scores.filter(|&t| t != stores) {
            // The clause of the last step of our ply: where the counts part.
            let clause = played
                .trace
                .last()
                .map_or("K.3".to_string(), |s| s.clause.to_string());
            return Ok(Some(dev(
                Kind::Position,
                clause,
                format!("stores {} {}", stores[0], stores[1]),
                format!("stores {} {}", theirs[0], theirs[1]),
            )));
        }
    }
    let Some((scores, winner)) = record.end else {
        return Ok(None);
    };
    let show = |s: [u8; 2], w: Option<Side>| {
        let who = w.map_or("a draw".to_string(), |w| format!("{w} wins"));
        format!("{who}, {} {}", s[0], s[1])
    };
    let theirs = show(scores, winner);
    let witness = |ours: String| format!("{}ours: {ours}\nrecord: {theirs}\n", state.position());
    let result = |clause: &str, ours: String| Deviation {
        ply: record.plies.len(),
        mv: String::new(),
        kind: Kind::Result,
        clause: clause.to_string(),
        witness: witness(ours),
        reproduced_by: None,
    };
    Ok(match state.outcome() {
        None => Some(result("K.4.1", "the game goes on".into())),
        Some(o) if o.scores != scores || o.winner != winner => {
            Some(result(o.clause, show(o.scores, o.winner)))
        }
        Some(_) => None,
    })
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
