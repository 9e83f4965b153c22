// The Python module gaeval._gaeval (re-exported by the package gaeval): pybind11 over the public
// C++ API (include/gaeval/). NumPy arrays go in and come out without copies on the cpu; arrays of
// the wrong dtype, shape or layout are refused (TypeError / ValueError naming what was expected),
// never converted. Long calls release the GIL and look for Ctrl-C between pieces (PyErr_Check-
// Signals on the calling thread). InputError -> ValueError with the CLI's one-line message,
// Interrupted -> KeyboardInterrupt.
#include <Python.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "gaeval/gaeval.hpp"

namespace py = pybind11;

namespace {

// Between pieces of a long call (the GIL released): take it, let Python run its signal
// handlers, and stop the call with the exception a handler raised (KeyboardInterrupt).
void check_signals() {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t d = 0; d < shape.size(); ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

std::string shape_text(const py::array& a) {
    return shape_text(std::vector<int64_t>(a.shape(), a.shape() + a.ndim()));
}

std::string dtype_text(const py::array& a) { return py::str(a.dtype()).cast<std::string>(); }

// `a` as a C-contiguous array of T, else TypeError (dtype) or ValueError (layout), naming `what`.
template <class T>
void require(const py::array& a, const char* what, const char* dtype_name, bool writeable) {
    if (!a.dtype().is(py::dtype::of<T>()))
        throw py::type_error(std::string(what) + ": dtype must be " + dtype_name + ", got " +
                             dtype_text(a) + " (convert with .astype(np." + dtype_name +
                             "); gaeval does not convert silently)");
    if (!(a.flags() & py::array::c_style))
        throw py::value_error(std::string(what) + ": must be C-contiguous (np.ascontiguousarray)");
    if (writeable && !a.writeable()) throw py::value_error(std::string(what) + ": is read-only");
}

// ---- device arrays: CUDA Array Interface v3 (CuPy, PyTorch CUDA tensors, Numba, DeviceArray)

bool is_device_array(const py::handle& o) { return py::hasattr(o, "__cuda_array_interface__"); }

// An array in device memory as its __cuda_array_interface__ describes it, checked like require()
// checks a NumPy array: dtype (typestr), C-contiguous, writeable when written.
struct DeviceView {
    uintptr_t pointer = 0;
    std::vector<int64_t> shape;
    uintptr_t stream = 0;  // the producer's stream to wait for (0: none given)
};

DeviceView device_view(const py::handle& o, const char* what, const char* typestr,
                       const char* dtype_name, size_t item_bytes, bool writeable) {
    const std::string w(what);
    py::dict cai;
    try {
        cai = o.attr("__cuda_array_interface__").cast<py::dict>();
    } catch (const py::cast_error&) {
        throw py::type_error(w + ": __cuda_array_interface__ is not a dict");
    }
    for (const char* key : {"shape", "typestr", "data", "version"})
        if (!cai.contains(key))
            throw py::value_error(w + ": __cuda_array_interface__ has no '" + key + "'");
    DeviceView v;
    for (const auto& d : cai["shape"].cast<py::tuple>()) v.shape.push_back(d.cast<int64_t>());
    const std::string ts = cai["typestr"].cast<std::string>();
    if (ts != typestr)
        throw py::type_error(w + ": dtype must be " + dtype_name + " ('" + typestr +
                             "'), got the device array's '" + ts +
                             "' (gaeval does not convert silently)");
    if (cai.contains("mask") && !cai["mask"].is_none())
        throw py::value_error(w + ": masked device arrays are not supported");
    if (cai.contains("strides") && !cai["strides"].is_none()) {
        const py::tuple strides = cai["strides"].cast<py::tuple>();
        int64_t expect = static_cast<int64_t>(item_bytes);
        bool contiguous = strides.size() == v.shape.size();
        for (size_t d = v.shape.size(); contiguous && d-- > 0;) {
            if (v.shape[d] > 1 && strides[d].cast<int64_t>() != expect) contiguous = false;
            expect *= v.shape[d];
        }
        if (!contiguous)
            throw py::value_error(w +
                                  ": device array must be C-contiguous (cupy.ascontiguousarray,"
                                  " tensor.contiguous())");
    }
    const py::tuple data = cai["data"].cast<py::tuple>();
    if (data.size() != 2)
        throw py::value_error(w + ": __cuda_array_interface__ 'data' is not (pointer, read-only)");
    v.pointer = data[0].cast<uintptr_t>();
    if (writeable && data[1].cast<bool>()) throw py::value_error(w + ": is read-only");
    if (cai.contains("stream") && !cai["stream"].is_none()) {
        const auto stream = cai["stream"].cast<uintptr_t>();
        if (stream == 0)
            throw py::value_error(w +
                                  ": __cuda_array_interface__ stream 0 is not allowed (v3: "
                                  "None, 1, 2 or a stream)");
        v.stream = stream;
    }
    return v;
}

// Memory gaeval allocated on the device (a DeviceBuffer), seen as an array of float32 or uint32
// through __cuda_array_interface__: cupy.asarray(d) and torch.as_tensor(d, device="cuda") use it
// in place.
struct DeviceArray {
    gaeval::DeviceBuffer buffer;
    std::vector<int64_t> shape;
    std::string typestr;  // "<f4" or "<u4"
    const char* dtype_name() const { return typestr == "<f4" ? "float32" : "uint32"; }
    py::tuple shape_tuple() const {
        py::tuple t(shape.size());
        for (size_t i = 0; i < shape.size(); ++i) t[i] = shape[i];
        return t;
    }
};

DeviceArray to_device(const gaeval::Backend& backend, const py::array& a) {
    const bool f = a.dtype().is(py::dtype::of<float>());
    if (!f && !a.dtype().is(py::dtype::of<uint32_t>()))
        throw py::type_error("to_device: dtype must be float32 or uint32, got " + dtype_text(a));
    if (!(a.flags() & py::array::c_style))
        throw py::value_error("to_device: must be C-contiguous (np.ascontiguousarray)");
    std::vector<int64_t> shape;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) shape.push_back(a.shape(d));
    DeviceArray out{gaeval::DeviceBuffer(backend, static_cast<size_t>(a.nbytes())), shape,
                    f ? "<f4" : "<u4"};
    out.buffer.upload(a.data(), static_cast<size_t>(a.nbytes()));
    return out;
}

py::object evaluate_gapi1_on_device(const gaeval::Backend& backend,
                                    const gaeval::PileInScenario& scenario, const py::object& genes,
                                    py::object out) {
    const int g = scenario.genes_per_plan();
    const DeviceView in = device_view(genes, "genes", "<u4", "uint32", 4, false);
    if (in.shape.size() != 2 || in.shape[1] != g)
        throw py::value_error("genes: shape must be (n, " + std::to_string(g) + ") for " +
                              scenario.name() + " (one gene per friendly model), got " +
                              shape_text(in.shape));
    const auto n = static_cast<uint64_t>(in.shape[0]);
    if (!out.is_none() && !is_device_array(out))
        throw py::type_error(
            "out: genes are a device array, so out must be one too (float32, "
            "shape (n,)), or None");
    if (!backend.is_cuda())
        throw py::type_error(
            "genes: a device array (__cuda_array_interface__) needs "
            "gaeval.Backend.cuda(), this backend is " +
            backend.name() + " (pass a NumPy array for the cpu)");
    if (out.is_none()) {
        out = py::cast(DeviceArray{
            gaeval::DeviceBuffer(backend, n * sizeof(float)), {static_cast<int64_t>(n)}, "<f4"});
    }
    const DeviceView res = device_view(out, "out", "<f4", "float32", 4, true);
    if (res.shape.size() != 1 || static_cast<uint64_t>(res.shape[0]) != n)
        throw py::value_error("out: shape must be (" + std::to_string(n) + ",), got " +
                              shape_text(res.shape));
    {
        py::gil_scoped_release release;
        gaeval::evaluate_gapi1_device(
            backend, scenario, reinterpret_cast<const uint32_t*>(in.pointer), n,
            reinterpret_cast<float*>(res.pointer), in.stream ? in.stream : res.stream);
    }
    return out;
}

py::object evaluate_gapi1(const gaeval::Backend& backend, const gaeval::PileInScenario& scenario,
                          const py::object& genes_object, py::object out) {
    if (is_device_array(genes_object))
        return evaluate_gapi1_on_device(backend, scenario, genes_object, std::move(out));
    if (!py::isinstance<py::array>(genes_object))
        throw py::type_error(
            "genes: must be a numpy.ndarray of uint32 (or a CUDA device array: "
            "CuPy, PyTorch), got " +
            py::str(py::type::of(genes_object)).cast<std::string>());
    const py::array genes = genes_object.cast<py::array>();
    if (!out.is_none() && is_device_array(out))
        throw py::type_error(
            "out: a device array needs device genes too; with NumPy genes give a "
            "NumPy out or None");
    require<uint32_t>(genes, "genes", "uint32", false);
    const int g = scenario.genes_per_plan();
    if (genes.ndim() != 2 || genes.shape(1) != g)
        throw py::value_error("genes: shape must be (n, " + std::to_string(g) + ") for " +
                              scenario.name() + " (one gene per friendly model), got " +
                              shape_text(genes));
    const auto n = static_cast<uint64_t>(genes.shape(0));
    py::array fitness;
    if (out.is_none()) {
        fitness = py::array_t<float>(static_cast<py::ssize_t>(n));
    } else {
        if (!py::isinstance<py::array>(out))
            throw py::type_error("out: must be a numpy.ndarray of float32");
        fitness = out.cast<py::array>();
        require<float>(fitness, "out", "float32", true);
        if (fitness.ndim() != 1 || static_cast<uint64_t>(fitness.shape(0)) != n)
            throw py::value_error("out: shape must be (" + std::to_string(n) + ",), got " +
                                  shape_text(fitness));
    }
    const auto* in = static_cast<const uint32_t*>(genes.data());
    auto* res = static_cast<float*>(fitness.mutable_data());
    {
        py::gil_scoped_release release;
        gaeval::evaluate_gapi1(backend, scenario, in, n, res, check_signals);
    }
    return std::move(fitness);
}

std::vector<gaeval::GamePairing> pairings_from(const py::array& a) {
    if (a.dtype().kind() != 'i' && a.dtype().kind() != 'u')
        throw py::type_error("pairings: dtype must be an integer type, got " + dtype_text(a));
    if (a.ndim() != 2 || (a.shape(1) != 2 && a.shape(1) != 3))
        throw py::value_error(
            "pairings: shape must be (n, 2) (player a, player b) or (n, 3) (a, b, a's seat), "
            "got " +
            shape_text(a));
    const py::array_t<int64_t, py::array::c_style | py::array::forcecast> v(a);  // integers only
    const auto r = v.unchecked<2>();
    std::vector<gaeval::GamePairing> out(static_cast<std::size_t>(a.shape(0)));
    for (py::ssize_t i = 0; i < a.shape(0); ++i) {
        for (py::ssize_t k = 0; k < a.shape(1); ++k)
            if (r(i, k) < 0 || r(i, k) > 0xffffffffLL || (k == 2 && r(i, k) > 255))
                throw py::value_error("pairings[" + std::to_string(i) +
                                      "]: " + std::to_string(r(i, k)) + " is out of range");
        out[i].a = static_cast<uint32_t>(r(i, 0));
        out[i].b = static_cast<uint32_t>(r(i, 1));
        out[i].a_seat = a.shape(1) == 3 ? static_cast<uint8_t>(r(i, 2)) : 0;
    }
    return out;
}

py::dict play_pairings(const gaeval::Game& game, const std::vector<gaeval::GamePlayer>& players,
                       const py::array& pairings, uint64_t seed, uint32_t max_plies,
                       const gaeval::Backend& backend) {
    const std::vector<gaeval::GamePairing> typed = pairings_from(pairings);
    std::vector<gaeval::GameResult> results;
    {
        py::gil_scoped_release release;
        results = game.play_pairings(players, typed, seed, max_plies, backend, check_signals);
    }
    const auto n = static_cast<py::ssize_t>(results.size());
    py::array_t<int8_t> a_result(n), winner(n), a_seat(n);
    py::array_t<uint32_t> plies(n);
    py::array_t<bool> stopped(n);
    py::array_t<uint64_t> move_hash(n);
    for (py::ssize_t i = 0; i < n; ++i) {
        const gaeval::GameResult& r = results[static_cast<std::size_t>(i)];
        a_result.mutable_at(i) = r.a_result;
        winner.mutable_at(i) = r.winner;
        a_seat.mutable_at(i) = r.a_seat;
        plies.mutable_at(i) = r.plies;
        stopped.mutable_at(i) = r.stopped;
        move_hash.mutable_at(i) = r.move_hash;
    }
    py::dict out;
    out["a_result"] = a_result;
    out["winner"] = winner;
    out["a_seat"] = a_seat;
    out["plies"] = plies;
    out["stopped"] = stopped;
    out["move_hash"] = move_hash;
    return out;
}

}  // namespace

