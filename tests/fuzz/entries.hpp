// The fuzz targets' bodies: each takes arbitrary bytes and must neither crash nor hang; bad input
// may only end in ParseError (or the protocol's error line). Shared by the libFuzzer programs
// (tests/fuzz/fuzz_*.cpp, built with -DDAMBIT_FUZZ=ON and clang) and by the corpus test
// (tests/fuzz_corpus_test.cpp), which replays every saved input in every test run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "core/movegen.hpp"
#include "core/notation.hpp"
#include "pdn/game.hpp"
#include "pdn/reader.hpp"
#include "pdn/writer.hpp"
#include "protocol/dxp.hpp"
#include "protocol/hub_server.hpp"
#include "protocol/hub_text.hpp"

namespace dambit::fuzz {

inline std::string_view bytes(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// A FEN that parses writes back to a FEN that parses to the same position.
template <class R>
void fen_round_trip(std::string_view text) {
    try {
        const Position<R> p = parse_fen<R>(text);
        const Position<R> q = parse_fen<R>(to_fen<R>(p));
        if (q.pieces != p.pieces || q.kings != p.kings || q.side != p.side) __builtin_trap();
    } catch (const ParseError&) {
    }
}

inline int fen(const std::uint8_t* data, std::size_t size) {
    const auto text = bytes(data, size);
    fen_round_trip<Russian>(text);
    fen_round_trip<English>(text);
    fen_round_trip<International>(text);
    return 0;
}

// A move that parses is legal, and its long form names the same move.
template <class R>
void move_in(const Position<R>& p, std::string_view text) {
    try {
        const auto pm = parse_move<R>(p, text);
        if (parse_move<R>(p, move_text<R>(pm)).move != pm.move) __builtin_trap();
    } catch (const ParseError&) {
    }
}

inline int move(const std::uint8_t* data, std::size_t size) {
    const auto text = bytes(data, size);
    move_in(Position<Russian>::start(), text);
    // RULES.md §6: a king capture with several landing squares.
    move_in(parse_fen<Russian>("W:WKa1:Bc3,e5,f6,d6"), text);
    move_in(Position<International>::start(), text);
    move_in(parse_fen<International>("W:WK46:B41,32,22,13,14,24,34"), text);
    return 0;
}

template <class R>
void hub_text_in(const hub::Line& line) {
    try {
        Position<R> p = Position<R>::start();
        if (const std::string* pos = line.get("pos")) p = hub::parse_hub_position<R>(*pos);
        if (hub::parse_hub_position<R>(hub::hub_position_text(p)).pieces != p.pieces)
            __builtin_trap();
        if (const std::string* m = line.get("move")) {
            const auto pm = hub::parse_hub_move<R>(p, *m);
            if (hub::parse_hub_move<R>(p, hub::hub_move_text<R>(pm)).move != pm.move)
                __builtin_trap();
        }
    } catch (const ParseError&) {
    }
}

// One Hub line: the line parser, then its pos= and move= values as positions and moves.
inline int hub_line(const std::uint8_t* data, std::size_t size) {
    try {
        const hub::Line line = hub::parse_line(bytes(data, size));
        hub_text_in<Russian>(line);
        hub_text_in<English>(line);
        hub_text_in<International>(line);
    } catch (const ParseError&) {
    }
    return 0;
}

// A whole Hub session: the bytes as the engine's input, searches capped at a few hundred nodes.
inline int hub_session(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;
    std::istringstream in{std::string(bytes(data, size))};
    std::ostringstream out;
    hub::ServerDefaults d;
    d.hash_megabytes = 1;
    d.node_cap = 300;
    hub::serve(in, out, d);
    return 0;
}

// One DXP message (without its NUL): a message that decodes encodes to text that decodes to the
// same message; a GAMEREQ's board is read as a position, a MOVE as a move of the start position
// and of a position with long king captures.
inline int dxp(const std::uint8_t* data, std::size_t size) {
    try {
        const dxp::Message m = dxp::decode(bytes(data, size));
        std::string again;
        try {
            again = dxp::encode(m);
        } catch (const std::invalid_argument&) {
            return 0;  // a number the message's field cannot hold (documented in dxp.hpp)
        }
        if (dxp::encode(dxp::decode(again)) != again) __builtin_trap();
        if (const auto* r = std::get_if<dxp::GameRequest>(&m); r && r->start == 'B')
            (void)dxp::position_from_dxp(r->to_move, r->board);
        if (const auto* mv = std::get_if<dxp::MoveMessage>(&m)) {
            for (const auto& p : {dxp::Board::start(),
                                  parse_fen<International>("W:WK46:B41,32,22,13,14,24,34")}) {
                try {
                    const auto pm = dxp::legal_move(p, *mv);
                    if (dxp::legal_move(p, dxp::move_message(pm, 0)).move != pm.move)
                        __builtin_trap();
                } catch (const ParseError&) {
                }
            }
        }
    } catch (const ParseError&) {
    }
    return 0;
}

// A game of a PDN text that replays without a problem is written (src/pdn/writer.hpp) and read
// back to the same game: tags (the writer adds GameType to a game without one), start position,
// moves and result.
template <class R>
void pdn_round_trip(const pdn::RawGame& raw) {
    pdn::Game<R> game;
    if (pdn::replay<R>(raw, game) || game.tags.size() + 3 > pdn::kMaxTags) return;
    std::istringstream in(pdn::write_game(game));
    pdn::Reader reader(in);
    pdn::RawGame again;
    if (!reader.next(again) || !again.problems.empty()) __builtin_trap();
    pdn::Game<R> read_back;
    if (pdn::replay<R>(again, read_back)) __builtin_trap();
    if (!raw.tag("GameType")) read_back.tags.pop_back();
    if (!(read_back == game) || reader.next(again)) __builtin_trap();
}

// Every game of a PDN text, under the rules of its GameType: the reader never fails, the replay
// only with a problem, and what replays comes back unchanged from the writer.
inline int pdn(const std::uint8_t* data, std::size_t size) {
    std::istringstream in{std::string(bytes(data, size))};
    pdn::Reader reader(in);
    pdn::RawGame raw;
    while (reader.next(raw)) {
        std::optional<pdn::Problem> problem;
        if (const auto v = pdn::game_variant(raw, std::nullopt, problem))
            with_variant(*v, [&]<class R>(std::type_identity<R>) {
                pdn_round_trip<R>(raw);
                return 0;
            });
    }
    return 0;
}

}  // namespace dambit::fuzz
