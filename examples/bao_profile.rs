//! The optimized Bao engine's random playouts alone (the games `bench` and the stats job play),
//! as a target for profilers; prints what an average ply does.
//! Usage: bao_profile [GAMES] [SEED] [--playouts-only] (the last: skip the counting pass)
use mancala_lab::bao::fast::{FastRules, FastState};
use mancala_lab::bao::variant::Variant;
use mancala_lab::game::{game_keys, Draw};
use mancala_lab::playout::DEFAULT_MAX_PLIES;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let count = args.next().as_deref() != Some("--playouts-only");
    let fast = FastRules::new(Variant::DEFAULT).expect("the default reading decides every point");
    // The playouts a profiler measures: `random_playout`, as `bench` times it.
    let start = std::time::Instant::now();
    let mut plies = 0u64;
    for game in 0..games {
        plies += u64::from(
            fast.random_playout(game_keys(seed, game), DEFAULT_MAX_PLIES)
                .0,
        );
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!("games: {games} (seed {seed}), plies: {plies}");
    println!(
        "time: {:.1} ns a ply (wall clock, this run)",
        elapsed * 1e9 / plies as f64
    );
    if !count {
        return;
    }
    // The same games again, counting what their moves did.
    let (mut sowings, mut relays, mut harvests) = (0u64, 0u64, 0u64);
    for game in 0..games {
        let keys = game_keys(seed, game);
        let mut s = FastState::new(FastRules::start());
        for ply in 0..DEFAULT_MAX_PLIES {
            let draw = Draw::new(keys, ply);
            let Some((_, played)) = fast.random_move_with(&s, |n, a| draw.below(n, a)) else {
                break;
            };
            sowings += u64::from(played.path.sowings);
            relays += u64::from(played.path.relays);
            harvests += u64::from(played.harvests);
            s = played.state;
        }
    }
    let per_ply = |n: u64| n as f64 / plies as f64;
    println!(
        "a ply on average: {:.2} sowings, of which {:.2} relay sowings; {:.2} harvests",
        per_ply(sowings),
        per_ply(relays),
        per_ply(harvests)
    );
}
