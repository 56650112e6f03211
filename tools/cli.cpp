// Option parsing for the dambit subcommands.
#include "cli.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/file_io.hpp"
#include "core/memory.hpp"
#include "core/signals.hpp"
#include "core/text.hpp"
#include "search/weights.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <xxhash.h>

namespace dambit::cli {

Args::Args(int argc, char** argv, std::set<std::string> valued, std::set<std::string> flags) {
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-h" && flags.count("help")) a = "--help";  // as `dambit -h` takes it
        if (a.size() < 3 || a.compare(0, 2, "--") != 0)
            throw UsageError("unexpected argument '" + a + "'");
        std::string name = a.substr(2), value;
        bool inline_value = false;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inline_value = true;
        }
        if (valued.count(name)) {
            if (!inline_value) {
                if (i + 1 >= argc) throw UsageError("option '--" + name + "' needs a value");
                value = argv[++i];
                // `--nodes --games 10`: the value forgotten, the next option taken for it.
                if (value.size() > 2 && value.compare(0, 2, "--") == 0) {
                    const std::string next = value.substr(2, value.find('=') - 2);
                    if (valued.count(next) || flags.count(next) || next == "help")
                        throw UsageError("option '--" + name + "' needs a value (not the option '" +
                                         value + "')");
                }
            }
        } else if (flags.count(name)) {
            if (inline_value) throw UsageError("option '--" + name + "' takes no value");
        } else {
            std::vector<std::string> known(valued.begin(), valued.end());
            known.insert(known.end(), flags.begin(), flags.end());
            const std::string near = nearest_word(name, known);
            throw UsageError("unknown option '--" + name + "'" +
                             (near.empty() ? "" : " (did you mean '--" + near + "'?)"));
        }
        if (values_.count(name)) throw UsageError("option '--" + name + "' given twice");
        values_[name] = value;
    }
}

std::optional<std::string> Args::get(const std::string& name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string Args::get_or(const std::string& name, const std::string& fallback) const {
    return get(name).value_or(fallback);
}

namespace {
bool stdin_closed = false;  // at the start (prepare_process)
}  // namespace

void prepare_process() {
    for (const int fd : {0, 1, 2}) {
        if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        // open() takes the lowest free number: this one, as those below it are open.
        const int got = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd && got >= 0) ::close(got);
        if (fd == 0) stdin_closed = true;
    }
    StartState& start = g_start_state;  // for the programs dambit starts (core/signals.hpp)
    start.pipe_ignored = signal_ignored(SIGPIPE);
    start.xfsz_ignored = signal_ignored(SIGXFSZ);
    struct rlimit files {};
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        start.files = files;
        files.rlim_cur = files.rlim_max;
        // Refused (an unlimited hard limit): as it was.
        start.files_raised = ::setrlimit(RLIMIT_NOFILE, &files) == 0;
    }
    ::signal(SIGXFSZ, SIG_IGN);
}

bool progress_terminal() {
    static const bool terminal = [] {
        const char* term = std::getenv("TERM");
        return ::isatty(2) && !(term && std::string_view(term) == "dumb");
    }();
    return terminal;
}

void check_stdin_readable() {
    struct stat st {};
    if (stdin_closed || ::fstat(0, &st) != 0) throw UsageError("the standard input is closed");
    if (S_ISDIR(st.st_mode)) throw UsageError("cannot read the standard input: a directory");
}

void check_readable(const std::string& path) {
    try {
        file_io::check_readable(path);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

std::string output_file(std::string_view option, const std::string& path,
                        std::string_view suffix) {
    try {
        return file_io::check_replaceable(path, suffix);
    } catch (const std::runtime_error& e) {
        throw UsageError(fmt::format("--{}: {}", option, e.what()));
    }
}

std::unique_ptr<file_io::ExclusiveLock> lock_tmp(std::string_view option, const std::string& path) {
    try {
        return std::make_unique<file_io::ExclusiveLock>(path + ".tmp");
    } catch (const std::runtime_error& e) {
        throw UsageError(fmt::format("--{}: {}", option, e.what()));
    }
}

std::int64_t parse_int(const std::string& option, const std::string& text, std::int64_t lo,
                       std::int64_t hi) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    // strtoll takes leading white space and a '+': the number is its digits, a '-' at most.
    const bool digits_only = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) ||
                                               text[0] == '-');
    if (!digits_only || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        throw UsageError("bad value '" + text + "' for --" + option + " (want an integer from " +
                         std::to_string(lo) + " to " + std::to_string(hi) + ")");
    return v;
}

std::int64_t Args::get_int(const std::string& name, std::int64_t fallback, std::int64_t lo,
                           std::int64_t hi) const {
    const auto v = get(name);
    return v ? parse_int(name, *v, lo, hi) : fallback;
}

