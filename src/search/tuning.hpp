// The search's switches: the parts whose worth is measured rather than assumed.
#pragma once

namespace dambit::search {

// Switches for the parts of the search whose worth is measured rather than assumed (see the
// search section of the README for the measurements).
struct Tuning {
    // Self-play at equal node budgets (dambit match, README): Russian +30 +- 13 Elo over 1610
    // games at 20000 nodes a move, International +40 +- 18 over 894 games at 8000 nodes.
    bool late_move_reductions = true;
    // One more ply at the horizon when the opponent threatens to take. Russian: +17 +- 14 Elo at
    // equal depth (depth 8, 1610 games) for 11% more nodes, and -0.2 +- 13 at equal nodes (20000,
    // 1610 games); International: -9 +- 18 at equal nodes. No measured gain at equal cost: kept
    // on the 8x8 variants only, where it finds deeper shots at a fixed depth (the tactics tests
    // rely on that), off on 10x10 (see defaults_for).
    bool threat_extension = true;
    // A node without a capture tries the table's move, or else a killer, before it generates its
    // moves (the rest are then scored with the history as it is after that move's search).
    bool staged_quiet_moves = true;
    // ProbCut as Scan 2.0 and Moby Dam do it: a non-PV node three or more plies above the
    // horizon, outside the opening, whose search at half the depth beats beta by nine tenths of a
    // man is cut there. Self-play at equal nodes (20000 a move, 3-ply openings): International
    // +34.7 +- 17.9 Elo over 894 games, and bench to depth 12 in 25% fewer nodes and 30% less
    // time. On 8x8 every match leaned the same way but none showed a gain beyond its margin
    // (1610 games each, 4-ply openings): Russian +11.0 +- 13.5 at 20000 nodes and +11.7 +- 13.3
    // at 50000, Czech +7.3 +- 10.9; Brazilian +12.9 +- 25.5 over 432. On for 10x10 only.
    // Scan's own setting (40% of the depth, a margin of 0.05 of a man a ply, any number of
    // pieces) searched two plies deeper and lost: International -21.7 +- 22.5 Elo at 10 ms a
    // move over 400 games (docs/performance.md, "Two ideas of Scan 2.0's search").
    bool probcut = false;
    // A late quiet move that offers a capture (the opponent must take next) is searched at full
    // depth, not reduced: shots and exchanges begin with such a move. Measured in
    // docs/performance.md ("Search problems of the lost games").
    bool no_reduce_offers = false;
    // Late move reductions that grow with the depth and the number of moves searched before
    // (LogReductions in search.hpp); off, one ply, two at non-PV nodes from the ninth move six
    // plies up. Self-play at 10 ms a move, 1000 games each: Russian +23.0 +- 11.2 Elo, Czech
    // +8.7 +- 11.3, International +11.8 +- 14.5; at 50 ms, 400 games each, Russian
    // +36.6 +- 17.9, International +0.9 +- 20.2
    // (docs/performance.md, "Deeper late move reductions").
    bool log_reductions = true;
    // Reverse futility pruning: a non-PV node one to three plies above the horizon where neither
    // side can capture, whose static score beats beta by half a man a ply, returns that score.
    // Self-play at 10 ms a move: Russian +10.6 +- 9.0 Elo over 1600 games, International
    // -6.3 +- 14.2 over 1000 (docs/performance.md, "Search changes tried"); Brazilian +0.7 +- 11.5,
    // English +10.1 +- 14.5, Pool +6.6 +- 15.9 over 1000 each. On for 8x8 only.
    bool static_pruning = true;
    // A search stopped inside an iteration (by its time, its nodes or from outside) plays the
    // root move that iteration searched to the end and found better than the last finished
    // iteration's move, instead of that move. Self-play at 10 ms a move, 1000 games each:
    // Russian +13.9 +- 11.5 Elo, International +8.7 +- 14.6 (docs/performance.md, "Search
    // changes tried").
    bool partial_iteration = true;
    // Under a clock, the time for a move follows the search: less when the best move has stood
    // for several iterations, more when it changes or the score falls (adapted_soft_ms in
    // limits.hpp). Self-play: Russian +14.9 +- 9.6 Elo at 1 s + 0.01 s a game (1000 games),
    // International +5.2 +- 17.0 at 2 s + 0.02 s (600 games) (docs/performance.md, "Time for a
    // move under a clock, and internal iterative reduction").
    bool adaptive_time = true;
    // Internal iterative reduction: a node four or more plies above the horizon with no move in
    // the transposition table is searched one ply shallower. Self-play at 10 ms a move, 1000
    // games each: Russian +36.3 +- 11.0 Elo, Czech +15.6 +- 11.4, Brazilian +33.1 +- 11.5, Pool
    // +23.3 +- 15.8, English +35.6 +- 14.9, International -8.0 +- 14.6 (docs/performance.md,
    // "Time for a move under a clock, and internal iterative reduction"). On for 8x8 only.
    bool table_move_reduction = true;
    // A cache of static scores per worker (16,384 entries, 128 KiB): a position's score is
    // computed once and read back when the search meets it again. The scores are the same, so
    // the search visits the same nodes; only its speed changes. dambit bench, three alternating
    // runs, nodes/s against off: International 1.025, Russian and Czech 1.02; 65,536 entries
    // gained no more, 262,144 lost (docs/performance.md, "An evaluation cache").
    bool eval_cache = true;
    // Early late move reductions, as Scan 3.1 does them: a non-PV node reduces its late quiet
    // moves from the second one searched, not from the fourth (PV nodes still from the fourth).
    // International, self-play: +9.0 +- 10.0 Elo over 2000 games at 10 ms a move and +9.7 +- 13.7
    // over 1000 at 250,000 nodes, together +9.3 +- 8.1 over 3000, a third to half a ply deeper
    // (docs/performance.md, "Scan 3.1's early reductions").
    bool early_reductions = true;

    template <class R>
    static Tuning defaults_for() {
        Tuning t;
        t.threat_extension = R::Geometry::kSize == 8;
        t.probcut = R::Geometry::kSize == 10;
        t.static_pruning = R::Geometry::kSize == 8;
        t.table_move_reduction = R::Geometry::kSize == 8;
        t.early_reductions = R::Geometry::kSize == 10;
        return t;
    }
};

}  // namespace dambit::search
