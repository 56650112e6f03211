// PDN 3.0 reader: tags, movetext tokens, comments, variations and results (docs/pdn.md#reading).
#include "pdn/reader.hpp"

#include "core/notation.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cstring>

namespace dambit::pdn {
namespace {

constexpr std::size_t kBuffer = 1 << 16;

bool is_space(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(int c) {
    return c >= '0' && c <= '9';
}
// Characters that end a word of movetext: white space and the one-character tokens.
bool ends_word(int c) {
    return c < 0 || is_space(c) || (c != 0 && std::strchr("[]{}();\"$", c) != nullptr);
}

}  // namespace

std::string shown(std::string_view s) {
    if (s.size() <= kShown) return printable(s);
    // Back to the first byte of a character: a UTF-8 continuation byte is 10xxxxxx.
    std::size_t cut = kShown;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return printable(s.substr(0, cut)) + "...";
}

std::string_view strength_nag(std::string_view strength) {
    static constexpr std::array<std::string_view, 6> kStrengths = {"!",  "?",  "!!",
                                                                   "??", "!?", "?!"};
    static constexpr std::array<std::string_view, 6> kNags = {"$1", "$2", "$3", "$4", "$5", "$6"};
    for (std::size_t i = 0; i < kStrengths.size(); ++i)
        if (strength == kStrengths[i]) return kNags[i];
    return {};
}

std::optional<Problem> RawGame::doubtful_moves() const {
    for (const auto& p : problems) {
        // Comments or variations left out leave the main line's moves whole.
        const bool left_out = p.kind == ProblemKind::kTooLong && (p.token == "{" || p.token == "(");
        if (p.kind != ProblemKind::kSyntax && p.kind != ProblemKind::kBadTag && !left_out) return p;
    }
    if (more_problems > 0) return more_problem();
    return std::nullopt;
}

Problem RawGame::more_problem() const {
    return {more_at, ProblemKind::kSyntax, "",
            fmt::format("{} more errors in this game", more_problems)};
}

std::string_view kind_name(ProblemKind k) {
    // In the order of ProblemKind.
    static constexpr std::array<std::string_view, 12> kNames = {
        "illegal-move",    "ambiguous-move", "bad-move",        "bad-tag",
        "truncated",       "syntax",         "bad-fen",         "bad-game-type",
        "result-mismatch", "too-long",       "no-result",       "encoding"};
    return kNames[std::size_t(k)];
}

namespace {
bool is_half_draw(std::string_view r) {
    return r == "\xC2\xBD-\xC2\xBD" || r == "\xBD-\xBD";  // "½-½" in UTF-8, in Latin-1
}
}  // namespace

std::optional<Outcome> outcome_of(std::string_view r) {
    if (r == "1-0" || r == "2-0") return Outcome::kWhiteWins;
    if (r == "0-1" || r == "0-2") return Outcome::kBlackWins;
    if (r == "1/2-1/2" || r == "1-1" || is_half_draw(r)) return Outcome::kDraw;
    if (r == "0-0") return Outcome::kDoubleForfeit;
    if (r == "*") return Outcome::kUnknown;
    return std::nullopt;
}

std::string canonical_result(std::string_view r) {
    return is_half_draw(r) ? "1/2-1/2" : std::string(r);
}

const Tag* RawGame::tag(std::string_view name) const {
    for (const auto& t : tags)
        if (t.name == name) return &t;
    return nullptr;
}

Reader::Reader(std::istream& in, bool keep_variations)
    : in_(in), buffer_(kBuffer), keep_variations_(keep_variations) {}

int Reader::refill(std::size_t k) {
    while (pos_ + k >= end_ && !eof_) {
        if (pos_ > 0) {
            std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
            end_ -= pos_;
            pos_ = 0;
        }
        in_.read(buffer_.data() + end_, std::streamsize(buffer_.size() - end_));
        const auto n = std::size_t(in_.gcount());
        if (n == 0) eof_ = true;
        end_ += n;
    }
    return pos_ + k < end_ ? static_cast<unsigned char>(buffer_[pos_ + k]) : -1;
}

int Reader::get() {
    const int c = peek();
    if (c < 0) return c;
    ++pos_;
    ++consumed_;
    if (c == '\n') {
        ++line_;
        column_ = 1;
    } else {
        ++column_;
    }
    return c;
}

void Reader::begin_game(RawGame& g, Location at) {
    if (started_) return;
    started_ = true;
    g.number = ++games_;
    g.at = at;
}

void Reader::problem(RawGame& g, Location at, ProblemKind kind, std::string token,
                     std::string message) {
    begin_game(g, at);
    if (g.problems.size() >= kMaxProblems) {
        if (g.more_problems++ == 0) g.more_at = at;
        return;
    }
    g.problems.push_back({at, kind, std::move(token), std::move(message)});
}

void Reader::skip_line() {
    for (int c = peek(); c >= 0 && c != '\n'; c = peek()) get();
}

// A comment of the main line is kept with the move before it (or the game, before its first move).
void Reader::read_comment(RawGame& g) {
    const Location at = here();
    get();  // '{'
    std::string* target = nullptr;
    if (started_ && open_.empty())
        target = g.moves.empty() ? &g.comment : &g.moves.back().comment;
    bool blank = target && !target->empty();  // a space is due before the next character
    // Lines inside it that begin as tags do ("[Event"): the games a missing '}' swallowed.
    bool line_start = false;
    int tag_lines = 0, first_tag_line = 0;
    for (;;) {
        const int c = get();
        if (c == '}') return;
        if (c < 0) {
            problem(g, at, ProblemKind::kTruncated, "{",
                    "truncated file: unclosed comment" +
                        (tag_lines == 0
                             ? std::string()
                             : fmt::format(" (the rest of the file is in it, with {} tag line{} "
                                           "from line {})",
                                           tag_lines, tag_lines == 1 ? "" : "s",
                                           first_tag_line)));
            return;
        }
        if (line_start && c == '[' && std::isalpha(peek()) && tag_lines++ == 0)
            first_tag_line = line_;
        line_start = c == '\n' || (line_start && (c == ' ' || c == '\t' || c == '\r'));
        if (!target) continue;
        if (is_space(c) || c < 0x20 || c == 0x7f) {  // control characters too
            blank = !target->empty();
            continue;
        }
        if (!keep_comment(g, blank ? 2 : 1, at)) {
            target = nullptr;
            continue;
        }
        if (blank) {
            *target += ' ';
            blank = false;
        }
        *target += char(c);
    }
}

bool Reader::keep_comment(RawGame& g, std::size_t chars, Location at) {
    if (comment_chars_ + chars <= kMaxComments) {
        comment_chars_ += chars;
        return true;
    }
    if (!comments_cut_)
        problem(g, at, ProblemKind::kTooLong, "{",
                fmt::format("more than {} characters of comments in one game (the rest are left "
                            "out)",
                            kMaxComments));
    comments_cut_ = true;
    return false;
}

void Reader::annotate(RawGame& g, std::string_view text, bool nag, Location at) {
    // A run of strengths longer than the parentheses take ("(?!?!?!?)") is no annotation a
    // program writes: read, not kept (so that a written move stays a word of kMaxToken).
    if (text.empty() || !open_.empty() || g.moves.empty() || too_many_moves_ ||
        (!nag && text.size() > kMaxStrength))
        return;
    Annotation& own = g.moves.back().own;
    if (!nag && own.strength.empty()) {
        if (keep_comment(g, text.size(), at)) own.strength = text;
        return;
    }
    if (!nag) text = strength_nag(text);  // a second strength: its NAG, if it has one
    if (!text.empty() && keep_comment(g, text.size() + 1, at)) own.nags.emplace_back(text);
}

bool Reader::keep_variation(RawGame& g, Location at, std::string_view token) {
    if (variation_moves_ >= kMaxVariationMoves) {
        if (!too_many_variation_moves_)
            // Named by "(" whatever the token: the main line stays whole (doubtful_moves).
            problem(g, at, ProblemKind::kTooLong, "(",
                    fmt::format("more than {} variations and moves in one game's variations at "
                                "'{}'; the rest are left out",
                                kMaxVariationMoves, shown(token)));
        too_many_variation_moves_ = true;
        return false;
    }
    ++variation_moves_;
    return true;
}

bool Reader::repeats_tag(const RawGame& g) {
    std::size_t k = 1;  // after the '['; bounded, so that a look-ahead stays inside the buffer
    while (k < kMaxToken && (peek(k) == ' ' || peek(k) == '\t')) ++k;
    std::string name;
    for (int c = peek(k); (std::isalnum(c) || c == '_') && name.size() < kMaxToken; c = peek(++k))
        name += char(c);
    return !name.empty() && g.tag(name) != nullptr;
}

// [Name "value"]: a name of letters, digits and '_' beginning with a letter, a value in double
// quotes on the same line in which \" stands for " and \\ for \. A quote that is not followed by
// the ']' (blanks between) is the value's own, unescaped: [Event "Кубок "Белой ладьи""], as
// Russian files write names in quotes, is read with its inner quotes as text and reported.
void Reader::read_tag(RawGame& g) {
    const Location at = here();
    std::string raw;  // the tag as written, for messages
    auto take = [&] {
        const int c = get();
        if (raw.size() <= kShown) raw += char(c);
        return c;
    };
    auto blanks = [&] {
        while (peek() == ' ' || peek() == '\t') take();
    };
    // The tag is bad: show it up to its ']' or the end of its line (`closed`: its ']' is read).
    auto bad = [&](bool closed = false) {
        while (!closed) {
            const int c = peek();
            if (c < 0) {
                problem(g, at, ProblemKind::kTruncated, "[", "truncated file: unclosed tag");
                return;
            }
            if (c == '\n') break;
            if (take() == ']') break;
        }
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();  // a CR LF line end's CR
        const std::string text = shown(raw);
        problem(g, at, ProblemKind::kBadTag, text,
                fmt::format("bad tag '{}' (want [Name \"value\"])", text));
    };
    take();  // '['
    blanks();
    std::string name;
    if (!std::isalpha(peek())) return bad();
    while ((std::isalnum(peek()) || peek() == '_') && name.size() < kMaxToken) name += char(take());
    blanks();
    if (peek() != '"') return bad();
    take();
    std::string value;
    bool too_long = false;
    bool inner_quote = false;  // an unescaped '"' in the value, read as text
    for (;;) {
        int c = peek();
        if (c < 0 || c == '\n') return bad();
        take();
        // After an inner quote a ']' is no text: the tag ends there without its closing quote.
        if (c == ']' && inner_quote) return bad(true);
        if (c == '"') {
            std::size_t k = 0;  // bounded: a look-ahead stays inside the buffer
            while (k < kMaxToken && (peek(k) == ' ' || peek(k) == '\t')) ++k;
            if (peek(k) == ']') break;
            inner_quote = true;
        }
        if (c == '\\' && (peek() == '"' || peek() == '\\')) c = take();
        if (value.size() < kMaxTagValue)
            value += char(c);
        else
            too_long = true;
    }
    blanks();
    if (peek() != ']') return bad();
    take();
    if (inner_quote && !too_long) {
        if (!raw.empty() && raw.back() == '\r') raw.pop_back();
        const std::string text = shown(raw);
        problem(g, at, ProblemKind::kBadTag, text,
                fmt::format("unescaped '\"' in tag '{}' (read as text; PDN writes it \\\")", text));
    }
    if (too_long) {
        problem(g, at, ProblemKind::kTooLong, name,
                fmt::format("tag '{}' too long (more than {} characters)", name, kMaxTagValue));
    } else if (g.tag(name)) {
        // Given twice in one game: the first stands (Tag lookups take it), the second is named.
        problem(g, at, ProblemKind::kBadTag, name,
                fmt::format("tag '{}' given twice (the first is used)", name));
    } else if (g.tags.size() >= kMaxTags) {
        if (!too_many_tags_)
            problem(g, at, ProblemKind::kTooLong, name,
                    fmt::format("more than {} tags in one game", kMaxTags));
        too_many_tags_ = true;
    } else {
        g.tags.push_back({std::move(name), std::move(value), at});
    }
}

std::string Reader::read_word() {
    std::string w;
    while (!ends_word(peek())) {
        const int c = get();
        if (w.size() <= kMaxToken) w += char(c);
    }
    return w;
}

void Reader::word(RawGame& g, std::string_view w, Location at) {
    if (w.size() > kMaxToken) {
        const std::string text = shown(w);
        problem(g, at, ProblemKind::kTooLong, text,
                fmt::format("token '{}' too long (more than {} characters)", text, kMaxToken));
        return;
    }
    if (outcome_of(w)) {  // a result ends the game; inside a variation it is only read
        if (open_.empty()) {
            g.result = canonical_result(w);
            g.result_at = at;
            ended_ = true;
        }
        return;
    }
    // A move number, "12." or "12...", which may have the move right after it: "12.32-28".
    std::size_t digits = 0;
    while (digits < w.size() && is_digit(w[digits])) ++digits;
    if (digits > 0 && digits < w.size() && w[digits] == '.') {
        // The number of the game's first move, where the FEN tag gives none.
        if (open_.empty() && g.moves.empty() && g.first_number == 0 && digits <= 6)
            g.first_number = std::stoi(std::string(w.substr(0, digits)));
        std::size_t n = digits;
        while (n < w.size() && w[n] == '.') ++n;
        w.remove_prefix(n);
        at.column += int(n);
    } else if (digits == 0) {
        // "..." alone continues a move number written apart.
        if (w.find_first_not_of('.') == std::string_view::npos) return;
    }
    // A move strength after the move, or standing alone: "!", "?!", "!!", "*" (forced).
    const std::string strength = split_move_strength(w);
    if (w.empty()) {
        annotate(g, strength, false, at);
        return;
    }
    // A move has a separator, or is a quiet move in Russian short notation ("cd4").
    if (w.find_first_of("-xX:") == std::string_view::npos && !is_short_quiet_move(w)) {
        const std::string text = shown(w);
        problem(g, at, ProblemKind::kSyntax, text, fmt::format("unexpected '{}'", text));
        return;
    }
    if (!open_.empty()) {  // a move of a variation: kept for pdn check, not replayed
        const int v = open_variation_.back();
        if (v < 0 || !keep_variation(g, at, w)) return;
        g.variations[std::size_t(v)].moves.push_back({std::string(w), at, {}, {}});
        return;
    }
    if (g.moves.size() >= kMaxGameMoves) {  // said once; the moves after it are dropped
        if (!too_many_moves_)
            problem(g, at, ProblemKind::kTooLong, std::string(w),
                    fmt::format("more than {} moves in one game", kMaxGameMoves));
        too_many_moves_ = true;
        return;
    }
    g.moves.push_back({std::string(w), at, {}, {}});
    annotate(g, strength, false, at);
}

bool Reader::next(RawGame& g) {
    g.number = 0;
    g.at = {};
    g.tags.clear();
    g.moves.clear();
    g.variations.clear();
    g.comment.clear();
    g.first_number = 0;
    g.result.clear();
    g.result_at = {};
    g.problems.clear();
    g.more_problems = 0;
    g.more_at = {};
    started_ = in_moves_ = ended_ = too_many_moves_ = too_many_tags_ = comments_cut_ = false;
    comment_chars_ = 0;
    open_.clear();
    open_variation_.clear();
    variation_moves_ = 0;
    too_many_variation_moves_ = false;
    // A UTF-8 byte order mark at the start of the stream.
    if (consumed_ == 0 && peek(0) == 0xEF && peek(1) == 0xBB && peek(2) == 0xBF) {
        pos_ += 3;
        consumed_ += 3;
    }
    // A UTF-16 file (Windows' "Unicode"): every other byte is 0, and its text no PDN. One problem
    // says so in place of the hundreds its bytes would give, and the file is passed over.
    if (consumed_ == 0 &&
        ((peek(0) == 0xFF && peek(1) == 0xFE) || (peek(0) == 0xFE && peek(1) == 0xFF))) {
        const bool little = peek(0) == 0xFF;
        problem(g, here(), ProblemKind::kEncoding, little ? "FF FE" : "FE FF",
                fmt::format("the file is in UTF-16 (its byte order mark is {}): save it as UTF-8",
                            little ? "FF FE" : "FE FF"));
        while (peek() >= 0) {
            consumed_ += end_ - pos_;
            pos_ = end_;
        }
        return true;
    }
    while (!ended_) {
        const int c = peek();
        if (c < 0) break;
        if (is_space(c)) {
            get();
            continue;
        }
        // Comments: "; ..." and a line beginning with '%' to the end of the line, "{...}".
        if (c == ';' || (c == '%' && column_ == 1)) {
            skip_line();
            continue;
        }
        if (c == '{') {
            read_comment(g);
            continue;
        }
        const Location at = here();
        if (c == '[') {
            if (!open_.empty()) {
                problem(g, open_.front(), ProblemKind::kSyntax, "(", "unclosed variation");
                open_.clear();
                open_variation_.clear();
            }
            if (in_moves_) break;  // the tags of the next game: this one had no result
            // A tag the game has already, before any move, in a game that has its result: the
            // game before had no moves (a forfeit, or an export that gives its result only in
            // the Result tag). Without a result it is one game's tag given twice (read_tag).
            if (started_ && g.tag("Result") && repeats_tag(g)) break;
            begin_game(g, at);
            read_tag(g);
            continue;
        }
        begin_game(g, at);
        in_moves_ = true;
        if (c == '(') {
            // "(!)", "(?!)": a move strength in parentheses; otherwise a variation.
            std::size_t k = 1;
            while (k <= kMaxStrength && (peek(k) == '!' || peek(k) == '?')) ++k;
            const bool strength = k > 1 && peek(k) == ')';
            std::string text;
            for (std::size_t i = 0; i < (strength ? k + 1 : 1); ++i) text += char(get());
            if (strength) {
                annotate(g, std::string_view(text).substr(1, k - 1), false, at);
            } else {
                // An alternative to the last move of the line it stands in.
                const int parent = open_variation_.empty() ? -1 : open_variation_.back();
                const std::size_t moves =
                    parent < 0 ? g.moves.size() : g.variations[std::size_t(parent)].moves.size();
                const bool line_kept = open_variation_.empty() || parent >= 0;
                if (moves == 0 && line_kept)
                    problem(g, at, ProblemKind::kSyntax, "(",
                            "variation before any move (it stands for the move before it)");
                const bool kept = keep_variations_ && line_kept && moves > 0 &&
                                  (parent >= 0 || !too_many_moves_) && keep_variation(g, at, "(");
                if (kept) g.variations.push_back({parent, moves - 1, at, {}});
                open_.push_back(at);
                open_variation_.push_back(kept ? int(g.variations.size()) - 1 : -1);
            }
        } else if (c == ')') {
            get();
            if (open_.empty()) {
                problem(g, at, ProblemKind::kSyntax, ")", "unmatched ')'");
            } else {
                if (open_variation_.back() >= 0)
                    g.variations[std::size_t(open_variation_.back())].closed = true;
                open_.pop_back();
                open_variation_.pop_back();
            }
        } else if (c == '$') {  // a NAG: $ and a number
            std::string nag(1, char(get()));
            if (!is_digit(peek())) problem(g, at, ProblemKind::kSyntax, "$", "unexpected '$'");
            while (is_digit(peek())) {
                const int d = get();
                if (nag.size() <= kMaxToken) nag += char(d);
            }
            if (nag.size() > kMaxToken) {
                const std::string text = shown(nag);
                problem(g, at, ProblemKind::kTooLong, text,
                        fmt::format("token '{}' too long (more than {} characters)", text,
                                    kMaxToken));
            } else if (nag.size() > 1) {
                annotate(g, nag, true, at);
            }
        } else if (c == '}' || c == ']' || c == '"') {
            get();
            problem(g, at, ProblemKind::kSyntax, std::string(1, char(c)),
                    fmt::format("unexpected '{}'", char(c)));
        } else {
            const std::string w = read_word();
            word(g, w, at);
        }
    }
    if (!open_.empty())
        problem(g, open_.front(), ProblemKind::kTruncated, "(",
                "truncated file: unclosed variation");
    return started_;
}

}  // namespace dambit::pdn
