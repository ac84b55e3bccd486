//! The AVX-512 path of the batch engine: 64 games at a time, one per byte lane of a 512-bit
//! register, lane masks in mask registers, table lookups by `vpermb` (AVX-512 F, BW and VBMI).

use std::arch::x86_64::*;

use super::lanes::{self, Slams, Step, StepOut};
use crate::game::GOLDEN;

/// Lanes of a vector: one byte of a 512-bit register each, one bit of a `u64` lane mask.
pub(super) const LANES: usize = 64;

/// 64 bytes, one per lane.
type Row = lanes::Row<LANES>;
/// Every lane's state between steps.
type Lanes = lanes::Lanes<LANES>;

// The engine reads a `Row` as one register and a lane mask as one `u64`.
const _: () = assert!(LANES == 64 && std::mem::size_of::<Row>() == LANES);

/// The AVX-512 path.
pub(super) struct Avx512;

impl Step<LANES> for Avx512 {
    fn key(pits: &[u8; 12], south: bool) -> u16 {
        key_of(pits, south)
    }

    unsafe fn step(lanes: &mut Lanes, step: u64, ring: usize, slams: Slams) -> StepOut {
        // SAFETY: the caller vouches for AVX-512 F, BW and VBMI.
        unsafe { vector_step(lanes, step, ring, slams) }
    }
}

/// The lookup tables of a byte v < 64 (`vpermb`).
#[derive(Clone, Copy)]
enum Table {
    /// Full laps: v / 11.
    Laps,
    /// Seeds after the full laps: v % 11.
    Rest,
    /// 10 v for a pit v < 6 (the row of the pit-by-rest tables).
    Times10,
}

const fn byte_table(of: Table) -> Row {
    let mut t = [0u8; 64];
    let mut v = 0;
    while v < 64 {
        t[v] = match of {
            Table::Laps => v / 11,
            Table::Rest => v % 11,
            Table::Times10 if v < 6 => 10 * v,
            Table::Times10 => 0,
        } as u8;
        v += 1;
    }
    lanes::Row(t)
}

static QUOT: Row = byte_table(Table::Laps);
static REM: Row = byte_table(Table::Rest);
static TIMES10: Row = byte_table(Table::Times10);

/// `EXTRA[i]` for i = 10 p + r (r 1–10; 0 for r = 0): the pits, seen from the mover, that get
/// one seed more than the full laps when pit p sows a number of seeds leaving rest r: bits 0–7
/// in the low table, 8–11 in the high one.
static EXTRA: [Row; 2] = {
    let mut lo = [0u8; 64];
    let mut hi = [0u8; 64];
    let mut p = 0;
    while p < 6 {
        let mut r = 1;
        while r <= 10 {
            let mut mask = 0u16;
            let mut d = 1;
            while d <= r {
                mask |= 1 << ((p + d) % 12);
                d += 1;
            }
            lo[10 * p + r] = mask as u8;
            hi[10 * p + r] = (mask >> 8) as u8;
            r += 1;
        }
        p += 1;
    }
    [lanes::Row(lo), lanes::Row(hi)]
};

/// Zobrist bytes: `ZOBRIST[half][j][v]` for pit j (seen from the mover) holding v seeds, and
/// `SOUTH[half]` for South to move; XORed they give a 16-bit key of the board.
static ZOBRIST: [[Row; 12]; 2] = {
    let mut t = [[lanes::Row([0; 64]); 12]; 2];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut half = 0;
    while half < 2 {
        let mut j = 0;
        while j < 12 {
            let mut v = 0;
            while v < 64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                t[half][j].0[v] = (x >> 24) as u8;
                v += 1;
            }
            j += 1;
        }
        half += 1;
    }
    t
};
const SOUTH: [u8; 2] = [0x5b, 0xc6];

