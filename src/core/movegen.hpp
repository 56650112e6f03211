// Move generation: detect, count and generate, for every variant, from the rule traits.
//
// Captures are compulsory, so generation is "captures if there are any, else quiet moves".
// Captures are enumerated by a depth-first search over capture steps in which the four diagonal
// directions are examined together, one lane each (lanes.hpp): a single vector step finds, in all
// four directions at once, the next piece along the diagonal, whether it is an enemy not yet taken,
// and whether the square behind it is free. Only the branching on the lanes that found a capture is
// scalar.
#pragma once

#include "core/instances.hpp"

#include <array>
#include <cstdint>

#include "core/bits.hpp"
#include "core/position.hpp"

namespace dambit {

// How identical capture sequences are counted (RULES.md §4).
enum class Duplicates { kDrop, kKeep };

namespace detail {

// Duplicate capture paths cannot take fewer pieces than this: with one or two captures the victim
// order and the turning squares are forced by the geometry, so the paths coincide. (Dropping is
// checked against the square-by-square reference generator, which dedupes every capture.)
inline constexpr int kMinDuplicateCaptures = 3;

// The fewest pieces a capture must take to be checked against the others for a duplicate: the
// convention is a run-time value of the sinks, not a template argument, so that the generator and
// perft are compiled once for both conventions (half the code; a compare against a register
// instead of a constant where it is tested, for a capture of three or more pieces only).
constexpr int duplicate_min(Duplicates d) {
    return d == Duplicates::kDrop ? kMinDuplicateCaptures : 1 << 20;
}

template <class G>
constexpr Lanes<typename G::Bitboard> lane_mask(bool ne, bool nw, bool se, bool sw) {
    using B = typename G::Bitboard;
    return Lanes<B>(ne ? B(~B(0)) : B(0), nw ? B(~B(0)) : B(0), se ? B(~B(0)) : B(0),
                    sw ? B(~B(0)) : B(0));
}

// Everything about one side that generation needs at compile time.
template <class R, Color Us>
struct Side {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;
    static constexpr bool kWhite = Us == Color::kWhite;
    static constexpr int kLeft = kWhite ? kNW : kSW;    // the two directions men step in
    static constexpr int kRight = kWhite ? kNE : kSE;
    static constexpr L kAll = lane_mask<G>(true, true, true, true);
    static constexpr L kForward = lane_mask<G>(kWhite, kWhite, !kWhite, !kWhite);
    static constexpr L kManCapture = R::kMenCaptureBackward ? kAll : kForward;
    static constexpr B kPromotion = Position<R>::promotion_row(Us);
};

template <class G>
constexpr Lanes<typename G::Bitboard> perpendicular(int d) {
    return d == kNE || d == kSW ? lane_mask<G>(false, true, true, false)
                                : lane_mask<G>(true, false, false, true);
}
template <class G>
constexpr Lanes<typename G::Bitboard> only(int d) {
    return lane_mask<G>(d == kNE, d == kNW, d == kSE, d == kSW);
}

// Depth-first enumeration of the captures of one piece.
template <class R, Color Us, class Sink>
class CaptureSearch {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;
    using S = Side<R, Us>;

public:
    CaptureSearch(const Position<R>& p, Sink& sink)
        : them_(p.pieces[int(~Us)]), occupied_(p.occupied()), sink_(sink) {}

    void man(int from) {
        start(from, 0);
        jump_short<false>(bit<B>(from), 0);
    }
    void king(int from) {
        start(from, Move<G>::kKingMoves);
        if constexpr (R::kKing == KingRange::kFlying)
            jump_long(bit<B>(from), 0, S::kAll);
        else
            jump_short<true>(bit<B>(from), 0);
    }

private:
    void start(int from, std::uint8_t flags) {
        from_ = from;
        flags_ = flags;
        empty_ = (G::kBoard & ~occupied_) | bit<B>(from);  // the start square counts as empty
        length_ = 0;
    }

    void finish(B to, B captured) {
        Move<G> m;
        m.captured = captured;
        m.from = std::uint8_t(from_);
        m.to = std::uint8_t(lsb(to));
        m.flags = flags_;
        sink_.add(m, path_.data(), length_);
    }

    // Men (AsKing = false) and short kings (AsKing = true): jump an adjacent enemy piece. Returns
    // whether any capture was found from square `s` with `captured` already taken.
    template <bool AsKing>
    bool jump_short(B s, B captured) {
        const L victims = G::step4(L::broadcast(s)) & L::broadcast(them_ & ~captured) &
                          (AsKing ? S::kAll : S::kManCapture);
        const L land = G::step4(victims) & L::broadcast(empty_);
        unsigned lanes = land.nonzero_mask();
        if (!lanes) return false;
        do {
            const int d = lsb(lanes);
            lanes &= lanes - 1;
            const B t = land[d], taken = captured | victims[d];
            path_[length_++] = std::uint8_t(lsb(t));
            if (!AsKing && (t & S::kPromotion)) {
                landed_on_far_row(t, taken);
            } else if (!jump_short<AsKing>(t, taken)) {
                finish(t, taken);
            }
            --length_;
        } while (lanes);
        return true;
    }

