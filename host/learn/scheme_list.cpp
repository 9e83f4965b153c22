// The registered learning schemes: one line each, in the order --help lists them. A scheme's
// file (host/learn/schemes/<name>.cpp) defines `const Scheme& FUNCTION()`; the line below
// declares and registers it, so this list includes no scheme header (no include loop) and the
// linker keeps every scheme (a static registrar in a static library would be dropped).
#include "host/core/error.hpp"
#include "host/learn/scheme.hpp"

#define GAEVAL_LEARN_SCHEMES(X) \
    X(genetic_game_scheme)      \
    X(paired_blend_scheme)      \
    X(ten_tournaments_scheme)   \
    X(modern_scheme)            \
    X(truncation_es_scheme)     \
    X(gapi1_scheme)             \
    X(rules_scheme)

namespace gaeval::learn {

#define GAEVAL_DECLARE_SCHEME(function) const Scheme& function();
GAEVAL_LEARN_SCHEMES(GAEVAL_DECLARE_SCHEME)
#undef GAEVAL_DECLARE_SCHEME

const std::vector<const Scheme*>& registered_schemes() {
#define GAEVAL_LIST_SCHEME(function) &function(),
    static const std::vector<const Scheme*> schemes = {GAEVAL_LEARN_SCHEMES(GAEVAL_LIST_SCHEME)};
#undef GAEVAL_LIST_SCHEME
    return schemes;
}

std::string scheme_names() {
    std::string names;
    for (const Scheme* s : registered_schemes())
        names += (names.empty() ? "" : ", ") + std::string(s->name());
    return names;
}

const Scheme& find_scheme(const std::string& name) {
    for (const Scheme* s : registered_schemes())
        if (name == s->name()) return *s;
    throw InputError("--scheme: unknown scheme '" + name + "' (registered: " + scheme_names() +
                     ")");
}

}  // namespace gaeval::learn
