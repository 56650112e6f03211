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

#include "core/key.hpp"

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

// Whether the key bytes are three 64-bit piece sets and the side to move: 25 bytes, which XXH3
// hashes as two 16-byte halves, at offsets 0 and 9 (XXH3_len_17to128_64b).
template <class R>
constexpr bool kKeyIs25Bytes = sizeof(typename R::Geometry::Bitboard) == 8 &&
                               sizeof(KeyBytes<R>) == 25 &&
                               std::endian::native == std::endian::little;

template <class R>
std::uint64_t search_key(const Position<R>& p) {
    // Under XXH_INLINE_ALL this name is the inline copy.
    if constexpr (kKeyIs25Bytes<R>) {
        // XXH3_64bits_withSeed(KeyBytes, 25, 0) worked out from the words themselves, step for
        // step as XXH3 does it (seed 0, default secret): the same key, without writing the
        // position to memory and reading it back at offsets the stores do not line up with.
        const std::uint64_t w = p.pieces[0], b = p.pieces[1], k = p.kings;
        const std::uint64_t side = static_cast<unsigned char>(p.side);
        const auto secret = [](int offset) { return XXH_readLE64(XXH3_kSecret + offset); };
        std::uint64_t acc = 25 * XXH_PRIME64_1;
        acc += XXH3_mul128_fold64(w ^ secret(0), b ^ secret(8));
        // Bytes 9..16 and 17..24.
        acc += XXH3_mul128_fold64(((b >> 8) | (k << 56)) ^ secret(16),
                                  ((k >> 8) | (side << 56)) ^ secret(24));
        return XXH3_avalanche(acc);
    } else if constexpr (kKeyIsPrefix<R>) {
        return XXH3_64bits_withSeed(reinterpret_cast<const unsigned char*>(&p),
                                    sizeof(KeyBytes<R>), 0);
    } else {
        const KeyBytes<R> k(p);
        return XXH3_64bits_withSeed(k.bytes, sizeof k.bytes, 0);
    }
}

}  // namespace dambit::search