    // A man has landed on its far row in the middle of a capture.
    void landed_on_far_row(B t, B taken) {
        const std::uint8_t saved = flags_;
        if constexpr (R::kPromotion == CapturePromotion::kContinuesAsKing) {
            flags_ |= Move<G>::kPromotes;  // it is a king from here on (RULES.md §3, Russian)
            if (!jump_long(t, taken, S::kAll)) finish(t, taken);
        } else if constexpr (R::kPromotion == CapturePromotion::kEndsMove) {
            flags_ |= Move<G>::kPromotes;  // the move ends here
            finish(t, taken);
        } else {
            // Stays a man and goes on as a man; promotes only if the move ends here.
            if (!jump_short<false>(t, taken)) {
                flags_ |= Move<G>::kPromotes;
                finish(t, taken);
            }
        }
        flags_ = saved;
    }

    // Flying king at `s` looks along the diagonals in `dirs`.
    bool jump_long(B s, B captured, L dirs) {
        const L empty = L::broadcast(empty_);
        L ray = G::step4(L::broadcast(s)) & dirs;
        L hit = ray & ~empty;
        ray &= empty;
        while (ray.any()) {
            ray = G::step4(ray);
            hit |= ray & ~empty;
            ray &= empty;
        }
        const L victims = hit & L::broadcast(them_ & ~captured);
        const L land = G::step4(victims) & empty;
        unsigned lanes = land.nonzero_mask();
        if (!lanes) return false;
        do {
            const int d = lsb(lanes);
            lanes &= lanes - 1;
            const B first = land[d], taken = captured | victims[d];
            // The landing squares: every free square behind the victim up to the next piece.
            B run = first, last = first;
            for (B n = G::step(first, d) & empty_; n; n = G::step(n, d) & empty_) {
                run |= n;
                last = n;
            }
            // It must land where the capture goes on, if there is such a square (RULES.md §3).
            // Turning happens at a landing square; going straight on is one path however far the
            // king slides, written with the square right behind the victim.
            bool goes_on = false;
            const L turns = perpendicular<G>(d);
            for_each_bit(run, [&](int sq) {
                path_[length_++] = std::uint8_t(sq);
                goes_on |= jump_long(bit<B>(sq), taken, turns);
                --length_;
            });
            path_[length_++] = std::uint8_t(lsb(first));
            goes_on |= jump_long(last, taken, only<G>(d));
            --length_;
            if (!goes_on) {
                for_each_bit(run, [&](int sq) {
                    path_[length_++] = std::uint8_t(sq);
                    finish(bit<B>(sq), taken);
                    --length_;
                });
            }
        } while (lanes);
        return true;
    }

