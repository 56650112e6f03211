// The Hub engine loop (hub_server.hpp).
//
// The main thread reads lines; a search runs in a thread of its own, so that `ping`, `stop` and
// `ponder-hit` are answered while it thinks. Every line out goes through one lock and is flushed.
#include "protocol/hub_server.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "book/play.hpp"
#include "core/memory.hpp"
#include "core/text.hpp"
#include "core/variant.hpp"
#include "core/version.hpp"
#include "protocol/hub_text.hpp"
#include "search/engine.hpp"
#include "search/line.hpp"
#include "search/weights.hpp"

namespace dambit::hub {
namespace {

// `s` with every byte that is not part of a well-formed UTF-8 sequence written \xNN: an error
// line echoes what the client sent, and a client reading UTF-8 (Python's decoder is strict) must
// be able to read it.
std::string utf8_text(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t n = utf8_sequence(s.substr(i))) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += fmt::format("\\x{:02X}", static_cast<unsigned char>(s[i]));
            ++i;
        }
    }
    return out;
}

class Output {
public:
    explicit Output(std::ostream& out) : out_(out) {}
    void line(const std::string& s) {
        const std::lock_guard<std::mutex> lock(mutex_);
        out_ << s << '\n';
        out_.flush();
        if (!out_) failed_ = true;
    }
    // A write failed: the GUI is gone (or the disk full), and the session ends.
    bool failed() {
        const std::lock_guard<std::mutex> lock(mutex_);
        return failed_;
    }
    // One line whatever the message holds (a file's header can put a newline in it).
    void error(const std::string& message) {
        line("error message=" + quote(utf8_text(printable(message))));
    }

private:
    std::mutex mutex_;
    std::ostream& out_;
    bool failed_ = false;
};

