//! Named interpretation choices where the Bao sources disagree or are silent, and their presets.
//! Each field names the clause it settles; `spec/bao.md` records why the default reads it so.

use std::fmt;
use std::str::FromStr;

/// When a still-owned nyumba stops being a house (spec: bao 3.2, 4.2.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseLoss {
    /// Only when it is emptied (played, or captured): the Dutch text and most engines.
    EmptiedOnly,
    /// When emptied, or for both players at the first capture made in the mtaji stage (EN, CS, FR).
    EmptiedOrFirstMtajiCapture,
}

/// Whether an owned nyumba can be the kutakatia-ed pit (spec: bao 5.1.1.1, 4.2.3.1, 3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKutakatia {
    /// An owned house is never kutakatia-ed (5.1.1.1 and 4.2.3.1 in every translation).
    ExemptWhileOwned,
    /// Exempt only while owned and holding six or more seeds (some engines).
    ExemptWhileOwnedWithSix,
}

/// What a kunamua kutakata does when the store seed lifts a five-seed owned house to six (spec: bao 2.1.2, 1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoreSeedIntoHouse {
    /// Placing the store seed is not a sowing (1.3, 1.3.2): the house is picked up and played out.
    PlayOut,
    /// The store seed is a sowing (2.1.2 as worded) ending in a house of six: the move stops (4.2.2.3.1).
    Stop,
    /// Left open: 2.1.2 and 1.3 cannot both be obeyed, so the reference engine refuses the move with
    /// [`IllegalMove::RulesSilent`](super::IllegalMove::RulesSilent) instead of picking a reading.
    Open,
}

/// The definition of an infinite move, fixed at the start of a game (spec: bao 1.5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InfiniteMoves {
    /// A move is infinite exactly when its in-move state repeats.
    Exact,
    /// A move is deemed infinite once it has sown more than this many seeds (or truly cycles).
    SownLimit(u32),
}

/// A complete reading of the Bao rules: one named choice per disputed point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// When a house is lost (3.2, 4.2.1.1).
    pub house_loss: HouseLoss,
    /// Whether an owned house can be kutakatia-ed (5.1.1.1).
    pub house_kutakatia: HouseKutakatia,
    /// The store seed placed in a five-seed house during kutakata (2.1.2 vs 1.3).
    pub store_seed_into_house: StoreSeedIntoHouse,
    /// What counts as an infinite move (1.5.6).
    pub infinite_moves: InfiniteMoves,
}

/// The names of the presets, for help texts and errors.
pub const PRESET_NAMES: [&str; 4] = ["default", "literal-en", "engines", "strict"];

impl Variant {
    /// Our reading of the four translations (see spec/bao.md).
    pub const DEFAULT: Variant = Variant {
        house_loss: HouseLoss::EmptiedOrFirstMtajiCapture,
        house_kutakatia: HouseKutakatia::ExemptWhileOwned,
        store_seed_into_house: StoreSeedIntoHouse::PlayOut,
        infinite_moves: InfiniteMoves::Exact,
    };

    /// The English text taken word for word where it differs from our reading.
    pub const LITERAL_EN: Variant = Variant {
        store_seed_into_house: StoreSeedIntoHouse::Stop,
        ..Variant::DEFAULT
    };

    /// The reading most computer engines take (outside-readings): house lost only when emptied.
    pub const ENGINES: Variant = Variant {
        house_loss: HouseLoss::EmptiedOnly,
        house_kutakatia: HouseKutakatia::ExemptWhileOwnedWithSix,
        store_seed_into_house: StoreSeedIntoHouse::PlayOut,
        infinite_moves: InfiniteMoves::Exact,
    };

    /// Our reading where the sources disagree, but every point they leave undecided left open: a
    /// move that reaches one stops the game with a typed "rules silent" refusal (reference engine only).
    pub const STRICT: Variant = Variant {
        store_seed_into_house: StoreSeedIntoHouse::Open,
        ..Variant::DEFAULT
    };

    /// The preset called `name`, if there is one.
    pub fn preset(name: &str) -> Option<Variant> {
        match name {
            "default" => Some(Variant::DEFAULT),
            "literal-en" => Some(Variant::LITERAL_EN),
            "engines" => Some(Variant::ENGINES),
            "strict" => Some(Variant::STRICT),
            _ => None,
        }
    }

    /// The same variant with another definition of infinite moves.
    pub fn with_infinite_moves(self, infinite_moves: InfiniteMoves) -> Variant {
        Variant {
            infinite_moves,
            ..self
        }
    }
}

impl Variant {
    /// The clauses this reading leaves open (each stops play with a "rules silent" refusal).
    pub fn open_points(&self) -> Vec<&'static str> {
        let mut open = Vec::new();
        if self.store_seed_into_house == StoreSeedIntoHouse::Open {
            open.push("2.1.2");
        }
        open
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant::DEFAULT
    }
}

/// A setting string that is not a known preset or infinite-move definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// Not one of [`PRESET_NAMES`].
    #[error(
        "unknown Bao variant {} (known: default, literal-en, engines, strict)",
        crate::text::quoted(.0)
    )]
    UnknownPreset(String),
    /// Not `exact` or `sown:N`.
    #[error(
        "unknown infinite-move definition {} (expected 'exact' or 'sown:N' with N from 1 to 4294967295)",
        crate::text::quoted(.0)
    )]
    BadInfinite(String),
}

impl FromStr for InfiniteMoves {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "exact" {
            return Ok(InfiniteMoves::Exact);
        }
        s.strip_prefix("sown:")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|&n| n > 0)
            .map(InfiniteMoves::SownLimit)
            .ok_or_else(|| VariantError::BadInfinite(s.to_string()))
    }
}

impl fmt::Display for InfiniteMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfiniteMoves::Exact => f.write_str("exact"),
            InfiniteMoves::SownLimit(n) => write!(f, "sown:{n}"),
        }
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::preset(s).ok_or_else(|| VariantError::UnknownPreset(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two spellings of an infinite-move definition (docs/commands.md: `exact` or `sown:N`,
    /// N from 1 up), and what is refused.
    #[test]
    fn infinite_move_definitions_parse_as_documented() {
        assert_eq!("exact".parse(), Ok(InfiniteMoves::Exact));
        assert_eq!("sown:1".parse(), Ok(InfiniteMoves::SownLimit(1)));
        assert_eq!("sown:64".parse(), Ok(InfiniteMoves::SownLimit(64)));
        assert_eq!(
            "sown:4294967295".parse(),
            Ok(InfiniteMoves::SownLimit(u32::MAX))
        );
        for bad in [
            "sown:0",
            "sown:",
            "sown:-1",
            "sown:4294967296",
            "Exact",
            "exactly",
            "",
        ] {
            assert_eq!(
                bad.parse::<InfiniteMoves>(),
                Err(VariantError::BadInfinite(bad.to_string())),
                "{bad:?}"
            );
        }
        for value in [InfiniteMoves::Exact, InfiniteMoves::SownLimit(7)] {
            assert_eq!(value.to_string().parse(), Ok(value));
        }
    }
}
