//! Ratings from the results of a round robin: a Bradley-Terry fit by Hunter's MM algorithm, on
//! the Elo scale relative to the first player, with 95% intervals from the Fisher information.

/// Points a player scores for a draw (and for a game without a winner).
pub const DRAW: f64 = 0.5;
/// Elo points per natural-log unit of strength: 400 / ln 10.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;
/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A player's rating: Elo relative to the first player (who is 0) and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimate.
    pub elo: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

/// Why no ratings can be fitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// Fewer than two players, or tables not square and of one size.
    #[error("ratings need at least two players and square tables of one size")]
    Shape,
    /// A player who played nobody.
    #[error("player {0} played no game")]
    NoGames(usize),
}

/// Ratings of the players from `points[i][j]` (what player `i` scored against `j`: 1 a win, a
/// half a draw) and `games[i][j]` (games between them, both sides counted, `games[i][j] ==
/// games[j][i]`). Each pair that played gets one virtual draw (half a point each), so that a
/// player who won or lost every game still has a finite rating: a weak prior, as BayesElo's.
pub fn bradley_terry(points: &[Vec<f64>], games: &[Vec<f64>]) -> Result<Vec<Rating>, RatingError> {
    let k = points.len();
    if k < 2 || games.len() != k || points.iter().chain(games).any(|r| r.len() != k) {
        return Err(RatingError::Shape);
    }
    let n = |i: usize, j: usize| {
        if i == j || games[i][j] <= 0.0 {
            0.0
        } else {
            games[i][j] + 1.0
        }
    };
    let won: Vec<f64> = (0..k)
        .map(|i| {
            (0..k)
                .filter(|&j| n(i, j) > 0.0)
                .map(|j| points[i][j] + DRAW)
                .sum()
        })
        .collect();
    if let Some(i) = (0..k).find(|&i| (0..k).all(|j| n(i, j) == 0.0)) {
        return Err(RatingError::NoGames(i));
    }
    // MM updates (Hunter 2004): p_i = W_i / sum_j n_ij / (p_i + p_j), scaled so that p_0 = 1.
    let mut p = vec![1.0f64; k];
    for _ in 0..100_000 {
        let mut next: Vec<f64> = (0..k)
            .map(|i| {
                let d: f64 = (0..k).map(|j| n(i, j) / (p[i] + p[j])).sum();
                won[i] / d
            })
            .collect();
        let first = next[0];
        next.iter_mut().for_each(|x| *x /= first);
        let change = (0..k)
            .map(|i| (next[i].ln() - p[i].ln()).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    // The Fisher information of the log-strengths, the first fixed at 0: its inverse is the
    // covariance of the others.
    let m = k - 1;
    let mut info = vec![vec![0.0; m]; m];
    for i in 1..k {
        for j in 0..k {
            let w = n(i, j) * p[i] * p[j] / (p[i] + p[j]).powi(2);
            info[i - 1][i - 1] += w;
            if j > 0 && j != i {
                info[i - 1][j - 1] -= w;
            }
        }
    }
    let cov = invert(info);
    Ok((0..k)
        .map(|i| {
            let elo = ELO * p[i].ln();
            let half = if i == 0 {
                0.0
            } else {
                Z95 * ELO * cov[i - 1][i - 1].max(0.0).sqrt()
            };
            Rating {
                elo,
                low: elo - half,
                high: elo + half,
            }
        })
        .collect())
}

/// The inverse of a symmetric positive definite matrix, by Gauss-Jordan elimination.
fn invert(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for c in 0..m {
        let pivot = (c..m)
            .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
            .unwrap_or(c);
        a.swap(c, pivot);
        inv.swap(c, pivot);
        let d = a[c][c];
        for j in 0..m {
            a[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in 0..m {
            if r != c {
                let f = a[r][c];
                for j in 0..m {
                    a[r][j] -= f * a[c][j];
                    inv[r][j] -= f * inv[c][j];
                }
            }
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two players, worked by hand: A scores 3 of 4 against B; with the virtual draw, 3.5 of 5,
    /// so B's strength is 1.5/3.5 of A's: 400 log10(3/7) = -147.19 Elo. The information of B's
    /// log-strength is 5 * 0.7 * 0.3 = 1.05, so the interval is +-1.96 * 173.72 / sqrt(1.05).
    #[test]
    fn two_players_match_the_closed_form() {
        let r = bradley_terry(
            &[vec![0.0, 3.0], vec![1.0, 0.0]],
            &[vec![0.0, 4.0], vec![4.0, 0.0]],
        )
        .unwrap();
        assert_eq!(
            r[0],
            Rating {
                elo: 0.0,
                low: 0.0,
                high: 0.0
            }
        );
        assert!((r[1].elo - -147.19).abs() < 0.01, "{:?}", r[1]);
        let half = 1.959964 * 173.7178 / 1.05f64.sqrt();
        assert!(
            (r[1].high - r[1].elo - half).abs() < 0.01,
            "{:?} {half}",
            r[1]
        );
        assert!((r[1].elo - r[1].low - half).abs() < 0.01, "{:?}", r[1]);
    }

    /// Three players of equal results are rated equal; a player who wins every game is rated
    /// above, finitely.
    #[test]
    fn equal_results_give_equal_ratings_and_a_sweep_stays_finite() {
        let g = vec![
            vec![0.0, 10.0, 10.0],
            vec![10.0, 0.0, 10.0],
            vec![10.0, 10.0, 0.0],
        ];
        let even = vec![
            vec![0.0, 5.0, 5.0],
            vec![5.0, 0.0, 5.0],
            vec![5.0, 5.0, 0.0],
        ];
        for r in bradley_terry(&even, &g).unwrap() {
            assert!(r.elo.abs() < 1e-6, "{r:?}");
        }
        let sweep = vec![
            vec![0.0, 0.0, 5.0],
            vec![10.0, 0.0, 10.0],
            vec![5.0, 0.0, 0.0],
        ];
        let r = bradley_terry(&sweep, &g).unwrap();
        assert!(r[1].elo > 300.0 && r[1].elo.is_finite(), "{r:?}");
        assert!(r[2].elo.abs() < 1e-6, "{r:?}");
        assert!(r[1].low > 0.0, "{r:?}");
    }

    #[test]
    fn a_player_without_games_is_an_error() {
        let z = vec![vec![0.0; 3]; 3];
        let mut g = z.clone();
        g[0][1] = 2.0;
        g[1][0] = 2.0;
        assert_eq!(bradley_terry(&z, &g), Err(RatingError::NoGames(2)));
        assert_eq!(
            bradley_terry(&[vec![0.0]], &[vec![0.0]]),
            Err(RatingError::Shape)
        );
    }
}
