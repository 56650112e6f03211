// The searcher: composed tactics in every variant, proven results, table, threads, draws, bench.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "core/notation.hpp"
#include "search/bench.hpp"
#include "search/draw.hpp"
#include "search/engine.hpp"
#include "search/eval.hpp"
#include "search/line.hpp"
#include "search/search.hpp"
#include "search/search_key.hpp"
#include "search/solve.hpp"
#include "search/tt.hpp"
#include "search/weights.hpp"

using namespace dambit;
using namespace dambit::search;

namespace {

struct Tactic {
    const char* fen;
    const char* key;  // the only winning move, from the analysis beside the position
};

// The search (depth `depth`, one thread) plays the key move, and the solver finds no other move
// that wins within `bound` plies. With `prove`, the solver also proves that the key move wins (the
// opponent is lost within 40 plies; some take seconds, so the proofs run under the slow label).
template <class R>
void check_tactic(const Tactic& t, int depth, int bound, bool prove) {
    using G = typename R::Geometry;
    INFO(R::kName << " " << t.fen << " key " << t.key);
    const auto p = parse_fen<R>(t.fen);
    if (!prove) {
        Engine<R> engine(4, 1);
        Limits limits;
        limits.depth = depth;
        const auto result = engine.go(p, {}, limits);
        REQUIRE(result.has_move);
        CHECK(line_text<R>(p, {result.best}).front() == t.key);
    }
    FixedList<PathMove<G>, kMaxMoves> moves;
    generate_paths<R>(p, moves);
    bool key_found = false;
    for (const auto& pm : moves) {
        const std::string text = move_text<R>(pm);
        INFO("move " << text);
        const auto child = p.play(pm.move);
        SolveOptions o;
        o.hash_megabytes = 4;
        if (text == t.key) {
            key_found = true;
            if (!prove) continue;
            o.max_plies = 40;
            CHECK(Solver<R>(o).solve(child).outcome == Outcome::kForcedLoss);
        } else {
            o.max_plies = bound - 1;
            CHECK(Solver<R>(o).solve(child).outcome != Outcome::kForcedLoss);
        }
    }
    CHECK(key_found);
}

// Russian (RULES.md §3: men capture backwards, flying kings, free choice of capture, a man that
// reaches the far row during a capture goes on as a king). Ranks 1-8 from White's side; every
// position is composed for this test; "takes" lists the pieces a capture removes.
const Tactic kRussian[] = {
    // R1. White c1 d2 e3 g3; Black g5 e5 c7 h6 h8. White is a man down. e3-f4! leaves Black one
    // capture, g5:e3 (e5 cannot take f4: g3 behind it is taken), and the man stops on e3 (d2 has
    // c1 behind it). Then d2:f4:d6:b8 takes e3, e5 and c7 and crowns: a king and two men against
    // two men wins. Every other move leaves White a man down or loses more: c1-b2 and d2-c3 allow
    // g5-f4! e3:g5 h6:f4:h2, two men for one and a man on h2; e3-d4 e5:c3:e1:h4; g3-f4 e5:g3;
    // g3-h4 g5-f4 e3:g5 h6:f4 and Black is still a man up.
    {"W:Wc1,d2,e3,g3:Bg5,e5,c7,h6,h8", "e3-f4"},
    // R2 (king capture). White d4 e5 f6 c1; Black king h8, men a7 b6 c7 d8. f6-g7! Black's only
    // capture is Kh8:g7, and the king must stop on f6: e5 is backed by d4, so there is no landing
    // square further on and no continuation (f6-e7-d8 is Black's own, f6-g5-h4 is empty). Then
    // e5:g7 takes the king, and the man on g7 crowns next move while Black's men are six moves
    // from crowning: White wins. Otherwise Black's king breaks loose: c1-b2 (or c1-d2) c7-d6!
    // e5:c7:a5 (forced) Kh8:e5:c3:a1 takes three; d4-c5 b6:d4 e5:c3 Kh8:e5:a1; e5-d6 c7:e5:c3;
    // f6-e7 d8:f6 e5:g7 and the king takes again, Kh8:f6 and on.
    {"W:Wd4,e5,f6,c1:BKh8,a7,b6,c7,d8", "f6-g7"},
    // R3 (crowning inside a capture). White a5 b6 f6; Black b8 c7 d8 f2 h6. f6-e7! forces d8:f6
    // (c7 cannot take b6: a5 is behind it). Then b6:d8 crowns on d8 and goes on as a king
    // (Russian rule) along d8-h4: it takes f6 and must land on h4, the only square from which it
    // can go on, over f2 to e1: b6:d8:h4:e1 takes c7, f6, f2. A king and a man against b8 and h6
    // wins. b6-a7 lets f2-e1 crown, and f6-g7 loses the man to h6:f8; neither wins.
    {"W:Wa5,b6,f6:Bb8,c7,d8,f2,h6", "f6-e7"},
    // R4 (four pieces). White a1 b2 c3 e3; Black e7 b8 c5 e5 c7, a man up. c3-d4! Black must take
    // with e5 (c5:e3 is blocked by e3): e5:c3, stopping there (b2 is backed by a1). Then
    // b2:d4:b6:d8 takes c3, c5, c7, crowns on d8 and goes on over e7 (landing f6, g5 or h4):
    // a king and two men against b8. Every other move loses material: e3-d4 c5:e3,
    // c3-b4 c5:a3:c1:f4, e3-f4 e5:g3; b2-a3 stays a man down.
    {"W:Wa1,b2,c3,e3:Be7,b8,c5,e5,c7", "c3-d4"},
    // R5 (king capture). White c1 d2 e1 d4 e5 e3; Black king a1, men a5 b6 c5 e7 h6. c1-b2!
    // The only capture is Ka1:b2 (c5 cannot take d4: e3 is behind it), and the king must stop on
    // c3 (d4 is backed by e5; from c3 nothing more: d2 is backed by e1). Then d2:b4:d6:f8 takes
    // the king, c5 and e7 and crowns: White wins. Any other move leaves Black's king free with
    // White unable to win: e5-d6 Ka1:e5:c7, e5-f6 Ka1:e5:g7, e3-f4 c5:e3:g5, e1-f2 e7-d6 e5:c7
    // Ka1:e5:b8, d2-c3 and White has nothing.
    {"W:Wc1,d2,e1,d4,e5,e3:Ba5,h6,Ka1,c5,b6,e7", "c1-b2"},
    // R6-R10: R1-R5 with the colours reversed (the board turned half a turn, Black to move): the
    // same analysis square for square (a1 <-> h8, b2 <-> g7, ...), so the search must find the
    // same shots for Black.
    {"B:Wb4,d4,f2,a3,a1:Bf8,e7,d6,b6", "d6-c5"},
    {"B:WKa1,h2,g3,f2,e1:Be5,d4,c3,f8", "c3-b2"},
    {"B:Wg1,f2,e1,c7,a3:Bh4,g3,c3", "c3-d2"},
    {"B:Wd2,g1,f4,d4,f2:Bh8,g7,f6,d6", "f6-e5"},
    {"B:Wh4,a3,Kh8,f4,g3,d2:Bf8,e7,d8,e5,d4,d6", "f8-g7"},
    // R11 (two sacrifices, three men back). White a1 b2 c3 h4; Black a5 e5 f6 g7, level. h4-g5!
    // f6:h4 is Black's only capture and clears f6; then c3-b4! a5:c3 (again the only capture; the
    // man stops on c3, b2 being backed by a1) and b2:d4:f6:h8 takes c3, e5 and g7 and crowns. The
    // king catches the last man: h4-g3 Kh8-d4, then g3-f2 Kd4:g1, or g3-h2 Kd4-g1 and h2 has no
    // move. Other moves: c3-b4 at once fails because f6 still backs e5 (a5:c3 b2:d4 e5:c3, Black
    // a man up); c3-d4 e5:c3 b2:d4 is an even trade that spends the shot; b2-a3 gives up the long
    // diagonal: e5-d4! c3:e5 f6:d4, and the d4 man goes through e3 and f2 to crown, out of reach
    // of White's men.
    {"W:Wa1,b2,c3,h4:Ba5,e5,f6,g7", "h4-g5"},
    // R12 (king capture). White a3 c1 c5 e1 e3; Black king b8, men a7 b4 g7. c5-d6! The king's
    // capture is Black's only one (b4 cannot take a3, which stands on the edge), and of its landing
    // squares e5, f4, g3, h2 only f4 lets it go on, over e3; behind e3 only d2 is free (c1 is
    // White's), and from d2 nothing more: Kb8:f4:d2. Then e1:c3:a5 takes the king and b4. Three
    // men against a7 and g7 win: a7 cannot move without being taken (a7-b6 a5:c7), and the c1 man
    // meets g7 on its way (e.g. g7-f6 c1-d2 f6-g5 d2-e3 g5-h4 e3-f4 h4-g3 f4:h2). Every other move
    // loses a man: c5-b6 a7:c5, e3-f4 Kb8:h2, and the rest b4:d6 (a man captures backwards).
    {"W:Wa3,c5,e3,c1,e1:BKb8,b4,g7,a7", "c5-d6"},
    // R13 (crowning inside a capture, three men). White a3 c1 d6 h6; Black a7 b6 e3 f8 g7, a man up
    // and e3 two steps from crowning. d6-e7! f8:d6 is the only capture and it empties f8: h6:f8
    // crowns and goes on as a king down the f8-a3 diagonal over d6; it must land on c5 (from b4
    // nothing follows) and takes e3 too: h6:f8:c5:g1 (or :f2) takes g7, d6 and e3. Black, to move
    // with a7 and b6: b6-a5 c1-b2 and the next move loses a man (a5-b4 a3:c5, or a7-b6 Kg1:a7);
    // b6-c5 Kg1:b6 a7:c5 gives the king back, but c1-b2 c5-d4 b2-c3! d4:b2 a3:c1 (or c5-b4
    // a3:c5) leaves Black nothing. Other moves: d6-c7 b6:d8, two men down; c1-d2 e3:c1 crowns;
    // c1-b2 and a3-b4 allow g7-f6, after which the shot is gone and Black stays a man up.
    {"W:Wh6,d6,a3,c1:Bf8,g7,e3,a7,b6", "d6-e7"},
    // R14 (Turkish strike: a man taken but not yet removed stops the capturing king, RULES.md §2).
    // White king g3, men b4 b6 c5 e3; Black king h6, men d4 d8. Black threatens Kh6:d2:a5:c7:h2
    // (e3, b4, b6 and the king) and d4:f2:h4 (e3 and the king). e3-f4! leaves the king's capture
    // as Black's only one. Behind f4 it may land on e3, d2 or c1 and must take one that lets it go
    // on: only d2 (over b4; from e3 the other diagonal is shut by d4, from c1 nothing). It goes on
    // to a5, then over b6 to c7 (d8 is Black's). From c7 the diagonal runs d6, e5, f4, g3, h2: with
    // f4 gone the king would take the king on g3, but f4 stays on the board until the move ends
    // and may not be jumped twice, so the capture stops: Kh6:d2:a5:c7. Now g3:b8 takes the king;
    // d4:b6 is forced and the king rounds up both men (e.g. Kb8-d6 b6-a5 Kd6-f8 d8-c7 Kf8-a3).
    // Other moves: b4-a5, b6-a7, b6-c7 and c5-d6 allow d4:f2:h4; g3-e5 and g3-d6 lose the king to
    // the king's capture; g3-h4, g3-e1, g3-f2 let it take three men (c5:e3 wins one back: kings
    // and a man each); g3-c7 Kh6:d2:a5 takes two; after g3-h2 or g3-b8 the king's capture would
    // be punished (h2:b8, b8:e5:a1), and g3-f4 shuts it out, but d4:f2 and f2 crowns next move.
    {"W:We3,b4,b6,c5,Kg3:BKh6,d4,d8", "e3-f4"},
    // R15 (men capture backwards). White a7 b6 d6; Black b8 d4 d8 f2, a man up, f2 about to crown.
    // b6-c7! The only capture is d8:b6 (b8 cannot take: d6 stands behind c7), and the man stops on
    // b6. Then a7:c5:e3:g1 takes b6, d4 and f2, every jump a backward one. d6 and g1 against b8:
    // b8-c7 d6:b8, or b8-a7 d6-c7 a7-b6 c7:a5. The other two moves lose: d6-c7 b8:d6, two men
    // down; d6-e7 d8:f6, and f2 crowns.
    {"W:Wa7,b6,d6:Bb8,d8,d4,f2", "b6-c7"},
};

// Czech (RULES.md §3: men capture forwards only, a king capture takes precedence, a man that
// reaches the far row during a capture is crowned and the move ends there).
const Tactic kCzech[] = {
    // C1 = R1. Black's captures are forward moves for Black, White's for White, so the shot is
    // the same: e3-f4! g5:e3 d2:f4:d6:b8 (crowning at the end). The refutations of the other
    // moves are forward captures too (g5-f4 e3:g5 h6:f4:h2; e5:c3:e1 stops there as a new king;
    // e5:g3), and g3-h4 g5-f4 e3:g5 h6:f4 keeps Black a man up.
    {"W:Wc1,d2,e3,g3:Bg5,e5,c7,h6,h8", "e3-f4"},
    // C2 = R4 under Czech rules. c3-d4! e5:c3 b2:d4:b6:d8 now ends on d8, where the man is
    // crowned (it may not go on over e7): three men taken, a king and two men against b8 and e7,
    // and the new king attacks e7 at once (d8:f6). White wins; the other moves lose material as
    // in R4 (e3-d4 c5:e3; c3-b4 c5:a3:c1, crowned and stopped; e3-f4 e5:g3) or stay a man down.
    {"W:Wa1,b2,c3,e3:Be7,b8,c5,e5,c7", "c3-d4"},
    // C3 = R5 under Czech rules. c1-b2! Ka1:c3 (the only capture), d2:b4:d6:f8 takes the king, c5
    // and e7, all forward jumps, crowning at the end. Every other move leaves Black a king up.
    {"W:Wc1,d2,e1,d4,e5,e3:Ba5,h6,Ka1,c5,b6,e7", "c1-b2"},
    // C4, C5: C1 and C2 with the colours reversed (Black to move).
    {"B:Wb4,d4,f2,a3,a1:Bf8,e7,d6,b6", "d6-c5"},
    {"B:Wd2,g1,f4,d4,f2:Bh8,g7,f6,d6", "f6-e5"},
    // C6 (king priority). White a1 b2 d2 e1 e3; Black king h8, men c5 c7 f8 h6. e3-d4! offers d4
    // twice: with free choice Black would take c5:e3:c1 (two men and a crown; in Russian the new
    // king even goes on to a3), but a king capture comes first, so Kh8:c3 is Black's only legal
    // move: the king can land only on c3 (b2 is backed by a1) and takes nothing more from there
    // (d2 is backed by e1). Then b2:d4:b6:d8 takes the king, c5 and c7 and is crowned on d8, where
    // the move ends. Black loses a man at once: h6-g5 Kd8:h4; f8-e7 Kd8:f6; f8-g7 Kd8-h4 and
    // g7-f6 Kh4:e7 or h6-g5 Kh4:f6:h8. Other moves: b2-c3 Kh8:b2 a1:c3 trades the king for a man
    // (four men each); d2-c3 and b2-a3 spoil the trap (c3 is taken, or b2 no longer backed),
    // e1-f2 takes away d2's support and e3-f4 threatens nothing: Black keeps a king and four men
    // against five men.
    {"W:We3,b2,a1,d2,e1:BKh8,c5,c7,h6,f8", "e3-d4"},
    // C7 (two for one, crowning). White a5 c5 d4 e3; Black a7 c7 e7 f6. c5-b6! The only capture is
    // a7:c5 (c7 could take only towards a5, which is White's), and the man stops on c5 (d4 is
    // backed by e3). Then d4:b6:d8 takes c5 and c7 and is crowned on d8. The king wins a man at
    // once whatever Black plays: e7-d6 Kd8:h4, f6-e5 Kd8:f6:a1 (two), f6-g5 Kd8:f6:h4 (two), and
    // a king and two men against one man win. Other moves: d4-e5 f6:d4:f2 and c5-d6 c7:e5:c3
    // lose two men, a5-b6 c7:a5 loses one, and e3-f4 takes away d4's support, after which the
    // sacrifice no longer works (a7:c5 would go on over d4).
    {"W:Wa5,c5,d4,e3:Ba7,c7,e7,f6", "c5-b6"},
};

// International (RULES.md §3: 10x10, men capture backwards, the capture taking the most pieces is
// compulsory, a man passing the far row during a capture stays a man). Numeric squares.
const Tactic kInternational[] = {
    // I1. White 38 39 42 47; Black 14 17 24 28 29, a man up. 38-33! Black's only capture is
    // 29x38 (28x39 is blocked by 39), stopping on 38 (42 is backed by 47). White's largest capture,
    // compulsory by the majority rule, is 42x33x22x11 taking 38, 28 and 17; the man on 11 crowns
    // in two moves and White wins against 14 and 24. Other moves: 38-32 28x37x48; 39-33 28x39;
    // 39-34 29x40; 47-41 and 42-37 leave White a man down.
    {"W:W38,42,47,39:B29,28,17,24,14", "38-33"},
    // I2 (a man passing the crowning row). White 27 28 31 36; Black 1 7 8 17 18, a man up.
    // 27-22! The only capture is 18x27 (17 cannot take 22: 28 is behind it), stopping on 27 (31 is
    // backed by 36). Then 31x22x11x2x13 takes 27, 17, 7 and 8: the man lands on 2 in the middle of
    // the capture and goes on as a man, ending on 13 uncrowned. Three men against the man on 1
    // win. No other move threatens anything, and White stays a man down.
    {"W:W36,31,27,28:B8,1,17,18,7", "27-22"},
    // I3 (king capture). White 18 22 28 32 37 38; Black king 36, men 8 11 14 16 17. 37-31! The
    // only capture is K36x27 (17 cannot take 22: 28 is behind it), and the king must stop on 27
    // (22 is backed by 18; from 27 nothing more, 32 is backed by 38). Then 32x21x12x3 takes the
    // king, 17 and 8, crowning on 3: White wins. Any other move leaves Black's king free.
    {"W:W37,32,38,22,18,28:B16,14,K36,17,11,8", "37-31"},
    // I4, I5: I1 and I2 with the colours reversed (Black to move, square n <-> 51-n).
    {"B:W22,23,34,27,37:B13,9,4,12", "13-18"},
    {"B:W43,50,34,33,44:B15,20,24,23", "24-29"},
    // I6 (majority rule for the defender). White 32 37 46 47; Black 13 22 23 26 31, a man up.
    // 32-28! Black may not answer 22x33 or 31x42, which take one man each: the majority rule leaves
    // only 23x32x41, taking 28 and 37, and the man stops on 41 (46 and 47 have the edge behind
    // them). Then 47x36x27x18x9 takes 41, 31, 22 and 13. 9 and 46 against 26: 26-31 (its only
    // move) 9-3 crowns, and 31-36 3-14 36-41 46x37, or 31-37 3-20 and 37-41 46x37 or 37-42 20x47.
    // Other moves: 47-41 and 46-41 let 31x42 take a man; after 47-42 nothing is left on 47 to take
    // back (32-28 23x32x41 46x37 only) and Black stays a man up; 32-27 31x42 27x18x9 42-48 gives
    // both sides a king.
    {"W:W32,37,47,46:B22,23,31,26,13", "32-28"},
    // I7 (a man passing the last row). White 28 29 33 39; Black 9 10 11 18 19, a man up. 28-23!
    // The only capture is 19x28 (18 cannot take 23: 29 stands behind it), and the man stops on 28
    // (33 is backed by 39). Then 33x22x13x4x15 takes 28, 18, 9 and 10: the man lands on 4, on the
    // last row, in the middle of the capture, goes on as a man and ends on 15 uncrowned. Three men
    // against 11: White crowns two moves later and the king catches the man (11-16 15-10 16-21
    // 10-4 21-26 29-23 26-31 4x36). Other moves: 29-23 18x29x38 and 29-24 19x30 lose men; 28-22
    // 18x27 29-23 19x28 33x22x31 is two for two and leaves Black a man up; 39-34 does nothing.
    {"W:W28,33,29,39:B19,18,9,10,11", "28-23"},
};

}  // namespace

