// dambit perft: leaf counts per depth, --divide per root move, --verify against published tables.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "cli.hpp"
#include "cluster/cluster.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "core/key.hpp"
#include "core/notation.hpp"
#include "json.hpp"
#include "perft/checkpoint.hpp"
#include "perft/perft.hpp"
#include "tables.hpp"

namespace dambit {
namespace {
namespace perft_cmd {

constexpr const char* kHelp =
    "usage: dambit perft [--variant V] [--fen FEN] --depth N [--duplicates drop|keep] [--divide]\n"
    "                    [--threads T] [--hash MB] [--json] [--checkpoint FILE]\n"
    "       dambit perft --verify [--variant V|all] [--max-seconds S] [--threads T] [--hash MB]\n"
    "\n"
    "Counts the leaf positions N plies from a position (bulk counting at the last ply) and prints\n"
    "one line per depth 1..N with nodes, seconds and Mnodes/s.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --fen FEN          position (default: the variant's start position)\n"
    "  --depth N          deepest ply to count, 1..30\n"
    "  --duplicates D     drop (default): identical captures once; keep: every capture path\n"
    "  --divide           also print the count of each root move at depth N\n"
    "  --threads T        worker threads (default 1); moves two plies deep are shared out\n"
    "  --hash MB          shared table of subtree counts (default 0: none); never changes a count\n"
    "  --json             one object per line: {\"depth\":D,\"nodes\":N,\"seconds\":S}\n"
    "                     (with --divide also {\"move\":M,\"nodes\":N} per root move; after\n"
    "                     --checkpoint: \"checkpoint\":true for a depth read from it,\n"
    "                     \"resumed_subtrees\":K for one counted partly from it)\n"
    "  --checkpoint FILE  record finished depths and subtrees (the positions two plies deep) in\n"
    "                     FILE, replaced atomically at most once a second; run the same command\n"
    "                     again after an interruption and it goes on where FILE left off; FILE\n"
    "                     has a checksum: a damaged or edited one is refused (exit status 2);\n"
    "                     FILE.lock, removed at the end, keeps a second run off FILE meanwhile\n"
    "  --verify           check every row of the published tables (perft/*.txt) of the variant\n"
    "                     (--variant all: every variant); rows past the time budget are skipped\n"
    "                     and said so; exit status 1 on any mismatch\n"
    "  --max-seconds S    time budget of --verify, 0.001 or more (default 60)\n";

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

double mnps(std::uint64_t nodes, double s) { return s > 0 ? double(nodes) / s / 1e6 : 0.0; }

struct Settings {
    Duplicates duplicates = Duplicates::kDrop;
    int threads = 1;
    std::unique_ptr<PerftHash> hash;
    bool progress = false;  // report finished subtrees on stderr during long depths
    std::vector<cluster::RankTime> times;  // under mpirun: what each rank did
};

std::uint64_t sum(const std::vector<std::uint64_t>& v) {
    std::uint64_t n = 0;
    for (auto x : v) n = add_count(n, x);
    return n;
}

// A checkpoint file (perft/checkpoint.hpp: the run it belongs to, the depths finished, the
// subtrees finished at the depth under way, and a checksum) and where it is kept.
struct Checkpoint : PerftCheckpoint {
    std::string path;
    std::size_t resumed = 0;  // subtrees of the depth under way taken from the file
    Clock::time_point last_write{};
    std::unique_ptr<file_io::LockFile> lock;  // FILE.lock, while this run writes FILE

