//! Bao positions: a raw `Setup` that may break the rules' invariants, and a validated `Position`.
//! The engines only ever see a `Position`; `Position::from_setup` is the one way to get one.

use super::board::{Board, Pit, Row, Side};

/// Total seeds in a game of Bao: 32 per player (spec: bao 2.1).
pub const TOTAL_SEEDS: u32 = 64;
/// Seeds each player holds in store at the start (spec: bao 2.1).
pub const STORE_AT_START: u8 = 22;

/// The two stages of a game (spec: bao 1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Moves start by placing a seed from the store (spec: bao 2.1.2).
    Kunamua,
    /// All seeds are on the board (spec: bao 3.1).
    Mtaji,
}

/// Any arrangement of seeds and flags, checked only when turned into a [`Position`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Seeds in every pit.
    pub board: Board,
    /// Seeds in store, indexed by [`Side::index`].
    pub stores: [u8; 2],
    /// Whether each player still owns the nyumba, indexed by [`Side::index`].
    pub house_owned: [bool; 2],
    /// The player to move.
    pub to_move: Side,
    /// The mover's pit that the opponent's last kutakata made kutakatia-ed, if any (spec: bao 5.1).
    pub blocked: Option<Pit>,
}

/// Why a [`Setup`] is not a position the rules can reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Board and stores do not add up to 64 seeds.
    #[error("the board and stores hold {0} seeds; a Bao position has exactly 64")]
    SeedCount(u32),
    /// A store holds more than the 22 seeds it starts with.
    #[error("{side}'s store holds {seeds} seeds; a store starts with 22 and only shrinks")]
    StoreTooLarge {
        /// Whose store.
        side: Side,
        /// Its count.
        seeds: u8,
    },
    /// The stores do not fit the alternation of kunamua moves with `to_move` at move.
    #[error("stores South {south} / North {north} cannot occur with {to_move} to move (South moves first and each kunamua move uses one store seed)")]
    StoresInconsistent {
        /// South's store.
        south: u8,
        /// North's store.
        north: u8,
        /// The player to move.
        to_move: Side,
    },
    /// An owned house must hold seeds, since an emptied house is lost (spec: bao 4.2.1.1).
    #[error("{0}'s house is marked owned but is empty; an emptied house is lost")]
    EmptyOwnedHouse(Side),
    /// The kutakatia-ed pit must be a non-empty front pit of the player to move.
    #[error("the kutakatia-ed pit {0} must be a non-empty front-row pit of the player to move")]
    BadBlockedPit(String),
}

/// A validated Bao position: seeds conserved, stores consistent with the stage.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) stores: [u8; 2],
    pub(crate) house_owned: [bool; 2],
    pub(crate) to_move: Side,
    pub(crate) blocked: Option<Pit>,
}

impl Position {
    /// The start position (spec: bao 2.1, 2.1.1).
    pub fn start() -> Position {
        let mut board = Board::empty();
        for side in Side::BOTH {
            // spec: bao 2.1 six in the nyumba, two in each of the next two pits to its right
            board.set(side, Pit::HOUSE, 6);
            board.set(side, Pit::front(6), 2);
            board.set(side, Pit::front(7), 2);
        }
        Position {
            board,
            // spec: bao 2.1 each player has 22 seeds in store
            stores: [STORE_AT_START; 2],
            house_owned: [true; 2],
            // spec: bao 2.1.1 South moves first
            to_move: Side::South,
            blocked: None,
        }
    }

    /// Checks the invariants of a reachable position (seed total, stores, houses, kutakatia mark).
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let [south, north] = setup.stores;
        let total = setup.board.total() + u32::from(south) + u32::from(north);
        if total != TOTAL_SEEDS {
            return Err(PositionError::SeedCount(total));
        }
        for side in Side::BOTH {
            let seeds = setup.stores[side.index()];
            if seeds > STORE_AT_START {
                return Err(PositionError::StoreTooLarge { side, seeds });
            }
            if setup.house_owned[side.index()] && setup.board.get(side, Pit::HOUSE) == 0 {
                return Err(PositionError::EmptyOwnedHouse(side));
            }
        }
        let consistent = match setup.to_move {
            Side::South => south == north,
            Side::North => north == south + 1 || (north == 0 && south == 0),
        };
        if !consistent {
            return Err(PositionError::StoresInconsistent {
                south,
                north,
                to_move: setup.to_move,
            });
        }
        if let Some(pit) = setup.blocked {
            if pit.row() != Row::Front || setup.board.get(setup.to_move, pit) == 0 {
                return Err(PositionError::BadBlockedPit(pit.name(setup.to_move)));
            }
        }
        Ok(Position {
            board: setup.board,
            stores: setup.stores,
            house_owned: setup.house_owned,
            to_move: setup.to_move,
            blocked: setup.blocked,
        })
    }

    /// The raw setup of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board.clone(),
            stores: self.stores,
            house_owned: self.house_owned,
            to_move: self.to_move,
            blocked: self.blocked,
        }
    }

    /// The seeds on the board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Seeds in `side`'s store.
    pub fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// Whether `side` still owns its nyumba.
    pub fn house_owned(&self, side: Side) -> bool {
        self.house_owned[side.index()]
    }

    /// The player to move.
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The mover's kutakatia-ed pit, if any (spec: bao 5.1).
    pub fn blocked(&self) -> Option<Pit> {
        self.blocked
    }

    /// The stage of the coming move: kunamua while the mover has seeds in store (spec: bao 3.1).
    pub fn stage(&self) -> Stage {
        // spec: bao 3.1 mtaji begins once every seed is on the board; the mover's store empties last
        if self.stores[self.to_move.index()] > 0 {
            Stage::Kunamua
        } else {
            Stage::Mtaji
        }
    }

    /// Whether `side` owns its house and it holds six or more seeds (spec: bao 4.2.1.3).
    pub fn house_active(&self, side: Side) -> bool {
        // spec: bao 4.2.1.3 the "six or more" house rules lapse below six and return at six
        self.house_owned(side) && self.board.get(side, Pit::HOUSE) >= 6
    }
}
