//! Properties checked on arbitrary input, shared by the fuzz targets (`fuzz/`) and `cargo test`:
//! each returns `Err` with a description when a property fails; none may panic or hang.
//! That `Err(String)` is a failure report for the fuzzer to show, not an error a caller handles.

use arbitrary::{Arbitrary, Unstructured};

use crate::bao::engines as bao_engines;
use crate::bao::variant::{InfiniteMoves, Variant};
use crate::bao::{position_text, MoveText, Pit, Position, Rules, Setup, Side};
use crate::diff::lockstep;
use crate::engine::Engine;
use crate::oware::engines as oware_engines;

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

/// An Oware game driven by `bytes`, under both readings, keeps its invariants.
pub fn oware_playout_invariants(bytes: &[u8]) -> Result<(), String> {
    oware_invariants(None, bytes, 3000)
}

/// From `start` (or the start position), an Oware game driven by `bytes` conserves 48 seeds, passes
/// the turn, and has legal moves exactly while it is not over, under both readings.
fn oware_invariants(
    start: Option<&crate::oware::Position>,
    bytes: &[u8],
    max_plies: usize,
) -> Result<(), String> {
    use crate::oware::{Rules as OwareRules, Variant as OwareVariant};
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

/// The Bao reference and optimized engines agree on the game `bytes` choose.
pub fn bao_reference_vs_optimized(bytes: &[u8]) -> Result<(), String> {
    let v = bao_fuzz_variant();
    let (a, b) = (
        bao_engines::Reference::with(v, "fuzz"),
        bao_engines::Optimized::with(v, "fuzz").map_err(|e| e.to_string())?,
    );
    lockstep(&a, &b, a.start(), b.start(), bytes, 600)
        .map(|_| ())
        .map_err(|d| d.to_string())
}

/// The Oware reference and optimized engines agree under both readings.
pub fn oware_reference_vs_optimized(bytes: &[u8]) -> Result<(), String> {
    for preset in ["sheet", "abapa"] {
        let a = oware_engines::Reference::new(preset).map_err(|e| e.to_string())?;
        let b = oware_engines::Optimized::new(preset).map_err(|e| e.to_string())?;
        lockstep(&a, &b, a.start(), b.start(), bytes, 3000).map_err(|d| d.to_string())?;
    }
    Ok(())
}

/// North or South, one arbitrary bool.
fn arbitrary_side(u: &mut Unstructured<'_>) -> arbitrary::Result<Side> {
    Ok(if bool::arbitrary(u)? {
        Side::North
    } else {
        Side::South
    })
}

/// A valid Bao position built from arbitrary data: 64 seeds spread over pits and stores.
#[derive(Debug, Clone)]
pub struct ArbitraryPosition(pub Position);

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

/// `text`, printed from `pos`, parses back to `pos`.
fn text_round_trip<P: PartialEq, E: std::fmt::Display>(
    pos: &P,
    text: &str,
    parse: impl Fn(&str) -> Result<P, E>,
) -> Result<(), String> {
    let back = parse(text).map_err(|e| format!("printed position does not parse: {e}\n{text}"))?;
    if back != *pos {
        return Err(format!(
            "position text round trip changed the position:\n{text}"
        ));
    }
    Ok(())
}

/// From an arbitrary valid position: the position text round-trips, the engines agree, and a game
/// from there keeps the invariants.
pub fn bao_position_invariants(data: &[u8]) -> Result<(), String> {
    let mut u = Unstructured::new(data);
    let Ok(ArbitraryPosition(pos)) = ArbitraryPosition::arbitrary(&mut u) else {
        return Ok(());
    };
    let text = position_text::print(&pos);
    text_round_trip(&pos, &text, position_text::parse)?;
    let rest = u.take_rest();
    let v = bao_fuzz_variant();
    let (a, b) = (
        bao_engines::Reference::with(v, "fuzz"),
        bao_engines::Optimized::with(v, "fuzz").map_err(|e| e.to_string())?,
    );
    let (sa, sb) = (a.parse_state(&text)?, b.parse_state(&text)?);
    lockstep(&a, &b, sa, sb, rest, 60).map_err(|d| d.to_string())?;
    bao_invariants(&Rules::new(v), pos, rest, 60)
}

/// A valid Oware position built from arbitrary data: 48 seeds over pits and scores, either mover.
#[derive(Debug, Clone)]
pub struct ArbitraryOwarePosition(pub crate::oware::Position);

impl<'a> Arbitrary<'a> for ArbitraryOwarePosition {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let to_move = arbitrary_side(u)?;
        // Up to 24 seeds already captured by each (25 would have ended the game).
        let scores = [u.int_in_range(0..=24u8)?, u.int_in_range(0..=24u8)?];
        let mut pits = [0u8; 12];
        for _ in 0..48 - u32::from(scores[0]) - u32::from(scores[1]) {
            pits[usize::from(u.int_in_range(0..=11u8)?)] += 1;
        }
        crate::oware::Position::new(pits, scores, to_move)
            .map(ArbitraryOwarePosition)
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }
}

