//! `mancala-lab --parse-only ...`: a command line checked without running it.

use mancala_lab::registry::GameKind;
use mancala_lab::registry::{with_game, GameVisitor, Mancala};

/// `--parse-only`: what clap takes as free text but the command would refuse before playing: the
/// reading (`--variant`) of the command's game, `--infinite` and `--shard`. `stats`, `diff` and
/// `audit` check their own (`check` in their modules), with the options that go with them.
pub fn check_values(matches: &clap::ArgMatches) -> Result<(), String> {
    if matches!(matches.subcommand_name(), Some("stats" | "diff" | "audit")) {
        return Ok(());
    }
    let (mut game, mut args) = (GameKind::default(), matches);
    while let Some((name, sub)) = args.subcommand() {
        if let Ok(named) = name.parse() {
            game = named;
        }
        args = sub;
    }
    let text = |id: &str| args.try_get_one::<String>(id).ok().flatten();
    if let Ok(Some(&chosen)) = args.try_get_one::<GameKind>("game") {
        game = chosen;
    }
    let reading = Reading {
        variant: text("variant").map(String::as_str),
        infinite: text("infinite").map(String::as_str),
        default: game.default_variant(),
    };
    with_game(game, reading)?;
    if let Some(shard) = text("shard") {
        mancala_lab::study::shard_range(0, Some(shard)).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A reading's preset and settings as given, checked against the game's.
struct Reading<'a> {
    variant: Option<&'a str>,
    infinite: Option<&'a str>,
    default: &'a str,
}

impl GameVisitor for Reading<'_> {
    type Output = Result<(), String>;
    fn visit<M: Mancala>(self) -> Self::Output {
        let preset = self.variant.unwrap_or(self.default);
        let v = M::variant(preset).map_err(|e| format!("--variant: {e}"))?;
        if let Some(inf) = self.infinite {
            M::set(v, "infinite", inf).map_err(|e| format!("--infinite: {e}"))?;
        }
        Ok(())
    }
}
