// dambit bench: search the fixed bench positions to a fixed depth; prints total nodes and nodes/s.
#include <fmt/format.h>

#include <cstdio>

#include "cli.hpp"
#include "commands.hpp"
#include "search/bench.hpp"

namespace dambit {
namespace {
namespace bench_cmd {

constexpr const char* kHelp =
    "usage: dambit bench [--variant V] [--depth N] [--threads T] [--hash MB] [--verbose]\n"
    "                    [--egtb DIR [--egtb-cache MB]] [--eval E]\n"
    "\n"
    "Searches each of the variant's fixed bench positions (at least 30: opening, middlegame and\n"
    "endgame) to depth N, each from an empty table, and prints the total nodes, the time and the\n"
    "speed. With one thread (the default) the node count is the same on every run and machine: it\n"
    "is the signature of the search's behaviour.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --depth N          search depth (default 13 on 8x8, 11 on 10x10)\n"
    "  --threads T        search threads (default 1; more than one is not deterministic)\n"
    "  --hash MB          transposition table size (default 16)\n"
    DAMBIT_TABLES_HELP
    DAMBIT_EVAL_HELP
    "  --verbose          also print the node count of each position\n";

}  // namespace bench_cmd
}  // namespace

int bench_command(int argc, char** argv) {
    using namespace bench_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv, {"variant", "depth", "threads", "hash", "egtb", "egtb-cache", "eval"},
                         {"verbose", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const Variant v = args.variant();
    const int threads = int(args.get_int("threads", 1, 1, 256));
    const auto hash = std::size_t(args.get_megabytes("hash", 16));
    const bool verbose = args.has("verbose");
    const auto tables = cli::tables_option(args);
    const auto weights = cli::eval_option(args);
    return with_variant(v, [&]<class R>(std::type_identity<R>) {
        const int depth = int(args.get_int("depth", R::Geometry::kSize == 8 ? 13 : 11, 1, 100));
        const auto positions = search::bench_positions(v);
        search::BenchResult r;
        try {
            r = search::run_bench<R>(v, depth, threads, hash, [&](int i, std::uint64_t n) {
                const auto& pos = positions[std::size_t(i)];
                if (verbose) fmt::print("{:3} {:12}  {}  ({})\n", i + 1, n, pos.fen, pos.origin);
            }, tables.dir, tables.cache_megabytes, weights.get());
        } catch (const std::invalid_argument& e) {  // no tables of the variant in --egtb DIR
            throw cli::UsageError(e.what());
        }
        fmt::print("variant {}, {} positions, depth {}, {}\n", variant_name(v), r.positions,
                   depth, cli::count_text(std::uint64_t(threads), "thread", "threads"));
        fmt::print("nodes {}\ntime {:.3f} s\nnodes/s {:.0f}\n", r.nodes, r.seconds,
                   r.seconds > 0 ? double(r.nodes) / r.seconds : 0.0);
        return 0;
    });
}

}  // namespace dambit
