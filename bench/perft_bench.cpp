// Bulk perft throughput from the start positions, single thread, no hash, checked against the
// published counts.
//
// The position and the expected count are both taken from the embedded tables (perft/*.txt via
// perft_table(), sources cited there and in shared/perft-reference.md). A wrong count marks the
// benchmark as failed instead of reporting a speed for a wrong answer.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "core/notation.hpp"
#include "perft/perft.hpp"
#include "core/rules.hpp"
#include "tables.hpp"

namespace dambit {
namespace {

std::optional<PerftRow> published_start(std::string_view variant, Duplicates dup, int depth) {
    for (const PerftRow& row : perft_table(variant))
        if (row.name == "start" && row.duplicates == dup && row.depth == depth) return row;
    return std::nullopt;
}

template <class R, Duplicates D>
void bench_perft(benchmark::State& state, int depth) {
    const std::optional<PerftRow> row = published_start(R::kName, D, depth);
    if (!row) {
        state.SkipWithError("no published start-position count for this depth");
        return;
    }
    const Position<R> start = parse_fen<R>(row->fen);
    std::uint64_t leaves = 0;
    for (auto _ : state) {
        const std::uint64_t n = perft<R, D>(start, depth);
        if (n != row->nodes) {
            const std::string message = "perft " + std::to_string(n) + ", published " +
                                        std::to_string(row->nodes);
            state.SkipWithError(message.c_str());
            break;
        }
        leaves += n;
    }
    // Total leaves over all iterations divided by the time: leaves per second.
    state.counters["leaves/s"] = benchmark::Counter(double(leaves), benchmark::Counter::kIsRate);
    state.counters["leaves"] = double(row->nodes);
}

template <class R, Duplicates D>
void add(int depth) {
    const std::string name = "perft/" + std::string(R::kName) + "/" +
                             (D == Duplicates::kDrop ? "drop" : "keep") + "/" +
                             std::to_string(depth);
    benchmark::RegisterBenchmark(name.c_str(), bench_perft<R, D>, depth)
        ->Unit(benchmark::kMillisecond);
}

}  // namespace
}  // namespace dambit

int main(int argc, char** argv) {
    using namespace dambit;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    try {
        // Depth 8 is where the two duplicate conventions first differ in Russian (RULES.md §4).
        add<Russian, Duplicates::kDrop>(8);
        add<Russian, Duplicates::kKeep>(8);
        add<Russian, Duplicates::kDrop>(9);
        add<Russian, Duplicates::kKeep>(9);
        add<International, Duplicates::kDrop>(7);
        add<International, Duplicates::kDrop>(8);
        add<Czech, Duplicates::kDrop>(8);
        add<English, Duplicates::kDrop>(8);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dambit_perft_bench: %s\n", e.what());
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
