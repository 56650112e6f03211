// An engine of another program that speaks Hub (Scan's protocol.txt, version 2; pydraughts's
// dialect on 8x8, hub_text.hpp), as a match contestant: dambit is the GUI.
//
// The engine is started with /bin/sh -c COMMAND (process.hpp). Per game: `new-game`; per move:
// `pos pos=<opening> moves="<the game's moves>"`, a `level` line, `go think`, then lines are read
// until `done move=M` within the wait the harness allows. Whatever goes wrong during a game (an
// illegal or unreadable move, the end of its output, no answer in time, a closed input) throws
// play::PlayerFailure and kills the engine; it is started again for the next game.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/text.hpp"
#include "play/contest.hpp"
#include "protocol/hub_text.hpp"
#include "protocol/process.hpp"
#include "search/line.hpp"

namespace dambit::hub {

// Timeouts of the handshake: `hub` to `wait`, and `init` to `ready` (an engine may load its
// evaluation or book there).
inline constexpr int kHubHandshakeMs = 10000;
inline constexpr int kHubInitMs = 30000;
// How long an engine told to `stop` has for its `done`, and how often a search under way looks
// whether the match gave its game up.
inline constexpr int kHubStopMs = 1000;
inline constexpr int kHubPollMs = 50;

template <class R>
class HubContestant final : public play::Contestant<R> {
    using G = typename R::Geometry;

public:
    // `untimed` is sent as `level depth=N` or `level nodes=N` when the game has neither a clock
    // nor a move time; `side` ("B") begins the message of play::EngineLost. Starts the engine at
    // once; throws play::PlayerFailure when it does not start or answer the handshake. While it
    // waits for the engine's lines of the handshake (up to 10 s, and 30 s for `init`), here and
    // when it starts the engine again, it looks at `*stop` every kHubPollMs: once it is set the
    // engine is killed and play::Interrupted thrown.
    // `params` (NAME, VALUE) are sent as `set-param name=NAME value=VALUE` after the handshake,
    // before `init`, each to a parameter the engine declared in a `param` line (else the start
    // fails, naming the parameters it has).
    HubContestant(std::string command, const search::Limits& untimed, std::string side = {},
                  const std::atomic<bool>* stop = nullptr,
                  std::vector<std::pair<std::string, std::string>> params = {})
        : command_(std::move(command)),
          untimed_(untimed),
          side_(std::move(side)),
          stop_(stop),
          params_(std::move(params)) {
        open();
    }
    ~HubContestant() override { close(); }

    // The engine's `id` line's name and version ("Scan 3.1"), or empty.
    const std::string& engine_name() const { return id_; }
    // The same two apart, each empty when the engine does not give it.
    const std::string& id_name() const { return id_name_; }
    const std::string& id_version() const { return id_version_; }

    void start_game(const Position<R>&, Color, const play::TimeControl&) override {
        if (!process_) {
            // Started again after a failure: an engine that does not start now would forfeit
            // every game left, so the match ends instead (play::EngineLost).
            try {
                open();
            } catch (const play::PlayerFailure& f) {
                throw play::EngineLost(
                    fmt::format("{}{}hub engine '{}' could not be started again: {}", side_,
                                side_.empty() ? "" : ": ", command_, f.what()));
            }
            ++restarts_;
        }
        send("new-game");
    }

