//! Named interpretation choices for Oware where the sheet is silent or unclear, and the presets
//! `sheet` (our reading of the rules sheet) and `abapa` (exactly OpenSpiel's `oware`).

use std::str::FromStr;

use super::Side;
use crate::reading::{ReadingError, Written};

/// What a move that would capture every seed of the opponent does (spec: oware O.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// Forbidden, like any move that leaves the opponent without seeds (the sheet's wording).
    Forbidden,
    /// Legal, but it captures nothing (OpenSpiel, abapa rules).
    CapturesNothing,
}

/// What happens when every move is forbidden although both sides hold seeds (spec: oware O.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoAllowedMove {
    /// The game ends and each player adds the seeds on their own row.
    EachTakesOwn,
    /// Grand slams become allowed, capturing nothing; only when none exists does the game end.
    AllowGrandSlamWithoutCapture,
    /// Left open: with seeds on both rows the game stops with a "rules silent" outcome.
    Open,
}

/// When seeds going round without captures end the game (spec: oware O.6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleEnd {
    /// The game ends when a position (player to move, scores, pits) occurs this many times since
    /// the last capture: 2 is the first repetition (abapa), 4 more than two full rounds (sheet).
    Occurrences(u8),
    /// Left open ("full round" is undefined): at the first repetition the game stops with a
    /// "rules silent" outcome.
    Open,
}

impl CycleEnd {
    /// The occurrence of a position since the last capture at which O.6.2 applies.
    pub fn applies_at(self) -> u8 {
        match self {
            CycleEnd::Occurrences(n) => n,
            CycleEnd::Open => 2,
        }
    }
}

/// What is done with the seeds left on the board when a player reaches 25 (spec: oware O.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FinalSweep {
    /// Left on the board: the scores are the captures.
    None,
    /// Each player adds the seeds on their own row (OpenSpiel does this at every end).
    EachTakesOwn,
}

/// A complete reading of the Oware sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Grand slam handling (O.4.1).
    pub grand_slam: GrandSlam,
    /// Every move forbidden while both sides hold seeds (O.4.2).
    pub no_allowed_move: NoAllowedMove,
    /// The endless-cycle rule (O.6.2).
    pub cycle_end: CycleEnd,
    /// Seeds left when a player reaches 25 (O.6.1).
    pub final_sweep: FinalSweep,
    /// Who moves first (O.2.1: chosen by the players).
    pub first_player: Side,
}

/// The largest occurrence of a position at which a reading may end the game (O.6.2).
pub const MAX_OCCURRENCES: u8 = 9;

/// The preset names, for help texts and errors.
pub const PRESET_NAMES: [&str; 3] = ["sheet", "abapa", "strict"];

impl Variant {
    /// Our reading of the rules sheet (see spec/oware.md).
    pub const SHEET: Variant = Variant {
        grand_slam: GrandSlam::Forbidden,
        no_allowed_move: NoAllowedMove::EachTakesOwn,
        // spec: oware O.6.2 more than two full rounds: the position's fourth occurrence
        cycle_end: CycleEnd::Occurrences(4),
        final_sweep: FinalSweep::None,
        first_player: Side::South,
    };

    /// OpenSpiel's `oware` exactly.
    pub const ABAPA: Variant = Variant {
        grand_slam: GrandSlam::CapturesNothing,
        no_allowed_move: NoAllowedMove::EachTakesOwn,
        cycle_end: CycleEnd::Occurrences(2),
        final_sweep: FinalSweep::EachTakesOwn,
        first_player: Side::South,
    };

    /// The sheet as worded, with its two silent points left open (O.4.2 with seeds on both rows,
    /// O.6.2's "full round"): reaching one ends the game with a "rules silent" outcome.
    pub const STRICT: Variant = Variant {
        no_allowed_move: NoAllowedMove::Open,
        cycle_end: CycleEnd::Open,
        ..Variant::SHEET
    };

    /// The clauses this reading leaves open.
    pub fn open_points(&self) -> Vec<&'static str> {
        let mut open = Vec::new();
        if self.no_allowed_move == NoAllowedMove::Open {
            open.push("O.4.2");
        }
        if self.cycle_end == CycleEnd::Open {
            open.push("O.6.2");
        }
        open
    }

    /// The preset called `name`.
    pub fn preset(name: &str) -> Option<Variant> {
        match name {
            "sheet" => Some(Variant::SHEET),
            "abapa" => Some(Variant::ABAPA),
            "strict" => Some(Variant::STRICT),
            _ => None,
        }
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant::SHEET
    }
}

/// Why a text is not an Oware reading.
pub type VariantError = ReadingError;

/// The parameters a reading may set after its preset: the choices of the table in
/// docs/readings.md.
pub const PARAMETER_NAMES: [&str; 5] = [
    "grand-slam",
    "no-allowed-move",
    "cycle-end",
    "final-sweep",
    "first-player",
];

