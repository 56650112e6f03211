// Perft: the number of leaf positions at a given depth, with bulk counting at the last ply, a
// root split over threads and an optional shared hash table.
#pragma once

#include "core/instances.hpp"

#include <atomic>
#include <climits>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/key.hpp"
#include "core/movegen.hpp"
#include "core/threads.hpp"

namespace dambit {

// A lockless table of subtree counts shared by all threads. Each entry holds the count and the
// count XORed with the key of (position, depth); a torn write from two threads fails the check and
// is treated as a miss, so the table can only save work, never change a result (up to a 64-bit key
// collision, about one chance in 2^64 per probe).
class PerftHash {
public:
    explicit PerftHash(std::size_t megabytes) {
        std::size_t n = 1;
        while (n * 2 * sizeof(Entry) <= megabytes * (std::size_t(1) << 20)) n *= 2;
        entries_ = std::make_unique<Entry[]>(n);
        mask_ = n - 1;
    }
    bool probe(std::uint64_t key, std::uint64_t& count) const {
        const Entry& e = entries_[key & mask_];
        const std::uint64_t c = e.count.load(std::memory_order_relaxed);
        const std::uint64_t k = e.check.load(std::memory_order_relaxed);
        if ((k ^ c) != key) return false;
        count = c;
        return true;
    }
    void store(std::uint64_t key, std::uint64_t count) {
        Entry& e = entries_[key & mask_];
        e.count.store(count, std::memory_order_relaxed);
        e.check.store(key ^ count, std::memory_order_relaxed);
    }
    std::size_t entries() const { return mask_ + 1; }

private:
    struct Entry {
        std::atomic<std::uint64_t> check{0}, count{0};
    };
    std::unique_ptr<Entry[]> entries_;
    std::size_t mask_ = 0;
};

// A count that does not fit in 64 bits (more than 18446744073709551615, or for one subtree of
// perft_run, 9223372036854775807): perft throws this rather than wrap around.
struct PerftOverflow : std::overflow_error {
    PerftOverflow() : std::overflow_error("a count does not fit in 64 bits") {}
};

// n + k, or PerftOverflow.
[[gnu::always_inline]] inline std::uint64_t add_count(std::uint64_t n, std::uint64_t k) {
    std::uint64_t s;
    if (__builtin_add_overflow(n, k, &s)) [[unlikely]]
        throw PerftOverflow();
    return s;
}

namespace detail {

// Subtree counts differ by variant (the 8x8 variants share their start position), by depth and by
// duplicate convention, so all three go into the key.
template <class R>
constexpr std::uint64_t rules_salt() {
    std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a of the variant's name
    for (const char c : R::kName)
        h = (h ^ std::uint64_t(static_cast<unsigned char>(c))) * 0x100000001B3ull;
    return h;
}
template <class R>
std::uint64_t depth_salt(int depth, Duplicates dup) {
    return rules_salt<R>() ^
           0x9E3779B97F4A7C15ull * std::uint64_t(2 * depth + (dup == Duplicates::kKeep ? 1 : 0));
}

// The number of their replies after our move `m` from `p` when their men must capture and they have
// no king: `jumps` are their men's first jumps, `own` our pieces and `free` the free squares, all
// after `m`. Counted set-wise where count_short_captures can, else by the capture search.
template <class R, Color Them>
[[gnu::always_inline]] inline int capture_replies(
    const Position<R>& p, const Move<typename R::Geometry>& m,
    const Lanes<typename R::Geometry::Bitboard>& jumps, typename R::Geometry::Bitboard own,
    typename R::Geometry::Bitboard free, Duplicates dup) {
    if (const int k = count_short_captures<R, Them>(jumps, own, free); k >= 0) return k;
    if constexpr (R::kPromotion == CapturePromotion::kContinuesAsKing) {
        if (jumps.merged() & Side<R, Them>::kPromotion)
            if (const int k = count_short_captures_crowned<R, Them>(jumps, own, free); k >= 0)
                return k;
    }
    CountSink<R> sink(dup);
    generate_captures<R, Them>(p.play(m), sink, jump_origins<typename R::Geometry>(jumps));
    return sink.count();
}

// Perft at depth 2 with the side to move `Us`: the sum over our moves of the replies' counts.
//
// The common case is solved without making the moves: we have no capture and the opponent has no
// kings. A quiet move of ours changes only two squares (`from` empties, `to` fills) and leaves the
// opponent's men where they are, so for each reply position:
// - whether the opponent must capture is one lane step of their men's victim squares (fixed for
//   the parent) against our moved pieces;
// - without a capture, their man steps are the parent's count, plus the steps into `from`, minus
//   the steps into `to`.
// When the opponent has no capture in the parent position either, the replies that must capture
// are found for all of one direction's man steps at once, as a bitboard, and the others are
// summed by popcounts. Replies that must capture go through the ordinary capture count.
template <class R, Color Us>
std::uint64_t perft2_side(const Position<R>& p, Duplicates dup) {
    using G = typename R::Geometry;
    using B = typename G::Bitboard;
    using L = Lanes<B>;
    constexpr Color Them = ~Us;
    using S = Side<R, Us>;
    using T = Side<R, Them>;
    std::uint64_t n = 0;
    const B men = p.pieces[int(Them)], us = p.pieces[int(Us)], empty = p.empty();
    const auto land = first_jumps<R, Us>(p);
    const bool generic = (men & p.kings) || kings_can_capture<R, Us>(p);
    // The replies after a capture by a man of ours from `from` to `to`, taking `taken` (men of
    // theirs only: they have no king here).
    auto after_capture = [&](B from, B to, B taken) __attribute__((always_inline)) {
        const B them = men & ~taken, own = us ^ from ^ to;
        const B free = empty ^ from ^ to ^ taken;
        const L jumps = man_jumps<R, Them>(them, own, free);
        if (!jumps.any())
            return popcount(B(G::template step<T::kLeft>(them) & free)) +
                   popcount(B(G::template step<T::kRight>(them) & free));
        Move<G> m;
        m.captured = taken;
        m.from = std::uint8_t(lsb(from));
        m.to = std::uint8_t(lsb(to));
        m.flags = (to & S::kPromotion) ? Move<G>::kPromotes : 0;
        return capture_replies<R, Them>(p, m, jumps, own, free, dup);
    };
    // Each of our first jumps in direction d that is a whole move, with the replies counted
    // from the masks alone.
    auto single_captures = [&]<int Dir>(B lands) __attribute__((always_inline)) {
        for_each_bit(lands, [&](int t) {
            const B to = bit<B>(t), victim = G::template step<opposite(Dir)>(to);
            n += std::uint64_t(
                after_capture(G::template step<opposite(Dir)>(victim), to, victim));
        });
    };
    if (land.any() && !generic) {
        if (single_jumps_only<R, Us>(land, men, empty)) {
            // Each of our moves takes one man of theirs.
            single_captures.template operator()<0>(land[0]);
            single_captures.template operator()<1>(land[1]);
            single_captures.template operator()<2>(land[2]);
            single_captures.template operator()<3>(land[3]);
            return n;
        }
        // No capture of ours is longer than two jumps, and no man of ours is crowned on the
        // way (but where the move ends): the captures are the (man, first direction, second
        // direction) paths of the lanes, as in count_short_captures, and the first jumps with no
        // second one. Two jumps never make a duplicate. A third jump is looked for over every
        // man of theirs (the first victim too, which is more) and with our start squares
        // occupied, which is exact: three diagonal jumps never end where they began.
        L go_on = land;
        if (keep_men_going_on<R, Us>(go_on)) {
            const L second = man_jumps<R, Us>(go_on.merged(), men, empty);
            if (!(second.merged() & S::kPromotion) &&
                !man_jumps<R, Us>(not_straight_back(second), men, empty).any()) {
                // Directions are template arguments, so that every step is a fixed rotation.
                auto from_first = [&]<int D1>() __attribute__((always_inline)) {
                    if (!land[D1]) return;
                    const L x = man_jumps<R, Us>(go_on[D1], men, empty);
                    B goes_on = 0;  // first landings with a second jump
                    auto paths = [&]<int D2>() __attribute__((always_inline)) {
                        for_each_bit(x[D2], [&](int t) {
                            const B to = bit<B>(t), v2 = G::template step<opposite(D2)>(to);
                            const B l1 = G::template step<opposite(D2)>(v2);
                            const B v1 = G::template step<opposite(D1)>(l1);
                            goes_on |= l1;
                            n += std::uint64_t(after_capture(
                                G::template step<opposite(D1)>(v1), to, B(v1 | v2)));
                        });
                    };
                    paths.template operator()<0>();
                    paths.template operator()<1>();
                    paths.template operator()<2>();
                    paths.template operator()<3>();
                    // Under the majority rule a single jump counts only when no capture
                    // takes two.
                    if (R::kPrecedence != Precedence::kMostPieces || !second.any())
                        single_captures.template operator()<D1>(B(land[D1] & ~goes_on));
                };
                from_first.template operator()<0>();
                from_first.template operator()<1>();
                from_first.template operator()<2>();
                from_first.template operator()<3>();
                return n;
            }
        }
    }
    if (land.any() || generic) {
        visit_side<R, Us>(p, dup, [&](const Move<G>& m) __attribute__((always_inline)) {
            n += std::uint64_t(count_side<R, Them>(p.play(m), dup));
        });
        return n;
    }
    // victims[d]: squares a man of theirs would jump over in direction d.
    const L victims = G::step4(L::broadcast(men) & T::kManCapture);
    const B left = G::template step<T::kLeft>(men), right = G::template step<T::kRight>(men);
    const int base = popcount(B(left & empty)) + popcount(B(right & empty));

    // One reply position, from our move's two squares.
    auto reply = [&](const Move<G>& m) __attribute__((always_inline)) {
        const B from = bit<B>(m.from), to = bit<B>(m.to), ft = from | to;
        const L jumps = G::step4(victims & L::broadcast(us ^ ft)) & L::broadcast(empty ^ ft);
        if (!jumps.any())
            return base + int((left & from) != 0) + int((right & from) != 0) -
                   int((left & to) != 0) - int((right & to) != 0);
        return capture_replies<R, Them>(p, m, jumps, us ^ ft, empty ^ ft, dup);
    };
    struct Visit {
        decltype(reply)& f;
        std::uint64_t& n;
        bool empty() const { return true; }
        void add(const Move<G>& m, const std::uint8_t*, int) { n += std::uint64_t(f(m)); }
    } visit{reply, n};

    // Their jumps with our pieces where they stand (`threats`: the landing squares, free or not).
    const L threats = G::step4(victims & L::broadcast(us));
    const L behind_free = G::step4_back(L::broadcast(empty));  // lane d: the square beyond is free
    const L lands = victims & behind_free;                      // a jump over s lands free
    const B own_men = us & ~p.kings;
    // The replies to our man steps in direction Dir to the squares of `moves`, one by one.
    auto reply_each = [&]<int Dir>(B moves) __attribute__((always_inline)) {
        for_each_bit(moves, [&](int t) {
            Move<G> m;
            m.to = std::uint8_t(t);
            m.from = std::uint8_t(lsb(G::template step<opposite(Dir)>(bit<B>(t))));
            m.flags = (bit<B>(t) & S::kPromotion) ? Move<G>::kPromotes : 0;
            n += std::uint64_t(reply(m));
        });
    };
    // For our man stepping against direction Back: the squares `to` where they could jump the
    // moved man (a man behind it in some direction d with a free square beyond, or, for d = Back,
    // the square just left), and the squares `from` they could jump into, over a piece of ours
    // that stayed. Either gives them a capture they do not have now.
    auto over_to = [&]<int Back>() __attribute__((always_inline)) {
        B x = victims[Back];
        for (int d = 0; d < 4; ++d)
            if (d != Back) x |= lands[d];
        return x;
    };
    auto into_from = [&]<int Back>() __attribute__((always_inline)) {
        B x = 0;
        for (int d = 0; d < 4; ++d)
            if (d != Back) x |= threats[d];
        return x;
    };

    if (const L first = threats & L::broadcast(empty); first.any()) {
        // They can capture already. A man step of ours changes two squares; when neither is
        // one their capture tree looks at in a way that matters, the tree, so the count, is as
        // it is now, and such steps are counted at once (the others, and king moves, one by one).
        // `reach`: their men and every square a capture of theirs of up to three jumps may land
        // on (a superset: pieces taken earlier still count as victims). From a square r of it,
        // in direction d, a jump looks at the victim square v = r + d and the landing v + d:
        // - `to` (free now, ours after) matters as a v with a free square behind it, as a landing
        //   (over a piece of ours), or as a v in the direction back along our step, where the
        //   landing is the square just left;
        // - `from` (ours now, free after) matters as a v with a free square behind it, or as a
        //   landing over a piece of ours.
        // A man crowned on the way looks along whole diagonals: then every move is counted on
        // its own, and so when count_short_captures cannot count their captures.
        const B l1 = first.merged();
        const L j2 = man_jumps<R, Them>(l1, us, empty);
        const B l2 = j2.merged();
        const L j3 = man_jumps<R, Them>(l2, us, empty);
        const B l3 = j3.merged();
        int now = -1;
        if (!((l1 | l2 | l3) & T::kPromotion))
            now = count_short_captures<R, Them>(first, us, empty);
        if (now < 0) {
            generate_quiet<R, Us>(p, visit);
            return n;
        }
        const B reach = men | l1 | l2 | l3;
        const L v = G::step4(L::broadcast(reach) & T::kManCapture);
        const L ours = v & L::broadcast(us);
        const L landing = G::step4(ours), v_to = (v & behind_free) | landing;
        const L v_from = (ours & behind_free) | landing;
        const B to_matters = v_to.merged();
        const B from_matters = v_from.merged();
        auto threat_steps = [&]<int Dir>() __attribute__((always_inline)) {
            constexpr int Back = opposite(Dir);
            const B to = G::template step<Dir>(own_men) & empty;
            const B alone =
                to & ~(to_matters | v[Back] | G::template step<Dir>(from_matters));
            n += std::uint64_t(now) * std::uint64_t(popcount(alone));
            reply_each.template operator()<Dir>(B(to & ~alone));
        };
        threat_steps.template operator()<S::kLeft>();
        threat_steps.template operator()<S::kRight>();
        generate_king_steps<R>(B(us & p.kings), empty, visit);
        return n;
    }
    auto man_steps = [&]<int Dir>() __attribute__((always_inline)) {
        constexpr int Back = opposite(Dir);
        const B to = G::template step<Dir>(own_men) & empty;
        if (!to) return;
        const B into = to & G::template step<Dir>(into_from.template operator()<Back>());
        const B capture = to & (over_to.template operator()<Back>() | into);
        const B quiet = to & ~capture, from = G::template step<Back>(quiet);
        n += std::uint64_t(base * popcount(quiet) + popcount(B(from & left)) +
                           popcount(B(from & right)) - popcount(B(quiet & left)) -
                           popcount(B(quiet & right)));
        auto each_reply = [&](B moves) { reply_each.template operator()<Dir>(moves); };
        each_reply(into);
        // The moves whose replies can only capture the moved man: counted all at once, as if
        // one position held every reply. That is exact because none of these replies sees
        // another move's squares. Their first jumps (lane j: over `to` in direction j, landing
        // on `from` for j = Back) are told apart by the lanes, and so are the jumps that follow,
        // none of which takes a piece on `from` or lands on `from` or `to`. Seen from `to`, the
        // k-th victim of a reply lies at j + 2(d2 + ... + d[k-1]) + dk and the k-th landing at
        // j + 2(d2 + ... + dk), for unit diagonals j, d2, d3: a victim is an even number of
        // files away, never on `from` (one file away), and back on `to` only by a straight turn
        // back; a landing (k = 2, 3) reaches `from` or `to` only by a straight turn back or
        // with their man having stood on `from`. A fourth jump is looked for with every `from`
        // free, and where one might exist, or a man would be crowned, each move is counted on
        // its own. Majority capture compares within one position, so it is left out.
        if (const B over = capture & ~into; over) {
            const L first = G::step4(L::broadcast(over) & victims) &
                            (L::broadcast(empty) | only<G>(Back));
            int k = -1;
            if constexpr (R::kPrecedence != Precedence::kMostPieces) {
                if (!(first.merged() & T::kPromotion))
                    k = count_short_captures<R, Them>(first, us, empty,
                                                      B(empty | G::template step<Back>(over)));
            }
            if (k >= 0)
                n += std::uint64_t(k);
            else
                each_reply(over);
        }
    };
    man_steps.template operator()<S::kLeft>();
    man_steps.template operator()<S::kRight>();
    generate_king_steps<R>(B(us & p.kings), empty, visit);
    return n;
}

// Perft at depth >= 3 with the side to move `Us`: the side is known at compile time all the way
// down, and a depth-3 node calls the depth-2 count of each child directly.
template <class R, Color Us>
std::uint64_t perft_side(const Position<R>& p, int depth, PerftHash* hash, Duplicates dup) {
    std::uint64_t key = 0;
    if (hash) {
        key = position_key(p) ^ depth_salt<R>(depth, dup);
        std::uint64_t n;
        if (hash->probe(key, n)) return n;
    }
    std::uint64_t n = 0;
    using M = Move<typename R::Geometry>;
    if (depth == 3)  // at most kMaxMoves^3 leaves: no overflow
        visit_side<R, Us>(p, dup, [&](const M& m) __attribute__((always_inline)) {
            n += perft2_side<R, ~Us>(p.play(m), dup);
        });
    else
        visit_side<R, Us>(p, dup, [&](const M& m) __attribute__((always_inline)) {
            n = add_count(n, perft_side<R, ~Us>(p.play(m), depth - 1, hash, dup));
        });
    if (hash) hash->store(key, n);
    return n;
}

template <class R>
std::uint64_t perft_node(const Position<R>& p, int depth, PerftHash* hash, Duplicates dup) {
    const bool white = p.side == Color::kWhite;
    if (depth == 1)
        return std::uint64_t(white ? count_side<R, Color::kWhite>(p, dup)
                                   : count_side<R, Color::kBlack>(p, dup));
    if (depth == 2)
        return white ? perft2_side<R, Color::kWhite>(p, dup) : perft2_side<R, Color::kBlack>(p, dup);
    return white ? perft_side<R, Color::kWhite>(p, depth, hash, dup)
                 : perft_side<R, Color::kBlack>(p, depth, hash, dup);
}

}  // namespace detail

// Perft of p at depth >= 1 on the calling thread; hash may be null.
template <class R, Duplicates D>
std::uint64_t perft(const Position<R>& p, int depth, PerftHash* hash = nullptr) {
    if (depth <= 0) return 1;
    return detail::perft_node<R>(p, depth, hash, D);
}

template <class R>
std::uint64_t perft(const Position<R>& p, int depth, Duplicates d, PerftHash* hash = nullptr) {
    return d == Duplicates::kKeep ? perft<R, Duplicates::kKeep>(p, depth, hash)
                                  : perft<R, Duplicates::kDrop>(p, depth, hash);
}

// A perft cut into subtrees: the positions two plies from the root (one ply when depth < 3), in
// generation order. The cut does not depend on the number of threads, so a long run can be
// checkpointed subtree by subtree and resumed (dambit perft --checkpoint).
template <class R>
struct PerftSplit {
    int roots = 0;                   // root moves, in the order generate_paths gives them
    int sub_depth = 0;               // depth left below each subtree's position
    std::vector<int> root;           // the root move of each subtree
    std::vector<Position<R>> pos;    // the subtree's position
};

template <class R>
PerftSplit<R> perft_split(const Position<R>& p, int depth, Duplicates dup) {
    using G = typename R::Geometry;
    PerftSplit<R> s;
    FixedList<PathMove<G>, kMaxMoves> roots;
    if (dup == Duplicates::kKeep)
        generate_paths<R, Duplicates::kKeep>(p, roots);
    else
        generate_paths<R, Duplicates::kDrop>(p, roots);
    s.roots = roots.size();
    if (depth <= 0) return s;
    const bool two = depth >= 3;
    s.sub_depth = two ? depth - 2 : depth - 1;
    for (int i = 0; i < roots.size(); ++i) {
        const Position<R> child = p.play(roots[i].move);
        if (!two) {
            s.root.push_back(i);
            s.pos.push_back(child);
            continue;
        }
        MoveList<G> replies;
        if (dup == Duplicates::kKeep)
            generate<R, Duplicates::kKeep>(child, replies);
        else
            generate<R, Duplicates::kDrop>(child, replies);
        for (const auto& m : replies) {
            s.root.push_back(i);
            s.pos.push_back(child.play(m));
        }
    }
    return s;
}

// Counts the subtrees of `split` whose count is not known yet (counts[k] < 0) over `threads`,
// filling in counts[k]; on_done(k, n) is called under a lock as each one completes. After the
// first exception of a thread (PerftOverflow, or one of on_done) the others take no new subtree;
// once they have finished theirs, it is thrown here.
template <class R>
void perft_run(const PerftSplit<R>& split, Duplicates dup, int threads, PerftHash* hash,
               std::vector<std::int64_t>& counts,
               const std::function<void(int subtree, std::uint64_t nodes)>& on_done = {}) {
    counts.resize(split.pos.size(), -1);
    std::atomic<std::size_t> next{0};
    std::mutex lock;
    std::exception_ptr failure;
    auto work = [&] {
        try {
            for (;;) {
                const std::size_t k = next.fetch_add(1);
                if (k >= split.pos.size()) return;
                if (counts[k] >= 0) continue;
                const std::uint64_t n = perft<R>(split.pos[k], split.sub_depth, dup, hash);
                if (n > std::uint64_t(INT64_MAX)) throw PerftOverflow();  // counts[k] is signed
                std::lock_guard<std::mutex> guard(lock);
                counts[k] = std::int64_t(n);
                if (on_done) on_done(int(k), n);
            }
        } catch (...) {
            next = split.pos.size();
            std::lock_guard<std::mutex> guard(lock);
            if (!failure) failure = std::current_exception();
        }
    };
    Workers pool(threads - 1, "perft", 1, [&](std::size_t) { work(); });
    work();
    pool.join();
    if (failure) std::rethrow_exception(failure);
}

// The count of each root move at `depth`, in the order generate_paths gives them, split over
// threads. `on_root_done` is called (under a lock) as each root move's subtree completes, for
// progress reports.
template <class R>
std::vector<std::uint64_t> perft_divide(
    const Position<R>& p, int depth, Duplicates dup, int threads, PerftHash* hash,
    const std::function<void(int root_index, std::uint64_t nodes)>& on_root_done = {}) {
    const PerftSplit<R> split = perft_split(p, depth, dup);
    std::vector<std::uint64_t> counts(std::size_t(split.roots), 0);
    if (depth <= 0) return counts;
    std::vector<int> pending(std::size_t(split.roots), 0);
    for (int r : split.root) ++pending[std::size_t(r)];
    if (on_root_done)
        for (int r = 0; r < split.roots; ++r)
            if (pending[std::size_t(r)] == 0) on_root_done(r, 0);
    std::vector<std::int64_t> sub;
    perft_run(split, dup, threads, hash, sub, [&](int k, std::uint64_t n) {
        const auto r = std::size_t(split.root[std::size_t(k)]);
        counts[r] = add_count(counts[r], n);
        if (--pending[r] == 0 && on_root_done) on_root_done(int(r), counts[r]);
    });
    return counts;
}

#define DAMBIT_PERFT_TEMPLATES(R)                                                               \
    DAMBIT_EXTERN template std::uint64_t perft<R, Duplicates::kDrop>(const Position<R>&, int,   \
                                                                     PerftHash*);               \
    DAMBIT_EXTERN template std::uint64_t perft<R, Duplicates::kKeep>(const Position<R>&, int,   \
                                                                     PerftHash*);               \
    DAMBIT_EXTERN template std::vector<std::uint64_t> perft_divide<R>(                          \
        const Position<R>&, int, Duplicates, int, PerftHash*,                                   \
        const std::function<void(int, std::uint64_t)>&);                                        \
    DAMBIT_EXTERN template PerftSplit<R> perft_split<R>(const Position<R>&, int, Duplicates);   \
    DAMBIT_EXTERN template void perft_run<R>(const PerftSplit<R>&, Duplicates, int, PerftHash*, \
                                             std::vector<std::int64_t>&,                        \
                                             const std::function<void(int, std::uint64_t)>&);
#ifndef DAMBIT_INSTANTIATE_PERFT
DAMBIT_FOR_EACH_RULES(DAMBIT_PERFT_TEMPLATES)
#endif

}  // namespace dambit
