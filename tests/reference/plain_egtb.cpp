// The plain endgame solver's members (plain_egtb.hpp), for the six variants.
#include "reference/plain_egtb.hpp"

#include "core/movegen.hpp"

namespace dambit::reference {

template <class R>
PlainSolver<R>::PlainSolver(int max_pieces) {
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

template <class R>
std::size_t PlainSolver<R>::Hash::operator()(const Key& k) const {
    std::uint64_t h = std::uint64_t(k.white) * 0x9E3779B97F4A7C15ull;
    h ^= std::uint64_t(k.black) * 0xC2B2AE3D27D4EB4Full + (h << 6);
    h ^= std::uint64_t(k.kings) * 0x165667B19E3779F9ull + (h >> 3);
    return std::size_t(h ^ std::uint64_t(k.white_to_move));
}

template <class R>
typename PlainSolver<R>::Key PlainSolver<R>::key(const Position<R>& p) {
    return {p.pieces[0], p.pieces[1], p.kings, p.side == Color::kWhite};
}

template <class R>
void PlainSolver<R>::place(Position<R>& p, int from, int left) {
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

template <class R>
void PlainSolver<R>::solve() {
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

template class PlainSolver<Russian>;
template class PlainSolver<Czech>;
template class PlainSolver<Brazilian>;
template class PlainSolver<Pool>;
template class PlainSolver<English>;
template class PlainSolver<International>;

}  // namespace dambit::reference
