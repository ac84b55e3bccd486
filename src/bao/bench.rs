//! Bao's sections of `mancala-lab bench`: its engines under exact infinite-move detection and
//! under a seed-count bound, the stats job, and what exact detection costs a ply.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::bench::{shown, Bench, BenchPart, Parser};
use crate::game::game_keys;
use crate::playout::{play_game, DEFAULT_MAX_PLIES};
use crate::policy::Policy;

use super::fast::FastRules;
use super::variant::{InfiniteMoves, Variant};
use super::Rules;

/// A per-ply time difference below this share of the per-ply time is reported as noise.
const NOISE: f64 = 0.03;

/// What exact infinite-move detection costs a ply, from the per-ply times with exact detection and
/// with the 2000-seed bound; a difference within [`NOISE`] (or the wrong way) is called noise.
fn detection_cost(exact_ns: f64, bounded_ns: f64) -> String {
    let times = format!(
        "{} ns a ply exact, {} with the 2000-seed bound",
        shown(exact_ns, 0),
        shown(bounded_ns, 0)
    );
    let diff = exact_ns - bounded_ns;
    if !diff.is_finite() {
        format!("exact detection's cost was not measured ({times})")
    } else if diff <= NOISE * exact_ns.max(bounded_ns) {
        format!(
            "exact detection costs the optimized engine no measurable time: {times}, a difference \
             within the noise"
        )
    } else {
        format!(
            "exact detection costs the optimized engine {diff:.0} ns a ply on average ({times})"
        )
    }
}

/// The readings the engines are measured under, with their labels.
fn readings() -> [(&'static str, Variant); 2] {
    [
        ("exact infinite-move detection", Variant::DEFAULT),
        (
            "infinite = more than 2000 seeds sown",
            Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(2000)),
        ),
    ]
}

/// Bao's sections for `part`: under each reading, reference against optimized engine, the stats
/// job (default reading), the optimized engine listing every move; then what detection costs.
pub fn sections(b: &mut dyn Bench, part: BenchPart) {
    match part {
        BenchPart::Notes => {
            b.say(
                "(Bao optimized playouts simulate only the moves they draw; see \
                 FastRules::random_move)",
            );
            b.say(
                "(every line but the full-move-list one plays games 0.. of the seed, the same \
                 games)",
            );
            return;
        }
        BenchPart::Batch => return,
        BenchPart::Engines => {}
    }
    let seed = b.seed();
    let mut ply_ns = Vec::new();
    for (label, variant) in readings() {
        b.section(&format!("bao (default reading, {label}):"));
        let reference = Rules::new(variant);
        let fast = FastRules::new(variant).expect("the benchmarked readings decide every point");
        let Some((_, f, p)) = b.compare(
            &mut |i| {
                u64::from(
                    play_game(&reference, Policy::Random, seed, i, DEFAULT_MAX_PLIES)
                        .expect("random play needs no databases")
                        .0
                        .plies,
                )
            },
            &|i| u64::from(fast.random_playout(game_keys(seed, i), DEFAULT_MAX_PLIES).0),
        ) else {
            return;
        };
        if variant == Variant::DEFAULT {
            b.stats_line("", "default", p.games, p);
            if b.interrupted() {
                return;
            }
        }
        // The optimized engine listing every legal move each ply, as the reference does.
        let listed = b.measure(&mut |i| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(i);
            u64::from(fast.random_playout_listed(&mut rng, DEFAULT_MAX_PLIES).0)
        });
        if b.interrupted() {
            return;
        }
        b.line("optimized, full move list, 1 thread", listed);
        ply_ns.push(1e9 / f.plies_per_s);
    }
    if let [exact, bounded] = ply_ns[..] {
        b.say(&format!("  {}", detection_cost(exact, bounded)));
    }
}

/// The label and engine `bench`'s search lines measure the policies on (a bounded default
/// reading, so that no search meets an endless move).
pub fn search_engine() -> (&'static str, FastRules) {
    let bounded = Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(2000));
    (
        "bao (default reading)",
        FastRules::new(bounded).expect("a bounded default reading decides every point"),
    )
}

/// Bao's start position with row A holding `n` numbers: refused at the row's end.
fn position_row(n: usize) -> String {
    let start = super::position_text::print(&super::Position::start());
    start
        .lines()
        .map(|l| {
            if l.starts_with("A:") {
                format!("A: {}", "0 ".repeat(n))
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Bao's parsers that `bench --parsers` times.
pub fn parsers() -> Vec<Parser> {
    vec![
        (
            "bao transcript (a move pair a line)",
            |n| (1..=n / 2).map(|i| format!("{i}: A6<* a6<;\n")).collect(),
            |t| {
                super::transcript::Transcript::parse(t)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        ),
        (
            "bao transcript (a comment of N words)",
            |n| format!("1: A6<* a6<; {}\n", "word ".repeat(n)),
            |t| {
                super::transcript::Transcript::parse(t)
                    .map(drop)
                    .map_err(|e| e.to_string())
            },
        ),
        ("bao position (numbers on one row)", position_row, |t| {
            super::position_text::parse(t)
                .map(drop)
                .map_err(|e| e.to_string())
        }),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_within_the_noise_or_below_zero_is_called_noise() {
        assert_eq!(
            detection_cost(134.0, 115.0),
            "exact detection costs the optimized engine 19 ns a ply on average (134 ns a ply \
             exact, 115 with the 2000-seed bound)"
        );
        for (exact, bounded) in [(100.0, 184.0), (100.0, 99.0), (100.0, 100.0)] {
            let text = detection_cost(exact, bounded);
            assert!(text.contains("within the noise"), "{text}");
            assert!(!text.contains(" -"), "{text}");
        }
        let text = detection_cost(f64::NAN, f64::INFINITY);
        assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    }
}
