// dambit selfplay: training data for the learned evaluation (src/learn/selfplay.hpp).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>

#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "core/threads.hpp"
#include "learn/selfplay.hpp"
#include "search/weights.hpp"

namespace dambit {

namespace {
namespace selfplay_cmd {

const char* const kHelp =
    "usage: dambit selfplay [--variant V] --out FILE [--games N | --positions N]\n"
    "         [--nodes K] [--random-plies A-B] [--max-plies P] [--seed S] [--threads T]\n"
    "         [--hash MB] [--eval E]\n"
    "\n"
    "Plays games of the engine against itself and writes their quiet positions (neither side\n"
    "has a capture), each labelled with the game's result and the search's score, for dambit\n"
    "tune. Each game starts with A to B random plies, then every move is searched K nodes\n"
    "with one thread and an empty table at the start of the game; a game ends by the rules,\n"
    "when a search proves the result, or as a draw after P plies. A position already written\n"
    "(same pieces, same side to move) is not written again. Game i depends only on the seed,\n"
    "i and the settings: the file is the same for any number of threads.\n"
    "The file is written as FILE.part a block of 64 games at a time and renamed FILE when\n"
    "complete; run the same command again after an interruption and it goes on from the last\n"
    "whole block. Progress on standard error when it is a terminal; a summary at the end.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --out FILE         the data file (see docs/learning.md for its format)\n"
    "  --games N          games to play (default 1000)\n"
    "  --positions N      play until N positions are written instead (whole blocks)\n"
    "  --nodes K          nodes per move (default 4000)\n"
    "  --random-plies A-B random plies at the start of each game (default 4-8)\n"
    "  --max-plies P      a game still going after P plies is a draw (default 200 on 8x8,\n"
    "                     300 on 10x10)\n"
    "  --seed S           the random start of each game (default 1)\n"
    "  --threads T        games played at once (default 1)\n"
    "  --hash MB          table per game (default 16)\n"
    DAMBIT_EVAL_HELP;

constexpr std::uint32_t kBlockGames = 64;

template <class R>
int run(const cli::Args& args) {
    const auto given = args.get("out");
    if (!given) throw cli::UsageError("selfplay needs --out FILE");
    // Checked before the work; a symbolic link's target is written (FILE.part, then FILE).
    const std::optional<std::string> out = cli::output_file("out", *given, ".part");
    if (args.has("games") && args.has("positions"))
        throw cli::UsageError("give --games or --positions, not both");
    const auto games = std::uint64_t(args.get_int("games", 1000, 1, 1'000'000'000));
    const auto positions = std::uint64_t(args.get_int("positions", 0, 1, INT64_MAX));
    learn::SelfplaySettings s;
    s.nodes = std::uint64_t(args.get_int("nodes", 4000, 1, INT64_MAX / 4));
    if (const auto r = args.get("random-plies")) {
        // N or A-B, each a count of plies from 0 to 100; the message gives the whole value.
        const auto dash = r->find('-');
        const auto bound = [&](const std::string& text) {
            const bool digits = !text.empty() && text.size() <= 3 &&
                                text.find_first_not_of("0123456789") == std::string::npos;
            if (!digits || std::stoi(text) > 100)
                throw cli::UsageError("bad value '" + *r +
                                      "' for --random-plies (want N or A-B, plies from 0 to 100)");
            return std::stoi(text);
        };
        if (dash == std::string::npos) {
            s.random_min = s.random_max = bound(*r);
        } else {
            s.random_min = bound(r->substr(0, dash));
            s.random_max = bound(r->substr(dash + 1));
        }
        if (s.random_min > s.random_max)
            throw cli::UsageError("--random-plies " + *r + ": the first bound is above the second");
    }
    s.max_plies = int(
        args.get_int("max-plies", R::Geometry::kSize == 8 ? 200 : 300, 1, learn::kMaxGamePlies));
    const auto weights =
        cli::weights_choice(args.get_or("eval", cli::kDefaultEval), args.variant(), "--eval");
    // The header names the evaluation by its weights, not by the option's text: a part file
    // begun with other weights under the same name (the next round of a fit) is not resumed.
    s.eval = cli::eval_identity(weights.get());
    const auto seed = std::uint64_t(args.get_int("seed", 1, 0, INT64_MAX));
    const int threads = int(args.get_int("threads", 1, 1, 256));
    const auto hash = std::size_t(args.get_megabytes("hash", learn::kDefaultSelfplayHash, 1, threads));  // one a thread
    s.hash_megabytes = hash;

    std::vector<learn::Sample> kept;
    learn::DataHeader header{std::string(R::kName), seed, s.text()};
    std::unique_ptr<learn::DataWriter> writer;
    try {
        writer = std::make_unique<learn::DataWriter>(*out, header, kept);
    } catch (const std::runtime_error& e) {
        throw cli::UsageError(e.what());
    }
    std::unordered_set<std::uint64_t> seen;
    for (const auto& x : kept) seen.insert(position_key(learn::position_of<R>(x)));
    if (!writer->damage().empty())
        cli::eprint("selfplay: {}.part is damaged: {}\n", *out, writer->damage());
    const std::uint32_t resumed = writer->next_game();
    if (resumed)
        std::fprintf(stderr, "selfplay: resuming %s.part after %u games (%zu positions)\n",
                     out->c_str(), resumed, kept.size());
    const auto done = [&] {
        return positions ? writer->records() >= positions : writer->next_game() >= games;
    };
    // A part file that holds more than asked is kept whole (its blocks are of 64 games).
    if (resumed && done())
        std::fprintf(stderr, "selfplay: %s.part holds %u games (%zu positions), as many as asked "
                     "or more: it is finished as it is\n",
                     out->c_str(), resumed, kept.size());
    kept.clear();
    // Workers take game numbers in order; the main thread writes whole blocks in game order.
    std::atomic<std::uint32_t> next{writer->next_game()};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::map<std::uint32_t, std::vector<learn::Sample>> finished;
    std::exception_ptr failure;
    const std::uint32_t last = positions ? UINT32_MAX : std::uint32_t(games);
    // None when the part file already holds what was asked (each would allocate its table).
    Workers pool(done() ? 0 : threads, "selfplay", 0, [&](std::size_t) {
            try {
                search::Engine<R> engine(hash, 1);
                engine.set_weights(weights.get());
                while (!stop) {
                    const std::uint32_t g = next++;
                    if (g >= last) break;
                    auto samples = learn::selfplay_game(engine, s, seed, g);
                    const std::lock_guard lock(mutex);
                    finished.emplace(g, std::move(samples));
                }
            } catch (...) {
                const std::lock_guard lock(mutex);
                failure = std::current_exception();
                stop = true;
            }
        });
    // Whatever ends the loop below, the workers stop before they are joined.
    const SetOnExit stop_workers{stop};

    // Ctrl-C, kill or a closed terminal: the games under way end, the whole blocks are in the
    // journal, and the same command goes on from there (exit status 130).
    cli::catch_stop_signals();
    bool interrupted = false, dry = false;
    const bool terminal = cli::progress_terminal();
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint32_t first = writer->next_game();
    std::uint64_t written_positions = 0, seen_positions = 0;
    while (!done()) {
        std::vector<learn::Sample> block;
        std::uint32_t block_games = 0;
        {
            std::unique_lock lock(mutex);
            if (failure) break;
            const std::uint32_t base = writer->next_game();
            const std::uint32_t want =
                positions ? kBlockGames
                          : std::uint32_t(std::min<std::uint64_t>(kBlockGames, games - base));
            bool whole = true;
            for (std::uint32_t g = base; g < base + want; ++g)
                if (!finished.count(g)) whole = false;
            if (whole) {
                for (std::uint32_t g = base; g < base + want; ++g) {
                    for (const auto& x : finished[g]) {
                        ++seen_positions;
                        if (seen.insert(position_key(learn::position_of<R>(x))).second)
                            block.push_back(x);
                    }
                    finished.erase(g);
                }
                block_games = want;
            }
        }
        if (!block_games) {
            if (cli::stop_requested()) {
                interrupted = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            continue;
        }
        try {
            writer->append(block_games, block);
        } catch (...) {  // a full disk: the games under way end before the error is reported
            const std::lock_guard lock(mutex);
            if (!failure) failure = std::current_exception();
            break;
        }
        written_positions += block.size();
        // With --positions, a whole block of games that found no new position means the games
        // repeat (too few random plies to vary them: --random-plies 0 plays one game over and
        // over), and no number of them would reach N.
        if (positions && block.empty()) {
            dry = true;
            break;
        }
        if (terminal) {
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double rate = double(writer->next_game() - first) / std::max(secs, 1e-9);
            const double left =
                positions ? double(positions - std::min(positions, writer->records())) /
                                std::max(double(written_positions) / std::max(secs, 1e-9), 1e-9)
                          : double(games - writer->next_game()) / std::max(rate, 1e-9);
            std::fprintf(stderr, "\rselfplay: %u games, %llu positions, %.1f games/s, %.0f s left   ",
                         writer->next_game(), (unsigned long long)writer->records(), rate, left);
        }
    }
    stop = true;
    pool.join();
    if (terminal) std::fputs("\n", stderr);
    if (failure) std::rethrow_exception(failure);
    if (interrupted) {
        std::fprintf(stderr,
                     "dambit selfplay: interrupted with %u games (%llu positions) in %s.part; the "
                     "same command goes on from there\n",
                     writer->next_game(), (unsigned long long)writer->records(), out->c_str());
        return 130;
    }
    writer->finish();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("variant {}, {} games, {} positions in {} ({}); this run: {} games, {} of {} "
               "positions new, {:.1f} s, {:.0f} positions/s\n",
               R::kName, writer->next_game(), writer->records(), *out, s.text(),
               writer->next_game() - first, written_positions, seen_positions, secs,
               double(written_positions) / std::max(secs, 1e-9));
    if (dry) {
        cli::eprint("dambit selfplay: the last {} games found no position the file did not hold: "
                    "the games repeat, so {} positions cannot be reached (more --random-plies "
                    "vary them); {} positions written\n",
                    kBlockGames, positions, writer->records());
        return 1;
    }
    return 0;
}

}  // namespace selfplay_cmd
}  // namespace

int selfplay_command(int argc, char** argv) {
    using namespace selfplay_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv,
                         {"variant", "out", "games", "positions", "nodes", "random-plies",
                          "max-plies", "seed", "threads", "hash", "eval"},
                         {"help"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() { return run<R>(args); });
}

}  // namespace dambit
