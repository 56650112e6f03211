// The variants' draw rules (RULES.md §5) as counters carried along a line of play.
//
// Repetition is checked by the search from its key history; this file holds the move-count rules,
// which need two counters: plies since the last man move or capture (only kings moving), and plies
// since the last capture or promotion (no change of material).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/bits.hpp"
#include "core/position.hpp"

namespace dambit::search {

struct DrawCounters {
    std::uint16_t kings_only = 0;     // plies since a man moved or a piece was taken
    std::uint16_t same_material = 0;  // plies since a piece was taken or a man promoted

    // The counters after `m` is played in `p` (the move alone decides; the position is there for
    // overload resolution against the position-pair form below).
    template <class R>
    DrawCounters after(const Position<R>&, const Move<typename R::Geometry>& m) const {
        DrawCounters d = *this;
        d.kings_only = m.is_capture() || !m.king_moves() ? 0 : std::uint16_t(kings_only + 1);
        d.same_material = m.is_capture() || m.promotes() ? 0 : std::uint16_t(same_material + 1);
        return d;
    }

    // The counters after the game went from `a` to `b` by one move (for a game record given as a
    // list of positions rather than moves).
    template <class R>
    DrawCounters after(const Position<R>& a, const Position<R>& b) const {
        const auto mover = int(a.side);
        const auto men_before = a.pieces[mover] & ~a.kings, men_after = b.pieces[mover] & ~b.kings;
        const bool capture = b.pieces[1 - mover] != a.pieces[1 - mover];
        const bool man_moved = men_before != men_after;
        const bool promoted =
            popcount(b.kings & b.pieces[mover]) > popcount(a.kings & a.pieces[mover]);
        DrawCounters d = *this;
        d.kings_only = capture || man_moved ? 0 : std::uint16_t(kings_only + 1);
        d.same_material = capture || promoted ? 0 : std::uint16_t(same_material + 1);
        return d;
    }
};

// The plies left before the move-count rules of variant R declare the game drawn, if the material
// stays as it is: 0 or less when they declare it drawn now, kNoCounterDraw when no rule runs.
inline constexpr int kNoCounterDraw = 1 << 20;
template <class R>
int plies_to_counter_draw(const Position<R>& p, const DrawCounters& c) {
    int left = kNoCounterDraw;
    const auto rule = [&](int limit, int counter) { left = std::min(left, limit - counter); };
    if constexpr (std::is_same_v<R, Russian>) {
        // Kodeks: 15 moves of each side with only kings moving.
        rule(30, c.kings_only);
        const auto wk = popcount(p.pieces[0] & p.kings), bk = popcount(p.pieces[1] & p.kings);
        const auto w = popcount(p.pieces[0]), b = popcount(p.pieces[1]);
        // Three or more kings against a lone king: 15 moves.
        if ((wk >= 3 && b == 1 && bk == 1) || (bk >= 3 && w == 1 && wk == 1))
            rule(30, c.same_material);
        // Kings on both sides, material unchanged: 2-3 pieces 5 moves, 4-5 pieces 30, 6-7 60.
        if (wk > 0 && bk > 0) {
            const int n = w + b;
            const int limit = n <= 3 ? 10 : n <= 5 ? 60 : n <= 7 ? 120 : 0;
            if (limit) rule(limit, c.same_material);
        }
    } else if constexpr (std::is_same_v<R, International>) {
        // FMJD: 25 moves of each side with only kings moving and no capture.
        rule(50, c.kings_only);
        // A lone king against three pieces with a king: 16 moves; against two: 5 moves.
        for (int lone = 0; lone < 2; ++lone) {
            const auto weak = p.pieces[lone], strong = p.pieces[1 - lone];
            if (popcount(weak) != 1 || !(weak & p.kings) || !(strong & p.kings)) continue;
            const int n = popcount(strong);
            if (n == 3) rule(32, c.same_material);
            if (n == 2) rule(10, c.same_material);
        }
    } else {
        // The other variants here have only the repetition rule.
        (void)p;
        (void)c;
    }
    return left;
}

// Whether counters this low leave every move-count rule running (the shortest takes 10 plies): a
// cheap test before plies_to_counter_draw, for the leaves of a search.
constexpr bool counters_below_every_rule(const DrawCounters& c) {
    return c.kings_only < 10 && c.same_material < 10;
}

// Whether the move-count rules of variant R declare the position drawn. The caller has already
// found that the side to move has a legal move (a side left without one has lost, whatever the
// counters say).
template <class R>
bool drawn_by_counters(const Position<R>& p, const DrawCounters& c) {
    return plies_to_counter_draw(p, c) <= 0;
}

}  // namespace dambit::search
