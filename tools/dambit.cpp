// dambit: the command-line program; dispatches to the subcommands.
#include <fmt/format.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <thread>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "cli.hpp"
#include "cluster/cluster.hpp"
#include "commands.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "core/version.hpp"

namespace {

struct Subcommand {
    const char* name;
    int (*run)(int, char**);
    const char* summary;
};

const Subcommand kSubcommands[] = {
    {"show", dambit::show_command, "draw a position (text diagram, or SVG with --svg) with its moves"},
    {"moves", dambit::moves_command, "list the legal moves of a position"},
    {"perft", dambit::perft_command, "count leaf nodes; --verify checks the published tables"},
    {"search", dambit::search_command, "find the best move: iterative deepening, one line per depth"},
    {"bench", dambit::bench_command, "search a fixed set of positions; total nodes is the signature"},
    {"solve", dambit::solve_command, "prove a forced win, loss or draw and print the shortest line"},
    {"match", dambit::match_command, "games between two engines (dambit settings, Hub, DXP): Elo, SPRT"},
    {"egtb", dambit::egtb_command, "endgame tables: build, probe, verify, info"},
    {"hub", dambit::hub_command, "engine for GUIs over the Hub protocol (standard input/output)"},
    {"dxp", dambit::dxp_command, "play over DXP (DamExchange, TCP) as initiator or follower"},
    {"selfplay", dambit::selfplay_command, "self-play games' positions, labelled, for tune"},
    {"tune", dambit::tune_command, "fit the evaluation's weights to selfplay data"},
    {"pdn", dambit::pdn_command, "PDN game files: check, print a position, analyse every move"},
    {"book", dambit::book_command, "opening books: build (search, games), probe, info"},
};

// Writes with fputs, not fmt::print: fmt::print throws when the stream fails (stderr closed), and
// nothing in main would catch it; the program would end in std::terminate, not with its status.
template <class... T>
void write_to(std::FILE* out, fmt::format_string<T...> format, T&&... args) {
    std::fputs(fmt::format(format, std::forward<T>(args)...).c_str(), out);
}

void usage(std::FILE* out) {
    write_to(out,
             "usage: dambit <subcommand> [options]   (dambit <subcommand> --help for details)\n"
             "       dambit --version\n\n"
             "subcommands:\n");
    for (const auto& s : kSubcommands) write_to(out, "  {:<8} {}\n", s.name, s.summary);
    write_to(out,
             "\nvariants: russian (default), czech, brazilian, pool, english, international\n");
}

// A usage error is the same on every rank of mpirun, and rank 0's one line says it. A rank
// whose own machine refuses what rank 0 took (a directory it cannot write, a table beyond its
// memory) says it itself, naming itself, after the moment in which rank 0, failing alike, would
// have ended the job.
void usage_error(const char* command, const std::string& message, bool quiet) {
    if (!quiet) {
        write_to(stderr, "dambit {}: {}\n", command, message);
        return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    write_to(stderr, "dambit {}: rank {} ({}): {}\n", command, dambit::cluster::rank(),
             dambit::cluster::host(dambit::cluster::rank()), message);
    // Rank 0 is serving the job then (else it failed alike and the job is over): it says that
    // this rank failed, not that a signal came (mpirun's, when this rank ends the job).
    dambit::cluster::report_failure(message);
}

int dispatch(const std::string& name, int argc, char** argv, bool quiet);

// The subcommand's status. Under mpirun every rank runs it: perft and egtb share their work out
// (cluster/cluster.hpp), any other subcommand runs on rank 0 alone.
int run(int argc, char** argv) {
    const bool quiet = dambit::cluster::rank() > 0;
    const std::string name = argc < 2 ? "" : argv[1];
    // Under mpirun every rank must run the same subcommand: perft and egtb build share their
    // work, and a rank running anything else (or only its help) would leave the others waiting
    // for it forever.
    if (dambit::cluster::distributed()) {
        std::string what = name;
        if (name == "egtb" && argc > 2) what += std::string(" ") + argv[2];
        for (int i = 2; i < argc; ++i)
            if (argv[i] == std::string_view("--help") || argv[i] == std::string_view("-h")) {
                what += " --help";
                break;
            }
        if (const auto other = dambit::cluster::differing_rank(what)) {
            if (!quiet)
                write_to(stderr,
                         "dambit: rank {} ({}) runs '{}', rank 0 runs '{}': every rank of the job "
                         "must run the same subcommand\n",
                         other->first, dambit::cluster::host(other->first),
                         dambit::printable(other->second), dambit::printable(what));
            return 2;
        }
    }
    if (argc < 2) {
        if (!quiet) usage(stderr);
        return 2;
    }
    const bool help = name == "--help" || name == "-h" || name == "help";
    if (help && argc >= 3) {  // `dambit help perft`: that subcommand's help
        // `dambit help help` (and `help --help`): help's own, the usage.
        if (argv[2] == std::string_view("--help") || argv[2] == std::string_view("-h") ||
            argv[2] == std::string_view("help")) {
            if (argc > 3) {  // as `dambit --help extra` is refused
                if (!quiet)
                    write_to(stderr, "dambit: unexpected argument '{}' after {} {}\n",
                             dambit::printable(argv[3]), name, argv[2]);
                return 2;
            }
            usage(stdout);
            return 0;
        }
        // `dambit help egtb build` is `dambit egtb build --help`, run below: an argument the
        // subcommand does not take is refused as it refuses it.
        static char flag[] = "--help";
        std::vector<char*> args(argv + 1, argv + argc);
        args.push_back(flag);
        args.push_back(nullptr);
        return dispatch(argv[2], int(args.size()) - 1, args.data(), quiet);
    }
    if ((name == "--version" || name == "version") && argc > 2) {
        if (!quiet)
            write_to(stderr, "dambit: unexpected argument '{}' after {}\n",
                     dambit::printable(argv[2]), name);
        return 2;
    }
    if (help) {
        usage(stdout);
        return 0;
    }
    if (name == "--version" || name == "version") {
        // The second line names this build as the journals of interrupted jobs do (the
        // checksum of its executable), where two builds share a version number.
        if (!quiet)
            write_to(stdout, "dambit {}\nbuild {}\n", dambit::kVersion,
                     dambit::cli::program_identity());
        return 0;
    }
    return dispatch(name, argc, argv, quiet);
}

// "dambit: the standard output could not be written: REASON" (the reason when `error` is not 0),
// said once however often the output fails; `status`, or 1 for a command that succeeded.
int stdout_failed(int status, int error) {
    static bool said = false;
    if (!said) {
        said = true;
        write_to(stderr, "dambit: the standard output could not be written{}\n",
                 error ? std::string(": ") + std::strerror(error) : std::string());
    }
    return status == 0 ? 1 : status;
}

// Runs subcommand `name` with argv[2..] (argv[1] is the word before them), with one line for an
// error it throws.
int dispatch(const std::string& name, int argc, char** argv, bool quiet) {
    for (const auto& s : kSubcommands) {
        if (name != s.name) continue;
        if (quiet && name != "perft" && name != "egtb") return 0;
        try {
            return s.run(argc - 2, argv + 2);
        } catch (const dambit::cli::UsageError& e) {
            usage_error(s.name, dambit::printable(e.what()), quiet);
        } catch (const dambit::ParseError& e) {
            usage_error(s.name, e.what(), quiet);
        } catch (const std::exception& e) {
            // fmt::print's failed write of the standard output (a full disk, a closed one): said
            // as checked_output says it, once.
            if (const auto* failed = dynamic_cast<const std::system_error*>(&e);
                failed && !quiet && std::ferror(stdout) &&
                std::string_view(e.what()).starts_with("cannot write to file"))
                return stdout_failed(1, failed->code().value());
            // Messages can quote a file's bytes (a header's variant name): one line always. A
            // failed allocation says so in words (the sizes users give, --hash, are checked
            // against the machine's memory: this is memory others took, or several tables).
            const std::string what = dynamic_cast<const std::bad_alloc*>(&e)
                                         ? std::string("out of memory")
                                         : dambit::printable(e.what());
            if (quiet) {
                write_to(stderr, "dambit {}: error on rank {} ({}): {}\n", s.name,
                         dambit::cluster::rank(),
                         dambit::cluster::host(dambit::cluster::rank()), what);
                dambit::cluster::report_failure(what);
            } else {
                write_to(stderr, "dambit {}: error: {}\n", s.name, what);
            }
            return 1;
        }
        return 2;
    }
    if (!quiet) {
        std::vector<std::string> names;
        for (const auto& s : kSubcommands) names.emplace_back(s.name);
        const std::string near = dambit::nearest_word(name, names);
        write_to(stderr, "dambit: unknown subcommand '{}' ({}try dambit --help)\n",
                 dambit::printable(name),
                 near.empty() ? "" : "did you mean '" + near + "'? ");
    }
    return 2;
}

// Output that did not reach its file (a full disk: `dambit perft > /dev/full`) is a failure a
// script must see: status 1 and a line on stderr, where the command said nothing.
int checked_output(int status) {
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && !std::ferror(stdout)) return status;
    return stdout_failed(status, flushed ? 0 : error);
}

// A program built for one processor's instructions (-march=native, CMake's DAMBIT_MARCH) would
// die of SIGILL on a processor without them, at the first such instruction: it says so first.
// Every extension the compiler may use on its own (its macros say which it was allowed) is looked
// up with CPUID, the AVX ones with the operating system's support of their registers (XCR0):
// not __builtin_cpu_supports, which GCC and clang know by different sets of names. (AES, SHA,
// ADX, RDRND and the like come only from intrinsics, which dambit does not use.) The code here
// is compiled for the x86-64 baseline whatever -march says (with AVX even the plain copies of an
// -O0 function are VEX-encoded, which a processor without AVX refuses), and uses plain
// characters and the C library, nothing inline from the -O3 objects.
#ifndef DAMBIT_MARCH_TEXT  // CMake defines it
#define DAMBIT_MARCH_TEXT "?"
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DAMBIT_BASELINE __attribute__((target("arch=x86-64")))
enum CpuidRegister { kEax, kEbx, kEcx, kEdx };

// Bit `bit` of register `reg` of CPUID leaf `leaf`, subleaf `sub` (false when the leaf is beyond
// the processor's).
DAMBIT_BASELINE bool cpuid_bit(unsigned leaf, unsigned sub, CpuidRegister reg, int bit) {
    unsigned r[4] = {};
    if (static_cast<unsigned>(__get_cpuid_max(leaf & 0x80000000u, nullptr)) < leaf) return false;
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    return (r[reg] >> bit) & 1u;
}

// XCR0, the register state the operating system saves (0 without OSXSAVE).
DAMBIT_BASELINE unsigned long long xcr0() {
    if (!cpuid_bit(1, 0, kEcx, 27)) return 0;
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// Adds `name` to `missing` (a list of 512 characters) when the processor lacks it: CPUID's bit,
// and for the AVX extensions the operating system's saving of their registers.
DAMBIT_BASELINE void need(char* missing, unsigned leaf, unsigned sub, CpuidRegister reg, int bit,
                          const char* name) {
    const unsigned long long saved = xcr0();
    const bool avx_state = (saved & 0x6) == 0x6;                    // XMM and YMM
    const bool avx512_state = avx_state && (saved & 0xe0) == 0xe0;  // opmask, ZMM
    bool here = cpuid_bit(leaf, sub, reg, bit);
    if (std::strncmp(name, "AVX-512", 7) == 0)
        here = here && avx512_state;
    else if (std::strncmp(name, "AVX", 3) == 0 || std::strcmp(name, "FMA") == 0 ||
             std::strcmp(name, "F16C") == 0 || std::strcmp(name, "VAES") == 0 ||
             std::strcmp(name, "VPCLMULQDQ") == 0)
        here = here && avx_state;
    if (here) return;
    if (missing[0] != '\0') std::strncat(missing, ", ", 511 - std::strlen(missing));
    std::strncat(missing, name, 511 - std::strlen(missing));
}
#else
#define DAMBIT_BASELINE
#endif

DAMBIT_BASELINE bool processor_has_what_the_build_uses() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    char missing[512];
    missing[0] = '\0';
#ifdef __SSE3__
    need(missing, 1, 0, kEcx, 0, "SSE3");
#endif
#ifdef __SSSE3__
    need(missing, 1, 0, kEcx, 9, "SSSE3");
#endif
#ifdef __FMA__
    need(missing, 1, 0, kEcx, 12, "FMA");
#endif
#ifdef __SSE4_1__
    need(missing, 1, 0, kEcx, 19, "SSE4.1");
#endif
#ifdef __SSE4_2__
    need(missing, 1, 0, kEcx, 20, "SSE4.2");
#endif
#ifdef __MOVBE__
    need(missing, 1, 0, kEcx, 22, "MOVBE");
#endif
#ifdef __POPCNT__
    need(missing, 1, 0, kEcx, 23, "POPCNT");
#endif
#ifdef __AVX__
    need(missing, 1, 0, kEcx, 28, "AVX");
#endif
#ifdef __F16C__
    need(missing, 1, 0, kEcx, 29, "F16C");
#endif
#ifdef __BMI__
    need(missing, 7, 0, kEbx, 3, "BMI");
#endif
#ifdef __AVX2__
    need(missing, 7, 0, kEbx, 5, "AVX2");
#endif
#ifdef __BMI2__
    need(missing, 7, 0, kEbx, 8, "BMI2");
#endif
#ifdef __AVX512F__
    need(missing, 7, 0, kEbx, 16, "AVX-512F");
#endif
#ifdef __AVX512DQ__
    need(missing, 7, 0, kEbx, 17, "AVX-512DQ");
#endif
#ifdef __AVX512IFMA__
    need(missing, 7, 0, kEbx, 21, "AVX-512IFMA");
#endif
#ifdef __AVX512CD__
    need(missing, 7, 0, kEbx, 28, "AVX-512CD");
#endif
#ifdef __AVX512BW__
    need(missing, 7, 0, kEbx, 30, "AVX-512BW");
#endif
#ifdef __AVX512VL__
    need(missing, 7, 0, kEbx, 31, "AVX-512VL");
#endif
#ifdef __AVX512VBMI__
    need(missing, 7, 0, kEcx, 1, "AVX-512VBMI");
#endif
#ifdef __AVX512VBMI2__
    need(missing, 7, 0, kEcx, 6, "AVX-512VBMI2");
#endif
#ifdef __GFNI__
    need(missing, 7, 0, kEcx, 8, "GFNI");
#endif
#ifdef __VAES__
    need(missing, 7, 0, kEcx, 9, "VAES");
#endif
#ifdef __VPCLMULQDQ__
    need(missing, 7, 0, kEcx, 10, "VPCLMULQDQ");
#endif
#ifdef __AVX512VNNI__
    need(missing, 7, 0, kEcx, 11, "AVX-512VNNI");
#endif
#ifdef __AVX512BITALG__
    need(missing, 7, 0, kEcx, 12, "AVX-512BITALG");
#endif
#ifdef __AVX512VPOPCNTDQ__
    need(missing, 7, 0, kEcx, 14, "AVX-512VPOPCNTDQ");
#endif
#ifdef __AVX512VP2INTERSECT__
    need(missing, 7, 0, kEdx, 8, "AVX-512VP2INTERSECT");
#endif
#ifdef __AVX512FP16__
    need(missing, 7, 0, kEdx, 23, "AVX-512FP16");
#endif
#ifdef __AVXVNNI__
    need(missing, 7, 1, kEax, 4, "AVX-VNNI");
#endif
#ifdef __AVX512BF16__
    need(missing, 7, 1, kEax, 5, "AVX-512BF16");
#endif
#ifdef __LZCNT__
    need(missing, 0x80000001, 0, kEcx, 5, "LZCNT");
#endif
    if (missing[0] == '\0') return true;
    std::fputs("dambit: this program was built for processors with ", stderr);
    std::fputs(missing, stderr);
    std::fputs(", which this one lacks (-march=" DAMBIT_MARCH_TEXT
               "); build it on this machine (scripts/build), or for any x86-64 with cmake "
               "-DDAMBIT_MARCH= (docs/architecture.md)\n",
               stderr);
    return false;
#else
    return true;
#endif
}

// Before any static initialiser of the program's own (the -O3 objects' tables may use those
// instructions): a constructor of the first priority, ending the process with status 1.
__attribute__((constructor(101))) DAMBIT_BASELINE void check_processor() {
    if (!processor_has_what_the_build_uses()) std::_Exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    dambit::cli::prepare_process();
    dambit::cluster::start(argc, argv);
    return dambit::cluster::finish(checked_output(run(argc, argv)));
}
