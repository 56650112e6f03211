// Matches against other programs: forfeits and clocks in the game loop, the sequential test, the
// compiled-in opening ballots.
#include <catch2/catch.hpp>
#include <chrono>
#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/notation.hpp"
#include "play/ballots.hpp"
#include "play/contest.hpp"
#include "play/match.hpp"
#include "play/sprt.hpp"

using namespace dambit;
using namespace dambit::play;

namespace {

// Plays the given moves in turn, then fails the test if asked for more.
template <class R>
TimedPlayer<R> scripted(std::vector<std::string> moves) {
    auto next = std::make_shared<std::size_t>(0);
    return [moves, next](const Position<R>& p, const std::vector<Position<R>>&, const Turn<R>&) {
        if (*next >= moves.size()) throw std::logic_error("script exhausted at " + to_fen<R>(p));
        return parse_move<R>(p, moves[(*next)++]).move;
    };
}

// A contestant that fails in its first `failures` games (PlayerFailure at its first move) and
// then plays the first legal move.
class Flaky final : public Contestant<Russian> {
public:
    explicit Flaky(int failures) : failures_(failures) {}
    void start_game(const Position<Russian>&, Color, const TimeControl&) override { ++games_; }
    Move<Russian::Geometry> move(const Position<Russian>& p, const std::vector<Position<Russian>>&,
                                 const Turn<Russian>&) override {
        if (games_ <= failures_) throw PlayerFailure("the engine exited with status 3");
        FixedList<PathMove<Russian::Geometry>, kMaxMoves> list;
        generate_paths<Russian>(p, list);
        return list[0].move;
    }
    void end_game(const Game<Russian>& g, Color) override { endings.push_back(g.ending); }
    std::vector<Ending> endings;

private:
    int failures_;
    int games_ = 0;
};

}  // namespace

TEST_CASE("an illegal move forfeits the game to the other side", "[match]") {
    // Russian start. White plays c3-d4 legally; Black answers with a White move, e3-f4: a move
    // that is not Black's is illegal, so Black forfeits after one ply and White wins 1-0.
    const auto start = Position<Russian>::start();
    const auto white_move = parse_move<Russian>(start, "e3-f4").move;  // legal for White only
    const TimedPlayer<Russian> black = [&](const Position<Russian>&,
                                           const std::vector<Position<Russian>>&,
                                           const Turn<Russian>&) { return white_move; };
    const auto g =
        play_timed_game<Russian>(start, scripted<Russian>({"c3-d4"}), black, GameRules{200, {}});
    CHECK(g.ending == Ending::kForfeit);
    CHECK(g.winner == Color::kWhite);
    CHECK(g.plies() == 1);
    CHECK(g.result_text() == "1-0");
    CHECK(g.ending_text() == "forfeit by Black: illegal move from e3 to f4");
    const std::string pdn = pdn_game<Russian>(g, "e", "1", "w", "b");
    CHECK(pdn.find("{forfeit by Black: illegal move from e3 to f4} 1-0") != std::string::npos);
}

TEST_CASE("a player's failure forfeits the game and the pair goes on", "[match]") {
    // B fails in its first game (White to move at the start: B is Black in game 1 and fails on
    // its first move, after A's first move). Game 2 is played normally to its end.
    Flaky a(0), b(1);
    const auto pair = play_contest_pair<Russian>(a, b, Position<Russian>::start(), GameRules{40, {}});
    CHECK(pair[0].ending == Ending::kForfeit);
    CHECK(pair[0].winner == Color::kWhite);  // A had White
    CHECK(pair[0].plies() == 1);
    CHECK(pair[0].reason == "the engine exited with status 3");
    CHECK(pair[0].ending_text() == "forfeit by Black: the engine exited with status 3");
    CHECK(pair[1].ending != Ending::kForfeit);
    CHECK(pair[1].plies() > 0);
    // Both sides were told how each game ended.
    CHECK(a.endings.size() == 2);
    CHECK(b.endings == std::vector<Ending>{Ending::kForfeit, pair[1].ending});
}

