//! Zobrist keys: one fixed random word per (cell, value), a position's key the XOR of its cells'
//! words; the alphabeta policy's transposition table is keyed on them.

/// Most cells a position may have (Bao: 32 pits, 2 stores, houses, mover, blocked pit).
pub const MAX_CELLS: usize = 40;

/// The table: `TABLE[cell][value]`, filled at compile time from a fixed splitmix64 sequence.
static TABLE: [[u64; 256]; MAX_CELLS] = table();

const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn table() -> [[u64; 256]; MAX_CELLS] {
    let mut t = [[0u64; 256]; MAX_CELLS];
    let mut cell = 0;
    while cell < MAX_CELLS {
        let mut value = 0;
        while value < 256 {
            t[cell][value] = splitmix64((cell * 256 + value) as u64);
            value += 1;
        }
        cell += 1;
    }
    t
}

/// The key of a position given as cell values, in a fixed order per game (at most
/// [`MAX_CELLS`]).
pub fn key(cells: &[u8]) -> u64 {
    debug_assert!(cells.len() <= MAX_CELLS);
    cells
        .iter()
        .zip(TABLE.iter())
        .fold(0, |k, (&v, row)| k ^ row[usize::from(v)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_tell_cells_and_values_apart() {
        assert_ne!(key(&[1, 0]), key(&[0, 1]));
        assert_ne!(key(&[2]), key(&[1]));
        assert_eq!(key(&[3, 4]), TABLE[0][3] ^ TABLE[1][4]);
        // Every word of the table differs.
        let mut all: Vec<u64> = TABLE.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), MAX_CELLS * 256);
    }
}
