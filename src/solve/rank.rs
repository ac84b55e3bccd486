//! The combinatorial rank of a board among all boards with the same number of seeds: every
//! distribution of `n` seeds over `p` pits gets one index in `0..count(n)`, with no hashing.

use crate::game::Draw;

/// The boards of one seed count in lexicographic order (the first pit most significant).
#[derive(Clone, Debug)]
pub struct Ranks {
    /// Pits a board.
    pits: usize,
    /// Seed counts a row of `ways` covers: `max_seeds + 1`.
    stride: usize,
    /// `ways[k * stride + m]`: boards of `m` seeds over the last `k` pits, C(m + k - 1, k - 1);
    /// one flat table, so a rank reads no row pointers.
    ways: Vec<u64>,
}

impl Ranks {
    /// The ranks of boards of `pits` pits (1 to 12) holding up to `max_seeds` seeds.
    pub fn new(pits: usize, max_seeds: u32) -> Ranks {
        assert!((1..=super::MAX_PITS).contains(&pits), "1 to 12 pits");
        let n = max_seeds as usize + 1;
        let mut ways = vec![vec![0u64; n]; pits + 1];
        // No pits hold no seeds one way, and no other count.
        ways[0][0] = 1;
        for k in 1..=pits {
            for m in 0..n {
                // The first of k pits holds 0..=m seeds, the other k - 1 the rest.
                ways[k][m] = (0..=m).map(|first| ways[k - 1][m - first]).sum();
            }
        }
        Ranks {
            pits,
            stride: n,
            ways: ways.concat(),
        }
    }

    /// Boards of `m` seeds over the last `k` pits.
    #[inline]
    fn ways(&self, k: usize, m: usize) -> u64 {
        self.ways[k * self.stride + m]
    }

    /// Pits a board.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// The largest seed count ranked.
    pub fn max_seeds(&self) -> u32 {
        (self.stride - 1) as u32
    }

    /// How many boards hold exactly `seeds` seeds.
    pub fn count(&self, seeds: u32) -> u64 {
        self.ways(self.pits, seeds as usize)
    }

    /// The index of `board` (its first `pits` entries) among the boards of its seed count
    /// `seeds`, which the caller has summed.
    #[inline]
    pub fn rank(&self, board: &[u8], seeds: u32) -> u64 {
        let mut left = seeds as usize;
        let mut index = 0;
        for (i, &s) in board[..self.pits - 1].iter().enumerate() {
            // Boards with fewer seeds in pit i come first: those with `left` seeds over pits
            // i.. less those with at least `s` in pit i.
            let k = self.pits - i;
            index += self.ways(k, left) - self.ways(k, left - usize::from(s));
            left -= usize::from(s);
        }
        index
    }

    /// The board of index `index` among those of `seeds` seeds.
    pub fn unrank(&self, mut index: u64, seeds: u32) -> [u8; super::MAX_PITS] {
        let mut board = [0u8; super::MAX_PITS];
        let mut left = seeds as usize;
        for (i, pit) in board.iter_mut().enumerate().take(self.pits - 1) {
            let rest = self.pits - 1 - i;
            let mut v = 0;
            while index >= self.ways(rest, left - v) {
                index -= self.ways(rest, left - v);
                v += 1;
            }
            *pit = v as u8;
            left -= v;
        }
        board[self.pits - 1] = left as u8;
        board
    }

    /// Steps `board` to the next board of the same seed count in rank order; false after the
    /// last (every seed in the first pit).
    #[inline]
    pub fn next(&self, board: &mut [u8; super::MAX_PITS]) -> bool {
        let Some(last) = board[..self.pits].iter().rposition(|&s| s > 0) else {
            return false;
        };
        if last == 0 {
            return false;
        }
        let moved = board[last];
        board[last] = 0;
        board[last - 1] += 1;
        board[self.pits - 1] = moved - 1;
        true
    }
}

/// A rank below `count`, uniform, from the word `attempt` of `draw` made 64 bits wide.
pub(crate) fn drawn_rank(draw: Draw, attempt: u32, count: u64) -> u64 {
    let wide =
        (u64::from(draw.word(2 * attempt + 1)) << 32) | u64::from(draw.word(2 * attempt + 2));
    ((u128::from(wide) * u128::from(count)) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C(n, k) worked out directly.
    fn choose(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn counts_are_stars_and_bars() {
        let r = Ranks::new(12, 30);
        for n in 0..=30u64 {
            assert_eq!(r.count(n as u32), choose(n + 11, 11), "{n} seeds");
        }
        // Oware's 24-seed level: C(35, 11).
        assert_eq!(r.count(24), 417_225_900);
    }

    #[test]
    fn next_walks_the_ranks_in_order_and_unrank_inverts_rank() {
        for pits in [1, 2, 3, 5, 12] {
            let r = Ranks::new(pits, 6);
            for seeds in 0..=6 {
                let mut board = r.unrank(0, seeds);
                let mut seen = 0;
                loop {
                    assert_eq!(
                        board[..pits].iter().map(|&s| u32::from(s)).sum::<u32>(),
                        seeds
                    );
                    assert_eq!(r.rank(&board, seeds), seen);
                    assert_eq!(r.unrank(seen, seeds), board);
                    seen += 1;
                    if !r.next(&mut board) {
                        break;
                    }
                }
                assert_eq!(seen, r.count(seeds), "{pits} pits, {seeds} seeds");
            }
        }
    }
}
