// Self-play matches: the game loop's endings, the opening set, reproducibility and the Elo sums.
#include "play/match.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/notation.hpp"

using namespace dambit;
using namespace dambit::search;
using namespace dambit::play;

namespace {

// A player that plays the given moves in turn (one list per colour) and fails the test if it is
// asked for more.
template <class R>
Player<R> scripted(std::vector<std::string> moves) {
    auto next = std::make_shared<std::size_t>(0);
    return [moves, next](const Position<R>& p, const std::vector<Position<R>>&) {
        if (*next >= moves.size()) throw std::logic_error("script exhausted at " + to_fen<R>(p));
        return parse_move<R>(p, moves[(*next)++]).move;
    };
}

template <class R>
Player<R> never() {
    return [](const Position<R>& p, const std::vector<Position<R>>&) -> Move<typename R::Geometry> {
        throw std::logic_error("asked for a move in " + to_fen<R>(p));
    };
}

template <class R>
Limits depth_limit(int depth) {
    Limits l;
    l.depth = depth;
    return l;
}

}  // namespace

TEST_CASE("a side with no legal move loses before any move is asked for", "[match]") {
    // Russian, Black to move with one man on a7 (square 5). Black men move down: a7's only step
    // is to b6 (9), where a White man stands; taking it needs c5 (14) empty, and another White man
    // stands there. Backwards, a7 could only take over b8 towards a square off the board. Black
    // has no legal move, so it has lost (RULES.md §2) at ply 0: 1-0.
    auto g = play_game<Russian>(parse_fen<Russian>("B:W9,14:B5"), never<Russian>(),
                                never<Russian>(), 200);
    CHECK(g.ending == Ending::kNoMove);
    CHECK(g.winner == Color::kWhite);
    CHECK(g.plies() == 0);
    CHECK(g.result_text() == "1-0");

    // The mirror: a White man on h2 (28) steps only to g3 (24), held by a Black man; the jump
    // would land on f4 (19), also Black. White has lost: 0-1.
    g = play_game<Russian>(parse_fen<Russian>("W:W28:B19,24"), never<Russian>(), never<Russian>(),
                           200);
    CHECK(g.ending == Ending::kNoMove);
    CHECK(g.winner == Color::kBlack);
    CHECK(g.result_text() == "0-1");

    // International: a White man on 46 (a1) steps only to 41 (b2), held by Black; the jump would
    // land on 37 (c3), also Black. 0-1.
    auto gi = play_game<International>(parse_fen<International>("W:W46:B37,41"),
                                       never<International>(), never<International>(), 200);
    CHECK(gi.ending == Ending::kNoMove);
    CHECK(gi.winner == Color::kBlack);
}

TEST_CASE("the third occurrence of a position is a draw", "[match]") {
    // Russian, White king a1 (29), Black king a7 (5). Neither king can ever take the other here:
    // a7 and b8 are edge squares with no square behind them on any line from the White king's
    // squares, and a1/b2 are not on a line from a7 or b8 with an empty square behind. The kings
    // shuffle a1-b2-a1 and a7-b8-a7; the start position (White to move) recurs after plies 4 and
    // 8, its third occurrence (RULES.md §5). The move-count rule for 2 pieces would need 10 plies.
    const auto g = play_game<Russian>(parse_fen<Russian>("W:WK29:BK5"),
                                      scripted<Russian>({"a1-b2", "b2-a1", "a1-b2", "b2-a1"}),
                                      scripted<Russian>({"a7-b8", "b8-a7", "a7-b8", "b8-a7"}), 200);
    CHECK(g.ending == Ending::kRepetition);
    CHECK(!g.winner);
    CHECK(g.plies() == 8);
    CHECK(g.result_text() == "1/2-1/2");
}

TEST_CASE("the move-count rules end a game on their limit", "[match]") {
    // RULES.md §5, Russian: kings on both sides, no change of material, 2-3 pieces: 5 moves (10
    // plies). The White king walks a1-b2-c1-d2-c3-b4, never the same square twice, while the Black
    // king shuffles a7-b8; no position occurs a third time. None of the White king's squares is on
    // a line through a7 (b6..g1) or b8 (c7..h2), so neither side ever has a capture. After the
    // tenth ply the rule declares the draw, before an eleventh move is asked for.
    const std::vector<std::string> white = {"a1-b2", "b2-c1", "c1-d2", "d2-c3", "c3-b4"};
    const std::vector<std::string> black = {"a7-b8", "b8-a7", "a7-b8", "b8-a7", "a7-b8"};
    const auto start = parse_fen<Russian>("W:WK29:BK5");
    auto g = play_game<Russian>(start, scripted<Russian>(white), scripted<Russian>(black), 200);
    CHECK(g.ending == Ending::kDrawRule);
    CHECK(g.plies() == 10);
    CHECK(!g.winner);

    // With a ply limit of 9 the match adjudicates first.
    g = play_game<Russian>(start, scripted<Russian>(white), scripted<Russian>(black), 9);
    CHECK(g.ending == Ending::kMaxPlies);
    CHECK(g.plies() == 9);
    CHECK(!g.winner);
}

