"""Stats studies from Python: the files `mancala-lab stats` writes, byte for byte, interrupted
and resumed."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

import mancala_lab

ROOT = pathlib.Path(__file__).resolve().parents[2]
FILES = ["games.csv", "clauses.csv", "summary.csv", "manifest.json"]


def binary():
    """The command line built beside the package (`cargo build --release`), if there is one."""
    path = pathlib.Path(os.environ.get("MANCALA_LAB_BIN", ROOT / "target/release/mancala-lab"))
    if not path.is_file():
        pytest.skip("no mancala-lab binary: cargo build --release, or set MANCALA_LAB_BIN")
    return path


def cli_study(out, args):
    subprocess.run([str(binary()), "stats", *args, "--out", str(out)], check=True,
                   capture_output=True)
    return json.loads((out / "manifest.json").read_text())["command"]


def assert_same_files(a, b):
    """The four files of two studies are the same bytes; the manifests' `commit` (the build's:
    the package and the command line may be built from trees in other states) aside."""
    for name in FILES[:3]:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    ma, mb = (json.loads((d / "manifest.json").read_text()) for d in (a, b))
    if ma["commit"] == mb["commit"]:
        assert (a / "manifest.json").read_bytes() == (b / "manifest.json").read_bytes()
    else:
        for m in (ma, mb):
            del m["commit"], m["manifest_crc32"]
        assert ma == mb


@pytest.mark.parametrize("args,options", [
    (["--game", "kalah", "--games", "2000", "--seed", "5", "--threads", "2"],
     dict(game="kalah", games=2000, seed=5, threads=2)),
    (["--game", "oware", "--variant", "abapa", "--policy", "greedy/random", "--games", "300",
      "--max-plies", "90", "--opening", "3", "--shard", "2/3", "--threads", "1"],
     dict(game="oware", variant="abapa", policy="greedy/random", games=300, max_plies=90,
          opening=3, shard="2/3", threads=1)),
    (["--game", "bao", "--engine", "reference", "--south", "greedy", "--games", "40",
      "--threads", "2"],
     dict(game="bao", engine="reference", south="greedy", games=40, threads=2)),
])
def test_a_study_from_python_writes_the_files_of_the_command_line(args, options, tmp_path):
    command = cli_study(tmp_path / "cli", args)
    done = mancala_lab.run_study(tmp_path / "py", command=command, **options)
    assert done["finished"] is True
    assert_same_files(tmp_path / "cli", tmp_path / "py")


def test_a_study_stopped_by_ctrl_c_is_resumed_to_the_same_files(tmp_path):
    args = ["--game", "bao", "--engine", "reference", "--games", "4000", "--seed", "3",
            "--threads", "2"]
    command = cli_study(tmp_path / "cli", args)
    out = tmp_path / "py"
    code = (
        "import sys\n"
        "import mancala_lab\n"
        "try:\n"
        f"    mancala_lab.run_study({str(out)!r}, command={command!r}, game='bao',\n"
        "                          engine='reference', games=4000, seed=3, threads=2)\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped')\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Stopped once it has written rows, before it ends.
    deadline = time.time() + 60
    while time.time() < deadline:
        games = out / "games.csv"
        if games.exists() and games.read_bytes().count(b"\n") > 5:
            break
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    said, _ = child.communicate(timeout=60)
    assert said.strip() == "stopped", said
    manifest = json.loads((out / "manifest.json").read_text())
    assert 0 < manifest["games_done"] < 4000
    # A new run is refused while the stopped one is there; a resumed one finishes it.
    with pytest.raises(ValueError, match="resume continues it, force replaces it"):
        mancala_lab.run_study(out, command=command, game="bao", engine="reference",
                              games=4000, seed=3, threads=2)
    with pytest.raises(ValueError, match="resume: seed 4 differs from the job"):
        mancala_lab.run_study(out, resume=True, seed=4)
    done = mancala_lab.run_study(out, resume=True)
    assert done["finished"] is True and done["games_done"] == 4000
    assert_same_files(tmp_path / "cli", out)


@pytest.mark.parametrize("options,says", [
    (dict(max_plies=0), "max_plies 0: no game would have a move"),
    (dict(opening=5, max_plies=5), "opening 5: every ply of a game would be random"),
    (dict(shard="0/3"), "shard '0/3': expected K/N with 1 <= K <= N"),
    (dict(variant="nonesuch"), "variant 'nonesuch'"),
    (dict(policy="chess"), "policy"),
])
def test_a_bad_option_is_a_value_error_naming_it(options, says, tmp_path):
    with pytest.raises(ValueError, match=says):
        mancala_lab.run_study(tmp_path / "s", game="oware", games=10, **options)
    assert not (tmp_path / "s").exists()


def test_a_study_is_not_written_over_a_file(tmp_path):
    (tmp_path / "f").write_text("mine")
    with pytest.raises(ValueError, match="out .*: a file, not a folder"):
        mancala_lab.run_study(tmp_path / "f", game="oware", games=10)
    assert (tmp_path / "f").read_text() == "mine"


@pytest.mark.parametrize("options,error,says", [
    (dict(games=1e6), TypeError, "games: expected an int, not float"),
    (dict(games="100"), TypeError, "games: expected an int, not str"),
    (dict(games=True), TypeError, "games: expected an int, not bool"),
    (dict(games=-5), ValueError, "games -5: expected 0 to"),
    (dict(seed=2**64), ValueError, "seed 18446744073709551616: expected 0 to"),
    (dict(threads=65), ValueError, "threads 65: expected 1 to 64"),
    (dict(threads=0), ValueError, "threads 0: expected 1 to 64"),
    (dict(resume=1), TypeError, "resume: expected True or False"),
    (dict(game=3), TypeError, "game: expected a str, not int"),
    (dict(command="mancala-lab stats"), TypeError, "command: expected a list of words"),
    (dict(resume=True, force=True), ValueError, "resume and force: a run is either continued"),
])
def test_an_option_of_the_wrong_kind_is_named(options, error, says, tmp_path):
    with pytest.raises(error, match=says):
        mancala_lab.run_study(tmp_path / "s", **{"game": "oware", "games": 10, **options})
    assert not (tmp_path / "s").exists()


def test_no_folder_is_no_study(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="out: name the study's folder"):
        mancala_lab.run_study("", game="oware", games=10)
    assert list(tmp_path.iterdir()) == []


def test_a_finished_study_says_its_job(tmp_path):
    done = mancala_lab.run_study(tmp_path / "s", game="kalah", games=30, seed=4, shard="2/3",
                                 threads=1)
    assert done == dict(finished=True, games_done=10, total=10, first_game=10, end_game=20,
                        game="kalah", variant="openspiel", engine="optimized",
                        policy="random", seed=4, games=30, max_plies=2000, opening=0,
                        shard="2/3", threads=1)
