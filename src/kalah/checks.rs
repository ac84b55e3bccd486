//! Kalah's properties checked on arbitrary input (fuzz targets and `cargo test`): playouts keep
//! the invariants under every preset, positions and transcripts round-trip.

use super::variant::PRESETS;
use super::{Position, Rules, Side, Variant};

/// A Kalah game driven by `bytes` under every preset conserves the reading's seeds, passes the
/// turn unless the last seed fell in the mover's store, and has legal moves exactly while it is
/// not over. The first byte picks the board, Kalah(1..6, 1..6).
pub fn kalah_playout_invariants(bytes: &[u8]) -> Result<(), String> {
    let board = bytes.first().copied().unwrap_or(0);
    let (pits, seeds) = (1 + board % 6, 1 + board / 6 % 6);
    for (name, preset) in PRESETS {
        let variant = Variant {
            pits,
            seeds,
            ..preset
        };
        let rules = Rules::new(variant);
        let mut state = rules.new_game();
        for (ply, &b) in bytes
            .iter()
            .skip(1)
            .chain(std::iter::repeat(&0))
            .take(3000)
            .enumerate()
        {
            let at = || format!("{name} Kalah({pits},{seeds}) ply {ply}");
            let moves = rules.legal_moves(&state);
            if moves.is_empty() != state.outcome().is_some() {
                return Err(format!("{}: legal moves empty iff game over fails", at()));
            }
            if moves.is_empty() {
                break;
            }
            let mover = state.position().to_move();
            let played = rules
                .play(&state, moves[usize::from(b) % moves.len()])
                .map_err(|e| format!("{}: {e}", at()))?;
            state = played.state;
            let p = state.position();
            if state.outcome().is_none() && (p.to_move() == mover) != played.extra_turn {
                return Err(format!("{}: the turn passes iff no extra turn fails", at()));
            }
            let total: u32 = Side::BOTH
                .iter()
                .map(|&s| p.row_seeds(s) + u32::from(p.store(s)))
                .sum();
            if total != variant.total_seeds() {
                return Err(format!("{}: {total} seeds", at()));
            }
        }
    }
    Ok(())
}

/// The reference and optimized engines agree under every preset on the game `bytes` drive; the
/// first byte picks the board, Kalah(1..6, 1..6).
pub fn kalah_reference_vs_optimized(bytes: &[u8]) -> Result<(), String> {
    let board = bytes.first().copied().unwrap_or(0);
    let (pits, seeds) = (1 + board % 6, 1 + board / 6 % 6);
    let rest = bytes.get(1..).unwrap_or(&[]);
    for (name, preset) in PRESETS {
        let variant = Variant {
            pits,
            seeds,
            ..preset
        };
        crate::checks::engines_agree::<super::Kalah>(variant, None, rest, 3000)
            .map_err(|e| format!("{name} Kalah({pits},{seeds}): {e}"))?;
    }
    Ok(())
}

/// Any text is one Kalah move letter or not; a letter prints back as itself.
pub fn notation_roundtrip(text: &str) -> Result<(), String> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if let Some((side, mv)) = super::Move::from_letter(c, super::variant::MAX_PITS) {
            if mv.letter(side) != c {
                return Err(format!("kalah move {c:?} prints as {:?}", mv.letter(side)));
            }
        }
    }
    Ok(())
}

/// Any text gives a Kalah transcript or an error; a parsed one prints and parses back to itself.
pub fn transcript_parse(text: &str) -> Result<(), String> {
    use super::transcript::{print_transcript, transcript_moves};
    let read = |t: &str| -> Result<Vec<(Side, super::Move)>, String> {
        transcript_moves(t)
            .map(|w| w.map(|w| (w.side, w.mv)).map_err(|e| e.to_string()))
            .collect()
    };
    if let Ok(moves) = read(text) {
        let printed = print_transcript(&moves);
        if read(&printed)? != moves {
            return Err(format!(
                "kalah transcript changed in a round trip:\n{printed}"
            ));
        }
    }
    Ok(())
}

/// Any text gives a Kalah(6,4) position or an error; a parsed position prints and parses back to
/// itself.
pub fn position_parse(text: &str) -> Result<(), String> {
    let variant = Variant::OPENSPIEL;
    if let Ok(p) = Position::parse(text, &variant) {
        let printed = p.to_string();
        if Position::parse(&printed, &variant).as_ref() != Ok(&p) {
            return Err(format!(
                "kalah position changed in a round trip:\n{printed}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checks_pass_on_games_of_every_board_and_on_texts() {
        for seed in 0..40u8 {
            let bytes: Vec<u8> = (0..200u32)
                .map(|i| (i * 37 + u32::from(seed) * 11) as u8)
                .collect();
            kalah_playout_invariants(&[&[seed][..], &bytes].concat()).unwrap();
        }
        position_parse("to_move: North\nscores: 1 2\nnorth: 4 4 4 4 4 4\nsouth: 4 4 4 4 4 1\n")
            .unwrap();
        position_parse("to_move: sideways").unwrap();
        transcript_parse("1. C 2. A d ; comment").unwrap();
        transcript_parse("C 3.").unwrap();
    }
}
