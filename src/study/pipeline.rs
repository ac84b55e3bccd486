//! The ordered parallel pipeline of the batch jobs: work items run on a pool's threads, their
//! results taken in index order on the calling thread, with memory bounded.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Games `size * c ..` of `range`, the `c`-th chunk (shorter at the end).
pub fn chunk(range: Range<u64>, size: u64, c: u64) -> Range<u64> {
    let from = range.start + c * size;
    from..from.saturating_add(size).min(range.end)
}

/// Runs `work(i)` for every `i` in `range` on the threads of `pool`, each thread taking the next
/// index as soon as it is free (a slow item holds up only its own thread), and hands the results
/// to `take` in index order on the calling thread. New items stop being started once `take`
/// returns false or `interrupt` is set; returns how many results `take` received (a prefix of
/// `range`). No thread runs more than a few items ahead of the first result not yet taken, so
/// memory stays bounded however slow one item is.
pub fn in_order<T: Send>(
    pool: &rayon::ThreadPool,
    range: Range<u64>,
    interrupt: &AtomicBool,
    work: impl Fn(u64) -> T + Sync,
    mut take: impl FnMut(u64, T) -> bool,
) -> u64 {
    // Items are counted from range.start, so no index is formed past range.end.
    let count = range.end.saturating_sub(range.start);
    let window = 2 * pool.current_num_threads() as u64 + 2;
    let (next, done) = (AtomicU64::new(0), AtomicU64::new(0));
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, T)>();
    let mut taken = 0;
    pool.in_place_scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            let (tx, next, done, stop, work) = (tx.clone(), &next, &done, &stop, &work);
            scope.spawn(move |_| {
                while !interrupt.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
                    if next.load(Ordering::SeqCst) >= done.load(Ordering::SeqCst) + window {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        continue;
                    }
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= count {
                        break;
                    }
                    let i = range.start + k;
                    if tx.send((i, work(i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Results that arrive early wait here for the ones before them.
        let mut ready = BTreeMap::new();
        for (i, result) in &rx {
            ready.insert(i, result);
            while let Some(result) = ready.remove(&(range.start + taken)) {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                if !take(range.start + taken, result) {
                    stop.store(true, Ordering::SeqCst);
                }
                taken += 1;
                done.store(taken, Ordering::SeqCst);
            }
        }
    });
    taken
}
