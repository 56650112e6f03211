// FEN reading and writing and move text (RULES.md §1): accepted forms, round trips, errors.
//
// Square numbers below follow the table of RULES.md §1 (8x8: 1 = b8, 4 = h8, 12 = h6, 21 = a3,
// 29 = a1, 32 = g1; 10x10: 1 = b10, 46 = a1, 50 = i1). Move lists are hand-analysed in comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "move_list_helpers.hpp"

using namespace dambit;
using dambit::test::move_texts;
using Catch::Matchers::Contains;

namespace {

// Runs `f`, which must throw ParseError; its message must contain every string of `parts`.
template <class F>
void check_error(F&& f, std::vector<std::string> parts) {
    try {
        f();
        FAIL_CHECK("no ParseError thrown");
    } catch (const ParseError& e) {
        const std::string what = e.what();
        for (const auto& part : parts) CHECK_THAT(what, Contains(part));
    }
}

template <class R>
void check_fen_error(const char* fen, std::vector<std::string> parts) {
    INFO("FEN '" << fen << "' (" << R::kName << ")");
    check_error([&] { (void)parse_fen<R>(fen); }, std::move(parts));
}

template <class R>
void check_move_error(const char* fen, const char* move, std::vector<std::string> parts) {
    INFO("FEN " << fen << ", move '" << move << "'");
    const auto p = parse_fen<R>(fen);
    check_error([&] { (void)parse_move<R>(p, move); }, std::move(parts));
}

template <class R>
void check_round_trip(const char* fen) {
    INFO("FEN " << fen << " (" << R::kName << ")");
    const auto p = parse_fen<R>(fen);
    const std::string written = to_fen<R>(p);
    INFO("written " << written);
    const auto q = parse_fen<R>(written);
    CHECK(q == p);
    CHECK(to_fen<R>(q) == written);
}

template <class R>
typename R::Geometry::Bitboard squares(std::initializer_list<int> ns) {
    typename R::Geometry::Bitboard m = 0;
    for (int n : ns) m |= R::Geometry::mask_of_square(n);
    return m;
}

// Long text of the move that `text` names.
template <class R, Duplicates D = Duplicates::kDrop>
std::string read_move(const char* fen, const char* text) {
    return move_text<R>(parse_move<R, D>(parse_fen<R>(fen), text));
}

}  // namespace

TEST_CASE("FEN squares: numeric and algebraic name the same squares", "[notation][fen]") {
    using G = Board8;
    // Corners and edges of the table in RULES.md §1.
    CHECK(parse_fen<Russian>("W:Wa1:B").white() == G::mask_of_square(29));
    CHECK(parse_fen<Russian>("W:Wg1:B").white() == G::mask_of_square(32));
    CHECK(parse_fen<Russian>("W:Wh2:B").white() == G::mask_of_square(28));
    CHECK(parse_fen<Russian>("W:W:Bb8").black() == G::mask_of_square(1));
    CHECK(parse_fen<Russian>("W:W:Ba7").black() == G::mask_of_square(5));
    const auto k = parse_fen<Russian>("W:WKh8:B");
    CHECK(k.white() == G::mask_of_square(4));
    CHECK(k.kings == G::mask_of_square(4));
    // RULES.md §6: h6 = 12, g7 = 8, c5 = 14, d2 = 26.
    CHECK(parse_fen<Russian>("W:Wh6:Bg7,c5,d2") == parse_fen<Russian>("W:W12:B8,14,26"));
    // Numeric and algebraic mixed in one list.
    CHECK(parse_fen<Russian>("W:Wa3,22,e3:B") == parse_fen<Russian>("W:W21,22,23:B"));
    // 10x10 corners: 46 = a1 and 5 = j10.
    using G10 = Board10;
    CHECK(G10::coord_of_square(46).file == 0);
    CHECK(G10::coord_of_square(46).rank == 0);
    CHECK(G10::coord_of_square(5).file == 9);
    CHECK(G10::coord_of_square(5).rank == 9);
}

