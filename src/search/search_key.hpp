// The search's position key: exactly position_key(), with xxHash compiled inline.
//
// The search hashes every node it visits; through the shared library each hash is a call that
// also spills the caller's registers, so the search takes xxHash's inline build (the same
// algorithm, hence the same keys: a game history hashed by position_key() still matches).
#pragma once

#include <cstdint>

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

template <class R>
std::uint64_t search_key(const Position<R>& p) {
    const KeyBytes<R> k(p);
    // Under XXH_INLINE_ALL this name is the inline copy.
    return XXH3_64bits_withSeed(k.bytes, sizeof k.bytes, 0);
}

}  // namespace dambit::search
