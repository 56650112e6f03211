// Position keys from xxHash (XXH3, 64 bits).
#pragma once

#include <cstdint>
#include <cstring>

#include <xxhash.h>

#include "core/position.hpp"

namespace dambit {

// What a key hashes: the three piece sets and the side to move, packed.
template <class R>
struct KeyBytes {
    using B = typename R::Geometry::Bitboard;
    unsigned char bytes[3 * sizeof(B) + 1];

    explicit KeyBytes(const Position<R>& p) {
        std::memcpy(bytes, &p.pieces[0], sizeof(B));
        std::memcpy(bytes + sizeof(B), &p.pieces[1], sizeof(B));
        std::memcpy(bytes + 2 * sizeof(B), &p.kings, sizeof(B));
        bytes[3 * sizeof(B)] = static_cast<unsigned char>(p.side);
    }
};

template <class R>
std::uint64_t position_key(const Position<R>& p, std::uint64_t seed = 0) {
    const KeyBytes<R> k(p);
    return XXH3_64bits_withSeed(k.bytes, sizeof k.bytes, seed);
}

}  // namespace dambit
