// DXP messages (protocol/dxp.hpp): the layouts of the spec built by hand, round trips, every
// malformed field named, and the International board and move conversions.
#include <catch2/catch.hpp>

#include <string>
#include <optional>
#include <thread>
#include <vector>

#include "core/notation.hpp"
#include "protocol/dxp.hpp"
#include "protocol/dxp_session.hpp"
#include "protocol/net.hpp"
#include "search/engine.hpp"

using namespace dambit;
using Catch::Matchers::Contains;

namespace {

std::string pad(const std::string& s) { return s + std::string(32 - s.size(), ' '); }

// decode(text) must throw ParseError whose message contains `part`.
void check_error(const std::string& text, const std::string& part) {
    INFO("message '" << text << "'");
    try {
        dxp::decode(text);
        FAIL_CHECK("no ParseError thrown");
    } catch (const ParseError& e) {
        CHECK_THAT(std::string(e.what()), Contains(part));
    }
}

}  // namespace

TEST_CASE("DXP GAMEREQ layout, start position and given position", "[dxp]") {
    const std::string text = std::string("R01") + pad("Truus") + "W" + "010" + "050" + "A";
    REQUIRE(text.size() == 43);
    const auto m = dxp::decode(text);
    REQUIRE(std::holds_alternative<dxp::GameRequest>(m));
    const auto& r = std::get<dxp::GameRequest>(m);
    CHECK(r.version == "01");
    CHECK(r.initiator == "Truus");
    CHECK(r.follower_colour == 'W');
    CHECK(r.minutes == 10);
    CHECK(r.moves == 50);
    CHECK(r.start == 'A');
    CHECK(dxp::encode(m) == text);

    dxp::GameRequest b;
    b.initiator = "dambit";
    b.follower_colour = 'Z';
    b.minutes = 5;
    b.moves = 0;
    b.start = 'B';
    b.to_move = 'Z';
    b.board = std::string(20, 'z') + std::string(10, 'e') + std::string(20, 'w');
    const std::string bt = dxp::encode(b);
    CHECK(bt == std::string("R01") + pad("dambit") + "Z005000BZ" + b.board);
    const auto back = std::get<dxp::GameRequest>(dxp::decode(bt));
    CHECK(back.board == b.board);
    CHECK(back.to_move == 'Z');
    // A name longer than the field is cut to 32 characters.
    b.initiator = std::string(40, 'x');
    CHECK(std::get<dxp::GameRequest>(dxp::decode(dxp::encode(b))).initiator == std::string(32, 'x'));
}

TEST_CASE("DXP GAMEACC, GAMEEND, CHAT, BACKREQ, BACKACC layouts", "[dxp]") {
    const std::string acc = std::string("A") + pad("Kingsrow") + "0";
    const auto a = std::get<dxp::GameAccept>(dxp::decode(acc));
    CHECK(a.follower == "Kingsrow");
    CHECK(a.code == '0');
    CHECK(dxp::encode(a) == acc);

    const auto e = std::get<dxp::GameEnd>(dxp::decode("E21"));
    CHECK(e.reason == '2');
    CHECK(e.stop == '1');
    CHECK(dxp::encode(e) == "E21");

    CHECK(std::get<dxp::Chat>(dxp::decode("Chello there")).text == "hello there");
    CHECK(std::get<dxp::Chat>(dxp::decode("C")).text.empty());
    CHECK(dxp::encode(dxp::Chat{"hi"}) == "Chi");
    // The specification's CHAT holds 1 to 126 characters: a longer text is cut to 126 when sent
    // (a 158-byte one was sent whole), and one received that long is still read.
    const std::string long_text(200, 'x');
    CHECK(dxp::encode(dxp::Chat{long_text}) == "C" + std::string(126, 'x'));
    CHECK(std::get<dxp::Chat>(dxp::decode("C" + long_text)).text == long_text);

    const auto b = std::get<dxp::BackRequest>(dxp::decode("B012Z"));
    CHECK(b.move_number == 12);
    CHECK(b.to_move == 'Z');
    CHECK(dxp::encode(b) == "B012Z");
    CHECK(std::get<dxp::BackAccept>(dxp::decode("K1")).code == '1');
    CHECK(dxp::encode(dxp::BackAccept{'2'}) == "K2");
}

