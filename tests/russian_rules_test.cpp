// Russian rules (RULES.md §2, §3): complete legal move lists of hand-analysed positions.
//
// Every expected list below was worked out by hand from RULES.md; the reasoning is written beside
// each position. Diagrams: w/b = white/black man, W/B = white/black king, '.' = empty dark square,
// light squares are blank. White men move up (towards rank 8), Black men down.
//
// Path model of the core (the brief and movegen.hpp): a flying king that goes straight on along
// the same diagonal to take a second piece makes one path, written with the square right behind the
// first victim as the intermediate landing square (a1 takes c3 and e5: a1:d4:f6, a1:d4:g7, ...).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "move_list_helpers.hpp"

using namespace dambit;
using dambit::test::move_texts;
using dambit::test::sorted;

namespace {

// A position without identical capture paths: the list is the same under both conventions.
void check_moves(const char* fen, std::vector<std::string> expected) {
    INFO("FEN " << fen);
    const auto p = parse_fen<Russian>(fen);
    expected = sorted(std::move(expected));
    CHECK(move_texts<Russian, Duplicates::kKeep>(p) == expected);
    CHECK(move_texts<Russian, Duplicates::kDrop>(p) == expected);
    CHECK(count_moves<Russian, Duplicates::kKeep>(p) == int(expected.size()));
    CHECK(count_moves<Russian, Duplicates::kDrop>(p) == int(expected.size()));
    MoveList<Board8> moves;
    generate<Russian>(p, moves);
    CHECK(moves.size() == int(expected.size()));
    CHECK(has_move(p) == !expected.empty());
    const bool captures = !expected.empty() && expected.front().find(':') != std::string::npos;
    CHECK(has_capture(p) == captures);
}

}  // namespace

