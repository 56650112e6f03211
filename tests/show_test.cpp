// Pictures of positions: the text diagram and the SVG drawing of dambit show.
#include <catch2/catch.hpp>
#include <string>

#include "core/notation.hpp"
#include "show/diagram.hpp"

using namespace dambit;

namespace {

int count(const std::string& s, const std::string& what) {
    int n = 0;
    for (auto k = s.find(what); k != std::string::npos; k = s.find(what, k + 1)) ++n;
    return n;
}

}  // namespace

// RULES.md §1: a1 is a dark square at White's lower left; White's men start on the dark squares
// of ranks 1-3 (a1, c1, e1, g1 / b2, d2, f2, h2 / a3, c3, e3, g3), Black's on ranks 6-8.
TEST_CASE("show: the Russian start position as text", "[show]") {
    const std::string expected =
        " 8    b   b   b   b\n"
        " 7  b   b   b   b\n"
        " 6    b   b   b   b\n"
        " 5  .   .   .   .\n"
        " 4    .   .   .   .\n"
        " 3  w   w   w   w\n"
        " 2    w   w   w   w\n"
        " 1  w   w   w   w\n"
        "    a b c d e f g h\n";
    CHECK(show::text_diagram(show::board_of(Position<Russian>::start())) == expected);
}

// Seen from Black's side the board is turned half a round: rank 1 on top, file h on the left.
TEST_CASE("show: --flip turns the board half a round", "[show]") {
    const auto p = parse_fen<Russian>("W:Wh6,Ka1:Bg7,c5,d2");
    const std::string expected =
        " 1    .   .   .   W\n"
        " 2  .   .   b   .\n"
        " 3    .   .   .   .\n"
        " 4  .   .   .   .\n"
        " 5    .   .   b   .\n"
        " 6  w   .   .   .\n"
        " 7    b   .   .   .\n"
        " 8  .   .   .   .\n"
        "    h g f e d c b a\n";
    CHECK(show::text_diagram(show::board_of(p), true) == expected);
}

// International, PDN numbering (RULES.md §1): square 1 is b10, the top row holds 1-5 on the
// files b, d, f, h, j; the second row 6-10 on a, c, e, g, i. An empty square shows its number.
TEST_CASE("show: a numbered board shows the empty squares' numbers", "[show]") {
    const auto p = parse_fen<International>("W:W28,K46:B3,K19");
    const std::string expected =
        "     1     2     b     4     5     1-5\n"
        "  6     7     8     9    10        6-10\n"
        "    11    12    13    14    15    11-15\n"
        " 16    17    18     B    20       16-20\n"
        "    21    22    23    24    25    21-25\n"
        " 26    27     w    29    30       26-30\n"
        "    31    32    33    34    35    31-35\n"
        " 36    37    38    39    40       36-40\n"
        "    41    42    43    44    45    41-45\n"
        "  W    47    48    49    50       46-50\n";
    CHECK(show::text_diagram(show::board_of(p)) == expected);
}

TEST_CASE("show: the SVG picture has one circle per piece and a ring per king", "[show]") {
    auto board = show::board_of(parse_fen<English>("B:W18,24,27,28,K10,K15:B12,16,20,K22"));
    const std::string svg = show::svg_diagram(board, false, 320);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
    CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
    CHECK(count(svg, "class=\"piece white man\"") == 4);
    CHECK(count(svg, "class=\"piece white king\"") == 2);
    CHECK(count(svg, "class=\"piece black man\"") == 3);
    CHECK(count(svg, "class=\"piece black king\"") == 1);
    CHECK(count(svg, "class=\"crown\"") == 3);
    CHECK(count(svg, "class=\"square dark\"") == 32);
    CHECK(count(svg, "class=\"square light\"") == 32);
    CHECK(count(svg, "class=\"number\"") == 32);  // every dark square named on a numbered board
    CHECK(count(svg, "class=\"coordinate\"") == 0);
    CHECK(count(svg, "<title>Black to move</title>") == 1);
}

TEST_CASE("show: algebraic coordinates and the last move's squares in the SVG", "[show]") {
    auto p = Position<Russian>::start();
    const auto m = parse_move<Russian>(p, "c3-d4");
    p = p.play(m.move);
    auto board = show::board_of(p);
    show::mark_move<Russian>(board, m.move);
    const std::string svg = show::svg_diagram(board);
    CHECK(count(svg, "class=\"coordinate\"") == 16);  // a-h and 1-8
    CHECK(count(svg, "class=\"number\"") == 0);
    CHECK(count(svg, "class=\"marked\"") == 2);
    CHECK(count(svg, "class=\"piece") == 24);
}
