#include "host/learn/population_layout.hpp"

#include <algorithm>

#include "host/backend/backend_array.hpp"
#include "host/backend/backend_ranking.hpp"
#include "host/backend/memory.hpp"
#include "host/core/error.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

namespace {

constexpr uint64_t kMaxChunk = uint64_t{1} << 22;
constexpr uint64_t kMinChunk = 4096;
// A member's fitness (float) and rank on the backend, for the ranking.
constexpr uint64_t kRankedMember = 4 + 4;
// A member being evaluated and bred beside its genome: the problem's fitness (double), the
// mutation hit.
constexpr uint64_t kWorkingMember = 8 + 1;
// A parent's rank (the parents' order, the survivors' ranks).
constexpr uint64_t kParentRank = 4;

uint64_t ranked(const LayoutNeeds& p) { return p.members * kRankedMember + p.ranking_bytes; }
// Bytes a member of a chunk takes: the streamed layout makes its chunk on the backend (one
// buffer); the chunked layout copies a chunk in or out while the other is worked on (two
// buffers, each with its hits; one fitness array), but for one chunk of the whole population.
uint64_t chunk_member_bytes(const LayoutNeeds& p, bool two_buffers) {
    return two_buffers ? 2 * (p.genome_bytes + 1) + 8 : p.genome_bytes + kWorkingMember;
}
uint64_t chunk_bytes(const LayoutNeeds& p, uint64_t chunk, bool copied) {
    return chunk * chunk_member_bytes(p, copied && chunk < p.members);
}

// The largest chunk (at most kMaxChunk and N) that fits `usable` bytes beside `fixed`; 0 when
// it would be smaller than min(N, kMinChunk).
uint64_t fitting_chunk(const LayoutNeeds& p, uint64_t fixed, uint64_t usable, bool copied) {
    if (fixed >= usable) return 0;
    const uint64_t whole = std::min(p.members, kMaxChunk);
    if (fixed + chunk_bytes(p, whole, copied) <= usable) return whole;
    const uint64_t room = (usable - fixed) / chunk_member_bytes(p, copied);
    const uint64_t chunk = std::min({room, kMaxChunk, p.members});
    return chunk >= std::min(p.members, kMinChunk) ? chunk : 0;
}

bool host_fits(const LayoutNeeds& p, bool parents_on_host) {
    return p.host_free == 0 || chunked_host_bytes(p, parents_on_host) <= p.host_free;
}

}  // namespace

LayoutNeeds layout_needs(const LearnConfig& c, const BackendChoice& backend) {
    const Scheme& scheme = scheme_of(c);
    LayoutNeeds p;
    p.members = c.population;
    p.genome_bytes = uint64_t{c.dims()} * sizeof(uint32_t);
    p.survivors = scheme.ranks_bred_from(c);
    p.streams_survivors = scheme.streams_survivors();
    p.host_apart = memory_apart_from_host(backend);
    p.ranking_bytes = BackendRanker::workspace_bytes(backend, c.population);
    return p;
}

uint64_t resident_bytes(const LayoutNeeds& p) {
    // Both generations, and every member working at once (its rank sent to breeding).
    return 2 * p.members * p.genome_bytes + ranked(p) + p.members * (kWorkingMember + kParentRank);
}

uint64_t streamed_bytes(const LayoutNeeds& p, uint64_t chunk) {
    return ranked(p) + 2 * p.survivors * p.genome_bytes + 2 * p.survivors * kParentRank +
           chunk_bytes(p, chunk, false);
}

uint64_t chunked_bytes(const LayoutNeeds& p, uint64_t chunk, bool parents_on_host) {
    const uint64_t parents = parents_on_host ? 0 : p.survivors * (p.genome_bytes + kParentRank);
    return ranked(p) + parents + chunk_bytes(p, chunk, true);
}

uint64_t chunked_host_bytes(const LayoutNeeds& p, bool parents_on_host) {
    return 2 * p.members * p.genome_bytes + (parents_on_host
                                                 ? p.members * (kWorkingMember + kParentRank)
                                                 : p.survivors * p.genome_bytes);
}

LayoutChoice choose_layout(const LayoutNeeds& p, uint64_t free_bytes) {
    const uint64_t usable = free_bytes - free_bytes / 10;
    if (resident_bytes(p) <= usable) return {Chunking{}, resident_bytes(p), 0};
    if (p.streams_survivors && p.survivors < p.members)
        if (const uint64_t k = fitting_chunk(p, streamed_bytes(p, 0), usable, false))
            return {Chunking{k, false, true}, streamed_bytes(p, k), 0};
    if (p.host_apart) {
        for (const bool on_host : {false, true}) {
            const uint64_t k = fitting_chunk(p, chunked_bytes(p, 0, on_host), usable, true);
            if (k && host_fits(p, on_host))
                return {Chunking{k, on_host, false}, chunked_bytes(p, k, on_host),
                        chunked_host_bytes(p, on_host)};
        }
    }
    const uint64_t least = std::min(p.members, kMinChunk);
    std::string line = "--population " + std::to_string(p.members) + ": needs " +
                       human_bytes(double(resident_bytes(p))) + " on the backend resident";
    if (p.streams_survivors)
        line += ", " + human_bytes(double(streamed_bytes(p, least))) + " streamed with its " +
                std::to_string(p.survivors) + " survivors";
    if (p.host_apart)
        line += ", " + human_bytes(double(chunked_bytes(p, least, true))) + " with " +
                human_bytes(double(chunked_host_bytes(p, true))) + " of genomes in host memory (" +
                (p.host_free ? human_bytes(double(p.host_free)) : std::string("unknown")) +
                " available)";
    throw InputError(line + "; " + human_bytes(double(free_bytes)) +
                     " free on the backend, 10% of it kept for the runtime");
}

std::string describe_layout(const LayoutNeeds& p, const LayoutChoice& choice) {
    const Chunking& c = choice.chunking;
    const std::string bytes = human_bytes(double(choice.backend_bytes));
    if (!c.members) return "resident on the backend (" + bytes + ")";
    const std::string chunk = std::to_string(c.members) + " members at a time";
    if (c.survivors_only)
        return "streamed on the backend " + chunk + ", its " + std::to_string(p.survivors) +
               " survivors kept there (" + bytes + ")";
    return "genomes in host memory (" + human_bytes(double(choice.host_bytes)) + "), evaluated " +
           chunk + (c.parents_on_host ? ", bred on the host's threads" : "") + " (" + bytes +
           " on the backend)";
}

}  // namespace gaeval::learn
