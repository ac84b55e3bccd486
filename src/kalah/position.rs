//! Kalah positions and their text format: two rows of m pits, two stores, the player to move.
//! Rows are counted from their owner's left; sowing runs A…, South's store, a…, North's store.

use std::fmt;

use super::variant::{Variant, MAX_PITS};
use super::Side;
use crate::text::quoted;

/// A validated Kalah position under one reading's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Each side's pits from its owner's left; only the first `pits` are on the board.
    pub(crate) rows: [[u8; MAX_PITS as usize]; 2],
    /// South's store, then North's.
    pub(crate) stores: [u8; 2],
    /// Pits a row.
    pub(crate) pits: u8,
    /// The player to move.
    pub(crate) to_move: Side,
}

/// Why a text or a setup is not a Kalah position under a reading.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A malformed line.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// A required line is absent.
    #[error("missing line '{0}:'")]
    Missing(&'static str),
    /// A row is not as long as the reading's.
    #[error("a row has {found} pits; this reading's board has {expected} a row")]
    Pits {
        /// Pits given.
        found: usize,
        /// Pits of the reading.
        expected: u8,
    },
    /// Pits and stores do not hold the reading's seeds.
    #[error("the pits and stores hold {found} seeds; this reading plays with {expected}")]
    SeedCount {
        /// Seeds given.
        found: u32,
        /// 2·m·n of the reading.
        expected: u32,
    },
}

impl Position {
    /// The start position of `variant`: `n` seeds in each pit, the stores empty, South to move
    /// (spec: kalah K.1.2, K.1.3).
    pub fn start(variant: &Variant) -> Position {
        let mut rows = [[0; MAX_PITS as usize]; 2];
        for row in &mut rows {
            // spec: kalah K.1.2 every pit holds the same number of seeds, the stores none
            row[..usize::from(variant.pits)].fill(variant.seeds);
        }
        Position {
            rows,
            stores: [0; 2],
            pits: variant.pits,
            // spec: kalah K.1.3 South moves first
            to_move: Side::South,
        }
    }

    /// A position from its rows (each from its owner's left), stores and player to move,
    /// checked against `variant`'s board.
    pub fn new(
        south: &[u8],
        north: &[u8],
        stores: [u8; 2],
        to_move: Side,
        variant: &Variant,
    ) -> Result<Position, PositionError> {
        for row in [south, north] {
            // spec: kalah K.1.1 two rows of m pits, one row a player
            if row.len() != usize::from(variant.pits) {
                return Err(PositionError::Pits {
                    found: row.len(),
                    expected: variant.pits,
                });
            }
        }
        let total: u32 = south
            .iter()
            .chain(north)
            .chain(&stores)
            .map(|&s| u32::from(s))
            .sum();
        if total != variant.total_seeds() {
            return Err(PositionError::SeedCount {
                found: total,
                expected: variant.total_seeds(),
            });
        }
        let mut rows = [[0; MAX_PITS as usize]; 2];
        rows[0][..south.len()].copy_from_slice(south);
        rows[1][..north.len()].copy_from_slice(north);
        Ok(Position {
            rows,
            stores,
            pits: variant.pits,
            to_move,
        })
    }

    /// Pits a row.
    pub fn pits(&self) -> u8 {
        self.pits
    }

    /// `side`'s row, from its left.
    pub fn row(&self, side: Side) -> &[u8] {
        &self.rows[side.index()][..usize::from(self.pits)]
    }

    /// Seeds in `side`'s pit `pit` (0 is `A`/`a`).
    pub fn pit(&self, side: Side, pit: u8) -> u8 {
        self.rows[side.index()][usize::from(pit)]
    }

    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// Seeds in `side`'s row.
    pub fn row_seeds(&self, side: Side) -> u32 {
        self.row(side).iter().map(|&s| u32::from(s)).sum()
    }