/// From an arbitrary valid Oware position: the text round-trips, the engines agree under both
/// readings, and a game from there keeps the invariants.
pub fn oware_position_invariants(data: &[u8]) -> Result<(), String> {
    let mut u = Unstructured::new(data);
    let Ok(ArbitraryOwarePosition(pos)) = ArbitraryOwarePosition::arbitrary(&mut u) else {
        return Ok(());
    };
    let text = pos.print();
    text_round_trip(&pos, &text, crate::oware::Position::parse)?;
    let rest = u.take_rest();
    for preset in ["sheet", "abapa"] {
        let a = oware_engines::Reference::new(preset).map_err(|e| e.to_string())?;
        let b = oware_engines::Optimized::new(preset).map_err(|e| e.to_string())?;
        let (sa, sb) = (a.parse_state(&text)?, b.parse_state(&text)?);
        lockstep(&a, &b, sa, sb, rest, 300).map_err(|d| d.to_string())?;
    }
    oware_invariants(Some(&pos), rest, 300)
}

/// The Oware batch engine plays the scalar optimized engine's games, game by game: the reading
/// (any the batch plays), vector path, seed, ring size, game range and ply limit come from the
/// input.
pub fn oware_batch_vs_scalar(data: &[u8]) -> Result<(), String> {
    use crate::oware::batch::{scalar_playout, Batch, BatchPath};
    use crate::oware::fast::FastRules;
    use crate::oware::variant::{CycleEnd, FinalSweep, GrandSlam, NoAllowedMove};
    let mut u = Unstructured::new(data);
    let mut byte = || u8::arbitrary(&mut u).unwrap_or(0);
    let choice = byte();
    let bit = |i: u8| choice >> i & 1 == 1;
    let variant = crate::oware::Variant {
        grand_slam: [GrandSlam::CapturesNothing, GrandSlam::Forbidden][usize::from(bit(0))],
        no_allowed_move: [
            NoAllowedMove::EachTakesOwn,
            NoAllowedMove::AllowGrandSlamWithoutCapture,
        ][usize::from(bit(1))],
        cycle_end: CycleEnd::Occurrences(2 + u8::from(bit(2))),
        final_sweep: [FinalSweep::EachTakesOwn, FinalSweep::None][usize::from(bit(3))],
        first_player: [crate::oware::Side::South, crate::oware::Side::North][usize::from(bit(4))],
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

/// Any text gives a move or an error; a parsed move prints and parses back to itself.
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

/// Any text gives a transcript or an error; a parsed transcript's moves print and parse back.
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
    if let Ok(moves) = crate::oware::notation::parse_transcript(text) {
        let pairs: Vec<_> = moves.iter().map(|w| (w.side, w.mv)).collect();
        let printed = crate::oware::notation::print_transcript(&pairs);
        let again =
            crate::oware::notation::parse_transcript(&printed).map_err(|e| e.to_string())?;
        if again.iter().map(|w| (w.side, w.mv)).collect::<Vec<_>>() != pairs {
            return Err("oware transcript changed in a round trip".to_string());
        }
    }
    Ok(())
}

/// Any text gives a position or an error; a parsed position prints and parses back to itself.
pub fn position_parse(text: &str) -> Result<(), String> {
    if let Ok(p) = position_text::parse(text) {
        let printed = position_text::print(&p);
        if position_text::parse(&printed).as_ref() != Ok(&p) {
            return Err(format!("bao position changed in a round trip:\n{printed}"));
        }
    }
    if let Ok(p) = crate::oware::Position::parse(text) {
        let printed = p.print();
        if crate::oware::Position::parse(&printed).as_ref() != Ok(&p) {
            return Err(format!(
                "oware position changed in a round trip:\n{printed}"
            ));
        }
    }
    Ok(())
}

/// A study folder read back (`stats --resume`, `stats merge`): the bytes before the first 0 byte
/// are manifest.json, the rest games.csv. Reading them must give an answer, never a panic; a
/// folder that verifies must hold exactly the rows its manifest counts.
pub fn study_files(data: &[u8]) -> Result<(), String> {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (manifest, games) = (&data[..split], data.get(split + 1..).unwrap_or(&[]));
    let dir = std::env::temp_dir().join(format!(
        "mancala-lab-study-check-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let checked = study_folder(&dir, manifest, games);
    let _ = std::fs::remove_dir_all(&dir);
    checked
}

/// [`study_files`] on the folder `dir`, made to hold `manifest` and `games`.
fn study_folder(dir: &std::path::Path, manifest: &[u8], games: &[u8]) -> Result<(), String> {
    use crate::study::{read_manifest_unsealed as read_manifest, verify_rows, GAMES, MANIFEST};
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(MANIFEST), manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(GAMES), games).map_err(|e| e.to_string())?;
    let Ok(m) = read_manifest(dir) else {
        return Ok(());
    };
    let mut rows = 0u64;
    if let Ok(v) = verify_rows(dir, &m, |_| {
        rows += 1;
        Ok(())
    }) {
        if rows != m.games_done || v.summary.games != m.games_done {
            return Err(format!(
                "verified {rows} rows (summary {}) but the manifest counts {}",
                v.summary.games, m.games_done
            ));
        }
    }
    Ok(())
}

/// A CSV column read for `plot`: any bytes give values or an error, never a panic, and the
/// default bin width always keeps the chart drawable (at most 200 bins).
pub fn csv_column(data: &[u8]) -> Result<(), String> {
    use crate::histogram::{bins, each_value};
    let mut max = 0u32;
    if let Ok(n) = each_value(data, "input", "plies", |v| max = max.max(v)) {
        if n > 0 {
            let (bin, count) = bins(max, None, "plies").map_err(|e| e.to_string())?;
            if count > 200 || bin == 0 {
                return Err(format!("values up to {max}: width {bin}, {count} bins"));
            }
        }
    }
    Ok(())
}
