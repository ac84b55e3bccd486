//! The reference engine of Bao la Kiswahili: legal moves, playing a move, and the end of the game.
//! Written to be read beside `spec/bao.md`: every decision names the clause it applies.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::board::{Board, Direction, Hand, Pit, Row, Side};
use super::notation::{Move, MoveKind, MoveText};
use super::position::{Position, Stage};
use super::trace::{Event, MoveEnd, SidePit, StartKind, Step};
use super::variant::{HouseKutakatia, HouseLoss, InfiniteMoves, StoreSeedIntoHouse, Variant};

/// How a move may start, once its start has passed the rules for starting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    /// The first sowing ends in a harvest.
    Capture,
    /// A move without harvest.
    Kutakata,
    /// Kunamua kutakata from the house that is the only filled front pit: take two (2.3.2).
    HouseTax,
}

/// Why a move is not legal, with the clause that forbids it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is already over.
    #[error("the game is over (bao {0})")]
    GameOver(&'static str),
    /// The move names the other player's row.
    #[error("{0} is a pit of the player not at move")]
    WrongSide(String),
    /// The row may only be left out in kunamua.
    #[error("the row may only be omitted in the kunamua stage (bao N.5)")]
    RowNeeded,
    /// In kunamua every move starts in the front row.
    #[error("{0}: in kunamua the store seed goes into the front row (bao 2.3)")]
    KunamuaBackRow(String),
    /// The start pit is empty.
    #[error("{0} is empty; a move needs a non-empty pit (bao 2.2.1, 2.3)")]
    EmptyPit(String),
    /// Mtaji sowing needs two or more seeds.
    #[error("{0} holds a single seed; a sowing needs at least two (bao 1.3.2, 3.3.1)")]
    SingleSeed(String),
    /// A capture is possible, so the move must capture.
    #[error("{0} does not capture, but a capture is possible and mandatory (bao 1.4.1, 1.5.1)")]
    MustCapture(String),
    /// The kichwa of a capture at a kichwa or kimbi is fixed.
    #[error(
        "{0}: a capture at a kichwa or kimbi must sow from the nearest kichwa (bao 1.4.5, 2.2.2)"
    )]
    KichwaForced(String),
    /// The house with six or more cannot start a kutakata.
    #[error("{0}: kutakata may not start from the owned house with six or more seeds (bao 2.3.2, 4.2.2.1)")]
    HouseKutakata(String),
    /// With the house lost, single-seed pits may not start a kutakata while fuller ones exist.
    #[error("{0}: with the house lost, kutakata may not start from a single seed while a front pit holds more (bao 2.3.3)")]
    SingleSeedKutakata(String),
    /// The back row may start only when no front pit holds two seeds.
    #[error("{0}: kutakata starts from the back row only when no front pit holds two or more seeds (bao 1.5.2, 3.5.1)")]
    BackRowKutakata(String),
    /// Kutakata from the only filled kichwa towards the back row empties the front row.
    #[error("{0}: kutakata from the only filled kichwa may not run into the back row (bao 1.5.3.1, 2.3.1, 3.5.2)")]
    KichwaTowardBackRow(String),
    /// The pit is kutakatia-ed.
    #[error("{0} is kutakatia-ed and may not be emptied this move (bao 5.1)")]
    Kutakatia(String),
    /// The move never ends.
    #[error("{0} is an infinite move (bao 1.5.6)")]
    Infinite(String),
    /// The move reaches a point no clause decides, and the variant leaves it open (see `Variant::STRICT`).
    #[error("{mv}: the rules do not decide this move (bao {clause}: {what}); the variant leaves it open")]
    RulesSilent {
        /// The move.
        mv: String,
        /// The clause that is silent or contradicted.
        clause: &'static str,
        /// What is left undecided.
        what: &'static str,
    },
    /// `+` was written but the move never reaches a house decision.
    #[error(
        "{0}: '+' plays the house, but this move never stops at the owned house (bao 4.2.1.2)"
    )]
    NoHouseDecision(String),
    /// The written `*`/`**` does not match what the move is.
    #[error("{written}: the move is {actual}")]
    WrongAnnotation {
        /// The move as written.
        written: String,
        /// The canonical form.
        actual: String,
    },
    /// Leaving out the direction leaves more than one legal move.
    #[error("{written} is ambiguous: it could be {candidates}")]
    Ambiguous {
        /// The move as written.
        written: String,
        /// The legal moves it could mean.
        candidates: String,
    },
}

/// The end of a game: who won, and by which clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner.
    pub winner: Side,
    /// The clause that ended the game.
    pub clause: &'static str,
}

/// A played move: the new position and everything that happened on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The position after the move, the opponent to move.
    pub position: Position,
    /// Capture, kutakata or kutakatia.
    pub kind: MoveKind,
    /// Every step, with its clause.
    pub trace: Vec<Step>,
    /// Seeds sown during the move (store seed included).
    pub sown: u32,
    /// Harvests made during the move.
    pub captures: u32,
    /// Points where the sources are silent or disagree and a reading decided (spec ids).
    pub undefined: Vec<Undefined>,
}

/// A place in a move where no clause decides and the variant's reading did (spec: bao 2.1.2, 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undefined {
    /// The clause whose silence or conflict the reading settles.
    pub clause: &'static str,
    /// What was decided.
    pub what: &'static str,
}

