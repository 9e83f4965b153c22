// A game bound to device memory for the length of one call: a game that reads lookup tables in
// host memory (games/core/game.hpp: table_bytes, tables, with_tables) gets a device copy of
// them; any other game is used as it is.
#pragma once

#include <cstdint>

#include "games/core/game.hpp"
#include "kernels/cuda_api.hpp"

namespace gaeval::cuda {

template <class G>
class DeviceGame {
  public:
    explicit DeviceGame(const G& host) : game_(host) {
        if constexpr (has_tables_v<G>) {
            const std::size_t bytes = host.table_bytes();
            if (bytes > 0) {
                tables_ = DeviceArray<uint8_t>(bytes);
                tables_.upload(static_cast<const uint8_t*>(host.tables()), bytes);
                game_ = host.with_tables(tables_.data());
            }
        }
    }
    const G& game() const { return game_; }

  private:
    DeviceArray<uint8_t> tables_;
    G game_;
};

}  // namespace gaeval::cuda