    const B them_, occupied_;
    B empty_ = 0;
    Sink& sink_;
    int from_ = 0;
    std::uint8_t flags_ = 0;
    std::array<std::uint8_t, PathMove<G>::kMaxPath> path_{};
    int length_ = 0;
};

// Whether a king on a square of lane d of `from` can jump a piece of `them` in direction d,
// passing (a flying king) and landing on squares of `free`.
template <class R>
[[gnu::noinline]] bool king_jumps_any(Lanes<typename R::Geometry::Bitboard> from,
                    typename R::Geometry::Bitboard them, typename R::Geometry::Bitboard free) {
    using G = typename R::Geometry;
    using L = Lanes<typename G::Bitboard>;
    const L empty = L::broadcast(free), victims = L::broadcast(them);
    L ray = G::step4(from);
    L hits = ray & victims;
    if constexpr (R::kKing == KingRange::kFlying) {
        ray &= empty;
        while (ray.any()) {
            ray = G::step4(ray);
            hits |= ray & victims;
            ray &= empty;
        }
    }
    return (G::step4(hits) & empty).any();
}

template <class R, Color Us>
[[gnu::always_inline]] inline bool kings_can_capture(const Position<R>& p) {
    using B = typename R::Geometry::Bitboard;
    const B kings = p.pieces[int(Us)] & p.kings;
    if (!kings) return false;
    return king_jumps_any<R>(Lanes<B>::broadcast(kings), p.pieces[int(~Us)], p.empty());
}


// `men` are the men that can capture (jump_origins of first_jumps).
template <class R, Color Us, class Sink>
void generate_captures(const Position<R>& p, Sink& sink,
                       typename R::Geometry::Bitboard men) {
    CaptureSearch<R, Us, Sink> search(p, sink);
    for_each_bit(p.pieces[int(Us)] & p.kings, [&](int sq) { search.king(sq); });
    if constexpr (R::kPrecedence == Precedence::kKingPriority) {
        if (!sink.empty()) return;  // a king capture excludes every man capture (Czech)
    }
    for_each_bit(men, [&](int sq) { search.man(sq); });
}

// Flying-king rays from every king in `kings` through empty squares, one lane per direction.
template <class G>
Lanes<typename G::Bitboard> king_rays(typename G::Bitboard kings, typename G::Bitboard empty) {
    using L = Lanes<typename G::Bitboard>;
    const L e = L::broadcast(empty);
    L ray = G::step4(L::broadcast(kings)) & e, all = ray;
    while (ray.any()) {
        ray = G::step4(ray) & e;
        all |= ray;
    }
    return all;
}

// The squares the kings in `kings` can move to, one lane per direction: along the whole free
// diagonal for flying kings, one step for short kings.
template <class R>
Lanes<typename R::Geometry::Bitboard> king_reach(typename R::Geometry::Bitboard kings,
                                                 typename R::Geometry::Bitboard empty) {
    using G = typename R::Geometry;
    using L = Lanes<typename G::Bitboard>;
    if constexpr (R::kKing == KingRange::kFlying)
        return king_rays<G>(kings, empty);
    else
        return G::step4(L::broadcast(kings)) & L::broadcast(empty);
}

// The quiet moves of the kings in `kings`, to `sink`.
template <class R, class Sink>
void generate_king_steps(typename R::Geometry::Bitboard kings, typename R::Geometry::Bitboard empty,
                         Sink& sink) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    for_each_bit(kings, [&](int from) {
        const Lanes<B> rays = king_reach<R>(bit<B>(from), empty);
        for (int d = 0; d < 4; ++d)
            for_each_bit(rays[d], [&](int to) {
                Move<G> m;
                m.from = std::uint8_t(from);
                m.to = std::uint8_t(to);
                m.flags = Move<G>::kKingMoves;
                sink.add(m, nullptr, 0);
            });
    });
}

template <class R, Color Us>
int count_quiet(const Position<R>& p) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using S = Side<R, Us>;
    const B empty = p.empty(), own = p.pieces[int(Us)];
    const B men = own & ~p.kings, kings = own & p.kings;
    int n = popcount(B(G::template step<S::kLeft>(men) & empty)) +
            popcount(B(G::template step<S::kRight>(men) & empty));
    if (kings) {
        // Rays of different kings in one direction never overlap: the nearer king blocks.
        const Lanes<B> rays = king_reach<R>(kings, empty);
        n += rays.count();
    }
    return n;
}

// Whether a side without a capture has a move: a man with a free square ahead, or a king with a
// free neighbouring square (no count needed).
template <class R, Color Us>
bool has_quiet_move(const Position<R>& p) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using S = Side<R, Us>;
    const B empty = p.empty(), own = p.pieces[int(Us)];
    const B men = own & ~p.kings, kings = own & p.kings;
    if (B(G::template step<S::kLeft>(men) | G::template step<S::kRight>(men)) & empty) return true;
    return kings && (G::step4(Lanes<B>::broadcast(kings)) & Lanes<B>::broadcast(empty)).any();
}

template <class R, Color Us, class Sink>
void generate_quiet(const Position<R>& p, Sink& sink) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using S = Side<R, Us>;
    const B empty = p.empty(), own = p.pieces[int(Us)];
    const B men = own & ~p.kings, kings = own & p.kings;
    auto man_steps = [&]<int D>() {
        for_each_bit(B(G::template step<D>(men) & empty), [&](int to) {
            Move<G> m;
            m.to = std::uint8_t(to);
            m.from = std::uint8_t(lsb(G::step(bit<B>(to), opposite(D))));
            m.flags = (bit<B>(to) & S::kPromotion) ? Move<G>::kPromotes : 0;
            sink.add(m, nullptr, 0);
        });
    };
    man_steps.template operator()<S::kLeft>();
    man_steps.template operator()<S::kRight>();
    generate_king_steps<R>(kings, empty, sink);
}

template <class G>
constexpr const Move<G>& move_of(const Move<G>& m) {
    return m;
}
template <class G>
constexpr const Move<G>& move_of(const PathMove<G>& m) {
    return m.move;
}

// Collects generated moves, applying the precedence rule and the duplicate convention.
template <class R, class Entry>
class ListSink {
    using G = typename R::Geometry;

public:
    ListSink(FixedList<Entry, kMaxMoves>& list, Duplicates dup)
        : list_(list), dup_min_(duplicate_min(dup)) {
        list_.clear();
    }
    bool empty() const { return list_.empty(); }

    void add(const Move<G>& m, const std::uint8_t* path, int length) {
        if constexpr (R::kPrecedence == Precedence::kMostPieces) {
            const int n = popcount(m.captured);
            if (n < best_) return;
            if (n > best_) {
                best_ = n;
                list_.clear();
            }
        }
        if (popcount(m.captured) >= dup_min_)
            for (const Entry& e : list_)
                if (move_of(e) == m) return;
        if constexpr (std::is_same_v<Entry, Move<G>>) {
            list_.push(m);
        } else {
            Entry e;
            e.move = m;
            e.length = length;
            for (int i = 0; i < length; ++i) e.path[i] = path[i];
            list_.push(e);
        }
    }

private:
    FixedList<Entry, kMaxMoves>& list_;
    int dup_min_;
    int best_ = 0;
};

