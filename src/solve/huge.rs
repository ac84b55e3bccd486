//! Arrays the level builder reads at random (levels, the level being built, its bit sets), backed
//! by huge pages where the system offers them, so that fewer of those reads miss the TLB.

/// An empty vector with room for `len` items, its memory marked for huge pages before any of it
/// is touched (Linux; elsewhere an ordinary vector).
pub fn with_capacity<T>(len: usize) -> Vec<T> {
    let v = Vec::with_capacity(len);
    advise(v.as_ptr() as usize, len * std::mem::size_of::<T>());
    v
}

/// Asks for huge pages over the whole 2 MiB pages inside `bytes` bytes from `start`. A hint: the
/// system may refuse it (transparent huge pages off), and nothing depends on it but speed.
#[cfg(target_os = "linux")]
pub(crate) fn advise(start: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let from = start.next_multiple_of(HUGE);
    let to = (start + bytes) / HUGE * HUGE;
    if to > from {
        // SAFETY: the range lies inside one live allocation; MADV_HUGEPAGE changes no contents.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
}

/// No huge-page hint off Linux.
#[cfg(not(target_os = "linux"))]
pub(crate) fn advise(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_for_every_item_and_none_in_it() {
        let v: Vec<u64> = with_capacity(3 << 20);
        assert!(v.capacity() >= 3 << 20);
        assert!(v.is_empty());
        let mut w: Vec<i8> = with_capacity(5 << 20);
        w.resize(5 << 20, -1);
        assert!(w.iter().all(|&b| b == -1));
    }
}
