//! The `net` policy: a small neural network learned elsewhere (the vector environments, e.g.
//! experiments/learning) read from a JSON file, playing its highest-scored legal action.
//!
//! The file: `{"format": "mancala-lab net 1", "game": "kalah", "view": "mover", "layers":
//! [{"weights": [[..]], "bias": [..], "activation": "tanh"}, ...]}`: each layer's weights one
//! row per output, the first layer's inputs the game's observation (`view` `board`, the
//! default) or, for Kalah and Oware, the same seen from the mover (`mover`: the mover's row and
//! store first), the last layer's outputs its action ids.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::PolicyError;
use crate::game::Game;

/// The settings' keys, as a policy text writes them.
pub const KEYS: &str = "file";
/// The first field of a net file.
pub const FORMAT: &str = "mancala-lab net 1";
/// Most numbers a net file may hold (weights and biases), about 64 MB of them.
const MAX_NUMBERS: usize = 1 << 24;

/// A net policy's settings: the net read, by its place in this process's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    id: u16,
}

/// One layer: `outputs` rows of `inputs` weights, a bias per output, then the activation.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Layer {
    weights: Vec<Vec<f32>>,
    bias: Vec<f32>,
    activation: Activation,
}

/// A layer's activation.
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum Activation {
    Tanh,
    Relu,
    Linear,
}

/// What the first layer reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum View {
    /// The game's observation as it is.
    #[default]
    Board,
    /// Kalah's and Oware's observation from the mover's side: its row, the other row, its
    /// store (score), the other's, then the player to move.
    Mover,
}

/// A net file as written.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    game: String,
    #[serde(default)]
    view: View,
    layers: Vec<Layer>,
}

/// A net read and checked: its game and layers.
#[derive(Debug)]
pub struct Net {
    file: String,
    game: String,
    view: View,
    layers: Vec<Layer>,
}

/// The nets read by this process, by file as given.
static NETS: Mutex<Vec<Arc<Net>>> = Mutex::new(Vec::new());

impl Settings {
    /// The settings from the `key=value` pairs given: the net of `file=PATH`, read now (once a
    /// process for one path).
    pub(super) fn from_given(given: &[(&'static str, &str)]) -> Result<Settings, PolicyError> {
        let Some(&(_, path)) = given.iter().find(|(k, _)| *k == "file") else {
            return Err(PolicyError::Conflict {
                policy: "net",
                message: "give the net's file: net:file=PATH".into(),
            });
        };
        let mut nets = NETS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = nets.iter().position(|n| n.file == path) {
            return Ok(Settings { id: i as u16 });
        }
        let net = read(path).map_err(|message| PolicyError::Net {
            file: path.to_string(),
            message,
        })?;
        let id = u16::try_from(nets.len()).map_err(|_| PolicyError::Conflict {
            policy: "net",
            message: "too many net files in one process".into(),
        })?;
        nets.push(Arc::new(net));
        Ok(Settings { id })
    }

    /// The net.
    pub fn net(self) -> Arc<Net> {
        let nets = NETS.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(&nets[usize::from(self.id)])
    }
}

impl fmt::Display for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "file={}", self.net().file)
    }
}

/// The net in the file `path`, checked: its format, game, shapes and numbers.
fn read(path: &str) -> Result<Net, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read it: {e}"))?;
    let file: File = serde_json::from_str(&text).map_err(|e| format!("not a net file: {e}"))?;
    if file.format != FORMAT {
        return Err(format!("format {:?}: expected {FORMAT:?}", file.format));
    }
    let (inputs, outputs) = match file.game.as_str() {
        "kalah" | "oware" => (15, 6),
        "bao" => (38, 64),
        other => return Err(format!("game {other:?}: expected kalah, oware or bao")),
    };
    if file.view == View::Mover && file.game == "bao" {
        return Err("view \"mover\" is for kalah and oware; a bao net reads the board".into());
    }
    if file.layers.is_empty() {
        return Err("no layers".into());
    }
    let mut width = inputs;
    let mut numbers = 0usize;
    for (i, layer) in file.layers.iter().enumerate() {
        let rows = layer.weights.len();
        if rows == 0 || layer.bias.len() != rows {
            return Err(format!(
                "layer {i}: {rows} rows of weights and {} biases (one bias a row, at least one row)",
                layer.bias.len()
            ));
        }
        if let Some(r) = layer.weights.iter().position(|row| row.len() != width) {
            return Err(format!(
                "layer {i}, row {r}: {} weights, expected {width} (the {})",
                layer.weights[r].len(),
                if i == 0 {
                    "game's observation"
                } else {
                    "previous layer's outputs"
                }
            ));
        }
        numbers += rows * (width + 1);
        if numbers > MAX_NUMBERS {
            return Err(format!("more than {MAX_NUMBERS} numbers"));
        }
        let finite = layer.weights.iter().flatten().chain(&layer.bias);
        if finite.clone().any(|x| !x.is_finite()) {
            return Err(format!("layer {i}: a number that is not finite"));
        }
        width = rows;
    }
    if width != outputs {
        return Err(format!(
            "the last layer has {width} outputs, expected {outputs} (the game's action ids)"
        ));
    }
    Ok(Net {
        file: path.to_string(),
        game: file.game,
        view: file.view,
        layers: file.layers,
    })
}

