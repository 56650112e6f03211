// The search of one thread: iterative deepening with aspiration windows, principal variation search
// and a quiescence search that plays out the compulsory captures.
//
// Several workers search the same root at once and share only the transposition table and the stop
// flag (the "lazy" parallel search): what one thread stores, the others find.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "core/key.hpp"
#include "core/movegen.hpp"
#include "egtb/tables.hpp"
#include "search/draw.hpp"
#include "search/eval.hpp"
#include "search/learned_eval.hpp"
#include "search/limits.hpp"
#include "search/node_moves.hpp"
#include "search/score.hpp"
#include "search/search_key.hpp"
#include "search/tt.hpp"
#include "search/tuning.hpp"

namespace dambit::search {

using Clock = std::chrono::steady_clock;

template <class R>
class Worker;

// The late move reduction of Tuning::log_reductions for a late quiet move at `depth` plies from
// the horizon after `searched` moves: ln(depth) ln(searched) / 1.75 rounded up from three
// quarters, at least one ply, one less at a PV node (at depth 10 after 10 moves: 3 plies, 2 at a
// PV node). Depths and counts above 63 read row 63. The divisor: 2.25, 1.75 and 1.25 were tried
// (docs/performance.md, "Deeper late move reductions").
struct LogReductions {
    std::array<std::array<std::array<std::int8_t, 64>, 64>, 2> plies{};  // [pv][depth][searched]
    static LogReductions make();
    int operator()(bool pv, int depth, int searched) const {
        return plies[pv][std::min(depth, 63)][std::min(searched, 63)];
    }
};
inline LogReductions LogReductions::make() {
    LogReductions t;
    for (int d = 1; d < 64; ++d)
        for (int m = 1; m < 64; ++m) {
            const int r = std::max(1, int(0.75 + std::log(double(d)) * std::log(double(m)) / 1.75));
            t.plies[0][d][m] = std::int8_t(r);
            t.plies[1][d][m] = std::int8_t(std::max(1, r - 1));
        }
    return t;
}
inline const LogReductions kLogReductions = LogReductions::make();

// What all workers of one search share.
template <class R>
struct Shared {
    TranspositionTable* table = nullptr;
    const Evaluator<R>* eval = nullptr;
    // `eval` when it is the hand-made evaluation (a final class): then called directly, which
    // lets the compiler inline it into the quiescence search.
    const HandEvaluator<R>* hand_eval = nullptr;
    const LearnedEvaluator<R>* learned_eval = nullptr;  // the same for the learned evaluation
    Tuning tuning;
    Limits limits;
    Clock::time_point start;
    std::int64_t soft_ms = 0;  // no new iteration after this (0 = none)
    std::int64_t hard_ms = 0;  // stop at once after this (0 = none)
    std::atomic<bool> stop{false};
    // The main worker has completed its first iteration (so the search has a move): helpers
    // start then, and from then on they too stop the search at hard_ms. With more threads than
    // cores, a main worker sharing them with every helper took a second for its first ply.
    std::atomic<bool> first_done{false};
    // A stop request of the caller's own (Engine::Callbacks::stop_flag), polled with the limits:
    // unlike Engine::stop(), it cannot be lost by arriving before the search has started.
    const std::atomic<bool>* external_stop = nullptr;
    std::vector<std::uint64_t> history;  // keys of the game's positions before the root, in order
    DrawCounters root_counters;
    std::vector<Worker<R>*> workers;
    // Endgame tables: positions of up to `table_pieces` pieces are probed (0: none).
    egtb::Tables<R>* tables = nullptr;
    int table_pieces = 0;

    std::int64_t elapsed_ms() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    }
    std::uint64_t total_nodes() const;
};

template <class R>
class Worker {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using M = Move<G>;
    // A move's ordering score times 1024 plus 1023 minus its generation index: all keys of a list
    // differ, and the larger of two equal scores belongs to the move generated first. The keys
    // are 32 bits, so that a vector compares twice as many at once (sort_rest): the scores stay
    // within +-2^21 (the kScore* tiers below).
    using SortKey = std::int32_t;
    static constexpr int kIndexMask = 1023;
    static_assert(kMaxMoves <= kIndexMask + 1);
    // Ordering tiers, each above everything in the tiers below: history scores (quiet moves)
    // stay within +-16384; captures are ranked among themselves (kScoreCapture plus at most
    // 4096 * 20 + 256 * 20 + 1024, on 10x10) and never share a list with quiet moves.
    static constexpr int kScoreKiller = 1 << 16;
    static constexpr int kScorePromotion = 1 << 17;
    static constexpr int kScoreCapture = 1 << 18;
    static constexpr int kScoreTable = 1 << 19;
    static_assert(kScoreCapture + 4096 * 20 + 256 * 20 + 1024 < kScoreTable);
    static_assert(std::int64_t(kScoreTable) * (kIndexMask + 1) + kIndexMask <=
                  std::numeric_limits<SortKey>::max());
    // ProbCut's margin (nine tenths of a man) and the pieces below which it applies: fewer than
    // 32 of the 40 on 10x10, as Moby Dam; on 8x8, where it is off by default, fewer than 16 of
    // the 24 (the value the 8x8 matches above used).
    static constexpr Score kProbCutMargin = 90;
    static constexpr int kProbCutPieces = G::kSize == 8 ? 16 : 32;
    static constexpr int kStaticPruneDepth = 3;
    static constexpr Score kStaticPruneMargin = 50;

public:
    Worker(Shared<R>& shared, int id) : s_(shared), id_(id) { reset_history(); }

    // Forgets the move-ordering statistics (a new game).
    void reset_history() {
        for (auto& side : history_)
            for (auto& from : side) from.fill(0);
        for (auto& k : killers_) k[0] = k[1] = M{};
    }

    // Forgets the cached static scores (the evaluation changed).
    void clear_eval_cache() { std::fill(eval_cache_.begin(), eval_cache_.end(), 0); }

    // Iterative deepening from `root`; the main worker (id 0) also reports and decides when to
    // stop.
    template <class Report>
    void run(const Position<R>& root, Report&& report);

    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    const Result<G>& result() const { return result_; }

private:
    struct RootMove {
        M move;
        Score score = -kInfinite;  // this iteration's score if it raised alpha, else -infinite
        std::vector<M> pv;         // with several lines (Limits::multipv): this move's line
    };

