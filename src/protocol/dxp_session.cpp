// DXP games with dambit's engine (dxp_session.hpp).
#include "protocol/dxp_session.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <unordered_map>

#include "core/key.hpp"
#include "core/notation.hpp"
#include "search/draw.hpp"
#include "search/line.hpp"

namespace dambit::dxp {
namespace {

using SteadyClock = std::chrono::steady_clock;
using G = International::Geometry;

std::int64_t ms_since(SteadyClock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - t).count();
}

int clamp_ms(std::int64_t ms) { return int(std::clamp<std::int64_t>(ms, 0, 1 << 30)); }

// What the next read brought.
struct Incoming {
    enum class Kind { kMessage, kTimeout, kClosed, kBroken };
    Kind kind = Kind::kTimeout;
    Message message;
    std::string reason;  // for kClosed and kBroken
};

// A connection read as DXP messages, with one message of pushback.
class Channel {
public:
    explicit Channel(net::Connection& c) : c_(c) {}

    Incoming next(int timeout_ms) {
        if (pending_) {
            Incoming in{Incoming::Kind::kMessage, std::move(*pending_), {}};
            pending_.reset();
            return in;
        }
        if (broken_) return {Incoming::Kind::kClosed, {}, "connection already closed"};
        const auto r = c_.read(timeout_ms);
        using S = net::Connection::Status;
        switch (r.status) {
            case S::kMessage:
                try {
                    return {Incoming::Kind::kMessage, decode(r.text), {}};
                } catch (const ParseError& e) {
                    broken_ = true;
                    return {Incoming::Kind::kBroken, {}, std::string("garbage from the peer: ") + e.what()};
                }
            case S::kTimeout:
                return {Incoming::Kind::kTimeout, {}, {}};
            case S::kClosed:
                broken_ = true;
                return {Incoming::Kind::kClosed, {},
                        r.text.empty() ? "peer disconnected"
                                       : "peer disconnected in the middle of a message '" +
                                             printable(r.text) + "'"};
            case S::kTooLong:
                broken_ = true;
                return {Incoming::Kind::kBroken, {},
                        "over-long message from the peer (no NUL within " +
                            std::to_string(kMaxMessage) + " characters): '" + printable(r.text) + "'"};
            case S::kError:
                broken_ = true;
                return {Incoming::Kind::kBroken, {}, "connection error: " + r.text};
        }
        return {};
    }
    void push_back(Message m) { pending_ = std::move(m); }
    bool has_pending() const { return pending_.has_value(); }
    bool send(const Message& m) {
        if (c_.write(encode(m))) return true;
        broken_ = true;
        return false;
    }
    // Whether the stream can still carry messages both ways.
    bool usable() const { return !broken_ && c_.open(); }
    net::Connection& connection() { return c_; }

private:
    net::Connection& c_;
    std::optional<Message> pending_;
    bool broken_ = false;
};

// The peer's next GAMEEND, up to timeout_ms; CHAT goes to `log` on the way, and anything else
// ends the wait and is kept for the caller.
std::optional<GameEnd> next_game_end(Channel& ch, int timeout_ms,
                                     const std::function<void(const std::string&)>& log) {
    const auto start = SteadyClock::now();
    for (;;) {
        auto in = ch.next(clamp_ms(timeout_ms - ms_since(start)));
        if (in.kind != Incoming::Kind::kMessage) return std::nullopt;
        if (const auto* e = std::get_if<GameEnd>(&in.message)) return *e;
        if (const auto* c = std::get_if<Chat>(&in.message)) {
            if (log) log("chat: " + printable(c->text, kMaxMessage));
            continue;
        }
        ch.push_back(std::move(in.message));
        return std::nullopt;
    }
}

// After sending our GAMEEND: whether the peer's reply (up to timeout_ms) said no next game.
bool await_game_end(Channel& ch, int timeout_ms, const std::function<void(const std::string&)>& log) {
    const auto e = next_game_end(ch, timeout_ms, log);
    return e && e->stop == '1';
}

// DXP lets only the side to move end a game: when the rules end it on the peer's turn, the peer
// has timeout_ms to send its GAMEEND, which is answered (reason '0', as the specification asks of
// an acknowledgement, and our stop code). Nothing is sent when it does not come.
std::optional<GameEnd> peer_game_end(Channel& ch, int timeout_ms, char stop,
                                     const std::function<void(const std::string&)>& log) {
    auto e = next_game_end(ch, timeout_ms, log);
    if (e) ch.send(GameEnd{'0', stop});
    return e;
}

// The time a peer has to end a game the rules ended on its turn.
constexpr int kPeerEndMs = 1000;

// A game in progress (play::GameState), which BACKREQ may take back.
struct GameState : play::GameState<International> {
    using play::GameState<International>::GameState;
    void take_back_to(int ply) {
        const std::vector<Move<G>> moves(record.moves.begin(), record.moves.begin() + ply);
        const auto paths = search::line_paths<International>(record.opening, moves);
        *this = GameState(record.opening);
        for (const auto& m : paths) play(m);
    }
};

struct Verdict {
    std::optional<Color> winner;
    play::Ending ending = play::Ending::kNoMove;
    std::string reason;
};

// Whether the rules end the game now (as play::play_game decides; no ply limit when max_plies is
// 0).
std::optional<Verdict> rules_verdict(const GameState& g, int max_plies) {
    FixedList<BoardMove, kMaxMoves> legal;
    const auto ending =
        g.rules_ending(max_plies > 0 ? max_plies : std::numeric_limits<int>::max(), legal);
    if (!ending) return std::nullopt;
    switch (*ending) {
        case play::Ending::kNoMove:
            return Verdict{~g.pos.side, *ending,
                           std::string(g.pos.side == Color::kWhite ? "White" : "Black") +
                               " has no move"};
        case play::Ending::kRepetition:
            return Verdict{std::nullopt, *ending, "third repetition"};
        case play::Ending::kDrawRule:
            return Verdict{std::nullopt, *ending, "draw rule"};
        default:
            return Verdict{std::nullopt, *ending, "max plies"};
    }
}

std::string result_text(const std::optional<Color>& winner) {
    if (!winner) return "1/2-1/2";
    return *winner == Color::kWhite ? "1-0" : "0-1";
}

// Our GAMEEND reason for a verdict: '1' we lose, '2' draw, '3' we win.
char reason_code(const std::optional<Color>& winner, Color ours) {
    if (!winner) return '2';
    return *winner == ours ? '3' : '1';
}

// The GAMEACC codes of the specification (egameacc.htm).
const char* refusal_meaning(char code) {
    switch (code) {
        case '1': return "protocol version not supported";
        case '2': return "not this game (its time or start position), another one may be";
        case '3': return "no game at all";
        default: return "a code the specification does not define";
    }
}

// "'NAME' refused the game: code C (what C means)".
std::string refusal_text(const GameAccept& a) {
    return "'" + printable(a.follower, kMaxMessage) + "' refused the game: code " +
           std::string(1, a.code) + " (" + refusal_meaning(a.code) + ")";
}

// Both sides' clocks: `period_ms` for `moves` moves (0: the whole game), measured here.
struct Clocks {
    bool on = false;
    int moves = 0;
    std::int64_t period_ms = 0;
    std::int64_t left[2] = {0, 0};
    int made[2] = {0, 0};

