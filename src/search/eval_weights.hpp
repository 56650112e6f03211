// Every weight of the hand-made evaluation, per variant, with where each value came from.
//
// None of these values has been tuned yet: they are starting points set by hand from the common
// wisdom of each game (the sources are named beside each value) and checked only for sanity in
// self-play and on the tactical tests. The README describes how to tune them (self-play or a fit to
// game results); a tuned set replaces the numbers here and nothing else.
#pragma once

#include <array>

#include "core/rules.hpp"

namespace dambit::search {

struct EvalWeights {
    int man = 100;  // the unit of all scores: a man is 100 by definition
    int king = 0;
    // Per man, by rank counted from its own back rank (index 0) to the rank before promotion;
    // blended from the opening table to the ending table as the men come off.
    std::array<int, 10> advance_opening{};
    std::array<int, 10> advance_ending{};
    int centre = 0;           // per man on a central square
    int flank_imbalance = 0;  // per man of difference between the two wings, beyond one
    int back_rank = 0;        // per man on its own back rank while the opponent has no king
    int back_rank_max = 0;    // the guard counts at most this many men
    // A man no enemy piece can intercept, while the opponent has no king: by plies to promotion.
    std::array<int, 10> runaway{};
    int king_mobility = 0;  // per empty square a king reaches
    int long_diagonal = 0;  // a king standing on the long diagonal (a1-h8, 46-5)
    // Draw knowledge: a score is multiplied by draw_scale / 16 in endings the weaker side is known
    // to hold (see eval.hpp for which endings each variant knows).
    int draw_scale = 0;
};

namespace weights_detail {

// Advancement on 8x8 (ranks 0..6 from the own back rank). Opening: men that rush forward early are
// weak (a common principle in Russian and checkers primers), so only mid-board presence is paid.
// Ending: every rank nearer the crown counts, the race to promote decides most endings.
inline constexpr std::array<int, 10> kAdvanceOpening8 = {0, 2, 4, 6, 6, 4, 8, 0, 0, 0};
inline constexpr std::array<int, 10> kAdvanceEnding8 = {0, 4, 8, 14, 20, 28, 40, 0, 0, 0};
// Runaway bonus by plies to promotion 1..7 (index = plies): worth most of a king when about to
// crown.
inline constexpr std::array<int, 10> kRunaway8 = {0, 120, 100, 80, 60, 45, 30, 20, 0, 0};

// The same on 10x10 (ranks 0..8).
inline constexpr std::array<int, 10> kAdvanceOpening10 = {0, 1, 2, 4, 6, 6, 5, 4, 8, 0};
inline constexpr std::array<int, 10> kAdvanceEnding10 = {0, 3, 6, 10, 14, 19, 25, 32, 40, 0};
inline constexpr std::array<int, 10> kRunaway10 = {0, 150, 130, 110, 90, 70, 55, 40, 30, 20};

}  // namespace weights_detail

template <class R>
constexpr EvalWeights eval_weights();

// Russian: a flying king is reckoned at two and a half to three men in Russian practice (the usual
// rule of thumb in Russian draughts primers); 250 is the low end because men capture backwards
// and kings are easier to catch than in Czech. The other terms are hand-set.
template <>
constexpr EvalWeights eval_weights<Russian>() {
    EvalWeights w;
    w.king = 250;
    w.advance_opening = weights_detail::kAdvanceOpening8;
    w.advance_ending = weights_detail::kAdvanceEnding8;
    w.centre = 8;
    w.flank_imbalance = 4;
    w.back_rank = 10;
    w.back_rank_max = 2;
    w.runaway = weights_detail::kRunaway8;
    w.king_mobility = 2;
    w.long_diagonal = 20;
    w.draw_scale = 1;
    return w;
}

// Czech: men cannot capture backwards, so a king is harder to trap and worth more: 300, hand-set.
template <>
constexpr EvalWeights eval_weights<Czech>() {
    EvalWeights w = eval_weights<Russian>();
    w.king = 300;
    return w;
}

// Brazilian and Pool: flying kings on 8x8 like Russian; the same hand-set values.
template <>
constexpr EvalWeights eval_weights<Brazilian>() {
    return eval_weights<Russian>();
}
template <>
constexpr EvalWeights eval_weights<Pool>() {
    return eval_weights<Russian>();
}

// English: a king moves one square, so it is worth far less; checkers programs commonly put it near
// one and a half men (a rule of thumb of checkers literature). No long diagonal bonus: a short king
// gains nothing special there. 150 is hand-set.
template <>
constexpr EvalWeights eval_weights<English>() {
    EvalWeights w = eval_weights<Russian>();
    w.king = 150;
    w.king_mobility = 3;
    w.long_diagonal = 0;
    w.back_rank = 12;
    return w;
}

// International: a king is reckoned at about three men in 10x10 practice (the usual rule of thumb
// of draughts primers). The other terms are hand-set on the 10x10 tables above.
template <>
constexpr EvalWeights eval_weights<International>() {
    EvalWeights w;
    w.king = 300;
    w.advance_opening = weights_detail::kAdvanceOpening10;
    w.advance_ending = weights_detail::kAdvanceEnding10;
    w.centre = 6;
    w.flank_imbalance = 3;
    w.back_rank = 8;
    w.back_rank_max = 3;
    w.runaway = weights_detail::kRunaway10;
    w.king_mobility = 1;
    w.long_diagonal = 15;
    w.draw_scale = 1;
    return w;
}

}  // namespace dambit::search
