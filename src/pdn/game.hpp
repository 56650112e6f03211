// A PDN game replayed with the rules of its variant: the variant from the GameType tag, the start
// position from the FEN tag, and each move text matched to exactly one legal move.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/instances.hpp"
#include "core/notation.hpp"
#include "core/variant.hpp"
#include "pdn/reader.hpp"

namespace dambit::pdn {

// The variant whose PDN GameType number is `type` (RULES.md §3, last row): 20 International,
// 21 English, 23 Pool, 25 Russian, 26 Brazilian, 29 Czech.
std::optional<Variant> variant_of_game_type(int type);

// The variant to replay `g` with: `forced` when given (--variant), else its GameType tag, else
// `untagged` (Russian, dambit's default variant, unless the caller knows better: a book of
// another variant). A GameType tag that is malformed, names a game dambit does not play or a
// board of another size gives nullopt and sets `problem`.
std::optional<Variant> game_variant(const RawGame& g, std::optional<Variant> forced,
                                    std::optional<Problem>& problem,
                                    Variant untagged = Variant::kRussian);

// A game that follows the rules of R.
template <class R>
struct Game {
    using G = typename R::Geometry;
    std::vector<Tag> tags;
    Position<R> start = Position<R>::start();
    std::vector<PathMove<G>> moves;  // the main line, from `start`
    std::string result = "*";        // "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0" or "*"
    std::string comment;                // before the first move (RawGame::comment)
    std::vector<std::string> comments;  // after each move: empty, or as many as `moves`
    std::vector<Annotation> annotations;  // each move's own strength and NAGs: empty, or as many
    // The number of its first move: the FEN tag's F, else the number the movetext gives it
    // ("23." before it), else 1.
    int first_number = 1;
    // Its variations as the reader kept them (RawGame::variations; empty unless it keeps them),
    // the texts as written: write_game writes them back.
    std::vector<Variation> variations;

