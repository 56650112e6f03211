// The solver's proof search (search/solve.hpp declares the API and explains the method).
// Included by the instance files, which compile it per variant.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/key.hpp"
#include "core/movegen.hpp"
#include "egtb/tables.hpp"
#include "search/draw.hpp"
#include "search/solve.hpp"
#include "search/tt.hpp"

namespace dambit::search {

// A hash table of 16-byte entries in buckets of four, each entry with its `key` and a `used`
// weight (0 = empty): a new key replaces the least used entry of its bucket.
template <class E>
class BucketTable {
public:
    using Entry = E;
    static_assert(sizeof(Entry) == 16);

    explicit BucketTable(std::size_t megabytes) { resize(megabytes); }
    // On huge pages where the system offers them (allocate_table).
    void resize(std::size_t megabytes) {
        std::size_t n = 4;
        while ((n * 2) * sizeof(Entry) <= megabytes * (std::size_t(1) << 20)) n *= 2;
        entries_.reset();
        entries_.reset(static_cast<Entry*>(allocate_table(n * sizeof(Entry), alignof(Entry))));
        std::uninitialized_fill_n(entries_.get(), n, Entry{});
        mask_ = n - 1;
    }
    void clear() { std::fill(entries_.get(), entries_.get() + mask_ + 1, Entry{}); }

    const Entry* find(std::uint64_t key) const {
        const std::size_t base = key & mask_ & ~std::size_t(kWays - 1);
        for (int i = 0; i < kWays; ++i) {
            const Entry& e = entries_[base + std::size_t(i)];
            if (e.used && e.key == key) return &e;
        }
        return nullptr;
    }
    // The entry of `key`, created if need be (replacing the least worked-for entry of the bucket).
    Entry& slot(std::uint64_t key) {
        const std::size_t base = key & mask_ & ~std::size_t(kWays - 1);
        Entry* victim = &entries_[base];
        for (int i = 0; i < kWays; ++i) {
            Entry& e = entries_[base + std::size_t(i)];
            if (e.used && e.key == key) return e;
            if (e.used < victim->used) victim = &e;
        }
        *victim = Entry{};
        victim->key = key;
        victim->used = 1;
        return *victim;
    }

private:
    static constexpr int kWays = 4;
    std::unique_ptr<Entry[], FreeTable> entries_;
    std::size_t mask_ = 0;
};

// The bounds the solver keeps per position.
struct ProofEntry {
    static constexpr std::uint8_t kUnknown = 255;
    static constexpr std::uint8_t kNever = 255;  // no_win, no_loss: whatever the plies
    std::uint64_t key = 0;
    std::uint8_t no_win = 0;       // win(p, n) is false for every n <= no_win
    std::uint8_t win = kUnknown;   // win(p, n) is true for every n >= win
    std::uint8_t no_loss = 0;      // lose(p, n) is false for every n <= no_loss
    std::uint8_t loss = kUnknown;  // lose(p, n) is true for every n >= loss
    std::uint8_t win_move = 0;     // 1 + index of the move that proved `win` (0: none)
    std::uint8_t hold_move = 0;    // 1 + index of a move that refuted lose(p, no_loss)
    std::uint16_t used = 0;        // 0 = empty; else 1 + the larger bound, for replacement
};
using ProofTable = BucketTable<ProofEntry>;

// The draw search's failures per position: the deepest search that did not prove that the side
// to move cannot lose (`holds`) or cannot win (`denies`). Its successes go to the ProofTable as
// bounds that hold for every number of plies.
struct DrawEntry {
    std::uint64_t key = 0;
    std::uint8_t hold_failed = 0;  // holds(p, d) was not proven for any d < hold_failed
    std::uint8_t deny_failed = 0;  // denies(p, d) likewise
    std::uint16_t used = 0;        // 0 = empty; else 1 + the larger depth
    std::uint32_t unused = 0;
};
using DrawTable = BucketTable<DrawEntry>;

template <class R>
class ProofSearch {
    using G = typename R::Geometry;
    using M = Move<G>;
    using Entry = ProofEntry;

public:
    explicit ProofSearch(const SolveOptions& o = {})
        : opt_(o), table_(o.use_table ? o.hash_megabytes : 0), draw_table_(0) {
        if (!o.tables_dir.empty() && !o.draw_rules) {
            tables_ = std::make_unique<egtb::Tables<R>>(o.tables_dir, o.tables_cache_megabytes);
            table_pieces_ = tables_->complete_pieces();
        }
        // Draws need an end that is drawn: a table, or the rules.
        draw_search_ = o.prove_draws && o.use_table && (table_pieces_ > 0 || o.draw_rules);
        if (draw_search_) draw_table_.resize(std::max<std::size_t>(1, o.hash_megabytes / 8));
    }

