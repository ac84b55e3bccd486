//! `mancala-lab oware ...`: the start position, legal moves, playing, replaying, explaining and
//! drawing Oware moves.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use mancala_lab::oware::notation::transcript_moves;
use mancala_lab::oware::rules::Verdict;
use mancala_lab::oware::{Game, Move, Position, Rules, Side, Variant};
use mancala_lab::text::quoted;

use super::read_input;

#[derive(Args, Clone)]
pub struct OwareRuleArgs {
    /// Rule reading: sheet (our reading of the rules sheet) or abapa (OpenSpiel's oware).
    #[arg(long, default_value = "sheet")]
    variant: String,
}

impl OwareRuleArgs {
    fn rules(&self) -> Result<Rules, String> {
        let v: Variant = self
            .variant
            .parse()
            .map_err(|e| format!("--variant: {e}"))?;
        Ok(Rules::new(v))
    }
}

#[derive(Subcommand)]
pub enum OwareCommand {
    /// Print the start position in the position text format.
    Start {
        #[command(flatten)]
        rules: OwareRuleArgs,
    },
    /// List the legal moves of a position, one letter per line.
    Moves {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        #[command(flatten)]
        rules: OwareRuleArgs,
    },
    /// Play moves from a position and print the resulting position.
    Play {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        /// Move letters: A-F for South, a-f for North.
        #[arg(required = true)]
        moves: Vec<String>,
        #[command(flatten)]
        rules: OwareRuleArgs,
    },
    /// Replay a transcript from the start position; print the final position and the result.
    Replay {
        /// Transcript file ('-' reads standard input).
        file: std::path::PathBuf,
        #[command(flatten)]
        rules: OwareRuleArgs,
    },
    /// Show the clause trace of one move.
    Explain {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        /// The move letter.
        r#move: String,
        /// Also draw the move on the board as SVG to this file (a file, not '-': standard
        /// output holds the trace).
        #[arg(long)]
        svg: Option<std::path::PathBuf>,
        #[command(flatten)]
        rules: OwareRuleArgs,
    },
    /// Draw a position as SVG (pits, scores, the player to move); with --move, the move's sowing
    /// and captures on it and its steps with their clauses.
    Diagram {
        /// Position file ('-' reads standard input).
        #[arg(long)]
        position: std::path::PathBuf,
        /// A move letter whose sowing is drawn.
        #[arg(long = "move")]
        r#move: Option<String>,
        /// The SVG file to write ('-': standard output).
        #[arg(long)]
        out: std::path::PathBuf,
        #[command(flatten)]
        rules: OwareRuleArgs,
    },
}

fn load(rules: &Rules, path: &std::path::Path) -> Result<Game, String> {
    let text = super::position_input(path)?;
    let pos = Position::parse(&text).map_err(|e| format!("{}: {e}", super::input_name(path)))?;
    Ok(rules.game_from(pos))
}

/// A written move's side and pit, or why it is not one letter A-F or a-f.
fn move_letter(written: &str) -> Result<(Side, Move), String> {
    let mut chars = written.chars();
    match (chars.next().and_then(Move::from_letter), chars.next()) {
        (Some(x), None) => Ok(x),
        _ => Err(format!(
            "{}: expected one move letter A-F (South) or a-f (North)",
            quoted(written)
        )),
    }
}