    // Searches the root moves from index `first` on (the ones before are the better lines of
    // this iteration, with several lines); the best of them ends at index `first`.
    Score root_search(const Position<R>& root, int depth, Score alpha, Score beta,
                      std::size_t first = 0);
    // A node `depth` plies above the horizon. Most children of a node one ply above it go straight
    // to the quiescence search: that step is inlined into the caller, the rest is interior().
    [[gnu::always_inline]] Score pvs(const Position<R>& p, int ply, int depth, Score alpha,
                                     Score beta, DrawCounters dc, bool pv_node,
                                     std::uint64_t key = 0) {
        if (depth > 0) return interior(p, ply, depth, alpha, beta, dc, pv_node, key);
        ++leaves_, leaf_plies_ += std::uint64_t(ply);
        // A leaf the move-count rules have drawn is a draw, whatever the capture search below
        // would find (it has no counters).
        if (!counters_below_every_rule(dc)) [[unlikely]]
            if (drawn_by_counters(p, dc) && has_move(p)) {
                pv_length_[ply] = ply;  // the line ends here (else a stale line of this ply)
                return kDraw;
            }
        if (!s_.tuning.threat_extension) return qsearch(p, ply, alpha, beta, dc);
        return horizon(p, ply, depth, alpha, beta, dc, pv_node);
    }
    Score horizon(const Position<R>& p, int ply, int depth, Score alpha, Score beta,
                  DrawCounters dc, bool pv_node);
    Score interior(const Position<R>& p, int ply, int depth, Score alpha, Score beta,
                   DrawCounters dc, bool pv_node, std::uint64_t key);
    // The key of a child about to be searched at `depth`, with its table bucket already on its way
    // into the cache; 0 for a child that goes straight to the quiescence search (no key needed).
    std::uint64_t child_key(const Position<R>& child, int depth) const {
        if (depth <= 0) return 0;
        const std::uint64_t k = search_key(child);
        s_.table->prefetch(k);
        return k;
    }
    // `can_capture`: whether the side to move has a capture, when the caller knows (else -1).
    // `dc`: the draw counters, which decide whether a table's result comes in time.
    Score qsearch(const Position<R>& p, int ply, Score alpha, Score beta, DrawCounters dc,
                  int can_capture = -1);
    template <Color Us>
    Score qsearch_moves(const Position<R>& p, int ply, Score alpha, Score beta, DrawCounters dc,
                        int can_capture);

    bool repeated(int ply, std::uint64_t key, const DrawCounters& dc) const;
    // The generation index of the table's move in `list`, or -1.
    static int table_index(std::uint16_t table_move, const MoveList<G>& list) {
        if (table_move & kQuietCode) {
            for (int i = 0; i < list.size(); ++i)
                if (code(i, list[i]) == table_move) return i;
            return -1;
        }
        const int t = (table_move & kIndexMask) - 1;
        return t >= 0 && t < list.size() && code(t, list[t]) == table_move ? t : -1;
    }
    // Whether the table's move code is a quiet move of the side to move in `p`, a position
    // without a capture; the move in `m`.
    static bool quiet_move(const Position<R>& p, std::uint16_t table_move, M& m) {
        if (!(table_move & kQuietCode)) return false;
        const int from = table_move & 63, to = (table_move >> 6) & 63;
        if (from >= G::kBits || to >= G::kBits) return false;
        return p.side == Color::kWhite ? quiet_move_at<Color::kWhite>(p, from, to, m)
                                       : quiet_move_at<Color::kBlack>(p, from, to, m);
    }
    // Whether side Us (without a capture) has a quiet move from bit `from` to bit `to`; the move
    // in `m`, as the generator makes it.
    template <Color Us>
    static bool quiet_move_at(const Position<R>& p, int from, int to, M& m) {
        using S = detail::Side<R, Us>;
        const B f = bit<B>(from), t = bit<B>(to);
        if (!(p.pieces[int(Us)] & f) || !(p.empty() & t)) return false;
        M q;
        q.from = std::uint8_t(from);
        q.to = std::uint8_t(to);
        if (p.kings & f) {
            if (!(detail::king_reach<R>(f, p.empty()).merged() & t)) return false;
            q.flags = M::kKingMoves;
        } else {
            if (!(B(G::template step<S::kLeft>(f) | G::template step<S::kRight>(f)) & t))
                return false;
            q.flags = (t & S::kPromotion) ? M::kPromotes : 0;
        }
        m = q;
        return true;
    }
    static constexpr SortKey kNoKey = std::numeric_limits<SortKey>::min();
    // The sort key of the move at generation index i with score k.
    static SortKey sort_key(int k, int i) {
        return SortKey(k) * (kIndexMask + 1) + (kIndexMask - i);
    }
    // The two largest keys (the second is kNoKey for a list of one move).
    struct TopTwo {
        SortKey first = kNoKey, second = kNoKey;
        void add(SortKey key) {
            second = std::max(second, std::min(first, key));
            first = std::max(first, key);
        }
    };
    TopTwo score_moves(const Position<R>& p, int ply, int table_index, const MoveList<G>& list,
                       SortKey* keys) const;
    // The table's move, at generation index `t` (or none for -1), goes first.
    static TopTwo put_table_move_first(int t, TopTwo top, SortKey* keys) {
        if (t < 0) return top;
        const SortKey key = sort_key(kScoreTable, t);
        if (index_of(top.first) != t) top.second = top.first;
        top.first = keys[t] = key;
        return top;
    }
    // Scores quiet moves by promotion, killers and history, one at a time (while a quiet list is
    // generated) and keeps the two best keys.
    class QuietScorer;
    // Generates the quiet moves, scores them and returns the two best keys, with the generator
    // compiled into it (flatten): then the sink's count and best keys stay in registers instead
    // of going through memory at each move.
    template <Color Us>
    [[gnu::flatten]] TopTwo generate_quiet_scored(const Position<R>& p, int ply,
                                                  MoveList<G>& list, SortKey* keys) const;
    // What a node without a capture knows before it generates its moves.
    struct QuietStart {
        int count = 0;            // its number of moves (counted without generating them when a
                                  // killer is to be tried first)
        bool has_killer = false;  // whether a killer is a move here and goes first when the
        M killer{};               // table has no move (no promotion goes before it)
        bool generated = false;   // else the moves are generated and scored at once
        TopTwo top;               // then the two best keys
    };
    // For a node with a capture, generates its moves (the captures) and returns true; else fills
    // `quiet`, and generates the moves unless a killer is to be tried first.
    template <Color Us>
    bool start_node(const Position<R>& p, int ply, MoveList<G>& list, SortKey* keys,
                    QuietStart& quiet) const;
    static void sort_rest(SortKey* keys, int from, int n);
    // The generation-order index of a move, kept in the low bits of its sort key.
    static int index_of(SortKey k) { return kIndexMask - int(k & kIndexMask); }
    void update_pv(int ply, const M& m) {
        pv_[ply][ply] = m;
        for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
        pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
    }
    // The time after which no new iteration starts: adapted_soft_ms under a clock with
    // Tuning::adaptive_time, else the planned time (a fixed move time; 0, no limit, without a
    // clock or a move time: set_time).
    std::int64_t soft_limit(double changes, int fall) const {
        if (!s_.tuning.adaptive_time || s_.limits.movetime_ms || !s_.soft_ms) return s_.soft_ms;
        return adapted_soft_ms(s_.soft_ms, s_.hard_ms, changes, fall);
    }
    void count_node(int ply);
    [[gnu::noinline]] void check_limits();
    static constexpr std::uint64_t kCheckInterval = 1024;
    bool stopped() const { return s_.stop.load(std::memory_order_relaxed); }
    Score static_score(const Position<R>& p) const {
        if (s_.hand_eval) return s_.hand_eval->evaluate(p);
        return s_.learned_eval ? s_.learned_eval->evaluate(p) : s_.eval->evaluate(p);
    }
    // The static score, through this worker's evaluation cache (Tuning::eval_cache): an entry
    // holds the top 48 bits of the position's key and the score in the low 16, so a hit returns
    // exactly what the evaluation would (but for a 48-bit key collision).
    Score evaluate(const Position<R>& p) {
        if (!s_.tuning.eval_cache) return static_score(p);
        const std::uint64_t key = search_key(p);
        std::uint64_t& slot = eval_cache_[key & (kEvalCacheSize - 1)];
        if ((slot ^ key) >> 16 == 0) return Score(std::int16_t(slot & 0xFFFF));
        const Score s = static_score(p);
        if (s >= -32768 && s <= 32767)
            slot = (key & ~std::uint64_t(0xFFFF)) | std::uint16_t(std::int16_t(s));
        return s;
    }
    // Whether p is inside the endgame tables (the caller knows it has no capture to make). A
    // side with no piece left is not: the search's own no-move rule scores it.
    bool in_tables(const Position<R>& p) const {
        return s_.table_pieces && popcount(p.occupied()) <= s_.table_pieces && p.us() && p.them();
    }
    // A proven line that ends inside the endgame tables goes on there to the end of the game:
    // the search stops at the first position whose value the tables know, so a search from an
    // ending said `win 19` with a line of one move. Each move is one the tables keep the value
    // with (the winner's shortest win, the loser's longest loss), while the tables have
    // distances (a few hundred probes of blocks the search has just read).
    void extend_in_tables(const Position<R>& root, std::vector<M>& pv) const {
        if (!s_.table_pieces) return;
        Position<R> p = root;
        for (const M& m : pv) p = p.play(m);
        while (pv.size() < std::size_t(2 * kMaxPly) && in_tables(p)) {
            const egtb::Value v = s_.tables->probe(p);
            if (v.outcome == egtb::Outcome::kDraw || !v.known_distance() || v.plies == 0) break;
            MoveList<G> list;
            generate<R>(p, list);
            int next = -1;
            for (int i = 0; i < list.size() && next < 0; ++i)
                if (s_.tables->probe(p.play(list[i])).parent() == v) next = i;
            if (next < 0) break;
            pv.push_back(list[next]);
            p = p.play(list[next]);
        }
    }
    // The tables' value of p (no capture to make) as a score at `ply`: a proven result, by
    // distance from the root where the table has distances.
    Score table_score(const Position<R>& p, int ply) const {
        const egtb::Value v = s_.tables->stored(p);
        if (v.outcome == egtb::Outcome::kDraw) return kDraw;
        const bool win = v.outcome == egtb::Outcome::kWin;
        if (v.known_distance() && ply + v.plies <= 2 * kMaxPly)
            return win ? win_in(ply + v.plies) : loss_in(ply + v.plies);
        return win ? kTableWin - ply : -(kTableWin - ply);
    }
    // Whether the tables' score `t` (table_score at `ply`) holds under the move-count rules, which
    // leave `left` plies (plies_to_counter_draw): the tables ignore them (their values are
    // game-theoretic), so a result the table reaches in more plies than that may be a draw; the
    // search goes on from such a node instead, and the rules decide. A draw, or a result without
    // a known distance, is taken.
    static bool table_in_time(Score t, int ply, int left) {
        return !is_decisive(t) || plies_to_end(t) - ply <= left;
    }
    void reward(const Position<R>& p, int ply, const M& m, int depth, const MoveList<G>& list,
                const SortKey* order, int tried_count);

