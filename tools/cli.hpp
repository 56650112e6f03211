// Command-line plumbing shared by the subcommands: option parsing and one-line errors.
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/text.hpp"
#include "core/variant.hpp"
#include "search/limits.hpp"

namespace dambit::file_io {
class ExclusiveLock;  // core/file_io.hpp
}  // namespace dambit::file_io

namespace dambit::search {
struct LearnedWeights;
}

namespace dambit::cli {

// A usage error: printed as one line, exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Options of one subcommand: "--name value", "--name=value" or a bare "--flag".
class Args {
public:
    // `valued` lists the options that take a value, `flags` the ones that do not.
    Args(int argc, char** argv, std::set<std::string> valued, std::set<std::string> flags);

    bool has(const std::string& name) const { return values_.count(name) > 0; }
    std::optional<std::string> get(const std::string& name) const;
    std::string get_or(const std::string& name, const std::string& fallback) const;
    // Integer option within [lo, hi]; the message names the option and the bad value.
    std::int64_t get_int(const std::string& name, std::int64_t fallback, std::int64_t lo,
                         std::int64_t hi) const;
    double get_double(const std::string& name, double fallback, double lo, double hi) const;
    // A size in MB (--hash, --egtb-cache) from lo to 2^20, and no more than this machine's
    // memory and swap for the `copies` tables of that size the command makes (one per engine):
    // a size that cannot be allocated is refused here, naming the option.
    // The refusal of `mb` MB for --NAME that does not fit (`why`, beyond_memory's words): "bad
    // value 'MB' for --NAME (WHY)", or, when it was not given, "the default --NAME of MB MB is
    // WHY; give a smaller --NAME".
    UsageError megabytes_refused(const std::string& name, std::int64_t mb,
                                 const std::string& why) const;
    std::int64_t get_megabytes(const std::string& name, std::int64_t fallback,
                               std::int64_t lo = 1, std::int64_t copies = 1) const;
    Variant variant() const;  // --variant, default russian

private:
    std::map<std::string, std::string> values_;
};

// A file the user named must be readable: file_io::check_readable's error as a UsageError (one
// line naming the path and the reason, exit status 2).
void check_readable(const std::string& path);
// The same for "-", standard input: closed (`<&-`) or a directory (`< DIR`) would read as empty.
void check_stdin_readable();
// Opens /dev/null on each of descriptors 0, 1 and 2 that is closed, the wrong way round (stdin
// for writing, stdout and stderr for reading), so that a file opened later cannot take its number
// (with stdout closed, a match's output went into its own game file) and each still fails as a
// closed one would: a write to stdout gives "Bad file descriptor", and check_stdin_readable says
// the standard input is closed. Then raises the soft limit of open files to the hard one (as
// Go's runtime does, and like it gives the programs it starts the limit it found: StartState):
// each engine opens every table file of --egtb, and a match with
// --concurrency N runs 2N engines. And ignores SIGXFSZ, so that a write past a file size limit
// (ulimit -f) fails as a full disk does, with its error and the output's .tmp removed, rather
// than kill the program. Called first thing in main.
void prepare_process();
// Whether progress goes to a terminal that can redraw a line: standard error is one and TERM is
// not "dumb" (Emacs' shell buffers, which show "\r\033[K" as it is). Otherwise the long jobs
// write plain lines, as into a log file.
bool progress_terminal();
// The paths of the endgame table files (*.egtb) of a directory, by name; "cannot read the table directory
// 'DIR': REASON" (a usage error) when the names cannot be read, rather than every table said
// missing.
std::vector<std::string> table_files(const std::string& dir);

// A file a command will write at its end (FILE.tmp, or FILE.part, renamed FILE) must be writable
// now, before the work: file_io::check_replaceable's error as a UsageError, "--OPTION: REASON".
// Returns the path to write (the file a symbolic link points to: the link stays).
std::string output_file(std::string_view option, const std::string& path,
                        std::string_view suffix = ".tmp");
// Locks PATH.tmp, which this run is about to write (file_io::ExclusiveLock, created empty if
// missing): another run writing it is a UsageError, "--OPTION: 'PATH.tmp' is being written by
// another run; ...". Held while the returned lock lives.
std::unique_ptr<file_io::ExclusiveLock> lock_tmp(std::string_view option, const std::string& path);

std::int64_t parse_int(const std::string& option, const std::string& text, std::int64_t lo,
                       std::int64_t hi);

// --depth N (1..100), --nodes N or --movetime MS: at most one of them; a search of
// `default_movetime_ms` when none is given.
search::Limits limits_option(const Args& args, std::int64_t default_movetime_ms);
// A search limit as a long job's journal records it: "depth=N", "nodes=N" or "movetime=MS" (the
// first of them set).
std::string limits_key(const search::Limits& limits);

// --egtb DIR (a directory that must exist; empty when not given) and --egtb-cache MB.
struct TablesOption {
    std::string dir;
    std::size_t cache_megabytes = 64;
};
TablesOption tables_option(const Args& args);
// The help lines of those two options, to splice into a help text.
#define DAMBIT_TABLES_HELP                                                \
    "  --egtb DIR         endgame tables to probe (dambit egtb build)\n" \
    "  --egtb-cache MB    their block cache (default 64)\n"

// The evaluation a choice names: "hand" (nullptr: the hand-made evaluation), "learned" (the
// weights compiled in for variant v), "auto" (those if v has them, else the hand-made one) or
// the path of a weights file for v. `option` names the
// option in errors (UsageError).
std::shared_ptr<const search::LearnedWeights> weights_choice(const std::string& choice, Variant v,
                                                             const std::string& option);
// What names an evaluation in the settings a file records: "hand", or "xxh64:" and the digest of
// the weights' bytes, so that a run resumed with other weights under the same name or choice (the
// next round of a fit, another build's compiled-in weights) is refused, not mixed in.
std::string eval_identity(const search::LearnedWeights* weights);
// This program as the checksum of its executable ("xxh64:HEX"), for the journals of long jobs: a
// rebuilt dambit does not resume games another build made. "unknown" when it cannot be read.
std::string program_identity();
// A file as the checksum of its bytes ("xxh64:HEX"); throws UsageError("OPTION: cannot read ...").
std::string file_identity(const std::string& path, const std::string& option);
// A folder of endgame tables as what it holds ("none" for an empty name): the checksum of its
// tables' names and headers (each header holds the checksums of the table's blocks) and their
// count, "xxh64:HEX/N"; with `variant`, of that variant's tables only. A journal then refuses a
// resume with other tables in the same folder (the next piece count built into it) and takes the
// same tables copied elsewhere; it named the folder's path, the other way round.
std::string tables_identity(const std::string& dir, std::string_view variant = {});
// --eval CHOICE, or the default choice (kDefaultEval).
std::shared_ptr<const search::LearnedWeights> eval_option(const Args& args);
inline constexpr const char* kDefaultEval = "auto";
#define DAMBIT_EVAL_HELP                                                                  \
    "  --eval E           the evaluation: auto (default: learned where the variant has\n" \
    "                     compiled-in weights, else hand), learned, hand (the hand-made\n" \
    "                     one) or a weights file (dambit tune)\n"

// --book FILE, --book-ply N, --book-margin M: an opening book to play from (dambit book build),
// for the first N plies of a game, a move drawn among those within M of the best (0: the best).
struct BookOption {
    std::string file;  // empty: no book
    int max_ply = 30;
    int margin = 0;
};
BookOption book_option(const Args& args);
#define DAMBIT_BOOK_HELP                                                                   \
    "  --book FILE        play from this opening book (dambit book build) while it has the\n" \
    "                     position\n"                                                        \
    "  --book-ply N       use the book for the first N plies of the game (default 30)\n"     \
    "  --book-margin M    a move drawn at random among those whose value is within M of\n"   \
    "                     the best (default 0: always the best)\n"

// `x` with at most `places` decimals, as a reader writes it: no trailing zeros, no exponent
// (0.25, 0.001, 60).
std::string decimal_text(double x, int places);

// A time for a person to read: "42 s", "3 min 07 s", "2 h 05 min", rounded to the last unit it
// shows, the rounding carried (239.6 s is "4 min 00 s", 59.7 s "1 min 00 s"); a negative or
// not-a-number time is "0 s".
std::string duration_text(double seconds);

using dambit::count_text;  // core/text.hpp

// fmt::print to stderr without fmt's exception when the write fails: after a closed terminal
// (SIGHUP) stderr fails, and a job saving its state then must not stop on the line saying so.
template <class... T>
void eprint(fmt::format_string<T...> format, T&&... args) {
    std::fputs(fmt::format(format, std::forward<T>(args)...).c_str(), stderr);
}

// For a long job that saves its state and stops when asked: after this, Ctrl-C, kill (SIGTERM)
// and a closed terminal (SIGHUP) only set stop_requested(), which the job polls; a second signal
// ends the program at once, as without this.
void catch_stop_signals();
bool stop_requested();
// Stops the job as a signal would (its output is gone, say).
void request_stop();
// The flag behind stop_requested(), for a search's Callbacks::stop_flag.
const std::atomic<bool>& stop_flag();

// The start of a subcommand with actions (dambit egtb build, dambit pdn check): without an
// action, the synopsis of `help` (up to its first blank line) on stderr and status 2; with --help or -h for one, `help` on stdout and status 0;
// otherwise nullopt, and the action is argv[0].
std::optional<int> help_instead_of_action(int argc, char** argv, const char* help);

// The common end of a subcommand: with --help, print `help`; otherwise call
// body.template operator()<R>() for the rules of --variant. `body` is a generic lambda,
// [&]<class R>() { ... }.
template <class F>
int run_for_variant(const Args& args, const char* help, F&& body) {
    if (args.has("help")) {
        std::fputs(help, stdout);
        return 0;
    }
    return with_variant(args.variant(), [&]<class R>(std::type_identity<R>) {
        return body.template operator()<R>();
    });
}

}  // namespace dambit::cli
