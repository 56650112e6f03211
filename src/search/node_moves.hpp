// The move generator's answers to the questions a search node asks, each worked out once.
//
// A quiescence node asks "must I capture?", then either generates the captures or asks "have I a
// move at all?". Through the core's entry points (has_capture, generate, has_move) the capture
// test runs three times at a quiet node and twice at a capturing one; here the jumps found by the
// test are kept and handed on to generation, and "a move at all" is only whether any piece has a
// free neighbouring square (a count of the moves is not needed). The list is built by the same
// steps, in the same order, as generate() builds it (detail::generate_side in movegen.hpp): the
// search's move indices, and so its table moves, are those of generate().
#pragma once

#include "movegen.hpp"

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

    // For a side without a capture: whether it has a quiet move (a man with a free square ahead,
    // or a king with a free neighbouring square).
    static bool has_quiet_move(const Position<R>& p) {
        using S = detail::Side<R, Us>;
        const B empty = p.empty(), own = p.pieces[int(Us)];
        const B men = own & ~p.kings, kings = own & p.kings;
        if (B(G::template step<S::kLeft>(men) | G::template step<S::kRight>(men)) & empty)
            return true;
        return kings && (G::step4(L::broadcast(kings)) & L::broadcast(empty)).any();
    }

    // Exactly generate<R>(p, list).
    void generate(MoveList<G>& list) const {
        detail::ListSink<R, Duplicates::kDrop, Move<G>> sink(list);
        if (!must_capture())
            detail::generate_quiet<R, Us>(p_, sink);
        else if (detail::single_jumps_only<R, Us>(p_, land_, kings_capture_))
            detail::emit_single_jumps<R, Us>(land_, sink);
        else
            detail::generate_captures<R, Us>(p_, sink, detail::jump_origins<G>(land_));
    }

private:
    const Position<R>& p_;
    const L land_;
    const bool kings_capture_;
};

}  // namespace dambit::search