impl Net {
    /// The game the net plays (`kalah`, `oware`, `bao`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The net's score of each action id for the observation `x`.
    pub fn scores(&self, x: &[f32]) -> Vec<f32> {
        let mut v = x.to_vec();
        // North to move: its row and score first (Kalah's and Oware's 15 numbers).
        if self.view == View::Mover && x.len() == 15 && x[14] == 1.0 {
            v[..6].copy_from_slice(&x[6..12]);
            v[6..12].copy_from_slice(&x[..6]);
            (v[12], v[13]) = (x[13], x[12]);
        }
        for layer in &self.layers {
            v = layer
                .weights
                .iter()
                .zip(&layer.bias)
                .map(|(row, &b)| {
                    let z = row.iter().zip(&v).map(|(w, x)| w * x).sum::<f32>() + b;
                    match layer.activation {
                        Activation::Tanh => z.tanh(),
                        Activation::Relu => z.max(0.0),
                        Activation::Linear => z,
                    }
                })
                .collect();
        }
        v
    }
}

/// Whether `game` is one the net of `settings` plays, or why not.
pub fn check<G: Game>(game: &G, settings: Settings) -> Result<(), String> {
    let net = settings.net();
    if net.game != game.game_name() {
        return Err(format!(
            "policy 'net:file={}' was learned on {}: it does not play {}",
            net.file,
            net.game,
            game.game_name()
        ));
    }
    let start = game.start();
    match game.observe(&start) {
        Some(x) if x.len() == net.layers[0].weights[0].len() => Ok(()),
        _ => Err(format!(
            "policy 'net:file={}': the {} engine gives no observation of its size",
            net.file,
            game.game_name()
        )),
    }
}

