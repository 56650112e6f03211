// Static evaluation behind an interface: the hand-made evaluation of every variant.
//
// A learned evaluation can replace HandEvaluator by implementing Evaluator<R>; the search sees
// only the interface. Every weight is in eval_weights.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#if defined(__AVX512BW__)
#include <immintrin.h>
#endif

#include "core/movegen.hpp"
#include "core/position.hpp"
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
    //
    // The spread doubles its reach at each level instead of stepping one rank at a time: the set
    // that reaches k steps, together with its jumps of k + 1 steps, reaches 2k + 1. A jump of J
    // steps is J + 1 rotations, one per mix of the two backward directions, each masked to the
    // squares whose target is on the board (a square J steps away in the cone is reached by some
    // path that stays on the board, so nothing is lost). N - 1 = 9 steps on 10x10 take 4 levels
    // (1, 2, 4, 2) and 13 rotations, the step by step spread 9 levels and 18 rotations; and the
    // rotations of a level do not wait for each other.
    static Lanes<B> shadows(B enemy_of_white, B enemy_of_black) {
        using L = Lanes<B>;
        L s(enemy_of_white, enemy_of_black, 0, 0);
#pragma GCC unroll 8
        for (int level = 0; level < kSpread.levels; ++level) {
            L reach = s;
#pragma GCC unroll 8
            for (int i = 0; i <= Spread::kMaxJump; ++i) {
                if (i > kSpread.jump[level]) break;
                const auto& r = kSpread.rotation[level][i];
                reach |= rotl(s & L(r.mask[0], r.mask[1], 0, 0), L(r.shift[0], r.shift[1], 1, 1));
            }
            s = reach;
        }
        return s;
    }

    // The levels of shadows(): the jump of each and its rotations (mix i: i steps towards the
    // left of the board and jump - i towards the right, backwards for colour c's men).
    struct Spread {
        struct Rotation {
            B mask[2] = {0, 0};   // by colour: the squares whose target is on the board
            B shift[2] = {1, 1};  // by colour: the rotation, in 1..kBits - 1
        };
        static constexpr int kMaxJump = N / 2;
        int levels = 0;
        std::array<int, 4> jump{};
        std::array<std::array<Rotation, kMaxJump + 1>, 4> rotation{};
    };
    static constexpr Spread kSpread = [] {
        Spread a;
        for (int covered = 0; covered < N - 1; ++a.levels) {
            const int jump = std::min(covered + 1, N - 1 - covered);
            a.jump[a.levels] = jump;
            for (int i = 0; i <= jump; ++i) {
                auto& r = a.rotation[a.levels][i];
                for (int c = 0; c < 2; ++c) {
                    const int left = c == 0 ? kSW : kNW, right = c == 0 ? kSE : kNE;
                    const int dr = c == 0 ? -jump : jump;
                    r.shift[c] =
                        B((i * G::kShift[left] + (jump - i) * G::kShift[right]) % G::kBits);
                    for (int n = 1; n <= G::kSquares; ++n) {
                        const auto from = G::coord_of_square(n);
                        if (G::square_of_coord(from.file + jump - 2 * i, from.rank + dr))
                            r.mask[c] |= G::mask_of_square(n);
                    }
                }
            }
            covered += jump;
        }
        return a;
    }();

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
        int opening[2], ending[2];
        advancement(men, opening, ending);
        // Runaway men need the shadow of the enemy pieces of each colour without an enemy king:
        // both shadows are spread at once.
        Lanes<B> shadow{};
        if (!kings[0] || !kings[1]) shadow = T::shadows(p.pieces[1], p.pieces[0]);
        const auto side = [&]<int C>() {
            return side_score<C>(men[C], kings[C], kings[1 - C], men_count[C], p.empty(),
                                 (opening[C] * phase + ending[C] * (kStartMen - phase)) / kStartMen,
                                 shadow[C]);
        };
        Score score = side.template operator()<0>() - side.template operator()<1>();
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
    // The terms of colour C but for the blended advancement `advance`: written for one colour at
    // a time, so that each colour's masks are constants.
    template <int C>
    [[gnu::always_inline]] static int side_score(B men, B kings, B their_kings, int men_count,
                                                 B empty, int advance, B shadow) {
        int s = kW.man * men_count + kW.king * popcount(kings) + advance;
        const bool them_no_king = their_kings == 0;
        // A man whose way to the crown no enemy piece can block.
        if (them_no_king) for_each_bit(B(men & ~shadow), [&](int b) { s += kRunaway[C][b]; });
        s += kW.centre * popcount(B(men & T::kCentre));
        // The men of the other wing are the rest of the men.
        const int wing = std::abs(2 * popcount(B(men & T::kLeftWing)) - men_count);
        if (wing > 1) s -= kW.flank_imbalance * (wing - 1);
        if (them_no_king)
            s += kW.back_rank * std::min(popcount(B(men & T::kBackRank[C])), kW.back_rank_max);
        if (kings) {
            s += kW.long_diagonal * popcount(B(kings & T::kLongDiagonal));
            s += kW.king_mobility * king_reach(kings, empty);
        }
        return s;
    }

    // The advancement sums of both colours, opening and ending tables (the weight of each man's
    // rank, summed).
    static void advancement(const B men[2], int opening[2], int ending[2]) {
#if defined(__AVX512BW__)
        if constexpr (G::kBits <= 64) {
            // Each man's weight is a byte of a per-square table: a masked load keeps the men's
            // bytes and a sum of absolute differences adds them, eight squares to a 64-bit lane.
            // The four sums (at most 50 weights of 40) are packed in 16-bit fields and the lanes
            // added once: two dozen instructions where the rank-by-rank popcounts took a hundred.
            // (Vector extensions rather than intrinsics for the shifts and the adds: GCC 12's
            // intrinsics for those warn of an uninitialised value.)
            using V = std::uint64_t __attribute__((vector_size(64)));
            const __m512i zero = _mm512_setzero_si512();
            const auto sum = [&](B m, const std::uint8_t* w) {
                return V(_mm512_sad_epu8(_mm512_maskz_loadu_epi8(__mmask64(m), w), zero));
            };
            const V v =
                sum(men[0], kAdvanceBytes.w[0][0]) | sum(men[0], kAdvanceBytes.w[0][1]) << 16 |
                sum(men[1], kAdvanceBytes.w[1][0]) << 32 | sum(men[1], kAdvanceBytes.w[1][1]) << 48;
            using V4 = std::uint64_t __attribute__((vector_size(32)));
            using V2 = std::uint64_t __attribute__((vector_size(16)));
            const V4 v4 = __builtin_shufflevector(v, v, 0, 1, 2, 3) +
                          __builtin_shufflevector(v, v, 4, 5, 6, 7);
            const V2 v2 =
                __builtin_shufflevector(v4, v4, 0, 1) + __builtin_shufflevector(v4, v4, 2, 3);
            const std::uint64_t total = v2[0] + v2[1];
            opening[0] = int(total & 0xffff);
            ending[0] = int((total >> 16) & 0xffff);
            opening[1] = int((total >> 32) & 0xffff);
            ending[1] = int(total >> 48);
            return;
        }
#endif
        // Rank by rank, both colours in one loop (a few popcounts instead of a visit to every
        // man; the compiler makes vector popcounts of it where it can).
        opening[0] = opening[1] = ending[0] = ending[1] = 0;
        for (int j = 0; j < kAdvance.ranks; ++j) {
            const int n0 = popcount(B(men[0] & kAdvance.mask[0][j]));
            const int n1 = popcount(B(men[1] & kAdvance.mask[1][j]));
            opening[0] += kAdvance.opening[j] * n0;
            opening[1] += kAdvance.opening[j] * n1;
            ending[0] += kAdvance.ending[j] * n0;
            ending[1] += kAdvance.ending[j] * n1;
        }
    }

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
    // The runaway bonus of colour c's man by square: by plies to the crown.
    static constexpr std::array<std::array<int, G::kBits>, 2> kRunaway = [] {
        std::array<std::array<int, G::kBits>, 2> a{};
        for (int c = 0; c < 2; ++c)
            for (int n = 1; n <= G::kSquares; ++n) {
                const int b = G::bit_of_square(n);
                a[c][b] = kW.runaway[G::kSize - 1 - T::kRank[c][b]];
            }
        return a;
    }();
    // The advancement weights by square: w[c][0] opening, w[c][1] ending, for colour c's men, one
    // byte per bit of the layout (0 off the board).
    struct alignas(64) AdvanceBytes {
        std::uint8_t w[2][2][64];
    };
    static constexpr AdvanceBytes kAdvanceBytes = [] {
        static_assert(G::kBits <= 64);
        AdvanceBytes a{};
        for (int c = 0; c < 2; ++c)
            for (int n = 1; n <= G::kSquares; ++n) {
                const int b = G::bit_of_square(n);
                a.w[c][0][b] = std::uint8_t(kW.advance_opening[T::kRank[c][b]]);
                a.w[c][1][b] = std::uint8_t(kW.advance_ending[T::kRank[c][b]]);
            }
        return a;
    }();
};

}  // namespace dambit::search
