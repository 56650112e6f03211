// Matches: whole games between two players under the variant's draw rules, the opening
// set, the score and Elo arithmetic, and the PDN record.
//
// A player is any function from (position, game history) to a move, so that the game loop can be
// tested with scripted moves as well as with engines.
#pragma once

#include <algorithm>
#include <array>
#include <limits>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "core/key.hpp"
#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "pdn/writer.hpp"
#include "search/draw.hpp"
#include "search/engine.hpp"

namespace dambit::play {

// Why a game ended.
enum class Ending {
    kNoMove,      // the side to move has no legal move: it has lost (RULES.md §2)
    kRepetition,  // the same position with the same side to move for the third time (§5)
    kDrawRule,    // the variant's move-count rules (§5, drawn_by_counters)
    kMaxPlies,    // adjudicated a draw: the game reached the ply limit of the match
    kForfeit,     // a player failed (illegal move, crash, no answer, out of time): it has lost
};

inline const char* ending_name(Ending e) {
    switch (e) {
        case Ending::kNoMove:
            return "no move";
        case Ending::kRepetition:
            return "repetition";
        case Ending::kDrawRule:
            return "draw rule";
        case Ending::kMaxPlies:
            return "max plies";
        case Ending::kForfeit:
            return "forfeit";
    }
    return "?";
}

// A draw by the rules as `search --json` and `pdn analyse` name it: "repetition", or
// "move-count rules" (kDrawRule).
inline const char* drawn_name(Ending e) {
    return e == Ending::kRepetition ? "repetition" : "move-count rules";
}

template <class R>
struct Game {
    using G = typename R::Geometry;
    Position<R> opening;
    std::vector<Move<G>> moves;           // played from the opening
    std::vector<std::string> move_texts;  // the same moves in long notation
    // The wall time of each move from the request to the answer, in ms, one per move played
    // (play_timed_game's games; empty where the moves were not timed, as in the DXP follower's
    // own games).
    std::vector<std::int64_t> move_ms;
    // A game forfeited during a move (on time, no answer, a crash, an illegal move): the wall
    // time of that request until it failed or the harness gave up on it, in ms. It is no move
    // played, so it is not in move_ms, but the loser spent it.
    std::optional<std::int64_t> failed_ms;
    Ending ending = Ending::kMaxPlies;
    std::optional<Color> winner;  // empty for a draw
    std::string reason;           // kForfeit: why the loser forfeited, one line

    int plies() const { return int(moves.size()); }
    // The ending as the match lines and the PDN comment write it: "no move", ..., or
    // "forfeit by Black: time".
    std::string ending_text() const {
        if (ending != Ending::kForfeit || !winner) return ending_name(ending);
        return std::string("forfeit by ") + (*winner == Color::kWhite ? "Black" : "White") + ": " +
               reason;
    }
    // "1-0", "0-1" or "1/2-1/2", as PDN writes results.
    std::string result_text() const {
        if (!winner) return "1/2-1/2";
        return *winner == Color::kWhite ? "1-0" : "0-1";
    }
    // Points of colour c: 1, 1/2 or 0.
    double points(Color c) const { return !winner ? 0.5 : *winner == c ? 1.0 : 0.0; }
};

// A player's choice of move in `p`, whose game went through `history` (oldest first, `p` not
// included). Called only when the side to move has a legal move.
template <class R>
using Player = std::function<Move<typename R::Geometry>(const Position<R>& p,
                                                        const std::vector<Position<R>>& history)>;

// A player's failure to give a legal move in time: thrown by a player (or made by the game loop),
// it ends the game as a forfeit, a loss for that player. what() is the one-line reason.
class PlayerFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A game as the rules see it: the position, the positions before it, how often each position
// occurred, the move-count draw counters, and the record. play_timed_game and the DXP sessions
// (src/protocol/dxp_session.cpp) keep their games in one.
template <class R>
struct GameState {
    using G = typename R::Geometry;
    Position<R> pos;
    std::vector<Position<R>> history;  // the positions before each move, oldest first
    std::unordered_map<std::uint64_t, int> seen;  // occurrences of each position key
    search::DrawCounters counters;
    Game<R> record;