// Counts generated captures without keeping them, but for the ones that could be duplicates.
template <class R>
class CountSink {
    using G = typename R::Geometry;

public:
    explicit CountSink(Duplicates dup) : dup_min_(duplicate_min(dup)) {}
    bool empty() const { return count_ == 0; }
    int count() const { return count_; }

    void add(const Move<G>& m, const std::uint8_t*, int) { accept(m); }
    // Counts m unless it is a duplicate to drop or takes fewer pieces than the majority rule
    // asks (so far); returns whether it was counted.
    bool accept(const Move<G>& m) {
        if constexpr (R::kPrecedence == Precedence::kMostPieces) {
            const int n = popcount(m.captured);
            if (n < best_) return false;
            if (n > best_) {
                best_ = n;
                count_ = 0;
                seen_.clear();
            }
        }
        if (popcount(m.captured) >= dup_min_) {
            for (const auto& e : seen_)
                if (e == m) return false;
            seen_.push(m);
        }
        ++count_;
        return true;
    }

private:
    int dup_min_;
    int count_ = 0;
    int best_ = 0;
    MoveList<G> seen_;  // the captures counted that could have a duplicate
};

// Where the men's jumps land, one lane per direction: a set bit in lane d is the square a man
// reaches by jumping an adjacent enemy piece in direction d. All lanes empty: no man can capture.
// Where men land by jumping a piece of `them` onto a square of `empty`: lane d holds the
// jumps in direction d of the men in lane d of `from` (the directions men capture in only).
template <class R, Color Us>
Lanes<typename R::Geometry::Bitboard> man_jumps(Lanes<typename R::Geometry::Bitboard> from,
                                                typename R::Geometry::Bitboard them,
                                                typename R::Geometry::Bitboard empty) {
    using G = typename R::Geometry;
    using L = Lanes<typename G::Bitboard>;
    return G::step4(G::step4(from & Side<R, Us>::kManCapture) & L::broadcast(them)) &
           L::broadcast(empty);
}
// The same for the men on `from`, in every direction.
template <class R, Color Us>
Lanes<typename R::Geometry::Bitboard> man_jumps(typename R::Geometry::Bitboard from,
                                                typename R::Geometry::Bitboard them,
                                                typename R::Geometry::Bitboard empty) {
    return man_jumps<R, Us>(Lanes<typename R::Geometry::Bitboard>::broadcast(from), them, empty);
}

template <class R, Color Us>
Lanes<typename R::Geometry::Bitboard> first_jumps(const Position<R>& p) {
    return man_jumps<R, Us>(p.pieces[int(Us)] & ~p.kings, p.pieces[int(~Us)], p.empty());
}

// Keeps in `landings` the squares from which a man's capture goes on as a man: one that lands on
// its far row stops there (Czech, English) or passes on as a man (Brazilian, Pool,
// International). Returns false when one would go on as a king (Russian), which only the search
// follows.
template <class R, Color Us>
bool keep_men_going_on(Lanes<typename R::Geometry::Bitboard>& landings) {
    using B = typename R::Geometry::Bitboard;
    constexpr B kFar = Side<R, Us>::kPromotion;
    if constexpr (R::kPromotion == CapturePromotion::kContinuesAsKing) {
        return !(landings.merged() & kFar);
    } else if constexpr (R::kPromotion == CapturePromotion::kEndsMove) {
        landings &= Lanes<B>::broadcast(B(~kFar));
    }
    return true;
}

// The men that can capture, from their landing squares.
template <class G>
typename G::Bitboard jump_origins(const Lanes<typename G::Bitboard>& land) {
    const auto from = G::step4_back(G::step4_back(land));
    return from.merged();
}

// Lane d: the squares of the lanes of `from` other than opposite(d), i.e. where a jump in
// direction d may follow, since jumping straight back over the piece just taken is forbidden.
template <class B>
Lanes<B> not_straight_back(const Lanes<B>& from) {
    static_assert(kNE == 0 && kNW == 1 && kSE == 2 && kSW == 3, "lane order");
    // Lane d is the union of lanes d, d ^ 1 and d ^ 2, the three that are not 3 - d.
    return from | from.swapped_pairs() | from.swapped_halves();
}

