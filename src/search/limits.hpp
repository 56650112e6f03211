// What a search is asked to do (limits) and what it reports (one record per completed iteration).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/position.hpp"
#include "search/score.hpp"

namespace dambit::search {

struct Limits {
    int depth = 0;                 // deepest iteration, 0 = no depth limit
    std::uint64_t nodes = 0;       // stop after about this many nodes, 0 = no limit
    std::int64_t movetime_ms = 0;  // exactly this long, 0 = no limit
    std::int64_t time_ms = 0;      // the clock of the side to move, 0 = no clock
    std::int64_t increment_ms = 0;
    int moves_to_go = 0;    // moves until the next time control, 0 = sudden death
    bool infinite = false;  // search until Engine::stop()
    int multipv = 1;        // lines reported per iteration: the best `multipv` root moves
    // Analysis: a position with one legal move is searched for its score like any other, where
    // play (the default) answers it after the first iteration under a time limit.
    bool analysis = false;
};

// The time after which a search under a clock starts no new iteration (Tuning::adaptive_time):
// the planned time `soft_ms` scaled by how settled the search is, never past `hard_ms`.
// `changes` counts the changes of the best move, the last iteration's as 1 and each earlier one
// half as much as the one after it; `fall` is how much lower the last iteration's score was than
// the one before. A best move that has stood for several iterations gets 0.7 of the planned
// time, one that has just changed 1.6, and one that keeps changing up to 2.5; a fall of a man
// adds half as much again.
inline std::int64_t adapted_soft_ms(std::int64_t soft_ms, std::int64_t hard_ms, double changes,
                                    int fall) {
    const double f = (0.7 + 0.9 * changes) * (1 + std::clamp(fall, 0, 100) / 200.0);
    return std::min(hard_ms, std::int64_t(std::llround(double(soft_ms) * std::clamp(f, 0.5, 2.5))));
}

// A report after each completed iteration.
template <class G>
struct Iteration {
    int depth = 0;
    int seldepth = 0;       // the deepest ply visited, quiescence included
    double mean_depth = 0;  // the mean ply of the leaves the main thread visited
    int multipv = 1;        // which line of the iteration this is, 1 = the best
    Score score = 0;        // for the side to move at the root
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    std::int64_t time_ms = 0;
    std::vector<Move<G>> pv;
};

// The outcome of a search.
template <class G>
struct Result {
    bool has_move = false;  // false when the side to move has no legal move (it has lost)
    Move<G> best{};
    Score score = 0;
    int depth = 0;  // the last completed iteration
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    std::vector<Move<G>> pv;
};

}  // namespace dambit::search
