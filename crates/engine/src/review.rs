//! Review state of a source: whether an editor has reviewed its rules, when, what the rules were then,
//! and the last drift check. Kept in the source's rules file as a `[review]` table, so it travels with
//! the rules it is about:
//!
//! ```toml
//! [review]
//! reviewed_at = "2026-11-25T18:40:00Z"   # RFC 3339, UTC
//! accepted = 12                          # accepted rules at review
//! rules = "5f0c2b61d7a9e3c4"             # hash of the accepted rules at review (id, action, regex)
//! drift = 0.03                           # the last drift check (0: none lost, 1: no rule matches)
//! checked_at = "2026-11-25T18:40:00Z"
//! ```
//!
//! A file without the table is a source nobody has reviewed. Accepted rules that differ from the hash
//! (mined again and decided elsewhere, edited by hand) make the source unreviewed again.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::rules::{RulesFile, Status};

pub use crate::rules::Review;

/// Where a source stands in the review queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewState {
    /// Never reviewed (or no rules file yet).
    Unreviewed,
    /// Reviewed, and the accepted rules are still those reviewed.
    Reviewed,
    /// Reviewed, but the accepted rules changed since.
    Changed,
}

impl Review {
    /// The review of `file` as it stands now, at `now`; `drift` from a check made with it, if any.
    pub fn of(file: &RulesFile, now: SystemTime, drift: Option<f64>) -> Review {
        let at = rfc3339(now);
        Review {
            reviewed_at: Some(at.clone()),
            accepted: file.count(Status::Accepted),
            rules: rules_hash(file),
            drift,
            checked_at: drift.map(|_| at),
        }
    }
}

/// Where `file` stands: unreviewed, reviewed, or changed since its review.
pub fn state(file: &RulesFile) -> ReviewState {
    match &file.review {
        Some(r) if r.reviewed_at.is_some() => {
            // a review written by hand without a hash is taken at its word
            if r.rules.is_empty() || r.rules == rules_hash(file) { ReviewState::Reviewed } else { ReviewState::Changed }
        }
        _ => ReviewState::Unreviewed,
    }
}

/// A hash of what `chaff clean` applies of `file`: each accepted rule's id, action and regex, in id order
/// (FNV-1a, 64 bits: stable across builds and platforms, unlike the standard library's hasher).
pub fn rules_hash(file: &RulesFile) -> String {
    let mut accepted: Vec<_> = file.rules.iter().filter(|r| r.status == Status::Accepted).collect();
    accepted.sort_by(|a, b| a.id.cmp(&b.id));
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(&[0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for r in accepted {
        eat(r.id.as_bytes());
        eat(r.action.name().as_bytes());
        eat(r.regex.as_bytes());
    }
    format!("{h:016x}")
}

/// Merges the review into `ours` when another writer changed it on disk since `base` and this writer
/// did not (a review is an editor's statement: the later one on disk is kept unless this save makes one).
pub fn merge(ours: &mut RulesFile, base: Option<&RulesFile>, theirs: &RulesFile) -> bool {
    let base_review = base.and_then(|b| b.review.as_ref());
    if theirs.review.as_ref() != base_review && ours.review.as_ref() == base_review {
        ours.review = theirs.review.clone();
        return true;
    }
    false
}

/// `t` as RFC 3339 in UTC, to the second: `2026-11-25T18:40:00Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar (Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn rfc3339_writes_utc_dates_to_the_second() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2000-02-29 12:34:56 UTC: a leap day of a century leap year
        assert_eq!(rfc3339(UNIX_EPOCH + Duration::from_secs(951_827_696)), "2000-02-29T12:34:56Z");
        assert_eq!(rfc3339(UNIX_EPOCH + Duration::from_secs(1_795_632_000)), "2026-11-25T18:40:00Z");
    }

    const OLD: &str = "format = 2\nsource = \"demo\"\n\n[cutoff]\nauto = 40\nchosen = 40\n\n[[rule]]\nid = \"r1\"\n\
                       status = \"accepted\"\nregex = 'read\\s+more'\n";

    #[test]
    fn a_rules_file_without_a_review_table_reads_as_unreviewed_and_writes_none() {
        let path = std::path::Path::new("demo.toml");
        let file = RulesFile::parse(OLD, path).unwrap();
        assert_eq!(file.review, None);
        assert_eq!(state(&file), ReviewState::Unreviewed);
        assert!(!file.to_toml().contains("[review]"));
    }

    #[test]
    fn a_review_round_trips_and_a_changed_accepted_rule_unreviews_the_source() {
        let path = std::path::Path::new("demo.toml");
        let mut file = RulesFile::parse(OLD, path).unwrap();
        file.review = Some(Review::of(&file, UNIX_EPOCH + Duration::from_secs(1_795_632_000), Some(0.5)));
        let text = file.to_toml();
        assert!(text.contains("[review]\nreviewed_at = \"2026-11-25T18:40:00Z\"\naccepted = 1\n"), "{text}");
        let mut again = RulesFile::parse(&text, path).unwrap();
        assert_eq!(again, file);
        assert_eq!(state(&again), ReviewState::Reviewed);
        again.rules[0].regex = "read\\s+on".into();
        assert_eq!(state(&again), ReviewState::Changed);
    }
}
