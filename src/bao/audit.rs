//! Bao game records of other engines replayed under a reading: the first deviation in play, the
//! marks written otherwise, and the readings under which a deviating record agrees.

use std::fmt::Write as _;

use crate::audit::{cited_clause, Choice, Deviation, GameAudit, Kind, NotationDeviation};

use super::board::{Board, Pit, Row, Side};
use super::notation::{MoveKind, MoveText};
use super::position::Position;
use super::rules::{IllegalMove, Rules};
use super::trace::Event;
use super::variant::{HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant};

/// One recorded game, in our move notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record's name for the game.
    pub game: String,
    /// Where the record is: `file:line`, or the file of a one-game record.
    pub source: String,
    /// The moves, from the start position.
    pub moves: Vec<String>,
    /// How the record says the game ended: the winner and the clause of the end, if it says.
    pub end: Option<(Side, &'static str)>,
    /// The final board the record gives, as `b8..b1/a8..a1/A1..A8/B1..B8` (see [`board_rows`]).
    pub final_board: Option<String>,
}

/// A record that cannot be audited: a move that does not parse, or a pit of the wrong player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply} {}: {message}", crate::text::quoted(.mv))]
pub struct BadRecord {
    /// The ply, from 1.
    pub ply: usize,
    /// The move as recorded.
    pub mv: String,
    /// What is wrong.
    pub message: String,
}

/// The board as four rows of eight counts, North's back row (b8..b1), North's front row
/// (a8..a1), South's front row (A1..A8), South's back row (B1..B8), rows split by `/`: the order
/// of our position text.
pub fn board_rows(pos: &Position) -> String {
    rows_of(pos.board())
}

