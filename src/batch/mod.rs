//! What every game's batch engine (many games at a time in vector lanes) shares: the paths it
//! plays on (AVX-512, AVX2, portable, scalar), the variable that forces one, and its check.

pub(crate) mod bytes;

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering};

/// The path [`BatchPath::force`] set for this process, as an index into [`BatchPath::ALL`]
/// (`u8::MAX`: none).
static FORCED: AtomicU8 = AtomicU8::new(u8::MAX);

/// The environment variable that forces a batch path (`avx512`, `avx2`, `portable`, `scalar`).
pub const PATH_VARIABLE: &str = "MANCALA_LAB_BATCH_PATH";

/// One way the batch engine plays its games; all play the same games, lane for lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BatchPath {
    /// 64 lanes in 512-bit registers (x86-64 with AVX-512 F, BW and VBMI).
    Avx512,
    /// 32 lanes in 256-bit registers (x86-64 with AVX2).
    Avx2,
    /// 16 lanes in 128-bit registers, in the instructions every processor of the target has
    /// (SSE2 on x86-64, NEON on aarch64, scalar code elsewhere).
    Portable,
    /// One game at a time on the scalar optimized engine.
    Scalar,
}

/// A path asked for by name that is not one, or that this processor cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A name that names no path.
    #[error("unknown batch path {0:?}: expected avx512, avx2, portable or scalar")]
    Unknown(String),
    /// A path this processor lacks the instructions for.
    #[error("this processor cannot run the {path} batch path (it runs: {runs})", path = .0.name(), runs = BatchPath::available_names())]
    Unavailable(BatchPath),
}

impl BatchPath {
    /// Every path, fastest first.
    pub const ALL: [BatchPath; 4] = [
        BatchPath::Avx512,
        BatchPath::Avx2,
        BatchPath::Portable,
        BatchPath::Scalar,
    ];

