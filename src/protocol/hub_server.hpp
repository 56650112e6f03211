// dambit as a Hub engine: the protocol loop over a line input and a line output (Scan's
// protocol.txt, version 2; src/protocol/hub_text.hpp has the text forms).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

namespace dambit::hub {

// The parameters the engine announces after `hub` (in this order) and takes in set-param, with
// the range of the integer ones; `dambit hub` takes the same ranges from its options. The hash and
// the table cache go up to 1 TiB, as `dambit search --hash` does: the protocol itself sets no
// limit on an int parameter.
struct ParamSpec {
    std::string_view name;
    std::string_view type;  // enum, int or string
    long min = 0, max = 0;  // int only
};
inline constexpr std::array<ParamSpec, 10> kParams = {{
    {"variant", "enum"},
    {"hash", "int", 1, 1L << 20},  // MB
    {"threads", "int", 1, 256},
    {"egtb", "string"},
    {"egtb-cache", "int", 1, 1L << 20},  // MB
    {"multipv", "int", 1, 64},
    {"eval", "string"},
    {"book", "string"},
    {"book-ply", "int", 0, 10000},
    {"book-margin", "int", 0, 10000},
}};

// The parameter of that name (its spec must be in kParams).
constexpr const ParamSpec& param_spec(std::string_view name) {
    for (const auto& p : kParams)
        if (p.name == name) return p;
    return kParams[0];  // not reached for a name of kParams
}

// The parameters' values before any set-param (the command line can change them).
struct ServerDefaults {
    std::string variant = "international";
    std::size_t hash_megabytes = 64;
    int threads = 1;
    std::string egtb;  // endgame table directory, empty: none
    std::size_t egtb_cache_megabytes = 64;
    int multipv = 1;
    std::string eval = "auto";  // auto, hand, learned or a weights file (search/weights.hpp)
    std::string book;           // opening book file (dambit book build), empty: none
    int book_ply = 30;          // the book is used for the first book_ply plies of a game
    int book_margin = 0;        // a book move is drawn among those within this of the best
    // When set, every search stops after at most this many nodes and `level infinite` is not
    // infinite: for the fuzzer, which must not wait on a search.
    std::uint64_t node_cap = 0;
};

// Serves until `quit` or the end of `in`; every line written to `out` is flushed at once. Never
// throws for bad input: a bad line gets `error message="..."` and the loop goes on. `quit` ends a
// search in progress without its `done` line; at the end of `in` a search with a limit (depth,
// nodes, move time, clock) runs to its end, one without (ponder, `level infinite`) is stopped,
// and either writes its `done` line before serve returns.
void serve(std::istream& in, std::ostream& out, const ServerDefaults& defaults);

}  // namespace dambit::hub
