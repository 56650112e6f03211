// Playing DXP games (DamExchange, protocol/dxp.hpp) with dambit's engine over TCP.
//
// DXP is a 10x10 protocol: everything here is International draughts.
//
// DxpClient is dambit as initiator on one connection, for a caller that runs the game loop itself
// (the match harness: `dambit match --b dxp:HOST:PORT`): it sends the requests and our moves and
// reads the peer's moves, checking them; the caller decides when a game is over.
// The whole-session player of `dambit dxp` (both roles, with the engine) is further down.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/movegen.hpp"
#include "core/position.hpp"
#include "core/rules.hpp"

namespace dambit::dxp {

using Board = Position<International>;
using BoardMove = PathMove<International::Geometry>;

// The peer failed during a game: a timeout, a disconnect, a message that does not decode, an
// illegal move, or a GAMEEND while a move was awaited. what() is a one-line reason.
class DxpFailure : public std::runtime_error {
public:
    explicit DxpFailure(const std::string& reason, std::optional<char> peer_result = std::nullopt)
        : std::runtime_error(reason), peer_result_(peer_result) {}
    // For a GAMEEND from the peer: its reason code from its own point of view ('0' unknown,
    // '1' it loses, '2' draw, '3' it wins); empty for the other failures.
    std::optional<char> peer_result() const { return peer_result_; }
    // Whether the connection can still carry messages (false after a disconnect, a timeout, an
    // over-long or undecodable message: the stream is no longer in step).
    bool connection_usable() const { return usable_; }
    DxpFailure& unusable() {
        usable_ = false;
        return *this;
    }

private:
    std::optional<char> peer_result_;
    bool usable_ = true;
};

struct ClientState;

// dambit as initiator: one connection, several games.
class DxpClient {
public:
    // Connects to "HOST:PORT" (retrying for up to about two seconds); throws std::runtime_error
    // with a one-line message when the address is malformed or nobody answers.
    DxpClient(const std::string& host_port, std::string our_name);
    ~DxpClient();
    DxpClient(const DxpClient&) = delete;
    DxpClient& operator=(const DxpClient&) = delete;

    // Sends GAMEREQ (starting position 'A' when p is the start position with White to move,
    // otherwise 'B' with p) for `minutes` of thinking time per side for `moves` moves (0 = the
    // whole game), and waits up to timeout_ms for GAMEACC. Returns the follower's name; throws
    // DxpFailure when the follower refuses (the message gives its code), times out or fails.
    // CHAT and a late GAMEEND of the previous game are skipped.
    std::string start_game(const Board& p, Color follower_colour, int minutes, int moves,
                           int timeout_ms);

    // Sends our move m, legal in `before`, with the seconds we used for it.
    // Throws DxpFailure when the connection is closed.
    void send_move(const Board& before, const BoardMove& m, int seconds_used);

    // Waits up to timeout_ms for the peer's move in `before` and returns it as a legal move of
    // `before`. Throws DxpFailure for a timeout, a disconnect, garbage, an illegal move, or a
    // GAMEEND (then peer_result() holds the peer's claimed result, and the GAMEEND has been
    // answered: the game is over). CHAT is passed to the log; BACKREQ is refused (BACKACC '1').
    BoardMove receive_move(const Board& before, int timeout_ms);

    // Ends the game: sends GAMEEND (reason from our side: '0' unknown, '1' we lose, '2' draw,
    // '3' we win; stop code '1' when `last`) and reads the peer's GAMEEND reply for up to a
    // second, ignoring its absence. After a game the peer already ended (receive_move threw with
    // peer_result()), only a `last` call sends anything: a GAMEEND with stop code '1'.
    void end_game(char reason, bool last);

    // CHAT texts and notices (such as a refused BACKREQ) go here; by default nowhere.
    void set_log(std::function<void(const std::string&)> log);

    // The peer's seconds for the last move it sent (the MOVE's time field).
    int peer_seconds() const;

private:
    std::unique_ptr<ClientState> state_;
};

}  // namespace dambit::dxp
