// The exact solver: published win lengths, proven lines, and results the table cannot change.
#include "search/solve.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "core/notation.hpp"
#include "search/line.hpp"

using namespace dambit;
using namespace dambit::search;

namespace {

struct Row {
    const char* slice;
    const char* fen;
    int plies;
    bool slow;  // takes more than 0.1 s of processor time in a Release build
};

// Michel Grimminck's longest wins of the International 2-4 piece databases, as recorded in Rein
// Halbersma's dctl tests (test/src/algo/search/egdb/international.cpp); /work/shared/
// solve-reference.md. White to move wins; `plies` is the ply after which Black is first without
// a legal move. Game-theoretic values: no move-count draw rules.
// clang-format off
const Row kRows[] = {
    {"1010", "W:W33:B2", 17, false},
    {"0110", "W:WK42:B22", 7, false},
    {"1001", "W:W10:BK46", 3, false},
    {"0101", "W:WK10:BK5", 3, false},
    {"2010", "W:W40,44:B3", 23, false},
    {"1110", "W:WK2,11:B45", 11, false},
    {"0210", "W:WK7,K30:B45", 9, false},
    {"2001", "W:W6,7:BK45", 7, false},
    {"1101", "W:WK2,6:BK50", 9, false},
    {"0201", "W:WK1,K7:BK50", 7, false},
    {"1020", "W:W21:B3,4", 33, true},
    {"0120", "W:WK38:B4,18", 27, true},
    {"1011", "W:W18:B5,K23", 17, false},
    {"0111", "W:WK26:B23,K42", 9, false},
    {"1002", "W:W14:BK10,K46", 3, false},
    {"0102", "W:WK10:BK5,K23", 3, false},
    {"2020", "W:W33,46:B4,5", 39, true},
    {"1120", "W:W8,K50:B3,32", 27, true},
    {"0220", "W:WK1,K23:B4,38", 25, true},
    {"2011", "W:W17,35:B3,K21", 23, false},
    {"1111", "W:WK1,12:B16,K50", 19, true},
    {"0211", "W:WK1,K16:BK17,26", 19, true},
    {"2002", "W:W6,12:BK7,K45", 7, false},
    {"1102", "W:W6,K22:BK17,K50", 9, false},
    {"0202", "W:WK6,K22:BK17,K50", 9, false},
    {"3010", "W:W12,13,16:B30", 23, true},
    {"2110", "W:WK4,16,18:B34", 21, true},
    {"1210", "W:WK8,11,K13:B44", 19, true},
    {"0310", "W:WK8,K20,K37:B43", 17, true},
    {"3001", "W:W6,10,49:BK40", 13, true},
    {"2101", "W:W6,K49,50:BK16", 29, true},
    {"1201", "W:WK40,K45,50:BK11", 31, true},
    {"0301", "W:WK6,K22,K27:BK49", 15, true},
    {"1030", "W:W6:B2,3,4", 43, true},
    {"0130", "W:WK1:B2,3,4", 43, true},
    {"1021", "W:W6:B3,4,K11", 33, true},
    {"0121", "W:WK14:B1,K10,12", 29, false},
    {"1012", "W:W8:B5,K13,K23", 17, false},
    {"0112", "W:WK1:BK18,24,K44", 9, false},
    {"1003", "W:W23:BK10,K19,K46", 3, false},
    {"0103", "W:WK49:BK23,K43,K46", 3, false},
    {"D&G", "W:W23:B5,6", 29, false},
};
// clang-format on

// The line must be legal, alternate as claimed, and leave the loser without a move exactly at its
// end (and not before).
template <class R>
void check_line(Position<R> p, const Proof<typename R::Geometry>& proof) {
    REQUIRE(int(proof.line.size()) == proof.plies);
    for (const auto& m : proof.line) {
        REQUIRE(has_move(p));
        MoveList<typename R::Geometry> list;
        generate<R>(p, list);
        bool legal = false;
        for (const auto& x : list) legal |= x == m;
        REQUIRE(legal);
        p = p.play(m);
    }
    CHECK_FALSE(has_move(p));
}

void check_rows(bool slow) {
    for (const Row& r : kRows) {
        if (r.slow != slow) continue;
        INFO("slice " << r.slice << " " << r.fen);
        SolveOptions o;
        o.hash_megabytes = slow ? 64 : 8;
        Solver<International> solver(o);
        const auto p = parse_fen<International>(r.fen);
        const auto proof = solver.solve(p);
        REQUIRE(proof.outcome == Outcome::kForcedWin);
        CHECK(proof.plies == r.plies);
        check_line(p, proof);
    }
}

}  // namespace

