//! Documents streamed through a bounded window: taken from their input in order, cleaned on every
//! thread, handed on in input order. At most `window` documents are between being taken and being handed
//! on (cleaning, or done and waiting for an earlier one), so memory holds those, never the corpus; and no
//! thread waits for a batch's slowest document while documents remain within the window.

use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Documents the window holds per thread: enough that a long document does not stall the others, few
/// enough that memory holds a handful of documents per thread.
pub const PER_THREAD: usize = 4;

/// The threads to clean on: as many as rayon's global pool has (`RAYON_NUM_THREADS`, else the machine's
/// cores), read without starting that pool, which cleaning files or stdin never uses: its workers would
/// start, and spin looking for work, on the cores the first page waits on.
pub fn threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// What the workers share: the input, how many items were taken and how many handed on.
struct Gate<I> {
    items: I,
    taken: usize,
    emitted: usize,
    /// The input ran out, or a worker panicked: the workers stop taking.
    done: bool,
}

/// Runs `work` on every item of `items` on `threads` threads and hands each result to `emit`, on the
/// calling thread, in the items' order. An item is taken only while fewer than `window` items are taken
/// and not yet emitted. Items are taken from `items` one at a time under a lock, so an input read as it
/// goes (a file's lines) is read in order. `emit` stops the run by breaking: no item is taken after it,
/// and the results of those taken are dropped. A panic in `work` stops the workers and is raised here.
///
/// The first item is worked on the calling thread, and the threads start only when a second one comes:
/// an input of one document (a process's first page) starts no thread and hands nothing across.
pub fn ordered<I, R, W, E>(mut items: I, threads: usize, window: usize, work: W, mut emit: E)
where
    I: Iterator + Send,
    I::Item: Send,
    R: Send,
    W: Fn(I::Item) -> R + Sync,
    E: FnMut(R) -> ControlFlow<()>,
{
    let Some(first) = items.next() else { return };
    if emit(work(first)).is_break() {
        return;
    }
    let Some(second) = items.next() else { return };
    let items = std::iter::once(second).chain(items);
    let window = window.max(1);
    let gate = Mutex::new(Gate { items, taken: 0, emitted: 0, done: false });
    let room = Condvar::new();
    let (sender, results) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let (gate, room, work) = (&gate, &room, &work);
            scope.spawn(move || {
                // a panicking worker closes the gate, so the others stop waiting for its item
                let _closes = CloseOnPanic { gate, room };
                while let Some((i, item)) = take(gate, room, window) {
                    if sender.send((i, work(item))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        // a panic in `emit` closes the gate too, so the workers end and the panic is raised
        let _closes = CloseOnPanic { gate: &gate, room: &room };
        // results that came early, by their distance from the next one to emit
        let mut early: VecDeque<Option<R>> = VecDeque::new();
        let mut next = 0;
        let mut stopped = false;
        for (i, r) in results {
            let at = i - next;
            if early.len() <= at {
                early.resize_with(at + 1, || None);
            }
            early[at] = Some(r);
            let mut handed = 0;
            while let Some(Some(_)) = early.front() {
                if let Some(Some(r)) = early.pop_front() {
                    handed += 1;
                    stopped = emit(r).is_break();
                    if stopped {
                        break;
                    }
                }
            }
            if handed > 0 || stopped {
                next += handed;
                let mut g = lock(&gate);
                g.emitted = next;
                g.done |= stopped;
                drop(g);
                room.notify_all();
            }
            if stopped {
                // the receiver goes: a worker's next result finds no one and it ends
                break;
            }
        }
    });
}

/// The next item and its index, once the window has room; `None` when the input is done.
fn take<I: Iterator>(gate: &Mutex<Gate<I>>, room: &Condvar, window: usize) -> Option<(usize, I::Item)> {
    let mut g = lock(gate);
    while !g.done && g.taken >= g.emitted + window {
        g = room.wait(g).unwrap_or_else(PoisonError::into_inner);
    }
    if g.done {
        return None;
    }
    match g.items.next() {
        Some(item) => {
            g.taken += 1;
            Some((g.taken - 1, item))
        }
        None => {
            g.done = true;
            room.notify_all();
            None
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

struct CloseOnPanic<'a, I> {
    gate: &'a Mutex<Gate<I>>,
    room: &'a Condvar,
}

impl<I> Drop for CloseOnPanic<'_, I> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            lock(self.gate).done = true;
            self.room.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn threads_are_as_many_as_rayons_pool_would_have() {
        assert_eq!(threads(), rayon::current_num_threads());
    }

    /// Runs `ordered` over `0..n` with the given work delays (microseconds, by item) and returns what was
    /// emitted and the most items ever held at once (taken by a worker and not yet emitted).
    fn run(n: usize, threads: usize, window: usize, delay: &(dyn Fn(usize) -> u64 + Sync)) -> (Vec<usize>, usize) {
        let held = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let mut out = Vec::new();
        ordered(
            0..n,
            threads,
            window,
            |i| {
                let now = held.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                std::thread::sleep(Duration::from_micros(delay(i)));
                i * 10
            },
            |r| {
                held.fetch_sub(1, Ordering::SeqCst);
                out.push(r);
                ControlFlow::Continue(())
            },
        );
        (out, most.load(Ordering::SeqCst))
    }

    #[test]
    fn a_slow_first_document_holds_back_at_most_the_window() {
        // the first item the workers take (the second: the first is the caller's) takes long and the rest
        // none: without the bound every other item would be cleaned and held while that one is
        let (out, most) = run(200, 4, 8, &|i| if i == 1 { 50_000 } else { 0 });
        assert_eq!(out, (0..200).map(|i| i * 10).collect::<Vec<_>>());
        assert!(most <= 8, "{most} items held at once, window 8");
        assert_eq!(most, 8, "the window is used: the others run ahead up to it");
    }

    #[test]
    fn a_lone_document_is_worked_on_the_calling_thread() {
        let caller = std::thread::current().id();
        let mut on = Vec::new();
        ordered(
            0..1,
            4,
            8,
            |i| (i, std::thread::current().id()),
            |r| {
                on.push(r);
                ControlFlow::Continue(())
            },
        );
        assert_eq!(on, vec![(0, caller)]);
        // with more, the first is still the caller's and the rest come in order
        let (out, most) = run(50, 3, 4, &|i| (i % 7) as u64 * 20);
        assert_eq!(out, (0..50).map(|i| i * 10).collect::<Vec<_>>());
        assert!(most <= 4);
    }

    #[test]
    fn an_empty_input_emits_nothing_and_returns() {
        assert_eq!(run(0, 3, 4, &|_| 0), (Vec::new(), 0));
    }

    #[test]
    fn a_panic_in_the_work_or_the_emit_is_raised_not_waited_on() {
        let r = std::panic::catch_unwind(|| {
            ordered(0..100, 2, 2, |i| if i == 3 { panic!("boom") } else { i }, |_| ControlFlow::Continue(()));
        });
        assert!(r.is_err());
        let r = std::panic::catch_unwind(|| {
            ordered(
                0..100,
                2,
                2,
                |i| i,
                |i| {
                    assert_ne!(i, 3);
                    ControlFlow::Continue(())
                },
            );
        });
        assert!(r.is_err());
    }

    #[test]
    fn a_break_in_the_emit_stops_taking_items() {
        let taken = AtomicUsize::new(0);
        let mut out = Vec::new();
        ordered(
            0..10_000,
            2,
            4,
            |i| {
                taken.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i| {
                out.push(i);
                if i == 5 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            },
        );
        assert_eq!(out, (0..=5).collect::<Vec<_>>());
        assert!(taken.load(Ordering::SeqCst) <= 6 + 4, "{} taken", taken.load(Ordering::SeqCst));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Brute force: whatever the delays, the results are the sequential map's, in order, and no more
        /// than the window are ever held.
        #[test]
        fn results_come_in_order_and_the_window_bounds_what_is_held(
            delays in proptest::collection::vec(0u64..300, 0..60),
            threads in 1usize..5,
            window in 1usize..10,
        ) {
            let (out, most) = run(delays.len(), threads, window, &|i| delays[i]);
            prop_assert_eq!(out, (0..delays.len()).map(|i| i * 10).collect::<Vec<_>>());
            prop_assert!(most <= window, "{} held, window {}", most, window);
        }
    }
}