    // The counters at the root: given (a FEN's H field) with the draw rules, else none count.
    DrawCounters root_counters() const { return opt_.draw_rules ? opt_.start : DrawCounters{}; }

    Proof<G> solve(const Position<R>& root) {
        return solve_from(root, root_counters(), opt_.max_plies);
    }

    std::vector<MoveProof<G>> solve_moves(const Position<R>& root,
                                          const std::function<void(int, int)>& before_move) {
        return moves_from(root, root_counters(), opt_.max_plies, before_move);
    }

    std::vector<LineTurn<G>> line_turns(const Position<R>& root, const Proof<G>& proof,
                                        const std::function<void(int, int, int, int)>& progress) {
        std::vector<LineTurn<G>> out;
        if (proof.outcome != Outcome::kForcedWin && proof.outcome != Outcome::kForcedLoss)
            return out;
        // The winner moves at the odd plies of a win, the even plies of a loss.
        const int first = proof.outcome == Outcome::kForcedWin ? 0 : 1;
        const int turns = (int(proof.line.size()) - first + 1) / 2;
        Position<R> p = root;
        DrawCounters dc = root_counters();
        for (int i = 0; i < int(proof.line.size()); ++i) {
            const M& played = proof.line[std::size_t(i)];
            if ((i - first) % 2 == 0) {
                const int turn = int(out.size());
                LineTurn<G> t;
                t.ply = i + 1;
                t.move = played;
                for (auto& mp : moves_from(p, dc, opt_.max_plies - i, [&](int j, int n) {
                         if (progress) progress(turn, turns, j, n);
                     }))
                    if (!(mp.move == played)) t.others.push_back(std::move(mp));
                out.push_back(std::move(t));
            }
            dc = after(dc, p, played);
            p = p.play(played);
        }
        return out;
    }

    // Every legal move of `root` (reached with the counters `dc`) proven on its own, looking for
    // results of at most `max_plies` plies counting the move.
    std::vector<MoveProof<G>> moves_from(const Position<R>& root, DrawCounters root_dc,
                                         int max_plies,
                                         const std::function<void(int, int)>& before_move) {
        MoveList<G> list;
        generate<R>(root, list);
        std::vector<MoveProof<G>> out;
        for (const M& m : list) {
            if (before_move) before_move(int(out.size()), list.size());
            const DrawCounters dc = after(root_dc, root, m);
            const Proof<G> child = solve_from(root.play(m), dc, max_plies - 1);
            MoveProof<G> mp;
            mp.move = m;
            Proof<G>& p = mp.proof;
            p.outcome = child.outcome == Outcome::kForcedLoss  ? Outcome::kForcedWin
                        : child.outcome == Outcome::kForcedWin ? Outcome::kForcedLoss
                                                               : child.outcome;
            const bool decided =
                p.outcome == Outcome::kForcedWin || p.outcome == Outcome::kForcedLoss;
            p.plies = decided ? child.plies + 1 : 0;
            p.cannot_lose = child.cannot_win;
            p.cannot_win = child.cannot_lose;
            if (decided) {
                p.line.push_back(m);
                p.line.insert(p.line.end(), child.line.begin(), child.line.end());
            }
            p.nodes = child.nodes;
            p.seconds = child.seconds;
            p.no_result_plies = child.outcome == Outcome::kUnknown ? child.no_result_plies + 1 : -1;
            out.push_back(std::move(mp));
        }
        // Wins shortest first, then draws, then no result, then losses longest first.
        const auto rank = [](const Proof<G>& p) {
            return p.outcome == Outcome::kForcedWin ? p.plies
                   : p.outcome == Outcome::kDrawn   ? 500
                   : p.outcome == Outcome::kUnknown ? 1000
                                                    : 2000 + (1000 - p.plies);
        };
        std::stable_sort(out.begin(), out.end(), [&](const MoveProof<G>& a, const MoveProof<G>& b) {
            return rank(a.proof) < rank(b.proof);
        });
        return out;
    }

