//! Conformance with OpenSpiel's `mancala` (Kalah): replays 1,000 random games recorded from
//! OpenSpiel (experiments/openspiel/dump_games.py --game kalah) under the default `openspiel`
//! reading and requires agreement at every ply: the player to move (an extra turn is the same
//! player's ply), the legal move set before the move, both stores after it, and the result.

use mancala_lab::kalah::{Move, Rules, Side, Variant};

const GAMES: &str = include_str!("data/openspiel_kalah_1000.txt");

#[test]
fn the_openspiel_reading_agrees_with_openspiel_on_every_ply() {
    let (games, plies) = check_file(GAMES);
    assert_eq!(games, 1000);
    assert!(plies > 30_000, "{plies}");
}

/// Also checks a freshly generated file when `KALAH_OPENSPIEL_FILE` names one (CI's live run).
#[test]
fn the_openspiel_reading_agrees_with_a_live_openspiel_run_if_given() {
    if let Some(path) = std::env::var("KALAH_OPENSPIEL_FILE")
        .ok()
        .filter(|p| !p.is_empty())
    {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (games, _) = check_file(&text);
        assert!(games > 0, "{path} holds no game");
    }
}

/// Replays every game of a dump file; returns (games, plies) checked.
fn check_file(data: &str) -> (usize, usize) {
    let rules = Rules::new(Variant::OPENSPIEL);
    let mut games = 0;
    let mut plies = 0;
    for (n, line) in data
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("game "))
    {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let at = |what: &str| format!("data line {}: {what}", n + 1);
        let final_at = tokens.iter().position(|&t| t == "final").expect("final");
        let mut s = rules.new_game();
        for (i, ply) in tokens[2..final_at].iter().enumerate() {
            let parts: Vec<&str> = ply.split(':').collect();
            let letter = parts[0].chars().next().unwrap();
            let (side, mv) = Move::from_letter(letter, 6).unwrap();
            let mask = u8::from_str_radix(parts[1], 16).unwrap();
            let ours: u8 = rules.legal_moves(&s).iter().map(|m| 1u8 << m.pit).sum();
            let ply_at = |what: &str| at(&format!("{what}, ply {}", i + 1));
            assert_eq!(ours, mask, "{}", ply_at("legal moves"));
            assert_eq!(side, s.position().to_move(), "{}", ply_at("player to move"));
            s = rules
                .play(&s, mv)
                .unwrap_or_else(|e| panic!("{}: {e}", ply_at("illegal")))
                .state;
            let (south, north) = parts[2].split_once('.').unwrap();
            let stores = [south.parse::<u8>().unwrap(), north.parse::<u8>().unwrap()];
            let ours = [
                s.position().store(Side::South),
                s.position().store(Side::North),
            ];
            assert_eq!(ours, stores, "{}", ply_at("stores"));
            plies += 1;
        }
        let out = s
            .outcome()
            .unwrap_or_else(|| panic!("{}", at("OpenSpiel's game is over, ours is not")));
        let south: u8 = tokens[final_at + 1].parse().unwrap();
        let north: u8 = tokens[final_at + 2].parse().unwrap();
        let ret: i32 = tokens[final_at + 3].parse().unwrap();
        assert_eq!(out.scores, [south, north], "{}", at("final scores"));
        let expected = match ret {
            1 => Some(Side::South),
            -1 => Some(Side::North),
            _ => None,
        };
        assert_eq!(out.winner, expected, "{}", at("winner"));
        games += 1;
    }
    (games, plies)
}
