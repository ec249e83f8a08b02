//! Regressions of rules files and `chaff mine`: decisions never lost, unknown keys warned, modes kept.