    Clocks(int minutes, int moves_in_period)
        : on(minutes > 0), moves(moves_in_period), period_ms(std::int64_t(minutes) * 60000) {
        left[0] = left[1] = period_ms;
    }
    void spend(Color c, std::int64_t ms) {
        const int i = int(c);
        left[i] -= ms;
        ++made[i];
        if (moves > 0 && made[i] % moves == 0) left[i] += period_ms;
    }
    int to_go(Color c) const { return moves > 0 ? moves - made[int(c)] % moves : 0; }
};

// The legal move with the engine's choice.
BoardMove path_of(const Board& p, const Move<G>& m) {
    if (const auto pm = search::path_of<International>(p, m)) return *pm;
    throw std::logic_error("the engine chose an illegal move in " + to_fen<International>(p));
}

std::string peer_name(const std::string& s) { return s.empty() ? "peer" : s; }

}  // namespace

// --- DxpClient ------------------------------------------------------------------------------

struct ClientState {
    net::Connection connection;
    Channel channel{connection};
    std::string name;
    std::function<void(const std::string&)> log;
    bool in_game = false;
    int peer_seconds = 0;

    ClientState(net::Socket s, std::string n) : connection(std::move(s), kMaxMessage), name(std::move(n)) {}
    void note(const std::string& s) const {
        if (log) log(s);
    }
};