TEST_CASE("solve reproduces the published longest wins (fast rows)", "[solve]") {
    check_rows(false);
}

TEST_CASE("solve reproduces the published longest wins (slow rows)", "[solve][slow]") {
    check_rows(true);
}

TEST_CASE("after the winner's first move the loser's position is a loss one ply shorter",
          "[solve]") {
    // 0110: W:WK42:B22, win in 7. Whatever White's best first move is, Black then loses in 6.
    SolveOptions o;
    o.hash_megabytes = 4;
    Solver<International> solver(o);
    const auto p = parse_fen<International>("W:WK42:B22");
    const auto win = solver.solve(p);
    REQUIRE(win.outcome == Outcome::kForcedWin);
    const auto loss = solver.solve(p.play(win.line.front()));
    CHECK(loss.outcome == Outcome::kForcedLoss);
    CHECK(loss.plies == 6);
    check_line(p.play(win.line.front()), loss);
}

TEST_CASE("a side without a legal move has lost in 0 plies", "[solve]") {
    // RULES.md §2: no pieces (or all blocked) means lost. White to move with no piece at all.
    SolveOptions o;
    o.hash_megabytes = 1;
    Solver<Russian> solver(o);
    const auto proof = solver.solve(parse_fen<Russian>("W:W:B1"));
    CHECK(proof.outcome == Outcome::kForcedLoss);
    CHECK(proof.plies == 0);
    // A blocked man: White's man on 29 (a1), Black's men on 25 (b2) and 22 (c3). a1 cannot step
    // to b2 and cannot jump it because c3 is taken; a1 has no other diagonal. Lost at once.
    const auto blocked = solver.solve(parse_fen<Russian>("W:W29:B25,22"));
    CHECK(blocked.outcome == Outcome::kForcedLoss);
    CHECK(blocked.plies == 0);
}

TEST_CASE("the table never changes a proven result", "[solve]") {
    // The short rows (up to 7 plies), solved with the table, with a tiny table (constant
    // replacement) and with no table at all: the same lengths.
    for (const Row& r : kRows) {
        if (r.plies > 7) continue;
        INFO(r.fen);
        const auto p = parse_fen<International>(r.fen);
        SolveOptions table;
        table.hash_megabytes = 4;
        SolveOptions none;
        none.use_table = false;
        SolveOptions tiny;
        tiny.hash_megabytes = 0;  // four entries
        Solver<International> a(table), b(none), c(tiny);
        const auto pa = a.solve(p), pb = b.solve(p), pc = c.solve(p);
        CHECK(pa.outcome == Outcome::kForcedWin);
        CHECK(pb.outcome == pa.outcome);
        CHECK(pc.outcome == pa.outcome);
        CHECK(pa.plies == r.plies);
        CHECK(pb.plies == pa.plies);
        CHECK(pc.plies == pa.plies);
    }
}

TEST_CASE("solve claims nothing it has not proven", "[solve]") {
    // 1010 W:W33:B2 is won in 17 plies at best (solve-reference.md). Looking no further than 15
    // plies there is neither a win nor a loss to find: the answer must be "unknown".
    SolveOptions o;
    o.max_plies = 15;
    o.hash_megabytes = 4;
    Solver<International> solver(o);
    CHECK(solver.solve(parse_fen<International>("W:W33:B2")).outcome == Outcome::kUnknown);
    // With a time limit too short for the 43-ply row, the answer is "unknown", never a guess.
    SolveOptions quick;
    quick.max_seconds = 0.05;
    quick.hash_megabytes = 4;
    Solver<International> hurried(quick);
    const auto rushed = hurried.solve(parse_fen<International>("W:W6:B2,3,4"));
    CHECK((rushed.outcome == Outcome::kUnknown ||
           (rushed.outcome == Outcome::kForcedWin && rushed.plies == 43)));
}

