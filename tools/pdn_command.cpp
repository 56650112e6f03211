// dambit pdn: PDN game files: check every game of some files, or print a game's position.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "json.hpp"
#include "pdn/check.hpp"

namespace dambit {
namespace {
namespace pdn_cmd {

constexpr const char* kHelp =
    "usage: dambit pdn check FILE... [--variant V] [--json]\n"
    "       dambit pdn fen FILE --game N [--ply K] [--variant V]\n"
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
    "\n"
    "  --variant V        replay every game with these rules, whatever its GameType says\n"
    "  --json             check: one JSON object, {\"problems\":[{\"file\",\"line\",\n"
    "                     \"column\",\"game\",\"kind\",\"token\",\"message\"},...],\n"
    "                     \"files\",\"games\",\"moves\",\"errors\",\"failed\"}\n"
    "  --game N           fen: the game, from 1\n"
    "  --ply K            fen: the plies played from its start (default 0)\n"
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
        if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
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
        if (name == "-") return;
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

std::string where(const std::string& file, int game, const pdn::Problem& p) {
    return fmt::format("{}:{}:{}: game {}: {}", file, p.at.line, p.at.column, game, p.message);
}

// Progress on stderr when it is a terminal: games, megabytes and megabytes per second, at most
// four times a second.
class Progress {
public:
    Progress() : terminal_(isatty(2)) {}
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
                    fmt::print("{}\n", where(in->name(), game, p));
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
        throw cli::UsageError(fmt::format("no game {} in '{}' (it has {} game{})", number,
                                          in.name(), r.games, r.games == 1 ? "" : "s"));
    if (r.problem) {
        std::fputs(fmt::format("dambit pdn: {}\n", where(in.name(), number, *r.problem)).c_str(),
                   stderr);
        return 1;
    }
    if (r.plies < plies)
        throw cli::UsageError(fmt::format("game {} of '{}' has {} pl{} (want --ply from 0 to {})",
                                          number, in.name(), r.plies, r.plies == 1 ? "y" : "ies",
                                          r.plies));
    fmt::print("{}\n", r.fen);
    return 0;
}

}  // namespace pdn_cmd
}  // namespace

int pdn_command(int argc, char** argv) {
    using namespace pdn_cmd;  // this file's helpers (the files build as one unit)
    if (const auto status = cli::help_instead_of_action(argc, argv, kHelp)) return *status;
    const std::string action = argv[0];
    if (action == "check") return check(argc - 1, argv + 1);
    if (action == "fen") return fen(argc - 1, argv + 1);
    throw cli::UsageError(fmt::format("unknown action '{}' (want check or fen)", action));
}

}  // namespace dambit
