//! The in-move trace of the reference engine: each step a rule took, with the clause that decided it.
//! `mancala-lab bao explain` prints it; tests read it to see which rule fired.

use std::fmt;

use super::board::{Direction, Pit, Side};

/// A pit together with its owner, printed in notation form (`A5`, `b3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SidePit {
    /// The owner.
    pub side: Side,
    /// The pit, named from the owner's view.
    pub pit: Pit,
}

impl fmt::Display for SidePit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pit.name(self.side))
    }
}

/// Why the mover stopped sowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveEnd {
    /// The last seed fell into an empty pit (1.5.4).
    EmptyPit,
    /// The sowing ended in the owned house, which stops the move here (4.2.2.3).
    House,
    /// Kuendelea ended in the kutakatia-ed pit (5.2).
    Kutakatia,
    /// A front row was emptied, which ends the game (1.2.1).
    GameOver,
    /// The in-move state repeated or the sowing limit was passed (1.5.6).
    Infinite,
}

/// How a move started.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartKind {
    /// With a harvest.
    Capture,
    /// Without a harvest.
    Kutakata,
    /// Kunamua kutakata from the house as only filled front pit.
    HouseTax,
}

/// One thing that happened during a move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The move starts: a capture move, a kutakata, or the house tax, from this pit.
    Start {
        /// The start pit.
        at: SidePit,
        /// What kind of start the rules allowed.
        kind: StartKind,
    },
    /// A seed from the store was put in a pit, which now holds `now`.
    StoreSeed {
        /// Where it went.
        at: SidePit,
        /// Seeds there afterwards.
        now: u8,
    },
    /// Seeds were sown one by one from `first` to `end`.
    Sow {
        /// The first pit that received a seed.
        first: SidePit,
        /// How many seeds.
        seeds: u8,
        /// Which way.
        direction: Direction,
        /// The pit of the last seed.
        end: SidePit,
        /// Seeds in `end` afterwards.
        end_now: u8,
    },
    /// Seeds were taken from a pit to be sown again (move start, kuendelea or playing the house).
    PickUp {
        /// The emptied pit.
        at: SidePit,
        /// How many seeds.
        seeds: u8,
    },
    /// Two seeds were taken from the house to be sown (the house tax).
    HouseTax {
        /// The house.
        at: SidePit,
    },
    /// A harvest: the opponent's facing pit was emptied.
    Capture {
        /// The capturing pit.
        at: SidePit,
        /// The harvested pit.
        from: SidePit,
        /// Seeds taken.
        seeds: u8,
    },
    /// The captured seeds enter at this kichwa and run this way.
    Kichwa {
        /// The kichwa where sowing starts.
        at: SidePit,
        /// The direction from there.
        direction: Direction,
    },
    /// The player chose to play the owned house and sow its seeds on.
    HousePlayed {
        /// The house.
        at: SidePit,
    },
    /// A player's nyumba stopped being a house.
    HouseLost {
        /// Whose.
        side: Side,
    },
    /// The move ended.
    End(MoveEnd),
    /// The game ended with this winner.
    GameOver {
        /// Who won.
        winner: Side,
    },
    /// The opponent may not empty this pit in the next move (kutakatia).
    Kutakatia {
        /// The blocked pit.
        at: SidePit,
    },
}

/// A trace entry: the event and the clause that made it happen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The clause id in `spec/bao.md`.
    pub clause: &'static str,
    /// What happened.
    pub event: Event,
}

fn dir_word(d: Direction) -> &'static str {
    match d {
        Direction::Clockwise => "clockwise",
        Direction::Anticlockwise => "anticlockwise",
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Start { at, kind } => write!(
                f,
                "{} from {at}",
                match kind {
                    StartKind::Capture => "capture move",
                    StartKind::Kutakata => "kutakata",
                    StartKind::HouseTax => "kutakata paying the house tax",
                }
            ),
            Event::StoreSeed { at, now } => write!(f, "store seed into {at} (now {now})"),
            Event::Sow {
                first,
                seeds,
                direction,
                end,
                end_now,
            } => write!(
                f,
                "sow {seeds} {} from {first} to {end} (now {end_now})",
                dir_word(*direction)
            ),
            Event::PickUp { at, seeds } => write!(f, "take {seeds} from {at}"),
            Event::HouseTax { at } => write!(f, "house tax: take 2 from {at}"),
            Event::Capture { at, from, seeds } => {
                write!(f, "capture {seeds} from {from} facing {at}")
            }
            Event::Kichwa { at, direction } => {
                write!(
                    f,
                    "sow captured seeds from kichwa {at} {}",
                    dir_word(*direction)
                )
            }
            Event::HousePlayed { at } => write!(f, "play the house {at}"),
            Event::HouseLost { side } => write!(f, "{side} loses the house"),
            Event::End(end) => f.write_str(match end {
                MoveEnd::EmptyPit => "move ends: last seed in an empty pit",
                MoveEnd::House => "move ends in the house",
                MoveEnd::Kutakatia => "move ends in the kutakatia-ed pit",
                MoveEnd::GameOver => "move ends: the game is over",
                MoveEnd::Infinite => "move is infinite",
            }),
            Event::GameOver { winner } => write!(f, "game over: {winner} wins"),
            Event::Kutakatia { at } => write!(f, "kutakatia: {at} may not be emptied next move"),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[bao {}] {}", self.clause, self.event)
    }
}