/// The legal move of `s` the net scores highest (the first in the game's order among equals);
/// `None` when none is legal.
pub fn best_move<G: Game>(game: &G, s: &G::State, settings: Settings) -> Option<G::Move> {
    let x = game.observe(s)?;
    let scores = settings.net().scores(&x);
    let mut moves = Vec::new();
    game.legal_moves(s, &mut moves);
    let mut best: Option<(G::Move, f32)> = None;
    for mv in moves {
        let score = game
            .action_id(mv)
            .and_then(|a| scores.get(a as usize).copied())?;
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((mv, score));
        }
    }
    best.map(|(mv, _)| mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kalah::fast::FastRules;
    use crate::kalah::{Side, Variant};
    use crate::policy::{Players, Policy};

    /// A folder of this test's own for its files (removed at the end of the test).
    struct Dir(std::path::PathBuf);

    impl Dir {
        fn new(test: &str) -> Dir {
            let p =
                std::env::temp_dir().join(format!("mancala-lab-net-{}-{test}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
        fn path(&self) -> &std::path::Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A net file of one linear layer in `dir`: `weights` (6 rows of 15) and `bias`.
    fn linear(
        dir: &std::path::Path,
        name: &str,
        view: &str,
        weights: Vec<Vec<f32>>,
        bias: [f32; 6],
    ) -> String {
        let path = dir.join(name);
        let file = serde_json::json!({
            "format": FORMAT, "game": "kalah", "view": view,
            "layers": [{"weights": weights, "bias": bias, "activation": "linear"}],
        });
        std::fs::write(&path, file.to_string()).unwrap();
        path.to_str().unwrap().to_string()
    }

    fn zeros() -> Vec<Vec<f32>> {
        vec![vec![0.0; 15]; 6]
    }

    #[test]
    fn the_highest_scored_legal_pit_is_played() {
        let dir = Dir::new("highest");
        let game = FastRules::new(Variant::OPENSPIEL);
        let s = game.start();
        // The bias alone: pit C scores highest.
        let path = linear(
            dir.path(),
            "c.json",
            "board",
            zeros(),
            [0.0, 0.0, 3.0, 1.0, 0.0, 0.0],
        );
        let Ok(Policy::Net(net)) = format!("net:file={path}").parse() else {
            panic!("not a net policy")
        };
        assert!(check(&game, net).is_ok());
        assert_eq!(best_move(&game, &s, net).map(|m| m.pit), Some(2));
        // Read back by its text, the same net.
        assert_eq!(Policy::Net(net).to_string(), format!("net:file={path}"));
    }

    /// Seen from the mover, each pit's score is the seeds in that pit of the mover's row: the
    /// fullest pit of whichever side moves, worked out from the position by hand.
    #[test]
    fn the_mover_view_reads_north_s_row_as_its_own() {
        let dir = Dir::new("mover");
        let game = FastRules::new(Variant::OPENSPIEL);
        let mut w = zeros();
        for (j, row) in w.iter_mut().enumerate() {
            row[j] = 1.0;
        }
        let path = linear(dir.path(), "fullest.json", "mover", w, [0.0; 6]);
        let Ok(Policy::Net(net)) = format!("net:file={path}").parse() else {
            panic!("not a net policy")
        };
        // South sows A (4 seeds: B to E): North to move with its row untouched, 4 in each pit,
        // so the first of the fullest, a; South's row (0 5 5 5 5 4) does not count.
        let mut s = game.start();
        game.play(&mut s, crate::kalah::Move { pit: 0 });
        assert_eq!(s.to_move(), Side::North);
        assert_eq!(best_move(&game, &s, net).map(|m| m.pit), Some(0));
        // North sows a (b to e), then South's fullest pit is B (5 seeds).
        game.play(&mut s, crate::kalah::Move { pit: 0 });
        assert_eq!(s.to_move(), Side::South);
        assert_eq!(best_move(&game, &s, net).map(|m| m.pit), Some(1));
    }

    #[test]
    fn a_bad_file_is_refused_with_what_is_wrong() {
        let dir = Dir::new("bad");
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p.to_str().unwrap().to_string()
        };
        let layer = |rows: usize, cols: usize| serde_json::json!({"weights": vec![vec![0.0; cols]; rows], "bias": vec![0.0; rows], "activation": "tanh"});
        let net = |game: &str, layers: Vec<serde_json::Value>| {
            serde_json::json!({"format": FORMAT, "game": game, "layers": layers}).to_string()
        };
        let cases = [
            (
                dir.path().join("none.json").to_str().unwrap().to_string(),
                "cannot read it",
            ),
            (write("a.json", "{}"), "not a net file"),
            (
                write("b.json", &net("chess", vec![layer(6, 15)])),
                "game \"chess\"",
            ),
            (
                write("c.json", &net("kalah", vec![layer(6, 14)])),
                "layer 0, row 0: 14 weights, expected 15",
            ),
            (
                write("d.json", &net("kalah", vec![layer(8, 15), layer(5, 8)])),
                "5 outputs, expected 6",
            ),
            (write("e.json", &net("kalah", vec![])), "no layers"),
            (
                write(
                    "f.json",
                    &net("oware", vec![layer(6, 15)]).replace("mancala-lab net 1", "v2"),
                ),
                "format \"v2\"",
            ),
        ];
        for (path, words) in cases {
            let e = format!("net:file={path}")
                .parse::<Policy>()
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("policy 'net': file "), "{e}");
            assert!(e.contains(words), "{path}: {e}");
        }
        assert!("net"
            .parse::<Policy>()
            .unwrap_err()
            .to_string()
            .contains("net:file=PATH"));
        // An Oware net does not play Kalah.
        let oware = write("o.json", &net("oware", vec![layer(6, 15)]));
        let Ok(Policy::Net(n)) = format!("net:file={oware}").parse() else {
            panic!("not a net policy")
        };
        let e = check(&FastRules::new(Variant::OPENSPIEL), n).unwrap_err();
        assert!(
            e.contains("was learned on oware: it does not play kalah"),
            "{e}"
        );
    }

    /// A net's file may hold slashes: South's and North's policies still part at the slash
    /// before North's.
    #[test]
    fn players_part_where_north_s_policy_begins() {
        let dir = Dir::new("players");
        let path = linear(dir.path(), "n.json", "board", zeros(), [0.0; 6]);
        let p: Players = format!("net:file={path}/random").parse().unwrap();
        assert_eq!(p.north, Policy::Random);
        assert_eq!(p.south.to_string(), format!("net:file={path}"));
        let p: Players = format!("greedy/net:file={path}").parse().unwrap();
        assert_eq!((p.south, p.north.name()), (Policy::Greedy, "net"));
        let both: Players = format!("net:file={path}/net:file={path}").parse().unwrap();
        assert_eq!(both.south, both.north);
        assert!("random/greedy/search".parse::<Players>().is_err());
        assert!("random/x".parse::<Players>().is_err());
    }
}
