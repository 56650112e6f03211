// The learned evaluation: the hand-made terms with fitted weights, plus patterns of board regions
// (as Scan's evaluation has them), every weight read from a weights file (search/weights.hpp).
//
// A pattern is a 4x4 window of the board: its 8 playable squares, each empty (or a king), a white
// man or a black man, make an index in 0..3^8-1 into a table of two weights, one for the opening
// and one for the ending, blended by the number of men as the hand-made advancement is. The
// windows start at every even file and rank (step 2: 9 on 8x8, 16 on 10x10), so they overlap by
// half, or at every file and rank (step 1: 25 and 49, every 4x4 window of the board); a weights
// file's number of windows says which. Weights file version 3 may add the four edge strips of
// Scan 2.0's evaluation (StripShape: 9 squares each, 3^9 indices), summed with the windows.
// The tables are stored whole, but a fit keeps them antisymmetric under the board turned round
// with the colours swapped (pattern_partner), so that the evaluation of a position and of its
// mirror image are the same.
//
// The hand-made terms are counted by term_counts(), the one description of them that the
// evaluation and the fit (learn/features.hpp) share: with the hand-made weights and no patterns
// the learned evaluation equals HandEvaluator exactly (tests/learn_test.cpp).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/position.hpp"
#include "search/eval.hpp"
#include "search/eval_weights.hpp"
#include "search/score.hpp"

namespace dambit::search {

// Every weight of a learned evaluation.
struct LearnedWeights {
    std::string variant;      // the rule set's name (R::kName)
    std::string description;  // how the weights were made: data, seed, losses (one paragraph)
    EvalWeights hand;         // the hand-made terms (back_rank_max and draw_scale are not fitted)
    int tempo = 0;            // for the side to move
    // Kings beyond the hand-made terms (weights file version 2; 0 in older files): per king
    // times the opening share of the blend (a king among many men), and for the side that alone
    // has kings (the first king), an opening and an ending weight blended like the advancement.
    int king_opening = 0;
    int sole_king_opening = 0, sole_king_ending = 0;
    int windows = 0;          // pattern windows (0: no patterns)
    // [window][index][0 = opening, 1 = ending], windows * kPatternIndices * 2 entries.
    std::vector<std::int16_t> patterns;
    int strips = 0;  // edge strips (weights file version 3; 0: none, else StripLayout's 4)
    // [strip][index][0 = opening, 1 = ending], strips * kStripIndices * 2 entries.
    std::vector<std::int16_t> strip_patterns;
};

inline constexpr int kPatternSquares = 8;
inline constexpr int kPatternIndices = 6561;  // 3^8
inline constexpr int kStrips = 4;  // edge strips on any board (StripShape)
inline constexpr int kStripSquares = 9;
inline constexpr int kStripIndices = 19683;   // 3^9

// The shapes of pattern regions on a board of N x N squares: region w covers the squares (f, r)
// for which covers(w, f, r). Each shape's regions come in pairs that the board turned round
// ((f, r) to (N-1-f, N-1-r)) maps onto each other: region w onto region kCount - 1 - w.
//
// The 4x4 windows that start every Step files and ranks (8 squares each).
template <int N, int Step>
struct WindowShape {
    static_assert(Step == 1 || Step == 2);
    static constexpr int kSquares = kPatternSquares;
    static constexpr int kPerSide = (N - 4) / Step + 1;  // origins 0, Step, ..., N - 4
    static constexpr int kCount = kPerSide * kPerSide;
    // Window w has its origin at file Step * (w % kPerSide), rank Step * (w / kPerSide).
    static constexpr bool covers(int w, int f, int r) {
        const int f0 = Step * (w % kPerSide), r0 = Step * (w / kPerSide);
        return f >= f0 && f < f0 + 4 && r >= r0 && r < r0 + 4;
    }
};
// The edge strips, as Scan 2.0's evaluation has them: the three files at each edge over the six
// ranks from each back rank (9 squares each), strip 0 files a-c and strip 1 the last three files
// from White's back rank, strips 2 and 3 their images from Black's (the board turned round).
template <int N>
struct StripShape {
    static constexpr int kSquares = kStripSquares;
    static constexpr int kCount = kStrips;
    static constexpr bool covers(int s, int f, int r) {
        const bool left = s == 0 || s == 2, low = s < 2;
        return (left ? f < 3 : f >= N - 3) && (low ? r < 6 : r >= N - 6);
    }
};

// The regions of Shape on geometry G, and the base-3 arithmetic of their indices: each of a
// region's squares is a trit, 1 for a white man, 2 for a black man, 0 otherwise.
template <class G, class Shape>
struct PatternRegions {
    using B = typename G::Bitboard;
    static constexpr int N = G::kSize;
    static constexpr int kSquares = Shape::kSquares;
    static constexpr int kCount = Shape::kCount;
    static constexpr int kWindows = kCount;  // (the name the 4x4 windows' code uses)
    static constexpr int kIndices = [] {
        int v = 1;
        for (int i = 0; i < kSquares; ++i) v *= 3;
        return v;
    }();

