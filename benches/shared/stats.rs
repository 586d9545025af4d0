//! Medians and tails, as every bench prints them.
#![allow(dead_code)]

use std::time::Duration;

/// The `q` quantile of sorted samples (nearest rank).
pub fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Sorts `samples` and returns their p50 and p99.
pub fn p50_p99(samples: &mut [Duration]) -> (Duration, Duration) {
    samples.sort();
    (percentile(samples, 0.5), percentile(samples, 0.99))
}

pub fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

pub fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "MISSED" }
}

/// How many times `b` `a` is, as printed: `0.47`.
pub fn ratio(a: Duration, b: Duration) -> String {
    format!("{:.2}", a.as_secs_f64() / b.as_secs_f64())
}

/// A p50 and p99 as multiples of the floor's p50 and p99: `1.81 / 2.79`.
pub fn over_floor((p50, p99): (Duration, Duration), (f50, f99): (Duration, Duration)) -> String {
    format!("{} / {}", ratio(p50, f50), ratio(p99, f99))
}

/// The median of rates, sorted in place.
pub fn median_rate(rates: &mut [f64]) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}
