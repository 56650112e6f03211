// dambit show: a position as a text diagram or an SVG picture, with its FEN and legal moves.
#include <fmt/format.h>

#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "core/notation.hpp"
#include "play/match.hpp"
#include "show/diagram.hpp"

namespace dambit {
namespace {
namespace show_cmd {

constexpr const char* kHelp =
    "usage: dambit show [--variant V] [--fen FEN] [--moves \"m1 m2 ...\"] [--flip]\n"
    "                   [--svg FILE [--size PIXELS]]\n"
    "\n"
    "Draws the position (after the moves, if given) as a text diagram with its coordinates, then\n"
    "prints the side to move, the FEN and the legal moves. Algebraic variants (russian, czech,\n"
    "brazilian) are labelled a-h and 1-8; numbered ones show each empty square's number and the\n"
    "numbers of each row. White men and kings are w and W, Black's b and B.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --fen FEN          position (default: the variant's start position)\n"
    "  --moves \"...\"      moves played from that position first; the last one is marked in\n"
    "                     the SVG picture\n"
    "  --flip             draw the board from Black's side\n"
    "  --svg FILE         also write the board as an SVG picture to FILE\n"
    "  --size PIXELS      width of the SVG picture (default 400)\n";

template <class R>
int run(const cli::Args& args) {
    using G = typename R::Geometry;
    if (const auto svg = args.get("svg")) cli::output_file("svg", *svg);
    const auto fen = args.get("fen");
    Position<R> p = fen ? parse_fen<R>(*fen) : Position<R>::start();
    std::optional<Move<G>> last;
    std::string played;
    // The game so far, for the draw rules (RULES.md §5), as a match judges its games.
    play::GameState<R> game(p);
    // The FEN's H field: kings alone have moved for that many plies before it.
    if (fen) game.counters = search::fen_counters(*fen);
    if (const auto moves = args.get("moves")) {
        for (const auto& pm : play_line<R>(p, *moves)) {
            played += (played.empty() ? "" : " ") + move_text<R>(pm);
            last = pm.move;
            game.play(pm);
        }
    }
    const bool flip = args.has("flip");
    show::Board board = show::board_of(p);
    if (last) show::mark_move<R>(board, *last);
    if (const auto svg = args.get("svg")) {
        const int pixels = int(args.get_int("size", 400, 40, 10000));
        // Another run writing the same FILE.tmp at once would mix the two pictures in it.
        const std::string path = cli::output_file("svg", *svg);
        const auto lock = cli::lock_tmp("svg", path);
        file_io::replace_file(path, show::svg_diagram(board, flip, pixels));
    } else if (args.has("size")) {
        throw cli::UsageError("--size goes with --svg");
    }

    fmt::print("{}\n", show::text_diagram(board, flip));
    if (!played.empty()) fmt::print("After {}\n", played);
    const char* side = p.side == Color::kWhite ? "White" : "Black";
    fmt::print("{} to move: {}\n", side, to_fen<R>(p, game.counters.kings_only));
    FixedList<PathMove<G>, kMaxMoves> list;
    const auto ending = game.rules_ending(std::numeric_limits<int>::max(), list);
    if (ending == play::Ending::kNoMove) {
        fmt::print("No legal move: {} has lost.\n", side);
        return 0;
    }
    // A game over by the draw rules: said, and the moves listed all the same (for analysis).
    if (ending == play::Ending::kRepetition)
        fmt::print("Drawn: this position has occurred three times.\n");
    else if (ending == play::Ending::kDrawRule)
        fmt::print("Drawn by the move-count rules.\n");
    std::string moves;
    for (const auto& pm : list) moves += " " + move_text<R>(pm);
    fmt::print("{}:{}\n", cli::count_text(list.size(), "legal move", "legal moves"), moves);
    return 0;
}

}  // namespace show_cmd
}  // namespace

int show_command(int argc, char** argv) {
    using namespace show_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv, {"variant", "fen", "moves", "svg", "size"},
                         {"flip", "help"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() { return run<R>(args); });
}

}  // namespace dambit