TEST_CASE("DXP MOVE layout: quiet move and capture", "[dxp]") {
    const auto m = std::get<dxp::MoveMessage>(dxp::decode("M0012322800"));
    CHECK(m.seconds == 12);
    CHECK(m.from == 32);
    CHECK(m.to == 28);
    CHECK(m.captured.empty());
    CHECK(dxp::encode(m) == "M0012322800");
    const auto start = dxp::Board::start();
    const auto pm = dxp::legal_move(start, m);
    CHECK(move_text<International>(pm) == "32-28");
    CHECK(dxp::encode(dxp::move_message(pm, 12)) == "M0012322800");

    // 32x23x14 takes 28 and 19; the captured squares may come in any order.
    const auto p = parse_fen<International>("W:W32,45:B28,19,3");
    const auto c = std::get<dxp::MoveMessage>(dxp::decode("M0003321402" "19" "28"));
    CHECK(c.captured == std::vector<int>{19, 28});
    const auto cm = dxp::legal_move(p, c);
    CHECK(move_text<International>(cm) == "32x23x14");
    const auto out = dxp::move_message(cm, 3);
    CHECK(out.captured == std::vector<int>{28, 19});  // in the order taken
    CHECK(dxp::encode(out) == "M0003321402" "28" "19");

    // Not legal: a quiet move where a capture is compulsory, a wrong captured set, a bad step.
    CHECK_THROWS_AS(dxp::legal_move(p, std::get<dxp::MoveMessage>(dxp::decode("M0000452800"))),
                    ParseError);
    CHECK_THROWS_WITH(dxp::legal_move(p, std::get<dxp::MoveMessage>(dxp::decode("M000032140128"))),
                      Contains("illegal move 32x14 (28)"));
    CHECK_THROWS_AS(dxp::legal_move(start, std::get<dxp::MoveMessage>(dxp::decode("M0000322300"))),
                    ParseError);
}

TEST_CASE("DXP malformed messages name the field", "[dxp]") {
    check_error("", "empty");
    check_error("X123", "unknown DXP header 'X'");
    check_error(std::string("R01") + pad("a"), "follower colour");
    check_error(std::string("R0x") + pad("a") + "W010050A", "version");
    check_error(std::string("R01") + pad("a") + "Q010050A", "bad follower colour 'Q'");
    check_error(std::string("R01") + pad("a") + "W01x050A", "thinking time");
    check_error(std::string("R01") + pad("a") + "W010050C", "starting position");
    check_error(std::string("R01") + pad("a") + "W010050BW" + std::string(49, 'e'), "board");
    check_error(std::string("R01") + pad("a") + "W010050BW" + std::string(49, 'e') + "q", "bad board character 'q' on square 50");
    check_error(std::string("R01") + pad("a") + "W010050BX" + std::string(50, 'e'), "colour to move");
    check_error(std::string("R01") + pad("a") + "W010050Aextra", "colour to move");
    check_error(std::string("A") + pad("b"), "acceptance code");
    check_error(std::string("A") + pad("b") + "5", "bad acceptance code '5'");
    check_error(std::string("A") + pad("b") + "00", "unexpected characters");
    check_error("M001232", "too short for field to");
    check_error("M00a2322800", "non-digit in number field time");
    check_error("M0012992800", "from square 99");
    check_error("M0012320000", "to square 0");
    check_error("M0012322821", "number captured 21 out of range");
    check_error("M00123228012", "wants 2 characters");
    check_error("M0012322801123", "wants 2 characters");
    check_error("M001232280212", "wants 4 characters of captured squares, 2 given");
    check_error("M00123228021212", "captured square 12 given twice");
    check_error("E4", "reason");
    check_error("E2", "too short for field stop code");
    check_error("E202", "unexpected characters");
    check_error("B01W", "move number");
    check_error("B001Q", "colour to move");
    check_error("K7", "acceptance code");
    check_error("C" + std::string(2000, 'x'), "over the limit");
}

TEST_CASE("DXP board conversion", "[dxp]") {
    const auto start = dxp::Board::start();
    CHECK(dxp::dxp_board(start) ==
          "W" + std::string(20, 'z') + std::string(10, 'e') + std::string(20, 'w'));
    CHECK(dxp::position_from_dxp('W', dxp::dxp_board(start).substr(1)) == start);

    const auto p = parse_fen<International>("B:WK3,32,45:B28,19,K47");
    const auto text = dxp::dxp_board(p);
    CHECK(text[0] == 'Z');
    CHECK(text[3] == 'W');
    CHECK(text[32] == 'w');
    CHECK(text[28] == 'z');
    CHECK(text[47] == 'Z');
    CHECK(dxp::position_from_dxp(text[0], text.substr(1)) == p);

    CHECK_THROWS_WITH(dxp::position_from_dxp('W', std::string(49, 'e')), Contains("49 squares"));
    CHECK_THROWS_WITH(dxp::position_from_dxp('X', std::string(50, 'e')), Contains("colour 'X'"));
    CHECK_THROWS_WITH(dxp::position_from_dxp('W', "w" + std::string(49, 'e')),
                      Contains("promotion row"));
    CHECK_THROWS_WITH(dxp::position_from_dxp('W', std::string(49, 'e') + "x"),
                      Contains("square 50"));
}