TEST_CASE("clocks: a side over its time loses on time", "[match]") {
    // 20 ms on the clock, no increment; Black answers after 60 ms: its clock falls to about -40.
    const auto start = Position<Russian>::start();
    auto slow = [](const Position<Russian>& p, const std::vector<Position<Russian>>&,
                   const Turn<Russian>& turn) {
        CHECK(turn.clocked);
        CHECK(turn.clock_ms == 20);
        CHECK(turn.wait_ms == 20 + 0 + 1000);  // clock + increment + grace
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        FixedList<PathMove<Russian::Geometry>, kMaxMoves> list;
        generate_paths<Russian>(p, list);
        return list[0].move;
    };
    TimeControl tc;
    tc.base_ms = 20;
    auto g = play_timed_game<Russian>(start, scripted<Russian>({"c3-d4"}), slow, GameRules{200, tc});
    CHECK(g.ending == Ending::kForfeit);
    CHECK(g.winner == Color::kWhite);
    CHECK(g.reason == "time");
    // The move that lost on time is no move played, but Black spent its 60 ms on it.
    CHECK(g.move_ms.size() == 1);
    REQUIRE(g.failed_ms.has_value());
    CHECK(*g.failed_ms >= 60);

    // A move time of 5 ms and a grace of 10 ms: an answer after 60 ms is past the wait.
    TimeControl mt;
    mt.movetime_ms = 5;
    mt.grace_ms = 10;
    auto slow_any = [](const Position<Russian>& p, const std::vector<Position<Russian>>&,
                       const Turn<Russian>& turn) {
        CHECK(turn.wait_ms == 15);
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        FixedList<PathMove<Russian::Geometry>, kMaxMoves> list;
        generate_paths<Russian>(p, list);
        return list[0].move;
    };
    g = play_timed_game<Russian>(start, slow_any, slow_any, GameRules{200, mt});
    CHECK(g.ending == Ending::kForfeit);
    CHECK(g.winner == Color::kBlack);
    CHECK(g.reason == "no answer within 15 ms");
    // The answer that came too late is no move played, but White spent its 60 ms on it.
    CHECK(g.move_ms.empty());
    REQUIRE(g.failed_ms.has_value());
    CHECK(*g.failed_ms >= 60);
}

TEST_CASE("each move played is timed; an illegal answer is not a move played", "[match]") {
    // White answers at once, Black after 100 ms; the game is cut at 4 plies. Then, in a second
    // game, Black's third answer is illegal: a forfeit whose answer is not a move played.
    const auto start = Position<Russian>::start();
    auto first_move = [](const Position<Russian>& p) {
        FixedList<PathMove<Russian::Geometry>, kMaxMoves> list;
        generate_paths<Russian>(p, list);
        return list[0].move;
    };
    auto quick = [&](const Position<Russian>& p, const std::vector<Position<Russian>>&,
                     const Turn<Russian>&) { return first_move(p); };
    int answers = 0;
    auto slow = [&](const Position<Russian>& p, const std::vector<Position<Russian>>&,
                    const Turn<Russian>&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (++answers == 3) return Move<Russian::Geometry>{};  // not a legal move
        return first_move(p);
    };
    auto g = play_timed_game<Russian>(start, quick, slow, GameRules{4, {}});
    CHECK(g.ending == Ending::kMaxPlies);
    REQUIRE(g.move_ms.size() == 4);
    CHECK(g.move_ms[1] >= 100);  // Black's moves: the plies 1 and 3 from a White start
    CHECK(g.move_ms[3] >= 100);
    CHECK(g.move_ms[0] < 100);
    CHECK(g.move_ms[2] < 100);
    answers = 0;
    g = play_timed_game<Russian>(start, quick, slow, GameRules{200, {}});
    CHECK(g.ending == Ending::kForfeit);
    CHECK(g.plies() == 5);  // White's third move, then Black's illegal answer
    CHECK(g.move_ms.size() == 5);
    // ... but Black spent its 100 ms on it (the side's times left the move that lost out).
    REQUIRE(g.failed_ms.has_value());
    CHECK(*g.failed_ms >= 100);
    // A game played to its end has no such request.
    CHECK(!play_timed_game<Russian>(start, quick, slow, GameRules{4, {}}).failed_ms);
}