/// The 16-bit key of a board (seen from the mover) for one lane.
fn key_of(pits: &[u8; 12], south: bool) -> u16 {
    let mut k = [0u8; 2];
    for (half, byte) in k.iter_mut().enumerate() {
        for (j, &v) in pits.iter().enumerate() {
            *byte ^= ZOBRIST[half][j].0[usize::from(v)];
        }
        if south {
            *byte ^= SOUTH[half];
        }
    }
    u16::from_le_bytes(k)
}

/// The 64 bytes of a row, one per lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn load(r: &Row) -> __m512i {
    // SAFETY: `Row` is 64 bytes aligned to 64 (`repr(C, align(64))`), exactly what an aligned
    // 512-bit load reads.
    unsafe { _mm512_load_si512(r.0.as_ptr().cast()) }
}

/// Writes a vector to a row, one byte per lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn store(r: &mut Row, v: __m512i) {
    // SAFETY: as in `load`: 64 writable bytes aligned to 64.
    unsafe { _mm512_store_si512(r.0.as_mut_ptr().cast(), v) }
}

/// Sixteen 32-bit counters.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn load_words(w: &[u32; 16]) -> __m512i {
    // SAFETY: 16 words are the 64 bytes an unaligned 512-bit load reads.
    unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
}

/// Writes sixteen 32-bit counters.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn store_words(w: &mut [u32; 16], v: __m512i) {
    // SAFETY: 16 words are the 64 bytes an unaligned 512-bit store writes.
    unsafe { _mm512_storeu_si512(w.as_mut_ptr().cast(), v) }
}

/// One byte in every lane.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn splat(b: u8) -> __m512i {
    _mm512_set1_epi8(b as i8)
}

