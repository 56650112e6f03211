// An opening book in memory: its positions, their values backed up by negamax, the book moves of
// a position, and the drop-out priority that tells a build which position to expand next.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "book/file.hpp"
#include "core/key.hpp"
#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "search/score.hpp"

namespace dambit::book {

// The cost of one ply of depth in the drop-out priority, in hundredths of a man: a position ten
// plies deep is expanded when a position one man worse than the best line is (Lincke's depth
// weight).
inline constexpr int kDepthWeight = 10;
// The value of a position reached only in games, from their results: +100 when the side to move
// won them all, -100 when it lost them all.
inline int games_value(const Record& r) {
    return r.games ? int(std::lround(100.0 * double(r.points2) / double(r.games))) - 100 : 0;
}

// A score seen from the parent: negated, and a proven result one ply further away.
inline search::Score from_parent(search::Score child) {
    return search::is_win(child) ? -child + 1 : search::is_loss(child) ? -child - 1 : -child;
}

template <class R>
Record record_of(const Position<R>& p) {
    Record r;
    pack_position(p, r);
    return r;
}

template <class R>
Position<R> position_of(const Record& r) {
    return unpack_position<R>(r);
}

// One book move of a position.
template <class R>
struct BookMove {
    PathMove<typename R::Geometry> move;
    search::Score value = 0;  // for the side to move: the negamax value of the position it leads to
    int depth = 0;            // plies of book below the move (1: its position is a leaf)
    // The games that reached the position it leads to (by any order of moves), when games did;
    // else the book positions under it.
    std::uint64_t weight = 0;
};

template <class R>
class Book {
    using G = typename R::Geometry;

public:
    Book() = default;
    explicit Book(const std::vector<Record>& records) {
        for (const auto& r : records) upsert(r);
    }

    std::size_t size() const { return records_.size(); }
    const std::vector<Record>& records() const { return records_; }
    const Record* find(const Position<R>& p) const {
        const auto it = index_.find(position_key(p));
        return it == index_.end() ? nullptr : &records_[it->second];
    }
    // Adds the record, or replaces the one of the same position; the values are computed again
    // when next asked for.
    void upsert(const Record& r) {
        const auto key = position_key(position_of<R>(r));
        const auto [it, added] = index_.emplace(key, records_.size());
        if (added) {
            records_.push_back(r);
            kids_.emplace_back();
            known_.push_back(0);
        } else {
            records_[it->second] = r;
            known_[it->second] = 0;
        }
        fresh_ = false;
    }

    // The book moves of record i, as indices of their records: every legal move of an expanded
    // position; for a position from games, the moves to other positions from games; none for a
    // leaf. Depends only on the record (and the games' positions, which a build never adds to
    // later), so a book read back from its file has the same moves as the one that wrote it.
    const std::vector<std::uint32_t>& book_moves(std::size_t i) const {
        if (known_[i]) return kids_[i];
        kids_[i].clear();
        known_[i] = 1;
        for_each_move(records_[i], position_of<R>(records_[i]),
                      [&](const PathMove<G>&, std::size_t k) {
                          if (k != kNone)
                              kids_[i].push_back(std::uint32_t(k));
                          else
                              known_[i] = 2;  // a legal move outside the book
                      });
        return kids_[i];
    }

    // The negamax value of record i: a position with book moves takes the best of them (or, when
    // it has legal moves outside the book, as a position from games not expanded yet: its own
    // search value when that is higher, and never searched, its games' value in place of a
    // proven loss), an expanded one without any (no legal move) is lost, a leaf has its search
    // value (or, not searched, its games' value).
    search::Score value(std::size_t i) const {
        refresh();
        return value_[i];
    }
    // Plies of book below record i (0 for a leaf).
    int height(std::size_t i) const {
        refresh();
        return height_[i];
    }