/// The reference engine for one rule reading.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rules {
    /// The reading of the disputed clauses.
    pub variant: Variant,
}

/// What simulating one move gave.
struct MoveRun {
    position: Position,
    trace: Vec<Step>,
    sown: u32,
    captures: u32,
    infinite: bool,
    house_decision: bool,
    undefined: Vec<Undefined>,
    /// The open point that stopped the move, under a reading that leaves it open.
    silent: Option<Undefined>,
}

/// Where the first sowing of a move left it.
struct FirstSowing {
    /// The pit the sowing ended in (`None`: the move already ended).
    end: Option<Pit>,
    /// The direction of the move (`None`: not chosen yet).
    direction: Option<Direction>,
    /// A harvest emptied the opponent's front row (1.2.1).
    game_over: bool,
    /// An open point the reading decided on the way.
    undefined: Option<Undefined>,
    /// The open point that stops the move, under a reading that leaves it open.
    silent: Option<Undefined>,
}

/// How the sowing of a move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ended {
    /// The move stopped (an empty pit, the house, the kutakatia-ed pit, or its first sowing).
    Stopped,
    /// A harvest emptied the opponent's front row (1.2.1).
    GameOver,
    /// The move proved infinite (1.5.6).
    Infinite,
    /// The reading leaves the move open.
    Silent,
}

/// The changing state of a move in progress.
struct InMove<'a> {
    variant: &'a Variant,
    me: Side,
    stage: Stage,
    board: Board,
    house_owned: [bool; 2],
    blocked: Option<Pit>,
    trace: Vec<Step>,
    record: bool,
    sown: u32,
    captures: u32,
}

/// Trace steps kept for one move; an infinite move's trace would otherwise grow without bound.
pub const TRACE_LIMIT: usize = 10_000;

impl InMove<'_> {
    fn at(&self, pit: Pit) -> SidePit {
        SidePit { side: self.me, pit }
    }

    fn log(&mut self, clause: &'static str, event: Event) {
        if self.record && self.trace.len() < TRACE_LIMIT {
            self.trace.push(Step { clause, event });
        }
    }

    /// Sows `seeds` one by one starting in `first` itself; returns the last pit (spec: bao 1.3).
    fn sow(&mut self, first: Pit, seeds: u8, direction: Direction) -> Pit {
        // spec: bao 1.3 one seed per pit, consecutive pits of the own ring, one direction
        let mut pit = first;
        for i in 0..seeds {
            if i > 0 {
                // spec: bao 1.3.1 the direction does not change during a sowing
                pit = pit.next(direction);
            }
            self.board.add_one(self.me, pit);
        }
        self.sown += u32::from(seeds);
        let end_now = self.board.get(self.me, pit);
        self.log(
            "1.3",
            Event::Sow {
                first: self.at(first),
                seeds,
                direction,
                end: self.at(pit),
                end_now,
            },
        );
        pit
    }

    /// Empties one of the mover's pits to sow it; an owned house emptied is lost.
    fn pick_up(&mut self, pit: Pit, clause: &'static str) -> u8 {
        let seeds = self.board.take(self.me, pit);
        self.log(
            clause,
            Event::PickUp {
                at: self.at(pit),
                seeds,
            },
        );
        if pit.is_house() && self.house_owned[self.me.index()] {
            // spec: bao 4.2.1.1 an emptied house is lost
            self.lose_house(self.me, "4.2.1.1");
        }
        seeds
    }

    fn lose_house(&mut self, side: Side, clause: &'static str) {
        if self.house_owned[side.index()] {
            self.house_owned[side.index()] = false;
            self.log(clause, Event::HouseLost { side });
        }
    }

    fn house_active(&self) -> bool {
        // spec: bao 4.2.1.3 house rules need the house owned and holding six or more
        self.house_owned[self.me.index()] && self.board.get(self.me, Pit::HOUSE) >= 6
    }

    /// Harvests the pit facing `at` and sows the seeds from a kichwa; returns the last pit and direction.
    /// `chosen` is the kunamua player's kichwa choice, used when no direction exists yet.
    fn capture(
        &mut self,
        at: Pit,
        direction: Option<Direction>,
        chosen: Hand,
        clause: &'static str,
    ) -> (Pit, Direction, bool) {
        let them = self.me.opponent();
        let facing = at.opposite().expect("captures happen in the front row");
        // spec: bao 1.4.2 take every seed of the opponent's facing pit
        let seeds = self.board.take(them, facing);
        self.captures += 1;
        self.log(
            clause,
            Event::Capture {
                at: self.at(at),
                from: SidePit {
                    side: them,
                    pit: facing,
                },
                seeds,
            },
        );
        if facing.is_house() {
            // spec: bao 4.2.1.1 a captured house is emptied, hence lost
            self.lose_house(them, "4.2.1.1");
        }
        if self.stage == Stage::Mtaji
            && self.variant.house_loss == HouseLoss::EmptiedOrFirstMtajiCapture
        {
            // spec: bao 3.2 an owned house stays owned only until the first harvest of the mtaji stage
            self.lose_house(self.me, "3.2");
            self.lose_house(them, "3.2");
        }
        let (kichwa, new_direction, clause) = if at == Pit::LEFT_KICHWA || at == Pit::LEFT_KIMBI {
            // spec: bao 1.4.5 a harvest at the left kichwa or kimbi sows from the left kichwa
            (Pit::LEFT_KICHWA, Direction::Clockwise, "1.4.5")
        } else if at == Pit::RIGHT_KICHWA || at == Pit::RIGHT_KIMBI {
            // spec: bao 4.1 from the nearest kichwa, so the direction may change
            (Pit::RIGHT_KICHWA, Direction::Anticlockwise, "4.1")
        } else {
            match direction {
                // spec: bao 1.4.3 the direction of the move is kept; 1.4.4 maps it to a kichwa
                // spec: bao 1.4.4 clockwise sowing starts at the left kichwa, anticlockwise at the right
                // spec: bao 3.4.1 in mtaji the chosen direction of the move carries on
                Some(Direction::Clockwise) => (Pit::LEFT_KICHWA, Direction::Clockwise, "1.4.4"),
                Some(Direction::Anticlockwise) => {
                    (Pit::RIGHT_KICHWA, Direction::Anticlockwise, "1.4.4")
                }
                // spec: bao 2.2.2 no direction yet in kunamua: the player picks the kichwa
                None => match chosen {
                    Hand::Left => (Pit::LEFT_KICHWA, Direction::Clockwise, "2.2.2"),
                    Hand::Right => (Pit::RIGHT_KICHWA, Direction::Anticlockwise, "2.2.2"),
                },
            }
        };
        self.log(
            clause,
            Event::Kichwa {
                at: self.at(kichwa),
                direction: new_direction,
            },
        );
        // spec: bao 1.2.1 an emptied front row ends the game at once, even mid-move
        let game_over = self.board.front_row_empty(them);
        let end = self.sow(kichwa, seeds, new_direction);
        (end, new_direction, game_over)
    }
}

