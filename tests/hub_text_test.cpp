// The Hub protocol's text forms (src/protocol/hub_text.hpp): lines, position strings and moves.
// Expected strings come from Scan's protocol.txt (version 2) and from pydraughts's conventions
// worked out by hand below (README, Hub and DXP).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "core/notation.hpp"
#include "protocol/hub_server.hpp"
#include "protocol/hub_text.hpp"

using namespace dambit;
using namespace dambit::hub;

TEST_CASE("hub lines: commands, quoted values and flags", "[hub]") {
    const Line l = parse_line("pos pos=Wbbe moves=\"32-28 19-23\"  go  ");
    CHECK(l.command == "pos");
    REQUIRE(l.args.size() == 3);
    CHECK(*l.get("pos") == "Wbbe");
    CHECK(*l.get("moves") == "32-28 19-23");
    CHECK(l.has("go"));
    CHECK(l.get("go")->empty());
    CHECK(parse_line("").command.empty());
    CHECK(parse_line("   ping").command == "ping");
    CHECK(*parse_line("set-param name=x value=\"\"").get("value") == "");
    CHECK_THROWS_AS(parse_line("pos moves=\"32-28"), ParseError);
    CHECK_THROWS_AS(parse_line("level =3"), ParseError);
    CHECK_THROWS_AS(parse_line(std::string("ping\x01")), ParseError);
    CHECK(quote("a b") == "\"a b\"");
    CHECK(quote("") == "\"\"");
    CHECK(quote("32-28") == "32-28");
}

TEST_CASE("hub positions: protocol.txt's 10x10 strings", "[hub]") {
    // protocol.txt: the start position is "W" then 20 black men, 10 empty squares, 20 white men.
    const std::string start = "W" + std::string(20, 'b') + std::string(10, 'e') + std::string(20, 'w');
    CHECK(hub_position_text(Position<International>::start()) == start);
    CHECK(to_fen(parse_hub_position<International>(start)) == to_fen(Position<International>::start()));
    // protocol.txt's second example: Black to move, white kings on 4 and 5, white men on 25, 35,
    // 36, black kings on 38 and 48; its moves 38-15 5-41 48-26 are legal king moves.
    const auto p = parse_hub_position<International>("BeeeWWeeeeeeeeeeeeeeeeeeeweeeeeeeeewweBeeeeeeeeeBee");
    CHECK(to_fen(p) == "B:WK4,K5,25,35,36:BK38,K48");
    Position<International> q = p;
    for (const char* m : {"38-15", "5-41", "48-26"}) q = q.play(parse_hub_move(q, m).move);
    CHECK(to_fen(q) == "W:WK4,25,35,36,K41:BK15,K26");
}

TEST_CASE("hub positions: pydraughts's 8x8 dialect", "[hub]") {
    // Russian: the string runs b8, d8, f8, h8, a7, ... g1 (the top-left corner seen by White,
    // which moves first); Black's 12 men fill indexes 1..12, White's 21..32.
    const std::string start8 = "W" + std::string(12, 'b') + std::string(8, 'e') + std::string(12, 'w');
    CHECK(hub_position_text(Position<Russian>::start()) == start8);
    // W:Wc3:Bh8: h8 is the 4th square of the top row; c3 the 2nd of the 6th row (a3 c3 e3 g3),
    // index 5 * 4 + 2 = 22.
    std::string s(33, 'e');
    s[0] = 'W', s[4] = 'b', s[22] = 'w';
    CHECK(hub_position_text(parse_fen<Russian>("W:Wc3:Bh8")) == s);
    CHECK(to_fen(parse_hub_position<Russian>(s)) == to_fen(parse_fen<Russian>("W:Wc3:Bh8")));
    // English: Black moves first and is 'W'/'w'; index i is English square 33 - i, so Black's men
    // on 1..12 fill indexes 21..32 and the string of the start is the same as Russian's.
    CHECK(hub_position_text(Position<English>::start()) == start8);
    CHECK(parse_hub_position<English>(start8).side == Color::kBlack);
    // English W:W5:B28 with Black to move ('B' in dambit's FEN is English Black): Black's man on
    // 28 sits at index 5 as 'w', White's man on 5 at index 28 as 'b', side 'W'.
    std::string e(33, 'e');
    e[0] = 'W', e[5] = 'w', e[28] = 'b';
    CHECK(hub_position_text(parse_fen<English>("B:W5:B28")) == e);
    CHECK_THROWS_AS(parse_hub_position<Russian>("W" + std::string(31, 'e')), ParseError);
    CHECK_THROWS_AS(parse_hub_position<Russian>("X" + std::string(32, 'e')), ParseError);
    CHECK_THROWS_AS(parse_hub_position<Russian>("W" + std::string(31, 'e') + "q"), ParseError);
    // A white man on White's promotion row (index 1 = b8) is no position.
    CHECK_THROWS_AS(parse_hub_position<Russian>("Ww" + std::string(31, 'e')), ParseError);
}

