//! The latest request wins: a generation counter that a UI worker and its threads share. Each request
//! takes the next generation; a thread still working on an older one sees it overtaken, stops at its
//! next step and sends nothing.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Clone, Default)]
pub struct Latest(Arc<AtomicU64>);

impl Latest {
    /// A new request's generation: every request made before it is overtaken.
    pub fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Overtakes every request made so far: none of them will be answered.
    pub fn cancel(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// Whether `generation` is the latest request.
    pub fn is(&self, generation: u64) -> bool {
        self.get() == generation
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_latest_until_the_next_or_a_cancel() {
        let latest = Latest::default();
        let first = latest.next();
        let shared = latest.clone();
        assert!(shared.is(first));
        let second = latest.next();
        assert!(!shared.is(first) && shared.is(second));
        latest.cancel();
        assert!(!shared.is(second));
    }
}
