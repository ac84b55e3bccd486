//! Named interpretation choices for Oware where the sheet is silent or unclear, and the presets
//! `sheet` (our reading of the rules sheet) and `abapa` (exactly OpenSpiel's `oware`).

use std::str::FromStr;

use super::Side;

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

/// An unknown preset name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown Oware variant {} (known: sheet, abapa, strict)", crate::text::quoted(.0))]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::preset(s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}
