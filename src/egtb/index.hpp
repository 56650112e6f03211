// The index of a slice: a gap-free numbering of every legal placement of its pieces, White to
// move, and its inverse.
//
// Squares are taken in the order of the bitboard's bits. A piece set is ranked among the squares
// still free for it by the combinatorial number system: a k-subset {c1 < ... < ck} of n free
// squares, numbered 0..n-1, has rank C(c1,1) + C(c2,2) + ... + C(ck,k), so the subsets of one size
// are numbered 0..C(n,k)-1 in increasing order of their bit masks (pext and pdep move between the
// board's squares and the numbering of the free ones).
//
// The pieces are placed in this order (the formula of egtb-reference.md section 1):
//   black men on the far row (where white men cannot stand), i of them;
//   black men on the middle rows (ranks 2..N-1), bm-i;
//   white men on the rows below the far row, less the squares of those black men;
//   black kings, then white kings, on the squares still free.
// So index = men * K + kings, with men = offset[i] + (top * C(mid, bm-i) + mid) * C(.., wm) + wm
// and K = C(S-bm-wm, bk) * C(S-bm-wm-bk, wk) the same for every placement of the men.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "core/position.hpp"
#include "egtb/material.hpp"

namespace dambit::egtb {

// Binomial coefficients C(n, k) for n <= 64.
struct Binomial {
    std::array<std::array<std::uint64_t, 65>, 65> c{};
    constexpr Binomial() {
        for (int n = 0; n <= 64; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
        }
    }
    constexpr std::uint64_t operator()(int n, int k) const {
        return k < 0 || n < 0 || k > n ? 0 : c[n][k];
    }
};
inline constexpr Binomial kBinomial{};

// Parallel bit extract and deposit (BMI2 where the processor has it).
template <class B>
inline B pext(B x, B mask) {
#if defined(__BMI2__)
    if constexpr (sizeof(B) == 8)
        return B(_pext_u64(x, mask));
    else
        return B(_pext_u32(x, mask));
#else
    B out = 0;
    for (B bb = 1; mask; mask &= mask - 1, bb <<= 1)
        if (x & mask & -mask) out |= bb;
    return out;
#endif
}
template <class B>
inline B pdep(B x, B mask) {
#if defined(__BMI2__)
    if constexpr (sizeof(B) == 8)
        return B(_pdep_u64(x, mask));
    else
        return B(_pdep_u32(x, mask));
#else
    B out = 0;
    for (B bb = 1; mask; mask &= mask - 1, bb <<= 1)
        if (x & bb) out |= mask & -mask;
    return out;
#endif
}

// Rank of the subset `c` (a mask over 0..n-1) among the subsets of its size.
template <class B>
inline std::uint64_t subset_rank(B c) {
    std::uint64_t r = 0;
    for (int k = 1; c; c &= c - 1, ++k) r += kBinomial(lsb(c), k);
    return r;
}
// The k-subset of rank r, as a mask over 0..n-1.
template <class B>
inline B subset_unrank(std::uint64_t r, int k, int n) {
    B c = 0;
    for (int j = k, p = n - 1; j >= 1; --j) {
        while (kBinomial(p, j) > r) --p;
        c |= B(1) << p;
        r -= kBinomial(p, j);
        --p;
    }
    return c;
}
// The next subset of the same size in increasing order (Gosper's hack); c must not be zero.
template <class B>
inline B next_subset(B c) {
    const B low = c & -c, ripple = c + low;
    return ripple | B(((c ^ ripple) >> 2) / low);
}

// The 180-degree turn of the board with the colours swapped: White to move in one slice becomes
// Black to move in the flipped slice. On the (p + K q) mod W layout the turn maps bit b to bit
// (N - 1 - b) mod W, a bit reversal followed by a rotation by N.
template <class G>
constexpr typename G::Bitboard turn(typename G::Bitboard x) {
    using B = typename G::Bitboard;
    B r = 0;
    if constexpr (sizeof(B) == 4) {
        r = x;
        r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
        r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
        r = ((r >> 4) & 0x0F0F0F0Fu) | ((r & 0x0F0F0F0Fu) << 4);
        r = B(__builtin_bswap32(r));
    } else {
        r = x;
        r = ((r >> 1) & 0x5555555555555555ull) | ((r & 0x5555555555555555ull) << 1);
        r = ((r >> 2) & 0x3333333333333333ull) | ((r & 0x3333333333333333ull) << 2);
        r = ((r >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((r & 0x0F0F0F0F0F0F0F0Full) << 4);
        r = B(__builtin_bswap64(r));
    }
    constexpr int s = G::kSize % G::kBits;
    return s == 0 ? r : B(B(r << s) | B(r >> (G::kBits - s)));
}

template <class R>
Position<R> flip(const Position<R>& p) {
    using G = typename R::Geometry;
    Position<R> q;
    q.pieces[0] = turn<G>(p.pieces[1]);
    q.pieces[1] = turn<G>(p.pieces[0]);
    q.kings = turn<G>(p.kings);
    q.side = ~p.side;
    return q;
}

// The index of one slice (White to move).
template <class R>
class SliceIndex {
public:
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    static constexpr B kTop = G::rank_mask(G::kSize - 1);  // White's promotion row
    static constexpr B kBottom = G::rank_mask(0);          // Black's promotion row
    static constexpr B kMid = G::kBoard & ~kTop & ~kBottom;
    static constexpr int kTopN = std::popcount(kTop);
    static constexpr int kMidN = std::popcount(kMid);
    static constexpr int kBottomN = std::popcount(kBottom);
    static constexpr int kSquares = G::kSquares;

    explicit SliceIndex(const Material& m) : m_(m) {
        if (m.wm > kBottomN + kMidN || m.bm > kTopN + kMidN || m.pieces() > kSquares)
            throw std::invalid_argument("slice " + m.code() + " does not fit the board");
        free_kings_ = kSquares - m.bm - m.wm;
        kings_ = kBinomial(free_kings_, m.bk) * kBinomial(free_kings_ - m.bk, m.wk);
        std::uint64_t men = 0;
        for (int i = 0; i <= kTopN; ++i) {
            offset_[std::size_t(i)] = men;
            const int mid = m.bm - i;
            if (mid < 0 || mid > kMidN) continue;
            men += kBinomial(kTopN, i) * kBinomial(kMidN, mid) *
                   kBinomial(kBottomN + kMidN - mid, m.wm);
        }
        offset_[std::size_t(kTopN) + 1] = men;
        men_ = men;
    }

    const Material& material() const { return m_; }
    std::uint64_t size() const { return men_ * kings_; }
    std::uint64_t men_placements() const { return men_; }
    std::uint64_t king_placements() const { return kings_; }

    // The index of p, which must hold this slice's pieces with White to move.
    std::uint64_t index(const Position<R>& p) const {
        const B wk = p.pieces[0] & p.kings, bk = p.pieces[1] & p.kings;
        const B wm = p.pieces[0] & ~p.kings, bm = p.pieces[1] & ~p.kings;
        return men_index(wm, bm) * kings_ + kings_index(wm | bm, wk, bk);
    }

    std::uint64_t men_index(B wm, B bm) const {
        const B top = bm & kTop, mid = bm & kMid;
        const int i = popcount(top), nmid = m_.bm - i;
        const B wfree = (kBottom | kMid) & ~mid;
        const std::uint64_t r_top = subset_rank(pext(top, kTop));
        const std::uint64_t r_mid = subset_rank(pext(mid, kMid));
        const std::uint64_t r_wm = subset_rank(pext(wm, wfree));
        return offset_[std::size_t(i)] +
               (r_top * kBinomial(kMidN, nmid) + r_mid) * kBinomial(kBottomN + kMidN - nmid, m_.wm) +
               r_wm;
    }
    std::uint64_t kings_index(B men, B wk, B bk) const {
        const B free = G::kBoard & ~men;
        const std::uint64_t r_bk = subset_rank(pext(bk, free));
        const std::uint64_t r_wk = subset_rank(pext(wk, B(free & ~bk)));
        return r_bk * kBinomial(free_kings_ - m_.bk, m_.wk) + r_wk;
    }

    // The men of placement number `men` (0 <= men < men_placements()).
    void men_of(std::uint64_t men, B& wm, B& bm) const {
        int i = 0;
        while (offset_[std::size_t(i) + 1] <= men) ++i;
        std::uint64_t r = men - offset_[std::size_t(i)];
        const int nmid = m_.bm - i;
        const std::uint64_t n_wm = kBinomial(kBottomN + kMidN - nmid, m_.wm);
        const std::uint64_t r_wm = r % n_wm;
        r /= n_wm;
        const std::uint64_t n_mid = kBinomial(kMidN, nmid);
        const std::uint64_t r_mid = r % n_mid, r_top = r / n_mid;
        const B top = pdep(subset_unrank<B>(r_top, i, kTopN), kTop);
        const B mid = pdep(subset_unrank<B>(r_mid, nmid, kMidN), kMid);
        bm = top | mid;
        const B wfree = (kBottom | kMid) & ~mid;
        wm = pdep(subset_unrank<B>(r_wm, m_.wm, kBottomN + kMidN - nmid), wfree);
    }

    Position<R> position(std::uint64_t index) const {
        B wm = 0, bm = 0;
        men_of(index / kings_, wm, bm);
        const std::uint64_t k = index % kings_;
        const std::uint64_t n_wk = kBinomial(free_kings_ - m_.bk, m_.wk);
        const B free = G::kBoard & ~(wm | bm);
        const B bk = pdep(subset_unrank<B>(k / n_wk, m_.bk, free_kings_), free);
        const B wk = pdep(subset_unrank<B>(k % n_wk, m_.wk, free_kings_ - m_.bk), B(free & ~bk));
        Position<R> p;
        p.pieces = {B(wm | wk), B(bm | bk)};
        p.kings = B(wk | bk);
        p.side = Color::kWhite;
        return p;
    }

    // Calls f(index, position) for every position whose men are placement `men`, in index order.
    template <class F>
    void for_each_with_men(std::uint64_t men, F&& f) const {
        B wm = 0, bm = 0;
        men_of(men, wm, bm);
        const B free = G::kBoard & ~(wm | bm);
        std::uint64_t index = men * kings_;
        const int nb = free_kings_, nw = free_kings_ - m_.bk;
        const std::uint64_t count_b = kBinomial(nb, m_.bk), count_w = kBinomial(nw, m_.wk);
        B cb = m_.bk ? B((B(1) << m_.bk) - 1) : B(0);
        for (std::uint64_t ib = 0; ib < count_b; ++ib) {
            const B bk = pdep(cb, free);
            const B wfree = free & ~bk;
            B cw = m_.wk ? B((B(1) << m_.wk) - 1) : B(0);
            for (std::uint64_t iw = 0; iw < count_w; ++iw) {
                const B wk = pdep(cw, wfree);
                Position<R> p;
                p.pieces = {B(wm | wk), B(bm | bk)};
                p.kings = B(wk | bk);
                p.side = Color::kWhite;
                f(index++, p);
                if (m_.wk) cw = next_subset(cw);
            }
            if (m_.bk) cb = next_subset(cb);
        }
    }

    // Calls f(index, position) for every index in [begin, end), in order.
    template <class F>
    void for_each_in(std::uint64_t begin, std::uint64_t end, F&& f) const {
        const int nb = free_kings_, nw = free_kings_ - m_.bk;
        const std::uint64_t count_b = kBinomial(nb, m_.bk), count_w = kBinomial(nw, m_.wk);
        const B first_w = m_.wk ? B((B(1) << m_.wk) - 1) : B(0);
        std::uint64_t index = begin;
        while (index < end) {
            const std::uint64_t men = index / kings_;
            B wm = 0, bm = 0;
            men_of(men, wm, bm);
            const B free = G::kBoard & ~(wm | bm);
            const std::uint64_t k = index % kings_;
            std::uint64_t ib = k / count_w, iw = k % count_w;
            B cb = subset_unrank<B>(ib, m_.bk, nb);
            B cw = subset_unrank<B>(iw, m_.wk, nw);
            for (; ib < count_b && index < end; ++ib) {
                const B bk = pdep(cb, free);
                const B wfree = free & ~bk;
                for (; iw < count_w && index < end; ++iw) {
                    const B wk = pdep(cw, wfree);
                    Position<R> p;
                    p.pieces = {B(wm | wk), B(bm | bk)};
                    p.kings = B(wk | bk);
                    p.side = Color::kWhite;
                    f(index++, p);
                    if (m_.wk) cw = next_subset(cw);
                }
                iw = 0;
                cw = first_w;
                if (m_.bk) cb = next_subset(cb);
            }
        }
    }

private:
    Material m_;
    int free_kings_ = 0;
    std::uint64_t kings_ = 0, men_ = 0;
    std::array<std::uint64_t, kTopN + 2> offset_{};
};

}  // namespace dambit::egtb
