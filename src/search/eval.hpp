// Static evaluation behind an interface: the hand-made evaluation of every variant.
//
// A learned evaluation can replace HandEvaluator by implementing Evaluator<R>; the search sees
// only the interface. Every weight is in eval_weights.hpp.
#pragma once

#include <array>
#include <cstdlib>

#include "movegen.hpp"
#include "position.hpp"
#include "search/eval_weights.hpp"
#include "search/score.hpp"

namespace dambit::search {

template <class R>
class Evaluator {
public:
    virtual ~Evaluator() = default;
    // The score of `p` for the side to move, in hundredths of a man. The search never asks about a
    // position in which the side to move must capture: such positions are played out first.
    virtual Score evaluate(const Position<R>& p) const = 0;
};

// Square masks the evaluation needs, computed once per board geometry.
template <class G>
struct EvalTables {
    using B = typename G::Bitboard;
    static constexpr int N = G::kSize;

    // Rank of a square counted from colour c's own back rank (0) towards its promotion rank.
    static constexpr std::array<std::array<int, G::kBits>, 2> kRank = [] {
        std::array<std::array<int, G::kBits>, 2> a{};
        for (int n = 1; n <= G::kSquares; ++n) {
            const auto c = G::coord_of_square(n);
            a[0][G::bit_of_square(n)] = c.rank;
            a[1][G::bit_of_square(n)] = N - 1 - c.rank;
        }
        return a;
    }();

    // Squares from which an enemy piece could stand in the way of colour c's man on a square: the
    // forward cone widening one file per rank.
    static constexpr std::array<std::array<B, G::kBits>, 2> kCone = [] {
        std::array<std::array<B, G::kBits>, 2> a{};
        for (int n = 1; n <= G::kSquares; ++n) {
            const auto c = G::coord_of_square(n);
            for (int m = 1; m <= G::kSquares; ++m) {
                const auto d = G::coord_of_square(m);
                const int df = std::abs(d.file - c.file);
                if (d.rank > c.rank && df <= d.rank - c.rank)
                    a[0][G::bit_of_square(n)] |= G::mask_of_square(m);
                if (d.rank < c.rank && df <= c.rank - d.rank)
                    a[1][G::bit_of_square(n)] |= G::mask_of_square(m);
            }
        }
        return a;
    }();

    // Squares whose cone (kCone) holds one of `enemy`, together with `enemy` itself: the squares
    // from which a piece of `enemy` is reached by backward diagonal steps of colour c's men. A
    // cone is exactly what such steps reach (a detour round a board edge is never needed), so the
    // spread of a whole set at once replaces a cone lookup per man.
    static constexpr B shadow(int c, B enemy) {
        B s = enemy;
        for (int i = 0; i < N - 1; ++i)
            s |= c == 0 ? B(G::template step<kSE>(s) | G::template step<kSW>(s))
                        : B(G::template step<kNE>(s) | G::template step<kNW>(s));
        return s;
    }

    // shadow() for both colours at once: lane c holds shadow(c, enemy[c]) (lanes 2 and 3 unused).
    static Lanes<B> shadows(B enemy_of_white, B enemy_of_black) {
        using L = Lanes<B>;
        constexpr L kMaskA(G::kPremask[kSE], G::kPremask[kNE], 0, 0);
        constexpr L kShiftA(B(G::kShift[kSE]), B(G::kShift[kNE]), 1, 1);
        constexpr L kMaskB(G::kPremask[kSW], G::kPremask[kNW], 0, 0);
        constexpr L kShiftB(B(G::kShift[kSW]), B(G::kShift[kNW]), 1, 1);
        L s(enemy_of_white, enemy_of_black, 0, 0);
        for (int i = 0; i < N - 1; ++i) s |= rotl(s & kMaskA, kShiftA) | rotl(s & kMaskB, kShiftB);
        return s;
    }

    static constexpr B mask_where(bool (*pred)(int file, int rank)) {
        B m = 0;
        for (int n = 1; n <= G::kSquares; ++n) {
            const auto c = G::coord_of_square(n);
            if (pred(c.file, c.rank)) m |= G::mask_of_square(n);
        }
        return m;
    }
    // The centre: d4, f4, c5, e5 on 8x8; squares 22-24 and 27-29 on 10x10.
    static constexpr B kCentre = mask_where([](int f, int r) {
        return N == 8 ? (f >= 2 && f <= 5 && r >= 3 && r <= 4)
                      : (f >= 2 && f <= 7 && r >= 4 && r <= 5);
    });
    static constexpr B kLeftWing = mask_where([](int f, int) { return f < N / 2; });
    static constexpr B kLongDiagonal = mask_where([](int f, int r) { return f == r; });
    static constexpr std::array<B, 2> kBackRank = {G::rank_mask(0), G::rank_mask(N - 1)};
    // The squares of each rank counted from colour c's own back rank.
    static constexpr std::array<std::array<B, N>, 2> kRankMask = [] {
        std::array<std::array<B, N>, 2> a{};
        for (int r = 0; r < N; ++r) {
            a[0][r] = G::rank_mask(r);
            a[1][r] = G::rank_mask(N - 1 - r);
        }
        return a;
    }();
};

template <class R>
class HandEvaluator final : public Evaluator<R> {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using T = EvalTables<G>;

public:
    static constexpr EvalWeights kW = eval_weights<R>();
    // Men at the start: the full-material end of the opening-to-ending blend.
    static constexpr int kStartMen = G::kSize == 8 ? 24 : 40;