    // The playable squares of region w.
    static constexpr std::array<B, kCount> kMask = [] {
        std::array<B, kCount> a{};
        for (int w = 0; w < kCount; ++w)
            for (int f = 0; f < N; ++f)
                for (int r = 0; r < N; ++r)
                    if (Shape::covers(w, f, r))
                        if (const int n = G::square_of_coord(f, r)) a[w] |= G::mask_of_square(n);
        return a;
    }();
    // The bit indices of region w's squares, lowest first: trit i of an index is the square
    // kBits[w][i] (the order in which a parallel bit extract lays them out).
    static constexpr std::array<std::array<int, kSquares>, kCount> kBits = [] {
        std::array<std::array<int, kSquares>, kCount> a{};
        for (int w = 0; w < kCount; ++w) {
            int i = 0;
            for (int b = 0; b < G::kBits; ++b)
                if ((kMask[w] >> b) & 1) a[w][i++] = b;
        }
        return a;
    }();
    // Bits x (kSquares of them, trit positions) read as base-3 digits 0/1: sum of 3^i over set
    // bits.
    static constexpr std::array<std::uint16_t, (1 << kSquares)> kTernary = [] {
        std::array<std::uint16_t, (1 << kSquares)> a{};
        for (int x = 0; x < (1 << kSquares); ++x) {
            int v = 0, p = 1;
            for (int i = 0; i < kSquares; ++i, p *= 3)
                if ((x >> i) & 1) v += p;
            a[std::size_t(x)] = std::uint16_t(v);
        }
        return a;
    }();

    // The bits of x under region w's mask, packed low (pext).
    static unsigned extract(B x, int w) {
#if defined(__BMI2__)
        if constexpr (sizeof(B) == 8)
            return unsigned(_pext_u64(x, kMask[w]));
        else
            return unsigned(_pext_u32(x, kMask[w]));
#else
        unsigned v = 0;
        for (int i = 0; i < kSquares; ++i) v |= unsigned((x >> kBits[w][i]) & 1) << i;
        return v;
#endif
    }
    // The index of region w: 1 for a white man, 2 for a black man, 0 otherwise, per square.
    static int index(int w, B white_men, B black_men) {
        return kTernary[extract(white_men, w)] + 2 * kTernary[extract(black_men, w)];
    }