/// A hashable snapshot of a move in progress, for exact infinite-move detection.
type InMoveState = (Board, [bool; 2], Pit, Direction);

/// Relay sowings after which a move starts keeping landmark states (shorter moves keep none).
// mutant: excused when landmarks start to be kept changes the memory a long move takes, not which moves are infinite
const LANDMARKS_AFTER: u64 = 1 << 16;

/// About one in-move state in 2,000, picked by the state alone: the sowing ends in the left kichwa
/// and the state's hash has seven low zero bits.
// mutant: excused it only picks which states a long cycle check keeps: another pick finds the same cycles, sooner or later
fn is_landmark(state: &InMoveState) -> bool {
    if state.2 != Pit::LEFT_KICHWA {
        return false;
    }
    let mut h = DefaultHasher::new();
    state.hash(&mut h);
    h.finish() & 127 == 0
}

/// True when `state`, met after `relays` relay sowings, is a landmark already kept (a cycle);
/// keeps it otherwise.
// mutant: excused it serves moves of more than 65,536 relay sowings; no finite move that long is known to test it with (experiments/long-infinite-move has an infinite one)
fn landmark_repeats(
    landmarks: &mut HashSet<InMoveState>,
    relays: u64,
    state: &InMoveState,
) -> bool {
    relays > LANDMARKS_AFTER && is_landmark(state) && !landmarks.insert(state.clone())
}

impl Rules {
    /// The reference engine for `variant`.
    pub fn new(variant: Variant) -> Rules {
        Rules { variant }
    }

    /// Every capture start of `side` on `board` in `stage`, as (start pit, hand, harvested pit).
    fn capture_starts(board: &Board, side: Side, stage: Stage) -> Vec<(Pit, Hand, Pit)> {
        let them = side.opponent();
        let mut starts = Vec::new();
        match stage {
            Stage::Kunamua => {
                // spec: bao 2.2.1 a store seed into a non-empty front pit facing a non-empty pit captures
                for pit in Pit::front_row() {
                    let facing = pit.opposite().expect("front pit");
                    if board.get(side, pit) == 0 || board.get(them, facing) == 0 {
                        continue;
                    }
                    for hand in Hand::BOTH {
                        if let Some(forced) = forced_kichwa_hand(pit) {
                            // spec: bao 2.2.2 the kichwa is free only away from kichwa and kimbi
                            if hand != forced {
                                continue;
                            }
                        }
                        starts.push((pit, hand, facing));
                    }
                }
            }
            Stage::Mtaji => {
                for pit in Pit::all() {
                    let seeds = board.get(side, pit);
                    // spec: bao 3.3.1 only pits with two or more seeds can be played
                    // spec: bao 3.4.2 no harvest from a pit with more than 15 seeds
                    if !(2..=15).contains(&seeds) {
                        continue;
                    }
                    for hand in Hand::BOTH {
                        let direction = hand.direction_on(pit.row());
                        // With at most 15 seeds the sowing never returns to the start pit,
                        // so every pit passed receives exactly one seed.
                        let end = Pit::from_ring(match direction {
                            Direction::Clockwise => pit.ring() + usize::from(seeds),
                            Direction::Anticlockwise => pit.ring() + 16 - usize::from(seeds),
                        });
                        // spec: bao 1.4 the last seed must land in a non-empty front pit facing a non-empty pit
                        if let Some(facing) = end.opposite() {
                            if board.get(side, end) > 0 && board.get(them, facing) > 0 {
                                starts.push((pit, hand, facing));
                            }
                        }
                    }
                }
            }
        }
        starts
    }

