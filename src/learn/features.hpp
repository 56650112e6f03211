// What the fit (learn/fit.hpp) sees of a position: the learned evaluation's terms as numbers, in
// the order of the parameter vector, and the weights file made from a fitted vector.
//
// The parameters: the hand-made terms (kHandParams, in hand_param_names() order, the tempo last),
// then for each pattern window and index an opening and an ending weight. Pattern weights are
// tied in pairs (the board turned round with the colours swapped, PatternLayout::partner_index):
// the fit sees only the first of each pair (the canonical one), and the second is its negation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "learn/dataset.hpp"
#include "learn/selfplay.hpp"
#include "search/learned_eval.hpp"

namespace dambit::learn {

inline constexpr int kHandParams = 41;
inline constexpr std::uint32_t kNoPattern = 0xffffffffu;

inline std::vector<std::string> hand_param_names() {
    std::vector<std::string> n = {"man", "king"};
    for (int r = 0; r < 10; ++r) n.push_back("advance_opening[" + std::to_string(r) + "]");
    for (int r = 0; r < 10; ++r) n.push_back("advance_ending[" + std::to_string(r) + "]");
    for (const char* s : {"centre", "flank_imbalance", "back_rank"}) n.push_back(s);
    for (int r = 0; r < 10; ++r) n.push_back("runaway[" + std::to_string(r) + "]");
    for (const char* s : {"king_mobility", "long_diagonal", "king_opening", "sole_king_opening",
                          "sole_king_ending", "tempo"})
        n.push_back(s);
    return n;
}

// The hand-made weights, the king terms and the tempo as parameters, and back.
inline std::array<double, kHandParams> hand_params(const search::LearnedWeights& lw) {
    const search::EvalWeights& w = lw.hand;
    std::array<double, kHandParams> p{};
    int i = 0;
    p[i++] = w.man;
    p[i++] = w.king;
    for (int v : w.advance_opening) p[i++] = v;
    for (int v : w.advance_ending) p[i++] = v;
    p[i++] = w.centre;
    p[i++] = w.flank_imbalance;
    p[i++] = w.back_rank;
    for (int v : w.runaway) p[i++] = v;
    p[i++] = w.king_mobility;
    p[i++] = w.long_diagonal;
    p[i++] = lw.king_opening;
    p[i++] = lw.sole_king_opening;
    p[i++] = lw.sole_king_ending;
    p[i++] = lw.tempo;
    return p;
}
inline void set_hand_params(const double* p, search::LearnedWeights& lw) {
    search::EvalWeights& w = lw.hand;
    auto r = [&](double x) { return int(x >= 0 ? x + 0.5 : x - 0.5); };
    int i = 0;
    w.man = r(p[i++]);
    w.king = r(p[i++]);
    for (int& v : w.advance_opening) v = r(p[i++]);
    for (int& v : w.advance_ending) v = r(p[i++]);
    w.centre = r(p[i++]);
    w.flank_imbalance = r(p[i++]);
    w.back_rank = r(p[i++]);
    for (int& v : w.runaway) v = r(p[i++]);
    w.king_mobility = r(p[i++]);
    w.long_diagonal = r(p[i++]);
    lw.king_opening = r(p[i++]);
    lw.sole_king_opening = r(p[i++]);
    lw.sole_king_ending = r(p[i++]);
    lw.tempo = r(p[i++]);
}

// The canonical parameter of each region's index (layout L: search::PatternLayout's windows or
// search::StripLayout's strips): its place among L's parameters (region * L::kIndices + index of
// the canonical member of its pair, times 2 for the two phases), with bit 0 set when this member
// is the negated one; kNoPattern when the index is its own partner (its weight is then 0).
//
// Built by a function that is not constexpr on purpose: GCC tries to evaluate the initializer of
// a static at compile time when every call in it is constexpr (as a lambda's is), and gave up on
// this one only after millions of steps, several seconds of every file that used it.
template <class L>
std::vector<std::uint32_t> build_canonical_regions() {
    std::vector<std::uint32_t> t(std::size_t(L::kCount) * std::size_t(L::kIndices));
    for (int w = 0; w < L::kCount; ++w)
        for (int i = 0; i < L::kIndices; ++i) {
            const std::uint32_t self = std::uint32_t(w * L::kIndices + i);
            const std::uint32_t partner =
                std::uint32_t(L::partner_window(w) * L::kIndices + L::partner_index(w, i));
            t[self] = self == partner  ? kNoPattern
                      : self < partner ? self * 2
                                       : partner * 2 + 1;
        }
    return t;
}

template <class L>
const std::vector<std::uint32_t>& canonical_regions() {
    static const std::vector<std::uint32_t> table = build_canonical_regions<L>();
    return table;
}
template <class G, int Step = 2>
const std::vector<std::uint32_t>& canonical_patterns() {
    return canonical_regions<search::PatternLayout<G, Step>>();
}

// The whole tables of layout L ([region][index][phase], as weights files hold them) from the
// canonical weights: value(c, phase) is the weight of canonical pattern c (region * L::kIndices +
// index); the other member of each pair gets its negation, a self-partnered index 0.
template <class L, class F>
std::vector<std::int16_t> expanded_regions(F&& value) {
    const auto& canon = canonical_regions<L>();
    std::vector<std::int16_t> out(canon.size() * 2, 0);
    for (std::size_t i = 0; i < canon.size(); ++i) {
        if (canon[i] == kNoPattern) continue;
        for (int ph = 0; ph < 2; ++ph) {
            const int v = value(canon[i] >> 1, ph);
            out[i * 2 + std::size_t(ph)] = std::int16_t(canon[i] & 1 ? -v : v);
        }
    }
    return out;
}
template <class G, int Step = 2, class F>
std::vector<std::int16_t> expanded_patterns(F&& value) {
    return expanded_regions<search::PatternLayout<G, Step>>(value);
}

// The canonical weights of a whole table of layout L ([region][index][phase]): the inverse of
// expanded_regions, set(c, phase, weight) for each canonical pattern c.
template <class L, class F>
void canonical_region_weights(const std::vector<std::int16_t>& table, F&& set) {
    const auto& canon = canonical_regions<L>();
    for (std::size_t i = 0; i < canon.size() && i * 2 + 1 < table.size(); ++i)
        if (canon[i] != kNoPattern && !(canon[i] & 1))
            for (int ph = 0; ph < 2; ++ph) set(canon[i] >> 1, ph, table[i * 2 + std::size_t(ph)]);
}
template <class G, int Step = 2, class F>
void canonical_weights(const std::vector<std::int16_t>& table, F&& set) {
    canonical_region_weights<search::PatternLayout<G, Step>>(table, set);
}

// The canonical patterns of a position's regions of layout L, each offset by `base` canonical
// parameters (the layouts before L's in the parameter vector).
template <class L, class B>
void region_features(B white_men, B black_men, std::uint32_t base, std::uint32_t* out) {
    const auto& canon = canonical_regions<L>();
    for (int w = 0; w < L::kCount; ++w) {
        const std::uint32_t c = canon[std::size_t(w) * std::size_t(L::kIndices) +
                                      std::size_t(L::index(w, white_men, black_men))];
        out[w] = c == kNoPattern ? kNoPattern : c + 2 * base;
    }
}

// A position's numbers for the fit, from White's side: the hand-made terms (White's count minus
// Black's, the advancement and the king terms split by the phase as the evaluation blends them;
// the tempo +1 when White is to move, -1 otherwise), the canonical pattern of each window (layout
// Step) and, with `strips`, of each edge strip after them, the opening share of the blend, and
// the draw scale (the evaluation's multiplier in known drawn endings, / 16).
template <class R, int Step = 2>
void position_features(const Position<R>& p, const search::EvalWeights& fixed, float* hand,
                       std::uint32_t* patterns, float& opening_share, float& scale,
                       bool strips = false) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = search::PatternLayout<G, Step>;
    constexpr int S = search::HandEvaluator<R>::kStartMen;
    std::array<search::TermCounts, 2> t;
    search::term_counts<R>(p, fixed.back_rank_max, t);
    const int phase = std::min(t[0].men + t[1].men, S);
    opening_share = float(phase) / float(S);
    int i = 0;
    hand[i++] = float(t[0].men - t[1].men);
    hand[i++] = float(t[0].kings - t[1].kings);
    for (int r = 0; r < 10; ++r) hand[i++] = float(t[0].rank[r] - t[1].rank[r]) * opening_share;
    for (int r = 0; r < 10; ++r)
        hand[i++] = float(t[0].rank[r] - t[1].rank[r]) * (1.0f - opening_share);
    hand[i++] = float(t[0].centre - t[1].centre);
    hand[i++] = -float(t[0].flank - t[1].flank);
    hand[i++] = float(t[0].back - t[1].back);
    for (int r = 0; r < 10; ++r) hand[i++] = float(t[0].runaway[r] - t[1].runaway[r]);
    hand[i++] = float(t[0].king_reach - t[1].king_reach);
    hand[i++] = float(t[0].long_diagonal - t[1].long_diagonal);
    hand[i++] = float(t[0].kings - t[1].kings) * opening_share;
    hand[i++] = float(t[0].sole_king - t[1].sole_king) * opening_share;
    hand[i++] = float(t[0].sole_king - t[1].sole_king) * (1.0f - opening_share);
    hand[i++] = p.side == Color::kWhite ? 1.0f : -1.0f;
    const B wm = p.pieces[0] & ~p.kings, bm = p.pieces[1] & ~p.kings;
    region_features<L>(wm, bm, 0, patterns);
    if (strips)
        region_features<search::StripLayout<G>>(
            wm, bm, std::uint32_t(L::kCount) * std::uint32_t(L::kIndices), patterns + L::kCount);
    scale = (p.kings || !p.occupied()) ? float(search::HandEvaluator<R>::draw_scale(p)) / 16.0f
                                       : 1.0f;
}

}  // namespace dambit::learn