/// One ply in every lane: record the board, draw and play a move, capture, turn the board to
/// the new mover, work out its legal moves and the board keys.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn vector_step(lanes: &mut Lanes, step: u64, ring: usize, slams: Slams) -> StepOut {
    let slot = (step as usize) & (ring - 1);
    let mut pits = [_mm512_setzero_si512(); 12];
    for (j, v) in pits.iter_mut().enumerate() {
        *v = load(&lanes.pits[j]);
        store(&mut lanes.ring[slot][j], *v);
    }

    let mut legal_now = [0u64; 6];
    for (m, row) in legal_now.iter_mut().zip(&lanes.legal) {
        *m = _mm512_movepi8_mask(load(row));
    }
    let k = draw(lanes, &legal_now);
    let (p, n) = kth_legal_pit(&legal_now, &pits, k);
    store(&mut lanes.played, p);

    let last = sow(&mut pits, p, n);
    let (run, any_run, outside) = capture_run(&pits, last);
    // A run that would take every seed of the row is a grand slam: it captures nothing (the
    // readings that forbid grand slams never let one be played while it would capture).
    let captured = any_run & outside;
    let laps = _mm512_cmpge_epu8_mask(n, splat(12));
    let mut taken = [0u64; 6];
    let mut gain = _mm512_setzero_si512();
    for j in 6..12 {
        let take = run[j] & captured;
        taken[j - 6] = take;
        gain = _mm512_mask_add_epi8(gain, take, gain, pits[j]);
        pits[j] = _mm512_mask_mov_epi8(pits[j], take, _mm512_setzero_si512());
    }
    let mover_score = _mm512_add_epi8(load(&lanes.scores[0]), gain);
    let other_score = load(&lanes.scores[1]);

    // Turn the board to the new mover.
    let mut turned = [_mm512_setzero_si512(); 12];
    for j in 0..12 {
        turned[j] = pits[(j + 6) % 12];
        store(&mut lanes.pits[j], turned[j]);
    }
    store(&mut lanes.scores[0], other_score);
    store(&mut lanes.scores[1], mover_score);
    lanes.south = !lanes.south;

    // The new mover's legal moves: non-empty pits, and only those reaching the opponent when
    // the opponent's row is empty.
    let (mut opponent_has, mut opponent_keeps) = (0u64, 0u64);
    for v in &turned[6..] {
        opponent_has |= _mm512_test_epi8_mask(*v, *v);
        opponent_keeps |= _mm512_cmpge_epu8_mask(*v, splat(3));
    }
    let mut legal = [0u64; 6];
    for (i, v) in turned.iter().enumerate().take(6) {
        let reaches = _mm512_cmpge_epu8_mask(*v, splat(6 - i as u8));
        legal[i] = _mm512_test_epi8_mask(*v, *v) & (opponent_has | reaches);
    }
    // Where grand slams are forbidden and the opponent has no pit of 3 or more (which keeps
    // its seeds: a sown pit that held 3 holds 4), try every move for one.
    if slams != Slams::Capture && !opponent_keeps != 0 {
        let mut slam = grand_slams(&turned[..6], &turned[6..]);
        let mut allowed_any = 0u64;
        for (l, s) in legal.iter_mut().zip(slam.iter_mut()) {
            *s &= *l;
            *l &= !*s;
            allowed_any |= *l;
        }
        if slams == Slams::PlayedWhenNothingElse {
            // No allowed move: the grand slams may be played, capturing nothing.
            for (l, s) in legal.iter_mut().zip(slam) {
                *l |= s & !allowed_any;
            }
        }
    }
    for (row, &l) in lanes.legal.iter_mut().zip(&legal) {
        store(row, _mm512_movm_epi8(l));
    }
    let any = legal.iter().fold(0, |a, &l| a | l);
    let over = _mm512_cmpgt_epu8_mask(mover_score, splat(24))
        | _mm512_cmpgt_epu8_mask(other_score, splat(24))
        | (_mm512_cmpeq_epi8_mask(mover_score, splat(24))
            & _mm512_cmpeq_epi8_mask(other_score, splat(24)));

    // Board keys of the new boards, into the ring slot of the next step.
    let next_slot = ((step + 1) as usize) & (ring - 1);
    for half in 0..2 {
        let mut key = _mm512_maskz_mov_epi8(lanes.south, splat(SOUTH[half]));
        for (j, v) in turned.iter().enumerate() {
            key = _mm512_xor_si512(key, _mm512_permutexvar_epi8(*v, load(&ZOBRIST[half][j])));
        }
        store(&mut lanes.ring_key[next_slot][half], key);
    }
    StepOut {
        captured,
        over,
        stuck: !any,
        laps,
        taken,
        empty_slams: any_run & !outside,
    }
}

/// The draw of every lane: k uniform below the lane's legal move count, from its counter
/// (advanced by one ply) and key, in 32-bit lanes (`game::draw_word`).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn draw(lanes: &mut Lanes, legal: &[u64; 6]) -> __m512i {
    let one = splat(1);
    let mut count = _mm512_setzero_si512();
    for &legal in legal {
        count = _mm512_mask_add_epi8(count, legal, count, one);
    }
    let golden = _mm512_set1_epi32(GOLDEN as i32);
    let mut ks = [_mm_setzero_si128(); 4];
    for (c, k) in ks.iter_mut().enumerate() {
        let counters: &mut [u32; 16] = (&mut lanes.ctr[16 * c..16 * c + 16])
            .try_into()
            .expect("four groups of 16 lanes");
        let ctr = load_words(counters);
        store_words(counters, _mm512_add_epi32(ctr, golden));
        let key1 = load_words(
            (&lanes.key1[16 * c..16 * c + 16])
                .try_into()
                .expect("four groups of 16 lanes"),
        );
        let word = fmix(_mm512_xor_si512(fmix(ctr), key1));
        let n = _mm512_cvtepu8_epi32(match c {
            0 => _mm512_extracti32x4_epi32::<0>(count),
            1 => _mm512_extracti32x4_epi32::<1>(count),
            2 => _mm512_extracti32x4_epi32::<2>(count),
            _ => _mm512_extracti32x4_epi32::<3>(count),
        });
        let k32 = _mm512_srli_epi32::<24>(_mm512_mullo_epi32(_mm512_srli_epi32::<8>(word), n));
        *k = _mm512_cvtepi32_epi8(k32);
    }
    let mut k = _mm512_castsi128_si512(ks[0]);
    k = _mm512_inserti32x4::<1>(k, ks[1]);
    k = _mm512_inserti32x4::<2>(k, ks[2]);
    _mm512_inserti32x4::<3>(k, ks[3])
}