    // The single questions, for tests. `aborted()` says whether the time ran out (then the
    // answer means nothing).
    bool wins_within(const Position<R>& p, int n) {
        return reset(), win(p, n % 2 ? n : n - 1, {}, 0);
    }
    bool loses_within(const Position<R>& p, int n) { return reset(), lose(p, n & ~1, {}, 0); }
    bool aborted() const { return aborted_; }
    std::uint64_t nodes() const { return nodes_; }
    int table_pieces() const { return table_pieces_; }
    // Forgets every proven bound, so that the next solve starts from nothing.
    void clear_table() {
        table_.clear();
        draw_table_.clear();
    }

private:
    using Clock = std::chrono::steady_clock;
    static constexpr int kMaxDepth = 256;

    // The proof of `root`, reached with the move-count counters `dc`, looking for results of at
    // most `max_plies` plies.
    Proof<G> solve_from(const Position<R>& root, DrawCounters dc, int max_plies) {
        start_ = Clock::now();
        nodes_ = 0;
        draw_nodes_ = 0;
        aborted_ = false;
        Proof<G> proof;
        DrawState draw;
        for (int n = 0; n <= max_plies && !aborted_; ++n) {
            // The draw search in turn with the other two, in a quarter of the nodes.
            if (prove_draw(root, dc, draw, max_plies, false)) break;
            const bool yes = n % 2 ? win(root, n, dc, 0) : lose(root, n, dc, 0);
            if (aborted_) break;
            if (yes) {
                proof.outcome = n % 2 ? Outcome::kForcedWin : Outcome::kForcedLoss;
                proof.plies = n;
                // The line of a proven result, whatever the time: it is cut short otherwise
                // (and it re-reads what the proof stored, so it is quick).
                timed_ = false;
                proof.line = line(root, n, dc);
                timed_ = true;
                break;
            }
            proof.no_result_plies = n;
        }
        // Neither a win nor a loss within max_plies: the draw search may go on a while.
        if (proof.outcome == Outcome::kUnknown && !aborted_)
            prove_draw(root, dc, draw, max_plies, true);
        proof.cannot_lose = draw.cannot_lose || proof.outcome == Outcome::kForcedWin;
        proof.cannot_win = draw.cannot_win || proof.outcome == Outcome::kForcedLoss;
        if (proof.cannot_lose && proof.cannot_win) proof.outcome = Outcome::kDrawn;
        if (proof.outcome != Outcome::kUnknown) proof.no_result_plies = -1;
        proof.nodes = nodes_;
        proof.seconds = elapsed();
        return proof;
    }

    // How far the draw search of a root has gone: the next depth to try, and the halves proven.
    struct DrawState {
        int depth = 1;
        bool cannot_lose = false, cannot_win = false;
    };

