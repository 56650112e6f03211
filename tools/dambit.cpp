// dambit: the command-line program; dispatches to the subcommands.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "core/notation.hpp"

namespace {

struct Subcommand {
    const char* name;
    int (*run)(int, char**);
    const char* summary;
};

const Subcommand kSubcommands[] = {
    {"show", dambit::show_command, "draw a position (text diagram, or SVG with --svg) with its moves"},
    {"moves", dambit::moves_command, "list the legal moves of a position"},
    {"perft", dambit::perft_command, "count leaf nodes; --verify checks the published tables"},
    {"search", dambit::search_command, "find the best move: iterative deepening, one line per depth"},
    {"bench", dambit::bench_command, "search a fixed set of positions; total nodes is the signature"},
    {"solve", dambit::solve_command, "prove a forced win or loss and print the shortest line"},
    {"match", dambit::match_command, "self-play match between two engine settings, with Elo"},
    {"egtb", dambit::egtb_command, "endgame tables: build, probe, verify, info"},
};

void usage(std::FILE* out) {
    std::fprintf(out,
                 "usage: dambit <subcommand> [options]   (dambit <subcommand> --help for details)\n\n"
                 "subcommands:\n");
    for (const auto& s : kSubcommands) std::fprintf(out, "  %-8s %s\n", s.name, s.summary);
    std::fprintf(out, "\nvariants: russian (default), czech, brazilian, pool, english, international\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        usage(stdout);
        return 0;
    }
    for (const auto& s : kSubcommands) {
        if (name != s.name) continue;
        try {
            return s.run(argc - 2, argv + 2);
        } catch (const dambit::cli::UsageError& e) {
            std::fprintf(stderr, "dambit %s: %s\n", s.name, e.what());
        } catch (const dambit::ParseError& e) {
            std::fprintf(stderr, "dambit %s: %s\n", s.name, e.what());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "dambit %s: error: %s\n", s.name, e.what());
            return 1;
        }
        return 2;
    }
    std::fprintf(stderr, "dambit: unknown subcommand '%s' (try dambit --help)\n", name.c_str());
    return 2;
}
