// dambit egtb: build, probe, verify and list endgame tables.
#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "cluster/cluster.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "core/memory.hpp"
#include "core/notation.hpp"
#include "egtb/api.hpp"
#include "egtb/file.hpp"
#include "egtb/index.hpp"
#include "json.hpp"

namespace dambit {
namespace {
namespace egtb_cmd {

namespace fs = std::filesystem;

constexpr const char* kHelp =
    "usage: dambit egtb build [--variant V] --pieces N [--dir DIR] [--threads T] [--memory MB]\n"
    "                         [--dtw K] [--slice WMWKBMBK] [--checkpoint-seconds S]\n"
    "       dambit egtb probe [--variant V] --fen FEN [--dir DIR] [--json] [--cache MB]\n"
    "       dambit egtb verify [--dir DIR] [--full] [--threads T] [--memory MB]\n"
    "       dambit egtb info [--dir DIR] [--json]\n"
    "\n"
    "Endgame tables: the value of every position with few pieces, for the side to move, without\n"
    "the move-count draw rules (game-theoretic values, as `dambit solve` gives by default).\n"
    "\n"
    "build   builds every slice (men and kings of each side) of 2..N pieces that DIR does not hold\n"
    "        yet, in dependency order, one file per slice; win/draw/loss values, and the exact\n"
    "        distance to the end in plies for the slices of up to K pieces. Interrupted (Ctrl-C,\n"
    "        kill), the same command goes on where it stopped.\n"
    "probe   the value of the position and of each legal move\n"
    "verify  the checksums of every table file in DIR; --full also re-derives every stored value\n"
    "        from its successors (one ply), both ways round (colours flipped), and checks the index;\n"
    "        interrupted (Ctrl-C), it says how far it got\n"
    "info    one row per slice: positions (both sides to move), wins, draws, losses, the longest\n"
    "        win and a position with it, bytes on disk\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --pieces N         largest number of pieces (2..8)\n"
    "  --dir DIR          the table directory (default egtb; --egtb DIR too, as the other\n"
    "                     commands name it, and --egtb-cache MB for --cache)\n"
    "  --threads T        worker threads (default: the processors it may use)\n"
    "  --memory MB        most memory the build may take (default: three quarters of the RAM or of\n"
    "                     the container's memory limit)\n"
    "  --dtw K            distance tables up to K pieces (default 5 on 8x8, 4 on 10x10, at most N)\n"
    "  --slice WMWKBMBK   build only this slice (white men, white kings, black men, black kings)\n"
    "                     and the slices it depends on\n"
    "  --checkpoint-seconds S  how often a slice's build saves its progress (default 120)\n"
    "  --fen FEN          the position to probe\n"
    "  --cache MB         block cache of probe (default 64)\n"
    "  --full             verify every value, not only the checksums\n"
    "  --json             probe: one object {\"value\",\"plies\",\"moves\":[{\"move\",\"value\","
    "\"plies\"}]};\n"
    "                     info: one object per slice and line\n";

// The processors this process may run on (its affinity: `taskset -c 0`, a container's cpuset),
// as nproc counts them; all of the machine's when that cannot be read.
int default_threads() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return std::min(256, CPU_COUNT(&set));
    return int(std::clamp(std::thread::hardware_concurrency(), 1u, 256u));
}

using cli::count_text;
using cli::duration_text;

std::string positions_text(std::uint64_t n) { return count_text(n, "position", "positions"); }

// What a build did, counted in slices (files) and in units (a slice and its flip, built
// together; a symmetric slice alone).
struct BuildCounts {
    int built = 0, kept = 0, units = 0;
    void add(int slices, bool was_kept) {
        (was_kept ? kept : built) += slices;
        if (!was_kept) ++units;
    }
};

void print_summary(Variant v, const egtb::BuildOptions& o, const BuildCounts& c, double seconds) {
    // With --slice, what was built is that slice and the slices it needs, not a set of tables
    // up to N pieces that search could use.
    fmt::print("{} tables {} in {}: {} built ({}), {} kept, {}\n", std::string(variant_name(v)),
               o.only ? fmt::format("of slice {} and the slices it needs", o.only->code())
                      : fmt::format("up to {} pieces", o.max_pieces),
               o.dir,
               count_text(std::uint64_t(c.built), "slice", "slices"),
               count_text(std::uint64_t(c.units), "unit", "units"), c.kept,
               duration_text(seconds));
}

// What every rank of a cluster build must agree on, as rank 0 hands it out with the units: a
// rank started with other options (or in another directory: a relative --dir where mpirun's
// working directory is missing) would build other tables, or into another place.
std::string build_job_text(Variant v, const egtb::BuildOptions& o) {
    std::error_code ec;
    const fs::path dir = fs::weakly_canonical(fs::absolute(o.dir), ec);
    return fmt::format("egtb build --variant {} --pieces {} --dtw {} --dir {}{}", variant_name(v),
                       o.max_pieces, o.dtw_pieces, ec ? o.dir : dir.string(),
                       o.only ? " --slice " + o.only->code() : "");
}

// Under mpirun, rank 0: hands each unit out, to the other ranks as they ask for one, once the
// units it depends on are finished; every rank writes into the same directory.
int schedule_build(Variant v, const egtb::BuildOptions& o) {
    const auto units = egtb::build_units(o);
    const std::size_t n = units.size();
    std::vector<std::vector<std::size_t>> needs(n);
    for (std::size_t i = 0; i < n; ++i)
        for (const egtb::Material& d : egtb::dependencies(units[i])) {
            const egtb::Unit u = egtb::unit_of(d);
            const auto j = std::size_t(
                std::find_if(units.begin(), units.end(),
                             [&](const egtb::Unit& x) { return x.first == u.first; }) -
                units.begin());
            if (j >= i) throw std::logic_error("unit " + units[i].name() + " needs a later unit");
            needs[i].push_back(j);
        }
    std::vector<char> handed(n, 0), finished(n, 0);
    BuildCounts counts;
    cluster::Job job;
    job.text = build_job_text(v, o);
    job.items = n;
    job.next = [&]() -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < n; ++i)
            if (!handed[i] && std::all_of(needs[i].begin(), needs[i].end(),
                                          [&](std::size_t j) { return finished[j] != 0; })) {
                handed[i] = 1;
                return i;
            }
        return std::nullopt;
    };
    job.done = [&](std::size_t i, std::uint64_t positions, int rank, double seconds) {
        finished[i] = 1;
        counts.add(units[i].slices(), positions == 0);
        // The ranks write into one directory: a unit another rank built (rank 0 builds none)
        // that rank 0 does not see went to a disk of that rank's own (with one builder nothing
        // else would notice).
        for (const egtb::Material& m : {units[i].first, units[i].second}) {
            const std::string file = egtb::table_file_name(std::string(variant_name(v)), m);
            if (std::error_code ec; !fs::exists(fs::path(o.dir) / file, ec))
                throw std::runtime_error(fmt::format(
                    "rank {} ({}) built unit {}, but rank 0 does not see its file {} in {}: the "
                    "table directory must be one directory that every rank shares",
                    rank, cluster::host(rank), units[i].name(), file, o.dir));
        }
        if (!positions) return;
        cli::eprint("unit {}/{} {}: built by rank {} ({}), {}, {}\n", i + 1, n,
                    units[i].name(), rank, cluster::host(rank), positions_text(positions),
                    duration_text(seconds));
    };
    job.on_stop = [&](const std::string& why) {
        cli::eprint(
                   "dambit egtb build: {}: stopped; the finished slices stay in {} and the units under "
                   "way keep their checkpoints: run the same command again to go on\n",
                   why, o.dir);
    };
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<cluster::RankTime> times;
    cluster::serve(job, times);
    cluster::print_times(times, "unit", "building", false);
    cluster::release_workers();
    print_summary(v, o, counts,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}

// --memory MB in bytes: by default three quarters of the memory this process may hold (the RAM,
// or the container's limit when lower), at least 256 MB.
std::uint64_t memory_option(const cli::Args& args) {
    const std::int64_t fallback = std::max<std::int64_t>(memory_limit_megabytes() / 4 * 3, 256);
    return std::uint64_t(args.get_int("memory", fallback, 16, std::int64_t(1) << 30)) << 20;
}

// The option that named the table directory: --dir, or --egtb as the other commands name it.
std::string dir_option(const cli::Args& args) {
    if (args.has("dir") && args.has("egtb"))
        throw cli::UsageError("give one of --dir and --egtb (the same option)");
    return args.has("egtb") ? "egtb" : "dir";
}

int build(const cli::Args& args) {
    const Variant v = args.variant();
    if (!args.has("pieces")) throw cli::UsageError("missing --pieces N");
    egtb::BuildOptions o;
    o.max_pieces = int(args.get_int("pieces", 0, 2, egtb::kMaxTablePieces));
    const bool small = with_variant(v, []<class R>(std::type_identity<R>) {
        return R::Geometry::kSize == 8;
    });
    o.dtw_pieces = int(args.get_int("dtw", std::min(o.max_pieces, small ? 5 : 4), 0, 8));
    // More distances than pieces would be a mistake taken silently for --dtw N (the help says
    // "at most N").
    if (o.dtw_pieces > o.max_pieces)
        throw cli::UsageError(fmt::format(
            "bad value '{}' for --dtw (want an integer from 0 to {}: at most --pieces)",
            *args.get("dtw"), o.max_pieces));
    const std::string dir_name = dir_option(args);
    o.dir = args.get_or(dir_name, "egtb");
    o.threads = int(args.get_int("threads", default_threads(), 1, 256));
    o.memory_bytes = memory_option(args);
    if (const auto only = args.get("slice")) {
        const std::string& c = *only;
        if (c.size() != 4 || !std::all_of(c.begin(), c.end(), [](char x) { return x >= '0' && x <= '8'; }))
            throw cli::UsageError("bad slice '" + c + "' for --slice (want four digits: white men, "
                                  "white kings, black men, black kings, e.g. 2212)");
        const egtb::Material m{c[0] - '0', c[1] - '0', c[2] - '0', c[3] - '0'};
        if (!m.both_sides() || m.pieces() > o.max_pieces)
            throw cli::UsageError("bad slice '" + c + "' for --slice (both sides need a piece, and "
                                  "at most --pieces pieces)");
        o.only = m;
    }
    if (const auto s = args.get("checkpoint-seconds"))
        o.checkpoint_seconds = args.get_double("checkpoint-seconds", 120, 0, 1e9);
    o.stop = &cli::stop_flag();
    std::error_code ec;
    fs::create_directories(o.dir, ec);
    if (ec || !fs::is_directory(o.dir, ec))
        throw cli::UsageError("cannot create the table directory '" + o.dir + "' for --" +
                              dir_name + ": " + (ec ? ec.message() : "not a directory"));
    if (::access(o.dir.c_str(), W_OK) != 0)  // a usage error before any work, as for files
        throw cli::UsageError("cannot write in the table directory '" + o.dir + "' for --" +
                              dir_name + ": " + std::strerror(errno));

    // Interrupted (Ctrl-C, kill, or the terminal closed): the checkpoint is saved; a second
    // signal ends the program at once (the first is answered at the next checkpoint's poll, which
    // may be seconds away while the smaller tables are loaded).
    cli::catch_stop_signals();
    if (cluster::rank() > 0) {  // builds the units rank 0 hands out
        cluster::Worker w;
        try {
            with_variant(v, [&]<class R>(std::type_identity<R>) {
                const std::string ours = build_job_text(v, o);
                // Only the warnings (a checkpoint thrown away) are said on a rank.
                const auto warnings = [](const egtb::BuildProgress& p) {
                    if (!p.warning.empty())
                        cli::eprint("dambit egtb build: rank {}: {}\n", cluster::rank(),
                                    p.warning);
                };
                egtb::build_as_told<R>(o, warnings, [&](std::uint64_t positions) {
                    const auto item = w.next_item(positions);
                    if (item && w.job() != ours)
                        throw std::runtime_error("this rank was started as '" + ours +
                                                 "', rank 0 as '" + w.job() +
                                                 "': every rank must run the same build");
                    return item;
                });
                return 0;
            });
        } catch (const egtb::Interrupted& e) {
            cli::eprint("dambit egtb build: rank {}: {}\n", cluster::rank(), e.what());
            return 130;
        }
        return 0;
    }
    // One build at a time in a directory (the ranks of a cluster build are one build: rank 0
    // holds the lock for them all).
    const file_io::ExclusiveLock lock(o.dir);
    if (cluster::distributed()) return schedule_build(v, o);
    const bool terminal = cli::progress_terminal();
    auto last = std::chrono::steady_clock::now();
    BuildCounts counts;
    double rate = 0;
    auto report = [&](const egtb::BuildProgress& p) {
        if (p.unit_finished) {
            counts.add(p.slices, p.phase == "kept");
            if (terminal) std::fputs("\r\033[K", stderr);
            if (p.phase != "kept")
                cli::eprint("unit {}/{} {}: built, {}, {}\n", p.unit_number, p.units, p.unit,
                            positions_text(p.total), duration_text(p.seconds));
            return;
        }
        if (!p.warning.empty()) {
            if (terminal) std::fputs("\r\033[K", stderr);
            cli::eprint("dambit egtb build: {}\n", p.warning);
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!terminal || now - last < std::chrono::milliseconds(250)) return;
        last = now;
        // The rate of this run: the units found finished on disk took it no time.
        const double done = double(p.build_done + p.done);
        const double fresh = done - double(p.build_kept);
        rate = p.seconds > 0 && fresh > 0 ? fresh / p.seconds : 0;
        const std::string left =
            rate > 0 ? "about " + duration_text((double(p.build_total) - done) / rate) + " left"
                     : "time left not known yet";
        // The initialisation's share of the slice, then what the levels have decided (draws
        // never are, so that share does not end at 100%).
        const std::string share =
            p.phase.starts_with("level")
                ? fmt::format("{} of {} decided", p.decided, positions_text(p.total))
                : fmt::format("{:.0f}% of {}",
                              p.total ? 100.0 * double(p.done) / double(p.total) : 100.0,
                              positions_text(p.total));
        cli::eprint("\r\033[Kunit {}/{} {}: {}, {}; {:.2f} M positions/s, {}", p.unit_number,
                    p.units, p.unit, p.phase, share, rate / 1e6, left);
    };
    const auto t0 = std::chrono::steady_clock::now();
    try {
        with_variant(v, [&]<class R>(std::type_identity<R>) {
            egtb::build_tables<R>(o, report);
            return 0;
        });
    } catch (const egtb::Interrupted& e) {
        if (terminal) std::fputs("\r\033[K", stderr);
        cli::eprint("dambit egtb build: {}\n", e.what());
        return 130;
    }
    print_summary(v, o, counts,
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}

// --dir: the table directory, which must exist (a usage error otherwise, status 2).
std::string table_dir(const cli::Args& args) {
    const std::string option = dir_option(args);
    const std::string dir = args.get_or(option, "egtb");
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw cli::UsageError("no table directory '" + dir + "'" +
                              (args.has(option) ? " for --" + option : " (the default of --dir)"));
    cli::table_files(dir);  // readable
    return dir;
}

std::string plies_text(const egtb::Value& v) {
    if (v.outcome == egtb::Outcome::kDraw) return "";
    return v.known_distance() ? fmt::format(" in {} plies", v.plies) : " (distance not stored)";
}

int probe(const cli::Args& args) {
    if (!args.has("fen")) throw cli::UsageError("missing --fen FEN");
    const std::string dir = table_dir(args);
    const auto cache =
        std::size_t(args.get_megabytes(args.has("egtb-cache") ? "egtb-cache" : "cache", 64));
    const bool json = args.has("json");
    return with_variant(args.variant(), [&]<class R>(std::type_identity<R>) {
        const Position<R> p = parse_fen<R>(*args.get("fen"));
        egtb::ProbeResult<typename R::Geometry> r;
        try {
            r = egtb::probe_with_moves<R>(dir, cache, p);
        } catch (const egtb::MissingTable& e) {
            // The tables hold White to move: a position with Black to move is looked up in the
            // colour-flipped slice, which the message names; said, lest it read as another
            // position's material.
            const auto own = egtb::material_of(p);
            const std::string flipped =
                p.side == Color::kBlack && e.material == own.flipped() && own != own.flipped()
                    ? fmt::format(" (this position, {}, Black to move, is stored colour-flipped: "
                                  "the tables hold White to move)",
                                  own.description())
                    : "";
            cli::eprint("dambit egtb: position outside the tables: {}{}\n", e.what(),
                        flipped);
            return 2;
        }
        auto plies = [](const egtb::Value& v) -> std::optional<int> {
            if (!v.known_distance()) return std::nullopt;
            return v.plies;
        };
        if (json) {
            json::Array moves;
            for (const auto& mv : r.moves)
                moves.add(json::Object()
                              .add("move", move_text<R>(mv.move))
                              .add("value", mv.value.text())
                              .add("plies", plies(mv.value)));
            fmt::print("{}\n", json::Object()
                                   .add("value", r.value.text())
                                   .add("plies", plies(r.value))
                                   .add("moves", json::Raw(moves))
                                   .str());
            return 0;
        }
        fmt::print("{} to move: {}{}\n", p.side == Color::kWhite ? "White" : "Black",
                   r.value.text(), plies_text(r.value));
        for (const auto& mv : r.moves)
            fmt::print("  {:<20} {}{}\n", move_text<R>(mv.move), mv.value.text(),
                       plies_text(mv.value));
        return 0;
    });
}

// The header of a table file, checked against the file's name and the board of its variant
// before any of its numbers is used (a TableError naming the file otherwise).
egtb::TableHeader checked_header(const fs::path& path) {
    const egtb::TableFile f(path.string(), "");
    const egtb::TableHeader& h = f.header();
    const auto variant = parse_variant(h.variant);
    if (!variant)
        throw egtb::TableError(path.string() + ": unknown variant " + printable(h.variant));
    if (path.filename() != egtb::table_file_name(h.variant, h.material))
        throw egtb::TableError(path.string() + ": holds slice " + h.material.code() + " of " +
                               h.variant + ", not what its name says");
    with_variant(*variant, [&]<class R>(std::type_identity<R>) {
        egtb::check_header<R>(path.string(), h, h.material);
        return 0;
    });
    return h;
}

// The checked header of each of `paths`; a file whose header fails goes to `on_bad` instead.
template <class OnBad>
std::vector<egtb::TableHeader> checked_headers(const std::vector<std::string>& paths,
                                                OnBad on_bad) {
    std::vector<egtb::TableHeader> out;
    for (const auto& path : paths) {
        try {
            out.push_back(checked_header(path));
        } catch (const egtb::TableError& e) {
            on_bad(printable(e.what()));
        }
    }
    return out;
}

// The slices of 2..n pieces that `present` lacks, n the most pieces of any slice in it: the
// engine uses a variant's tables only up to the first gap (Tables::complete_pieces).
std::vector<egtb::Material> missing_slices(const std::vector<egtb::Material>& present) {
    int most = 0;
    for (const auto& m : present) most = std::max(most, m.pieces());
    std::vector<egtb::Material> out;
    for (const auto& m : egtb::slices_up_to(most))
        if (std::find(present.begin(), present.end(), m) == present.end()) out.push_back(m);
    return out;
}

// "DIR/russian-0201.egtb is missing: the russian tables are complete up to 2 pieces" for each
// gap of `slices`, through `say`; returns the number of gaps.
int report_missing(const std::string& dir, const std::string& variant,
                   const std::vector<egtb::Material>& slices,
                   const std::function<void(const std::string&)>& say) {
    // A file there whose header could not be read is reported as bad already.
    std::vector<egtb::Material> missing;
    for (const auto& m : missing_slices(slices)) {
        std::error_code ec;
        if (!fs::exists(fs::path(dir) / egtb::table_file_name(variant, m), ec)) missing.push_back(m);
    }
    if (missing.empty()) return 0;
    const int complete = missing.front().pieces() - 1;  // build order: fewest pieces first
    for (const auto& m : missing)
        say(fmt::format("{} is missing: the {} tables are complete up to {}{}",
                        (fs::path(dir) / egtb::table_file_name(variant, m)).string(), variant,
                        count_text(std::uint64_t(complete), "piece", "pieces"),
                        complete < 2 ? " (none)" : ""));
    return int(missing.size());
}

// The table files of DIR; none is an error (exit status 1), not an empty list or "0 files, 0
// bad": a script checking a copied directory must see it.
std::vector<std::string> table_paths(const std::string& dir) {
    auto paths = cli::table_files(dir);
    if (paths.empty()) throw std::runtime_error("no table files (*.egtb) in '" + dir + "'");
    return paths;
}

int verify(const cli::Args& args) {
    // Ctrl-C (kill, a closed terminal) stops the check: one line says how far it got.
    cli::catch_stop_signals();
    const std::string dir = table_dir(args);
    egtb::VerifyOptions options;
    options.full = args.has("full");
    options.threads = int(args.get_int("threads", default_threads(), 1, 256));
    options.memory_bytes = memory_option(args);
    options.stop = [] { return cli::stop_requested(); };
    const bool full = options.full;
    int bad = 0, underived = 0;
    std::uint64_t positions = 0, checked = 0;
    // The files by variant (a file whose header cannot be read is reported at once).
    std::map<std::string, std::vector<egtb::Material>> by_variant;
    const auto paths = table_paths(dir);
    const int files = int(paths.size());
    std::uint64_t all_positions = 0;  // of the files whose headers are good
    for (const auto& h : checked_headers(paths, [&](const std::string& message) {
             ++bad;
             fmt::print("{}\n", message);
         })) {
        by_variant[h.variant].push_back(h.material);
        all_positions += h.positions;
    }
    // What is done, for the progress line and the line an interruption prints: the files
    // reported (those with a bad header too), the positions of the good ones among them.
    int done = bad;
    std::uint64_t done_positions = 0;
    std::string current;  // the file under way
    const bool terminal = cli::progress_terminal();
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0 - std::chrono::seconds(1);
    std::string variant_now;  // of the files under way
    const auto name_of = [&](const egtb::Material& m) {
        return (fs::path(dir) / egtb::table_file_name(variant_now, m)).string();
    };
    options.progress = [&](const egtb::VerifyProgress& p) {
        current = name_of(p.slice);
        const auto now = std::chrono::steady_clock::now();
        if (!terminal || now - last < std::chrono::milliseconds(250)) return;
        last = now;
        // The time left from the rate so far over the positions of the files (their values,
        // with --full, take nearly all of it).
        const double seconds = std::chrono::duration<double>(now - t0).count();
        const double so_far = double(done_positions + p.done);
        const std::string left =
            so_far > 0 && seconds > 0
                ? ", about " +
                      duration_text((double(all_positions) - so_far) * seconds / so_far) + " left"
                : "";
        const std::string what =
            p.phase == "values"
                ? fmt::format("{:.0f}% of {} re-derived",
                              100.0 * double(p.done) / double(std::max<std::uint64_t>(p.total, 1)),
                              positions_text(p.total))
            : p.phase == "loading" ? std::string("loading the tables its values derive from")
                                   : std::string("checksums");
        cli::eprint("\r\033[Kverify {}/{} {}: {}{}", done + 1, files, current, what, left);
    };
    try {
        for (const auto& [variant, slices] : by_variant) {
            variant_now = variant;
            // (Structured bindings are captured by name: clang before 16 refuses them in [&].)
            with_variant(*parse_variant(variant), [&, &slices = slices]<class R>(
                                                      std::type_identity<R>) {
                egtb::verify_tables<R>(
                    dir, slices, options,
                    [&](const egtb::Material& m, const egtb::VerifyReport& r) {
                        const std::string name = name_of(m);
                        if (terminal) std::fputs("\r\033[K", stderr);
                        ++done;
                        done_positions += r.positions;
                        positions += r.positions;
                        checked += r.checked;
                        if (!r.failure.empty()) {
                            ++bad;
                            fmt::print("{}\n", printable(r.failure));
                        } else if (!r.dependency_failure.empty()) {
                            // Its own checksums pass; the file it needs is reported on its own
                            // line.
                            ++underived;
                            fmt::print("{}: checksums ok, {}, values not re-derived: {}\n", name,
                                       positions_text(r.positions),
                                       printable(r.dependency_failure));
                        } else if (r.errors) {
                            ++bad;
                            fmt::print("{}: {}, first: {}\n", name,
                                       count_text(r.errors, "error", "errors"),
                                       printable(r.first_error));
                        } else {
                            fmt::print("{}: ok, {}{}\n", name, positions_text(r.positions),
                                       full ? fmt::format(", {} re-derived",
                                                          count_text(r.checked, "value", "values"))
                                            : "");
                        }
                        std::fflush(stdout);
                    });
                return 0;
            });
        }
    } catch (const egtb::Interrupted&) {
        std::fflush(stdout);
        if (terminal) std::fputs("\r\033[K", stderr);
        cli::eprint("dambit egtb verify: interrupted while checking {}: {} of {} checked, {} bad\n",
                    current, done, count_text(std::uint64_t(files), "file", "files"), bad);
        return 130;
    }
    int missing = 0;
    for (const auto& [variant, slices] : by_variant)
        missing += report_missing(dir, variant, slices,
                                  [](const std::string& line) { fmt::print("{}\n", line); });
    fmt::print("{}, {}{}, {} bad{}{}\n", count_text(std::uint64_t(files), "file", "files"),
               positions_text(positions),
               full ? fmt::format(" ({} re-derived)", count_text(checked, "value", "values")) : "",
               bad, underived ? fmt::format(", {} not re-derived", underived) : "",
               missing ? fmt::format(", {} missing", missing) : "");
    return bad || underived || missing ? 1 : 0;
}

int info(const cli::Args& args) {
    const std::string dir = table_dir(args);
    const bool json = args.has("json");
    // Every header, by variant and material. A bad file is one line on stderr and exit status 1;
    // the slices of the good ones are listed.
    std::map<std::pair<std::string, egtb::Material>, egtb::TableHeader> headers;
    int bad = 0;
    for (const auto& h : checked_headers(table_paths(dir), [&](const std::string& message) {
             ++bad;
             cli::eprint("dambit egtb info: {}\n", message);
         }))
        headers[{h.variant, h.material}] = h;
    if (!json)
        fmt::print("{:<14} {:<6} {:>14} {:>14} {:>14} {:>14} {:>8}  {:<40} {:>12} {:>8}\n",
                   "variant", "slice", "positions", "wins", "draws", "losses", "longest",
                   "example", "bytes", "pos/byte");
    for (const auto& [key, h] : headers) {
        const auto& [variant, m] = key;
        // A slice with both sides to move: White to move is this file, Black to move is the
        // flipped slice's file (the same file for a symmetric slice).
        const auto other = headers.find({variant, m.flipped()});
        if (other == headers.end()) continue;  // half a slice: not listed
        const egtb::TableHeader& f = other->second;
        const std::uint64_t positions = h.positions + f.positions;
        const std::uint64_t wins = h.wins + f.wins, draws = h.draws + f.draws,
                            losses = h.losses + f.losses;
        // The two files together hold the slice and its flip: half of their bytes each, the odd
        // byte of an odd total to the slice whose code comes first, so that the column sums to
        // the files' sizes.
        const std::uint64_t both = h.file_bytes + f.file_bytes;
        const std::uint64_t bytes =
            m == m.flipped() ? h.file_bytes
                             : both / 2 + (m.code() < m.flipped().code() ? both % 2 : 0);
        int longest = -1;
        std::string example;
        const auto pv = parse_variant(variant);
        if (pv && h.distances && f.distances) {
            const bool white = h.longest_win >= f.longest_win;
            longest = std::max(h.longest_win, f.longest_win);
            if (longest >= 0)
                example = with_variant(*pv, [&, &m = m, &h = h]<class R>(std::type_identity<R>) {
                    const auto p = white ? egtb::slice_position<R>(m, h.longest_example)
                                         : egtb::flip(egtb::slice_position<R>(
                                               m.flipped(), f.longest_example));
                    return to_fen<R>(p);
                });
        }
        if (json) {
            auto opt = [](bool has, auto value) -> std::optional<decltype(value)> {
                if (!has) return std::nullopt;
                return value;
            };
            fmt::print("{}\n", json::Object()
                                   .add("variant", variant)
                                   .add("white_men", m.wm)
                                   .add("white_kings", m.wk)
                                   .add("black_men", m.bm)
                                   .add("black_kings", m.bk)
                                   .add("positions", positions)
                                   .add("wins", wins)
                                   .add("draws", draws)
                                   .add("losses", losses)
                                   .add("longest_win", opt(longest >= 0, longest))
                                   .add("example", opt(longest >= 0, example))
                                   .add("bytes", bytes)
                                   .str());
        } else {
            fmt::print("{:<14} {:<6} {:>14} {:>14} {:>14} {:>14} {:>8}  {:<40} {:>12} {:>8.1f}\n",
                       variant, m.code(), positions, wins, draws, losses,
                       longest >= 0 ? std::to_string(longest) : "-", longest >= 0 ? example : "-",
                       bytes, double(positions) / double(std::max<std::uint64_t>(bytes, 1)));
        }
    }
    // A gap in a variant's set (a slice and its flip are listed only together) is named.
    std::map<std::string, std::vector<egtb::Material>> by_variant;
    for (const auto& [key, h] : headers) by_variant[key.first].push_back(key.second);
    for (const auto& [variant, slices] : by_variant)
        bad += report_missing(dir, variant, slices, [](const std::string& line) {
            cli::eprint("dambit egtb info: {}\n", line);
        });
    return bad ? 1 : 0;
}

}  // namespace egtb_cmd
}  // namespace