PYBIND11_MODULE(_gaeval, m) {
    m.doc() = "gaeval: genetic-algorithm evaluators for game AI (docs/python.md)";
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const gaeval::InputError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const gaeval::Interrupted& e) {
            PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
        }
    });
    m.def("version", &gaeval::version, "The library's version.");

    py::class_<gaeval::Backend>(m, "Backend",
                                "Where gaeval evaluates: cpu threads or a CUDA device.")
        .def_static("cpu", &gaeval::Backend::cpu, py::arg("threads") = 0,
                    "The CPU backend with `threads` OpenMP threads (0: every core).")
        .def_static("cuda", &gaeval::Backend::cuda, py::arg("device") = 0,
                    "The CUDA backend on device `device`; ValueError without one.")
        .def_static("auto", &gaeval::Backend::automatic, py::arg("threads") = 0,
                    "cuda when a device is usable, else cpu (note says why).")
        .def_static("from_name", &gaeval::Backend::from_name, py::arg("name"),
                    py::arg("threads") = 0, "From a CLI flag value: cpu, cuda or auto.")
        .def_static("cuda_compiled", &gaeval::Backend::cuda_compiled,
                    "Whether this build has the CUDA backend.")
        .def_static(
            "cuda_available",
            []() {
                std::string reason;
                const bool ok = gaeval::Backend::cuda_available(&reason);
                return py::make_tuple(ok, reason);
            },
            "(usable, the device's name or why not).")
        .def_property_readonly("name", &gaeval::Backend::name)
        .def_property_readonly("device", &gaeval::Backend::device)
        .def_property_readonly("note", &gaeval::Backend::note)
        .def_property_readonly("threads", &gaeval::Backend::threads)
        .def_property_readonly("is_cuda", &gaeval::Backend::is_cuda)
        .def("__repr__", [](const gaeval::Backend& b) {
            return "<gaeval.Backend " + b.name() + ": " + b.device() + ">";
        });

    py::class_<gaeval::PileInScenario>(m, "PileInScenario", "A validated pile-in scenario.")
        .def_static("load", &gaeval::PileInScenario::load, py::arg("name_or_path"),
                    "A scenario file, or a shipped scenario's name ('demo_10v10').")
        .def_static("parse", &gaeval::PileInScenario::parse, py::arg("json_text"),
                    py::arg("origin") = "json", "A scenario from its JSON text.")
        .def_property_readonly("name", &gaeval::PileInScenario::name)
        .def_property_readonly("path", &gaeval::PileInScenario::path)
        .def_property_readonly("genes_per_plan", &gaeval::PileInScenario::genes_per_plan)
        .def_property_readonly("friendly_count", &gaeval::PileInScenario::friendly_count)
        .def_property_readonly("enemy_count", &gaeval::PileInScenario::enemy_count)
        .def_property_readonly("move_unit_mm", &gaeval::PileInScenario::move_unit_mm)
        .def("__repr__", [](const gaeval::PileInScenario& s) {
            return "<gaeval.PileInScenario " + s.name() + ": " +
                   std::to_string(s.friendly_count()) + " v " + std::to_string(s.enemy_count()) +
                   ">";
        });
    m.def("move_scale", &gaeval::PileInScenario::move_scale,
          "Gene units of a full move: dx^2 + dy^2 <= move_scale()^2.");
    m.def("pack_move", &gaeval::pack_move, py::arg("dx"), py::arg("dy"),
          "A gene from a move in gene units.");
    m.def("evaluate_gapi1", &evaluate_gapi1, py::arg("backend"), py::arg("scenario"),
          py::arg("genes"), py::arg("out") = py::none(),
          "GAPI1 fitness (float32, shape (n,)) of genes (uint32, shape (n, genes_per_plan)); "
          "written into `out` when given. NumPy arrays on either backend; device arrays "
          "(__cuda_array_interface__: CuPy, PyTorch, DeviceArray) on cuda, in place (the result "
          "a DeviceArray when out is None).");

    py::class_<DeviceArray>(m, "DeviceArray",
                            "float32 or uint32 memory gaeval allocated on the CUDA device; "
                            "cupy.asarray(d) / torch.as_tensor(d, device='cuda') use it in place.")
        .def_property_readonly("shape", &DeviceArray::shape_tuple)
        .def_property_readonly("dtype",
                               [](const DeviceArray& d) { return py::dtype(d.dtype_name()); })
        .def_property_readonly("__cuda_array_interface__",
                               [](const DeviceArray& d) {
                                   py::dict cai;
                                   cai["shape"] = d.shape_tuple();
                                   cai["typestr"] = d.typestr;
                                   cai["data"] = py::make_tuple(
                                       reinterpret_cast<uintptr_t>(d.buffer.data()), false);
                                   cai["version"] = 3;
                                   cai["strides"] = py::none();
                                   cai["stream"] = py::none();  // written synchronously
                                   return cai;
                               })
        .def("__len__", [](const DeviceArray& d) { return d.shape.empty() ? 0 : d.shape[0]; })
        .def(
            "to_numpy",
            [](const DeviceArray& d) {
                py::array a(py::dtype(d.dtype_name()), d.shape);
                d.buffer.download(a.mutable_data(), static_cast<size_t>(a.nbytes()));
                return a;
            },
            "A NumPy copy on the host.")
        .def("__repr__", [](const DeviceArray& d) {
            return "<gaeval.DeviceArray " + std::string(d.dtype_name()) + " " +
                   shape_text(d.shape) + ">";
        });
    m.def("to_device", &to_device, py::arg("backend"), py::arg("array"),
          "A DeviceArray copy of a C-contiguous float32 or uint32 NumPy array on the cuda "
          "backend's device (ValueError on a cpu backend).");

    // bench/python-overhead.py: the same call timed inside C++ (no Python between repetitions).
    m.def(
        "_time_evaluate_gapi1_in_cpp",
        [](const gaeval::Backend& backend, const gaeval::PileInScenario& scenario,
           const py::array& genes, py::array out, int repetitions) {
            require<uint32_t>(genes, "genes", "uint32", false);
            require<float>(out, "out", "float32", true);
            if (genes.ndim() != 2 || genes.shape(1) != scenario.genes_per_plan() ||
                out.ndim() != 1 || out.shape(0) != genes.shape(0))
                throw py::value_error("genes and out: shapes (n, genes_per_plan) and (n,)");
            const auto* in = static_cast<const uint32_t*>(genes.data());
            auto* res = static_cast<float*>(out.mutable_data());
            const auto n = static_cast<uint64_t>(genes.shape(0));
            std::vector<double> seconds;
            py::gil_scoped_release release;
            for (int r = 0; r < repetitions; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                gaeval::evaluate_gapi1(backend, scenario, in, n, res);
                seconds.push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            return seconds;
        },
        py::arg("backend"), py::arg("scenario"), py::arg("genes"), py::arg("out"),
        py::arg("repetitions"));

    py::enum_<gaeval::GamePlayer::Kind>(m, "PlayerKind")
        .value("RANDOM", gaeval::GamePlayer::Kind::Random)
        .value("POLICY", gaeval::GamePlayer::Kind::Policy)
        .value("WEIGHTED", gaeval::GamePlayer::Kind::Weighted);
    py::class_<gaeval::GamePlayer>(m, "Player", "A player: random, a built-in policy or weighted.")
        .def_static("random", &gaeval::GamePlayer::random)
        .def_static("builtin", &gaeval::GamePlayer::builtin, py::arg("policy"))
        .def_static(
            "weighted",
            [](const py::array& weights, int depth) {
                require<float>(weights, "weights", "float32", false);
                if (weights.ndim() != 1)
                    throw py::value_error("weights: shape must be (k,), got " +
                                          shape_text(weights));
                const auto* w = static_cast<const float*>(weights.data());
                return gaeval::GamePlayer::weighted(std::vector<float>(w, w + weights.shape(0)),
                                                    depth);
            },
            py::arg("weights"), py::arg("depth") = 1)
        .def_readonly("kind", &gaeval::GamePlayer::kind)
        .def_readonly("policy", &gaeval::GamePlayer::policy)
        .def_readonly("depth", &gaeval::GamePlayer::depth)
        .def_readonly("weights", &gaeval::GamePlayer::weights);

    py::class_<gaeval::Game>(m, "Game", "A registered game with its start position.")
        .def_static("open", &gaeval::Game::open, py::arg("name"),
                    py::arg("options") = std::map<std::string, std::string>{})
        .def_static("names", &gaeval::Game::names)
        .def_property_readonly("name", &gaeval::Game::name)
        .def_property_readonly("description", &gaeval::Game::description)
        .def_property_readonly("seats", &gaeval::Game::seats)
        .def_property_readonly("weight_names", &gaeval::Game::weight_names)
        .def_property_readonly("policy_names", &gaeval::Game::policy_names)
        .def_property_readonly("initial_weights", &gaeval::Game::initial_weights)
        .def_property_readonly("has_perft", &gaeval::Game::has_perft)
        .def(
            "perft",
            [](const gaeval::Game& g, int depth, const gaeval::Backend& backend) {
                py::gil_scoped_release release;
                return g.perft(depth, backend);
            },
            py::arg("depth"), py::arg("backend"),
            "Leaf count of the move tree from the start to `depth` (GIL released; one call).")
        .def(
            "learn",
            [](const gaeval::Game& g, const gaeval::Backend& backend, uint32_t generations,
               uint32_t population, const std::string& scheme, uint64_t seed, uint32_t max_plies,
               uint32_t depth, py::object on_generation) {
                gaeval::LearnSettings settings;
                settings.scheme = scheme;
                settings.population = population;
                settings.generations = generations;
                settings.seed = seed;
                settings.max_plies = max_plies;
                settings.depth = depth;
                // With the GIL: Ctrl-C, then the caller's callback (a falsy return stops).
                const gaeval::OnGeneration each = [&](const gaeval::LearnGeneration& gen) {
                    py::gil_scoped_acquire gil;
                    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
                    if (on_generation.is_none()) return true;
                    py::dict row;
                    row["generation"] = gen.generation;
                    row["best_value"] = gen.best_value;
                    row["mean_value"] = gen.mean_value;
                    row["best_weights"] = py::array_t<float>(
                        static_cast<py::ssize_t>(gen.best_weights.size()), gen.best_weights.data());
                    row["games"] = gen.games;
                    row["plies"] = gen.plies;
                    const py::object keep = on_generation(row);
                    return keep.is_none() || keep.cast<bool>();
                };
                std::vector<float> best;
                {
                    py::gil_scoped_release release;
                    best = g.learn(settings, backend, each);
                }
                return py::array_t<float>(static_cast<py::ssize_t>(best.size()), best.data());
            },
            py::arg("backend"), py::arg("generations") = 10, py::arg("population") = 0,
            py::arg("scheme") = "", py::arg("seed") = 1, py::arg("max_plies") = 400,
            py::arg("depth") = 1, py::arg("on_generation") = py::none(),
            "Learns the weighted player's weights as `gaeval learn` does; on_generation(row) after "
            "each generation (return False to stop); returns the best weights (float32).")
        .def("play_pairings", &play_pairings, py::arg("players"), py::arg("pairings"),
             py::arg("seed"), py::arg("max_plies"), py::arg("backend"),
             "Game i between players[pairings[i, 0]] and players[pairings[i, 1]]: a dict of "
             "arrays a_result, winner, a_seat, plies, stopped, move_hash.");
}
