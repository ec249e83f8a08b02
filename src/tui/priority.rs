//! Background threads that measure for the UI (the preview's cleaning of a large document, a decision's
//! impact) run at a lower scheduling priority than the UI thread: on a machine with few cores a key and its
//! frame come first, and the measure a moment later.

/// Lowers the calling thread's priority (Linux: its nice value; elsewhere nothing, as a process-wide
/// change would slow the UI too).
pub fn background() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take and return plain integers; on Linux a thread is a task of its
        // own, so this changes the calling thread alone.
        unsafe {
            let tid = libc::gettid();
            let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
        }
    }
}