/// What an `oware` command refuses before reading its position (also for `--parse-only`): a
/// move that is not a letter, and an SVG file that is the position or, beside a trace, `-`.
pub fn check(cmd: &OwareCommand) -> Result<(), String> {
    match cmd {
        OwareCommand::Play { moves, .. } => moves.iter().try_for_each(|m| move_letter(m).map(drop)),
        OwareCommand::Explain {
            position,
            r#move,
            svg,
            ..
        } => {
            move_letter(r#move)?;
            super::diagram::svg_beside_trace(svg.as_deref(), position)
        }
        OwareCommand::Diagram {
            position,
            r#move,
            out,
            ..
        } => {
            r#move.as_deref().map(move_letter).transpose()?;
            super::diagram::not_an_input("--out", out, position)
        }
        _ => Ok(()),
    }
}

fn parse_move(g: &Game, written: &str) -> Result<Move, String> {
    let (side, mv) = move_letter(written)?;
    if side != g.position().to_move() {
        return Err(format!(
            "'{written}' is a pit of {side}, but {} is to move",
            g.position().to_move()
        ));
    }
    Ok(mv)
}

fn result_line(g: &Game) -> String {
    match g.outcome() {
        Some(o) => {
            let who = match (o.verdict, o.winner) {
                (Verdict::RulesSilent, _) => "stopped, the rules are silent here,",
                (_, Some(Side::South)) => "South wins",
                (_, Some(Side::North)) => "North wins",
                (_, None) => "draw",
            };
            format!(
                "# result: {who} {}-{} (oware {})",
                o.scores[0], o.scores[1], o.clause
            )
        }
        None => format!(
            "# result: game in progress, {} to move",
            g.position().to_move()
        ),
    }
}

pub fn run(cmd: OwareCommand) -> Result<ExitCode, String> {
    match cmd {
        OwareCommand::Start { rules } => print!("{}", rules.rules()?.new_game().position().print()),
        OwareCommand::Moves { position, rules } => {
            let rules = rules.rules()?;
            let g = load(&rules, &position)?;
            let side = g.position().to_move();
            for m in rules.legal_moves(&g) {
                println!("{}", m.letter(side));
            }
            if g.outcome().is_some() {
                eprintln!("no legal move: the game is over");
                eprintln!("{}", result_line(&g));
            }
        }
        OwareCommand::Play {
            position,
            moves,
            rules,
        } => {
            let rules = rules.rules()?;
            let mut g = load(&rules, &position)?;
            for (i, written) in moves.iter().enumerate() {
                let mv = parse_move(&g, written).map_err(|e| format!("move {}: {e}", i + 1))?;
                g = rules
                    .play(&g, mv)
                    .map_err(|e| format!("move {} {} is illegal: {e}", i + 1, quoted(written)))?
                    .game;
            }
            print!("{}", g.position().print());
            println!("{}", result_line(&g));
        }
        OwareCommand::Replay { file, rules } => {
            let rules = rules.rules()?;
            let text = read_input(&file)?;
            let file = super::input_name(&file);
            super::line_ends(&file, &text)?;
            let mut g = rules.new_game();
            // Read as played: the first fault, in the text or in play, ends the replay.
            for (i, w) in transcript_moves(&text).enumerate() {
                let w = w.map_err(|e| format!("{file}: {e}"))?;
                let letter = w.mv.letter(w.side);
                let place = format!(
                    "{file}: line {}, column {}: ply {} '{letter}'",
                    w.line,
                    w.column,
                    i + 1
                );
                // A finished game takes no move, whoever's letter it is: the play below says so
                // with its clause.
                if g.outcome().is_none() && w.side != g.position().to_move() {
                    return Err(format!("{place}: {} is to move", g.position().to_move()));
                }
                g = rules
                    .play(&g, w.mv)
                    .map_err(|e| format!("{place} is illegal: {e}"))?
                    .game;
            }
            print!("{}", g.position().print());
            println!("{}", result_line(&g));
        }
        OwareCommand::Explain {
            position,
            r#move,
            svg,
            rules,
        } => {
            super::diagram::svg_beside_trace(svg.as_deref(), &position)?;
            let rules = rules.rules()?;
            let g = load(&rules, &position)?;
            let mv = parse_move(&g, &r#move)?;
            let played = rules
                .play(&g, mv)
                .map_err(|e| format!("{} is illegal: {e}", quoted(&r#move)))?;
            // The drawing is written before the trace is printed: a --svg that cannot be
            // written fails the command with nothing printed.
            if let Some(out) = &svg {
                let picture = diagram(&g, Some((&r#move, mv, &played)))?;
                super::diagram::write_svg_file("--svg", out, &picture)?;
            }
            println!("{} by {}", r#move, g.position().to_move());
            for step in &played.trace {
                println!("  {step}");
            }
            println!("resulting position:");
            print!("{}", played.game.position().print());
            println!("{}", result_line(&played.game));
            if let Some(out) = svg {
                eprintln!("wrote {}", out.display());
            }
        }
        OwareCommand::Diagram {
            position,
            r#move,
            out,
            rules,
        } => {
            super::diagram::not_an_input("--out", &out, &position)?;
            let rules = rules.rules()?;
            let g = load(&rules, &position)?;
            match r#move {
                None => super::diagram::write_svg(&out, &diagram(&g, None)?)?,
                Some(written) => {
                    let mv = parse_move(&g, &written)?;
                    let played = rules
                        .play(&g, mv)
                        .map_err(|e| format!("{} is illegal: {e}", quoted(&written)))?;
                    let picture = diagram(&g, Some((&written, mv, &played)))?;
                    super::diagram::write_svg(&out, &picture)?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The SVG of the position of `g` and, if given, a move played from it.
fn diagram(
    g: &Game,
    played: Option<(&str, Move, &mancala_lab::oware::rules::Played)>,
) -> Result<String, String> {
    use mancala_lab::oware::diagram::{oware_svg, OwareMove};
    let p = g.position();
    let pits = p.pits();
    let scores = [p.score(Side::South), p.score(Side::North)];
    let svg = match played {
        None => oware_svg(
            &pits,
            scores,
            p.to_move(),
            &mancala_lab::oware::diagram::oware_title(g),
            None,
        )?,
        Some((written, mv, played)) => {
            let steps: Vec<(&'static str, String)> = played
                .trace
                .iter()
                .map(|s| (s.clause, s.text.clone()))
                .collect();
            let m = OwareMove {
                from: mv.index(p.to_move()),
                captured: played.captured,
                steps: &steps,
            };
            let title = format!("{} plays {written}", p.to_move());
            oware_svg(&pits, scores, p.to_move(), &title, Some(&m))?
        }
    };
    Ok(svg)
}