TEST_CASE("late move reductions grow with depth and move number", "[search]") {
    // By hand, r = int(0.75 + ln(depth) ln(searched) / 1.75), at least 1, one less (at least 1)
    // at a PV node:
    // depth 3, 3 moves: ln 3 = 1.0986, 1.2069 / 1.75 = 0.690 -> int(1.440) = 1, PV 1.
    CHECK(kLogReductions(false, 3, 3) == 1);
    CHECK(kLogReductions(true, 3, 3) == 1);
    // depth 6, 8 moves: 1.7918 * 2.0794 = 3.7259 / 1.75 = 2.129 -> int(2.879) = 2, PV 1.
    CHECK(kLogReductions(false, 6, 8) == 2);
    CHECK(kLogReductions(true, 6, 8) == 1);
    // depth 10, 10 moves: 2.3026^2 = 5.3019 / 1.75 = 3.030 -> int(3.780) = 3, PV 2.
    CHECK(kLogReductions(false, 10, 10) == 3);
    CHECK(kLogReductions(true, 10, 10) == 2);
    // depth 20, 30 moves: 2.9957 * 3.4012 = 10.189 / 1.75 = 5.822 -> int(6.572) = 6.
    CHECK(kLogReductions(false, 20, 30) == 6);
    // Beyond 63 the row of 63: 4.1431^2 = 17.165 / 1.75 = 9.809 -> int(10.559) = 10.
    CHECK(kLogReductions(false, 63, 63) == 10);
    CHECK(kLogReductions(false, 200, 500) == 10);
}

