//! A set of boards of one level, a bit each by rank, shared by the threads: the boards a pass of
//! the level builder or of the forced check looks at, and the boards the forced check settled.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::huge;

/// Boards of one level by rank, 64 to a word, read and written by every thread at once.
pub struct Bits(Vec<AtomicU64>);

impl Bits {
    /// An empty set over `count` boards.
    pub fn new(count: u64) -> Bits {
        Bits::filled(count, 0)
    }

    /// Every board of `count`, and the ranks past it up to the last word's end.
    pub fn full(count: u64) -> Bits {
        Bits::filled(count, u64::MAX)
    }

    /// `count` boards' words, each `word`.
    fn filled(count: u64, word: u64) -> Bits {
        let words = count.div_ceil(64) as usize;
        let mut v: Vec<AtomicU64> = huge::with_capacity(words);
        v.resize_with(words, || AtomicU64::new(word));
        Bits(v)
    }

    /// Whether board `i` is in the set.
    pub fn has(&self, i: u64) -> bool {
        self.word(i).load(Ordering::Relaxed) & (1 << (i % 64)) != 0
    }

    /// Puts board `i` in the set.
    pub fn add(&self, i: u64) {
        self.word(i).fetch_or(1 << (i % 64), Ordering::Relaxed);
    }

    /// The word that holds board `i`'s bit.
    pub fn word(&self, i: u64) -> &AtomicU64 {
        &self.0[(i / 64) as usize]
    }

    /// The words in order: word `w` holds boards `64 w` to `64 w + 63`.
    pub fn words(&self) -> &[AtomicU64] {
        &self.0
    }

    /// Boards in the set.
    pub fn len(&self) -> u64 {
        self.0
            .par_iter()
            .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
            .sum()
    }
}
