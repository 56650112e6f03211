// The move generator's answers to the questions a search node asks, each worked out once.
//
// A quiescence node asks "must I capture?", then either generates the captures or asks "have I a
// move at all?". Through the core's entry points (has_capture, generate, has_move) the capture
// test runs three times at a quiet node and twice at a capturing one; here the jumps found by the
// test are kept and handed on to generation (detail::generate_side in movegen.hpp, the same steps
// as generate(), so the search's move indices, and so its table moves, are those of generate()),
// and "a move at all" is only whether any piece has a free neighbouring square.
#pragma once

#include "core/movegen.hpp"

namespace dambit::search {

template <class R, Color Us>
class NodeMoves {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;

public:
    explicit NodeMoves(const Position<R>& p)
        : p_(p),
          land_(detail::first_jumps<R, Us>(p)),
          kings_capture_(detail::kings_can_capture<R, Us>(p)) {}

    bool must_capture() const { return kings_capture_ || land_.any(); }

    // For a side without a capture: whether it has a quiet move.
    static bool has_quiet_move(const Position<R>& p) { return detail::has_quiet_move<R, Us>(p); }

    // Exactly generate<R>(p, list), with the capture test already made.
    void generate(MoveList<G>& list) const {
        detail::generate_side<R, Us>(p_, land_, kings_capture_, list, Duplicates::kDrop);
    }

private:
    const Position<R>& p_;
    const L land_;
    const bool kings_capture_;
};

}  // namespace dambit::search
