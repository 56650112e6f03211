// Bit tricks on the unsigned words that hold piece sets.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace dambit {

template <class B>
constexpr int popcount(B b) noexcept {
    return std::popcount(b);
}

// Index of the lowest set bit; b must not be zero.
template <class B>
constexpr int lsb(B b) noexcept {
    return std::countr_zero(b);
}

// b with its lowest set bit cleared.
template <class B>
constexpr B clear_lsb(B b) noexcept {
    return b & (b - 1);
}

template <class B>
constexpr B bit(int index) noexcept {
    return B{1} << index;
}

// Calls f(index) for every set bit of b, lowest first.
template <class B, class F>
constexpr void for_each_bit(B b, F&& f) {
    for (; b; b = clear_lsb(b)) f(lsb(b));
}

}  // namespace dambit
