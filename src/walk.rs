//! Random walks from a game's start, shared by the per-game position mutators: the reachable
//! positions they then change.

use rand::Rng;

/// Plays a random number (0 to `max_plies - 1`) of uniformly random legal moves from `start`,
/// stopping early when no move is legal or a move is refused; returns the state reached.
pub fn random_prefix<S, M: Copy, R: Rng>(
    start: S,
    max_plies: u32,
    legal: impl Fn(&S) -> Vec<M>,
    play: impl Fn(&S, M) -> Option<S>,
    rng: &mut R,
) -> S {
    let mut state = start;
    for _ in 0..rng.gen_range(0..max_plies) {
        let moves = legal(&state);
        if moves.is_empty() {
            break;
        }
        match play(&state, moves[rng.gen_range(0..moves.len())]) {
            Some(next) => state = next,
            None => break,
        }
    }
    state
}