    // Locks FILE.lock (another run writing the same checkpoint is a usage error), then reads
    // `path` if it exists; a file that cannot be read, of another run or format, or a damaged one
    // is a usage error naming it (exit status 2), not ignored (it would be overwritten).
    void load() {
        if (path.empty()) throw cli::UsageError("--checkpoint: empty file name");
        try {
            // Beside the file written: a symbolic link and its target are one checkpoint.
            lock = std::make_unique<file_io::LockFile>(file_io::output_path(path) + ".lock");
        } catch (const std::runtime_error& e) {
            throw cli::UsageError("--checkpoint " + path + ": " + e.what());
        }
        // Then (the check writes FILE.tmp for a moment, which only the lock's holder may) a
        // directory, a FIFO or a device is refused by name before anything is read from it (a
        // FIFO would block the read).
        cli::output_file("checkpoint", path);
        if (::access(path.c_str(), F_OK) != 0 && errno == ENOENT) return;
        std::string text;
        try {
            text = file_io::read_all(path);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError("--checkpoint " + path + ": " + e.what());
        }
        try {
            static_cast<PerftCheckpoint&>(*this) = parse_checkpoint(text, path, run);
        } catch (const CheckpointError& e) {
            throw cli::UsageError(e.what());
        }
    }

    // Writes FILE.tmp and renames it over FILE, so that FILE is always whole.
    void save() {
        file_io::replace_file(path, checkpoint_text(*this));
        last_write = Clock::now();
    }
};

// One subtree's count with the settings' threads: its own subtrees, two plies further down, are
// shared out over them (a rank of an MPI job counts one subtree at a time).
template <class R>
std::uint64_t count_subtree(const Position<R>& p, int depth, Settings& s) {
    const std::uint64_t n = s.threads == 1 || depth < 3
                                ? perft<R>(p, depth, s.duplicates, s.hash.get())
                                : sum(perft_divide(p, depth, s.duplicates, s.threads, s.hash.get()));
    if (n > std::uint64_t(INT64_MAX)) throw PerftOverflow();  // a subtree's count is signed
    return n;
}

// What the other ranks need to count the subtrees of a depth: they make the same split.
template <class R>
std::string job_text(const Position<R>& p, int depth, Duplicates dup) {
    return fmt::format("{} {} {} {}", R::kName, dup == Duplicates::kKeep ? "keep" : "drop", depth,
                       to_fen<R>(p));
}

// Under mpirun: the subtrees not counted yet (sub[k] < 0) handed out by rank 0, in order, to the
// ranks as each asks for one, rank 0 counting too; on_done(k, n) as the results come in.
template <class R>
void count_on_ranks(const Position<R>& p, int depth, const PerftSplit<R>& split, Settings& s,
                    std::vector<std::int64_t>& sub,
                    const std::function<void(int, std::uint64_t)>& on_done, Checkpoint* c) {
    cluster::Job job;
    job.text = job_text(p, depth, s.duplicates);
    for (const std::int64_t n : sub) job.items += n < 0;
    std::size_t next = 0;
    job.next = [&]() -> std::optional<std::size_t> {
        while (next < sub.size() && sub[next] >= 0) ++next;
        if (next == sub.size()) return std::nullopt;
        return next++;
    };
    job.local = [&](std::size_t k) { return count_subtree(split.pos[k], split.sub_depth, s); };
    job.done = [&](std::size_t k, std::uint64_t n, int, double) {
        sub[k] = std::int64_t(n);
        on_done(int(k), n);
    };
    job.on_stop = [&](const std::string& why) {
        if (s.progress) cli::eprint("{:>60}\r", "");
        if (!c) {
            cli::eprint("dambit perft: {}: stopped at depth {}\n", why, depth);
            return;
        }
        c->save();
        cli::eprint(
                   "dambit perft: {}: stopped at depth {}; {} keeps {} finished depths and {} of "
                   "its {} subtrees: run the same command again to go on\n",
                   why, depth, c->path, c->depths.size(), c->done.size(), sub.size());
    };
    cluster::serve(job, s.times);
}

// A rank other than 0: counts the subtrees rank 0 hands out until it says the run is over.
// A signal (mpirun passes Ctrl-C on to every rank as SIGTERM) leaves it working: rank 0 saves
// the checkpoint and ends the job, which it could not do once a rank had died of the signal. A
// signal to this rank alone ends it after its subtree, as a failure rank 0 reports.
int perft_worker(Settings& s) {
    cli::catch_stop_signals();
    cluster::Worker w;
    std::string job;
    std::function<std::uint64_t(std::size_t)> count;
    std::uint64_t value = 0;
    while (const auto k = w.next_item(value)) {
        if (cli::stop_requested()) {
            std::this_thread::sleep_for(std::chrono::seconds(2));  // rank 0 may be ending the job
            throw std::runtime_error("stopped by a signal");
        }
        if (w.job() != job) {
            job = w.job();
            std::istringstream in(job);
            std::string variant, dup, fen;
            int depth = 0;
            in >> variant >> dup >> depth;
            std::getline(in >> std::ws, fen);
            const auto v = parse_variant(variant);
            if (!v) throw std::runtime_error("bad job '" + job + "'");
            s.duplicates = dup == "keep" ? Duplicates::kKeep : Duplicates::kDrop;
            count = with_variant(*v, [&]<class R>(std::type_identity<R>) {
                auto split = std::make_shared<const PerftSplit<R>>(
                    perft_split(parse_fen<R>(fen), depth, s.duplicates));
                return std::function<std::uint64_t(std::size_t)>([split, &s](std::size_t i) {
                    return count_subtree(split->pos.at(i), split->sub_depth, s);
                });
            });
        }
        value = count(*k);
    }
    return 0;
}

// Perft at one depth with the settings' threads and hash; returns the count of each root move.
// With a checkpoint, the subtrees it already holds are not counted again, and those counted now
// go into it.
template <class R>
std::vector<std::uint64_t> run_depth(const Position<R>& p, int depth, Settings& s,
                                     Checkpoint* c = nullptr) {
    const PerftSplit<R> split = perft_split(p, depth, s.duplicates);
    std::vector<std::int64_t> sub(split.pos.size(), -1);
    if (c) {
        std::uint64_t key = std::uint64_t(split.sub_depth);
        for (std::size_t k = 0; k < split.pos.size(); ++k)
            key = position_key(split.pos[k], key ^ std::uint64_t(split.root[k]));
        c->resumed = 0;
        if (c->split_depth == depth && c->subtrees == split.pos.size() && c->split_key == key) {
            for (const auto& [k, n] : c->done) sub[k] = std::int64_t(n);
            c->resumed = c->done.size();
        } else {
            c->split_depth = depth;
            c->subtrees = split.pos.size();
            c->split_key = key;
            c->done.clear();
            c->save();
        }
    }
    const auto t0 = Clock::now();
    std::size_t done = c ? c->resumed : 0;
    const std::function<void(int, std::uint64_t)> on_done = [&](int k, std::uint64_t n) {
        ++done;
        if (c) {
            c->done[std::size_t(k)] = n;
            // Ctrl-C, kill or a closed terminal (cli::catch_stop_signals): saved, and the end, so
            // that nothing counted is lost. Under perft_run's lock: no other subtree is written.
            if (cli::stop_requested()) {
                c->save();
                if (s.progress) cli::eprint("{:>60}\r", "");
                std::fflush(stdout);
                cli::eprint(
                           "dambit perft: interrupted at depth {} ({} of {} subtrees done); the "
                           "same command goes on from there ({})\n",
                           depth, done, sub.size(), c->path);
                c->lock.reset();  // removes FILE.lock, as a normal end does
                std::_Exit(130);  // the other threads' subtrees are not waited for
            }
            if (seconds_since(c->last_write) >= 1.0) c->save();
        }
        const double el = seconds_since(t0);
        if (s.progress && el > 2.0)
            cli::eprint("  depth {}: {} of {} subtrees done, {:.1f} s\r", depth, done,
                       sub.size(), el);
    };
    if (cluster::distributed())
        count_on_ranks(p, depth, split, s, sub, on_done, c);
    else
        perft_run(split, s.duplicates, s.threads, s.hash.get(), sub, on_done);
    std::vector<std::uint64_t> counts(std::size_t(split.roots), 0);
    for (std::size_t k = 0; k < sub.size(); ++k)
        counts[std::size_t(split.root[k])] =
            add_count(counts[std::size_t(split.root[k])], std::uint64_t(sub[k]));
    return counts;
}

template <class R>
int plain_perft(const Position<R>& p, int max_depth, bool divide, bool json, Settings& s,
                Checkpoint* checkpoint) {
    using G = typename R::Geometry;
    if (!json) fmt::print("{:>5} {:>16} {:>10} {:>10}\n", "depth", "nodes", "seconds", "Mnodes/s");
    for (int d = 1; d <= max_depth; ++d) {
        const auto t0 = Clock::now();
        if (checkpoint && checkpoint->depths.count(d) && !(divide && d == max_depth)) {
            const std::uint64_t n = checkpoint->depths[d];
            if (json)
                fmt::print("{}\n", json::Object()
                                       .add("depth", d)
                                       .add("nodes", n)
                                       .add("seconds", json::Fixed{0.0, 6})
                                       .add("checkpoint", true)
                                       .str());
            else
                fmt::print("{:5} {:16} {:>10} {:>10}  (from the checkpoint)\n", d, n, "-", "-");
            std::fflush(stdout);  // a row is out before the next depth's work, as below
            continue;
        }
        std::vector<std::uint64_t> counts;
        std::uint64_t n = 0;
        try {
            counts = run_depth(p, d, s, checkpoint);
            n = sum(counts);
        } catch (const PerftOverflow&) {  // a wrong count is never printed
            if (s.progress) cli::eprint("{:>60}\r", "");
            std::fflush(stdout);
            cli::eprint("dambit perft: the count of depth {} does not fit in 64 bits; the depths "
                        "above it are exact\n",
                        d);
            return 1;
        }
        const double el = seconds_since(t0);
        if (checkpoint) {
            // The depth's subtrees stay in the file until the next depth begins: a --divide of
            // this depth later sums them by root move rather than counting the depth again.
            checkpoint->depths[d] = n;
            checkpoint->save();
        }
        if (s.progress) cli::eprint("{:>60}\r", "");
        const std::size_t resumed = checkpoint ? checkpoint->resumed : 0;
        if (json) {
            json::Object o;
            o.add("depth", d).add("nodes", n).add("seconds", json::Fixed{el, 6});
            if (resumed) o.add("resumed_subtrees", resumed);
            fmt::print("{}\n", o.str());
        } else if (resumed) {  // the speed would mean nothing: part of the count was not made now
            fmt::print("{:5} {:16} {:10.3f} {:>10}  ({} subtrees from the checkpoint)\n", d, n, el,
                       "-", resumed);
        } else {
            fmt::print("{:5} {:16} {:10.3f} {:10.2f}\n", d, n, el, mnps(n, el));
        }
        if (divide && d == max_depth) {
            FixedList<PathMove<G>, kMaxMoves> roots;
            if (s.duplicates == Duplicates::kKeep)
                generate_paths<R, Duplicates::kKeep>(p, roots);
            else
                generate_paths<R, Duplicates::kDrop>(p, roots);
            for (int i = 0; i < roots.size(); ++i) {
                const std::string m = move_text<R>(roots[i]);
                const std::uint64_t c = counts[std::size_t(i)];
                if (json)
                    fmt::print("{}\n", json::Object().add("move", m).add("nodes", c).str());
                else
                    fmt::print("  {:<24} {:16}\n", m, c);
            }
        }
        std::fflush(stdout);
    }
    return 0;
}

// Runs the rows of the tables depth by depth across positions, so that a tight budget still
// covers every position's shallow rows; a row whose time, projected from the row before it on the
// same position, would overrun the budget is skipped.
int verify(const std::vector<Variant>& variants, double budget, Settings& s) {
    struct Group {
        std::vector<PerftRow> rows;  // same variant, position and convention, by depth
        double last_seconds = 0;
        std::uint64_t last_nodes = 0;
        bool stopped = false;
    };
    std::map<std::string, Group> groups;
    std::vector<std::string> order;
    int max_depth = 0;
    for (Variant v : variants)
        for (const PerftRow& r : perft_table(variant_name(v))) {
            const std::string key = r.variant + "/" + r.name + "/" +
                                    (r.duplicates == Duplicates::kKeep ? "keep" : "drop");
            if (!groups.count(key)) order.push_back(key);
            groups[key].rows.push_back(r);
            max_depth = std::max(max_depth, r.depth);
        }
    for (auto& [k, g] : groups)
        std::sort(g.rows.begin(), g.rows.end(),
                  [](const PerftRow& a, const PerftRow& b) { return a.depth < b.depth; });

    const auto start = Clock::now();
    int passed = 0, failed = 0, skipped = 0;
    fmt::print("{:<14} {:<16} {:<4} {:>5} {:>16} {:>10} {:>10}  {}\n", "variant", "position", "dup",
               "depth", "nodes", "seconds", "Mnodes/s", "result");
    for (int depth = 1; depth <= max_depth; ++depth) {
        for (const std::string& key : order) {
            Group& g = groups[key];
            for (const PerftRow& r : g.rows) {
                if (r.depth != depth) continue;
                const char* dup = r.duplicates == Duplicates::kKeep ? "keep" : "drop";
                const double left = budget - seconds_since(start);
                const double estimate =
                    g.last_nodes ? g.last_seconds * double(r.nodes) / double(g.last_nodes) : 0.0;
                if (g.stopped || estimate > left) {
                    g.stopped = true;
                    ++skipped;
                    // Whole seconds, or milliseconds below a second (0.001, 0.25).
                    const auto secs = [](double x, int decimals = -1) {
                        return cli::decimal_text(x, decimals >= 0 ? decimals : x >= 1 ? 0 : 3);
                    };
                    // The estimate and the time left, with as many decimals as tell them apart
                    // (1.45 s against 1.40 s left is not "about 1 s, more than the 1 s left").
                    int decimals = -1;
                    while (decimals < 3 && secs(estimate, decimals) == secs(left, decimals))
                        ++decimals;
                    // Once the budget is spent (or before any row of the position was
                    // measured) an estimate says nothing. (The estimate is above the time left,
                    // so at least a millisecond when that is.)
                    // Below a millisecond left, cheaper rows may still run: not "spent".
                    const std::string why =
                        g.last_nodes && left >= 0.001
                            ? fmt::format("about {} s, more than the {} s left of the {} s budget",
                                          secs(estimate, decimals), secs(left, decimals),
                                          secs(budget, 3))
                        : left > 0 ? fmt::format("less than a millisecond left of the {} s budget",
                                                 secs(budget, 3))
                                   : fmt::format("the {} s budget is spent", secs(budget, 3));
                    fmt::print("{:<14} {:<16} {:<4} {:5} {:16} {:>10} {:>10}  skipped ({})\n",
                               r.variant, r.name, dup, r.depth, r.nodes, "-", "-", why);
                    continue;
                }
                s.duplicates = r.duplicates;
                const std::uint64_t n = with_variant(
                    *parse_variant(r.variant), [&]<class R>(std::type_identity<R>) {
                        const Position<R> p = parse_fen<R>(r.fen);
                        return sum(run_depth(p, r.depth, s));
                    });
                const double el = seconds_since(start) - (budget - left);
                if (s.progress) cli::eprint("{:>60}\r", "");
                g.last_seconds = std::max(el, 1e-6);
                g.last_nodes = std::max<std::uint64_t>(r.nodes, 1);
                const bool ok = n == r.nodes;
                ok ? ++passed : ++failed;
                fmt::print("{:<14} {:<16} {:<4} {:5} {:16} {:10.3f} {:10.2f}  {}", r.variant,
                           r.name, dup, r.depth, n, el, mnps(n, el), ok ? "ok" : "MISMATCH");
                if (!ok) fmt::print(" (published {})", r.nodes);
                fmt::print("\n");
                std::fflush(stdout);
            }
        }
    }
    fmt::print("{} rows verified, {} mismatches, {} skipped, {:.1f} s\n", passed, failed, skipped,
               seconds_since(start));
    return failed ? 1 : 0;
}

}  // namespace perft_cmd
}  // namespace

int perft_command(int argc, char** argv) {
    using namespace perft_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv,
                         {"variant", "fen", "depth", "duplicates", "threads", "hash", "max-seconds",
                          "checkpoint"},
                         {"divide", "json", "verify", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    Settings s;
    const std::string dup = args.get_or("duplicates", "drop");
    if (dup != "drop" && dup != "keep")
        throw cli::UsageError("bad value '" + dup + "' for --duplicates (want drop or keep)");
    s.duplicates = dup == "keep" ? Duplicates::kKeep : Duplicates::kDrop;
    s.threads = int(args.get_int("threads", 1, 1, 256));
    if (const auto mb = args.get_megabytes("hash", 0, 0))
        s.hash = std::make_unique<PerftHash>(mb);
    s.progress = cli::progress_terminal();
    // Under mpirun, rank 0 runs the command and the other ranks count what it hands out; the
    // options were checked on every rank alike before this.
    auto run = [&](auto&& body) {
        if (cluster::rank() > 0) return perft_worker(s);
        const int status = body();
        if (cluster::distributed()) {
            cluster::print_times(s.times, "subtree", "counting", true);
            cluster::release_workers();
        }
        return status;
    };

    if (args.has("verify")) {
        for (const char* o : {"fen", "depth", "divide", "duplicates", "json", "checkpoint"})
            if (args.has(o))
                throw cli::UsageError(std::string("--") + o + " does not go with --verify");
        std::vector<Variant> variants;
        if (args.get_or("variant", "") == "all") {
            for (auto n : kVariantNames) variants.push_back(*parse_variant(n));
        } else {
            variants.push_back(args.variant());
        }
        const double budget = args.get_double("max-seconds", 60.0, 0.001, 1e9);
        return run([&] { return verify(variants, budget, s); });
    }
    if (args.has("max-seconds")) throw cli::UsageError("--max-seconds goes with --verify");
    if (!args.has("depth")) throw cli::UsageError("missing --depth N (or --verify)");
    const int depth = int(args.get_int("depth", 0, 1, 30));
    if (args.has("fen")) with_variant(args.variant(), [&]<class R>(std::type_identity<R>) {
        return parse_fen<R>(*args.get("fen")).side;  // a bad position is an error on every rank
    });
    return run([&] { return with_variant(args.variant(), [&]<class R>(std::type_identity<R>) {
        const auto fen = args.get("fen");
        const Position<R> p = fen ? parse_fen<R>(*fen) : Position<R>::start();
        if (const auto path = args.get("checkpoint")) {
            Checkpoint c;
            c.path = *path;
            c.run = std::string(R::kName) + " " + dup + " " + to_fen<R>(p);
            c.load();
            // Written at once (the state just read, or the run alone), so that a checkpoint that
            // cannot be written is a usage error before any work, not a failure at depth 1.
            try {
                c.save();
            } catch (const std::runtime_error& e) {
                throw cli::UsageError("--checkpoint " + c.path + ": " + e.what());
            }
            cli::catch_stop_signals();
            return plain_perft(p, depth, args.has("divide"), args.has("json"), s, &c);
        }
        return plain_perft(p, depth, args.has("divide"), args.has("json"), s, nullptr);
    }); });
}

}  // namespace dambit