namespace {

net::Socket connect_to(const std::string& host_port) {
    net::Endpoint e;
    try {
        e = net::parse_endpoint(host_port, false);
    } catch (const std::invalid_argument& x) {
        throw std::runtime_error(x.what());
    }
    return net::connect(e, 2000);
}

}  // namespace

DxpClient::DxpClient(const std::string& host_port, std::string our_name)
    : state_(std::make_unique<ClientState>(connect_to(host_port), std::move(our_name))) {}

DxpClient::~DxpClient() = default;

void DxpClient::set_log(std::function<void(const std::string&)> log) { state_->log = std::move(log); }

int DxpClient::peer_seconds() const { return state_->peer_seconds; }

std::string DxpClient::start_game(const Board& p, Color follower_colour, int minutes, int moves,
                                  int timeout_ms) {
    auto& st = *state_;
    GameRequest r;
    r.initiator = st.name;
    r.follower_colour = colour_char(follower_colour);
    r.minutes = std::clamp(minutes, 0, 999);
    r.moves = std::clamp(moves, 0, 999);
    if (!(p == Board::start())) {
        const std::string b = dxp_board(p);
        r.start = 'B';
        r.to_move = b[0];
        r.board = b.substr(1);
    }
    if (!st.channel.send(r)) throw DxpFailure("peer disconnected before GAMEREQ").unusable();
    const auto start = SteadyClock::now();
    for (;;) {
        auto in = st.channel.next(clamp_ms(timeout_ms - ms_since(start)));
        if (in.kind == Incoming::Kind::kTimeout)
            throw DxpFailure("no GAMEACC within " + std::to_string(timeout_ms) + " ms").unusable();
        if (in.kind != Incoming::Kind::kMessage) throw DxpFailure(in.reason).unusable();
        if (const auto* a = std::get_if<GameAccept>(&in.message)) {
            if (a->code != '0')
                throw DxpRefused("follower " + refusal_text(*a));
            st.in_game = true;
            return peer_name(a->follower);
        }
        if (const auto* c = std::get_if<Chat>(&in.message))
            st.note("chat: " + printable(c->text, kMaxMessage));
        else if (!std::holds_alternative<GameEnd>(in.message))  // a late GAMEEND is skipped
            st.note("ignored " + describe(in.message) + " while waiting for GAMEACC");
    }
}

void DxpClient::send_move(const Board& before, const BoardMove& m, int seconds_used) {
    const MoveMessage msg = move_message(m, seconds_used);
    try {
        (void)legal_move(before, msg);
    } catch (const ParseError& e) {
        throw std::logic_error(std::string("DxpClient::send_move: ") + e.what());
    }
    if (!state_->channel.send(msg)) throw DxpFailure("peer disconnected").unusable();
}

BoardMove DxpClient::receive_move(const Board& before, int timeout_ms,
                                  const std::atomic<bool>* abandon) {
    auto& st = *state_;
    const auto start = SteadyClock::now();
    constexpr int kPollMs = 50;  // how often `abandon` is looked at
    for (;;) {
        if (abandon && abandon->load()) throw DxpFailure("the match gave the game up");
        const int left = clamp_ms(timeout_ms - ms_since(start));
        auto in = st.channel.next(abandon ? std::min(left, kPollMs) : left);
        if (in.kind == Incoming::Kind::kTimeout) {
            if (ms_since(start) < timeout_ms) continue;  // a slice of the wait, not all of it
            throw DxpFailure("no move from the peer within " + std::to_string(timeout_ms) + " ms");
        }
        if (in.kind != Incoming::Kind::kMessage) {
            st.in_game = false;
            throw DxpFailure(in.reason).unusable();
        }
        if (const auto* m = std::get_if<MoveMessage>(&in.message)) {
            try {
                BoardMove pm = legal_move(before, *m);
                st.peer_seconds = m->seconds;
                return pm;
            } catch (const ParseError& e) {
                throw DxpFailure(std::string("peer sent an ") + e.what());
            }
        }
        if (const auto* e = std::get_if<GameEnd>(&in.message)) {
            st.channel.send(GameEnd{'0', '0'});  // an acknowledgement gives no reason
            st.in_game = false;
            throw DxpFailure(std::string("peer ended the game (its GAMEEND reason ") + e->reason + ")",
                             e->reason);
        }
        if (const auto* c = std::get_if<Chat>(&in.message)) {
            st.note("chat: " + printable(c->text, kMaxMessage));
        } else if (std::holds_alternative<BackRequest>(in.message)) {
            st.channel.send(BackAccept{'1'});
            st.note("refused " + describe(in.message) + " (not supported here)");
        } else {
            st.note("ignored " + describe(in.message) + " while waiting for a move");
        }
    }
}