    // The position after the first `plies` moves.
    Position<R> position(std::size_t plies) const {
        Position<R> p = start;
        for (std::size_t i = 0; i < plies && i < moves.size(); ++i) p = p.play(moves[i].move);
        return p;
    }
    // The comment after move `i` ("" when it has none).
    std::string_view comment_after(std::size_t i) const {
        return i < comments.size() ? std::string_view(comments[i]) : std::string_view();
    }
    // Move `i`'s own annotation (empty when it has none).
    Annotation annotation_of(std::size_t i) const {
        return i < annotations.size() ? annotations[i] : Annotation{};
    }
    friend bool operator==(const Game& a, const Game& b) {
        if (a.tags.size() != b.tags.size() || !(a.start == b.start) || a.result != b.result ||
            a.moves.size() != b.moves.size() || a.comment != b.comment)
            return false;
        for (std::size_t i = 0; i < a.moves.size(); ++i)
            if (a.comment_after(i) != b.comment_after(i) ||
                !(a.annotation_of(i) == b.annotation_of(i)))
                return false;
        for (std::size_t i = 0; i < a.tags.size(); ++i)
            if (a.tags[i].name != b.tags[i].name || a.tags[i].value != b.tags[i].value)
                return false;
        for (std::size_t i = 0; i < a.moves.size(); ++i)
            if (!(a.moves[i].move == b.moves[i].move)) return false;
        return true;
    }
};

// The kind of a ParseError of parse_move, from its message ("illegal move '...'",
// "ambiguous move '...': ...", anything else is a move that cannot be read).
ProblemKind move_problem_kind(std::string_view message);

// Adds to `problem`, the one that stopped the replay of `raw` as `used`, that the game was read
// as that variant for want of a GameType tag, when it has none, --variant was not given
// (`forced`) and the problem is one another variant might not have (a move that is illegal or
// ambiguous, or a move or FEN tag with an unknown square):
// " (read as russian: no GameType tag; --variant reads another)".
void note_untagged(const RawGame& raw, std::optional<Variant> forced, Variant used,
                   std::optional<Problem>& problem);

// A problem when `raw`'s moves end without a result and it has no Result tag (placed after its
// last move), unless the reader found its moves in doubt (a truncated file says so already).
std::optional<Problem> missing_result(const RawGame& raw);

// The problems of `raw` that a command using its moves passes over (pdn analyse, pdn fen, a book
// from games): its syntax errors and bad tags, comments left out, a missing result and
// `replayed` (the replay's problem, when it is one that does not stop the replay: a result that
// disagrees). One line for a message, so that nothing is left out of a file silently: the first
// of them, "(passed over; N more problems, which pdn check lists)".
std::optional<Problem> passed_over(const RawGame& raw, const std::optional<Problem>& replayed);

// A problem as every command names it: "FILE:LINE:COLUMN: game N: MESSAGE".
std::string problem_line(std::string_view file, int game, const Problem& p);

// Replays `raw` with the rules of R into `out`: its tags, the start position (the FEN tag, or the
// variant's start), the moves of its main line (at most `max_plies` of them when that is not
// negative) and its result (the result token, else the Result tag, else "*"). Returns the first
// problem that stops the replay (a bad FEN tag, a move that is not exactly one legal move) or, when
// every move was played, a result token that disagrees with the Result tag, or a result that
// disagrees with the last position (the side to move has no legal move, so it has lost; where
// Black moves first, programs differ on which side PDN's "1-0" gives the win, so there only a
// draw is refused); `out` then holds the moves played before it.
template <class R>
std::optional<Problem> replay(const RawGame& raw, Game<R>& out, long max_plies = -1) {
    out.tags = raw.tags;
    for (Tag& t : out.tags)  // "½-½" is written back as 1/2-1/2, in the tag as after the moves
        if (t.name == "Result") t.value = canonical_result(t.value);
    out.moves.clear();
    out.comment = raw.comment;
    out.comments.clear();
    out.annotations.clear();
    out.variations = raw.variations;
    out.start = Position<R>::start();
    out.first_number = raw.first_number > 0 ? raw.first_number : 1;
    const Tag* result_tag = raw.tag("Result");
    out.result = !raw.result.empty()                           ? raw.result
                 : result_tag && outcome_of(result_tag->value) ? canonical_result(result_tag->value)
                                                               : "*";
    // "?" or nothing (lidraughts writes [FEN "?"] for a game from the start): no set-up.
    const Tag* fen = raw.tag("FEN");
    if (fen && (notation_detail::trim(fen->value).empty() ||
                notation_detail::trim(fen->value) == "?"))
        fen = nullptr;
    if (fen) {
        if (notation_detail::fen_counter(fen->value, 'F')) out.first_number = fen_move_number(fen->value);
        try {
            out.start = parse_fen<R>(fen->value);
        } catch (const ParseError& e) {
            return Problem{fen->at, ProblemKind::kBadFen, shown(fen->value),
                           printable(fmt::format("bad FEN tag: {}", e.what()))};
        }
    }
    Position<R> p = out.start;
    for (const MoveText& m : raw.moves) {
        if (max_plies >= 0 && long(out.moves.size()) >= max_plies) return std::nullopt;
        try {
            out.moves.push_back(parse_move<R>(p, m.text));
            out.comments.push_back(m.comment);
            out.annotations.push_back(m.own);
        } catch (const ParseError& e) {
            return Problem{m.at, move_problem_kind(e.what()), shown(m.text), printable(e.what())};
        }
        p = p.play(out.moves.back().move);
    }
    if (!raw.result.empty() && result_tag) {
        const auto a = outcome_of(raw.result), b = outcome_of(result_tag->value);
        if (a && b && *a != Outcome::kUnknown && *b != Outcome::kUnknown && *a != *b)
            return Problem{raw.result_at, ProblemKind::kResultMismatch, raw.result,
                           printable(fmt::format("result '{}' disagrees with the Result tag '{}'",
                                                 raw.result, result_tag->value))};
    }
    const auto outcome = outcome_of(out.result);
    if (outcome && (*outcome == Outcome::kWhiteWins || *outcome == Outcome::kBlackWins ||
                    *outcome == Outcome::kDraw)) {
        FixedList<PathMove<typename R::Geometry>, kMaxMoves> legal;
        generate_paths<R>(p, legal);
        const bool white = p.side == Color::kWhite;
        // Where Black moves first, only a draw is sure to be wrong.
        const bool wrong = R::kFirstMover == Color::kWhite
                               ? *outcome != (white ? Outcome::kBlackWins : Outcome::kWhiteWins)
                               : *outcome == Outcome::kDraw;
        if (legal.empty() && wrong)
            return Problem{raw.result.empty() ? result_tag->at : raw.result_at,
                           ProblemKind::kResultMismatch, out.result,
                           printable(fmt::format(
                               "result '{}', but {} has no legal move after the last move: {} "
                               "has won",
                               out.result, white ? "White" : "Black", white ? "Black" : "White"))};
    }
    return std::nullopt;
}

// Plays each closed variation of `vs` (a game's, as the reader keeps them) from the position
// before the move it replaces, in the line it stands in; `main` holds the main line as replay()
// played it. `legal(i, k, before, pm)` for each move k of variation i that is exactly one legal
// move `pm` in `before`; `illegal(i, k, error)` for the first that is not, and the variation stops
// there. A variation of a move its line did not reach, or not closed (its words uncertain), is not
// played.
template <class R, class Legal, class Illegal>
void play_variations(const std::vector<Variation>& vs, const Game<R>& main, Legal&& legal,
                     Illegal&& illegal) {
    // The positions before each move of each line, as far as the line was played.
    std::vector<Position<R>> main_line{main.start};
    for (const auto& pm : main.moves) main_line.push_back(main_line.back().play(pm.move));
    std::vector<std::vector<Position<R>>> lines(vs.size());
    for (std::size_t i = 0; i < vs.size(); ++i) {
        const Variation& v = vs[i];
        const auto& parent = v.parent < 0 ? main_line : lines[std::size_t(v.parent)];
        if (v.replaces + 1 >= parent.size() || !v.closed) continue;
        auto& line = lines[i];
        line.push_back(parent[v.replaces]);
        for (std::size_t k = 0; k < v.moves.size(); ++k) {
            try {
                const auto pm = parse_move<R>(line.back(), v.moves[k].text);
                legal(i, k, line.back(), pm);
                line.push_back(line.back().play(pm.move));
            } catch (const ParseError& e) {
                illegal(i, k, e);
                break;
            }
        }
    }
}

// The problems of `raw`'s variations (pdn check): each variation's first move that is not
// exactly one legal move where it stands ("in a variation: ..."; play_variations). A variation
// of a move the main line did not reach is not checked (the problem before it is reported
// already).
template <class R>
std::vector<Problem> check_variations(const RawGame& raw, const Game<R>& main) {
    std::vector<Problem> problems;
    play_variations<R>(
        raw.variations, main, [](std::size_t, std::size_t, const Position<R>&, const auto&) {},
        [&](std::size_t i, std::size_t k, const ParseError& e) {
            const MoveText& m = raw.variations[i].moves[k];
            problems.push_back(Problem{m.at, move_problem_kind(e.what()), shown(m.text),
                                       printable(fmt::format("in a variation: {}", e.what()))});
        });
    return problems;
}

// Replayed in each variant's instance file, at -O3: a PDN database of a million games is read
// at the speed of its moves (docs/pdn.md), not of a front end's unoptimised copy.
#define DAMBIT_PDN_TEMPLATES(R)                                                          \
    DAMBIT_EXTERN template std::optional<Problem> replay<R>(const RawGame&, Game<R>&, long);  \
    DAMBIT_EXTERN template std::vector<Problem> check_variations<R>(const RawGame&, const Game<R>&);
#ifndef DAMBIT_INSTANTIATE_PDN
DAMBIT_FOR_EACH_RULES(DAMBIT_PDN_TEMPLATES)
#endif

}  // namespace dambit::pdn
