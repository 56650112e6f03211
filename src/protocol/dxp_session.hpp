// Playing DXP games (DamExchange, protocol/dxp.hpp) with dambit's engine over TCP.
//
// DXP is a 10x10 protocol: everything here is International draughts.
//
// DxpClient is dambit as initiator on one connection, for a caller that runs the game loop itself
// (the match harness: `dambit match --b dxp:HOST:PORT`): it sends the requests and our moves and
// reads the peer's moves, checking them; the caller decides when a game is over.
// The whole-session player of `dambit dxp` (both roles, with the engine) is further down.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "book/play.hpp"
#include "play/match.hpp"
#include "protocol/dxp.hpp"
#include "protocol/net.hpp"
#include "search/engine.hpp"

namespace dambit::dxp {

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

// The follower refused the game (GAMEACC with a code other than '0'): not a failure of one game
// but of the whole request, which every game repeats. what() is a one-line reason.
class DxpRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
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
    // DxpRefused when the follower refuses (the message gives its code), DxpFailure when it times
    // out or fails.
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
    // When `abandon` becomes true (the match gives the game up), the wait ends within 50 ms with
    // a DxpFailure, the game still under way: end_game then ends it.
    BoardMove receive_move(const Board& before, int timeout_ms,
                           const std::atomic<bool>* abandon = nullptr);

    // Ends the game: sends GAMEEND (reason from our side: '0' unknown, '1' we lose, '2' draw,
    // '3' we win; stop code '1' when `last`) and reads the peer's GAMEEND reply for up to a
    // second, ignoring its absence. After a game the peer already ended (receive_move threw with
    // peer_result()), only a `last` call sends anything: a GAMEEND with stop code '1'.
    // `peer_to_move`: the rules ended the game on the peer's turn, and DXP lets only the side to
    // move end a game: the peer's own GAMEEND is awaited for a second first, and acknowledged.
    void end_game(char reason, bool last, bool peer_to_move = false);

    // CHAT texts and notices (such as a refused BACKREQ) go here; by default nowhere.
    void set_log(std::function<void(const std::string&)> log);

    // The peer's seconds for the last move it sent (the MOVE's time field).
    int peer_seconds() const;

private:
    std::unique_ptr<ClientState> state_;
};

// --- Whole sessions: dambit dxp ------------------------------------------------------------

struct SessionOptions {
    std::string name = "dambit";
    // As initiator (games > 0): the games to request, dambit White in odd games, Black in even
    // ones, each with `minutes` per side for `moves` moves (0: the whole game) from `start`.
    int games = 0;
    int minutes = 5;
    int moves = 0;
    std::optional<Board> start;   // empty: the start position
    std::int64_t movetime_ms = 0;  // our moves searched this long, whatever the clock says
    int max_plies = 0;             // a game this long is drawn (0: no limit)
    int idle_timeout_ms = 300000;  // peer silence outside a game before the connection is closed
    int time_margin_ms = 5000;     // a peer's grace beyond its clock before it loses on time
    book::BookPlayer<International>* book = nullptr;  // our opening book (not owned), or none
    // Errors the user must see however quiet the log is (endgame tables that failed during a
    // search, and were turned off); empty: they go to the log.
    std::function<void(const std::string&)> on_error;
};

// One finished (or abandoned) game, from our side.
struct GameReport {
    int number = 0;  // counted over the program's life, from 1
    Color our_colour = Color::kWhite;
    std::string peer;
    play::Game<International> game;  // opening, moves; ending and winner when the rules ended it
    std::string result;              // "1-0", "0-1", "1/2-1/2", or "*" for an abandoned game
    std::string reason;              // why it ended, one line
};

// Plays the games of one connection with dambit's engine, in either role. Prints nothing:
// `log` gets one-line notices (CHAT texts, refusals, protocol errors), `on_game` each game.
class Session {
public:
    using Log = std::function<void(const std::string&)>;
    using OnGame = std::function<void(const GameReport&)>;

    Session(net::Connection& connection, search::Engine<International>& engine,
            const SessionOptions& options, Log log, OnGame on_game);

    // Plays until the peer (or we, as initiator, after the last game) stops, the connection
    // breaks, or `max_games` games have been counted in `game_counter` (0: no limit; the
    // counter is shared by the sessions of a server). Returns why the session ended.
    std::string run(int& game_counter, int max_games = 0);

private:
    net::Connection& connection_;
    search::Engine<International>& engine_;
    SessionOptions options_;
    Log log_;
    OnGame on_game_;
};

}  // namespace dambit::dxp