TEST_CASE("engines with a king each draw no later than the rules allow", "[match]") {
    // Russian, a lone king each: RULES.md §5 gives 5 moves (10 plies) with 2-3 pieces and kings on
    // both sides. A lone king loses only when every move it has lands on a square the other king
    // attacks (a cornered king can be caught so); here White's king on a1 can go anywhere on the
    // long diagonal but d4 (which the king on a7 attacks with e3 empty behind it), and a depth-4
    // search sees a capture two plies ahead, so neither side walks into one: the game must be
    // drawn by the tenth ply, by repetition or the rule.
    Engine<Russian> a(1), b(1);
    auto g =
        play_pair<Russian>(a, b, parse_fen<Russian>("W:WK29:BK5"), depth_limit<Russian>(4), 200);
    for (const auto& game : g) {
        CHECK(!game.winner);
        CHECK(game.plies() <= 10);
        CHECK((game.ending == Ending::kRepetition || game.ending == Ending::kDrawRule));
    }
    // International, a lone king each, in the open: e5 (28) and f10 (3) share no diagonal. Only
    // the 25-move kings-only rule applies (RULES.md §5): drawn within 50 plies. (Not from a1 with
    // the other king on j10: a king on a1 can only move along the long diagonal, where the king on
    // j10 takes it at once, so that position is lost for the side to move.)
    Engine<International> ia(1), ib(1);
    const auto gi = play_pair<International>(ia, ib, parse_fen<International>("W:WK28:BK3"),
                                             depth_limit<International>(4), 200);
    for (const auto& game : gi) {
        CHECK(!game.winner);
        CHECK(game.plies() <= 50);
        CHECK((game.ending == Ending::kRepetition || game.ending == Ending::kDrawRule));
    }
}

TEST_CASE("node- and depth-limited matches with one thread are reproducible", "[match]") {
    const auto openings = opening_positions<Russian>(2);
    REQUIRE(openings.size() >= 3);
    Limits by_nodes;
    by_nodes.nodes = 3000;
    Tuning no_lmr = Tuning::defaults_for<Russian>();
    no_lmr.late_move_reductions = false;
    for (const Limits& limits : {by_nodes, depth_limit<Russian>(4)}) {
        Engine<Russian> a(1), b(1), fresh_a(1), fresh_b(1);
        b.set_tuning(no_lmr);
        fresh_b.set_tuning(no_lmr);
        for (std::size_t i : {std::size_t(0), std::size_t(2)}) {
            const auto& pos = openings[i].position;
            const auto first = play_pair<Russian>(a, b, pos, limits, 120);
            // The same engines again (new_game must forget everything) and new engines.
            const auto again = play_pair<Russian>(a, b, pos, limits, 120);
            const auto fresh = play_pair<Russian>(fresh_a, fresh_b, pos, limits, 120);
            for (std::size_t g = 0; g < 2; ++g) {
                CHECK(first[g].move_texts == again[g].move_texts);
                CHECK(first[g].move_texts == fresh[g].move_texts);
                CHECK(first[g].result_text() == again[g].result_text());
                CHECK(first[g].ending == fresh[g].ending);
            }
        }
    }
}

TEST_CASE("identical engines play the same game with colours swapped", "[match]") {
    // Both engines start each game afresh and have the same settings, so the engine with White in
    // the second game meets exactly the inputs the other had in the first: the two games are the
    // same, and A scores exactly one point out of two.
    const auto openings = opening_positions<Russian>(2);
    Limits limits;
    limits.nodes = 2000;
    Engine<Russian> a(1), b(1);
    const auto pair = play_pair<Russian>(a, b, openings[1].position, limits, 150);
    CHECK(pair[0].move_texts == pair[1].move_texts);
    CHECK(pair[0].points(Color::kWhite) + pair[1].points(Color::kBlack) == 1.0);
}

