// Four piece sets processed in lockstep, one per diagonal direction.
//
// The capture generator asks the same question in the four directions at once ("which enemy piece
// is next along this diagonal, and is the square behind it empty?"). Lanes<B> holds one word per
// direction so each step is a handful of vector instructions. With GCC/Clang vector extensions the
// four lanes live in one SSE/AVX register; otherwise (or with -DDAMBIT_SCALAR_LANES) a plain array
// is used and the compiler is left to vectorise it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#if defined(__SSE4_1__) || defined(__AVX512VL__)
#include <immintrin.h>
#endif

namespace dambit {

#if (defined(__GNUC__) || defined(__clang__)) && !defined(DAMBIT_SCALAR_LANES)
#define DAMBIT_VECTOR_LANES 1
#else
#define DAMBIT_VECTOR_LANES 0
#endif

template <class B>
struct Lanes {
    static constexpr int kBits = sizeof(B) * 8;
#if DAMBIT_VECTOR_LANES
    typedef B Vec __attribute__((vector_size(sizeof(B) * 4)));
    Vec v;

    constexpr Lanes() noexcept : v{} {}
    constexpr explicit Lanes(Vec x) noexcept : v(x) {}
    constexpr Lanes(B a, B b, B c, B d) noexcept : v{a, b, c, d} {}
    static constexpr Lanes broadcast(B x) noexcept { return Lanes(x, x, x, x); }

    constexpr B operator[](int i) const noexcept { return v[i]; }
    friend constexpr Lanes operator&(Lanes a, Lanes b) noexcept { return Lanes(a.v & b.v); }
    friend constexpr Lanes operator|(Lanes a, Lanes b) noexcept { return Lanes(a.v | b.v); }
    friend constexpr Lanes operator^(Lanes a, Lanes b) noexcept { return Lanes(a.v ^ b.v); }
    constexpr Lanes operator~() const noexcept { return Lanes(~v); }
    Lanes& operator|=(Lanes b) noexcept { v |= b.v; return *this; }
    Lanes& operator&=(Lanes b) noexcept { v &= b.v; return *this; }

    // Rotates lane i left by s[i] bits; every s[i] must lie in 1..kBits-1.
    friend constexpr Lanes rotl(Lanes a, Lanes s) noexcept {
#if defined(__AVX512VL__)
        // One instruction (vprolv) where the processor has it; GCC does not find it by itself.
        if (!__builtin_is_constant_evaluated()) {
            if constexpr (sizeof(B) == 8)
                return Lanes(Vec(_mm256_rolv_epi64(__m256i(a.v), __m256i(s.v))));
            else if constexpr (sizeof(B) == 4)
                return Lanes(Vec(_mm_rolv_epi32(__m128i(a.v), __m128i(s.v))));
        }
#endif
        const Vec w = {kBits, kBits, kBits, kBits};
        return Lanes((a.v << s.v) | (a.v >> (w - s.v)));
    }
    // The reductions below are written with vector instructions where the processor has them:
    // GCC reduces a vector lane by lane (one extract per lane) when left to itself.
    constexpr bool any() const noexcept {
#if defined(__SSE4_1__)
        if (!__builtin_is_constant_evaluated()) {
            if constexpr (sizeof(Vec) == 16) return !_mm_testz_si128(__m128i(v), __m128i(v));
#if defined(__AVX__)
            if constexpr (sizeof(Vec) == 32) return !_mm256_testz_si256(__m256i(v), __m256i(v));
#endif
        }
#endif
        return (v[0] | v[1] | v[2] | v[3]) != 0;
    }
    // The union of the four lanes.
    constexpr B merged() const noexcept {
        if (!__builtin_is_constant_evaluated()) {
            const Vec x = v | __builtin_shufflevector(v, v, 2, 3, 0, 1);
            return B(x[0] | x[1]);
        }
        return B(v[0] | v[1] | v[2] | v[3]);
    }
    // The number of set bits in all four lanes.
    constexpr int count() const noexcept {
        if constexpr (sizeof(B) == 4) {
            if (!__builtin_is_constant_evaluated()) {
                // Two lanes per 64-bit word: two population counts instead of four.
                typedef std::uint64_t Pair __attribute__((vector_size(16)));
                const Pair w = Pair(v);
                return std::popcount(std::uint64_t(w[0])) + std::popcount(std::uint64_t(w[1]));
            }
        }
        return std::popcount(std::uint64_t(v[0])) + std::popcount(std::uint64_t(v[1])) +
               std::popcount(std::uint64_t(v[2])) + std::popcount(std::uint64_t(v[3]));
    }
    // Lanes (1, 0, 3, 2) and (2, 3, 0, 1) of this one: lane i of the result is lane i ^ 1, or
    // lane i ^ 2.
    constexpr Lanes swapped_pairs() const noexcept {
        return Lanes(__builtin_shufflevector(v, v, 1, 0, 3, 2));
    }
    constexpr Lanes swapped_halves() const noexcept {
        return Lanes(__builtin_shufflevector(v, v, 2, 3, 0, 1));
    }
    // Whether some bit is set in two lanes or more.
    constexpr bool overlapping() const noexcept {
        const Lanes pairs = swapped_pairs(), halves = *this | pairs;  // a|b, a|b, c|d, c|d
        return ((*this & pairs) | (halves & halves.swapped_halves())).any();
    }
    // Bit i set when lane i is not zero.
    constexpr unsigned nonzero_mask() const noexcept {
#if defined(__AVX512VL__)
        if (!__builtin_is_constant_evaluated()) {
            if constexpr (sizeof(B) == 4) return _mm_test_epi32_mask(__m128i(v), __m128i(v));
            if constexpr (sizeof(B) == 8) return _mm256_test_epi64_mask(__m256i(v), __m256i(v));
        }
#endif
        return unsigned(v[0] != 0) | unsigned(v[1] != 0) << 1 | unsigned(v[2] != 0) << 2 |
               unsigned(v[3] != 0) << 3;
    }
#else
    B v[4];

