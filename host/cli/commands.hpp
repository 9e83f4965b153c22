// One function per subcommand (one file each under host/cli/). argv[0] is the subcommand name.
// Each returns an exit code (host/core/error.hpp) and may throw InputError for bad input.
#pragma once

namespace gaeval::cli {

int run_pile_in(int argc, char** argv);
int run_perft(int argc, char** argv);
int run_play(int argc, char** argv);
int run_learn(int argc, char** argv);
int run_bench(int argc, char** argv);
int run_compare(int argc, char** argv);
int run_games(int argc, char** argv);
int run_gomocup(int argc, char** argv);
int run_pac_bot(int argc, char** argv);
int run_uai(int argc, char** argv);

}  // namespace gaeval::cli
