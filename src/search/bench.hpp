// The bench: a fixed set of positions searched to a fixed depth; the total node count is the
// signature of the search's behaviour (it changes exactly when the search does).
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "core/notation.hpp"
#include "search/engine.hpp"
#include "core/variant.hpp"

namespace dambit::search {

struct BenchPosition {
    const char* fen;
    const char* origin;  // where the position came from
};

// The bench positions of a variant (at least 30 each).
std::span<const BenchPosition> bench_positions(Variant v);

struct BenchResult {
    int positions = 0;
    std::uint64_t nodes = 0;
    double seconds = 0;  // time spent searching (table clearing between positions excluded)
};

// Searches every bench position of R to `depth`. Each search starts from an empty table and fresh
// move-ordering statistics, so with one thread the node count depends only on the code.
// With `tables_dir`, the engine probes those endgame tables, and with `weights` it evaluates with
// the learned evaluation (either changes the signature).
template <class R>
BenchResult run_bench(Variant v, int depth, int threads, std::size_t hash_megabytes,
                      const std::function<void(int, std::uint64_t)>& progress = {},
                      const std::string& tables_dir = "", std::size_t tables_cache_mb = 64,
                      const LearnedWeights* weights = nullptr) {
    Engine<R> engine(hash_megabytes, threads);
    engine.set_weights(weights);
    // Tables that hold nothing of the variant would leave the signature as without them: the
    // caller asked for tables, so that is an error, not a run without them.
    if (!tables_dir.empty() && engine.set_tables(tables_dir, tables_cache_mb) == 0)
        throw std::invalid_argument("no complete set of " + std::string(R::kName) + " tables in " +
                                    tables_dir);
    BenchResult r;
    Limits limits;
    limits.depth = depth;
    for (const BenchPosition& bp : bench_positions(v)) {
        engine.new_game();  // clearing the table is not search time: outside the clock
        const Position<R> p = parse_fen<R>(bp.fen);
        const auto t0 = std::chrono::steady_clock::now();
        const Result<typename R::Geometry> res = engine.go(p, {}, limits);
        r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        r.nodes += res.nodes;
        if (progress) progress(r.positions, res.nodes);
        ++r.positions;
    }
    return r;
}

}  // namespace dambit::search
