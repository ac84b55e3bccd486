//! Oware's properties checked on arbitrary input (the fuzz targets and `cargo test`): playouts
//! keep the invariants, the engines and the batch engine agree, positions and texts round-trip.

#[cfg(feature = "fuzz")]
use arbitrary::{Arbitrary, Unstructured};

use crate::checks::engines_agree;
#[cfg(feature = "fuzz")]
use crate::checks::{arbitrary_side, text_round_trip};

use super::Side;

/// An Oware game driven by `bytes`, under both readings, keeps its invariants.
pub fn oware_playout_invariants(bytes: &[u8]) -> Result<(), String> {
    oware_invariants(None, bytes, 3000)
}

/// From `start` (or the start position), an Oware game driven by `bytes` conserves 48 seeds, passes
/// the turn, and has legal moves exactly while it is not over, under both readings.
fn oware_invariants(
    start: Option<&super::Position>,
    bytes: &[u8],
    max_plies: usize,
) -> Result<(), String> {
    use super::{Rules as OwareRules, Variant as OwareVariant};
    for v in [OwareVariant::SHEET, OwareVariant::ABAPA] {
        let rules = OwareRules::new(v);
        let mut g = match start {
            Some(p) => rules.game_from(p.clone()),
            None => rules.new_game(),
        };
        for (ply, &b) in bytes
            .iter()
            .chain(std::iter::repeat(&0))
            .take(max_plies)
            .enumerate()
        {
            let moves = rules.legal_moves(&g);
            if moves.is_empty() != g.outcome().is_some() {
                return Err(format!("ply {ply}: legal moves empty iff game over fails"));
            }
            if moves.is_empty() {
                break;
            }
            let mover = g.position().to_move();
            g = rules
                .play(&g, moves[usize::from(b) % moves.len()])
                .map_err(|e| format!("ply {ply}: {e}"))?
                .game;
            let p = g.position();
            if g.outcome().is_none() && p.to_move() == mover {
                return Err(format!("ply {ply}: turn did not pass"));
            }
            let total: u32 = p.pits().iter().map(|&s| u32::from(s)).sum::<u32>()
                + u32::from(p.score(Side::South))
                + u32::from(p.score(Side::North));
            if total != 48 {
                return Err(format!("ply {ply}: {total} seeds"));
            }
        }
    }
    Ok(())
}

/// The Oware reference and optimized engines agree under both readings.
pub fn oware_reference_vs_optimized(bytes: &[u8]) -> Result<(), String> {
    for preset in ["sheet", "abapa"] {
        let v = preset
            .parse()
            .map_err(|e: super::variant::VariantError| e.to_string())?;
        engines_agree::<super::Oware>(v, None, bytes, 3000)?;
    }
    Ok(())
}

/// A valid Oware position built from arbitrary data: 48 seeds over pits and scores, either mover.
#[cfg(feature = "fuzz")]
#[derive(Debug, Clone)]
pub struct ArbitraryOwarePosition(pub super::Position);