TEST_CASE("search finds the only winning move: Russian", "[search][tactics]") {
    // 20 plies: in R14 the gain shows only after the king's capture, g3:b8 and d4:b6, and the
    // king's win against two men (17 plies in all); 20 is the least depth that finds it today
    // (19 before the leaves drawn by the move-count rules were scored as draws, 2026-12-07; 13
    // before internal iterative reduction).
    for (const Tactic& t : kRussian) check_tactic<Russian>(t, 20, 12, false);
}

TEST_CASE("search finds the only winning move: Czech", "[search][tactics]") {
    for (const Tactic& t : kCzech) check_tactic<Czech>(t, 9, 12, false);
}

TEST_CASE("search finds the only winning move: International", "[search][tactics]") {
    for (const Tactic& t : kInternational) check_tactic<International>(t, 7, 12, false);
}

TEST_CASE("the key moves win and no other move wins within 16 plies (solver)", "[search][slow]") {
    for (const Tactic& t : kRussian) check_tactic<Russian>(t, 0, 16, true);
    for (const Tactic& t : kCzech) check_tactic<Czech>(t, 0, 16, true);
    for (const Tactic& t : kInternational) check_tactic<International>(t, 0, 16, true);
}

// ---------------------------------------------------------------------------------------------
// The transposition table.

