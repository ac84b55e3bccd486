//! The AVX2 path of the batch engine: the shared step ([`super::portable::vector_step`]) in
//! 256-bit registers, 32 games at a time (x86-64 with AVX2).

use super::lanes::{Lanes, Slams, Step, StepOut};
use super::portable::{board_key, vector_step};
use crate::batch::bytes::Y;

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
