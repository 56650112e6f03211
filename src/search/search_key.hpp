// The search's position key: exactly position_key(), with xxHash compiled inline.
//
// The search hashes every node it visits; through the shared library each hash is a call that
// also spills the caller's registers, so the search takes xxHash's inline build (the same
// algorithm, hence the same keys: a game history hashed by position_key() still matches).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "key.hpp"

// Keys are at most 25 bytes, which XXH3 hashes without its long-input vector loop, so the inline
// copy is built scalar (XXH_VECTOR 0): the same keys, and no AVX-512 intrinsics, in which GCC 12
// sees a false "used uninitialized" under the sanitizers.
#define XXH_INLINE_ALL
#define XXH_VECTOR 0
#include <xxhash.h>
#undef XXH_VECTOR
#undef XXH_INLINE_ALL

namespace dambit::search {

// Whether a position's own first bytes are its KeyBytes: the three piece sets in order, then the
// side to move, whose first byte (little-endian) is its value. Then the key is hashed straight from
// the position, without packing a copy first.
template <class R>
constexpr bool kKeyIsPrefix = [] {
    using P = Position<R>;
    using B = typename R::Geometry::Bitboard;
    return std::endian::native == std::endian::little && std::is_standard_layout_v<P> &&
           offsetof(P, pieces) == 0 && sizeof(decltype(P::pieces)) == 2 * sizeof(B) &&
           offsetof(P, kings) == 2 * sizeof(B) && offsetof(P, side) == 3 * sizeof(B) &&
           sizeof(P) >= sizeof(KeyBytes<R>);
}();

template <class R>
std::uint64_t search_key(const Position<R>& p) {
    // Under XXH_INLINE_ALL this name is the inline copy.
    if constexpr (kKeyIsPrefix<R>) {
        return XXH3_64bits_withSeed(reinterpret_cast<const unsigned char*>(&p),
                                    sizeof(KeyBytes<R>), 0);
    } else {
        const KeyBytes<R> k(p);
        return XXH3_64bits_withSeed(k.bytes, sizeof k.bytes, 0);
    }
}

}  // namespace dambit::search