TEST_CASE("table entries round-trip and other keys miss", "[search][table]") {
    TranspositionTable tt(1);
    TableData d;
    d.move = 0x1234;
    d.score = -1234;
    d.eval = 77;
    d.depth = 13;
    d.bound = Bound::kLower;
    tt.store(0xDEADBEEFCAFEF00Dull, d);
    TableData out;
    REQUIRE(tt.probe(0xDEADBEEFCAFEF00Dull, out));
    CHECK(out.move == d.move);
    CHECK(out.score == d.score);
    CHECK(out.eval == d.eval);
    CHECK(out.depth == d.depth);
    CHECK(out.bound == d.bound);
    CHECK_FALSE(tt.probe(0xDEADBEEFCAFEF00Eull, out));
    tt.clear();
    CHECK_FALSE(tt.probe(0xDEADBEEFCAFEF00Dull, out));
}

TEST_CASE("win scores are stored relative to the node", "[search][table]") {
    // Found 5 plies from the root: a win at root ply 12 is a win 7 plies from the node. Met again
    // 9 plies from the root, the same position is won at root ply 16.
    const Score at_root = win_in(12);
    const Score stored = to_table(at_root, 5);
    CHECK(stored == win_in(7));
    CHECK(from_table(stored, 9) == win_in(16));
    CHECK(from_table(to_table(loss_in(10), 4), 2) == loss_in(8));
    CHECK(to_table(137, 20) == 137);  // ordinary scores do not move
}