    Move<G> move(const Position<R>& p, const std::vector<Position<R>>&,
                 const play::Turn<R>& turn) override {
        if (!process_) throw play::PlayerFailure("the engine is not running");
        std::string moves;
        for (const auto& pm : search::line_paths<R>(*turn.opening, *turn.moves)) {
            if (!moves.empty()) moves += ' ';
            moves += hub_move_text<R>(pm);
        }
        std::string pos = fmt::format("pos pos={}", hub_position_text<R>(*turn.opening));
        if (!moves.empty()) pos += fmt::format(" moves={}", quote(moves));
        send(pos);
        send(level_line(turn));
        send("go think");
        const auto deadline = deadline_in(turn.wait_ms);
        // When the match gives the game up, the engine is told to `stop` and answer at once,
        // so that it is free for what comes next; the match does not wait out its move time.
        std::optional<std::chrono::steady_clock::time_point> stopped;
        std::string text;
        for (;;) {
            if (!stopped && turn.abandon && turn.abandon->load()) {
                send("stop");
                stopped = deadline_in(kHubStopMs);
            }
            int wait = turn.wait_ms > 0 ? ms_until(deadline) : -1;
            if (stopped)
                wait = wait < 0 ? ms_until(*stopped) : std::min(wait, ms_until(*stopped));
            else if (turn.abandon)  // looked at between reads
                wait = wait < 0 ? kHubPollMs : std::min(wait, kHubPollMs);
            const auto r = read(text, wait);
            if (r == proc::ChildProcess::Read::kTimeout) {
                if (turn.wait_ms > 0 && ms_until(deadline) == 0)
                    fail(fmt::format("no answer within {} ms", turn.wait_ms));
                if (stopped && ms_until(*stopped) == 0)
                    fail(fmt::format("no 'done' within {} ms of 'stop'", kHubStopMs));
                continue;
            }
            if (r == proc::ChildProcess::Read::kEnd) fail(ended());
            Line line;
            try {
                line = parse_line(text);
            } catch (const ParseError&) {
                continue;  // not a protocol line: ignored
            }
            if (line.command == "error") {
                if (const std::string* m = line.get("message")) last_error_ = *m;
                continue;
            }
            if (line.command != "done") continue;  // info, and anything unknown
            const std::string* mv = line.get("move");
            if (!mv || mv->empty())
                fail(last_error_.empty() ? std::string("'done' without a move")
                                         : fmt::format("'done' without a move (error: {})", last_error_));
            try {
                const auto pm = parse_hub_move<R>(p, *mv);
                ++moves_played_;
                return pm.move;
            } catch (const ParseError& e) {
                fail(e.what());
            }
        }
    }

    void end_game(const play::Game<R>&, Color) override { last_error_.clear(); }

    std::string spent() const override {
        std::string s = count_text(std::uint64_t(moves_played_), "move", "moves");
        if (!id_.empty()) s += fmt::format(", hub engine '{}'", id_);
        s += ", restarted " + count_text(std::uint64_t(restarts_), "time", "times");
        return s;
    }

private:
    [[noreturn]] void fail(const std::string& reason) {
        close_hard();
        throw play::PlayerFailure(reason);
    }

    void send(const std::string& line) {
        try {
            process_->write_line(line);
        } catch (const proc::ProcessError& e) {
            fail(e.what());
        }
    }

    proc::ChildProcess::Read read(std::string& text, int wait) {
        try {
            return process_->read_line(text, wait);
        } catch (const proc::ProcessError& e) {
            fail(e.what());
        }
    }

    // A line by `deadline` (kTimeout after it), looking at *stop_ every kHubPollMs meanwhile:
    // once it is set the engine is killed and play::Interrupted thrown.
    proc::ChildProcess::Read read_by(std::string& text,
                                     std::chrono::steady_clock::time_point deadline) {
        for (;;) {
            if (stop_ && stop_->load()) {
                close_hard();
                throw play::Interrupted("interrupted");
            }
            const int left = ms_until(deadline);
            const auto r = read(text, stop_ ? std::min(left, kHubPollMs) : left);
            if (r != proc::ChildProcess::Read::kTimeout || ms_until(deadline) == 0) return r;
        }
    }

    // Why the output ended: the engine's exit, as far as it can be told within a moment.
    std::string ended() {
        const std::string how = process_->exit_text(200);
        if (how == "still running") return "the engine closed its output";
        return fmt::format("the engine {}", how);
    }

    // Seconds as the protocol writes them.
    static std::string seconds(std::int64_t ms) { return fmt::format("{:.3f}", double(ms) / 1000.0); }

    std::string level_line(const play::Turn<R>& turn) const {
        // The clock before the increment: the engine adds the increment itself (protocol.txt).
        if (turn.clocked) {
            std::string s =
                fmt::format("level time={}", seconds(std::max<std::int64_t>(turn.clock_ms, 0)));
            if (turn.increment_ms > 0) s += fmt::format(" inc={}", seconds(turn.increment_ms));
            return s;
        }
        if (turn.movetime_ms > 0) return fmt::format("level move-time={}", seconds(turn.movetime_ms));
        if (untimed_.nodes > 0) return fmt::format("level nodes={}", untimed_.nodes);
        return fmt::format("level depth={}", untimed_.depth > 0 ? untimed_.depth : 6);
    }

    // The variant's names an engine may list in its `param name=variant` values, dambit's own
    // first (Scan calls International "normal").
    static std::vector<std::string> variant_names() {
        std::vector<std::string> v{std::string(R::kName)};
        if constexpr (R::Geometry::kSize == 10) v.insert(v.end(), {"normal", "standard", "10x10"});
        if (std::string(R::kName) == "english") v.insert(v.end(), {"checkers", "american"});
        return v;
    }

