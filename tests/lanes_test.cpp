// The four-lane reductions (any, merged, count, overlapping, nonzero_mask) and lane swaps against
// their definitions written lane by lane, on words with every pattern of empty and full lanes and
// on pseudo-random words. The vector build takes the instruction paths (ptest, shuffles, paired
// popcounts, mask tests); the scalar test program (tests/scalar) runs this file too, for the plain
// path.
#include "core/lanes.hpp"

#include <bit>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

using namespace dambit;

namespace {

template <class B>
void check_reductions(B a, B b, B c, B d) {
    const Lanes<B> x(a, b, c, d);
    INFO(std::uint64_t(a) << " " << std::uint64_t(b) << " " << std::uint64_t(c) << " "
                          << std::uint64_t(d));
    CHECK(x.any() == (a != 0 || b != 0 || c != 0 || d != 0));
    CHECK(x.merged() == B(a | b | c | d));
    CHECK(x.count() == std::popcount(a) + std::popcount(b) + std::popcount(c) + std::popcount(d));
    CHECK(x.overlapping() == (((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) != 0));
    const Lanes<B> pairs = x.swapped_pairs(), halves = x.swapped_halves();
    for (int i = 0; i < 4; ++i) {
        CHECK(pairs[i] == x[i ^ 1]);
        CHECK(halves[i] == x[i ^ 2]);
    }
    CHECK(x.nonzero_mask() == (unsigned(a != 0) | unsigned(b != 0) << 1 | unsigned(c != 0) << 2 |
                               unsigned(d != 0) << 3));
}

template <class B>
void check_all() {
    std::uint64_t s = 0x9E3779B97F4A7C15ull;  // splitmix64: a fixed pseudo-random sequence
    auto next = [&] {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return B(z ^ (z >> 31));
    };
    // Every pattern of empty lanes, with single high and low bits and full words in the others.
    const std::vector<B> words = {B(1), B(B(1) << (sizeof(B) * 8 - 1)), B(~B(0)), B(0x5A5A5A5A)};
    for (unsigned mask = 0; mask < 16; ++mask)
        for (const B w : words)
            check_reductions<B>(mask & 1 ? w : 0, mask & 2 ? w : 0, mask & 4 ? B(~w) : 0,
                                mask & 8 ? w : 0);
    for (int i = 0; i < 1000; ++i) {
        const B a = next(), b = next(), c = next(), d = next();
        check_reductions<B>(a, b & (i % 2 ? ~B(0) : 0), c, d & (i % 3 ? ~B(0) : 0));
    }
}

}  // namespace

TEST_CASE("Lanes reductions agree with their lane-by-lane definitions", "[lanes]") {
    check_all<std::uint32_t>();
    check_all<std::uint64_t>();
}