    // Deepens the draw search of `root` while its nodes stay within a quarter of the other
    // searches' (`last`, after them: within twice theirs and 65536 more). True when a draw is
    // proven.
    bool prove_draw(const Position<R>& root, DrawCounters dc, DrawState& s, int max_plies,
                    bool last) {
        if (!draw_search_) return false;
        const int deepest = std::min(max_plies, kMaxDepth - 64);  // captures are not counted
        while (!(s.cannot_lose && s.cannot_win) && s.depth <= deepest && !aborted_) {
            const std::uint64_t others = nodes_ - draw_nodes_;
            draw_budget_ = last ? 2 * others + 65536 : others / 4 + 4096;
            if (draw_nodes_ >= draw_budget_) break;
            draw_stopped_ = false;
            int low = 0;
            if (!s.cannot_lose) s.cannot_lose = holds(root, s.depth, dc, 0, 0, low);
            if (!s.cannot_win && !draw_stopped_ && !aborted_)
                s.cannot_win = denies(root, s.depth, dc, 0, 0, low);
            if (draw_stopped_ || aborted_) break;  // this depth again, with more nodes
            ++s.depth;
        }
        return s.cannot_lose && s.cannot_win;
    }

    void reset() {
        start_ = Clock::now();
        aborted_ = false;
    }
    double elapsed() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    void count_node() {
        if ((++nodes_ & 4095) == 0 && timed_ &&
            ((opt_.max_seconds > 0 && elapsed() > opt_.max_seconds) || (opt_.stop && opt_.stop())))
            aborted_ = true;
    }

    // The table key: the position's key (`position`), with the counters under the draw rules.
    std::uint64_t key_of(std::uint64_t position, const DrawCounters& dc) const {
        if (opt_.draw_rules)
            position ^=
                (std::uint64_t(dc.kings_only) << 16 | dc.material) * 0x9E3779B97F4A7C15ull;
        return position;
    }
    std::uint64_t key_of(const Position<R>& p, const DrawCounters& dc) const {
        return key_of(position_key(p), dc);
    }
    // The counters after move m of p: they change only under the draw rules.
    DrawCounters after(const DrawCounters& dc, const Position<R>& p, const M& m) const {
        return opt_.draw_rules ? dc.after(p, m) : dc;
    }
    const Entry* find(std::uint64_t key) const {
        return opt_.use_table ? table_.find(key) : nullptr;
    }

    static std::uint8_t hint_of(int move_index) {
        return std::uint8_t(move_index < 254 ? move_index + 1 : 0);
    }
    static void mark(Entry& e, int n) { e.used = std::max(e.used, std::uint16_t(n + 1)); }
    void store_win(std::uint64_t key, int n, int move_index) {
        if (!opt_.use_table) return;
        Entry& e = table_.slot(key);
        if (n < e.win) {
            e.win = std::uint8_t(n);
            e.win_move = hint_of(move_index);
        }
        mark(e, n);
    }
    void store_no_win(std::uint64_t key, int n) {
        if (!opt_.use_table) return;
        Entry& e = table_.slot(key);
        e.no_win = std::uint8_t(std::max<int>(e.no_win, n));
        mark(e, n);
    }
    void store_loss(std::uint64_t key, int n) {
        if (!opt_.use_table) return;
        Entry& e = table_.slot(key);
        if (n < e.loss) e.loss = std::uint8_t(n);
        mark(e, n);
    }
    void store_no_loss(std::uint64_t key, int n, int move_index) {
        if (!opt_.use_table) return;
        Entry& e = table_.slot(key);
        if (n >= e.no_loss) {
            e.no_loss = std::uint8_t(n);
            e.hold_move = hint_of(move_index);
        }
        mark(e, n);
    }

    // A position the move-count rules declare drawn is neither won nor lost (the caller knows that
    // the side to move has a move).
    bool drawn(const Position<R>& p, const DrawCounters& dc) const {
        return opt_.draw_rules && drawn_by_counters(p, dc);
    }