    /// Checks the start of `mv` against the rules for starting a move (not its finiteness).
    fn classify(&self, pos: &Position, mv: Move) -> Result<Start, IllegalMove> {
        let me = pos.to_move;
        let board = &pos.board;
        let name = mv.pit.name(me);
        let seeds = board.get(me, mv.pit);
        let stage = pos.stage();
        let captures = Rules::capture_starts(board, me, stage);
        let is_capture = captures
            .iter()
            .any(|&(p, h, _)| p == mv.pit && h == mv.hand);
        let front_pits_over_one = Pit::front_row().filter(|&p| board.get(me, p) > 1).count();
        let filled_front: Vec<Pit> = Pit::front_row().filter(|&p| board.get(me, p) > 0).collect();
        let only_filled_front = filled_front.len() == 1 && filled_front[0] == mv.pit;

        match stage {
            Stage::Kunamua => {
                if mv.pit.row() == Row::Back {
                    // spec: bao 2.3 kunamua moves start in the front row
                    return Err(IllegalMove::KunamuaBackRow(name));
                }
                if seeds == 0 {
                    // spec: bao 2.3 the store seed goes into a non-empty front pit
                    return Err(IllegalMove::EmptyPit(name));
                }
                if is_capture {
                    return Ok(Start::Capture);
                }
                let facing = mv.pit.opposite().expect("front pit");
                if pos.board.get(me.opponent(), facing) > 0 {
                    return Err(IllegalMove::KichwaForced(name));
                }
                if !captures.is_empty() {
                    // spec: bao 1.4.1 a player who can harvest must do so
                    return Err(IllegalMove::MustCapture(name));
                }
            }
            Stage::Mtaji => {
                if seeds < 2 {
                    // spec: bao 3.3.1 only pits with more than one seed are played
                    // spec: bao 1.3.2 no sowing starts with a single seed
                    return Err(IllegalMove::SingleSeed(name));
                }
                if is_capture {
                    // spec: bao 3.4 a capture move starts from any pit whose sowing harvests
                    return Ok(Start::Capture);
                }
                if !captures.is_empty() {
                    // spec: bao 1.5.1 a move must start with a harvest if one is possible
                    return Err(IllegalMove::MustCapture(name));
                }
                // spec: bao 3.5 no harvest possible: the move is a kutakata, from the front row
                if mv.pit.row() == Row::Back && front_pits_over_one > 0 {
                    // spec: bao 3.5.1 the back row only when no front pit holds two or more
                    // spec: bao 1.5.2 a kutakata starts in the front row from a pit with two or more
                    return Err(IllegalMove::BackRowKutakata(name));
                }
            }
        }
        // From here on the move is a kutakata (spec: bao 1.5.3).
        if pos.blocked == Some(mv.pit) {
            // spec: bao 5.1 the kutakatia-ed pit may not be emptied
            return Err(IllegalMove::Kutakatia(name));
        }
        if stage == Stage::Kunamua {
            if mv.pit.is_house() && pos.house_active(me) {
                if only_filled_front {
                    // spec: bao 2.3.2 the house as only filled front pit pays the tax
                    return Ok(Start::HouseTax);
                }
                // spec: bao 4.2.2.1 no kutakata from the owned house with six or more
                return Err(IllegalMove::HouseKutakata(name));
            }
            if !pos.house_owned(me) && seeds == 1 && front_pits_over_one > 0 {
                // spec: bao 2.3.3 house lost: no single-seed start while a fuller front pit exists
                return Err(IllegalMove::SingleSeedKutakata(name));
            }
        }
        let direction = mv.hand.direction_on(mv.pit.row());
        let toward_back = (mv.pit == Pit::LEFT_KICHWA && direction == Direction::Anticlockwise)
            || (mv.pit == Pit::RIGHT_KICHWA && direction == Direction::Clockwise);
        if only_filled_front && toward_back {
            // spec: bao 1.5.3.1 never empty the front row by sowing the only kichwa backwards
            // spec: bao 2.3.1 in kunamua as well
            // spec: bao 3.5.2 and in mtaji
            return Err(IllegalMove::KichwaTowardBackRow(name));
        }
        Ok(Start::Kutakata)
    }

    /// Plays `mv` from a start already checked, to its end or until it proves infinite.
    fn run(&self, pos: &Position, mv: Move, start: Start, record: bool) -> MoveRun {
        let me = pos.to_move;
        let mut m = InMove {
            variant: &self.variant,
            me,
            stage: pos.stage(),
            board: pos.board.clone(),
            house_owned: pos.house_owned,
            blocked: pos.blocked,
            trace: Vec::new(),
            record,
            sown: 0,
            captures: 0,
        };
        let mut stores = pos.stores;
        let first = self.first_sowing(&mut m, &mut stores, mv, start);
        let mut undefined = first.undefined.into_iter().collect::<Vec<_>>();
        let (ended, house_decision) = if first.silent.is_some() {
            (Ended::Silent, false)
        } else {
            self.sow_on(
                &mut m,
                mv,
                start,
                first.end,
                first.direction,
                first.game_over,
            )
        };
        // spec: bao 1.5.6 under a sowing limit, a move that sowed more than the limit is infinite
        let over_limit =
            matches!(self.variant.infinite_moves, InfiniteMoves::SownLimit(n) if m.sown > n);
        let infinite = ended == Ended::Infinite || over_limit;
        let game_over = ended == Ended::GameOver;
        let them = me.opponent();
        if game_over {
            m.log("1.2.1", Event::GameOver { winner: me });
        }
        let mut position = Position {
            board: m.board,
            stores,
            house_owned: m.house_owned,
            // spec: bao 1.5.5 after a move the opponent is to move
            to_move: them,
            blocked: None,
        };
        if start != Start::Capture && !game_over && !infinite {
            if let Some(pit) = self.kutakatia_after(&position) {
                m.trace.push(Step {
                    clause: "5.1",
                    event: Event::Kutakatia {
                        at: SidePit { side: them, pit },
                    },
                });
                position.blocked = Some(pit);
                undefined.push(Undefined {
                    clause: "5.1",
                    what: "a pit was kutakatia-ed; how long it lasts is unstated (read: one move)",
                });
            }
        }
        MoveRun {
            position,
            trace: m.trace,
            sown: m.sown,
            captures: m.captures,
            infinite,
            house_decision,
            undefined,
            silent: first.silent,
        }
    }