    /// The name of the path, as the environment variable and reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            BatchPath::Avx512 => "avx512",
            BatchPath::Avx2 => "avx2",
            BatchPath::Portable => "portable",
            BatchPath::Scalar => "scalar",
        }
    }

    /// Games played at once.
    pub fn lanes(self) -> usize {
        match self {
            BatchPath::Avx512 => 64,
            BatchPath::Avx2 => 32,
            BatchPath::Portable => 16,
            BatchPath::Scalar => 1,
        }
    }

    /// What plays, for reports: e.g. `32-lane AVX2 batch`.
    pub fn describe(self) -> String {
        match self {
            BatchPath::Avx512 => "64-lane AVX-512 batch".into(),
            BatchPath::Avx2 => "32-lane AVX2 batch".into(),
            BatchPath::Portable => {
                let isa = if cfg!(target_arch = "x86_64") {
                    "SSE2"
                } else if cfg!(target_arch = "aarch64") {
                    "NEON"
                } else {
                    "scalar code"
                };
                format!("16-lane portable batch ({isa})")
            }
            BatchPath::Scalar => "scalar".into(),
        }
    }

    /// The instructions the path needs beyond those of every processor of its target.
    pub fn needs(self) -> &'static str {
        match self {
            BatchPath::Avx512 => "AVX-512 F, BW and VBMI",
            BatchPath::Avx2 => "AVX2",
            BatchPath::Portable | BatchPath::Scalar => "nothing more",
        }
    }

    /// Why a batch on this path is not on a faster one, for reports: forced (`forced`, by
    /// [`Self::force`] or [`PATH_VARIABLE`]) while this processor runs a faster one, or the
    /// faster paths' instructions missing from this processor (`available`, fastest first);
    /// `None` on the fastest path there is.
    pub fn why_not_faster(self, available: &[BatchPath], forced: bool) -> Option<String> {
        let faster: Vec<BatchPath> = BatchPath::ALL
            .into_iter()
            .take_while(|&p| p != self)
            .collect();
        if faster.is_empty() {
            return None;
        }
        match available.first() {
            Some(&best) if forced && best != self => Some(format!(
                "forced by {PATH_VARIABLE}; this processor runs the {} path",
                best.name()
            )),
            _ => {
                let missing: Vec<String> = faster
                    .iter()
                    .filter(|p| !available.contains(p))
                    .map(|p| format!("{} for the {}-lane {} path", p.needs(), p.lanes(), p.name()))
                    .collect();
                (!missing.is_empty())
                    .then(|| format!("this processor lacks {}", missing.join(" and ")))
            }
        }
    }

    /// [`Self::why_not_faster`] on this processor, the path forced when [`Self::force`] or
    /// [`PATH_VARIABLE`] chose it.
    pub fn note(self) -> Option<String> {
        let forced = FORCED.load(Ordering::Relaxed) != u8::MAX
            || BatchPath::from_env().ok().flatten() == Some(self);
        self.why_not_faster(&BatchPath::available_paths(), forced)
    }

    /// Whether this processor runs the path.
    pub fn available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            BatchPath::Avx512 => {
                is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512vbmi")
            }
            #[cfg(target_arch = "x86_64")]
            BatchPath::Avx2 => is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            BatchPath::Avx512 | BatchPath::Avx2 => false,
            BatchPath::Portable | BatchPath::Scalar => true,
        }
    }

    /// The paths this processor runs, fastest first.
    pub fn available_paths() -> Vec<BatchPath> {
        BatchPath::ALL
            .into_iter()
            .filter(|p| p.available())
            .collect()
    }

    /// The fastest path this processor runs.
    pub fn fastest() -> BatchPath {
        BatchPath::available_paths()[0]
    }

    /// The path [`PATH_VARIABLE`] forces, if it is set: an error if it names no path or one this
    /// processor cannot run.
    pub fn from_env() -> Result<Option<BatchPath>, PathError> {
        let Some(value) = std::env::var_os(PATH_VARIABLE) else {
            return Ok(None);
        };
        let path: BatchPath = value
            .to_str()
            .ok_or_else(|| PathError::Unknown(value.to_string_lossy().into_owned()))?
            .parse()?;
        if path.available() {
            Ok(Some(path))
        } else {
            Err(PathError::Unavailable(path))
        }
    }

    /// The path a new batch takes: the one [`Self::force`] set, else the one [`PATH_VARIABLE`]
    /// names, else the fastest (a value the processor cannot run is passed over here; front ends
    /// refuse it with [`Self::from_env`]).
    pub fn chosen() -> BatchPath {
        let forced = FORCED.load(Ordering::Relaxed);
        if let Some(&path) = BatchPath::ALL.get(usize::from(forced)) {
            return path;
        }
        BatchPath::from_env()
            .ok()
            .flatten()
            .unwrap_or_else(BatchPath::fastest)
    }

    /// Makes every batch made from now on in this process take `path` (`None`: as
    /// [`Self::chosen`] says without it); an error if this processor cannot run it.
    pub fn force(path: Option<BatchPath>) -> Result<(), PathError> {
        let index = match path {
            Some(p) if !p.available() => return Err(PathError::Unavailable(p)),
            Some(p) => BatchPath::ALL
                .iter()
                .position(|&q| q == p)
                .map_or(u8::MAX, |i| i as u8),
            None => u8::MAX,
        };
        FORCED.store(index, Ordering::Relaxed);
        Ok(())
    }

    fn available_names() -> String {
        let names: Vec<&str> = BatchPath::available_paths()
            .into_iter()
            .map(BatchPath::name)
            .collect();
        names.join(", ")
    }
}

impl fmt::Display for BatchPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BatchPath {
    type Err = PathError;

    fn from_str(s: &str) -> Result<BatchPath, PathError> {
        BatchPath::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| PathError::Unknown(s.to_string()))
    }
}

/// The path [`PATH_VARIABLE`] forces, if set, checked before any command plays: an error naming
/// the variable if it names no path or one this processor cannot run.
pub fn check_path_variable() -> Result<(), String> {
    BatchPath::from_env()
        .map(drop)
        .map_err(|e| format!("{PATH_VARIABLE}: {e}"))
}