TEST_CASE("solve_moves proves every move on its own, best first", "[solve]") {
    // Russian, White men a1 and c1, Black man a3, White to move. Hand analysis (RULES.md):
    //  - a1-b2: Black's a3 cannot step to b2 (taken) nor jump it (c1 is taken), and a man does not
    //    step backwards: Black has no move. Win in 1.
    //  - c1-d2: Black's only move is a3-b2 (no capture: nothing White stands next to a3); then
    //    a1:c3 takes Black's last piece. Win in 3.
    //  - c1-b2: Black must take, a3:c1, and crowns on c1; White's a1 can only step to b2, and the
    //    king on c1 takes it (c1:a3). White has nothing left: loss in 4, with no other defence.
    // So two moves win (a duplicate solution of a problem whose key is a1-b2), one loses.
    SolveOptions o;
    o.hash_megabytes = 1;
    Solver<Russian> solver(o);
    const auto p = parse_fen<Russian>("W:Wa1,c1:Ba3");
    const auto root = solver.solve(p);
    CHECK(root.outcome == Outcome::kForcedWin);
    CHECK(root.plies == 1);
    const auto moves = solver.solve_moves(p);
    REQUIRE(moves.size() == 3);
    const char* want_move[] = {"a1-b2", "c1-d2", "c1-b2"};
    const Outcome want_outcome[] = {Outcome::kForcedWin, Outcome::kForcedWin, Outcome::kForcedLoss};
    const int want_plies[] = {1, 3, 4};
    for (int i = 0; i < 3; ++i) {
        const auto& [m, proof] = moves[std::size_t(i)];
        INFO(want_move[i]);
        CHECK(move_text<Russian>(*path_of<Russian>(p, m)) == want_move[i]);
        CHECK(proof.outcome == want_outcome[i]);
        CHECK(proof.plies == want_plies[i]);
        REQUIRE(!proof.line.empty());
        CHECK(proof.line.front() == m);
        check_line(p, proof);
    }
    // A flying king a1 behind Black's man on c3 must take it and may land on d4, e5, f6, g7 or h8
    // (RULES.md §3): five moves, each leaving Black without a piece, each a win in 1.
    const auto king = parse_fen<Russian>("W:WKa1:Bc3");
    const auto takes = solver.solve_moves(king);
    CHECK(takes.size() == 5);
    for (const auto& [m, proof] : takes) {
        CHECK(proof.outcome == Outcome::kForcedWin);
        CHECK(proof.plies == 1);
    }
    // No legal move: no move to prove.
    CHECK(solver.solve_moves(parse_fen<Russian>("W:Wa1:Bb2,c3")).empty());
}