// keep_going_on's look for a king's jump, away from the hot path: some square of `landings`
// is on the far row.
template <class R, Color Us>
[[gnu::noinline]] bool crowned_men_stop(Lanes<typename R::Geometry::Bitboard>& landings,
                                        const Lanes<typename R::Geometry::Bitboard>& first,
                                        typename R::Geometry::Bitboard them,
                                        typename R::Geometry::Bitboard maybe_empty) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;
    constexpr B kFar = Side<R, Us>::kPromotion;
    if (king_jumps_any<R>(not_straight_back(landings & L::broadcast(kFar)), them,
                          B(maybe_empty | jump_origins<G>(first))))
        return false;
    landings &= L::broadcast(B(~kFar));
    return true;
}
// keep_men_going_on for set-wise counting, where a Russian man crowned on `landings` (lane d:
// reached by a jump in direction d) ends his capture there when no king's jump follows: those
// squares are dropped from `landings`. Returns false when a king's jump might follow. It is looked
// for with every piece of `them` a victim (the pieces taken so far block a king, so that is more)
// and every square of `maybe_empty` and every capturing man's start square (`first`: the men's
// first jumps) free, a superset of the free squares; so a king's jump that exists is always seen.
template <class R, Color Us>
[[gnu::always_inline]] inline bool keep_going_on(
    Lanes<typename R::Geometry::Bitboard>& landings,
    const Lanes<typename R::Geometry::Bitboard>& first, typename R::Geometry::Bitboard them,
    typename R::Geometry::Bitboard maybe_empty) {
    if constexpr (R::kPromotion == CapturePromotion::kContinuesAsKing) {
        if (!(landings.merged() & Side<R, Us>::kPromotion))
            return true;
        return crowned_men_stop<R, Us>(landings, first, them, maybe_empty);
    } else {
        return keep_men_going_on<R, Us>(landings);
    }
}

template <class R, Color Us>
bool has_capture(const Position<R>& p) {
    return first_jumps<R, Us>(p).any() || kings_can_capture<R, Us>(p);
}

// The common case, solved for all men at once: no man's first jump (`land`, from first_jumps) can
// be followed by a second one (`them`: the opponent's pieces, `empty`: the free squares). If no
// king of ours can capture either, every (man, direction) jump is a whole legal move on its own.
template <class R, Color Us>
[[gnu::always_inline]] inline bool single_jumps_only(
    const Lanes<typename R::Geometry::Bitboard>& land, typename R::Geometry::Bitboard them,
    typename R::Geometry::Bitboard empty) {
    auto go_on = land;
    if (!keep_men_going_on<R, Us>(go_on)) return false;
    // A second jump from a landing square: the start squares are still occupied here, which is
    // exact, since jumping back over the piece just taken is the only way to reach one's own start
    // square in two jumps, and that is forbidden anyway.
    return !man_jumps<R, Us>(go_on.merged(), them, empty).any();
}

template <class R, Color Us>
[[gnu::always_inline]] inline bool single_jumps_only(
    const Position<R>& p, const Lanes<typename R::Geometry::Bitboard>& land, bool kings_capture) {
    return !kings_capture && single_jumps_only<R, Us>(land, p.pieces[int(~Us)], p.empty());
}

// count_short_captures when some capture has three jumps: each (first, second) direction pair is
// followed on its own. Returns -1 when a fourth jump might exist, looked for with every start
// square and every square of `maybe_empty` free (a loop of four jumps ends on the start square),
// or when a man crowned by his third jump might go on as a king (keep_going_on).
template <class R, Color Us>
[[gnu::noinline]] int count_three_jump_captures(const Lanes<typename R::Geometry::Bitboard>& land,
                                                const Lanes<typename R::Geometry::Bitboard>& go_on,
                                                const Lanes<typename R::Geometry::Bitboard>& from2,
                                                typename R::Geometry::Bitboard them,
                                                typename R::Geometry::Bitboard empty,
                                                typename R::Geometry::Bitboard maybe_empty) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;
    L from3 = man_jumps<R, Us>(not_straight_back(from2), them, empty);
    if (!keep_going_on<R, Us>(from3, land, them, maybe_empty)) return -1;
    if (man_jumps<R, Us>(not_straight_back(from3), them, B(maybe_empty | jump_origins<G>(land)))
            .any())
        return -1;
    int n1 = 0, n2 = 0, n3 = 0;  // whole moves of one, two and three jumps
    const L second = man_jumps<R, Us>(go_on.merged(), them, empty);
    if (!land.overlapping() && !second.overlapping()) {
        // The usual case: no square is where two first jumps land, nor where two second jumps
        // land. Then each bit of `second` is one two-jump path and each bit of `third` one
        // three-jump path, whatever lane they came from: all paths are counted in one go. (A
        // third jump cannot take the first victim: that would be a jump two squares back along
        // the second and one along the first, which no unit diagonal is.)
        L go2 = second;
        keep_men_going_on<R, Us>(go2);
        const L third = man_jumps<R, Us>(not_straight_back(go2), them, empty);
        n3 = third.count();
        n2 = popcount(B(second.merged() & ~G::step4_back(G::step4_back(third)).merged()));
        n1 = popcount(B(land.merged() & ~G::step4_back(G::step4_back(second)).merged()));
        if constexpr (R::kPrecedence == Precedence::kMostPieces) return n3 ? n3 : n2 ? n2 : n1;
        return n1 + n2 + n3;
    }
    for (int d1 = 0; d1 < 4; ++d1) {
        const L x2 = man_jumps<R, Us>(go_on[d1], them, empty);
        L go2 = x2;
        keep_men_going_on<R, Us>(go2);
        B back2 = 0;
        for (int d2 = 0; d2 < 4; ++d2) {
            const B x = x2[d2];
            if (!x) continue;
            back2 |= G::step(G::step(x, opposite(d2)), opposite(d2));
            const L x3 = man_jumps<R, Us>(L::broadcast(go2[d2]) & ~only<G>(opposite(d2)), them,
                                          empty);
            n3 += x3.count();
            const L back3 = G::step4_back(G::step4_back(x3));
            n2 += popcount(B(x & ~back3.merged()));
        }
        n1 += popcount(B(land[d1] & ~back2));
    }
    if constexpr (R::kPrecedence == Precedence::kMostPieces) return n3 ? n3 : n2 ? n2 : n1;
    return n1 + n2 + n3;
}

