// dambit search: find the best move of a position, one report line per iteration.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "book_player.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "core/notation.hpp"
#include "json.hpp"
#include "play/match.hpp"
#include "search/engine.hpp"
#include "search/line.hpp"

namespace dambit {
namespace {
namespace search_cmd {

constexpr const char* kHelp =
    "usage: dambit search [--variant V] [--fen FEN] [--moves \"m1 m2 ...\"]\n"
    "         [--depth N | --nodes N | --movetime MS] [--threads T] [--hash MB] [--json]\n"
    "         [--egtb DIR [--egtb-cache MB]] [--multipv K] [--eval E]\n"
    "         [--book FILE [--book-ply N] [--book-margin M]]\n"
    "\n"
    "Searches the position (after the moves, if given) and prints one line per completed\n"
    "iteration, then the best move. Scores are for the side to move in hundredths of a man;\n"
    "a proven result is shown as 'win N' or 'loss N', N being the ply after which the losing\n"
    "side has no legal move. Without a limit the search runs for 3 seconds. A game over by the\n"
    "rules is not searched: 'bestmove none (no legal move: lost)', or '(drawn: ...)' when the\n"
    "position occurred three times or the move-count rules (with the FEN's H field) ended it.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --fen FEN          position (default: the variant's start position)\n"
    "  --moves \"...\"      moves played from that position first (repetitions, draw rules)\n"
    "  --depth N          iterations up to depth N (1..100)\n"
    "  --nodes N          stop after about N nodes\n"
    "  --movetime MS      search this many milliseconds\n"
    "  --threads T        search threads sharing the table (default 1)\n"
    "  --hash MB          transposition table size (default 64)\n"
    "  --multipv K        the K best moves, each with its line and score (default 1);\n"
    "                     each iteration prints K lines, 'multipv i' (or \"multipv\":i) first\n"
    DAMBIT_TABLES_HELP
    DAMBIT_EVAL_HELP
    DAMBIT_BOOK_HELP
    "                     (the ply counts the --moves; a book move is printed as\n"
    "                     'book M value V depth D weight W', or {\"book\":M,\"value\":V,...}\n"
    "                     with --json, then the bestmove line, and nothing is searched)\n"
    "  --json             one object per iteration\n"
    "                     {\"depth\",\"seldepth\",\"score\",\"nodes\",\"nps\",\"time\",\"pv\"}\n"
    "                     and a final {\"bestmove\":M} (null when the game is over;\n"
    "                     \"drawn\":\"repetition\" or \"move-count rules\" with a draw)\n";


template <class R>
int run(const cli::Args& args) {
    using G = typename R::Geometry;
    const auto fen = args.get("fen");
    Position<R> p = fen ? parse_fen<R>(*fen) : Position<R>::start();
    // The game so far, for the draw rules (RULES.md §5), as show and a match judge it.
    play::GameState<R> game(p);
    // The FEN's H field: kings alone have moved for that many plies before it.
    const search::DrawCounters start = fen ? search::fen_counters(*fen) : search::DrawCounters{};
    game.counters = start;
    if (const auto moves = args.get("moves"))
        for (const auto& pm : play_line<R>(p, *moves)) game.play(pm);
    const std::vector<Position<R>>& history = game.history;
    search::Limits limits = cli::limits_option(args, 3000);
    limits.multipv = int(args.get_int("multipv", 1, 1, 256));
    // One legal move (a forced capture, common in Russian) is searched for its score all the
    // same: `search` analyses; the players (hub, dxp, match) answer it at once.
    limits.analysis = true;
    const bool several = limits.multipv > 1;
    const int threads = int(args.get_int("threads", 1, 1, 256));
    const auto hash = std::size_t(args.get_megabytes("hash", 64));
    const bool json = args.has("json");
    // A game the rules have drawn (show says so too) has no move to find; a lost one is the
    // engine's answer below.
    FixedList<PathMove<G>, kMaxMoves> legal;
    const auto ending = game.rules_ending(std::numeric_limits<int>::max(), legal);
    if (ending == play::Ending::kRepetition || ending == play::Ending::kDrawRule) {
        const bool repeated = ending == play::Ending::kRepetition;
        if (json)
            fmt::print("{}\n", json::Object()
                                   .add("bestmove", std::optional<std::string>())
                                   .add("drawn", play::drawn_name(*ending))
                                   .str());
        else
            fmt::print("bestmove none ({})\n",
                       repeated ? "drawn: this position has occurred three times"
                                : "drawn by the move-count rules");
        return 0;
    }
    if (const auto book = cli::book_player<R>(cli::book_option(args), "--book"))
        if (const auto m = book->choose(p, history.size())) {
            const std::string text = move_text<R>(m->move);
            if (json)
                fmt::print("{}\n{}\n",
                           json::Object()
                               .add("book", text)
                               .add("value", m->value)
                               .add("depth", m->depth)
                               .add("weight", m->weight)
                               .str(),
                           json::Object().add("bestmove", text).str());
            else
                fmt::print("book {} value {} depth {} weight {}\nbestmove {}\n", text,
                           search::score_text(m->value, std::to_string(m->value)), m->depth,
                           m->weight, text);
            return 0;
        }

    search::Engine<R> engine(hash, threads);
    engine.set_weights(cli::eval_option(args).get());
    const auto tables = cli::tables_option(args);
    if (!tables.dir.empty() && engine.set_tables(tables.dir, tables.cache_megabytes) == 0)
        throw cli::UsageError(
            fmt::format("no complete set of {} tables in {}", R::kName, tables.dir));
    typename search::Engine<R>::Callbacks cb;
    cb.warning = [](const std::string& m) { cli::eprint("dambit search: {}\n", m); };
    cb.iteration = [&](const search::Iteration<G>& it) {
        const auto pv = search::line_text<R>(p, it.pv);
        if (json) {
            json::Object o;
            if (several) o.add("multipv", it.multipv);
            fmt::print("{}\n", o.add("depth", it.depth)
                                   .add("seldepth", it.seldepth)
                                   .add("score", it.score)
                                   .add("nodes", it.nodes)
                                   .add("nps", it.nps)
                                   .add("time", it.time_ms)
                                   .add("pv", pv)
                                   .str());
        } else {
            std::string line;
            for (const auto& m : pv) line += " " + m;
            fmt::print("{}depth {} seldepth {} score {} nodes {} nps {} time {} pv{}\n",
                       several ? fmt::format("multipv {} ", it.multipv) : "", it.depth,
                       it.seldepth, search::score_text(it.score, std::to_string(it.score)),
                       it.nodes, it.nps, it.time_ms, line);
        }
        std::fflush(stdout);
    };
    // Ctrl-C, kill or a closed terminal ends the search as its limits would: the best move of
    // the iterations done is printed, then one line on stderr, and the exit status is 130.
    cli::catch_stop_signals();
    cb.stop_flag = &cli::stop_flag();
    const auto started = std::chrono::steady_clock::now();
    const auto result = engine.go(p, history, limits, cb, start);
    std::optional<std::string> move;  // none: no legal move, lost
    if (result.has_move) {
        const auto best = search::line_text<R>(p, {result.best});
        move = best.empty() ? "?" : best.front();
    }
    if (json)
        fmt::print("{}\n", json::Object().add("bestmove", move).str());
    else
        fmt::print("bestmove {}\n", move.value_or("none (no legal move: lost)"));
    if (cli::stop_requested()) {
        std::fflush(stdout);
        cli::eprint("dambit search: interrupted after {:.3f} s; the best move above is that of the "
                    "iterations finished\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        return 130;
    }
    return 0;
}

}  // namespace search_cmd
}  // namespace

int search_command(int argc, char** argv) {
    using namespace search_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(
        argc, argv,
        {"variant", "fen", "moves", "depth", "nodes", "movetime", "threads", "hash", "egtb", "eval",
         "egtb-cache", "multipv", "book", "book-ply", "book-margin"},
        {"json", "help"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() { return run<R>(args); });
}

}  // namespace dambit