TEST_CASE("line_turns proves the other moves at each of the winner's turns", "[solve]") {
    // W:Wa1,c1:Ba3 (hand analysis above): the line is a1-b2, the only win in 1; at that turn c1-d2
    // also wins (in 3), c1-b2 loses (in 4).
    SolveOptions o;
    o.hash_megabytes = 4;
    {
        Solver<Russian> solver(o);
        const auto p = parse_fen<Russian>("W:Wa1,c1:Ba3");
        const auto proof = solver.solve(p);
        const auto turns = solver.line_turns(p, proof);
        REQUIRE(turns.size() == 1);
        CHECK(turns[0].ply == 1);
        CHECK(move_text<Russian>(*path_of<Russian>(p, turns[0].move)) == "a1-b2");
        REQUIRE(turns[0].others.size() == 2);
        CHECK(move_text<Russian>(*path_of<Russian>(p, turns[0].others[0].move)) == "c1-d2");
        CHECK(turns[0].others[0].proof.outcome == Outcome::kForcedWin);
        CHECK(turns[0].others[0].proof.plies == 3);
        CHECK(turns[0].others[1].proof.outcome == Outcome::kForcedLoss);
        CHECK(turns[0].others[1].proof.plies == 4);
    }
    // 0110 W:WK42:B22, win in 7 (solve-reference.md): White moves at plies 1, 3, 5 and 7. The line
    // is a shortest win, so at each turn no other move wins sooner than the line's remaining
    // plies, and every other move's proven line is legal from that turn's position.
    Solver<International> solver(o);
    auto p = parse_fen<International>("W:WK42:B22");
    const auto proof = solver.solve(p);
    REQUIRE(proof.plies == 7);
    const auto turns = solver.line_turns(p, proof);
    REQUIRE(turns.size() == 4);
    for (std::size_t i = 0; i < turns.size(); ++i) {
        const auto& t = turns[i];
        CHECK(t.ply == int(2 * i + 1));
        CHECK(t.move == proof.line[2 * i]);
        const int left = proof.plies - t.ply + 1;
        for (const auto& [m, mp] : t.others) {
            CHECK_FALSE(m == t.move);
            if (mp.outcome == Outcome::kForcedWin) CHECK(mp.plies >= left);
            if (mp.outcome != Outcome::kUnknown) check_line(p, mp);
        }
        p = p.play(proof.line[2 * i]);
        if (2 * i + 1 < proof.line.size()) p = p.play(proof.line[2 * i + 1]);
    }
    // No proven result, no line, no turns.
    CHECK(solver.line_turns(p, Proof<International::Geometry>{}).empty());
}

TEST_CASE("with the draw rules, every move's win ends before the counter runs out", "[solve]") {
    // 0201 W:WK1,K7:BK50, win in 7 (solve-reference.md). Two kings against a king: drawn after 5
    // moves of each side, 10 plies from the root (FMJD, RULES.md §5). With the rules on, a win
    // that would end after ply 10 of the game is no win: every move's win, and every dual at each
    // turn of the line (which starts at ply t.ply), must end by ply 10. Without the rules a longer
    // win is one, so the bound must come from the counters carried from the root to each move.
    SolveOptions o;
    o.hash_megabytes = 4;
    o.draw_rules = true;
    o.max_plies = 21;  // room for wins ending after ply 10; the drawn moves are searched this far
    Solver<International> solver(o);
    const auto p = parse_fen<International>("W:WK1,K7:BK50");
    const auto proof = solver.solve(p);
    REQUIRE(proof.outcome == Outcome::kForcedWin);
    CHECK(proof.plies == 7);
    for (const auto& [m, mp] : solver.solve_moves(p))
        if (mp.outcome == Outcome::kForcedWin) CHECK(mp.plies <= 10);
    for (const auto& t : solver.line_turns(p, proof))
        for (const auto& [m, mp] : t.others)
            if (mp.outcome == Outcome::kForcedWin) CHECK(t.ply - 1 + mp.plies <= 10);
    // Without the rules, some dual of the line ends later than that: the check above has teeth.
    SolveOptions free = o;
    free.draw_rules = false;
    Solver<International> unruled(free);
    int late = 0;
    for (const auto& t : unruled.line_turns(p, unruled.solve(p)))
        for (const auto& [m, mp] : t.others)
            late += mp.outcome == Outcome::kForcedWin && t.ply - 1 + mp.plies > 10;
    CHECK(late > 0);
}