fn rows_of(board: &Board) -> String {
    let row = |side: Side, row: Row, numbers: &mut dyn Iterator<Item = u8>| {
        numbers
            .map(|n| {
                board
                    .get(side, Pit::new(row, n).expect("pit 1-8"))
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    [
        row(Side::North, Row::Back, &mut (1..=8).rev()),
        row(Side::North, Row::Front, &mut (1..=8).rev()),
        row(Side::South, Row::Front, &mut (1..=8)),
        row(Side::South, Row::Back, &mut (1..=8)),
    ]
    .join("/")
}

fn stars(kind: MoveKind) -> u8 {
    match kind {
        MoveKind::Capture => 0,
        MoveKind::Kutakata => 1,
        MoveKind::Kutakatia => 2,
    }
}

/// The clause of an illegal move: the first the engine's message cites (notation clauses for
/// the two refusals that cite none).
fn illegal_clause(e: &IllegalMove) -> String {
    match e {
        IllegalMove::WrongSide(_) => "N.1".into(),
        IllegalMove::Ambiguous { .. } => "N.5".into(),
        _ => cited_clause(&e.to_string(), "bao").unwrap_or_else(|| "?".into()),
    }
}

/// What happened in a replay: the first deviation in play, and the marks written otherwise.
pub type Replay = (Option<Deviation>, Vec<NotationDeviation>);

/// Replays `record` under `rules`: the first deviation in play, and the `*`/`**` marks written
/// otherwise than ours (a mark is judged apart from play: the move is played as its pit, hand and
/// `+` say). `Err` for a record that cannot be read as moves.
pub fn replay(rules: &Rules, record: &Record) -> Result<Replay, BadRecord> {
    let mut pos = Position::start();
    let mut notation = Vec::new();
    let mut last = None;
    for (i, written) in record.moves.iter().enumerate() {
        let ply = i + 1;
        let bad = |message: String| BadRecord {
            ply,
            mv: written.clone(),
            message,
        };
        let text = MoveText::parse(written).map_err(|e| bad(e.to_string()))?;
        if let Some((side, _)) = text.row {
            if side != pos.to_move {
                return Err(bad(format!(
                    "a pit of {side}, but {} is to move (moves alternate, bao 1.5.5)",
                    pos.to_move
                )));
            }
        }
        let illegal = |e: IllegalMove, pos: &Position| {
            let (kind, clause) = match e {
                IllegalMove::GameOver(end) => (Kind::Result, end.to_string()),
                _ => (Kind::IllegalMove, illegal_clause(&e)),
            };
            Deviation {
                ply,
                mv: written.clone(),
                kind,
                clause,
                witness: format!(
                    "{}move: {written}\nours: {e}\n",
                    super::position_text::print(pos)
                ),
                reproduced_by: None,
            }
        };
        let unmarked = MoveText { stars: 0, ..text };
        let mv = match rules.resolve(&pos, &unmarked) {
            Ok(mv) => mv,
            Err(e) => return Ok((Some(illegal(e, &pos)), notation)),
        };
        let played = match rules.play(&pos, mv) {
            Ok(p) => p,
            Err(e) => return Ok((Some(illegal(e, &pos)), notation)),
        };
        let ours = stars(played.kind);
        if text.stars != ours {
            notation.push(NotationDeviation {
                ply,
                written: written.clone(),
                ours: mv.notation(pos.to_move, played.kind),
                position: super::position_text::print(&pos),
                // The kutakatia mark (N.4) says whether 5.1 blocked a pit; the single one whether
                // the move was a kutakata rather than a capture (1.5.3).
                clause: if text.stars == 2 || ours == 2 {
                    "5.1"
                } else {
                    "1.5.3"
                },
            });
        }
        let before = std::mem::replace(&mut pos, played.position.clone());
        last = Some(((before, mv), played));
    }
    let plies = record.moves.len();
    let at_end = |clause: String, kind: Kind, ours: String, theirs: String| Deviation {
        ply: plies,
        mv: String::new(),
        kind,
        clause,
        witness: format!(
            "{}ours: {ours}\nrecord: {theirs}\n",
            super::position_text::print(&pos)
        ),
        reproduced_by: None,
    };
    let outcome = rules.outcome(&pos);
    let ours = match outcome {
        Some(o) => format!("{} wins (bao {})", o.winner, o.clause),
        None => format!("the game goes on, {} to move", pos.to_move),
    };
    if let Some((winner, clause)) = record.end {
        let theirs = format!("{winner} wins (bao {clause})");
        let mut d = match outcome {
            None => at_end(clause.to_string(), Kind::Result, ours, theirs),
            Some(o) if o.winner != winner => {
                at_end(o.clause.to_string(), Kind::Result, ours, theirs)
            }
            Some(_) => {
                return Ok(finish_board_check(
                    record,
                    &pos,
                    outcome,
                    last.as_ref(),
                    notation,
                ))
            }
        };
        // A record that ends its game as lost by an infinite move, where the last move is the
        // one it deems infinite: tried with AbstractPlay's cut-off, 192 seeds sown.
        if let Some(((before, mv), played)) = last.as_ref() {
            let mover = before.to_move;
            if clause == "1.5.6" && winner == mover.opponent() {
                let cut = Rules::new(
                    rules
                        .variant
                        .with_infinite_moves(InfiniteMoves::SownLimit(192)),
                );
                let finished = finish_move(&pos, played).filter(|f| f.1 > 192);
                if matches!(cut.play(before, *mv), Err(IllegalMove::Infinite(_))) {
                    d.reproduced_by = Some(INFINITE_LOSES.to_string());
                    d.witness.push_str(
                        "the record's last move sows more than 192 seeds: the record plays it \
                         and its mover loses, where 1.5.6 forbids it\n",
                    );
                } else if let Some((_, sown)) = finished {
                    d.reproduced_by = Some(format!("{FINISH_MOVE}+{INFINITE_LOSES}"));
                    let _ = writeln!(
                        d.witness,
                        "finished past the emptied front row (which 1.2.1 forbids), the last move \
                         sows {sown} seeds, more than 192: the record calls it infinite and its \
                         mover loses"
                    );
                }
            }
        }
        return Ok((Some(d), notation));
    }
    Ok(finish_board_check(
        record,
        &pos,
        outcome,
        last.as_ref(),
        notation,
    ))
}

/// The end of a replay whose result agrees: the record's final board against ours.
fn finish_board_check(
    record: &Record,
    pos: &Position,
    outcome: Option<super::rules::Outcome>,
    last: Option<&((Position, super::notation::Move), super::rules::Played)>,
    notation: Vec<NotationDeviation>,
) -> Replay {
    let plies = record.moves.len();
    if let Some(board) = &record.final_board {
        let now = board_rows(pos);
        if &now != board {
            // The clause that ended the game, or else the last step of the last move: where the
            // boards part, as far as the record shows.
            let last_step = last.and_then(|(_, p)| p.trace.last()).map(|s| s.clause);
            let clause = outcome
                .map(|o| o.clause)
                .or(last_step)
                .unwrap_or("2.1")
                .to_string();
            let mut d = Deviation {
                ply: plies,
                mv: String::new(),
                kind: Kind::Position,
                clause,
                witness: format!(
                    "{}ours: board {now}\nrecord: board {board}\n",
                    super::position_text::print(pos)
                ),
                reproduced_by: None,
            };
            let finished = last.and_then(|(_, p)| finish_move(pos, p));
            if finished.as_ref().map(|f| &f.0) == Some(board) {
                d.reproduced_by = Some(FINISH_MOVE.to_string());
                d.witness.push_str(
                    "the record's board is what finishing the move gives (kuendelea from the \
                     last sowing's end until a pit that was empty), which 1.2.1 forbids\n",
                );
            }
            return (Some(d), notation);
        }
    }
    (None, notation)
}

/// An engine behaviour no reading allows, tried on a final board that differs: the move that
/// emptied the opponent's front row goes on to its end instead of stopping there (1.2.1 says the
/// game ends even mid-move, in all four translations). From the last sowing of our move, its
/// end pit is sown on while it holds more than one seed, as kuendelea does; no harvest is possible
/// with the opponent's front row empty, and the owned house (1.6.2) stops it. The board it gives
/// and the seeds the whole move sows, or `None` if our move did not end by 1.2.1 or the model
/// runs past 10,000 sowings.
fn finish_move(pos: &Position, last: &super::rules::Played) -> Option<(String, u32)> {
    let ended_mid_move = last.trace.iter().any(|s| s.clause == "1.2.1");
    let (end, direction) = last.trace.iter().rev().find_map(|s| match s.event {
        Event::Sow { end, direction, .. } => Some((end, direction)),
        _ => None,
    })?;
    if !ended_mid_move {
        return None;
    }
    let mut board = pos.board().clone();
    let (side, mut pit) = (end.side, end.pit);
    let mut sown = last.sown;
    for _ in 0..10_000 {
        let stop_at_house = pit == Pit::HOUSE && pos.house_owned(side);
        if board.get(side, pit) <= 1 || stop_at_house {
            return Some((rows_of(&board), sown));
        }
        let seeds = board.take(side, pit);
        sown += u32::from(seeds);
        for _ in 0..seeds {
            pit = pit.next(direction);
            board.add_one(side, pit);
        }
    }
    None
}

/// The name of that behaviour in games.csv and summary.csv.
pub const FINISH_MOVE: &str = "finish-move-after-1.2.1";

/// An engine behaviour no reading allows: a move past the cut-off of 192 seeds sown is played,
/// and its mover loses (1.5.6 forbids an infinite move; a player who has only those loses).
pub const INFINITE_LOSES: &str = "infinite-move-played-and-lost-at-sown:192";

/// The clause a reading choice settles.
fn choice_clause(name: &str) -> &'static str {
    match name.split('=').next() {
        Some("house-loss") => "4.2.1.1",
        Some("house-kutakatia") => "5.1.1.1",
        Some("store-seed-into-house") => "2.1.2",
        _ => "1.5.6",
    }
}

/// The choices engines make where the Bao sources differ or are silent, each with its two
/// values (`infinite=sown:192` is AbstractPlay's documented cut-off, 16 x 12 seeds).
const CHOICES: [[Choice<Variant>; 2]; 4] = [
    [
        ("house-loss=emptied-only", |v| Variant {
            house_loss: HouseLoss::EmptiedOnly,
            ..v
        }),
        ("house-loss=emptied-or-first-mtaji-capture", |v| Variant {
            house_loss: HouseLoss::EmptiedOrFirstMtajiCapture,
            ..v
        }),
    ],
    [
        ("house-kutakatia=exempt-while-owned", |v| Variant {
            house_kutakatia: HouseKutakatia::ExemptWhileOwned,
            ..v
        }),
        ("house-kutakatia=exempt-while-owned-with-six", |v| Variant {
            house_kutakatia: HouseKutakatia::ExemptWhileOwnedWithSix,
            ..v
        }),
    ],
    [
        ("store-seed-into-house=play-out", |v| Variant {
            store_seed_into_house: StoreSeedIntoHouse::PlayOut,
            ..v
        }),
        ("store-seed-into-house=stop", |v| Variant {
            store_seed_into_house: StoreSeedIntoHouse::Stop,
            ..v
        }),
    ],
    [
        ("infinite=exact", |v| {
            v.with_infinite_moves(InfiniteMoves::Exact)
        }),
        ("infinite=sown:192", |v| {
            v.with_infinite_moves(InfiniteMoves::SownLimit(192))
        }),
    ],
];

/// Every reading that differs from `base` in one or more of the choices engines make (house
/// loss, house kutakatia, the store seed into the house, an infinite move as exact or as more
/// than 192 seeds sown), named by the choices that differ (`a+b`), fewest changes first.
pub fn other_readings(base: Variant) -> Vec<(String, Variant)> {
    crate::audit::other_readings(base, &CHOICES)
}

/// Audits `record` under `base`: its verdict, notation deviations and, for a deviation in play,
/// the fewest-change readings under which the whole record agrees.
pub fn audit(base: Variant, record: &Record) -> Result<GameAudit, BadRecord> {
    let (mut deviation, notation) = replay(&Rules::new(base), record)?;
    let explained_by = match deviation.as_mut() {
        None => Vec::new(),
        Some(d) => crate::audit::explain(d, other_readings(base), choice_clause, |v| {
            replay(&Rules::new(v), record).map(|(r, _)| r.map(|d| d.ply))
        }),
    };
    Ok(GameAudit {
        game: record.game.clone(),
        source: record.source.clone(),
        plies: record.moves.len(),
        deviation,
        notation,
        explained_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_readings_are_every_combination_of_the_choices_named_by_their_changes() {
        let r = other_readings(Variant::DEFAULT);
        let names: Vec<&str> = r.iter().map(|(n, _)| n.as_str()).collect();
        // Four choices of two values each: 16 readings, the base left out.
        assert_eq!(names.len(), 15, "{names:?}");
        assert_eq!(
            &names[..4],
            [
                "house-kutakatia=exempt-while-owned-with-six",
                "house-loss=emptied-only",
                "infinite=sown:192",
                "store-seed-into-house=stop"
            ]
        );
        assert_eq!(
            names[14],
            "house-loss=emptied-only+house-kutakatia=exempt-while-owned-with-six+store-seed-into-house=stop+infinite=sown:192"
        );
    }
}