// Counts the men's captures without a search when none is longer than three jumps and no king of
// ours can capture; returns -1 when a longer capture, or a man crowned in the middle of a capture
// who goes on as a king, needs the search. `land` is first_jumps, `them` the opponent's pieces,
// `empty` the free squares.
//
// Set-wise: a bit in lane d1 of `land` is one (man, direction) jump, and a bit in lane d2 of the
// second jumps from that lane is one two-jump path (the landing square and the two directions
// give back the man). Nothing depends on the path taken: a second jump cannot take the first
// victim again other than by jumping straight back, which lands on the man's start square, still
// occupied here; a third jump can neither land on the start square (three diagonal jumps never
// add up to zero) nor take an earlier victim other than by jumping straight back, which is masked
// out. Three jumps never make a duplicate either: two orders of the same directions take
// different pieces, and two different sets of three directions with the same sum contain a
// straight turn back. So both conventions agree.
//
// `maybe_empty` (a superset of `empty`) is where a jump beyond those counted is looked for: a
// caller that counts the replies to several moves at once passes the squares those moves empty.
//
// With CrownedFirst, a man crowned by his first jump is looked at too (keep_going_on), where
// otherwise -1 is returned; that look is kept out of the common callers, which rarely need it.
template <class R, Color Us, bool CrownedFirst = false>
[[gnu::always_inline]] inline int count_short_captures(
    const Lanes<typename R::Geometry::Bitboard>& land, typename R::Geometry::Bitboard them,
    typename R::Geometry::Bitboard empty, typename R::Geometry::Bitboard maybe_empty) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;
    L go_on = land;
    if constexpr (CrownedFirst) {
        if (!keep_going_on<R, Us>(go_on, land, them, maybe_empty)) return -1;
    } else {
        if (!keep_men_going_on<R, Us>(go_on)) return -1;
    }
    // Lane d2: where second jumps in direction d2 land.
    const L all = man_jumps<R, Us>(go_on.merged(), them, empty);
    if (!all.any())
        return land.count();

    L from = all;
    if (!keep_going_on<R, Us>(from, land, them, maybe_empty)) return -1;
    if (man_jumps<R, Us>(not_straight_back(from), them, maybe_empty).any())
        return count_three_jump_captures<R, Us>(land, go_on, from, them, empty, maybe_empty);

    // Free choice: a first jump with no second one is a whole move too. When no square is the
    // landing of two first jumps (the usual case), each bit of `all` is one two-jump path, and
    // the first jumps with a second one are where `all` comes from.
    if (!land.overlapping()) {
        int n = all.count();
        if constexpr (R::kPrecedence != Precedence::kMostPieces) {
            const L back = G::step4_back(G::step4_back(all));
            n += popcount(B(land.merged() & ~back.merged()));
        }
        return n;
    }
    int n = 0;
    for (int d = 0; d < 4; ++d) {
        const L x = man_jumps<R, Us>(go_on[d], them, empty);
        n += x.count();
        if constexpr (R::kPrecedence != Precedence::kMostPieces) {
            const L back = G::step4_back(G::step4_back(x));
            n += popcount(B(land[d] & ~back.merged()));
        }
    }
    return n;
}
template <class R, Color Us>
[[gnu::always_inline]] inline int count_short_captures(
    const Lanes<typename R::Geometry::Bitboard>& land, typename R::Geometry::Bitboard them,
    typename R::Geometry::Bitboard empty) {
    return count_short_captures<R, Us>(land, them, empty, empty);
}
// count_short_captures for a caller that got -1 and has a man crowned by his first jump (Russian):
// -1 again only when he might go on as a king, or a capture needs the search for another reason.
template <class R, Color Us>
[[gnu::noinline]] int count_short_captures_crowned(
    const Lanes<typename R::Geometry::Bitboard>& land, typename R::Geometry::Bitboard them,
    typename R::Geometry::Bitboard empty) {
    return count_short_captures<R, Us, true>(land, them, empty, empty);
}

