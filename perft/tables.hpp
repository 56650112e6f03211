// The published perft tables of perft/*.txt, compiled into the program.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.hpp"

namespace dambit {

struct PerftRow {
    std::string variant;  // file the row came from, e.g. "russian"
    std::string name;     // position name, e.g. "start" or "Woldouby"
    Duplicates duplicates;
    int depth;
    std::uint64_t nodes;
    std::string fen;
};

// Parses one table file; throws ParseError naming the line and the bad field.
std::vector<PerftRow> parse_perft_table(std::string_view variant, std::string_view text);

// The embedded table of a variant (empty if it has none).
std::vector<PerftRow> perft_table(std::string_view variant);

}  // namespace dambit
