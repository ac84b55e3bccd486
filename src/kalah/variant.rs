//! Named readings of Kalah where its rule texts part (spec/kalah.md), the board among them, and
//! the presets that set them all; a reading is written `PRESET[:NAME=VALUE,...]`.

use std::fmt;
use std::str::FromStr;

use crate::reading::{ReadingError, Written};

/// When the game ends (spec: kalah K.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndTest {
    /// After every ply, as soon as either row holds no seeds (OpenSpiel).
    EitherRowEmpty,
    /// When the player to move has no seeds (Ludii's `Kalah.lud`).
    MoverStarved,
}

/// Where the seeds left in the rows go when the game ends (spec: kalah K.4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sweep {
    /// Each player's seeds count for that player (Wikipedia's rules, OpenSpiel).
    ToOwner,
    /// They count for the player whose row is empty (a variation Wikipedia names).
    ToEmptier,
    /// They count for no one (a variation Wikipedia names).
    None,
}

/// A complete reading of Kalah: the board and every disputed rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Pits a row, `m` of Kalah(m,n) (K.1.1).
    pub pits: u8,
    /// Seeds a pit at the start, `n` of Kalah(m,n) (K.1.2).
    pub seeds: u8,
    /// Whether a last seed opposite an empty pit goes to the store alone (K.3.2).
    pub empty_capture: bool,
    /// When the game ends (K.4.1).
    pub end: EndTest,
    /// Where the seeds left go (K.4.2).
    pub sweep: Sweep,
    /// The ply after which the game ends if it has not (K.4.4), or none.
    pub ply_cap: Option<u32>,
}

/// The largest number of pits a row (letters `A`–`F`).
pub const MAX_PITS: u8 = 6;
/// The largest number of seeds a pit at the start.
pub const MAX_SEEDS: u8 = 12;

/// The presets, the default first.
pub const PRESETS: [(&str, Variant); 5] = [
    ("openspiel", Variant::OPENSPIEL),
    ("empty-capture", Variant::EMPTY_CAPTURE),
    ("starvation", Variant::STARVATION),
    ("sweep-to-emptier", Variant::SWEEP_TO_EMPTIER),
    ("no-sweep", Variant::NO_SWEEP),
];

/// The preset names, for help texts and errors.
pub const PRESET_NAMES: [&str; 5] = [
    PRESETS[0].0,
    PRESETS[1].0,
    PRESETS[2].0,
    PRESETS[3].0,
    PRESETS[4].0,
];

/// The parameters a reading may set after its preset, in the order they are printed.
pub const PARAMETER_NAMES: [&str; 6] = ["pits", "seeds", "empty-capture", "end", "sweep", "cap"];

impl Variant {
    /// OpenSpiel's `mancala` exactly: Kalah(6,4), no empty capture, either row empty ends the
    /// game, the seeds left counted for their owner, and its cap of 1,001 plies.
    pub const OPENSPIEL: Variant = Variant {
        pits: 6,
        seeds: 4,
        empty_capture: false,
        end: EndTest::EitherRowEmpty,
        sweep: Sweep::ToOwner,
        // spec: kalah K.4.4 OpenSpiel's move_number_ > MaxGameLength() (1000)
        ply_cap: Some(1001),
    };

    /// Champion's rules as Neller reports them: empty capture on, no cap.
    pub const EMPTY_CAPTURE: Variant = Variant {
        empty_capture: true,
        ply_cap: None,
        ..Variant::OPENSPIEL
    };

    /// Ludii's `Kalah.lud`: the game ends when the player to move has no seeds.
    pub const STARVATION: Variant = Variant {
        end: EndTest::MoverStarved,
        ply_cap: None,
        ..Variant::OPENSPIEL
    };

    /// The seeds left count for the player whose row is empty.
    pub const SWEEP_TO_EMPTIER: Variant = Variant {
        sweep: Sweep::ToEmptier,
        ply_cap: None,
        ..Variant::OPENSPIEL
    };

    /// The seeds left count for no one.
    pub const NO_SWEEP: Variant = Variant {
        sweep: Sweep::None,
        ply_cap: None,
        ..Variant::OPENSPIEL
    };

