//! Bao's properties checked on arbitrary input (the fuzz targets and `cargo test`): playouts keep
//! the invariants, the engines agree, arbitrary positions and texts round-trip.

#[cfg(feature = "fuzz")]
use arbitrary::{Arbitrary, Unstructured};

use crate::checks::engines_agree;
#[cfg(feature = "fuzz")]
use crate::checks::{arbitrary_side, text_round_trip};

use super::variant::{InfiniteMoves, Variant};
use super::{position_text, MoveText, Position, Rules, Side};
#[cfg(feature = "fuzz")]
use super::{Pit, Setup};

/// Bao reading used by the fuzz checks: exact detection can take seconds on rare moves, so the
/// fuzzers bound a move at 5,000 seeds sown (the exact mode is diffed in `tests/diff.rs`).
pub fn bao_fuzz_variant() -> Variant {
    Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(5_000))
}

fn bao_invariants(
    rules: &Rules,
    start: Position,
    bytes: &[u8],
    max_plies: usize,
) -> Result<(), String> {
    let mut pos = start;
    for (ply, &b) in bytes
        .iter()
        .chain(std::iter::repeat(&0))
        .take(max_plies)
        .enumerate()
    {
        let moves = rules.legal_moves(&pos);
        if moves.is_empty() != rules.outcome(&pos).is_some() {
            return Err(format!("ply {ply}: legal moves empty iff game over fails"));
        }
        if moves.is_empty() {
            return Ok(());
        }
        for &mv in &moves {
            rules
                .play(&pos, mv)
                .map_err(|e| format!("ply {ply}: listed move refused: {e}"))?;
        }
        let next = rules
            .play(&pos, moves[usize::from(b) % moves.len()])
            .expect("checked")
            .position;
        let total = next.board().total()
            + u32::from(next.store(Side::South))
            + u32::from(next.store(Side::North));
        if total != 64 {
            return Err(format!("ply {ply}: {total} seeds"));
        }
        Position::from_setup(next.to_setup())
            .map_err(|e| format!("ply {ply}: invalid position: {e}"))?;
        if next.to_move() == pos.to_move() {
            return Err(format!("ply {ply}: turn did not pass"));
        }
        pos = next;
    }
    Ok(())
}

/// A Bao game driven by `bytes` keeps its invariants at every ply.
pub fn bao_playout_invariants(bytes: &[u8]) -> Result<(), String> {
    bao_invariants(
        &Rules::new(bao_fuzz_variant()),
        Position::start(),
        bytes,
        600,
    )
}

/// The Bao reference and optimized engines agree on the game `bytes` choose.
pub fn bao_reference_vs_optimized(bytes: &[u8]) -> Result<(), String> {
    engines_agree::<super::Bao>(bao_fuzz_variant(), None, bytes, 600)
}

/// A valid Bao position built from arbitrary data: 64 seeds spread over pits and stores.
#[cfg(feature = "fuzz")]
#[derive(Debug, Clone)]
pub struct ArbitraryPosition(pub Position);

#[cfg(feature = "fuzz")]
impl<'a> Arbitrary<'a> for ArbitraryPosition {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let to_move = arbitrary_side(u)?;
        let south_store = u.int_in_range(0..=22u8)?;
        let stores = match to_move {
            Side::South => [south_store, south_store],
            Side::North if south_store == 22 => [21, 22],
            Side::North if bool::arbitrary(u)? => [0, 0],
            Side::North => [south_store, south_store + 1],
        };
        let mut setup = Setup {
            board: crate::bao::board::Board::empty(),
            stores,
            house_owned: [bool::arbitrary(u)?, bool::arbitrary(u)?],
            to_move,
            blocked: None,
        };
        let mut left = 64 - u32::from(stores[0]) - u32::from(stores[1]);
        while left > 0 {
            let side = arbitrary_side(u)?;
            let pit = Pit::from_ring(usize::from(u.int_in_range(0..=15u8)?));
            setup.board.add_one(side, pit);
            left -= 1;
        }
        for side in Side::BOTH {
            if setup.board.get(side, Pit::HOUSE) == 0 {
                setup.house_owned[side.index()] = false;
            }
        }
        if bool::arbitrary(u)? {
            let pit = Pit::front(u.int_in_range(1..=8u8)?);
            if setup.board.get(to_move, pit) > 0 {
                setup.blocked = Some(pit);
            }
        }
        Position::from_setup(setup)
            .map(ArbitraryPosition)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

/// From an arbitrary valid position: the position text round-trips, the engines agree, and a game
/// from there keeps the invariants.
#[cfg(feature = "fuzz")]
pub fn bao_position_invariants(data: &[u8]) -> Result<(), String> {
    let mut u = Unstructured::new(data);
    let Ok(ArbitraryPosition(pos)) = ArbitraryPosition::arbitrary(&mut u) else {
        return Ok(());
    };
    let text = position_text::print(&pos);
    text_round_trip(&pos, &text, position_text::parse)?;
    let rest = u.take_rest();
    let v = bao_fuzz_variant();
    engines_agree::<super::Bao>(v, Some(&text), rest, 60)?;
    bao_invariants(&Rules::new(v), pos, rest, 60)
}

/// Any text gives a Bao move or an error; a parsed move prints and parses back to itself.
pub fn notation_roundtrip(text: &str) -> Result<(), String> {
    if let Ok(m) = MoveText::parse(text) {
        let printed = m.to_string();
        if MoveText::parse(&printed) != Ok(m) {
            return Err(format!(
                "{} printed as '{printed}', which parses differently",
                crate::text::quoted(text)
            ));
        }
    }
    Ok(())
}

/// Any text gives a Bao transcript or an error; a parsed transcript's moves print and parse back,
/// and replaying them gives a position or a clear error.
pub fn transcript_parse(text: &str) -> Result<(), String> {
    use crate::bao::transcript::Transcript;
    if let Ok(t) = Transcript::parse(text) {
        let moves: Vec<String> = t.plies.iter().map(|p| p.text.to_string()).collect();
        let printed = Transcript::print_moves(&moves);
        let again =
            Transcript::parse(&printed).map_err(|e| format!("reprinted transcript fails: {e}"))?;
        let back: Vec<String> = again.plies.iter().map(|p| p.text.to_string()).collect();
        if back != moves {
            return Err("transcript moves changed in a print/parse round trip".to_string());
        }
        // Replaying must give Ok or a clear error, never a panic.
        let rules = Rules::new(bao_fuzz_variant());
        let mut pos = Position::start();
        for ply in t.plies.iter().take(200) {
            match rules.play_text(&pos, &ply.text) {
                Ok((_, played)) => pos = played.position,
                Err(_) => break,
            }
        }
    }
    Ok(())
}

/// Any text gives a Bao position or an error; a parsed position prints and parses back to itself.
pub fn position_parse(text: &str) -> Result<(), String> {
    if let Ok(p) = position_text::parse(text) {
        let printed = position_text::print(&p);
        if position_text::parse(&printed).as_ref() != Ok(&p) {
            return Err(format!("bao position changed in a round trip:\n{printed}"));
        }
    }
    Ok(())
}
