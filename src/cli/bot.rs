//! `mancala-lab bot`: a policy of ours behind the line protocol of [`mancala_lab::bot`], on
//! standard input and output.

use std::process::ExitCode;

use clap::Args;
use mancala_lab::game::GameKind;
use mancala_lab::playout::{AnyEngine, EngineKind};
use mancala_lab::policy::Policy;
use mancala_lab::text::quoted;

/// Options of `bot`.
#[derive(Args)]
pub struct BotArgs {
    /// The game.
    #[arg(long, value_enum)]
    game: GameKind,
    /// The reading (Bao: default, literal-en, engines; Oware: sheet, abapa) [default: the
    /// game's own].
    #[arg(long)]
    variant: Option<String>,
    /// The policy that plays (as `stats --policy`).
    #[arg(long, default_value = "mcts")]
    policy: Policy,
    /// Seed of the policy's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The optimized engine of the game and reading, or the reference engine for a reading only it
/// plays (one that leaves points open); or why there is none.
fn engine(args: &BotArgs) -> Result<AnyEngine, String> {
    let variant = args
        .variant
        .as_deref()
        .unwrap_or(args.game.default_variant());
    AnyEngine::new(args.game, variant, EngineKind::Optimized)
        .or_else(|_| AnyEngine::new(args.game, variant, EngineKind::Reference))
        .map_err(|e| format!("--variant {}: {e}", quoted(variant)))
}

/// What `bot` refuses before it serves (also for `--parse-only`).
pub fn check(args: &BotArgs) -> Result<(), String> {
    engine(args).map(drop)
}

pub fn run(args: BotArgs) -> Result<ExitCode, String> {
    let engine = engine(&args)?;
    let (input, output) = (std::io::stdin().lock(), std::io::stdout().lock());
    let (policy, seed) = (args.policy, args.seed);
    use mancala_lab::bot::serve;
    let served = match &engine {
        AnyEngine::BaoOptimized(e) => serve(e, policy, seed, input, output),
        AnyEngine::OwareOptimized(e, _) => serve(e, policy, seed, input, output),
        AnyEngine::BaoReference(e) => serve(e, policy, seed, input, output),
        AnyEngine::OwareReference(e) => serve(e, policy, seed, input, output),
    };
    match served {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The other program went away: nothing more to answer.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("bot: {e}")),
    }
}
