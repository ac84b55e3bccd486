//! Audits of other engines' game records: the verdict per game (agrees, or the first deviating
//! ply with its kind and clause), the readings that explain it, and the tables `audit` writes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The formats of game records `audit` reads; each game says which it reads
/// ([`crate::registry::Mancala::RECORD_FORMATS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum RecordFormat {
    /// AbstractPlay's JSON lines: one game per line (docs/formats.md).
    Abstractplay,
    /// Our transcripts: one game per file.
    Transcript,
    /// OpenSpiel's games as experiments/openspiel/dump_games.py writes them, one per line.
    Openspiel,
}

impl RecordFormat {
    /// Whether a file holds one record a line (else one record a file).
    pub fn per_line(self) -> bool {
        self != RecordFormat::Transcript
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Abstractplay => "abstractplay",
            RecordFormat::Transcript => "transcript",
            RecordFormat::Openspiel => "openspiel",
        }
    }
}

/// How a record departs from the rules as a reading plays them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A recorded move the rules do not allow there.
    IllegalMove,
    /// A board the record gives that the moves do not lead to.
    Position,
    /// The record's end of the game (its winner, or that it ended) differs.
    Result,
}

impl Kind {
    /// The name in games.csv and summary.csv.
    pub fn name(self) -> &'static str {
        match self {
            Kind::IllegalMove => "illegal-move",
            Kind::Position => "position",
            Kind::Result => "result",
        }
    }
}

/// The first deviation of a game in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The ply, counted from 1 (for a result or a final board: the number of plies played).
    pub ply: usize,
    /// The move as recorded (empty for a result or a final board).
    pub mv: String,
    /// What kind of deviation.
    pub kind: Kind,
    /// The clause that decides it.
    pub clause: String,
    /// The witness: the position before the ply, the move, what we make of it, what the record says.
    pub witness: String,
    /// An engine behaviour that no reading allows but that reproduces the record (a defect of
    /// the record's engine, named).
    pub reproduced_by: Option<String>,
}

/// A written mark that differs from ours on a move played alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationDeviation {
    /// The ply, from 1.
    pub ply: usize,
    /// The move as recorded.
    pub written: String,
    /// Our notation of the same move.
    pub ours: String,
    /// The clause that decides the mark.
    pub clause: &'static str,
    /// The position before the move, in the game's text format.
    pub position: String,
}

/// One game's audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAudit {
    /// The record's name for the game.
    pub game: String,
    /// Where the record is: `file:line`, or the file of a one-game record.
    pub source: String,
    /// Moves in the record.
    pub plies: usize,
    /// The first deviation in play, if any.
    pub deviation: Option<Deviation>,
    /// Marks written otherwise than we write them, up to the deviation.
    pub notation: Vec<NotationDeviation>,
    /// The readings (besides the one audited) under which the whole record agrees in play.
    pub explained_by: Vec<String>,
}