    // The table's move code. A quiet move is its squares (and the quiet bit), which a node checks
    // against its position without generating its moves; a capture is its index in generation
    // order (deterministic for a position) plus five bits of its from-square as a check.
    static constexpr std::uint16_t kQuietCode = 0x8000;
    static_assert(G::kBits <= 64);
    static std::uint16_t code(int index, const M& m) {
        if (!m.is_capture()) return std::uint16_t(kQuietCode | m.from | m.to << 6);
        return std::uint16_t((index + 1) | (int(m.from) & 31) << 10);
    }

    Shared<R>& s_;
    const int id_;
    std::atomic<std::uint64_t> nodes_{0};
    std::uint64_t local_nodes_ = 0;  // published to nodes_ by check_limits and each iteration
    std::uint64_t next_check_ = 0;   // the node count at which check_limits runs next
    int seldepth_ = 0;
    std::uint64_t leaves_ = 0, leaf_plies_ = 0;  // this iteration's leaves and their plies
    int root_depth_ = 0;
    Result<G> result_;
    std::vector<RootMove> root_moves_;
    std::vector<std::uint64_t> keys_;  // game history, then one key per ply of the current line
    std::size_t base_ = 0;             // index of the root in keys_
    std::vector<MoveList<G>> lists_ = std::vector<MoveList<G>>(kMaxPly + 1);
    // Per ply: the sort key of each move, which also holds its generation-order index.
    std::vector<std::array<SortKey, kMaxMoves>> sort_keys_ =
        std::vector<std::array<SortKey, kMaxMoves>>(kMaxPly + 1);
    std::array<std::array<M, 2>, kMaxPly + 1> killers_{};
    // Per side, from-square and to-square. The values stay within +-16384 (see reward), so 16
    // bits hold them, and the table takes half the cache it would as ints.
    std::array<std::array<std::array<std::int16_t, G::kBits>, G::kBits>, 2> history_{};
    std::array<std::array<M, kMaxPly + 1>, kMaxPly + 1> pv_{};
    std::array<int, kMaxPly + 2> pv_length_{};
    static constexpr std::size_t kEvalCacheSize = std::size_t(1) << 14;
    std::vector<std::uint64_t> eval_cache_ = std::vector<std::uint64_t>(kEvalCacheSize, 0);
};

template <class R>
std::uint64_t Shared<R>::total_nodes() const {
    std::uint64_t n = 0;
    for (const Worker<R>* w : workers) n += w->nodes();
    return n;
}

template <class R>
void Worker<R>::count_node(int ply) {
    ++local_nodes_;
    if (ply > seldepth_) seldepth_ = ply;
    if (local_nodes_ >= next_check_) [[unlikely]]
        check_limits();
}

