//! `mancala-lab <game> ...`, the same commands for every registered game: the start position,
//! legal moves, playing, replaying, explaining and drawing moves, on the game's reference engine.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use mancala_lab::game::{Game, Verdict};
use mancala_lab::registry::GameKind;
use mancala_lab::registry::{
    with_game, EngineOf, GameVisitor, Mancala, MoveError, RefState, Shown,
};
use mancala_lab::text::quoted;

use super::read_input;

/// The rule reading of a game command.
#[derive(Args, Clone)]
pub struct RuleArgs {
    // The game's readings, listed by the registry.
    #[arg(long, help = format!("Rule reading, a preset of the game's spec ({})", mancala_lab::registry::readings_help()))]
    variant: Option<String>,
    /// Bao: what counts as an infinite move (1.5.6), 'exact' or 'sown:N' (overrides the
    /// variant's).
    #[arg(long)]
    infinite: Option<String>,
}

impl RuleArgs {
    /// The reading these options name in the game `M`.
    fn variant<M: Mancala>(&self) -> Result<M::Variant, String> {
        let preset = self.variant.as_deref().unwrap_or(M::DEFAULT_VARIANT);
        let mut v = M::variant(preset).map_err(|e| format!("--variant: {e}"))?;
        if let Some(inf) = &self.infinite {
            v = M::set(v, "infinite", inf).map_err(|e| format!("--infinite: {e}"))?;
        }
        Ok(v)
    }
}

