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

    /// Every board of `count`.
    pub fn full(count: u64) -> Bits {
        let set = Bits::filled(count, u64::MAX);
        if !count.is_multiple_of(64) {
            set.0[set.0.len() - 1].store((1 << (count % 64)) - 1, Ordering::Relaxed);
        }
        set
    }

    /// `count` boards' words, each `word`.
    fn filled(count: u64, word: u64) -> Bits {
        let words = count.div_ceil(64) as usize;
        let mut v: Vec<AtomicU64> = huge::with_capacity(words);
        v.resize_with(words, || AtomicU64::new(word));
        Bits(v)
    }

    /// The set `boards` boards at a time (a multiple of 64), numbered, for the threads of a pass.
    pub fn par_chunks(&self, boards: usize) -> impl IndexedParallelIterator<Item = Chunk<'_>> {
        assert!(boards.is_multiple_of(64), "a chunk is whole words");
        self.0
            .par_chunks(boards / 64)
            .enumerate()
            .map(move |(number, words)| Chunk {
                words,
                first: (number * boards) as u64,
                number,
            })
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

/// A run of a set's boards that one thread of a pass looks at.
pub struct Chunk<'a> {
    /// The run's words.
    words: &'a [AtomicU64],
    /// The rank of the first word's first bit.
    first: u64,
    /// The chunk's place among the set's chunks, from 0.
    pub number: usize,
}

impl<'a> Chunk<'a> {
    /// Takes the chunk's boards out of the set a word at a time, yielding their ranks in order.
    pub fn take(&self) -> Ranks<'a> {
        self.ranks(true)
    }

    /// The chunk's boards in rank order, left in the set.
    pub fn peek(&self) -> Ranks<'a> {
        self.ranks(false)
    }

    fn ranks(&self, take: bool) -> Ranks<'a> {
        Ranks {
            words: self.words.iter(),
            next: self.first,
            set: 0,
            take,
        }
    }
}

/// The ranks of a chunk's boards in order (`Chunk::take`, `Chunk::peek`).
pub struct Ranks<'a> {
    /// The words not read yet.
    words: std::slice::Iter<'a, AtomicU64>,
    /// The rank of the next word's first bit (the word being read starts 64 before it).
    next: u64,
    /// That word's boards not yielded yet.
    set: u64,
    /// Whether a word read is cleared in the set.
    take: bool,
}

impl Iterator for Ranks<'_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        while self.set == 0 {
            let word = self.words.next()?;
            self.set = if self.take {
                word.swap(0, Ordering::Relaxed)
            } else {
                word.load(Ordering::Relaxed)
            };
            self.next += 64;
        }
        let rank = self.next - 64 + u64::from(self.set.trailing_zeros());
        self.set &= self.set - 1;
        Some(rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chunk's ranks, chunk by chunk.
    fn ranks(set: &Bits, boards: usize, take: bool) -> Vec<(usize, Vec<u64>)> {
        set.par_chunks(boards)
            .map(|c| {
                let r = if take { c.take() } else { c.peek() };
                (c.number, r.collect())
            })
            .collect()
    }

    #[test]
    fn a_full_set_holds_its_boards_and_no_rank_past_them() {
        let set = Bits::full(130);
        assert_eq!(set.len(), 130);
        let chunks = ranks(&set, 128, false);
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0], (0, (0..128).collect()));
        assert_eq!(chunks[1], (1, vec![128, 129]));
        // Peeking leaves them; a whole number of words has no tail to clear.
        assert_eq!(set.len(), 130);
        assert_eq!(Bits::full(128).len(), 128);
    }

    #[test]
    fn taking_a_chunk_yields_its_ranks_in_order_and_empties_it() {
        let set = Bits::new(300);
        for i in [299, 0, 63, 64, 130, 191, 192, 255] {
            set.add(i);
        }
        assert_eq!(
            ranks(&set, 128, true),
            vec![
                (0, vec![0, 63, 64]),
                (1, vec![130, 191, 192, 255]),
                (2, vec![299])
            ]
        );
        assert_eq!(set.len(), 0);
        assert!(!set.has(130));
        assert!(ranks(&set, 128, true).iter().all(|(_, r)| r.is_empty()));
    }
}
