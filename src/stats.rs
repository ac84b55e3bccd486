//! Batch statistics: the 95% intervals of rates and means, running tallies of whole games, the
//! summary.csv rows.

use std::collections::BTreeMap;

/// A rate with its 95% Wilson score interval. Over 0 trials a rate says nothing: the estimate is
/// 0 and the interval the whole range, [0, 1].
pub fn wilson(successes: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let (k, n) = (successes as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    // The bounds are exact at the ends (0 of n has lower bound 0, n of n upper bound 1) and the
    // interval holds its estimate whatever the rounding.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).clamp(0.0, p)
    };
    let high = if successes as f64 == n {
        1.0
    } else {
        (centre + half).clamp(p, 1.0)
    };
    (p, low, high)
}

/// A mean with its 95% normal-approximation interval, from the count, sum and sum of squares of
/// integer values (exact sums, so the result does not depend on the order they were added in).
/// Over no values there is no mean; over one, no interval (a sample variance needs two).
pub fn mean_ci_of_sums(n: u64, sum: u128, sum_sq: u128) -> Option<(f64, Option<(f64, f64)>)> {
    let mean = sum as f64 / n as f64;
    match n {
        0 => None,
        1 => Some((mean, None)),
        _ => {
            // (n * sum_sq - sum^2) / (n (n - 1)), the sample variance, with the numerator exact.
            let var = (u128::from(n) * sum_sq - sum * sum) as f64 / (n as f64 * (n - 1) as f64);
            let half = 1.959_963_984_540_054 * (var / n as f64).sqrt();
            Some((mean, Some((mean - half, mean + half))))
        }
    }
}

/// Distinct games are counted exactly up to this many; their hashes are kept in memory (a table
/// of 2^22 slots, some 40 MB), and past it the count is left out (`distinct_games` with empty
/// cells).
pub const DISTINCT_LIMIT: usize = 3_000_000;

/// A hasher for keys that are hashes already (`moves_hash`): one multiply to spread them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spread(u64);

impl std::hash::Hasher for Spread {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ n >> 29).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// The distinct games among those added, by their `moves_hash`.
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    /// The hashes counted so far (emptied once the count is given up).
    seen: std::collections::HashSet<u64, std::hash::BuildHasherDefault<Spread>>,
    /// Hashes added since, at most [`PENDING`]: adding one is a push, so a chunk's hashes go
    /// into a set once, when the job's count merges them (a merge leaves none pending).
    pending: Vec<u64>,
    /// Not counted: past [`DISTINCT_LIMIT`], or a game without a hash (a games.csv of a build
    /// before the `moves_hash` column).
    uncounted: bool,
}

/// Hashes a count holds before it puts them in its set: more than a stats chunk's games (65,536),
/// few enough that a count with some pending stays quick.
const PENDING: usize = 1 << 17;

impl Distinct {
    /// Adds a game's hash (`None`: a game whose moves are not known).
    pub fn add(&mut self, hash: Option<u64>) {
        match hash {
            Some(h) if !self.uncounted => {
                self.pending.push(h);
                if self.pending.len() >= PENDING {
                    self.flush();
                }
            }
            Some(_) => {}
            None => self.give_up(),
        }
    }

    /// Adds the games of another count.
    pub fn merge(&mut self, other: &Distinct) {
        if other.uncounted {
            self.give_up();
        }
        if !self.uncounted {
            self.pending.extend(other.seen.iter().chain(&other.pending));
            self.flush();
        }
    }

    /// Puts the pending hashes in the set.
    fn flush(&mut self) {
        self.seen.reserve(self.pending.len());
        self.seen.extend(self.pending.drain(..));
        if self.seen.len() > DISTINCT_LIMIT {
            self.give_up();
        }
    }

    fn give_up(&mut self) {
        self.uncounted = true;
        self.seen = Default::default();
        self.pending = Vec::new();
    }