TEST_CASE("SPRT: the log-likelihood ratio of a hand-worked example", "[match]") {
    // 6 wins, 2 draws, 2 losses: N = 10, points X = 6 + 1 = 7, mean m = 0.7,
    //   var = (6 (0.3)^2 + 2 (0.2)^2 + 2 (0.7)^2) / 10 = (0.54 + 0.08 + 0.98) / 10 = 0.16.
    // elo0 = 0 gives s0 = 1/2. elo1 = 400 log10(3) gives 10^(-elo1/400) = 1/3, s1 = 1/(4/3) = 0.75.
    //   LLR = (s1 - s0) (2 X - N (s0 + s1)) / (2 var) = 0.25 (14 - 12.5) / 0.32 = 0.375 / 0.32
    //       = 1.171875.
    const double elo1 = 400 * std::log10(3.0);
    CHECK(logistic_score(elo1) == Approx(0.75));
    CHECK(sprt_llr(6, 2, 2, 0, elo1) == Approx(1.171875));
    // The mirror, 2 wins, 2 draws, 6 losses: X = 3, var again 0.16,
    //   LLR = 0.25 (6 - 12.5) / 0.32 = -5.078125.
    CHECK(sprt_llr(2, 2, 6, 0, elo1) == Approx(-5.078125));
    // No games, or no spread: no evidence.
    CHECK(sprt_llr(0, 0, 0, 0, 5) == 0);
    CHECK(sprt_llr(0, 7, 0, 0, 5) == 0);

    // Bounds for alpha = beta = 0.05: ln(0.05 / 0.95) = -ln 19 = -2.944..., ln(0.95 / 0.05) = ln 19.
    const SprtParams p = parse_sprt("elo0=0 elo1=5 alpha=0.05 beta=0.05");
    CHECK(p.lower() == Approx(-2.944439));
    CHECK(p.upper() == Approx(2.944439));
    CHECK(sprt_decision(1.171875, p) == SprtDecision::kNone);
    CHECK(sprt_decision(-5.078125, p) == SprtDecision::kH0);
    CHECK(sprt_decision(3.0, p) == SprtDecision::kH1);

    CHECK_THROWS_WITH(parse_sprt("elo0=x elo1=5"), Catch::Contains("'elo0=x'"));
    CHECK_THROWS_WITH(parse_sprt("elo0=0 gamma=1"), Catch::Contains("'gamma=1'"));
    CHECK_THROWS_WITH(parse_sprt("elo0=0"), Catch::Contains("elo1"));
    CHECK_THROWS_WITH(parse_sprt("elo0=5 elo1=0"), Catch::Contains("above"));
    CHECK_THROWS_WITH(parse_sprt("elo0=0 elo1=5 elo1=6"), Catch::Contains("'elo1' given twice"));
    CHECK_THROWS_WITH(parse_sprt("alpha=0.1,elo0=0,elo1=5,alpha=0.2"),
                      Catch::Contains("'alpha' given twice"));
}

TEST_CASE("SPRT: the pentanomial ratio of a hand-worked example", "[match]") {
    // 8 pairs: A scored 0 points in none, 1/2 in one (LD), 1 in two (DD), 3/2 in four (WD), 2
    // in one (WW). Per game the pairs score x = 0, 1/4, 1/2, 3/4, 1: total X = 1/4 + 2/2 + 4 3/4
    // + 1 = 5.25, mean m = 5.25 / 8 = 0.65625,
    //   var = (1 (0.40625)^2 + 2 (0.15625)^2 + 4 (0.09375)^2 + 1 (0.34375)^2) / 8
    //       = (0.1650390625 + 0.048828125 + 0.03515625 + 0.1181640625) / 8 = 0.3671875 / 8
    //       = 0.0458984375 (= 47/1024).
    // elo0 = 0, elo1 = 400 log10(3): s0 = 1/2, s1 = 3/4,
    //   LLR = (s1 - s0) (2 X - P (s0 + s1)) / (2 var) = 0.25 (10.5 - 10) / (47/512) = 64/47.
    const double elo1 = 400 * std::log10(3.0);
    CHECK(sprt_llr_pairs({0, 1, 2, 4, 1}, 0, elo1) == Approx(64.0 / 47.0));
    // The same 16 games one by one: W = 4 + 2 = 6, D = 1 + 4 + 4 = 9, L = 1; X = 10.5, m the same,
    //   var = (6 (0.34375)^2 + 9 (0.15625)^2 + 1 (0.65625)^2) / 16 = 1.359375 / 16 = 87/1024,
    //   LLR = 0.25 (21 - 20) / (87/512) = 128/87: the trinomial ratio counts the pairs' games as
    //   independent.
    CHECK(sprt_llr(6, 9, 1, 0, elo1) == Approx(128.0 / 87.0));
    // Every pair alike (a win and a draw in each: no spread between pairs, though the games
    // differ): no evidence, where the trinomial ratio sees some.
    CHECK(sprt_llr_pairs({0, 0, 0, 5, 0}, 0, elo1) == 0);
    CHECK(sprt_llr(5, 5, 0, 0, elo1) > 0);
    CHECK(sprt_llr_pairs({0, 0, 0, 0, 0}, 0, 5) == 0);

    CHECK(parse_sprt("elo0=0 elo1=5").model == SprtParams::Model::kPentanomial);
    CHECK(parse_sprt("elo0=0 elo1=5 model=trinomial").model == SprtParams::Model::kTrinomial);
    CHECK(parse_sprt("model=pentanomial,elo0=0,elo1=5").model ==
          SprtParams::Model::kPentanomial);
    CHECK_THROWS_WITH(parse_sprt("elo0=0 elo1=5 model=bayes"), Catch::Contains("'model=bayes'"));
    CHECK_THROWS_WITH(parse_sprt("elo0=0 elo1=5 model=trinomial model=trinomial"),
                      Catch::Contains("'model' given twice"));
}

