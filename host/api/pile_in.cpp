// Pile-in through the public API: scenarios from files or shipped names, and the GAPI1 fitness of
// the caller's plans as executor ops (kernels/api_ops.hpp).
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/api/impl.hpp"
#include "host/backend/executor.hpp"
#include "host/core/error.hpp"
#include "kernels/api_ops.hpp"

namespace gaeval {

namespace {

namespace fs = std::filesystem;

// Folders a shipped scenario name is looked up in: $GAEVAL_SCENARIOS, the installed
// share/gaeval/scenarios beside this library (lib/libgaeval.so -> share/...), the source tree's.
std::vector<fs::path> scenario_folders() {
    std::vector<fs::path> out;
    if (const char* env = std::getenv("GAEVAL_SCENARIOS"); env && *env) out.emplace_back(env);
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&scenario_folders), &info) && info.dli_fname) {
        fs::path prefix = fs::path(info.dli_fname).parent_path();  // <prefix>/<libdir>
        for (const auto& part : fs::path(GAEVAL_LIBDIR)) {
            (void)part;
            prefix = prefix.parent_path();
        }
        if (fs::is_directory(prefix / GAEVAL_INSTALLED_SCENARIOS))
            out.push_back(prefix / GAEVAL_INSTALLED_SCENARIOS);
    }
    out.emplace_back(GAEVAL_SOURCE_SCENARIOS);
    return out;
}

bool looks_like_path(const std::string& s) {
    return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".json");
}

}  // namespace

PileInScenario PileInScenario::load(const std::string& name_or_path) {
    if (name_or_path.empty()) throw InputError("scenario: empty name");
    std::string path = name_or_path;
    if (!looks_like_path(name_or_path) && !fs::exists(name_or_path)) {
        path.clear();
        std::string tried;
        for (const fs::path& folder : scenario_folders()) {
            const fs::path candidate = folder / (name_or_path + ".json");
            if (fs::is_regular_file(candidate)) {
                path = candidate.string();
                break;
            }
            tried += (tried.empty() ? "" : ", ") + folder.string();
        }
        if (path.empty())
            throw InputError("scenario '" + name_or_path +
                             "': no such file, nor a shipped scenario (looked in " + tried + ")");
    }
    return PileInScenario(std::make_shared<const Impl>(Impl{pile_in::load_scenario(path)}));
}

PileInScenario PileInScenario::parse(const std::string& json_text, const std::string& origin) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(json_text);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(origin + ": not valid JSON (" + e.what() + ")");
    }
    return PileInScenario(
        std::make_shared<const Impl>(Impl{pile_in::scenario_file_from_json(doc, "", origin)}));
}

std::string PileInScenario::name() const { return impl_->file.name; }
std::string PileInScenario::path() const { return impl_->file.path; }
int PileInScenario::genes_per_plan() const { return impl_->file.scenario.friendly_count; }
int PileInScenario::friendly_count() const { return impl_->file.scenario.friendly_count; }
int PileInScenario::enemy_count() const { return impl_->file.scenario.enemy_count; }
double PileInScenario::move_unit_mm() const { return impl_->file.scenario.move_unit_mm; }
int32_t PileInScenario::move_scale() { return pile_in::MoveScale; }

void evaluate_gapi1(const Backend& backend, const PileInScenario& scenario, const uint32_t* genes,
                    uint64_t n, float* fitness, const BetweenPieces& between_pieces) {
    if (n == 0) return;
    if (!genes || !fitness) throw InputError("evaluate_gapi1: null genes or fitness array");
    const BackendChoice& choice = backend.impl().choice;
    const pile_in::Scenario& s = scenario.impl().file.scenario;
    const uint64_t g = static_cast<uint64_t>(s.friendly_count);
    constexpr uint64_t kPiece = uint64_t{1} << 20;  // a multiple of the lane blocks
    constexpr uint64_t L = api_ops::kGapi1Lanes;
    for (uint64_t first = 0; first < n; first += kPiece) {
        const uint64_t count = std::min(kPiece, n - first);
        const uint32_t* piece_genes = genes + first * g;
        float* piece_fitness = fitness + first;
        // On the cpu BackendInput and BackendOutput are the caller's arrays (no copy).
        BackendInput<uint32_t> in(choice, piece_genes, count * g);
        BackendOutput<float> out(choice, piece_fitness, count);
        // a plan a GPU thread; a block of L plans in SIMD lanes a CPU task
        for_each_index_split(choice, count, api_ops::EvaluateGapi1Plans{s, in.data(), out.data()},
                             (count + L - 1) / L,
                             api_ops::EvaluateGapi1Blocks{s, in.data(), out.data(), count}, 4);
        out.finish();
        if (between_pieces && first + count < n) between_pieces();
    }
}

void evaluate_gapi1_device(const Backend& backend, const PileInScenario& scenario,
                           const uint32_t* genes, uint64_t n, float* fitness,
                           std::uintptr_t wait_stream) {
    if (!backend.is_cuda())
        throw InputError(
            "evaluate_gapi1_device: arrays in device memory need the cuda backend, "
            "this one is " +
            backend.name());
    if (n == 0) return;
    if (!genes || !fitness) throw InputError("evaluate_gapi1_device: null genes or fitness array");
#if GAEVAL_HAVE_CUDA
    require_device_memory(genes, "evaluate_gapi1_device: genes");
    require_device_memory(fitness, "evaluate_gapi1_device: fitness");
    cuda::stream_synchronize(wait_stream);
    for_each_index(backend.impl().choice, 0, n,
                   api_ops::EvaluateGapi1Plans{scenario.impl().file.scenario, genes, fitness});
#else
    (void)scenario, (void)wait_stream;
#endif
}

}  // namespace gaeval
