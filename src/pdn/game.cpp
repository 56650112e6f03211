// The variant of a PDN game from its GameType tag (docs/pdn.md#gametype).
#include "pdn/game.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace dambit::pdn {
namespace {

bool digits(std::string_view s, std::size_t max) {
    if (s.empty() || s.size() > max) return false;
    for (const char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

int board_size(Variant v) {
    return with_variant(v, []<class R>(std::type_identity<R>) { return R::Geometry::kSize; });
}

}  // namespace

std::optional<Variant> variant_of_game_type(int type) {
    for (std::size_t i = 0; i < kVariantNames.size(); ++i) {
        const Variant v = Variant(i);
        const int t =
            with_variant(v, []<class R>(std::type_identity<R>) { return R::kPdnGameType; });
        if (t == type) return v;
    }
    return std::nullopt;
}

// The value is "Typenumber[,Start colour,Board width,Board height,Notation[,Invert flag]]", as the
// PDN 3.0 standard defines it: "25" or "25,W,8,8,A0,0".
std::optional<Variant> game_variant(const RawGame& g, std::optional<Variant> forced,
                                    std::optional<Problem>& problem, Variant untagged) {
    if (forced) return forced;
    const Tag* tag = g.tag("GameType");
    if (!tag) return untagged;
    auto fail = [&](std::string message) -> std::optional<Variant> {
        problem =
            Problem{tag->at, ProblemKind::kBadGameType, shown(tag->value), printable(message)};
        return std::nullopt;
    };
    std::string_view value = notation_detail::trim(tag->value);
    const auto fields = notation_detail::split(value, ',');
    bool ok = digits(fields[0], 3);
    if (fields.size() > 1) {
        ok = ok && (fields.size() == 5 || fields.size() == 6) &&
             (fields[1] == "W" || fields[1] == "B") && digits(fields[2], 2) &&
             digits(fields[3], 2) && fields[4].size() == 2 &&
             std::string_view("ANS").find(fields[4][0]) != std::string_view::npos &&
             fields[4][1] >= '0' && fields[4][1] <= '3' &&
             (fields.size() == 5 || fields[5] == "0" || fields[5] == "1");
    }
    if (!ok)
        return fail(
            fmt::format("bad GameType '{}' (want a number, or number,W|B,width,height,"
                        "notation[,invert])",
                        shown(tag->value)));
    const int type = std::stoi(std::string(fields[0]));
    const auto v = variant_of_game_type(type);
    if (!v)
        return fail(
            fmt::format("unsupported GameType '{}' (dambit plays 20 international, "
                        "21 english, 23 pool, 25 russian, 26 brazilian, 29 czech; "
                        "--variant overrides)",
                        shown(tag->value)));
    if (fields.size() > 1) {
        const int size = board_size(*v);
        if (std::stoi(std::string(fields[2])) != size || std::stoi(std::string(fields[3])) != size)
            return fail(fmt::format("bad GameType '{}': {} is played on {}x{}", shown(tag->value),
                                    variant_name(*v), size, size));
    }
    return v;
}

void note_untagged(const RawGame& raw, std::optional<Variant> forced, Variant used,
                   std::optional<Problem>& problem) {
    if (!problem || forced || raw.tag("GameType")) return;
    const ProblemKind k = problem->kind;
    if (k == ProblemKind::kIllegalMove || k == ProblemKind::kAmbiguousMove ||
        problem->message.find("unknown square") != std::string::npos)
        problem->message += fmt::format(" (read as {}: no GameType tag; --variant reads another)",
                                        variant_name(used));
}

std::optional<Problem> missing_result(const RawGame& raw) {
    if (!raw.result.empty() || raw.tag("Result") || raw.doubtful_moves()) return std::nullopt;
    return Problem{raw.moves.empty() ? raw.at : raw.moves.back().at, ProblemKind::kNoResult, "",
                   "no result: the moves end without one, and there is no Result tag"};
}

std::optional<Problem> passed_over(const RawGame& raw, const std::optional<Problem>& replayed) {
    std::vector<Problem> all = raw.problems;
    if (raw.more_problems > 0) all.push_back(raw.more_problem());
    if (const auto p = missing_result(raw)) all.push_back(*p);
    if (replayed && replayed->kind == ProblemKind::kResultMismatch) all.push_back(*replayed);
    if (all.empty()) return std::nullopt;
    const auto first = std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a.at.line != b.at.line ? a.at.line < b.at.line : a.at.column < b.at.column;
    });
    // The line beyond kMaxProblems stands for several.
    const std::size_t more = all.size() - 1 + std::size_t(std::max(raw.more_problems - 1, 0));
    Problem p = *first;
    p.message += more == 0 ? " (passed over)"
                           : fmt::format(" (passed over; {} more problem{}, which pdn check lists)",
                                         more, more == 1 ? "" : "s");
    return p;
}

std::string problem_line(std::string_view file, int game, const Problem& p) {
    return fmt::format("{}:{}:{}: game {}: {}", file, p.at.line, p.at.column, game, p.message);
}

ProblemKind move_problem_kind(std::string_view message) {
    if (message.starts_with("illegal move")) return ProblemKind::kIllegalMove;
    if (message.starts_with("ambiguous move")) return ProblemKind::kAmbiguousMove;
    return ProblemKind::kBadMove;
}

}  // namespace dambit::pdn