// Publishes the node count and, in the main worker, enforces the limits. Runs at most every
// kCheckInterval nodes, and exactly at the node where a one-thread search reaches its node limit,
// so that a search by nodes stops at the same node every run.
template <class R>
void Worker<R>::check_limits() {
    nodes_.store(local_nodes_, std::memory_order_relaxed);
    std::uint64_t step = kCheckInterval;
    if (id_ == 0 && s_.external_stop && s_.external_stop->load(std::memory_order_relaxed))
        s_.stop.store(true, std::memory_order_relaxed);
    if (id_ == 0) {
        // The time is a hard limit from the first iteration on (twenty kings a side took 1.5 s
        // over 100 ms at depth 1): stopped there, the best root move searched so far, or the
        // first in order, is played. The node limit applies from the second iteration on (a
        // search of a few nodes plays a move of a whole first iteration, the same on every run).
        if (root_depth_ >= 1 && s_.hard_ms && s_.elapsed_ms() >= s_.hard_ms)
            s_.stop.store(true, std::memory_order_relaxed);
        if (s_.limits.nodes && root_depth_ <= 1) {
            step = 1;
        } else if (s_.limits.nodes) {
            const std::uint64_t total = s_.total_nodes();
            if (total >= s_.limits.nodes)
                s_.stop.store(true, std::memory_order_relaxed);
            else
                step = std::min(step, s_.limits.nodes - total);
        }
    } else if (id_ != 0 && s_.hard_ms && s_.first_done.load(std::memory_order_relaxed) &&
               s_.elapsed_ms() >= s_.hard_ms) {
        s_.stop.store(true, std::memory_order_relaxed);  // the main worker may wait for a core
    }
    next_check_ = local_nodes_ + step;
}

// A position seen before in this line with the same side to move: drawn inside the search (the
// side that repeats could repeat again), and at the third occurrence when the earlier ones were
// played in the game. Only plies since the last man move or capture can repeat.
template <class R>
bool Worker<R>::repeated(int ply, std::uint64_t key, const DrawCounters& dc) const {
    const std::size_t here = base_ + std::size_t(ply);
    int in_game = 0;
    for (std::size_t back = 4; back <= dc.kings_only && back <= here; back += 2) {
        const std::size_t i = here - back;
        if (keys_[i] != key) continue;
        if (i >= base_) return true;
        if (++in_game == 2) return true;
    }
    return false;
}

template <class R>
class Worker<R>::QuietScorer {
public:
    QuietScorer(const Worker& w, const Position<R>& p, int ply, SortKey* keys)
        : history_(w.history_[int(p.side)]),
          killer0_(quiet_id(w.killers_[ply][0])),
          killer1_(quiet_id(w.killers_[ply][1])),
          keys_(keys) {}

    // The key of move `m`, at generation index `i`.
    void score(int i, const M& m) {
        const int id = quiet_id(m);
        const int k = m.promotes()     ? kScorePromotion
                      : id == killer0_ ? kScoreKiller + 1
                      : id == killer1_ ? kScoreKiller
                                       : int(history_[m.from][m.to]);
        keys_[i] = sort_key(k, i);
        top_.add(keys_[i]);
    }
    TopTwo top() const { return top_; }

private:
    // Killers are quiet moves, so from, to and flags identify one (an empty killer packs to 0,
    // which no move does).
    static int quiet_id(const M& m) { return int(m.from) | int(m.to) << 8 | int(m.flags) << 16; }

    const std::array<std::array<std::int16_t, G::kBits>, G::kBits>& history_;
    const int killer0_, killer1_;
    SortKey* const keys_;
    TopTwo top_;
};

template <class R>
template <Color Us>
bool Worker<R>::start_node(const Position<R>& p, int ply, MoveList<G>& list, SortKey* keys,
                           QuietStart& quiet) const {
    const NodeMoves<R, Us> moves(p);
    if (moves.must_capture()) {
        moves.generate(list);
        return true;
    }
    using S = detail::Side<R, Us>;
    const B men = p.pieces[int(Us)] & ~p.kings;
    // A promotion goes before the killers.
    if (s_.tuning.staged_quiet_moves &&
        !(B(G::template step<S::kLeft>(men) | G::template step<S::kRight>(men)) & p.empty() &
          S::kPromotion)) {
        for (const M& k : killers_[ply]) {
            M m;
            if (quiet_move_at<Us>(p, k.from, k.to, m) && m.flags == k.flags) {
                quiet.count = detail::count_quiet<R, Us>(p);
                quiet.has_killer = true;
                quiet.killer = m;
                return false;
            }
        }
    }
    // No killer to try: the moves are needed, and generating them now hides the table's wait.
    quiet.top = generate_quiet_scored<Us>(p, ply, list, keys);
    quiet.count = list.size();
    quiet.generated = true;
    return false;
}

template <class R>
template <Color Us>
typename Worker<R>::TopTwo Worker<R>::generate_quiet_scored(const Position<R>& p, int ply,
                                                            MoveList<G>& list,
                                                            SortKey* keys) const {
    // The generator's sink: keeps each move, in generation order, and scores it. The moves are
    // written straight into the list's storage, which has room: every quiet move ends on an empty
    // square, reached from one of four directions by at most one piece each, so a position has
    // fewer than 4 * 50 quiet moves.
    static_assert(4 * G::kSquares <= kMaxMoves);
    struct Sink {
        M* out;
        int n;
        QuietScorer scorer;
        bool empty() const { return n == 0; }
        void add(const M& m, const std::uint8_t*, int) {
            out[n] = m;
            scorer.score(n, m);
            ++n;
        }
    } sink{list.begin(), 0, QuietScorer(*this, p, ply, keys)};
    detail::generate_quiet<R, Us>(p, sink);
    list.set_size(sink.n);
    return sink.scorer.top();
}

// Scores every move and returns the two best keys, found on the way (a cut-off usually comes at
// the first move, and the second is known while the first is searched, to load its table bucket
// ahead). All moves of a list are captures or none is (captures are compulsory).
template <class R>
typename Worker<R>::TopTwo Worker<R>::score_moves(const Position<R>& p, int ply, int table_index,
                                                  const MoveList<G>& list, SortKey* keys) const {
    const int n = list.size();
    TopTwo top;
    if (n > 0 && list[0].is_capture()) {
        // Take kings first, then promote; more pieces first where the rules leave a choice.
        for (int i = 0; i < n; ++i) {
            const M& m = list[i];
            const int k = kScoreCapture + 4096 * popcount(B(m.captured & p.kings)) +
                          256 * popcount(m.captured) + (m.promotes() ? 1024 : 0);
            keys[i] = sort_key(k, i);
            top.add(keys[i]);
        }
    } else {
        QuietScorer scorer(*this, p, ply, keys);
        for (int i = 0; i < n; ++i) scorer.score(i, list[i]);
        top = scorer.top();
    }
    return put_table_move_first(table_index, top, keys);
}