/// A game's batch engine (many games at a time in vector lanes) checked against its scalar
/// optimized engine, game by game, on the batch paths it was made for (`diff --batch`).
pub trait BatchCheck: Sync {
    /// The batch paths checked, in order.
    fn paths(&self) -> &[BatchPath];
    /// Checks `games` on every path: the plies the scalar engine played and each path's
    /// figures (in the order [`BatchCheck::path_line`] reads them), or the first path and game
    /// where the batch and the scalar engine disagree.
    fn check(&self, games: Range<u64>) -> Result<(u64, Vec<Vec<u64>>), BatchDivergence>;
    /// The report line of path `i` and its figures summed over the games checked.
    fn path_line(&self, i: usize, figures: &[u64]) -> String;
    /// Lines that narrow `d` down: the first ply where the positions differ, the moves before
    /// it and the position there.
    fn explain(&self, d: &BatchDivergence) -> Vec<String>;
}

/// A playout a batch check compares: the game it is and the plies it played.
pub trait Compared: Clone + PartialEq + fmt::Debug {
    /// The game's index.
    fn game(&self) -> u64;
    /// Plies played.
    fn plies(&self) -> u32;
}

/// The first game of `games` where `got`, path `path`'s playouts in any order, differs from
/// `want`, the scalar engine's in game order (a game missing from `got` differs too).
pub fn first_divergence<P: Compared>(
    path: usize,
    games: Range<u64>,
    want: &[P],
    mut got: Vec<P>,
) -> Result<(), BatchDivergence> {
    got.sort_by_key(P::game);
    for (game, s) in games.clone().zip(want) {
        match got.get((game - games.start) as usize) {
            Some(b) if b.game() == game && b == s => {}
            b => {
                return Err(BatchDivergence {
                    path,
                    game,
                    batch: b.map_or_else(|| "no playout".into(), |b| format!("{b:?}")),
                    scalar: format!("{s:?}"),
                    plies: [b.map_or(0, P::plies), s.plies()],
                })
            }
        }
    }
    Ok(())
}

/// The first ply limit at which the batch and the scalar engine, both stopped there, play game
/// `d.game` differently (`differs(k)`), narrowing `d` down; the scalar engine's plies if none.
pub fn first_differing_ply(d: &BatchDivergence, differs: impl Fn(u32) -> bool) -> u32 {
    (1..=d.plies[0].max(d.plies[1]))
        .find(|&k| differs(k))
        .unwrap_or(d.plies[1])
}

/// A game the batch and the scalar engine played differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchDivergence {
    /// The index of the path (in [`BatchCheck::paths`]).
    pub path: usize,
    /// The game.
    pub game: u64,
    /// The batch's result, as its debug view.
    pub batch: String,
    /// The scalar engine's result, as its debug view.
    pub scalar: String,
    /// Plies played by the batch and by the scalar engine.
    pub plies: [u32; 2],
}

#[cfg(test)]
mod why_tests {
    use super::BatchPath::{Avx2, Avx512, Portable, Scalar};

    /// The note a report adds, on processors described by the paths they run.
    #[test]
    fn a_slower_path_says_why() {
        let all = [Avx512, Avx2, Portable, Scalar];
        let avx2_only = [Avx2, Portable, Scalar];
        let arm = [Portable, Scalar];
        assert_eq!(Avx512.why_not_faster(&all, false), None);
        assert_eq!(
            Avx2.why_not_faster(&avx2_only, false).unwrap(),
            "this processor lacks AVX-512 F, BW and VBMI for the 64-lane avx512 path"
        );
        assert_eq!(
            Portable.why_not_faster(&arm, false).unwrap(),
            "this processor lacks AVX-512 F, BW and VBMI for the 64-lane avx512 path and AVX2 \
             for the 32-lane avx2 path"
        );
        assert_eq!(
            Portable.why_not_faster(&all, true).unwrap(),
            "forced by MANCALA_LAB_BATCH_PATH; this processor runs the avx512 path"
        );
        // Forced to the fastest path the processor runs: the missing instructions are the reason.
        assert_eq!(
            Avx2.why_not_faster(&avx2_only, true).unwrap(),
            "this processor lacks AVX-512 F, BW and VBMI for the 64-lane avx512 path"
        );
        assert_eq!(
            Scalar.why_not_faster(&avx2_only, true).unwrap(),
            "forced by MANCALA_LAB_BATCH_PATH; this processor runs the avx2 path"
        );
    }
}
