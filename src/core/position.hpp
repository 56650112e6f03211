// Positions and moves: small values, copy-make, no undo stack.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "core/bits.hpp"
#include "core/rules.hpp"

namespace dambit {

// A move as masks: playing it is a few XORs. Squares are bit indices of the geometry's layout.
template <class G>
struct Move {
    using B = typename G::Bitboard;
    static constexpr std::uint8_t kKingMoves = 1;  // the moving piece is a king
    static constexpr std::uint8_t kPromotes = 2;   // a man that ends the move as a king

    B captured = 0;
    std::uint8_t from = 0, to = 0;
    std::uint8_t flags = 0;

    constexpr bool is_capture() const { return captured != 0; }
    constexpr bool king_moves() const { return flags & kKingMoves; }
    constexpr bool promotes() const { return flags & kPromotes; }
    // Identity of the resulting position for the duplicate rule (RULES.md §4): the moving piece is
    // fixed by `from`, so (to, captured set, promotion) decides the result.
    friend constexpr bool operator==(const Move& a, const Move& b) {
        return a.captured == b.captured && a.from == b.from && a.to == b.to && a.flags == b.flags;
    }
};

// The landing squares of a capture, in order (long notation), beside its move.
template <class G>
struct PathMove {
    static constexpr int kMaxPath = G::kSquares / 2 + 2;
    Move<G> move;
    std::array<std::uint8_t, kMaxPath> path{};  // bit indices of the landing squares, last = to
    int length = 0;                             // number of landing squares (0 for quiet moves)
};

// A list with fixed capacity whose storage is left uninitialised: a move list is built at every
// node of a search, and zeroing hundreds of entries each time would cost more than generating them.
template <class T, int N>
class FixedList {
    static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);

public:
    FixedList() {}
    FixedList(const FixedList& o) : size_(o.size_) {
        std::copy(o.begin(), o.end(), storage_.items);
    }
    FixedList& operator=(const FixedList& o) {
        size_ = o.size_;
        std::copy(o.begin(), o.end(), storage_.items);
        return *this;
    }

    void push(const T& t) {
        if (size_ == N) [[unlikely]]
            overflow();
        storage_.items[size_++] = t;
    }
    void clear() { size_ = 0; }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const T& operator[](int i) const { return storage_.items[i]; }
    T& operator[](int i) { return storage_.items[i]; }
    const T* begin() const { return storage_.items; }
    const T* end() const { return storage_.items + size_; }
    T* begin() { return storage_.items; }
    T* end() { return storage_.items + size_; }
    void resize_down(int n) { size_ = n; }
    // The first n items, written through begin() (n <= N).
    void set_size(int n) { size_ = n; }

private:
    [[noreturn, gnu::cold, gnu::noinline]] static void overflow() {
        throw std::length_error("move list overflow");
    }
    union Storage {
        Storage() {}
        T items[N];
    } storage_;
    int size_ = 0;
};

constexpr int kMaxMoves = 768;
template <class G>
using MoveList = FixedList<Move<G>, kMaxMoves>;

template <class R>
struct Position {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;

    std::array<B, 2> pieces{};  // indexed by Color: all pieces of that colour
    B kings = 0;
    Color side = R::kFirstMover;

    constexpr B white() const { return pieces[0]; }
    constexpr B black() const { return pieces[1]; }
    constexpr B us() const { return pieces[int(side)]; }
    constexpr B them() const { return pieces[int(~side)]; }
    constexpr B occupied() const { return pieces[0] | pieces[1]; }
    constexpr B empty() const { return G::kBoard & ~occupied(); }

    // Far row where `c`'s men promote: rank N for White, rank 1 for Black.
    static constexpr B promotion_row(Color c) {
        return c == Color::kWhite ? G::rank_mask(G::kSize - 1) : G::rank_mask(0);
    }

    // The start position: 3 rows of men each on 8x8, 4 on 10x10 (RULES.md §1). In English and
    // Pool the side on squares 1..12 (Black) starts.
    static Position start() {
        Position p;
        const int rows = G::kSize == 8 ? 3 : 4;
        for (int n = 1; n <= rows * G::kPerRow; ++n) p.pieces[1] |= G::mask_of_square(n);
        for (int n = G::kSquares - rows * G::kPerRow + 1; n <= G::kSquares; ++n)
            p.pieces[0] |= G::mask_of_square(n);
        p.side = R::kFirstMover;
        return p;
    }

    // Inline everywhere: GCC kept an out-of-line copy that the search called three million times
    // in a three-million-node search (callgrind: -0.7% instructions inlined; perft unchanged).
    [[gnu::always_inline]] constexpr Position play(const Move<G>& m) const {
        Position r = *this;
        const B ft = bit<B>(m.from) ^ bit<B>(m.to);  // zero when a capture returns to its start
        r.pieces[int(side)] ^= ft;
        r.pieces[int(~side)] &= ~m.captured;
        r.kings &= ~m.captured;
        if (m.king_moves()) r.kings ^= ft;
        if (m.promotes()) r.kings |= bit<B>(m.to);
        r.side = ~side;
        return r;
    }

    friend constexpr bool operator==(const Position& a, const Position& b) {
        return a.pieces == b.pieces && a.kings == b.kings && a.side == b.side;
    }
};

// Positions in file records that keep them as three 64-bit words (`white`, `black`, `kings`, in
// the geometry's bit layout) and `side` (0: White to move): selfplay data, opening books.
template <class R, class Record>
void pack_position(const Position<R>& p, Record& r) {
    r.white = std::uint64_t(p.pieces[0]);
    r.black = std::uint64_t(p.pieces[1]);
    r.kings = std::uint64_t(p.kings);
    r.side = p.side == Color::kWhite ? 0 : 1;
}
template <class R, class Record>
Position<R> unpack_position(const Record& r) {
    using B = typename R::Geometry::Bitboard;
    Position<R> p;
    p.pieces[0] = B(r.white);
    p.pieces[1] = B(r.black);
    p.kings = B(r.kings);
    p.side = r.side == 0 ? Color::kWhite : Color::kBlack;
    return p;
}

}  // namespace dambit
