#include "host/cli/commands.hpp"
#include "host/io/error.hpp"

namespace gaeval::cli {

int run_pile_in(int, char**) { throw InputError("this subcommand is not built yet"); }

}  // namespace gaeval::cli
