// Move generator throughput: detect, count and generate over fixed, documented position sets.
//
// Each benchmark runs one operation over every position of a set and reports positions per second
// (items/s). The sets are written out below with where each position came from; they are inputs
// only, nothing here checks a result (the tests do that).
//
// Positions "after 1.c3-d4 ..." were reached by the stated moves from the start position; these
// lines come from a scratch self-play run that picked, at random, a move leaving the opponent no
// capture where one existed, so they are plausible-looking but not master games. Every move in
// them is legal under the variant's rules (Russian for 8x8, International for 10x10); they were
// checked by replaying them with parse_move.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "core/rules.hpp"

namespace dambit {
namespace {

// A named group of positions. An empty list means the variant's own start position, because the
// side to move at the start differs between variants (Black starts in English and Pool).
struct PositionSet {
    std::string_view name;
    std::vector<std::string_view> fens;
};

// 8x8, shared by Russian, Czech, Brazilian, Pool and English. A position without captures in
// Russian has none in the others either (their men and kings capture in a subset of the Russian
// ways), so "quiet" stays quiet in every 8x8 variant; "captures" differ by variant, as they should.
const std::vector<PositionSet> kBoard8Sets = {
    {"start", {}},
    {"quiet",
     {
         // After 1.c3-d4 f6-g5 2.b2-c3 g7-f6 3.a1-b2 h8-g7 4.g3-h4 b6-a5 5.d4-c5 d6:b4 6.a3:c5
         // g5-f4 7.e3:g5 h6:f4 8.c3-d4 c7-b6 (chosen by hand; 10 men each).
         "W:W14,18,20,25,26,27,28,30,31,32:B1,2,3,5,7,8,9,11,13,19",
         // After 1.g3-f4 b6-a5 2.h2-g3 f6-g5 3.g1-h2 e7-f6 4.c3-d4 f8-e7 5.g3-h4 a7-b6
         // 6.b2-c3 b8-a7 7.f2-g3 d6-c5 8.f4-e5 e7-d6 9.g3-f4 d8-e7 10.a1-b2 c5-b4 11.a3:c5 d6:b4
         // 12.h2-g3 e7-d6 (self-play; 11 men each).
         "W:W15,18,19,20,22,23,24,25,26,30,31:B4,5,6,8,9,10,11,12,13,16,17",
         // After 1.g3-h4 h6-g5 2.a3-b4 g7-h6 3.e3-d4 h8-g7 4.f2-g3 b6-a5 5.d2-e3 c7-b6
         // 6.b2-a3 d6-e5 7.e1-f2 d8-c7 8.a1-b2 c7-d6 9.c1-d2 b8-c7 10.d4-c5 b6:d4 11.e3:c5 c7-b6
         // 12.f2-e3 b6:d4:f2 13.g1:e3 a7-b6 14.e3-d4 g5-f4 15.d4-c5 b6:d4 16.d2-e3 d4:f2
         // 17.g3:e1 h6-g5 18.e1-d2 g7-h6 (self-play; 7 men against 9).
         "W:W17,20,21,22,25,26,28:B3,7,10,11,12,13,15,16,19",
         // After 1.e3-f4 b6-c5 2.f2-e3 a7-b6 3.g3-h4 b6-a5 4.g1-f2 f6-e5 5.f2-g3 b8-a7
         // 6.h4-g5 c7-b6 7.e1-f2 d8-c7 8.g3-h4 e5:g3:e1 9.e3-f4 g7-f6 10.h2-g3 f6-e5 11.c3-b4 a5:c3
         // 12.b2:d4:f6:d8 e1:a5 13.d8-f6 a5-e1 14.f6-e5 f8-e7 15.c1-b2 e1-b4 16.e5-f6 b4-d2
         // 17.f6:d8 d2-c1 18.d8-f6 b6-a5 (self-play; a king and 7 men each).
         "W:WK11,16,19,20,21,24,25,29:B4,5,6,10,12,13,14,K30",
     }},
    {"captures",
     {
         // RULES.md §6 worked example: h6:f8:b4:e1 in Russian, h6:f8 elsewhere.
         "W:W12:B8,14,26",
         // Composed: a white king on e1 below a lattice of black men on b4, d4, f4, b6, d6, f6;
         // captures of up to six pieces along many routes.
         "W:WK31:B9,10,11,17,18,19",
         // Composed: white men c3, e3, g3 and a king on a1 against the lattice b4-h4, b6-f6; men
         // can go round a square of four victims either way, so keep and drop differ (Russian).
         "W:W22,23,24,K29:B9,10,11,17,18,19,20",
         // Composed: white men a1, c1, e1, g1, c3, e3 against black d2, b4, d4, f4, b6, d6, f6, h6;
         // circular man captures, keep and drop differ (Russian).
         "W:W22,23,29,30,31,32:B9,10,11,12,17,18,19,26",
         // After 1.c3-b4 b6-c5 2.b2-c3 f6-g5 3.b4-a5 d6-e5 4.c1-b2 c7-d6 5.g3-h4 e7-f6
         // 6.c3-b4 e5-f4 7.a5-b6 d6-e5 8.b6:d4 e5:c3:a5 9.f2-g3 f8-e7 10.g3:e5 f6:d4:f2
         // (self-play); White must take the man on f2 (three ways).
         "W:W20,21,25,26,28,29,31,32:B1,2,4,5,7,8,12,13,16,27",
     }},
    {"kings",
     {
         // Composed: three kings (a3, c1, e1) against a lone king on b8.
         "W:WK21,K30,K31:BK1",
         // Composed: kings d4, e3 and a man a3 against a king h8 and men a7, c7.
         "W:WK18,21,K23:BK4,5,6",
         // Composed: kings c3, c1 against kings f8, h6.
         "W:WK22,K30:BK3,K12",
         // Composed: kings c1, e1 against men a7, c7, e7, g7.
         "W:WK30,K31:B5,6,7,8",
     }},
};

// 10x10, International.
const std::vector<PositionSet> kBoard10Sets = {
    {"start", {}},
    {"quiet",
     {
         // After 1.33-28 19-24 2.31-26 18-22 3.28-23 13-19 4.37-31 19x28x37 5.41x32 20-25
         // 6.46-41 14-20 7.41-37 12-18 8.39-33 8-12 9.47-41 18-23 10.32-27 12-18 11.38-32 7-12
         // 12.42-38 2-7 13.48-42 10-14 14.43-39 9-13 15.49-43 3-8 16.34-29 23x34 17.39x30x19x10
         // 5x14 18.44-39 4-9 19.40-34 13-19 20.33-29 19-23 (self-play; 16 men each).
         "W:W26,27,29,31,32,34,35,36,37,38,39,41,42,43,45,50:"
         "B1,6,7,8,9,11,12,14,15,16,17,18,20,22,23,25",
         // After 1.33-28 18-23 2.39-33 16-21 3.31-26 20-24 4.44-39 13-18 5.49-44 14-20
         // 6.36-31 20-25 7.41-36 10-14 8.31-27 11-16 9.37-31 8-13 10.42-37 4-10 11.46-41 2-8
         // 12.48-42 14-20 13.28-22 17x28 14.33x22 25-30 15.34x25x14 9x20 16.26x17 12x21
         // 17.39-33 8-12 18.44-39 23-29 19.33-28 7-11 20.39-34 18-23 (self-play; 17 men against
         // 16).
         "W:W22,27,28,31,32,34,35,36,37,38,40,41,42,43,45,47,50:"
         "B1,3,5,6,10,11,12,13,15,16,19,20,21,23,24,29",
         // Woldouby, published in perft-reference.md ([dctl] fmjd.cpp, FMJD forum "Perft" thread).
         "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
         // After 1.33-29 18-22 2.32-27 13-18 3.39-33 8-13 4.43-39 3-8 5.48-43 17-21 6.38-32 19-23
         // 7.35-30 14-19 8.30-25 10-14 9.40-35 5-10 10.43-38 12-17 11.49-43 19-24 12.44-40 21-26
         // 13.50-44 13-19 14.34-30 23x34 15.40x29 17-21 16.39-34 11-17 17.44-40 8-12 18.43-39 2-8
         // 19.29-23 18x29 20.34x23 19x28 21.32x23 21x32x43x34 22.40x29 8-13 23.30x19x8 12x3
         // 24.45-40 6-11 25.40-34 16-21 26.34-30 1-6 27.42-38 3-8 28.47-42 21-27 29.30-24 9-13
         // 30.23-18 4-9 31.35-30 17-21 32.29-23 20x29 33.23x34 11-17 34.30-24 6-11 35.34-30 14-19
         // (self-play; 12 men against 13).
         "W:W18,24,25,30,31,33,36,37,38,41,42,46:B7,8,9,10,11,13,15,17,19,21,22,26,27",
     }},
    {"captures",
     {
         // Random178, published in perft-reference.md ([dctl] fmjd.cpp): 14 moves (drop), many
         // more capture paths (keep).
         "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
         // FID 4.6 rule case (perft-reference.md): the king on 1 takes ten pieces, 1x15.
         "W:WK1:B7,9,17,19,20,30,31,33,43,44",
         // FFJD 4.13 rule case (perft-reference.md): most pieces, 48x19.
         "W:W48:B24,K31,34,K42,43",
         // Composed: a king on 47 below a lattice of black men on 11-14, 21-24, 31-34.
         "W:WK47:B11-14,21-24,31-34",
         // After 1.34-29 19-23 2.39-34 17-22 3.44-39 11-17 4.31-26 16-21 5.50-44 22-27
         // 6.35-30 14-19 7.30-25 10-14 8.33-28 6-11 9.39-33 4-10 10.44-39 11-16 11.37-31 20-24
         // 12.31x22x11 12-17 13.11x22 18x27 14.26x17 8-12 15.32x21 23x32 (self-play); White must
         // capture (three ways).
         "W:W17,21,25,29,33,34,36,38,39,40,41,42,43,45,46,47,48,49:"
         "B1,2,3,5,7,9,10,12,13,14,15,16,19,24,32",
     }},
    {"kings",
     {
         // Composed: three kings (46, 47, 50) against a lone king on 5, on the long diagonal.
         "W:WK46,K47,K50:BK5",
         // Composed: kings 28, 33 and a man 39 against a king 3 and men 12, 13.
         "W:WK28,K33,39:BK3,12,13",
         // AllKings, published in perft-reference.md ([dctl] fmjd.cpp).
         "W:WK31-50:BK1-20",
         // Composed: kings 28, 39 against kings 3, 15.
         "W:WK28,K39:BK3,K15",
     }},
};

template <class R>
std::vector<Position<R>> load(const PositionSet& set) {
    std::vector<Position<R>> out;
    if (set.fens.empty()) out.push_back(Position<R>::start());
    for (std::string_view fen : set.fens) out.push_back(parse_fen<R>(fen));
    return out;
}

template <class R>
void bench_detect(benchmark::State& state, const std::vector<Position<R>>& positions) {
    for (auto _ : state)
        for (const auto& p : positions) benchmark::DoNotOptimize(has_capture(p));
    state.SetItemsProcessed(state.iterations() * std::int64_t(positions.size()));
}

template <class R, Duplicates D>
void bench_count(benchmark::State& state, const std::vector<Position<R>>& positions) {
    std::int64_t moves = 0;
    for (auto _ : state) {
        moves = 0;
        for (const auto& p : positions) {
            const int n = count_moves<R, D>(p);
            benchmark::DoNotOptimize(n);
            moves += n;
        }
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(positions.size()));
    // The average number of legal moves per position: what the set asks of the generator.
    state.counters["moves/pos"] = double(moves) / double(positions.size());
}

template <class R, Duplicates D>
void bench_generate(benchmark::State& state, const std::vector<Position<R>>& positions) {
    MoveList<typename R::Geometry> list;
    std::int64_t moves = 0;
    for (auto _ : state) {
        moves = 0;
        for (const auto& p : positions) {
            generate<R, D>(p, list);
            benchmark::DoNotOptimize(list);
            moves += list.size();
        }
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t(positions.size()));
    state.counters["moves/pos"] = double(moves) / double(positions.size());
}

// Registers detect, count and generate of variant R over every set. The keep convention only
// changes captures, so it is registered only for sets where some position must capture.
template <class R>
void register_variant(const std::vector<PositionSet>& sets) {
    for (const PositionSet& set : sets) {
        const std::vector<Position<R>> positions = load<R>(set);
        bool any_capture = false;
        for (const auto& p : positions) any_capture |= has_capture(p);
        const std::string where = std::string(R::kName) + "/" + std::string(set.name);

        benchmark::RegisterBenchmark(("detect/" + where).c_str(), bench_detect<R>, positions);
        benchmark::RegisterBenchmark(("count/" + where + "/drop").c_str(),
                                     bench_count<R, Duplicates::kDrop>, positions);
        if (any_capture)
            benchmark::RegisterBenchmark(("count/" + where + "/keep").c_str(),
                                         bench_count<R, Duplicates::kKeep>, positions);
        benchmark::RegisterBenchmark(("generate/" + where + "/drop").c_str(),
                                     bench_generate<R, Duplicates::kDrop>, positions);
        if (any_capture)
            benchmark::RegisterBenchmark(("generate/" + where + "/keep").c_str(),
                                         bench_generate<R, Duplicates::kKeep>, positions);
    }
}

}  // namespace
}  // namespace dambit

int main(int argc, char** argv) {
    using namespace dambit;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    try {
        register_variant<Russian>(kBoard8Sets);
        register_variant<International>(kBoard10Sets);
        register_variant<Czech>(kBoard8Sets);
        register_variant<Brazilian>(kBoard8Sets);
        register_variant<Pool>(kBoard8Sets);
        register_variant<English>(kBoard8Sets);
    } catch (const std::exception& e) {
        // A position that no longer parses is a broken benchmark, not a slow one.
        std::fprintf(stderr, "dambit_movegen_bench: %s\n", e.what());
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
