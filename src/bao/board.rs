//! Board geometry of Bao la Kiswahili: sides, rows, pits and the seeds on a 4×8 board.
//! Pits are named from their owner's point of view, as the KIBA notation does (rows A/B, pits 1–8).

pub use crate::side::Side;

impl Side {
    /// The notation letter of this side's row (`A`/`B` for South, `a`/`b` for North).
    pub fn row_letter(self, row: Row) -> char {
        match (self, row) {
            (Side::South, Row::Front) => 'A',
            (Side::South, Row::Back) => 'B',
            (Side::North, Row::Front) => 'a',
            (Side::North, Row::Back) => 'b',
        }
    }
}

/// A row of one player's field: the front row faces the opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Row {
    /// The row next to the opponent's front row (`A` or `a`).
    Front,
    /// The row nearest the player (`B` or `b`).
    Back,
}

/// The sense of a sowing around a player's 16 pits, seen from above by that player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Front row left to right, back row right to left (A1→A8→B8→B1).
    Clockwise,
    /// Front row right to left, back row left to right.
    Anticlockwise,
}

/// Which way the player's hand moves, as the notation's `<` and `>` record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hand {
    /// `<`: towards the player's left.
    Left,
    /// `>`: towards the player's right.
    Right,
}

impl Hand {
    /// Both hands, left first.
    pub const BOTH: [Hand; 2] = [Hand::Left, Hand::Right];

    /// The sowing direction of a hand moving along `row` (spec: bao N.6).
    pub fn direction_on(self, row: Row) -> Direction {
        // spec: bao N.6 the symbol is the hand's motion seen by the mover, so on the back row
        // `>` runs anticlockwise
        match (self, row) {
            (Hand::Right, Row::Front) | (Hand::Left, Row::Back) => Direction::Clockwise,
            (Hand::Left, Row::Front) | (Hand::Right, Row::Back) => Direction::Anticlockwise,
        }
    }

    /// The notation character, `<` or `>`.
    pub fn symbol(self) -> char {
        match self {
            Hand::Left => '<',
            Hand::Right => '>',
        }
    }
}

/// A pit of one player's field, named from its owner's view: a row and a number 1–8 from the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit {
    row: Row,
    number: u8,
}

impl Pit {
    /// The left kichwa (front pit 1).
    pub const LEFT_KICHWA: Pit = Pit::front(1);
    /// The left kimbi (front pit 2).
    pub const LEFT_KIMBI: Pit = Pit::front(2);
    /// The nyumba, the house (front pit 5).
    pub const HOUSE: Pit = Pit::front(5);
    /// The right kimbi (front pit 7).
    pub const RIGHT_KIMBI: Pit = Pit::front(7);
    /// The right kichwa (front pit 8).
    pub const RIGHT_KICHWA: Pit = Pit::front(8);

    /// The pit `number` (1–8) of `row`, or `None` when the number is out of range.
    pub fn new(row: Row, number: u8) -> Option<Pit> {
        (1..=8).contains(&number).then_some(Pit { row, number })
    }

    /// Front pit `number`; `number` must be 1–8.
    pub const fn front(number: u8) -> Pit {
        assert!(number >= 1 && number <= 8);
        Pit {
            row: Row::Front,
            number,
        }
    }

    /// Back pit `number`; `number` must be 1–8.
    pub const fn back(number: u8) -> Pit {
        assert!(number >= 1 && number <= 8);
        Pit {
            row: Row::Back,
            number,
        }
    }

    /// The row of this pit.
    pub fn row(self) -> Row {
        self.row
    }

    /// The pit's number, 1–8 from its owner's left.
    pub fn number(self) -> u8 {
        self.number
    }

    /// Position on the owner's clockwise ring: A1..A8 are 0..7, B8..B1 are 8..15.
    pub fn ring(self) -> usize {
        match self.row {
            Row::Front => usize::from(self.number) - 1,
            Row::Back => 16 - usize::from(self.number),
        }
    }

    /// The pit at ring position `i` (taken modulo 16).
    pub fn from_ring(i: usize) -> Pit {
        let i = i % 16;
        if i < 8 {
            Pit::front(i as u8 + 1)
        } else {
            Pit::back(16 - i as u8)
        }
    }