TEST_CASE("FEN: every accepted form of RULES.md §1", "[notation][fen]") {
    const auto start = Position<Russian>::start();
    SECTION("ranges") {
        CHECK(parse_fen<Russian>("W:W21-32:B1-12") == start);
        CHECK(parse_fen<Russian>("W:W21-24,25,26-32:B1-12") == start);
        CHECK(parse_fen<International>("W:W31-50:B1-20") == Position<International>::start());
        // English: Black (on 1..12) moves first.
        CHECK(parse_fen<English>("B:W21-32:B1-12") == Position<English>::start());
        // A range may be a single square.
        CHECK(parse_fen<Russian>("W:W21-21:B") == parse_fen<Russian>("W:W21:B"));
    }
    SECTION("the full list written out") {
        CHECK(parse_fen<Russian>("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,"
                                 "11,12") == start);
    }
    SECTION("kings") {
        const auto p = parse_fen<Russian>("W:WK1,K2,21:BK30,9");
        CHECK(p.white() == squares<Russian>({1, 2, 21}));
        CHECK(p.black() == squares<Russian>({30, 9}));
        CHECK(p.kings == squares<Russian>({1, 2, 30}));
        CHECK(parse_fen<Russian>("W:WKh8:BKa1") == parse_fen<Russian>("W:WK4:BK29"));
        const auto q = parse_fen<International>("B:WK3,28:BK48,17");
        CHECK(q.side == Color::kBlack);
        CHECK(q.kings == squares<International>({3, 48}));
    }
    SECTION("side to move") {
        CHECK(parse_fen<Russian>("W:W21-32:B1-12").side == Color::kWhite);
        CHECK(parse_fen<Russian>("B:W21-32:B1-12").side == Color::kBlack);
    }
    SECTION("either colour's list first") {
        CHECK(parse_fen<Russian>("W:B1-12:W21-32") == start);
        CHECK(parse_fen<Russian>("B:BKc3:WKh8,a3") == parse_fen<Russian>("B:WKh8,a3:BKc3"));
    }
    SECTION("an empty list for one side") {
        const auto p = parse_fen<Russian>("W:W28:B");
        CHECK(p.white() == squares<Russian>({28}));
        CHECK(p.black() == 0);
        CHECK(parse_fen<Russian>("W:B:W28") == p);
        const auto q = parse_fen<Russian>("B:W:B1,2");
        CHECK(q.white() == 0);
        CHECK(q.black() == squares<Russian>({1, 2}));
    }
    SECTION("move counters") {
        CHECK(parse_fen<Russian>("W:W21-32:B1-12:H0:F1") == start);
        CHECK(parse_fen<Russian>("W:W21-32:B1-12:H12:F37") == start);
        // H, the plies since the last capture or man move, is the draw rules' kings-only counter.
        CHECK(fen_halfmove_clock("W:W21-32:B1-12:H12:F37") == 12);
        CHECK(fen_halfmove_clock("W:W21-32:B1-12:F37") == 0);
        CHECK(fen_halfmove_clock("[FEN \"B:WK4:BK20:H30\"]") == 30);
        // Held far above every rule's limit (50 plies) and far below the 16 bits the counters of
        // a line count in, so that a king move after H65535 does not wrap to 0 (undrawn).
        CHECK(fen_halfmove_clock("W:WK4:BK20:H65535") == 1000);
        CHECK(fen_halfmove_clock("W:WK4:BK20:H1234567890") == 1000);
        CHECK(fen_move_number("W:WK4:BK20:F1234567890") == 1);
    }
    SECTION("PDN tag wrapper") {
        CHECK(parse_fen<Russian>("[FEN \"W:W21-32:B1-12\"]") == start);
        CHECK(parse_fen<Russian>("[FEN  \"W:W21-32:B1-12:H0:F1\" ]") == start);
        CHECK(parse_fen<International>("[FEN \"W:W31-50:B1-20\"]") ==
              Position<International>::start());
    }
    SECTION("surrounding whitespace") {
        CHECK(parse_fen<Russian>("  W:W21-32:B1-12\n") == start);
        CHECK(parse_fen<Russian>("\tW:W21-32:B1-12  \r\n") == start);
        CHECK(parse_fen<Russian>(" [FEN \"W:W21-32:B1-12\"] \n") == start);
    }
}