    Score evaluate(const Position<R>& p) const override {
        const B men[2] = {p.pieces[0] & ~p.kings, p.pieces[1] & ~p.kings};
        const B kings[2] = {p.pieces[0] & p.kings, p.pieces[1] & p.kings};
        const int men_count[2] = {popcount(men[0]), popcount(men[1])};
        const int phase = std::min(men_count[0] + men_count[1], kStartMen);
        // Advancement counted rank by rank, both colours in one loop (a few popcounts instead of
        // a visit to every man; the compiler makes vector popcounts of it where it can).
        int opening[2] = {0, 0}, ending[2] = {0, 0};
        for (int j = 0; j < kAdvance.ranks; ++j) {
            const int n0 = popcount(B(men[0] & kAdvance.mask[0][j]));
            const int n1 = popcount(B(men[1] & kAdvance.mask[1][j]));
            opening[0] += kAdvance.opening[j] * n0;
            opening[1] += kAdvance.opening[j] * n1;
            ending[0] += kAdvance.ending[j] * n0;
            ending[1] += kAdvance.ending[j] * n1;
        }
        // Runaway men need the shadow of the enemy pieces of each colour without an enemy king:
        // both shadows are spread at once.
        Lanes<B> shadow{};
        if (!kings[0] || !kings[1]) shadow = T::shadows(p.pieces[1], p.pieces[0]);
        int side_score[2] = {0, 0};
        for (int c = 0; c < 2; ++c) {
            int s = kW.man * men_count[c] + kW.king * popcount(kings[c]);
            const bool them_no_king = kings[1 - c] == 0;
            s += (opening[c] * phase + ending[c] * (kStartMen - phase)) / kStartMen;
            // A man whose way to the crown no enemy piece can block.
            if (them_no_king)
                for_each_bit(B(men[c] & ~shadow[c]), [&](int b) {
                    s += kW.runaway[G::kSize - 1 - T::kRank[c][b]];
                });
            s += kW.centre * popcount(B(men[c] & T::kCentre));
            // The men of the other wing are the rest of the men.
            const int wing = std::abs(2 * popcount(B(men[c] & T::kLeftWing)) - men_count[c]);
            if (wing > 1) s -= kW.flank_imbalance * (wing - 1);
            if (them_no_king)
                s += kW.back_rank *
                     std::min(popcount(B(men[c] & T::kBackRank[c])), kW.back_rank_max);
            if (kings[c]) {
                s += kW.long_diagonal * popcount(B(kings[c] & T::kLongDiagonal));
                s += kW.king_mobility * king_reach(kings[c], p.empty());
            }
            side_score[c] = s;
        }
        Score score = side_score[0] - side_score[1];
        // Every known drawn ending has a king (and a board without pieces is never judged).
        if (p.kings || !p.occupied()) score = score * draw_scale(p) / 16;
        return p.side == Color::kWhite ? score : -score;
    }

    // Known drawn endings: 16 = no knowledge, less = the weaker side is known to hold.
    static int draw_scale(const Position<R>& p) {
        const B all_men = p.occupied() & ~p.kings;
        for (int weak = 0; weak < 2; ++weak) {
            const B w = p.pieces[weak], s = p.pieces[1 - weak];
            const int nw = popcount(w), ns = popcount(s);
            if constexpr (R::kKing == KingRange::kShort) {
                // Short kings: equal numbers of kings and nothing else is a draw.
                if (!all_men && nw == ns) return kW.draw_scale;
            } else {
                if (!(w & p.kings) || ns < nw) continue;
                // A lone king holds against two pieces on any board with flying kings, and against
                // three (the classic three kings against one, Petrov's triangle fails) when it
                // stands on the long diagonal; on 8x8 this is the textbook Russian draw, on 10x10
                // the main-line draw of International primers.
                if (nw == 1) {
                    if (ns <= 2) return kW.draw_scale;
                    if (ns == 3 && (w & T::kLongDiagonal) && !(s & ~p.kings)) return kW.draw_scale;
                }
                // Only kings, the stronger side one piece up at most: no way to force a capture.
                if (!all_men && ns <= nw + 1 && nw >= 2) return kW.draw_scale;
            }
        }
        return 16;
    }

private:
    // Empty squares the kings reach in one move (flying or short, by the variant's rules): the
    // four directions at once. Rays of different kings in one direction never overlap (the nearer
    // king blocks), so a popcount per direction counts every king's squares.
    static int king_reach(B kings, B empty) {
        const Lanes<B> reach = detail::king_reach<R>(kings, empty);
        return popcount(reach[0]) + popcount(reach[1]) + popcount(reach[2]) + popcount(reach[3]);
    }

    // The ranks that carry an advancement weight, with their masks for each colour.
    struct Advance {
        int ranks = 0;
        std::array<std::array<B, G::kSize>, 2> mask{};
        std::array<int, G::kSize> opening{}, ending{};
    };
    static constexpr Advance kAdvance = [] {
        Advance a;
        for (int r = 0; r < G::kSize; ++r) {
            if (kW.advance_opening[r] == 0 && kW.advance_ending[r] == 0) continue;
            a.mask[0][a.ranks] = T::kRankMask[0][r];
            a.mask[1][a.ranks] = T::kRankMask[1][r];
            a.opening[a.ranks] = kW.advance_opening[r];
            a.ending[a.ranks] = kW.advance_ending[r];
            ++a.ranks;
        }
        return a;
    }();
};

}  // namespace dambit::search
