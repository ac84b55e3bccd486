//! `mancala-lab --parse-only ...`: a command line checked without running it.

use mancala_lab::bao::variant::InfiniteMoves;
use mancala_lab::bao::Variant;
use mancala_lab::game::GameKind;

/// `--parse-only`: what clap takes as free text but the command would refuse before playing: the
/// reading (`--variant`) of the command's game, `--infinite` and `--shard`. `stats`, `diff` and
/// `audit` check their own (`check` in their modules), with the options that go with them.
pub fn check_values(matches: &clap::ArgMatches) -> Result<(), String> {
    if matches!(matches.subcommand_name(), Some("stats" | "diff" | "audit")) {
        return Ok(());
    }
    let (mut game, mut args) = (GameKind::Bao, matches);
    while let Some((name, sub)) = args.subcommand() {
        if name == "oware" {
            game = GameKind::Oware;
        }
        args = sub;
    }
    let text = |id: &str| args.try_get_one::<String>(id).ok().flatten();
    if let Ok(Some(&chosen)) = args.try_get_one::<GameKind>("game") {
        game = chosen;
    }
    if let Some(v) = text("variant") {
        match game {
            GameKind::Bao => v.parse::<Variant>().map(drop).map_err(|e| e.to_string()),
            GameKind::Oware => v
                .parse::<mancala_lab::oware::Variant>()
                .map(drop)
                .map_err(|e| e.to_string()),
        }
        .map_err(|e| format!("--variant: {e}"))?;
    }
    if let Some(inf) = text("infinite") {
        inf.parse::<InfiniteMoves>()
            .map_err(|e| format!("--infinite: {e}"))?;
    }
    if let Some(shard) = text("shard") {
        mancala_lab::study::shard_range(0, Some(shard)).map_err(|e| e.to_string())?;
    }
    Ok(())
}
