"""The Python module against independent truth: the CLI's fitness of its own best plan, published
perft counts, and the refusals of bad input (ValueError with the CLI's one-line messages)."""
import importlib
import json
import pathlib
import subprocess

import numpy as np
import pytest

import gaeval

CPU = gaeval.Backend.cpu(2)


def random_plans(scenario, n, seed):
    """n plans of random moves within the move limit (uint32, shape (n, genes))."""
    rng = np.random.default_rng(seed)
    scale = gaeval.move_scale()
    angle = rng.uniform(0, 2 * np.pi, size=(n, scenario.genes_per_plan))
    radius = scale * np.sqrt(rng.uniform(0, 1, size=angle.shape))
    dx = np.trunc(radius * np.cos(angle)).astype(np.int32)
    dy = np.trunc(radius * np.sin(angle)).astype(np.int32)
    return pack(dx, dy)


def pack(dx, dy):
    return (dx.astype(np.uint32) & 0xFFFF) | ((dy.astype(np.uint32) & 0xFFFF) << 16)


def test_same_bits_as_the_cli_for_its_best_plan(gaeval_binary, source_dir, tmp_path):
    path = source_dir / "scenarios" / "demo_10v10.json"
    out = tmp_path / "run"
    subprocess.run([gaeval_binary, "pile-in", "--scenario", str(path), "--population", "300",
                    "--generations", "5", "--seed", "9", "--threads", "2", "--out", str(out)],
                   check=True, capture_output=True)
    best = json.loads((out / "best.json").read_text())
    plan = best["plan"] if "plan" in best else best
    scenario = gaeval.PileInScenario.load(str(path))
    unit = np.float32(scenario.move_unit_mm)
    moves = [m["move"] for m in plan["models"]]
    dx = np.array([round(np.float32(m["dx"]) / unit) for m in moves], dtype=np.int32)
    dy = np.array([round(np.float32(m["dy"]) / unit) for m in moves], dtype=np.int32)
    genes = pack(dx, dy).reshape(1, -1)
    fitness = gaeval.evaluate_gapi1(CPU, scenario, genes)
    assert fitness.dtype == np.float32 and fitness.shape == (1,)
    assert fitness[0] == np.float32(plan["fitness"])


def test_cpu_thread_counts_and_out_give_the_same_bits():
    scenario = gaeval.PileInScenario.load("line_20v20")
    genes = random_plans(scenario, 10_007, 3)
    one = gaeval.evaluate_gapi1(gaeval.Backend.cpu(1), scenario, genes)
    out = np.empty(len(genes), dtype=np.float32)
    many = gaeval.evaluate_gapi1(gaeval.Backend.cpu(3), scenario, genes, out=out)
    assert many is not None and np.shares_memory(many, out)
    assert one.tobytes() == out.tobytes()
    # a plan alone scores as it does in a batch
    assert gaeval.evaluate_gapi1(CPU, scenario, genes[5:6])[0] == one[5]


def test_evaluation_matches_the_points_of_a_known_plan():
    # One model, one enemy: standing still 20 mm from the enemy's edge (out of the 1/2" reach)
    # costs 20 points; 10 mm away it is in range: 200 - 10.
    scenario = gaeval.PileInScenario.parse(json.dumps({
        "units": "mm",
        "friendly": [{"x": 0, "y": 0, "base": 32}],
        "enemy": [{"x": 52, "y": 0, "base": 32}],
    }))
    fitness = gaeval.evaluate_gapi1(CPU, scenario, np.zeros((1, 1), dtype=np.uint32))
    assert fitness[0] == np.float32(-20.0)
    # moving 10 mm toward it (10 / move_unit_mm gene units, exact here: 4200 units)
    step = round(10 / scenario.move_unit_mm)
    moved = np.array([[gaeval.pack_move(step, 0)]], dtype=np.uint32)
    assert abs(gaeval.evaluate_gapi1(CPU, scenario, moved)[0] - 190.0) < 1e-2