void DxpClient::end_game(char reason, bool last, bool peer_to_move) {
    auto& st = *state_;
    const char stop = last ? '1' : '0';
    if (!st.in_game) {
        if (last && st.channel.usable()) st.channel.send(GameEnd{'0', '1'});
        return;
    }
    st.in_game = false;
    if (peer_to_move && peer_game_end(st.channel, kPeerEndMs, stop, st.log)) return;
    if (!st.channel.send(GameEnd{reason, stop})) return;
    await_game_end(st.channel, 1000, st.log);
}

// --- Session --------------------------------------------------------------------------------

Session::Session(net::Connection& connection, search::Engine<International>& engine,
                 const SessionOptions& options, Log log, OnGame on_game)
    : connection_(connection), engine_(engine), options_(options), log_(std::move(log)),
      on_game_(std::move(on_game)) {}

namespace {

struct Setup {
    Color ours = Color::kWhite;
    std::string peer;
    Board start;
    int minutes = 0;
    int moves = 0;
};

struct GameOutcome {
    GameReport report;
    bool session_over = false;  // the connection broke or a stop code was exchanged
    std::string why;
};

class GamePlayer {
public:
    GamePlayer(Channel& ch, search::Engine<International>& engine, const SessionOptions& o,
               const Session::Log& log)
        : ch_(ch), engine_(engine), o_(o), log_(log) {}