std::int64_t Args::get_megabytes(const std::string& name, std::int64_t fallback,
                                 std::int64_t lo, std::int64_t copies) const {
    const std::int64_t mb = get_int(name, fallback, lo, std::int64_t(1) << 20);
    if (const std::string why = beyond_memory(mb, copies); !why.empty())
        throw megabytes_refused(name, mb, why);
    return mb;
}

UsageError Args::megabytes_refused(const std::string& name, std::int64_t mb,
                                   const std::string& why) const {
    return UsageError(has(name) ? fmt::format("bad value '{}' for --{} ({})", mb, name, why)
                                : fmt::format("the default --{} of {} MB is {}; give a smaller --{}",
                                              name, mb, why, name));
}

std::string decimal_text(double x, int places) {
    std::string t = fmt::format("{:.{}f}", x, places);
    if (places > 0) {
        t.erase(t.find_last_not_of('0') + 1);
        if (t.back() == '.') t.pop_back();
    }
    return t;
}

std::string duration_text(double seconds) {
    // Whole seconds first (at most some 30,000 years: llround's range), so that 59.7 s is a
    // minute and 239.6 s four minutes, not "3 min 60 s".
    const double s = seconds >= 0 ? std::min(seconds, 1e12) : 0.0;  // NaN: 0
    const long long whole = std::llround(s);
    if (whole < 60) return fmt::format("{} s", whole);
    if (whole < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
    const long long minutes = std::llround(s / 60);
    return fmt::format("{} h {:02} min", minutes / 60, minutes % 60);
}

// A bound of a number's range as a reader writes it: 0.25, 0.000001, 1000000000 (no exponent).
static std::string bound_text(double x) { return decimal_text(x, 9); }

double Args::get_double(const std::string& name, double fallback, double lo, double hi) const {
    const auto v = get(name);
    if (!v) return fallback;
    errno = 0;
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    // Decimal only: strtod reads hexadecimal ("0x10") and "infinity" too.
    const bool decimal = v->find_first_not_of("0123456789.eE+-") == std::string::npos;
    if (v->empty() || !decimal || *end != '\0' || errno == ERANGE || !(d >= lo && d <= hi))
        throw UsageError("bad value '" + *v + "' for --" + name + " (want a number from " +
                         bound_text(lo) + " to " + bound_text(hi) + ")");
    return d;
}

Variant Args::variant() const {
    const std::string name = get_or("variant", "russian");
    if (const auto v = parse_variant(name)) return *v;
    std::string known;
    for (auto n : kVariantNames) known += (known.empty() ? "" : ", ") + std::string(n);
    throw UsageError("unknown variant '" + name + "' (known: " + known + ")");
}

namespace {
std::atomic<bool> g_stop_requested{false};
void on_stop_signal(int signal) {
    g_stop_requested.store(true);
    std::signal(signal, die_of_signal);  // the next one ends the program (its engines killed)
}
}  // namespace

void catch_stop_signals() { handle_stop_signals(on_stop_signal); }

bool stop_requested() { return g_stop_requested.load(); }

void request_stop() { g_stop_requested.store(true); }

const std::atomic<bool>& stop_flag() { return g_stop_requested; }

std::optional<int> help_instead_of_action(int argc, char** argv, const char* help) {
    if (argc >= 1 && std::strcmp(argv[0], "--help") != 0 && std::strcmp(argv[0], "-h") != 0)
        return std::nullopt;
    if (argc >= 1) {
        std::fputs(help, stdout);
        return 0;
    }
    // No action: the synopsis (the help up to its first blank line), and where the rest is.
    const std::string_view text = help;
    const std::size_t blank = text.find("\n\n");
    std::fputs(std::string(text.substr(0, blank == text.npos ? text.size() : blank + 1)).c_str(),
               stderr);
    // "usage: dambit egtb build ..." names the subcommand.
    std::string name = "dambit";
    if (const std::size_t at = text.find("dambit "); at != text.npos) {
        const std::size_t end = text.find(' ', at + 7);
        name = std::string(text.substr(at, end == text.npos ? text.npos : end - at));
    }
    if (blank != text.npos)
        std::fputs(("(" + name + " --help for the whole description)\n").c_str(), stderr);
    return 2;
}

search::Limits limits_option(const Args& args, std::int64_t default_movetime_ms) {
    search::Limits limits;
    int given = 0;
    if (args.has("depth")) limits.depth = int(args.get_int("depth", 0, 1, 100)), ++given;
    if (args.has("nodes"))
        limits.nodes = std::uint64_t(args.get_int("nodes", 0, 1, INT64_MAX)), ++given;
    if (args.has("movetime"))
        limits.movetime_ms = args.get_int("movetime", 0, 1, INT64_MAX), ++given;
    if (given > 1) throw UsageError("give at most one of --depth, --nodes and --movetime");
    if (given == 0) limits.movetime_ms = default_movetime_ms;
    return limits;
}

std::vector<std::string> table_files(const std::string& dir) {
    std::error_code ec;
    std::vector<std::string> out;
    std::filesystem::directory_iterator it(dir, ec);
    for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        if (it->path().extension() == ".egtb") out.push_back(it->path().string());
    if (ec) throw UsageError("cannot read the table directory '" + dir + "': " + ec.message());
    std::sort(out.begin(), out.end());
    return out;
}

TablesOption tables_option(const Args& args) {
    TablesOption t;
    if (const auto dir = args.get("egtb")) {
        // Checked against memory only when there are tables to cache: a default refused without
        // them could not be made smaller (--egtb-cache goes with --egtb).
        t.cache_megabytes = std::size_t(args.get_megabytes("egtb-cache", 64));
        std::error_code ec;
        if (!std::filesystem::is_directory(*dir, ec))
            throw UsageError("no table directory '" + *dir + "' for --egtb");
        table_files(*dir);  // readable
        t.dir = *dir;
    } else if (args.has("egtb-cache")) {
        throw UsageError("--egtb-cache goes with --egtb");
    }
    return t;
}

std::shared_ptr<const search::LearnedWeights> weights_choice(const std::string& choice, Variant v,
                                                             const std::string& option) {
    try {
        return search::weights_for(choice, variant_name(v));
    } catch (const std::runtime_error& e) {
        // "--eval FILE: ..." or, for a match side's setting, "--a eval=FILE: ...".
        const bool setting = !option.empty() && option.back() == '=';
        throw UsageError(option + (setting ? "" : " ") + choice + ": " + e.what());
    }
}

std::string eval_identity(const search::LearnedWeights* weights) {
    if (!weights) return "hand";
    const std::string bytes = search::weights_bytes(*weights);
    return fmt::format("xxh64:{:016x}", XXH64(bytes.data(), bytes.size(), 0));
}

std::string limits_key(const search::Limits& limits) {
    return limits.depth   ? fmt::format("depth={}", limits.depth)
           : limits.nodes ? fmt::format("nodes={}", limits.nodes)
                          : fmt::format("movetime={}", limits.movetime_ms);
}

std::string program_identity() {
    try {
        return fmt::format("xxh64:{:016x}", file_io::file_xxh64("/proc/self/exe"));
    } catch (const std::runtime_error&) {
        return "unknown";
    }
}

std::string file_identity(const std::string& path, const std::string& option) {
    try {
        return fmt::format("xxh64:{:016x}", file_io::file_xxh64(path));
    } catch (const std::runtime_error& e) {
        throw UsageError(option + ": " + e.what());
    }
}

std::string tables_identity(const std::string& dir, std::string_view variant) {
    if (dir.empty()) return "none";
    // A table's 128-byte header holds the XXH64 of its block index (which holds each block's)
    // and of itself (egtb/file.hpp): the headers and names say what the tables hold.
    const auto files = table_files(dir);  // before the state: it may throw
    const std::unique_ptr<XXH64_state_t, XXH_errorcode (*)(XXH64_state_t*)> held(
        XXH64_createState(), XXH64_freeState);
    XXH64_state_t* const state = held.get();
    XXH64_reset(state, 0);
    std::size_t count = 0;
    for (const std::string& path : files) {
        const std::string name = std::filesystem::path(path).filename().string();
        if (!variant.empty() && !name.starts_with(std::string(variant) + "-")) continue;
        ++count;
        XXH64_update(state, name.data(), name.size() + 1);
        char header[128] = {};
        std::FILE* f = std::fopen(path.c_str(), "rb");
        const std::size_t got = f ? std::fread(header, 1, sizeof header, f) : 0;
        if (f) std::fclose(f);
        XXH64_update(state, header, got);
    }
    return fmt::format("xxh64:{:016x}/{}", XXH64_digest(state), count);
}

std::shared_ptr<const search::LearnedWeights> eval_option(const Args& args) {
    return weights_choice(args.get_or("eval", kDefaultEval), args.variant(), "--eval");
}

BookOption book_option(const Args& args) {
    BookOption b;
    b.file = args.get_or("book", "");
    b.max_ply = int(args.get_int("book-ply", b.max_ply, 0, 10000));
    b.margin = int(args.get_int("book-margin", b.margin, 0, 10000));
    if (b.file.empty() && (args.has("book-ply") || args.has("book-margin")))
        throw UsageError(std::string(args.has("book-ply") ? "--book-ply" : "--book-margin") +
                         " goes with --book FILE");
    return b;
}

}  // namespace dambit::cli
