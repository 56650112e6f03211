// dambit match: a self-play match between two settings of the engine, game pairs from a fixed
// opening set, with the score and the Elo difference.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "play/match.hpp"

namespace dambit {
namespace {

constexpr const char* kHelp =
    "usage: dambit match [--variant V] [--a SETTINGS] [--b SETTINGS]\n"
    "         [--depth N | --nodes N | --movetime MS] [--openings N] [--opening-plies K]\n"
    "         [--max-plies P] [--threads T] [--hash MB] [--pgn FILE]\n"
    "\n"
    "Plays engine A against engine B. The openings are every position reached after K plies\n"
    "(default 2) from the start position, in move generation order, each distinct position\n"
    "once: 49 for the 8x8 variants and 81 for International at K = 2. Each opening is played\n"
    "twice, A with White first, then B with White (a game pair). Both engines start every game\n"
    "with an empty table. A game ends when the side to move has no legal move (it loses), on the\n"
    "third occurrence of a position, on the variant's move-count draw rules, or after P plies\n"
    "(adjudicated a draw). Prints one line per game pair and a summary: games, A wins, draws,\n"
    "B wins, A's score and the Elo difference A-B with its 95% margin.\n"
    "With one thread, --depth and --nodes give the same games on every run.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --a SETTINGS       engine A: comma-separated key=value, keys lmr (late move\n"
    "  --b SETTINGS       reductions), threat (threat extension), staged (killer or\n"
    "                     table move tried before the quiet moves are generated) and\n"
    "                     probcut (a half-depth search that beats beta by a margin cuts),\n"
    "                     values on/off, e.g. \"lmr=off,threat=on\"; unset keys keep the\n"
    "                     variant's defaults\n"
    "  --depth N          each move searched to depth N (default 6)\n"
    "  --nodes N          each move searched about N nodes\n"
    "  --movetime MS      each move searched MS milliseconds (not reproducible)\n"
    "  --openings N       play only the first N openings (default all)\n"
    "  --opening-plies K  plies from the start to the openings (0..4, default 2)\n"
    "  --max-plies P      plies per game before it is adjudicated a draw (default 200 on\n"
    "                     8x8, 300 on 10x10, where 200 cut off one game in seven)\n"
    "  --threads T        search threads per engine (default 1)\n"
    "  --hash MB          transposition table per engine (default 16)\n"
    DAMBIT_TABLES_HELP
    "                     (both engines probe them; the setting egtb=off turns one off, e.g.\n"
    "                     --a egtb=on --b egtb=off measures what the tables are worth)\n"
    "  --pgn FILE         write every game in PDN to FILE (written to FILE.tmp as the games\n"
    "                     are played, renamed to FILE at the end)\n";

// The settings of --a or --b: the search's switches, and whether the engine probes the endgame
// tables (the token egtb=on|off, which only goes with --egtb).
struct Settings {
    search::Tuning tuning;
    bool tables = true;
};

Settings settings(const cli::Args& args, const char* name, const search::Tuning& defaults) {
    Settings out;
    std::string rest;
    const std::string text = args.get_or(name, "");
    for (const auto& token : notation_detail::split(text, ',')) {
        if (token == "egtb=on" || token == "egtb=off") {
            if (!args.has("egtb"))
                throw cli::UsageError(std::string("--") + name + ": the setting '" +
                                      std::string(token) + "' goes with --egtb DIR");
            out.tables = token == "egtb=on";
            continue;
        }
        rest += (rest.empty() ? "" : ",") + std::string(token);
    }
    try {
        out.tuning = play::parse_tuning(rest, defaults);
    } catch (const std::invalid_argument& e) {
        throw cli::UsageError(std::string("--") + name + ": " + e.what());
    }
    return out;
}

std::string signed_text(double x, int decimals) {
    if (std::fabs(x) < 0.5 * std::pow(10.0, -decimals)) x = 0;  // no "-0.0"
    return fmt::format("{:+.{}f}", x, decimals);
}

template <class R>
int run(const cli::Args& args) {
    const search::Tuning defaults = search::Tuning::defaults_for<R>();
    const Settings sa = settings(args, "a", defaults);
    const Settings sb = settings(args, "b", defaults);
    const search::Tuning& ta = sa.tuning;
    const search::Tuning& tb = sb.tuning;
    const auto tables = cli::tables_option(args);

    search::Limits limits;
    std::string limit_text;
    int given = 0;
    if (args.has("depth")) {
        limits.depth = int(args.get_int("depth", 0, 1, 100)), ++given;
        limit_text = fmt::format("depth {}", limits.depth);
    }
    if (args.has("nodes")) {
        limits.nodes = std::uint64_t(args.get_int("nodes", 0, 1, INT64_MAX)), ++given;
        limit_text = fmt::format("nodes {}", limits.nodes);
    }
    if (args.has("movetime")) {
        limits.movetime_ms = args.get_int("movetime", 0, 1, INT64_MAX), ++given;
        limit_text = fmt::format("movetime {} ms", limits.movetime_ms);
    }
    if (given > 1) throw cli::UsageError("give at most one of --depth, --nodes and --movetime");
    if (given == 0) {
        limits.depth = 6;
        limit_text = "depth 6";
    }
    const int opening_plies = int(args.get_int("opening-plies", 2, 0, 4));
    const int max_plies =
        int(args.get_int("max-plies", R::Geometry::kSize == 8 ? 200 : 300, 1, 100000));
    const int threads = int(args.get_int("threads", 1, 1, 256));
    const auto hash = std::size_t(args.get_int("hash", 16, 1, 1 << 20));
    // The games go to FILE.tmp as they are played (so an interrupted match keeps its games
    // there) and FILE.tmp becomes FILE by a rename at the end: FILE is never half written.
    const auto pgn = args.get("pgn");
    std::ofstream pdn_out;
    if (pgn) {
        pdn_out.open(*pgn + ".tmp", std::ios::binary | std::ios::trunc);
        if (!pdn_out) throw cli::UsageError("cannot write '" + *pgn + ".tmp'");
    }

    auto openings = play::opening_positions<R>(opening_plies);
    const auto available = std::int64_t(openings.size());
    const auto count = args.get_int("openings", available, 1, INT64_MAX);
    if (count < available) openings.resize(std::size_t(count));

    search::Engine<R> a(hash, threads), b(hash, threads);
    a.set_tuning(ta);
    b.set_tuning(tb);
    std::string name_a = "A " + play::tuning_text(ta);
    std::string name_b = "B " + play::tuning_text(tb);
    if (!tables.dir.empty()) {
        int pieces = 0;
        if (sa.tables) pieces = a.set_tables(tables.dir, tables.cache_megabytes);
        if (sb.tables) pieces = b.set_tables(tables.dir, tables.cache_megabytes);
        if (pieces == 0 && (sa.tables || sb.tables))
            throw cli::UsageError("no complete set of " + std::string(R::kName) + " tables in " +
                                  tables.dir);
        name_a += sa.tables ? ",egtb=on" : ",egtb=off";
        name_b += sb.tables ? ",egtb=on" : ",egtb=off";
    }
    const std::string event = "dambit match " + std::string(R::kName) + ", " + limit_text;
    fmt::print("{}: {} vs {}, {} openings ({} plies), {} games, max {} plies\n", event, name_a,
               name_b, openings.size(), opening_plies, 2 * openings.size(), max_plies);
    std::fflush(stdout);

    int wins = 0, draws = 0, losses = 0;
    play::PlayerStats stats_a, stats_b;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < openings.size(); ++i) {
        const auto& op = openings[i];
        const auto pair =
            play::play_pair<R>(a, b, op.position, limits, max_plies, &stats_a, &stats_b);
        std::string line, record;
        for (int g = 0; g < 2; ++g) {
            const auto& game = pair[std::size_t(g)];
            // A has White in the first game and Black in the second.
            const double pa = game.points(g == 0 ? Color::kWhite : Color::kBlack);
            if (pa == 1)
                ++wins;
            else if (pa == 0)
                ++losses;
            else
                ++draws;
            line += fmt::format("{}{} ({}, {} plies)", g == 0 ? "A-B " : ", B-A ",
                                game.result_text(), play::ending_name(game.ending), game.plies());
            record += play::pdn_game<R>(game, event, fmt::format("{}.{}", i + 1, g + 1),
                                        g == 0 ? name_a : name_b, g == 0 ? name_b : name_a);
        }
        fmt::print("opening {}/{} {}: {}; A +{} ={} -{}\n", i + 1, openings.size(),
                   op.line.empty() ? "(start)" : op.line, line, wins, draws, losses);
        std::fflush(stdout);
        if (pgn) {
            pdn_out << record;
            pdn_out.flush();
            if (!pdn_out) throw std::runtime_error("cannot write '" + *pgn + ".tmp'");
        }
    }
    if (pgn) {
        pdn_out.close();
        if (!pdn_out || std::rename((*pgn + ".tmp").c_str(), pgn->c_str()) != 0)
            throw std::runtime_error("cannot rename '" + *pgn + ".tmp' to '" + *pgn + "'");
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const auto e = play::elo_estimate(wins, draws, losses);
    const int games = wins + draws + losses;
    std::string elo;
    if (e.finite)
        elo = signed_text(e.elo, 1) + " +/- " + signed_text(e.margin, 1).substr(1);
    else
        elo = e.score >= 1 ? "+inf" : "-inf";
    // What each side spent: at a fixed depth a pruning shows here as fewer nodes per move.
    auto spent = [](const char* name, const play::PlayerStats& s) {
        const int m = std::max(s.moves, 1);
        fmt::print("{}: {} moves, {:.0f} nodes/move, mean depth {:.2f}\n", name, s.moves,
                   double(s.nodes) / m, double(s.depth_sum) / m);
    };
    spent("A", stats_a);
    spent("B", stats_b);
    fmt::print(
        "games {}, A wins {}, draws {}, B wins {}, A scores {:.1f}%, Elo A-B {} (95%), {:.1f} s\n",
        games, wins, draws, losses, 100 * e.score, elo, seconds);
    return 0;
}

}  // namespace

int match_command(int argc, char** argv) {
    const cli::Args args(argc, argv,
                         {"variant", "a", "b", "depth", "nodes", "movetime", "openings",
                          "opening-plies", "max-plies", "threads", "hash", "pgn", "egtb", "egtb-cache"},
                         {"help"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() { return run<R>(args); });
}

}  // namespace dambit
