//! The threads that step a vector environment: the caller and a few workers that wait for the
//! next step spinning a while before they sleep, since a learning loop steps every few µs.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::{EnvError, MAX_THREADS};

/// How long an idle worker spins for the next step before it sleeps.
const SPIN: Duration = Duration::from_millis(2);

/// A step's work: share `i` of the workers' shares (the caller does share 0).
type Share<'a> = &'a (dyn Fn(usize) + Sync);

/// What the caller and the workers share.
struct Shared {
    /// Bumped for each step; a worker runs a step once.
    epoch: AtomicU64,
    /// The step's work, valid while the caller waits for `done` (a `Share` with its lifetime
    /// erased).
    work: Mutex<Option<Share<'static>>>,
    /// Workers done with this step's share.
    done: AtomicUsize,
    /// Whether a worker's share panicked.
    panicked: AtomicBool,
    /// Set when the workers are to end.
    stop: AtomicBool,
    /// Where sleeping workers wait.
    sleep: (Mutex<()>, Condvar),
}

/// The caller and `n - 1` worker threads (see the module's comment).
pub struct Workers {
    shared: Arc<Shared>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Workers {
    /// `threads` threads in all, the caller's among them (0: one per core).
    pub fn new(threads: usize) -> Result<Workers, EnvError> {
        if threads > MAX_THREADS {
            return Err(EnvError::OutOfRange {
                field: "threads",
                value: threads as u64,
                expected: format!("0 (one per core) to {MAX_THREADS}"),
            });
        }
        let all = match threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            t => t,
        };
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            work: Mutex::new(None),
            done: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            sleep: (Mutex::new(()), Condvar::new()),
        });
        let mut handles = Vec::new();
        for share in 1..all {
            let s = Arc::clone(&shared);
            let handle = std::thread::Builder::new()
                .name(format!("mancala-lab env {share}"))
                .spawn(move || work(&s, share))
                .map_err(|e| EnvError::OutOfRange {
                    field: "threads",
                    value: threads as u64,
                    expected: format!("threads this machine can start ({e})"),
                })?;
            handles.push(handle);
        }
        Ok(Workers {
            shared,
            threads: handles,
        })
    }

    /// Threads in all, the caller's among them.
    pub fn count(&self) -> usize {
        self.threads.len() + 1
    }

    /// Calls `f` on every item, the items shared out in equal runs among the threads.
    pub fn each<T: Send>(&self, items: &mut [T], f: impl Fn(&mut T) + Sync) {
        if self.threads.is_empty() || items.len() < 2 {
            return items.iter_mut().for_each(f);
        }
        let n = self.count();
        let share = items.len().div_ceil(n);
        // Each run of items is taken by one thread only: a run's slot is emptied once.
        let runs: Vec<Mutex<Option<&mut [T]>>> = items
            .chunks_mut(share)
            .map(|r| Mutex::new(Some(r)))
            .collect();
        let run = |i: usize| {
            let taken = runs.get(i).and_then(|slot| slot.lock().ok()?.take());
            if let Some(run) = taken {
                run.iter_mut().for_each(&f);
            }
        };
        let work: Share<'_> = &run;
        // SAFETY: the workers use `work` only between the epoch bump below and their `done`
        // count, and this function waits for every worker's count before it returns (a worker's
        // panic is caught and counted), so `work` outlives every use.
        let erased: Share<'static> =
            unsafe { std::mem::transmute::<Share<'_>, Share<'static>>(work) };
        let s = &self.shared;
        *s.work.lock().unwrap_or_else(|e| e.into_inner()) = Some(erased);
        s.done.store(0, Ordering::SeqCst);
        s.epoch.fetch_add(1, Ordering::SeqCst);
        {
            let _guard = s.sleep.0.lock().unwrap_or_else(|e| e.into_inner());
            s.sleep.1.notify_all();
        }
        run(0);
        let workers = self.threads.len();
        while s.done.load(Ordering::Acquire) < workers {
            std::hint::spin_loop();
        }
        *s.work.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if s.panicked.swap(false, Ordering::SeqCst) {
            panic!("a vector environment's worker thread panicked");
        }
    }
}

/// A worker's life: run share `share` of each new step, spinning between steps for [`SPIN`]
/// before it sleeps.
fn work(s: &Shared, share: usize) {
    let mut seen = 0u64;
    loop {
        let started = Instant::now();
        let mut spins = 0u32;
        let epoch = loop {
            if s.stop.load(Ordering::Acquire) {
                return;
            }
            let e = s.epoch.load(Ordering::Acquire);
            if e != seen {
                break e;
            }
            spins += 1;
            if spins.is_multiple_of(1024) && started.elapsed() > SPIN {
                let guard = s.sleep.0.lock().unwrap_or_else(|e| e.into_inner());
                if s.epoch.load(Ordering::Acquire) == seen && !s.stop.load(Ordering::Acquire) {
                    let _ = s.sleep.1.wait_timeout(guard, Duration::from_millis(50));
                }
            } else {
                std::hint::spin_loop();
            }
        };
        seen = epoch;
        let job = *s.work.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(job) = job {
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(share)));
            if ran.is_err() {
                s.panicked.store(true, Ordering::SeqCst);
            }
        }
        s.done.fetch_add(1, Ordering::Release);
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        {
            let _guard = self
                .shared
                .sleep
                .0
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            self.shared.sleep.1.notify_all();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Workers;

    #[test]
    fn every_item_is_done_once_whatever_the_threads() {
        for threads in [1, 2, 3, 5] {
            let w = Workers::new(threads).unwrap();
            for len in [0, 1, 2, 7, 64, 1000] {
                for _ in 0..3 {
                    let mut items = vec![0u32; len];
                    w.each(&mut items, |x| *x += 1);
                    assert!(
                        items.iter().all(|&x| x == 1),
                        "{threads} threads, {len} items"
                    );
                }
            }
        }
        assert!(Workers::new(65).is_err());
    }
}
