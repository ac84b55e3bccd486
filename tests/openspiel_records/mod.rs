//! OpenSpiel game records (experiments/openspiel/dump_games.py) replayed against one of our
//! engines: the record format is read here once, each game's conformance test says how to play it.
//! A record line: `game N MOVE:LEGAL:SOUTH.NORTH ... final SOUTH NORTH RETURN`, where LEGAL is the
//! hexadecimal mask of the mover's legal pits before the move and SOUTH.NORTH the scores (stores)
//! after it; an extra turn is a ply of the same player; RETURN is South's: 1, -1 or 0.

use mancala_lab::side::Side;

/// How a conformance test plays a record on our engine.
pub trait Replay {
    /// Where a game stands.
    type State;
    /// The start of a game.
    fn start(&self) -> Self::State;
    /// The legal moves of the player to move as a mask of pits from that player's left.
    fn legal_mask(&self, s: &Self::State) -> u8;
    /// The player to move.
    fn to_move(&self, s: &Self::State) -> Side;
    /// The state after the move written `letter`, or why it is refused.
    fn play(&self, s: &Self::State, letter: char) -> Result<Self::State, String>;
    /// South's and North's scores (or stores).
    fn scores(&self, s: &Self::State) -> [u8; 2];
    /// The final scores and the winner (`None` for a draw), once the game is over.
    fn result(&self, s: &Self::State) -> Option<([u8; 2], Option<Side>)>;
}

/// Replays every game of the records `data` on `engine`, panicking at the first ply where they
/// part (its data line and ply named); returns (games, plies) checked.
pub fn check<R: Replay>(engine: &R, data: &str) -> (usize, usize) {
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
        let mut s = engine.start();
        for (i, ply) in tokens[2..final_at].iter().enumerate() {
            let ply_at = |what: &str| at(&format!("{what}, ply {}", i + 1));
            let parts: Vec<&str> = ply.split(':').collect();
            let letter = parts[0].chars().next().expect("a move letter");
            let mover = if letter.is_ascii_uppercase() {
                Side::South
            } else {
                Side::North
            };
            let mask = u8::from_str_radix(parts[1], 16).expect("a hexadecimal mask");
            assert_eq!(engine.legal_mask(&s), mask, "{}", ply_at("legal moves"));
            assert_eq!(engine.to_move(&s), mover, "{}", ply_at("player to move"));
            s = engine
                .play(&s, letter)
                .unwrap_or_else(|e| panic!("{}: {e}", ply_at("illegal")));
            let (south, north) = parts[2].split_once('.').expect("SOUTH.NORTH");
            let scores: [u8; 2] = [south.parse().unwrap(), north.parse().unwrap()];
            assert_eq!(engine.scores(&s), scores, "{}", ply_at("scores"));
            plies += 1;
        }
        let (scores, winner) = engine
            .result(&s)
            .unwrap_or_else(|| panic!("{}", at("OpenSpiel's game is over, ours is not")));
        let want: [u8; 2] = [
            tokens[final_at + 1].parse().unwrap(),
            tokens[final_at + 2].parse().unwrap(),
        ];
        assert_eq!(scores, want, "{}", at("final scores"));
        let expected = match tokens[final_at + 3].parse::<i32>().unwrap() {
            1 => Some(Side::South),
            -1 => Some(Side::North),
            _ => None,
        };
        assert_eq!(winner, expected, "{}", at("winner"));
        games += 1;
    }
    (games, plies)
}
