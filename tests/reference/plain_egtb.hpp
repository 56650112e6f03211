// A deliberately plain endgame solver, used only to check the table builder.
//
// It shares nothing with src/egtb/ but the move generator: positions are found by trying every
// square for every piece, numbered through a hash map, their successors listed once, and the
// values found by sweeping over all positions until nothing changes (a position is won if a move
// reaches a lost one, lost if every move reaches a won one or it has none; whatever is left is
// drawn). Slow and memory-hungry on purpose: it is easy to check by reading.
//
// Its members are compiled once, in plain_egtb.cpp, for the six variants, and there outside the
// sanitizers (tests/CMakeLists.txt): it only checks the tables, and under AddressSanitizer its hash
// map had taken most of the endgame tests' time.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/position.hpp"
#include "core/rules.hpp"

namespace dambit::reference {

enum class PlainValue : std::uint8_t { kUnknown, kWin, kLoss, kDraw };

template <class R>
class PlainSolver {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;

public:
    // Every position with both sides on the board, 2..max_pieces pieces, either side to move.
    explicit PlainSolver(int max_pieces);

    const std::vector<Position<R>>& positions() const { return positions_; }
    PlainValue value(std::size_t i) const { return value_[i]; }

private:
    struct Key {
        B white, black, kings;
        bool white_to_move;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct Hash {
        std::size_t operator()(const Key& k) const;
    };
    static Key key(const Position<R>& p);
    // Puts pieces on squares `from` and above, at most `left` more.
    void place(Position<R>& p, int from, int left);
    void solve();

    std::vector<Position<R>> positions_;
    std::unordered_map<Key, std::int64_t, Hash> number_;
    std::vector<std::int64_t> succ_;
    std::vector<std::size_t> succ_begin_;
    std::vector<PlainValue> value_;
};

extern template class PlainSolver<Russian>;
extern template class PlainSolver<Czech>;
extern template class PlainSolver<Brazilian>;
extern template class PlainSolver<Pool>;
extern template class PlainSolver<English>;
extern template class PlainSolver<International>;

}  // namespace dambit::reference