    explicit GameState(const Position<R>& start) : pos(start) {
        record.opening = start;
        ++seen[position_key(pos)];
    }
    int plies() const { return record.plies(); }
    void play(const PathMove<G>& m) {
        record.moves.push_back(m.move);
        record.move_texts.push_back(move_text<R>(m));
        counters = counters.after(pos, m.move);
        history.push_back(pos);
        pos = pos.play(m.move);
        ++seen[position_key(pos)];
    }
    // How the rules end the game now, or nothing while it goes on: the side to move has no legal
    // move (it has lost, whatever the draw rules say: draw.hpp), the position occurs for the third
    // time, the move-count rules call it drawn, or `max_plies` plies have been played. `legal`
    // receives the legal moves of the side to move.
    std::optional<Ending> rules_ending(int max_plies, FixedList<PathMove<G>, kMaxMoves>& legal) const {
        generate_paths<R>(pos, legal);
        if (legal.empty()) return Ending::kNoMove;
        if (seen.at(position_key(pos)) >= 3) return Ending::kRepetition;
        if (search::drawn_by_counters(pos, counters)) return Ending::kDrawRule;
        if (plies() >= max_plies) return Ending::kMaxPlies;
        return std::nullopt;
    }
};

// The time rules of a game. With a clock (base_ms > 0) each side starts with base_ms; before each
// of its moves increment_ms is added (Fischer, as Scan's Hub protocol counts it) and the wall time
// from the request to the answer is taken off; a clock below zero loses ("time"). With a move
// time, a side answering later than movetime_ms + grace_ms loses. With neither, a side answering
// later than untimed_wait_ms (if not 0) loses.
struct TimeControl {
    std::int64_t base_ms = 0;
    std::int64_t increment_ms = 0;
    std::int64_t movetime_ms = 0;
    std::int64_t grace_ms = 1000;
    std::int64_t untimed_wait_ms = 0;