    /// Parses the text format (spec: kalah K.5.2) under `variant`'s board.
    pub fn parse(text: &str, variant: &Variant) -> Result<Position, PositionError> {
        const KEYS: &str = "keys: to_move, scores, north, south";
        let mut to_move = None;
        let mut scores = None;
        let mut north: Option<Vec<u8>> = None;
        let mut south: Option<Vec<u8>> = None;
        for key_line in crate::text::key_lines(text) {
            let key_line = key_line.map_err(|(line, column)| PositionError::Syntax {
                line,
                column,
                message: format!("expected 'key: value' ({KEYS})"),
            })?;
            let syntax = |column: usize, message: String| PositionError::Syntax {
                line: key_line.line,
                column,
                message,
            };
            let words = &key_line.words;
            let first_column = words.first().map_or(key_line.end_column, |w| w.0);
            let counts = |n: usize| -> Result<Vec<u8>, PositionError> {
                if words.len() != n {
                    return Err(syntax(
                        words.get(n).map_or(key_line.end_column, |w| w.0),
                        format!("expected {n} numbers, found {}", words.len()),
                    ));
                }
                words
                    .iter()
                    .map(|&(column, w)| {
                        w.parse::<u8>().ok().filter(|&x| x <= 144).ok_or_else(|| {
                            syntax(
                                column,
                                format!("expected a seed count 0-144, found {}", quoted(w)),
                            )
                        })
                    })
                    .collect()
            };
            let once = |seen: bool| {
                if seen {
                    Err(syntax(
                        key_line.key_column,
                        format!("{} given twice", quoted(key_line.key)),
                    ))
                } else {
                    Ok(())
                }
            };
            match key_line.key {
                "to_move" => {
                    once(to_move.is_some())?;
                    to_move = Some(match words[..] {
                        [(_, "South" | "south")] => Side::South,
                        [(_, "North" | "north")] => Side::North,
                        _ => {
                            return Err(syntax(first_column, "expected 'South' or 'North'".into()))
                        }
                    });
                }
                "scores" => {
                    once(scores.is_some())?;
                    let v = counts(2)?;
                    scores = Some([v[0], v[1]]);
                }
                "north" => {
                    once(north.is_some())?;
                    // Written as seen from South: North's last pit first.
                    let mut row = counts(usize::from(variant.pits))?;
                    row.reverse();
                    north = Some(row);
                }
                "south" => {
                    once(south.is_some())?;
                    south = Some(counts(usize::from(variant.pits))?);
                }
                key => {
                    return Err(syntax(
                        key_line.key_column,
                        format!("unknown key {} ({KEYS})", quoted(key)),
                    ))
                }
            }
        }
        let to_move = to_move.ok_or(PositionError::Missing("to_move"))?;
        let scores = scores.ok_or(PositionError::Missing("scores"))?;
        let north = north.ok_or(PositionError::Missing("north"))?;
        let south = south.ok_or(PositionError::Missing("south"))?;
        Position::new(&south, &north, scores, to_move, variant)
    }
}

impl fmt::Display for Position {
    /// The text format (spec: kalah K.5.2), one line a key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |side: Side, reversed: bool| {
            let mut seeds: Vec<String> = self.row(side).iter().map(u8::to_string).collect();
            if reversed {
                seeds.reverse();
            }
            seeds.join(" ")
        };
        writeln!(f, "to_move: {}", self.to_move)?;
        writeln!(f, "scores: {} {}", self.stores[0], self.stores[1])?;
        writeln!(f, "north: {}", row(Side::North, true))?;
        writeln!(f, "south: {}", row(Side::South, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "to_move: South\nscores: 0 0\nnorth: 4 4 4 4 4 4\nsouth: 4 4 4 4 4 4\n";

    #[test]
    fn the_start_prints_and_reads_back() {
        let v = Variant::default();
        let start = Position::start(&v);
        assert_eq!(start.to_string(), START);
        assert_eq!(Position::parse(START, &v), Ok(start));
        assert_eq!(start.row_seeds(Side::North), 24);
    }

    #[test]
    fn north_is_written_from_its_last_pit() {
        // spec: kalah K.5.2 type=test
        let v: Variant = "openspiel:pits=3,seeds=2".parse().unwrap();
        let p = Position::parse(
            "to_move: North # comment\n\nscores: 1 2\nnorth: 3 0 1\nsouth: 2 2 1\n",
            &v,
        )
        .unwrap();
        assert_eq!(p.row(Side::North), [1, 0, 3]);
        assert_eq!(p.row(Side::South), [2, 2, 1]);
        assert_eq!((p.store(Side::South), p.store(Side::North)), (1, 2));
        assert_eq!(p.to_move(), Side::North);
        assert_eq!(
            p.to_string(),
            "to_move: North\nscores: 1 2\nnorth: 3 0 1\nsouth: 2 2 1\n"
        );
    }

    #[test]
    fn bad_positions_are_named_with_line_and_column() {
        let v = Variant::default();
        let e = |text: &str| Position::parse(text, &v).unwrap_err().to_string();
        assert_eq!(
            e("to_move: South\nscores: 0 0\nnorth: 4 4 4 4 4\nsouth: 4 4 4 4 4 4\n"),
            "line 3, column 17: expected 6 numbers, found 5"
        );
        assert_eq!(
            e("to_move: South\nscores: 0 0 0\n"),
            "line 2, column 13: expected 2 numbers, found 3"
        );
        assert_eq!(
            e("to_move: East\n"),
            "line 1, column 10: expected 'South' or 'North'"
        );
        assert_eq!(
            e("to_move: South\nscores: 0 x\n"),
            "line 2, column 11: expected a seed count 0-144, found 'x'"
        );
        assert_eq!(
            e("  stores: 0 0\n"),
            "line 1, column 3: unknown key 'stores' (keys: to_move, scores, north, south)"
        );
        assert_eq!(
            e("to_move South\n"),
            "line 1, column 1: expected 'key: value' (keys: to_move, scores, north, south)"
        );
        assert_eq!(
            e("to_move: South\nto_move: North\n"),
            "line 2, column 1: 'to_move' given twice"
        );
        assert_eq!(e("scores: 0 0\n"), "missing line 'to_move:'");
        assert_eq!(
            e("to_move: South\nscores: 1 0\nnorth: 4 4 4 4 4 4\nsouth: 4 4 4 4 4 4\n"),
            "the pits and stores hold 49 seeds; this reading plays with 48"
        );
        assert_eq!(
            Position::new(&[1, 2], &[1, 2, 3], [0, 0], Side::South, &v),
            Err(PositionError::Pits {
                found: 2,
                expected: 6
            })
        );
    }
}