    // The book moves of `p`, best first (ties in generation order).
    std::vector<BookMove<R>> moves(const Position<R>& p) const {
        std::vector<BookMove<R>> out;
        const Record* r = find(p);
        if (!r) return out;
        for_each_move(*r, p, [&](const PathMove<G>& pm, std::size_t i) {
            if (i == kNone) return;
            const Record& c = records_[i];
            out.push_back({pm, from_parent(value(i)), height(i) + 1,
                           c.games ? c.games : reachable(i)});
        });
        std::stable_sort(out.begin(), out.end(),
                         [](const auto& a, const auto& b) { return a.value > b.value; });
        return out;
    }

    // The position a build expands next: of those that can be expanded (not expanded yet, with
    // a legal move, not a proven result: the leaves, and positions from games, whose other moves
    // the search then checks), the one of least drop-out priority, the sum along its cheapest
    // path from a root of how much worse each move is than the best one there, plus kDepthWeight
    // per ply; ties go to the smaller record (file order). -1 when none is left.
    long next_to_expand() const {
        const auto first = to_expand(1);
        return first.empty() ? -1 : long(first[0]);
    }

    // The `count` positions a build expands next, in order of priority (fewer when fewer can be).
    std::vector<std::size_t> to_expand(std::size_t count) const {
        std::vector<std::size_t> out;
        refresh();
        const std::size_t n = records_.size();
        std::vector<std::int64_t> cost(n, std::numeric_limits<std::int64_t>::max());
        using Item = std::tuple<std::int64_t, Record, std::size_t>;
        const auto later = [](const Item& a, const Item& b) {
            if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) > std::get<0>(b);
            return std::get<1>(b) < std::get<1>(a);
        };
        std::priority_queue<Item, std::vector<Item>, decltype(later)> queue(later);
        for (std::size_t i = 0; i < n; ++i)
            if (records_[i].flags & Record::kRoot) {
                cost[i] = 0;
                queue.push({0, records_[i], i});
            }
        while (!queue.empty()) {
            const auto [c, r, i] = queue.top();
            queue.pop();
            if (c != cost[i]) continue;
            if (!(r.flags & Record::kExpanded) && !search::is_decisive(value_[i]) &&
                has_legal_move(position_of<R>(r))) {
                out.push_back(i);
                if (out.size() == count) break;
            }
            const auto& kids = book_moves(i);
            for (const auto k : kids) {
                const std::int64_t drop =
                    std::min<std::int64_t>(value_[i] - from_parent(value_[k]), 10 * kWinStep);
                const std::int64_t next = c + drop + kDepthWeight;
                if (next < cost[k]) {
                    cost[k] = next;
                    queue.push({next, records_[k], k});
                }
            }
        }
        return out;
    }

    // The largest number of plies from a root to a position of the book, along book moves.
    int depth_reached() const {
        std::vector<int> ply(records_.size(), -1);
        std::vector<std::size_t> layer;
        for (std::size_t i = 0; i < records_.size(); ++i)
            if (records_[i].flags & Record::kRoot) ply[i] = 0, layer.push_back(i);
        int depth = 0;
        while (!layer.empty()) {
            std::vector<std::size_t> next;
            for (const auto i : layer)
                for (const auto k : book_moves(i))
                    if (ply[k] < 0) ply[k] = ply[i] + 1, next.push_back(k);
            if (!next.empty()) ++depth;
            layer = std::move(next);
        }
        return depth;
    }

private:
    static constexpr std::int64_t kWinStep = 100;  // a drop counts at most 10 men
    static constexpr std::size_t kNone = std::size_t(-1);

    // Calls f(move, k) for each legal move of `p`, the position of record r, in generation
    // order: k is the index of the record the move leads to when it is a book move (every move
    // of an expanded position into the book; for a position from games, the moves to other
    // positions from games), kNone otherwise. For a leaf (neither expanded nor from games) it
    // calls nothing: a leaf has no book moves.
    template <class F>
    void for_each_move(const Record& r, const Position<R>& p, F f) const {
        const bool expanded = r.flags & Record::kExpanded;
        if (!expanded && !r.games) return;  // a leaf: its moves are not walked
        FixedList<PathMove<G>, kMaxMoves> list;
        generate_paths<R>(p, list);
        for (const auto& pm : list) {
            const auto it = index_.find(position_key(p.play(pm.move)));
            f(pm, it != index_.end() && (expanded || records_[it->second].games) ? it->second
                                                                                   : kNone);
        }
    }

