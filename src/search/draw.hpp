// The variants' draw rules (RULES.md §5) as counters carried along a line of play.
//
// Repetition is checked by the search from its key history; this file holds the move-count rules,
// which need two counters: plies since the last man move or capture (only kings moving), and the
// plies the material rules count (Russian: since the last capture or promotion; International:
// since the lone-king ending began).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "core/bits.hpp"
#include "core/notation.hpp"
#include "core/position.hpp"

namespace dambit::search {

namespace draw_detail {

// The pieces (n) and kings (k) of White ([0]) and Black ([1]).
struct Counts {
    int n[2], k[2];
};
template <class R>
Counts counts_of(const Position<R>& p) {
    return {{popcount(p.pieces[0]), popcount(p.pieces[1])},
            {popcount(p.pieces[0] & p.kings), popcount(p.pieces[1] & p.kings)}};
}
// The counts after `m`, a move of p.side in `p` whose counts are `c`.
template <class R>
Counts counts_after(const Position<R>& p, const Move<typename R::Geometry>& m, Counts c) {
    const int mover = int(p.side), other = 1 - mover;
    c.k[mover] += m.promotes() ? 1 : 0;
    c.n[other] -= popcount(m.captured);
    c.k[other] -= popcount(m.captured & p.kings);
    return c;
}

// International's endings of a lone king (FMJD; KNDB's rules say "after a position arose of one
// king against at most two pieces including a king", and of "three pieces including a king"):
// the side with one piece, a king, against at most two pieces of which one is a king (5 moves
// each, 10 plies), or three (16 moves each, 32 plies). King against king is one of the first.
enum class LoneKing { kNone, kFive, kSixteen };
inline constexpr int kFivePlies = 10, kSixteenPlies = 32;

// From the pieces and kings of White (n[0], k[0]) and Black.
constexpr LoneKing lone_king(const int (&n)[2], const int (&k)[2]) {
    for (int lone = 0; lone < 2; ++lone) {
        const int strong = 1 - lone;
        if (n[lone] != 1 || k[lone] != 1 || k[strong] == 0) continue;
        if (n[strong] <= 2) return LoneKing::kFive;
        if (n[strong] == 3) return LoneKing::kSixteen;
    }
    return LoneKing::kNone;
}

template <class R>
LoneKing lone_king(const Position<R>& p) {
    if (popcount(p.pieces[0] | p.pieces[1]) > 4) return LoneKing::kNone;
    const Counts c = counts_of(p);
    return lone_king(c.n, c.k);
}

// The count of the lone-king rules after a move from an ending `before` to one `after`, the
// count being `plies` before it. An ending that arises starts at 0; one that goes on counts
// on, through captures and promotions (the position of its kind arose before them); and when a
// capture turns sixteen moves into five, the five cannot outlast what was left of the sixteen.
constexpr std::uint16_t lone_king_plies(LoneKing before, LoneKing after, int plies) {
    if (after == LoneKing::kNone || before == LoneKing::kNone) return 0;
    if (before == LoneKing::kSixteen && after == LoneKing::kFive)
        return std::uint16_t(std::max(0, plies + 1 - (kSixteenPlies - kFivePlies)));
    return std::uint16_t(plies + 1);
}

// Russian (Kodeks): three or more kings against a lone king (the other side's one piece, a
// king), from the pieces and kings of White (n[0], k[0]) and Black. Its 15 moves count "from
// the moment the ratio was established": a promotion or a capture that keeps it (a fourth king
// crowned, the lone king taking one of four) does not start them again.
constexpr bool russian_lone_king(const int (&n)[2], const int (&k)[2]) {
    return (k[0] >= 3 && n[1] == 1 && k[1] == 1) || (k[1] >= 3 && n[0] == 1 && k[0] == 1);
}

template <class R>
bool russian_lone_king(const Position<R>& p) {
    const Counts c = counts_of(p);
    return russian_lone_king(c.n, c.k);
}

}  // namespace draw_detail

struct DrawCounters {
    std::uint16_t kings_only = 0;  // plies since a man moved or a piece was taken
    // The plies the material rules count: in Russian since a piece was taken or a man promoted
    // (in three or more kings against a lone king, since that ending began:
    // draw_detail::russian_lone_king); in International since the lone king's ending began
    // (draw_detail::lone_king_plies).
    std::uint16_t material = 0;

