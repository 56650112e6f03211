// Writing PDN as the PDN 3.0 standard asks: captures in short notation (from and to) unless that
// names more than one legal move, then every landing square; tags escaped; lines of at most 79
// characters (docs/pdn.md#writing).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pdn/game.hpp"

namespace dambit::pdn {

// [Name "value"] and a newline, with '\' and '"' of the value escaped by '\' (a line break in it
// becomes a space: a tag stands on one line).
std::string tag_line(std::string_view name, std::string_view value);

// The moves of a game as PDN writes them: numbered in pairs from the variant's first mover ("1."
// before it, "1..." first when the other side begins: `first_mover_begins` false), then the
// comment in braces when not empty ('}' in it written ')'), then the result; words joined by
// spaces in lines of at most 79 characters, without a newline at the end (a move's text may
// have its annotations after it, each after a space: "32-28! $14"). `comments`, when it
// has one for a move (not empty), follows that move in braces, and the second mover's move after
// it gets its number again ("12...").
std::string movetext(const std::vector<std::string>& moves, bool first_mover_begins,
                     std::string_view result, std::string_view comment = {},
                     const std::vector<std::string>& comments = {});

// The comments of a game's moves: before the first move, and after each move (`after[k]` after
// move k: none, one or several, each written in braces of its own), then the words of the
// variations after it (`variations[k]`, as variation_words makes them; the move after them is
// numbered again).
struct MoveComments {
    std::string before;
    std::vector<std::vector<std::string>> after;
    std::vector<std::vector<std::string>> variations;
};

// The words of the variations after each move of a main line of `main_moves` moves whose first
// move is numbered `first_number` (the second mover's, "1...", when `first_mover_begins` is
// false): `vs` as the reader keeps them, each after the line it is in (one not closed, without
// moves, or in a line left out is left out), written in turn after the move each stands for,
// nested ones inside the line they are in: "(3..." "h8-g7" "4." "c3-d4)". A move after a nested
// variation is numbered again. Nested to any depth without recursion.
std::vector<std::vector<std::string>> variation_words(const std::vector<Variation>& vs,
                                                      std::size_t main_moves, int first_number,
                                                      bool first_mover_begins);
// movetext() with `comments` before the first move and after each move; a comment's words are
// wrapped like the moves. The first move is numbered `first_number`.
std::string movetext(const std::vector<std::string>& moves, bool first_mover_begins,
                     std::string_view result, std::string_view comment,
                     const MoveComments& comments, int first_number = 1);

// The text of `pm`, a legal move of `p`: a quiet move from-to; a capture from, the variant's
// capture separator and to when that text names `pm` alone and its ends differ; otherwise every
// landing square (a capture that ends where it began, `c3:c3`, says nothing to a reader).
template <class R>
std::string pdn_move_text(const Position<R>& p, const PathMove<typename R::Geometry>& pm) {
    if (!pm.move.is_capture() || pm.move.from == pm.move.to) return move_text<R>(pm);
    std::string s = square_name<R>(pm.move.from);
    s += R::kCaptureSeparator;
    s += square_name<R>(pm.move.to);
    try {
        if (parse_move<R>(p, s).move == pm.move) return s;
    } catch (const ParseError&) {
        // ambiguous: several captures from `from` to `to`
    }
    return move_text<R>(pm);
}

// One game: its tags (and GameType, SetUp and FEN when it has none and they are needed to read
// it back: a game from another position than the start gets SetUp "1" and its FEN), a blank line,
// the moves numbered in pairs from the variant's first mover ("1..." first when the other side
// starts; from the move number of its FEN tag's F field, when it has one), the result, a blank
// line; the game's comments where they stood, and each move's own strength right after it and its
// NAGs after that ("32-28! $14"). `marks`, when it has one for a move, is written right after it
// ("?!", "??"), the move's own strength then after it as its NAG ("32-28?? $1"; a strength that
// has none, "!!!", in parentheses), and `comments`, when it has one for a move (not empty), after
// the game's own comment on that move, in braces of its own. The game's variations follow the
// move each stands for (variation_words; a legal move of them written as the main line's, the
// others as they were written), then `lines[k]`, when it is not
// empty, as one more: moves played instead of move k (the engine's line of an analysis).
template <class R>
std::string write_game(const Game<R>& g, const std::vector<std::string>& marks = {},
                       const std::vector<std::string>& comments = {},
                       const std::vector<std::vector<std::string>>& lines = {}) {
    std::string s;
    bool has_type = false, has_fen = false, has_setup = false;
    for (const Tag& t : g.tags) {
        s += tag_line(t.name, t.value);
        has_type = has_type || t.name == "GameType";
        has_fen = has_fen || t.name == "FEN";
        has_setup = has_setup || t.name == "SetUp";
    }
    if (!has_type) s += tag_line("GameType", std::to_string(R::kPdnGameType));
    if (!has_fen && !(g.start == Position<R>::start())) {
        if (!has_setup) s += tag_line("SetUp", "1");
        s += tag_line("FEN", to_fen<R>(g.start));
    }
    const int number = g.first_number;
    std::vector<std::string> moves;
    MoveComments notes{g.comment, {}, {}};
    Position<R> p = g.start;
    for (const auto& pm : g.moves) {
        const std::size_t k = moves.size();
        moves.push_back(pdn_move_text<R>(p, pm));
        const Annotation own = g.annotation_of(k);
        // A view of marks[k] itself (the conditional with "" made a temporary std::string that
        // the view outlived: AddressSanitizer, stack-use-after-scope).
        const std::string_view mark =
            k < marks.size() ? std::string_view(marks[k]) : std::string_view();
        moves.back() += mark.empty() ? own.strength : mark;
        if (!mark.empty() && !own.strength.empty()) {
            const std::string_view nag = strength_nag(own.strength);
            moves.back() += nag.empty() ? " (" + own.strength + ")" : " " + std::string(nag);
        }
        for (const std::string& n : own.nags) moves.back() += " " + n;
        auto& after = notes.after.emplace_back();
        if (!g.comment_after(k).empty()) after.emplace_back(g.comment_after(k));
        if (k < comments.size() && !comments[k].empty()) after.push_back(comments[k]);
        p = p.play(pm.move);
    }
    // The game's variations, each legal move of them written as the main line's are.
    std::vector<Variation> variations = g.variations;
    play_variations<R>(
        g.variations, g,
        [&](std::size_t i, std::size_t k, const Position<R>& before, const auto& pm) {
            variations[i].moves[k].text = pdn_move_text<R>(before, pm);
        },
        [](std::size_t, std::size_t, const ParseError&) {});
    for (std::size_t k = 0; k < lines.size() && k < g.moves.size(); ++k) {
        if (lines[k].empty()) continue;
        Variation& v = variations.emplace_back();
        v.replaces = k;
        v.closed = true;
        for (const std::string& m : lines[k]) v.moves.push_back({m, {}, {}, {}});
    }
    notes.variations = variation_words(variations, g.moves.size(), number,
                                       g.start.side == R::kFirstMover);
    return s + "\n" +
           movetext(moves, g.start.side == R::kFirstMover, g.result, {}, notes, number) + "\n\n";
}

}  // namespace dambit::pdn