    static std::chrono::steady_clock::time_point deadline_in(std::int64_t ms) {
        return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    }
    // Milliseconds left until `deadline`, at least 0 (a read that only polls).
    static int ms_until(std::chrono::steady_clock::time_point deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        return int(std::clamp<std::int64_t>(left, 0, 1 << 30));
    }

    void open() {
        try {
            process_ = std::make_unique<proc::ChildProcess>(command_, kMaxLine);
        } catch (const proc::ProcessError& e) {
            throw play::PlayerFailure(e.what());
        }
        send("hub");
        std::string text;
        std::vector<std::string> offered;  // the variant names the engine lists
        std::vector<std::string> declared;  // the names of its `param` lines
        bool has_variant = false;
        // One deadline for the whole answer: an engine that keeps talking without its 'wait'
        // must not restart the clock with every line.
        const auto handshake = deadline_in(kHubHandshakeMs);
        for (;;) {
            const auto r = read_by(text, handshake);
            if (r == proc::ChildProcess::Read::kTimeout)
                fail(fmt::format("no 'wait' within {} ms of 'hub'", kHubHandshakeMs));
            if (r == proc::ChildProcess::Read::kEnd) fail(ended() + " before 'wait'");
            Line line;
            try {
                line = parse_line(text);
            } catch (const ParseError&) {
                continue;
            }
            if (line.command == "wait") break;
            if (line.command == "id") {
                std::string id;
                for (const char* key : {"name", "version"})
                    if (const std::string* v = line.get(key); v && !v->empty())
                        id += id.empty() ? *v : fmt::format(" {}", *v);
                id_ = id;
                const std::string* name = line.get("name");
                const std::string* version = line.get("version");
                id_name_ = name ? *name : std::string();
                id_version_ = version ? *version : std::string();
            } else if (line.command == "param") {
                const std::string* name = line.get("name");
                if (name && !name->empty()) declared.push_back(*name);
                if (name && *name == "variant") {
                    has_variant = true;
                    if (const std::string* values = line.get("values"))
                        for (auto t : notation_detail::split(*values, ' '))
                            if (!t.empty()) offered.emplace_back(t);
                }
            }
        }
        if (has_variant) {
            // The first of our names it lists; dambit's own when it lists none (no values). An
            // engine that lists variants, none of them ours, cannot play the match.
            const auto names = variant_names();
            std::string chosen = names.front();
            bool listed = offered.empty();
            for (const auto& n : names)
                if (std::find(offered.begin(), offered.end(), n) != offered.end()) {
                    chosen = n;
                    listed = true;
                    break;
                }
            if (!listed) {
                std::string list;
                for (const auto& o : offered) list += (list.empty() ? "" : " ") + o;
                fail(fmt::format("the engine does not play {} (its variants: {})", R::kName, list));
            }
            send(fmt::format("set-param name=variant value={}", chosen));
        }
        for (const auto& [name, value] : params_) {
            if (std::find(declared.begin(), declared.end(), name) == declared.end()) {
                std::string list;
                for (const auto& d : declared) list += (list.empty() ? "" : ", ") + d;
                fail(fmt::format("the engine has no parameter '{}' (its parameters: {})", name,
                                 list.empty() ? "none" : list));
            }
            send(fmt::format("set-param name={} value={}", quote(name), quote(value)));
        }
        send("init");
        const auto init = deadline_in(kHubInitMs);
        for (;;) {
            const auto r = read_by(text, init);
            if (r == proc::ChildProcess::Read::kTimeout)
                fail(fmt::format("no 'ready' within {} ms of 'init'", kHubInitMs));
            if (r == proc::ChildProcess::Read::kEnd) fail(ended() + " before 'ready'");
            if (text.rfind("ready", 0) == 0 && (text.size() == 5 || text[5] == ' ')) break;
        }
    }

    // Asks the engine to quit, then ends its process group.
    void close() {
        if (!process_) return;
        try {
            process_->write_line("quit", 200);
        } catch (const proc::ProcessError&) {
        }
        process_->finish(500);
        process_.reset();
    }
    void close_hard() {
        if (process_) process_->kill();
        process_.reset();
    }

    std::string command_;
    search::Limits untimed_;
    std::string side_;
    const std::atomic<bool>* stop_ = nullptr;
    std::vector<std::pair<std::string, std::string>> params_;
    std::unique_ptr<proc::ChildProcess> process_;
    std::string id_, id_name_, id_version_;
    std::string last_error_;
    int restarts_ = 0;
    int moves_played_ = 0;
};

}  // namespace dambit::hub