    /// The start of a move up to the end of its first sowing (the store seed and a harvest in
    /// kunamua; the pick-up and sowing, and the harvest of a capture move, in mtaji).
    fn first_sowing(
        &self,
        m: &mut InMove,
        stores: &mut [u8; 2],
        mv: Move,
        start: Start,
    ) -> FirstSowing {
        let me = m.me;
        let (start_clause, start_kind) = match (m.stage, start) {
            (Stage::Kunamua, Start::Capture) => ("2.2.1", StartKind::Capture),
            (Stage::Kunamua, Start::Kutakata) => ("2.3", StartKind::Kutakata),
            (_, Start::HouseTax) => ("2.3.2", StartKind::HouseTax),
            (Stage::Mtaji, Start::Capture) => ("3.4", StartKind::Capture),
            (Stage::Mtaji, Start::Kutakata) if mv.pit.row() == Row::Back => {
                ("3.5.1", StartKind::Kutakata)
            }
            (Stage::Mtaji, Start::Kutakata) => ("3.5", StartKind::Kutakata),
        };
        m.log(
            start_clause,
            Event::Start {
                at: m.at(mv.pit),
                kind: start_kind,
            },
        );
        let mut first = FirstSowing {
            end: None,
            direction: None,
            game_over: false,
            undefined: None,
            silent: None,
        };
        if m.stage == Stage::Mtaji {
            // spec: bao 3.3 a mtaji move empties the chosen pit and sows in the chosen direction
            let d = mv.hand.direction_on(mv.pit.row());
            let seeds = m.pick_up(mv.pit, "3.3");
            let end = m.sow(mv.pit.next(d), seeds, d);
            // spec: bao 1.4.2 a mtaji capture move harvests where its first sowing ends
            (first.end, first.direction) = (Some(end), Some(d));
            if start == Start::Capture {
                let (e, d2, over) = m.capture(end, Some(d), mv.hand, "1.4.2");
                (first.end, first.direction, first.game_over) = (Some(e), Some(d2), over);
            }
            return first;
        }
        // spec: bao 2.1.2 a kunamua move starts with one seed from the store
        stores[me.index()] -= 1;
        let now = m.board.add_one(me, mv.pit);
        m.sown += 1;
        m.log(
            "2.1.2",
            Event::StoreSeed {
                at: m.at(mv.pit),
                now,
            },
        );
        match start {
            Start::Capture => {
                // spec: bao 2.2 the seed lands facing a non-empty pit: harvest at once
                let (e, d, over) = m.capture(mv.pit, None, mv.hand, "1.4.2");
                (first.end, first.direction, first.game_over) = (Some(e), Some(d), over);
            }
            Start::HouseTax => {
                // spec: bao 4.2.2.2 take two seeds from the house and sow them left or right
                m.board.set(me, Pit::HOUSE, now - 2);
                m.log(
                    "4.2.2.2",
                    Event::HouseTax {
                        at: m.at(Pit::HOUSE),
                    },
                );
                let d = mv.hand.direction_on(Row::Front);
                (first.end, first.direction) = (Some(m.sow(Pit::HOUSE.next(d), 2, d)), Some(d));
            }
            Start::Kutakata => {
                let d = mv.hand.direction_on(Row::Front);
                first.direction = Some(d);
                let lifted_house = mv.pit.is_house() && m.house_active() && now == 6;
                let open = Undefined {
                    clause: "2.1.2",
                    what: "the store seed lifted an owned house of five to six",
                };
                if lifted_house {
                    first.undefined = Some(open);
                }
                if lifted_house && self.variant.store_seed_into_house == StoreSeedIntoHouse::Open {
                    // spec: bao 2.1.2 left open: 2.1.2 (a sowing ending in the house) and 1.3 (not a sowing) disagree
                    first.silent = Some(open);
                } else if mv.pit.is_house()
                    && m.house_active()
                    && self.variant.store_seed_into_house == StoreSeedIntoHouse::Stop
                {
                    // spec: bao 4.2.2.3.1 read literally: the store seed's sowing ended in a house of six
                    m.log("4.2.2.3.1", Event::End(MoveEnd::House));
                } else {
                    // spec: bao 2.3 kutakata: the filled pit is emptied and sown on
                    let seeds = m.pick_up(mv.pit, "2.3");
                    first.end = Some(m.sow(mv.pit.next(d), seeds, d));
                }
            }
        }
        first
    }

