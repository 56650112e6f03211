// Rule cases for Czech, Brazilian, Pool, English and International: complete legal move lists.
//
// Every expected list below was worked out by hand from RULES.md; the analysis is written beside
// the position. The International FFJD/FID cases come from perft/international-rules.txt, whose
// move lists are published (sources cited in that file).
#ifndef DAMBIT_SOURCE_DIR
#error "DAMBIT_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/notation.hpp"

using namespace dambit;

namespace {

struct RuleCase {
    const char* fen;
    // Every legal move in long form; for a capture, every path (keep convention, RULES.md §4).
    std::vector<std::string> moves;
    // How many legal moves remain when identical captures count once (drop), if fewer than
    // moves.size(); -1 when no two paths make the same move.
    int distinct = -1;
};

template <class R, Duplicates D>
std::vector<PathMove<typename R::Geometry>> paths(const Position<R>& p) {
    FixedList<PathMove<typename R::Geometry>, kMaxMoves> list;
    generate_paths<R, D>(p, list);
    return {list.begin(), list.end()};
}

template <class R>
std::vector<std::string> texts(const std::vector<PathMove<typename R::Geometry>>& list) {
    std::vector<std::string> out;
    for (const auto& pm : list) out.push_back(move_text<R>(pm));
    std::sort(out.begin(), out.end());
    return out;
}

// What decides the resulting position (RULES.md §4): from, to, captured set, resulting kind.
template <class G>
auto identities(const std::vector<PathMove<G>>& list) {
    std::multiset<std::tuple<int, int, typename G::Bitboard, int>> out;
    for (const auto& pm : list)
        out.emplace(pm.move.from, pm.move.to, pm.move.captured, pm.move.flags);
    return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// Generates the moves of each case under both conventions and compares them with the hand list.
template <class R>
void check_cases(const std::vector<RuleCase>& cases) {
    for (const RuleCase& c : cases) {
        INFO(R::kName << " " << c.fen);
        const Position<R> p = parse_fen<R>(c.fen);
        const auto expected = sorted(c.moves);
        const auto keep = paths<R, Duplicates::kKeep>(p);
        const auto drop = paths<R, Duplicates::kDrop>(p);
        CHECK(texts<R>(keep) == expected);
        CHECK(count_moves<R, Duplicates::kKeep>(p) == int(expected.size()));
        const int distinct = c.distinct < 0 ? int(expected.size()) : c.distinct;
        CHECK(int(drop.size()) == distinct);
        CHECK(count_moves<R, Duplicates::kDrop>(p) == distinct);
        if (c.distinct < 0) {
            CHECK(texts<R>(drop) == expected);
        } else {
            // Drop keeps one path of each group of identical captures: every move once.
            for (const std::string& t : texts<R>(drop))
                CHECK(std::count(expected.begin(), expected.end(), t) == 1);
            const auto all = identities(keep), once = identities(drop);
            CHECK(std::set(all.begin(), all.end()) == std::set(once.begin(), once.end()));
            CHECK(std::set(once.begin(), once.end()).size() == once.size());
        }
        CHECK(has_move(p) == !expected.empty());
    }
}

// Plays the only legal move of `fen` and reports whether the moved piece is then a king.
template <class R>
bool only_move_crowns(const char* fen, const std::string& text) {
    using G = typename R::Geometry;
    const Position<R> p = parse_fen<R>(fen);
    const auto list = paths<R, Duplicates::kDrop>(p);
    REQUIRE(list.size() == 1);
    REQUIRE(move_text<R>(list.front()) == text);
    const Position<R> q = p.play(list.front().move);
    return (q.kings & bit<typename G::Bitboard>(list.front().move.to)) != 0;
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Czech: men step and capture forwards only; flying kings; a king capture, if any, excludes every
// man capture (then free choice among the king captures); a man reaching the far row in a capture
// is crowned and the move ends. Algebraic squares, ':' between the squares of a capture.

TEST_CASE("Czech start position: White moves first, 7 moves", "[czech][rules]") {
    CHECK(Position<Czech>::start().side == Color::kWhite);
    // White men on a3, c3, e3, g3 step to rank 4; a3 has no left neighbour.
    check_cases<Czech>({{"W:W21-32:B1-12",
                         {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}}});
}

TEST_CASE("Czech men capture forwards only; promotion ends the capture", "[czech][rules]") {
    check_cases<Czech>({
        // RULES.md §6: h6 takes g7, lands on f8, is crowned and the move ends there.
        {"W:Wh6:Bg7,c5,d2", {"h6:f8"}},
        // c3 and e3 stand behind d4: no backward capture, so only the two forward steps.
        {"W:Wd4:Bc3,e3", {"d4-c5", "d4-e5"}},
        // d6 takes c7 (lands b8) or e7 (lands f8); either way it is crowned on the far row and
        // stops, although a king on f8 could go on over g7 to h6.
        {"W:Wd6:Bc7,e7,g7", {"d6:b8", "d6:f8"}},
        // Quiet moves: c7 steps to b8 or d8 (crowning), h6 to g7; no capture anywhere.
        {"W:Wc7,h6:Ba3", {"c7-b8", "c7-d8", "h6-g7"}},
    });
}

TEST_CASE("Czech precedence: a king capture excludes every man capture", "[czech][rules]") {
    check_cases<Czech>({
        // King a1 takes e5 along the long diagonal and may land on f6, g7 or h8 (no turn goes on
        // from any of them). Man g1 could take two (f2 to e3, f4 to g5), but a king can capture,
        // so only the three king captures are legal.
        {"W:WKa1,g1:Be5,f2,f4", {"a1:f6", "a1:g7", "a1:h8"}},
        // Black to move: king a7 takes c5 and lands on d4, e3, f2 or g1 (from d4 the turn over e5
        // is blocked by Black's own f6). Man f6 could take e5, but the king's capture has priority.
        {"B:We5,c5:BKa7,f6", {"a7:d4", "a7:e3", "a7:f2", "a7:g1"}},
        // Among king captures the choice is free (no majority): d4 takes e5 and must land on f6,
        // from where it turns over g5 to h4 (2 pieces); or takes c3 and lands on b2 or a1 (1).
        {"W:WKd4:Bc3,e5,g5", {"d4:f6:h4", "d4:b2", "d4:a1"}},
        // King g1 cannot capture (its diagonal is blocked by its own e3), so the men choose
        // freely: a3 takes b4 (1 piece) or e3 takes f4 and then f6 (2 pieces).
        {"W:WKg1,a3,e3:Bb4,f4,f6", {"a3:c5", "e3:g5:e7"}},
    });
}

TEST_CASE("Czech flying kings", "[czech][rules]") {
    check_cases<Czech>({
        // King d4: 3 squares towards h8 (h8 itself is taken by a black man that has no empty
        // square behind it), 3 towards a7, 3 towards g1, 3 towards a1.
        {"W:WKd4:Bh8",
         {"d4-e5", "d4-f6", "d4-g7", "d4-c5", "d4-b6", "d4-a7", "d4-e3", "d4-f2", "d4-g1",
          "d4-c3", "d4-b2", "d4-a1"}},
        // a1 takes c3; of the landing squares d4..h8 only e5 lets it go on (over f4), so it must
        // land there, then lands on g3 or h2 behind f4.
        {"W:WKa1:Bc3,f4", {"a1:e5:g3", "a1:e5:h2"}},
        // a1 takes c3, cannot turn from d4 or e5, and must go straight on over f6 to g7 or h8:
        // one path each, written with d4, the square right behind c3.
        {"W:WKa1:Bc3,f6", {"a1:d4:g7", "a1:d4:h8"}},
        // A square of four men around the king: clockwise e3-c5-e7-g5 ends over f4 on e3, d2 or
        // c1; anticlockwise e3-g5-e7-c5 ends over d4 on e3, f2 or g1. The two paths ending on e3
        // take the same pieces: one move under drop (5 moves), two paths under keep (6).
        {"W:WKe3:Bd4,d6,f6,f4",
         {"e3:c5:e7:g5:e3", "e3:c5:e7:g5:d2", "e3:c5:e7:g5:c1", "e3:g5:e7:c5:e3",
          "e3:g5:e7:c5:f2", "e3:g5:e7:c5:g1"},
         5},
    });
}

// ------------------------------------------------------------------------------------------------
// Brazilian: International rules on 8x8. Men capture backwards; flying kings; only the captures
// taking the most pieces (men and kings alike) are legal; a man passing the far row in a capture
// stays a man and goes on, and is crowned only if the move ends there. Algebraic squares, 'x'.

TEST_CASE("Brazilian start position: White moves first, 7 moves", "[brazilian][rules]") {
    CHECK(Position<Brazilian>::start().side == Color::kWhite);
    check_cases<Brazilian>({{"W:W21-32:B1-12",
                             {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}}});
}

TEST_CASE("Brazilian men capture backwards and pass through the far row", "[brazilian][rules]") {
    check_cases<Brazilian>({
        // RULES.md §6: h6 takes g7 to f8; as a man on f8 it has nothing more to take (e7 empty),
        // so the move ends there and it is crowned.
        {"W:Wh6:Bg7,c5,d2", {"h6xf8"}},
        // d4 takes c3 backwards to b2, or e3 backwards to f2.
        {"W:Wd4:Bc3,e3", {"d4xb2", "d4xf2"}},
        // d6 takes e7 to f8, stays a man there and takes g7 to h6 (2 pieces); d6xb8 takes only
        // c7 (1), so it is not legal.
        {"W:Wd6:Bc7,e7,g7", {"d6xf8xh6"}},
        // f6 takes e7 to d8 and goes on as a man over c7 to b6 (2); f6xh8 over g7 takes 1.
        {"W:Wf6:Bc7,e7,g7", {"f6xd8xb6"}},
        // A man's square loop: e3 over d4, d6, f6, f4 clockwise or anticlockwise, back to e3.
        // Same pieces, same end square: one move, two paths.
        {"W:We3:Bd4,d6,f6,f4", {"e3xc5xe7xg5xe3", "e3xg5xe7xc5xe3"}, 1},
    });
}

TEST_CASE("Brazilian majority rule: most pieces, kings count as one", "[brazilian][rules]") {
    check_cases<Brazilian>({
        // Man g1 takes f2 and f4 (2); king a1 takes only e5 (1): the man's capture is the only one.
        {"W:WKa1,g1:Be5,f2,f4", {"g1xe3xg5"}},
        // King g1 cannot capture; a3xc5 takes 1, e3xg5xe7 takes 2.
        {"W:WKg1,a3,e3:Bb4,f4,f6", {"e3xg5xe7"}},
        // King d4: over e5 and g5 (2) beats over c3 (1).
        {"W:WKd4:Bc3,e5,g5", {"d4xf6xh4"}},
        // c3 takes the kings b4 and b6 (2) or the men d4 and f6 (2): both legal, kings weigh no
        // more than men. The backward c3xa1 over b2 takes 1 and is not legal.
        {"W:Wc3:Bb2,Kb4,d4,Kb6,f6", {"c3xa5xc7", "c3xe5xg7"}},
        // Black: king a7 takes c5 (1, landing d4..g1); man f6 takes e5 to d4, then c5 backwards
        // to b6 (2): only the man's capture.
        {"B:We5,c5:BKa7,f6", {"f6xd4xb6"}},
    });
}

TEST_CASE("Brazilian flying kings", "[brazilian][rules]") {
    check_cases<Brazilian>({
        // King b2: c3 (d4 is its own man), a3, c1, a1; man d4: c5, e5. No capture.
        {"W:WKb2,d4:Bf6", {"b2-c3", "b2-a3", "b2-c1", "b2-a1", "d4-c5", "d4-e5"}},
        // a1 over c3 must land on e5 to go on over f4 (see the Czech case).
        {"W:WKa1:Bc3,f4", {"a1xe5xg3", "a1xe5xh2"}},
        // Straight on over c3 and f6: one path, written with d4.
        {"W:WKa1:Bc3,f6", {"a1xd4xg7", "a1xd4xh8"}},
        // The king's square loop (see the Czech case): all six paths take 4 pieces.
        {"W:WKe3:Bd4,d6,f6,f4",
         {"e3xc5xe7xg5xe3", "e3xc5xe7xg5xd2", "e3xc5xe7xg5xc1", "e3xg5xe7xc5xe3",
          "e3xg5xe7xc5xf2", "e3xg5xe7xc5xg1"},
         5},
    });
}

// ------------------------------------------------------------------------------------------------
// Pool: Black starts; men capture backwards; flying kings; free choice of capture; a man passing
// the far row in a capture stays a man. Numeric squares, 'x'.

TEST_CASE("Pool start position: Black moves first, 7 moves", "[pool][rules]") {
    CHECK(Position<Pool>::start().side == Color::kBlack);
    // Black men on 9..12 (b6, d6, f6, h6) step down; 12 (h6) has only 16.
    const std::vector<std::string> start = {"9-13",  "9-14",  "10-14", "10-15",
                                            "11-15", "11-16", "12-16"};
    check_cases<Pool>({{"B:W21-32:B1-12", start}});
    CHECK(to_fen(Position<Pool>::start()) == to_fen(parse_fen<Pool>("B:W21-32:B1-12")));
}

TEST_CASE("Pool men: backward captures, passing through the far row", "[pool][rules]") {
    check_cases<Pool>({
        // RULES.md §6 (W:Wh6:Bg7,c5,d2): 12 takes 8 to 3; as a man on 3 it cannot go on.
        {"W:W12:B8,14,26", {"12x3"}},
        // 18 (d4) takes 22 (c3) backwards to 25, or 23 (e3) backwards to 27.
        {"W:W18:B22,23", {"18x25", "18x27"}},
        // 10 (d6) takes 6 to 1 (ends there, crowned), or takes 7 to 3 and goes on as a man over
        // 8 to 12. Free choice: both.
        {"W:W10:B6,7,8", {"10x1", "10x3x12"}},
        // 9 (b6) takes 6 (c7) to 2 (d8). A king on 2 could take 16 (g5) at a distance, a man
        // cannot: the move ends on 2.
        {"W:W9:B6,16", {"9x2"}},
        // 5 (a7) is blocked by 1 (b8) and cannot jump off the board; 6 steps to 2, 28 to 24.
        {"W:W5,6,28:B1", {"6-2", "28-24"}},
        // Man's square loop around 14, 15: 23 over 18, 10, 11, 19 and back, both ways.
        {"W:W23:B10,11,18,19", {"23x14x7x16x23", "23x16x7x14x23"}, 1},
    });
}

TEST_CASE("Pool free choice: any capture, shorter or by a man", "[pool][rules]") {
    check_cases<Pool>({
        // King 29 (a1) takes 15 (e5) to 11, 8 or 4; man 32 (g1) takes 27 and 19 to 16. All legal.
        {"W:WK29,32:B15,19,27", {"29x11", "29x8", "29x4", "32x23x16"}},
        // King 32 is blocked by its own 23; 21 takes 17 to 14 (1) or 23 takes 19, 11 to 7 (2).
        {"W:WK32,21,23:B11,17,19", {"21x14", "23x16x7"}},
        // 22 (c3): kings 17, 9 to 6; men 18, 11 to 8; or 25 backwards to 29 (1 piece).
        {"W:W22:B25,K17,18,K9,11", {"22x13x6", "22x15x8", "22x29"}},
        // Black: king 5 (a7) takes 14 to 18, 23, 27 or 32; man 11 takes 15 to 18 and goes on
        // backwards over 14 to 9.
        {"B:W14,15:BK5,11", {"5x18", "5x23", "5x27", "5x32", "11x18x9"}},
    });
}

TEST_CASE("Pool flying kings", "[pool][rules]") {
    check_cases<Pool>({
        // 29 over 22 must land on 15 to go on over 19, then lands on 24 or 28.
        {"W:WK29:B19,22", {"29x15x24", "29x15x28"}},
        // Straight on over 22 and 11: one path, written with 18, the square behind 22.
        {"W:WK29:B11,22", {"29x18x8", "29x18x4"}},
        // 18 (d4) over 15 must land on 11 and turn over 16 to 20 (2); or over 22 to 25 or 29.
        {"W:WK18:B15,16,22", {"18x11x20", "18x25", "18x29"}},
        // The king's square loop around 23: 6 paths, 5 moves.
        {"W:WK23:B10,11,18,19",
         {"23x14x7x16x23", "23x14x7x16x26", "23x14x7x16x30", "23x16x7x14x23", "23x16x7x14x27",
          "23x16x7x14x32"},
         5},
    });
}

// ------------------------------------------------------------------------------------------------
// English: Black starts; men capture forwards only; short kings (one step, adjacent captures, all
// four directions); free choice; a man crowned in a capture stops. Numeric squares, 'x'.

TEST_CASE("English start position: Black moves first, 7 moves", "[english][rules]") {
    CHECK(Position<English>::start().side == Color::kBlack);
    const std::vector<std::string> start = {"9-13",  "9-14",  "10-14", "10-15",
                                            "11-15", "11-16", "12-16"};
    check_cases<English>({{"B:W21-32:B1-12", start}});
    CHECK(to_fen(Position<English>::start()) == to_fen(parse_fen<English>("B:W21-32:B1-12")));
}

TEST_CASE("English men: forward captures, crowning ends the move", "[english][rules]") {
    check_cases<English>({
        // RULES.md §6: 12 takes 8 to 3 and is crowned; the move ends.
        {"W:W12:B8,14,26", {"12x3"}},
        // 22 and 23 are behind 18: no capture, two steps.
        {"W:W18:B22,23", {"18-14", "18-15"}},
        // 10 takes 6 to 1 or 7 to 3; both crown and stop (a king on 3 could have taken 8).
        {"W:W10:B6,7,8", {"10x1", "10x3"}},
        // Free choice: 21 takes 17 (1) or 23 takes 19 and 11 (2).
        {"W:W21,23:B11,17,19", {"21x14", "23x16x7"}},
        // 30 takes 26 to 23, then 18 to 14 or 19 to 16.
        {"W:W30:B18,19,26", {"30x23x14", "30x23x16"}},
        // 5 is blocked by 1 and cannot jump off the board: no legal move.
        {"W:W5:B1", {}},
    });
}

TEST_CASE("English short kings", "[english][rules]") {
    check_cases<English>({
        // King 18 (d4) steps one square in each direction.
        {"W:WK18:B4", {"18-14", "18-15", "18-22", "18-23"}},
        // 18 takes the adjacent 15 (to 11) and, backwards, 23 (to 27); 25 is two squares away
        // along the diagonal and cannot be taken by a short king.
        {"W:WK18:B15,23,25", {"18x11", "18x27"}},
        // King 30 (c1) takes 25 to 21 and goes on over 17 to 14, or takes 26 to 23.
        {"W:WK30:B17,25,26", {"30x21x14", "30x23"}},
        // Black: man 6 takes 10 to 15 and 18 to 22 (19 to 24 is blocked by its own king); king 24
        // takes 19 to 15 and 18 to 22 (10 to 6 is blocked by its own man), or 27 to 31.
        {"B:W10,18,19,27:B6,K24", {"6x15x22", "24x15x22", "24x31"}},
        // A short king's square loop around 23: one move, two paths.
        {"W:WK23:B10,11,18,19", {"23x14x7x16x23", "23x16x7x14x23"}, 1},
    });
}

// ------------------------------------------------------------------------------------------------
// International (10x10): as Brazilian, with numeric squares 1..50.

TEST_CASE("International: own rule cases", "[international][rules]") {
    CHECK(Position<International>::start().side == Color::kWhite);
    check_cases<International>({
        // Start: men 31..35 step to 26..30; 35 (j4) has only 30.
        {"W:W31-50:B1-20",
         {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}},
        // Black men step down; 45 (j2) has only 50.
        {"B:B41,45", {"41-46", "41-47", "45-50"}},
        // King 28: 4 squares to 46, 5 to 5, 1 towards 17 (17 has 11 behind it: no capture), none
        // towards its own 33; man 33 steps to 29 (28 is its own king).
        {"W:WK28,33:B11,17",
         {"28-32", "28-37", "28-41", "28-46", "28-23", "28-19", "28-14", "28-10", "28-5", "28-22",
          "33-29"}},
        // King 46 takes 32 and turns at 28 over 33 (2); man 48 takes 43 to 39, 33 to 28 and 32
        // backwards to 37 (3): only the man's capture.
        {"W:WK46,48:B32,33,43", {"48x39x28x37"}},
        // 12 takes 8 to 3 on the far row, stays a man and takes 9 to 14, ending as a man.
        {"W:W12:B8,9", {"12x3x14"}},
        // Black 37 takes 42 to 48 (its far row), goes on as a man over 43 to 39.
        {"B:W42,43:B37", {"37x48x39"}},
        // Straight on over 37 and 23: one path via 32, landing 19, 14, 10 or 5.
        {"W:WK46:B23,37", {"46x32x19", "46x32x14", "46x32x10", "46x32x5"}},
        // Man's square loop: 33 over 28, 18, 19, 29 back to 33, both ways.
        {"W:W33:B18,19,28,29", {"33x22x13x24x33", "33x24x13x22x33"}, 1},
        // King's square loop from 33: via 22, 13, 24 ending over 29 on 33, 38, 42 or 47; via 24,
        // 13, 22 ending over 28 on 33, 39, 44 or 50. The two ending on 33 are one move.
        {"W:WK33:B18,19,28,29",
         {"33x22x13x24x33", "33x22x13x24x38", "33x22x13x24x42", "33x22x13x24x47",
          "33x24x13x22x33", "33x24x13x22x39", "33x24x13x22x44", "33x24x13x22x50"},
         7},
    });
}

TEST_CASE("International FFJD/FID cases: every capture path (hand analysis)",
          "[international][rules]") {
    // The published lists (perft/international-rules.txt) name only the ends of each capture;
    // the landing squares in between are worked out here.
    check_cases<International>({
        {"W:W28,32:B23", {"28x19"}},
        {"W:WK46:B23", {"46x19", "46x14", "46x10", "46x5"}},
        // 15 takes 20 backwards to 24, 19 to 13, 8 to 2 (crowned at the end).
        {"W:W15:B8,19,20", {"15x24x13x2"}},
        // Over 33 the king must land on 29 (then over 12 to 7 or 1: 2 pieces) or on 20 (then
        // over 9 to 3 and over 12 to 17, 21 or 26: 3 pieces). Only the 3-piece captures remain.
        {"W:WK47:B9,12,33", {"47x20x3x17", "47x20x3x21", "47x20x3x26"}},
        // 49 is a man (K marks 41 only). King 41 over 19 lands on 14; straight on over 10 to 5
        // gives 2; turning over 9 to 3, then over 12 to 21 and over 38 to 43 gives 4.
        {"W:WK41,49:B9,10,12,19,38", {"41x14x3x21x43"}},
        // Over 43, 34, 24 (3 men) beats over the kings 42 and 31 (2).
        {"W:W48:B24,K31,34,K42,43", {"48x39x30x19"}},
        {"W:W35:B30,K40", {"35x24", "35x44"}},
        // Forced at every step: 41, 31, 22, 13, 14, 24, 34, 44.
        {"W:W47:B13,14,22,24,31,34,K41,44", {"47x36x27x18x9x20x29x40x49"}},
        // All ten pieces: 7 (to 29), 33 (to 42), 31 (to 26), 17 (to 3), 9 (to 14), 19 (to 32),
        // 43 (to 49), 44 (to 35), 30 (to 24), 20 (to 15). Searching every first landing square
        // (12, 18, 23, 29, 34, 40, 45) by hand finds no other ten-piece path; nine is the best
        // elsewhere.
        {"W:WK1:B7,9,17,19,20,30,31,33,43,44", {"1x29x42x26x3x14x32x49x35x24x15"}},
        // Over 39 to 48, 42 to 31, 27 to 22, 28 to 33 (4); 38 cannot be taken from 33 because 42,
        // taken but not yet removed, stands behind it. Via 43 and 38 only 3.
        {"B:W27,28,38,39,42:BK25", {"25x48x31x22x33"}},
        // Over 34 to 30, 8 to 2, 7 to 11, 44 to 50 (4) beats over 42, 31 to 26, 8 to 3 (3).
        {"W:WK48:B7,8,31,34,K42,44", {"48x30x2x11x50"}},
        {"W:W26:B12,K21,31,32", {"26x17x8", "26x37x28"}},
        // 15 takes 10 to 4 on the far row, stays a man and takes 9 to 13.
        {"W:W15:B9,10", {"15x4x13"}},
    });
}

TEST_CASE("International FFJD/FID cases: the published legal move lists",
          "[international][rules]") {
    using G = International::Geometry;
    std::ifstream in(DAMBIT_SOURCE_DIR "/perft/international-rules.txt");
    REQUIRE(in);
    int cases = 0;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.front() == '#') continue;
        std::vector<std::string> fields;
        for (std::size_t at = 0;;) {
            const auto tab = line.find('\t', at);
            fields.push_back(line.substr(at, tab - at));
            if (tab == std::string::npos) break;
            at = tab + 1;
        }
        REQUIRE(fields.size() == 3);
        INFO(fields[2] << ": " << fields[0]);
        std::vector<std::string> published;
        for (std::size_t at = 0; at < fields[1].size();) {
            const auto space = std::min(fields[1].find(' ', at), fields[1].size());
            if (space > at) published.push_back(fields[1].substr(at, space - at));
            at = space + 1;
        }
        std::sort(published.begin(), published.end());

        const auto p = parse_fen<International>(fields[0]);
        // The published lists give the ends of each move: compare those.
        std::vector<std::string> ends;
        for (const auto& pm : paths<International, Duplicates::kDrop>(p))
            ends.push_back(square_name<International>(pm.move.from) +
                           (pm.move.is_capture() ? "x" : "-") +
                           square_name<International>(pm.move.to));
        std::sort(ends.begin(), ends.end());
        CHECK(ends == published);
        CHECK(count_moves<International, Duplicates::kDrop>(p) == int(published.size()));
        // No published case has two paths to one move (see the hand analysis above).
        CHECK(count_moves<International, Duplicates::kKeep>(p) == int(published.size()));
        // Each published short form reads back as that move.
        for (const std::string& text : published) {
            const PathMove<G> pm = parse_move<International>(p, text);
            CHECK(square_name<International>(pm.move.from) +
                      (pm.move.is_capture() ? "x" : "-") +
                      square_name<International>(pm.move.to) ==
                  text);
        }
        ++cases;
    }
    CHECK(cases == 16);
}

// ------------------------------------------------------------------------------------------------

TEST_CASE("Crowning at the end of a capture, per variant", "[rules][promotion]") {
    // Czech, English: crowned on reaching the far row; the move ends there.
    CHECK(only_move_crowns<Czech>("W:Wh6:Bg7,c5,d2", "h6:f8"));
    CHECK(only_move_crowns<English>("W:W12:B8,14,26", "12x3"));
    // Brazilian, Pool, International: crowned only when the move ends on the far row.
    CHECK_FALSE(only_move_crowns<Brazilian>("W:Wd6:Bc7,e7,g7", "d6xf8xh6"));
    CHECK(only_move_crowns<Brazilian>("W:Wh6:Bg7,c5,d2", "h6xf8"));
    CHECK(only_move_crowns<Pool>("W:W9:B6,16", "9x2"));
    CHECK_FALSE(only_move_crowns<International>("W:W15:B9,10", "15x4x13"));
    CHECK_FALSE(only_move_crowns<International>("W:W12:B8,9", "12x3x14"));
    CHECK_FALSE(only_move_crowns<International>("B:W42,43:B37", "37x48x39"));
    CHECK(only_move_crowns<International>("W:W15:B8,19,20", "15x24x13x2"));
}