    static bool has_legal_move(const Position<R>& p) {
        FixedList<PathMove<G>, kMaxMoves> list;
        generate_paths<R>(p, list);
        return !list.empty();
    }

    // Book positions under record i, i included, each once.
    std::uint64_t reachable(std::size_t i) const {
        std::vector<char> seen(records_.size(), 0);
        std::vector<std::size_t> todo{i};
        seen[i] = 1;
        std::uint64_t count = 0;
        while (!todo.empty()) {
            const auto j = todo.back();
            todo.pop_back();
            ++count;
            for (const auto k : book_moves(j))
                if (!seen[k]) seen[k] = 1, todo.push_back(k);
        }
        return count;
    }

    // The value of record r with book moves whose best is `best`; `outside`: some legal move of
    // r is not a book move. Then the games' moves alone could make it lost where another move
    // holds: the search of the position stands for its other moves, and, never searched, its
    // games' result does when its book moves are proven lost (a loss is proven only when every
    // move is in the book; a win by one move is proven all the same).
    static search::Score partial_value(const Record& r, bool outside, search::Score best) {
        if (!outside || (r.flags & Record::kExpanded)) return best;
        if (r.flags & Record::kSearched) return std::max(best, search::Score(r.value));
        return search::is_loss(best) ? search::Score(games_value(r)) : best;
    }

    // Values and heights of every record, depth first from each record in file order; a
    // position met again on the current line (a repetition, only possible with kings) counts
    // as a draw there.
    void refresh() const {
        if (fresh_) return;
        const std::size_t n = records_.size();
        value_.assign(n, 0);
        height_.assign(n, 0);
        std::vector<char> state(n, 0);  // 0 new, 1 on the line, 2 done
        std::function<void(std::size_t)> visit = [&](std::size_t i) {
            state[i] = 1;
            const Record& r = records_[i];
            const auto& kids = book_moves(i);
            search::Score best = -search::kInfinite;
            int height = 0;
            for (const auto k : kids) {
                if (state[k] == 0) visit(k);
                const search::Score v = state[k] == 1 ? search::kDraw : from_parent(value_[k]);
                best = std::max(best, v);
                height = std::max(height, (state[k] == 1 ? 0 : height_[k]) + 1);
            }
            if (!kids.empty())
                value_[i] = partial_value(r, known_[i] == 2, best);
            else if ((r.flags & Record::kExpanded) || !has_legal_move(position_of<R>(r)))
                value_[i] = search::loss_in(0);  // expanded without children: no legal move
            else
                value_[i] = (r.flags & Record::kSearched) ? r.value : games_value(r);
            height_[i] = height;
            state[i] = 2;
        };
        // In the order of the file, so that a book read back from it has the same values.
        std::vector<std::size_t> order(n);
        for (std::size_t i = 0; i < n; ++i) order[i] = i;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return records_[a] < records_[b]; });
        for (const auto i : order)
            if (state[i] == 0) visit(i);
        fresh_ = true;
    }

    std::vector<Record> records_;
    std::unordered_map<std::uint64_t, std::size_t> index_;
    mutable std::vector<std::vector<std::uint32_t>> kids_;  // book_moves(i), once known_[i]
    mutable std::vector<char> known_;  // 0: book_moves(i) not known; 1: known; 2: known, and
                                       // some legal move of i is not a book move
    mutable std::vector<search::Score> value_;
    mutable std::vector<int> height_;
    mutable bool fresh_ = false;
};

}  // namespace dambit::book