template <class R, Color Us, class Sink>
void emit_single_jumps(const Lanes<typename R::Geometry::Bitboard>& land, Sink& sink) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using S = Side<R, Us>;
    // One lambda per direction, so that the steps back are compile-time rotations.
    auto emit = [&]<int Dir>() __attribute__((always_inline)) {
        for_each_bit(land[Dir], [&](int to) {
            const B victim = G::template step<opposite(Dir)>(bit<B>(to));
            Move<G> m;
            m.captured = victim;
            m.from = std::uint8_t(lsb(G::template step<opposite(Dir)>(victim)));
            m.to = std::uint8_t(to);
            m.flags = (bit<B>(to) & S::kPromotion) ? Move<G>::kPromotes : 0;
            const std::uint8_t path[1] = {std::uint8_t(to)};
            sink.add(m, path, 1);
        });
    };
    emit.template operator()<0>();
    emit.template operator()<1>();
    emit.template operator()<2>();
    emit.template operator()<3>();
}

template <class R, Color Us, class Entry>
void generate_side(const Position<R>& p, const Lanes<typename R::Geometry::Bitboard>& land,
                   bool kings_capture, FixedList<Entry, kMaxMoves>& list, Duplicates dup) {
    ListSink<R, Entry> sink(list, dup);
    if (!land.any() && !kings_capture)
        generate_quiet<R, Us>(p, sink);
    else if (single_jumps_only<R, Us>(p, land, kings_capture))
        emit_single_jumps<R, Us>(land, sink);
    else
        generate_captures<R, Us>(p, sink, jump_origins<typename R::Geometry>(land));
}
// `land` and `kings_capture` are first_jumps and kings_can_capture, when the caller has them.
template <class R, Color Us, class Entry>
void generate_side(const Position<R>& p, FixedList<Entry, kMaxMoves>& list, Duplicates dup) {
    generate_side<R, Us>(p, first_jumps<R, Us>(p), kings_can_capture<R, Us>(p), list, dup);
}

template <class R, Color Us>
int count_side(const Position<R>& p, Duplicates dup) {
    const auto land = first_jumps<R, Us>(p);
    const bool kings_capture = kings_can_capture<R, Us>(p);
    if (!land.any() && !kings_capture) return count_quiet<R, Us>(p);
    if (!kings_capture) {
        const int n = count_short_captures<R, Us>(land, p.pieces[int(~Us)], p.empty());
        if (n >= 0) return n;
    }
    CountSink<R> sink(dup);
    generate_captures<R, Us>(p, sink, jump_origins<typename R::Geometry>(land));
    return sink.count();
}

// Calls f(move) for every legal move without storing it; only under the majority rule do longer
// captures go through a list first. The precedence rule and the duplicate convention are applied.
// `land` and `kings_capture` are first_jumps and kings_can_capture, when the caller has them.
template <class R, Color Us, class F>
void visit_side(const Position<R>& p, const Lanes<typename R::Geometry::Bitboard>& land,
                bool kings_capture, Duplicates dup, F&& f) {
    struct Visit {
        F& f;
        bool empty() const { return true; }
        // Inlined by force, as the visitors passed here are: in an instance file with every
        // subsystem's code, GCC's unit growth limits left it out of line (perft +6% instructions).
        [[gnu::always_inline]] void add(const Move<typename R::Geometry>& m, const std::uint8_t*,
                                        int) {
            f(m);
        }
    } visit{f};
    if (!land.any() && !kings_capture) {
        generate_quiet<R, Us>(p, visit);
    } else if (single_jumps_only<R, Us>(p, land, kings_capture)) {
        emit_single_jumps<R, Us>(land, visit);
    } else if constexpr (R::kPrecedence == Precedence::kMostPieces) {
        // A longer capture found later voids the shorter ones found so far: collect first.
        MoveList<typename R::Geometry> list;
        ListSink<R, Move<typename R::Geometry>> sink(list, dup);
        generate_captures<R, Us>(p, sink, jump_origins<typename R::Geometry>(land));
        for (const auto& m : list) f(m);
    } else {
        // Each capture is final when found: visit it then, in the order a list would hold.
        struct Direct {
            F& f;
            CountSink<R> counted;
            bool empty() const { return counted.empty(); }
            [[gnu::always_inline]] void add(const Move<typename R::Geometry>& m,
                                            const std::uint8_t*, int) {
                if (counted.accept(m)) f(m);
            }
        } direct{f, CountSink<R>(dup)};
        generate_captures<R, Us>(p, direct, jump_origins<typename R::Geometry>(land));
    }
}
template <class R, Color Us, class F>
void visit_side(const Position<R>& p, Duplicates dup, F&& f) {
    visit_side<R, Us>(p, first_jumps<R, Us>(p), kings_can_capture<R, Us>(p), dup, f);
}

}  // namespace detail