def test_perft_matches_published_counts(source_dir):
    ttt = gaeval.Game.open("tictactoe")
    assert [ttt.perft(d, CPU) for d in range(10)] == [
        1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    table = (source_dir / "tests" / "data" / "ataxx_perft.md").read_text().splitlines()
    row = next(line for line in table if line.startswith("| `x5o/7/7/7/7/7/o5x x 0 1`"))
    counts = [int(c) for c in row.split("|")[2].replace(",", " ").split()]
    ataxx = gaeval.Game.open("ataxx")
    assert [ataxx.perft(d, CPU) for d in range(5)] == counts[:5]


def test_play_pairings_is_deterministic_and_complete():
    ataxx = gaeval.Game.open("ataxx")
    weights = np.linspace(-1, 1, len(ataxx.weight_names), dtype=np.float32)
    players = [gaeval.Player.weighted(weights), gaeval.Player.random()]
    pairings = np.array([[0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1]] * 8, dtype=np.int64)
    r1 = ataxx.play_pairings(players, pairings, 4, 200, CPU)
    r2 = ataxx.play_pairings(players, pairings, 4, 200, gaeval.Backend.cpu(1))
    assert set(r1) == {"a_result", "winner", "a_seat", "plies", "stopped", "move_hash"}
    for key in r1:
        assert np.array_equal(r1[key], r2[key]), key
    assert len(r1["a_result"]) == len(pairings)
    assert np.array_equal(r1["a_seat"], pairings[:, 2])


def test_a_bad_scenario_is_the_clis_one_line_message(gaeval_binary, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"units": "feet", "friendly": [], "enemy": []}))
    cli = subprocess.run([gaeval_binary, "pile-in", "--scenario", str(bad)],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    with pytest.raises(ValueError) as error:
        gaeval.PileInScenario.load(str(bad))
    assert cli.stderr.strip() == "gaeval pile-in: error: " + str(error.value)


def test_bad_input_raises_with_the_cli_message(tmp_path):
    with pytest.raises(ValueError, match="no_such_scenario"):
        gaeval.PileInScenario.load("no_such_scenario")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"units": "feet", "friendly": [], "enemy": []}))
    with pytest.raises(ValueError, match=str(bad)):
        gaeval.PileInScenario.load(str(bad))
    with pytest.raises(ValueError, match="unknown game"):
        gaeval.Game.open("chess")
    with pytest.raises(ValueError, match="unknown backend"):
        gaeval.Backend.from_name("tpu")
    ataxx = gaeval.Game.open("ataxx")
    with pytest.raises(ValueError, match="weights"):
        ataxx.play_pairings([gaeval.Player.weighted(np.ones(1, dtype=np.float32)),
                             gaeval.Player.random()], np.array([[0, 1]]), 1, 10, CPU)
    with pytest.raises(ValueError, match=r"pairings\[0\]"):
        ataxx.play_pairings([gaeval.Player.random()], np.array([[0, 1]]), 1, 10, CPU)
    if not gaeval.Backend.cuda_available()[0]:
        with pytest.raises(ValueError, match="cuda"):
            gaeval.Backend.cuda()


def test_wrong_dtype_shape_or_layout_is_refused_not_converted():
    scenario = gaeval.PileInScenario.load("demo_10v10")
    good = np.zeros((4, scenario.genes_per_plan), dtype=np.uint32)
    with pytest.raises(TypeError, match="genes: dtype must be uint32, got int64"):
        gaeval.evaluate_gapi1(CPU, scenario, good.astype(np.int64))
    with pytest.raises(ValueError, match=r"genes: shape must be \(n, 10\).*got \(4, 9\)"):
        gaeval.evaluate_gapi1(CPU, scenario, good[:, :9].copy())
    with pytest.raises(ValueError, match=r"got \(40,\)"):
        gaeval.evaluate_gapi1(CPU, scenario, good.reshape(-1))
    with pytest.raises(ValueError, match="C-contiguous"):
        gaeval.evaluate_gapi1(CPU, scenario, np.zeros((10, 4), dtype=np.uint32).T)
    with pytest.raises(TypeError, match="out: dtype must be float32, got float64"):
        gaeval.evaluate_gapi1(CPU, scenario, good, out=np.zeros(4))
    with pytest.raises(ValueError, match=r"out: shape must be \(4,\)"):
        gaeval.evaluate_gapi1(CPU, scenario, good, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="pairings: dtype must be an integer"):
        gaeval.Game.open("tictactoe").play_pairings(
            [gaeval.Player.random()], np.zeros((1, 2)), 1, 10, CPU)


def test_ctrl_c_between_pieces_raises_keyboard_interrupt():
    import _thread
    import threading

    ttt = gaeval.Game.open("tictactoe")
    pairings = np.zeros(((1 << 16) * 12, 2), dtype=np.int64)
    pairings[:, 1] = 1
    players = [gaeval.Player.random(), gaeval.Player.random()]
    timer = threading.Timer(0.05, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        ttt.play_pairings(players, pairings, 1, 20, CPU)
    timer.join()
    # the module is usable afterwards
    assert ttt.perft(2, CPU) == 72


def test_learn_calls_back_each_generation_and_stops_when_asked():
    ataxx = gaeval.Game.open("ataxx")
    rows = []
    best = ataxx.learn(CPU, generations=3, population=6, seed=5, max_plies=60,
                       on_generation=rows.append)
    assert [r["generation"] for r in rows] == [1, 2, 3]
    assert best.dtype == np.float32 and best.shape == (len(ataxx.weight_names),)
    assert np.array_equal(best, rows[-1]["best_weights"])
    again = ataxx.learn(gaeval.Backend.cpu(1), generations=3, population=6, seed=5, max_plies=60)
    assert np.array_equal(best, again)  # any thread count: the same weights
    stopped = []
    ataxx.learn(CPU, generations=5, population=6, seed=5, max_plies=60,
                on_generation=lambda r: stopped.append(r) or len(stopped) < 2)
    assert len(stopped) == 2
    with pytest.raises(ValueError, match="scheme"):
        ataxx.learn(CPU, scheme="no-such-scheme")


class FakeDeviceArray:
    """Only a __cuda_array_interface__ (what CuPy and PyTorch CUDA tensors expose): the module
    must read and check it before it ever touches the pointer."""

    def __init__(self, shape, typestr="<u4", strides=None, readonly=False, **extra):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr, strides=strides,
                                             data=(0x1000, readonly), version=3, **extra)