/// The commands every game has.
#[derive(Subcommand)]
pub enum GameCommand {
    /// Print the start position in the position text format.
    Start {
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// List the legal moves of a position, one per line, in canonical notation.
    Moves {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Play moves from a position and print the resulting position and the result.
    Play {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: PathBuf,
        /// Moves in the game's notation (Bao: KIBA, e.g. A6<* a5>; Oware and Kalah: letters A-F
        /// for South, a-f for North).
        #[arg(required = true)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Replay a transcript from the start position; print the final position and the result.
    Replay {
        /// Transcript file ('-' reads standard input).
        file: PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Show the clause trace of one move: every step of it with its clause.
    Explain {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: PathBuf,
        /// The move in the game's notation.
        #[arg(allow_hyphen_values = true)]
        r#move: String,
        /// Also draw the move's path on the board as SVG to this file (a file, not '-': standard
        /// output holds the trace).
        #[arg(long)]
        svg: Option<PathBuf>,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Draw a position as SVG (pits, stores or scores, the player to move); with --move, the
    /// move's path on it, each step numbered with its clause.
    Diagram {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: PathBuf,
        /// A move in the game's notation whose path is drawn.
        #[arg(long = "move", allow_hyphen_values = true)]
        r#move: Option<String>,
        /// The SVG file to write ('-': standard output).
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        rules: RuleArgs,
    },
}

/// What a game command refuses before reading its position (also for `--parse-only`): a
/// reading the game does not have, a move not in its notation, and an SVG file that is the
/// position or, beside a trace, `-`.
pub fn check(game: GameKind, cmd: &GameCommand) -> Result<(), String> {
    struct Check<'a>(&'a GameCommand);
    impl GameVisitor for Check<'_> {
        type Output = Result<(), String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            check_in::<M>(self.0)
        }
    }
    with_game(game, Check(cmd))
}

fn check_in<M: Mancala>(cmd: &GameCommand) -> Result<(), String> {
    let written = |m: &str| M::check_move(m).map_err(|e| format!("move {}: {e}", quoted(m)));
    match cmd {
        GameCommand::Start { rules }
        | GameCommand::Moves { rules, .. }
        | GameCommand::Replay { rules, .. } => rules.variant::<M>().map(drop),
        GameCommand::Play { moves, rules, .. } => {
            rules.variant::<M>()?;
            moves.iter().try_for_each(|m| written(m))
        }
        GameCommand::Explain {
            position,
            r#move,
            svg,
            rules,
        } => {
            rules.variant::<M>()?;
            written(r#move)?;
            super::diagram::svg_beside_trace(svg.as_deref(), position)
        }
        GameCommand::Diagram {
            position,
            r#move,
            out,
            rules,
        } => {
            rules.variant::<M>()?;
            r#move.as_deref().map(written).transpose()?;
            super::diagram::not_an_input("--out", out, position)
        }
    }
}

/// Runs a game command.
pub fn run(game: GameKind, cmd: GameCommand) -> Result<ExitCode, String> {
    struct Run(GameCommand);
    impl GameVisitor for Run {
        type Output = Result<ExitCode, String>;
        fn visit<M: Mancala>(self) -> Self::Output {
            check_in::<M>(&self.0)?;
            run_in::<M>(self.0).map(|()| ExitCode::SUCCESS)
        }
    }
    with_game(game, Run(cmd))
}

fn run_in<M: Mancala>(cmd: GameCommand) -> Result<(), String> {
    match cmd {
        GameCommand::Start { rules } => {
            let engine = M::reference(rules.variant::<M>()?);
            print!("{}", text::<M>(&engine, &engine.start())?);
        }
        GameCommand::Moves { position, rules } => {
            let engine = M::reference(rules.variant::<M>()?);
            let state = load::<M>(&engine, &position)?;
            let mut moves = Vec::new();
            engine.legal_moves(&state, &mut moves);
            for mv in moves {
                println!("{}", engine.notation(&state, mv));
            }
            if engine.ending(&state).is_some() {
                eprintln!("no legal move: the game is over");
                eprintln!("{}", result_line::<M>(&engine, &state));
            }
        }
        GameCommand::Play {
            position,
            moves,
            rules,
        } => {
            let engine = M::reference(rules.variant::<M>()?);
            let mut state = load::<M>(&engine, &position)?;
            for (i, written) in moves.iter().enumerate() {
                let place = format!("move {} {}", i + 1, quoted(written));
                state = play::<M>(&engine, &state, written, &place)?.state;
            }
            print!("{}", text::<M>(&engine, &state)?);
            println!("{}", result_line::<M>(&engine, &state));
        }
        GameCommand::Replay { file, rules } => {
            let engine = M::reference(rules.variant::<M>()?);
            let text_in = read_input(&file)?;
            let file = super::input_name(&file);
            super::line_ends(&file, &text_in)?;
            // Read as played: the first fault, in the text or in play, ends the replay.
            let (state, _) = mancala_lab::registry::replay_transcript::<M>(&engine, &text_in)
                .map_err(|e| format!("{file}: {e}"))?;
            print!("{}", text::<M>(&engine, &state)?);
            println!("{}", result_line::<M>(&engine, &state));
        }
        GameCommand::Explain {
            position,
            r#move,
            svg,
            rules,
        } => {
            let engine = M::reference(rules.variant::<M>()?);
            let state = load::<M>(&engine, &position)?;
            let shown = play::<M>(&engine, &state, &r#move, &quoted(&r#move))?;
            // The drawing is written before the trace is printed: a --svg that cannot be
            // written fails the command with nothing printed.
            if let Some(out) = &svg {
                let picture = M::draw(&engine, &state, Some((shown.mv, &shown.notation)))
                    .map_err(|e| e.to_string())?;
                super::diagram::write_svg_file("--svg", out, &picture)?;
            }
            let stage = M::stage(&engine.position(&state)?)
                .map(|s| format!(" ({s})"))
                .unwrap_or_default();
            println!("{} by {}{stage}", shown.notation, engine.to_move(&state));
            for step in &shown.trace {
                println!("  {step}");
            }
            println!("resulting position:");
            print!("{}", text::<M>(&engine, &shown.state)?);
            println!("{}", result_line::<M>(&engine, &shown.state));
            if let Some(out) = svg {
                eprintln!("wrote {}", out.display());
            }
        }
        GameCommand::Diagram {
            position,
            r#move,
            out,
            rules,
        } => {
            let engine = M::reference(rules.variant::<M>()?);
            let state = load::<M>(&engine, &position)?;
            let shown = match &r#move {
                Some(written) => Some(play::<M>(&engine, &state, written, &quoted(written))?),
                None => None,
            };
            let mv = shown.as_ref().map(|s| (s.mv, s.notation.as_str()));
            let picture = M::draw(&engine, &state, mv).map_err(|e| e.to_string())?;
            super::diagram::write_svg(&out, &picture)?;
        }
    }
    Ok(())
}

/// The reference engine's state at the position in the file `path`.
fn load<M: Mancala>(engine: &M::Reference, path: &Path) -> Result<RefState<M>, String> {
    let text = super::position_input(path)?;
    engine
        .state_from_text(&text)
        .map_err(|e| format!("{}: {e}", super::input_name(path)))
}

/// `state` in the game's position text.
fn text<M: Mancala>(engine: &M::Reference, state: &RefState<M>) -> Result<String, String> {
    engine.position(state).map(|p| M::print(&p))
}

/// `written` played from `state`, or an error naming it as `place` does.
fn play<M: Mancala>(
    engine: &M::Reference,
    state: &RefState<M>,
    written: &str,
    place: &str,
) -> Result<Shown<M>, String> {
    M::play_written(engine, state, written).map_err(|e| match e {
        MoveError::Written(e) => format!("{place}: {e}"),
        MoveError::Illegal(e) => format!("{place} is illegal: {e}"),
    })
}

/// The `# result:` line of `state`: who won by which clause (with the scores, where the game
/// keeps them), or who is to move.
fn result_line<M: Mancala>(engine: &M::Reference, state: &RefState<M>) -> String {
    let Some(end) = engine.ending(state) else {
        return format!(
            "# result: game in progress, {} to move",
            engine.to_move(state)
        );
    };
    let who = match end.verdict {
        Verdict::RulesSilent => "stopped, the rules are silent here,".to_string(),
        Verdict::Win(side) => format!("{side} wins"),
        Verdict::Draw => "draw".to_string(),
    };
    let scores = if M::SCORED {
        let [s, n] = engine.scores(state);
        format!(" {s}-{n}")
    } else {
        String::new()
    };
    format!(
        "# result: {who}{scores} ({} {})",
        M::KIND.name(),
        end.clause
    )
}