    // The region and index that region w with index `index` becomes when the board is turned
    // round and the colours are swapped.
    static constexpr int partner_window(int w) { return kCount - 1 - w; }
    static constexpr int partner_index(int w, int index) {
        const int pw = partner_window(w);
        int out = 0;
        for (int i = 0; i < kSquares; ++i, index /= 3) {
            const int t = index % 3;
            const auto c = G::coord_of_bit(kBits[w][i]);
            const int turned = G::bit_of_square(G::square_of_coord(N - 1 - c.file, N - 1 - c.rank));
            int j = 0;
            while (kBits[pw][j] != turned) ++j;
            int p = 1;
            for (int k = 0; k < j; ++k) p *= 3;
            out += (t == 0 ? 0 : 3 - t) * p;
        }
        return out;
    }
};

// The 4x4 windows of geometry G that start every Step files and ranks.
template <class G, int Step = 2>
using PatternLayout = PatternRegions<G, WindowShape<G::kSize, Step>>;
// The four edge strips of geometry G.
template <class G>
using StripLayout = PatternRegions<G, StripShape<G::kSize>>;

// The hand-made terms of one colour, counted (the weights multiply these).
struct TermCounts {
    int men = 0, kings = 0;
    std::array<int, 10> rank{};     // men by rank counted from the own back rank
    std::array<int, 10> runaway{};  // unstoppable men by plies to the crown (the opponent has no king)
    int centre = 0;
    int flank = 0;  // men of wing difference beyond one: max(|left - right| - 1, 0)
    int back = 0;   // men on the own back rank, at most back_rank_max (the opponent has no king)
    int long_diagonal = 0;
    int king_reach = 0;
    int sole_king = 0;  // 1 when this colour has a king and the other has none
};

// The counts of both colours (index 0 White), as HandEvaluator weighs them.
template <class R>
void term_counts(const Position<R>& p, int back_rank_max, std::array<TermCounts, 2>& out) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using T = EvalTables<G>;
    constexpr int N = G::kSize;
    const B men[2] = {p.pieces[0] & ~p.kings, p.pieces[1] & ~p.kings};
    const B kings[2] = {p.pieces[0] & p.kings, p.pieces[1] & p.kings};
    Lanes<B> shadow{};
    if (!kings[0] || !kings[1]) shadow = T::shadows(p.pieces[1], p.pieces[0]);
    for (int c = 0; c < 2; ++c) {
        TermCounts& t = out[c];
        t = TermCounts{};
        t.men = popcount(men[c]);
        t.kings = popcount(kings[c]);
        for (int r = 0; r < N; ++r) t.rank[r] = popcount(B(men[c] & T::kRankMask[c][r]));
        const bool them_no_king = kings[1 - c] == 0;
        if (them_no_king) {
            for_each_bit(B(men[c] & ~shadow[c]),
                         [&](int b) { ++t.runaway[N - 1 - T::kRank[c][b]]; });
            t.back = std::min(popcount(B(men[c] & T::kBackRank[c])), back_rank_max);
        }
        t.centre = popcount(B(men[c] & T::kCentre));
        const int wing = std::abs(2 * popcount(B(men[c] & T::kLeftWing)) - t.men);
        t.flank = std::max(wing - 1, 0);
        t.sole_king = kings[c] && !kings[1 - c] ? 1 : 0;
        if (kings[c]) {
            t.long_diagonal = popcount(B(kings[c] & T::kLongDiagonal));
            const Lanes<B> reach = detail::king_reach<R>(kings[c], p.empty());
            t.king_reach = popcount(reach[0]) + popcount(reach[1]) + popcount(reach[2]) +
                           popcount(reach[3]);
        }
    }
}

// The pattern step a weights file's number of windows names for geometry G: 2 or 1, or 0 when
// it has no patterns or a number no layout has.
template <class G>
constexpr int pattern_step(int windows) {
    return windows == PatternLayout<G, 2>::kWindows   ? 2
           : windows == PatternLayout<G, 1>::kWindows ? 1
                                                      : 0;
}

template <class R>
class LearnedEvaluator final : public Evaluator<R> {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;

public:
    static constexpr int kStartMen = HandEvaluator<R>::kStartMen;