#[cfg(feature = "fuzz")]
impl<'a> Arbitrary<'a> for ArbitraryOwarePosition {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let to_move = arbitrary_side(u)?;
        // Up to 24 seeds already captured by each (25 would have ended the game).
        let scores = [u.int_in_range(0..=24u8)?, u.int_in_range(0..=24u8)?];
        let mut pits = [0u8; 12];
        for _ in 0..48 - u32::from(scores[0]) - u32::from(scores[1]) {
            pits[usize::from(u.int_in_range(0..=11u8)?)] += 1;
        }
        super::Position::new(pits, scores, to_move)
            .map(ArbitraryOwarePosition)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

/// From an arbitrary valid Oware position: the text round-trips, the engines agree under both
/// readings, and a game from there keeps the invariants.
#[cfg(feature = "fuzz")]
pub fn oware_position_invariants(data: &[u8]) -> Result<(), String> {
    let mut u = Unstructured::new(data);
    let Ok(ArbitraryOwarePosition(pos)) = ArbitraryOwarePosition::arbitrary(&mut u) else {
        return Ok(());
    };
    let text = pos.print();
    text_round_trip(&pos, &text, super::Position::parse)?;
    let rest = u.take_rest();
    for preset in ["sheet", "abapa"] {
        let v = preset
            .parse()
            .map_err(|e: super::variant::VariantError| e.to_string())?;
        engines_agree::<super::Oware>(v, Some(&text), rest, 300)?;
    }
    oware_invariants(Some(&pos), rest, 300)
}

/// The Oware batch engine plays the scalar optimized engine's games, game by game: the reading
/// (any the batch plays), vector path, seed, ring size, game range and ply limit come from the
/// input.
#[cfg(feature = "fuzz")]
pub fn oware_batch_vs_scalar(data: &[u8]) -> Result<(), String> {
    use super::batch::{scalar_playout, Batch, BatchPath};
    use super::fast::FastRules;
    use super::variant::{CycleEnd, FinalSweep, GrandSlam, NoAllowedMove};
    let mut u = Unstructured::new(data);
    let mut byte = || u8::arbitrary(&mut u).unwrap_or(0);
    let choice = byte();
    let bit = |i: u8| choice >> i & 1 == 1;
    let variant = super::Variant {
        grand_slam: [GrandSlam::CapturesNothing, GrandSlam::Forbidden][usize::from(bit(0))],
        no_allowed_move: [
            NoAllowedMove::EachTakesOwn,
            NoAllowedMove::AllowGrandSlamWithoutCapture,
        ][usize::from(bit(1))],
        cycle_end: CycleEnd::Occurrences(2 + u8::from(bit(2))),
        final_sweep: [FinalSweep::EachTakesOwn, FinalSweep::None][usize::from(bit(3))],
        first_player: [super::Side::South, super::Side::North][usize::from(bit(4))],
    };
    let ring = 4usize << (byte() % 8);
    let games = 1 + u64::from(byte() % 128);
    let max_plies = match byte() {
        0..=199 => 100_000,
        b => u32::from(b - 200) * 4,
    };
    let mut seed = 0u64;
    let mut first = 0u64;
    for _ in 0..8 {
        seed = seed << 8 | u64::from(byte());
    }
    for _ in 0..4 {
        first = first << 8 | u64::from(byte());
    }
    let paths: Vec<BatchPath> = BatchPath::available_paths()
        .into_iter()
        .filter(|&p| p != BatchPath::Scalar)
        .collect();
    let path = paths[usize::from(choice >> 5) % paths.len()];
    let batch = Batch::new(variant, seed, max_plies)
        .map_err(|e| e.to_string())?
        .with_ring(ring)
        .with_path(path)
        .map_err(|e| e.to_string())?;
    let scalar = FastRules::new(variant).map_err(|e| e.to_string())?;
    let mut got = Vec::new();
    batch.play(first..first + games, |p| got.push(p));
    got.sort();
    if got.len() as u64 != games {
        return Err(format!("{} playouts for {games} games", got.len()));
    }
    for (game, b) in (first..first + games).zip(&got) {
        let s = scalar_playout(&scalar, seed, game, max_plies);
        if *b != s {
            return Err(format!(
                "{variant:?} path {path} seed {seed} ring {ring} limit {max_plies} game {game}: \
                 batch {b:?}, scalar {s:?}"
            ));
        }
    }
    Ok(())
}

/// Any text gives an Oware transcript or an error; a parsed transcript's moves print and parse
/// back.
pub fn transcript_parse(text: &str) -> Result<(), String> {
    if let Ok(moves) = super::notation::parse_transcript(text) {
        let pairs: Vec<_> = moves.iter().map(|w| (w.side, w.mv)).collect();
        let printed = super::notation::print_transcript(&pairs);
        let again = super::notation::parse_transcript(&printed).map_err(|e| e.to_string())?;
        if again.iter().map(|w| (w.side, w.mv)).collect::<Vec<_>>() != pairs {
            return Err("oware transcript changed in a round trip".to_string());
        }
    }
    Ok(())
}

/// Any text gives an Oware position or an error; a parsed position prints and parses back to
/// itself.
pub fn position_parse(text: &str) -> Result<(), String> {
    if let Ok(p) = super::Position::parse(text) {
        let printed = p.print();
        if super::Position::parse(&printed).as_ref() != Ok(&p) {
            return Err(format!(
                "oware position changed in a round trip:\n{printed}"
            ));
        }
    }
    Ok(())
}