// Calls f(move) for every legal move of the side to move: generate without a list.
template <class R, Duplicates D = Duplicates::kDrop, class F>
void for_each_move(const Position<R>& p, F&& f) {
    if (p.side == Color::kWhite)
        detail::visit_side<R, Color::kWhite>(p, D, f);
    else
        detail::visit_side<R, Color::kBlack>(p, D, f);
}

// All legal moves of the side to move.
template <class R, Duplicates D = Duplicates::kDrop>
void generate(const Position<R>& p, MoveList<typename R::Geometry>& list) {
    if (p.side == Color::kWhite)
        detail::generate_side<R, Color::kWhite>(p, list, D);
    else
        detail::generate_side<R, Color::kBlack>(p, list, D);
}

// All legal moves with the landing squares of each capture, for notation.
template <class R, Duplicates D = Duplicates::kDrop>
void generate_paths(const Position<R>& p,
                    FixedList<PathMove<typename R::Geometry>, kMaxMoves>& list) {
    if (p.side == Color::kWhite)
        detail::generate_side<R, Color::kWhite>(p, list, D);
    else
        detail::generate_side<R, Color::kBlack>(p, list, D);
}

// Every capture of the side to move, with its landing squares, as if the precedence rule left the
// choice free: the captures of fewer pieces than the most (International, Brazilian) and a man's
// beside a king's (Czech) too; identical ones once. Not legal moves: a capture the rule forbids is
// found here to say so in the message of a move that names it (parse_move).
template <class R>
void generate_free_captures(const Position<R>& p,
                            FixedList<PathMove<typename R::Geometry>, kMaxMoves>& list) {
    using G = typename R::Geometry;
    struct Free {
        FixedList<PathMove<G>, kMaxMoves>& list;
        // Never empty: Czech's king precedence would leave the men's captures unsearched.
        bool empty() const { return true; }
        void add(const Move<G>& m, const std::uint8_t* path, int length) {
            for (const auto& e : list)
                if (e.move == m) return;
            if (list.size() == kMaxMoves) return;  // a message's material, not a rule's
            PathMove<G> e;
            e.move = m;
            e.length = length;
            for (int i = 0; i < length; ++i) e.path[i] = path[i];
            list.push(e);
        }
    } sink{list};
    list.clear();
    const auto search = [&]<Color Us>() {
        detail::generate_captures<R, Us>(
            p, sink, detail::jump_origins<G>(detail::first_jumps<R, Us>(p)));
    };
    if (p.side == Color::kWhite)
        search.template operator()<Color::kWhite>();
    else
        search.template operator()<Color::kBlack>();
}

// The number of legal moves, without making them.
template <class R, Duplicates D = Duplicates::kDrop>
int count_moves(const Position<R>& p) {
    return p.side == Color::kWhite ? detail::count_side<R, Color::kWhite>(p, D)
                                   : detail::count_side<R, Color::kBlack>(p, D);
}

// Whether the side to move must capture.
template <class R>
bool has_capture(const Position<R>& p) {
    return p.side == Color::kWhite ? detail::has_capture<R, Color::kWhite>(p)
                                   : detail::has_capture<R, Color::kBlack>(p);
}

// Whether the side not to move would have to capture if it were its turn (a threat the static
// score cannot see).
template <class R>
bool opponent_has_capture(const Position<R>& p) {
    return p.side == Color::kWhite ? detail::has_capture<R, Color::kBlack>(p)
                                   : detail::has_capture<R, Color::kWhite>(p);
}

// Whether the side to move has any legal move (a side without one has lost).
template <class R>
bool has_move(const Position<R>& p) {
    return has_capture(p) || (p.side == Color::kWhite
                                  ? detail::has_quiet_move<R, Color::kWhite>(p)
                                  : detail::has_quiet_move<R, Color::kBlack>(p));
}

#define DAMBIT_MOVEGEN_TEMPLATES_D(R, D)                                                        \
    DAMBIT_EXTERN template void generate<R, D>(const Position<R>&, MoveList<R::Geometry>&);     \
    DAMBIT_EXTERN template void generate_paths<R, D>(                                           \
        const Position<R>&, FixedList<PathMove<R::Geometry>, kMaxMoves>&);                      \
    DAMBIT_EXTERN template int count_moves<R, D>(const Position<R>&);
#define DAMBIT_MOVEGEN_TEMPLATES(R)                              \
    DAMBIT_MOVEGEN_TEMPLATES_D(R, Duplicates::kDrop)             \
    DAMBIT_MOVEGEN_TEMPLATES_D(R, Duplicates::kKeep)             \
    DAMBIT_EXTERN template bool has_capture<R>(const Position<R>&); \
    DAMBIT_EXTERN template bool opponent_has_capture<R>(const Position<R>&); \
    DAMBIT_EXTERN template bool has_move<R>(const Position<R>&);
#ifndef DAMBIT_INSTANTIATE_CORE
DAMBIT_FOR_EACH_RULES(DAMBIT_MOVEGEN_TEMPLATES)
#endif

}  // namespace dambit