    /// The preset called `name`.
    pub fn preset(name: &str) -> Option<Variant> {
        PRESETS.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// All seeds in play: `n` in each of the `2m` pits.
    pub fn total_seeds(&self) -> u32 {
        2 * u32::from(self.pits) * u32::from(self.seeds)
    }

    /// The preset whose rules (all but the board) differ from this reading's in the fewest
    /// parameters, the earlier on a tie.
    fn closest_preset(&self) -> (&'static str, Variant) {
        let differences = |p: &Variant| {
            PARAMETER_NAMES[2..]
                .iter()
                .filter(|n| self.parameter(n) != p.parameter(n))
                .count()
        };
        PRESETS
            .into_iter()
            .min_by_key(|(_, p)| differences(p))
            .unwrap_or(PRESETS[0])
    }

    /// The parameter `name` as this reading sets it.
    fn parameter(&self, name: &str) -> String {
        match name {
            "pits" => self.pits.to_string(),
            "seeds" => self.seeds.to_string(),
            "empty-capture" => if self.empty_capture { "on" } else { "off" }.to_string(),
            "end" => match self.end {
                EndTest::EitherRowEmpty => "either-row-empty",
                EndTest::MoverStarved => "mover-starved",
            }
            .to_string(),
            "sweep" => match self.sweep {
                Sweep::ToOwner => "to-owner",
                Sweep::ToEmptier => "to-emptier",
                Sweep::None => "none",
            }
            .to_string(),
            _ => self.ply_cap.map_or("none".to_string(), |c| c.to_string()),
        }
    }
}

impl Written for Variant {
    const GAME: &'static str = "Kalah";
    const PRESET_NAMES: &'static [&'static str] = &PRESET_NAMES;
    const PARAMETER_NAMES: &'static [&'static str] = &PARAMETER_NAMES;

    fn preset(name: &str) -> Option<Variant> {
        Variant::preset(name)
    }

    fn set(&mut self, name: &str, value: &str) -> Result<(), &'static str> {
        match name {
            "pits" => {
                self.pits = value
                    .parse()
                    .ok()
                    .filter(|p| (1..=MAX_PITS).contains(p))
                    .ok_or("a number of pits from 1 to 6")?
            }
            "seeds" => {
                self.seeds = value
                    .parse()
                    .ok()
                    .filter(|s| (1..=MAX_SEEDS).contains(s))
                    .ok_or("a number of seeds from 1 to 12")?
            }
            "empty-capture" => {
                self.empty_capture = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err("on or off"),
                }
            }
            "end" => {
                self.end = match value {
                    "either-row-empty" => EndTest::EitherRowEmpty,
                    "mover-starved" => EndTest::MoverStarved,
                    _ => return Err("either-row-empty or mover-starved"),
                }
            }
            "sweep" => {
                self.sweep = match value {
                    "to-owner" => Sweep::ToOwner,
                    "to-emptier" => Sweep::ToEmptier,
                    "none" => Sweep::None,
                    _ => return Err("to-owner, to-emptier or none"),
                }
            }
            // "cap", the last name
            _ => {
                self.ply_cap = match value {
                    "none" => None,
                    _ => Some(
                        value
                            .parse()
                            .ok()
                            .filter(|&c: &u32| c > 0)
                            .ok_or("a number of plies from 1, or none")?,
                    ),
                }
            }
        }
        Ok(())
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant::OPENSPIEL
    }
}

/// Why a text is not a Kalah reading.
pub type VariantError = ReadingError;

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::reading::parse(s)
    }
}

impl fmt::Display for Variant {
    /// The preset alone for Kalah(6,4) under a preset's rules; otherwise the closest preset with
    /// the parameters that differ from it, the board whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, base) = self.closest_preset();
        f.write_str(name)?;
        let mut separator = ':';
        for parameter in PARAMETER_NAMES {
            let value = self.parameter(parameter);
            // The board is printed whole when it is not Kalah(6,4).
            let board = (parameter == "pits" || parameter == "seeds")
                && (self.pits, self.seeds) != (base.pits, base.seeds);
            if board || value != base.parameter(parameter) {
                write!(f, "{separator}{parameter}={value}")?;
                separator = ',';
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_print_as_their_names_and_read_back() {
        for (name, v) in PRESETS {
            assert_eq!(v.to_string(), name);
            assert_eq!(name.parse::<Variant>(), Ok(v));
        }
        assert_eq!(Variant::default(), Variant::OPENSPIEL);
    }

    #[test]
    fn parameters_set_the_board_and_the_rules() {
        let v: Variant = "empty-capture:pits=6,seeds=5".parse().unwrap();
        assert_eq!((v.pits, v.seeds, v.empty_capture), (6, 5, true));
        assert_eq!(v.total_seeds(), 60);
        assert_eq!(v.to_string(), "empty-capture:pits=6,seeds=5");
        let v: Variant = "openspiel:seeds=3".parse().unwrap();
        assert_eq!(v.to_string(), "openspiel:pits=6,seeds=3");
        let v: Variant = "openspiel:sweep=none,cap=none,end=mover-starved"
            .parse()
            .unwrap();
        assert_eq!(
            (v.sweep, v.ply_cap, v.end),
            (Sweep::None, None, EndTest::MoverStarved)
        );
        // No preset has these rules: printed from the closest (the first of two), read back the
        // same.
        assert_eq!(v.to_string(), "starvation:sweep=none");
        assert_eq!(v.to_string().parse::<Variant>(), Ok(v));
        let v: Variant = "no-sweep:cap=300".parse().unwrap();
        assert_eq!(v.to_string(), "no-sweep:cap=300");
        assert_eq!(
            "starvation:pits=1,seeds=1"
                .parse::<Variant>()
                .unwrap()
                .total_seeds(),
            2
        );
    }

    #[test]
    fn bad_readings_are_named() {
        let e = |s: &str| s.parse::<Variant>().unwrap_err().to_string();
        assert_eq!(
            e("kalah"),
            "unknown Kalah variant 'kalah' (known: openspiel, empty-capture, starvation, \
             sweep-to-emptier, no-sweep)"
        );
        assert_eq!(
            e("openspiel:pits=7"),
            "Kalah variant parameter pits='7': expected a number of pits from 1 to 6"
        );
        assert!(e("openspiel:pits=0").contains("from 1 to 6"));
        assert!(e("openspiel:seeds=13").contains("from 1 to 12"));
        assert!(e("openspiel:cap=0").contains("from 1"));
        assert!(e("openspiel:empty-capture=yes").contains("on or off"));
        assert!(e("openspiel:houses=6").contains("unknown Kalah variant parameter 'houses'"));
        assert!(e("openspiel:pits").contains("has no value"));
        assert!(e("openspiel:pits=6,pits=5").contains("given twice"));
        assert!(e("openspiel:").contains("has no value"));
    }
}