    /// The hashes added, or `None` when not counted.
    fn hashes(&self) -> Option<std::collections::HashSet<u64>> {
        let all = self.seen.iter().chain(&self.pending).copied().collect();
        (!self.uncounted).then_some(all)
    }

    /// The number of distinct games, if counted.
    pub fn count(&self) -> Option<u64> {
        if self.uncounted {
            return None;
        }
        let new: std::collections::HashSet<u64, std::hash::BuildHasherDefault<Spread>> = self
            .pending
            .iter()
            .filter(|h| !self.seen.contains(h))
            .copied()
            .collect();
        let n = self.seen.len() + new.len();
        (n <= DISTINCT_LIMIT).then_some(n as u64)
    }
}

impl PartialEq for Distinct {
    fn eq(&self, other: &Distinct) -> bool {
        self.hashes() == other.hashes()
    }
}

impl Eq for Distinct {}

/// Running totals of whole games, read from games.csv rows: results, plies and endings, as
/// integer sums so that the totals do not depend on the order the games were added in, in memory
/// that does not grow with the number of games but for the distinct games' hashes (at most
/// [`DISTINCT_LIMIT`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games added.
    pub games: u64,
    /// Games by winner: South, North, draw, none (cut at the ply limit or rules silent).
    pub winners: [u64; 4],
    /// Sum of plies.
    pub plies: u128,
    /// Sum of the squares of plies.
    pub plies_sq: u128,
    /// The most plies of a game.
    pub max_plies: u32,
    /// Games by `end_clause`.
    pub ends: BTreeMap<String, u64>,
    /// The distinct games, by the hash of their moves.
    pub distinct: Distinct,
}

/// The `winner` values, in the order of [`Summary::winners`].
pub const WINNERS: [&str; 4] = ["South", "North", "draw", "none"];

/// A `winner` column that is not one of [`WINNERS`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("winner {} (known: South, North, draw, none)", crate::text::quoted(.0))]
pub struct UnknownWinner(pub String);

/// The first line of summary.csv.
pub const SUMMARY_HEADER: &str = "metric,value,ci_low,ci_high";

impl Summary {
    /// Adds a game by its `winner`, `end_clause`, `plies` and `moves_hash` columns (`None`: a
    /// row without the hash); an unknown winner is an error.
    pub fn add(
        &mut self,
        winner: &str,
        end_clause: &str,
        plies: u32,
        moves_hash: Option<u64>,
    ) -> Result<(), UnknownWinner> {
        let w = WINNERS
            .iter()
            .position(|&x| x == winner)
            .ok_or_else(|| UnknownWinner(winner.to_string()))?;
        self.winners[w] += 1;
        self.games += 1;
        if let Some(n) = self.ends.get_mut(end_clause) {
            *n += 1;
        } else {
            self.ends.insert(end_clause.to_string(), 1);
        }
        self.plies += u128::from(plies);
        self.plies_sq += u128::from(plies) * u128::from(plies);
        self.max_plies = self.max_plies.max(plies);
        self.distinct.add(moves_hash);
        Ok(())
    }

    /// Adds the games of another summary.
    pub fn merge(&mut self, other: &Summary) {
        self.games += other.games;
        for (a, b) in self.winners.iter_mut().zip(other.winners) {
            *a += b;
        }
        self.plies += other.plies;
        self.plies_sq += other.plies_sq;
        self.max_plies = self.max_plies.max(other.max_plies);
        for (clause, &n) in &other.ends {
            *self.ends.entry(clause.clone()).or_default() += n;
        }
        self.distinct.merge(&other.distinct);
    }

    /// Games that repeat the moves of a game before them, if the distinct games were counted.
    pub fn repeated_games(&self) -> Option<u64> {
        self.distinct.count().map(|d| self.games - d)
    }

