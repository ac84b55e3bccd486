//! Vectors of byte lanes, one game per lane, as the batch engines' steps see them: one trait and
//! its implementations in 128-bit (portable), 256-bit (AVX2) and 512-bit (AVX-512 BW) registers.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// `N` bytes, one per lane, aligned so that a vector path loads a row as registers.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct Row<const N: usize>(pub(crate) [u8; N]);

/// A vector of `N` bytes, one per lane: seeds, counts or pit numbers, or a lane mask (0xff in
/// the lanes it holds, 0 elsewhere). Each path implements it in its own instructions.
pub(crate) trait Bytes<const N: usize>: Copy {
    /// `b` in every lane.
    fn splat(b: u8) -> Self;
    /// A row's bytes.
    fn load(row: &[u8; N]) -> Self;
    /// Writes the lanes to a row.
    fn store(self, row: &mut [u8; N]);
    /// Lane by lane, wrapping.
    fn add(self, o: Self) -> Self;
    /// Lane by lane, wrapping.
    fn sub(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// `self` where `o` is not.
    fn and_not(self, o: Self) -> Self;
    /// Lane by lane, unsigned.
    fn min(self, o: Self) -> Self;
    /// The mask of the lanes where `self == o`.
    fn eq(self, o: Self) -> Self;
    /// The mask of the lanes where `self >= o` (unsigned).
    fn ge(self, o: Self) -> Self;
    /// The mask of the lanes where `self > o` (unsigned).
    fn gt(self, o: Self) -> Self;
    /// `a` in the lanes of mask `self`, `b` elsewhere.
    fn select(self, a: Self, b: Self) -> Self;
    /// The lane bits of mask `self` (bit l for lane l).
    fn bits(self) -> u64;

    /// The mask of the lanes that are not 0.
    #[inline(always)]
    fn nonzero(self) -> Self {
        Self::splat(0xff).and_not(self.eq(Self::splat(0)))
    }

    /// 1 in the lanes of mask `self`, 0 elsewhere.
    #[inline(always)]
    fn ones(self) -> Self {
        self.and(Self::splat(1))
    }
}

/// The portable path's vectors: 16 bytes in the target's 128-bit registers (the `wide` crate:
/// SSE2, NEON, WebAssembly SIMD, or plain code).
impl Bytes<16> for wide::u8x16 {
    #[inline(always)]
    fn splat(b: u8) -> Self {
        wide::u8x16::splat(b)
    }
    #[inline(always)]
    fn load(row: &[u8; 16]) -> Self {
        wide::u8x16::new(*row)
    }
    #[inline(always)]
    fn store(self, row: &mut [u8; 16]) {
        *row = self.to_array();
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        self & !o
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        wide::u8x16::min(self, o)
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        self.simd_eq(o)
    }
    #[inline(always)]
    fn ge(self, o: Self) -> Self {
        self.simd_ge(o)
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        self.simd_gt(o)
    }
    #[inline(always)]
    fn select(self, a: Self, b: Self) -> Self {
        self.bitselect(a, b)
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        u64::from(self.to_bitmask())
    }
}

/// 32 bytes in a 256-bit register.
///
/// Its operations call AVX2 intrinsics: they run only inlined into functions compiled for AVX2
/// (`#[target_feature(enable = "avx2")]`), which run only where the processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Y(__m256i);

#[cfg(target_arch = "x86_64")]
impl Bytes<32> for Y {
    #[inline(always)]
    fn splat(b: u8) -> Self {
        // SAFETY: AVX2, as the type's comment says.
        Y(unsafe { _mm256_set1_epi8(b as i8) })
    }
    #[inline(always)]
    fn load(row: &[u8; 32]) -> Self {
        // SAFETY: the row holds the 32 bytes an unaligned 256-bit load reads.
        Y(unsafe { _mm256_loadu_si256(row.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, row: &mut [u8; 32]) {
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

/// 64 bytes in a 512-bit register; a lane mask is a vector of 0xff and 0 bytes, as on the other
/// paths, made from the mask registers' bits.
///
/// Its operations call AVX-512 F and BW intrinsics: they run only inlined into functions
/// compiled for them, which run only where the processor has them.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub(crate) struct Z(__m512i);

#[cfg(target_arch = "x86_64")]
impl Z {
    /// The vector of the lane mask `m`.
    #[inline(always)]
    fn of_mask(m: __mmask64) -> Z {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z(unsafe { _mm512_movm_epi8(m) })
    }
}

#[cfg(target_arch = "x86_64")]
impl Bytes<64> for Z {
    #[inline(always)]
    fn splat(b: u8) -> Self {
        // SAFETY: AVX-512 F, as the type's comment says.
        Z(unsafe { _mm512_set1_epi8(b as i8) })
    }
    #[inline(always)]
    fn load(row: &[u8; 64]) -> Self {
        // SAFETY: the row holds the 64 bytes an unaligned 512-bit load reads.
        Z(unsafe { _mm512_loadu_si512(row.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, row: &mut [u8; 64]) {
        // SAFETY: the row holds the 64 bytes an unaligned 512-bit store writes.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z(unsafe { _mm512_add_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z(unsafe { _mm512_sub_epi8(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX-512 F, as the type's comment says.
        Z(unsafe { _mm512_and_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX-512 F, as the type's comment says.
        Z(unsafe { _mm512_or_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // SAFETY: AVX-512 F, as the type's comment says.
        Z(unsafe { _mm512_andnot_si512(o.0, self.0) })
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z(unsafe { _mm512_min_epu8(self.0, o.0) })
    }
    #[inline(always)]
    fn eq(self, o: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z::of_mask(unsafe { _mm512_cmpeq_epi8_mask(self.0, o.0) })
    }
    #[inline(always)]
    fn ge(self, o: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z::of_mask(unsafe { _mm512_cmpge_epu8_mask(self.0, o.0) })
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z::of_mask(unsafe { _mm512_cmpgt_epu8_mask(self.0, o.0) })
    }
    #[inline(always)]
    fn select(self, a: Self, b: Self) -> Self {
        // SAFETY: AVX-512 BW, as the type's comment says.
        Z(unsafe { _mm512_mask_blend_epi8(_mm512_movepi8_mask(self.0), b.0, a.0) })
    }
    #[inline(always)]
    fn bits(self) -> u64 {
        // SAFETY: AVX-512 BW, as the type's comment says.
        unsafe { _mm512_movepi8_mask(self.0) }
    }
}
