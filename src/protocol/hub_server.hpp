// dambit as a Hub engine: the protocol loop over a line input and a line output (Scan's
// protocol.txt, version 2; src/protocol/hub_text.hpp has the text forms).
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

namespace dambit::hub {

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
// throws for bad input: a bad line gets `error message="..."` and the loop goes on.
void serve(std::istream& in, std::ostream& out, const ServerDefaults& defaults);

}  // namespace dambit::hub