    bool clocked() const { return base_ms > 0; }
    // How long the harness waits for a side whose clock shows `clock_ms` (0: no bound).
    std::int64_t wait_ms(std::int64_t clock_ms) const {
        if (clocked()) return std::max<std::int64_t>(clock_ms, 0) + increment_ms + grace_ms;
        if (movetime_ms > 0) return movetime_ms + grace_ms;
        return untimed_wait_ms;
    }
};

// What a player is told with each request: the game so far and its time.
template <class R>
struct Turn {
    const Position<R>* opening = nullptr;
    const std::vector<Move<typename R::Geometry>>* moves = nullptr;  // played from `opening`
    bool clocked = false;
    std::int64_t clock_ms = 0;  // the side's clock before this move's increment is added
    std::int64_t increment_ms = 0;
    std::int64_t movetime_ms = 0;
    std::int64_t wait_ms = 0;  // the harness waits this long for the answer (0: no bound)
    // Set when the match gives the game up (GameRules::abandon): a player may stop thinking at
    // once, since its move is thrown away, or throw PlayerFailure (no forfeit then).
    const std::atomic<bool>* abandon = nullptr;
};

template <class R>
using TimedPlayer = std::function<Move<typename R::Geometry>(
    const Position<R>& p, const std::vector<Position<R>>& history, const Turn<R>& turn)>;

// The reason of a game a match abandoned (GameRules::abandon).
inline constexpr std::string_view kAbandoned = "abandoned";

struct GameRules {
    int max_plies = 200;
    TimeControl time;
    // When set and true, a game under way ends before its next move, unfinished (a match that
    // has its answer, or was interrupted, throws such games away).
    const std::atomic<bool>* abandon = nullptr;
    bool abandoned() const { return abandon && abandon->load(); }
};

// A game that ends before its first move because `loser` cannot play it.
template <class R>
Game<R> forfeited_game(const Position<R>& opening, Color loser, std::string reason) {
    Game<R> g;
    g.opening = opening;
    g.ending = Ending::kForfeit;
    g.winner = ~loser;
    g.reason = std::move(reason);
    return g;
}

// Plays one game from `opening` until the side to move has no legal move, the position occurs for
// the third time, the move-count rules call it drawn, `max_plies` plies have been played, or a
// player forfeits: it throws PlayerFailure, returns an illegal move, runs out of time or answers
// after the wait bound (see TimeControl). Other exceptions of a player pass through.
template <class R>
Game<R> play_timed_game(const Position<R>& opening, const TimedPlayer<R>& white,
                        const TimedPlayer<R>& black, const GameRules& rules) {
    using G = typename R::Geometry;
    using Clock = std::chrono::steady_clock;
    GameState<R> g(opening);
    Game<R>& game = g.record;
    const Position<R>& p = g.pos;
    std::array<std::int64_t, 2> clock{rules.time.base_ms, rules.time.base_ms};
    FixedList<PathMove<G>, kMaxMoves> legal;
    auto forfeit = [&](std::string reason) {
        game.ending = Ending::kForfeit;
        game.winner = ~p.side;
        game.reason = std::move(reason);
    };
    for (;;) {
        if (rules.abandoned()) {
            game.ending = Ending::kMaxPlies;
            game.reason = kAbandoned;
            break;
        }
        if (const auto ending = g.rules_ending(rules.max_plies, legal)) {
            game.ending = *ending;
            if (*ending == Ending::kNoMove) game.winner = ~p.side;
            break;
        }
        std::int64_t& left = clock[std::size_t(p.side)];
        Turn<R> turn;
        turn.opening = &game.opening;
        turn.moves = &game.moves;
        turn.clocked = rules.time.clocked();
        turn.clock_ms = left;
        turn.increment_ms = rules.time.increment_ms;
        turn.movetime_ms = rules.time.movetime_ms;
        turn.wait_ms = rules.time.wait_ms(left);
        turn.abandon = rules.abandon;
        const auto t0 = Clock::now();
        const auto since_t0 = [&] {
            return std::int64_t(
                std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
        };
        Move<G> m{};
        try {
            m = (p.side == Color::kWhite ? white : black)(p, g.history, turn);
        } catch (const PlayerFailure& f) {
            if (rules.abandoned()) continue;  // stopped because the game is given up: no forfeit
            game.failed_ms = since_t0();
            forfeit(f.what());
            break;
        }
        const std::int64_t elapsed = since_t0();
        if (turn.clocked) {
            left += rules.time.increment_ms - elapsed;
            if (left < 0) {
                game.failed_ms = elapsed;
                forfeit("time");
                break;
            }
        } else if (turn.wait_ms > 0 && elapsed > turn.wait_ms) {
            game.failed_ms = elapsed;
            forfeit(fmt::format("no answer within {} ms", turn.wait_ms));
            break;
        }
        const PathMove<G>* found = nullptr;
        for (const auto& pm : legal)
            if (pm.move == m) {
                found = &pm;
                break;
            }
        if (!found) {
            game.failed_ms = elapsed;
            forfeit(fmt::format("illegal move from {} to {}", square_name<R>(m.from),
                                square_name<R>(m.to)));
            break;
        }
        game.move_ms.push_back(elapsed);
        g.play(*found);
    }
    return game;
}

// play_timed_game without a clock, for players that need no time: the game ends as
// play_timed_game says (an illegal move or a PlayerFailure is a forfeit).
template <class R>
Game<R> play_game(const Position<R>& opening, const Player<R>& white, const Player<R>& black,
                  int max_plies) {
    auto timed = [](const Player<R>& p) -> TimedPlayer<R> {
        return [&p](const Position<R>& pos, const std::vector<Position<R>>& history,
                    const Turn<R>&) { return p(pos, history); };
    };
    return play_timed_game<R>(opening, timed(white), timed(black), GameRules{max_plies, {}});
}

// What an engine spent over its moves (to compare the cost of settings at a fixed depth).
struct PlayerStats {
    std::uint64_t nodes = 0;
    int moves = 0;
    int depth_sum = 0;  // completed iterations, summed over the moves

    PlayerStats& operator+=(const PlayerStats& o) {
        nodes += o.nodes;
        moves += o.moves;
        depth_sum += o.depth_sum;
        return *this;
    }
    // What was spent since `before` was taken.
    PlayerStats operator-(const PlayerStats& before) const {
        return {nodes - before.nodes, moves - before.moves, depth_sum - before.depth_sum};
    }
};

// The wall time one side took over its moves, as the harness timed them (the request to the
// answer, whichever program answered): "98.4 ms/move, longest 131 ms" on the match's summary.
struct MoveTimes {
    std::int64_t total_ms = 0, longest_ms = 0;
    std::int64_t moves = 0;
    void add(std::int64_t ms) {
        total_ms += ms;
        longest_ms = std::max(longest_ms, ms);
        ++moves;
    }
    void add(const MoveTimes& o) {
        total_ms += o.total_ms;
        longest_ms = std::max(longest_ms, o.longest_ms);
        moves += o.moves;
    }
    std::string text() const {
        return fmt::format("{:.1f} ms/move, longest {} ms", double(total_ms) / double(moves),
                           longest_ms);
    }
};

// "N moves, X nodes/move, mean depth D", as the match's summary gives it.
inline std::string stats_text(const PlayerStats& s) {
    const int m = std::max(s.moves, 1);
    return fmt::format("{}, {:.0f} nodes/move, mean depth {:.2f}",
                       count_text(std::uint64_t(s.moves), "move", "moves"), double(s.nodes) / m,
                       double(s.depth_sum) / m);
}

// An engine as a player: each move is one `go` with the game history and the limits. `stats`, if
// given, must outlive the player; the search ends early once `*stop` is set.
template <class R>
Player<R> engine_player(search::Engine<R>& engine, const search::Limits& limits, PlayerStats* stats = nullptr,
                        const std::atomic<bool>* stop = nullptr) {
    return [&engine, limits, stats, stop](const Position<R>& p, const std::vector<Position<R>>& history) {
        typename search::Engine<R>::Callbacks cb;
        cb.stop_flag = stop;
        const auto r = engine.go(p, history, limits, cb);
        if (!r.has_move) throw std::logic_error("the engine found no move in " + to_fen<R>(p));
        if (stats) {
            stats->nodes += r.nodes;
            ++stats->moves;
            stats->depth_sum += r.depth;
        }
        return r.best;
    };
}

// A game pair from one opening, colours swapped so that the first move's advantage cancels: in
// the first game A has White, in the second B has White. Both engines start each game afresh
// (new_game), so with one thread and a depth or node limit the pair is a function of its input.
template <class R>
std::array<Game<R>, 2> play_pair(search::Engine<R>& a, search::Engine<R>& b, const Position<R>& opening,
                                 const search::Limits& limits, int max_plies,
                                 PlayerStats* stats_a = nullptr, PlayerStats* stats_b = nullptr) {
    std::array<Game<R>, 2> pair;
    for (int i = 0; i < 2; ++i) {
        a.new_game();
        b.new_game();
        const Player<R> pa = engine_player(a, limits, stats_a);
        const Player<R> pb = engine_player(b, limits, stats_b);
        pair[std::size_t(i)] = play_game<R>(opening, i == 0 ? pa : pb, i == 0 ? pb : pa, max_plies);
    }
    return pair;
}

template <class R>
struct Opening {
    Position<R> position;
    std::string line;  // the moves from the start position, in long notation (or a ballot's name)
    int first_number = 1;  // the number of the move played from `position` (1 when unknown)
};

// The opening set: every position reached after `plies` plies from the start position, in move
// generation order (depth first, each position's moves in the order `generate` lists them), each
// distinct position once (the first line reaching it) and only positions where the side to move
// has a legal move. Two plies give 49 openings in the 8x8 variants here with seven first moves
// each way, and 81 in International.
template <class R>
std::vector<Opening<R>> opening_positions(int plies) {
    using G = typename R::Geometry;
    std::vector<Opening<R>> out;
    std::unordered_set<std::uint64_t> seen;
    std::function<void(const Position<R>&, int, const std::string&)> walk =
        [&](const Position<R>& p, int left, const std::string& line) {
            FixedList<PathMove<G>, kMaxMoves> list;
            generate_paths<R>(p, list);
            if (left == 0) {
                if (!list.empty() && seen.insert(position_key(p)).second)
                    out.push_back({p, line, move_number_after(plies)});
                return;
            }
            for (const auto& pm : list)
                walk(p.play(pm.move), left - 1,
                     line + (line.empty() ? "" : " ") + move_text<R>(pm));
        };
    walk(Position<R>::start(), plies, "");
    return out;
}

// The search switches a match side can set, by key, in the order the settings text lists them:
// lmr (late move reductions), threat (threat extension), staged (a quiet node's first move tried
// before generation), probcut, offer (late quiet moves that offer a capture not reduced), lmrlog
// (reductions growing with depth and move number), rfp (reverse futility pruning), partial (a cut
// iteration's better move played), time (the time for a move under a clock follows the search)
// iir (internal iterative reduction), ecache (the evaluation cache) and early (late move
// reductions at non-PV nodes from the second move). One table, so that the parser, its error
// message and the text cannot disagree.
struct TuningKey {
    const char* key;
    bool search::Tuning::*field;
};
inline constexpr TuningKey kTuningKeys[] = {
    {"lmr", &search::Tuning::late_move_reductions}, {"threat", &search::Tuning::threat_extension},
    {"staged", &search::Tuning::staged_quiet_moves}, {"probcut", &search::Tuning::probcut},
    {"offer", &search::Tuning::no_reduce_offers},    {"lmrlog", &search::Tuning::log_reductions},
    {"rfp", &search::Tuning::static_pruning},        {"partial", &search::Tuning::partial_iteration},
    {"time", &search::Tuning::adaptive_time}, {"iir", &search::Tuning::table_move_reduction},
    {"ecache", &search::Tuning::eval_cache}, {"early", &search::Tuning::early_reductions},
};

// Settings text: comma-separated key=value tokens, keys as kTuningKeys, values on and off.
// Starts from `base`; an empty text gives `base`.
// Throws std::invalid_argument naming the first bad token (and the keys, with `more_keys`: the
// caller's own settings read before).
inline search::Tuning parse_tuning(std::string_view text, search::Tuning base,
                                   std::string_view more_keys = {}) {
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string token(text.substr(start, comma - start));
        start = comma + 1;
        if (token.empty()) {
            if (text.empty()) break;
            throw std::invalid_argument("empty setting in '" + std::string(text) + "'");
        }
        const auto eq = token.find('=');
        const std::string key = token.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : token.substr(eq + 1);
        bool* target = nullptr;
        for (const TuningKey& k : kTuningKeys)
            if (key == k.key) target = &(base.*k.field);
        if (!target) {
            std::string keys;
            for (const TuningKey& k : kTuningKeys) {
                if (!keys.empty()) keys += ", ";
                keys += k.key;
            }
            if (!more_keys.empty()) keys += ", " + std::string(more_keys);
            throw std::invalid_argument("unknown setting '" + token + "' (keys: " + keys + ")");
        }
        if (value != "on" && value != "off")
            throw std::invalid_argument("bad value in setting '" + token + "' (want on or off)");
        *target = value == "on";
    }
    return base;
}

inline std::string tuning_text(const search::Tuning& t) {
    std::string text;
    for (const TuningKey& k : kTuningKeys) {
        if (!text.empty()) text += ',';
        text += k.key;
        text += t.*k.field ? "=on" : "=off";
    }
    return text;
}

// Score and Elo of A from wins, draws and losses.
struct EloEstimate {
    double score = 0.5;   // A's points per game
    double elo = 0;       // A minus B
    double margin = 0;    // half-width of the 95% interval of `elo`
    bool finite = false;  // false when the score is 0 or 1 (no finite estimate)
};

// The logistic model: a rating difference D gives the expected score s = 1 / (1 + 10^(-D/400)),
// so D = -400 log10(1/s - 1).
// The margin treats each game as an independent draw of 1, 1/2 or 0 (the trinomial model): with
// n games, the per-game variance of the points is
//     var = (W (1-s)^2 + D (1/2-s)^2 + L (0-s)^2) / n,
// the score's standard error se = sqrt(var / n), and its 95% half-width 1.96 se. It is carried
// over to Elo through the derivative of D(s):
//     dD/ds = 400 / (ln 10 * s (1-s)),   margin = 1.96 se * dD/ds.
namespace elo_detail {
// The estimate from samples of A's score per game: counts[k] samples scored k / (N - 1) (a game:
// 0, 1/2, 1; a pair, per game: 0, 1/4, ..., 1). The mean is the score s, the variance is that of
// the samples, and the margin is carried over to Elo as above; without spread (every sample
// alike) the margin is `no_spread`.
template <std::size_t N>
EloEstimate estimate(const std::array<int, N>& counts, double no_spread) {
    EloEstimate e;
    const auto x = [](std::size_t k) { return double(k) / double(N - 1); };
    double n = 0, points = 0;
    for (std::size_t k = 0; k < N; ++k) {
        n += counts[k];
        points += counts[k] * x(k);
    }
    if (n <= 0) return e;
    const double s = points / n;
    e.score = s;
    if (s <= 0 || s >= 1) return e;
    e.finite = true;
    e.elo = -400 * std::log10(1 / s - 1);
    double var = 0;
    for (std::size_t k = 0; k < N; ++k) var += counts[k] * (x(k) - s) * (x(k) - s);
    var /= n;
    if (var <= 1e-12) {
        e.margin = no_spread;
        return e;
    }
    const double se = std::sqrt(var / n);
    e.margin = 1.96 * se * 400 / (std::log(10.0) * s * (1 - s));
    return e;
}
}  // namespace elo_detail

// The games as samples of 0, 1/2 and 1; all draws give the margin 0.
inline EloEstimate elo_estimate(int wins, int draws, int losses) {
    return elo_detail::estimate<3>({losses, draws, wins}, 0);
}

// The same estimate from game pairs (the pentanomial model of fishtest and fastchess): a match
// plays each opening twice, colours reversed, so the two games of a pair are not independent (an
// opening that favours one colour gives each side one win). `pairs[k]` counts the pairs in which
// A scored k/2 points (0, 1/2, 1, 3/2, 2: LL, LD, DD or WL, WD, WW). With P pairs and the pair's
// score per game x_k = k/4, the mean s is the same as the games', the variance per pair is
//     var = sum_k pairs[k] (x_k - s)^2 / P,
// se = sqrt(var / P), and the margin is carried over to Elo as in elo_estimate. Usually narrower
// than the trinomial margin, which counts a pair's correlated games as two independent ones.
// With every pair in one bin the margin is infinite (no spread seen, nothing known of it).
inline EloEstimate elo_estimate_pairs(const std::array<int, 5>& pairs) {
    // Every pair alike (two identical engines at a fixed depth score 1 point in each): no spread
    // to measure, not a certain Elo.
    return elo_detail::estimate(pairs, std::numeric_limits<double>::infinity());
}

// One game in PDN, through the PDN writer (pdn/writer.hpp): the tags, then the moves from the
// opening (FEN), numbered from `first_number` (the FEN's F field when above 1) and the opening's
// side to move, captures in short notation unless that is ambiguous, ending with the result; a
// comment says why the game ended. `opening`, when not empty, names the opening in a tag of that
// name (a ballot's name, or the moves that led to it).
template <class R>
std::string pdn_game(const Game<R>& g, const std::string& event, const std::string& round,
                     const std::string& white, const std::string& black, int first_number = 1,
                     std::string_view opening = {}) {
    using G = typename R::Geometry;
    std::string s = pdn::tag_line("Event", event) + pdn::tag_line("Round", round) +
                    pdn::tag_line("White", white) + pdn::tag_line("Black", black) +
                    pdn::tag_line("Result", g.result_text());
    if constexpr (requires { R::kPdnGameType; })
        s += pdn::tag_line("GameType", std::to_string(R::kPdnGameType));
    if (!opening.empty()) s += pdn::tag_line("Opening", opening);
    s += pdn::tag_line("SetUp", "1") +
         pdn::tag_line("FEN", to_fen<R>(g.opening) +
                                  (first_number > 1 ? ":F" + std::to_string(first_number) : ""));
    std::vector<std::string> moves;
    Position<R> p = g.opening;
    for (std::size_t i = 0; i < g.moves.size(); ++i) {
        FixedList<PathMove<G>, kMaxMoves> list;
        generate_paths<R>(p, list);
        const auto it = std::find_if(list.begin(), list.end(),
                                     [&](const PathMove<G>& pm) { return pm.move == g.moves[i]; });
        moves.push_back(it != list.end() ? pdn::pdn_move_text<R>(p, *it) : g.move_texts[i]);
        p = p.play(g.moves[i]);
    }
    return s + "\n" +
           pdn::movetext(moves, g.opening.side == R::kFirstMover, g.result_text(),
                         g.ending_text(), pdn::MoveComments{}, first_number) +
           "\n\n";
}

}  // namespace dambit::play