// Sorts keys[from, n) into descending order. The moves stay in generation order; the keys (which
// hold their indices) are what is sorted, and as all keys differ, any way of sorting gives the
// same order. Once the first two moves failed, the rest are sorted at once, which measured faster
// than picking them one at a time.
template <class R>
void Worker<R>::sort_rest(SortKey* keys, int from, int n) {
    SortKey* const k = keys + from;
    const int m = n - from;
    constexpr int kRankMax = 32;
    if (m <= kRankMax) {
        // By rank: each key goes where the number of larger keys puts it. The compares have no
        // branch to mispredict (an insertion sort of a dozen keys mispredicted at almost every
        // key). Each key is compared with all 32 slots at once, a fixed width the compiler keeps
        // in vector registers with no sum across lanes; the slots past the list are padding whose
        // ranks are not used.
        SortKey pad[kRankMax];
        for (int j = 0; j < kRankMax; ++j) pad[j] = j < m ? k[j] : 0;
        std::int32_t rank[kRankMax] = {};
        for (int i = 0; i < m; ++i) {
            const SortKey ki = k[i];
            for (int j = 0; j < kRankMax; ++j) rank[j] += ki > pad[j];
        }
        for (int j = 0; j < m; ++j) k[rank[j]] = pad[j];
        return;
    }
    // Insertion sort: long lists are rare.
    for (int j = 1; j < m; ++j) {
        const SortKey key = k[j];
        int h = j;
        for (; h > 0 && k[h - 1] < key; --h) k[h] = k[h - 1];
        k[h] = key;
    }
}

// A quiet move that caused a cut-off becomes a killer and gains history; the quiet moves tried
// before it lose history.
template <class R>
void Worker<R>::reward(const Position<R>& p, int ply, const M& m, int depth,
                       const MoveList<G>& list, const SortKey* order, int tried_count) {
    if (m.is_capture()) return;
    if (!(m == killers_[ply][0])) {
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = m;
    }
    const int side = int(p.side);
    const int bonus = std::min(depth * depth, 400);
    auto adjust = [&](const M& x, int b) {
        std::int16_t& h = history_[side][x.from][x.to];
        h = std::int16_t(h + b - h * std::abs(b) / 16384);  // stays within +-16384
    };
    adjust(m, bonus);
    for (int i = 0; i < tried_count; ++i) {
        const M& x = list[index_of(order[i])];
        if (!x.is_capture() && !(x == m)) adjust(x, -bonus);
    }
}

template <class R>
Score Worker<R>::qsearch(const Position<R>& p, int ply, Score alpha, Score beta, DrawCounters dc,
                         int can_capture) {
    count_node(ply);
    pv_length_[ply] = ply;
    if (ply >= kMaxPly - 1) return evaluate(p);
    return p.side == Color::kWhite
               ? qsearch_moves<Color::kWhite>(p, ply, alpha, beta, dc, can_capture)
               : qsearch_moves<Color::kBlack>(p, ply, alpha, beta, dc, can_capture);
}

template <class R>
template <Color Us>
Score Worker<R>::qsearch_moves(const Position<R>& p, int ply, Score alpha, Score beta,
                               DrawCounters dc, int can_capture) {
    if (can_capture != 0) {
        // Captures are compulsory: a position with one to make is never judged statically.
        const NodeMoves<R, Us> moves(p);
        if (moves.must_capture()) {
            MoveList<G>& list = lists_[ply];
            moves.generate(list);
            Score best = -kInfinite;
            for (int i = 0; i < list.size(); ++i) {
                // (The counters matter only to the tables' results.)
                const Score s = -qsearch(p.play(list[i]), ply + 1, -beta, -alpha,
                                         s_.table_pieces ? dc.after(p, list[i]) : dc);
                if (stopped()) return 0;
                if (s > best) {
                    best = s;
                    if (s > alpha) {
                        alpha = s;
                        update_pv(ply, list[i]);
                        if (s >= beta) break;
                    }
                }
            }
            return best;
        }
    }
    // A table's result, when it comes before the move-count rules could draw the game (as in
    // interior(), step 3b); else a draw when they have (as in step 3), or the static score for
    // the search the rules would decide.
    if (in_tables(p)) {
        const Score t = table_score(p, ply);
        const int left = plies_to_counter_draw(p, dc);
        if (table_in_time(t, ply, left)) return t;
        if (left <= 0) return NodeMoves<R, Us>::has_quiet_move(p) ? kDraw : loss_in(ply);
    }
    if (!NodeMoves<R, Us>::has_quiet_move(p)) return loss_in(ply);
    return evaluate(p);
}

// Step 1. At the horizon: one more ply when the opponent threatens a capture the static score
// cannot see, else the quiescence search.
template <class R>
Score Worker<R>::horizon(const Position<R>& p, int ply, int depth, Score alpha, Score beta,
                         DrawCounters dc, bool pv_node) {
    int can_capture = -1;  // known here, so that the quiescence search need not look again
    if (depth == 0 && ply < 2 * root_depth_) {
        can_capture = has_capture(p);
        if (!can_capture && opponent_has_capture(p))
            return interior(p, ply, 1, alpha, beta, dc, pv_node, 0);
    }
    return qsearch(p, ply, alpha, beta, dc, can_capture);
}

