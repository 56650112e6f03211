// dambit pdn: PDN game files: check every game of some files, or print a game's position.
#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "json.hpp"
#include "pdn/check.hpp"
#include "pdn/game.hpp"
#include "pdn/journal.hpp"
#include "pdn/writer.hpp"
#include "play/analysis.hpp"
#include "search/draw.hpp"
#include "search/engine.hpp"

namespace dambit {
namespace {
namespace pdn_cmd {

constexpr const char* kHelp =
    "usage: dambit pdn check FILE... [--variant V] [--json]\n"
    "       dambit pdn fen FILE --game N [--ply K] [--variant V]\n"
    "       dambit pdn analyse FILE [--game N] [--variant V] [--depth N | --nodes N |\n"
    "         --movetime MS] [--threads T] [--hash MB] [--marks A,B,C] [--pdn OUT] [--json]\n"
    "         [--eval E] [--egtb DIR [--egtb-cache MB]]\n"
    "\n"
    "Reads PDN 3.0 game files (FILE '-' is standard input) a game at a time and replays every\n"
    "game with the rules of its GameType tag (20 international, 21 english, 23 pool, 25 russian,\n"
    "26 brazilian, 29 czech; russian without one) from its FEN tag or the start position.\n"
    "\n"
    "check   prints a line FILE:LINE:COLUMN: game N: MESSAGE for every problem (an illegal or\n"
    "        ambiguous move, a bad tag, a truncated file, ...), then the summary\n"
    "        'files F, games G, moves M, errors E, failed games X'. Exit status 1 if any game\n"
    "        has a problem. On a terminal, progress (games, MB/s) is shown on stderr.\n"
    "fen     prints the FEN of game N's position after K plies (default 0, its start).\n"
    "analyse searches every position of game N (default: of every game) and prints, for each\n"
    "        move, the value of the move played, the engine's move there and its value (for\n"
    "        the side that moved, in hundredths of a man; 'win N' / 'loss N' when proven),\n"
    "        the loss between the two (a proven win counts as 1000), the drop in expected\n"
    "        score (points of 100; 1 / (1 + exp(-value / 150)), a proven win 1) and the mark\n"
    "        it earns: '?!' from A, '?' from B, '?\?' from C (--marks, default 5,10,15). A\n"
    "        forced move is not searched. Then each side's moves, average loss, average drop\n"
    "        and marks. Exit status 1 if a game could not be replayed (reported as check\n"
    "        reports it, the game skipped).\n"
    "\n"
    "  --variant V        replay every game with these rules, whatever its GameType says\n"
    "  --json             check: one JSON object, {\"problems\":[{\"file\",\"line\",\n"
    "                     \"column\",\"game\",\"kind\",\"token\",\"message\"},...],\n"
    "                     \"files\",\"games\",\"moves\",\"errors\",\"failed\"}\n"
    "                     analyse: one object a move, {\"game\",\"ply\",\"number\",\"side\",\n"
    "                     \"move\",\"forced\",\"value\",\"best\",\"best_value\",\"loss\",\n"
    "                     \"drop\",\"mark\",\"depth\",\"nodes\",\"pv\"} (\"best\" null when\n"
    "                     forced), then one a game, {\"game\",\"variant\",\"plies\",\n"
    "                     \"final_value\",\"white\",\"black\"}, each side {\"moves\",\n"
    "                     \"average_loss\",\"average_drop\",\"inaccuracies\",\"mistakes\",\n"
    "                     \"blunders\"}; values as search's --json scores\n"
    "  --game N           fen, analyse: the game, from 1\n"
    "  --ply K            fen: the plies played from its start (default 0)\n"
    "  --depth N          analyse: search each position to depth N (1..100)\n"
    "  --nodes N          analyse: about N nodes a position\n"
    "  --movetime MS      analyse: MS milliseconds a position (default 1000)\n"
    "  --threads T        analyse: search threads (default 1)\n"
    "  --hash MB          analyse: transposition table (default 64), emptied at each position\n"
    "  --marks A,B,C      analyse: the smallest drops marked ?!, ? and ?? (default 5,10,15)\n"
    "  --pdn OUT          analyse: also write the games to OUT with each move's mark and a\n"
    "                     comment {value} or {value; best MOVE value}, a marked move's\n"
    "                     engine line as a variation; the game's own strengths (after a\n"
    "                     mark as their NAG), NAGs, variations and Annotator kept\n"
    "                     (written to OUT.tmp, renamed OUT at the end); an interrupted\n"
    "                     analysis is resumed by the same command (OUT.journal holds its\n"
    "                     settings and finished games)\n" DAMBIT_EVAL_HELP DAMBIT_TABLES_HELP
    "\n"
    "Formats and rules: docs/pdn.md.\n";

// The command line split into the files and the options (with their values).
struct CommandLine {
    std::vector<std::string> files;
    std::vector<char*> options;
};

CommandLine split(int argc, char** argv, const std::set<std::string>& valued) {
    CommandLine c;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") {  // the end of the options: the rest are files, `--odd.pdn` too
            while (++i < argc) c.files.push_back(argv[i]);
            break;
        }
        if ((a.size() > 2 && a.compare(0, 2, "--") == 0) || a == "-h") {
            c.options.push_back(argv[i]);
            if (valued.count(a.substr(2)) && i + 1 < argc) c.options.push_back(argv[++i]);
        } else {
            c.files.push_back(a);
        }
    }
    return c;
}

// An open input: standard input for "-", else the file.
class Input {
public:
    explicit Input(const std::string& name) : name_(name) {
        if (name == "-") {
            cli::check_stdin_readable();
            return;
        }
        cli::check_readable(name);
        // A file or a pipe: a device such as /dev/zero would be read for ever.
        std::error_code ec;
        const auto type = std::filesystem::status(name, ec).type();
        if (type == std::filesystem::file_type::character ||
            type == std::filesystem::file_type::block)
            throw cli::UsageError(fmt::format("cannot read '{}': a device, not a file", name));
        file_ = std::make_unique<std::ifstream>(name, std::ios::binary);
        if (!*file_) throw cli::UsageError(fmt::format("cannot open '{}'", name));
    }
    std::istream& stream() { return file_ ? *file_ : std::cin; }
    const std::string& name() const { return name_; }

private:
    std::string name_;
    std::unique_ptr<std::ifstream> file_;
};

std::optional<Variant> forced_variant(const cli::Args& args) {
    if (!args.has("variant")) return std::nullopt;
    return args.variant();
}

// Progress on stderr when it is a terminal: games, megabytes and megabytes per second, at most
// four times a second.
class Progress {
public:
    Progress() : terminal_(cli::progress_terminal()) {}
    void start(const std::string& file) {
        file_ = file;
        t0_ = last_ = std::chrono::steady_clock::now();
    }
    void update(std::uint64_t games, std::uint64_t bytes) {
        if (!terminal_) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(250)) return;
        last_ = now;
        const double s = std::chrono::duration<double>(now - t0_).count();
        const double mb = double(bytes) / 1e6;
        std::fputs(fmt::format("\r\033[K{}: {} games, {:.1f} MB, {:.1f} MB/s", file_, games, mb,
                               s > 0 ? mb / s : 0.0)
                       .c_str(),
                   stderr);
        shown_ = true;
    }
    // Clears the progress line, before other output and at the end.
    void clear() {
        if (!shown_) return;
        std::fputs("\r\033[K", stderr);
        shown_ = false;
    }

private:
    bool terminal_;
    bool shown_ = false;
    std::string file_;
    std::chrono::steady_clock::time_point t0_, last_;
};

