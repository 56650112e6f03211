// Position keys from xxHash (XXH3, 64 bits).
#pragma once

#include <cstdint>
#include <cstring>

#include <xxhash.h>

#include "position.hpp"

namespace dambit {

template <class R>
std::uint64_t position_key(const Position<R>& p, std::uint64_t seed = 0) {
    using B = typename R::Geometry::Bitboard;
    unsigned char buf[3 * sizeof(B) + 1];
    std::memcpy(buf, &p.pieces[0], sizeof(B));
    std::memcpy(buf + sizeof(B), &p.pieces[1], sizeof(B));
    std::memcpy(buf + 2 * sizeof(B), &p.kings, sizeof(B));
    buf[3 * sizeof(B)] = static_cast<unsigned char>(p.side);
    return XXH3_64bits_withSeed(buf, sizeof buf, seed);
}

}  // namespace dambit