template <class R>
Score Worker<R>::interior(const Position<R>& p, int ply, int depth, Score alpha, Score beta,
                          DrawCounters dc, bool pv_node, std::uint64_t key) {
    // Step 2. Count the node, watch the limits.
    count_node(ply);
    pv_length_[ply] = ply;
    if (stopped()) return 0;

    // Step 3. Draws: repetition and the move-count rules (RULES.md §5). A side that has no legal
    // move has lost whatever the counters say.
    if (!key) key = search_key(p);
    keys_[base_ + ply] = key;
    if (repeated(ply, key, dc)) return kDraw;
    const int left = plies_to_counter_draw(p, dc);
    if (left <= 0 && has_move(p)) return kDraw;  // drawn_by_counters, with `left` kept for 3b
    if (ply >= kMaxPly - 1)
        return has_capture(p) ? qsearch(p, ply, alpha, beta, dc) : evaluate(p);
    // Step 3b. Inside the endgame tables, a position with no capture to make is a proven result,
    // unless the move-count rules may come first.
    if (in_tables(p) && !has_capture(p)) {
        const Score t = table_score(p, ply);
        if (table_in_time(t, ply, left)) return t;
    }

    // Step 4. Mate distance pruning: no line from here ends sooner than the next ply.
    const Score alpha0 = alpha;
    alpha = std::max(alpha, loss_in(ply));
    beta = std::min(beta, win_in(ply + 1));
    if (alpha >= beta) return alpha;

    // Step 5. The moves. Captures are compulsory, so a node that can capture has only captures:
    // they are generated now, before the table is read, and the generation hides most of the
    // wait for the bucket the parent started loading. A node without a capture counts its moves
    // and finds which killer it could try first; its moves are generated only if the first one
    // tried does not end the node (see step 8).
    MoveList<G>& list = lists_[ply];
    SortKey* const keys = sort_keys_[ply].data();
    QuietStart quiet;
    // (ProbCut, step 6b, starts the node a second time.)
    const auto start = [&]() __attribute__((always_inline)) {
        return p.side == Color::kWhite ? start_node<Color::kWhite>(p, ply, list, keys, quiet)
                                       : start_node<Color::kBlack>(p, ply, list, keys, quiet);
    };
    const bool captures = start();

    const int move_count = captures ? list.size() : quiet.count;
    // Step 7. A forced move (often a compulsory capture) costs no depth.
    const int extension = move_count == 1 && ply < 2 * root_depth_ ? 1 : 0;
    int new_depth = depth - 1 + extension;
    // The killer's child is likely the first searched: its table bucket starts loading now, with
    // this node's own.
    std::uint64_t killer_key = 0;
    if (quiet.has_killer) killer_key = child_key(p.play(quiet.killer), new_depth);

    // Step 6. The transposition table: a deep enough bound ends a non-PV node at once. Then no
    // move left is a loss.
    TableData entry;
    const bool hit = s_.table->probe(key, entry);
    if (hit && !pv_node && entry.depth >= depth) {
        const Score ts = from_table(entry.score, ply);
        if (entry.bound == Bound::kExact || (entry.bound == Bound::kLower && ts >= beta) ||
            (entry.bound == Bound::kUpper && ts <= alpha))
            return ts;
    }
    if (move_count == 0) return loss_in(ply);

    // Step 6a. Reverse futility pruning (Tuning::static_pruning): near the horizon, a position
    // where neither side can take (the static score sees no shot coming) and whose static score
    // beats beta by kStaticPruneMargin a ply is cut with that score.
    if (s_.tuning.static_pruning && !pv_node && !captures && depth <= kStaticPruneDepth &&
        !is_decisive(beta) && !opponent_has_capture(p)) {
        const Score e = evaluate(p);
        if (e - kStaticPruneMargin * depth >= beta) return e;
    }

    // Step 6b. ProbCut (see Tuning). The shallow search runs at this ply and so reuses its move
    // list: the moves are generated again after it.
    if (s_.tuning.probcut && !pv_node && depth >= 3 && !is_decisive(beta) &&
        popcount(p.occupied()) < kProbCutPieces) {
        const Score bound = beta + kProbCutMargin;
        if (bound < kWinBound) {
            const Score s = interior(p, ply, depth / 2, bound - 1, bound, dc, false, key);
            if (stopped()) return 0;
            if (s >= bound) return beta;
            quiet = QuietStart{};
            start();  // the same position: `captures` and the move count stand
            if (quiet.has_killer) killer_key = child_key(p.play(quiet.killer), new_depth);
        }
    }

    // Step 6c. Internal iterative reduction (Tuning::table_move_reduction): a node four or more
    // plies above the horizon that the table knows no move for is searched one ply shallower
    // (its move order is a guess; the next iteration finds its move in the table).
    if (s_.tuning.table_move_reduction && depth >= 4 && !(hit && entry.move)) --depth, --new_depth;

    Score best = -kInfinite;
    int best_index = -1;  // generation index of the best move
    M best_move{};        // the best move, if one raised alpha
    bool raised = false;  // whether one did
    int searched = 0;
    // The score of move m as the node's next move: the first with the full window, the others
    // with a null window (late quiet ones at a reduced depth first), again with the full window
    // when they rise above alpha. This lambda and `take` are inlined into their two call sites:
    // called apart, each call saved and reloaded the captured state (callgrind: 3.4% fewer
    // instructions inlined, International, 3M nodes).
    const auto search_move = [&](const M& m, const Position<R>& child, const DrawCounters& cdc,
                                 std::uint64_t ckey) __attribute__((always_inline)) {
        Score s;
        if (searched == 0) {
            s = -pvs(child, ply + 1, new_depth, -beta, -alpha, cdc, pv_node, ckey);
        } else {
            int r = 0;
            // (Scan 3.1 starts two plies up, where the log reductions are capped at 0 anyway.)
            if (s_.tuning.late_move_reductions && depth >= 3 &&
                searched >= (s_.tuning.early_reductions && !pv_node ? 1 : 3) && !m.is_capture() &&
                !m.promotes() && !(m == killers_[ply][0]) && !(m == killers_[ply][1]) &&
                !(s_.tuning.no_reduce_offers && has_capture(child)))
                r = s_.tuning.log_reductions
                        ? std::min(kLogReductions(pv_node, depth, searched), new_depth - 1)
                        : 1 + (!pv_node && searched >= 8 && depth >= 6 ? 1 : 0);
            s = -pvs(child, ply + 1, new_depth - r, -alpha - 1, -alpha, cdc, false,
                     new_depth - r > 0 ? ckey : 0);
            if (s > alpha && r > 0)
                s = -pvs(child, ply + 1, new_depth, -alpha - 1, -alpha, cdc, false, ckey);
            if (s > alpha && s < beta && pv_node)
                s = -pvs(child, ply + 1, new_depth, -beta, -alpha, cdc, true, ckey);
        }
        ++searched;
        return s;
    };
    // Takes the score s of move m (generation index x, the i-th in order); true at a cut-off.
    const auto take = [&](const M& m, int x, Score s, int i) __attribute__((always_inline)) {
        if (s <= best) return false;
        best = s;
        if (s <= alpha) return false;
        best_index = x;
        best_move = m;
        raised = true;
        alpha = s;
        // Only a PV node's line can end up in the reported PV: a PV node takes a line from a
        // null-window child only when that child fails high, and then the PV node fails high too
        // and its line is dropped. Elsewhere the copy is skipped.
        if (pv_node) update_pv(ply, m);
        if (s < beta) return false;
        reward(p, ply, m, depth, list, keys, i);
        return true;
    };
    // Step 10 (also after a cut-off by a move tried before generation). Store the result.
    const auto store = [&]() __attribute__((always_inline)) {
        TableData d;
        d.score = std::int16_t(to_table(best, ply));
        d.depth = std::uint8_t(std::min(depth, 255));
        d.bound = best >= beta            ? Bound::kLower
                  : best > alpha0 && raised ? Bound::kExact
                                            : Bound::kUpper;
        if (raised) d.move = code(best_index, best_move);
        s_.table->store(key, d);
        return best;
    };

    // Step 8. Order: table move, captures, promotions, killers, history. A node without a
    // capture tries the table's move, or else the first killer (when no promotion goes before
    // it), before it generates anything: most nodes end at their first move, and a quiet table
    // move is checked against the position directly (its code is its squares).
    TopTwo top;
    int n;
    if (captures) {
        n = list.size();
        top = score_moves(p, ply, hit ? table_index(entry.move, list) : -1, list, keys);
    } else if (quiet.generated) {
        n = list.size();
        top = put_table_move_first(hit ? table_index(entry.move, list) : -1, quiet.top, keys);
    } else {
        M first{};
        const bool from_table = hit && quiet_move(p, entry.move, first);
        if (!from_table && quiet.has_killer) first = quiet.killer;
        if (from_table || quiet.has_killer) {
            const Position<R> child = p.play(first);
            const Score s = search_move(first, child, dc.after(p, first),
                                        from_table ? child_key(child, new_depth) : killer_key);
            if (stopped()) return 0;
            if (take(first, -1, s, 0)) return store();
        }
        top = p.side == Color::kWhite ? generate_quiet_scored<Color::kWhite>(p, ply, list, keys)
                                      : generate_quiet_scored<Color::kBlack>(p, ply, list, keys);
        n = list.size();
        if (searched) {
            // The move tried goes first, as it was searched; when it is the killer it is the best
            // scored already.
            const int x = table_index(code(-1, first), list);  // a quiet code has no index
            if (raised) best_index = x;
            top = put_table_move_first(x, top, keys);
        }
    }
    // The two best go first (keys are at their generation index until now); the rest are sorted
    // when the first two failed.
    const int first_at = index_of(top.first);
    std::swap(keys[0], keys[first_at]);
    int ordered = 1;  // keys[0, ordered) hold the first moves in their final order
    if (n > 1) {
        const int second_at = index_of(top.second);
        std::swap(keys[1], keys[second_at == 0 ? first_at : second_at]);
        ordered = 2;
    }
    // Brings the i-th move in order to keys[i].
    const auto settle = [&](int i) {
        if (i < ordered) return;
        sort_rest(keys, i, n);
        ordered = n;
    };

    // Step 9. Principal variation search over the moves, late quiet moves reduced.
    std::uint64_t next_key = 0;  // the key of move i, when known before its turn
    bool next_known = false;
    for (int i = searched; i < n; ++i) {
        settle(i);
        const int x = index_of(keys[i]);  // the generation index of the i-th move in order
        const M m = list[x];
        const Position<R> child = p.play(m);
        const DrawCounters cdc = dc.after(p, m);
        const std::uint64_t ckey = next_known ? next_key : child_key(child, new_depth);
        // Once the moves are scored, the next in order is known already (the keys do not change
        // in the loop): start loading its table bucket now, and it arrives while this move is
        // searched.
        next_known = new_depth > 0 && i + 1 < n;
        if (next_known) {
            settle(i + 1);
            next_key = child_key(p.play(list[index_of(keys[i + 1])]), new_depth);
        }
        const Score s = search_move(m, child, cdc, ckey);
        if (stopped()) return 0;
        if (take(m, x, s, i)) break;
    }
    return store();
}

