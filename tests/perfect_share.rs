//! `solve --judge` lends the levels it has read to the `perfect` policy: the policy plays from
//! that copy and reads none of its own (this binary names a folder with no level files).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mancala_lab::game::{game_keys, Draw, Game};
use mancala_lab::kalah;
use mancala_lab::policy::perfect::{self, Player, Settings};
use mancala_lab::solve::{build_level, Database};

#[test]
fn the_policy_plays_from_levels_it_is_lent() {
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mancala-lab-share-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    perfect::use_root(empty).unwrap();
    let game = kalah::rules::Rules::new("empty-capture:pits=2,seeds=2".parse().unwrap());
    assert!(Player::new(&game).is_err(), "no level files, nothing lent");

    let (retro, _) = game.retro().unwrap();
    let mut db = Database::new(retro.pits(), 8);
    for level in 0..=8 {
        let (values, _) = build_level(retro.as_ref(), &db, level, &(), &AtomicBool::new(false))
            .expect("a small level builds");
        db.push(values);
    }
    perfect::share(retro.as_ref(), Arc::new(db)).unwrap();
    let mut player = Player::new(&game).expect("the lent levels");
    let start = game.new_game();
    let draw = Draw::new(game_keys(1, 0), 0);
    assert!(player
        .best_move(&game, &start, Settings::DEFAULT, draw)
        .is_some());
    // Kalah(2,2) is a loss by 2 for the first player under empty capture: published as a loss
    // (experiments/exact-play/README.md, the Kalah table), and 8 seeds are within the levels.
    assert_eq!(player.report().value, Some(-2));
}