    // Can the side to move force a win within n plies (n odd)?
    bool win(const Position<R>& p, int n, DrawCounters dc, int ply) {
        count_node();
        if (aborted_ || n < 1) return false;
        if (const auto t = table_answer(p, n, true)) return *t;
        const std::uint64_t key = key_of(p, dc);
        if (const Entry* e = find(key)) {
            if (e->win <= n) return true;
            if (e->no_win >= n) return false;
        }
        MoveList<G>& list = lists_[ply];
        generate<R>(p, list);
        if (list.empty()) {
            store_loss(key, 0);
            return false;
        }
        if (drawn(p, dc)) return false;
        if (n == 1) {
            // A move that leaves the opponent without a reply wins at once.
            for (int i = 0; i < list.size(); ++i)
                if (!has_move(p.play(list[i]))) {
                    store_win(key, 1, i);
                    return true;
                }
            store_no_win(key, 1);
            return false;
        }
        // Order: the move that won before, children the table already knows to be lost, then
        // the moves that leave the opponent the fewest replies. A child without a reply is a win
        // at once.
        const Entry* e = find(key);
        const int hint = e && e->win_move ? e->win_move - 1 : -1;
        auto& keys = sort_keys_[ply];
        auto& index = index_[ply];
        for (int i = 0; i < list.size(); ++i) {
            const Position<R> c = p.play(list[i]);
            const int replies = count_moves<R>(c);
            const DrawCounters cdc = after(dc, p, list[i]);
            const Entry* ce = replies ? find(key_of(c, cdc)) : nullptr;
            if (replies == 0 || (ce && ce->loss <= n - 1)) {
                store_win(key, replies == 0 ? 1 : n, i);
                return true;
            }
            int k = 1000 - 8 * replies;
            if (i == hint) k += 1 << 20;
            if (ce && ce->no_loss >= n - 1) k -= 1 << 16;  // known to hold this long: try last
            keys[i] = k;
            index[i] = i;
        }
        sort_by_keys(list.size(), keys, index);
        for (int j = 0; j < list.size(); ++j) {
            MoveList<G>& l = lists_[ply];  // the children reuse deeper lists only
            const int i = index[j];
            const M m = l[i];
            if (lose(p.play(m), n - 1, after(dc, p, m), ply + 1)) {
                store_win(key, n, i);
                return true;
            }
            if (aborted_) return false;
        }
        store_no_win(key, n);
        return false;
    }

    // Does every move of the side to move lose within n plies (n even)?
    bool lose(const Position<R>& p, int n, DrawCounters dc, int ply) {
        count_node();
        if (aborted_ || n < 0) return false;
        if (const auto t = table_answer(p, n, false)) return *t;
        const std::uint64_t key = key_of(p, dc);
        if (const Entry* e = find(key)) {
            if (e->loss <= n) return true;
            if (e->no_loss >= n && n > 0) return false;
        }
        MoveList<G>& list = lists_[ply];
        generate<R>(p, list);
        if (list.empty()) {
            store_loss(key, 0);
            return true;
        }
        if (n < 2 || drawn(p, dc)) {
            if (n >= 0 && !drawn(p, dc)) store_no_loss(key, n, 0);
            return false;
        }
        // Order: the move that held before, children the table knows are not won for the
        // opponent, then captures (fewer enemy pieces), then the moves that keep the most replies.
        const Entry* e = find(key);
        const int hint = e && e->hold_move ? e->hold_move - 1 : -1;
        auto& keys = sort_keys_[ply];
        auto& index = index_[ply];
        for (int i = 0; i < list.size(); ++i) {
            const Position<R> c = p.play(list[i]);
            const DrawCounters cdc = after(dc, p, list[i]);
            const Entry* ce = find(key_of(c, cdc));
            if (ce && ce->no_win >= n - 1) {
                store_no_loss(key, n, i);
                return false;
            }
            int k = 4 * popcount(list[i].captured);
            if (i == hint) k += 1 << 20;
            if (ce && ce->win <= n - 1) k -= 1 << 16;  // known lost this way: try last
            keys[i] = k;
            index[i] = i;
        }
        sort_by_keys(list.size(), keys, index);
        for (int j = 0; j < list.size(); ++j) {
            const int i = index[j];
            const M m = lists_[ply][i];
            if (!win(p.play(m), n - 1, after(dc, p, m), ply + 1)) {
                if (aborted_) return false;
                store_no_loss(key, n, i);
                return false;
            }
        }
        store_loss(key, n);
        return true;
    }

