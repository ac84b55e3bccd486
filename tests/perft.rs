//! Perft tables (tests/data/perft_*.txt) replayed with both engines of each game, under a node
//! limit per engine that keeps CI fast.

use mancala_lab::bao::engines::to_fast;
use mancala_lab::bao::fast::{FastRules as BaoFast, FastState};
use mancala_lab::bao::{position_text, Position, Rules as BaoRules};
use mancala_lab::game::perft;
use mancala_lab::oware::fast::FastRules as OwareFast;
use mancala_lab::oware::{Rules as OwareRules, Variant as OwareVariant};

struct Entry {
    id: String,
    position: Option<String>,
    counts: Vec<(u32, u64)>,
}

fn parse(text: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            out.push(Entry {
                id: id.to_string(),
                position: None,
                counts: Vec::new(),
            });
        } else if line == "position" {
            let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "end").collect();
            out.last_mut().unwrap().position = Some(body.join("\n"));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').unwrap();
            out.last_mut()
                .unwrap()
                .counts
                .push((d.parse().unwrap(), n.parse().unwrap()));
        }
    }
    out
}

#[test]
fn bao_perft_tables() {
    let (reference, fast) = (
        BaoRules::default(),
        BaoFast::new(Default::default()).unwrap(),
    );
    let mut checked = 0;
    for e in parse(include_str!("data/perft_bao.txt")) {
        let p = match &e.position {
            None => Position::start(),
            Some(t) => position_text::parse(t).unwrap(),
        };
        for &(d, n) in &e.counts {
            if n <= 3_000_000 {
                assert_eq!(
                    perft(&fast, &FastState::new(to_fast(&p)), d),
                    n,
                    "{} depth {d} (optimized)",
                    e.id
                );
                checked += 1;
            }
            if n <= 150_000 {
                assert_eq!(
                    perft(&reference, &p, d),
                    n,
                    "{} depth {d} (reference)",
                    e.id
                );
            }
        }
    }
    assert!(checked >= 20);
}

#[test]
fn oware_perft_tables() {
    for v in [OwareVariant::ABAPA, OwareVariant::SHEET] {
        let (reference, fast) = (OwareRules::new(v), OwareFast::new(v).unwrap());
        for e in parse(include_str!("data/perft_oware.txt")) {
            assert!(e.position.is_none());
            for &(d, n) in &e.counts {
                if n <= 4_000_000 {
                    assert_eq!(
                        perft(&fast, &fast.start(), d),
                        n,
                        "{} depth {d} (optimized)",
                        e.id
                    );
                }
                if n <= 800_000 {
                    assert_eq!(
                        perft(&reference, &reference.new_game(), d),
                        n,
                        "{} depth {d} (reference)",
                        e.id
                    );
                }
            }
        }
    }
}