TEST_CASE("a position's result follows from its moves' proofs only when they prove it",
          "[solve]") {
    // Made-up proofs of three moves of a position whose own proof found nothing.
    using G = Russian::Geometry;
    using MP = MoveProof<G>;
    const auto move = [](int from, int to) {
        Move<G> m;
        m.from = std::uint8_t(from);
        m.to = std::uint8_t(to);
        return m;
    };
    const auto proven = [&](int from, Outcome o, int plies) {
        MP mp;
        mp.move = move(from, from + 4);
        mp.proof.outcome = o;
        mp.proof.plies = plies;
        mp.proof.line = {mp.move};
        return mp;
    };
    const auto open = [&](int from, int bound) {
        MP mp;
        mp.move = move(from, from + 4);
        mp.proof.no_result_plies = bound;
        return mp;
    };
    Proof<G> root;
    root.no_result_plies = 6;
    // Wins in 9 and 11, and a move with no result within 7 plies: no win shorter than 9 is left
    // (a win has an odd length, and 7 is excluded), so the position is won in 9 by that move.
    auto p = proof_from_moves(root, {proven(0, Outcome::kForcedWin, 11),
                                     proven(1, Outcome::kForcedWin, 9), open(2, 7)});
    CHECK(p.outcome == Outcome::kForcedWin);
    CHECK(p.plies == 9);
    CHECK(p.line.front() == move(1, 5));
    CHECK(p.no_result_plies == -1);
    CHECK(p.win_at_most == 0);  // the shortest win is proven: no bound
    // The same with that move open only up to 6 plies: it might still win in 7. Nothing claimed
    // but the bound: no win within 6 (the open move), no loss at all (a move wins), so 6.
    p = proof_from_moves(root, {proven(0, Outcome::kForcedWin, 11),
                                proven(1, Outcome::kForcedWin, 9), open(2, 6)});
    CHECK(p.outcome == Outcome::kUnknown);
    CHECK(p.no_result_plies == 6);
    // But the position is won: in at most 9 plies, by the shorter of the two proven wins, whose
    // line is given.
    CHECK(p.win_at_most == 9);
    CHECK(p.line.front() == move(1, 5));
    CHECK(p.cannot_lose);
    // Moves open up to 12 and 14, one lost in 10: no win within 12 (the least open bound; the
    // lost move never wins), no loss within 14 (the most: that move holds 14 plies), so 12, more
    // than the position's own 6.
    p = proof_from_moves(root, {open(0, 12), open(1, 14), proven(2, Outcome::kForcedLoss, 10)});
    CHECK(p.outcome == Outcome::kUnknown);
    CHECK(p.no_result_plies == 12);
    CHECK(p.win_at_most == 0);  // no move proven to win
    CHECK(p.line.empty());
    // One move lost in 4, one open up to 3: no win within 3 (the open move might win in 5) and no
    // loss within 3 (both moves hold 3 plies): 3, less than the position's own 6, which stays.
    p = proof_from_moves(root, {proven(0, Outcome::kForcedLoss, 4), open(1, 3)});
    CHECK(p.no_result_plies == 6);
    // Every move loses: a loss, as long as the longest.
    p = proof_from_moves(root, {proven(0, Outcome::kForcedLoss, 4),
                                proven(1, Outcome::kForcedLoss, 8)});
    CHECK(p.outcome == Outcome::kForcedLoss);
    CHECK(p.plies == 8);
    CHECK(p.line.front() == move(1, 5));
    // One move open, the rest lose: nothing claimed.
    p = proof_from_moves(root, {proven(0, Outcome::kForcedLoss, 4), open(1, 30)});
    CHECK(p.outcome == Outcome::kUnknown);
    // A proven position keeps its own proof.
    Proof<G> won;
    won.outcome = Outcome::kForcedWin;
    won.plies = 3;
    p = proof_from_moves(won, {proven(0, Outcome::kForcedWin, 1)});
    CHECK(p.plies == 3);

    // Draws. A drawn move and a lost one: no move can win, one cannot lose: a draw.
    p = proof_from_moves(root, {proven(0, Outcome::kDrawn, 0), proven(1, Outcome::kForcedLoss, 6)});
    CHECK(p.outcome == Outcome::kDrawn);
    CHECK((p.cannot_lose && p.cannot_win));
    CHECK(p.no_result_plies == -1);
    CHECK(p.line.empty());
    // A drawn move and an open one (which might win): not lost, but not a draw; the open move's
    // 9 plies bound the win, the drawn move never loses.
    p = proof_from_moves(root, {proven(0, Outcome::kDrawn, 0), open(1, 9)});
    CHECK(p.outcome == Outcome::kUnknown);
    CHECK(p.cannot_lose);
    CHECK_FALSE(p.cannot_win);
    CHECK(p.no_result_plies == 9);
    // The same open move proven unable to win (half of a draw): now no move can win.
    MP half = open(1, 9);
    half.proof.cannot_win = true;
    p = proof_from_moves(root, {proven(0, Outcome::kDrawn, 0), half});
    CHECK(p.outcome == Outcome::kDrawn);
    // Only halves: one move cannot win, another is lost. Neither can win, neither is proven not
    // to lose: no result, but the position cannot win, and no loss within 11 plies (the lost
    // move holds 11, and the side picks the move that holds longer).
    p = proof_from_moves(root, {half, proven(0, Outcome::kForcedLoss, 12)});
    CHECK(p.outcome == Outcome::kUnknown);
    CHECK(p.cannot_win);
    CHECK_FALSE(p.cannot_lose);
    CHECK(p.no_result_plies == 11);
    // A win and a draw: the win, the draw cannot win sooner.
    p = proof_from_moves(root, {proven(0, Outcome::kDrawn, 0), proven(1, Outcome::kForcedWin, 7)});
    CHECK(p.outcome == Outcome::kForcedWin);
    CHECK(p.plies == 7);
    CHECK(p.cannot_lose);
    CHECK_FALSE(p.cannot_win);
}