TEST_CASE("hub moves: numbering per variant", "[hub]") {
    // Russian moves count from a1 = 1, c1 = 2, ..., so c3 = 10, d4 = 14, e5 = 19, f6 = 23.
    Position<Russian> r = Position<Russian>::start();
    const auto c3d4 = parse_hub_move(r, "10-14");
    CHECK(move_text<Russian>(c3d4) == "c3-d4");
    CHECK(hub_move_text<Russian>(c3d4) == "10-14");
    r = r.play(c3d4.move);
    r = r.play(parse_hub_move(r, "23-19").move);  // f6-e5
    const auto take = parse_hub_move(r, "14x23x19");  // d4:f6 taking e5
    CHECK(move_text<Russian>(take) == "d4:f6");
    CHECK(hub_move_text<Russian>(take) == "14x23x19");
    CHECK(parse_hub_move(r, "14x23").move == take.move);  // the only capture from 14 to 23
    CHECK_THROWS_AS(parse_hub_move(r, "14x23x18"), ParseError);  // 18 is not what it takes
    CHECK_THROWS_AS(parse_hub_move(r, "9-13"), ParseError);      // a capture is compulsory
    CHECK_THROWS_AS(parse_hub_move(r, "14-"), ParseError);
    CHECK_THROWS_AS(parse_hub_move(r, "14-23x19"), ParseError);
    CHECK_THROWS_AS(parse_hub_move(r, "99-1"), ParseError);
    CHECK_THROWS_AS(parse_hub_move(r, "1234-1"), ParseError);
    // English moves keep PDN's numbering: Black's 11-15 is the usual first move.
    const auto e = parse_hub_move(Position<English>::start(), "11-15");
    CHECK(move_text<English>(e) == "11-15");
    // International: a capture lists the captured squares, in any order.
    const auto p = parse_fen<International>("W:W32:B27,17");
    const auto m = parse_hub_move(p, "32x12x17x27");
    CHECK(move_text<International>(m) == "32x21x12");
    CHECK(parse_hub_move(p, "32x12x27x17").move == m.move);
    CHECK(hub_move_text<International>(m) == "32x12x27x17");
}

TEST_CASE("hub parameters: the names announced, the ranges", "[hub]") {
    CHECK(variant_names(" ") == "russian czech brazilian pool english international normal");
    CHECK(param_spec("hash").max == 1 << 20);  // as dambit search --hash
    CHECK(param_spec("egtb-cache").max == 1 << 20);
    for (const auto& spec : kParams) {
        CHECK(param_spec(spec.name).name == spec.name);
        CHECK(spec.min <= spec.max);
    }
}

// The output of a whole session, searches on a 1 MB table.
static std::string session_output(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    ServerDefaults d;
    d.hash_megabytes = 1;
    serve(in, out, d);
    return out.str();
}

TEST_CASE("hub end of input: the search answers; quit: it does not", "[hub]") {
    // A search with a limit runs to its end: its last iteration is reported, then its move.
    const std::string limited = session_output("hub\ninit\npos\nlevel depth=3\ngo think\n");
    CHECK(limited.find("info depth=3 ") != std::string::npos);
    CHECK(limited.find("\ndone move=") != std::string::npos);
    // One that only stop ends is stopped, and answers.
    CHECK(session_output("hub\ninit\nlevel infinite\ngo analyze\n").find("\ndone move=") !=
          std::string::npos);
    CHECK(session_output("hub\ninit\ngo ponder\n").find("\ndone move=") != std::string::npos);
    CHECK(session_output("hub\ninit\nlevel infinite\ngo analyze\nquit\n").find("done") ==
          std::string::npos);
}