TEST_CASE("FEN writer: numeric squares, White first, kings marked", "[notation][fen]") {
    CHECK(to_fen<Russian>(Position<Russian>::start()) ==
          "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    CHECK(to_fen<Russian>(parse_fen<Russian>("W:Wh6:Bg7,c5,d2")) == "W:W12:B8,14,26");
    // h8 = 4, a3 = 21, c3 = 22; Black's list given first, written second.
    CHECK(to_fen<Russian>(parse_fen<Russian>("B:BKc3:WKh8,a3")) == "B:WK4,21:BK22");
    CHECK(to_fen<Russian>(parse_fen<Russian>("W:W28:B")) == "W:W28:B");
    CHECK(to_fen<Russian>(parse_fen<Russian>("B:W:B2,1")) == "B:W:B1,2");
    CHECK(to_fen<International>(parse_fen<International>("W:W46-50:BK1")) ==
          "W:W46,47,48,49,50:BK1");
}

TEST_CASE("FEN round trips", "[notation][fen]") {
    for (const char* fen : {"W:W21-32:B1-12", "B:W21-32:B1-12", "B:WK4,22:B9,K29", "W:W28:B",
                            "B:W:B1,2", "W:WKh8,Ka1,c3:BKd4,e5", "W:Wh6:Bg7,c5,d2",
                            "B:BK32,K5:WK1,K28", "W:W:B", "[FEN \"B:W18,K26:B10\"]"})
        check_round_trip<Russian>(fen);
    for (const char* fen : {"W:W31-50:B1-20", "B:WK3,28,33:BK48,17,22", "W:W:BK50",
                            "B:W45:B", "W:WK1-5:BK46-50"})
        check_round_trip<International>(fen);
    check_round_trip<English>("B:W21-32:B1-12");
    check_round_trip<Czech>("W:WK2,17:B13,K30");
}

TEST_CASE("FEN errors name the offending token", "[notation][fen]") {
    SECTION("unknown squares") {
        check_fen_error<Russian>("W:W0:B1", {"unknown square", "'0'"});
        check_fen_error<Russian>("W:W21:B33", {"unknown square", "'33'"});
        check_fen_error<International>("W:W51:B1", {"unknown square", "'51'"});
        check_fen_error<International>("W:W31:B0", {"unknown square", "'0'"});
        check_fen_error<Russian>("W:Wz9:B1", {"unknown square", "'z9'"});
        check_fen_error<Russian>("W:Wi1:B1", {"unknown square", "'i1'"});
        // a2 is a light square (a1 is dark).
        check_fen_error<Russian>("W:Wa2:B1", {"unknown square", "'a2'"});
        check_fen_error<Russian>("W:W21:Bh7", {"unknown square", "'h7'"});
        // Algebraic squares are for 8x8 only.
        check_fen_error<International>("W:Wa1:B1", {"unknown square", "'a1'"});
        check_fen_error<Russian>("W:W21:Bx", {"unknown square", "'x'"});
    }
    SECTION("a man on the row where it would promote") {
        // White promotes on 1..4 (rank 8), Black on 29..32 (rank 1); 1..5 and 46..50 on 10x10.
        check_fen_error<Russian>("W:W3:B20", {"promotion row", "'3'"});
        check_fen_error<Russian>("W:Wd8:B20", {"promotion row", "'d8'"});
        check_fen_error<Russian>("W:W20:B30", {"promotion row", "'30'"});
        check_fen_error<Russian>("W:W20:Bg1", {"promotion row", "'g1'"});
        check_fen_error<Russian>("W:W1-4:B20", {"promotion row", "'1-4'"});
        check_fen_error<International>("W:W5:B20", {"promotion row", "'5'"});
        check_fen_error<International>("W:W30:B46", {"promotion row", "'46'"});
        // Kings may stand there.
        CHECK_NOTHROW(parse_fen<Russian>("W:WK3:BK30"));
    }
    SECTION("a square listed twice") {
        check_fen_error<Russian>("W:W21,21:B1", {"twice", "'21'"});
        check_fen_error<Russian>("W:W21:B21", {"twice", "'21'"});
        check_fen_error<Russian>("W:W21-25,23:B1", {"twice", "'23'"});
        // a3 is 21: the same square under two names.
        check_fen_error<Russian>("W:Wa3,21:B1", {"twice", "'21'"});
        check_fen_error<Russian>("W:W22:BKc3", {"twice", "'Kc3'"});
    }
    SECTION("bad side to move") {
        check_fen_error<Russian>("X:W21:B1", {"side to move", "'X'"});
        check_fen_error<Russian>("WB:W21:B1", {"side to move", "'WB'"});
        check_fen_error<Russian>(":W21:B1", {"side to move", "''"});
    }
    SECTION("bad ranges") {
        check_fen_error<Russian>("W:W30:B5-3", {"range", "'5-3'"});
        check_fen_error<Russian>("W:W30:B1-99", {"range", "'1-99'"});
        check_fen_error<Russian>("W:W30:B1-x", {"range", "'1-x'"});
        check_fen_error<International>("W:W31-51:B1", {"range", "'31-51'"});
    }
    SECTION("empty and garbage fields") {
        check_fen_error<Russian>("", {"empty FEN"});
        check_fen_error<Russian>("   ", {"empty FEN"});
        check_fen_error<Russian>("W:W21::B1", {"empty field", "W:W21::B1"});
        check_fen_error<Russian>("W:W21:B1:", {"empty field"});
        check_fen_error<Russian>("W:W21:B1:Q7", {"bad FEN field", "'Q7'"});
        check_fen_error<Russian>("W:W21:B1:%", {"bad FEN field", "'%'"});
        check_fen_error<Russian>("W:W21,,22:B1", {"empty square", "'21,,22'"});
        check_fen_error<Russian>("W:W21:B1:Hx", {"move counter", "'Hx'"});
        check_fen_error<Russian>("[FEN W:W21:B1]", {"FEN tag"});
        // A side to move and nothing else is no position (it read as an empty board); the empty
        // board is W:W:B, and one list alone still reads (W:W28:B and W:W28 alike).
        check_fen_error<Russian>("W", {"no piece list", "'W'"});
        check_fen_error<International>("B:H3", {"no piece list", "'B:H3'"});
        CHECK(parse_fen<Russian>("W:W:B").occupied() == 0);
        CHECK(parse_fen<Russian>("W:W28").pieces[0] == parse_fen<Russian>("W:W28:B").pieces[0]);
    }
    SECTION("a colour's list given twice") {
        check_fen_error<Russian>("W:W21:B1:W22", {"list for W", "twice"});
        check_fen_error<Russian>("W:B1:W21:B2", {"list for B", "twice"});
    }
    SECTION("a move counter given twice") {
        check_fen_error<Russian>("W:W21:B1:H0:H3", {"counter H", "twice"});
        check_fen_error<Russian>("W:W21:B1:F1:H2:F9", {"counter F", "twice"});
    }
}

TEST_CASE("Move text: the long form is always written", "[notation][move]") {
    // RULES.md §6: W:Wh6:Bg7,c5,d2 has the single move h6:f8:b4:e1 (analysed in
    // russian_rules_test.cpp); the writer lists every landing square.
    CHECK(move_texts<Russian>("W:Wh6:Bg7,c5,d2") == std::vector<std::string>{"h6:f8:b4:e1"});
    // W:WKe1:Bd2,e5,g7 - RULES.md §1's example e1:c3:f6:h8.
    //    a b c d e f g h
    // 8    .   .   .   .
    // 7  .   .   .   b
    // 6    .   .   .   .
    // 5  .   .   b   .
    // 4    .   .   .   .
    // 3  .   .   .   .
    // 2    .   b   .   .
    // 1  .   .   W   .
    // e1: NE f2 g3 h4 empty; NW d2 with c3 empty -> take d2, run c3, b4, a5. c3 sees NE d4 then
    // e5 with f6 empty -> goes on; b4 (c5..f8 / a3) and a5 (b6 c7 d8) see nothing. Take e5; the
    // run is f6 (g7 occupied); f6 sees e7 d8 / g5 h4, nothing; straight on it takes g7, landing
    // h8. One move, written e1:c3:f6:h8.
    CHECK(move_texts<Russian>("W:WKe1:Bd2,e5,g7") == std::vector<std::string>{"e1:c3:f6:h8"});
    // Numeric variants write 'x': 10x10 W:W28:B23 - the man on 28 (e5) takes 23 (f6) and lands
    // on 19 (g7); nothing else can move or take.
    CHECK(move_texts<International>("W:W28:B23") == std::vector<std::string>{"28x19"});
    // Quiet moves: from-to.
    CHECK(move_texts<International>("W:W32:B") == std::vector<std::string>{"32-27", "32-28"});
}

TEST_CASE("Move text: reading long and short forms", "[notation][move]") {
    const char* rules = "W:Wh6:Bg7,c5,d2";
    SECTION("long form, either separator") {
        CHECK(read_move<Russian>(rules, "h6:f8:b4:e1") == "h6:f8:b4:e1");
        CHECK(read_move<Russian>(rules, "h6xf8xb4xe1") == "h6:f8:b4:e1");
        CHECK(read_move<Russian>(rules, "  h6:f8:b4:e1 ") == "h6:f8:b4:e1");
    }
    SECTION("short form when it names one move") {
        CHECK(read_move<Russian>(rules, "h6:e1") == "h6:f8:b4:e1");
        CHECK(read_move<Russian>(rules, "h6xe1") == "h6:f8:b4:e1");
        CHECK(read_move<Russian>("W:WKe1:Bd2,e5,g7", "e1:h8") == "e1:c3:f6:h8");
        CHECK(read_move<International>("W:W28:B23", "28x19") == "28x19");
        CHECK(read_move<International>("W:W28:B23", "28:19") == "28x19");
    }
    SECTION("a king going straight on may be written landing between the two victims") {
        // W:WKa1:Bc3,f6 (russian_rules_test.cpp): after c3 the king may stand on d4 or e5 before
        // it takes f6; the writer uses d4, a reader accepts either, and a leg that jumps no
        // captured piece (a1:b2) or lands on a victim (a1:c3) is no legal move.
        const char* fen = "W:WKa1:Bc3,f6";
        CHECK(read_move<Russian>(fen, "a1:d4:g7") == "a1:d4:g7");
        CHECK(read_move<Russian>(fen, "a1:e5:g7") == "a1:d4:g7");
        CHECK(read_move<Russian>(fen, "a1:e5:h8") == "a1:d4:h8");
        CHECK(read_move<Russian>(fen, "a1:h8") == "a1:d4:h8");
        check_move_error<Russian>(fen, "a1:b2:g7", {"illegal", "'a1:b2:g7'"});
        check_move_error<Russian>(fen, "a1:c3:g7", {"illegal", "'a1:c3:g7'"});
    }
    SECTION("quiet moves") {
        const auto start = Position<Russian>::start();
        const auto m = parse_move<Russian>(start, "c3-d4");
        CHECK(move_text<Russian>(m) == "c3-d4");
        CHECK_FALSE(m.move.is_capture());
        CHECK(start.play(m.move) == parse_fen<Russian>("B:W18,21,23-32:B1-12"));
        CHECK(read_move<International>("W:W31-50:B1-20", "32-28") == "32-28");
    }
    SECTION("the captured pieces of the path") {
        const auto p = parse_fen<Russian>(rules);
        CHECK(captured_names<Russian>(parse_move<Russian>(p, "h6:e1")) ==
              std::vector<std::string>{"g7", "c5", "d2"});
        // Straight on: a1:d4:h8 takes c3 on the first leg and e5 on the second.
        const auto q = parse_fen<Russian>("W:WKa1:Bc3,e5");
        CHECK(captured_names<Russian>(parse_move<Russian>(q, "a1:d4:h8")) ==
              std::vector<std::string>{"c3", "e5"});
    }
    SECTION("every listed move reads back as itself") {
        for (const char* fen : {"W:W21-32:B1-12", "W:WKa1:Bc3,g5,g3,c5", "W:WKa3:Bc5,g5,g3,e3",
                                "W:WKd4,g7:Ba7,b2,Ka1", "B:Wd4,f6:BKh8", "W:WKc3:Bd4,d6,b6,d2"}) {
            INFO("FEN " << fen);
            const auto p = parse_fen<Russian>(fen);
            for (const auto& text : move_texts<Russian>(p)) {
                INFO("move " << text);
                CHECK(move_text<Russian>(parse_move<Russian>(p, text)) == text);
            }
        }
        // Under kKeep both loops of the diamond (russian_rules_test.cpp) read back as themselves.
        const auto d = parse_fen<Russian>("W:WKc3:Bd4,d6,b6,b4");
        for (const char* text : {"c3:a5:c7:e5:c3", "c3:e5:c7:a5:c3"})
            CHECK(move_text<Russian>(parse_move<Russian, Duplicates::kKeep>(d, text)) == text);
    }
}

TEST_CASE("Move text: a short form shared by two captures is ambiguous", "[notation][move]") {
    // W:WKa1:Bc3,g5,g3,c5 (analysed in russian_rules_test.cpp, "same empty square twice"):
    //    a b c d e f g h
    // 6    .   .   .   .
    // 5  .   b   .   b
    // 4    .   .   .   .
    // 3  .   b   .   b
    // 2    .   .   .   .
    // 1  W   .   .   .
    // Legal: a1:d4:b6, a1:d4:a7 (taking c3, c5), a1:e5:h2 (c3, g3), a1:f6:h4:f2:b6 and
    // a1:f6:h4:f2:a7 (c3, g5, g3, c5). a1:d4:b6 and a1:f6:h4:f2:b6 both go from a1 to b6 but
    // take different pieces, so "a1:b6" names two moves; likewise "a1:a7". "a1:h2" names one.
    const char* fen = "W:WKa1:Bc3,g5,g3,c5";
    check_move_error<Russian>(fen, "a1:b6", {"ambiguous", "'a1:b6'"});
    check_move_error<Russian>(fen, "a1xb6", {"ambiguous", "'a1xb6'"});
    check_move_error<Russian>(fen, "a1:a7", {"ambiguous", "'a1:a7'"});
    CHECK(read_move<Russian>(fen, "a1:d4:b6") == "a1:d4:b6");
    CHECK(read_move<Russian>(fen, "a1:f6:h4:f2:b6") == "a1:f6:h4:f2:b6");
    CHECK(read_move<Russian>(fen, "a1xf6xh4xf2xa7") == "a1:f6:h4:f2:a7");
    CHECK(read_move<Russian>(fen, "a1:h2") == "a1:e5:h2");

    // W:WKc3:Bd4,d6,b6,d2 (russian_rules_test.cpp): c3:e1 takes d2 alone and c3:e5:c7:a5:e1 takes
    // four men, both from c3 to e1. "c3:e1" is the complete long form of the one-piece capture,
    // so it names that move; the other needs its landing squares.
    const char* loop = "W:WKc3:Bd4,d6,b6,d2";
    CHECK(read_move<Russian>(loop, "c3:e1") == "c3:e1");
    CHECK(read_move<Russian>(loop, "c3:e5:c7:a5:e1") == "c3:e5:c7:a5:e1");
}

TEST_CASE("Move text: Russian short notation, the start given by its file", "[notation][move]") {
    // The notation of Russian books and of the ballots (`1-I cd4 ba5 dc5`): a quiet move as the
    // file of the moving piece and the square it goes to, a capture as the file, ':' and the
    // square(s) it lands on. At the start White's c-file has c1 and c3; only c3 can go to d4.
    const char* start = "W:W21-32:B1-12";
    CHECK(read_move<Russian>(start, "cd4") == "c3-d4");
    CHECK(read_move<Russian>(start, "ab4") == "a3-b4");
    CHECK(read_move<Russian>(start, "gh4") == "g3-h4");
    // The ballot 1-I: c3-d4 b6-a5 d4-c5, White's man on d4 going to c5.
    Position<Russian> p = Position<Russian>::start();
    const auto line = play_line(p, "1.cd4 ba5 2.dc5");
    REQUIRE(line.size() == 3);
    CHECK(move_text<Russian>(line[2]) == "d4-c5");
    // After c3-d4 f6-e5, d:f6 is White's d4 taking e5 (the only capture), and g:e5 then Black's
    // g7 taking f6 (h-, f- and e-files cannot: the file names g7).
    Position<Russian> q = Position<Russian>::start();
    const auto taken = play_line(q, "cd4 fe5 d:f6 g:e5");
    REQUIRE(taken.size() == 4);
    CHECK(move_text<Russian>(taken[2]) == "d4:f6");
    CHECK(move_text<Russian>(taken[3]) == "g7:e5");
    // A capture of several landing squares: the king on a1 over c3 to d4, over c5 to b6.
    CHECK(read_move<Russian>("W:WKa1:Bc3,g5,g3,c5", "a:d4:b6") == "a1:d4:b6");
    // In Czech too (algebraic); kings alike, when one piece of the file goes there.
    CHECK(read_move<Czech>(start, "cd4") == "c3-d4");
    CHECK(read_move<Russian>("W:WKa1,Kc1:Bh8", "ab2") == "a1-b2");
    // Two pieces of the file go there: the message lists both (in the order of their squares'
    // numbers: a3 is 21, a1 29), and says what tells them apart.
    check_move_error<Russian>("W:WKa1,Ka3:Bh8", "ab2",
                              {"ambiguous move 'ab2': write its start square (a3-b2, a1-b2)"});
    // One piece, two captures to b6 (the king on a1 as above): the landing squares tell them
    // apart, not the start.
    check_move_error<Russian>("W:WKa1:Bc3,g5,g3,c5", "a:b6",
                              {"ambiguous move 'a:b6': write every landing square (a1:d4:b6, "
                               "a1:f6:h4:f2:b6)"});
    // None does: the reason is the one of the long form for the file's first piece. At the start
    // White's only h-file man, h2, is blocked by g3; after c3-d4 f6-e5 a capture is compulsory;
    // in Brazilian c3 does capture to a5, but the majority rule takes two (c3xe5xc7).
    check_move_error<Russian>(start, "hg5", {"illegal move 'hg5': the man on h2 has no legal move"});
    check_move_error<Russian>("W:W18,21,23-32:B1-10,12,15", "gh4",
                              {"illegal move 'gh4': a capture is compulsory (d4:f6)"});
    check_move_error<Brazilian>("W:Wc3:Bb4,d4,d6", "c:a5",
                                {"illegal move 'c:a5': the majority rule: a capture of 2 pieces is "
                                 "compulsory (c3xe5xc7)"});
    // No piece of the side on the file at all: said so.
    check_move_error<Russian>("W:Wc3:Bh8", "ab4", {"illegal move 'ab4': no piece on the a file"});
    // A numeric square after a file is no short notation ("c17" is no move).
    check_move_error<Russian>(start, "c17", {"no separator in move 'c17'"});
    // Numeric variants have no files: no separator, as before.
    check_move_error<International>("W:W31-50:B1-20", "cd4", {"no separator in move 'cd4'"});
}

TEST_CASE("Errors name a letter that is not ASCII", "[notation]") {
    // A Cyrillic letter typed for its Latin twin on a Russian keyboard reads as the right text
    // in the message: the letter and its code point are named. 'с' (U+0441, UTF-8 D1 81),
    // 'х' (U+0445, D1 85), 'К' (U+041A, D0 9A), 'В' (U+0412, D0 92).
    check_move_error<Russian>("W:W21-32:B1-12", "\xD1\x81" "3-d4",
                              {"(its '\xD1\x81' is U+0441, a Cyrillic letter, not a Latin one)"});
    check_move_error<Russian>("W:Wd4:Be5", "d4\xD1\x85" "f6",
                              {"no separator", "(its '\xD1\x85' is U+0445, a Cyrillic letter"});
    check_fen_error<Russian>("W:W\xD0\x9A" "a1:Bh8", {"(its '\xD0\x9A' is U+041A, a Cyrillic letter"});
    check_fen_error<Russian>("\xD0\x92:Wa1:Bh8", {"bad side to move", "U+0412, a Cyrillic letter"});
    // A byte that is no UTF-8 is named by its value; an ASCII token gets no note.
    check_move_error<Russian>("W:W21-32:B1-12", "c3\xFF-d4", {"(its byte 0xFF is not ASCII, nor UTF-8)"});
    CHECK(non_ascii_note("c3-d4").empty());
    CHECK(non_ascii_note("\xCE\xB1") == " (its '\xCE\xB1' is U+03B1, a Greek letter, not a Latin one)");
}

TEST_CASE("Move text errors name the offending token", "[notation][move]") {
    const char* start = "W:W21-32:B1-12";
    SECTION("illegal moves") {
        check_move_error<Russian>(start, "c3-e5", {"illegal", "'c3-e5'"});
        check_move_error<Russian>(start, "d4-e5", {"illegal", "'d4-e5'"});
        check_move_error<Russian>(start, "c3-b2", {"illegal", "'c3-b2'"});
        // A capture text for a quiet move (a quiet text for a capture reads as the capture:
        // "a capture written with '-'", below).
        check_move_error<Russian>(start, "c3:d4", {"illegal", "'c3:d4'"});
        // While a capture exists, quiet moves are illegal (capturing is compulsory).
        check_move_error<Russian>("W:Wc3:Bd4", "c3-b4", {"illegal", "'c3-b4'"});
        // Black's move when White is to move.
        check_move_error<Russian>(start, "b6-a5", {"illegal", "'b6-a5'"});
    }
    SECTION("the reason an illegal move gives, by hand") {
        const auto reason = [](const char* fen, const char* move) {
            try {
                (void)parse_move<Russian>(parse_fen<Russian>(fen), move);
            } catch (const ParseError& e) {
                return std::string(e.what());
            }
            return std::string("legal");
        };
        // d4 is empty at the start; f6 holds a black man; c3 (written C3) can step to b4 or d4
        // only; at the start no capture exists.
        CHECK(reason(start, "d4-e5") == "illegal move 'd4-e5': no piece on d4");
        CHECK(reason(start, "f6-e5") ==
              "illegal move 'f6-e5': f6 holds a black man, and White is to move");
        CHECK(reason(start, "C3-E5") ==
              "illegal move 'C3-E5': the legal moves of C3 are c3-b4, c3-d4");
        CHECK(reason(start, "c3:e5") ==
              "illegal move 'c3:e5': no capture is possible; the legal moves of c3 are c3-b4, "
              "c3-d4");
        // Black's king on b8 with White to move.
        CHECK(reason("W:Wc3:BKb8", "b8-a7") ==
              "illegal move 'b8-a7': b8 holds a black king, and White is to move");
        // White's man on c3 must take d4 (c3:e5); e3 steps but must not.
        CHECK(reason("W:Wc3,e1:Bd4", "e1-f2") ==
              "illegal move 'e1-f2': a capture is compulsory (c3:e5)");
        // The king on a1 is shut in by b2 and c3 (it cannot jump b2: c3 is taken), while the
        // man on h2 can step to g3.
        CHECK(reason("W:WKa1,h2:Bb2,c3", "a1-d4") ==
              "illegal move 'a1-d4': the king on a1 has no legal move");
        // The same with a capture for the man on h2 (over g3 to f4): a capture written for the
        // king is told that, and the captures there are; a quiet move, that one is compulsory.
        CHECK(reason("W:WKa1,h2:Bb2,c3,g3", "a1:d4") ==
              "illegal move 'a1:d4': the king on a1 has no legal move (the captures: h2:f4)");
        CHECK(reason("W:WKa1,h2:Bb2,c3,g3", "a1-d4") ==
              "illegal move 'a1-d4': a capture is compulsory (h2:f4)");
        // A lone king on a1 with the long diagonal free: b2, c3, d4, e5, f6 and g7 (h8 is
        // Black's). Four are named, then "...".
        const std::string many = reason("W:WKa1:Bh8", "a1-a3");
        CHECK(many.starts_with("illegal move 'a1-a3': the legal moves of a1 are a1-"));
        CHECK(many.ends_with(", ..."));
        CHECK(std::count(many.begin(), many.end(), ',') == 4);
        // Nothing left to move: h6:f8:b4:e1 took every black piece.
        CHECK(reason("B:WKe1", "b8-a7") ==
              "illegal move 'b8-a7': Black, to move, has no legal move");
        // International, majority capture: 28x17 takes one where 28x17x8 takes two.
        try {
            (void)parse_move<International>(parse_fen<International>("W:W28:B22,12"), "28x17");
            FAIL("28x17 read");
        } catch (const ParseError& e) {
            CHECK(std::string(e.what()) ==
                  "illegal move '28x17': the one legal move of 28 is 28x17x8");
        }
    }
    SECTION("a long form whose landing squares are not the move's") {
        // h6:f8:b4:e1 is the only move; g5 is not one of its landing squares, and a text of
        // three squares is not the short form either, so it names no legal move.
        check_move_error<Russian>("W:Wh6:Bg7,c5,d2", "h6:g5:e1", {"h6:g5:e1"});
    }
    SECTION("unknown squares") {
        check_move_error<Russian>(start, "c3-z9", {"unknown square", "'z9'", "c3-z9"});
        check_move_error<Russian>(start, "c3-d5", {"unknown square", "'d5'"});
        check_move_error<Russian>(start, "c3-i4", {"unknown square", "'i4'"});
        check_move_error<Russian>(start, "c0-d1", {"unknown square", "'c0'"});
        check_move_error<International>("W:W31-50:B1-20", "32-51", {"unknown square", "'51'"});
    }
    SECTION("malformed text") {
        check_move_error<Russian>(start, "", {"empty move"});
        check_move_error<Russian>(start, "c3", {"'c3'"});
        check_move_error<Russian>(start, "c3-", {"'c3-'"});
        check_move_error<Russian>(start, "-d4", {"'-d4'"});
        check_move_error<Russian>(start, "c3-d4-e5", {"'c3-d4-e5'"});
        check_move_error<Russian>(start, "c3:d4-e5", {"'c3:d4-e5'"});
        check_move_error<Russian>(start, "c3--d4", {"'c3--d4'"});
        // Separators only: no square to name, so the message says one is missing.
        check_move_error<Russian>(start, "xx", {"missing square", "'xx'"});
        check_move_error<Russian>(start, "c3:", {"missing square", "'c3:'"});
    }
}

TEST_CASE("Move text: a capture written with '-' is read as the capture it names",
          "[notation][move]") {
    // English, Black first: 11-15 23-19 8-11 22-17 9-13 17-14; then Black's man on 10 must take
    // the one on 14, landing on 17 (10x17, written 10-17 as English players write it), and
    // White's man on 21 takes it back over 17, landing on 14 (21-14). Black: 1-7, 11, 12, 13, 15
    // (8 to 11, 9 to 13, 10 taken on 17, 11 to 15); White: 14, 19, 24-32 (23 to 19, 22 taken on
    // 14, 21 to 14).
    Position<English> p = Position<English>::start();
    const auto line = play_line<English>(p, "11-15 23-19 8-11 22-17 9-13 17-14 10-17 21-14");
    REQUIRE(line.size() == 8);
    CHECK(move_text<English>(line[6]) == "10x17");
    CHECK(move_text<English>(line[7]) == "21x14");
    CHECK(to_fen<English>(p) == "B:W14,19,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,11,12,13,15");
    // In any variant, and in long form too only with 'x' or ':' (a quiet move has two squares).
    CHECK(read_move<Russian>("W:Wc3:Bd4", "c3-e5") == "c3:e5");
    // The king of "a short form shared by two captures is ambiguous": a1-b6 names two captures,
    // a1-h2 one. The two, listed in the message: over c3 to d4, over c5 to b6 (a7 would do too,
    // but from b6 nothing more; "every landing square" of the shorter is a1:d4:b6), or over c3
    // to f6, g5 to h4, g3 to f2, and back over c5 to b6: a1:f6:h4:f2:b6.
    const char* fen = "W:WKa1:Bc3,g5,g3,c5";
    check_move_error<Russian>(fen, "a1-b6",
                              {"ambiguous move 'a1-b6': write every landing square (a1:d4:b6, a1:f6:h4:f2:b6)"});
    CHECK(read_move<Russian>(fen, "a1-h2") == "a1:e5:h2");
    // No capture from c3 to a5 (the one is c3:e5): the capture rule is the reason, as before.
    check_move_error<Russian>("W:Wc3:Bd4", "c3-a5",
                              {"illegal move 'c3-a5': a capture is compulsory (c3:e5)"});
}

TEST_CASE("Move text: a capture the precedence rule forbids says so", "[notation][move]") {
    const auto reason = [](auto rules, const char* fen, const char* move) {
        using R = typename decltype(rules)::type;
        try {
            (void)parse_move<R>(parse_fen<R>(fen), move);
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("legal");
    };
    // Brazilian, White men a3, e3 and black men b4, f4, f6: a3xc5 takes b4 alone; e3xg5xe7 takes
    // f4 and f6, and the majority rule makes it the one legal move.
    const char* fen = "W:Wa3,e3:Bb4,f4,f6";
    CHECK(reason(std::type_identity<Brazilian>{}, fen, "a3xc5") ==
          "illegal move 'a3xc5': the majority rule: a capture of 2 pieces is compulsory "
          "(e3xg5xe7)");
    CHECK(reason(std::type_identity<Brazilian>{}, fen, "a3-c5") ==
          "illegal move 'a3-c5': the majority rule: a capture of 2 pieces is compulsory "
          "(e3xg5xe7)");
    // Not a capture at all (a3 cannot reach e7): the reason as before.
    CHECK(reason(std::type_identity<Brazilian>{}, fen, "a3xe7") ==
          "illegal move 'a3xe7': the man on a3 has no legal move (the captures: e3xg5xe7)");
    // Czech, White king a1 and man e1, black men b2 and f2: the king takes b2 and, landing on d4,
    // f2 (a1:d4:g1); the man's e1:g3 over f2 is a capture, but a king's comes first.
    CHECK(reason(std::type_identity<Czech>{}, "W:WKa1,e1:Bb2,f2", "e1:g3") ==
          "illegal move 'e1:g3': the king's precedence: a capture by a king is compulsory "
          "(a1:d4:g1)");
    // Russian has free choice: a3:c5 is legal there.
    CHECK(reason(std::type_identity<Russian>{}, fen, "a3:c5") == "legal");
}

TEST_CASE("Move text: a line skips move strengths and NAGs, as the PDN reader does",
          "[notation][move]") {
    Position<International> p = Position<International>::start();
    CHECK(play_line<International>(p, "1. 32-28! 18-23").size() == 2);
    Position<Russian> q = Position<Russian>::start();
    const auto line = play_line<Russian>(q, "1. c3-d4?! f6-g5 $2 (!) 2. b2-c3!! ? g7-f6(?) $14 *");
    REQUIRE(line.size() == 4);
    CHECK(move_text<Russian>(line[3]) == "g7-f6");
    // The same code as the reader's: the move and its strength apart.
    std::string_view w = "32-28(!?)";
    CHECK(split_move_strength(w) == "!?");
    CHECK(w == "32-28");
    w = "c3-d4?!*";
    CHECK(split_move_strength(w) == "?!");
    CHECK(w == "c3-d4");
    w = "??";
    CHECK(split_move_strength(w) == "??");
    CHECK(w.empty());
    CHECK(is_nag("$12"));
    CHECK(!is_nag("$"));
}

TEST_CASE("Move text: a line begins with a ballot's name, as match names its openings",
          "[notation][move]") {
    // The ballot 1-I of the three-move ballots: c3-d4, b6-a5, d4-c5; then Black must take d6:b4.
    Position<Russian> p = Position<Russian>::start();
    REQUIRE(play_line<Russian>(p, "1-I cd4 ba5 dc5").size() == 3);
    FixedList<PathMove<Russian::Geometry>, kMaxMoves> legal;
    generate_paths<Russian>(p, legal);
    REQUIRE(legal.size() == 1);
    CHECK(move_text<Russian>(legal[0]) == "d6:b4");
    // The Russian classification's names: group, number and a colon.
    Position<Russian> q = Position<Russian>::start();
    CHECK(play_line<Russian>(q, "I-1: ab4").size() == 1);
    Position<Russian> r = Position<Russian>::start();
    CHECK(play_line<Russian>(r, "15-X gh4 fe5 cb4").size() == 3);
    CHECK(notation_detail::is_ballot_name("XII-3"));
    CHECK_FALSE(notation_detail::is_ballot_name("1-1"));
    CHECK_FALSE(notation_detail::is_ballot_name("c3-d4"));
    CHECK_FALSE(notation_detail::is_ballot_name("I-"));
    // Only before the first move: later it is a word that is no move.
    Position<Russian> s = Position<Russian>::start();
    CHECK_THROWS_AS(play_line<Russian>(s, "cd4 1-I"), ParseError);
}