int check(int argc, char** argv) {
    const CommandLine c = split(argc, argv, {"variant"});
    const cli::Args args(int(c.options.size()), const_cast<char**>(c.options.data()), {"variant"},
                         {"json", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (c.files.empty()) throw cli::UsageError("check: no FILE given");
    const auto forced = forced_variant(args);
    const bool json = args.has("json");
    // Standard input is checked before any file is opened: with it closed, the first file
    // opened would take its descriptor and pass for it.
    if (std::find(c.files.begin(), c.files.end(), "-") != c.files.end()) cli::check_stdin_readable();
    std::vector<std::unique_ptr<Input>> inputs;
    for (const auto& f : c.files) inputs.push_back(std::make_unique<Input>(f));

    pdn::CheckTotals totals;
    Progress progress;
    bool first = true;
    if (json) std::fputs("{\"problems\":[", stdout);
    for (auto& in : inputs) {
        progress.start(in->name());
        const std::uint64_t games_before = totals.games;
        pdn::check_stream(
            in->stream(), forced, totals,
            [&](int game, const pdn::Problem& p) {
                progress.clear();
                if (!json) {
                    fmt::print("{}\n", pdn::problem_line(in->name(), game, p));
                    return;
                }
                fmt::print("{}\n{}", first ? "" : ",",
                           json::Object()
                               .add("file", in->name())
                               .add("line", p.at.line)
                               .add("column", p.at.column)
                               .add("game", game)
                               .add("kind", pdn::kind_name(p.kind))
                               .add("token", p.token)
                               .add("message", p.message)
                               .str());
                first = false;
            },
            [&](std::uint64_t bytes) { progress.update(totals.games - games_before, bytes); });
        if (in->stream().bad())
            throw std::runtime_error(fmt::format("cannot read '{}'", in->name()));
        progress.clear();
    }
    if (json) {
        fmt::print("{}],\"files\":{},\"games\":{},\"moves\":{},\"errors\":{},\"failed\":{}}}\n",
                   first ? "" : "\n", inputs.size(), totals.games, totals.moves, totals.errors,
                   totals.failed);
    } else {
        fmt::print("files {}, games {}, moves {}, errors {}, failed games {}\n", inputs.size(),
                   totals.games, totals.moves, totals.errors, totals.failed);
    }
    return totals.failed > 0 ? 1 : 0;
}

int fen(int argc, char** argv) {
    const CommandLine c = split(argc, argv, {"variant", "game", "ply"});
    const cli::Args args(int(c.options.size()), const_cast<char**>(c.options.data()),
                         {"variant", "game", "ply"}, {"help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (c.files.size() != 1)
        throw cli::UsageError(c.files.empty() ? "fen: no FILE given" : "fen: one FILE only");
    if (!args.has("game")) throw cli::UsageError("fen: missing --game");
    const auto forced = forced_variant(args);
    const int number = int(args.get_int("game", 1, 1, 1'000'000'000));
    const long plies = long(args.get_int("ply", 0, 0, 1'000'000));
    Input in(c.files.front());
    const auto r = pdn::position_after(in.stream(), forced, number, plies);
    if (in.stream().bad()) throw std::runtime_error(fmt::format("cannot read '{}'", in.name()));
    if (!r.found)
        throw cli::UsageError(fmt::format("no game {} in '{}' (it has {})", number, in.name(),
                                          cli::count_text(r.games, "game", "games")));
    if (r.problem) {
        cli::eprint("dambit pdn: {}\n", pdn::problem_line(in.name(), number, *r.problem));
        return 1;
    }
    if (r.plies < plies)
        throw cli::UsageError(fmt::format("game {} of '{}' has {} (want --ply from 0 to {})",
                                          number, in.name(),
                                          cli::count_text(r.plies, "ply", "plies"), r.plies));
    if (r.passed)
        cli::eprint("dambit pdn: {}\n", pdn::problem_line(in.name(), number, *r.passed));
    fmt::print("{}\n", r.fen);
    return 0;
}

// "+12", "-31", "0", or "win N" / "loss N" for a proven result.
std::string value_text(search::Score v) {
    return search::score_text(v, v > 0 ? fmt::format("+{}", v) : std::to_string(v));
}

// The move number of ply k of a game whose start has `side` to move and is move `first`: "12."
// for the first mover, "12..." for the other.
template <class R>
std::string number_text(Color start_side, int k, int first) {
    const int offset = start_side == R::kFirstMover ? 0 : 1;
    const int number = first + (k + offset) / 2;
    return fmt::format("{}{}", number, (k + offset) % 2 == 0 ? "." : "...");
}

play::MarkThresholds marks_option(const cli::Args& args) {
    const auto text = args.get("marks");
    if (!text) return {};
    const auto bad = [&] {
        return cli::UsageError(fmt::format(
            "bad --marks '{}' (want three increasing drops A,B,C between 0 and 100, e.g. 5,10,15)",
            *text));
    };
    double v[3];
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        const std::size_t end = i < 2 ? text->find(',', at) : text->size();
        if (end == std::string::npos) throw bad();
        const std::string part = text->substr(at, end - at);
        char* stop = nullptr;
        v[i] = std::strtod(part.c_str(), &stop);
        if (part.empty() || *stop != '\0' || !(v[i] > 0 && v[i] <= 100) ||
            (i > 0 && v[i] <= v[i - 1]) ||
            part.find_first_not_of("0123456789.") != std::string::npos)
            throw bad();
        at = end + 1;
    }
    return {v[0], v[1], v[2]};
}

std::string summary_text(const char* side, const play::SideSummary& s) {
    return fmt::format(
        "{}: {}, average loss {:.1f}, average drop {:.1f}, {}, {}, {}", side,
        cli::count_text(s.moves, "move", "moves"), s.average_loss(), s.average_drop(),
        cli::count_text(s.inaccuracies, "inaccuracy", "inaccuracies"),
        cli::count_text(s.mistakes, "mistake", "mistakes"),
        cli::count_text(s.blunders, "blunder", "blunders"));
}

json::Raw summary_json(const play::SideSummary& s) {
    return json::Object()
        .add("moves", s.moves)
        .add("average_loss", json::Fixed{s.average_loss(), 2})
        .add("average_drop", json::Fixed{s.average_drop(), 2})
        .add("inaccuracies", s.inaccuracies)
        .add("mistakes", s.mistakes)
        .add("blunders", s.blunders);
}

// A signal stopped the analysis, in game `game` (thrown from a position's progress).
struct Interrupted {
    int game;
};

struct AnalyseOptions {
    search::Limits limits;
    std::string limit_text;
    play::MarkThresholds marks;
    int threads = 1;
    std::size_t hash = 64;
    std::string eval;
    cli::TablesOption tables;
    bool json = false;
    bool forced_variant = false;  // --variant: the rules of every game, whatever its GameType
    pdn::JournaledPdn* pdn = nullptr;     // --pdn OUT: OUT.tmp and its journal
    std::set<Variant>* warned = nullptr;  // variants without tables, already reported
};

// Analyses one game that replayed without a problem, printing it and writing it to the PDN output.
template <class R>
void analyse_one(const pdn::Game<R>& game, Variant v, int number, const AnalyseOptions& o) {
    search::Engine<R> engine(o.hash, o.threads);
    engine.set_weights(cli::weights_choice(o.eval, v, "--eval").get());
    if (!o.tables.dir.empty() && engine.set_tables(o.tables.dir, o.tables.cache_megabytes) == 0 &&
        o.warned->insert(v).second)
        fmt::print(stderr, "dambit pdn: no complete set of {} tables in {}; not probing\n",
                   R::kName, o.tables.dir);
    const bool terminal = cli::progress_terminal();
    const auto progress = [&](std::size_t done, std::size_t total) {
        if (cli::stop_requested()) throw Interrupted{number};
        if (!terminal) return;
        std::fputs(fmt::format("\r\033[Kgame {}: position {} of {}", number, done, total).c_str(),
                   stderr);
        if (done == total) std::fputs("\r\033[K", stderr);
    };
    // The draw rules' counters at the start: the H field of the FEN tag replay read (the first),
    // as `pdn fen` counts on from it.
    const auto fen = std::find_if(game.tags.begin(), game.tags.end(),
                                  [](const pdn::Tag& t) { return t.name == "FEN"; });
    const search::DrawCounters counters =
        fen != game.tags.end() ? search::fen_counters(fen->value) : search::DrawCounters{};
    const auto a = play::analyse_game<R>(engine, game.start, game.moves, counters, o.limits,
                                         o.marks, progress);
    const auto tag = [&](const char* name) -> std::string {
        for (const auto& t : game.tags)
            if (t.name == name) return t.value;
        return "?";
    };
    if (!o.json) {
        fmt::print("game {}: {}, {} - {}, {}, {}, {} a position\n", number, R::kName,
                   tag("White"), tag("Black"), game.result,
                   cli::count_text(a.plies.size(), "ply", "plies"), o.limit_text);
        fmt::print("{:<7} {:<20} {:>8}  {:<20} {:>8} {:>6} {:>6}\n", "move", "played", "value",
                   "best", "value", "loss", "drop");
    }
    std::vector<std::string> marks, comments;
    const int first_number = game.first_number;
    for (const auto& p : a.plies) {
        const std::string number_str = number_text<R>(game.start.side, p.ply, first_number);
        const char* mark = play::mark_text(p.mark);
        marks.push_back(mark);
        const bool first_drawn = p.drawn && (p.ply == 0 || !a.plies[std::size_t(p.ply) - 1].drawn);
        if (first_drawn)
            comments.push_back(fmt::format("drawn before this move: {}", play::drawn_name(*p.drawn)));
        else if (p.forced || p.drawn)
            comments.emplace_back();
        else if (p.mark == play::Mark::kNone)
            comments.push_back(value_text(p.played_score));
        else
            comments.push_back(fmt::format("{}; best {} {}", value_text(p.played_score), p.best,
                                           value_text(p.score)));
        if (o.json) {
            fmt::print("{}\n", json::Object()
                                   .add("game", number)
                                   .add("ply", p.ply + 1)
                                   .add("number", number_str)
                                   .add("side", p.side == Color::kWhite ? "white" : "black")
                                   .add("move", p.played)
                                   .add("forced", p.forced)
                                   .add("drawn", p.drawn ? std::optional<std::string>(
                                                               play::drawn_name(*p.drawn))
                                                         : std::nullopt)
                                   .add("value", p.played_score)
                                   .add("best", p.forced || p.drawn
                                                    ? std::nullopt
                                                    : std::optional<std::string>(p.best))
                                   .add("best_value", p.score)
                                   .add("loss", p.loss)
                                   .add("drop", json::Fixed{p.drop, 1})
                                   .add("mark", std::string(mark))
                                   .add("depth", p.depth)
                                   .add("nodes", p.nodes)
                                   .add("pv", p.pv)
                                   .str());
        } else {
            if (p.drawn)
                fmt::print("{:<7} {:<20} {:>8}  (drawn before it: {})\n", number_str, p.played,
                           value_text(p.played_score), play::drawn_name(*p.drawn));
            else if (p.forced)
                fmt::print("{:<7} {:<20} {:>8}  (forced)\n", number_str, p.played,
                           value_text(p.played_score));
            else
                fmt::print("{:<7} {:<20} {:>8}  {:<20} {:>8} {:>6} {:>6.1f}\n", number_str,
                           p.played + mark, value_text(p.played_score), p.best, value_text(p.score),
                           p.loss, p.drop);
        }
    }
    if (o.json) {
        fmt::print("{}\n", json::Object()
                               .add("game", number)
                               .add("variant", std::string(R::kName))
                               .add("plies", a.plies.size())
                               .add("final_value", a.final_score)
                               .add("drawn", a.drawn ? std::optional<std::string>(play::drawn_name(*a.drawn))
                                                     : std::nullopt)
                               .add("white", summary_json(a.white))
                               .add("black", summary_json(a.black))
                               .str());
    } else {
        fmt::print("{}\n{}\n\n", summary_text("white", a.white), summary_text("black", a.black));
    }
    std::fflush(stdout);
    if (o.pdn) {
        pdn::Game<R> out = game;
        // The GameType of the rules the game was replayed with (write_game adds it).
        std::erase_if(out.tags, [&](const pdn::Tag& t) {
            return o.forced_variant && t.name == "GameType";
        });
        // dambit joins the game's annotators ("lidraughts.org; dambit pdn analyse, ..."), in
        // place of an analysis of its own from an earlier run.
        const std::string ours = fmt::format("dambit pdn analyse, {} a position", o.limit_text);
        const auto annotator =
            std::find_if(out.tags.begin(), out.tags.end(),
                         [](const pdn::Tag& t) { return t.name == "Annotator"; });
        if (annotator == out.tags.end()) {
            out.tags.push_back({"Annotator", ours, {}});
        } else {
            std::string joined;
            for (const auto part : notation_detail::split(annotator->value, ';')) {
                const std::string_view name = notation_detail::trim(part);
                if (name.empty() || name.starts_with("dambit pdn analyse")) continue;
                joined += std::string(name) + "; ";
            }
            annotator->value = joined + ours;
        }
        // The engine's line after each marked move, as a variation: the moves played instead.
        std::vector<std::vector<std::string>> lines(a.plies.size());
        Position<R> before = game.start;  // the position before each move in turn
        for (std::size_t k = 0; k < a.plies.size(); before = before.play(game.moves[k++].move)) {
            const auto& p = a.plies[k];
            if (p.mark == play::Mark::kNone || p.pv.empty()) continue;
            Position<R> at = before;
            for (const std::string& text : p.pv) {
                const auto pm = parse_move<R>(at, text);  // the engine's line: legal moves
                lines[k].push_back(pdn::pdn_move_text<R>(at, pm));
                at = at.play(pm.move);
            }
        }
        o.pdn->append(pdn::write_game<R>(out, marks, comments, lines), std::uint64_t(number), {});
    }
}

// The journal of analyse --pdn OUT (pdn/journal.hpp): a line per game written, by its number.
constexpr pdn::JournalKind kAnalyseJournal{"analyse", "game",  0, false, "analysis", "game",
                                           "analysed again"};

// What decides the analysed games, as the journal records it: the program and the input by
// their checksums, the limits, marks, threads, table, evaluation (a weights file by its
// checksum), rules and tables (by what they hold: cli::tables_identity).
std::string analyse_settings(const cli::Args& args, const AnalyseOptions& o,
                             std::string_view input) {
    std::string s = fmt::format("dambit={},input=xxh64:{:016x},", cli::program_identity(),
                                XXH64(input.data(), input.size(), 0));
    s += cli::limits_key(o.limits);
    s += fmt::format(",marks={:g}/{:g}/{:g},threads={},hash={},eval=", o.marks.inaccuracy,
                     o.marks.mistake, o.marks.blunder, o.threads, o.hash);
    const bool word = o.eval == "auto" || o.eval == "learned" || o.eval == "hand";
    s += word ? o.eval
              : pdn::journal_value(o.eval) + ":" + cli::file_identity(o.eval, "--eval");
    s += fmt::format(",variant={},game={},egtb={}",
                     args.has("variant") ? variant_name(args.variant()) : "tagged",
                     args.has("game") ? args.get_or("game", "") : "all",
                     pdn::journal_value(cli::tables_identity(
                         o.tables.dir, args.has("variant") ? variant_name(args.variant()) : "")));
    return s;
}

int analyse(int argc, char** argv) {
    const std::set<std::string> valued = {"variant",  "game",    "depth", "nodes",
                                          "movetime", "threads", "hash",  "marks",
                                          "pdn",      "eval",    "egtb",  "egtb-cache"};
    const CommandLine c = split(argc, argv, valued);
    const cli::Args args(int(c.options.size()), const_cast<char**>(c.options.data()), valued,
                         {"json", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (c.files.size() != 1)
        throw cli::UsageError(c.files.empty() ? "analyse: no FILE given"
                                              : "analyse: one FILE only");
    const auto forced = forced_variant(args);
    const std::optional<int> wanted =
        args.has("game") ? std::optional<int>(int(args.get_int("game", 1, 1, 1'000'000'000)))
                         : std::nullopt;
    AnalyseOptions o;
    o.limits = cli::limits_option(args, 1000);
    o.limit_text = o.limits.depth   ? fmt::format("depth {}", o.limits.depth)
                   : o.limits.nodes ? fmt::format("{} nodes", o.limits.nodes)
                                    : fmt::format("{} ms", o.limits.movetime_ms);
    o.marks = marks_option(args);
    o.threads = int(args.get_int("threads", 1, 1, 256));
    o.hash = std::size_t(args.get_megabytes("hash", 64));
    o.eval = args.get_or("eval", cli::kDefaultEval);
    o.tables = cli::tables_option(args);
    o.json = args.has("json");
    o.forced_variant = forced.has_value();
    std::set<Variant> warned;
    o.warned = &warned;
    // A wrong --eval is an error before any search: checked for --variant (or Russian) here, and
    // for each game's variant when it is analysed.
    if (forced) cli::weights_choice(o.eval, *forced, "--eval");

    Input in(c.files.front());
    std::optional<std::string> out_path;
    if (const auto file = args.get("pdn")) {
        out_path = cli::output_file("pdn", *file);
        (void)cli::output_file("pdn", *out_path + ".journal");  // written beside it as it goes
        // The analysed games would replace the games analysed, with their variations and marks.
        std::error_code ec;
        if (std::filesystem::equivalent(c.files.front(), *out_path, ec))
            throw cli::UsageError(fmt::format("--pdn {}: is the file analysed (the analysed "
                                              "games would replace it)",
                                              *file));
    }
    // With --pdn OUT the analysed games go to OUT.tmp as they are done, with a journal
    // (pdn/journal.hpp), and OUT.tmp becomes OUT at the end: an interrupted analysis is resumed
    // by the same command. The input is read whole first (it may be a pipe), so that the
    // journal can name it by its checksum.
    std::unique_ptr<file_io::ExclusiveLock> out_lock;  // OUT.tmp and OUT.journal: this run's
    std::unique_ptr<pdn::JournaledPdn> journal;
    std::istringstream whole;
    std::uint64_t resumed_up_to = 0;  // the games up to this number were analysed before
    if (out_path) {
        out_lock = cli::lock_tmp("pdn", *out_path);
        std::string bytes(std::istreambuf_iterator<char>(in.stream()), {});
        if (in.stream().bad()) throw std::runtime_error(fmt::format("cannot read '{}'", in.name()));
        const std::string settings = analyse_settings(args, o, bytes);
        whole.str(std::move(bytes));
        try {
            journal = std::make_unique<pdn::JournaledPdn>(kAnalyseJournal, *out_path, settings);
        } catch (const pdn::ResumeRefused& e) {
            throw cli::UsageError(std::string("--pdn: ") + e.what());
        }
        if (!journal->damage().empty()) cli::eprint("dambit pdn: {}\n", journal->damage());
        if (!journal->resumed().empty()) {
            resumed_up_to = journal->resumed().back().number;
            cli::eprint("dambit pdn: resumed from {}: the games up to game {} were analysed "
                        "before (not printed again)\n",
                        journal->tmp_path(), resumed_up_to);
        }
        o.pdn = journal.get();
    }
    // With --pdn the game's variations are kept, to be written back.
    pdn::Reader reader(out_path ? static_cast<std::istream&>(whole) : in.stream(),
                       out_path.has_value());
    pdn::RawGame raw;
    int games = 0, analysed = 0, failed = 0;
    // Ctrl-C, kill or a closed terminal: the games analysed so far stay printed, and in OUT.tmp.
    cli::catch_stop_signals();
    try {
        while (reader.next(raw)) {
            games = raw.number;
            if (wanted && raw.number != *wanted) continue;
            // A game done before a resume is replayed (its problems said again), not analysed.
            const bool done = std::uint64_t(raw.number) <= resumed_up_to;
            std::optional<pdn::Problem> problem = raw.doubtful_moves();
            const auto v = problem ? std::nullopt : pdn::game_variant(raw, forced, problem);
            if (v)
                with_variant(*v, [&]<class R>(std::type_identity<R>) {
                    pdn::Game<R> game;
                    problem = pdn::replay<R>(raw, game);
                    pdn::note_untagged(raw, forced, *v, problem);
                    // A result that disagrees is passed over with the rest, not a stop. Said
                    // before the game's table, so that it stands with the game.
                    if (!problem || problem->kind == pdn::ProblemKind::kResultMismatch) {
                        if (const auto passed = pdn::passed_over(raw, problem))
                            cli::eprint("dambit pdn: {}\n",
                                        pdn::problem_line(in.name(), raw.number, *passed));
                        problem.reset();
                    }
                    if (!problem && !done) analyse_one<R>(game, *v, raw.number, o);
                    return 0;
                });
            if (problem) {
                fmt::print(stderr, "dambit pdn: {} (game not analysed)\n",
                           pdn::problem_line(in.name(), raw.number, *problem));
                ++failed;
            } else {
                ++analysed;
            }
            if (wanted) break;
        }
    } catch (const Interrupted& stop) {
        if (cli::progress_terminal()) std::fputs("\r\033[K", stderr);
        std::fflush(stdout);
        cli::eprint("dambit pdn: interrupted in game {}; {} analysed before it{}\n", stop.game,
                    cli::count_text(analysed, "game", "games"),
                    journal && journal->size() > 0
                        ? fmt::format("; they are in {}, and the same command resumes the "
                                      "analysis",
                                      journal->tmp_path())
                        : "");
        return 130;
    }
    if (in.stream().bad()) throw std::runtime_error(fmt::format("cannot read '{}'", in.name()));
    if (wanted && games < *wanted)
        throw cli::UsageError(fmt::format("no game {} in '{}' (it has {})", *wanted, in.name(),
                                          cli::count_text(games, "game", "games")));
    // Nothing to analyse is said, not summed up as a run that did its work.
    if (games == 0) throw cli::UsageError(fmt::format("no game in '{}'", in.name()));
    // No game written (the one asked for cannot be replayed): OUT is left as it was, and OUT.tmp
    // and the journal are removed with `journal`.
    if (journal && journal->size() == 0)
        cli::eprint("dambit pdn: no game analysed; '{}' not written\n", *out_path);
    else if (journal)
        journal->finish(journal->size());
    if (!o.json && !wanted)
        fmt::print("games {}, analysed {}, not analysed {}\n", games, analysed, failed);
    return failed > 0 ? 1 : 0;
}

}  // namespace pdn_cmd
}  // namespace

int pdn_command(int argc, char** argv) {
    using namespace pdn_cmd;  // this file's helpers (the files build as one unit)
    if (const auto status = cli::help_instead_of_action(argc, argv, kHelp)) return *status;
    const std::string action = argv[0];
    if (action == "check") return check(argc - 1, argv + 1);
    if (action == "fen") return fen(argc - 1, argv + 1);
    if (action == "analyse" || action == "analyze") return analyse(argc - 1, argv + 1);
    throw cli::UsageError(fmt::format("unknown action '{}' (want check, fen or analyse)", action));
}

}  // namespace dambit
