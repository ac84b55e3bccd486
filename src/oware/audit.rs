//! OpenSpiel's Oware games (the dump of experiments/openspiel/dump_games.py) replayed under a
//! reading: per game the first ply where the legal moves, the scores or the result differ, the
//! clause that decides it, and the readings under which the whole game agrees.

use crate::audit::{cited_clause, Choice, Deviation, GameAudit, Kind};

use super::notation::Move;
use super::rules::{IllegalMove, Rules};
use super::variant::{CycleEnd, FinalSweep, GrandSlam, NoAllowedMove, Variant};
use super::Side;

pub use crate::openspiel_dump::{LineError, Ply, Record};

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

fn mask_letters(mask: u8, side: Side) -> String {
    (0..6)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| Move { pit: i }.letter(side).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Replays `record` under `rules`: the first deviation in play.
pub fn replay(rules: &Rules, record: &Record) -> Result<Option<Deviation>, BadRecord> {
    let mut g = rules.new_game();
    for (i, ply) in record.plies.iter().enumerate() {
        let n = i + 1;
        let (side, mv) = Move::from_letter(ply.letter).expect("checked when read");
        let to_move = g.position().to_move();
        if side != to_move {
            return Err(BadRecord {
                ply: n,
                letter: ply.letter,
                message: format!("a pit of {side}, but {to_move} is to move (oware O.2.2)"),
            });
        }
        let before = g.position().print();
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
        let ours: u8 = rules.legal_moves(&g).iter().map(|m| 1u8 << m.pit).sum();
        if let Some(theirs) = ply.legal.filter(|&l| l != ours) {
            // Which move one side allows and the other does not, and the clause of our verdict.
            let differ = ours ^ theirs;
            let pit = (0..6).find(|i| differ >> i & 1 == 1).expect("masks differ");
            let mv = Move { pit };
            let clause = match rules.play(&g, mv) {
                Err(e) => illegal_clause(&e),
                // We allow it: the record's engine forbids a move the rules allow.
                Ok(_) => "O.2.3".to_string(),
            };
            return Ok(Some(dev(
                Kind::IllegalMove,
                clause,
                format!("legal {}", mask_letters(ours, to_move)),
                format!("legal {}", mask_letters(theirs, to_move)),
            )));
        }
        let played = match rules.play(&g, mv) {
            Ok(p) => p,
            Err(e) => {
                let clause = illegal_clause(&e);
                return Ok(Some(dev(
                    Kind::IllegalMove,
                    clause,
                    e.to_string(),
                    "legal".into(),
                )));
            }
        };
        g = played.game;
        let scores = [
            g.position().score(Side::South),
            g.position().score(Side::North),
        ];
        if let Some(theirs) = ply.scores.filter(|&t| t != scores) {
            // The clause of the last step of our move: where the counts part.
            let clause = played
                .trace
                .last()
                .map_or("O.3".to_string(), |s| s.clause.to_string());
            return Ok(Some(dev(
                Kind::Position,
                clause,
                format!("scores {} {}", scores[0], scores[1]),
                format!("scores {} {}", theirs[0], theirs[1]),
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
    let witness =
        |ours: String| format!("{}ours: {ours}\nrecord: {theirs}\n", g.position().print());
    let deviation = match g.outcome() {
        None => Some(Deviation {
            ply: record.plies.len(),
            mv: String::new(),
            kind: Kind::Result,
            clause: "O.6".into(),
            witness: witness("the game goes on".into()),
            reproduced_by: None,
        }),
        Some(o) if o.scores != scores || o.winner != winner => Some(Deviation {
            ply: record.plies.len(),
            mv: String::new(),
            kind: Kind::Result,
            clause: o.clause.to_string(),
            witness: witness(show(o.scores, o.winner)),
            reproduced_by: None,
        }),
        Some(_) => None,
    };
    Ok(deviation)
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

fn illegal_clause(e: &IllegalMove) -> String {
    cited_clause(&e.to_string(), "oware").unwrap_or_else(|| "O.2".into())
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