    // The draw search: holds(p, d) proves that the side to move cannot lose, denies(p, d) that
    // it cannot win, looking d plies deep (captures not counted: they end in the tables). True
    // only when proven. `since`: the first ply of the line a repetition can go back to (none
    // before the last capture or man move). `low`: set to the ply of the position above this one
    // that a repetition in the proof went back to, or kMaxDepth; a proof that went back above
    // itself holds on this line only and is not stored.
    bool holds(const Position<R>& p, int d, DrawCounters dc, int ply, int since, int& low) {
        const std::uint64_t position = position_key(p), key = key_of(position, dc);
        if (const auto end = draw_end(p, d, dc, ply, since, low, true, position, key))
            return *end;
        const MoveList<G>& list = lists_[ply];
        const bool quiet = !list[0].is_capture();
        // Order: the move that held before, children known not to be won by the opponent, then
        // the moves that leave the opponent the fewest replies.
        const Entry* e = find(key);
        const int hint = e && e->hold_move ? e->hold_move - 1 : -1;
        auto& keys = sort_keys_[ply];
        auto& index = index_[ply];
        for (int i = 0; i < list.size(); ++i) {
            const Position<R> c = p.play(list[i]);
            const Entry* ce = find(key_of(c, after(dc, p, list[i])));
            int k = -count_moves<R>(c);
            if (ce && (ce->no_win == Entry::kNever || ce->loss != Entry::kUnknown)) k += 1 << 16;
            if (i == hint) k += 1 << 20;
            keys[i] = k;
            index[i] = i;
        }
        sort_by_keys(list.size(), keys, index);
        for (int j = 0; j < list.size(); ++j) {
            const int i = index[j];
            const M m = lists_[ply][i];
            const bool reversible = m.king_moves() && !m.is_capture();
            int below = kMaxDepth;
            if (denies(p.play(m), quiet ? d - 1 : d, after(dc, p, m),
                       ply + 1, reversible ? since : ply + 1, below)) {
                if (below >= ply) store_no_loss(key, Entry::kNever, i);
                else low = below;
                return true;
            }
            if (aborted_ || draw_stopped_) return false;
        }
        note_draw_failure(key, d, true);
        return false;
    }

    bool denies(const Position<R>& p, int d, DrawCounters dc, int ply, int since, int& low) {
        const std::uint64_t position = position_key(p), key = key_of(position, dc);
        if (const auto end = draw_end(p, d, dc, ply, since, low, false, position, key))
            return *end;
        const MoveList<G>& list = lists_[ply];
        const bool quiet = !list[0].is_capture();
        // Order: the replies most likely to refute, first: those that failed before, deepest
        // first; those known to hold, last.
        auto& keys = sort_keys_[ply];
        auto& index = index_[ply];
        for (int i = 0; i < list.size(); ++i) {
            const std::uint64_t ck =
                key_of(p.play(list[i]), after(dc, p, list[i]));
            const Entry* ce = find(ck);
            const DrawEntry* cf = draw_table_.find(ck);
            int k = cf ? int(cf->hold_failed) : 0;
            if (ce && (ce->no_loss == Entry::kNever || ce->win != Entry::kUnknown)) k -= 1 << 16;
            keys[i] = k;
            index[i] = i;
        }
        sort_by_keys(list.size(), keys, index);
        int least = kMaxDepth;
        for (int j = 0; j < list.size(); ++j) {
            const M m = lists_[ply][index[j]];
            const bool reversible = m.king_moves() && !m.is_capture();
            int below = kMaxDepth;
            if (!holds(p.play(m), quiet ? d - 1 : d, after(dc, p, m),
                       ply + 1, reversible ? since : ply + 1, below)) {
                if (!aborted_ && !draw_stopped_) note_draw_failure(key, d, false);
                return false;
            }
            least = std::min(least, below);
        }
        if (least >= ply) store_no_win(key, Entry::kNever);
        else low = least;
        return true;
    }

