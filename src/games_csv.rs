//! The games.csv file of a study: its columns per game (the shared ones and each registered
//! game's own, [`crate::registry::Mancala::COLUMNS`]) and the writer of its lines.

use crate::playout::Row;
use crate::policy::Players;
use crate::registry::GameKind;
use crate::registry::{with_game, GameVisitor, Mancala, OwnNumbers};

/// The columns every game's rows begin with.
const FIRST: [&str; 6] = ["game", "variant", "policy", "plies", "winner", "end_clause"];

/// The games.csv columns of `game`, in order: the shared ones, the game's own, `moves_hash`.
pub fn columns(game: GameKind) -> Vec<&'static str> {
    let mut all = FIRST.to_vec();
    all.extend_from_slice(own(game).0);
    all.push("moves_hash");
    all
}

/// The games.csv header line of `game` (with its newline).
pub fn header(game: GameKind) -> String {
    format!("{}\n", columns(game).join(","))
}

/// The games.csv header line of `game` as builds before the `moves_hash` column wrote it (with
/// its newline): such a study is read, its distinct games not counted.
pub fn header_without_moves_hash(game: GameKind) -> String {
    let columns = columns(game);
    format!("{}\n", columns[..columns.len() - 1].join(","))
}

/// The game's own columns and the function giving a row's numbers in them.
fn own(game: GameKind) -> (&'static [&'static str], OwnNumbers) {
    struct Own;
    impl GameVisitor for Own {
        type Output = (&'static [&'static str], OwnNumbers);
        fn visit<M: Mancala>(self) -> Self::Output {
            (M::COLUMNS, M::own_numbers)
        }
    }
    with_game(game, Own)
}

/// Appends `n` as 16 lower-case hexadecimal digits.
fn push_hex(out: &mut String, n: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for shift in (0..16).rev() {
        out.push(char::from(DIGITS[(n >> (4 * shift)) as usize & 15]));
    }
}

/// Writes the games.csv lines of one job: the columns its rows share are made once.
#[derive(Clone, Debug)]
pub struct RowWriter {
    /// A row's numbers in the game's own columns.
    numbers: OwnNumbers,
    /// `,variant,policy,`: the columns between the game index and the plies.
    shared: String,
}

impl RowWriter {
    /// The writer of `game`'s rows under `variant`, played by `players`.
    pub fn new(game: GameKind, variant: &str, players: Players) -> RowWriter {
        let policy = crate::text::csv_field(&players.to_string()).into_owned();
        // A reading with parameters holds commas (Kalah's `openspiel:pits=4,seeds=3`).
        let variant = crate::text::csv_field(variant);
        RowWriter {
            numbers: own(game).1,
            shared: format!(",{variant},{policy},"),
        }
    }

    /// Appends `row`'s CSV line (with its newline) to `out`.
    pub fn write(&self, row: &Row, out: &mut String) {
        let mut number = itoa::Buffer::new();
        out.push_str(number.format(row.game));
        out.push_str(&self.shared);
        out.push_str(number.format(row.plies));
        out.push(',');
        out.push_str(row.winner());
        out.push(',');
        for part in row.end_clause_parts() {
            out.push_str(part);
        }
        let mut numbers = [0; crate::registry::MAX_OWN_COLUMNS];
        let n = (self.numbers)(row, &mut numbers);
        for &n in &numbers[..n] {
            out.push(',');
            out.push_str(number.format(n));
        }
        out.push(',');
        push_hex(out, row.moves_hash);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_hash_is_written_as_16_hex_digits() {
        let mut line = String::new();
        push_hex(&mut line, 0x8594_4171_f739_67e8);
        assert_eq!(line, "85944171f73967e8");
        line.clear();
        push_hex(&mut line, 0xa);
        assert_eq!(line, "000000000000000a");
    }

    /// The columns as docs/formats.md lists them, worked out by hand.
    #[test]
    fn each_games_columns() {
        assert_eq!(
            header(GameKind::Oware),
            "game,variant,policy,plies,winner,end_clause,seeds_captured_south,\
             seeds_captured_north,score_south,score_north,undefined_cases,moves_hash\n"
        );
        assert_eq!(
            header(GameKind::Bao),
            "game,variant,policy,plies,winner,end_clause,harvests_south,harvests_north,\
             seeds_captured_south,seeds_captured_north,kunamua_plies,mtaji_plies,houses_lost,\
             longest_move_seeds,undefined_cases,moves_hash\n"
        );
    }
}
