// dambit hub: the Hub protocol on standard input and output (src/protocol/hub_server.hpp).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "cli.hpp"
#include "book/file.hpp"
#include "search/weights.hpp"
#include "commands.hpp"
#include "protocol/hub_server.hpp"
#include "protocol/hub_text.hpp"

namespace dambit {
namespace {
namespace hub_cmd {

// The help, in two parts around the list of the parameters the engine announces (kParams).
constexpr const char* kHelpHead =
    "usage: dambit hub [--variant V] [--hash MB] [--threads T] [--egtb DIR [--egtb-cache MB]]\n"
    "         [--multipv K] [--eval E] [--book FILE [--book-ply N] [--book-margin M]]\n"
    "\n"
    "Speaks the Hub protocol (version 2, Scan 3.1's protocol.txt) on standard input and output,\n"
    "for the Hub GUI and clients such as pydraughts and lidraughts-bot. The options set the\n"
    "parameters' values before the client's set-param lines; the engine announces them after\n"
    "'hub':\n";
constexpr const char* kHelp =
    "Positions are 'W' or 'B' and one character per square (w b W B e); on 8x8 dambit speaks\n"
    "pydraughts's dialect (README, Hub and DXP). A bad line gets 'error message=\"...\"' and\n"
    "the engine serves on. 'quit' ends it at once. At the end of the input a search with a\n"
    "limit (depth, nodes, move-time, a clock) runs to its end and a search without one (go\n"
    "ponder, level infinite) is stopped; either writes its 'done move=...' line, then the\n"
    "engine exits.\n"
    "\n"
    "  --variant V        international (default; 'normal' as Scan names it), russian, czech,\n"
    "                     brazilian, pool, english\n"
    "  --hash MB          transposition table (default 64, at most 1048576)\n"
    "  --threads T        search threads (default 1)\n"
    DAMBIT_TABLES_HELP
    DAMBIT_EVAL_HELP
    DAMBIT_BOOK_HELP
    "                     (the parameters book, book-ply and book-margin; the ply counts\n"
    "                     the moves of the pos command)\n"
    "  --multipv K        lines per iteration in the info lines (default 1)\n"
    "\n"
    "example:  printf 'hub\\ninit\\npos\\nlevel move-time=0.5\\ngo think\\n' | dambit hub\n";

// "  variant, hash, ...\n": the names of kParams, in lines of at most 92 characters.
std::string parameter_list() {
    std::string text, line = " ";
    for (std::size_t i = 0; i < hub::kParams.size(); ++i) {
        std::string word = " " + std::string(hub::kParams[i].name);
        if (i + 1 < hub::kParams.size()) word += ',';
        if (line.size() + word.size() > 92) text += line + '\n', line = " ";
        line += word;
    }
    return text + line + '\n';
}

// --NAME's value in the range of the parameter NAME.
long param_option(const cli::Args& args, const char* name, long fallback) {
    const hub::ParamSpec& spec = hub::param_spec(name);
    return long(args.get_int(name, fallback, spec.min, spec.max));
}

}  // namespace hub_cmd
}  // namespace

int hub_command(int argc, char** argv) {
    using namespace hub_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv, {"variant", "hash", "threads", "egtb", "egtb-cache", "multipv", "eval",
                                          "book", "book-ply", "book-margin"},
                         {"help"});
    if (args.has("help")) {
        std::fputs(kHelpHead, stdout);
        std::fputs(parameter_list().c_str(), stdout);
        std::fputs(kHelp, stdout);
        return 0;
    }
    hub::ServerDefaults d;
    if (const auto v = args.get("variant")) {
        if (!hub::parse_variant_name(*v))
            throw cli::UsageError("unknown variant '" + *v + "' (known: " + hub::variant_names(", ") +
                                  ")");
        d.variant = *v;
    }
    d.hash_megabytes = std::size_t(args.get_megabytes("hash", 64));  // the parameter's range
    d.threads = int(param_option(args, "threads", 1));
    const auto tables = cli::tables_option(args);
    d.egtb = tables.dir;
    d.egtb_cache_megabytes = tables.cache_megabytes;
    d.multipv = int(param_option(args, "multipv", 1));
    d.eval = args.get_or("eval", cli::kDefaultEval);
    // A file is read here, so that a bad one is an error at once (whether it fits the variant
    // is checked when the GUI has chosen one: an error line then, and the hand-made evaluation).
    if (d.eval != "hand" && d.eval != "learned" && d.eval != "auto") {
        try {
            search::read_weights_file(d.eval);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(std::string("--eval: ") + e.what());
        }
    }
    const auto book = cli::book_option(args);
    d.book = book.file;
    d.book_ply = book.max_ply;
    d.book_margin = book.margin;
    if (!d.book.empty()) {  // read here too, so that a bad file is an error at once
        try {
            book::read_book(d.book);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(std::string("--book: ") + e.what());
        }
    }
    std::ios::sync_with_stdio(false);
    // A closed standard input is said in words (the stream's own message names its buffer).
    cli::check_stdin_readable();
    try {
        hub::serve(std::cin, std::cout, d);
    } catch (const std::ios_base::failure&) {
        throw std::runtime_error(std::string("cannot read the standard input: ") + std::strerror(errno));
    }
    // The GUI gone, or the disk full: the session ended without its answers.
    if (!std::cout) throw std::runtime_error("the standard output could not be written");
    return 0;
}

}  // namespace dambit