/// games.csv: one row per game.
pub fn games_csv(audits: &[GameAudit]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "game",
        "source",
        "plies",
        "verdict",
        "ply",
        "move",
        "kind",
        "clause",
        "explained_by",
        "reproduced_by",
        "notation_deviations",
        "notation_clauses",
    ])
    .expect("writing to memory");
    for a in audits {
        let mut clauses: BTreeMap<&str, usize> = BTreeMap::new();
        for n in &a.notation {
            *clauses.entry(n.clause).or_default() += 1;
        }
        let clauses: Vec<String> = clauses.iter().map(|(c, n)| format!("{c}:{n}")).collect();
        let d = a.deviation.as_ref();
        w.write_record([
            a.game.clone(),
            a.source.clone(),
            a.plies.to_string(),
            if d.is_some() { "deviates" } else { "agrees" }.to_string(),
            d.map_or(String::new(), |d| d.ply.to_string()),
            d.map_or(String::new(), |d| d.mv.clone()),
            d.map_or(String::new(), |d| d.kind.name().to_string()),
            d.map_or(String::new(), |d| d.clause.clone()),
            a.explained_by.join(" "),
            d.and_then(|d| d.reproduced_by.clone()).unwrap_or_default(),
            a.notation.len().to_string(),
            clauses.join(" "),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8")
}

/// summary.csv: per kind and clause, the games (share of all games with its 95% interval), how
/// many a reading explains and which readings; notation deviations as kind `notation`, with the
/// marks counted.
pub fn summary_csv(audits: &[GameAudit]) -> String {
    #[derive(Default)]
    struct Row {
        games: u64,
        marks: u64,
        explained: u64,
        reproduced: u64,
        readings: BTreeMap<String, u64>,
    }
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    for a in audits {
        if let Some(d) = &a.deviation {
            let row = rows
                .entry((d.kind.name().to_string(), d.clause.clone()))
                .or_default();
            row.games += 1;
            if !a.explained_by.is_empty() {
                row.explained += 1;
            }
            if d.reproduced_by.is_some() {
                row.reproduced += 1;
            }
            for r in &a.explained_by {
                *row.readings.entry(r.clone()).or_default() += 1;
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for n in &a.notation {
            let row = rows
                .entry(("notation".to_string(), n.clause.to_string()))
                .or_default();
            row.marks += 1;
            if !seen.contains(&n.clause) {
                seen.push(n.clause);
                row.games += 1;
            }
        }
    }
    let n = audits.len() as u64;
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "kind",
        "clause",
        "games",
        "share",
        "share_low",
        "share_high",
        "marks",
        "explained",
        "readings",
        "reproduced",
    ])
    .expect("writing to memory");
    let agree = audits.iter().filter(|a| a.deviation.is_none()).count() as u64;
    let mut all = vec![(
        ("agrees".to_string(), String::new()),
        Row {
            games: agree,
            ..Row::default()
        },
    )];
    all.extend(rows);
    for ((kind, clause), row) in all {
        let (p, low, high) = crate::stats::wilson(row.games, n);
        let readings: Vec<String> = row
            .readings
            .iter()
            .map(|(r, k)| format!("{r}:{k}"))
            .collect();
        w.write_record([
            kind,
            clause,
            row.games.to_string(),
            format!("{p:.4}"),
            format!("{low:.4}"),
            format!("{high:.4}"),
            row.marks.to_string(),
            row.explained.to_string(),
            readings.join(" "),
            row.reproduced.to_string(),
        ])
        .expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8")
}

/// Whether `name` is a witness file's name as [`witnesses`] names them: `KIND-CLAUSE.txt`
/// (`illegal-move-2.3.txt`, `notation-N.2.txt`).
pub fn is_witness_name(name: &str) -> bool {
    let kinds = [Kind::IllegalMove, Kind::Position, Kind::Result].map(Kind::name);
    kinds
        .iter()
        .chain(&["notation"])
        .find_map(|kind| name.strip_prefix(kind)?.strip_prefix('-'))
        .and_then(|rest| rest.strip_suffix(".txt"))
        .is_some_and(|clause| {
            !clause.is_empty()
                && clause
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':'))
        })
}

/// One witness file per kind and clause (the first game that shows it): (file name, text).
pub fn witnesses(audits: &[GameAudit]) -> Vec<(String, String)> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for a in audits {
        if let Some(d) = &a.deviation {
            let name = format!("{}-{}.txt", d.kind.name(), d.clause);
            out.entry(name).or_insert_with(|| {
                let mut text = String::new();
                let _ = writeln!(
                    text,
                    "# game {} ({}), ply {}: {}",
                    a.game,
                    a.source,
                    d.ply,
                    d.kind.name()
                );
                let _ = writeln!(text, "# clause: {}", d.clause);
                if !a.explained_by.is_empty() {
                    let _ = writeln!(text, "# explained by: {}", a.explained_by.join(" "));
                }
                text.push_str(&d.witness);
                text
            });
        }
        for n in &a.notation {
            let name = format!("notation-{}.txt", n.clause);
            out.entry(name).or_insert_with(|| {
                format!(
                    "# game {} ({}), ply {}: a mark written otherwise\n# clause: {}\n{}move: {}\n\
                     ours: {}\n",
                    a.game, a.source, n.ply, n.clause, n.position, n.written, n.ours
                )
            });
        }
    }
    out.into_iter().collect()
}

/// The first clause id a message cites as `(bao ID...` or `bao ID`: `2.2.1` in
/// "x is empty (bao 2.2.1, 2.3)".
pub fn cited_clause(message: &str, game: &str) -> Option<String> {
    let at = message.find(&format!("{game} "))? + game.len() + 1;
    let id: String = message[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect();
    let id = id.trim_end_matches('.');
    (!id.is_empty()
        && id
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c.is_ascii_uppercase()))
    .then(|| id.to_string())
}