int egtb_command(int argc, char** argv) {
    using namespace egtb_cmd;  // this file's helpers (the files build as one unit)
    if (const auto status = cli::help_instead_of_action(argc, argv, kHelp)) return *status;
    const std::string action = argv[0];
    std::set<std::string> valued, flags = {"help"};
    // --egtb DIR and --egtb-cache MB too, as the other commands name them.
    if (action == "build")
        valued = {"variant", "pieces", "dir", "egtb", "threads", "memory", "dtw",
                  "checkpoint-seconds", "slice"};
    else if (action == "probe")
        valued = {"variant", "fen", "dir", "egtb", "cache", "egtb-cache"}, flags.insert("json");
    else if (action == "verify")
        valued = {"dir", "egtb", "threads", "memory"}, flags.insert("full");
    else if (action == "info")
        valued = {"dir", "egtb"}, flags.insert("json");
    else
        throw cli::UsageError("unknown action '" + action + "' (want build, probe, verify or info)");
    const cli::Args args(argc - 1, argv + 1, valued, flags);
    if (args.has("cache") && args.has("egtb-cache"))
        throw cli::UsageError("give one of --cache and --egtb-cache (the same option)");
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (action == "build") return build(args);
    if (cluster::rank() > 0) return 0;  // under mpirun, only build is shared out
    if (action == "probe") return probe(args);
    if (action == "verify") return verify(args);
    return info(args);
}

}  // namespace dambit
