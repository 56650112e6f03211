// Checking PDN files and finding a game's position (dambit pdn check, dambit pdn fen).
#include "pdn/check.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "pdn/game.hpp"
#include "search/draw.hpp"

namespace dambit::pdn {
namespace {

// Replays `raw` with the rules of its variant for at most `max_plies` plies (all when negative):
// the problem that stopped it, if any, and the plies played and FEN reached.
struct Replayed {
    std::optional<Problem> problem;
    long plies = 0;
    std::string fen;
    std::vector<Problem> variations;  // with check_variations: their problems
};

Replayed replay_game(const RawGame& raw, std::optional<Variant> forced, long max_plies,
                     bool want_fen, bool check_variation_moves = false) {
    Replayed r;
    const auto v = game_variant(raw, forced, r.problem);
    if (!v) return r;
    with_variant(*v, [&]<class R>(std::type_identity<R>) {
        Game<R> game;
        r.problem = replay<R>(raw, game, max_plies);
        note_untagged(raw, forced, *v, r.problem);
        r.plies = long(game.moves.size());
        if (check_variation_moves) r.variations = check_variations<R>(raw, game);
        if (want_fen) {
            // With the H field, the plies since the last capture or man move: from the FEN
            // tag's own, along the moves replayed, as show counts them.
            const Tag* tag = raw.tag("FEN");
            auto counters = tag ? search::fen_counters(tag->value) : search::DrawCounters{};
            Position<R> at = game.start;
            for (const auto& pm : game.moves) {
                counters = counters.after(at, pm.move);
                at = at.play(pm.move);
            }
            // With the F field, the move number, when past the first: the game's first (its FEN
            // tag's F, or the movetext's number) counted on by the moves (a number is a move of
            // each side, from the first mover).
            const int number = move_number_after(int(game.moves.size()), game.first_number,
                                                 game.start.side == R::kFirstMover);
            r.fen = to_fen<R>(at, counters.kings_only) +
                    (number > 1 ? ":F" + std::to_string(number) : std::string());
        }
        return 0;
    });
    return r;
}

}  // namespace

void check_stream(std::istream& in, std::optional<Variant> forced, CheckTotals& totals,
                  const std::function<void(int, const Problem&)>& report,
                  const std::function<void(std::uint64_t)>& progress) {
    Reader reader(in, true);
    RawGame raw;
    std::vector<Problem> problems;
    while (reader.next(raw)) {
        ++totals.games;
        const Replayed r = replay_game(raw, forced, -1, false, true);
        totals.moves += std::uint64_t(r.plies);
        problems = raw.problems;
        if (raw.more_problems > 0) problems.push_back(raw.more_problem());
        for (const auto& p : {r.problem, missing_result(raw)})
            if (p) problems.push_back(*p);
        // The variations' problems, at most kMaxProblems of them as the reader keeps its own;
        // the rest one line that counts as them.
        const std::size_t shown_variations = std::min(r.variations.size(), kMaxProblems);
        const std::size_t more = r.variations.size() - shown_variations;
        problems.insert(problems.end(), r.variations.begin(),
                        r.variations.begin() + std::ptrdiff_t(shown_variations));
        if (more > 0)
            problems.push_back({r.variations[shown_variations].at, ProblemKind::kSyntax, "",
                                fmt::format("{} more errors in this game's variations", more)});
        // In file order: the reader finds an unclosed variation at its end, and places it at
        // its '('.
        std::stable_sort(problems.begin(), problems.end(), [](const Problem& a, const Problem& b) {
            return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.column < b.at.column;
        });
        if (!problems.empty()) ++totals.failed;
        // The lines for the problems beyond the limits count as those problems.
        totals.errors += problems.size() + std::size_t(raw.more_problems) -
                         (raw.more_problems > 0 ? 1 : 0) + (more > 0 ? more - 1 : 0);
        for (const auto& p : problems) report(raw.number, p);
        if (progress) progress(reader.bytes());
    }
}

PlyPosition position_after(std::istream& in, std::optional<Variant> forced, int number,
                           long plies) {
    PlyPosition out;
    Reader reader(in);
    RawGame raw;
    while (reader.next(raw)) {
        out.games = raw.number;
        if (raw.number != number) continue;
        out.found = true;
        const Replayed r = replay_game(raw, forced, plies, true);
        out.plies = r.plies;
        out.fen = r.fen;
        // A replay that stops before ply `plies` stops at a problem of a move before it, or of
        // the FEN or GameType tag; the result is checked only after the last move.
        if (r.problem && r.problem->kind != ProblemKind::kResultMismatch)
            out.problem = r.problem;
        else
            out.passed = passed_over(raw, r.problem);
        return out;
    }
    return out;
}

}  // namespace dambit::pdn
