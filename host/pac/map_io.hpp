// Pac-Man maps on the host: the seeded generator, map files, the checks every map passes, the
// placement of pacs and super pellets, the tables of games/pac/map.hpp and the start position.
//
// A map file is the contest's picture of the grid: one line per row, '#' a wall and ' ' a
// floor cell, every line equally long (trailing '\r' ignored), at most 35 x 17 and at least
// 3 x 3. Every map (generated or read) must be mirror-symmetric left/right, have one connected
// floor region (with the horizontal wrap), shortest paths below 255 steps and at least 7 floor
// cells left of the middle column (pacs and super pellets go there and in their mirror images).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/pac/map.hpp"
#include "games/pac/rules.hpp"

namespace gaeval::pac {

// The generator's sizes (the contest's constraints): width 29..35 (odd: a middle column),
// height 10..17.
constexpr int kGeneratedMinWidth = 29, kGeneratedMinHeight = 10;

// Where a game starts: its map, pacs per side, side 0's pac cells (pac k of side 1 starts on the
// mirror image of pac k of side 0) and the super pellet cells.
struct Setup {
    std::vector<std::string> rows;
    int pacs = 0;
    std::vector<int> pac_cells;
    std::vector<int> super_cells;
};

// A generated map (see docs/pac.md): width and height drawn from the seed when 0. InputError
// for a size outside the generator's range (naming --width / --height).
std::vector<std::string> generate_rows(uint64_t seed, int width = 0, int height = 0);

// The rows of a map file; InputError naming the file, the line and the rule broken.
std::vector<std::string> read_map_file(const std::string& path);

// Checks the rules above; InputError starting with `origin` otherwise.
void check_rows(const std::vector<std::string>& rows, const std::string& origin);

// Pacs (count drawn from 2..5 when pacs == 0) and super pellets on checked rows, from the seed.
Setup place(const std::vector<std::string>& rows, uint64_t seed, int pacs = 0);

// The generated setup of a seed: generate_rows then place.
Setup generate_setup(uint64_t seed, int width = 0, int height = 0, int pacs = 0);

// The tables of checked rows.
std::unique_ptr<Map> build_map(const std::vector<std::string>& rows);

// The start position of a setup on its map: pellets on every floor cell without a pac or a super
// pellet, pac k of each side of type k mod 3, nothing used, seat 0 to move.
Pos start_position(const Map& map, const Setup& setup);

}  // namespace gaeval::pac