    /// The warning for a study whose games repeat often (more than one in ten repeats a game
    /// before it), as a deterministic policy playing itself does; `None` otherwise or when not
    /// counted. Repeats alone are no fault: short random games coincide by chance. It says what
    /// was found; what to do depends on the job (its opening and ply limit), and its caller
    /// says it.
    pub fn repeated_warning(&self) -> Option<String> {
        let repeated = self.repeated_games().filter(|&r| r * 10 > self.games)?;
        Some(format!(
            "only {} of the {} games are distinct ({repeated} repeat a game before them): the \
             policies play the same few games again and again, so the rates describe those \
             games (the intervals count each game as an independent draw among them)",
            self.games - repeated,
            self.games
        ))
    }

    /// Mean plies with its 95% interval (none over no games, no interval over one).
    pub fn mean_plies(&self) -> Option<(f64, Option<(f64, f64)>)> {
        mean_ci_of_sums(self.games, self.plies, self.plies_sq)
    }

    /// The summary.csv rows: counts as integers, rates with Wilson 95% intervals, the mean plies
    /// with a normal 95% interval.
    pub fn rows(&self) -> Vec<SummaryRow> {
        let n = self.games;
        let count = |metric: &str, k: u64| SummaryRow::count(metric, k);
        // Over no games a rate is no number; its interval is the whole range.
        let rate = |metric: String, k: u64| {
            let (value, ci_low, ci_high) = wilson(k, n);
            SummaryRow {
                metric,
                value: if n == 0 {
                    Value::Undefined
                } else {
                    Value::Rate(value)
                },
                interval: Some((ci_low, ci_high)),
            }
        };
        let mut out = vec![count("games", n)];
        // Counts of distinct and repeated games, or empty cells where they were not counted.
        for (metric, k) in [
            ("distinct_games", self.distinct.count()),
            ("repeated_games", self.repeated_games()),
        ] {
            out.push(match k {
                Some(k) => count(metric, k),
                None => SummaryRow {
                    metric: metric.into(),
                    value: Value::NotCounted,
                    interval: None,
                },
            });
        }
        for (who, &k) in ["south_wins", "north_wins", "draws", "no_winner"]
            .iter()
            .zip(&self.winners)
        {
            out.push(count(who, k));
        }
        for (who, &k) in [
            "south_win_rate",
            "north_win_rate",
            "draw_rate",
            "no_winner_rate",
        ]
        .iter()
        .zip(&self.winners)
        {
            out.push(rate(who.to_string(), k));
        }
        let mean = self.mean_plies();
        out.push(SummaryRow {
            metric: "mean_plies".into(),
            value: mean.map_or(Value::Undefined, |(m, _)| Value::Rate(m)),
            interval: mean.and_then(|(_, interval)| interval),
        });
        out.push(count("max_plies", u64::from(self.max_plies)));
        for (clause, &k) in &self.ends {
            out.push(rate(format!("ended_by_{clause}"), k));
        }
        out
    }

    /// summary.csv: `metric,value,ci_low,ci_high`.
    pub fn csv(&self) -> String {
        let mut text = format!("{SUMMARY_HEADER}\n");
        for r in self.rows() {
            text.push_str(&r.csv_line());
        }
        text
    }
}

/// A summary value: a count (written as an integer) or a rate or mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A whole number.
    Count(u64),
    /// A rate (0 to 1) or a mean.
    Rate(f64),
    /// A rate or mean over no games: written as an empty cell.
    Undefined,
    /// A count not made (the distinct games past [`DISTINCT_LIMIT`], or of rows without their
    /// hash): written as an empty cell.
    NotCounted,
}

/// One line of summary.csv.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// What is measured.
    pub metric: String,
    /// Its value.
    pub value: Value,
    /// The 95% interval (the count itself for a count); none for a mean over fewer than two
    /// games, written as empty cells.
    pub interval: Option<(f64, f64)>,
}

impl SummaryRow {
    fn count(metric: &str, k: u64) -> SummaryRow {
        SummaryRow {
            metric: metric.into(),
            value: Value::Count(k),
            interval: Some((k as f64, k as f64)),
        }
    }

