//! Kalah moves: the letter of the pit emptied, `A`… for South and `a`… for North (spec: kalah
//! K.5.1), and OpenSpiel's action ids for them.

use super::Side;

/// A move: which of the mover's pits to sow, 0 for `A`/`a`, counted from the mover's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// 0 to the number of pits less one.
    pub pit: u8,
}

impl Move {
    /// The move's letter for `side` (spec: kalah K.5.1).
    pub fn letter(self, side: Side) -> char {
        let base = if side == Side::South { b'A' } else { b'a' };
        char::from(base + self.pit)
    }

    /// The player and move a letter names on a board of `pits` pits a row.
    pub fn from_letter(c: char, pits: u8) -> Option<(Side, Move)> {
        // spec: kalah K.5.1 upper case for South, lower case for North, the first m letters
        let (side, base) = match c {
            'A'..='Z' => (Side::South, b'A'),
            'a'..='z' => (Side::North, b'a'),
            _ => return None,
        };
        let pit = c as u8 - base;
        (pit < pits).then_some((side, Move { pit }))
    }

    /// OpenSpiel's action id of this move for `side` on a board of `pits` pits a row: the pit's
    /// index on the board of 2m+2 (North's store 0, South's pits 1…m, South's store m+1, North's
    /// pits m+2…2m+1).
    pub fn action_id(self, side: Side, pits: u8) -> u8 {
        // spec: kalah K.5.1 South's A-F are 1-6, North's a-f 8-13
        match side {
            Side::South => 1 + self.pit,
            Side::North => pits + 2 + self.pit,
        }
    }

    /// The player and move of OpenSpiel action id `id` on a board of `pits` pits a row; none
    /// for the stores and ids past the board.
    pub fn from_action_id(id: u8, pits: u8) -> Option<(Side, Move)> {
        match id {
            _ if (1..=pits).contains(&id) => Some((Side::South, Move { pit: id - 1 })),
            _ if (pits + 2..=2 * pits + 1).contains(&id) => {
                Some((Side::North, Move { pit: id - pits - 2 }))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_name_the_first_m_pits_of_each_side() {
        // spec: kalah K.5.1 type=test
        assert_eq!(
            Move::from_letter('A', 6),
            Some((Side::South, Move { pit: 0 }))
        );
        assert_eq!(
            Move::from_letter('f', 6),
            Some((Side::North, Move { pit: 5 }))
        );
        assert_eq!(Move::from_letter('G', 6), None);
        assert_eq!(Move::from_letter('d', 3), None);
        assert_eq!(
            Move::from_letter('c', 3),
            Some((Side::North, Move { pit: 2 }))
        );
        assert_eq!(Move::from_letter('1', 6), None);
        assert_eq!(Move { pit: 2 }.letter(Side::South), 'C');
        assert_eq!(Move { pit: 2 }.letter(Side::North), 'c');
    }

    #[test]
    fn action_ids_are_openspiels() {
        // OpenSpiel's mancala: South's pits 1-6, North's 8-13, the stores 0 and 7.
        let south: Vec<u8> = (0..6)
            .map(|p| Move { pit: p }.action_id(Side::South, 6))
            .collect();
        let north: Vec<u8> = (0..6)
            .map(|p| Move { pit: p }.action_id(Side::North, 6))
            .collect();
        assert_eq!(south, [1, 2, 3, 4, 5, 6]);
        assert_eq!(north, [8, 9, 10, 11, 12, 13]);
        for id in 0..16 {
            let back = Move::from_action_id(id, 6);
            assert_eq!(back.is_none(), matches!(id, 0 | 7 | 14 | 15), "{id}");
            if let Some((side, mv)) = back {
                assert_eq!(mv.action_id(side, 6), id);
            }
        }
        // Kalah(3,n): South 1-3, South's store 4, North 5-7.
        assert_eq!(
            Move::from_action_id(3, 3),
            Some((Side::South, Move { pit: 2 }))
        );
        assert_eq!(Move::from_action_id(4, 3), None);
        assert_eq!(
            Move::from_action_id(5, 3),
            Some((Side::North, Move { pit: 0 }))
        );
        assert_eq!(
            Move::from_action_id(7, 3),
            Some((Side::North, Move { pit: 2 }))
        );
        assert_eq!(Move::from_action_id(8, 3), None);
    }
}