    /// The next pit of the owner's ring in `direction` (spec: bao 1.3).
    pub fn next(self, direction: Direction) -> Pit {
        match direction {
            Direction::Clockwise => Pit::from_ring(self.ring() + 1),
            Direction::Anticlockwise => Pit::from_ring(self.ring() + 15),
        }
    }

    /// For a front pit, the opponent's front pit facing it (their number is 9 minus ours).
    pub fn opposite(self) -> Option<Pit> {
        (self.row == Row::Front).then(|| Pit::front(9 - self.number))
    }

    /// True for the nyumba's pit (whether or not the house is still owned).
    pub fn is_house(self) -> bool {
        self == Pit::HOUSE
    }

    /// All 16 pits in ring order, A1 first.
    pub fn all() -> impl Iterator<Item = Pit> {
        (0..16).map(Pit::from_ring)
    }

    /// The eight front pits, 1 to 8.
    pub fn front_row() -> impl Iterator<Item = Pit> {
        (1..=8).map(Pit::front)
    }

    /// The pit written with `side`'s row letter, e.g. `A5` or `b3`.
    pub fn name(self, side: Side) -> String {
        format!("{}{}", side.row_letter(self.row), self.number)
    }
}

/// The seeds in the 32 pits, indexed by side and ring position.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    seeds: [[u8; 16]; 2],
}

impl Board {
    /// An empty board.
    // mutant: excused its body is `Board::default()`: a mutant returning that is the same code
    pub fn empty() -> Board {
        Board::default()
    }

    /// Seeds in `pit` of `side`.
    pub fn get(&self, side: Side, pit: Pit) -> u8 {
        self.seeds[side.index()][pit.ring()]
    }

    /// Sets the seeds in `pit` of `side`.
    pub fn set(&mut self, side: Side, pit: Pit, seeds: u8) {
        self.seeds[side.index()][pit.ring()] = seeds;
    }

    /// Puts one seed in `pit` of `side` and returns the new count.
    pub fn add_one(&mut self, side: Side, pit: Pit) -> u8 {
        let cell = &mut self.seeds[side.index()][pit.ring()];
        *cell += 1;
        *cell
    }

    /// Empties `pit` of `side` and returns what it held.
    pub fn take(&mut self, side: Side, pit: Pit) -> u8 {
        std::mem::take(&mut self.seeds[side.index()][pit.ring()])
    }

    /// True when none of `side`'s front pits holds a seed (spec: bao 1.2.1).
    pub fn front_row_empty(&self, side: Side) -> bool {
        Pit::front_row().all(|p| self.get(side, p) == 0)
    }

    /// Seeds on `side`'s two rows.
    pub fn side_total(&self, side: Side) -> u32 {
        self.seeds[side.index()].iter().map(|&s| u32::from(s)).sum()
    }

    /// Seeds on the whole board.
    pub fn total(&self) -> u32 {
        self.side_total(Side::South) + self.side_total(Side::North)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ring_round_trips_and_runs_clockwise() {
        for i in 0..16 {
            assert_eq!(Pit::from_ring(i).ring(), i);
        }
        assert_eq!(Pit::front(8).next(Direction::Clockwise), Pit::back(8));
        assert_eq!(Pit::back(1).next(Direction::Clockwise), Pit::front(1));
        assert_eq!(Pit::front(1).next(Direction::Anticlockwise), Pit::back(1));
        assert_eq!(Pit::back(3).next(Direction::Clockwise), Pit::back(2));
    }

    #[test]
    fn opposite_pits_face_each_other() {
        assert_eq!(Pit::front(1).opposite(), Some(Pit::front(8)));
        assert_eq!(Pit::HOUSE.opposite(), Some(Pit::front(4)));
        assert_eq!(Pit::back(4).opposite(), None);
    }

    #[test]
    fn hand_direction_depends_on_row() {
        assert_eq!(Hand::Right.direction_on(Row::Front), Direction::Clockwise);
        assert_eq!(
            Hand::Right.direction_on(Row::Back),
            Direction::Anticlockwise
        );
        // The hand moving right along the back row goes from B3 to B4.
        let d = Hand::Right.direction_on(Row::Back);
        assert_eq!(Pit::back(3).next(d), Pit::back(4));
    }
}
