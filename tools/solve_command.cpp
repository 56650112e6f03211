// dambit solve: prove the shortest forced win (or the longest loss) of the side to move.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "core/notation.hpp"
#include "search/line.hpp"
#include "search/solve.hpp"

namespace dambit {
namespace {
namespace solve_cmd {

constexpr const char* kHelp =
    "usage: dambit solve [--variant V] (--fen FEN | --file FILE) [--max-plies N]\n"
    "                    [--max-seconds S] [--draw-rules] [--hash MB]\n"
    "                    [--egtb DIR [--egtb-cache MB]]\n"
    "\n"
    "Proves a forced result for the side to move and prints one of\n"
    "  win in N plies: LINE    the shortest forced win; the opponent is first left without\n"
    "                          a legal move after ply N; LINE is best play by both sides\n"
    "  loss in N plies: LINE   every move loses; LINE is the longest resistance\n"
    "  no forced result within the limits\n"
    "followed by the node count and the time. A result is printed only when proven.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --fen FEN          the position\n"
    "  --file FILE        one FEN per line, optionally a tab and the expected result ('win N' or\n"
    "                     'loss N'; 'win in N plies' also accepted); prints one line per\n"
    "                     position and a summary: solved, wrong, unsolved, time. Exit status 1\n"
    "                     if any is wrong\n"
    "  --max-plies N      longest result looked for (default 120, at most 250)\n"
    "  --max-seconds S    time limit per position (default 60; 0 = none)\n"
    "  --draw-rules       apply the move-count draw rules (RULES.md §5); by default they are\n"
    "                     off and the values are game-theoretic, as endgame tables store them\n"
    "  --hash MB          proof table size (default 256)\n"
    DAMBIT_TABLES_HELP
    "                     (positions inside the tables are answered at once and cut the proof\n"
    "                     search; not with --draw-rules: the tables hold game-theoretic values)\n";

template <class G>
std::string outcome_text(const search::Proof<G>& p) {
    switch (p.outcome) {
        case search::Outcome::kForcedWin:
            return fmt::format("win in {} plies", p.plies);
        case search::Outcome::kForcedLoss:
            return fmt::format("loss in {} plies", p.plies);
        case search::Outcome::kUnknown:
            break;
    }
    return "no forced result within the limits";
}

// An expected result from a --file line: "win N", "loss N", "win in N plies", ...
struct Expected {
    bool given = false;
    search::Outcome outcome = search::Outcome::kUnknown;
    int plies = 0;
};

Expected parse_expected(const std::string& text, int line_number) {
    Expected e;
    std::istringstream in(text);
    std::string word, number;
    if (!(in >> word)) return e;
    if (word != "win" && word != "loss")
        throw cli::UsageError("line " + std::to_string(line_number) + ": bad expected result '" +
                              text + "' (want 'win N' or 'loss N')");
    in >> number;
    if (number == "in") in >> number;
    std::string rest, extra;
    std::getline(in, rest);
    std::istringstream more(rest);
    more >> extra;
    if (extra == "plies" || extra == "ply") extra.clear(), more >> extra;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    if (!extra.empty())
        throw cli::UsageError(where + "unexpected '" + extra + "' after the expected result '" +
                              text + "'");
    e.given = true;
    e.outcome = word == "win" ? search::Outcome::kForcedWin : search::Outcome::kForcedLoss;
    try {
        e.plies = int(cli::parse_int("file", number, 0, 250));
    } catch (const cli::UsageError&) {
        throw cli::UsageError(where + "bad number of plies '" + number + "' in '" + text +
                              "' (want an integer from 0 to 250)");
    }
    return e;
}

template <class R>
int run(const cli::Args& args) {
    search::SolveOptions opt;
    opt.max_plies = int(args.get_int("max-plies", 120, 0, 250));
    opt.max_seconds = args.get_double("max-seconds", 60, 0, 1e9);
    opt.draw_rules = args.has("draw-rules");
    opt.hash_megabytes = std::size_t(args.get_int("hash", 256, 1, 1 << 20));
    const auto tables = cli::tables_option(args);
    opt.tables_dir = tables.dir;
    opt.tables_cache_megabytes = tables.cache_megabytes;
    // The solver (its proof table, its tables) is made once the input is known to be good: a
    // bad FEN or file line is an error before any work.
    if (const auto fen = args.get("fen")) {
        const Position<R> p = parse_fen<R>(*fen);
        search::Solver<R> solver(opt);
        const auto proof = solver.solve(p);
        std::string text = outcome_text(proof);
        if (proof.outcome != search::Outcome::kUnknown && !proof.line.empty())
            text += ": " + search::join_line<R>(p, proof.line);
        fmt::print("{}\nnodes {}, {:.3f} s\n", text, proof.nodes, proof.seconds);
        return 0;
    }
    const std::string path = *args.get("file");
    cli::check_readable(path);
    std::ifstream in(path);
    if (!in) throw cli::UsageError("cannot read '" + path + "'");
    // Every line is read and checked before the first search: a bad line is an error before any
    // work, not after the positions above it were solved.
    struct Problem {
        std::string fen;
        Position<R> position;
        Expected want;
    };
    std::vector<Problem> problems;
    std::string row;
    for (int number = 1; std::getline(in, row); ++number) {
        const auto tab = row.find('\t');
        const std::string fen = row.substr(0, tab);
        if (fen.find_first_not_of(" \r") == std::string::npos || fen[0] == '#') continue;
        const Expected want =
            parse_expected(tab == std::string::npos ? "" : row.substr(tab + 1), number);
        try {
            problems.push_back({fen, parse_fen<R>(fen), want});
        } catch (const ParseError& e) {
            throw cli::UsageError("line " + std::to_string(number) + ": " + e.what());
        }
    }
    if (in.bad()) throw std::runtime_error("cannot read '" + path + "'");
    search::Solver<R> solver(opt);
    int solved = 0, wrong = 0, unsolved = 0;
    double total = 0;
    for (const auto& [fen, p, want] : problems) {
        // Each position from an empty table: its time is its own, whatever came before it.
        solver.clear_table();
        const auto proof = solver.solve(p);
        total += proof.seconds;
        std::string verdict;
        if (proof.outcome == search::Outcome::kUnknown) {
            ++unsolved;
            verdict = "unsolved";
        } else if (want.given && (want.outcome != proof.outcome || want.plies != proof.plies)) {
            ++wrong;
            verdict = "WRONG";
        } else {
            ++solved;
            verdict = "solved";
        }
        fmt::print("{}\t{}\t{}\t{:.3f} s\n", fen, outcome_text(proof), verdict, proof.seconds);
        std::fflush(stdout);
    }
    fmt::print("solved {}, wrong {}, unsolved {}, time {:.3f} s\n", solved, wrong, unsolved, total);
    return wrong ? 1 : 0;
}

}  // namespace solve_cmd
}  // namespace

int solve_command(int argc, char** argv) {
    using namespace solve_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv, {"variant", "fen", "file", "max-plies", "max-seconds", "hash",
                                          "egtb", "egtb-cache"},
                         {"draw-rules", "help"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() {
        if (args.has("fen") == args.has("file"))
            throw cli::UsageError("give one of --fen and --file");
        return run<R>(args);
    });
}

}  // namespace dambit