TEST_CASE("the opening set is every position two plies from the start", "[match]") {
    // Published perft (perft-reference.md): 7 and 49 in Russian, 9 and 81 in International. Two
    // plies cannot transpose (each side has moved one man once, and no capture is possible), so
    // every line gives its own position.
    CHECK(opening_positions<Russian>(1).size() == 7);
    CHECK(opening_positions<Russian>(2).size() == 49);
    CHECK(opening_positions<Pool>(2).size() == 49);
    CHECK(opening_positions<International>(2).size() == 81);
    const auto o = opening_positions<Russian>(2);
    CHECK(o[0].line.find(' ') != std::string::npos);  // two moves
    CHECK(o[0].position.side == Color::kWhite);
    CHECK(opening_positions<Russian>(0).size() == 1);
}

TEST_CASE("settings text", "[match]") {
    const Tuning base = Tuning::defaults_for<International>();
    CHECK(!base.threat_extension);
    // ProbCut is on for 10x10 only (the README gives the matches that decided it).
    CHECK(base.probcut);
    CHECK(!Tuning::defaults_for<Russian>().probcut);
    Tuning t = parse_tuning("lmr=off,threat=on", base);
    CHECK(!t.late_move_reductions);
    CHECK(t.threat_extension);
    t = parse_tuning("", base);
    CHECK(t.late_move_reductions == base.late_move_reductions);
    // Every key is written, in the order lmr, threat, staged, probcut, offer, lmrlog, rfp,
    // partial, time, iir, ecache, early; the International defaults are lmr on, threat off,
    // staged on, probcut on, offer off, lmrlog on, rfp off, partial on, time on, iir off, ecache
    // on and early on (checked above and here).
    CHECK(!base.no_reduce_offers);
    CHECK(base.log_reductions);
    CHECK(base.partial_iteration);
    CHECK(base.adaptive_time);
    CHECK(!base.table_move_reduction);
    CHECK(Tuning::defaults_for<Russian>().table_move_reduction);
    CHECK(tuning_text(parse_tuning("threat=on,lmrlog=off,rfp=on", base)) ==
          "lmr=on,threat=on,staged=on,probcut=on,offer=off,lmrlog=off,rfp=on,partial=on,time=on,"
          "iir=off,ecache=on,early=on");
    CHECK(!parse_tuning("ecache=off", base).eval_cache);
    CHECK(base.early_reductions);
    CHECK(!Tuning::defaults_for<Russian>().early_reductions);
    CHECK(!parse_tuning("early=off", base).early_reductions);
    CHECK(!parse_tuning("time=off", base).adaptive_time);
    CHECK(parse_tuning("iir=on", base).table_move_reduction);
    CHECK(!parse_tuning("rfp=off", base).static_pruning);
    CHECK(!parse_tuning("partial=off", base).partial_iteration);
    CHECK(parse_tuning("offer=on", base).no_reduce_offers);
    CHECK(!parse_tuning("lmrlog=off", base).log_reductions);
    CHECK(!parse_tuning("staged=off", base).staged_quiet_moves);
    CHECK(!parse_tuning("probcut=off", base).probcut);
    CHECK_THROWS_WITH(parse_tuning("lmr=off,nmp=on", base), Catch::Contains("'nmp=on'"));
    CHECK_THROWS_WITH(parse_tuning("lmr=yes", base), Catch::Contains("'lmr=yes'"));
    CHECK_THROWS_WITH(parse_tuning("lmr", base), Catch::Contains("'lmr'"));
    CHECK_THROWS(parse_tuning("lmr=on,", base));
}

TEST_CASE("score and Elo with the 95% margin", "[match]") {
    // 6 wins, 2 draws, 2 losses: s = 7/10 = 0.7, Elo = -400 log10(1/0.7 - 1) = 400 log10(7/3)
    // = 147.19. Per-game variance (6 * 0.3^2 + 2 * 0.2^2 + 2 * 0.7^2) / 10 = 1.6 / 10 = 0.16,
    // se = 0.4 / sqrt(10) = 0.12649; dElo/ds = 400 / (ln 10 * 0.21) = 827.22;
    // margin = 1.96 * 0.12649 * 827.22 = 205.09.
    auto e = elo_estimate(6, 2, 2);
    CHECK(e.finite);
    CHECK(e.score == Approx(0.7));
    CHECK(e.elo == Approx(147.19).margin(0.01));
    CHECK(e.margin == Approx(205.09).margin(0.02));
    // An even score is 0 Elo; all draws have no spread.
    e = elo_estimate(3, 4, 3);
    CHECK(e.elo == Approx(0).margin(1e-9));
    e = elo_estimate(0, 8, 0);
    CHECK(e.margin == Approx(0).margin(1e-9));
    // A perfect score has no finite estimate.
    CHECK(!elo_estimate(4, 0, 0).finite);
    CHECK(!elo_estimate(0, 0, 4).finite);
}

