// Board geometry: where each square lives in the bitboard and how a piece set steps diagonally.
//
// Layout (magic-free, every direction one rotation). A dark square at file x, rank y (0-based,
// a1 = (0,0)) has diagonal coordinates p = (x+y)/2 and q = (y-x)/2; it is stored at bit
// (p + K*q) mod W, W being the word width. Then a step up-right (NE) adds 1 to the bit index, up-left
// (NW) adds K, down-right (SE) subtracts K and down-left (SW) subtracts 1, all modulo W: a step is a
// rotation of the word, after masking off the squares that would leave the board. K is chosen so
// that the mapping is one-to-one: K = 7 packs the 32 squares of 8x8 into all 32 bits of a uint32_t;
// K = 10 packs the 50 squares of 10x10 into 50 of the 64 bits of a uint64_t.
#pragma once

#include <array>
#include <cstdint>

#include "core/bits.hpp"
#include "core/lanes.hpp"

namespace dambit {

// Lane order of the four diagonal directions. "Up" is towards rank N, White's promotion row.
enum Dir : int { kNE = 0, kNW = 1, kSE = 2, kSW = 3 };
constexpr int opposite(int d) { return 3 - d; }

template <int N, class B, int K>
struct Geometry {
    using Bitboard = B;
    static constexpr int kSize = N;                  // squares per side
    static constexpr int kSquares = N * N / 2;       // playable squares, numbered 1..kSquares
    static constexpr int kBits = int(sizeof(B) * 8);
    static constexpr int kPerRow = N / 2;

    struct Coord {
        int file, rank;  // 0-based, a1 = (0,0)
    };

    // Square number (1-based, PDN numbering of RULES.md §1) -> file and rank.
    static constexpr Coord coord_of_square(int n) {
        const int r = (n - 1) / kPerRow, c = (n - 1) % kPerRow;
        return {2 * c + (r % 2 == 0 ? 1 : 0), N - 1 - r};
    }
    // File and rank -> square number, or 0 for a light or off-board square.
    static constexpr int square_of_coord(int file, int rank) {
        if (file < 0 || file >= N || rank < 0 || rank >= N || (file + rank) % 2 != 0) return 0;
        const int r = N - 1 - rank;
        return r * kPerRow + file / 2 + 1;
    }
    static constexpr int bit_of_coord(int file, int rank) {
        const int p = (file + rank) / 2, q = (rank - file) / 2;
        return ((p + K * q) % kBits + kBits) % kBits;
    }

    static constexpr std::array<int, kSquares + 1> kBitOfSquare = [] {
        std::array<int, kSquares + 1> a{};
        a[0] = -1;
        for (int n = 1; n <= kSquares; ++n) {
            const Coord c = coord_of_square(n);
            a[n] = bit_of_coord(c.file, c.rank);
        }
        return a;
    }();
    // Bit index -> square number; 0 for the unused bits of 10x10.
    static constexpr std::array<int, kBits> kSquareOfBit = [] {
        std::array<int, kBits> a{};
        for (int n = 1; n <= kSquares; ++n) a[kBitOfSquare[n]] = n;
        return a;
    }();

    static constexpr int bit_of_square(int n) { return kBitOfSquare[n]; }
    static constexpr int square_of_bit(int b) { return kSquareOfBit[b]; }
    static constexpr Coord coord_of_bit(int b) { return coord_of_square(kSquareOfBit[b]); }
    static constexpr B mask_of_square(int n) { return bit<B>(kBitOfSquare[n]); }

    static constexpr B kBoard = [] {
        B m = 0;
        for (int n = 1; n <= kSquares; ++n) m |= bit<B>(kBitOfSquare[n]);
        return m;
    }();

    // Rotation amounts per direction, in lane order NE, NW, SE, SW.
    static constexpr std::array<int, 4> kShift = {1, K, kBits - K, kBits - 1};
    static constexpr std::array<int, 4> kDx = {1, -1, 1, -1};
    static constexpr std::array<int, 4> kDy = {1, 1, -1, -1};

    // Squares that have a neighbour in direction d.
    static constexpr std::array<B, 4> kPremask = [] {
        std::array<B, 4> a{};
        for (int d = 0; d < 4; ++d)
            for (int n = 1; n <= kSquares; ++n) {
                const Coord c = coord_of_square(n);
                if (square_of_coord(c.file + kDx[d], c.rank + kDy[d]))
                    a[d] |= bit<B>(kBitOfSquare[n]);
            }
        return a;
    }();

    // The squares of one rank (0-based).
    static constexpr B rank_mask(int rank) {
        B m = 0;
        for (int file = 0; file < N; ++file)
            if (int n = square_of_coord(file, rank)) m |= mask_of_square(n);
        return m;
    }

    template <int D>
    static constexpr B step(B b) noexcept {
        constexpr int s = kShift[D];
        b &= kPremask[D];
        return B(b << s) | B(b >> (kBits - s));
    }
    static constexpr B step(B b, int d) noexcept {
        const int s = kShift[d];
        b &= kPremask[d];
        return B(b << s) | B(b >> (kBits - s));
    }

    using L = Lanes<B>;
    static constexpr L kShiftLanes = L(B(kShift[0]), B(kShift[1]), B(kShift[2]), B(kShift[3]));
    static constexpr L kPremaskLanes = L(kPremask[0], kPremask[1], kPremask[2], kPremask[3]);

    static constexpr L kBackShiftLanes =
        L(B(kShift[3]), B(kShift[2]), B(kShift[1]), B(kShift[0]));
    static constexpr L kBackPremaskLanes = L(kPremask[3], kPremask[2], kPremask[1], kPremask[0]);

    // One step in each lane's own direction.
    static constexpr L step4(L v) noexcept { return rotl(v & kPremaskLanes, kShiftLanes); }
    // One step against each lane's direction.
    static constexpr L step4_back(L v) noexcept {
        return rotl(v & kBackPremaskLanes, kBackShiftLanes);
    }
};

// 8x8: 32 squares in one uint32_t, every bit a square.
using Board8 = Geometry<8, std::uint32_t, 7>;
// 10x10: 50 squares in a uint64_t (14 bits unused).
using Board10 = Geometry<10, std::uint64_t, 10>;

}  // namespace dambit