TEST_CASE("DXP addresses", "[dxp]") {
    const auto e = net::parse_endpoint("example.org:27531", false);
    CHECK(e.host == "example.org");
    CHECK(e.port == 27531);
    CHECK(net::parse_endpoint("2000", true).host == "127.0.0.1");
    CHECK(net::parse_endpoint("0.0.0.0:2000", true).host == "0.0.0.0");
    CHECK_THROWS_WITH(net::parse_endpoint("nohost", false), Contains("'nohost'"));
    CHECK_THROWS_WITH(net::parse_endpoint("99999", true), Contains("bad port '99999'"));
    CHECK_THROWS_WITH(net::parse_endpoint("h:0", false), Contains("bad port '0'"));
    CHECK_THROWS_WITH(net::parse_endpoint(":80", false), Contains("no host"));
    CHECK_THROWS_WITH(net::parse_endpoint("h:8x", false), Contains("bad port '8x'"));
    // IPv6 addresses in brackets, as in URLs; the text of an endpoint puts them back.
    const auto six = net::parse_endpoint("[::1]:27531", false);
    CHECK(six.host == "::1");
    CHECK(six.port == 27531);
    CHECK(six.text() == "[::1]:27531");
    CHECK(net::parse_endpoint("[2001:db8::7]:80", true).host == "2001:db8::7");
    CHECK(e.text() == "example.org:27531");
    CHECK_THROWS_WITH(net::parse_endpoint("::1:27531", false), Contains("in brackets: [::1]:27531"));
    CHECK_THROWS_WITH(net::parse_endpoint("[::1]", true), Contains("no port after '[::1]'"));
    CHECK_THROWS_WITH(net::parse_endpoint("[::1]27531", false), Contains("no port after '[::1]'"));
    CHECK_THROWS_WITH(net::parse_endpoint("[::1:27531", false), Contains("no ']'"));
    CHECK_THROWS_WITH(net::parse_endpoint("[example.org]:1", false),
                      Contains("bad IPv6 address 'example.org'"));
    CHECK_THROWS_WITH(net::parse_endpoint("[::1]:0", false), Contains("bad port '0'"));
}

// DxpClient (the match harness's side) against dambit's own follower session on a thread.
TEST_CASE("DXP client against a follower session over loopback", "[dxp]") {
    std::optional<net::Listener> listener(net::Endpoint{"127.0.0.1", 0});
    const int port = listener->port();
    std::vector<dxp::GameReport> reports;
    std::vector<std::string> notices;
    std::string session_end;
    std::thread follower([&] {
        net::Socket s = listener->accept(10000);
        if (!s.valid()) return;  // (Catch's assertions are for the main thread)
        net::Connection c(std::move(s));
        search::Engine<International> engine(4, 1);
        dxp::SessionOptions o;
        o.name = "follower";
        o.movetime_ms = 10;
        o.idle_timeout_ms = 10000;
        dxp::Session session(c, engine, o, [&](const std::string& n) { notices.push_back(n); },
                             [&](const dxp::GameReport& r) { reports.push_back(r); });
        int counter = 0;
        session_end = session.run(counter);
    });
    {
        dxp::DxpClient client("127.0.0.1:" + std::to_string(port), "harness");
        // A position with a white man on its promotion row is refused with code 2 ("not this
        // game, another one may be": the DXP specification, egameacc.htm).
        dxp::Board bad = dxp::Board::start();
        bad.pieces[1] &= ~International::Geometry::mask_of_square(1);
        bad.pieces[0] |= International::Geometry::mask_of_square(1);
        CHECK_THROWS_WITH(client.start_game(bad, Color::kBlack, 1, 0, 5000),
                          Contains("refused the game: code 2"));
        // A game: we play White's first legal move each time, the follower answers.
        CHECK(client.start_game(dxp::Board::start(), Color::kBlack, 1, 0, 5000) == "follower");
        dxp::Board p = dxp::Board::start();
        for (int i = 0; i < 3; ++i) {
            FixedList<dxp::BoardMove, kMaxMoves> list;
            generate_paths<International>(p, list);
            REQUIRE(!list.empty());
            client.send_move(p, list[0], 0);
            p = p.play(list[0].move);
            const auto reply = client.receive_move(p, 5000);
            p = p.play(reply.move);
        }
        // An illegal move of ours is a programming error, caught before it is sent.
        dxp::BoardMove wrong;
        wrong.move.from = std::uint8_t(International::Geometry::bit_of_square(46));
        wrong.move.to = std::uint8_t(International::Geometry::bit_of_square(41));
        CHECK_THROWS_AS(client.send_move(p, wrong, 0), std::logic_error);
        client.end_game('2', true);
    }
    follower.join();
    listener.reset();
    REQUIRE(reports.size() == 1);
    CHECK(reports[0].peer == "harness");
    CHECK(reports[0].our_colour == Color::kBlack);
    CHECK(reports[0].game.plies() == 6);
    // A claimed draw the rules do not make is "for informational purposes only" (egameend.htm):
    // the game is unfinished.
    CHECK(reports[0].result == "*");
    CHECK(reports[0].reason == "peer ended the game claiming a draw");
    CHECK(session_end == "peer wants no next game");
    // Nobody listens any more: refused for the two seconds of retries, then a clear error.
    CHECK_THROWS_WITH(dxp::DxpClient("127.0.0.1:" + std::to_string(port), "x"),
                      Contains("cannot connect to 127.0.0.1:"));
    CHECK_THROWS_WITH(dxp::DxpClient("nohost", "x"), Contains("'nohost'"));
}
