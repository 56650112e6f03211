// dambit solve: prove the shortest forced win (or the longest loss) of the side to move.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cli.hpp"
#include "commands.hpp"
#include "core/memory.hpp"
#include "core/notation.hpp"
#include "json.hpp"
#include "search/line.hpp"
#include "search/solve.hpp"

namespace dambit {
namespace {
namespace solve_cmd {

constexpr const char* kHelp =
    "usage: dambit solve [--variant V] (--fen FEN | --file FILE) [--max-plies N]\n"
    "                    [--max-seconds S] [--draw-rules] [--hash MB] [--moves] [--duals]\n"
    "                    [--json] [--egtb DIR [--egtb-cache MB]]\n"
    "\n"
    "Proves a forced result for the side to move and prints one of\n"
    "  win in N plies: LINE    the shortest forced win; the opponent is first left without\n"
    "                          a legal move after ply N; LINE is best play by both sides\n"
    "  loss in N plies: LINE   every move loses; LINE is the longest resistance\n"
    "  draw                    neither side can force a win (proven with --egtb or\n"
    "                          --draw-rules: play that reaches drawn table positions,\n"
    "                          the rules' draws or repetitions)\n"
    "  no forced result within the limits, with '; cannot lose' or '; cannot win' when\n"
    "                          one half of a draw is proven\n"
    "  win in at most N plies (a shorter win not excluded within the limits): LINE\n"
    "                          with --moves: a move was proven to win in N, another might\n"
    "                          win sooner\n"
    "followed by the node count and the time. A result is printed only when proven.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --fen FEN          the position\n"
    "  --file FILE        one FEN per line, optionally a tab and the expected result ('win N',\n"
    "                     'loss N' or 'draw'; 'win in N plies' also accepted); prints one\n"
    "                     line per position and a summary: solved, wrong, unsolved, time.\n"
    "                     Exit status 1 if any is wrong\n"
    "  --max-plies N      longest result looked for (default 120, at most 250)\n"
    "  --max-seconds S    time limit per position, and per move with --moves and --duals\n"
    "                     (default 60; 0 = none)\n"
    "  --draw-rules       apply the move-count draw rules (docs/variants.md); by default they\n"
    "                     are off and the values are game-theoretic, as endgame tables store them\n"
    "  --hash MB          proof table size (default 256; the draw search, when on, takes an\n"
    "                     eighth more)\n"
    "  --moves            also prove every legal move on its own (each with the time limit):\n"
    "                     one line per move, 'MOVE  win in N plies' (wins shortest first),\n"
    "                     'draw', 'no forced result within N plies', 'loss in N plies', then\n"
    "                     'moves M, win W (MOVE in N, ...), draw D, loss L, no forced\n"
    "                     result U'.\n"
    "                     W = 1: the key is the only move proven to win, and each other\n"
    "                     move's line says how far it was proven not to. With --file, that\n"
    "                     last text is a fifth field of each position's line. A position\n"
    "                     whose own proof ran out of time gets the result its moves prove\n"
    "  --duals            at each of the winner's turns in the line, prove every other move\n"
    "                     on its own too: a line per turn, 'ply P, MOVE (in R): also MOVE in\n"
    "                     N, ...' (R and N counted from that turn) or 'no other winning\n"
    "                     move', with '; no forced result U within N plies' (the least bound)\n"
    "                     for moves left unresolved, then 'duals at D of T turns'. With\n"
    "                     --file, a field of its own\n"
    "  --json             one JSON object per position (with --file, then a summary object):\n"
    "                     \"fen\", \"result\" (win, loss, draw, unknown), \"plies\", \"line\",\n"
    "                     \"no_result_plies\", \"win_at_most\", \"cannot_lose\", \"cannot_win\",\n"
    "                     \"nodes\", \"seconds\"; with --file also\n"
    "                     \"expected\" and \"verdict\", with --moves \"moves\", with --duals\n"
    "                     \"turns\" (docs/commands.md)\n"
    DAMBIT_TABLES_HELP
    "                     (positions inside the tables are answered at once and cut the proof\n"
    "                     search; an error with --draw-rules: the tables hold game-theoretic values)\n";

// Half of a draw proven: "; cannot lose" or "; cannot win" (of the side to move, or of the side
// making a move), for a proof without a result.
template <class G>
std::string half_text(const search::Proof<G>& p) {
    return p.cannot_lose ? "; cannot lose" : p.cannot_win ? "; cannot win" : "";
}

template <class G>
std::string outcome_text(const search::Proof<G>& p) {
    switch (p.outcome) {
        case search::Outcome::kForcedWin:
            return fmt::format("win in {} plies", p.plies);
        case search::Outcome::kForcedLoss:
            return fmt::format("loss in {} plies", p.plies);
        case search::Outcome::kDrawn:
            return "draw";
        case search::Outcome::kUnknown:
            break;
    }
    if (p.win_at_most)
        return fmt::format("win in at most {} plies (a shorter win not excluded within the limits)",
                           p.win_at_most);
    return "no forced result within the limits" + half_text(p);
}

template <class G>
const char* result_word(const search::Proof<G>& p) {
    return p.outcome == search::Outcome::kForcedWin    ? "win"
           : p.outcome == search::Outcome::kForcedLoss ? "loss"
           : p.outcome == search::Outcome::kDrawn      ? "draw"
                                                       : "unknown";
}

// One move's result: "win in N plies", "loss in N plies", "draw", or "no forced result within N
// plies" (the plies proven to hold none, counting the move) with the half of a draw proven.
template <class G>
std::string move_outcome_text(const search::Proof<G>& p) {
    if (p.outcome != search::Outcome::kUnknown) return outcome_text(p);
    return fmt::format("no forced result within {} plies", std::max(p.no_result_plies, 0)) +
           half_text(p);
}

// The proofs of the moves of position `p` counted: the winning ones as "MOVE in N, ..." (best
// first, as they come), the draws, the losses, and the moves without a forced result with the
// least of their bounds.
template <class R>
struct Tally {
    int wins = 0, draws = 0, losses = 0, unknown = 0, least_bound = 0;
    std::string winners;
    Tally(const Position<R>& p, const std::vector<search::MoveProof<typename R::Geometry>>& moves) {
        for (const auto& [m, mp] : moves) {
            if (mp.outcome == search::Outcome::kForcedWin) {
                winners += fmt::format("{}{} in {}", wins ? ", " : "", search::join_line<R>(p, {m}),
                                       mp.plies);
                ++wins;
            } else if (mp.outcome == search::Outcome::kForcedLoss) {
                ++losses;
            } else if (mp.outcome == search::Outcome::kDrawn) {
                ++draws;
            } else {
                least_bound =
                    unknown ? std::min(least_bound, mp.no_result_plies) : mp.no_result_plies;
                ++unknown;
            }
        }
    }
};

// "moves M, win W (MOVE in N, ...), draw D, loss L, no forced result U".
template <class R>
std::string moves_summary(const Position<R>& root,
                          const std::vector<search::MoveProof<typename R::Geometry>>& moves) {
    const Tally<R> t(root, moves);
    return fmt::format("moves {}, win {}{}, draw {}, loss {}, no forced result {}", moves.size(),
                       t.wins, t.wins ? " (" + t.winners + ")" : "", t.draws, t.losses,
                       t.unknown);
}

// Adds a proof's fields to `o`, its line in the variant's notation played from `p`.
template <class R>
json::Object& add_proof(json::Object& o, const Position<R>& p,
                        const search::Proof<typename R::Geometry>& proof) {
    const bool known = proof.outcome != search::Outcome::kUnknown;
    const bool decided = known && proof.outcome != search::Outcome::kDrawn;
    return o.add("result", result_word(proof))
        .add("plies", decided ? std::optional<int>(proof.plies) : std::nullopt)
        .add("line", search::line_text<R>(p, proof.line))
        .add("no_result_plies",
             known ? std::nullopt : std::optional<int>(std::max(proof.no_result_plies, 0)))
        .add("win_at_most", proof.win_at_most ? std::optional<int>(proof.win_at_most) : std::nullopt)
        .add("cannot_lose", proof.cannot_lose)
        .add("cannot_win", proof.cannot_win)
        .add("nodes", proof.nodes)
        .add("seconds", json::Fixed{proof.seconds, 3});
}

// The moves of --moves as a JSON array (each move's line starts with the move).
template <class R>
json::Array moves_json(const Position<R>& root,
                       const std::vector<search::MoveProof<typename R::Geometry>>& moves) {
    json::Array a;
    for (const auto& [m, p] : moves) {
        json::Object o;
        o.add("move", search::join_line<R>(root, {m}));
        a.add(json::Raw(add_proof<R>(o, root, p)));
    }
    return a;
}

// The position at each of `turns` (the proven line played from `root` up to the turn).
template <class R>
std::vector<Position<R>> turn_positions(
    Position<R> p, const search::Proof<typename R::Geometry>& proof,
    const std::vector<search::LineTurn<typename R::Geometry>>& turns) {
    std::vector<Position<R>> out;
    std::size_t played = 0;
    for (const auto& t : turns) {
        for (; played + 1 < std::size_t(t.ply); ++played) p = p.play(proof.line[played]);
        out.push_back(p);
    }
    return out;
}

// A turn's other moves that also win ("also MOVE in N, ..." or "no other winning move"), and
// those without a forced result within the plies left, with the least of their bounds: "; no
// forced result U within N plies" (then "no other move proven to win"). `at`: its position.
template <class R>
std::string turn_text(const Position<R>& at, const search::LineTurn<typename R::Geometry>& t) {
    const Tally<R> tally(at, t.others);
    std::string text = tally.wins      ? "also " + tally.winners
                       : tally.unknown ? "no other move proven to win"
                                       : "no other winning move";
    if (tally.unknown)
        text += fmt::format("; no forced result {} within {} plies", tally.unknown,
                            tally.least_bound);
    return text;
}

// "duals at D of T turns", and ", moves without a forced result at K" when K turns have such
// moves (they might be duals beyond their bounds); "duals: no proven line" without a line.
template <class G>
std::string duals_summary(const search::Proof<G>& proof,
                          const std::vector<search::LineTurn<G>>& turns) {
    if (proof.outcome != search::Outcome::kForcedWin &&
        proof.outcome != search::Outcome::kForcedLoss)
        return "duals: no proven line";
    int duals = 0, open = 0;
    for (const auto& t : turns) {
        bool dual = false, unknown = false;
        for (const auto& mp : t.others) {
            dual |= mp.proof.outcome == search::Outcome::kForcedWin;
            unknown |= mp.proof.outcome == search::Outcome::kUnknown;
        }
        duals += dual;
        open += unknown;
    }
    std::string text = fmt::format("duals at {} of {} turns", duals, turns.size());
    if (open) text += fmt::format(", moves without a forced result at {}", open);
    return text;
}

// The turns of --duals as a JSON array: {"ply","fen","move","others":[...]} (others as --moves'
// moves, their lines from the turn's position "fen"). `at`: the turns' positions.
template <class R>
json::Array turns_json(const std::vector<search::LineTurn<typename R::Geometry>>& turns,
                       const std::vector<Position<R>>& at) {
    json::Array a;
    for (std::size_t i = 0; i < turns.size(); ++i)
        a.add(json::Object()
                  .add("ply", turns[i].ply)
                  .add("fen", to_fen<R>(at[i]))
                  .add("move", search::join_line<R>(at[i], {turns[i].move}))
                  .add("others", json::Raw(moves_json<R>(at[i], turns[i].others))));
    return a;
}

// An expected result from a --file line: "win N", "loss N", "win in N plies", "draw", ...
struct Expected {
    bool given = false;
    search::Outcome outcome = search::Outcome::kUnknown;
    int plies = 0;
};

// Whether a proof without a forced result still refutes the expected one: a win or a loss
// expected in N plies where none of at most no_result_plies exists, or where the side to move
// was proven unable to win (to lose).
template <class G>
bool disproved(const search::Proof<G>& proof, const Expected& want) {
    if (!want.given) return false;
    // A win proven, its shortest not: a draw or a loss expected is wrong, and so is a win
    // expected longer than the one proven.
    if (proof.win_at_most)
        return want.outcome != search::Outcome::kForcedWin || want.plies > proof.win_at_most;
    if (want.outcome == search::Outcome::kDrawn) return false;
    if (want.plies <= proof.no_result_plies) return true;
    return want.outcome == search::Outcome::kForcedWin ? proof.cannot_win : proof.cannot_lose;
}

Expected parse_expected(const std::string& text, int line_number) {
    Expected e;
    std::istringstream in(text);
    std::string word, number;
    if (!(in >> word)) return e;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    if (word == "draw") {
        std::string extra;
        if (in >> extra)
            throw cli::UsageError(where + "unexpected '" + extra +
                                  "' after the expected result '" + text + "'");
        e.given = true;
        e.outcome = search::Outcome::kDrawn;
        return e;
    }
    if (word != "win" && word != "loss")
        throw cli::UsageError(where + "bad expected result '" + text +
                              "' (want 'win N', 'loss N' or 'draw')");
    in >> number;
    if (number == "in") in >> number;
    std::string rest, extra;
    std::getline(in, rest);
    std::istringstream more(rest);
    more >> extra;
    if (extra == "plies" || extra == "ply") extra.clear(), more >> extra;
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
    if (opt.draw_rules && args.has("egtb"))
        throw cli::UsageError("--egtb does not go with --draw-rules (the tables hold game-theoretic "
                              "values, without the move-count draw rules)");
    // Ctrl-C, kill or a closed terminal stops the proof under way: what was proven before is
    // printed, then one line, exit status 130 (a second signal ends the program at once).
    cli::catch_stop_signals();
    opt.stop = &cli::stop_requested;
    const auto tables = cli::tables_option(args);
    // The draw search (with tables or the draw rules) has a table of an eighth more.
    const std::int64_t hash = args.get_int("hash", 256, 1, std::int64_t(1) << 20);
    const std::int64_t draws =
        !tables.dir.empty() || opt.draw_rules ? std::max<std::int64_t>(1, hash / 8) : 0;
    if (const std::string why = beyond_memory(hash + draws); !why.empty())
        throw args.megabytes_refused(
            "hash", hash,
            why + (draws ? fmt::format(", with the draw search's {} MB", draws) : std::string()));
    opt.hash_megabytes = std::size_t(hash);
    opt.tables_dir = tables.dir;
    opt.tables_cache_megabytes = tables.cache_megabytes;
    // The solver (its proof table, its tables) is made once the input is known to be good: a
    // bad FEN or file line is an error before any work. Tables given that hold nothing of the
    // variant are an error too, not a proof made silently without them.
    const auto check_tables = [&](const search::Solver<R>& solver) {
        if (!tables.dir.empty() && !opt.draw_rules && solver.table_pieces() == 0)
            throw cli::UsageError(fmt::format("no complete set of {} tables in {}", R::kName,
                                              tables.dir));
    };
    const bool json = args.has("json"), with_moves = args.has("moves"),
               with_duals = args.has("duals");
    // The root's proof, with --moves each move's, with --duals the line's turns: the total nodes
    // and time.
    struct Solved {
        search::Proof<typename R::Geometry> proof;
        std::vector<search::MoveProof<typename R::Geometry>> moves;
        std::vector<search::LineTurn<typename R::Geometry>> turns;
        std::vector<Position<R>> at;  // the position at each of `turns`
        std::uint64_t nodes = 0;
        double seconds = 0;
        bool interrupted = false;  // by Ctrl-C, kill or a closed terminal: the proofs are cut
        bool root_whole = true;    // whether the position's own proof was done before that
    };
    // On a terminal, which move is being proven (each may take the whole time limit).
    const bool terminal = cli::progress_terminal();
    const auto solve = [&](search::Solver<R>& solver, const Position<R>& p) {
        Solved s;
        s.proof = solver.solve(p);
        s.nodes = s.proof.nodes;
        s.seconds = s.proof.seconds;
        if (cli::stop_requested()) {
            s.interrupted = true;
            s.root_whole = false;
            return s;
        }
        if (with_moves) {
            s.moves = solver.solve_moves(p, [&](int i, int n) {
                if (terminal) fmt::print(stderr, "\r\033[Kproving move {} of {}", i + 1, n);
            });
            if (terminal) std::fputs("\r\033[K", stderr);
            for (const auto& mp : s.moves) s.nodes += mp.proof.nodes, s.seconds += mp.proof.seconds;
            if (cli::stop_requested()) {
                s.interrupted = true;
                return s;
            }
            // Each move had the time limit of its own: they may prove what the position's proof
            // ran out of time for.
            s.proof = search::proof_from_moves(s.proof, s.moves);
        }
        if (with_duals) {
            s.turns = solver.line_turns(p, s.proof, [&](int t, int turns, int i, int n) {
                if (terminal)
                    fmt::print(stderr, "\r\033[Kproving turn {} of {} of the line: move {} of {}",
                               t + 1, turns, i + 1, n);
            });
            if (terminal) std::fputs("\r\033[K", stderr);
            s.at = turn_positions<R>(p, s.proof, s.turns);
            for (const auto& t : s.turns)
                for (const auto& mp : t.others)
                    s.nodes += mp.proof.nodes, s.seconds += mp.proof.seconds;
            s.interrupted = cli::stop_requested();
        }
        return s;
    };
    // The JSON object of a solved position, its nodes and seconds the totals.
    const auto solved_json = [&](const std::string& fen, const Position<R>& p, const Solved& s) {
        json::Object o;
        o.add("fen", fen);
        search::Proof<typename R::Geometry> total = s.proof;
        total.nodes = s.nodes;
        total.seconds = s.seconds;
        add_proof<R>(o, p, total);
        if (with_moves) o.add("moves", json::Raw(moves_json<R>(p, s.moves)));
        if (with_duals) o.add("turns", json::Raw(turns_json<R>(s.turns, s.at)));
        return o;
    };
    if (const auto fen = args.get("fen")) {
        const Position<R> p = parse_fen<R>(*fen);
        // The FEN's H field: kings alone have moved for that many plies (with --draw-rules).
        opt.start = search::fen_counters(*fen);
        search::Solver<R> solver(opt);
        check_tables(solver);
        const Solved s = solve(solver, p);
        std::string text = outcome_text(s.proof);
        if ((s.proof.outcome != search::Outcome::kUnknown || s.proof.win_at_most) &&
            !s.proof.line.empty())
            text += ": " + search::join_line<R>(p, s.proof.line);
        if (s.interrupted) {
            // What was whole before the signal, and a line saying what was cut.
            if (s.root_whole && !json) fmt::print("{}\n", text);
            std::fflush(stdout);
            cli::eprint("dambit solve: interrupted after {:.3f} s; {}\n", s.seconds,
                        !s.root_whole ? "nothing proven"
                        : s.proof.outcome != search::Outcome::kUnknown
                            ? "the position's result above is proven, its moves' are not"
                            : "the position's proof above found no result, and its moves' were cut");
            return 130;
        }
        if (json) {
            // The FEN as given, without the blanks around it (as --file prints it back).
            const auto from = fen->find_first_not_of(" \t\r\n");
            const auto to = fen->find_last_not_of(" \t\r\n");
            const std::string given = from == std::string::npos ? "" : fen->substr(from, to - from + 1);
            fmt::print("{}\n", solved_json(given, p, s).str());
            return 0;
        }
        fmt::print("{}\n", text);
        if (with_moves) {
            for (const auto& [m, mp] : s.moves)
                fmt::print("  {:<20} {}\n", search::join_line<R>(p, {m}), move_outcome_text(mp));
            fmt::print("{}\n", moves_summary<R>(p, s.moves));
        }
        if (with_duals) {
            for (std::size_t i = 0; i < s.turns.size(); ++i) {
                const auto& t = s.turns[i];
                fmt::print("  ply {}, {} (in {}): {}\n", t.ply,
                           search::join_line<R>(s.at[i], {t.move}), s.proof.plies - t.ply + 1,
                           turn_text<R>(s.at[i], t));
            }
            fmt::print("{}\n", duals_summary(s.proof, s.turns));
        }
        fmt::print("nodes {}, {:.3f} s\n", s.nodes, s.seconds);
        return 0;
    }
    const std::string path = *args.get("file");
    std::ifstream file;
    if (path == "-") cli::check_stdin_readable();
    if (path != "-") {  // "-": standard input, as pdn check reads it
        cli::check_readable(path);
        file.open(path);
        if (!file) throw cli::UsageError("cannot read '" + path + "'");
    }
    std::istream& in = path == "-" ? std::cin : file;
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
        if (!row.empty() && row.back() == '\r') row.pop_back();  // a file with CRLF line ends
        if (number == 1 && row.starts_with("\xEF\xBB\xBF")) row.erase(0, 3);  // UTF-8's BOM
        const auto tab = row.find('\t');
        std::string fen = row.substr(0, tab);
        // Blanks around the FEN are not part of it (nor of the line printed back).
        fen.erase(0, fen.find_first_not_of(' '));
        fen.erase(fen.find_last_not_of(' ') + 1);
        if (fen.empty() || fen[0] == '#') continue;
        std::string expected = tab == std::string::npos ? "" : row.substr(tab + 1);
        if (const auto more = expected.find('\t'); more != std::string::npos)
            throw cli::UsageError("line " + std::to_string(number) + ": unexpected field '" +
                                  expected.substr(more + 1) + "' after the expected result '" +
                                  expected.substr(0, more) + "'");
        const Expected want = parse_expected(expected, number);
        try {
            problems.push_back({fen, parse_fen<R>(fen), want});
        } catch (const ParseError& e) {
            throw cli::UsageError("line " + std::to_string(number) + ": " + e.what());
        }
    }
    if (in.bad()) throw std::runtime_error("cannot read '" + path + "'");
    if (problems.empty())
        throw cli::UsageError("no position in " +
                              (path == "-" ? std::string("the standard input") : "'" + path + "'") +
                              " (only blank lines and comments)");
    search::Solver<R> solver(opt);
    check_tables(solver);
    int solved = 0, wrong = 0, unsolved = 0;
    double total = 0;
    std::optional<std::string> interrupted;  // the FEN whose proof a signal cut
    for (const auto& [fen, p, want] : problems) {
        // Each position from an empty table: its time is its own, whatever came before it.
        solver.clear_table();
        const Solved s = solve(solver, p);
        if (s.interrupted) {
            interrupted = fen;
            break;
        }
        const auto& proof = s.proof;
        total += s.seconds;
        std::string verdict;
        if (proof.outcome == search::Outcome::kUnknown && !disproved(proof, want)) {
            ++unsolved;
            verdict = "unsolved";
        } else if (want.given && (want.outcome != proof.outcome || want.plies != proof.plies)) {
            ++wrong;
            verdict = "WRONG";
        } else {
            ++solved;
            verdict = "solved";
        }
        if (json) {
            json::Object o = solved_json(fen, p, s);
            const char* word = want.outcome == search::Outcome::kForcedWin ? "win" : "loss";
            o.add("expected",
                  !want.given ? std::nullopt
                  : want.outcome == search::Outcome::kDrawn
                      ? std::optional<std::string>("draw")
                      : std::optional<std::string>(fmt::format("{} {}", word, want.plies)));
            o.add("verdict", verdict);
            fmt::print("{}\n", o.str());
        } else {
            fmt::print("{}\t{}\t{}\t{:.3f} s{}\n", fen, outcome_text(proof), verdict, s.seconds,
                       (with_moves ? "\t" + moves_summary<R>(p, s.moves) : "") +
                           (with_duals ? "\t" + duals_summary(proof, s.turns) : ""));
        }
        std::fflush(stdout);
    }
    if (json)
        fmt::print("{}\n", json::Object()
                               .add("solved", solved)
                               .add("wrong", wrong)
                               .add("unsolved", unsolved)
                               .add("seconds", json::Fixed{total, 3})
                               .str());
    else
        fmt::print("solved {}, wrong {}, unsolved {}, time {:.3f} s\n", solved, wrong, unsolved,
                   total);
    if (interrupted) {
        std::fflush(stdout);
        cli::eprint("dambit solve: interrupted at {}; the summary counts the positions before it\n",
                    *interrupted);
        return 130;
    }
    return wrong ? 1 : 0;
}

}  // namespace solve_cmd
}  // namespace

int solve_command(int argc, char** argv) {
    using namespace solve_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv, {"variant", "fen", "file", "max-plies", "max-seconds", "hash",
                                          "egtb", "egtb-cache"},
                         {"draw-rules", "moves", "duals", "json", "help"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() {
        if (args.has("fen") == args.has("file"))
            throw cli::UsageError("give one of --fen and --file");
        return run<R>(args);
    });
}

}  // namespace dambit
