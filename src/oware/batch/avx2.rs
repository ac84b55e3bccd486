//! The AVX2 path of the batch engine: the shared step ([`super::portable::vector_step`]) in
//! 256-bit registers, 32 games at a time (x86-64 with AVX2).

use std::arch::x86_64::*;

use super::lanes::{Lanes, Slams, Step, StepOut};
use super::portable::{board_key, vector_step, Bytes};

/// Lanes of the AVX2 path: one byte of a 256-bit register each.
pub(super) const LANES: usize = 32;

/// The AVX2 path.
pub(super) struct Avx2;

impl Step<LANES> for Avx2 {
    fn key(pits: &[u8; 12], _south: bool) -> u16 {
        board_key(pits)
    }

    unsafe fn step(lanes: &mut Lanes<LANES>, step: u64, ring: usize, slams: Slams) -> StepOut {
        // SAFETY: the caller vouches for AVX2.
        unsafe { step_avx2(lanes, step, ring, slams) }
    }
}

/// The shared step compiled for AVX2: the [`Y`] operations inline into it.
#[target_feature(enable = "avx2")]
fn step_avx2(lanes: &mut Lanes<LANES>, step: u64, ring: usize, slams: Slams) -> StepOut {
    vector_step::<LANES, Y>(lanes, step, ring, slams)
}

/// 32 bytes in a 256-bit register.
///
/// Its operations call AVX2 intrinsics: they run only inlined into [`step_avx2`], which only runs
/// where the processor has AVX2.
#[derive(Clone, Copy)]
struct Y(__m256i);

impl Bytes<LANES> for Y {
    #[inline(always)]
    fn splat(b: u8) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_set1_epi8(b as i8) })
    }
    #[inline(always)]
    fn load(row: &[u8; LANES]) -> Self {
        // SAFETY: the row holds the 32 bytes an unaligned 256-bit load reads.
        Y(unsafe { _mm256_loadu_si256(row.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, row: &mut [u8; LANES]) {
        // SAFETY: the row holds the 32 bytes an unaligned 256-bit store writes.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_add_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_sub_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_or_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_andnot_si256(o.0, self.0) })
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_min_epu8(self.0, o.0) })
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_cmpeq_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn ge(self, o: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_cmpeq_epi8(_mm256_max_epu8(self.0, o.0), self.0) })
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        Y::splat(0xff).and_not(o.ge(self))
    }
    #[inline(always)]
    fn select(self, a: Self, b: Self) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_blendv_epi8(b.0, a.0, self.0) })
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        // SAFETY: AVX2, as the type's comment says.
        u64::from(unsafe { _mm256_movemask_epi8(self.0) } as u32)
    }
}