TEST_CASE("the compiled-in Russian ballots", "[match]") {
    const auto text = ballot_text("russian");
    REQUIRE(text);
    // pydraughts's russian.json (commit 3277325) has 745 openings; parse_openings checks that
    // every FEN parses and that its side to move has a legal move.
    const auto openings = parse_openings<Russian>(*text, "russian");
    CHECK(openings.size() == 745);
    CHECK(text->find("Copyright (c) 2021-2024 Ioannis Pantidis") != std::string_view::npos);
    CHECK(text->find("commit 3277325") != std::string_view::npos);

    // The first ballot, "I-1: ab4": the man on column a moves to b4. Of White's men at the start
    // (a1 c1 e1 g1, b2 d2 f2 h2, a3 c3 e3 g3) only a3 is on column a next to b4, so the move is
    // a3-b4, and Black is to move with his twelve men untouched (b6 d6 f6 h6, a7 c7 e7 g7,
    // b8 d8 f8 h8).
    REQUIRE(!openings.empty());
    CHECK(openings[0].line == "I-1: ab4");
    const auto by_hand = parse_fen<Russian>(
        "B:Wa1,c1,e1,g1,b2,d2,f2,h2,b4,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8");
    CHECK(openings[0].position == by_hand);
    const auto start = Position<Russian>::start();
    CHECK(openings[0].position == start.play(parse_move<Russian>(start, "a3-b4").move));

    const auto brazilian = ballot_text("brazilian");
    REQUIRE(brazilian);
    CHECK(parse_openings<Brazilian>(*brazilian, "brazilian").size() == 736);
    CHECK(!ballot_text("english"));
}

TEST_CASE("the compiled-in three-move ballots", "[match]") {
    const auto text = ballot_text("russian-3move");
    REQUIRE(text);
    // pydraughts's 150russian_and_brazilian.json: 15 groups of 10.
    const auto openings = parse_openings<Russian>(*text, "russian-3move");
    REQUIRE(openings.size() == 150);
    CHECK(parse_openings<Brazilian>(*text, "russian-3move").size() == 150);
    // "1-I cd4 ba5 dc5" played by hand: c3-d4, b6-a5, d4-c5; Black to move.
    CHECK(openings[0].line == "1-I cd4 ba5 dc5");
    Position<Russian> p = Position<Russian>::start();
    for (const char* m : {"c3-d4", "b6-a5", "d4-c5"}) p = p.play(parse_move<Russian>(p, m).move);
    CHECK(openings[0].position == p);
    // Three plies from White's first: Black's move of move 2 comes next (the PDN of a match
    // numbers it 2..., its FEN tag ends :F2).
    CHECK(openings[0].first_number == 2);
    CHECK(plies_named<Russian>("1-I cd4 ba5 dc5", p) == 3);
    CHECK(plies_named<Russian>("c3-d4 b6-a5 d4-c5", p) == 3);
    CHECK(!plies_named<Russian>("1-I cd4 ba5", p));  // two plies lead elsewhere
    CHECK(!plies_named<Russian>("II-1: a1-a5", p));  // a relocated piece: no moves
    // One ply ("I-1: ab4", Black to move at move 1) and none (the start: move 1).
    const auto ab4 = Position<Russian>::start().play(
        parse_move<Russian>(Position<Russian>::start(), "a3-b4").move);
    CHECK(plies_named<Russian>("I-1: ab4", ab4) == 1);
    CHECK(plies_named<Russian>("free", Position<Russian>::start()) == 0);
    // A FEN's own F field wins over the name.
    const auto f9 = parse_openings<Russian>("x c3-d4\tW:W21-32:B1-12:F9\n", "t");
    REQUIRE(f9.size() == 1);
    CHECK(f9[0].first_number == 9);
    // An explicit F1 wins too: the name's three moves lead to this position (move 2), but the
    // FEN says 1.
    const auto f1 = parse_openings<Russian>(
        "1-I cd4 ba5 dc5\tB:W14,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13:F1\n", "t");
    REQUIRE(f1.size() == 1);
    CHECK(f1[0].first_number == 1);
    CHECK(ballots_fit("russian-3move", "russian"));
    CHECK(ballots_fit("russian-3move", "brazilian"));
    CHECK(!ballots_fit("russian-3move", "czech"));
    CHECK(ballots_fit("russian", "russian"));
    CHECK(!ballots_fit("russian", "brazilian"));
}

