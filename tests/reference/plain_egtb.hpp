// A deliberately plain endgame solver, used only to check the table builder.
//
// It shares nothing with src/egtb/ but the move generator: positions are found by trying every
// square for every piece, numbered through a hash map, their successors listed once, and the
// values found by sweeping over all positions until nothing changes (a position is won if a move
// reaches a lost one, lost if every move reaches a won one or it has none; whatever is left is
// drawn). Slow and memory-hungry on purpose: it is easy to check by reading.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/movegen.hpp"

namespace dambit::reference {

enum class PlainValue : std::uint8_t { kUnknown, kWin, kLoss, kDraw };

template <class R>
class PlainSolver {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;

public:
    // Every position with both sides on the board, 2..max_pieces pieces, either side to move.
    explicit PlainSolver(int max_pieces) {
        Position<R> p;
        p.pieces = {0, 0};
        p.kings = 0;
        number_.reserve(std::size_t(1) << 22);
        place(p, 1, max_pieces);
        // Successors, by number; -1 stands for a position whose side to move has no piece (lost).
        succ_begin_.push_back(0);
        for (const Position<R>& q : positions_) {
            MoveList<G> list;
            generate<R>(q, list);
            for (const auto& m : list) {
                const Position<R> c = q.play(m);
                succ_.push_back(c.us() ? number_.at(key(c)) : -1);
            }
            succ_begin_.push_back(succ_.size());
        }
        solve();
    }

    const std::vector<Position<R>>& positions() const { return positions_; }
    PlainValue value(std::size_t i) const { return value_[i]; }

private:
    struct Key {
        B white, black, kings;
        bool white_to_move;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct Hash {
        std::size_t operator()(const Key& k) const {
            std::uint64_t h = std::uint64_t(k.white) * 0x9E3779B97F4A7C15ull;
            h ^= std::uint64_t(k.black) * 0xC2B2AE3D27D4EB4Full + (h << 6);
            h ^= std::uint64_t(k.kings) * 0x165667B19E3779F9ull + (h >> 3);
            return std::size_t(h ^ std::uint64_t(k.white_to_move));
        }
    };
    static Key key(const Position<R>& p) {
        return {p.pieces[0], p.pieces[1], p.kings, p.side == Color::kWhite};
    }

    // Puts pieces on squares `from` and above, at most `left` more.
    void place(Position<R>& p, int from, int left) {
        if (p.pieces[0] && p.pieces[1] && popcount(B(p.pieces[0] | p.pieces[1])) >= 2)
            for (const Color side : {Color::kWhite, Color::kBlack}) {
                p.side = side;
                number_.emplace(key(p), std::int64_t(positions_.size()));
                positions_.push_back(p);
            }
        if (left == 0) return;
        for (int n = from; n <= G::kSquares; ++n) {
            const B m = G::mask_of_square(n);
            for (int kind = 0; kind < 4; ++kind) {
                const int c = kind / 2;
                const bool king = kind % 2;
                if (!king && (m & Position<R>::promotion_row(Color(c)))) continue;
                p.pieces[std::size_t(c)] |= m;
                if (king) p.kings |= m;
                place(p, n + 1, left - 1);
                p.pieces[std::size_t(c)] &= ~m;
                p.kings &= ~m;
            }
        }
    }

    void solve() {
        value_.assign(positions_.size(), PlainValue::kUnknown);
        for (bool changed = true; changed;) {
            changed = false;
            for (std::size_t i = 0; i < positions_.size(); ++i) {
                if (value_[i] != PlainValue::kUnknown) continue;
                bool any_loss = false, all_wins = true;
                for (std::size_t k = succ_begin_[i]; k < succ_begin_[i + 1]; ++k) {
                    const PlainValue v = succ_[k] < 0 ? PlainValue::kLoss : value_[std::size_t(succ_[k])];
                    any_loss = any_loss || v == PlainValue::kLoss;
                    all_wins = all_wins && v == PlainValue::kWin;
                }
                if (any_loss || all_wins) {  // no move at all: all_wins holds, a loss
                    value_[i] = any_loss ? PlainValue::kWin : PlainValue::kLoss;
                    changed = true;
                }
            }
        }
        for (auto& v : value_)
            if (v == PlainValue::kUnknown) v = PlainValue::kDraw;
    }

    std::vector<Position<R>> positions_;
    std::unordered_map<Key, std::int64_t, Hash> number_;
    std::vector<std::int64_t> succ_;
    std::vector<std::size_t> succ_begin_;
    std::vector<PlainValue> value_;
};

}  // namespace dambit::reference
