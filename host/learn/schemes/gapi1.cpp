// gapi1: the seed pile-in scheme (DESIGN.md "GA schemes") on the one engine, GAPI1 as
// host/learn/schemes/gapi1_family.hpp writes it (the one GAPI1 rule of
// problems/pile_in/gapi1_scheme.hpp): on games, on real problems, and on pile-in as a problem,
// where `gaeval learn --problem pile-in --scheme gapi1` gives `gaeval pile-in`'s bits
// (tests/test_problem_pile_in.cpp).
#include "host/learn/schemes/gapi1_family.hpp"

namespace gaeval::learn {

namespace {

class Gapi1 final : public Gapi1Family {
  public:
    const char* name() const override { return "gapi1"; }
    const char* description() const override {
        return "the seed pile-in GA: survivors cloned, uniform parents, fresh-gene mutation";
    }
};

}  // namespace

const Scheme& gapi1_scheme() {
    static const Gapi1 scheme;
    return scheme;
}

}  // namespace gaeval::learn