TEST_CASE("solve says how far it proved that there is no result", "[solve]") {
    // 1010 W:W33:B2 is won in 17 plies (solve-reference.md): within 15 there is no result, and the
    // proof says it looked through all 15. Of its two moves, 33-29 is the one that wins (in 17):
    // within 14 plies after it nothing is found, so the move has no result within 15 either.
    SolveOptions o;
    o.max_plies = 15;
    o.hash_megabytes = 4;
    Solver<International> solver(o);
    const auto p = parse_fen<International>("W:W33:B2");
    const auto root = solver.solve(p);
    CHECK(root.outcome == Outcome::kUnknown);
    CHECK(root.no_result_plies == 15);
    const auto moves = solver.solve_moves(p);
    REQUIRE(moves.size() == 2);
    bool found = false;
    for (const auto& [m, proof] : moves) {
        if (move_text<International>(*path_of<International>(p, m)) != "33-29") continue;
        found = true;
        CHECK(proof.outcome == Outcome::kUnknown);
        CHECK(proof.no_result_plies == 15);
        CHECK(proof.line.empty());
    }
    CHECK(found);
    // Out of time, the bound is the last number of plies fully answered: less than asked.
    SolveOptions quick;
    quick.max_seconds = 0.02;
    quick.hash_megabytes = 4;
    Solver<International> hurried(quick);
    const auto rushed = hurried.solve(parse_fen<International>("W:W6:B2,3,4"));
    if (rushed.outcome == Outcome::kUnknown) CHECK(rushed.no_result_plies < 43);
    // A proven result has no such bound.
    SolveOptions deep;
    deep.hash_megabytes = 4;
    Solver<International> full(deep);
    CHECK(full.solve(p).no_result_plies == -1);
}

TEST_CASE("a king in the corner facing the other king on its only diagonal is lost", "[solve]") {
    // International, White king 46 (a1), Black king 5 (j10). The a1 king has one diagonal,
    // a1-j10; every move puts it on that diagonal with a1 empty behind it, and the j10 king takes
    // it: loss in 2 plies.
    SolveOptions o;
    o.hash_megabytes = 1;
    Solver<International> solver(o);
    const auto proof = solver.solve(parse_fen<International>("W:WK46:BK5"));
    CHECK(proof.outcome == Outcome::kForcedLoss);
    CHECK(proof.plies == 2);
    check_line(parse_fen<International>("W:WK46:BK5"), proof);
}

TEST_CASE("draw rules leave a win that ends before the counter runs out", "[solve]") {
    // 0201 W:WK1,K7:BK50, win in 7 plies. With the FMJD rule (two kings against a king: 5 moves
    // = 10 plies, RULES.md §5) the win at ply 7 still comes first.
    SolveOptions o;
    o.draw_rules = true;
    o.hash_megabytes = 4;
    Solver<International> solver(o);
    const auto proof = solver.solve(parse_fen<International>("W:WK1,K7:BK50"));
    CHECK(proof.outcome == Outcome::kForcedWin);
    CHECK(proof.plies == 7);
}
