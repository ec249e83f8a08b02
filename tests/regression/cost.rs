//! Regressions of cost: work bounded by counting on long lines and many matches; limits that give clear errors.