TEST_CASE("a full bucket keeps its deeper entries", "[search][table]") {
    TranspositionTable tt(0);  // a single bucket of four entries
    auto store = [&](std::uint64_t key, int depth) {
        TableData d;
        d.depth = std::uint8_t(depth);
        d.bound = Bound::kExact;
        d.score = std::int16_t(depth);
        tt.store(key, d);
    };
    store(1, 10);
    store(2, 1);
    store(3, 9);
    store(4, 8);
    store(5, 5);  // replaces the shallowest, key 2
    TableData out;
    CHECK(tt.probe(1, out));
    CHECK_FALSE(tt.probe(2, out));
    CHECK(tt.probe(3, out));
    CHECK(tt.probe(4, out));
    CHECK(tt.probe(5, out));
    // A much shallower bound for the same position does not overwrite a deep one.
    TableData shallow;
    shallow.depth = 2;
    shallow.bound = Bound::kUpper;
    shallow.score = -5;
    tt.store(1, shallow);
    REQUIRE(tt.probe(1, out));
    CHECK(out.depth == 10);
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

namespace {

// The same position with the board turned half a turn and the colours swapped: square n becomes
// square (squares + 1 - n). Every rule here is symmetric between the colours, so the side to move
// must get the same score.
template <class R>
Position<R> flipped(const Position<R>& p) {
    using G = typename R::Geometry;
    Position<R> q;
    q.pieces = {0, 0};
    q.kings = 0;
    q.side = ~p.side;
    for (int n = 1; n <= G::kSquares; ++n) {
        const auto m = G::mask_of_square(n), to = G::mask_of_square(G::kSquares + 1 - n);
        for (int c = 0; c < 2; ++c)
            if (p.pieces[c] & m) q.pieces[1 - c] |= to;
        if (p.kings & m) q.kings |= to;
    }
    return q;
}

template <class R>
void check_symmetry(Variant v) {
    HandEvaluator<R> eval;
    for (const BenchPosition& bp : bench_positions(v)) {
        const auto p = parse_fen<R>(bp.fen);
        INFO(R::kName << " " << bp.fen);
        CHECK(eval.evaluate(p) == eval.evaluate(flipped(p)));
    }
}

}  // namespace

TEST_CASE("evaluation is symmetric between the colours", "[search][eval]") {
    check_symmetry<Russian>(Variant::kRussian);
    check_symmetry<Czech>(Variant::kCzech);
    check_symmetry<Brazilian>(Variant::kBrazilian);
    check_symmetry<Pool>(Variant::kPool);
    check_symmetry<English>(Variant::kEnglish);
    check_symmetry<International>(Variant::kInternational);
    // The start position is its own mirror image: level.
    CHECK(HandEvaluator<Russian>().evaluate(Position<Russian>::start()) == 0);
    CHECK(HandEvaluator<International>().evaluate(Position<International>::start()) == 0);
}

// The runaway term finds the men with an empty cone by spreading the enemy pieces backwards; as
// the spread of a set is the union of the spreads of its squares, agreeing square by square with
// the cone table proves it for every position.
template <class G>
void check_shadow() {
    using T = EvalTables<G>;
    for (int c = 0; c < 2; ++c)
        for (int e = 1; e <= G::kSquares; ++e) {
            typename G::Bitboard expected = G::mask_of_square(e);
            for (int n = 1; n <= G::kSquares; ++n)
                if (T::kCone[c][G::bit_of_square(n)] & G::mask_of_square(e))
                    expected |= G::mask_of_square(n);
            INFO("colour " << c << ", enemy on " << e);
            CHECK(T::shadow(c, G::mask_of_square(e)) == expected);
            // The evaluation's spread of both colours at once, by doubling.
            CHECK(T::shadows(G::mask_of_square(e), G::mask_of_square(e))[c] == expected);
        }
}

TEST_CASE("the backward spread of enemy pieces matches the cone table", "[search][eval]") {
    check_shadow<Board8>();
    check_shadow<Board10>();
}

TEST_CASE("evaluation counts material in hundredths of a man", "[search][eval]") {
    // White's extra man on a quiet board: about one man (advancement terms move it a little).
    HandEvaluator<Russian> eval;
    const Score s = eval.evaluate(parse_fen<Russian>("W:Wc3,e3:Bf6"));
    CHECK(s > 60);
    CHECK(s < 200);
    // Black to move in the same position sees the negative.
    CHECK(eval.evaluate(parse_fen<Russian>("B:Wc3,e3:Bf6")) == -s);
}

TEST_CASE("evaluation knows the drawn three kings against one on the long diagonal",
          "[search][eval]") {
    // Russian: three kings against a king on the long diagonal (a1-h8) is a draw (the lone king
    // cannot be forced off it); off the diagonal the three kings win (Petrov's triangle). Kings on
    // c1, e1, g1; the lone king on d4 (long diagonal) or on b6 (not).
    HandEvaluator<Russian> eval;
    const Score on = eval.evaluate(parse_fen<Russian>("W:WKc1,Ke1,Kg1:BKd4"));
    const Score off = eval.evaluate(parse_fen<Russian>("W:WKc1,Ke1,Kg1:BKb6"));
    CHECK(std::abs(on) < 60);
    CHECK(off > 300);
}

// ---------------------------------------------------------------------------------------------
// Draw rules (RULES.md §5).

// The rule draws `p` once `counter` reaches `limit` plies, and not one ply before.
template <class R>
void check_draw_limit(const Position<R>& p, std::uint16_t DrawCounters::*counter, int limit) {
    INFO(to_fen<R>(p) << " at " << limit << " plies");
    DrawCounters c;
    c.*counter = std::uint16_t(limit - 1);
    CHECK_FALSE(drawn_by_counters(p, c));
    c.*counter = std::uint16_t(limit);
    CHECK(drawn_by_counters(p, c));
}

TEST_CASE("the move-count draw rules of Russian and International", "[search][draw]") {
    constexpr auto kKingsOnly = &DrawCounters::kings_only;
    constexpr auto kSameMaterial = &DrawCounters::material;
    // Russian: 15 moves of each side (30 plies) with only kings moving.
    const auto ru = parse_fen<Russian>("W:WKa1,c3:BKh8,f6");
    check_draw_limit(ru, kKingsOnly, 30);
    // Russian, kings on both sides and 4 pieces: 30 moves (60 plies) without capture or promotion.
    check_draw_limit(ru, kSameMaterial, 60);
    // Russian, three kings against a lone king: 15 moves.
    check_draw_limit(parse_fen<Russian>("W:WKc1,Ke1,Kg1:BKb6"), kSameMaterial, 30);
    // International: two kings against a king, 5 moves; three pieces with a king, 16 moves.
    check_draw_limit(parse_fen<International>("W:WK1,K7:BK50"), kSameMaterial, 10);
    check_draw_limit(parse_fen<International>("W:WK40,45,48:BK11"), kSameMaterial, 32);
    // International, king against king is one of the 5-move endings (KNDB: "one king against at
    // most two pieces including a king"; FMJD likewise).
    check_draw_limit(parse_fen<International>("W:WK1:BK50"), kSameMaterial, 10);
    check_draw_limit(parse_fen<International>("W:WK1,20:BK50"), kSameMaterial, 10);
    // A lone man is no lone king, and a lone king against men alone is no such ending either.
    DrawCounters long_count;
    long_count.material = 1000;
    CHECK_FALSE(drawn_by_counters(parse_fen<International>("W:WK1:B30"), long_count));
    CHECK_FALSE(drawn_by_counters(parse_fen<International>("W:W20,30:BK50"), long_count));
    // International, 25 moves of each side with only kings: 50 plies.
    check_draw_limit(parse_fen<International>("W:WK1,K7,20:BK50,K45,30"), kKingsOnly, 50);
    DrawCounters c;
    // Czech has only the repetition rule.
    c.kings_only = 200;
    c.material = 200;
    CHECK_FALSE(drawn_by_counters(parse_fen<Czech>("W:WKa1,c3:BKh8,f6"), c));
    // Counting: a king move adds a ply, a man move or a capture resets.
    const auto p = parse_fen<Russian>("W:WKa1,c3:BKh8,f6");
    DrawCounters d;
    d.kings_only = 7;
    d.material = 7;
    MoveList<Russian::Geometry> list;
    generate<Russian>(p, list);
    for (const auto& m : list) {
        const DrawCounters e = d.after(p, m);
        CHECK(e.kings_only == (m.king_moves() ? 8 : 0));
        CHECK(e.material == (m.is_capture() || m.promotes() ? 0 : 8));
    }
}

TEST_CASE("Russian's three kings against a lone king count from when that ending arose",
          "[search][draw]") {
    // Kodeks: "not won within 15 moves" of three or more kings against a lone king, counted from
    // the moment the ratio was established. White Ka1, Kc1, Ke1 and a man on g7 against Black's
    // king on h4: the ending has run 7 plies. No move captures (h4 stands on the board's edge, so
    // no king can jump it; no black piece elsewhere); g7-f8 and g7-h8 crown a fourth king, and
    // the ending goes on: every move counts on to 8, the promotions too.
    const auto crown = parse_fen<Russian>("W:WKa1,Kc1,Ke1,g7:BKh4");
    DrawCounters d;
    d.material = 7;
    MoveList<Russian::Geometry> list;
    generate<Russian>(crown, list);
    int promotions = 0;
    for (const auto& m : list) {
        REQUIRE_FALSE(m.is_capture());
        promotions += m.promotes();
        CHECK(d.after(crown, m).material == 8);
        CHECK(d.after(crown, crown.play(m)).material == 8);  // from the game's positions
    }
    CHECK(promotions == 2);
    // The lone king takes one of four kings: Black's a3 takes b4 (a3-b4-c5-d6-e7-f8, landing on
    // c5, d6, e7 or f8; nothing more to take from there, and a3-b2-c1 ends at the edge behind
    // c1): three kings against the lone king remain, the count goes on.
    const auto take = parse_fen<Russian>("B:WKb4,Kc1,Ke1,Kg1:BKa3");
    MoveList<Russian::Geometry> takes;
    generate<Russian>(take, takes);
    REQUIRE(takes.size() == 4);
    for (const auto& m : takes) {
        REQUIRE(m.is_capture());
        CHECK(d.after(take, m).material == 8);
        CHECK(d.after(take, take.play(m)).material == 8);
    }
    // The ending arises by a capture (Black's man on d2 taken: c1:e3 and on, or e1:c3 and on):
    // it starts at 0.
    const auto arises = parse_fen<Russian>("W:WKa1,Kc1,Ke1:BKh8,d2");
    MoveList<Russian::Geometry> first;
    generate<Russian>(arises, first);
    REQUIRE_FALSE(first.empty());
    for (const auto& m : first) {
        REQUIRE(m.is_capture());
        CHECK(d.after(arises, m).material == 0);
    }
    // No king on the board: a FEN's H field (impossible there) draws nothing.
    DrawCounters h;
    h.kings_only = 30;
    CHECK_FALSE(drawn_by_counters(parse_fen<Russian>("W:W22:B11"), h));
    h.kings_only = 50;
    CHECK_FALSE(drawn_by_counters(parse_fen<International>("W:W33:B18"), h));
}

TEST_CASE("International's lone-king endings count from the position that began them",
          "[search][draw]") {
    // White K28 and men 6, 7 against the king on 45: sixteen moves, begun before. A promotion
    // (6-1 or 7-1, 7-2) leaves an ending of the same kind, so the count goes on, as does every
    // other move (none captures: 45's diagonals 45-40-...-7-1 and 45-50 hold no piece that can
    // be taken by White, and White's K28 sees no black piece on 28-32-37-41-46, 28-23-19-14-10-5,
    // 28-33-39-44-50 or 28-22-17-11-6).
    const auto sixteen = parse_fen<International>("W:WK28,6,7:BK45");
    DrawCounters d;
    d.material = 7;
    MoveList<International::Geometry> list;
    generate<International>(sixteen, list);
    int promotions = 0;
    for (const auto& m : list) {
        REQUIRE_FALSE(m.is_capture());
        promotions += m.promotes();
        CHECK(d.after(sixteen, m).material == 8);
    }
    CHECK(promotions == 3);
    // The lone king takes one of three pieces (Black K45 takes 12 on 45-40-34-29-23-18-12-7,
    // landing on 7 or 1: the only capture): five moves from now, but no longer than what was left
    // of the sixteen. After 25 plies of the sixteen moves 6 are left (32 - 26), fewer than 10;
    // after 5, 10 are left.
    const auto capture = parse_fen<International>("B:WK50,12,20:BK45");
    MoveList<International::Geometry> takes;
    generate<International>(capture, takes);
    REQUIRE(takes.size() == 2);
    for (const auto& m : takes) {
        REQUIRE(m.is_capture());
        const Position<International> after = capture.play(m);
        DrawCounters late, early;
        late.material = 25;
        early.material = 5;
        CHECK(plies_to_counter_draw(after, late.after(capture, m)) == 6);
        CHECK(plies_to_counter_draw(after, early.after(capture, m)) == 10);
        // The same from the game record as positions (pdn, hub and dxp games replayed).
        CHECK(plies_to_counter_draw(after, late.after(capture, after)) == 6);
    }
    // An ending that arises starts its count: a king and a man against a king and a man, where
    // the black man is taken (White K1 takes 7 on 1-7-12-...-40, landing anywhere up to 40: the
    // only captures), leaves two pieces against a lone king: ten plies from here, whatever the
    // count was.
    const auto arises = parse_fen<International>("W:WK1,36:BK45,7");
    MoveList<International::Geometry> first;
    generate<International>(arises, first);
    REQUIRE(first.size() == 6);
    for (const auto& m : first) {
        REQUIRE(m.is_capture());
        DrawCounters c;
        c.material = 30;
        CHECK(plies_to_counter_draw(arises.play(m), c.after(arises, m)) == 10);
    }
}

TEST_CASE("the game history makes the search see repetitions and the kings-only rule",
          "[search][draw]") {
    // Russian, White kings a3 b2 c1 against a king on h4 (off the long diagonal): without history
    // White is far ahead. With a history in which White's a3 king and Black's king shuffled
    // a3-b4, h4-g3, b4-a3, g3-h4 eight times (32 plies of king moves, the root seen 8 times; no
    // capture is ever possible on the way), every White move reaches a position drawn by
    // repetition or by the 15-move kings-only rule, unless it captures, and no capture is possible
    // within four plies: score 0.
    const auto root = parse_fen<Russian>("W:WKa3,Kb2,Kc1:BKh4");
    std::vector<Position<Russian>> history;
    auto p = root;
    for (int i = 0; i < 8; ++i)
        for (const char* mv : {"a3-b4", "h4-g3", "b4-a3", "g3-h4"}) {
            history.push_back(p);
            p = p.play(parse_move<Russian>(p, mv).move);
        }
    REQUIRE(p == root);
    Engine<Russian> engine(4, 1);
    Limits limits;
    limits.depth = 4;
    const auto fresh = engine.go(root, {}, limits);
    CHECK(fresh.score > 200);
    engine.new_game();
    const auto drawn = engine.go(root, history, limits);
    CHECK(drawn.score == 0);
}

// ---------------------------------------------------------------------------------------------
// Proven results: exact distances, one thread or two.

TEST_CASE("a win is scored by its exact distance, with one thread or two", "[search][threads]") {
    // Rows of solve-reference.md (Grimminck, via dctl) with short wins; the search, deep enough,
    // must report win_in(N) exactly. The FMJD move-count rules cannot interfere: the shortest of
    // them, two pieces against a lone king, needs 10 plies, and these wins end sooner or have no
    // lone king. "Deep enough" is N + 8: with late move reductions and two threads sharing the
    // table, one iteration can miss a win its depth covers (the other thread's bound from a
    // reduced search cuts the line: W:WK7,K30:B45 at depth 13, twice in about 300 runs on a
    // loaded machine), and the search stops at the first iteration of N + 4 or more that proves
    // the win, so the limit leaves it four more iterations to find it.
    struct Row {
        const char* fen;
        int plies;
    };
    const Row rows[] = {{"W:WK42:B22", 7},    {"W:W10:BK46", 3},   {"W:WK7,K30:B45", 9},
                        {"W:W6,7:BK45", 7},   {"W:WK2,6:BK50", 9}, {"W:WK1,K7:BK50", 7},
                        {"W:WK26:B23,K42", 9}};
    for (const Row& r : rows) {
        INFO(r.fen);
        const auto p = parse_fen<International>(r.fen);
        for (int threads : {1, 2}) {
            INFO("threads " << threads);
            Engine<International> engine(8, threads);
            Limits limits;
            limits.depth = r.plies + 8;
            const auto result = engine.go(p, {}, limits);
            CHECK(result.score == win_in(r.plies));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bench and limits.

TEST_CASE("the bench sets are large enough and legal", "[search][bench]") {
    for (int v = 0; v < 6; ++v) {
        const auto positions = bench_positions(Variant(v));
        CHECK(positions.size() >= 30);
        with_variant(Variant(v), [&]<class R>(std::type_identity<R>) {
            for (const BenchPosition& bp : positions) {
                INFO(bp.fen);
                const auto p = parse_fen<R>(bp.fen);
                CHECK(has_move(p));
                CHECK(std::string(bp.origin).size() > 5);
            }
        });
    }
}

// The search hashes with its own inline copy of xxHash; the keys must be position_key()'s, or a
// game history (hashed by position_key) would never match a position of the search.
TEST_CASE("the search's keys are position_key's", "[search][table]") {
    for (int v = 0; v < 6; ++v) {
        with_variant(Variant(v), [&]<class R>(std::type_identity<R>) {
            for (const BenchPosition& bp : bench_positions(Variant(v))) {
                INFO(bp.fen);
                auto p = parse_fen<R>(bp.fen);
                CHECK(search_key(p) == position_key(p));
                // The positions after each move too (captures, promotions, other kings).
                MoveList<typename R::Geometry> list;
                generate<R>(p, list);
                for (const auto& m : list) {
                    const auto child = p.play(m);
                    CHECK(search_key(child) == position_key(child));
                }
                p.side = ~p.side;
                CHECK(search_key(p) == position_key(p));
            }
        });
    }
}

TEST_CASE("bench node counts are the same on every run", "[search][bench]") {
    const auto a = run_bench<Russian>(Variant::kRussian, 5, 1, 4);
    const auto b = run_bench<Russian>(Variant::kRussian, 5, 1, 4);
    CHECK(a.nodes == b.nodes);
    CHECK(a.positions >= 30);
    const auto c = run_bench<International>(Variant::kInternational, 4, 1, 4);
    const auto d = run_bench<International>(Variant::kInternational, 4, 1, 4);
    CHECK(c.nodes == d.nodes);
}

// ProbCut (on for 10x10) is a pruning: over the International bench positions with fewer than 32
// pieces, where it applies from the root on, the same depth must cost fewer nodes in all with it
// on than with it off (were its condition never met, or its shallow searches never cut, the
// totals would be equal or larger). The early reductions are off for this count: with them, the
// non-PV nodes ProbCut cuts are cheap already, and at depth 7 its own shallow searches cost about
// what its cuts save (325,662 nodes with it against 303,710 without on these positions). Its
// proven results are checked by the exact-distance wins above, which run with it on.
namespace {

// A one-thread search of `p` from an empty table of `hash` MB, with the variant's default tuning
// but the switch `flag` set to `on`.
template <class R>
Result<typename R::Geometry> search_with(const Position<R>& p, bool Tuning::*flag, bool on,
                                         const Limits& limits, std::size_t hash = 4,
                                         const typename Engine<R>::Callbacks& callbacks = {},
                                         Tuning t = Tuning::defaults_for<R>()) {
    Engine<R> engine(hash, 1);
    t.*flag = on;
    engine.set_tuning(t);
    return engine.go(p, {}, limits, callbacks);
}

}  // namespace

TEST_CASE("ProbCut prunes where it applies", "[search][probcut]") {
    Tuning without_early = Tuning::defaults_for<International>();
    without_early.early_reductions = false;
    std::uint64_t on_total = 0, off_total = 0;
    int positions = 0;
    for (const BenchPosition& bp : bench_positions(Variant::kInternational)) {
        const auto p = parse_fen<International>(bp.fen);
        if (popcount(p.occupied()) >= 32) continue;
        ++positions;
        Limits limits;
        limits.depth = 7;
        for (const bool probcut : {false, true})
            (probcut ? on_total : off_total) +=
                search_with(p, &Tuning::probcut, probcut, limits, 4, {}, without_early).nodes;
    }
    CHECK(positions >= 10);
    CHECK(on_total < off_total);
}

// Internal iterative reduction searches a node without a table move one ply shallower: over the
// Russian bench positions the same depth must cost fewer nodes in all with it than without (were
// its condition never met, or the reduced depth not passed on, the totals would be equal, and the
// first iterations of every search meet nodes the table has no move for). The composed tactics
// above run with it on.
TEST_CASE("internal iterative reduction saves nodes at a fixed depth", "[search][iir]") {
    std::uint64_t on_total = 0, off_total = 0;
    for (const BenchPosition& bp : bench_positions(Variant::kRussian)) {
        const auto p = parse_fen<Russian>(bp.fen);
        Limits limits;
        limits.depth = 9;
        for (const bool iir : {false, true})
            (iir ? on_total : off_total) +=
                search_with(p, &Tuning::table_move_reduction, iir, limits).nodes;
    }
    CHECK(on_total < off_total);
}

// The evaluation cache returns the scores the evaluation computes, so with it on or off the same
// search visits the same nodes and ends with the same move and score (a stale or wrong cached
// score would change the tree). Each engine searches every position of the set in turn, so that
// the cache holds scores from earlier searches; with the learned weights, as in play.
template <class R>
void check_eval_cache_changes_nothing(Variant v, int depth) {
    const LearnedWeights* weights = builtin_weights(R::kName);
    REQUIRE(weights);
    Engine<R> on(4, 1), off(4, 1);
    for (Engine<R>* e : {&on, &off}) {
        Tuning t = Tuning::defaults_for<R>();
        t.eval_cache = e == &on;
        e->set_tuning(t);
        e->set_weights(weights);
    }
    int positions = 0;
    for (const BenchPosition& bp : bench_positions(v)) {
        const auto p = parse_fen<R>(bp.fen);
        Limits limits;
        limits.depth = depth;
        on.new_game(), off.new_game();
        const auto a = on.go(p, {}, limits), b = off.go(p, {}, limits);
        CHECK(a.nodes == b.nodes);
        CHECK(a.score == b.score);
        CHECK(a.best == b.best);
        if (++positions == 12) break;
    }
}

TEST_CASE("the evaluation cache changes no node, move or score", "[search][eval]") {
    check_eval_cache_changes_nothing<Russian>(Variant::kRussian, 9);
    check_eval_cache_changes_nothing<International>(Variant::kInternational, 6);
}

// A new evaluation empties the cache: an engine that searched with the hand-made evaluation and
// then takes the learned weights searches as a new engine with those weights does (a cache kept
// across the change would return the hand-made scores of the positions it met before).
TEST_CASE("the evaluation cache is emptied when the evaluation changes", "[search][eval]") {
    const LearnedWeights* weights = builtin_weights(Russian::kName);
    REQUIRE(weights);
    Tuning t = Tuning::defaults_for<Russian>();
    t.eval_cache = true;
    Engine<Russian> reused(4, 1), fresh(4, 1);
    reused.set_tuning(t);
    fresh.set_tuning(t);
    fresh.set_weights(weights);
    Limits limits;
    limits.depth = 9;
    const auto p = Position<Russian>::start();
    reused.go(p, {}, limits);
    reused.set_weights(weights);
    reused.new_game();
    const auto a = reused.go(p, {}, limits), b = fresh.go(p, {}, limits);
    CHECK(a.nodes == b.nodes);
    CHECK(a.score == b.score);
}

TEST_CASE("under a clock a settled search plans less time, an unsettled one more",
          "[search][limits]") {
    // Planned 1000 ms, hard limit 4000 ms. Worked out by hand from the rule in limits.hpp:
    // factor (0.7 + 0.9 changes) (1 + min(fall, 100) / 200), kept within 0.5 and 2.5.
    CHECK(adapted_soft_ms(1000, 4000, 0, 0) == 700);     // the best move stood: 0.7
    CHECK(adapted_soft_ms(1000, 4000, 1, 0) == 1600);    // it changed in the last iteration
    CHECK(adapted_soft_ms(1000, 4000, 1.5, 0) == 2050);  // ... and in the one before
    CHECK(adapted_soft_ms(1000, 4000, 3, 0) == 2500);    // at most 2.5 times the plan
    CHECK(adapted_soft_ms(1000, 2000, 3, 0) == 2000);    // never past the hard limit
    CHECK(adapted_soft_ms(1000, 4000, 0, 50) == 875);    // a fall of half a man: 0.7 * 1.25
    CHECK(adapted_soft_ms(1000, 4000, 0, 100) == 1050);  // of a man: 0.7 * 1.5
    CHECK(adapted_soft_ms(1000, 4000, 0, 400) == 1050);  // a larger fall counts as a man
    CHECK(adapted_soft_ms(1000, 4000, 0, -80) == 700);   // a rise counts as none
}

TEST_CASE("the search keeps to its limits", "[search][limits]") {
    const auto p = Position<Russian>::start();
    Engine<Russian> engine(4, 1);
    // Nodes: the main thread checks at every node.
    Limits by_nodes;
    by_nodes.nodes = 20000;
    const auto r = engine.go(p, {}, by_nodes);
    CHECK(r.has_move);
    CHECK(r.nodes <= 20000 + 2000);
    // Move time.
    Limits by_time;
    by_time.movetime_ms = 100;
    const auto t0 = std::chrono::steady_clock::now();
    engine.go(p, {}, by_time);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    // Infinite until stopped from another thread; each completed iteration is reported.
    Limits forever;
    forever.infinite = true;
    std::atomic<int> reports{0};
    Engine<Russian>::Callbacks cb;
    cb.iteration = [&](const Iteration<Russian::Geometry>& it) {
        ++reports;
        CHECK(!it.pv.empty());
    };
    bool best_reported = false;
    cb.best_move = [&](const Result<Russian::Geometry>& res) { best_reported = res.has_move; };
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        engine.stop();
    });
    const auto inf = engine.go(p, {}, forever, cb);
    stopper.join();
    CHECK(inf.has_move);
    CHECK(reports > 0);
    CHECK(best_reported);
    // A side without a move has lost: no best move, a loss at ply 0.
    const auto lost = engine.go(parse_fen<Russian>("W:W:B1"), {}, by_nodes);
    CHECK_FALSE(lost.has_move);
    CHECK(lost.score == loss_in(0));
}

namespace {

// One Russian tactic's key becomes the best move only in iteration 21, after 929,450 nodes; the
// searches by nodes around it are most of the time of the test below (6 s of the Release build's,
// 34 s of the sanitizer build's). Under the sanitizers, whose run is for memory errors and
// undefined behaviour in the same code, the searches are cut to the fewest that still show what
// the test is about: nodes_to_key stops short of that tactic (kMostNodesToKey: the other
// tactics' keys come within a thousand nodes, and the test lets only one tactic go unanswered),
// and stops_inside stops each search at one point, fifteen sixteenths of the way through the
// iteration, where that tactic's key has been searched to the end (the sixteenths of the
// Release build: kStopSixteenths).
#ifdef __SANITIZE_ADDRESS__
constexpr std::uint64_t kMostNodesToKey = 100'000;
constexpr std::uint64_t kStopSixteenths[] = {15};
#else
constexpr std::uint64_t kMostNodesToKey = 4'000'000;
constexpr std::uint64_t kStopSixteenths[] = {4, 8, 12, 13, 14, 15};
#endif

// The fewest nodes, over limits 16, 20, 25, ... (a quarter more each time) up to kMostNodesToKey,
// at which a one-thread search by nodes (the same nodes every run) answers the tactic's key move;
// 0 if none.
template <class R>
std::uint64_t nodes_to_key(const Tactic& t, bool partial) {
    const auto p = parse_fen<R>(t.fen);
    for (std::uint64_t n = 16; n <= kMostNodesToKey; n += n / 4) {
        Limits limits;
        limits.nodes = n;
        const auto r = search_with(p, &Tuning::partial_iteration, partial, limits, 1);
        if (r.has_move && line_text<R>(p, {r.best}).front() == t.key) return n;
    }
    return 0;
}

// What searches by nodes stopped inside the iteration where the tactic's key move first becomes
// the best move answer, with the switch (`with`) and without it. A search by depth (one thread,
// 1 MB, partial_iteration on: by depth the same as off) reports its iterations up to D, the first
// whose best move is the key, and the searches by nodes stop at points between the end of
// iteration D-1 and the end of D (a search by nodes visits the same nodes as the search by depth
// until it stops): at 4, 8 and 12 sixteenths of the way, and at every sixteenth after that, for
// the key's subtree is searched to the end late in the iteration (kStopSixteenths). Returns false
// when D is the first iteration (or no iteration up to 21 answers the key). (15 evenly spaced
// points, and 31 before them, found the key only in the last eighth; 15 made this the longest of
// the fast tests under the sanitizers.)
struct StopsInside {
    int keys = 0;     // stops that answered the key
    int earlier = 0;  // stops that answered iteration D-1's move
    int other = 0;    // stops that answered neither
};
template <class R>
bool stops_inside(const Tactic& t, StopsInside& with, StopsInside& without) {
    using G = typename R::Geometry;
    const auto p = parse_fen<R>(t.fen);
    std::vector<std::pair<std::string, std::uint64_t>> iterations;  // best move, nodes at the end
    std::atomic<bool> found{false};
    typename Engine<R>::Callbacks cb;
    cb.stop_flag = &found;
    cb.iteration = [&](const Iteration<G>& it) {
        iterations.emplace_back(line_text<R>(p, {it.pv.front()}).front(), it.nodes);
        if (iterations.back().first == t.key) found = true;
    };
    Limits by_depth;
    by_depth.depth = 21;
    search_with(p, &Tuning::partial_iteration, true, by_depth, 1, cb);
    // Not only the last report: the search stopped inside the iteration after D may report that
    // unfinished one too (partial_iteration), answering the key again.
    for (std::size_t d = 1; d < iterations.size(); ++d) {
        if (iterations[d].first != t.key || iterations[d - 1].first == t.key) continue;
        const std::uint64_t from = iterations[d - 1].second, to = iterations[d].second;
        for (const std::uint64_t k : kStopSixteenths)
            for (const bool partial : {true, false}) {
                Limits limits;
                limits.nodes = from + (to - from) * k / 16;
                const auto r = search_with(p, &Tuning::partial_iteration, partial, limits, 1);
                const std::string answer = line_text<R>(p, {r.best}).front();
                StopsInside& out = partial ? with : without;
                (answer == t.key                      ? out.keys
                 : answer == iterations[d - 1].first ? out.earlier
                                                      : out.other)++;
            }
        return true;
    }
    return false;
}

}  // namespace

TEST_CASE("a search stopped inside an iteration plays the move that iteration proved better",
          "[search][limits]") {
    // Tuning::partial_iteration changes only the answer of a search stopped in the middle of an
    // iteration: by depth, every search is the same with it and without it.
    for (const Tactic& t : kRussian) {
        const auto p = parse_fen<Russian>(t.fen);
        Limits limits;
        limits.depth = 9;
        Result<Russian::Geometry> with[2];
        for (const bool partial : {false, true})
            with[partial ? 1 : 0] = search_with(p, &Tuning::partial_iteration, partial, limits, 1);
        CHECK(with[0].best == with[1].best);
        CHECK(with[0].score == with[1].score);
        CHECK(with[0].nodes == with[1].nodes);
    }
    // Stopped by nodes, the search with it answers the only winning move (the composed tactics,
    // analysed by hand above) no later than the search without it: the nodes are the same up to
    // the stop, and at the stop it plays the last finished iteration's move unless the unfinished
    // one searched another to the end and found it better.
    int left_out = 0;  // under the sanitizers: answered by neither within kMostNodesToKey
    const auto compare = [&](std::uint64_t with_it, std::uint64_t without) {
        INFO("nodes with " << with_it << ", without " << without);
        if (kMostNodesToKey < 4'000'000 && with_it == 0 && without == 0 && left_out++ == 0) return;
        CHECK(without > 0);
        CHECK(with_it > 0);
        CHECK(with_it <= without);
    };
    for (const Tactic& t : kRussian)
        compare(nodes_to_key<Russian>(t, true), nodes_to_key<Russian>(t, false));
    for (const Tactic& t : kCzech)
        compare(nodes_to_key<Czech>(t, true), nodes_to_key<Czech>(t, false));
    for (const Tactic& t : kInternational)
        compare(nodes_to_key<International>(t, true), nodes_to_key<International>(t, false));
    // Stopped inside the iteration that first finds the key better: without the switch every stop
    // answers the move of the iteration before; with it each answers that move or, once the key
    // has been searched to the end and raised the root's score, the key, and some stops come
    // after that point.
    int changes = 0;
    StopsInside with, without;
    for (const Tactic& t : kRussian) {
        INFO(t.fen);
        if (stops_inside<Russian>(t, with, without)) ++changes;
    }
    INFO(changes << " tactics whose key becomes the best move after the first iteration; with the "
                 "switch, stops answering the key " << with.keys << ", the move before "
                 << with.earlier);
    CHECK(changes > 0);
    CHECK(without.keys == 0);
    CHECK(without.other == 0);
    CHECK(with.other == 0);
    CHECK(with.keys > 0);
}
