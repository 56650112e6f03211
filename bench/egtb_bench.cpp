// Endgame table probes per second: random positions of the tables' slices, one thread.
//
// The tables come from DAMBIT_EGTB_DIR (with DAMBIT_EGTB_VARIANT, default russian, and
// DAMBIT_EGTB_PIECES, default 4), or are built here first (Russian, up to 4 pieces, in a temporary
// directory removed at the end). "warm": the block cache holds every block the positions touch
// (each probe reads memory); "cold": a cache of one block, so most probes read and decompress a
// block from the file.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "egtb/api.hpp"
#include "egtb/index.hpp"
#include "egtb/tables.hpp"

using namespace dambit;
using namespace dambit::egtb;

namespace {

struct Setup {
    std::string dir;
    int pieces = 4;
    bool built_here = false;

    Setup() {
        if (const char* d = std::getenv("DAMBIT_EGTB_DIR")) {
            dir = d;
            if (const char* p = std::getenv("DAMBIT_EGTB_PIECES")) pieces = std::atoi(p);
            return;
        }
        dir = (std::filesystem::temp_directory_path() /
               ("dambit_egtb_bench_" + std::to_string(::getpid())))
                  .string();
        BuildOptions o;
        o.dir = dir;
        o.max_pieces = pieces;
        o.dtw_pieces = pieces;
        o.threads = 2;
        std::filesystem::create_directories(dir);
        build_tables<Russian>(o, {});
        built_here = true;
    }
    ~Setup() {
        if (built_here) std::filesystem::remove_all(dir);
    }
};

Setup& setup() {
    static Setup s;
    return s;
}

// Random positions of every slice up to the tables' size, either side to move, none with a
// capture to make (those are answered by a search, not a read).
template <class R>
std::vector<Position<R>> random_positions(int count, int pieces) {
    std::mt19937_64 rng(1);
    const auto slices = slices_up_to(pieces);
    std::vector<Position<R>> out;
    while (int(out.size()) < count) {
        const Material m = slices[rng() % slices.size()];
        const SliceIndex<R> index(m);
        Position<R> p = index.position(rng() % index.size());
        if (rng() % 2) p = flip(p);
        if (!has_capture(p)) out.push_back(p);
    }
    return out;
}

template <class R>
void probe(benchmark::State& state, std::size_t cache_megabytes) {
    Setup& s = setup();
    Tables<R> tables(s.dir, cache_megabytes);
    const auto positions = random_positions<R>(1 << 16, s.pieces);
    for (const auto& p : positions) benchmark::DoNotOptimize(tables.stored(p));  // warm up
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(tables.stored(positions[i]));
        i = (i + 1) & (positions.size() - 1);
    }
    state.SetItemsProcessed(std::int64_t(state.iterations()));
}

void warm(benchmark::State& state) {
    const char* v = std::getenv("DAMBIT_EGTB_VARIANT");
    if (v && std::string(v) == "international")
        probe<International>(state, 4096);
    else
        probe<Russian>(state, 4096);
}
void cold(benchmark::State& state) { probe<Russian>(state, 0); }

// With the capture search: random positions, captures included.
void with_captures(benchmark::State& state) {
    Setup& s = setup();
    Tables<Russian> tables(s.dir, 4096);
    std::mt19937_64 rng(2);
    std::vector<Position<Russian>> positions;
    const auto slices = slices_up_to(s.pieces);
    while (positions.size() < (1 << 16)) {
        const SliceIndex<Russian> index(slices[rng() % slices.size()]);
        positions.push_back(index.position(rng() % index.size()));
    }
    for (const auto& p : positions) benchmark::DoNotOptimize(tables.probe(p));
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(tables.probe(positions[i]));
        i = (i + 1) & (positions.size() - 1);
    }
    state.SetItemsProcessed(std::int64_t(state.iterations()));
}

}  // namespace

BENCHMARK(warm)->Name("egtb/probe/warm");
BENCHMARK(cold)->Name("egtb/probe/cold");
BENCHMARK(with_captures)->Name("egtb/probe/with_captures");
BENCHMARK_MAIN();
