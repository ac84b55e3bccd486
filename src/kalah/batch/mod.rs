//! Many random Kalah games at once: one game per byte lane of a vector (64 lanes with AVX-512, 32
//! with AVX2, 16 on the portable path), the board seen from the mover; the scalar path is the
//! word board ([`super::playout::RandomGames`]).
//!
//! The moves are drawn from the counter-based random function of (seed, game, ply) every engine
//! draws from, so each game is the same whichever path, lane, batch or thread plays it.

use std::ops::Range;

pub mod check;
mod lanes;

pub use crate::batch::{BatchPath, PathError, PATH_VARIABLE};

use super::playout::{Playout, RandomGames};
use super::variant::Variant;

/// Random games of one reading, many at a time.
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    variant: Variant,
    seed: u64,
    max_plies: u32,
    /// The path that plays (one this processor runs).
    path: BatchPath,
}

impl Batch {
    /// A batch for `variant` (every reading and board): random draws from `seed`, games cut
    /// after `max_plies` plies, on the path [`BatchPath::chosen`] gives.
    pub fn new(variant: Variant, seed: u64, max_plies: u32) -> Batch {
        Batch {
            variant,
            seed,
            max_plies,
            path: BatchPath::chosen(),
        }
    }

    /// Plays on `path`; an error if this processor cannot run it.
    pub fn with_path(mut self, path: BatchPath) -> Result<Batch, PathError> {
        if !path.available() {
            return Err(PathError::Unavailable(path));
        }
        self.path = path;
        Ok(self)
    }

    /// The path `play` takes.
    pub fn path(&self) -> BatchPath {
        // A lane plays a ply before it checks the limit, so a zero limit stays scalar.
        if self.max_plies == 0 {
            BatchPath::Scalar
        } else {
            self.path
        }
    }

    /// Whether `play` will use a vector path.
    pub fn uses_vectors(&self) -> bool {
        self.path() != BatchPath::Scalar
    }

    /// Plays games `games`, calling `each` with every finished playout (in the order they
    /// finish: game order on the scalar path only). The vector steps taken (0 on the scalar
    /// path).
    pub fn play(&self, games: Range<u64>, mut each: impl FnMut(Playout)) -> u64 {
        match self.path() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `with_path` and `BatchPath::chosen` take only paths the processor runs.
            BatchPath::Avx512 => unsafe { lanes::play_avx512(self, games, &mut each) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            BatchPath::Avx2 => unsafe { lanes::play_avx2(self, games, &mut each) },
            BatchPath::Portable => lanes::play_portable(self, games, &mut each),
            _ => {
                RandomGames::new(self.variant).play_range(
                    self.seed,
                    games,
                    self.max_plies,
                    &mut each,
                );
                0
            }
        }
    }

    /// [`Self::play`], the playouts given to `each` in game order.
    pub fn play_in_order(&self, games: Range<u64>, mut each: impl FnMut(Playout)) -> u64 {
        if !self.uses_vectors() {
            return self.play(games, each);
        }
        let first = games.start;
        let mut slots: Vec<Option<Playout>> = vec![None; (games.end - first) as usize];
        let steps = self.play(games, |p| slots[(p.game - first) as usize] = Some(p));
        for p in slots.into_iter().flatten() {
            each(p);
        }
        steps
    }
}