    // `w` must be for this variant with no patterns or the windows of a layout (weights.hpp
    // checks files).
    explicit LearnedEvaluator(const LearnedWeights& w)
        : w_(w.hand),
          tempo_(w.tempo),
          king_opening_(w.king_opening),
          sole_opening_(w.sole_king_opening),
          sole_ending_(w.sole_king_ending),
          step_(pattern_step<G>(w.windows)),
          strips_(w.strips != 0) {
        if (step_) patterns_ = pairs(w.patterns);
        if (strips_) strip_patterns_ = pairs(w.strip_patterns);
    }

    Score evaluate(const Position<R>& p) const override {
        std::array<TermCounts, 2> t;
        term_counts<R>(p, w_.back_rank_max, t);
        const int phase = std::min(t[0].men + t[1].men, kStartMen);
        Score score = side_value(t[0], phase) - side_value(t[1], phase);
        if (step_ || strips_) {
            const B wm = p.pieces[0] & ~p.kings, bm = p.pieces[1] & ~p.kings;
            Sum e = step_ == 2   ? pattern_sum<PatternLayout<G, 2>>(patterns_, wm, bm)
                    : step_ == 1 ? pattern_sum<PatternLayout<G, 1>>(patterns_, wm, bm)
                                 : Sum{};
            if (strips_) {
                const Sum s = pattern_sum<StripLayout<G>>(strip_patterns_, wm, bm);
                e.opening += s.opening;
                e.ending += s.ending;
            }
            score += (e.opening * phase + e.ending * (kStartMen - phase)) / kStartMen;
        }
        if (p.kings || !p.occupied()) score = score * HandEvaluator<R>::draw_scale(p) / 16;
        // Fitted weights stay far inside the bound; the clamp is for any file's (weights.cpp
        // bounds each hand-made weight, so the sums above cannot overflow).
        // The tempo inside the clamp: a file's tempo may be as large as any weight.
        return std::clamp((p.side == Color::kWhite ? score : -score) + tempo_, -kMaxStatic,
                          kMaxStatic);
    }

    // The value of one colour's terms, with the advancement blended as HandEvaluator blends it
    // (and the king terms of weights file version 2 in the same blend).
    int side_value(const TermCounts& t, int phase) const {
        int opening = king_opening_ * t.kings + sole_opening_ * t.sole_king;
        int ending = sole_ending_ * t.sole_king, runaway = 0;
        for (int r = 0; r < G::kSize; ++r) {
            opening += w_.advance_opening[r] * t.rank[r];
            ending += w_.advance_ending[r] * t.rank[r];
        }
        for (int k = 0; k < 10; ++k) runaway += w_.runaway[k] * t.runaway[k];
        return w_.man * t.men + w_.king * t.kings +
               (opening * phase + ending * (kStartMen - phase)) / kStartMen + runaway +
               w_.centre * t.centre - w_.flank_imbalance * t.flank + w_.back_rank * t.back +
               w_.long_diagonal * t.long_diagonal + w_.king_mobility * t.king_reach;
    }

private:
    struct Pair {
        std::int16_t opening, ending;
    };
    struct Sum {
        int opening = 0, ending = 0;
    };
    // A file's table ([region][index][opening, ending]) as pairs.
    static std::vector<Pair> pairs(const std::vector<std::int16_t>& table) {
        std::vector<Pair> out(table.size() / 2);
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = {table[2 * i], table[2 * i + 1]};
        return out;
    }
    template <class L>
    static Sum pattern_sum(const std::vector<Pair>& table, B wm, B bm) {
        Sum s;
        for (int w = 0; w < L::kCount; ++w) {
            const Pair& e = table[std::size_t(w) * L::kIndices + L::index(w, wm, bm)];
            s.opening += e.opening;
            s.ending += e.ending;
        }
        return s;
    }
    EvalWeights w_;
    int tempo_;
    int king_opening_, sole_opening_, sole_ending_;
    int step_;  // the patterns' layout (PatternLayout's Step), 0 for none
    bool strips_;
    std::vector<Pair> patterns_;
    std::vector<Pair> strip_patterns_;
};

}  // namespace dambit::search
