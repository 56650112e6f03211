// dambit match: a match between two settings of the engine, or against an engine of another
// program (Hub or DXP), game pairs from a fixed opening set or the official ballots, with clocks,
// forfeits, the score, the Elo difference and a sequential test.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <type_traits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "book_player.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "core/memory.hpp"
#include "core/threads.hpp"
#include "play/ballots.hpp"
#include "play/contest.hpp"
#include "play/loss_analysis.hpp"
#include "play/match.hpp"
#include "play/sprt.hpp"
#include "pdn/game.hpp"
#include "pdn/journal.hpp"
#include "pdn/reader.hpp"
#include "protocol/dxp_contestant.hpp"
#include "protocol/hub_client.hpp"
#include "protocol/net.hpp"

namespace dambit {
namespace {
namespace match_cmd {

constexpr const char* kHelp =
    "usage: dambit match [--variant V] [--a SIDE] [--b SIDE]\n"
    "         [--depth N | --nodes N | --movetime MS | --tc BASE+INC] [--grace MS]\n"
    "         [--openings N] [--opening-plies K | --ballots NAME | --openings-file FILE]\n"
    "         [--max-plies P] [--sprt 'elo0=E0 elo1=E1 alpha=A beta=B model=M']\n"
    "         [--threads T] [--hash MB] [--pgn FILE] [--eval E] [--concurrency N]\n"
    "         [--analyse-losses [--analyse-factor F]] [--egtb DIR [--egtb-cache MB]]\n"
    "         [--book FILE [--book-ply N] [--book-margin M]] [--a-param P] [--b-param P]\n"
    "\n"
    "Plays A against B. The openings are every position reached after K plies\n"
    "(default 2) from the start position, in move generation order, each distinct position\n"
    "once: 49 for the 8x8 variants and 81 for International at K = 2. Each opening is played\n"
    "twice, A with White first, then B with White (a game pair). Both engines start every game\n"
    "with an empty table. A game ends when the side to move has no legal move (it loses), on the\n"
    "third occurrence of a position, on the variant's move-count draw rules, or after P plies\n"
    "(adjudicated a draw), or when a side forfeits (it loses): an illegal move, a crash, a lost\n"
    "connection, its clock below zero (\"time\"), or no answer within its time plus the grace.\n"
    "Prints one line per game pair and a summary: games, A wins, draws, B wins, A's score and\n"
    "the Elo difference A-B with its 95% margin.\n"
    "With one thread, --depth and --nodes give the same games on every run.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --a SIDE           a side is dambit's engine with SETTINGS, or an engine of another\n"
    "  --b SIDE           program:\n"
    "                     SETTINGS: comma-separated key=value, keys lmr (late move\n"
    "                     reductions), threat (threat extension), staged (killer or\n"
    "                     table move tried before the quiet moves are generated),\n"
    "                     probcut (a half-depth search that beats beta by a margin cuts),\n"
    "                     offer (late quiet moves after which the opponent must capture\n"
    "                     are not reduced), lmrlog (reductions that grow with depth\n"
    "                     and move number; off: one or two plies), rfp (reverse\n"
    "                     futility pruning near the horizon), partial (a search cut\n"
    "                     inside an iteration plays the move it proved better),\n"
    "                     time (under a clock, the time for a move follows how\n"
    "                     settled the search is), iir (internal iterative\n"
    "                     reduction: a node without a table move one ply shallower),\n"
    "                     ecache (a cache of static scores: speed only, the same nodes),\n"
    "                     early (non-PV nodes reduce late quiet moves from the second),\n"
    "                     values on/off, e.g. \"lmr=off,threat=on\"; unset keys keep the\n"
    "                     variant's defaults; eval=E, the evaluation (as --eval);\n"
    "                     book=FILE, book-ply=N, book-margin=M, an opening book (as --book);\n"
    "                     threads=N and hash=MB, this side's threads and table (as\n"
    "                     --threads and --hash); egtb=on/off, whether it probes the\n"
    "                     tables of --egtb\n"
    "                     hub:'COMMAND ARGS': a Hub engine, started with /bin/sh -c (and\n"
    "                     started again after a crash); it gets `level time=CLOCK inc=INC`,\n"
    "                     `level move-time=S`, or `level depth=N` / `level nodes=N`; its\n"
    "                     parameters come from --a-param / --b-param\n"
    "                     dxp:HOST:PORT: a DXP follower (International only; dambit connects\n"
    "                     and sends GAMEREQ with the --tc base in minutes, rounded up, or with\n"
    "                     --movetime enough minutes for max-plies moves; needs --tc or\n"
    "                     --movetime)\n"
    "  --depth N          each move searched to depth N (default 6)\n"
    "  --nodes N          each move searched about N nodes\n"
    "  --movetime MS      each move searched MS milliseconds (not reproducible); a side that\n"
    "                     answers after MS plus the grace forfeits\n"
    "  --tc BASE+INC      a Fischer clock per side: BASE seconds, INC seconds added before each\n"
    "                     move (e.g. 60+0.5, or 60 for no increment); the clock is the wall time\n"
    "                     from the request to the answer, and a side below zero loses on time\n"
    "  --grace MS         how much longer than its time an engine is waited for before it\n"
    "                     forfeits (default 1000); without --tc or --movetime an engine of\n"
    "                     another program is waited for 60 s plus the grace per move\n"
    "  --openings N       play only the first N openings (default all)\n"
    "  --opening-plies K  plies from the start to the openings (0..4, default 2)\n"
    "  --ballots NAME     the official tournament opening ballots instead, compiled in\n"
    "                     from pydraughts (MIT): russian-3move (the 150 three-move ballots,\n"
    "                     Russian and Brazilian), russian (745), brazilian (736),\n"
    "                     english-3move (the ACF deck of 156); each ballot is a game pair\n"
    "  --openings-file F  openings from a file: one per line, name<TAB>FEN; '#' comments\n"
    "  --max-plies P      plies per game before it is adjudicated a draw (default 200 on\n"
    "                     8x8, 300 on 10x10, where 200 cut off one game in seven)\n"
    "  --sprt TEXT        sequential test of H1 (A is elo1 or more better) against H0 (elo0\n"
    "                     or less), e.g. 'elo0=0 elo1=5 alpha=0.05 beta=0.05' (alpha and beta\n"
    "                     default to 0.05): after each pair a line `LLR x.xx [lower, upper]`;\n"
    "                     the match stops when the ratio leaves the bounds, with\n"
    "                     `H1 accepted: elo >= E1` or `H0 accepted: elo <= E0`; the ratio\n"
    "                     counts game pairs (model=pentanomial, the default, as fishtest)\n"
    "                     or single games (model=trinomial, as cutechess-cli)\n"
    "  --a-param P        a Hub engine's parameters, comma-separated NAME=VALUE\n"
    "  --b-param P        (e.g. 'hash=64,threads=2'): sent as `set-param name=NAME\n"
    "                     value=VALUE` before `init`; a name the engine does not declare\n"
    "                     in its `param` lines ends the match (exit status 1)\n"
    "  --threads T        search threads per engine of dambit's (default 1; a Hub engine's\n"
    "                     come from --a-param / --b-param)\n"
    "  --concurrency N    games played at once, each by its own engines (default 1); the\n"
    "                     results are counted and printed in opening order\n"
    "  --analyse-losses   after the match, replay each game a dambit side lost and find the\n"
    "                     move after which its score fell by more than half a man, and\n"
    "                     whether a search of F times the nodes there avoids the fall (a\n"
    "                     search problem) or not (an evaluation problem)\n"
    "  --analyse-factor F the F of --analyse-losses (default 10)\n"
    "  --hash MB          transposition table per engine of dambit's (default 16)\n"
    DAMBIT_TABLES_HELP
    "                     (both engines probe them; the setting egtb=off turns one off, e.g.\n"
    "                     --a egtb=on --b egtb=off measures what the tables are worth)\n"
    DAMBIT_EVAL_HELP
    DAMBIT_BOOK_HELP
    "                     (the ply counts from the opening; book=FILE in --a or --b gives\n"
    "                     one side its own book)\n"
    "  --pgn FILE         write every game in PDN to FILE (written to FILE.tmp as the games\n"
    "                     are played, renamed to FILE at the end); a forfeit's comment says\n"
    "                     who forfeited and why; an interrupted match is resumed by the same\n"
    "                     command (FILE.journal holds its settings and finished pairs)\n"
    "\n"
    "Output lines added for these options: a forfeit in a pair line reads\n"
    "`(forfeit by White: REASON, N plies)`; `forfeits: A N, B M` before the summary when a\n"
    "side forfeited or is another program; `LLR ...` and the decision with --sprt.\n";

// The settings of --a or --b: the search's switches, and whether the engine probes the endgame
// tables (the token egtb=on|off, which only goes with --egtb).
struct Settings {
    search::Tuning tuning;
    bool tables = true;
    std::string eval;  // eval=E: hand, learned or a weights file (default --eval)
    cli::BookOption book;  // book=FILE, book-ply=N, book-margin=M (default --book ...)
    // The options that gave eval and book, for messages: "--eval", or "--a eval=" when the setting
    // did.
    std::string eval_from = "--eval", book_from = "--book";
    int threads = 0;       // threads=N: this side's search threads (0: --threads)
    std::size_t hash = 0;  // hash=MB: this side's table (0: --hash)
};

Settings settings(const cli::Args& args, const char* name, const search::Tuning& defaults) {
    Settings out;
    out.eval = args.get_or("eval", cli::kDefaultEval);
    out.book = cli::book_option(args);
    std::string rest;
    const std::string text = args.get_or(name, "");
    std::set<std::string, std::less<>> keys;  // each setting once: 'lmr=on,lmr=off' is a mistake
    for (const auto& token : notation_detail::split(text, ',')) {
        if (token.empty() && !text.empty())
            throw cli::UsageError(fmt::format("--{}: empty setting in '{}'", name, text));
        const auto key = token.substr(0, token.find('='));
        if (!token.empty() && !keys.insert(std::string(key)).second)
            throw cli::UsageError(fmt::format("--{}: setting '{}' given twice in '{}'", name, key, text));
        if (key == "egtb" && token != "egtb=on" && token != "egtb=off")
            throw cli::UsageError(std::string("--") + name + ": bad value in setting '" +
                                  std::string(token) + "' (want on or off)");
        if (token == "egtb=on" || token == "egtb=off") {
            if (!args.has("egtb"))
                throw cli::UsageError(std::string("--") + name + ": the setting '" +
                                      std::string(token) + "' goes with --egtb DIR");
            out.tables = token == "egtb=on";
            continue;
        }
        // KEY=VALUE settings other than the search's switches: the key before the '=' (a token
        // without one is not among them), the value after it.
        const bool valued = key.size() < token.size();
        const std::string value = valued ? std::string(token.substr(key.size() + 1)) : "";
        const std::string option = std::string(name) + " " + std::string(token);
        if (valued && key == "eval") {
            out.eval = value;
            out.eval_from = fmt::format("--{} eval=", name);
            continue;
        }
        if (valued && key == "book") {
            out.book.file = value;
            out.book_from = fmt::format("--{} book=", name);
            continue;
        }
        if (valued && key == "book-ply") {
            out.book.max_ply = int(cli::parse_int(option, value, 0, 10000));
            continue;
        }
        if (valued && key == "book-margin") {
            out.book.margin = int(cli::parse_int(option, value, 0, 10000));
            continue;
        }
        if (valued && key == "threads") {
            out.threads = int(cli::parse_int(option, value, 1, 256));
            continue;
        }
        if (valued && key == "hash") {
            out.hash = std::size_t(cli::parse_int(option, value, 1, 1 << 20));
            continue;
        }
        rest += (rest.empty() ? "" : ",") + std::string(token);
    }
    try {
        out.tuning = play::parse_tuning(rest, defaults,
                                        "egtb, eval, book, book-ply, book-margin, threads, hash");
    } catch (const std::invalid_argument& e) {
        throw cli::UsageError(std::string("--") + name + ": " + e.what());
    }
    return out;
}

// The evaluation, the book, the threads and the table in a side's name: nothing for the
// default evaluation, no book, and the threads and table of --threads and --hash.
std::string settings_text(const Settings& s) {
    std::string t = s.eval == cli::kDefaultEval ? std::string() : fmt::format(",eval={}", s.eval);
    if (!s.book.file.empty())
        t += fmt::format(",book={},book-ply={},book-margin={}", s.book.file, s.book.max_ply,
                         s.book.margin);
    if (s.threads) t += fmt::format(",threads={}", s.threads);
    if (s.hash) t += fmt::format(",hash={}", s.hash);
    return t;
}

std::string signed_text(double x, int decimals) {
    if (std::fabs(x) < 0.5 * std::pow(10.0, -decimals)) x = 0;  // no "-0.0"
    return fmt::format("{:+.{}f}", x, decimals);
}

// A side of the match as given by --a or --b.
struct SideSpec {
    enum class Kind { kEngine, kHub, kDxp } kind = Kind::kEngine;
    Settings settings;   // kEngine
    std::string target;  // kHub: the command; kDxp: HOST:PORT
    // kHub: the parameters of --a-param or --b-param, in their order.
    std::vector<std::pair<std::string, std::string>> params;
};

// --a-param or --b-param 'NAME=VALUE,...': a Hub engine's parameters (else UsageError naming the
// token).
std::vector<std::pair<std::string, std::string>> hub_params(const cli::Args& args,
                                                            const char* name,
                                                            const SideSpec& side) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::string option = fmt::format("{}-param", name);
    const auto text = args.get(option);
    if (!text) return out;
    if (side.kind != SideSpec::Kind::kHub)
        throw cli::UsageError(fmt::format(
            "--{} sets a Hub engine's parameters: it goes with --{} hub:'COMMAND'{}", option,
            name,
            side.kind == SideSpec::Kind::kDxp
                ? " (a DXP peer takes none: it is set up where it runs)"
                : fmt::format(" (dambit's own side takes settings in --{})", name)));
    std::set<std::string, std::less<>> seen;
    for (const auto& token : notation_detail::split(*text, ',')) {
        const auto eq = token.find('=');
        if (eq == std::string_view::npos || eq == 0)
            throw cli::UsageError(
                fmt::format("--{}: bad parameter '{}' (want NAME=VALUE)", option, token));
        std::string key(token.substr(0, eq));
        if (key == "variant")
            throw cli::UsageError(fmt::format(
                "--{}: the parameter 'variant' is the match's (--variant)", option));
        if (!seen.insert(key).second)
            throw cli::UsageError(
                fmt::format("--{}: parameter '{}' given twice in '{}'", option, key, *text));
        out.emplace_back(std::move(key), std::string(token.substr(eq + 1)));
    }
    return out;
}

SideSpec side_spec(const cli::Args& args, const char* name, const search::Tuning& defaults) {
    SideSpec out;
    const std::string text = args.get_or(name, "");
    if (text.rfind("hub:", 0) == 0) {
        out.kind = SideSpec::Kind::kHub;
        out.target = text.substr(4);
        if (notation_detail::trim(out.target).empty())
            throw cli::UsageError(
                fmt::format("--{}: empty command in '{}' (want hub:'COMMAND ARGS')", name, text));
    } else if (text.rfind("dxp:", 0) == 0) {
        out.kind = SideSpec::Kind::kDxp;
        out.target = text.substr(4);
        try {
            (void)net::parse_endpoint(out.target, false);
        } catch (const std::invalid_argument& e) {
            throw cli::UsageError(fmt::format("--{} '{}': {}", name, text, e.what()));
        }
    } else {
        out.settings = settings(args, name, defaults);
    }
    out.params = hub_params(args, name, out);
    return out;
}

// --tc BASE+INC (seconds); throws UsageError naming the text.
play::TimeControl parse_tc(const std::string& text) {
    auto bad = [&](const char* why) {
        return cli::UsageError(fmt::format("bad value '{}' for --tc ({})", text, why));
    };
    const auto plus = text.find('+');
    auto seconds = [&](const std::string& t) {
        char* end = nullptr;
        const double v = std::strtod(t.c_str(), &end);
        if (t.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
            throw bad("want BASE+INC in seconds, e.g. 60+0.5");
        if (v > 1e6) throw bad("BASE and INC are seconds from 0 to 1000000");
        return v;
    };
    const double base = seconds(text.substr(0, plus));
    const double inc = plus == std::string::npos ? 0.0 : seconds(text.substr(plus + 1));
    play::TimeControl tc;
    tc.base_ms = std::int64_t(std::llround(base * 1000));
    tc.increment_ms = std::int64_t(std::llround(inc * 1000));
    if (tc.base_ms <= 0)
        throw bad("the base must be at least 1 ms: a clock that starts empty has lost at once");
    return tc;
}

// The openings: generated, the compiled-in ballots, or a file.
template <class R>
std::vector<play::Opening<R>> openings_of(const cli::Args& args, std::string& description) {
    const int given = int(args.has("ballots")) + int(args.has("openings-file")) +
                      int(args.has("opening-plies"));
    if (given > 1)
        throw cli::UsageError("give at most one of --opening-plies, --ballots and --openings-file");
    try {
        if (const auto name = args.get("ballots")) {
            const auto text = play::ballot_text(*name);
            if (!text) {
                std::string names;
                for (const auto& n : play::ballot_names()) names += names.empty() ? n : fmt::format(", {}", n);
                throw cli::UsageError(
                    fmt::format("unknown ballots '{}' for --ballots (have: {})", *name, names));
            }
            if (!play::ballots_fit(*name, R::kName))
                throw cli::UsageError(fmt::format("the '{}' ballots are not for --variant {}",
                                                  *name, R::kName));
            description = fmt::format("ballots {}", *name);
            return play::parse_openings<R>(*text, fmt::format("ballots {}", *name));
        }
        if (const auto file = args.get("openings-file")) {
            std::string text;
            try {
                text = file_io::read_all(*file);  // a regular file: a FIFO or /dev/zero is refused
            } catch (const std::runtime_error& e) {
                throw cli::UsageError(std::string("--openings-file: ") + e.what());
            }
            description = fmt::format("file {}", *file);
            return play::parse_openings<R>(text, *file);
        }
    } catch (const ParseError& e) {
        throw cli::UsageError(e.what());
    }
    const int plies = int(args.get_int("opening-plies", 2, 0, 4));
    description = fmt::format("{} plies", plies);
    return play::opening_positions<R>(plies);
}

// A contestant of another program: its object and the name the output gives it.
template <class R>
std::unique_ptr<play::Contestant<R>> external(const SideSpec& spec, const char* letter,
                                              const search::Limits& untimed, int max_plies,
                                              std::string& name) {
    if (spec.kind == SideSpec::Kind::kHub) {
        std::unique_ptr<hub::HubContestant<R>> c;
        try {
            c = std::make_unique<hub::HubContestant<R>>(spec.target, untimed, letter,
                                                        &cli::stop_flag(), spec.params);
        } catch (const play::PlayerFailure& f) {
            throw std::runtime_error(
                fmt::format("hub engine '{}' did not start: {}", spec.target, f.what()));
        }
        name = fmt::format("{} hub:{}", letter, spec.target);
        if (!c->engine_name().empty()) name += fmt::format(" ({})", c->engine_name());
        return c;
    }
    if constexpr (std::is_same_v<R, International>) {
        std::unique_ptr<dxp::DxpContestant> c;
        try {
            c = std::make_unique<dxp::DxpContestant>(spec.target, max_plies, letter);
        } catch (const std::exception& e) {
            throw std::runtime_error(fmt::format("DXP peer '{}': {}", spec.target, e.what()));
        }
        name = fmt::format("{} dxp:{}", letter, spec.target);
        return c;
    } else {
        throw cli::UsageError(fmt::format(
            "--{}: dxp:{} plays International only (DXP is a 10x10 protocol)",
            letter[0] == 'A' ? "a" : "b", spec.target));
    }
}

// One slot per game played at once: dambit's engines for the sides that are dambit, or a
// connection to each other program.
template <class R>
struct Slot {
    std::unique_ptr<search::Engine<R>> a, b;
    std::unique_ptr<book::BookPlayer<R>> book_a, book_b;
    play::PlayerStats stats_a, stats_b;
    std::unique_ptr<play::Contestant<R>> ca, cb;
};

// A game that one side won.
template <class R>
struct Decisive {
    std::size_t opening;
    int game;  // 0: A had White
    play::Game<R> record;
};

// --analyse-losses: for each game a dambit side lost (forfeits aside), the move after which its
// score fell by more than half a man and whether a search `factor` times longer avoids the fall
// (play/loss_analysis.hpp); one line per game and the counts.
template <class R>
void analyse_losses(const std::vector<Decisive<R>>& games,
                    const std::vector<std::unique_ptr<Slot<R>>>& slots, bool engine_a,
                    bool engine_b, search::Limits limits, const play::GameRules& rules,
                    int factor) {
    if (rules.time.clocked())  // no move time to replay: about a thirtieth of the clock
        limits.movetime_ms = std::max<std::int64_t>(
            1, rules.time.base_ms / 30 + rules.time.increment_ms);
    // In men, or a proven result as "win N" / "loss N" (N: plies to the end, as search prints).
    const auto score = [](search::Score s) {
        return search::score_text(s, fmt::format("{:+.2f}", s / 100.0));
    };
    for (const char letter : {'A', 'B'}) {
        if (!(letter == 'A' ? engine_a : engine_b)) continue;
        search::Engine<R>& engine = letter == 'A' ? *slots[0]->a : *slots[0]->b;
        int lost = 0, search_side = 0, eval_side = 0, none = 0;
        for (const auto& d : games) {
            // A has White in game 0: A lost when the winner is the other colour.
            const Color colour = (d.game == 0) == (letter == 'A') ? Color::kWhite : Color::kBlack;
            if (!d.record.winner || *d.record.winner == colour ||
                d.record.ending == play::Ending::kForfeit)
                continue;
            ++lost;
            const auto f = play::analyse_loss<R>(engine, d.record, colour, limits, factor);
            const std::string game = fmt::format("{}.{}", d.opening + 1, d.game + 1);
            if (!f.found) {
                ++none;
                fmt::print("loss {} by {}: no fall of more than half a man between its moves\n",
                           game, letter);
                continue;
            }
            ++(f.search_problem ? search_side : eval_side);
            fmt::print(
                "loss {} by {}: after ply {} ({}) its score fell from {} to {}; {}x nodes "
                "({}): {} {} -> {}\n",
                game, letter, f.ply + 1, f.played, score(f.before), score(f.after), factor,
                f.longer_nodes, f.longer_move, score(f.longer_score),
                f.search_problem ? "search (the longer search avoids the fall)"
                                 : "evaluation (the longer search does not avoid it)");
        }
        fmt::print("losses of {}: {} analysed, search {}, evaluation {}, no fall {}\n", letter,
                   lost, search_side, eval_side, none);
    }
}

// The log-likelihood ratio with two decimals; a value that rounds to zero is 0.00, not -0.00.
std::string llr_text(double llr) { return fmt::format("{:.2f}", std::abs(llr) < 0.005 ? 0.0 : llr); }

// What decides the games of a match, as the journal of --pgn records it (pdn/journal.hpp): a
// resume with other settings is refused, naming what changed (settings_change). The program by
// the checksum of its executable; each engine's search switches, threads and table as it uses
// them, its evaluation and book by name and by the checksum of their bytes; the limits, the
// grace (it decides forfeits) and the tables (by what they hold: cli::tables_identity). --concurrency,
// --sprt and --openings may change between runs: they decide which games are played or counted,
// not how each one goes; the openings themselves are checked against the games (resumed_pairs).
//
// A Hub engine is known by its command and by the name and version its `id` line gives (`ids`: A's
// and B's, a hub: side's "b.name=N,b.version=V"), so that an engine upgraded between the runs
// does not mix its games with the old one's.
template <class R>
std::string match_settings(const cli::Args& args, const search::Limits& limits,
                           const play::GameRules& rules, int threads, std::size_t hash,
                           const cli::TablesOption& tables, const SideSpec& a, const SideSpec& b,
                           const std::array<std::string, 2>& ids) {
    const std::string limit = rules.time.clocked() ? fmt::format("tc={}+{}ms", rules.time.base_ms,
                                                                 rules.time.increment_ms)
                                                   : cli::limits_key(limits);
    std::string s = fmt::format("dambit={},variant={},{},max-plies={},grace={},egtb={}",
                                cli::program_identity(), R::kName, limit, rules.max_plies,
                                rules.time.grace_ms,
                                pdn::journal_value(cli::tables_identity(tables.dir, R::kName)));
    for (const auto& [letter, spec] : {std::pair{"a", &a}, std::pair{"b", &b}}) {
        if (spec->kind != SideSpec::Kind::kEngine) {
            s += fmt::format(",{}={}:{}", letter,
                             spec->kind == SideSpec::Kind::kHub ? "hub" : "dxp",
                             pdn::journal_value(spec->target));
            s += ids[spec == &a ? 0 : 1];
            for (const auto& [name, value] : spec->params)
                s += fmt::format(",{}.param.{}={}", letter, pdn::journal_value(name),
                                 pdn::journal_value(value));
            continue;
        }
        const Settings& t = spec->settings;
        for (const play::TuningKey& k : play::kTuningKeys)
            s += fmt::format(",{}.{}={}", letter, k.key, t.tuning.*k.field ? "on" : "off");
        s += fmt::format(",{}.threads={},{}.hash={}", letter, t.threads ? t.threads : threads,
                         letter, t.hash ? t.hash : hash);
        // The evaluation as named (the games' White and Black tags name it so) and by its
        // weights, so that a weights file rewritten between the runs is seen.
        s += fmt::format(",{}.eval={}:{}", letter, pdn::journal_value(t.eval),
                         cli::eval_identity(
                             cli::weights_choice(t.eval, args.variant(), t.eval_from).get()));
        if (!t.book.file.empty())
            s += fmt::format(",{0}.book={1}:{2},{0}.book-ply={3},{0}.book-margin={4}", letter,
                             pdn::journal_value(t.book.file),
                             cli::file_identity(t.book.file, t.book_from),
                             t.book.max_ply, t.book.margin);
        if (!tables.dir.empty()) s += fmt::format(",{}.egtb={}", letter, t.tables ? "on" : "off");
    }
    return s;
}

// A game of FILE.tmp as the match played it: the opening, the moves, and the result and ending
// from the Result and the comment after the last move (pdn_game writes them).
template <class R>
play::Game<R> game_of_record(const pdn::Game<R>& g, const std::string& where) {
    play::Game<R> out;
    out.opening = g.start;
    for (const auto& pm : g.moves) {
        out.moves.push_back(pm.move);
        out.move_texts.push_back(move_text<R>(pm));
    }
    if (g.result == "1-0")
        out.winner = Color::kWhite;
    else if (g.result == "0-1")
        out.winner = Color::kBlack;
    else if (g.result != "1/2-1/2")
        throw std::runtime_error(where + ": result '" + g.result + "', not a match's");
    const std::string ending(g.moves.empty() ? std::string_view(g.comment)
                                             : g.comment_after(g.moves.size() - 1));
    for (const auto e : {play::Ending::kNoMove, play::Ending::kRepetition, play::Ending::kDrawRule,
                         play::Ending::kMaxPlies})
        if (ending == play::ending_name(e)) out.ending = e;
    constexpr std::string_view kForfeit = "forfeit by ";
    if (ending.starts_with(kForfeit)) {
        out.ending = play::Ending::kForfeit;
        const auto colon = ending.find(": ");
        out.reason = colon == std::string::npos ? std::string() : ending.substr(colon + 2);
    } else if (out.ending_text() != ending) {
        throw std::runtime_error(where + ": ending '" + ending + "', not a match's");
    }
    return out;
}

// What one side spent over some games: its engine's statistics (none for another program) and
// the wall time of its moves as the harness timed them. In the journal, six numbers a side.
struct SideSpent {
    play::PlayerStats stats;
    play::MoveTimes times;
    void add(const SideSpent& o) {
        stats += o.stats;
        times.add(o.times);
    }
};

// The journal of --pgn FILE (pdn/journal.hpp): a line per game pair, with what A and B spent.
constexpr pdn::JournalKind kMatchJournal{"match",  "pair", 12, true, "match",
                                         "the game pair of opening", "played again"};

std::vector<std::uint64_t> spent_values(const std::array<SideSpent, 2>& sides) {
    std::vector<std::uint64_t> v;
    for (const SideSpent& s : sides)
        for (const auto x : {s.stats.nodes, std::uint64_t(s.stats.moves),
                             std::uint64_t(s.stats.depth_sum), std::uint64_t(s.times.moves),
                             std::uint64_t(s.times.total_ms), std::uint64_t(s.times.longest_ms)})
            v.push_back(x);
    return v;
}

std::array<SideSpent, 2> spent_of(const std::vector<std::uint64_t>& v) {
    std::array<SideSpent, 2> sides;
    for (std::size_t s = 0; s < 2; ++s) {
        const std::uint64_t* f = &v.at(6 * s);
        sides[s].stats = {f[0], int(f[1]), int(f[2])};
        sides[s].times.moves = std::int64_t(f[3]);
        sides[s].times.total_ms = std::int64_t(f[4]);
        sides[s].times.longest_ms = std::int64_t(f[5]);
    }
    return sides;
}

// The game pairs a resumed match read back from FILE.tmp, which the journal vouched for: each
// pair's two games, their Round tags, and the opening they were played from (else UsageError).
template <class R>
std::vector<std::array<play::Game<R>, 2>> resumed_pairs(const pdn::JournaledPdn& journal,
                                                        const std::vector<play::Opening<R>>& openings) {
    std::vector<std::array<play::Game<R>, 2>> pairs;
    std::istringstream in(journal.resumed_text());
    pdn::Reader reader(in);
    pdn::RawGame raw;
    const std::string& tmp = journal.tmp_path();
    for (std::size_t k = 0; k < journal.resumed().size(); ++k) {
        auto& pair = pairs.emplace_back();
        for (std::size_t g = 0; g < 2; ++g) {
            const std::string round = fmt::format("{}.{}", k + 1, g + 1);
            const std::string where = fmt::format("'{}', game {}", tmp, round);
            pdn::Game<R> game;
            if (!reader.next(raw)) throw std::runtime_error(where + ": missing");
            if (const auto problem = pdn::replay<R>(raw, game))
                throw std::runtime_error(where + ": " + problem->message);
            const pdn::Tag* tag = raw.tag("Round");
            if (!tag || tag->value != round)
                throw std::runtime_error(where + ": its Round tag is not " + round);
            if (k < openings.size() && !(game.start == openings[k].position))
                throw cli::UsageError(fmt::format(
                    "--pgn: '{}' holds the games of an interrupted match from other openings "
                    "(opening {} was {}, now {}); move it away (or remove it) to start again",
                    tmp, k + 1, to_fen<R>(game.start), to_fen<R>(openings[k].position)));
            pair[g] = game_of_record<R>(game, where);
        }
    }
    return pairs;
}

template <class R>
int run(const cli::Args& args) {
    const search::Tuning defaults = search::Tuning::defaults_for<R>();
    const SideSpec spec_a = side_spec(args, "a", defaults);
    const SideSpec spec_b = side_spec(args, "b", defaults);
    const bool engine_a = spec_a.kind == SideSpec::Kind::kEngine;
    const bool engine_b = spec_b.kind == SideSpec::Kind::kEngine;
    const Settings& sa = spec_a.settings;
    const Settings& sb = spec_b.settings;
    const auto tables = cli::tables_option(args);

    search::Limits limits;
    play::GameRules rules;
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
        limits.movetime_ms = args.get_int("movetime", 0, 1, INT64_MAX / 4), ++given;
        rules.time.movetime_ms = limits.movetime_ms;
        limit_text = fmt::format("movetime {} ms", limits.movetime_ms);
    }
    if (const auto tc = args.get("tc")) {
        const auto grace = rules.time.grace_ms;
        rules.time = parse_tc(*tc);
        rules.time.grace_ms = grace;
        ++given;
        limit_text = fmt::format("tc {}", *tc);
    }
    if (given > 1)
        throw cli::UsageError("give at most one of --depth, --nodes, --movetime and --tc");
    if (given == 0) {
        limits.depth = 6;
        limit_text = "depth 6";
    }
    rules.time.grace_ms = args.get_int("grace", 1000, 0, 3600000);
    if (!engine_a || !engine_b) rules.time.untimed_wait_ms = 60000 + rules.time.grace_ms;
    for (const auto* spec : {&spec_a, &spec_b})
        if (spec->kind == SideSpec::Kind::kDxp && !rules.time.clocked() && !rules.time.movetime_ms)
            throw cli::UsageError(fmt::format("dxp:{} needs --tc or --movetime", spec->target));
    // A DXP game request carries whole minutes: a follower that plans on that clock thinks far
    // too long for a shorter --tc, and this side's clock flags it. Said once, before the games.
    for (const auto* spec : {&spec_a, &spec_b})
        if (spec->kind == SideSpec::Kind::kDxp && rules.time.clocked() &&
            rules.time.base_ms % 60000 != 0)
            cli::eprint("dambit match: note: dxp:{} is asked for {} minute(s), DXP's unit, not "
                        "the {} s of --tc; unless it keeps to a move time of its own it may "
                        "lose on time\n",
                        spec->target, dxp::request_minutes(rules.time, rules.max_plies),
                        cli::decimal_text(double(rules.time.base_ms) / 1000.0, 3));
    std::optional<play::SprtParams> sprt;
    if (const auto text = args.get("sprt")) {
        try {
            sprt = play::parse_sprt(*text);
        } catch (const ParseError& e) {
            throw cli::UsageError(fmt::format("--sprt: {}", e.what()));
        }
    }
    std::string opening_text;
    auto openings = openings_of<R>(args, opening_text);
    rules.max_plies =
        int(args.get_int("max-plies", R::Geometry::kSize == 8 ? 200 : 300, 1, 100000));
    const int threads = int(args.get_int("threads", 1, 1, 256));
    // An engine of dambit's for each such side of each game played at once (--concurrency), each
    // with its table: hash=MB of its settings, or --hash. All of them must fit in memory.
    const int concurrency = int(args.get_int("concurrency", 1, 1, 256));
    const auto side_tables = int(engine_a && !sa.hash) + int(engine_b && !sb.hash);
    const auto hash = std::size_t(args.get_megabytes("hash", 16, 1, side_tables * concurrency));
    if ((engine_a && sa.hash) || (engine_b && sb.hash)) {
        const auto a = std::int64_t(engine_a ? (sa.hash ? sa.hash : hash) : 0);
        const auto b = std::int64_t(engine_b ? (sb.hash ? sb.hash : hash) : 0);
        if (const std::string why = beyond_memory((a + b) * concurrency, 1); !why.empty())
            throw cli::UsageError(fmt::format(
                "the tables of the match need {} MB ({} MB for A and {} MB for B a game, {}), {}",
                (a + b) * concurrency, a, b, cli::count_text(std::uint64_t(concurrency),
                                                            "game at a time", "games at once"),
                why));
    }
    const auto available = std::int64_t(openings.size());
    const auto count = args.get_int("openings", available, 1, INT64_MAX);
    if (count < available) openings.resize(std::size_t(count));
    if (openings.empty()) throw cli::UsageError("no openings to play");

    const bool analyse = args.has("analyse-losses");
    const int analyse_factor = int(args.get_int("analyse-factor", 10, 2, 1000));
    if (args.has("analyse-factor") && !analyse)
        throw cli::UsageError("--analyse-factor goes with --analyse-losses");
    for (const auto* spec : {&spec_a, &spec_b})
        if (spec->kind == SideSpec::Kind::kDxp && concurrency > 1)
            throw cli::UsageError(fmt::format(
                "dxp:{} plays one game at a time: --concurrency 1 only", spec->target));

    // One slot per game played at once: dambit's engines for the sides that are dambit, or a
    // connection to each other program.
    std::vector<std::unique_ptr<Slot<R>>> slots;
    int pieces = 0;
    for (int i = 0; i < concurrency; ++i) {
        auto slot = std::make_unique<Slot<R>>();
        if (engine_a) {
            slot->a = std::make_unique<search::Engine<R>>(sa.hash ? sa.hash : hash,
                                                          sa.threads ? sa.threads : threads);
            slot->a->set_tuning(sa.tuning);
            slot->a->set_weights(cli::weights_choice(sa.eval, args.variant(), sa.eval_from).get());
            slot->book_a = cli::book_player<R>(sa.book, sa.book_from, 1);
        }
        if (engine_b) {
            slot->b = std::make_unique<search::Engine<R>>(sb.hash ? sb.hash : hash,
                                                          sb.threads ? sb.threads : threads);
            slot->b->set_tuning(sb.tuning);
            slot->b->set_weights(cli::weights_choice(sb.eval, args.variant(), sb.eval_from).get());
            slot->book_b = cli::book_player<R>(sb.book, sb.book_from, 1001);
        }
        if (!tables.dir.empty()) {
            if (slot->a && sa.tables) pieces = slot->a->set_tables(tables.dir, tables.cache_megabytes);
            if (slot->b && sb.tables) pieces = slot->b->set_tables(tables.dir, tables.cache_megabytes);
            if (pieces == 0 && ((slot->a && sa.tables) || (slot->b && sb.tables)))
                throw cli::UsageError("no complete set of " + std::string(R::kName) +
                                      " tables in " + tables.dir);
        }
        slots.push_back(std::move(slot));
    }
    std::string name_a, name_b;
    if (engine_a) name_a = "A " + play::tuning_text(sa.tuning) + settings_text(sa);
    if (engine_b) name_b = "B " + play::tuning_text(sb.tuning) + settings_text(sb);
    if (!tables.dir.empty()) {
        if (engine_a) name_a += sa.tables ? ",egtb=on" : ",egtb=off";
        if (engine_b) name_b += sb.tables ? ",egtb=on" : ",egtb=off";
    }
    // The games go to FILE.tmp as they are played (so an interrupted match keeps its games
    // there) and FILE.tmp becomes FILE by a rename at the end: FILE is never half written.
    // FILE.journal says which of them are whole pairs and with what settings they were played,
    // so that the same command resumes an interrupted match (pdn/journal.hpp).
    std::optional<std::string> pgn;
    if (const auto file = args.get("pgn")) {
        pgn = cli::output_file("pgn", *file);
        (void)cli::output_file("pgn", *pgn + ".journal");  // written beside it as the games are
    }
    // Ctrl-C, kill or a closed terminal: the pairs finished are summed up, then one line. From
    // here on, the start of a Hub engine too (its handshake may take 40 s) looks at the flag.
    cli::catch_stop_signals();
    std::unique_ptr<file_io::ExclusiveLock> pgn_lock;  // FILE.tmp and FILE.journal: this match's
    std::error_code no_tmp;  // set when FILE.tmp is not there before the lock makes it
    if (pgn) (void)std::filesystem::file_size(*pgn + ".tmp", no_tmp);
    if (pgn) pgn_lock = cli::lock_tmp("pgn", *pgn);
    // The engines of other programs start before the journal is read: it records who they say
    // they are (a Hub engine's id). Interrupted while one of them started, no game is played and
    // the journal is not opened: the match ends as an interruption does, its files as they were.
    bool started = true;
    // Its name until it has answered the handshake (external() gives it with the engine's id).
    if (!engine_a) name_a = "A " + args.get_or("a", "");
    if (!engine_b) name_b = "B " + args.get_or("b", "");
    try {
        for (auto& slot : slots) {
            if (slot->a)
                slot->ca = std::make_unique<play::EngineContestant<R>>(
                    *slot->a, limits, &slot->stats_a, slot->book_a.get());
            else
                slot->ca = external<R>(spec_a, "A", limits, rules.max_plies, name_a);
            if (slot->b)
                slot->cb = std::make_unique<play::EngineContestant<R>>(
                    *slot->b, limits, &slot->stats_b, slot->book_b.get());
            else
                slot->cb = external<R>(spec_b, "B", limits, rules.max_plies, name_b);
        }
    } catch (const play::Interrupted&) {
        started = false;
        // The empty FILE.tmp the lock made goes, as the journal's would have.
        if (pgn && no_tmp) std::remove((*pgn + ".tmp").c_str());
    } catch (...) {
        // So with an engine that does not start.
        if (pgn && no_tmp) std::remove((*pgn + ".tmp").c_str());
        throw;
    }
    std::array<std::string, 2> ids;
    for (std::size_t k = 0; k < 2 && started; ++k)
        if (const auto* hub = dynamic_cast<const hub::HubContestant<R>*>(
                (k == 0 ? slots[0]->ca : slots[0]->cb).get()))
            ids[k] = fmt::format(",{0}.name={1},{0}.version={2}", k == 0 ? "a" : "b",
                                 pdn::journal_value(hub->id_name()),
                                 pdn::journal_value(hub->id_version()));
    std::unique_ptr<pdn::JournaledPdn> journal;
    std::vector<std::array<play::Game<R>, 2>> resumed;
    if (pgn && started) {
        try {
            journal = std::make_unique<pdn::JournaledPdn>(
                kMatchJournal, *pgn,
                match_settings<R>(args, limits, rules, threads, hash, tables, spec_a, spec_b,
                                  ids));
        } catch (const pdn::ResumeRefused& e) {
            throw cli::UsageError(std::string("--pgn: ") + e.what());
        }
        if (!journal->damage().empty()) cli::eprint("dambit match: {}\n", journal->damage());
        resumed = resumed_pairs<R>(*journal, openings);
        if (resumed.size() > openings.size())
            cli::eprint("dambit match: {} holds {}; the match has {} now, and only their pairs "
                        "are kept\n",
                        journal->tmp_path(),
                        cli::count_text(resumed.size(), "game pair", "game pairs"),
                        cli::count_text(openings.size(), "opening", "openings"));
    }

    const std::string event = "dambit match " + std::string(R::kName) + ", " + limit_text;
    fmt::print("{}: {} vs {}, {} openings ({}), {} games, max {} plies{}\n", event, name_a, name_b,
               openings.size(), opening_text, 2 * openings.size(), rules.max_plies,
               concurrency > 1 ? fmt::format(", {} at once", concurrency) : std::string());
    const std::size_t first = std::min(resumed.size(), openings.size());
    if (!resumed.empty())
        fmt::print("resumed from {}.tmp: {} of {} openings played\n", *pgn, first,
                   openings.size());
    if (sprt)
        fmt::print("SPRT elo0 {:g} elo1 {:g} alpha {:g} beta {:g}, {}: bounds [{:.2f}, {:.2f}]\n",
                   sprt->elo0, sprt->elo1, sprt->alpha, sprt->beta, sprt->model_name(),
                   sprt->lower(), sprt->upper());
    std::fflush(stdout);

    // The slots take openings in order; the pairs are counted and written in opening order.
    // A pair comes with what each side spent on it (A, B): its engine's statistics, taken by
    // the slot that played it, and the times of its moves.
    struct PairResult {
        std::array<play::Game<R>, 2> games;
        std::array<SideSpent, 2> spent;
    };
    std::vector<std::optional<PairResult>> results(openings.size());
    for (std::size_t i = 0; i < first; ++i)
        results[i] = PairResult{std::move(resumed[i]), spent_of(journal->resumed()[i].values)};
    std::mutex mutex;
    std::condition_variable ready;
    std::atomic<std::size_t> next{first};
    std::atomic<bool> stop{!started};  // not started: the workers play nothing
    // Set when the match has its answer (an SPRT decision) or is interrupted: the games under way
    // end before their next move and are thrown away, rather than played out for nothing.
    std::atomic<bool> abandon{false};
    rules.abandon = &abandon;
    bool interrupted = false;
    int output_error = 0;  // errno of a failed write of the output: the match stops
    std::exception_ptr failure;
    // An engine of another program that could not be started again (play::EngineLost): the
    // match ends as an interruption does, its pairs kept for a resume, but with exit status 1.
    std::string lost;
    Workers workers(int(slots.size()), "match", 0, [&](std::size_t slot) {
            auto* s = slots[slot].get();
            try {
                // A signal stops the workers too: pairs faster than the main loop's wait (it
                // looks at the signal only while a result is missing) finished the whole match.
                for (std::size_t i;
                     !stop && !cli::stop_requested() && (i = next++) < openings.size();) {
                    const play::PlayerStats a0 = s->stats_a, b0 = s->stats_b;
                    PairResult r{play::play_contest_pair<R>(*s->ca, *s->cb, openings[i].position,
                                                            rules),
                                 {}};
                    r.spent[0].stats = s->stats_a - a0;
                    r.spent[1].stats = s->stats_b - b0;
                    const std::lock_guard lock(mutex);
                    results[i] = std::move(r);
                    ready.notify_all();
                }
            } catch (const play::Interrupted&) {
                // Stopped while its Hub engine started again: the main loop sees the signal.
                const std::lock_guard lock(mutex);
                stop = true;
                ready.notify_all();
            } catch (const play::EngineLost& e) {
                const std::lock_guard lock(mutex);
                if (lost.empty()) lost = e.what();
                stop = true;
                ready.notify_all();
            } catch (...) {
                const std::lock_guard lock(mutex);
                if (!failure) failure = std::current_exception();
                stop = true;
                ready.notify_all();
            }
        });
    // Whatever ends the loop below, the games under way end before the workers are joined.
    const SetOnExit stop_workers{stop}, abandon_games{abandon};

    int wins = 0, draws = 0, losses = 0, forfeits_a = 0, forfeits_b = 0;
    std::array<int, 5> pairs{};  // the pairs in which A scored 0, 1/2, 1, 3/2 and 2 points
    std::optional<play::SprtDecision> decided;
    double llr = 0;
    std::vector<Decisive<R>> analysed;  // the games a side won, for --analyse-losses
    std::array<SideSpent, 2> spent{};  // A, B, over the pairs counted
    std::uint64_t counted_bytes = 0;  // FILE.tmp's length after the last pair counted
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < openings.size(); ++i) {
        PairResult result;
        {
            std::unique_lock lock(mutex);
            while (!ready.wait_for(lock, std::chrono::milliseconds(50), [&] {
                return results[i].has_value() || failure || !lost.empty();
            }))
                if (cli::stop_requested()) break;
            // A pair finished before a failure elsewhere is counted (another slot's engine that
            // could not be started again does not undo it).
            if (!results[i]) {
                interrupted = !failure && lost.empty();
                break;
            }
            result = std::move(*results[i]);
            results[i].reset();
        }
        const bool replayed = i < first;  // resumed: counted again, written before
        const auto& op = openings[i];
        std::string line, record;
        double pair_points = 0;  // A's
        for (int g = 0; g < 2; ++g) {
            const auto& game = result.games[std::size_t(g)];
            // A has White in the first game and Black in the second.
            const Color colour_a = g == 0 ? Color::kWhite : Color::kBlack;
            const double pa = game.points(colour_a);
            pair_points += pa;
            if (pa == 1)
                ++wins;
            else if (pa == 0)
                ++losses;
            else
                ++draws;
            if (pa != 0.5 && analyse) analysed.push_back({i, g, game});
            if (game.ending == play::Ending::kForfeit) ++(pa == 0 ? forfeits_a : forfeits_b);
            Color mover = game.opening.side;
            for (const std::int64_t ms : game.move_ms) {
                result.spent[mover == colour_a ? 0 : 1].times.add(ms);
                mover = ~mover;
            }
            // The request a side forfeited on is timed too: the side to move after the moves
            // played took it (the loser).
            if (game.failed_ms) result.spent[mover == colour_a ? 0 : 1].times.add(*game.failed_ms);
            line += fmt::format("{}{} ({}, {} plies)", g == 0 ? "A-B " : ", B-A ",
                                game.result_text(), game.ending_text(), game.plies());
            record += play::pdn_game<R>(game, event, fmt::format("{}.{}", i + 1, g + 1),
                                        g == 0 ? name_a : name_b, g == 0 ? name_b : name_a,
                                        op.first_number, op.line);
        }
        ++pairs[std::size_t(std::lround(2 * pair_points))];
        spent[0].add(result.spent[0]);
        spent[1].add(result.spent[1]);
        if (pgn && replayed) counted_bytes = journal->resumed()[i].end;
        if (pgn && !replayed) {
            // The games, then the journal's line for them: a match killed in between has games
            // in FILE.tmp past its journal, which a resume cuts off.
            try {
                journal->append(record, i + 1, spent_values(result.spent));
                counted_bytes = journal->size();
            } catch (const std::runtime_error&) {
                // A full disk: the games under way end before the error is reported. The pair
                // is not printed, as it was not saved: a resume plays it again.
                const std::lock_guard lock(mutex);
                if (!failure) failure = std::current_exception();
                break;
            }
        }
        fmt::print("opening {}/{} {}: {}; A +{} ={} -{}\n", i + 1, openings.size(),
                   op.line.empty() ? "(start)" : op.line, line, wins, draws, losses);
        // A closed output (`| head -1`; SIGPIPE is ignored once an engine of another program
        // runs) stops the match as Ctrl-C would, rather than playing on unseen.
        if (!output_error && std::fflush(stdout) != 0) {
            output_error = errno != 0 ? errno : EIO;
            cli::request_stop();
        }
        // The test stops the match at its decision. A resume whose test decides within the
        // pairs played before still counts them all, and keeps their games: they were played.
        if (sprt && !decided) {
            llr = sprt->model == play::SprtParams::Model::kPentanomial
                      ? play::sprt_llr_pairs(pairs, sprt->elo0, sprt->elo1)
                      : play::sprt_llr(wins, draws, losses, sprt->elo0, sprt->elo1);
            fmt::print("LLR {} [{:.2f}, {:.2f}]\n", llr_text(llr), sprt->lower(), sprt->upper());
            const auto d = play::sprt_decision(llr, *sprt);
            if (d == play::SprtDecision::kH1)
                fmt::print("H1 accepted: elo >= {:g}\n", sprt->elo1);
            else if (d == play::SprtDecision::kH0)
                fmt::print("H0 accepted: elo <= {:g}\n", sprt->elo0);
            if (d != play::SprtDecision::kNone) {
                decided = d;
                if (i + 1 < first)
                    fmt::print("SPRT decided at opening {}; the {} played before the resume "
                               "after it {} counted too\n",
                               i + 1,
                               cli::count_text(first - i - 1, "game pair", "game pairs"),
                               first - i - 1 == 1 ? "is" : "are");
            }
        }
        std::fflush(stdout);
        if (decided && i + 1 >= first) break;
    }
    stop = true;
    abandon = true;  // the pairs under way count for nothing now
    workers.join();
    if (failure && journal) {
        // A full disk, say: the pairs saved before it stay, and a resume plays on from them.
        try {
            std::rethrow_exception(failure);
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(fmt::format(
                "{}; the games saved before are in {}, and the same command resumes the match",
                e.what(), journal->tmp_path()));
        }
    }
    if (failure) std::rethrow_exception(failure);
    // Interrupted, the games so far stay in FILE.tmp with the journal, as a killed match leaves
    // them. Otherwise FILE.tmp holds the pairs counted (a resume given fewer openings counts
    // fewer than it holds; one whose test decides sooner counts them all) and becomes FILE.
    if (journal && !interrupted && lost.empty()) journal->finish(counted_bytes);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    const auto e = play::elo_estimate(wins, draws, losses);
    const int games = wins + draws + losses;
    const auto elo_text = [&](const play::EloEstimate& x) -> std::string {
        if (x.finite && std::isinf(x.margin)) return signed_text(x.elo, 1) + " +/- inf";
        if (x.finite) return signed_text(x.elo, 1) + " +/- " + signed_text(x.margin, 1).substr(1);
        if (games == 0) return "+0.0 +/- inf";  // no game finished (interrupted): nothing known
        return x.score >= 1 ? "+inf +/- inf" : "-inf +/- inf";  // the shape of the finite one
    };
    const std::string elo = elo_text(e);
    // What each side spent over the games counted: at a fixed depth a pruning shows here as
    // fewer nodes per move. Another program says what it spent itself, in this run.
    for (const char* letter : {"A", "B"}) {
        const bool a_side = letter[0] == 'A';
        const SideSpent& side = spent[a_side ? 0 : 1];
        std::string text;
        if (a_side ? engine_a : engine_b) {
            text = play::stats_text(side.stats);
        } else {
            for (const auto& slot : slots) {
                const auto& c = a_side ? slot->ca : slot->cb;
                if (!c) continue;  // interrupted before it started
                const std::string one = c->spent();
                if (!one.empty()) text += text.empty() ? one : "; " + one;
            }
        }
        if (!text.empty() && side.times.moves > 0) text += ", " + side.times.text();
        if (!text.empty()) fmt::print("{}: {}\n", letter, text);
    }
    if (forfeits_a + forfeits_b > 0 || !engine_a || !engine_b)
        fmt::print("forfeits: A {}, B {}\n", forfeits_a, forfeits_b);
    fmt::print(
        "games {}, A wins {}, draws {}, B wins {}, A scores {:.1f}%, Elo A-B {} (95%), {:.1f} s\n",
        games, wins, draws, losses, 100 * e.score, elo, seconds);
    if (games > 0)
        fmt::print("pairs {}, A's points a pair 0 0.5 1 1.5 2: {} {} {} {} {}, Elo A-B {} (95%, "
                   "from the pairs)\n",
                   games / 2, pairs[0], pairs[1], pairs[2], pairs[3], pairs[4],
                   elo_text(play::elo_estimate_pairs(pairs)));
    if (sprt && !decided)
        fmt::print("SPRT: no decision, LLR {} [{:.2f}, {:.2f}]\n", llr_text(llr), sprt->lower(),
                   sprt->upper());
    if (interrupted) {
        std::error_code ec;
        if (output_error) {
            // The reader of the output is gone (`| head -1`): what is unwritten goes nowhere,
            // and the one line says why the match stopped.
            if (!std::freopen("/dev/null", "w", stdout)) std::clearerr(stdout);
            cli::eprint("dambit match: the standard output could not be written ({}); ",
                        std::strerror(output_error));
        }
        cli::eprint("{} after {} of {} openings{}\n",
                    output_error ? "stopped" : "dambit match: interrupted", games / 2,
                    openings.size(),
                    journal && journal->size() > 0
                        ? "; their games are in " + journal->tmp_path() +
                              ", and the same command resumes the match"
                    : !journal && pgn && std::filesystem::file_size(*pgn + ".tmp", ec) > 0 && !ec
                        ? "; the games of the run before are still in " + *pgn +
                              ".tmp, and the same command resumes the match"
                        : std::string());
        return output_error ? 1 : 130;
    }
    if (!lost.empty()) {
        cli::eprint("dambit match: error: {}; the match ends after {} of {} openings{}\n", lost,
                    games / 2, openings.size(),
                    journal && journal->size() > 0
                        ? "; their games are in " + journal->tmp_path() +
                              ", and the same command resumes the match"
                        : std::string());
        return 1;
    }
    if (analyse) {
        abandon = false;  // the analysis plays positions of its own
        analyse_losses<R>(analysed, slots, engine_a, engine_b, limits, rules, analyse_factor);
    }
    return 0;
}

}  // namespace match_cmd
}  // namespace

int match_command(int argc, char** argv) {
    using namespace match_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv,
                         {"variant", "a", "b", "depth", "nodes", "movetime", "tc", "grace",
                          "openings", "opening-plies", "ballots", "openings-file", "max-plies",
                          "sprt", "threads", "hash", "pgn", "egtb", "egtb-cache", "eval",
                          "a-param", "b-param",
                          "concurrency", "analyse-factor", "book", "book-ply", "book-margin"},
                         {"help", "analyse-losses"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() { return run<R>(args); });
}

}  // namespace dambit
