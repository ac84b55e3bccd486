//! KIBA move notation (spec: bao N.1–N.6): `A5>`, `b3<*`, `a6<+`, `6>` in kunamua.
//! `MoveText` is what was written; the rules turn it into a [`Move`] against a position.

use std::fmt;

use super::board::{Hand, Pit, Row, Side};

/// A move as the player chooses it: start pit, hand direction, and whether to play the house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Kunamua: the pit that receives the store seed; mtaji: the pit emptied to start.
    pub pit: Pit,
    /// `<` or `>`: for a kunamua capture the kichwa chosen, otherwise the way the hand moves.
    pub hand: Hand,
    /// `+`: play the owned house when a capture move's sowing ends there.
    pub play_house: bool,
}

/// Whether a move starts with a harvest (spec: bao 1.5.1, 1.5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move that starts with a harvest.
    Capture,
    /// A move without any harvest (`*`).
    Kutakata,
    /// A kutakata that leaves the opponent a kutakatia-ed pit (`**`).
    Kutakatia,
}

impl Move {
    /// The canonical notation of this move by `side`: row, number, direction and suffix (spec: bao N.1).
    pub fn notation(self, side: Side, kind: MoveKind) -> String {
        let suffix = match kind {
            MoveKind::Capture => "",
            MoveKind::Kutakata => "*",
            MoveKind::Kutakatia => "**",
        };
        format!(
            "{}{}{}{}",
            self.pit.name(side),
            self.hand.symbol(),
            if self.play_house { "+" } else { "" },
            suffix
        )
    }
}

/// A move exactly as written, with the parts the notation allows to omit left open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// Side and row from the row letter, if one was written.
    pub row: Option<(Side, Row)>,
    /// Pit number 1–8.
    pub number: u8,
    /// `<` or `>`, if written.
    pub hand: Option<Hand>,
    /// A `+` was written.
    pub play_house: bool,
    /// Number of `*` written (0, 1 or 2).
    pub stars: u8,
}

/// A move text that does not follow the notation; `column` counts characters from 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: expected {expected}, found {found}")]
pub struct NotationError {
    /// 1-based character column within the move text.
    pub column: usize,
    /// What the parser wanted there.
    pub expected: &'static str,
    /// What it found (a quoted character, or "end of move").
    pub found: String,
}

fn found(c: Option<char>) -> String {
    match c {
        Some(c) => format!("'{}'", c.escape_default()),
        None => "end of move".to_string(),
    }
}

impl MoveText {
    /// Parses one move such as `A5>`, `b3<*`, `a6>+` or `6<` (spec: bao N.1–N.5).
    pub fn parse(text: &str) -> Result<MoveText, NotationError> {
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let err = |i: usize, expected: &'static str| NotationError {
            column: i + 1,
            expected,
            found: found(chars.get(i).copied()),
        };
        // spec: bao N.1 the row letter, omittable in kunamua (N.5)
        let row = match chars.first() {
            Some('A') => Some((Side::South, Row::Front)),
            Some('B') => Some((Side::South, Row::Back)),
            Some('a') => Some((Side::North, Row::Front)),
            Some('b') => Some((Side::North, Row::Back)),
            _ => None,
        };
        if row.is_some() {
            i += 1;
        }
        let number = match chars.get(i) {
            Some(c @ '1'..='8') => *c as u8 - b'0',
            _ => {
                return Err(err(
                    i,
                    if row.is_some() {
                        "a pit number 1-8"
                    } else {
                        "a row letter (A, B, a, b) or a pit number 1-8"
                    },
                ))
            }
        };
        i += 1;
        // spec: bao N.2 the direction, relative to the mover
        let hand = match chars.get(i) {
            Some('<') => Some(Hand::Left),
            Some('>') => Some(Hand::Right),
            _ => None,
        };
        if hand.is_some() {
            i += 1;
        }
        // spec: bao N.3 '+' plays the house
        let play_house = chars.get(i) == Some(&'+');
        if play_house {
            i += 1;
        }
        // spec: bao N.4 '*' kutakata, '**' kutakatia
        let mut stars = 0;
        while chars.get(i) == Some(&'*') && stars < 2 {
            stars += 1;
            i += 1;
        }
        if i < chars.len() {
            let expected = match (hand.is_some(), play_house, stars) {
                (false, false, 0) => "'<', '>', '+', '*' or the end of the move",
                (_, false, 0) => "'+', '*' or the end of the move",
                (_, _, 0) => "'*' or the end of the move",
                (_, _, 1) => "a second '*' or the end of the move",
                _ => "the end of the move",
            };
            return Err(err(i, expected));
        }
        Ok(MoveText {
            row,
            number,
            hand,
            play_house,
            stars,
        })
    }

    /// The pit named, once the row is known.
    pub fn pit(&self, row: Row) -> Pit {
        Pit::new(row, self.number).expect("number checked by the parser")
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((side, row)) = self.row {
            write!(f, "{}", side.row_letter(row))?;
        }
        write!(f, "{}", self.number)?;
        if let Some(h) = self.hand {
            write!(f, "{}", h.symbol())?;
        }
        if self.play_house {
            f.write_str("+")?;
        }
        for _ in 0..self.stars {
            f.write_str("*")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_full_and_short_forms() {
        let m = MoveText::parse("A5>+").unwrap();
        assert_eq!(m.row, Some((Side::South, Row::Front)));
        assert_eq!(
            (m.number, m.hand, m.play_house, m.stars),
            (5, Some(Hand::Right), true, 0)
        );
        let m = MoveText::parse("6<**").unwrap();
        assert_eq!(
            (m.row, m.number, m.hand, m.stars),
            (None, 6, Some(Hand::Left), 2)
        );
        assert_eq!(MoveText::parse("b1").unwrap().hand, None);
    }

    #[test]
    fn errors_name_the_column() {
        let e = MoveText::parse("A9>").unwrap_err();
        assert_eq!(e.column, 2);
        let e = MoveText::parse("A5>***").unwrap_err();
        assert_eq!(e.column, 6);
        let e = MoveText::parse("").unwrap_err();
        assert_eq!((e.column, e.found.as_str()), (1, "end of move"));
        assert!(MoveText::parse("C3>").is_err());
        assert!(MoveText::parse("A5*+").is_err());
    }

    #[test]
    fn display_round_trips() {
        for s in ["A5>+", "b3<*", "6<", "a8**", "B1>"] {
            assert_eq!(MoveText::parse(s).unwrap().to_string(), s);
        }
    }
}
