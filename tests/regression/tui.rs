//! Regressions of the tuning UI: the watcher, popups, re-mining, quitting.
