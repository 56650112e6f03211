// dambit book: build an opening book (drop-out expansion, games), probe it, describe it.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <xxhash.h>

#include "book/build.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "json.hpp"
#include "play/ballots.hpp"

namespace dambit {
namespace {
namespace book_cmd {

const char* const kHelp =
    "usage: dambit book build --out FILE [options]   build an opening book\n"
    "       dambit book probe [--variant V] --book FILE [--fen FEN] [--json]\n"
    "       dambit book info --book FILE\n"
    "(dambit book ACTION --help for each)\n";

const char* const kBuildHelp =
    "usage: dambit book build [--variant V] --out FILE [--positions N | --hours H]\n"
    "         [--nodes-per-position K | --depth D] [--threads T] [--hash MB] [--eval E]\n"
    "         [--ballots NAME] [--from-pdn FILE... [--min-games G]]\n"
    "\n"
    "By search: drop-out expansion (Lincke) from the start position, or from each opening of\n"
    "--ballots. Every position of the book has a search value; values are backed up by\n"
    "negamax; the position expanded next (every legal move's position added and searched) is\n"
    "the leaf of least drop-out priority: how much worse than the best the moves leading to it\n"
    "are, plus 10 per ply of depth. From games: the positions of the games of PDN files\n"
    "reached by at least G games through such positions, from the start position, with their\n"
    "results; with --nodes-per-position or --depth they are searched too, and the book is\n"
    "then extended by drop-out expansion up to --positions (without either, the options of\n"
    "the search and of the size are refused).\n"
    "The build is written to FILE.part as it goes, and FILE (FILE.tmp renamed, with an XXH64\n"
    "checksum) at the end; the same command after an interruption goes on where it stopped,\n"
    "and with a larger --positions it extends a finished FILE. With any number of threads\n"
    "the book is the same. Progress on standard error when it is a terminal.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --out FILE         the book (format: docs/book.md)\n"
    "  --positions N      build until the book holds N positions (default 1000)\n"
    "  --hours H          build for H hours instead (a decimal number)\n"
    "  --nodes-per-position K  search each position K nodes (default 10000)\n"
    "  --depth D          search each position to depth D instead\n"
    "  --threads T        positions searched at once (default 1)\n"
    "  --hash MB          table per search thread (default 4)\n"
    "  --ballots NAME     start from these opening ballots (dambit match --ballots)\n"
    "  --from-pdn FILE... the games of these PDN files (each a following argument)\n"
    "  --min-games G      positions reached by at least G games (default 2)\n"
    DAMBIT_EVAL_HELP;

const char* const kProbeHelp =
    "usage: dambit book probe [--variant V] --book FILE [--fen FEN] [--json]\n"
    "\n"
    "The book moves of the position (default: the start position), best first: each with its\n"
    "value for the side to move (hundredths of a man, or win N / loss N plies from the end;\n"
    "negamax of the book), its depth (plies of book below it) and its weight: the games that\n"
    "reached the position it leads to (by any order of moves) when games reached it, else the\n"
    "book positions under it. A position of the book without book moves (a leaf) prints its\n"
    "value. --json prints\n"
    "{\"moves\":[{\"move\":M,\"value\":V,\"depth\":D,\"weight\":W},...]} (an empty list for a\n"
    "leaf or a position not in the book; V a number, 31000 - N for win N).\n"
    "--variant, when given, must be the book's.\n";

const char* const kInfoHelp =
    "usage: dambit book info --book FILE\n"
    "\n"
    "The book's variant and settings, positions, positions expanded, depth reached (plies from\n"
    "the start along book moves), its size in bytes and the start position's value (a book\n"
    "of ballots, without the start: the number of its roots and one of them).\n";

// The book file and its variant, checked against --variant when given.
book::BookFile open_book(const cli::Args& args) {
    const auto path = args.get("book");
    if (!path) throw cli::UsageError("needs --book FILE");
    book::BookFile f;
    try {
        f = book::read_book(*path);
    } catch (const std::runtime_error& e) {
        throw cli::UsageError(e.what());
    }
    if (!parse_variant(f.header.variant))
        throw cli::UsageError(*path + ": unknown variant '" + f.header.variant + "'");
    if (args.has("variant") && variant_name(args.variant()) != f.header.variant)
        throw cli::UsageError(fmt::format("{}: a {} book, not --variant {}", *path,
                                          f.header.variant, *args.get("variant")));
    return f;
}

// A value as the text output prints it: "win N" / "loss N" (plies) for a proven one, else
// hundredths of a man. `--json` keeps the raw number.
std::string value_text(std::int32_t v) {
    return search::score_text(search::Score(v), std::to_string(v));
}

template <class R>
int probe(const cli::Args& args, const book::BookFile& f) {
    const auto fen = args.get("fen");
    const Position<R> p = fen ? parse_fen<R>(*fen) : Position<R>::start();
    const book::Book<R> b(f.records);
    const auto moves = b.moves(p);
    if (args.has("json")) {
        json::Array a;
        for (const auto& m : moves)
            a.add(json::Object()
                      .add("move", move_text<R>(m.move))
                      .add("value", m.value)
                      .add("depth", m.depth)
                      .add("weight", m.weight));
        fmt::print("{}\n", json::Object().add("moves", json::Raw{a.str()}).str());
        return 0;
    }
    if (moves.empty()) {
        // A leaf of the book (a position searched, or reached by games, and not expanded) is in
        // it, with a value, though it has no book move.
        if (const book::Record* r = b.find(p))
            fmt::print("no book move: a leaf of the book, value {}{}\n",
                       value_text(b.value(std::size_t(r - &b.records()[0]))),
                       r->games ? ", " + cli::count_text(r->games, "game", "games") : "");
        else
            fmt::print("not in the book\n");
    }
    for (const auto& m : moves)
        fmt::print("{:<12} value {:>7} depth {:>3} weight {}\n", move_text<R>(m.move),
                   value_text(m.value), m.depth, m.weight);
    return 0;
}

template <class R>
int info(const cli::Args& args, const book::BookFile& f) {
    const book::Book<R> b(f.records);
    std::size_t expanded = 0;
    for (const auto& r : f.records) expanded += (r.flags & book::Record::kExpanded) ? 1 : 0;
    const auto* root = b.find(Position<R>::start());
    fmt::print("book {}: variant {}, settings {}\n", *args.get("book"), f.header.variant,
               f.header.settings);
    fmt::print("positions {}, expanded {}, depth reached {}, size {} bytes\n", b.size(), expanded,
               b.depth_reached(), f.bytes);
    if (root) {
        fmt::print("start position value {}\n",
                   value_text(b.value(std::size_t(root - &b.records()[0]))));
    } else {
        // A book of ballots: its roots are their positions (one of them for `probe --fen`).
        std::size_t roots = 0;
        const book::Record* first = nullptr;
        for (const auto& r : b.records())
            if (r.flags & book::Record::kRoot) first = first ? first : &r, ++roots;
        fmt::print("start position not in the book; {}{}\n",
                   cli::count_text(roots, "root", "roots"),
                   first ? ", e.g. " + to_fen(book::position_of<R>(*first)) : "");
    }
    return 0;
}

// --from-pdn takes every argument after it up to the next option: those go to `files`, and the
// other arguments are returned for cli::Args.
std::vector<char*> split_pdn_files(int argc, char** argv, std::vector<std::string>& files,
                                   bool& given) {
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        const bool inline_value = a.starts_with("--from-pdn=");  // --from-pdn=FILE FILE...
        if (a != "--from-pdn" && !inline_value) {
            rest.push_back(argv[i]);
            continue;
        }
        if (given) throw cli::UsageError("option '--from-pdn' given twice");
        given = true;
        if (inline_value && a.size() > 11) files.push_back(a.substr(11));
        while (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) files.push_back(argv[++i]);
        if (files.empty()) throw cli::UsageError("option '--from-pdn' needs at least one file");
    }
    return rest;
}

// What identifies the PDN input: the XXH64 of the files' contents, in order.
std::string files_digest(const std::vector<std::string>& files) {
    const std::unique_ptr<XXH64_state_t, decltype(&XXH64_freeState)> s(XXH64_createState(),
                                                                        &XXH64_freeState);
    XXH64_reset(s.get(), 0);
    for (const auto& f : files) {
        if (f == "-")
            throw cli::UsageError(
                "--from-pdn: '-': standard input is not read here (the games are read three "
                "times, and a pipe gives them once); save them to a file");
        std::error_code ec;
        // Read three times (this digest, then two passes over the games): a pipe would be empty
        // the second time, and a FIFO would wait for another writer.
        if (std::filesystem::exists(f, ec) && !std::filesystem::is_regular_file(f, ec) &&
            !std::filesystem::is_directory(f, ec))  // which read_all names as such
            throw cli::UsageError(fmt::format("--from-pdn: '{}' is not a regular file", f));
        std::string bytes;
        try {
            bytes = file_io::read_all(f);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(std::string("--from-pdn: ") + e.what());
        }
        XXH64_update(s.get(), bytes.data(), bytes.size());
    }
    return fmt::format("{:016x}", XXH64_digest(s.get()));
}

template <class R>
std::vector<Position<R>> roots_of(const cli::Args& args) {
    const auto name = args.get("ballots");
    if (!name) return {Position<R>::start()};
    const auto text = play::ballot_text(*name);
    if (!text) throw cli::UsageError("unknown ballots '" + *name + "' for --ballots");
    if (!play::ballots_fit(*name, R::kName))
        throw cli::UsageError(fmt::format("--ballots {} are not for {}", *name, R::kName));
    std::vector<Position<R>> out;
    for (const auto& o : play::parse_openings<R>(*text, *name)) out.push_back(o.position);
    return out;
}

template <class R>
int build(const cli::Args& args, const std::vector<std::string>& files) {
    // Ctrl-C, kill or a closed terminal: while the games are read, nothing is kept (the same
    // command reads them again); later, the positions searched are in the journal, and the same
    // command goes on from there (exit status 130 in both cases). From the start: the games'
    // checksum alone may take seconds, and a signal then killed the build silently.
    cli::catch_stop_signals();
    const auto given = args.get("out");
    if (!given) throw cli::UsageError("book build needs --out FILE");
    // Checked before the work; a symbolic link's target is written (FILE.part, then FILE).
    const std::optional<std::string> out = cli::output_file("out", *given, ".part");
    if (args.has("positions") && args.has("hours"))
        throw cli::UsageError("give --positions or --hours, not both");
    if (args.has("nodes-per-position") && args.has("depth"))
        throw cli::UsageError("give --nodes-per-position or --depth, not both");
    if (args.has("min-games") && files.empty())
        throw cli::UsageError("--min-games goes with --from-pdn");
    if (args.has("ballots") && !files.empty())
        throw cli::UsageError("--ballots and --from-pdn do not go together (games start at the "
                              "start position)");
    const auto positions = std::uint64_t(args.get_int("positions", 1000, 1, INT64_MAX));
    const double hours = args.get_double("hours", 0, 1e-6, 1e6);
    const int min_games = int(args.get_int("min-games", 2, 1, 1'000'000));
    const int threads = int(args.get_int("threads", 1, 1, 256));
    const auto hash = std::size_t(args.get_megabytes("hash", 4, 1, threads));  // one a thread
    const std::string eval = args.get_or("eval", cli::kDefaultEval);
    const auto weights = cli::weights_choice(eval, args.variant(), "--eval");
    const bool searching = files.empty() || args.has("nodes-per-position") || args.has("depth");
    // A book from games alone searches nothing: the options of the search and of its size would
    // do nothing (a user asking for 500 positions got the games' 3 without a word).
    if (!searching)
        for (const char* name : {"positions", "hours", "threads", "hash", "eval"})
            if (args.has(name))
                throw cli::UsageError(fmt::format(
                    "--{} goes with a search (--nodes-per-position or --depth); a book from "
                    "games alone keeps the positions the games reached",
                    name));
    search::Limits limits;
    std::string settings;
    if (args.has("depth")) {
        limits.depth = int(args.get_int("depth", 0, 1, 100));
        settings = fmt::format("depth={}", limits.depth);
    } else if (searching) {
        limits.nodes = std::uint64_t(args.get_int("nodes-per-position", 10000, 1, INT64_MAX / 4));
        settings = fmt::format("nodes={}", limits.nodes);
    } else {
        settings = "search=none";
    }
    // The evaluation by what it is, not by its name (a weights file rewritten by the next round of
    // a fit, another build's compiled-in weights); the table size too, which changes the searches.
    if (searching)
        settings += fmt::format(",eval={},hash={}", cli::eval_identity(weights.get()), hash);
    if (args.has("ballots")) settings += ",ballots=" + *args.get("ballots");
    if (!files.empty())
        settings += fmt::format(",games={},pdn={}", min_games, files_digest(files));
    const auto roots = roots_of<R>(args);

    // The book so far: the journal of an interrupted build, else a finished FILE, else nothing.
    const book::BookHeader header{std::string(R::kName), settings};
    std::vector<book::Record> records;
    std::unique_ptr<book::Journal> journal;
    std::error_code ec;
    const bool finished = !std::filesystem::exists(*out + ".part", ec) &&
                          std::filesystem::exists(*out, ec);
    std::vector<book::Record> from_file;
    if (finished) {
        book::BookFile f;
        try {
            f = book::read_book(*out);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(e.what());
        }
        if (f.header.variant != header.variant || f.header.settings != header.settings)
            throw cli::UsageError(book::other_settings(
                *out, f.header, header,
                f.header.before_checksums() ? "build it again, or give another --out"
                                            : "give them, or another --out"));
        from_file = std::move(f.records);
    }
    try {
        journal = std::make_unique<book::Journal>(*out, header, records);
    } catch (const std::runtime_error& e) {
        throw cli::UsageError(e.what());
    }
    if (!from_file.empty()) {
        journal->append(from_file);
        records = std::move(from_file);
    }
    book::Book<R> b(records);
    if (!journal->damage().empty())
        cli::eprint("book: {}.part is damaged: {}\n", *out, journal->damage());
    if (journal->resumed())
        std::fprintf(stderr, "book: resuming %s.part (%zu positions)\n", out->c_str(), b.size());
    // No position to add: a book from games alone (read once), or as many as --positions asks.
    const bool enough = !searching || (hours <= 0 && b.size() >= positions);
    if (finished && !enough)
        std::fprintf(stderr, "book: extending %s (%zu positions)\n", out->c_str(), b.size());
    if (searching && enough && b.size() > positions)
        cli::eprint("book: {} holds {} positions, more than --positions {}: {}\n",
                    journal->resumed() ? *out + ".part" : *out, b.size(), positions,
                    finished ? "nothing to add" : "the book is written with all of them");

    const auto t0 = std::chrono::steady_clock::now();
    const auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    book::GamesRead read;
    const std::size_t size_before = b.size();  // a resumed run's book; the PDN games count as added
    if (!files.empty() && b.size() == 0) {
        try {
            const auto from_games =
                book::records_from_games<R>(files, min_games, read, cli::stop_requested,
                                            [](const std::string& line) {
                                                cli::eprint("book: {}\n", line);
                                            });
            for (const auto& r : from_games) b.upsert(r);
            journal->append(from_games);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(std::string("--from-pdn: ") + e.what());
        } catch (const book::GamesStopped&) {
            journal->remove();
            std::fprintf(stderr,
                         "dambit book: interrupted while reading the games; nothing is kept, and "
                         "the same command starts again\n");
            return 130;
        }
        fmt::print("{} read, {} used ({} skipped: {} another variant or start, {} no result, {} "
                   "not replayed, {} given twice), {} reached by {} or more\n",
                   cli::count_text(read.games + read.skipped(), "game", "games"), read.games,
                   read.skipped(), read.other,
                   read.no_result, read.unplayed, read.duplicates,
                   cli::count_text(b.size(), "position", "positions"), min_games);
        if (read.unplayed)
            cli::eprint("book: not replayed, the first: {}\n", read.first_unplayed);
        if (b.size() == 0 && !searching) {
            // An empty book would look like a finished one; nothing is written.
            journal->remove();
            throw std::runtime_error(fmt::format(
                "--from-pdn: no position reached by {} or more of the {} used ({} read); "
                "nothing written to {}",
                min_games, cli::count_text(read.games, "game", "games"),
                read.games + read.skipped(), *out));
        }
    }
    const std::size_t start_size = b.size();
    const bool terminal = cli::progress_terminal();
    double shown = -1;
    // The positions (of games, or of a run before) searched before the expansion: counted while
    // they are, since the book does not grow then.
    std::size_t unsearched = 0, searched = 0;
    double expansion_began = 0;  // elapsed() when the expansion began (the rate's time)
    for (const auto& r : b.records()) unsearched += !(r.flags & book::Record::kSearched);
    // On a terminal, a line rewritten in place; cleared at the end (last), as pdn check's is,
    // where the summary or the interruption's message says the rest.
    const auto progress = [&](bool last) {
        const double secs = elapsed();
        if (!terminal || (!last && secs - shown < 0.5)) return;
        if (last) {
            std::fputs("\r\033[K", stderr);
            return;
        }
        shown = secs;
        if (searched < unsearched) {
            cli::eprint("\r\033[Kbook: {} positions, searching those not searched: {} of {}",
                        b.size(), searched, unsearched);
            return;
        }
        const std::size_t grown = b.size() - std::min(b.size(), start_size);
        const double rate = double(grown) / std::max(secs - expansion_began, 1e-9);
        const double left = hours > 0 ? hours * 3600 - secs
                            : rate > 0
                                ? double(positions - std::min<std::uint64_t>(positions, b.size())) / rate
                                : -1;
        cli::eprint("\r\033[Kbook: {} positions, {:.0f} positions/h, {}", b.size(), rate * 3600,
                    left < 0 ? std::string("time left not known yet")
                             : "about " + cli::duration_text(left) + " left");
    };
    std::uint64_t expansions = 0;
    struct Interrupted {};
    try {
        if (searching) {
            book::Searcher<R> searcher(threads, hash, weights.get(), limits);
            const auto added = book::add_searched<R>(b, searcher, roots, book::Record::kRoot);
            if (!added.empty()) journal->append(added);
            progress(false);  // the first block of unsearched positions may take a while
            book::search_unsearched<R>(b, searcher, 64, [&](const std::vector<book::Record>& part) {
                journal->append(part);
                searched += part.size();
                progress(false);
                if (cli::stop_requested()) throw Interrupted{};
            });
            searched = unsearched;
            expansion_began = elapsed();
            while (hours > 0 ? elapsed() < hours * 3600 : b.size() < positions) {
                if (cli::stop_requested()) throw Interrupted{};
                const auto changed = book::expand_next<R>(b, searcher);
                if (changed.empty()) break;  // nothing left to expand
                journal->append(changed);
                for (const auto& r : changed) expansions += (r.flags & book::Record::kExpanded) ? 1 : 0;
                progress(false);
            }
        }
    } catch (const Interrupted&) {
        progress(true);
        std::fprintf(stderr,
                     "dambit book: interrupted with %zu positions in %s.part; the same command "
                     "goes on from there\n",
                     b.size(), out->c_str());
        return 130;
    }
    progress(true);
    book::write_book(*out, header, b.records());
    journal->remove();
    const double secs = elapsed();
    fmt::print("variant {}, {} positions in {} ({}); this run: {} positions added, {} expanded, "
               "{:.1f} s, {:.0f} positions/h\n",
               R::kName, b.size(), *out, settings, b.size() - size_before, expansions, secs,
               double(b.size() - size_before) / std::max(secs, 1e-9) * 3600);
    return 0;
}

}  // namespace book_cmd
}  // namespace

