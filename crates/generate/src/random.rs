//! The generator's randomness and calendar: a seeded SplitMix64, and real dates with their weekdays.

use super::words::{MONTHS, WEEKDAYS};

/// SplitMix64: tiny, fast and fully specified, so a seed yields the same corpus everywhere.
pub(super) struct Rng(u64);

impl Rng {
    /// `salt` separates the streams of different generators given the same seed.
    pub(super) fn new(seed: u64, salt: u64) -> Self {
        Rng(seed ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03))
    }
    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (multiply-shift; `n` > 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    /// Uniform in `lo..=hi`.
    pub(super) fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub(super) fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
    /// `n` indices into a pool of `len`, dealt from reshuffled decks so every
    /// item appears at most `ceil(n / len)` times.
    pub(super) fn deal(&mut self, len: usize, n: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(n);
        let mut deck: Vec<usize> = (0..len).collect();
        while out.len() < n {
            for i in (1..len).rev() {
                deck.swap(i, self.below(i + 1));
            }
            out.extend(deck.iter().take(n - out.len()));
        }
        out
    }
}

/// A calendar date with its real weekday (dates in the thesis example are real too).
#[derive(Debug, Clone, Copy)]
pub(super) struct Date {
    pub(super) days: i64,
    pub(super) year: i64,
    pub(super) month: usize,
    pub(super) day: u32,
    pub(super) weekday: usize,
}

/// Days since 1970-01-01 (proleptic Gregorian; Howard Hinnant's algorithm).
pub(super) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((month as i64 + 9) % 12) + 2) / 5 + day as i64 - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

impl Date {
    pub(super) fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as usize;
        let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
        Date { days, year, month, day, weekday: (days + 3).rem_euclid(7) as usize }
    }
    pub(super) fn weekday_name(self) -> &'static str {
        WEEKDAYS[self.weekday]
    }
    pub(super) fn month_name(self) -> &'static str {
        MONTHS[self.month - 1]
    }
    pub(super) fn plus_days(self, n: i64) -> Date {
        Date::from_days(self.days + n)
    }
}

pub(super) fn random_date(rng: &mut Rng, first_year: i64, last_year: i64) -> Date {
    let lo = days_from_civil(first_year, 1, 1);
    let hi = days_from_civil(last_year, 12, 31);
    Date::from_days(lo + rng.below((hi - lo + 1) as usize) as i64)
}

/// `n` random dates, oldest first: the documents form a history.
pub(super) fn sorted_dates(rng: &mut Rng, n: usize, first_year: i64, last_year: i64) -> Vec<Date> {
    let mut dates: Vec<Date> = (0..n).map(|_| random_date(rng, first_year, last_year)).collect();
    dates.sort_by_key(|d| d.days);
    dates
}