/// In every lane, the `k`-th legal pit of the mover and its seeds.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn kth_legal_pit(legal: &[u64; 6], pits: &[__m512i; 12], k: __m512i) -> (__m512i, __m512i) {
    let one = splat(1);
    let (mut before, mut p, mut n) = (
        _mm512_setzero_si512(),
        _mm512_setzero_si512(),
        _mm512_setzero_si512(),
    );
    for (i, &legal) in legal.iter().enumerate() {
        let chosen = legal & _mm512_cmpeq_epi8_mask(before, k);
        p = _mm512_mask_mov_epi8(p, chosen, splat(i as u8));
        n = _mm512_mask_mov_epi8(n, chosen, pits[i]);
        before = _mm512_mask_add_epi8(before, legal, before, one);
    }
    (p, n)
}

/// Sows, in every lane, the `n` seeds of the mover's pit `p` (both per lane): q full laps of
/// the 11 other pits, then r more seeds from the next pit on. Returns the pit of the last seed.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn sow(pits: &mut [__m512i; 12], p: __m512i, n: __m512i) -> __m512i {
    let one = splat(1);
    let q = _mm512_permutexvar_epi8(n, load(&QUOT));
    let r = _mm512_permutexvar_epi8(n, load(&REM));
    let rest = _mm512_test_epi8_mask(r, r);
    let index = _mm512_maskz_add_epi8(rest, _mm512_permutexvar_epi8(p, load(&TIMES10)), r);
    let extra = [
        _mm512_permutexvar_epi8(index, load(&EXTRA[0])),
        _mm512_permutexvar_epi8(index, load(&EXTRA[1])),
    ];
    for (j, v) in pits.iter_mut().enumerate() {
        let gets = _mm512_test_epi8_mask(extra[j / 8], splat(1 << (j % 8)));
        let laps = _mm512_add_epi8(*v, q);
        *v = _mm512_mask_add_epi8(laps, gets, laps, one);
    }
    // The emptied pit gets nothing back.
    for (i, v) in pits.iter_mut().enumerate().take(6) {
        let emptied = _mm512_cmpeq_epi8_mask(p, splat(i as u8));
        *v = _mm512_mask_mov_epi8(*v, emptied, _mm512_setzero_si512());
    }
    // The last seed falls r pits on (11 when r = 0, the pit before the one emptied).
    let distance = _mm512_mask_mov_epi8(r, !rest, splat(11));
    let past = _mm512_add_epi8(p, distance);
    _mm512_min_epu8(past, _mm512_sub_epi8(past, splat(12)))
}