    // What holds(p, d) (`holding`) or denies(p, d) knows before searching p's moves: true or
    // false when decided (no move left, the rules, the tables, the proof table's bounds, a
    // repetition, the depth spent, a failure stored), nothing when it must search them. Leaves
    // p's moves in lists_[ply] and p on the line (path_). `position`: p's position key, `key`
    // its table key.
    std::optional<bool> draw_end(const Position<R>& p, int d, DrawCounters dc, int ply, int since,
                                 int& low, bool holding, std::uint64_t position,
                                 std::uint64_t key) {
        low = kMaxDepth;
        if (!count_draw_node()) return false;
        MoveList<G>& list = lists_[ply];
        generate<R>(p, list);
        if (list.empty()) return !holding;  // lost: not won
        if (drawn(p, dc)) return true;
        if (const auto v = table_value(p))
            return v->outcome != (holding ? egtb::Outcome::kLoss : egtb::Outcome::kWin);
        if (const Entry* e = find(key)) {
            // Cannot lose: never lost, or won; cannot win: never won, or lost.
            const bool won = e->win != Entry::kUnknown, lost = e->loss != Entry::kUnknown;
            if ((holding ? e->no_loss : e->no_win) == Entry::kNever || (holding ? won : lost))
                return true;
            if (holding ? lost : won) return false;
        }
        if (const int r = repeated(position, ply, since); r >= 0) return low = r, true;
        if (d <= 0 && !list[0].is_capture()) return false;
        if (const DrawEntry* f = draw_table_.find(key);
            f && (holding ? f->hold_failed : f->deny_failed) > d)
            return false;
        path_[ply] = position;
        return std::nullopt;
    }

    // Counts a node of the draw search; false when the search must stop (time or its nodes).
    bool count_draw_node() {
        count_node();
        if (++draw_nodes_ > draw_budget_) draw_stopped_ = true;
        return !aborted_ && !draw_stopped_;
    }
    // The ply of an earlier position of the line, from `since` on, that the position of key
    // `position` repeats with the same side to move; -1 if none.
    int repeated(std::uint64_t position, int ply, int since) const {
        for (int i = ply - 2; i >= since; i -= 2)
            if (path_[std::size_t(i)] == position) return i;
        return -1;
    }
    void note_draw_failure(std::uint64_t key, int d, bool holding) {
        DrawEntry& f = draw_table_.slot(key);
        std::uint8_t& failed = holding ? f.hold_failed : f.deny_failed;
        failed = std::uint8_t(std::max<int>(failed, d + 1));
        f.used = std::max(f.used, std::uint16_t(d + 1));
    }

    static void sort_by_keys(int n, std::array<int, kMaxMoves>& keys,
                             std::array<int, kMaxMoves>& index) {
        for (int i = 1; i < n; ++i) {
            const int k = keys[i], x = index[i];
            int j = i - 1;
            while (j >= 0 && keys[j] < k) {
                keys[j + 1] = keys[j];
                index[j + 1] = index[j];
                --j;
            }
            keys[j + 1] = k;
            index[j + 1] = x;
        }
    }

    // The proven line: the winner keeps to the shortest win, the loser to the longest resistance.
    std::vector<M> line(Position<R> p, int n, DrawCounters dc) {
        std::vector<M> out;
        bool winner = n % 2 == 1;
        while (n > 0) {
            MoveList<G> list;
            generate<R>(p, list);
            const M* chosen = nullptr;
            for (const M& m : list) {
                const Position<R> c = p.play(m);
                const DrawCounters cdc = after(dc, p, m);
                const bool ok = winner ? lose(c, n - 1, cdc, 0)
                                       : win(c, n - 1, cdc, 0) && (n < 3 || !win(c, n - 3, cdc, 0));
                if (ok) {
                    chosen = &m;
                    break;
                }
            }
            if (!chosen) break;  // cannot happen for a proven length
            out.push_back(*chosen);
            dc = after(dc, p, *chosen);
            p = p.play(*chosen);
            --n;
            winner = !winner;
        }
        return out;
    }