TEST_CASE("Russian men step forward; edges and occupied squares stop them", "[russian][rules]") {
    // Start position: only the front row (a3, c3, e3, g3) can step, each to the empty squares
    // diagonally ahead on rank 4; a3 has no square to its left. 7 moves (RULES.md §6 says 7).
    check_moves("W:W21-32:B1-12",
                {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"});
    // Black to move from the start: Black's front row b6, d6, f6, h6 steps down to rank 5; h6
    // has no square to its right (off the board). 7 moves.
    check_moves("B:W21-32:B1-12",
                {"b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"});

    // W:Wa3,c1,h2,e3,f4:B (Black has no pieces, so nothing can be captured)
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    .   .   .   .
    // 5  .   .   .   .
    // 4    .   .   w   .
    // 3  w   .   w   .
    // 2    .   .   .   w
    // 1  .   w   .   .
    // a3: b4 only (a-file edge). c1: b2, d2. h2: g3 only (h-file edge). e3: d4; f4 is its own
    // man, so e3-f4 is absent. f4: e5, g5. Men never step backwards. 7 moves.
    check_moves("W:Wa3,c1,h2,e3,f4:B",
                {"a3-b4", "c1-b2", "c1-d2", "e3-d4", "f4-e5", "f4-g5", "h2-g3"});

    // B:W:Ba7,d8,e5,f6,h6 (White has no pieces)
    //    a b c d e f g h
    // 8    .   b   .   .
    // 7  b   .   .   .
    // 6    .   .   b   b
    // 5  .   .   b   .
    // 4    .   .   .   .
    // Black men step down: a7: b6 only (edge). d8: c7, e7. e5: d4, f4. f6: g5; e5 is its own
    // man. h6: g5 only (edge) - g5 is reached by two different men, two different moves. 7 moves.
    check_moves("B:W:Ba7,d8,e5,f6,h6",
                {"a7-b6", "d8-c7", "d8-e7", "e5-d4", "e5-f4", "f6-g5", "h6-g5"});

    // W:Wc3,g3:Bd4,e5,h4
    //    a b c d e f g h
    // 5  .   .   b   .
    // 4    .   b   .   b
    // 3  .   w   .   w
    // 2    .   .   .   .
    // c3: d4 is taken by Black and cannot be jumped (e5 behind it is occupied), so only c3-b4.
    // g3: h4 is Black on the edge, nothing behind it, no capture; g3-f4. No capture anywhere, so
    // the two quiet moves are the whole list.
    check_moves("W:Wc3,g3:Bd4,e5,h4", {"c3-b4", "g3-f4"});
}

TEST_CASE("Russian men capture forwards and backwards", "[russian][rules]") {
    // W:We5:Bd4,f6
    //    a b c d e f g h
    // 7  .   .   .   .
    // 6    .   .   b   .
    // 5  .   .   w   .
    // 4    .   b   .   .
    // 3  .   .   .   .
    // e5 takes f6 forwards (lands g7, empty) or d4 backwards (lands c3, empty; men capture
    // backwards in Russian, §3). From g7 nothing adjacent is Black except the taken f6; from c3
    // nothing except the taken d4. Two one-piece captures.
    check_moves("W:We5:Bd4,f6", {"e5:c3", "e5:g7"});

    // B:Wd4,b4:Bc3 - Black's man takes backwards (upwards) both ways.
    //    a b c d e f g h
    // 5  .   .   .   .
    // 4    w   w   .   .
    // 3  .   b   .   .
    // 2    .   .   .   .
    // c3 takes d4 -> e5 or b4 -> a5 (both behind squares empty). From e5 / a5 no further White
    // piece is adjacent. b2 and d2 (forward) are empty but capturing is compulsory.
    check_moves("B:Wd4,b4:Bc3", {"c3:a5", "c3:e5"});

    // W:Wc3:BKd4 - a man takes a king like any piece: c3 jumps d4 to e5; quiet moves vanish.
    check_moves("W:Wc3:BKd4", {"c3:e5"});

    // W:Wc1:Bd2,d4,b6,f4,f6 - a man's multi-capture with two branches.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    b   .   b   .
    // 5  .   .   .   .
    // 4    .   b   b   .
    // 3  .   .   .   .
    // 2    .   b   .   .
    // 1  .   w   .   .
    // c1 takes d2 -> e3 (b2 is empty, nothing else). At e3: d4 -> c5 or f4 -> g5.
    //   c5: b6 -> a7; at a7 only b8 (empty) and the taken b6 -> end. c1:e3:c5:a7.
    //   g5: f6 -> e7; at e7 d8, f8, d6 empty, f6 taken -> end. c1:e3:g5:e7.
    // The man may not stop on e3, c5 or g5 while it can still take.
    check_moves("W:Wc1:Bd2,d4,b6,f4,f6", {"c1:e3:c5:a7", "c1:e3:g5:e7"});
}

TEST_CASE("Russian flying kings: quiet moves along all four diagonals", "[russian][rules]") {
    // W:WKd4,g7:Ba7,b2,Ka1
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  b   .   .   w
    // 6    .   .   .   .
    // 5  .   .   .   .
    // 4    .   W   .   .
    // 3  .   .   .   .
    // 2    b   .   .   .
    // 1  B   .   .   .
    // King d4: NE e5, f6, then its own man g7 blocks -> 2. NW c5, b6, then Black a7 on the edge
    // (nothing behind it, no capture) -> 2. SE e3, f2, g1 -> 3. SW c3, then Black b2 with the
    // black king a1 right behind it (no capture) -> 1. Man g7: f8, h8 (both promote). No capture
    // anywhere (g7 has no Black neighbour). 10 moves.
    check_moves("W:WKd4,g7:Ba7,b2,Ka1", {"d4-e5", "d4-f6", "d4-c5", "d4-b6", "d4-e3", "d4-f2",
                                        "d4-g1", "d4-c3", "g7-f8", "g7-h8"});

    // B:WKh8:BKe5,c3,h2 - Black's king and men.
    //    a b c d e f g h
    // 8    .   .   .   W
    // 7  .   .   .   .
    // 6    .   .   .   .
    // 5  .   .   B   .
    // 4    .   .   .   .
    // 3  .   b   .   .
    // 2    .   .   .   b
    // 1  .   .   .   .
    // King e5: NE f6, g7, then the white king h8 in the corner (no square behind) -> 2.
    // NW d6, c7, b8 -> 3. SE f4, g3, then its own h2 -> 2. SW d4, then its own c3 -> 1.
    // Men: c3 -> b2, d2; h2 -> g1 (promotes). No White piece can be taken. 11 moves.
    check_moves("B:WKh8:BKe5,c3,h2", {"e5-f6", "e5-g7", "e5-d6", "e5-c7", "e5-b8", "e5-f4",
                                     "e5-g3", "e5-d4", "c3-b2", "c3-d2", "h2-g1"});
}

TEST_CASE("Russian flying kings: captures with several landing squares", "[russian][rules]") {
    // W:WKa1:Bc3 - the king flies over b2, takes c3 and may land on any empty square behind it:
    // d4, e5, f6, g7, h8. From none of them is there a further Black piece. 5 moves.
    check_moves("W:WKa1:Bc3", {"a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"});

    // W:WKa1,g7:Bc3 - the landing run stops before its own man g7: d4, e5, f6. The man g7 could
    // step to f8/h8, but capturing is compulsory, so those quiet moves are absent.
    check_moves("W:WKa1,g7:Bc3", {"a1:d4", "a1:e5", "a1:f6"});

    // W:WKc3:Bd4 - a king one square from its victim: lands e5, f6, g7 or h8. It may never jump
    // d4 back (no second jump over the same piece), although its start square c3 is empty.
    check_moves("W:WKc3:Bd4", {"c3:e5", "c3:f6", "c3:g7", "c3:h8"});
}

TEST_CASE("Russian flying kings must land where the capture goes on", "[russian][rules]") {
    // W:WKa1:Bc3,f4
    //    a b c d e f g h
    // 6    .   .   .   .
    // 5  .   .   .   .
    // 4    .   .   b   .
    // 3  .   b   .   .
    // 2    .   .   .   .
    // 1  W   .   .   .
    // a1 takes c3; landing squares d4, e5, f6, g7, h8. Turns from each (NW / SE):
    //   d4: c5 b6 a7 / e3 f2 g1 all empty.  e5: d6 c7 b8 empty / f4 Black, g3 empty -> goes on.
    //   f6: e7 d8 / g5 h4 empty.  g7: f8 / h6.  h8: corner.
    // So it must land on e5 and take f4, landing g3 or h2 (then nothing: g3 sees h4, f2, e1;
    // h2 sees g1). Stopping on d4, f6, g7, h8 is not allowed.
    check_moves("W:WKa1:Bc3,f4", {"a1:e5:g3", "a1:e5:h2"});

    // W:WKa1:Bc3,c5,g5 - two of the landing squares go on; it may choose either.
    //    a b c d e f g h
    // 6    .   .   .   .
    // 5  .   b   .   b
    // 4    .   .   .   .
    // 3  .   b   .   .
    // 2    .   .   .   .
    // 1  W   .   .   .
    // After c3: d4 sees c5 (NW) with b6 empty -> goes on; f6 sees g5 (SE) with h4 empty -> goes
    // on; e5, g7, h8 see nothing. Via d4: take c5, land b6 or a7 (from b6: c7 d8 / a5 empty;
    // from a7: b8) -> a1:d4:b6, a1:d4:a7. Via f6: take g5, land h4 (from h4: g3 f2 e1 empty)
    // -> a1:f6:h4. Not a1:e5, a1:g7 etc.
    check_moves("W:WKa1:Bc3,c5,g5", {"a1:d4:a7", "a1:d4:b6", "a1:f6:h4"});
}

TEST_CASE("Russian flying kings going straight on: one path via the square behind the victim",
          "[russian][rules]") {
    // W:WKa1:Bc3,e5 - the brief's example. After c3 the only landing square is d4 (e5 is
    // occupied); d4 sees nothing to either side; straight on it takes e5 and lands f6, g7 or h8
    // (from those: e7 d8 / g5 h4, f8 / h6, corner - nothing). Written a1:d4:<landing>.
    check_moves("W:WKa1:Bc3,e5", {"a1:d4:f6", "a1:d4:g7", "a1:d4:h8"});

    // W:WKa1:Bc3,f6 - after c3 the run is d4, e5 (f6 occupied); neither turns; straight on it
    // takes f6 and lands g7 or h8. However far it slid, the path is written via d4: 2 moves.
    check_moves("W:WKa1:Bc3,f6", {"a1:d4:g7", "a1:d4:h8"});

    // B:Wd4,f6:BKh8 - the same for Black's king going down the long diagonal.
    //    a b c d e f g h
    // 8    .   .   .   B
    // 7  .   .   .   .
    // 6    .   .   w   .
    // 5  .   .   .   .
    // 4    .   w   .   .
    // 3  .   .   .   .
    // h8 flies over g7, takes f6; the run is e5 only (d4 occupied); e5 sees d6 c7 b8 / f4 g3 h2,
    // nothing; straight on it takes d4, landing c3, b2 or a1 (from c3: b4 a5 / d2 e1; b2: a3 /
    // c1; a1: corner). Written h8:e5:<landing>.
    check_moves("B:Wd4,f6:BKh8", {"h8:e5:a1", "h8:e5:b2", "h8:e5:c3"});
}

TEST_CASE("Russian Turkish strike: captured pieces stay on the board until the move ends",
          "[russian][rules]") {
    // W:WKa1:Bc3,d6,b6,d2 - a captured piece blocks a further capture.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    b   b   .   .
    // 5  .   .   .   .
    // 4    .   .   .   .
    // 3  .   b   .   .
    // 2    .   b   .   .
    // 1  W   .   .   .
    // a1 can only go NE: takes c3, landing d4..h8. Turns: d4 sees b6 (NW, via empty c5) with a7
    // empty -> goes on; e5 sees d6 (NW) with c7 empty -> goes on; f6, g7, h8 see nothing (SE of
    // d4 is e3 f2 g1, empty; d2 is not on it).
    //   Via d4: take b6, land a7 (edge); a7 sees b8 only -> a1:d4:a7.
    //   Via e5: take d6, land c7 or b8. c7 sees b6 (SW) with a5 empty -> goes on; b8 sees a7
    //   only. So land c7, take b6, land a5. From a5 the SE diagonal is b4, then c3 - already
    //   captured and still standing: it may not be jumped again and it hides d2 behind it. If
    //   captured pieces were removed at once the king would go on a5:e1 taking d2; under the
    //   Turkish-strike rule the move ends on a5 -> a1:e5:c7:a5.
    check_moves("W:WKa1:Bc3,d6,b6,d2", {"a1:d4:a7", "a1:e5:c7:a5"});

    // W:WKa3:Bc5,g5,g3,e3 - a captured piece shortens the run of landing squares.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    .   .   .   .
    // 5  .   b   .   b
    // 4    .   .   .   .
    // 3  W   .   b   b
    // 2    .   .   .   .
    // 1  .   .   .   .
    // a3 goes NE over b4 and takes c5 (SE b2 c1 is empty); run d6, e7, f8.
    //   d6 sees SE e5 f4 then g3 with h2 empty -> goes on; e7 sees SE f6 then g5 with h4 empty
    //   -> goes on; f8 sees g7 h6, nothing. (NW sides: c7 b8, d8 - empty.)
    //   Via d6: take g3, land h2; h2 sees g1 only -> a3:d6:h2.
    //   Via e7: take g5, land h4; h4 sees SW g3 with f2 empty -> take g3, run f2, e1. f2 sees NW
    //   e3 with d4 empty -> goes on; e1 sees d2 c3 b4 a5, nothing. So land f2, take e3. Behind
    //   e3 the run is d4 only: c5 is captured but still standing, so the king may neither land
    //   on it nor pass it to b6/a7. d4 sees e5..h8 and c3..a1, nothing -> a3:e7:h4:f2:d4.
    check_moves("W:WKa3:Bc5,g5,g3,e3", {"a3:d6:h2", "a3:e7:h4:f2:d4"});
}

TEST_CASE("Russian: no piece is jumped twice", "[russian][rules]") {
    // W:Wc3:Bd4 - the man takes d4 and lands on e5. Its start square c3 is empty again and d4 is
    // still standing, but jumping d4 a second time (e5:c3) is forbidden: one move, c3:e5.
    check_moves("W:Wc3:Bd4", {"c3:e5"});

    // W:WKa1:Bc3,d6,b6 - as the Turkish-strike position above without d2. The king ends on a5
    // after a1:e5:c7:a5; along a5-e1 it meets the captured c3 with d2, e1 empty behind it, yet
    // may not jump c3 again. Same two moves as with d2.
    check_moves("W:WKa1:Bc3,d6,b6", {"a1:d4:a7", "a1:e5:c7:a5"});
}

TEST_CASE("Russian: a capture may pass the same empty square twice", "[russian][rules]") {
    // W:WKa1:Bc3,g5,g3,c5
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    .   .   .   .
    // 5  .   b   .   b
    // 4    .   .   .   .
    // 3  .   b   .   b
    // 2    .   .   .   .
    // 1  W   .   .   .
    // a1 takes c3; run d4..h8. Turns: d4 sees c5 (NW) with b6 empty; e5 sees g3 (SE, via f4)
    // with h2 empty; f6 sees g5 (SE) with h4 empty; g7 (f8 / h6) and h8 see nothing.
    //   Via d4: take c5, land b6 or a7 (b6: c7 d8 / a5; a7: b8 - nothing) -> a1:d4:b6, a1:d4:a7.
    //   Via e5: take g3, land h2 (h2 sees g1 only) -> a1:e5:h2.
    //   Via f6: take g5, land h4; h4 sees SW g3 with f2 empty -> take g3, run f2, e1. f2 sees NW
    //   e3, d4, then c5 with b6 empty -> goes on (d4 was already crossed on the first leg: that
    //   is allowed). e1 sees d2 then the captured c3 -> nothing. So land f2, take c5, land b6 or
    //   a7 -> a1:f6:h4:f2:b6, a1:f6:h4:f2:a7.
    // Free choice: the two- and four-piece captures are all legal.
    check_moves("W:WKa1:Bc3,g5,g3,c5",
                {"a1:d4:a7", "a1:d4:b6", "a1:e5:h2", "a1:f6:h4:f2:a7", "a1:f6:h4:f2:b6"});
}

TEST_CASE("Russian: the start square counts as empty during its own capture", "[russian][rules]") {
    // W:WKc3:Bd4,d6,b6,d2 - the king passes over its own start square.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    b   b   .   .
    // 5  .   .   .   .
    // 4    .   b   .   .
    // 3  .   W   .   .
    // 2    .   b   .   .
    // 1  .   .   .   .
    // c3: NE d4 with e5 empty -> capture; SE d2 with e1 empty -> capture; NW b4 a5 and SW b2 a1
    // hold nothing.
    //   d2 first: land e1 (only square); e1 sees f2 g3 h4, nothing -> c3:e1.
    //   d4 first: run e5..h8; only e5 goes on (d6 with c7 empty; f6 sees e7 d8 / g5 h4, g7 sees
    //   f8 / h6). Take d6, run c7, b8: c7 sees b6 with a5 empty, b8 sees only a7 -> c7. Take b6,
    //   land a5. a5 looks SE: b4, c3 (its own start square, empty during the move), d2 with e1
    //   empty -> take d2, land e1; e1 sees f2 g3 h4 -> c3:e5:c7:a5:e1.
    check_moves("W:WKc3:Bd4,d6,b6,d2", {"c3:e1", "c3:e5:c7:a5:e1"});
}

TEST_CASE("Russian identical captures: a man's square loop back to its start",
          "[russian][rules]") {
    // W:Wc3:Bd4,d6,b6,b4 - four Black men round a diamond, the man in its bottom corner.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   .
    // 6    b   b   .   .
    // 5  .   .   .   .
    // 4    b   b   .   .
    // 3  .   w   .   .
    // 2    .   .   .   .
    // 1  .   .   .   .
    // c3 can take d4 (-> e5) or b4 (-> a5). Clockwise: e5 takes d6 -> c7, takes b6 -> a5, takes
    // b4 -> c3 (the start square counts as empty), where d4 and b4 are both taken: end. The other
    // way round: a5, c7, e5, c3 likewise. No intermediate square has another choice (each sees
    // one untaken man). c7 is rank 7, so no promotion. Both paths go c3 -> c3 taking the same four
    // men: the same move, listed twice under kKeep and once under kDrop (RULES.md §4).
    const char* fen = "W:Wc3:Bd4,d6,b6,b4";
    const auto p = parse_fen<Russian>(fen);
    const std::vector<std::string> both = {"c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3"};
    CHECK(move_texts<Russian, Duplicates::kKeep>(p) == both);
    CHECK(count_moves<Russian, Duplicates::kKeep>(p) == 2);
    const auto drop = move_texts<Russian, Duplicates::kDrop>(p);
    REQUIRE(drop.size() == 1);
    CHECK((drop[0] == both[0] || drop[0] == both[1]));
    CHECK(count_moves<Russian, Duplicates::kDrop>(p) == 1);
    // The man is back on c3 and all four Black men are gone.
    const auto m = dambit::test::find_move<Russian>(p, drop[0]);
    CHECK(p.play(m.move) == parse_fen<Russian>("B:Wc3:B"));
}

TEST_CASE("Russian identical captures: a king's square loop back to its start",
          "[russian][rules]") {
    // W:WKc3:Bd4,d6,b6,b4 - the same diamond with a king on c3.
    // c3: NE d4 with e5 empty; NW b4 with a5 empty; SE d2 e1 and SW b2 a1 hold nothing.
    //   A) d4 first: run e5..h8. Only e5 goes on (d6, c7 empty; f6: e7 d8 / g5 h4; g7: f8 / h6).
    //      Take d6, run c7, b8; only c7 goes on (b6 with a5 empty; b8 sees a7). Take b6, land a5
    //      (edge). a5 looks SE: b4 untaken with c3 (start square, empty) behind -> take b4, run
    //      c3, d2, e1. c3 sees NE the captured d4 (blocked), SW b2 a1; d2 sees e3..h6 and c1;
    //      e1 sees f2 g3 h4: nothing -> c3:e5:c7:a5:c3, c3:e5:c7:a5:d2, c3:e5:c7:a5:e1.
    //   B) b4 first: land a5 (edge). a5 sees NE b6 with c7 empty -> take b6, run c7, d8; c7 sees
    //      SE d6 with e5 empty, d8 sees e7..h4 -> c7. Take d6, run e5, f4, g3, h2. e5 sees SW d4
    //      untaken with c3 (start, empty) behind; f4 (g5 h6 / e3 d2 c1), g3 (h4 / f2 e1), h2 (g1)
    //      see nothing. Take d4, run c3, b2, a1. c3 sees NW the captured b4, SE d2 e1; b2 sees
    //      a3 / c1; a1 is the corner -> c3:a5:c7:e5:c3, c3:a5:c7:e5:b2, c3:a5:c7:e5:a1.
    // All six take the same four men. The two that end on c3 are identical (same from, to,
    // captured set, still a king): kKeep lists 6, kDrop 5.
    const auto p = parse_fen<Russian>("W:WKc3:Bd4,d6,b6,b4");
    const std::vector<std::string> unique = {"c3:a5:c7:e5:a1", "c3:a5:c7:e5:b2",
                                             "c3:e5:c7:a5:d2", "c3:e5:c7:a5:e1"};
    const std::vector<std::string> loops = {"c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3"};
    auto keep = unique;
    keep.insert(keep.end(), loops.begin(), loops.end());
    CHECK(move_texts<Russian, Duplicates::kKeep>(p) == sorted(keep));
    CHECK(count_moves<Russian, Duplicates::kKeep>(p) == 6);
    const auto drop = move_texts<Russian, Duplicates::kDrop>(p);
    CHECK(count_moves<Russian, Duplicates::kDrop>(p) == 5);
    REQUIRE(drop.size() == 5);
    int unique_seen = 0, loops_seen = 0;
    for (const auto& t : drop) {
        unique_seen += int(std::count(unique.begin(), unique.end(), t));
        loops_seen += int(std::count(loops.begin(), loops.end(), t));
    }
    CHECK(unique_seen == 4);
    CHECK(loops_seen == 1);
}

TEST_CASE("Russian promotion by a quiet move", "[russian][rules]") {
    // W:Wc7:Bg5 - c7 steps to b8 or d8 and becomes a king. From d8 a king could take g5 (via e7,
    // f6, landing h4), but a quiet move is only a step: no capture exists for the man (b6, d6,
    // b8, d8 hold no Black piece), so the list is the two steps.
    check_moves("W:Wc7:Bg5", {"c7-b8", "c7-d8"});
    const auto p = parse_fen<Russian>("W:Wc7:Bg5");
    const auto m = dambit::test::find_move<Russian>(p, "c7-d8");
    CHECK(m.move.promotes());
    CHECK(p.play(m.move) == parse_fen<Russian>("B:WKd8:Bg5"));
    // On its next move it is a king: from d8 it flies over e7, f6 and takes g5, landing h4
    // (h4 sees g3 f2 e1; the SW diagonal c7 b6 a5 is empty).
    check_moves("W:WKd8:Bg5", {"d8:h4"});

    // B:We1:Bb2,f2 - Black's men reach rank 1: b2 -> a1 or c1; f2 -> g1 (e1 is White and stands
    // on the edge, nothing behind it, so f2 cannot take it). 3 moves.
    check_moves("B:We1:Bb2,f2", {"b2-a1", "b2-c1", "f2-g1"});
    const auto q = parse_fen<Russian>("B:We1:Bb2,f2");
    CHECK(q.play(dambit::test::find_move<Russian>(q, "b2-a1").move) ==
          parse_fen<Russian>("W:We1:BKa1,f2"));
}

TEST_CASE("Russian promotion in the middle of a capture continues as a king",
          "[russian][rules]") {
    // RULES.md §6: W:Wh6:Bg7,c5,d2 (= W:W12:B8,14,26) has one legal move, h6:f8:b4:e1.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   b
    // 6    .   .   .   w
    // 5  .   b   .   .
    // 4    .   .   .   .
    // 3  .   .   .   .
    // 2    .   b   .   .
    // 1  .   .   .   .
    // h6 takes g7 -> f8 and is a king at once. From f8 SW: e7, d6, c5 with b4 empty -> take c5,
    // run b4, a3. b4 sees SE c3 then d2 with e1 empty -> goes on; a3 sees b2 c1 only. So b4,
    // take d2, land e1 (e1 sees f2 g3 h4). Nothing else is possible from h6 (g5 empty).
    check_moves("W:Wh6:Bg7,c5,d2", {"h6:f8:b4:e1"});
    check_moves("W:W12:B8,14,26", {"h6:f8:b4:e1"});
    const auto p = parse_fen<Russian>("W:Wh6:Bg7,c5,d2");
    const auto m = dambit::test::find_move<Russian>(p, "h6:f8:b4:e1");
    CHECK(m.move.promotes());
    const auto after = p.play(m.move);
    CHECK(after == parse_fen<Russian>("B:WKe1:B"));
    // Black has no piece left: no move, the game is lost.
    CHECK_FALSE(has_move(after));

    // W:Wf6:Be7,c7 - promotion, then a king capture with two landing squares.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   b   b   .
    // 6    .   .   w   .
    // 5  .   .   .   .
    // f6 takes e7 -> d8 (g7, e5, g5 hold nothing) and is a king. From d8: SE is the captured e7;
    // SW c7 with b6 empty -> take it, run b6, a5 (b6 sees a7 / c5..g1, a5 sees b4..e1: nothing).
    // As a man it could only land on b6; as a king a5 is legal too.
    check_moves("W:Wf6:Be7,c7", {"f6:d8:a5", "f6:d8:b6"});

    // B:Wd2,f2:Bc3 - the same for Black, promoting on rank 1.
    //    a b c d e f g h
    // 3  .   b   .   .
    // 2    .   w   w   .
    // 1  .   .   .   .
    // c3 takes d2 -> e1 (b2 empty; b4, d4 behind it empty) and is a king. e1: NW is the captured
    // d2; NE f2 with g3 empty -> take f2, run g3, h4. g3 sees f4..b8 and h2, h4 sees g5..d8:
    // nothing. -> c3:e1:g3, c3:e1:h4.
    check_moves("B:Wd2,f2:Bc3", {"c3:e1:g3", "c3:e1:h4"});
}

TEST_CASE("Russian: a man crowned by a later jump goes on as a king only where a king can",
          "[russian][rules]") {
    // These also pin the set-wise capture count (count_moves), which decides from masks whether
    // a man crowned on his second or third jump can go on as a king.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   b   .
    // 6    .   .   .   .
    // 5  .   b   .   .
    // 4    w   .   .   .
    // W:Wb4:Bc5,e7. b4 takes c5 -> d6 (a5, a3, c3 hold nothing), d6 takes e7 -> f8 (c7, e5 are
    // empty; c5 was just taken) and is a king. f8: straight back is the captured e7, SE runs g7,
    // h6 with nothing on it, NE and NW leave the board. The move ends on f8.
    check_moves("W:Wb4:Bc5,e7", {"b4:d6:f8"});
    // The same with a black man on g7: the new king on f8 takes it, landing on h6 (the board's
    // edge). h6: NW is the captured g7, SW runs g5..c1 empty. One move.
    check_moves("W:Wb4:Bc5,e7,g7", {"b4:d6:f8:h6"});

    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   b   .   .
    // 6    .   .   .   .
    // 5  .   b   .   b
    // 4    .   w   .   .
    // W:Wd4:Bc5,c7,g5. d4 takes c5 -> b6 (e5, c3, e3 empty), b6 takes c7 -> d8 (a7, a5 empty) and
    // is a king. d8: SW is the captured c7; SE runs e7, f6 empty to g5 with h4 empty behind it, so
    // it flies on and takes g5, landing on h4 (the edge). h4: NW is g5, SW g3..e1 empty.
    check_moves("W:Wd4:Bc5,c7,g5", {"d4:b6:d8:h4"});
    // A white man on f6 blocks the king's diagonal: d8 stops. f6 itself can take g5 -> h4 (e7,
    // g7 empty; e5 empty), and from h4 nothing follows (SW g3..e1 empty). Two moves.
    check_moves("W:Wd4,f6:Bc5,c7,g5", {"d4:b6:d8", "f6:h4"});

    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   b
    // 6    .   .   .   .
    // 5  .   .   b   .
    // 4    .   .   .   .
    // 3  .   b   .   .
    // 2    w   .   .   .
    // W:Wb2:Bc3,e5,g7. b2 takes c3 -> d4 (a3 empty, a1/c1 side leaves no jump), d4 takes e5 -> f6
    // (c5, e3 empty), f6 takes g7 -> h8 (e7, g5 empty) and is a king in the corner: its only
    // diagonal leads back over g7. One move of three jumps.
    check_moves("W:Wb2:Bc3,e5,g7", {"b2:d4:f6:h8"});
}

TEST_CASE("Russian capturing is compulsory", "[russian][rules]") {
    // W:WKh2,c3:Bd4 - the king h2 has quiet moves (g1; g3..b8) but no capture (no Black piece on
    // its diagonals); the man c3 can take d4 -> e5. The man must capture: one move. From e5 the
    // man sees d6, f6, f4 empty.
    check_moves("W:WKh2,c3:Bd4", {"c3:e5"});

    // W:WKa1,e3:Bc3,f4 - a king capture and a man capture; either may be chosen.
    //    a b c d e f g h
    // 5  .   .   .   .
    // 4    .   .   b   .
    // 3  .   b   w   .
    // 2    .   .   .   .
    // 1  W   .   .   .
    // King: takes c3, run d4..h8; d4 sees c5 b6 a7 / own e3; e5 sees SE f4 with g3 empty -> it
    // must land e5; f6, g7, h8 see nothing. Take f4, land g3 or h2 (nothing further).
    // Man e3: takes f4 -> g5 (d4 empty; d2, f2 behind it empty); from g5 f6, h6, h4 are empty.
    check_moves("W:WKa1,e3:Bc3,f4", {"a1:e5:g3", "a1:e5:h2", "e3:g5"});
}

TEST_CASE("Russian free choice: a shorter capture may be chosen", "[russian][rules]") {
    // W:Wc3:Bd4,f6,b4
    //    a b c d e f g h
    // 7  .   .   .   .
    // 6    .   .   b   .
    // 5  .   .   .   .
    // 4    b   b   .   .
    // 3  .   w   .   .
    // c3 takes b4 -> a5 (one piece; a5 sees only b6, empty) or d4 -> e5, then f6 -> g7 (two
    // pieces; g7 sees f8, h8, h6, empty). Russian has no majority rule (§3): both are legal.
    check_moves("W:Wc3:Bd4,f6,b4", {"c3:a5", "c3:e5:g7"});
}

TEST_CASE("Russian: a side without a move has lost", "[russian][rules]") {
    // W:Wa3,h2:Bb4,c5,g3,f4 - both White men are blocked.
    //    a b c d e f g h
    // 5  .   b   .   .
    // 4    b   .   b   .
    // 3  w   .   .   b
    // 2    .   .   .   w
    // a3: b4 is occupied and c5 behind it too (no capture); its other forward square is off the
    // board; b2 behind it is empty but holds nothing to take. h2: g3 occupied with f4 behind it
    // occupied; g1 holds nothing. No move.
    check_moves("W:Wa3,h2:Bb4,c5,g3,f4", {});
    // W:WKa1:Bb2,c3 - a king in the corner behind two Black men in a row: it can neither step
    // nor jump two pieces.
    check_moves("W:WKa1:Bb2,c3", {});
    // No pieces at all for the side to move.
    check_moves("W:W:Bd4", {});
    check_moves("B:W28:B", {});
}
