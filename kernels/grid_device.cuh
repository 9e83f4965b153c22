// Binding a grid game to device memory: a TableGeometry's Board<W> is copied into a device array
// owned for the duration of a call; the 7x7 fast path needs no memory and is used as is.
#pragma once

#include "games/grid/geometry.hpp"
#include "kernels/cuda_api.hpp"

namespace gaeval::cuda {

template <class Geometry>
struct DeviceGeometry;

template <int W>
struct DeviceGeometry<grid::TableGeometry<W>> {
    DeviceArray<grid::Board<W>> board;
    explicit DeviceGeometry(const grid::TableGeometry<W>& host) : board(1) {
        board.upload(host.board, 1);
    }
    grid::TableGeometry<W> view() { return grid::TableGeometry<W>{board.data()}; }
};

template <>
struct DeviceGeometry<grid::Square7Geometry> {
    grid::Square7Geometry geometry;
    explicit DeviceGeometry(const grid::Square7Geometry& host) : geometry(host) {}
    grid::Square7Geometry view() { return geometry; }
};

// A copy of a host game whose geometry points at device memory (valid while this lives).
template <class G>
struct DeviceGame {
    DeviceGeometry<typename G::GeometryType> geometry;
    G game;
    explicit DeviceGame(const G& host) : geometry(host.geo), game(host) {
        game.geo = geometry.view();
    }
};

}  // namespace gaeval::cuda