    // What the endgame tables know of win(p, n) (n odd) or lose(p, n) (n even): true or false
    // when they decide it, nothing when p is outside them or the distance is not stored.
    std::optional<bool> table_answer(const Position<R>& p, int n, bool asking_win) {
        const auto tv = table_value(p);
        if (!tv) return std::nullopt;
        const egtb::Value v = *tv;
        const egtb::Outcome want = asking_win ? egtb::Outcome::kWin : egtb::Outcome::kLoss;
        if (v.outcome != want) return false;
        if (v.known_distance()) return v.plies <= n;
        return std::nullopt;  // won (or lost), but how fast is not stored: search on
    }
    // The tables' value of `p`, if it is inside them.
    std::optional<egtb::Value> table_value(const Position<R>& p) {
        if (!table_pieces_ || popcount(p.occupied()) > table_pieces_ || !p.them())
            return std::nullopt;
        return tables_->probe(p);
    }

    SolveOptions opt_;
    ProofTable table_;
    DrawTable draw_table_;
    bool draw_search_ = false;
    std::uint64_t draw_nodes_ = 0;   // the draw search's share of nodes_
    std::uint64_t draw_budget_ = 0;  // draw_nodes_ allowed in this go
    bool draw_stopped_ = false;      // the draw search reached draw_budget_
    std::array<std::uint64_t, kMaxDepth + 1> path_{};  // the draw search's line, position keys
    std::unique_ptr<egtb::Tables<R>> tables_;
    int table_pieces_ = 0;
    Clock::time_point start_;
    std::uint64_t nodes_ = 0;
    bool aborted_ = false;
    bool timed_ = true;  // whether the time limit is checked (not while a proven line is made)
    std::vector<MoveList<G>> lists_ = std::vector<MoveList<G>>(kMaxDepth + 1);
    std::vector<std::array<int, kMaxMoves>> sort_keys_ =
        std::vector<std::array<int, kMaxMoves>>(kMaxDepth + 1);
    std::vector<std::array<int, kMaxMoves>> index_ =
        std::vector<std::array<int, kMaxMoves>>(kMaxDepth + 1);
};

template <class R>
Solver<R>::Solver(const SolveOptions& o) : search_(std::make_unique<ProofSearch<R>>(o)) {}
template <class R>
Solver<R>::~Solver() = default;
template <class R>
Proof<typename R::Geometry> Solver<R>::solve(const Position<R>& root) {
    return search_->solve(root);
}
template <class R>
std::vector<MoveProof<typename R::Geometry>> Solver<R>::solve_moves(
    const Position<R>& root, const std::function<void(int, int)>& before_move) {
    return search_->solve_moves(root, before_move);
}
template <class R>
std::vector<LineTurn<typename R::Geometry>> Solver<R>::line_turns(
    const Position<R>& root, const Proof<typename R::Geometry>& proof,
    const std::function<void(int, int, int, int)>& progress) {
    return search_->line_turns(root, proof, progress);
}
template <class R>
bool Solver<R>::wins_within(const Position<R>& p, int n) {
    return search_->wins_within(p, n);
}
template <class R>
bool Solver<R>::loses_within(const Position<R>& p, int n) {
    return search_->loses_within(p, n);
}
template <class R>
bool Solver<R>::aborted() const {
    return search_->aborted();
}
template <class R>
std::uint64_t Solver<R>::nodes() const {
    return search_->nodes();
}
template <class R>
int Solver<R>::table_pieces() const {
    return search_->table_pieces();
}
template <class R>
void Solver<R>::clear_table() {
    search_->clear_table();
}

}  // namespace dambit::search