    // The counters after `m` is played in `p`.
    template <class R>
    DrawCounters after(const Position<R>& p, const Move<typename R::Geometry>& m) const {
        DrawCounters d = *this;
        d.kings_only = m.is_capture() || !m.king_moves() ? 0 : std::uint16_t(kings_only + 1);
        if constexpr (std::is_same_v<R, International>) {
            const int total = popcount(p.pieces[0] | p.pieces[1]);
            if (total - popcount(m.captured) > 4) {  // no lone king's ending after the move
                d.material = 0;
                return d;
            }
            const auto before = draw_detail::counts_of(p);
            const auto after = draw_detail::counts_after(p, m, before);
            d.material = draw_detail::lone_king_plies(draw_detail::lone_king(before.n, before.k),
                                                      draw_detail::lone_king(after.n, after.k),
                                                      material);
        } else if (!m.is_capture() && !m.promotes()) {
            d.material = std::uint16_t(material + 1);
        } else if constexpr (std::is_same_v<R, Russian>) {
            const auto before = draw_detail::counts_of(p);
            const auto after = draw_detail::counts_after(p, m, before);
            d.material = draw_detail::russian_lone_king(before.n, before.k) &&
                                 draw_detail::russian_lone_king(after.n, after.k)
                             ? std::uint16_t(material + 1)
                             : 0;
        } else {
            d.material = 0;
        }
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
        if constexpr (std::is_same_v<R, International>)
            d.material = draw_detail::lone_king_plies(draw_detail::lone_king(a),
                                                      draw_detail::lone_king(b), material);
        else if constexpr (std::is_same_v<R, Russian>)
            d.material = (capture || promoted) && !(draw_detail::russian_lone_king(a) &&
                                                    draw_detail::russian_lone_king(b))
                             ? 0
                             : std::uint16_t(material + 1);
        else
            d.material = capture || promoted ? 0 : std::uint16_t(material + 1);
        return d;
    }
};

// The counters at a FEN's position: its H field is the kings-only counter (fen_halfmove_clock);
// the material rules' counter is in no FEN and starts at 0.
inline DrawCounters fen_counters(std::string_view fen) {
    return {.kings_only = std::uint16_t(fen_halfmove_clock(fen))};
}

// The plies left before the move-count rules of variant R declare the game drawn, if the material
// stays as it is: 0 or less when they declare it drawn now, kNoCounterDraw when no rule runs.
inline constexpr int kNoCounterDraw = 1 << 20;
template <class R>
int plies_to_counter_draw(const Position<R>& p, const DrawCounters& c) {
    int left = kNoCounterDraw;
    const auto rule = [&](int limit, int counter) { left = std::min(left, limit - counter); };
    if constexpr (std::is_same_v<R, Russian>) {
        // Kodeks: 15 moves of each side with only kings moving (none without kings: a FEN's H
        // field with no king on the board counts no moves of kings).
        if (p.kings) rule(30, c.kings_only);
        const auto wk = popcount(p.pieces[0] & p.kings), bk = popcount(p.pieces[1] & p.kings);
        const auto w = popcount(p.pieces[0]), b = popcount(p.pieces[1]);
        // Three or more kings against a lone king: 15 moves.
        if (draw_detail::russian_lone_king(p)) rule(30, c.material);
        // Kings on both sides, material unchanged: 2-3 pieces 5 moves, 4-5 pieces 30, 6-7 60.
        if (wk > 0 && bk > 0) {
            const int n = w + b;
            const int limit = n <= 3 ? 10 : n <= 5 ? 60 : n <= 7 ? 120 : 0;
            if (limit) rule(limit, c.material);
        }
    } else if constexpr (std::is_same_v<R, International>) {
        // FMJD: 25 moves of each side with only kings moving and no capture (none without kings).
        if (p.kings) rule(50, c.kings_only);
        // A lone king against three pieces with a king: 16 moves; against one or two: 5 moves.
        switch (draw_detail::lone_king(p)) {
            case draw_detail::LoneKing::kFive: rule(draw_detail::kFivePlies, c.material); break;
            case draw_detail::LoneKing::kSixteen: rule(draw_detail::kSixteenPlies, c.material); break;
            case draw_detail::LoneKing::kNone: break;
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
    return c.kings_only < 10 && c.material < 10;
}

// Whether the move-count rules of variant R declare the position drawn. The caller has already
// found that the side to move has a legal move (a side left without one has lost, whatever the
// counters say).
template <class R>
bool drawn_by_counters(const Position<R>& p, const DrawCounters& c) {
    return plies_to_counter_draw(p, c) <= 0;
}

}  // namespace dambit::search
