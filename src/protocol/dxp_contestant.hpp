// A DXP follower (another program listening for DamExchange games) as a match contestant:
// dambit's side of the match is the initiator on one connection (DxpClient, dxp_session.hpp).
//
// DXP is a 10x10 protocol: International only. Per game: GAMEREQ with the peer's colour, the
// opening ('B' with the position unless it is the start), minutes = the --tc base in minutes
// rounded up, or with a move time enough minutes for the game's ply limit
// (ceil(movetime * max_plies / 60000) + 1), and moves 0; the harness's clock still decides time
// losses. Per move of the peer: the other side's last move is sent, then the peer's is awaited.
// After each game: the other side's last move, when it ended the game by the rules (the peer has
// not seen it), then GAMEEND with the result from our side (the peer's opponent's); at the end, a
// GAMEEND with stop code 1. A lost connection forfeits the game it happens in; the next game
// connects again.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "core/text.hpp"
#include "play/contest.hpp"
#include "protocol/dxp_session.hpp"
#include "search/line.hpp"

namespace dambit::dxp {

// The minutes of a game request for a match's time rules: the clock's base rounded up, or with a
// move time, enough for max_plies such moves and a minute; within DXP's three digits (1..999).
inline int request_minutes(const play::TimeControl& time, int max_plies) {
    std::int64_t minutes = 0;
    if (time.clocked())
        minutes = (time.base_ms + 59999) / 60000;
    else if (time.movetime_ms > 0)
        minutes = (std::min<std::int64_t>(time.movetime_ms, 999 * 60000) * max_plies + 59999) /
                      60000 +
                  1;  // at most 999 minutes * 100000 plies: no overflow
    return int(std::clamp<std::int64_t>(minutes, 1, 999));
}

class DxpContestant final : public play::Contestant<International> {
    using G = International::Geometry;

public:
    // Connects at once; throws std::runtime_error when nobody answers. `side` ("B") begins the
    // message of play::EngineLost.
    DxpContestant(std::string host_port, int max_plies, std::string side = {})
        : host_port_(std::move(host_port)), side_(std::move(side)), max_plies_(max_plies) {
        client_ = std::make_unique<DxpClient>(host_port_, "dambit");
    }
    ~DxpContestant() override {
        if (!client_) return;
        try {
            client_->end_game('0', true);
        } catch (const std::exception&) {
        }
    }

    const std::string& peer_name() const { return peer_; }

    void start_game(const Board& opening, Color colour, const play::TimeControl& time) override {
        ended_by_peer_ = false;
        known_plies_ = 0;
        if (!client_) {
            try {
                client_ = std::make_unique<DxpClient>(host_port_, "dambit");
                ++reconnects_;
            } catch (const std::exception& e) {
                // Every game left would be forfeited the same way: the match ends instead.
                throw play::EngineLost(
                    fmt::format("{}{}DXP follower '{}' could not be connected to again: {}",
                                side_, side_.empty() ? "" : ": ", host_port_, e.what()));
            }
        }
        try {
            peer_ = client_->start_game(opening, colour, request_minutes(time, max_plies_), 0,
                                        10000);
        } catch (const DxpFailure& f) {
            drop_if_broken(f);
            ended_by_peer_ = true;  // no game to end
            throw play::PlayerFailure(f.what());
        }
        last_answer_ = std::chrono::steady_clock::now();
    }

    Move<G> move(const Board& p, const std::vector<Board>& history,
                 const play::Turn<International>& turn) override {
        if (!client_) throw play::PlayerFailure("the connection is lost");
        try {
            if (!turn.moves->empty()) {
                // The other side's last move, with the seconds it took (since our last answer).
                const Board& before = history.back();
                const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                                         std::chrono::steady_clock::now() - last_answer_)
                                         .count();
                if (const auto pm = search::path_of<International>(before, turn.moves->back()))
                    client_->send_move(before, *pm, int(std::min<std::int64_t>(seconds, 999)));
            }
            const int wait = turn.wait_ms > 0 ? int(std::min<std::int64_t>(turn.wait_ms, 1 << 30))
                                              : 1 << 30;
            const BoardMove m = client_->receive_move(p, wait, turn.abandon);
            last_answer_ = std::chrono::steady_clock::now();
            ++moves_played_;
            known_plies_ = int(turn.moves->size()) + 1;
            return m.move;
        } catch (const DxpFailure& f) {
            if (f.peer_result()) ended_by_peer_ = true;
            drop_if_broken(f);
            throw play::PlayerFailure(f.what());
        }
    }

    void end_game(const play::Game<International>& game, Color colour) override {
        if (!client_ || ended_by_peer_) return;
        // The result from our side: we are the peer's opponent.
        const char reason = game.reason == play::kAbandoned ? '0'  // thrown away: no result
                            : !game.winner             ? '2'
                            : *game.winner == colour   ? '1'
                                                       : '3';
        try {
            // The other side's move that ended the game by the rules (the peer left without a
            // move, a repetition, a draw rule) goes to the peer first, as every move before it
            // did: its game record is whole, and it sees the end itself. Not at the match's ply
            // limit, which the peer does not know: it would answer the move.
            const bool by_rule = game.ending == play::Ending::kNoMove ||
                                 game.ending == play::Ending::kRepetition ||
                                 game.ending == play::Ending::kDrawRule;
            const bool sent = game.plies() == known_plies_ + 1 && by_rule;
            if (sent) {
                Board before = game.opening;
                for (int i = 0; i + 1 < game.plies(); ++i) before = before.play(game.moves[i]);
                const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                                         std::chrono::steady_clock::now() - last_answer_)
                                         .count();
                if (const auto pm = search::path_of<International>(before, game.moves.back()))
                    client_->send_move(before, *pm, int(std::min<std::int64_t>(seconds, 999)));
            }
            client_->end_game(reason, false, sent);
        } catch (const DxpFailure& f) {
            drop_if_broken(f);
        }
    }

    std::string spent() const override {
        std::string s = count_text(std::uint64_t(moves_played_), "move", "moves");
        if (!peer_.empty()) s += fmt::format(", DXP follower '{}'", peer_);
        s += ", connected again " + count_text(std::uint64_t(reconnects_), "time", "times");
        return s;
    }

private:
    void drop_if_broken(const DxpFailure& f) {
        if (!f.connection_usable()) client_.reset();
    }

    std::string host_port_;
    std::string side_;
    int max_plies_;
    std::unique_ptr<DxpClient> client_;
    std::string peer_;
    bool ended_by_peer_ = false;
    int reconnects_ = 0;
    int moves_played_ = 0;
    int known_plies_ = 0;  // the plies of the game the peer has seen (its own and those sent)
    std::chrono::steady_clock::time_point last_answer_{};
};

}  // namespace dambit::dxp