    /// Sows on from the end of the first sowing: harvests, kuendelea and the house decision, until
    /// the move ends; how it ended, and whether the house was up for a decision.
    fn sow_on(
        &self,
        m: &mut InMove,
        mv: Move,
        start: Start,
        mut end: Option<Pit>,
        mut direction: Option<Direction>,
        mut game_over: bool,
    ) -> (Ended, bool) {
        let me = m.me;
        // spec: bao 1.5.3 a move not started with a harvest harvests nothing at all
        let capture_move = start == Start::Capture;
        let mut house_decision = false;
        // Brent's cycle detection: compare with a snapshot replaced at doubling intervals. Long
        // moves also keep "landmark" states: a repeated landmark proves a cycle about one cycle
        // length after it starts, where Brent may need two or three.
        let mut snapshot: Option<InMoveState> = None;
        let (mut power, mut since_snapshot) = (1u64, 0u64);
        let mut landmarks: HashSet<InMoveState> = HashSet::new();
        let mut relays = 0u64;
        while let Some(e) = end {
            if game_over {
                m.log("1.2.1", Event::End(MoveEnd::GameOver));
                return (Ended::GameOver, house_decision);
            }
            let d = direction.expect("the direction is set after the first sowing");
            let here = m.board.get(me, e);
            if here == 1 {
                // spec: bao 1.5.4 a sowing ending in an empty pit ends the move
                m.log("1.5.4", Event::End(MoveEnd::EmptyPit));
                break;
            }
            if capture_move {
                if let Some(facing) = e.opposite() {
                    if m.board.get(me.opponent(), facing) > 0 {
                        // spec: bao 1.6.1 a harvest is possible: the move goes on with it
                        let (e2, d2, over) = m.capture(e, Some(d), mv.hand, "1.6.1");
                        (end, direction, game_over) = (Some(e2), Some(d2), over);
                        continue;
                    }
                }
            }
            if !capture_move && m.blocked == Some(e) {
                // spec: bao 5.2 kuendelea ending in the kutakatia-ed pit ends the move
                // spec: bao 1.6.3 kuendelea stops there
                m.log("5.2", Event::End(MoveEnd::Kutakatia));
                break;
            }
            if e.is_house() && m.house_active() {
                if !capture_move {
                    // spec: bao 4.2.2.3.1 kutakata ends in the owned house with six or more
                    // spec: bao 1.6.2 in both stages: a kutakata cannot decide to play the house
                    let clause = if m.stage == Stage::Kunamua {
                        "4.2.2.3.1"
                    } else {
                        "1.6.2"
                    };
                    m.log(clause, Event::End(MoveEnd::House));
                    break;
                }
                house_decision = true;
                if !mv.play_house {
                    // spec: bao 4.2.2.3.2 no harvest at the house: the player may stop here
                    m.log("4.2.2.3.2", Event::End(MoveEnd::House));
                    break;
                }
                // spec: bao 4.2.1.2 the player chose to play the house
                m.log("4.2.1.2", Event::HousePlayed { at: m.at(e) });
            }
            // spec: bao 1.5.6 an infinite move is one whose in-move state comes back
            let state = (m.board.clone(), m.house_owned, e, d);
            let over_limit = matches!(self.variant.infinite_moves,
                InfiniteMoves::SownLimit(n) if m.sown > n);
            // mutant: excused the relay count only says when landmarks start to be kept (landmark_repeats): Brent's check finds the same cycles without them
            relays += 1;
            let repeated = snapshot.as_ref() == Some(&state)
                || landmark_repeats(&mut landmarks, relays, &state);
            since_snapshot += 1;
            if since_snapshot == power {
                snapshot = Some(state);
                // mutant: excused it only sets how far apart Brent's snapshots are: any growing distance meets every cycle, and past 65,536 relays the landmarks do even if the snapshot stops
                power *= 2;
                since_snapshot = 0;
            }
            if over_limit || repeated {
                m.log("1.5.6", Event::End(MoveEnd::Infinite));
                return (Ended::Infinite, house_decision);
            }
            // spec: bao 1.6 kuendelea: take the ending pit's seeds and sow on the same way
            let seeds = m.pick_up(e, "1.6");
            end = Some(m.sow(e.next(d), seeds, d));
        }
        (Ended::Stopped, house_decision)
    }

