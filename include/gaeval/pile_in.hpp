// Pile-in plans scored by the public API: the GAPI1 fitness of `gaeval pile-in` (docs/pile_in.md)
// over a population the caller owns, with the caller's own optimiser around it.
//
//   gaeval::PileInScenario s = gaeval::PileInScenario::load("demo_10v10");  // or a file path
//   std::vector<uint32_t> genes(n * s.genes_per_plan());  // plan i: genes[i * genes_per_plan + m]
//   std::vector<float> fitness(n);
//   gaeval::evaluate_gapi1(gaeval::Backend::cpu(), s, genes.data(), n, fitness.data());
//
// A gene moves one friendly model: dx in its low 16 bits and dy in its high 16 bits, each a
// signed 16-bit count of move_unit_mm(), with dx^2 + dy^2 <= move_scale()^2 (pack_move below).
// The fitness bits equal those `gaeval pile-in` computes for the same plans, on either backend.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backend.hpp"

namespace gaeval {

// A move as a gene: dx, dy in gene units (each within [-move_scale(), move_scale()]).
inline uint32_t pack_move(int32_t dx, int32_t dy) {
    return static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(dx))) |
           (static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(dy))) << 16);
}
inline int32_t move_dx(uint32_t gene) { return static_cast<int16_t>(gene & 0xffffu); }
inline int32_t move_dy(uint32_t gene) { return static_cast<int16_t>(gene >> 16); }

// Called on the calling thread between pieces of a long call (about 2^20 plans or 2^16 games);
// it may throw (Interrupted, or the caller's own exception) to stop the call there.
using BetweenPieces = std::function<void()>;

// A pile-in scenario (enemy and friendly models, reach, move, coherency), validated.
class PileInScenario {
  public:
    // `name_or_path`: a scenario file (JSON, docs/pile_in.md), or the name of a shipped one
    // ("demo_10v10", "line_20v20": the files of scenarios/, installed in share/gaeval/scenarios).
    // InputError "FILE: field: problem" as `gaeval pile-in --scenario` says it.
    static PileInScenario load(const std::string& name_or_path);
    // From the JSON text of a scenario; `origin` prefixes error messages.
    static PileInScenario parse(const std::string& json_text, const std::string& origin = "json");

    std::string name() const;
    std::string path() const;    // the file it came from ("" when parsed)
    int genes_per_plan() const;  // GAPI1: one gene per friendly model
    int friendly_count() const;
    int enemy_count() const;
    double move_unit_mm() const;  // mm per gene unit
    static int32_t move_scale();  // gene units of the full move

    struct Impl;
    const Impl& impl() const { return *impl_; }

  private:
    explicit PileInScenario(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

// GAPI1 fitness of plans 0 .. n-1: fitness[i] from genes[i * genes_per_plan() .. +
// genes_per_plan()). The caller owns both arrays; on the cpu they are read and written in place (no
// copy), on cuda copied to the device and back, a piece at a time. Synchronous. `between_pieces`,
// when given, runs between pieces of 2^20 plans.
void evaluate_gapi1(const Backend& backend, const PileInScenario& scenario, const uint32_t* genes,
                    uint64_t n, float* fitness, const BetweenPieces& between_pieces = {});

// The same fitness of plans already in the memory of the cuda backend's device (cudaMalloc'd or
// managed: a DeviceBuffer's, a CuPy array's or a PyTorch CUDA tensor's data pointer), in place:
// no copy through the host, one plan a GPU thread; the bits equal evaluate_gapi1's. The work
// queued on `wait_stream` (a cudaStream_t as an integer, e.g. the stream of CUDA Array Interface
// v3; 0: the default stream) is waited for first. Synchronous. InputError when the backend is not
// cuda or an array is not memory of its device.
void evaluate_gapi1_device(const Backend& backend, const PileInScenario& scenario,
                           const uint32_t* genes, uint64_t n, float* fitness,
                           std::uintptr_t wait_stream = 0);

}  // namespace gaeval