template <class R>
Score Worker<R>::root_search(const Position<R>& root, int depth, Score alpha, Score beta,
                             std::size_t first) {
    count_node(0);
    pv_length_[0] = 0;
    const Score alpha0 = alpha;
    Score best = -kInfinite;
    for (std::size_t i = first; i < root_moves_.size(); ++i) {
        RootMove& rm = root_moves_[i];
        const Position<R> child = root.play(rm.move);
        const DrawCounters cdc = s_.root_counters.after(root, rm.move);
        Score s;
        if (i == first) {
            s = -pvs(child, 1, depth - 1, -beta, -alpha, cdc, true);
        } else {
            s = -pvs(child, 1, depth - 1, -alpha - 1, -alpha, cdc, false);
            if (s > alpha && s < beta) s = -pvs(child, 1, depth - 1, -beta, -alpha, cdc, true);
        }
        if (stopped()) {
            nodes_.store(local_nodes_, std::memory_order_relaxed);
            return best;
        }
        rm.score = s > alpha ? s : -kInfinite;
        if (s > best) best = s;
        if (s > alpha) {
            alpha = s;
            update_pv(0, rm.move);
            // The new best move goes first; the others keep their order.
            std::rotate(root_moves_.begin() + std::ptrdiff_t(first),
                        root_moves_.begin() + std::ptrdiff_t(i),
                        root_moves_.begin() + std::ptrdiff_t(i) + 1);
            if (s >= beta) break;
        }
    }
    // With several lines only the search of all root moves speaks for the root.
    if (first > 0) {
        nodes_.store(local_nodes_, std::memory_order_relaxed);
        return best;
    }
    TableData d;
    d.score = std::int16_t(best);
    d.depth = std::uint8_t(std::min(depth, 255));
    d.bound = best >= beta ? Bound::kLower : best > alpha0 ? Bound::kExact : Bound::kUpper;
    if (best > alpha0) {
        MoveList<G> list;
        generate<R>(root, list);
        for (int i = 0; i < list.size(); ++i)
            if (list[i] == root_moves_[0].move) d.move = code(i, list[i]);
    }
    s_.table->store(keys_[base_], d);
    nodes_.store(local_nodes_, std::memory_order_relaxed);
    return best;
}