    /// After a kutakata: the mover's (now the opponent's) pit that is kutakatia-ed, if any (spec: bao 5.1).
    fn kutakatia_after(&self, pos: &Position) -> Option<Pit> {
        let blocked_side = pos.to_move;
        let threat_side = blocked_side.opponent();
        // spec: bao 5.1 only when the player now to move must kutakata
        if !Rules::capture_starts(&pos.board, blocked_side, pos.stage()).is_empty() {
            return None;
        }
        // The pits the kutakata-ing player could harvest if it were to move again.
        // mutant: excused with the mover's store not empty the opponent is in kunamua too (the stores' check in Position), and a pit either stage could harvest faces an occupied front pit from which the opponent could capture: the function has returned above, whatever stage is picked here
        let threat_stage = if pos.store(threat_side) > 0 {
            Stage::Kunamua
        } else {
            Stage::Mtaji
        };
        let mut threatened: Vec<Pit> = Rules::capture_starts(&pos.board, threat_side, threat_stage)
            .into_iter()
            .map(|(_, _, facing)| facing)
            .collect();
        threatened.sort();
        threatened.dedup();
        // spec: bao 5.1 exactly one pit can be harvested
        let [pit] = threatened[..] else {
            return None;
        };
        let seeds_at = |p: Pit| pos.board.get(blocked_side, p);
        let house_exempt = match self.variant.house_kutakatia {
            HouseKutakatia::ExemptWhileOwned => pos.house_owned(blocked_side),
            HouseKutakatia::ExemptWhileOwnedWithSix => pos.house_active(blocked_side),
        };
        // spec: bao 5.1.1.1 the still-owned house cannot be kutakatia-ed
        // spec: bao 4.2.3.1 likewise in mtaji while the house is owned
        if pit.is_house() && house_exempt {
            return None;
        }
        // spec: bao 5.1.1.2 nor the only occupied front pit
        if Pit::front_row().all(|p| p == pit || seeds_at(p) == 0) {
            return None;
        }
        // spec: bao 5.1.1.3 nor the only front pit with more than one seed
        if seeds_at(pit) > 1 && Pit::front_row().all(|p| p == pit || seeds_at(p) <= 1) {
            return None;
        }
        Some(pit)
    }

    /// The game's result if it is over: an empty front row, or no legal move (spec: bao 1.2).
    pub fn outcome(&self, pos: &Position) -> Option<Outcome> {
        for side in Side::BOTH {
            if pos.board.front_row_empty(side) {
                // spec: bao 1.2.1 an empty front row loses
                return Some(Outcome {
                    winner: side.opponent(),
                    clause: "1.2.1",
                });
            }
        }
        if self.legal_moves(pos).is_empty() {
            let me = pos.to_move;
            let any_start = self.candidate_starts(pos).next().is_some();
            // spec: bao 1.2.2 a player who cannot move loses; 1.5.6 likewise if every move is infinite
            let clause = match (any_start, pos.stage()) {
                (true, _) => "1.5.6",
                // spec: bao 3.3.2 in mtaji: no pit with two or more seeds
                (false, Stage::Mtaji) => "3.3.2",
                (false, Stage::Kunamua) => "1.2.2",
            };
            return Some(Outcome {
                winner: me.opponent(),
                clause,
            });
        }
        None
    }

