// dambit dxp: International draughts over DXP (DamExchange), as a TCP server or client, as the
// initiator of a series of games or as the follower. The protocol and the games are in
// src/protocol/; this file parses options and prints.
#include <fmt/format.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "book_player.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "core/notation.hpp"
#include "core/signals.hpp"
#include "protocol/dxp_session.hpp"
#include "protocol/net.hpp"

namespace dambit {
namespace {
namespace dxp_cmd {

constexpr const char* kHelp =
    "usage: dambit dxp (--listen [HOST:]PORT | --connect HOST:PORT)\n"
    "         [--games N [--time MINUTES] [--moves N] [--fen FEN]] [--movetime MS]\n"
    "         [--max-plies P] [--max-games N] [--timeout SECONDS] [--name NAME]\n"
    "         [--variant international] [--hash MB] [--threads T] [--egtb DIR [--egtb-cache MB]]\n"
    "         [--eval E] [--book FILE [--book-ply N] [--book-margin M]] [--pdn FILE] [--quiet]\n"
    "\n"
    "Plays International draughts against another program over DXP (the DamExchange\n"
    "protocol, TCP, messages ending in a NUL byte). DXP is a 10x10 protocol: no 8x8 convention\n"
    "is used by existing programs, so only --variant international is accepted.\n"
    "With --games N dambit is the initiator: it requests N games, White in the odd ones and\n"
    "Black in the even ones, then says it wants no next game. Without --games it is the\n"
    "follower: it accepts every request for version 01 with a legal position (refusing an\n"
    "illegal position with code 2) and plays the colour asked for.\n"
    "Either side ends a game by the rules (no legal move loses; the third repetition and the\n"
    "FMJD move-count rules draw); an illegal move or a peer silent beyond its clock (plus five\n"
    "seconds) loses. A peer that disconnects or sends garbage or an over-long message ends the\n"
    "game unfinished (*); a server then waits for the next connection.\n"
    "Prints one line per game, 'game N: dambit White vs NAME: 1-0 (reason), P plies', and a\n"
    "summary from dambit's side.\n"
    "\n"
    "  --listen [HOST:]PORT  wait for connections (host 127.0.0.1 unless given, e.g. 0.0.0.0,\n"
    "                        or [::] for IPv6); one connection at a time, until killed or\n"
    "                        --max-games\n"
    "  --connect HOST:PORT   connect (retrying for two seconds); one connection. HOST is a\n"
    "                        name, an IPv4 address or an IPv6 one in brackets ([::1]:27531)\n"
    "  --games N             be the initiator and request N games\n"
    "  --time MINUTES        thinking time per side in a request (default 5)\n"
    "  --moves N             moves in that time, 0 for the whole game (default 0)\n"
    "  --fen FEN             start the requested games from this position\n"
    "  --movetime MS         search each of our moves MS milliseconds, whatever the clock\n"
    "                        says (default: our share of our clock)\n"
    "  --max-plies P         a game that has reached P plies is ended as a draw on dambit's\n"
    "                        turn (default no limit)\n"
    "  --max-games N         exit after N games (a server otherwise runs until killed)\n"
    "  --timeout SECONDS     peer silence allowed outside a game (default 300)\n"
    "  --name NAME           our name in the requests and answers (default dambit)\n"
    "  --variant V           international only\n"
    "  --hash MB             transposition table (default 64)\n"
    "  --threads T           search threads (default 1)\n"
    // (the shared option texts, DAMBIT_TABLES_HELP and DAMBIT_EVAL_HELP, indent less)
    "  --egtb DIR            endgame tables to probe (dambit egtb build)\n"
    "  --egtb-cache MB       their block cache (default 64)\n"
    "  --eval E              the evaluation: auto (default: the compiled-in learned weights),\n"
    "                        learned, hand (the hand-made one) or a weights file (dambit tune)\n"
    "  --pdn FILE            write every game in PDN to FILE (replaced whole after each game)\n"
    "  --quiet               print only the game lines and the summary\n"
    "  --book FILE           play from this opening book (dambit book build) while it has\n"
    "                        the position\n"
    "  --book-ply N          use it for the first N plies of a game (default 30)\n"
    "  --book-margin M       a move drawn among those within M of the best (default 0: the\n"
    "                        best)\n";

struct Tally {
    int games = 0, wins = 0, draws = 0, losses = 0, unfinished = 0;
};

// The PDN of a game, its comment and result as the session reported them.
// The --pdn file's lock, removed when a signal ends the server (only async-signal-safe calls).
char g_lock_path[4096];
void on_end_signal(int sig) {
    ::unlink(g_lock_path);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

std::string pdn_text(const dxp::GameReport& r, const std::string& our_name) {
    const bool white = r.our_colour == Color::kWhite;
    std::string s = play::pdn_game<International>(r.game, "DXP", std::to_string(r.number),
                                                 white ? our_name : r.peer,
                                                 white ? r.peer : our_name);
    const auto open = s.rfind('{');
    const auto close = s.rfind('}');
    if (open != std::string::npos && close != std::string::npos && close > open)
        s = s.substr(0, open) + "{" + r.reason + "} " + r.result + "\n\n";
    const std::string tag = "[Result \"" + r.game.result_text() + "\"]";
    if (const auto at = s.find(tag); at != std::string::npos)
        s.replace(at, tag.size(), "[Result \"" + r.result + "\"]");
    return s;
}

int run(const cli::Args& args) {
    if (const auto v = args.get("variant"); v && *v != "international") {
        (void)args.variant();  // an unknown name gets the usual message
        throw cli::UsageError("--variant " + *v +
                              ": DXP plays International draughts only (a 10x10 protocol)");
    }
    if (args.has("listen") == args.has("connect"))
        throw cli::UsageError("give one of --listen [HOST:]PORT and --connect HOST:PORT");
    net::Endpoint endpoint;
    try {
        endpoint = args.has("listen") ? net::parse_endpoint(*args.get("listen"), true)
                                      : net::parse_endpoint(*args.get("connect"), false);
    } catch (const std::invalid_argument& e) {
        throw cli::UsageError(std::string(args.has("listen") ? "--listen: " : "--connect: ") +
                              e.what());
    }
    dxp::SessionOptions o;
    o.name = args.get_or("name", "dambit");
    // As DXP's names must be (printable ASCII, not starting with a blank), which is what a
    // follower checks, dambit's included.
    const bool printable_ascii = std::all_of(o.name.begin(), o.name.end(), [](char c) {
        return static_cast<unsigned char>(c) >= 32 && static_cast<unsigned char>(c) < 127;
    });
    if (o.name.empty() || o.name.size() > dxp::kNameWidth || !printable_ascii || o.name[0] == ' ')
        throw cli::UsageError("bad value '" + dxp::printable(o.name) +
                              "' for --name (1 to 32 printable ASCII characters, the first not "
                              "a blank)");
    o.games = int(args.get_int("games", 0, 1, 100000));
    for (const char* opt : {"time", "moves", "fen"})
        if (args.has(opt) && o.games == 0)
            throw cli::UsageError(std::string("--") + opt +
                                  " goes with --games (the initiator sets the game)");
    o.minutes = int(args.get_int("time", 5, 1, 999));
    o.moves = int(args.get_int("moves", 0, 0, 999));
    if (const auto fen = args.get("fen")) {
        o.start = parse_fen<International>(*fen);
        dxp::check_game_start(*o.start);
    }
    o.movetime_ms = args.get_int("movetime", 0, 1, 3600000);
    o.max_plies = int(args.get_int("max-plies", 0, 1, 100000));
    o.idle_timeout_ms = int(args.get_int("timeout", 300, 1, 86400) * 1000);
    const int max_games = int(args.get_int("max-games", 0, 1, 1000000));
    const auto hash = std::size_t(args.get_megabytes("hash", 64));
    const int threads = int(args.get_int("threads", 1, 1, 256));
    const auto tables = cli::tables_option(args);
    const bool quiet = args.has("quiet");

    // The games so far, written whole to FILE after each game (FILE.tmp renamed over it), so that
    // a server stopped at any moment leaves a file of whole games; FILE.lock keeps a second
    // server given the same file from writing it too.
    // A server ends by Ctrl-C or kill: then FILE.lock is removed too (on_end_signal).
    std::optional<std::string> pdn;
    std::string pdn_games;
    std::unique_ptr<file_io::LockFile> pdn_lock;
    if (const auto file = args.get("pdn")) {
        if (file->empty()) throw cli::UsageError("--pdn: empty file name");
        const std::string lock = file_io::output_path(*file) + ".lock";
        try {  // locked before the file is checked: the check writes FILE.tmp for a moment
            pdn_lock = std::make_unique<file_io::LockFile>(lock);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(std::string("--pdn: ") + e.what());
        }
        pdn = cli::output_file("pdn", *file);
        if (lock.size() < sizeof g_lock_path) {
            std::memcpy(g_lock_path, lock.c_str(), lock.size() + 1);
            handle_stop_signals(on_end_signal);
        }
    }

    search::Engine<International> engine(hash, threads);
    engine.set_weights(cli::weights_choice(args.get_or("eval", cli::kDefaultEval),
                                           Variant::kInternational, "--eval")
                           .get());
    if (!tables.dir.empty() && engine.set_tables(tables.dir, tables.cache_megabytes) == 0)
        throw cli::UsageError("no complete set of international tables in " + tables.dir);

    const auto book = cli::book_player<International>(cli::book_option(args), "--book");
    o.book = book.get();

    // On standard error, with --quiet too: the server plays on, without its tables.
    o.on_error = [](const std::string& line) {
        std::fprintf(stderr, "dambit dxp: %s\n", line.c_str());
    };
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    auto say = [&](const std::string& line) {
        if (!quiet) std::fputs((line + "\n").c_str(), stdout);
    };
    Tally tally;
    auto on_game = [&](const dxp::GameReport& r) {
        ++tally.games;
        const bool white = r.our_colour == Color::kWhite;
        if (r.result == "*")
            ++tally.unfinished;
        else if (r.result == "1/2-1/2")
            ++tally.draws;
        else if ((r.result == "1-0") == white)
            ++tally.wins;
        else
            ++tally.losses;
        std::fputs(fmt::format("game {}: {} {} vs {}: {} ({}), {} plies\n", r.number, o.name,
                               white ? "White" : "Black", r.peer, r.result, r.reason,
                               r.game.plies())
                       .c_str(),
                   stdout);
        if (pdn) {
            pdn_games += pdn_text(r, o.name);
            try {  // a full disk is reported, and the server plays on
                file_io::replace_file(*pdn, pdn_games);
            } catch (const std::runtime_error& e) {
                std::fprintf(stderr, "dambit dxp: --pdn: %s\n", e.what());
            }
        }
    };
    const std::string where = endpoint.text();
    int counter = 0;
    std::string last_why;
    auto serve = [&](net::Socket socket, const std::string& peer) {
        net::Connection connection(std::move(socket), dxp::kMaxMessage);
        dxp::Session session(connection, engine, o, say, on_game);
        last_why = session.run(counter, max_games);
        say("connection " + peer + " closed: " + last_why);
    };
    if (args.has("connect")) {
        serve(net::connect(endpoint, 2000), where);
    } else {
        net::Listener listener(endpoint);
        say(fmt::format("listening on {}", net::Endpoint{endpoint.host, listener.port()}.text()));
        for (;;) {
            std::string peer;
            net::Socket s = listener.accept(-1, &peer);
            if (!s.valid()) continue;
            say("connection from " + peer);
            serve(std::move(s), peer);
            if (max_games > 0 && counter >= max_games) break;
            if (o.games > 0) break;  // an initiator serves one connection
        }
    }
    std::fputs(fmt::format("summary: {} for {}: {} won, {} drawn, {} lost, {} unfinished\n",
                           cli::count_text(tally.games, "game", "games"), o.name, tally.wins,
                           tally.draws, tally.losses,
                           tally.unfinished)
                   .c_str(),
               stdout);
    // An initiator whose games were not all played to their end (refused, a peer gone or
    // garbled) failed at its job: one line on stderr, exit status 1.
    const int finished = tally.games - tally.unfinished;
    if (o.games > 0 && finished < o.games) {
        // The session's end explains the games not played; for games played but unfinished
        // (a peer that ended them without a result) the game lines give the reasons.
        const std::string why = finished + tally.unfinished < o.games || last_why != "all games played"
                                    ? last_why
                                    : fmt::format("{} unfinished: see the game lines", tally.unfinished);
        std::fprintf(stderr, "dambit dxp: %d of %d games played to their end (%s)\n", finished,
                     o.games, why.c_str());
        return 1;
    }
    return 0;
}

}  // namespace dxp_cmd
}  // namespace

int dxp_command(int argc, char** argv) {
    using namespace dxp_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv,
                         {"listen", "connect", "games", "time", "moves", "fen", "movetime",
                          "max-plies", "max-games", "timeout", "name", "variant", "hash", "threads",
                          "egtb", "egtb-cache", "pdn", "eval", "book", "book-ply",
                          "book-margin"},
                         {"help", "quiet"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    return run(args);
}

}  // namespace dambit
