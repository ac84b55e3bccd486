//! A study only one game has (e.g. Bao's infinite-move cut-off study): random games played in
//! order, each summed up in a record and a CSV row, the whole in a report the CLI prints.

/// A game's own study over random games `0..`, which the command line runs for any game alike
/// (progress, Ctrl-C, the rows streamed to a CSV file in game order).
pub trait GameStudy: Sync {
    /// What one game gives.
    type Record: Send;
    /// What the report sums up over the games.
    type Sums;
    /// The study's name in messages (e.g. `cutoffs`).
    const NAME: &'static str;
    /// The header line of the study's CSV file, with its line end.
    const CSV_HEADER: &'static str;
    /// Plays game `game` (its draws those of the stats job's random game `game`).
    fn play(&self, game: u64) -> Self::Record;
    /// The sums before any game.
    fn sums(&self) -> Self::Sums;
    /// Adds game `game`'s record to `sums`; games come in order.
    fn add(&self, sums: &mut Self::Sums, game: u64, record: &Self::Record);
    /// Game `game`'s CSV row, with its line end.
    fn csv_row(&self, game: u64, record: &Self::Record) -> String;
    /// The report on `sums`, over the `done` games added.
    fn report(&self, sums: &Self::Sums, done: u64) -> String;
}
