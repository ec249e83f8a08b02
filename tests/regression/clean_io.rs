//! Regressions of `chaff clean` and output: inputs never overwritten, names never collide, bad input skipped and reported.