    GameOutcome play(const Setup& s, int number, bool last) {
        GameState g(s.start);
        Clocks clocks(s.minutes, s.moves);
        const Color ours = s.ours, theirs = ~s.ours;
        const char stop = last ? '1' : '0';
        GameOutcome out;
        out.report.number = number;
        out.report.our_colour = ours;
        out.report.peer = s.peer;
        engine_.new_game();
        auto finish = [&](std::optional<Color> winner, std::string result, std::string reason) {
            out.report.game = g.record;
            out.report.game.winner = winner;
            out.report.result = std::move(result);
            out.report.reason = std::move(reason);
            return out;
        };
        // We end the game: our GAMEEND with `code` (a CHAT first when `chat`), then the reply.
        auto end_here = [&](char code, const std::string& chat) {
            if (!ch_.usable()) return;
            if (!chat.empty()) ch_.send(Chat{chat});
            if (ch_.send(GameEnd{code, stop}) && await_game_end(ch_, 2000, log_)) {
                out.session_over = true;
                out.why = "peer wants no next game";
            }
            if (last) {
                out.session_over = true;
                if (out.why.empty()) out.why = "all games played";
            }
            if (!ch_.usable()) {
                out.session_over = true;
                if (out.why.empty()) out.why = "connection closed";
            }
        };
        // The peer's GAMEEND was answered: the session ends with the peer's stop code or ours.
        auto peer_stops = [&](const GameEnd& e) {
            if (e.stop == '1' || last) {
                out.session_over = true;
                out.why = e.stop == '1' ? "peer wants no next game" : "all games played";
            }
        };
        // `can_send`: the connection still carries our messages (garbage read from the peer
        // leaves the channel unusable for reading, not for the CHAT that says why it ends).
        auto broken = [&](const std::string& reason, bool can_send) {
            if (can_send && ch_.connection().open()) {
                ch_.send(Chat{reason});
                ch_.send(GameEnd{'0', '1'});
            }
            out.session_over = true;
            out.why = reason;
            g.record.ending = play::Ending::kMaxPlies;
            return finish(std::nullopt, "*", reason);
        };
        auto peer_turn_start = SteadyClock::now();
        for (;;) {
            // The ply limit is claimed on our own turn only: claimed right after our move, it
            // would cross the peer's reply, and the two sides would count different plies.
            if (const auto v = rules_verdict(g, g.pos.side == ours ? o_.max_plies : 0)) {
                g.record.ending = v->ending;
                std::optional<GameEnd> e;
                if (g.pos.side != ours && ch_.usable())
                    e = peer_game_end(ch_, kPeerEndMs, stop, log_);
                if (e)
                    peer_stops(*e);
                else
                    end_here(reason_code(v->winner, ours), "");
                return finish(v->winner, result_text(v->winner), v->reason);
            }
            // Our turn, unless a message the peer sent during our search waits to be answered.
            if (g.pos.side == ours && !ch_.has_pending()) {
                search::Limits limits;
                if (o_.movetime_ms > 0) {
                    limits.movetime_ms = o_.movetime_ms;
                } else if (clocks.on) {
                    limits.time_ms = std::max<std::int64_t>(clocks.left[int(ours)], 50);
                    limits.moves_to_go = clocks.to_go(ours);
                } else {
                    limits.movetime_ms = 1000;
                }
                search::Engine<International>::Callbacks callbacks;
                auto& conn = ch_.connection();
                auto& engine = engine_;
                // What the peer sends during the search is read after each iteration: hanging up
                // ends the search, and so does a BACKREQ or a GAMEEND, which is then answered
                // instead of our move (the spec allows a BACKREQ at any moment: a move sent
                // after it would be for a position the peer has left). A CHAT is logged at once
                // (at most 16 an iteration, so that a flood does not hold the search). A MOVE
                // is out of turn: the peer has lost track of the game, and it is ended as for an
                // illegal move (held, it would have been played as the reply to our move, which
                // the peer had not seen). Anything else is held for after our move, and reading
                // stops until then (one message is held at a time).
                bool answer_first = false;
                std::optional<MoveMessage> out_of_turn;
                std::optional<Incoming> lost;  // the connection broke during the search
                // What the peer sent so far: read after each iteration, and once more after the
                // search, before our move goes out (a MOVE in the last, unfinished iteration is
                // out of turn too).
                const auto read_peer = [&] {
                    // (Again after a search made again without failed tables: go() clears the
                    // stop of the first.)
                    if (conn.peer_closed() || answer_first || lost || out_of_turn) engine.stop();
                    for (int chats = 0; chats < 16 && !ch_.has_pending() && !lost && !out_of_turn;) {
                        auto in = ch_.next(0);
                        if (in.kind == Incoming::Kind::kTimeout) break;
                        if (in.kind != Incoming::Kind::kMessage) {
                            lost = std::move(in);
                            engine.stop();
                            break;
                        }
                        if (const auto* c = std::get_if<Chat>(&in.message)) {
                            if (log_) log_("chat: " + printable(c->text, kMaxMessage));
                            ++chats;
                            continue;
                        }
                        if (const auto* m = std::get_if<MoveMessage>(&in.message)) {
                            out_of_turn = *m;
                            engine.stop();
                            break;
                        }
                        answer_first = std::holds_alternative<BackRequest>(in.message) ||
                                       std::holds_alternative<GameEnd>(in.message);
                        ch_.push_back(std::move(in.message));
                        if (answer_first) engine.stop();
                    }
                };
                callbacks.iteration = [&](const search::Iteration<G>&) { read_peer(); };
                const auto t0 = SteadyClock::now();
                std::optional<book::BookMove<International>> from_book;
                if (o_.book) from_book = o_.book->choose(g.pos, g.history.size());
                // Tables that fail during the search are turned off, and the search is made
                // again without them: the game goes on.
                const auto table_error = [this](const std::string& notice) {
                    if (o_.on_error)
                        o_.on_error(notice);
                    else if (log_)
                        log_(notice);
                };
                const Move<G> best =
                    from_book ? from_book->move.move
                              : engine_.go_without_failed_tables(g.pos, g.history, limits, callbacks,
                                                                 table_error)
                                    .best;
                read_peer();
                if (lost) return broken(lost->reason, lost->kind == Incoming::Kind::kBroken);
                if (out_of_turn) {
                    const std::string reason = "peer sent a move out of turn (" +
                                               describe(Message{*out_of_turn}) +
                                               ", during our search)";
                    g.record.ending = play::Ending::kMaxPlies;
                    end_here('3', "dambit: " + reason);
                    return finish(ours, result_text(ours), reason);
                }
                if (answer_first) {
                    if (log_) log_("our move withheld: the peer's message came during the search");
                    continue;
                }
                const auto used = ms_since(t0);
                clocks.spend(ours, used);
                const BoardMove m = path_of(g.pos, best);
                if (!ch_.send(move_message(m, int((used + 500) / 1000))))
                    return broken("peer disconnected during our search", false);
                g.play(m);
                peer_turn_start = SteadyClock::now();
                continue;
            }
            // The peer's turn.
            const std::int64_t wait = clocks.on ? clocks.left[int(theirs)] - ms_since(peer_turn_start) +
                                                      o_.time_margin_ms
                                                : o_.idle_timeout_ms;
            auto in = ch_.next(clamp_ms(wait));
            if (in.kind == Incoming::Kind::kTimeout) {
                const std::string reason =
                    "peer silent for " + std::to_string(ms_since(peer_turn_start) / 1000) + " s";
                if (clocks.on) {
                    g.record.ending = play::Ending::kMaxPlies;
                    end_here('3', "dambit: " + reason + ", over its time: it loses");
                    return finish(ours, result_text(ours), reason + ": lost on time");
                }
                return broken(reason, true);
            }
            if (in.kind == Incoming::Kind::kClosed) return broken(in.reason, false);
            if (in.kind == Incoming::Kind::kBroken) return broken(in.reason, true);
            if (const auto* m = std::get_if<MoveMessage>(&in.message)) {
                BoardMove pm;
                try {
                    pm = legal_move(g.pos, *m);
                } catch (const ParseError& e) {
                    const std::string reason = std::string("peer sent an ") + e.what();
                    g.record.ending = play::Ending::kMaxPlies;
                    end_here('3', "dambit: " + reason);
                    return finish(ours, result_text(ours), reason);
                }
                clocks.spend(theirs, ms_since(peer_turn_start));
                g.play(pm);
                continue;
            }
            if (const auto* e = std::get_if<GameEnd>(&in.message)) {
                // The peer ends the game on its turn (the rules did not: that was seen above).
                // Its reason is "for informational purposes only" (egameend.htm): giving up
                // is taken as a result, a claimed draw or win is not.
                ch_.send(GameEnd{'0', stop});  // an acknowledgement gives no reason
                peer_stops(*e);
                g.record.ending = play::Ending::kMaxPlies;
                switch (e->reason) {
                    case '1': return finish(ours, result_text(ours), "peer resigned");
                    case '2': return finish(std::nullopt, "*", "peer ended the game claiming a draw");
                    case '3': return finish(std::nullopt, "*", "peer ended the game claiming a win");
                    default: return finish(std::nullopt, "*", "peer ended the game");
                }
            }
            if (const auto* c = std::get_if<Chat>(&in.message)) {
                if (log_) log_("chat: " + printable(c->text, kMaxMessage));
                continue;
            }
            if (const auto* b = std::get_if<BackRequest>(&in.message)) {
                // Move n with White to move is ply 2(n-1) from a White-to-move start.
                int ply = (b->move_number - 1) * 2 + (b->to_move == 'Z' ? 1 : 0);
                if (g.record.opening.side == Color::kBlack) --ply;
                if (ply >= 0 && ply <= g.plies()) {
                    ch_.send(BackAccept{'0'});
                    g.take_back_to(ply);
                    if (log_) log_("took back to ply " + std::to_string(ply) + " at the peer's request");
                    peer_turn_start = SteadyClock::now();
                } else {
                    ch_.send(BackAccept{'2'});
                    if (log_) log_("refused " + describe(in.message) + ": no such move");
                }
                continue;
            }
            if (std::holds_alternative<GameRequest>(in.message)) {
                ch_.send(GameAccept{o_.name, '2'});  // not now: another game later
                if (log_) log_("refused a GAMEREQ during game " + std::to_string(number));
                continue;
            }
            if (log_) log_("ignored " + describe(in.message) + " during a game");
        }
    }

private:
    Channel& ch_;
    search::Engine<International>& engine_;
    const SessionOptions& o_;
    const Session::Log& log_;
};

}  // namespace