impl Written for Variant {
    const GAME: &'static str = "Oware";
    const PRESET_NAMES: &'static [&'static str] = &PRESET_NAMES;
    const PARAMETER_NAMES: &'static [&'static str] = &PARAMETER_NAMES;

    fn preset(name: &str) -> Option<Variant> {
        Variant::preset(name)
    }

    fn set(&mut self, name: &str, value: &str) -> Result<(), &'static str> {
        match name {
            "grand-slam" => {
                self.grand_slam = match value {
                    "forbidden" => GrandSlam::Forbidden,
                    "captures-nothing" => GrandSlam::CapturesNothing,
                    _ => return Err("forbidden or captures-nothing"),
                }
            }
            "no-allowed-move" => {
                self.no_allowed_move = match value {
                    "each-takes-own" => NoAllowedMove::EachTakesOwn,
                    "allow-grand-slam" => NoAllowedMove::AllowGrandSlamWithoutCapture,
                    "open" => NoAllowedMove::Open,
                    _ => return Err("each-takes-own, allow-grand-slam or open"),
                }
            }
            "cycle-end" => {
                self.cycle_end = match value {
                    "open" => CycleEnd::Open,
                    _ => CycleEnd::Occurrences(
                        value
                            .parse()
                            .ok()
                            .filter(|n| (2..=MAX_OCCURRENCES).contains(n))
                            .ok_or("an occurrence from 2 to 9, or open")?,
                    ),
                }
            }
            "final-sweep" => {
                self.final_sweep = match value {
                    "none" => FinalSweep::None,
                    "each-takes-own" => FinalSweep::EachTakesOwn,
                    _ => return Err("none or each-takes-own"),
                }
            }
            // "first-player", the last name
            _ => {
                self.first_player = match value {
                    "south" => Side::South,
                    "north" => Side::North,
                    _ => return Err("south or north"),
                }
            }
        }
        Ok(())
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    /// A preset, then parameters that change its choices: `sheet:no-allowed-move=allow-grand-slam`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::reading::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_read_alone() {
        for name in PRESET_NAMES {
            assert_eq!(name.parse::<Variant>().ok(), Variant::preset(name));
        }
        assert_eq!("sheet".parse::<Variant>(), Ok(Variant::SHEET));
    }

    #[test]
    fn parameters_change_one_choice_each() {
        // O.4.2's other choice on its own, the rest of the sheet kept.
        let v: Variant = "sheet:no-allowed-move=allow-grand-slam".parse().unwrap();
        assert_eq!(
            v,
            Variant {
                no_allowed_move: NoAllowedMove::AllowGrandSlamWithoutCapture,
                grand_slam: GrandSlam::Forbidden,
                cycle_end: CycleEnd::Occurrences(4),
                final_sweep: FinalSweep::None,
                first_player: Side::South,
            }
        );
        // abapa is the sheet with every choice but O.4.2's changed (docs/readings.md's table).
        let v: Variant = "sheet:grand-slam=captures-nothing,cycle-end=2,final-sweep=each-takes-own"
            .parse()
            .unwrap();
        assert_eq!(v, Variant::ABAPA);
        // strict is the sheet with its two silent points open.
        let v: Variant = "sheet:cycle-end=open,no-allowed-move=open".parse().unwrap();
        assert_eq!(v, Variant::STRICT);
        let v: Variant = "abapa:first-player=north,cycle-end=9".parse().unwrap();
        assert_eq!(
            (v.first_player, v.cycle_end),
            (Side::North, CycleEnd::Occurrences(9))
        );
    }

    #[test]
    fn bad_readings_are_named() {
        let e = |s: &str| s.parse::<Variant>().unwrap_err().to_string();
        assert_eq!(
            e("awari"),
            "unknown Oware variant 'awari' (known: sheet, abapa, strict)"
        );
        assert_eq!(
            e("sheet:cycle-end=1"),
            "Oware variant parameter cycle-end='1': expected an occurrence from 2 to 9, or open"
        );
        assert!(e("sheet:cycle-end=10").contains("from 2 to 9"));
        assert!(e("sheet:grand-slam=allowed").contains("forbidden or captures-nothing"));
        assert!(e("sheet:first-player=east").contains("south or north"));
        assert!(e("sheet:seeds=4")
            .contains("unknown Oware variant parameter 'seeds' (known: grand-slam,"));
        assert!(e("sheet:grand-slam").contains("has no value"));
        assert!(e("sheet:cycle-end=2,cycle-end=3").contains("given twice"));
        assert!(e("sheet:").contains("has no value"));
        assert!(e("Sheet").contains("unknown Oware variant"));
    }
}