    /// The row's CSV line, with its newline.
    pub fn csv_line(&self) -> String {
        let interval = self
            .interval
            .map_or(",".to_string(), |(low, high)| format!("{low},{high}"));
        match self.value {
            Value::Count(k) => format!("{},{k},{k},{k}\n", self.metric),
            Value::Rate(v) => format!("{},{v},{interval}\n", self.metric),
            Value::Undefined | Value::NotCounted => format!("{},,{interval}\n", self.metric),
        }
    }

    /// The row for a terminal: counts as integers, rates and means to four places.
    pub fn display(&self) -> String {
        match (self.value, self.interval) {
            (Value::Count(k), _) => format!("{}: {k}", self.metric),
            (Value::Rate(v), Some((low, high))) => {
                format!("{}: {v:.4} [{low:.4}, {high:.4}]", self.metric)
            }
            (Value::Rate(v), None) => format!("{}: {v:.4} (one game: no interval)", self.metric),
            (Value::Undefined, Some((low, high))) => {
                format!("{}: none (no games) [{low:.4}, {high:.4}]", self.metric)
            }
            (Value::Undefined, None) => format!("{}: none (no games)", self.metric),
            (Value::NotCounted, _) => format!(
                "{}: not counted (past {DISTINCT_LIMIT} distinct games, or rows without \
                 moves_hash)",
                self.metric
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_the_textbook_values() {
        // 50 of 100: 0.5 with a 95% Wilson interval of about [0.4038, 0.5962].
        let (p, lo, hi) = wilson(50, 100);
        assert_eq!(p, 0.5);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        // 0 of 10: upper end 0.2775.
        let (_, lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.2775).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn mean_interval_from_sums_of_known_sample() {
        // 1..=5 again, as count 5, sum 15, sum of squares 55.
        let (m, Some((lo, hi))) = mean_ci_of_sums(5, 15, 55).unwrap() else {
            panic!("no interval over 5 values")
        };
        assert!((m - 3.0).abs() < 1e-12);
        assert!((hi - m - 1.3859).abs() < 1e-4 && (m - lo - 1.3859).abs() < 1e-4);
        assert_eq!(mean_ci_of_sums(1, 7, 49), Some((7.0, None)));
        assert_eq!(mean_ci_of_sums(0, 0, 0), None);
    }

    #[test]
    fn summaries_count_results_plies_and_endings() {
        let mut t = Summary::default();
        t.add("South", "O.6.1", 10, Some(1)).unwrap();
        t.add("North", "O.6.1", 20, Some(2)).unwrap();
        t.add("draw", "O.5.2", 30, Some(1)).unwrap();
        t.add("none", "ply-limit", 40, Some(3)).unwrap();
        assert!(t.add("south", "O.6.1", 1, Some(4)).is_err());
        assert_eq!(t.winners, [1, 1, 1, 1]);
        assert_eq!(
            t.ends
                .iter()
                .map(|(c, &n)| (c.as_str(), n))
                .collect::<Vec<_>>(),
            [("O.5.2", 1), ("O.6.1", 2), ("ply-limit", 1)]
        );
        assert_eq!(
            (t.games, t.plies, t.plies_sq, t.max_plies),
            (4, 100, 3000, 40)
        );
        assert!((t.mean_plies().unwrap().0 - 25.0).abs() < 1e-12);
        let csv = t.csv();
        assert!(csv.contains("\ngames,4,4,4\n"), "{csv}");
        assert!(csv.contains("\nmax_plies,40,40,40\n"), "{csv}");
        // Hashes 1, 2, 1, 3: three distinct games, one repeat, and a warning that says so.
        assert!(
            csv.contains("\ndistinct_games,3,3,3\nrepeated_games,1,1,1\n"),
            "{csv}"
        );
        let warning = t.repeated_warning().unwrap();
        assert!(
            warning.starts_with("only 3 of the 4 games are distinct (1 repeat"),
            "{warning}"
        );
        // What to do depends on the job's options: its caller says it.
        assert!(!warning.contains("--"), "{warning}");
    }

    #[test]
    fn distinct_games_are_counted_across_merges_and_left_out_when_unknown() {
        let (mut a, mut b) = (Summary::default(), Summary::default());
        for h in [1, 2, 3] {
            a.add("South", "O.6.1", 10, Some(h)).unwrap();
        }
        for h in [3, 4] {
            b.add("North", "O.6.1", 10, Some(h)).unwrap();
        }
        assert_eq!(a.repeated_warning(), None);
        a.merge(&b);
        // Game 3 of the second shard repeats one of the first.
        assert_eq!((a.distinct.count(), a.repeated_games()), (Some(4), Some(1)));
        // A row without a hash (an older games.csv): not counted, the cells left empty.
        b.add("draw", "O.5.2", 10, None).unwrap();
        a.merge(&b);
        assert_eq!((a.distinct.count(), a.repeated_warning()), (None, None));
        assert!(
            a.csv().contains("\ndistinct_games,,,\nrepeated_games,,,\n"),
            "{}",
            a.csv()
        );
        // A repeat now and then (short random games coincide by chance) is no warning.
        let mut few = Summary::default();
        for h in [1, 2, 3, 4, 5, 6, 7, 8, 9, 9] {
            few.add("South", "O.6.1", 10, Some(h)).unwrap();
        }
        assert_eq!(
            (few.repeated_games(), few.repeated_warning()),
            (Some(1), None)
        );
        few.add("South", "O.6.1", 10, Some(9)).unwrap();
        assert!(few.repeated_warning().is_some());
        // Exact up to the limit, then given up.
        let mut d = Distinct::default();
        for h in 0..DISTINCT_LIMIT as u64 {
            d.add(Some(h));
        }
        d.add(Some(7));
        assert_eq!(d.count(), Some(DISTINCT_LIMIT as u64));
        d.add(Some(u64::MAX));
        assert_eq!(d.count(), None);
        // Its memory is freed once the hashes pending go into the set (a merge, or many more).
        let mut merged = Distinct::default();
        merged.merge(&d);
        assert_eq!(merged.count(), None);
        assert_eq!((merged.seen.capacity(), merged.pending.capacity()), (0, 0));
    }

    #[test]
    fn a_rate_over_no_games_has_the_whole_range_as_its_interval() {
        assert_eq!(wilson(0, 0), (0.0, 0.0, 1.0));
        let rows = Summary::default().rows();
        let rate = rows.iter().find(|r| r.metric == "south_win_rate").unwrap();
        assert_eq!(
            rate.display(),
            "south_win_rate: none (no games) [0.0000, 1.0000]"
        );
        assert_eq!(rate.csv_line(), "south_win_rate,,0,1\n");
        // A mean over no games is no number, and one game gives no interval.
        let mean = rows.iter().find(|r| r.metric == "mean_plies").unwrap();
        assert_eq!(mean.csv_line(), "mean_plies,,,\n");
        assert_eq!(mean.display(), "mean_plies: none (no games)");
        let mut one = Summary::default();
        one.add("South", "O.6.1", 12, Some(1)).unwrap();
        let rows = one.rows();
        let mean = rows.iter().find(|r| r.metric == "mean_plies").unwrap();
        assert_eq!(mean.csv_line(), "mean_plies,12,,\n");
    }

    #[test]
    fn wilson_bounds_are_exact_at_the_ends_and_hold_the_estimate() {
        for n in [1u64, 7, 1000, 10_000_000] {
            assert_eq!(wilson(0, n).1, 0.0);
            assert_eq!(wilson(n, n).2, 1.0);
            for k in [0, 1, n / 2, n - 1, n] {
                let (p, lo, hi) = wilson(k, n);
                assert!(lo <= p && p <= hi, "{k}/{n}: {lo} {p} {hi}");
            }
        }
    }
}