std::string Session::run(int& game_counter, int max_games) {
    Channel ch(connection_);
    GamePlayer player(ch, engine_, options_, log_);
    const bool initiator = options_.games > 0;
    int played = 0;
    auto note = [&](const std::string& s) {
        if (log_) log_(s);
    };
    for (;;) {
        if (max_games > 0 && game_counter >= max_games) {
            // Give the peer a moment to send its stop code or close, then leave.
            if (ch.usable()) await_game_end(ch, 1000, log_);
            return "played " + std::to_string(game_counter) + " games";
        }
        Setup s;
        bool last = false;
        if (initiator) {
            if (played >= options_.games) {
                if (ch.usable()) ch.send(GameEnd{'0', '1'});
                return "all games played";
            }
            s.ours = played % 2 == 0 ? Color::kWhite : Color::kBlack;
            s.start = options_.start.value_or(Board::start());
            s.minutes = options_.minutes;
            s.moves = options_.moves;
            last = played + 1 == options_.games;
            GameRequest r;
            r.initiator = options_.name;
            r.follower_colour = colour_char(~s.ours);
            r.minutes = s.minutes;
            r.moves = s.moves;
            if (!(s.start == Board::start())) {
                const std::string b = dxp_board(s.start);
                r.start = 'B';
                r.to_move = b[0];
                r.board = b.substr(1);
            }
            if (!ch.send(r)) return "peer disconnected";
            bool accepted = false;
            const auto t0 = SteadyClock::now();
            while (!accepted) {
                auto in = ch.next(clamp_ms(options_.idle_timeout_ms - ms_since(t0)));
                if (in.kind == Incoming::Kind::kTimeout) return "no GAMEACC from the peer";
                if (in.kind != Incoming::Kind::kMessage) return in.reason;
                if (const auto* a = std::get_if<GameAccept>(&in.message)) {
                    // A refusal ends the session: every game asked for has the same time and
                    // start position (no GAMEEND: there is no game to end).
                    if (a->code != '0') return "peer " + refusal_text(*a);
                    s.peer = peer_name(a->follower);
                    accepted = true;
                } else if (const auto* c = std::get_if<Chat>(&in.message)) {
                    note("chat: " + printable(c->text, kMaxMessage));
                } else if (!std::holds_alternative<GameEnd>(in.message)) {
                    note("ignored " + describe(in.message) + " while waiting for GAMEACC");
                }
            }
        } else {
            bool requested = false;
            while (!requested) {
                auto in = ch.next(options_.idle_timeout_ms);
                if (in.kind == Incoming::Kind::kTimeout) {
                    const std::string why = "peer silent for " +
                                            std::to_string(options_.idle_timeout_ms / 1000) +
                                            " s outside a game";
                    ch.send(Chat{"dambit: " + why + ", closing"});
                    return why;
                }
                if (in.kind == Incoming::Kind::kClosed) return in.reason;
                if (in.kind == Incoming::Kind::kBroken) {
                    ch.send(Chat{"dambit: " + in.reason});
                    return in.reason;
                }
                if (const auto* e = std::get_if<GameEnd>(&in.message)) {
                    if (e->stop == '1') return "peer wants no next game";
                    continue;
                }
                if (const auto* c = std::get_if<Chat>(&in.message)) {
                    note("chat: " + printable(c->text, kMaxMessage));
                    continue;
                }
                const auto* r = std::get_if<GameRequest>(&in.message);
                if (!r) {
                    // A peer asking to take back waits for the answer: no move to go back to.
                    if (std::holds_alternative<BackRequest>(in.message)) ch.send(BackAccept{'2'});
                    note((std::holds_alternative<BackRequest>(in.message) ? "refused " : "ignored ") +
                         describe(in.message) + " outside a game");
                    continue;
                }
                if (r->version != "01") {
                    ch.send(GameAccept{options_.name, '1'});
                    note("refused GAMEREQ version " + r->version);
                    continue;
                }
                s.start = Board::start();
                if (r->start == 'B') {
                    try {
                        s.start = position_from_dxp(r->to_move, r->board);
                    } catch (const ParseError& e) {
                        ch.send(GameAccept{options_.name, '2'});
                        ch.send(Chat{std::string("dambit: illegal position: ") + e.what()});
                        note(std::string("refused GAMEREQ: illegal position: ") + e.what());
                        continue;
                    }
                }
                s.ours = colour_of(r->follower_colour);
                s.peer = peer_name(r->initiator);
                s.minutes = r->minutes;
                s.moves = r->moves;
                if (!ch.send(GameAccept{options_.name, '0'})) return "peer disconnected";
                requested = true;
            }
        }
        ++played;
        ++game_counter;
        auto outcome = player.play(s, game_counter, last);
        if (on_game_) on_game_(outcome.report);
        if (outcome.session_over) return outcome.why;
    }
}

}  // namespace dambit::dxp