TEST_CASE("Elo from game pairs (pentanomial)", "[match]") {
    // pairs {1, 2, 4, 2, 1}: 10 pairs, A's score a game in each pair x = 0, .25, .5, .75, 1;
    // s = (0 + 2 * .25 + 4 * .5 + 2 * .75 + 1) / 10 = 0.5, Elo 0; var = (.25 + 2 * .0625 + 0 +
    // 2 * .0625 + .25) / 10 = 0.075, se = sqrt(0.0075) = 0.086603; dD/ds = 400 / (ln 10 * .25)
    // = 694.87; margin = 1.96 * 0.086603 * 694.87 = 117.95.
    auto e = elo_estimate_pairs({1, 2, 4, 2, 1});
    CHECK(e.finite);
    CHECK(e.score == Approx(0.5));
    CHECK(e.elo == Approx(0).margin(1e-9));
    CHECK(e.margin == Approx(117.95).margin(0.01));
    // pairs {0, 1, 3, 4, 2}: s = (.25 + 1.5 + 3 + 2) / 10 = 0.675, Elo = 400 log10(.675 / .325)
    // = 126.97; var = (.180625 + 3 * .030625 + 4 * .005625 + 2 * .105625) / 10 = 0.050625,
    // se = 0.071151, dD/ds = 400 / (ln 10 * .675 * .325) = 791.95, margin = 110.43.
    e = elo_estimate_pairs({0, 1, 3, 4, 2});
    CHECK(e.score == Approx(0.675));
    CHECK(e.elo == Approx(126.97).margin(0.01));
    CHECK(e.margin == Approx(110.43).margin(0.01));
    // Five pairs of 1 point each (a win each way, or two draws): an even score, but no spread
    // seen, so no margin can be given (infinite, not 0: five alike pairs prove nothing); a
    // perfect score and no pair have no finite estimate.
    e = elo_estimate_pairs({0, 0, 5, 0, 0});
    CHECK(e.finite);
    CHECK(e.elo == Approx(0).margin(1e-9));
    CHECK(std::isinf(e.margin));
    CHECK(std::isinf(elo_estimate_pairs({0, 0, 0, 3, 0}).margin));
    CHECK(!elo_estimate_pairs({0, 0, 0, 0, 3}).finite);
    CHECK(!elo_estimate_pairs({}).finite);
}

TEST_CASE("a game in PDN", "[match]") {
    // The blocked position of the first case: no moves, Black has lost.
    const auto g = play_game<Russian>(parse_fen<Russian>("B:W9,14:B5"), never<Russian>(),
                                      never<Russian>(), 200);
    const std::string pdn = pdn_game<Russian>(g, "test", "1.1", "A", "B");
    CHECK(pdn.find("[Event \"test\"]\n") != std::string::npos);
    CHECK(pdn.find("[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n") != std::string::npos);
    CHECK(pdn.find("[GameType \"25\"]\n") != std::string::npos);  // RULES.md §3, last row
    CHECK(pdn.find("[FEN \"B:W9,14:B5\"]\n") != std::string::npos);
    CHECK(pdn.find("1-0\n") != std::string::npos);

    // The repetition game: White first, so numbering starts "1. a1-b2 a7-b8 2. b2-a1".
    const auto r = play_game<Russian>(parse_fen<Russian>("W:WK29:BK5"),
                                      scripted<Russian>({"a1-b2", "b2-a1", "a1-b2", "b2-a1"}),
                                      scripted<Russian>({"a7-b8", "b8-a7", "a7-b8", "b8-a7"}), 200);
    const std::string rp = pdn_game<Russian>(r, "test", "1.2", "B", "A");
    CHECK(rp.find("\n1. a1-b2 a7-b8 2. b2-a1 b8-a7 3.") != std::string::npos);
    CHECK(rp.find("1/2-1/2\n") != std::string::npos);
}

TEST_CASE("a game in PDN writes captures short when that names one move", "[match]") {
    // White's man on c3 takes d4, then f6 (to g7) or d6 (to c7): "c3:g7" names one capture.
    const auto g = play_game<Russian>(parse_fen<Russian>("W:W22:B10,11,18"),
                                      scripted<Russian>({"c3:e5:g7"}), scripted<Russian>({}), 1);
    REQUIRE(g.plies() == 1);
    const std::string pdn = pdn_game<Russian>(g, "test", "1", "A", "B");
    CHECK(pdn.find("\n1. c3:g7 {") != std::string::npos);
    CHECK(pdn.find("e5") == std::string::npos);
}