/// Per pit of the mover's row, the lanes where sowing it would be a grand slam, worked out from
/// the rows as [`super::portable::grand_slams`] does.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn grand_slams(mine: &[__m512i], theirs: &[__m512i]) -> [u64; 6] {
    let (mut keeps, mut over_one, mut gap) = (0u64, 0u64, 0u64);
    let (mut before, mut m) = (u64::MAX, _mm512_setzero_si512());
    for v in theirs {
        keeps |= _mm512_cmpge_epu8_mask(*v, splat(3));
        over_one |= _mm512_cmpge_epu8_mask(*v, splat(2));
        let occupied = _mm512_test_epi8_mask(*v, *v);
        // A seed past an empty pit: the row's seeds do not fill its first pits.
        gap |= occupied & !before;
        before = occupied;
        m = _mm512_mask_add_epi8(m, occupied, m, splat(1));
    }
    let filled = _mm512_test_epi8_mask(theirs[0], theirs[0]) & !(gap | keeps);
    let empty = _mm512_cmpeq_epi8_mask(m, _mm512_setzero_si512());
    let mut slam = [0u64; 6];
    for (i, (s, &n)) in slam.iter_mut().zip(mine).enumerate() {
        let short = filled & _mm512_cmpeq_epi8_mask(n, _mm512_add_epi8(m, splat(5 - i as u8)));
        let lap = !over_one & _mm512_cmpeq_epi8_mask(n, splat(22 - i as u8));
        let laps = empty & _mm512_cmpeq_epi8_mask(n, splat(33 - i as u8));
        *s = short | lap | laps;
    }
    slam
}

/// The capture run of a sowing that ended in pit `last`: from there back while pits hold 2 or
/// 3, in the opponent's row. Returns the run's lanes per pit, the lanes with a run, and the
/// lanes where the opponent's row holds seeds outside the run.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn capture_run(pits: &[__m512i; 12], last: __m512i) -> ([u64; 12], u64, u64) {
    let (mut run, mut alive, mut outside) = ([0u64; 12], 0u64, 0u64);
    for j in (6..12).rev() {
        let two_or_three = _mm512_cmpeq_epi8_mask(_mm512_and_si512(pits[j], splat(0xfe)), splat(2));
        alive = two_or_three & (alive | _mm512_cmpeq_epi8_mask(last, splat(j as u8)));
        run[j] = alive;
        outside |= _mm512_test_epi8_mask(pits[j], pits[j]) & !alive;
    }
    let any = run[6..].iter().fold(0, |a, &m| a | m);
    (run, any, outside)
}

/// The murmur3 finalizer in 32-bit lanes.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
#[inline]
fn fmix(mut h: __m512i) -> __m512i {
    h = _mm512_xor_si512(h, _mm512_srli_epi32::<16>(h));
    h = _mm512_mullo_epi32(h, _mm512_set1_epi32(0x85eb_ca6bu32 as i32));
    h = _mm512_xor_si512(h, _mm512_srli_epi32::<13>(h));
    h = _mm512_mullo_epi32(h, _mm512_set1_epi32(0xc2b2_ae35u32 as i32));
    _mm512_xor_si512(h, _mm512_srli_epi32::<16>(h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grand_slams_in_masks_are_the_portable_paths() {
        if !crate::batch::BatchPath::Avx512.available() {
            eprintln!("no AVX-512 VBMI here: the AVX-512 grand slams are not checked");
            return;
        }
        // 64 lanes of rows of pits holding 0 to 3 and counts of up to 48, from a fixed sequence.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % below) as u8
        };
        for _ in 0..20_000 {
            let rows: [[u8; 64]; 12] =
                std::array::from_fn(|j| std::array::from_fn(|_| next(if j < 6 { 49 } else { 4 })));
            // SAFETY: AVX-512 VBMI is available (checked above).
            let masks = unsafe {
                let v: [__m512i; 12] = std::array::from_fn(|j| load(&lanes::Row(rows[j])));
                grand_slams(&v[..6], &v[6..])
            };
            for half in 0..4 {
                let lanes =
                    |j: usize| -> [u8; 16] { std::array::from_fn(|l| rows[j][half * 16 + l]) };
                let v: [wide::u8x16; 12] = std::array::from_fn(|j| wide::u8x16::new(lanes(j)));
                let portable = super::super::portable::grand_slams(&v[..6], &v[6..]);
                for (i, p) in portable.iter().enumerate() {
                    use crate::batch::bytes::Bytes;
                    assert_eq!(masks[i] >> (half * 16) & 0xffff, p.bits(), "pit {i}");
                }
            }
        }
    }
}