/// Narrows a deviation to the choice that decides it: of the readings that change one choice
/// (`single`: name, the clause the choice settles, and the replay's first deviation under it, or
/// `None` if the record agrees), the one that plays on furthest past the deviation's ply gives
/// its clause, and the witness says so. Unchanged when none plays on past it.
pub fn narrow(deviation: &mut Deviation, single: &[(String, &'static str, Option<usize>)]) {
    let best = single
        .iter()
        .filter(|(_, _, until)| until.is_none_or(|p| p > deviation.ply))
        .max_by_key(|(_, _, until)| until.unwrap_or(usize::MAX));
    if let Some((name, clause, until)) = best {
        deviation.clause = clause.to_string();
        let how = match until {
            None => "agrees to the end".to_string(),
            Some(p) => format!("plays on to ply {p}"),
        };
        let _ = writeln!(deviation.witness, "under {name} the record {how}");
    }
}

/// A reading choice an engine might have made: its name (`field=value`) and how it sets a
/// reading.
pub type Choice<V> = (&'static str, fn(V) -> V);

/// Every reading that differs from `base` by taking one value of each pair of `choices`, named
/// by the choices that change `base` (joined by `+`), fewest changes first.
pub fn other_readings<V: Copy + PartialEq>(
    base: V,
    choices: &[[Choice<V>; 2]],
) -> Vec<(String, V)> {
    let mut out: Vec<(usize, String, V)> = Vec::new();
    for mask in 0..(1u32 << choices.len()) {
        let mut v = base;
        let mut changed = Vec::new();
        for (i, pair) in choices.iter().enumerate() {
            let (name, set) = pair[(mask >> i & 1) as usize];
            if set(base) != base {
                changed.push(name);
            }
            v = set(v);
        }
        if v != base && !out.iter().any(|(_, _, w)| *w == v) {
            out.push((changed.len(), changed.join("+"), v));
        }
    }
    out.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    out.into_iter().map(|(_, n, v)| (n, v)).collect()
}

/// Tries `readings` (from [`other_readings`]) on a record that deviates as `deviation` says:
/// `first_deviation` replays it under a reading and gives the ply of its first deviation (`None`
/// when it agrees; `Err` for a record that reading cannot replay). Narrows the deviation with
/// the one-choice readings (`clause_of` gives the clause a choice settles, see [`narrow`]) and
/// returns the fewest-change readings under which the record agrees. Each reading is replayed
/// once.
pub fn explain<V, E>(
    deviation: &mut Deviation,
    readings: Vec<(String, V)>,
    clause_of: fn(&str) -> &'static str,
    mut first_deviation: impl FnMut(V) -> Result<Option<usize>, E>,
) -> Vec<String> {
    let tried: Vec<(String, Option<usize>)> = readings
        .into_iter()
        .filter_map(|(name, v)| first_deviation(v).ok().map(|until| (name, until)))
        .collect();
    let single: Vec<(String, &'static str, Option<usize>)> = tried
        .iter()
        .filter(|(name, _)| !name.contains('+'))
        .map(|(name, until)| (name.clone(), clause_of(name), *until))
        .collect();
    narrow(deviation, &single);
    let mut explained_by: Vec<String> = Vec::new();
    for (name, until) in tried {
        // Only the smallest sets of changes: none that holds one already found.
        let parts: Vec<&str> = name.split('+').collect();
        let holds_found = explained_by
            .iter()
            .any(|e| e.split('+').all(|p| parts.contains(&p)));
        if until.is_none() && !holds_found {
            explained_by.push(name);
        }
    }
    explained_by
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cited_clause_is_the_first_id_after_the_game_name() {
        let c = |m: &str| cited_clause(m, "bao");
        assert_eq!(
            c("A1 is empty; a move needs a non-empty pit (bao 2.2.1, 2.3)").as_deref(),
            Some("2.2.1")
        );
        assert_eq!(c("the game is over (bao 1.2.1)").as_deref(), Some("1.2.1"));
        assert_eq!(c("(bao N.5)").as_deref(), Some("N.5"));
        assert_eq!(c("A2 is a pit of the player not at move"), None);
        assert_eq!(
            cited_clause(
                "F would leave the opponent without seeds (oware O.4.1)",
                "oware"
            )
            .as_deref(),
            Some("O.4.1")
        );
    }

    #[test]
    fn a_deviation_takes_the_clause_of_the_choice_that_plays_on_furthest() {
        let mut d = Deviation {
            ply: 10,
            mv: "A".into(),
            kind: Kind::Position,
            clause: "O.3".into(),
            witness: String::new(),
            reproduced_by: None,
        };
        let single = [
            ("x=1".to_string(), "O.4.1", Some(10)),
            ("y=2".to_string(), "O.6.2", Some(30)),
            ("z=3".to_string(), "O.6.1", Some(12)),
        ];
        narrow(&mut d, &single);
        assert_eq!(d.clause, "O.6.2");
        assert_eq!(d.witness, "under y=2 the record plays on to ply 30\n");
        narrow(&mut d, &[("w=4".to_string(), "O.4.2", None)]);
        assert_eq!(d.clause, "O.4.2");
        // None plays on: unchanged.
        let before = d.clone();
        narrow(&mut d, &[("v=5".to_string(), "O.2", Some(3))]);
        assert_eq!(d, before);
    }

    #[test]
    fn tables_count_games_and_marks_with_intervals() {
        let audit = |game: &str, deviation: Option<Deviation>, explained: &[&str]| GameAudit {
            game: game.into(),
            source: format!("r.jsonl:{game}"),
            plies: 10,
            deviation,
            notation: vec![
                NotationDeviation {
                    ply: 3,
                    written: "A5>**".into(),
                    ours: "A5>*".into(),
                    clause: "5.1",
                    position: "p\n".into(),
                };
                2
            ],
            explained_by: explained.iter().map(|s| s.to_string()).collect(),
        };
        let d = Deviation {
            ply: 7,
            mv: "a3<".into(),
            kind: Kind::IllegalMove,
            clause: "1.5.6".into(),
            witness: "w\n".into(),
            reproduced_by: None,
        };
        let audits = [
            audit("0", None, &[]),
            audit("1", Some(d.clone()), &["infinite=sown:192"]),
            audit("2", Some(d), &[]),
        ];
        let games = games_csv(&audits);
        let rows: Vec<&str> = games.lines().collect();
        assert_eq!(rows[1], "0,r.jsonl:0,10,agrees,,,,,,,2,5.1:2");
        assert_eq!(
            rows[2],
            "1,r.jsonl:1,10,deviates,7,a3<,illegal-move,1.5.6,infinite=sown:192,,2,5.1:2"
        );
        let summary = summary_csv(&audits);
        let rows: Vec<&str> = summary.lines().collect();
        // 1 of 3 agrees; Wilson's 95% interval for 1/3 is [0.0615, 0.7923].
        assert_eq!(rows[1], "agrees,,1,0.3333,0.0615,0.7923,0,0,,0");
        assert_eq!(
            rows[2],
            "illegal-move,1.5.6,2,0.6667,0.2077,0.9385,0,1,infinite=sown:192:1,0"
        );
        // Every game has two marks of 5.1: three games, six marks.
        assert_eq!(rows[3], "notation,5.1,3,1.0000,0.4385,1.0000,6,0,,0");
        let w = witnesses(&audits);
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].0, "illegal-move-1.5.6.txt");
        assert_eq!(w[1].0, "notation-5.1.txt");
        assert!(
            w[1].1.ends_with("p\nmove: A5>**\nours: A5>*\n"),
            "{}",
            w[1].1
        );
        assert!(w[0]
            .1
            .starts_with("# game 1 (r.jsonl:1), ply 7: illegal-move\n"));
    }

    #[test]
    fn explain_keeps_the_fewest_change_readings_and_narrows_by_the_one_choice_ones() {
        let mut d = Deviation {
            ply: 4,
            mv: String::new(),
            kind: Kind::Result,
            clause: "O.3".into(),
            witness: String::new(),
            reproduced_by: None,
        };
        // Readings as numbers: 1 "a=1" agrees, 2 "b=1" deviates at ply 6, 3 "a=1+b=1" agrees
        // (holds a=1: left out), 4 "c=1+d=1" agrees, 5 cannot replay.
        let readings = ["a=1", "b=1", "a=1+b=1", "c=1+d=1", "e=1"]
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), i + 1))
            .collect();
        let mut replays = 0;
        let found = explain(
            &mut d,
            readings,
            |n| if n.starts_with('a') { "O.4.1" } else { "O.6.2" },
            |v| {
                replays += 1;
                match v {
                    2 => Ok(Some(6)),
                    5 => Err(()),
                    _ => Ok(None),
                }
            },
        );
        assert_eq!(found, ["a=1", "c=1+d=1"]);
        assert_eq!(d.clause, "O.4.1");
        assert_eq!(replays, 5);
    }
}