def test_device_arrays_are_checked_like_numpy_arrays_and_need_the_cuda_backend():
    scenario = gaeval.PileInScenario.load("demo_10v10")
    g = scenario.genes_per_plan
    with pytest.raises(TypeError, match=r"genes: dtype must be uint32 \('<u4'\), got .*'<i8'"):
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, g), "<i8"))
    with pytest.raises(ValueError, match=r"genes: shape must be \(n, 10\).*got \(4, 9\)"):
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, 9)))
    with pytest.raises(ValueError, match="C-contiguous"):  # a transposed view
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, g), strides=(4, 16)))
    with pytest.raises(ValueError, match="masked"):
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, g), mask=object()))
    with pytest.raises(ValueError, match="stream 0"):
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, g), stream=0))
    with pytest.raises(TypeError, match="out must be one too"):
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, g)), out=np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="out: a device array needs device genes"):
        gaeval.evaluate_gapi1(CPU, scenario, np.zeros((4, g), np.uint32),
                              out=FakeDeviceArray((4,), "<f4"))
    # explicit C strides are contiguous; a well-formed device array still needs the cuda backend
    with pytest.raises(TypeError, match=r"needs gaeval.Backend.cuda\(\), this backend is cpu"):
        gaeval.evaluate_gapi1(CPU, scenario, FakeDeviceArray((4, g), strides=(4 * g, 4)))
    with pytest.raises(TypeError, match="genes: must be a numpy.ndarray"):
        gaeval.evaluate_gapi1(CPU, scenario, [[0] * g])
    with pytest.raises(ValueError, match="device memory needs the cuda backend, this one is cpu"):
        gaeval.to_device(CPU, np.zeros(3, np.float32))


def cuda_backend_or_skip():
    ok, why = gaeval.Backend.cuda_available()
    if not ok:
        pytest.skip("no usable CUDA device: " + why)
    return gaeval.Backend.cuda()


def test_device_arrays_on_the_gpu_give_the_cpus_bits_without_a_host_round_trip():
    cuda = cuda_backend_or_skip()
    scenario = gaeval.PileInScenario.load("line_20v20")
    genes = random_plans(scenario, 70_001, 11)
    want = gaeval.evaluate_gapi1(CPU, scenario, genes)
    on_device = gaeval.to_device(cuda, genes)
    fitness = gaeval.evaluate_gapi1(cuda, scenario, on_device)
    assert isinstance(fitness, gaeval.DeviceArray) and fitness.shape == (len(genes),)
    assert fitness.to_numpy().tobytes() == want.tobytes()
    out = gaeval.to_device(cuda, np.zeros(len(genes), np.float32))
    assert gaeval.evaluate_gapi1(cuda, scenario, on_device, out=out) is out
    assert out.to_numpy().tobytes() == want.tobytes()
    with pytest.raises(ValueError, match="host memory"):  # a pointer that is not the device's
        gaeval.evaluate_gapi1(cuda, scenario, FakeDeviceArray((4, scenario.genes_per_plan)))
    cupy = optional_module("cupy")  # the libraries researchers hand arrays from, if installed
    if cupy is not None:
        got = gaeval.evaluate_gapi1(cuda, scenario, cupy.asarray(genes))
        assert cupy.asnumpy(cupy.asarray(got)).tobytes() == want.tobytes()
    torch = optional_module("torch")
    if torch is not None:  # a float32 CUDA tensor as out (uint32 tensors are recent in torch)
        res = torch.empty(len(genes), dtype=torch.float32, device="cuda")
        assert gaeval.evaluate_gapi1(cuda, scenario, on_device, out=res) is res
        assert res.cpu().numpy().tobytes() == want.tobytes()


def optional_module(name):
    import importlib.util

    return importlib.import_module(name) if importlib.util.find_spec(name) else None
