# Every compiled game type: the one list. Adding a game is its header, its test and one line here.
# The build generates from it (CMakeLists.txt, into build/<preset>/generated/):
#  - include/generated/game_list.hpp: the headers and GAEVAL_FOR_EACH_GAME_TYPE, in this order
#    (games/registry.hpp includes it; the perft kernels and the host registry read it);
#  - kernels/batch_play_<UNIT>.cu per line: the play kernels of its TYPES (kernels/batch_play.cuh).
#    One unit per family, so that the families compile side by side (a Gomoku size or an Ataxx
#    board kind takes minutes);
#  - include/generated/game_entries.hpp: ENTRY names the namespace whose make_entry() serves the
#    family (a host entry, host/<game>/entry.cpp), once per game; `gaeval games` lists these in
#    this order (the first is the default game), then every listed type that names itself (kName).
#
# gaeval_game(UNIT <name> HEADER <games/...hpp> TYPES <C++ type>... [ENTRY <namespace>])
gaeval_game(UNIT ataxx_square7 HEADER games/ataxx/variants.hpp TYPES ::gaeval::ataxx::Square7Game ENTRY ::gaeval::ataxx)
gaeval_game(UNIT ataxx_table1 HEADER games/ataxx/variants.hpp TYPES ::gaeval::ataxx::Table1Game2 ::gaeval::ataxx::Table1Game4)
gaeval_game(UNIT ataxx_table2 HEADER games/ataxx/variants.hpp TYPES ::gaeval::ataxx::Table2Game2 ::gaeval::ataxx::Table2Game4)
gaeval_game(UNIT ataxx_table4 HEADER games/ataxx/variants.hpp TYPES ::gaeval::ataxx::Table4Game2 ::gaeval::ataxx::Table4Game4)
gaeval_game(UNIT tictactoe HEADER games/tictactoe/tictactoe.hpp TYPES ::gaeval::tictactoe::Game)
gaeval_game(UNIT gomoku15 HEADER games/gomoku/game.hpp TYPES ::gaeval::gomoku::Game15 ENTRY ::gaeval::gomoku)
gaeval_game(UNIT gomoku20 HEADER games/gomoku/game.hpp TYPES ::gaeval::gomoku::Game20)
gaeval_game(UNIT risk HEADER games/risk/game.hpp TYPES ::gaeval::risk::Game ENTRY ::gaeval::risk)
gaeval_game(UNIT pac HEADER games/pac/game.hpp TYPES ::gaeval::pac::Game ENTRY ::gaeval::pac)
gaeval_game(UNIT connect4 HEADER games/connect4/connect4.hpp TYPES ::gaeval::connect4::Game)

# The evaluate-a-population operations of batch::evaluate (host/batch/batch.hpp), instantiated
# for the device in kernels/batch_evaluate.cu: GAEVAL_FOR_EACH_BATCH_OP.
gaeval_batch_op(HEADER games/pac/rollout.hpp TYPE ::gaeval::pac::RolloutOp)