TEST_CASE("the compiled-in English three-move deck", "[match]") {
    const auto text = ballot_text("english-3move");
    REQUIRE(text);
    const auto openings = parse_openings<English>(*text, "english-3move");
    // The ACF deck (156 openings: usacheckers.com, "The 156-Opening Three-Move Deck"): the 174
    // three-move openings less the 18 barred ones, which CheckerBoard's table of the 174 ACF
    // openings (utility.c, marked OP_BARRED) numbers 3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94,
    // 109, 114, 137, 145, 156, 168 and 171.
    REQUIRE(openings.size() == 156);
    const std::set<int> barred = {3,  13, 26, 35,  44,  45,  48,  52,  77,
                                  88, 94, 109, 114, 137, 145, 156, 168, 171};
    std::set<int> numbers;
    for (const auto& o : openings) {
        // A name is "NNN a-b c-d e-f": the ACF number and the three moves from the start
        // position, Black first; a capture is written with '-' there and 'x' in dambit.
        std::istringstream in(o.line);
        int number = 0;
        in >> number;
        numbers.insert(number);
        Position<English> p = Position<English>::start();
        std::string m;
        int plies = 0;
        while (in >> m) {
            std::string capture = m;
            std::replace(capture.begin(), capture.end(), '-', 'x');
            FixedList<PathMove<English::Geometry>, kMaxMoves> legal;
            generate_paths<English>(p, legal);
            const bool captures = !legal.empty() && legal[0].move.is_capture();
            p = p.play(parse_move<English>(p, captures ? capture : m).move);
            ++plies;
        }
        CHECK(plies == 3);
        INFO(o.line);
        CHECK(o.position == p);
        CHECK(o.position.side == Color::kWhite);
    }
    CHECK(numbers.size() == 156);
    for (int n = 1; n <= 174; ++n) CHECK(numbers.count(n) == !barred.count(n));
    // ACF 1, "9-13 21-17 5-9", by hand: Black's men 1-12 less 5 and 9, plus 9 and 13 (the man
    // from 9 went to 13, the one from 5 to 9); White's 21-32 with 21 on 17. White to move.
    CHECK(openings[0].position ==
          parse_fen<English>("W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,6,7,8,9,10,11,12,13"));
    CHECK(ballots_fit("english-3move", "english"));
    CHECK(!ballots_fit("english-3move", "pool"));
    CHECK(!ballots_fit("russian-3move", "english"));
}

TEST_CASE("an openings file: comments, and errors naming the line", "[match]") {
    const auto ok = parse_openings<Russian>(
        "# a comment\n\nstart\tW:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\n",
        "f");
    REQUIRE(ok.size() == 1);
    CHECK(ok[0].position == Position<Russian>::start());
    CHECK_THROWS_WITH(parse_openings<Russian>("x W:Wa1:Bh8\n", "f"), Catch::Contains("f line 1"));
    CHECK_THROWS_WITH(parse_openings<Russian>("#\nbad\tW:Wz9\n", "f"),
                      Catch::Contains("f line 2 (bad)") && Catch::Contains("z9"));
    // White's man on a1 is blocked by b2, and the jump over b2 would land on c3, also taken: no
    // legal move.
    CHECK_THROWS_WITH(parse_openings<Russian>("lost\tW:Wa1:Bb2,c3\n", "f"),
                      Catch::Contains("no legal move"));
}