// The name of an argument the line gives twice (empty when none is): which value was meant?
std::string repeated_argument(const Line& line) {
    for (std::size_t i = 0; i < line.args.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (line.args[i].first == line.args[j].first) return line.args[i].first;
    return "";
}

// Reads one line into `s` (without its end: LF, CR or CR LF, the CR LF read as a line and an empty
// line, which the loop skips; a CR alone ended the lines of old Mac programs). Lines longer than
// kMaxLine are read to their end and reported by `too_long`, their text dropped. Returns false at
// the end of the input.
bool read_line(std::istream& in, std::string& s, bool& too_long) {
    s.clear();
    too_long = false;
    std::streambuf* buf = in.rdbuf();
    bool any = false;
    for (;;) {
        const int c = buf->sbumpc();
        if (c == std::char_traits<char>::eof()) return any;
        any = true;
        if (c == '\n' || c == '\r') return true;
        if (s.size() < kMaxLine)
            s += char(c);
        else
            too_long = true;
    }
}

// A number of the level command, written in decimal: digits with an optional sign, and for a
// time any real as a client's language prints it (`0.5`, `.5`, `0.30000000000000004`, `1e-05`:
// pydraughts sends Python's floats as they are); no hexadecimal, `inf` or `nan`. Throws
// ParseError naming it.
double number(const Line& line, const char* name, bool fraction) {
    const std::string& v = *line.get(name);
    if (fraction) {
        const bool plain = !v.empty() && v.find_first_not_of("0123456789+-.eE") == std::string::npos &&
                           v.find_first_of("0123456789") != std::string::npos;
        char* end = nullptr;
        const double x = plain ? std::strtod(v.c_str(), &end) : 0.0;
        if (!plain || end != v.c_str() + v.size() || !std::isfinite(x))
            throw ParseError(fmt::format("bad value '{}' for {} (want a decimal number)", v, name));
        return x;
    }
    std::size_t i = v.empty() || (v[0] != '-' && v[0] != '+') ? 0 : 1;
    std::size_t digits = 0;
    for (; i < v.size(); ++i) {
        if (v[i] >= '0' && v[i] <= '9')
            ++digits;
        else
            break;
    }
    if (digits == 0 || i != v.size() || digits > 15)
        throw ParseError(fmt::format("bad value '{}' for {} (want a whole number{})", v, name,
                                     digits > 15 ? " of at most 15 digits" : ""));
    return std::strtod(v.c_str(), nullptr);
}

std::int64_t milliseconds(double seconds) {
    return std::max<std::int64_t>(1, std::int64_t(std::clamp(seconds, 0.0, 1e9) * 1000.0));
}

// The limits of a level line (each level line says everything: what it does not give is unset).
search::Limits parse_level(const Line& line) {
    search::Limits l;
    if (line.has("depth")) {
        const double d = number(line, "depth", false);
        if (d < 1 || d > 100) throw ParseError(fmt::format("depth '{}' out of 1..100", *line.get("depth")));
        l.depth = int(d);
    }
    if (line.has("nodes")) {
        const double n = number(line, "nodes", false);  // at most 15 digits: exact in a double
        if (n < 1) throw ParseError(fmt::format("nodes '{}' below 1", *line.get("nodes")));
        l.nodes = std::uint64_t(n);
    }
    // Only the clock's time can be negative (a client behind on its clock: 1 ms).
    const auto not_negative = [&](const char* name, bool fraction) {
        const double x = number(line, name, fraction);
        if (x < 0) throw ParseError(fmt::format("{} '{}' below 0", name, *line.get(name)));
        return x;
    };
    if (line.has("move-time")) l.movetime_ms = milliseconds(not_negative("move-time", true));
    if (line.has("time")) {
        // "The increment is added before every move" (protocol.txt): this move may use it too.
        const double inc = line.has("inc") ? not_negative("inc", true) : 0.0;
        l.time_ms = milliseconds(number(line, "time", true) + inc);
        l.increment_ms = std::int64_t(std::min(inc, 1e6) * 1000.0);
        if (line.has("moves")) {
            const double m = not_negative("moves", false);
            l.moves_to_go = m >= 1 ? int(std::min(m, 1000.0)) : 0;
        }
    }
    if (line.has("infinite")) l.infinite = true;
    if (!l.depth && !l.nodes && !l.movetime_ms && !l.time_ms && !l.infinite)
        throw ParseError("level without depth, nodes, move-time, time or infinite (the last level stands)");
    return l;
}

// Scores as Scan writes them: men, two decimals; a win N plies from the end as 100 - N/100, so
// that clients reading above 90 as a win (pydraughts) see one. Judged scores stay within 90.
std::string score_text(search::Score s) {
    double men;
    if (search::is_win(s))
        men = (10000 - search::plies_to_end(s)) / 100.0;
    else if (search::is_loss(s))
        men = -(10000 - search::plies_to_end(s)) / 100.0;
    else
        men = std::clamp(s, -8999, 8999) / 100.0;
    return fmt::format("{:.2f}", men);
}

enum class Mode { kThink, kPonder, kAnalyze };

struct Params {
    std::string variant;
    std::size_t hash = 64;
    int threads = 1;
    std::string egtb;
    std::size_t egtb_cache = 64;
    int multipv = 1;
    std::string eval;
    std::string book;  // opening book file, empty: none
    int book_ply = 30;
    int book_margin = 0;
};

// One variant's engine and game, behind a virtual interface so that the loop picks the variant
// at run time.
class Session {
public:
    virtual ~Session() = default;
    virtual void set_position(const Line& line) = 0;  // throws ParseError
    virtual void new_game() = 0;
    // Starts a search of the current position in a thread; `done` lines go to `out` unless the
    // search is stopped by abandon().
    virtual void start(const search::Limits& limits, Mode mode, Output& out) = 0;
    virtual void stop() = 0;     // ends the search soon; it still says done
    virtual void abandon() = 0;  // ends the search without a done line, and waits for it
    // At the end of the input: lets a search with a limit run to its end, stops one without
    // (ponder, infinite), and waits for its done line.
    virtual void finish() = 0;
    virtual void join() = 0;
    virtual bool searching() const = 0;
    virtual bool stopping() const = 0;  // searching, and told to stop
    virtual bool terminal() const = 0;  // no legal move in the current position
    // A file a parameter names (weights, book, tables) could not be used when the session was
    // made, or the tables were turned off during a search: setting one of them again (to the same
    // value too, the files mended meanwhile) makes a new session.
    virtual bool files_failed() const = 0;
};

template <class R>
class VariantSession final : public Session {
    using G = typename R::Geometry;

public:
    VariantSession(const Params& p, Output& out) : engine_(p.hash, p.threads) {
        try {
            engine_.set_weights(search::weights_for(p.eval, R::kName).get());
        } catch (const std::exception& e) {
            // The default in its place, the strongest evaluation at hand (not the hand-made one,
            // which is about 150 Elo weaker where weights are compiled in).
            out.error(fmt::format("eval {}: {} (the default evaluation, auto, is used)", p.eval,
                                  e.what()));
            engine_.set_weights(search::weights_for("auto", R::kName).get());
            load_failed_ = true;
        }
        if (!p.book.empty()) {
            try {
                book_ = std::make_unique<book::BookPlayer<R>>(
                    book::load_book<R>(p.book), book::PlayOptions{p.book_ply, p.book_margin, 1});
            } catch (const std::exception& e) {
                out.error(fmt::format("book {} (no book is used)", e.what()));
                load_failed_ = true;
            }
        }
        std::error_code ec;
        if (!p.egtb.empty() && !std::filesystem::is_directory(p.egtb, ec)) {
            out.error(fmt::format("no table directory '{}' for egtb (no tables are used)", p.egtb));
            load_failed_ = true;
        } else if (!p.egtb.empty()) {
            try {
                const int pieces = engine_.set_tables(p.egtb, p.egtb_cache);
                if (pieces == 0) {
                    out.error(fmt::format("no complete set of {} tables in {}", R::kName, p.egtb));
                    load_failed_ = true;
                }
            } catch (const std::exception& e) {
                out.error(fmt::format("tables in {}: {}", p.egtb, e.what()));
                load_failed_ = true;
            }
        }
    }
    ~VariantSession() override { abandon(); }

    void set_position(const Line& line) override {
        Position<R> p = Position<R>::start();
        if (const std::string* pos = line.get("pos")) p = parse_hub_position<R>(*pos);
        std::vector<Position<R>> history;
        if (const std::string* moves = line.get("moves")) {
            std::size_t i = 0;
            const std::string& text = *moves;
            while (i < text.size()) {
                while (i < text.size() && text[i] == ' ') ++i;
                std::size_t j = i;
                while (j < text.size() && text[j] != ' ') ++j;
                if (j > i) {
                    const auto pm = parse_hub_move<R>(p, std::string_view(text).substr(i, j - i));
                    history.push_back(p);
                    p = p.play(pm.move);
                }
                i = j;
            }
        }
        root_ = p;
        history_ = std::move(history);
    }

    void new_game() override { engine_.new_game(); }

    bool files_failed() const override { return load_failed_ || tables_failed_.load(); }
    bool terminal() const override {
        FixedList<PathMove<G>, kMaxMoves> list;
        generate_paths<R>(root_, list);
        return list.empty();
    }

    void start(const search::Limits& limits, Mode mode, Output& out) override {
        join();
        quiet_.store(false);
        stop_.store(false);
        searching_.store(true);
        unlimited_ = mode == Mode::kPonder || limits.infinite;
        try {
            thread_ = std::thread([this, limits, mode, &out, root = root_, history = history_] {
                const std::string done = run(root, history, limits, mode, out);
                // Not searching before the answer goes out: a client may send its next command
                // as soon as it reads `done`.
                searching_.store(false);
                if (!done.empty()) out.line(done);
            });
        } catch (...) {  // the system refused the thread: no search runs (the caller says so)
            searching_.store(false);
            throw;
        }
    }
    // Through the search's stop flag, which a stop sent right after `go` (before the search
    // thread has started) cannot miss.
    void stop() override { stop_.store(true); }
    void abandon() override {
        quiet_.store(true);
        stop_.store(true);
        join();
    }
    void finish() override {
        if (unlimited_) stop_.store(true);
        join();
    }
    void join() override {
        if (thread_.joinable()) thread_.join();
    }
    bool searching() const override { return searching_.load(); }
    bool stopping() const override { return searching_.load() && stop_.load(); }

private:
    // The Hub texts of a line of moves from `p`.
    static std::vector<std::string> line_texts(const Position<R>& p, const std::vector<Move<G>>& moves) {
        std::vector<std::string> out;
        for (const auto& pm : search::line_paths<R>(p, moves)) out.push_back(hub_move_text<R>(pm));
        return out;
    }

    // Searches and returns the `done` line (empty when abandoned).
    std::string run(const Position<R>& root, const std::vector<Position<R>>& history,
                    search::Limits limits, Mode mode, Output& out) {
        // Pondering and analysis run until told to stop (an analysis with a level stops at it).
        if (mode == Mode::kPonder) limits = search::Limits{.infinite = true, .multipv = limits.multipv};
        // An analysis searches a position with one legal move for its score, as `search` does
        // (under a level it answered after the first iteration, with that iteration's score).
        if (mode == Mode::kAnalyze) limits.analysis = true;
        if (mode == Mode::kThink && book_)
            if (const auto m = book_->choose(root, history.size()))
                return "done move=" + hub_move_text<R>(m->move);
        typename search::Engine<R>::Callbacks cb;
        cb.stop_flag = &stop_;
        cb.warning = [&](const std::string& m) { out.error(m); };
        cb.iteration = [&](const search::Iteration<G>& it) {
            if (quiet_.load()) return;
            std::string pv;
            for (const auto& t : line_texts(root, it.pv)) {
                if (!pv.empty()) pv += ' ';
                pv += t;
            }
            std::string s = fmt::format("info depth={}", it.depth);
            if (it.mean_depth > 0) s += fmt::format(" mean-depth={:.1f}", it.mean_depth);
            s += fmt::format(" score={} nodes={} time={:.3f} nps={:.1f} pv={}", score_text(it.score),
                             it.nodes, double(it.time_ms) / 1000.0, double(it.nps) / 1e6, quote(pv));
            if (limits.multipv > 1) s += fmt::format(" multipv={}", it.multipv);
            out.line(s);
        };
        search::Result<G> r;
        try {
            // Tables that fail during the search are turned off, and the search is made again
            // without them: a GUI needs its move.
            r = engine_.go_without_failed_tables(root, history, limits, cb,
                                                 [&](const std::string& m) {
                                                     tables_failed_ = true;
                                                     out.error(m);
                                                 });
        } catch (const std::exception& e) {
            // The search's threads have all ended; the server answers and goes on.
            if (quiet_.load()) return "";
            out.error(fmt::format("search failed: {}", e.what()));
            return "done";
        }
        if (quiet_.load()) return "";
        if (!r.has_move) {
            out.error("no legal move in this position");
            return "done";
        }
        auto texts = line_texts(root, r.pv);
        if (texts.empty() || r.pv.front() != r.best) texts = line_texts(root, {r.best});
        std::string s = "done move=" + texts.at(0);
        if (texts.size() > 1) s += " ponder=" + texts[1];
        return s;
    }

    search::Engine<R> engine_;
    std::atomic<bool> tables_failed_{false};  // set by the search's thread
    bool load_failed_ = false;                // a named file could not be used at the start
    std::unique_ptr<book::BookPlayer<R>> book_;
    Position<R> root_ = Position<R>::start();
    std::vector<Position<R>> history_;
    std::thread thread_;
    std::atomic<bool> quiet_{false};
    std::atomic<bool> stop_{false};
    std::atomic<bool> searching_{false};
    bool unlimited_ = false;  // the search in progress ends only when told to stop
};

// A file as it stands (size, modification time, inode), to see that it was rewritten since it was
// loaded; empty for a path that names no regular file (a choice such as "auto", none).
std::string file_stamp(const std::string& path) {
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return "";
    return fmt::format("{}:{}.{}:{}", st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                       st.st_ino);
}

std::unique_ptr<Session> make_session(const Params& p, Output& out) {
    const auto v = parse_variant_name(p.variant);
    return with_variant(*v, [&]<class R>(std::type_identity<R>) -> std::unique_ptr<Session> {
        return std::make_unique<VariantSession<R>>(p, out);
    });
}

// The value of the parameter `name` (one of kParams), unquoted.
std::string param_value(const Params& p, std::string_view name) {
    if (name == "variant") return p.variant;
    if (name == "hash") return std::to_string(p.hash);
    if (name == "threads") return std::to_string(p.threads);
    if (name == "egtb") return p.egtb;
    if (name == "egtb-cache") return std::to_string(p.egtb_cache);
    if (name == "multipv") return std::to_string(p.multipv);
    if (name == "eval") return p.eval;
    if (name == "book") return p.book;
    if (name == "book-ply") return std::to_string(p.book_ply);
    if (name == "book-margin") return std::to_string(p.book_margin);
    return "";
}

void announce(Output& out, const Params& p) {
    out.line(fmt::format("id name=dambit version={} author=\"the dambit developers\" country=none",
                         kVersion));
    for (const ParamSpec& spec : kParams) {
        std::string s = fmt::format("param name={} value={} type={}", spec.name,
                                    quote(param_value(p, spec.name)), spec.type);
        if (spec.type == "enum") s += " values=" + quote(variant_names(" "));
        if (spec.type == "int") s += fmt::format(" min={} max={}", spec.min, spec.max);
        out.line(s);
    }
    out.line("wait");
}

// Applies set-param; throws ParseError naming a bad name or value.
// `held_mb`: the table of the engine in use, which a new one replaces (it is freed first), so
// it counts as memory available.
void set_param(Params& p, const Line& line, std::size_t held_mb) {
    const std::string* name = line.get("name");
    const std::string* value = line.get("value");
    if (!name) throw ParseError("set-param without name");
    if (!value) throw ParseError("set-param " + *name + " without value");
    // The range of kParams's entry `spec` (tt-size, Scan's name, is hash).
    auto integer = [&](std::string_view spec) {
        const long lo = param_spec(spec).min, hi = param_spec(spec).max;
        char* end = nullptr;
        const long v = std::strtol(value->c_str(), &end, 10);
        if (value->empty() || *end != '\0' || v < lo || v > hi)
            throw ParseError(fmt::format("bad value '{}' for {} (want {}..{})", *value, *name, lo, hi));
        return v;
    };
    if (*name == "variant") {
        const auto v = parse_variant_name(*value);
        if (!v)
            throw ParseError("unknown variant '" + *value + "' (known: " + variant_names(", ") + ")");
        // As announced: Scan's "normal", or dambit's name for the other aliases (`checkers`).
        p.variant = *value == "normal" ? *value : std::string(variant_name(*v));
    } else if (*name == "hash" || *name == "tt-size") {
        const long mb = integer("hash");
        // A table the machine cannot hold is refused here: `init` would fail on it, and a GUI
        // waits for `ready`.
        if (const std::string why = beyond_memory(mb - std::min<long>(mb, long(held_mb)));
            !why.empty())
            throw ParseError(fmt::format("bad value '{}' for {} ({})", *value, *name, why));
        p.hash = std::size_t(mb);
    } else if (*name == "threads") {
        p.threads = int(integer("threads"));
    } else if (*name == "egtb") {
        p.egtb = *value == "none" ? "" : *value;
    } else if (*name == "egtb-cache") {
        p.egtb_cache = std::size_t(integer("egtb-cache"));
    } else if (*name == "eval") {
        p.eval = value->empty() ? "auto" : *value;
    } else if (*name == "book") {
        p.book = *value == "none" ? "" : *value;
    } else if (*name == "book-ply") {
        p.book_ply = int(integer("book-ply"));
    } else if (*name == "book-margin") {
        p.book_margin = int(integer("book-margin"));
    } else if (*name == "multipv") {
        p.multipv = int(integer("multipv"));
    }
    // Other parameters are ignored, as the protocol asks.
}

// The commands of the protocol (others are ignored).
bool known_command(std::string_view c) {
    for (const std::string_view k : {"hub", "set-param", "init", "new-game", "pos", "level", "go",
                                     "ping", "stop", "ponder-hit", "quit"})
        if (c == k) return true;
    return false;
}

// The line is a set-param of the variant.
bool names_variant(const Line& line) {
    const std::string* name = line.get("name");
    return line.command == "set-param" && name && *name == "variant";
}

// The first argument whose name is not a protocol name (a letter, then letters, digits, '-' and
// '_'), or "".
std::string bad_argument_name(const Line& line) {
    for (const auto& [name, value] : line.args) {
        const auto letter = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); };
        bool ok = !name.empty() && letter(name[0]);
        for (const char ch : name)
            ok = ok && (letter(ch) || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_');
        if (!ok) return name;
    }
    return "";
}

}  // namespace