template <class R>
template <class Report>
void Worker<R>::run(const Position<R>& root, Report&& report) {
    keys_ = s_.history;
    base_ = keys_.size();
    keys_.resize(base_ + kMaxPly + 2);
    keys_[base_] = position_key(root);
    result_ = Result<G>{};
    local_nodes_ = 0;
    next_check_ = 1;
    nodes_.store(0, std::memory_order_relaxed);

    // The root moves, in the order the table and the heuristics suggest.
    MoveList<G> list;
    generate<R>(root, list);
    if (list.empty()) {
        result_.score = loss_in(0);
        return;
    }
    // Inside the endgame tables, only the moves that keep the root's value are searched (unless
    // the move-count rules may end the game before the tables' result: then every move is).
    const bool root_in_tables =
        s_.table_pieces && popcount(root.occupied()) <= s_.table_pieces &&
        (!in_tables(root) || has_capture(root) ||
         table_in_time(table_score(root, 0), 0, plies_to_counter_draw(root, s_.root_counters)));
    if (root_in_tables) {
        egtb::Outcome best = egtb::Outcome::kLoss;
        std::array<egtb::Outcome, kMaxMoves> outcome;
        for (int i = 0; i < list.size(); ++i) {
            outcome[std::size_t(i)] = s_.tables->probe(root.play(list[i])).parent().outcome;
            best = std::max(best, outcome[std::size_t(i)]);
        }
        int kept = 0;
        for (int i = 0; i < list.size(); ++i)
            if (outcome[std::size_t(i)] == best) list[kept++] = list[i];
        list.resize_down(kept);
        // A drawn root scores every such move 0, and the first in order would be played even if
        // it gives a piece away (two kings against one playing into a capture that leaves one
        // against one: a draw still, but no chance left for the opponent to go wrong). Of the
        // drawing moves, those that keep the most material after the opponent's reply (its
        // worst for us; a king counts three men) are searched.
        if (best == egtb::Outcome::kDraw && kept > 1) {
            std::array<int, kMaxMoves> kept_material;
            int most = std::numeric_limits<int>::min();
            for (int i = 0; i < kept; ++i) {
                const Position<R> child = root.play(list[i]);
                MoveList<G> replies;
                generate<R>(child, replies);
                int worst = std::numeric_limits<int>::max();
                for (const M& r : replies) {
                    // The reply's position has us to move again: its `us` is our side.
                    const Position<R> after = child.play(r);
                    const auto material = [&](B set) {
                        return popcount(B(set & ~after.kings)) + 3 * popcount(B(set & after.kings));
                    };
                    worst = std::min(worst, material(after.us()) - material(after.them()));
                }
                kept_material[std::size_t(i)] = worst;
                most = std::max(most, worst);
            }
            int n = 0;
            for (int i = 0; i < kept; ++i)
                if (kept_material[std::size_t(i)] == most) list[n++] = list[i];
            list.resize_down(n);
        }
    }
    TableData entry;
    const bool hit = s_.table->probe(keys_[base_], entry);
    score_moves(root, 0, hit ? table_index(entry.move, list) : -1, list, sort_keys_[0].data());
    const SortKey* const keys = sort_keys_[0].data();
    std::sort(sort_keys_[0].data(), sort_keys_[0].data() + list.size(), std::greater<SortKey>());
    root_moves_.clear();
    for (int i = 0; i < list.size(); ++i) root_moves_.push_back({list[index_of(keys[i])], -kInfinite, {}});
    result_.has_move = true;
    result_.best = root_moves_[0].move;
    result_.pv = {result_.best};

    const Limits& lim = s_.limits;
    const bool timed = lim.movetime_ms || lim.time_ms || lim.nodes;
    // Helpers leave the cores to the main worker until it has a move (Shared::first_done; go()
    // sets it too once the main worker has returned, so a helper never waits for ever).
    if (id_ != 0) s_.first_done.wait(false, std::memory_order_acquire);
    Score previous = 0;
    // For Tuning::adaptive_time: the changes of the best move (the last iteration's counts 1,
    // each earlier one half as much), and how much lower the last score was than the one before.
    double changes = 0;
    int fall = 0;
    // An iteration's line at `depth`, without its score and PV.
    const auto iteration_at = [&](int depth) {
        Iteration<G> it;
        it.depth = depth;
        it.seldepth = seldepth_;
        it.mean_depth = leaves_ ? double(leaf_plies_) / double(leaves_) : 0.0;
        it.nodes = s_.total_nodes();
        it.time_ms = s_.elapsed_ms();
        it.nps = it.time_ms > 0 ? it.nodes * 1000 / std::uint64_t(it.time_ms) : it.nodes * 1000;
        return it;
    };
    // Helper threads start one ply deeper every other thread, so that they are not all busy with
    // the same iteration as the main thread.
    const std::size_t lines =
        std::min<std::size_t>(std::size_t(std::max(lim.multipv, 1)), root_moves_.size());
    for (int depth = 1 + (id_ % 2); depth < kMaxPly - 8; ++depth) {
        if (lim.depth && depth > lim.depth) break;
        root_depth_ = depth;
        seldepth_ = 0;
        leaves_ = leaf_plies_ = 0;
        Score score = 0;
        if (lines > 1) {
            // Several lines: each with a full window over the moves not yet placed; the k-th
            // search finds the k-th best move.
            for (std::size_t k = 0; k < lines && !stopped(); ++k) {
                const Score s = root_search(root, depth, -kInfinite, kInfinite, k);
                if (stopped()) break;
                root_moves_[k].score = s;
                root_moves_[k].pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
            }
            // A first iteration cut short still plays its best move, below (the lines cut keep
            // the score -kInfinite and sort last).
            if (stopped() && depth > 1) break;
            std::stable_sort(root_moves_.begin(), root_moves_.begin() + std::ptrdiff_t(lines),
                             [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
            score = root_moves_[0].score;
            pv_length_[0] = int(root_moves_[0].pv.size());
            std::copy(root_moves_[0].pv.begin(), root_moves_[0].pv.end(), pv_[0].begin());
        } else if (depth >= 5 && !is_decisive(previous)) {
            // Aspiration window around the last score, widened on each failure.
            Score delta = 25, alpha = previous - delta, beta = previous + delta;
            for (;;) {
                score = root_search(root, depth, alpha, beta);
                if (stopped()) break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(score - delta, -kInfinite);
                } else if (score >= beta) {
                    beta = std::min(score + delta, Score(kInfinite));
                } else {
                    break;
                }
                delta += delta;
                if (delta > 1000) alpha = -kInfinite, beta = kInfinite;
            }
        } else {
            score = root_search(root, depth, -kInfinite, kInfinite);
        }
        // An interrupted iteration is discarded: the last completed one stands. (A stop from
        // outside or the hard time limit can interrupt the first; then the best root move it
        // searched to the end is the answer, with its line, else the first in order, without
        // one.)
        if (stopped()) {
            // Tuning::partial_iteration: a root move that this iteration proved better than the
            // last one's best (searched to the end, it raised alpha) is played instead; in the
            // first iteration there is no last one.
            if (root_moves_[0].score > -kInfinite &&
                (depth == 1 || (lines == 1 && s_.tuning.partial_iteration &&
                                !(root_moves_[0].move == result_.best)))) {
                result_.best = root_moves_[0].move;
                result_.score = root_moves_[0].score;
                if (pv_length_[0] > 0 && pv_[0][0] == result_.best)
                    result_.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
                else
                    result_.pv = {result_.best};
                // Said as a line of this iteration, so that the last line a GUI shows starts
                // with the move played.
                if (id_ == 0) {
                    Iteration<G> it = iteration_at(depth);
                    it.score = result_.score;
                    it.pv = result_.pv;
                    report(it);
                }
            }
            break;
        }
        // Tuning::adaptive_time: how often the best move changed lately, and how far the score
        // fell, from this iteration's result.
        if (depth > 1) {
            changes *= 0.5;
            if (!(pv_[0][0] == result_.best)) changes += 1;
            fall = std::max(0, int(previous) - int(score));
        }
        previous = score;
        result_.best = pv_[0][0];
        result_.score = score;
        result_.depth = depth;
        result_.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
        if (id_ != 0) continue;
        if (!s_.first_done.exchange(true, std::memory_order_release)) s_.first_done.notify_all();
        // After the helpers are let go: the table line is for the reports and the result only.
        if (is_decisive(score)) extend_in_tables(root, result_.pv);

        Iteration<G> it = iteration_at(depth);
        for (std::size_t k = 0; k < lines; ++k) {
            it.multipv = int(k + 1);
            it.score = lines > 1 ? root_moves_[k].score : score;
            if (lines > 1) {
                it.pv = root_moves_[k].pv;
                if (is_decisive(it.score)) extend_in_tables(root, it.pv);
            } else {
                it.pv = result_.pv;
            }
            report(it);
        }

        if (stopped() || lim.infinite) continue;
        // Enough: a proven result seen with plies to spare, a forced reply, or the time is used.
        if (is_decisive(score) && depth >= plies_to_end(score) + 4) break;
        if (timed && root_moves_.size() == 1 && !lim.nodes && !lim.analysis) break;
        if (s_.soft_ms && s_.elapsed_ms() >= soft_limit(changes, fall)) break;
    }
    // An infinite search reports its move only when told to stop.
    if (id_ == 0 && lim.infinite)
        while (!stopped()) {
            if (s_.external_stop && s_.external_stop->load(std::memory_order_relaxed))
                s_.stop.store(true, std::memory_order_relaxed);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
}

}  // namespace dambit::search
