// Whole PDN files: every game read and replayed with its problems reported (dambit pdn check), and
// the position of one game after some plies (dambit pdn fen).
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>

#include "core/variant.hpp"
#include "pdn/reader.hpp"

namespace dambit::pdn {

struct CheckTotals {
    std::uint64_t games = 0;   // games read
    std::uint64_t failed = 0;  // games with at least one problem
    std::uint64_t moves = 0;   // moves replayed (plies), over every game
    std::uint64_t errors = 0;  // problems reported
};

// Reads every game of `in`, replays it with the rules of its variant (game_variant: `forced`, its
// GameType, or Russian) and calls `report(game number, problem)` for each of its problems in file
// order: its syntax errors, then (in place) the one that stopped its replay; more than
// kMaxProblems syntax errors in one game end with a problem "N more errors in this game".
// `progress`, when given, is called after each game with the bytes read so far.
void check_stream(std::istream& in, std::optional<Variant> forced, CheckTotals& totals,
                  const std::function<void(int, const Problem&)>& report,
                  const std::function<void(std::uint64_t bytes)>& progress = {});

// What position_after found.
struct PlyPosition {
    int games = 0;       // games read: all of the stream's when game `number` is not in it
    bool found = false;  // game `number` is in the stream
    long plies = 0;      // the plies replayed (the wanted number, or fewer when the game has fewer)
    std::string fen;     // the position after them
    std::optional<Problem> problem;  // what stopped the replay before the wanted ply, if anything
    std::optional<Problem> passed;   // else the problems passed over (passed_over, pdn/game.hpp)
};

// Game `number` (from 1) of `in`, replayed for `plies` plies (0: its start position).
PlyPosition position_after(std::istream& in, std::optional<Variant> forced, int number, long plies);

}  // namespace dambit::pdn