    /// Every (pit, hand) start that passes the rules for starting, before the finiteness check.
    fn candidate_starts<'a>(
        &'a self,
        pos: &'a Position,
    ) -> impl Iterator<Item = (Move, Start)> + 'a {
        Pit::front_row()
            .chain((1..=8).map(Pit::back))
            .flat_map(|pit| Hand::BOTH.map(|hand| (pit, hand)))
            .filter_map(move |(pit, hand)| {
                let mv = Move {
                    pit,
                    hand,
                    play_house: false,
                };
                self.classify(pos, mv).ok().map(|s| (mv, s))
            })
    }

    /// The slots a uniformly random move is drawn from, shared with the optimized engine: every
    /// start that passes the start rules, in ring order (front 1–8, back 8–1) with `<` first,
    /// and whether each also has a `+` twin slot (a harvest with the house owned, the only moves
    /// that can meet the house decision). A drawn slot whose move is not legal is drawn again.
    pub fn draw_slots(&self, pos: &Position) -> (Vec<Move>, bool) {
        let mut starts: Vec<(Move, Start)> = self.candidate_starts(pos).collect();
        starts.sort_by_key(|(m, _)| (m.pit.ring(), m.hand == Hand::Right));
        let twins = pos.house_owned(pos.to_move)
            && starts.iter().any(|&(_, start)| start == Start::Capture);
        (starts.into_iter().map(|(m, _)| m).collect(), twins)
    }

    /// All legal moves in canonical order; empty when the game is over (spec: bao 1.2).
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        self.legal_moves_and_infinite(pos).0
    }

    /// The legal moves, and how many starts passed the start rules but never end (spec: bao 1.5.6).
    pub fn legal_moves_and_infinite(&self, pos: &Position) -> (Vec<Move>, usize) {
        if Side::BOTH.iter().any(|&s| pos.board.front_row_empty(s)) {
            return (Vec::new(), 0);
        }
        let mut moves = Vec::new();
        let mut infinite = 0;
        for (mv, start) in self.candidate_starts(pos) {
            let run = self.run(pos, mv, start, false);
            if run.infinite {
                infinite += 1;
            } else {
                moves.push(mv);
            }
            if run.house_decision {
                let plus = Move {
                    play_house: true,
                    ..mv
                };
                if self.run(pos, plus, start, false).infinite {
                    infinite += 1;
                } else {
                    moves.push(plus);
                }
            }
        }
        (moves, infinite)
    }

    /// Plays `mv`, or says which clause forbids it.
    pub fn play(&self, pos: &Position, mv: Move) -> Result<Played, IllegalMove> {
        let name = || mv.notation(pos.to_move, MoveKind::Capture);
        if let Some(end) = self.outcome_without_moves(pos) {
            return Err(IllegalMove::GameOver(end));
        }
        let start = self.classify(pos, mv)?;
        let run = self.run(pos, mv, start, true);
        if let Some(open) = run.silent {
            return Err(IllegalMove::RulesSilent {
                mv: name(),
                clause: open.clause,
                what: open.what,
            });
        }
        if run.infinite {
            return Err(IllegalMove::Infinite(name()));
        }
        if mv.play_house && !run.house_decision {
            return Err(IllegalMove::NoHouseDecision(name()));
        }
        let kind = if start == Start::Capture {
            MoveKind::Capture
        } else if run.position.blocked.is_some() {
            MoveKind::Kutakatia
        } else {
            MoveKind::Kutakata
        };
        Ok(Played {
            position: run.position,
            kind,
            trace: run.trace,
            sown: run.sown,
            captures: run.captures,
            undefined: run.undefined,
        })
    }

    fn outcome_without_moves(&self, pos: &Position) -> Option<&'static str> {
        Side::BOTH
            .iter()
            .any(|&s| pos.board.front_row_empty(s))
            .then_some("1.2.1")
    }

    /// Resolves a written move against `pos`, filling in what the notation let the writer omit.
    pub fn resolve(&self, pos: &Position, text: &MoveText) -> Result<Move, IllegalMove> {
        let me = pos.to_move;
        let written = text.to_string();
        let row = match text.row {
            Some((side, _)) if side != me => return Err(IllegalMove::WrongSide(written)),
            Some((_, row)) => row,
            // spec: bao N.5 the row may be omitted in kunamua
            // spec: bao N.1 a move names the start pit by row letter and number
            None if pos.stage() == Stage::Kunamua => Row::Front,
            None => return Err(IllegalMove::RowNeeded),
        };
        let pit = text.pit(row);
        let mv = match text.hand {
            Some(hand) => Move {
                pit,
                hand,
                play_house: text.play_house,
            },
            None => {
                // spec: bao N.5 the direction may be omitted where only one reading is legal
                let legal: Vec<Move> = self
                    .legal_moves(pos)
                    .into_iter()
                    .filter(|m| m.pit == pit && m.play_house == text.play_house)
                    .collect();
                match legal[..] {
                    [one] => one,
                    [] => Move {
                        pit,
                        hand: forced_kichwa_hand(pit).unwrap_or(Hand::Left),
                        play_house: text.play_house,
                    },
                    _ => {
                        return Err(IllegalMove::Ambiguous {
                            written,
                            candidates: legal
                                .iter()
                                .map(|m| m.notation(me, MoveKind::Capture))
                                .collect::<Vec<_>>()
                                .join(" or "),
                        })
                    }
                }
            }
        };
        Ok(mv)
    }

    /// Resolves and plays a written move, checking a written `*`/`**` against what the move is.
    pub fn play_text(
        &self,
        pos: &Position,
        text: &MoveText,
    ) -> Result<(Move, Played), IllegalMove> {
        let mv = self.resolve(pos, text)?;
        let played = self.play(pos, mv)?;
        let stars = match played.kind {
            MoveKind::Capture => 0,
            MoveKind::Kutakata => 1,
            MoveKind::Kutakatia => 2,
        };
        if text.stars != 0 && text.stars != stars {
            return Err(IllegalMove::WrongAnnotation {
                written: text.to_string(),
                actual: mv.notation(pos.to_move, played.kind),
            });
        }
        Ok((mv, played))
    }

    /// The canonical notation of a legal move in `pos` (spec: bao N.1–N.4).
    pub fn notation(&self, pos: &Position, mv: Move) -> Result<String, IllegalMove> {
        match self.play(pos, mv) {
            Ok(played) => Ok(mv.notation(pos.to_move, played.kind)),
            // A move stopped at an open point has no end, so only its start names it.
            Err(IllegalMove::RulesSilent { .. }) => {
                let kind = match self.classify(pos, mv)? {
                    // mutant: excused no capture stops at an open point: the one the rules leave (2.1.2, preset strict) is a kutakata's store seed lifting the owned house to six, so this arm only keeps the notation right for a reading that would open one
                    Start::Capture => MoveKind::Capture,
                    _ => MoveKind::Kutakata,
                };
                Ok(mv.notation(pos.to_move, kind))
            }
            Err(e) => Err(e),
        }
    }
}

/// For a capture at a kichwa or kimbi, the only hand the notation allows (spec: bao 1.4.5).
fn forced_kichwa_hand(pit: Pit) -> Option<Hand> {
    if pit == Pit::LEFT_KICHWA || pit == Pit::LEFT_KIMBI {
        Some(Hand::Left)
    } else if pit == Pit::RIGHT_KICHWA || pit == Pit::RIGHT_KIMBI {
        Some(Hand::Right)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_keeps_at_most_trace_limit_steps_and_none_unasked() {
        // North's a1< in this position never ends (experiments/long-infinite-move); under a
        // 200,000-seed cut-off it makes far more than 10,000 sowings before it is deemed infinite.
        let pos = crate::bao::position_text::parse(include_str!(
            "../../experiments/long-infinite-move/position.txt"
        ))
        .unwrap();
        let rules =
            Rules::new(Variant::DEFAULT.with_infinite_moves(InfiniteMoves::SownLimit(200_000)));
        let mv = rules
            .resolve(&pos, &MoveText::parse("a1<").unwrap())
            .unwrap();
        let start = rules.classify(&pos, mv).unwrap();
        let recorded = rules.run(&pos, mv, start, true);
        assert!(recorded.infinite);
        assert_eq!(recorded.trace.len(), TRACE_LIMIT);
        assert!(rules.run(&pos, mv, start, false).trace.is_empty());
    }
}
