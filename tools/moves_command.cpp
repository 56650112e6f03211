// dambit moves: every legal move of a position, in long notation or as JSON.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "cli.hpp"
#include "commands.hpp"
#include "core/notation.hpp"
#include "json.hpp"

namespace dambit {
namespace {
namespace moves_cmd {

constexpr const char* kHelp =
    "usage: dambit moves [--variant V] [--fen FEN] [--moves \"m1 m2 ...\"] [--duplicates drop|keep]\n"
    "         [--json]\n"
    "\n"
    "Prints every legal move of the position in long notation, one per line (captures list every\n"
    "landing square). The FEN defaults to the variant's start position.\n"
    "\n"
    "  --variant V        russian (default), czech, brazilian, pool, english, international\n"
    "  --fen FEN          position, e.g. W:W21-32:B1-12 or [FEN \"W:Wh6:Bg7,c5,d2\"]\n"
    "  --moves \"...\"      moves played from that position first (as show and search take them)\n"
    "  --duplicates D     drop (default): identical captures once; keep: every capture path\n"
    "  --json             one JSON array of {\"move\",\"from\",\"to\",\"captured\",\"piece\",\n"
    "                     \"promotes\"} objects (piece: man or king, the one that moves)\n";

template <class R, Duplicates D>
int list_moves(const Position<R>& p, bool json) {
    using G = typename R::Geometry;
    FixedList<PathMove<G>, kMaxMoves> list;
    generate_paths<R, D>(p, list);
    if (!json) {
        for (const auto& pm : list) fmt::print("{}\n", move_text<R>(pm));
        return 0;
    }
    json::Array out;
    for (const auto& pm : list)
        out.add(json::Object()
                    .add("move", move_text<R>(pm))
                    .add("from", square_name<R>(pm.move.from))
                    .add("to", square_name<R>(pm.move.to))
                    .add("captured", captured_names<R>(pm))
                    .add("piece", pm.move.king_moves() ? "king" : "man")
                    .add("promotes", pm.move.promotes()));
    fmt::print("{}\n", out.str());
    return 0;
}

}  // namespace moves_cmd
}  // namespace

int moves_command(int argc, char** argv) {
    using namespace moves_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv, {"variant", "fen", "moves", "duplicates"}, {"json", "help"});
    if (args.has("help")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const std::string dup = args.get_or("duplicates", "drop");
    if (dup != "drop" && dup != "keep")
        throw cli::UsageError("bad value '" + dup + "' for --duplicates (want drop or keep)");
    return with_variant(args.variant(), [&]<class R>(std::type_identity<R>) {
        const auto fen = args.get("fen");
        Position<R> p = fen ? parse_fen<R>(*fen) : Position<R>::start();
        if (const auto moves = args.get("moves")) play_line<R>(p, *moves);
        return dup == "keep" ? list_moves<R, Duplicates::kKeep>(p, args.has("json"))
                             : list_moves<R, Duplicates::kDrop>(p, args.has("json"));
    });
}

}  // namespace dambit