int book_command(int argc, char** argv) {
    using namespace book_cmd;  // this file's helpers (the files build as one unit)
    if (const auto status = cli::help_instead_of_action(argc, argv, kHelp)) return *status;
    const std::string action = argv[0];
    if (action == "build") {
        std::vector<std::string> files;
        bool given = false;
        auto rest = split_pdn_files(argc - 1, argv + 1, files, given);
        const cli::Args args(int(rest.size()), rest.data(),
                             {"variant", "out", "positions", "hours", "nodes-per-position",
                              "depth", "threads", "hash", "eval", "ballots", "min-games"},
                             {"help"});
        return cli::run_for_variant(args, kBuildHelp,
                                    [&]<class R>() { return build<R>(args, files); });
    }
    if (action == "probe" || action == "info") {
        const bool is_probe = action == "probe";
        const cli::Args args = is_probe ? cli::Args(argc - 1, argv + 1,
                                                    {"variant", "book", "fen"}, {"json", "help"})
                                        : cli::Args(argc - 1, argv + 1, {"book"}, {"help"});
        if (args.has("help")) {
            std::fputs(is_probe ? kProbeHelp : kInfoHelp, stdout);
            return 0;
        }
        const auto f = open_book(args);
        return with_variant(*parse_variant(f.header.variant), [&]<class R>(std::type_identity<R>) {
            return is_probe ? probe<R>(args, f) : info<R>(args, f);
        });
    }
    throw cli::UsageError("unknown action '" + action + "' (build, probe or info)");
}

}  // namespace dambit