    constexpr Lanes() noexcept : v{} {}
    constexpr Lanes(B a, B b, B c, B d) noexcept : v{a, b, c, d} {}
    static constexpr Lanes broadcast(B x) noexcept { return Lanes(x, x, x, x); }

    constexpr B operator[](int i) const noexcept { return v[i]; }
    template <class Op>
    static constexpr Lanes zip(Lanes a, Lanes b, Op op) noexcept {
        Lanes r;
        for (int i = 0; i < 4; ++i) r.v[i] = op(a.v[i], b.v[i]);
        return r;
    }
    friend constexpr Lanes operator&(Lanes a, Lanes b) noexcept {
        return zip(a, b, [](B x, B y) { return B(x & y); });
    }
    friend constexpr Lanes operator|(Lanes a, Lanes b) noexcept {
        return zip(a, b, [](B x, B y) { return B(x | y); });
    }
    friend constexpr Lanes operator^(Lanes a, Lanes b) noexcept {
        return zip(a, b, [](B x, B y) { return B(x ^ y); });
    }
    constexpr Lanes operator~() const noexcept {
        return Lanes(B(~v[0]), B(~v[1]), B(~v[2]), B(~v[3]));
    }
    Lanes& operator|=(Lanes b) noexcept { return *this = *this | b; }
    Lanes& operator&=(Lanes b) noexcept { return *this = *this & b; }
    friend constexpr Lanes rotl(Lanes a, Lanes s) noexcept {
        return zip(a, s, [](B x, B n) { return B((x << n) | (x >> (kBits - n))); });
    }
    constexpr bool any() const noexcept { return (v[0] | v[1] | v[2] | v[3]) != 0; }
    constexpr B merged() const noexcept { return B(v[0] | v[1] | v[2] | v[3]); }
    constexpr Lanes swapped_pairs() const noexcept { return Lanes(v[1], v[0], v[3], v[2]); }
    constexpr Lanes swapped_halves() const noexcept { return Lanes(v[2], v[3], v[0], v[1]); }
    constexpr bool overlapping() const noexcept {
        return ((v[0] | v[1]) & (v[2] | v[3])) | (v[0] & v[1]) | (v[2] & v[3]);
    }
    constexpr int count() const noexcept {
        return std::popcount(std::uint64_t(v[0])) + std::popcount(std::uint64_t(v[1])) +
               std::popcount(std::uint64_t(v[2])) + std::popcount(std::uint64_t(v[3]));
    }
    constexpr unsigned nonzero_mask() const noexcept {
        return unsigned(v[0] != 0) | unsigned(v[1] != 0) << 1 | unsigned(v[2] != 0) << 2 |
               unsigned(v[3] != 0) << 3;
    }
#endif
};

}  // namespace dambit