void serve(std::istream& in, std::ostream& os, const ServerDefaults& defaults) {
    Output out(os);
    Params params{defaults.variant,      defaults.hash_megabytes,       defaults.threads,
                  defaults.egtb,         defaults.egtb_cache_megabytes, defaults.multipv,
                  defaults.eval,         defaults.book,
                  defaults.book_ply,     defaults.book_margin};
    std::unique_ptr<Session> session;
    bool stale = true;  // the parameters changed since the session was made
    // The weights and book files as the session loaded them: set again after they were rewritten
    // (the next round of a fit written to the same file), they are loaded again.
    std::string eval_stamp, book_stamp;
    search::Limits level;
    level.movetime_ms = 1000;  // until a level command says otherwise
    std::optional<Line> pending_pos;
    bool pondering = false;

    bool pos_refused = false;  // the last pos was refused: no search until a good one
    // The last set-param of the variant was refused: the client meant rules dambit does not
    // know, so no search until a variant is accepted.
    bool variant_refused = false;
    auto current = [&]() -> Session& {
        if (!session || stale) {
            if (session) session->abandon();
            session.reset();
            // A hash table the process cannot have (a memory limit set_param cannot see) is
            // halved until it can: a GUI waits for `ready`, and for a move.
            const std::size_t asked = params.hash;
            for (;;) {
                try {
                    eval_stamp = file_stamp(params.eval);
                    book_stamp = file_stamp(params.book);
                    session = make_session(params, out);
                    break;
                } catch (const std::bad_alloc&) {
                    if (params.hash <= 1) {
                        params.hash = asked;
                        throw;
                    }
                    params.hash /= 2;
                }
            }
            if (params.hash != asked)
                out.error(fmt::format("hash: {} MB could not be allocated; {} MB is used",
                                      asked, params.hash));
            stale = false;
            if (pending_pos) session->set_position(*pending_pos);
        }
        return *session;
    };
    auto busy = [&] { return session && session->searching(); };
    // `checked`: refused when the last pos or variant was (not for ponder-hit: the ponder's
    // position was accepted at its `go`).
    auto go = [&](Mode mode, bool checked = true) {
        if (checked && variant_refused)
            throw ParseError("no variant: the last set-param of the variant was refused (send a good one)");
        if (checked && pos_refused)
            throw ParseError("no position: the last pos was refused (send a good one)");
        Session& s = current();
        if (s.terminal()) {
            out.error("no legal move in this position");
            return;
        }
        search::Limits l = level;
        l.multipv = params.multipv;
        if (defaults.node_cap) {
            l.infinite = false;
            l.nodes = l.nodes ? std::min(l.nodes, defaults.node_cap) : defaults.node_cap;
            if (mode == Mode::kPonder) mode = Mode::kThink;
        }
        pondering = mode == Mode::kPonder;
        s.start(l, mode, out);
    };

    std::string text;
    bool too_long = false;
    bool quit = false;
    // A line refused before its command runs (too long, a parse error, an argument twice): when
    // it was a `pos`, the position the client meant is unknown, so no search until a good one.
    // The same for a set-param that names the variant.
    auto refuse_line = [&](const std::string& message) {
        const std::size_t b = std::min(text.find_first_not_of(" \t"), text.size());
        const std::string_view word = std::string_view(text).substr(b, text.find_first_of(" \t", b) - b);
        if (word == "pos") pos_refused = true;
        if (word == "set-param" && text.find("variant") != std::string::npos) variant_refused = true;
        out.error(message);
    };
    while (!out.failed() && read_line(in, text, too_long)) {
        if (too_long) {
            refuse_line(fmt::format("line too long (over {} characters)", kMaxLine));
            continue;
        }
        Line line;
        try {
            line = parse_line(text);
        } catch (const ParseError& e) {
            refuse_line(e.what());
            continue;
        }
        const std::string& c = line.command;
        if (const std::string twice = repeated_argument(line); !twice.empty()) {
            refuse_line("argument '" + twice + "' given twice");
            continue;
        }
        // An unknown argument is ignored, as the protocol asks, but a word that cannot be an
        // argument's name (`17-21` of `pos moves=32-28 17-21`, unquoted) is a line misread
        // (unknown commands are ignored whole).
        if (const std::string bad = bad_argument_name(line); !bad.empty() && known_command(c)) {
            refuse_line("bad argument '" + bad + "' (want NAME or NAME=VALUE; quote a value with blanks)");
            continue;
        }
        // protocol.txt: after `stop` the GUI "immediately set[s] up a new search": a command for
        // it waits until the stopped search has answered `done`.
        const bool during = c == "ping" || c == "stop" || c == "ponder-hit" || c == "quit";
        if (!during && busy() && session->stopping()) session->join();
        try {
            if (c.empty()) {
                continue;
            } else if (c == "ping") {
                out.line("pong");
            } else if (c == "quit") {
                quit = true;
                break;
            } else if (c == "stop") {
                if (session) session->stop();
            } else if (c == "ponder-hit") {
                // The expected move came: think on in earnest, from the same position, with the
                // table the ponder search filled. After a stop it comes too late: the stopped
                // search answers `done`, as `stop` asked.
                if (session && session->searching() && !session->stopping() && pondering) {
                    session->abandon();
                    go(Mode::kThink, false);
                }
            } else if (busy()) {
                if (c == "pos") pos_refused = true;
                if (c == "set-param" && names_variant(line)) variant_refused = true;
                out.error("'" + c + "' during a search (send stop first)");
            } else if (c == "hub") {
                announce(out, params);
            } else if (c == "set-param") {
                const Params old = params;
                try {
                    set_param(params, line, session ? params.hash : 0);
                } catch (...) {
                    if (names_variant(line)) variant_refused = true;
                    throw;
                }
                if (names_variant(line)) variant_refused = false;
                // Two names of one variant (`normal`, `international`) are no change.
                const bool new_variant =
                    parse_variant_name(params.variant) != parse_variant_name(old.variant);
                // Weights, a book or tables that could not be used are loaded again when one of
                // them is set, to the same value too (the files mended or rebuilt meanwhile).
                // Weights or a book file rewritten since the session loaded it are loaded again
                // when set again.
                const std::string* name = line.get("name");
                const bool reload =
                    name && session &&
                    (((*name == "egtb" || *name == "eval" || *name == "book") &&
                      session->files_failed()) ||
                     (*name == "eval" && file_stamp(params.eval) != eval_stamp) ||
                     (*name == "book" && file_stamp(params.book) != book_stamp));
                if (reload || new_variant || params.hash != old.hash ||
                    params.threads != old.threads || params.egtb != old.egtb ||
                    params.egtb_cache != old.egtb_cache || params.eval != old.eval ||
                    params.book != old.book || params.book_ply != old.book_ply ||
                    params.book_margin != old.book_margin)
                    stale = true;
                if (new_variant) pending_pos.reset(), pos_refused = false;
            } else if (c == "init") {
                // `ready` in any case: a client waits for it (the error said what failed).
                try {
                    current();
                } catch (const std::exception& e) {
                    out.error(fmt::format("init: {}", e.what()));
                }
                out.line("ready");
            } else if (c == "new-game") {
                current().new_game();
            } else if (c == "pos") {
                try {
                    current().set_position(line);
                } catch (...) {
                    pos_refused = true;
                    throw;
                }
                pending_pos = line;
                pos_refused = false;
            } else if (c == "level") {
                level = parse_level(line);
            } else if (c == "go") {
                // `go` without a known mode thinks (unknown arguments are ignored, as the
                // protocol asks).
                if (line.has("ponder"))
                    go(Mode::kPonder);
                else if (line.has("analyze") || line.has("analyse"))
                    go(Mode::kAnalyze);
                else
                    go(Mode::kThink);
            }
            // Unknown commands are ignored, as the protocol asks.
        } catch (const ParseError& e) {
            out.error(e.what());
        } catch (const std::exception& e) {
            out.error(fmt::format("{}: {}", c, e.what()));
        }
    }
    // `quit` abandons the search. The end of the input is no command to stop: a client piping a
    // session (a script, `printf ... | dambit hub`) wants the answer to its last `go`.
    if (session && !quit) session->finish();
    if (session) session->abandon();
}

}  // namespace dambit::hub
