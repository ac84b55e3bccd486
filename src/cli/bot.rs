//! `mancala-lab bot`: a policy of ours behind the line protocol of [`mancala_lab::bot`], on
//! standard input and output.

use std::process::ExitCode;

use clap::Args;
use mancala_lab::playout::{EngineKind, Playouts};
use mancala_lab::policy::Policy;
use mancala_lab::registry::GameKind;
use mancala_lab::registry::{with_engine, EngineVisitor};
use mancala_lab::text::quoted;

/// Options of `bot`.
#[derive(Args)]
pub struct BotArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: GameKind,
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("The reading ({})", mancala_lab::registry::readings_help()))]
    variant: Option<String>,
    /// The policy that plays (as `stats --policy`).
    #[arg(long, default_value = "mcts")]
    policy: Policy,
    /// Seed of the policy's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The longest a search of one `go` runs, in milliseconds, whatever its budget (1 to
    /// 3600000): it then answers with the best move found so far.
    #[arg(long, default_value_t = mancala_lab::bot::DEFAULT_MAX_MS,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(mancala_lab::policy::MAX_MS)))]
    max_ms: u32,
}

/// Runs `visitor` with the optimized engine of the game and reading, or the reference engine
/// for a reading only it plays (one that leaves points open); or says why there is none.
fn with_bot_engine<V: EngineVisitor + Copy>(
    args: &BotArgs,
    visitor: V,
) -> Result<V::Output, String> {
    let variant = args
        .variant
        .as_deref()
        .unwrap_or(args.game.default_variant());
    with_engine(args.game, variant, EngineKind::Optimized, visitor)
        .or_else(|_| with_engine(args.game, variant, EngineKind::Reference, visitor))
        .map_err(|e| format!("--variant {}: {e}", quoted(variant)))
}

/// What `bot` refuses before it serves (also for `--parse-only`).
pub fn check(args: &BotArgs) -> Result<(), String> {
    #[derive(Clone, Copy)]
    struct Check;
    impl EngineVisitor for Check {
        type Output = ();
        fn visit<G: Playouts>(self, _: G) {}
    }
    with_bot_engine(args, Check)
}

pub fn run(args: BotArgs) -> Result<ExitCode, String> {
    /// Serves the protocol on standard input and output with the engine given.
    #[derive(Clone, Copy)]
    struct Serve(Policy, u64, u32);
    impl EngineVisitor for Serve {
        type Output = Result<(), mancala_lab::bot::ServeError>;
        fn visit<G: Playouts>(self, engine: G) -> Self::Output {
            let input = std::io::BufReader::new(std::io::stdin());
            let output = std::io::stdout().lock();
            mancala_lab::bot::serve(&engine, self.0, self.1, self.2, input, output)
        }
    }
    use mancala_lab::bot::ServeError;
    match with_bot_engine(&args, Serve(args.policy, args.seed, args.max_ms))? {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(ServeError::Policy(e)) => Err(e),
        // The other program went away: nothing more to answer.
        Err(ServeError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Ok(ExitCode::SUCCESS)
        }
        Err(ServeError::Io(e)) => Err(format!("bot: {e}")),
    }
}
