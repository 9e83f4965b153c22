// Every operation a kernel takes by value fits the kernel parameter space (32,764 bytes since
// CUDA 12.1) and is trivially copyable; checked with g++ so that a CPU-only build notices a
// struct outgrowing it. kernels/launch.cuh asserts the same for each launch under nvcc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/core/kernel_arguments.hpp"
#include "games/registry.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/rules_fitness.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval {
namespace {

struct Size {
    std::string name;
    std::size_t bytes;
    bool fits;
};

// A game travels inside the kernels' match, playout and perft operations next to a few pointers
// and counts (kernels/batch_*.cu): the game plus 256 bytes stands for the largest of them.
template <class G>
struct GameOp {
    G game;
    unsigned char pointers_and_counts[256];
};

TEST(KernelArguments, EveryOperationFitsTheParameterSpace) {
    std::vector<Size> sizes;
#define GAEVAL_SIZE_OF_GAME(G) \
    sizes.push_back({#G, sizeof(GameOp<G>), fits_kernel_parameters<GameOp<G>>()});
    GAEVAL_FOR_EACH_GAME_TYPE(GAEVAL_SIZE_OF_GAME)
#undef GAEVAL_SIZE_OF_GAME
#define GAEVAL_SIZE_OF_OP(Op) sizes.push_back({#Op, sizeof(Op), fits_kernel_parameters<Op>()});
    GAEVAL_FOR_EACH_BATCH_OP(GAEVAL_SIZE_OF_OP)
    GAEVAL_SIZE_OF_OP(pile_in::RandomizePlans)
    GAEVAL_SIZE_OF_OP(pile_in::EvaluateGapi1)
    GAEVAL_SIZE_OF_OP(pile_in::Gapi1Step)
    GAEVAL_SIZE_OF_OP(pile_in::RandomizeRulesPlans)
    GAEVAL_SIZE_OF_OP(pile_in::EvaluateRules)
    GAEVAL_SIZE_OF_OP(pile_in::RulesStep)
#undef GAEVAL_SIZE_OF_OP
    ASSERT_GE(sizes.size(), 8u);
    for (const Size& s : sizes) {
        EXPECT_TRUE(s.fits) << s.name << ": " << s.bytes << " bytes (limit "
                            << KernelParameterBytes << ", trivially copyable)";
        EXPECT_GT(s.bytes, 0u);
    }
}

// The check itself can fail: a struct one byte too large, and one that is not trivially copyable.
TEST(KernelArguments, TheCheckRejectsWhatDoesNotFit) {
    struct TooLarge {
        unsigned char bytes[KernelParameterBytes];
    };
    struct NotTrivial {
        NotTrivial(const NotTrivial&) {}
        int x;
    };
    struct JustFits {
        unsigned char bytes[KernelParameterBytes - 2 * sizeof(uint64_t)];
    };
    EXPECT_FALSE(fits_kernel_parameters<TooLarge>());
    EXPECT_FALSE(fits_kernel_parameters<NotTrivial>());
    EXPECT_TRUE(fits_kernel_parameters<JustFits>());
}

}  // namespace
}  // namespace gaeval
