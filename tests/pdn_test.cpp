// PDN files (src/pdn/, docs/pdn.md): the reading grammar, replay in every variant, every error with
// its exact message and place, writing captures short unless ambiguous, and read-write-read round
// trips.
//
// Square numbers follow RULES.md §1. 8x8: 1 = b8, 4 = h8, 8 = g7, 11 = f6, 15 = e5, 18 = d4,
// 21 = a3, 22 = c3, 25 = b2, 29 = a1, 31 = e1. 10x10 (row r = (n-1)/5 from the top): in an even
// row a man of White steps to n-5 and n-4, in an odd row to n-6 and n-5; Black's men the other way
// (n+5, n+6 from an even row, n+4, n+5 from an odd one). The positions expected below are worked
// out by hand, move by move, in the comments.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pdn/check.hpp"
#include "pdn/game.hpp"
#include "pdn/journal.hpp"
#include "core/text.hpp"
#include "pdn/reader.hpp"
#include "pdn/writer.hpp"
#include "play/analysis.hpp"
#include "search/engine.hpp"

using namespace dambit;
using namespace dambit::pdn;

namespace {

std::string data_path(const std::string& name) {
    // Appended in place: GCC 12 at -O1 warns falsely (-Warray-bounds) on a temporary's operator+.
    std::string path = DAMBIT_SOURCE_DIR "/tests/pdn/";
    return path += name;
}

std::vector<RawGame> read_stream(std::istream& in, bool keep_variations = true) {
    Reader reader(in, keep_variations);
    std::vector<RawGame> games;
    RawGame g;
    while (reader.next(g)) games.push_back(g);
    return games;
}

std::vector<RawGame> read_text(const std::string& text) {
    std::istringstream in(text);
    return read_stream(in);
}

std::vector<RawGame> read_file(const std::string& name) {
    std::ifstream in(data_path(name), std::ios::binary);
    REQUIRE(in);
    return read_stream(in);
}

// Each problem as "LINE:COLUMN: kind: message".
std::vector<std::string> described(const std::vector<Problem>& problems) {
    std::vector<std::string> out;
    for (const auto& p : problems)
        out.push_back(std::to_string(p.at.line) + ":" + std::to_string(p.at.column) + ": " +
                      std::string(kind_name(p.kind)) + ": " + p.message);
    return out;
}

std::vector<std::string> move_words(const RawGame& g) {
    std::vector<std::string> out;
    for (const auto& m : g.moves) out.push_back(m.text);
    return out;
}

// `raw` replayed with the rules R; the replay must meet no problem.
template <class R>
Game<R> replayed(const RawGame& raw) {
    Game<R> g;
    const auto problem = replay<R>(raw, g);
    INFO("game " << raw.number << ": " << (problem ? problem->message : ""));
    REQUIRE(!problem);
    return g;
}

// The FEN after every move of `raw`, replayed with the rules R.
template <class R>
std::string final_fen(const RawGame& raw) {
    const Game<R> g = replayed<R>(raw);
    return to_fen<R>(g.position(g.moves.size()));
}

// The long text of every move of `raw`, replayed with the rules R.
template <class R>
std::vector<std::string> long_texts(const RawGame& raw) {
    std::vector<std::string> out;
    for (const auto& pm : replayed<R>(raw).moves) out.push_back(move_text<R>(pm));
    return out;
}

// Every problem `check_stream` reports for the file, as "LINE:COLUMN: game N: kind: message".
// The problems pdn check reports for the games of `in`: "LINE:COLUMN: game N: KIND: MESSAGE".
std::vector<std::string> check_lines(std::istream& in, CheckTotals& totals,
                                     std::optional<Variant> forced) {
    std::vector<std::string> out;
    check_stream(in, forced, totals, [&](int game, const Problem& p) {
        const std::string d = described({p}).front();
        const auto colon = d.find(": ");
        out.push_back(d.substr(0, colon) + ": game " + std::to_string(game) + d.substr(colon));
    });
    return out;
}

std::vector<std::string> check_file(const std::string& name, CheckTotals& totals,
                                    std::optional<Variant> forced = std::nullopt) {
    std::ifstream in(data_path(name), std::ios::binary);
    REQUIRE(in);
    return check_lines(in, totals, forced);
}

// The legal move of `p` whose long text is `text`.
template <class R>
PathMove<typename R::Geometry> legal(const Position<R>& p, const std::string& text) {
    const auto pm = parse_move<R>(p, text);
    REQUIRE(move_text<R>(pm) == text);
    return pm;
}

}  // namespace

TEST_CASE("PDN reader: tags, escapes and where each token stands", "[pdn]") {
    const auto games = read_text(
        "[Event \"a \\\"b\\\" c\\\\d \\e\"]\n"
        "[ Site   \"x\" ]\n"
        "1. 32-28 19-23 *\n");
    REQUIRE(games.size() == 1);
    const RawGame& g = games[0];
    CHECK(g.number == 1);
    CHECK(g.problems.empty());
    REQUIRE(g.tags.size() == 2);
    CHECK(g.tags[0].name == "Event");
    // \" is a quote, \\ a backslash; any other backslash stands for itself.
    CHECK(g.tags[0].value == "a \"b\" c\\d \\e");
    CHECK(g.tags[0].at.line == 1);
    CHECK(g.tags[0].at.column == 1);
    CHECK(g.tags[1].name == "Site");
    CHECK(g.tags[1].value == "x");
    CHECK(g.tags[1].at.line == 2);
    CHECK(g.tag("Site") == &g.tags[1]);
    CHECK(g.tag("Round") == nullptr);
    // "1. 32-28 19-23 *": columns 1-2 the number, 4-8 the first move, 10-14 the second, 16 '*'.
    REQUIRE(g.moves.size() == 2);
    CHECK(g.moves[0].text == "32-28");
    CHECK(g.moves[0].at.line == 3);
    CHECK(g.moves[0].at.column == 4);
    CHECK(g.moves[1].at.column == 10);
    CHECK(g.result == "*");
    CHECK(g.result_at.line == 3);
    CHECK(g.result_at.column == 16);
    CHECK(g.at.line == 1);
}

TEST_CASE("PDN reader: move numbers, move strengths, NAGs, comments and variations", "[pdn]") {
    const auto games = read_text(
        "1.c3-d4! 1... f6-g5?! 2. b2-c3 (2. g3-h4 (2. a3-b4 $3) d6-c5) {a {comment}\n"
        "; a line comment\n"
        "% an escaped line\n"
        "g7-f6 $12 (!) 3.c3-b4!! 3...b6-a5* (?!) 4. d4-e5?? ! ?? !? 1-0");
    REQUIRE(games.size() == 1);
    const RawGame& g = games[0];
    CHECK(g.problems.empty());
    // The variation's moves are read and left out of the main line. Inside a comment '{' is text
    // and the first '}' ends it.
    CHECK(move_words(g) ==
          std::vector<std::string>{"c3-d4", "f6-g5", "b2-c3", "g7-f6", "c3-b4", "b6-a5", "d4-e5"});
    // "1.c3-d4": the move begins after the number, at column 3. Line 4: "g7-f6" 1-5, "$12" 7-9,
    // "(!)" 11-13, "3.c3-b4!!" 15-23 with its move at 17, "3...b6-a5*" from 25 with its move at 29.
    CHECK(g.moves[0].at.column == 3);
    CHECK(g.moves[3].at.line == 4);
    CHECK(g.moves[3].at.column == 1);
    CHECK(g.moves[4].at.column == 17);
    CHECK(g.moves[5].at.column == 29);
    CHECK(g.result == "1-0");
    // Legal Russian moves: 22-18 11-16 25-22 8-11 22-17 9-13 18-15. White: 15, 17, 21, 23, 24,
    // 26-32; Black: 1-7, 10, 11, 12, 13, 16; Black to move.
    CHECK(final_fen<Russian>(g) ==
          "B:W15,17,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,13,16");
}

TEST_CASE("PDN reader: the main line's comments are kept with the move before them", "[pdn]") {
    const auto games = read_text(
        "[Event \"e\"]\n"
        "{ before  the\tfirst\r\nmove } 1. c3-d4 {after c3-d4} {and again} f6-g5 {}\n"
        "(1... b6-a5 {in a variation}) 2. {after a number} b2-c3 ; not a brace comment\n"
        "g7-f6 {last} 1-0 {after the result}\n"
        "{before the tags} [Event \"f\"] 1. c3-d4 *");
    REQUIRE(games.size() == 2);
    const RawGame& g = games[0];
    CHECK(g.problems.empty());
    // Each run of blanks and line breaks is one space; several comments after one move are joined
    // by a space; an empty one adds nothing; a comment standing after a move number belongs to the
    // move before it; variations' comments and the one after the result are not kept.
    CHECK(g.comment == "before the first move");
    REQUIRE(g.moves.size() == 4);
    CHECK(g.moves[0].comment == "after c3-d4 and again");
    CHECK(g.moves[1].comment == "after a number");
    CHECK(g.moves[2].comment.empty());
    CHECK(g.moves[3].comment == "last");
    // The next game's comment before its tags is not its own either.
    CHECK(games[1].comment.empty());
    CHECK(games[1].moves[0].comment.empty());

    // Replayed, the comments go with the game: before its first move and after each move.
    const Game<Russian> r = replayed<Russian>(g);
    CHECK(r.comment == "before the first move");
    CHECK(r.comments ==
          std::vector<std::string>{"after c3-d4 and again", "after a number", "", "last"});

    // At most kMaxComments characters of comments a game are kept ("PDN reader: comments past
    // the limit are one too-long problem").
}

TEST_CASE("PDN reader: every result form ends a game", "[pdn]") {
    const std::vector<std::pair<std::string, Outcome>> forms = {
        {"1-0", Outcome::kWhiteWins},     {"2-0", Outcome::kWhiteWins},
        {"0-1", Outcome::kBlackWins},     {"0-2", Outcome::kBlackWins},
        {"1/2-1/2", Outcome::kDraw},      {"1-1", Outcome::kDraw},
        {"0-0", Outcome::kDoubleForfeit}, {"*", Outcome::kUnknown}};
    std::string text;
    for (const auto& [form, outcome] : forms) {
        INFO(form);
        CHECK(outcome_of(form) == outcome);
        text += fmt::format("1. 22-18 11-15 {}\n", form);
    }
    CHECK(!outcome_of("1:0"));
    CHECK(!outcome_of("1-18"));
    // Eight games without tags, each ended by its result; "1-18" is a move, not "1-1" and "8".
    const auto games = read_text(text);
    REQUIRE(games.size() == forms.size());
    for (std::size_t i = 0; i < forms.size(); ++i) {
        CHECK(games[i].number == int(i) + 1);
        CHECK(games[i].result == forms[i].first);
        CHECK(games[i].moves.size() == 2);
        CHECK(games[i].problems.empty());
    }
    const auto one = read_text("1. 1-18 *");
    REQUIRE(one.size() == 1);
    CHECK(move_words(one[0]) == std::vector<std::string>{"1-18"});
}

TEST_CASE("PDN reader: a draw written \u00BD-\u00BD, in UTF-8 or Latin-1, reads as 1/2-1/2", "[pdn]") {
    // Some databases write the draw with the one-half sign: U+00BD is C2 BD in UTF-8, BD in
    // Latin-1 (CP1252). "\xBD" alone, or "½-1", is no result.
    const std::string utf8 = "\xC2\xBD-\xC2\xBD", latin1 = "\xBD-\xBD";
    CHECK(outcome_of(utf8) == Outcome::kDraw);
    CHECK(outcome_of(latin1) == Outcome::kDraw);
    CHECK(!outcome_of("\xBD"));
    CHECK(!outcome_of("\xC2\xBD-1"));
    CHECK(canonical_result(utf8) == "1/2-1/2");
    CHECK(canonical_result("2-0") == "2-0");
    const auto games = read_text("1. 22-18 11-15 " + utf8 + "\n1. 22-18 11-15 " + latin1 + "\n");
    REQUIRE(games.size() == 2);
    for (const auto& g : games) {
        CHECK(g.result == "1/2-1/2");
        CHECK(g.moves.size() == 2);
        CHECK(g.problems.empty());
    }
    // In the Result tag alone (no result after the moves), replayed: 1/2-1/2 in both places.
    const auto tagged = read_text("[Result \"" + utf8 + "\"]\n1. c3-d4 f6-g5\n");
    REQUIRE(tagged.size() == 1);
    const Game<Russian> g = replayed<Russian>(tagged[0]);
    CHECK(g.result == "1/2-1/2");
    REQUIRE(g.tags.size() == 1);
    CHECK(g.tags[0].value == "1/2-1/2");
}

TEST_CASE("PDN reader: where games begin and end", "[pdn]") {
    // A result inside a variation does not end the game.
    auto games = read_text("1. c3-d4 (1. a3-b4 1-0) f6-g5 *");
    REQUIRE(games.size() == 1);
    CHECK(games[0].moves.size() == 2);
    // Tags after moves begin the next game even without a result; comments before the first tag
    // belong to no game of their own.
    games = read_text("{ a collection } ; notes\n[Event \"1\"]\n1. c3-d4\n[Event \"2\"]\n{x}\n");
    REQUIRE(games.size() == 2);
    CHECK(games[0].tags[0].value == "1");
    CHECK(games[0].result.empty());
    CHECK(games[0].at.line == 2);
    CHECK(games[1].tags[0].value == "2");
    CHECK(games[1].moves.empty());
    // Nothing, or only comments and white space: no game.
    CHECK(read_text("").empty());
    CHECK(read_text("  {only a comment}\n; and a line\n\n").empty());
    // A game after the last result is a game of its own.
    games = read_text("1. c3-d4 * *");
    REQUIRE(games.size() == 2);
    CHECK(games[1].moves.empty());
    CHECK(games[1].result == "*");
}

TEST_CASE("PDN reader: a byte order mark and CR LF line ends", "[pdn]") {
    const auto games = read_text("\xEF\xBB\xBF[Event \"x\"]\r\n1. c3-d4 f6-g5\r\n2. b2-c3 *\r\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].problems.empty());
    CHECK(games[0].tags[0].at.column == 1);
    CHECK(move_words(games[0]) == std::vector<std::string>{"c3-d4", "f6-g5", "b2-c3"});
    CHECK(games[0].moves[2].at.line == 3);
    CHECK(games[0].moves[2].at.column == 4);
}

TEST_CASE("PDN reader: syntax errors name the token and where it stands", "[pdn]") {
    const auto games = read_text(
        "[Event Moscow]\n"  // line 1: the value is not quoted
        "[Site \"a\" b]\n"  // line 2: something after the value
        "[Round \"1\n"      // line 3: the value's line ends before its quote
        "[ \"no name\"]\n"  // line 4: no name
        "1. c3-d4 ) } ] \" $ $x ab f6-g5 *");
    REQUIRE(games.size() == 1);
    // Line 5, "1. c3-d4 ) } ] \" $ $x ab f6-g5 *": ')' at 10, '}' 12, ']' 14, '"' 16, '$' 18,
    // '$' 20 (a NAG needs digits; "x" after it is then a word of its own), "x" 21, "ab" 23 (a word
    // without a separator is no move).
    CHECK(described(games[0].problems) ==
          std::vector<std::string>{
              "1:1: bad-tag: bad tag '[Event Moscow]' (want [Name \"value\"])",
              "2:1: bad-tag: bad tag '[Site \"a\" b]' (want [Name \"value\"])",
              "3:1: bad-tag: bad tag '[Round \"1' (want [Name \"value\"])",
              "4:1: bad-tag: bad tag '[ \"no name\"]' (want [Name \"value\"])",
              "5:10: syntax: unmatched ')'",
              "5:12: syntax: unexpected '}'",
              "5:14: syntax: unexpected ']'",
              "5:16: syntax: unexpected '\"'",
              "5:18: syntax: unexpected '$'",
              "5:20: syntax: unexpected '$'",
              "5:23: syntax: unexpected 'ab'",
          });
    // "x" and "ab" go to the moves, where the replay finds them; "x" has a separator and no square.
    CHECK(move_words(games[0]) == std::vector<std::string>{"c3-d4", "x", "f6-g5"});
    CHECK(games[0].tags.empty());
}

TEST_CASE("PDN reader: a truncated file", "[pdn]") {
    // The problems of each game of `text`, as "LINE:COLUMN: kind: message".
    auto problems = [](const std::string& text) {
        std::vector<std::vector<std::string>> out;
        for (const RawGame& g : read_text(text)) out.push_back(described(g.problems));
        return out;
    };
    using Games = std::vector<std::vector<std::string>>;
    CHECK(problems("[Event \"x\"]\n1. c3-d4 {never closed") ==
          Games{{"2:10: truncated: truncated file: unclosed comment"}});
    CHECK(problems("1. c3-d4 *\n[Event \"cu") ==
          Games{{}, {"2:1: truncated: truncated file: unclosed tag"}});
    // The outermost open variation is named.
    CHECK(problems("1. c3-d4 (1. a3-b4 (1. g3-f4) f6-g5 (") ==
          Games{{"1:10: truncated: truncated file: unclosed variation"}});
    // A variation still open when the next game's tags begin is not a truncation.
    CHECK(problems("1. c3-d4 (1. a3-b4\n[Event \"2\"]\n*") ==
          Games{{"1:10: syntax: unclosed variation"}, {}});
}

TEST_CASE("PDN reader: its limits keep memory bounded", "[pdn]") {
    // A word longer than kMaxToken.
    auto games = read_text(fmt::format("1. {}-1 *", std::string(300, '7')));
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].problems.size() == 1);
    CHECK(games[0].problems[0].kind == ProblemKind::kTooLong);
    CHECK(
        games[0].problems[0].message ==
        fmt::format("token '{}...' too long (more than 256 characters)", std::string(kShown, '7')));
    // More moves than kMaxGameMoves in one game: one problem, the rest not kept.
    std::string many;
    for (std::size_t i = 0; i < kMaxGameMoves + 10; ++i) many += "a1-b2 ";
    games = read_text(many + "*");
    REQUIRE(games.size() == 1);
    CHECK(games[0].moves.size() == kMaxGameMoves);
    REQUIRE(games[0].problems.size() == 1);
    CHECK(games[0].problems[0].message == "more than 4096 moves in one game");
    CHECK(games[0].problems[0].at.column == int(kMaxGameMoves * 6) + 1);
    // More syntax errors than kMaxProblems: the first ones, and how many more.
    games = read_text(std::string(40, '}'));
    REQUIRE(games.size() == 1);
    CHECK(games[0].problems.size() == kMaxProblems);
    CHECK(games[0].more_problems == 40 - int(kMaxProblems));
    CHECK(games[0].more_at.column == int(kMaxProblems) + 1);
    // A tag value longer than kMaxTagValue.
    games = read_text(fmt::format("[Event \"{}\"]\n*", std::string(kMaxTagValue + 1, 'a')));
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].problems.size() == 1);
    CHECK(games[0].problems[0].message == "tag 'Event' too long (more than 65536 characters)");
    CHECK(games[0].tags.empty());
    // A tag name longer than kMaxToken is a bad tag.
    games = read_text(fmt::format("[{} \"v\"]\n*", std::string(300, 'N')));
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].problems.size() == 1);
    CHECK(games[0].problems[0].message ==
          fmt::format("bad tag '[{}...' (want [Name \"value\"])", std::string(kShown - 1, 'N')));
    // Bytes that are no text never stop the reader.
    games = read_text(std::string("\0\x01\x02 1-0", 8));
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].problems.size() == 1);
    CHECK(games[0].problems[0].message == fmt::format("unexpected '{}'", std::string(3, '?')));
}

TEST_CASE("PDN reader: a tag the game has already, before its first move, begins a game",
          "[pdn]") {
    // A forfeited game (tags and a Result tag, no moves) and the next game: the second Event tag
    // begins game 2, whose moves are its own, with its own GameType.
    const auto games = read_text(
        "[Event \"A\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"1-0\"]\n[GameType \"25\"]\n\n"
        "[Event \"B\"]\n[White \"u\"]\n[Black \"v\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n\n"
        "1. 32-28 18-23 2. 37-32 12-18 2-0\n");
    REQUIRE(games.size() == 2);
    CHECK(games[0].problems.empty());
    CHECK(games[0].tags.size() == 5);
    CHECK(games[0].moves.empty());
    CHECK(games[1].at.line == 7);
    CHECK(games[1].tag("Event")->value == "B");
    CHECK(games[1].tag("White")->value == "u");
    CHECK(move_words(games[1]) == std::vector<std::string>{"32-28", "18-23", "37-32", "12-18"});
    // Game 1's result is its tag's; nothing to report in either game.
    const Game<Russian> first = replayed<Russian>(games[0]);
    CHECK(first.result == "1-0");
    CHECK(first.moves.empty());
    std::istringstream in(
        "[Event \"A\"]\n[Result \"1-0\"]\n[GameType \"25\"]\n[Event \"B\"]\n[GameType \"20\"]\n"
        "1. 32-28 18-23 2-0\n");
    CheckTotals totals;
    CHECK(check_lines(in, totals, std::nullopt).empty());
    CHECK(totals.games == 2);
    CHECK(totals.moves == 2);
    // Other tags, however many, stay in one game; a repeated name after a move is the next
    // game's as before.
    CHECK(read_text("[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n1. c3-d4 *").size() == 1);
    CHECK(read_text("[A \"1\"]\n1. c3-d4\n[B \"2\"]\n[A \"3\"]\n*").size() == 2);
    // Without a Result tag yet, a name given twice is one game's tag written twice (a header
    // with Event repeated): one game, its GameType and FEN kept, the first value standing and the
    // second named. Splitting there left the real game without the tags before the repeat.
    const auto twice = read_text(
        "[GameType \"20\"]\n[FEN \"W:W31-50:B1-20\"]\n[Event \"x\"]\n[Event \"y\"]\n"
        "[Result \"2-0\"]\n1. 32-28 19-23 2-0\n");
    REQUIRE(twice.size() == 1);
    CHECK(twice[0].tag("GameType")->value == "20");
    CHECK(twice[0].tag("Event")->value == "x");
    CHECK(twice[0].tags.size() == 4);
    REQUIRE(twice[0].problems.size() == 1);
    CHECK(twice[0].problems[0].kind == ProblemKind::kBadTag);
    CHECK(twice[0].problems[0].message == "tag 'Event' given twice (the first is used)");
    CHECK(twice[0].problems[0].at.line == 4);
}

TEST_CASE("PDN reader: a tag value with unescaped quotes is read, and reported", "[pdn]") {
    const auto games = read_text(
        "[Event \"Кубок \"Белой ладьи\"\"]\n"
        "[Black \"Петров \"мл.\"\" ]\n"
        "[Site \"a\" b] [Round \"1\"]\n"
        "[Date \"x]y\"]\n"
        "1. c3-d4 *");
    REQUIRE(games.size() == 1);
    const RawGame& g = games[0];
    // The value runs to the quote before the tag's ']': inner quotes are text. A ']' after an
    // inner quote ends the tag, a bad one; a ']' inside a well-quoted value is text.
    REQUIRE(g.tags.size() == 4);
    CHECK(g.tags[0].value == "Кубок \"Белой ладьи\"");
    CHECK(g.tags[1].value == "Петров \"мл.\"");
    CHECK(g.tags[2].name == "Round");
    CHECK(g.tags[3].value == "x]y");
    CHECK(described(g.problems) ==
          std::vector<std::string>{
              "1:1: bad-tag: unescaped '\"' in tag '[Event \"Кубок \"Белой ладьи\"\"]' (read as "
              "text; PDN writes it \\\")",
              "2:1: bad-tag: unescaped '\"' in tag '[Black \"Петров \"мл.\"\" ]' (read as text; "
              "PDN writes it \\\")",
              "3:1: bad-tag: bad tag '[Site \"a\" b]' (want [Name \"value\"])",
          });
    // The moves are whole: a command that uses them goes on, and says what it passed over.
    CHECK(!g.doubtful_moves());
    const auto passed = passed_over(g, std::nullopt);
    REQUIRE(passed);
    CHECK(passed->at.line == 1);
    CHECK(passed->message.ends_with("(passed over; 2 more problems, which pdn check lists)"));
    // Written back, the quotes are escaped, and read without a problem.
    const std::string text = write_game(replayed<Russian>(g));
    CHECK(text.starts_with("[Event \"Кубок \\\"Белой ладьи\\\"\"]\n"));
    const auto again = read_text(text);
    REQUIRE(again.size() == 1);
    CHECK(again[0].problems.empty());
    CHECK(again[0].tags[0].value == "Кубок \"Белой ладьи\"");
}

TEST_CASE("PDN reader: a main line's move strengths and NAGs are kept and written back",
          "[pdn]") {
    const auto games = read_text(
        "1. c3-d4! (1. a3-b4? $2) f6-g5 (?!) $14 $32 2. b2-c3 $1 !? g7-f6* 3. c3-b4!!!\n"
        "b6-a5 ?? (!) 1-0");
    REQUIRE(games.size() == 1);
    const RawGame& g = games[0];
    CHECK(g.problems.empty());
    REQUIRE(g.moves.size() == 6);
    // "(?!)" is "?!"; a variation's annotations are not the main line's; a strength after a NAG
    // is the move's strength ("!?" after "$1"), a second strength ("(!)" after "??") is kept as
    // its NAG; a forced move's '*' is no strength.
    CHECK(g.moves[0].own == Annotation{"!", {}});
    CHECK(g.moves[1].own == Annotation{"?!", {"$14", "$32"}});
    CHECK(g.moves[2].own == Annotation{"!?", {"$1"}});
    CHECK(g.moves[3].own == Annotation{});
    CHECK(g.moves[4].own == Annotation{"!!!", {}});
    CHECK(g.moves[5].own == Annotation{"??", {"$1"}});
    // The variation is written back without its annotations (the reader keeps none of them),
    // and the move after it numbered again.
    const Game<Russian> r = replayed<Russian>(g);
    CHECK(write_game(r) ==
          "[GameType \"25\"]\n\n"
          "1. c3-d4! (1. a3-b4) 1... f6-g5?! $14 $32 2. b2-c3!? $1 g7-f6 3. c3-b4!!!\n"
          "b6-a5?? $1 1-0\n\n");
    // The analysis's marks go first, the game's own strength after them as its NAG (a run with
    // none in parentheses); a move without a mark keeps its strength.
    const std::vector<std::string> marks = {"??", "", "?!", "", "?", ""};
    CHECK(write_game(r, marks) ==
          "[GameType \"25\"]\n\n"
          "1. c3-d4?? $1 (1. a3-b4) 1... f6-g5?! $14 $32 2. b2-c3?! $5 $1 g7-f6 3. c3-b4?\n"
          "(!!!) b6-a5?? $1 1-0\n\n");
    // Both read back: the first gives the same game (with the GameType tag the writer adds);
    // the second is valid PDN with the marks as the strengths.
    const auto again = read_text(write_game(r));
    REQUIRE(again.size() == 1);
    Game<Russian> back = replayed<Russian>(again[0]);
    REQUIRE(back.tags.size() == 1);
    back.tags.clear();
    CHECK(back == r);
    const auto marked = read_text(write_game(r, marks));
    REQUIRE(marked.size() == 1);
    CHECK(marked[0].problems.empty());
    CHECK(marked[0].moves[0].own == Annotation{"??", {"$1"}});
    CHECK(strength_nag("?!") == "$6");
    CHECK(strength_nag("!!!").empty());
}

TEST_CASE("PDN reader: variations past the limit are one too-long problem, the main line whole",
          "[pdn]") {
    // One variation of 20,000 moves: the '(' and 16,383 moves are kept (kMaxVariationMoves in
    // all), the rest left out with one problem named by "(" (the message quotes the move where
    // the cut came); the main line, c3-d4 f6-g5, is not in doubt and replays.
    std::string text = "1. c3-d4 (1. a3-b4";
    for (int i = 1; i < 20000; ++i) text += " b6-a5";
    text += ") f6-g5 *";
    const auto games = read_text(text);
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].problems.size() == 1);
    const Problem& p = games[0].problems[0];
    CHECK(p.kind == ProblemKind::kTooLong);
    CHECK(p.token == "(");
    CHECK(p.message == fmt::format("more than {} variations and moves in one game's variations at "
                                   "'b6-a5'; the rest are left out",
                                   kMaxVariationMoves));
    CHECK_FALSE(games[0].doubtful_moves());
    REQUIRE(games[0].variations.size() == 1);
    CHECK(games[0].variations[0].moves.size() == kMaxVariationMoves - 1);
    CHECK(games[0].moves.size() == 2);
    CHECK(replayed<Russian>(games[0]).moves.size() == 2);
}

TEST_CASE("PDN reader: comments past the limit are one too-long problem", "[pdn]") {
    // The first comment fills all but 10 characters; of the second, 10 are kept; the rest and
    // the third are left out, reported once at the '{' where the cut came: "1. c3-d4 {" is
    // columns 1-10, the x's 11 to kMaxComments, then "} f6-g5 " and '{' at kMaxComments + 9.
    const std::string text = "1. c3-d4 {" + std::string(kMaxComments - 10, 'x') + "} f6-g5 {" +
                             std::string(20, 'y') + "} {z} *";
    const auto big = read_text(text);
    REQUIRE(big.size() == 1);
    CHECK(described(big[0].problems) ==
          std::vector<std::string>{fmt::format(
              "1:{}: too-long: more than 65536 characters of comments in one game (the rest are "
              "left out)",
              kMaxComments + 9)});
    REQUIRE(big[0].moves.size() == 2);
    CHECK(big[0].moves[0].comment.size() == kMaxComments - 10);
    CHECK(big[0].moves[1].comment == std::string(10, 'y'));
    // The moves are whole: replayed, and the game used by fen and analyse.
    CHECK(!big[0].doubtful_moves());
    CHECK(replayed<Russian>(big[0]).moves.size() == 2);
    std::istringstream in(text);
    CheckTotals totals;
    CHECK(check_lines(in, totals, std::nullopt).size() == 1);
    CHECK(totals.errors == 1);
}

TEST_CASE("PDN reader: a token in a message is cut between UTF-8 characters", "[pdn]") {
    // 80 Cyrillic letters of two bytes: 60 bytes are 30 letters.
    std::string letters;
    for (int i = 0; i < 80; ++i) letters += "Ж";
    CHECK(shown(letters) == letters.substr(0, 60) + "...");
    // One byte more before them: the cut falls at 59, before the letter that would pass 60.
    CHECK(shown("a" + letters) == "a" + letters.substr(0, 58) + "...");
    CHECK(shown(std::string(60, 'a')) == std::string(60, 'a'));
    // In a bad tag's message: "[Event \"" is 8 bytes, then letters (no closing quote), so the
    // token shown is those 8 and 26 letters (60 bytes).
    const auto games = read_text("[Event \"" + letters + "\n*");
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].problems.size() == 1);
    CHECK(games[0].problems[0].token == "[Event \"" + letters.substr(0, 52) + "...");
}

TEST_CASE("PDN reader: a UTF-16 file is one problem", "[pdn]") {
    // "[Event" in UTF-16 LE after its byte order mark, and in UTF-16 BE.
    const std::string le("\xFF\xFE[\0E\0v\0e\0n\0t\0 \0\"\0x\0\"\0]\0\n\0", 26);
    const std::string be("\xFE\xFF\0[\0E\0v\0e\0n\0t\0 \0\"\0x\0\"\0]\0\n", 26);
    for (const auto& [text, mark] : {std::pair{le, "FF FE"}, std::pair{be, "FE FF"}}) {
        const auto games = read_text(text);
        REQUIRE(games.size() == 1);
        CHECK(described(games[0].problems) ==
              std::vector<std::string>{fmt::format(
                  "1:1: encoding: the file is in UTF-16 (its byte order mark is {}): save it "
                  "as UTF-8",
                  mark)});
        CHECK(games[0].doubtful_moves());
        std::istringstream in(text);
        CheckTotals totals;
        CHECK(check_lines(in, totals, std::nullopt).size() == 1);
        CHECK(totals.games == 1);
        CHECK(totals.errors == 1);
    }
}

TEST_CASE("PDN FEN tag: '?' and an empty value are no set-up", "[pdn]") {
    const auto games = read_text(
        "[FEN \"?\"]\n1. c3-d4 *\n"
        "[FEN \"\"]\n1. c3-d4 *\n"
        "[FEN \"W:Wc3:Bh8\"]\n1. c3-d4 *\n");
    REQUIRE(games.size() == 3);
    CHECK(replayed<Russian>(games[0]).start == Position<Russian>::start());
    CHECK(replayed<Russian>(games[1]).start == Position<Russian>::start());
    CHECK(to_fen<Russian>(replayed<Russian>(games[2]).start) == "W:W22:B4");
}

TEST_CASE("PDN GameType: the number chooses the rules, --variant overrides", "[pdn]") {
    // RULES.md §3, last row.
    CHECK(variant_of_game_type(20) == Variant::kInternational);
    CHECK(variant_of_game_type(21) == Variant::kEnglish);
    CHECK(variant_of_game_type(23) == Variant::kPool);
    CHECK(variant_of_game_type(25) == Variant::kRussian);
    CHECK(variant_of_game_type(26) == Variant::kBrazilian);
    CHECK(variant_of_game_type(29) == Variant::kCzech);
    CHECK(!variant_of_game_type(22));  // Italian
    CHECK(!variant_of_game_type(40));  // Frisian
    auto variant = [](const std::string& type, std::optional<Variant> forced = std::nullopt) {
        const auto games = read_text(fmt::format("[GameType \"{}\"]\n*", type));
        REQUIRE(games.size() == 1);
        std::optional<Problem> problem;
        const auto v = game_variant(games[0], forced, problem);
        CHECK(v.has_value() == !problem.has_value());
        return v ? std::string(variant_name(*v)) : problem->message;
    };
    CHECK(variant("20") == "international");
    CHECK(variant(" 20,W,10,10,N2,0 ") == "international");
    CHECK(variant("21,B,8,8,N1,0") == "english");
    CHECK(variant("25,W,8,8,A0") == "russian");
    CHECK(variant("29,W,8,8,A1,1") == "czech");
    CHECK(variant("22") ==
          "unsupported GameType '22' (dambit plays 20 international, 21 english, 23 pool, "
          "25 russian, 26 brazilian, 29 czech; --variant overrides)");
    CHECK(variant("20,W,8,8,N2,0") ==
          "bad GameType '20,W,8,8,N2,0': international is played on 10x10");
    auto bad = [](const char* value) {
        return fmt::format(
            "bad GameType '{}' (want a number, or number,W|B,width,height,notation[,invert])",
            value);
    };
    for (const char* value : {"draughts", "25,W,8", "25,X,8,8,A0,0", "25,W,8,8,A4,0", ""})
        CHECK(variant(value) == bad(value));
    // --variant wins over any GameType, even a bad one; without either, Russian.
    CHECK(variant("22", Variant::kPool) == "pool");
    const auto untyped = read_text("*");
    std::optional<Problem> problem;
    CHECK(game_variant(untyped[0], std::nullopt, problem) == Variant::kRussian);
}

TEST_CASE("PDN file: every construct of the grammar", "[pdn]") {
    const auto games = read_file("grammar.pdn");
    REQUIRE(games.size() == 9);
    for (const auto& g : games) {
        INFO("game " << g.number);
        CHECK(g.problems.empty());
    }

    // Game 1, Russian (GameType in its long form). 1. c3-d4 (22-18) f6-g5 (11-16) 2. b2-c3
    // (25-22) g7-f6 (8-11) 3. c3-b4 (22-17) b6-a5 (9-13) 4. d4-c5 (18-14) a5:c3 (13 takes b4 = 17,
    // lands on 22) 5. d2xb4 (26 takes c3 = 22, lands on 17). White: 14, 17, 21, 23, 24, 27-32;
    // Black: 1-7, 10, 11, 12, 16; Black to move.
    const RawGame& g1 = games[0];
    REQUIRE(g1.tags.size() == 4);
    CHECK(g1.tags[0].value == "Escapes: \"quoted\" and a backslash \\ here");
    CHECK(g1.tags[1].name == "Site");
    CHECK(g1.tags[1].value == "Moscow");
    CHECK(g1.result == "1-0");
    CHECK(move_words(g1) == std::vector<std::string>{"c3-d4", "f6-g5", "b2-c3", "g7-f6", "c3-b4",
                                                     "b6-a5", "d4-c5", "a5:c3", "d2xb4"});
    CHECK(final_fen<Russian>(g1) ==
          "B:W14,17,21,23,24,27,28,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,16");
    // Its variations: (3... f6-e5 4. d4xh4 (4. d4:f6:h4) h8-g7) stands for 3... b6-a5 (move 5 of
    // the main line); inside it, (4. d4:f6:h4) for its move 1, d4xh4: the same capture written
    // whole (d4 takes e5, lands on f6, takes g5, lands on h4, the only capture).
    REQUIRE(g1.variations.size() == 2);
    CHECK(g1.variations[0].parent == -1);
    CHECK(g1.variations[0].replaces == 5);
    REQUIRE(g1.variations[0].moves.size() == 3);
    CHECK(g1.variations[0].moves[1].text == "d4xh4");
    CHECK(g1.variations[1].parent == 0);
    CHECK(g1.variations[1].replaces == 1);
    REQUIRE(g1.variations[1].moves.size() == 1);
    CHECK(g1.variations[1].moves[0].text == "d4:f6:h4");

    // Game 2, no tags: Russian in square numbers. 1. 22-18 11-15 2. 18x11 (18 takes 15, lands on
    // 11) 8x15 (8 takes 11) 3. 25-22 12-16 4. 22-17 9-13. White: 17, 21, 23, 24, 26-32; Black: 1-7,
    // 10, 13, 15, 16; White to move.
    const RawGame& g2 = games[1];
    CHECK(g2.tags.empty());
    CHECK(g2.result == "0-1");
    CHECK(final_fen<Russian>(g2) ==
          "W:W17,21,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,10,13,15,16");

    // Game 3: kings on a1 (29) and c1 (30) against a king on h2 (28). 1. c1-a3 (30-21) h2-g1
    // (28-32) 2. a3-f8 (21-3) g1-h2 (32-28).
    const RawGame& g3 = games[2];
    CHECK(g3.result == "1/2-1/2");
    CHECK(final_fen<Russian>(g3) == "W:WK3,K29:BK28");

    // Game 4, International: 1. 32-28 19-23 2. 28x19 (28 takes 23 and lands on 19, which Black
    // left) 14x23 (14 takes 19 and lands on 23). White: 31, 33-50; Black: 1-13, 15-18, 20, 23.
    std::optional<Problem> problem;
    CHECK(game_variant(games[3], std::nullopt, problem) == Variant::kInternational);
    CHECK(games[3].result == "2-0");
    CHECK(final_fen<International>(games[3]) ==
          "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
          "B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23");

    // Game 5, English from a FEN with White to move: 1... 22-18 2. 11-15 18x11 (18 takes 15 and
    // lands on 11, which Black left).
    CHECK(game_variant(games[4], std::nullopt, problem) == Variant::kEnglish);
    CHECK(games[4].result == "0-2");
    CHECK(final_fen<English>(games[4]) ==
          "B:W11,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12");

    // Game 6, Brazilian: "c3-d4*" is a move with the strength '*', not a result. 1. c3-d4 f6-g5
    // 2. b2-c3 g7-f6.
    CHECK(game_variant(games[5], std::nullopt, problem) == Variant::kBrazilian);
    CHECK(games[5].result == "1-1");
    CHECK(final_fen<Brazilian>(games[5]) ==
          "W:W18,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,16");

    // Game 7: a double forfeit without moves.
    CHECK(games[6].result == "0-0");
    CHECK(games[6].moves.empty());
    // Game 8 ends where game 9's tags begin; its result is then "*".
    CHECK(games[7].result.empty());
    CHECK(games[7].moves.size() == 2);
    CHECK(replayed<Russian>(games[7]).result == "*");
    CHECK(games[8].tags[0].value == "Last");
    CHECK(games[8].result == "*");
}

TEST_CASE("PDN file: each variant's move notation", "[pdn]") {
    // Russian. Games 1 and 2 are the same moves, c3-d4 f6-e5 d4:f6 g7:e5, in letters and in
    // numbers: the c3 man is gone (taken on f6), f6 and g7 of Black are one man on e5.
    auto games = read_file("russian.pdn");
    REQUIRE(games.size() == 5);
    const std::string otygrysh = "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,12,15";
    CHECK(final_fen<Russian>(games[0]) == otygrysh);
    CHECK(final_fen<Russian>(games[1]) == otygrysh);
    // RULES.md §6: h6 takes g7, lands on f8 and is crowned, takes c5 from f8, lands on b4, takes
    // d2 and ends on e1: "h6:e1" in short notation, h6:f8:b4:e1 in long.
    for (int i : {2, 3}) {
        CHECK(long_texts<Russian>(games[i]) == std::vector<std::string>{"h6:f8:b4:e1"});
        const auto g = replayed<Russian>(games[i]);
        CHECK(captured_names<Russian>(g.moves[0]) == std::vector<std::string>{"g7", "c5", "d2"});
        CHECK(to_fen<Russian>(g.position(1)) == "B:WK31:B");
    }
    // The king on a1 takes c3, g5, g3 and c5 by f6, h4 and f2 and ends on b6 (9).
    CHECK(final_fen<Russian>(games[4]) == "B:WK9:B");

    // International. Game 1: the first four moves of game 4 above, then 3. 33-28 23x32 (23 takes
    // 28 and lands on 32, empty since the first move) 4. 37x28 (37 takes 32).
    games = read_file("international.pdn");
    REQUIRE(games.size() == 3);
    CHECK(final_fen<International>(games[0]) ==
          "B:W28,31,34,35,36,38,39,40,41,42,43,44,45,46,47,48,49,50:"
          "B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20");
    // Game 2: 32 (even row) takes 27 and lands on 21 (27 is in an odd row: 27-6), then takes 17
    // and lands on 12 (21 even: 21-4 = 17, 17 odd: 17-5 = 12): "32x12", long 32x21x12. Black's
    // 29 takes 33 and lands on 38 (29+4, 33+5); 12-7, 38-43, 7-2 crowns the man.
    CHECK(long_texts<International>(games[1]) ==
          std::vector<std::string>{"32x21x12", "29x38", "12-7", "38-43", "7-2"});
    CHECK(final_fen<International>(games[1]) == "B:WK2:B24,43");
    CHECK(final_fen<International>(games[2]) == "B:W12,33:B24,29");

    // English, Black first. 1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 4-8 25-22 5. 11-15
    // 18x4: 18 takes 15 and lands on 11, takes 8 and lands on 4, crowned on Black's back row.
    games = read_file("english.pdn");
    REQUIRE(games.size() == 2);
    for (const auto& g : games) {
        CHECK(long_texts<English>(g).back() == "18x11x4");
        CHECK(final_fen<English>(g) == "B:WK4,21,22,23,24,26,27,28,30,31,32:B1,2,3,5,6,7,9,10,12");
    }

    // Pool. Game 1: 1. 11-15 22-18 2. 15x22 26x17. Games 2 and 3: the man on f4 (19) takes e3
    // (23) backwards, lands on d2 (26), takes c3 (22) and ends on b4 (17).
    games = read_file("pool.pdn");
    REQUIRE(games.size() == 3);
    CHECK(final_fen<Pool>(games[0]) ==
          "B:W17,21,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12");
    for (int i : {1, 2}) {
        CHECK(long_texts<Pool>(games[i]) == std::vector<std::string>{"19x26x17"});
        CHECK(final_fen<Pool>(games[i]) == "B:W17:B");
    }

    // Brazilian. Game 1: the Russian opening above with 'x'. Games 2 and 3: c3 could take b4
    // alone (landing on a5, from where nothing follows) or d4 then d6 (landing on e5, then c7):
    // the most pieces, so only c3xe5xc7 is legal, written "c3xc7" short.
    games = read_file("brazilian.pdn");
    REQUIRE(games.size() == 3);
    CHECK(final_fen<Brazilian>(games[0]) == otygrysh);
    CHECK(long_texts<Brazilian>(games[1]) == std::vector<std::string>{"c3xe5xc7", "b4-a3"});
    CHECK(final_fen<Brazilian>(games[1]) == "W:W6:B21");
    CHECK(final_fen<Brazilian>(games[2]) == "B:W6:B17");

    // Czech. Game 1: c3-d4 f6-e5 d4:f6 e7:g5 (7 takes 11, lands on 16). Game 2: the man on a3
    // could take b4, but the king on h2 can take f4, so only the king's captures are legal; it
    // lands on d6 (10).
    games = read_file("czech.pdn");
    REQUIRE(games.size() == 2);
    CHECK(final_fen<Czech>(games[0]) ==
          "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,10,12,16");
    CHECK(final_fen<Czech>(games[1]) == "W:WK10,21:B22");
}

TEST_CASE("PDN file: game records as published", "[pdn]") {
    // Russian, 17 plies. After 6... g5-f4 White's e3 takes f4, f6 and d6 (e3:g5:e7:c5, "e3:c5"),
    // b6 takes c5 back (b6:d4), and 8. f2-e3 d4:f2 9. g1:e3 leaves White two men up.
    auto games = read_file("russian-game.pdn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].tag("White")->value == "Petrov, A.");
    CHECK(games[0].result == "1-0");
    const auto r = long_texts<Russian>(games[0]);
    REQUIRE(r.size() == 17);
    CHECK(r[12] == "e3:g5:e7:c5");
    CHECK(final_fen<Russian>(games[0]) == "B:W17,20,21,23,28,29,30,31:B1,2,3,4,5,6");

    // International, 24 plies, four exchanges on 28, 17, 27 and 18, two on 29 and 20.
    games = read_file("international-game.pdn");
    REQUIRE(games.size() == 1);
    CHECK(games[0].result == "1-1");
    CHECK(games[0].moves.size() == 24);
    CHECK(final_fen<International>(games[0]) ==
          "W:W34,35,38,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,13,14,16,24");
}

TEST_CASE("PDN check: every error with its exact message and place", "[pdn]") {
    CheckTotals totals;
    // Columns: "1. 22-18 22-17" has its second move at 10, "1. a1:b6" its move at 4, and so on.
    CHECK(check_file("errors.pdn", totals) ==
          std::vector<std::string>{
              // After 22-18 the square 22 is empty (named as the move wrote it).
              "3:10: game 1: illegal-move: illegal move '22-17': no piece on 22",
              // The king on a1 reaches b6 by a1:d4:b6 (taking c3, c5) and by a1:f6:h4:f2:b6
              // (taking c3, g5, g3, c5).
              "9:4: game 2: ambiguous-move: ambiguous move 'a1:b6': write every landing square (a1:d4:b6, a1:f6:h4:f2:b6)",
              "11:1: game 3: bad-tag: bad tag '[Event Moscow]' (want [Name \"value\"])",
              "12:1: game 3: bad-tag: bad tag '[Site \"Moscow\" extra]' (want [Name \"value\"])",
              "13:1: game 3: bad-tag: bad tag '[White \"unclosed]' (want [Name \"value\"])",
              "14:1: game 3: bad-tag: bad tag '[9Round \"1\"]' (want [Name \"value\"])",
              "18:10: game 4: syntax: unmatched ')'",
              "18:18: game 4: syntax: unexpected '}'",
              "18:20: game 4: syntax: unexpected 'hello'",
              "18:26: game 4: syntax: unexpected '$'",
              // The game has no GameType tag, so it is read as Russian (32 squares).
              "22:1: game 5: bad-fen: bad FEN tag: unknown square '33' (read as russian: no "
              "GameType tag; --variant reads another)",
              "26:1: game 6: bad-game-type: unsupported GameType '22' (dambit plays 20 "
              "international, 21 english, 23 pool, 25 russian, 26 brazilian, 29 czech; "
              "--variant overrides)",
              "30:1: game 7: bad-game-type: bad GameType '25,W,10,10,A0,0': russian is played on "
              "8x8",
              "35:16: game 8: result-mismatch: result '0-1' disagrees with the Result tag '1-0'",
              // h6:e1 takes every black piece: nothing is left to move.
              "41:10: game 9: illegal-move: illegal move 'b8-a7': Black, to move, has no legal "
              "move",
              // A Czech man does not capture backwards: no capture exists, and the man on c3
              // (22) may only step to b4 or d4, both free.
              "47:4: game 10: illegal-move: illegal move 'c3:e1': no capture is possible; the "
              "legal moves of c3 are c3-b4, c3-d4",
              // c3xa5 takes one piece where c3xe5xc7 takes two, and no other piece can capture:
              // a capture, forbidden by the majority rule.
              "53:4: game 11: illegal-move: illegal move 'c3xa5': the majority rule: a capture "
              "of 2 pieces is compulsory (c3xe5xc7)",
          });
    // Every game has an error; the moves replayed are 22-18 (game 1), c3-d4 (3), c3-d4 f6-g5
    // b2-c3 (4), c3-d4 f6-g5 (8) and h6:e1 (9).
    CHECK(totals.games == 11);
    CHECK(totals.failed == 11);
    CHECK(totals.errors == 17);
    CHECK(totals.moves == 8);

    for (const char* name :
         {"truncated-comment.pdn", "truncated-tag.pdn", "truncated-variation.pdn"}) {
        INFO(name);
        totals = {};
        const auto found = check_file(name, totals);
        REQUIRE(found.size() == 1);
        CHECK(totals.errors == 1);
        CHECK(totals.failed == 1);
        if (std::string(name) == "truncated-comment.pdn")
            CHECK(found[0] == "2:16: game 1: truncated: truncated file: unclosed comment");
        if (std::string(name) == "truncated-tag.pdn")
            CHECK(found[0] == "4:1: game 2: truncated: truncated file: unclosed tag");
        if (std::string(name) == "truncated-variation.pdn")
            CHECK(found[0] == "2:16: game 1: truncated: truncated file: unclosed variation");
    }

    // Forced to English: the first game's captures go forwards (15x22 down for Black, 26x17 up
    // for White) and stay legal; the backward capture of the man on 19 does not. White's men
    // go towards square 1: from 19 (the row 17-20, as the row 9-12 from which Black's 11-15 and
    // 11-16 go down) up to 15 and 16, both free.
    totals = {};
    CHECK(check_file("pool.pdn", totals, Variant::kEnglish) ==
          std::vector<std::string>{"10:4: game 2: illegal-move: illegal move '19x17': no capture "
                                   "is possible; the legal moves of 19 are 19-15, 19-16",
                                   "16:4: game 3: illegal-move: illegal move '19x26x17': no "
                                   "capture is possible; the legal moves of 19 are 19-15, 19-16"});
}

// The problems pdn check reports for the games of `text`, as check_file gives them.
std::vector<std::string> check_text(const std::string& text) {
    std::istringstream in(text);
    CheckTotals totals;
    return check_lines(in, totals, std::nullopt);
}

TEST_CASE("PDN check: the moves of variations are legal where they stand", "[pdn]") {
    // 1. c3-d4 f6-g5: a variation for Black's move, (1... f6-e5 2. d4-e5): after f6-e5 White's
    // d4 must take it (d4:f6), so the quiet d4-e5 is illegal (and e5 is taken anyway).
    const std::string head = "[GameType \"25\"]\n[Result \"*\"]\n";
    CHECK(check_text(head + "1. c3-d4 f6-g5 (1... f6-e5 2. d4-e5) 2. b2-c3 *\n") ==
          std::vector<std::string>{"3:31: game 1: illegal-move: in a variation: illegal move "
                                   "'d4-e5': a capture is compulsory (d4:f6)"});
    // The same line played right, with a variation inside it for White's capture: (2. b2-c3)
    // stands for d4:f6, where the capture is compulsory too. (2... e7:g5) stands for g7:e5:
    // after d4:f6 Black takes back with e7 or g7 (e7 over f6 to g5, g7 over f6 to e5).
    CHECK(check_text(head + "1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6 (2. b2-c3) g7:e5 (2... e7:g5)) "
                            "2. b2-c3 *\n") ==
          std::vector<std::string>{"3:41: game 1: illegal-move: in a variation: illegal move "
                                   "'b2-c3': a capture is compulsory (d4:f6)"});
    CHECK(check_text(head + "1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6 g7:e5 (2... e7:g5)) 2. b2-c3 *\n")
              .empty());
    // A variation for the game's first move, and one of a move after an illegal one (not checked:
    // the main line's problem is reported instead).
    CHECK(check_text(head + "1. c3-d4 (1. a3-b4 b6-a5) f6-g5 *\n").empty());
    CHECK(check_text(head + "1. c3-d4 f6-g5 2. c3-b4 (2. a1-b2) *\n") ==
          std::vector<std::string>{"3:19: game 1: illegal-move: illegal move 'c3-b4': no piece "
                                   "on c3"});
    // A variation before any move stands for none.
    CHECK(check_text(head + "(1. c3-d4) 1. c3-d4 *\n") ==
          std::vector<std::string>{"3:1: game 1: syntax: variation before any move (it stands for "
                                   "the move before it)"});
    // At most 16 (kMaxProblems) of a game's variations' problems are listed, as the reader keeps
    // its own; the other 4 of these 20 are one line (a1-a2 is no diagonal move).
    std::string many = head + "1. c3-d4";
    for (int i = 0; i < 20; ++i) many += " (1. a1-a2)";
    const auto lines = check_text(many + " *\n");
    REQUIRE(lines.size() == 17);
    CHECK(lines.back().ends_with("syntax: 4 more errors in this game's variations"));
    // The other commands' reader keeps no variation.
    std::istringstream in(head + "1. c3-d4 (1. a3-b4) *\n");
    CHECK(read_stream(in, false).at(0).variations.empty());
    in.clear();
    in.seekg(0);
    CHECK(read_stream(in).at(0).variations.size() == 1);
}

TEST_CASE("PDN check: results against the game's end, and files cut or left open", "[pdn]") {
    // W:W12:B8,14,26 (h6 against g7, c5, d2): h6:f8:b4:e1 takes all three, and Black, to move,
    // has nothing left: White has won, whatever the result says.
    const std::string end = "[GameType \"25\"]\n[FEN \"W:W12:B8,14,26\"]\n1. h6:e1 ";
    CHECK(check_text(end + "2-0\n").empty());
    CHECK(check_text(end + "*\n").empty());  // unknown: nothing to disagree with
    CHECK(check_text(end + "0-2\n") ==
          std::vector<std::string>{"3:10: game 1: result-mismatch: result '0-2', but Black has "
                                   "no legal move after the last move: White has won"});
    CHECK(check_text(end + "1-1\n") ==
          std::vector<std::string>{"3:10: game 1: result-mismatch: result '1-1', but Black has "
                                   "no legal move after the last move: White has won"});
    // Only the Result tag gives it: the problem stands at the tag (line 2).
    CHECK(check_text("[GameType \"25\"]\n[Result \"0-2\"]\n[FEN \"W:W12:B8,14,26\"]\n"
                     "1. h6:e1\n") ==
          std::vector<std::string>{"2:1: game 1: result-mismatch: result '0-2', but Black has "
                                   "no legal move after the last move: White has won"});
    // English: Black moves first, and programs differ on which side "1-0" gives the win, so
    // only a draw is refused there. B:W18:B14, Black to move: Black's man on 14 (row 13-16)
    // goes down to 17 or 18; 18 is White's, so it jumps on the same diagonal to 23 (from row
    // 17-20 that diagonal goes +5) and White has nothing left. "1-0" is not refused; "1/2-1/2"
    // is (its word at column 10).
    CHECK(check_text("[GameType \"21\"]\n[FEN \"B:W18:B14\"]\n1. 14x23 1-0\n").empty());
    CHECK(check_text("[GameType \"21\"]\n[FEN \"B:W18:B14\"]\n1. 14x23 1/2-1/2\n") ==
          std::vector<std::string>{"3:10: game 1: result-mismatch: result '1/2-1/2', but White "
                                   "has no legal move after the last move: Black has won"});

    // No result at all: the moves run into the next game's tags, or the file ends after them.
    CHECK(check_text("[GameType \"25\"]\n1. c3-d4 f6-g5\n[GameType \"25\"]\n1. c3-d4 *\n"
                     "[GameType \"25\"]\n1. c3-d4 f6-g5 2. g3-h4") ==
          std::vector<std::string>{
              "2:10: game 1: no-result: no result: the moves end without one, and there is no "
              "Result tag",
              "6:19: game 3: no-result: no result: the moves end without one, and there is no "
              "Result tag"});
    // A Result tag of its own is a result; so is "*".
    CHECK(check_text("[Result \"1-0\"]\n1. c3-d4 f6-g5\n").empty());
    CHECK(check_text("1. c3-d4 f6-g5 *\n").empty());

    // A '{' never closed takes the rest of the file: the tags of the games inside it are told.
    CHECK(check_text("[GameType \"25\"]\n1. c3-d4 {a note\n\n[Event \"2\"]\n"
                     "1. c3-d4 *\n  [Event \"3\"]\n1. c3-d4 *\n") ==
          std::vector<std::string>{"2:10: game 1: truncated: truncated file: unclosed comment "
                                   "(the rest of the file is in it, with 2 tag lines from line "
                                   "4)"});
    // Problems come in file order: the unclosed variation is found when the next game's tags
    // begin, after the stray word inside it, but stands at its '(' (column 10; "zz" at 26), and
    // the game, its main line ending at c3-d4 (column 4), has no result.
    CHECK(check_text("1. c3-d4 (f6-g5 2. b2-c3 zz\n[Event \"2\"]\n1. c3-d4 *\n") ==
          std::vector<std::string>{
              "1:4: game 1: no-result: no result: the moves end without one, and there is no "
              "Result tag",
              "1:10: game 1: syntax: unclosed variation",
              "1:26: game 1: syntax: unexpected 'zz'"});
    // A bad tag on a CR LF line is shown without the CR ('?' in the message).
    CHECK(check_text("[Event \"Moscow]\r\n[GameType \"25\"]\r\n1. c3-d4 *\r\n") ==
          std::vector<std::string>{"1:1: game 1: bad-tag: bad tag '[Event \"Moscow]' (want "
                                   "[Name \"value\"])"});
}

TEST_CASE("PDN fen: the position of a game after some plies", "[pdn]") {
    std::ifstream in(data_path("grammar.pdn"), std::ios::binary);
    // Game 1 after 4 plies: c3-d4 f6-g5 b2-c3 g7-f6, White's third move next (F3).
    auto r = position_after(in, std::nullopt, 1, 4);
    CHECK(r.found);
    CHECK(r.plies == 4);
    CHECK(r.fen == "W:W18,21,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,16:F3");
    CHECK(!r.problem);
    in.clear();
    in.seekg(0);
    r = position_after(in, std::nullopt, 3, 0);
    CHECK(r.fen == "W:WK29,K30:BK28");
    in.clear();
    in.seekg(0);
    r = position_after(in, std::nullopt, 10, 0);
    CHECK(!r.found);
    CHECK(r.games == 9);
    in.clear();
    in.seekg(0);
    r = position_after(in, std::nullopt, 7, 5);
    CHECK(r.found);
    CHECK(r.plies == 0);
    CHECK(!r.problem);

    // A position before an illegal move is found; one after it is not.
    std::ifstream errors(data_path("errors.pdn"), std::ios::binary);
    r = position_after(errors, std::nullopt, 1, 1);
    CHECK(r.fen == "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    CHECK(!r.problem);
    errors.clear();
    errors.seekg(0);
    r = position_after(errors, std::nullopt, 1, 2);
    REQUIRE(r.problem);
    CHECK(r.problem->message == "illegal move '22-17': no piece on 22");
    CHECK(r.plies == 1);
    // The result is checked after the last move only: game 8's position is found.
    errors.clear();
    errors.seekg(0);
    r = position_after(errors, std::nullopt, 8, 2);
    CHECK(!r.problem);
    CHECK(r.plies == 2);
}

TEST_CASE("PDN writer: captures short unless that names another move", "[pdn]") {
    // W:WKa1:Bc3,g5,g3,c5 (see the ambiguous game of errors.pdn): from a1 to b6 and to a7 there
    // are two captures each, so those are written long; a1:e5:h2 is the only capture ending on h2.
    const auto p = parse_fen<Russian>("W:WKa1:Bc3,g5,g3,c5");
    CHECK(pdn_move_text<Russian>(p, legal(p, "a1:d4:b6")) == "a1:d4:b6");
    CHECK(pdn_move_text<Russian>(p, legal(p, "a1:d4:a7")) == "a1:d4:a7");
    CHECK(pdn_move_text<Russian>(p, legal(p, "a1:f6:h4:f2:b6")) == "a1:f6:h4:f2:b6");
    CHECK(pdn_move_text<Russian>(p, legal(p, "a1:e5:h2")) == "a1:h2");
    // W:WKc3:Bd4,d6,b6,d2: c3:e1 takes d2 alone, c3:e5:c7:a5:e1 takes d4, d6, b6 and d2 (round
    // the board and over the start square). "c3:e1" is the first one's whole text, so the second
    // is written long.
    const auto q = parse_fen<Russian>("W:WKc3:Bd4,d6,b6,d2");
    CHECK(pdn_move_text<Russian>(q, legal(q, "c3:e1")) == "c3:e1");
    CHECK(pdn_move_text<Russian>(q, legal(q, "c3:e5:c7:a5:e1")) == "c3:e5:c7:a5:e1");
    // The only captures of their positions: written short with the variant's separator.
    const auto i = parse_fen<International>("W:W32,33:B27,17,29,24");
    CHECK(pdn_move_text<International>(i, legal(i, "32x21x12")) == "32x12");
    const auto h = parse_fen<Russian>("W:Wh6:Bg7,c5,d2");
    CHECK(pdn_move_text<Russian>(h, legal(h, "h6:f8:b4:e1")) == "h6:e1");
    const auto b = parse_fen<Brazilian>("W:Wc3:Bb4,d4,d6");
    CHECK(pdn_move_text<Brazilian>(b, legal(b, "c3xe5xc7")) == "c3xc7");
    // A capture that ends on its own start square, the only capture of W:Wc3:Bd4,f4,f2,d2: c3
    // over d4 to e5, over f4 to g3, over f2 to e1, over d2 back to c3 (the man goes round the
    // four and lands where it began). Its short form "c3:c3" names it alone, but says nothing
    // to a reader: written whole.
    const auto r = parse_fen<Russian>("W:Wc3:Bd4,f4,f2,d2,h8");
    CHECK(pdn_move_text<Russian>(r, legal(r, "c3:e5:g3:e1:c3")) == "c3:e5:g3:e1:c3");
    // Quiet moves as they are.
    const auto s = Position<International>::start();
    CHECK(pdn_move_text<International>(s, legal(s, "32-28")) == "32-28");
}

TEST_CASE("PDN writer: variations in place, numbered, nested without recursion", "[pdn]") {
    // Hand-made: the main line 1. a 1... b; variation 0 stands for 1... b (ply 1), variation 1
    // inside it for its first move, variation 2 for 1. a and is not closed (left out, with
    // variation 3 inside it), variation 4 has no moves (left out).
    const auto var = [](int parent, std::size_t replaces, std::vector<std::string> moves,
                        bool closed = true) {
        Variation v;
        v.parent = parent;
        v.replaces = replaces;
        v.closed = closed;
        for (auto& m : moves) v.moves.push_back({m, {}, {}, {}});
        return v;
    };
    const std::vector<Variation> vs = {var(-1, 1, {"c", "d", "e"}), var(0, 0, {"f"}),
                                       var(-1, 0, {"g"}, false), var(2, 0, {"h"}),
                                       var(-1, 1, {})};
    const auto words = variation_words(vs, 2, 1, true);
    REQUIRE(words.size() == 2);
    CHECK(words[0].empty());
    CHECK(words[1] == std::vector<std::string>{"(1...", "c", "(1...", "f)", "2.", "d", "e)"});
    // From Black to move at move 16 (the second mover begins): ply 1 is White's 17.
    CHECK(variation_words({var(-1, 1, {"x", "y"})}, 2, 16, false)[1] ==
          std::vector<std::string>{"(17.", "x", "y)"});
    // 20,000 variations each inside the one before: no recursion, so no deep stack.
    std::vector<Variation> deep;
    for (int i = 0; i < 20000; ++i) deep.push_back(var(i - 1, 0, {"a"}));
    const auto nested = variation_words(deep, 1, 1, true);
    REQUIRE(nested[0].size() == 40000);
    CHECK(nested[0].front() == "(1.");
    CHECK(nested[0].back() == "a" + std::string(20000, ')'));
}

TEST_CASE("PDN writer: a game's text", "[pdn]") {
    // Game 5 of grammar.pdn: English from a FEN, White to move, so the first move is "1...".
    const auto games = read_file("grammar.pdn");
    CHECK(write_game(replayed<English>(games[4])) ==
          "[Event \"English, White to move first\"]\n"
          "[GameType \"21\"]\n"
          "[SetUp \"1\"]\n"
          "[FEN \"W:W21-32:B1-12\"]\n"
          "\n"
          "1... 22-18 2. 11-15 18x11 0-2\n"
          "\n");
    // A FEN tag's move number (its F field) numbers the moves from there: White's c3-d4 is move
    // 16, Black's reply 16...; from Black to move, the first move is 16... and White's next 17.
    const auto from16 = read_text(
        "[GameType \"25\"]\n[FEN \"W:Wc3,e3:Bf6,h6:H0:F16\"]\n1. c3-d4 f6-g5 2. e3-f4 *\n"
        "[GameType \"25\"]\n[FEN \"B:Wc3,e3:Bf6,h6:F16\"]\n1... f6-g5 2. c3-d4 *\n");
    REQUIRE(from16.size() == 2);
    CHECK(write_game(replayed<Russian>(from16[0])).ends_with(
        "\n\n16. c3-d4 f6-g5 17. e3-f4 *\n\n"));
    CHECK(write_game(replayed<Russian>(from16[1])).ends_with("\n\n16... f6-g5 17. c3-d4 *\n\n"));
    CHECK(fen_move_number("W:W21-32:B1-12") == 1);
    CHECK(fen_move_number("W:W21-32:B1-12:H3:F42") == 42);
    CHECK(fen_move_number("B:F7:W21:B1") == 7);
    // Game 1: quotes and backslashes escaped again; captures short; the result from the end; its
    // variation after b6-a5, the one inside it for 4. d4xh4 (d4:f6:h4, the same capture: both
    // written short, as the main line's), then 4... h8-g7 numbered again after it.
    CHECK(write_game(replayed<Russian>(games[0])) ==
          "[Event \"Escapes: \\\"quoted\\\" and a backslash \\\\ here\"]\n"
          "[Site \"Moscow\"]\n"
          "[GameType \"25,W,8,8,A0,0\"]\n"
          "[Result \"1-0\"]\n"
          "\n"
          "{a comment between the tags and the moves} 1. c3-d4 f6-g5 2. b2-c3 g7-f6 {a\n"
          "comment over two lines} 3. c3-b4! b6-a5?! (3... f6-e5 4. d4:h4 (4. d4:h4)\n"
          "4... h8-g7) 4. d4-c5 $12 a5:c3 5. d2:b4!! 1-0\n"
          "\n");
    // Without tags: the GameType, and SetUp and FEN for a game that does not begin at the start.
    Game<International> g;
    g.start = parse_fen<International>("W:W32,33:B27,17,29,24");
    g.moves.push_back(legal(g.start, "32x21x12"));
    CHECK(write_game(g) ==
          "[GameType \"20\"]\n"
          "[SetUp \"1\"]\n"
          "[FEN \"W:W32,33:B17,24,27,29\"]\n"
          "\n"
          "1. 32x12 *\n"
          "\n");
    // The moves with a comment before the result, as the match records write them.
    CHECK(movetext({"c3-d4", "f6-g5", "b2-c3"}, true, "1-0", "time } out") ==
          "1. c3-d4 f6-g5 2. b2-c3 {time ) out} 1-0");
    CHECK(movetext({}, false, "*") == "*");
    // A comment after a move; the second mover's move after one gets its number again.
    CHECK(movetext({"c3-d4", "f6-g5", "b2-c3", "g7-f6"}, true, "*", "",
                   {"+5", "", "-3}"}) == "1. c3-d4 {+5} 1... f6-g5 2. b2-c3 {-3)} 2... g7-f6 *");
    CHECK(movetext({"f6-g5", "c3-d4", "g7-f6"}, false, "0-1", "", {"a", "b"}) ==
          "1... f6-g5 {a} 2. c3-d4 {b} 2... g7-f6 0-1");
    // A comment before the first move, several after one move (each in its own braces), and a
    // long comment wrapped word by word like the moves (lines of at most 79 characters).
    MoveComments notes{"start", {{"a", "b"}, {}, {"c"}}, {}};
    CHECK(movetext({"f6-g5", "c3-d4", "g7-f6"}, false, "*", "", notes) ==
          "{start} 1... f6-g5 {a} {b} 2. c3-d4 g7-f6 {c} *");
    std::string words;
    for (int i = 0; i < 30; ++i) words += "word ";
    notes = {"", {{words}}, {}};
    const std::string wrapped = movetext({"c3-d4"}, true, "*", "", notes);
    CHECK(wrapped.starts_with("1. c3-d4 {word word"));
    CHECK(wrapped.ends_with("word} *"));
    std::size_t longest = 0, rows = 0;
    for (std::size_t at = 0; at <= wrapped.size(); ++rows) {
        const std::size_t end = std::min(wrapped.find('\n', at), wrapped.size());
        longest = std::max(longest, end - at);
        at = end + 1;
    }
    // Row 1: "1. c3-d4 {word" (14 characters) and 13 more " word" (79); row 2: 15 words "word"
    // (74), since " word}" would make 80; row 3: "word} *".
    CHECK(longest <= 79);
    CHECK(rows == 3);
    CHECK(wrapped.ends_with("\nword} *"));
    // A move number stays on the line of its move. "N. c3-d4 f6-g5 " is 15 characters for N of
    // one digit: after "1. c3-d4 f6-g5 2. ... 5. c3-d4 f6-g5" (5 * 15 - 1 = 74) " 6." would fit
    // (77) and " c3-d4" would not (83): the line breaks before "6.".
    std::vector<std::string> many;
    for (int i = 0; i < 12; ++i) many.push_back(i % 2 ? "f6-g5" : "c3-d4");
    const std::string numbered = movetext(many, true, "*");
    CHECK(numbered.starts_with("1. c3-d4 f6-g5 2. c3-d4 f6-g5 3. c3-d4 f6-g5 4. c3-d4 f6-g5 "
                               "5. c3-d4 f6-g5\n6. c3-d4 f6-g5 *"));
    // The same for the second mover's number after a comment ("2..." with its move).
    MoveComments late{"", {{}, {}, {}, {}, {}, {}, {}, {}, {"a comment that fills the line"}}, {}};
    const std::string renumbered = movetext(many, true, "*", "", late);
    CHECK(renumbered.find("...\n") == std::string::npos);
    CHECK(renumbered.find(".\n") == std::string::npos);
    // A line break in a tag value becomes a space.
    CHECK(tag_line("Annotator", "a\nb") == "[Annotator \"a b\"]\n");
    // Lines stay within 79 characters.
    const auto record = read_file("international-game.pdn");
    const std::string text = write_game(replayed<International>(record[0]));
    std::istringstream lines(text);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        CHECK(line.size() <= 79);
        ++n;
    }
    CHECK(n > 12);
}

TEST_CASE("PDN round trip: read, write, read gives the same games", "[pdn]") {
    for (const char* name :
         {"grammar.pdn", "russian.pdn", "international.pdn", "english.pdn", "pool.pdn",
          "brazilian.pdn", "czech.pdn", "russian-game.pdn", "international-game.pdn"}) {
        INFO(name);
        int games = 0;
        for (const RawGame& raw : read_file(name)) {
            INFO("game " << raw.number);
            std::optional<Problem> problem;
            const auto v = game_variant(raw, std::nullopt, problem);
            REQUIRE(v);
            with_variant(*v, [&]<class R>(std::type_identity<R>) {
                const Game<R> first = replayed<R>(raw);
                const std::string text = write_game(first);
                const auto again = read_text(text);
                REQUIRE(again.size() == 1);
                CHECK(again[0].problems.empty());
                Game<R> second = replayed<R>(again[0]);
                // Tags, start position, moves and result agree; the writer adds GameType to a
                // game without one (grammar.pdn's game 2, 3, 7, 8 and 9 are Russian by default).
                if (!raw.tag("GameType")) {
                    REQUIRE(second.tags.back().name == "GameType");
                    CHECK(second.tags.back().value == "25");
                    second.tags.pop_back();
                }
                CHECK(second == first);
                // Variations come back where they stood, move for move (their texts as the
                // writer writes them: the writes below agree).
                REQUIRE(second.variations.size() == first.variations.size());
                for (std::size_t i = 0; i < first.variations.size(); ++i) {
                    CHECK(second.variations[i].parent == first.variations[i].parent);
                    CHECK(second.variations[i].replaces == first.variations[i].replaces);
                    CHECK(second.variations[i].moves.size() == first.variations[i].moves.size());
                }
                CHECK(write_game(second) == write_game(first));
                return 0;
            });
            ++games;
        }
        CHECK(games > 0);
    }
}

TEST_CASE("PDN analyse: losses and marks, by hand", "[pdn]") {
    using play::Mark;
    using play::mark_of;
    using play::move_loss;
    using search::loss_in;
    using search::win_in;
    const play::MarkThresholds t;  // 5, 10, 15 points of expected score
    // Judged scores: the difference, never below 0.
    CHECK(move_loss(30, -20) == 50);
    CHECK(move_loss(-20, 30) == 0);
    CHECK(move_loss(-40, -40) == 0);
    // A proven win counts as 1000: missing it for +50 loses 950; a slower win loses nothing.
    CHECK(move_loss(win_in(5), 50) == 950);
    CHECK(move_loss(win_in(5), win_in(9)) == 0);
    // Walking into a proven loss from +30 loses 1030; among lost positions nothing is lost.
    CHECK(move_loss(30, loss_in(3)) == 1030);
    CHECK(move_loss(loss_in(7), loss_in(3)) == 0);
    // Expected score 1 / (1 + exp(-s / 150)), by hand: s = 0 gives 0.5; s = -100 gives
    // 1 / (1 + e^0.6667) = 1 / 2.9477 = 0.3392, a drop of 16.08 points (a man lost in a level
    // position: a blunder); 451 gives 1 / (1 + e^-3.0067) = 0.9529 and 344 gives
    // 1 / (1 + e^-2.2933) = 0.9083, a drop of 4.46 (a man given back from four and a half men up:
    // no mark); -40 gives 0.4337 (6.63: an inaccuracy); -80 gives 0.3697 (13.03: a mistake).
    CHECK(play::expected_drop(0, -100) == Approx(16.08).margin(0.01));
    CHECK(play::expected_drop(451, 344) == Approx(4.46).margin(0.01));
    CHECK(play::expected_drop(0, -40) == Approx(6.63).margin(0.01));
    CHECK(play::expected_drop(0, -80) == Approx(13.03).margin(0.01));
    CHECK(play::expected_drop(-40, 0) == 0);
    // Proven results are certainties: from a proven win to +300 (0.8808) drops 11.92 points.
    CHECK(play::expected_drop(win_in(11), 300) == Approx(11.92).margin(0.01));
    CHECK(play::expected_drop(0, loss_in(2)) == 50);
    // A move's value is the next position's score negated, a proven result one ply further: a
    // move that leaves the opponent without a move wins in 1; into a win in 4 for the opponent,
    // it loses in 5.
    CHECK(play::value_of_move(loss_in(0)) == win_in(1));
    CHECK(play::value_of_move(win_in(4)) == loss_in(5));
    CHECK(play::value_of_move(loss_in(6)) == win_in(7));
    CHECK(play::value_of_move(-30) == 30);
    CHECK(mark_of(4.99, t) == Mark::kNone);
    CHECK(mark_of(5, t) == Mark::kInaccuracy);
    CHECK(mark_of(10, t) == Mark::kMistake);
    CHECK(mark_of(14.9, t) == Mark::kMistake);
    CHECK(mark_of(15, t) == Mark::kBlunder);
    CHECK(std::string(play::mark_text(Mark::kBlunder)) == "??");
}

TEST_CASE("PDN analyse: the blunder of a published game", "[pdn]") {
    using play::Mark;
    // russian-game.pdn: after 6... g5-f4 White's e3 must take f4, f6 and d6 (e3:g5:e7:c5) and
    // Black's b6 takes back only c5 (b6:d4): two men lost by force. 6... h8-g7 instead leaves no
    // capture for White (b4 and h4 have no black man beside them with the square behind empty).
    const auto games = read_file("russian-game.pdn");
    const Game<Russian> g = replayed<Russian>(games[0]);
    search::Engine<Russian> engine(16, 1);
    search::Limits limits;
    limits.depth = 8;
    const auto a = play::analyse_game<Russian>(engine, g.start, g.moves, {}, limits);
    REQUIRE(a.plies.size() == 17);

    const auto& blunder = a.plies[11];
    CHECK(blunder.played == "g5-f4");
    CHECK(blunder.side == Color::kBlack);
    CHECK_FALSE(blunder.forced);
    CHECK(blunder.best != "g5-f4");
    CHECK(blunder.played_score <= -150);  // two men down (a man is about 100)
    CHECK(blunder.mark == Mark::kBlunder);

    // Forced, the only legal move (by hand, from the diagrams): 2. d4:f6 (only d4 stands beside a
    // black man, e5, with the square behind empty); 5... e5:c3 (g5's neighbour h4 is on the edge);
    // 6. d2:b4 (b2 has been empty since 3. b2-c3); 7. e3:g5:e7:c5 (above); 7... b6:d4; 8... d4:f2.
    // Not forced: 2... g7:e5 and e7:g5 both take f6; 9. g1:e3 and e1:g3 both take f2.
    for (const std::size_t k : {2, 9, 10, 12, 13, 15}) CHECK(a.plies[k].forced);
    CHECK_FALSE(a.plies[3].forced);
    CHECK_FALSE(a.plies[16].forced);

    // What the analysis promises of every move: a played move is worth the next position's score
    // for the other side; a forced move is worth its position's score and loses nothing; the
    // summaries count the marks of each side's analysed moves.
    play::SideSummary white, black;
    for (std::size_t k = 0; k < a.plies.size(); ++k) {
        const auto& p = a.plies[k];
        INFO("ply " << k);
        CHECK(p.ply == int(k));
        CHECK(p.side == (k % 2 == 0 ? Color::kWhite : Color::kBlack));
        const search::Score next = k + 1 < a.plies.size() ? a.plies[k + 1].score : a.final_score;
        CHECK(p.played_score == play::value_of_move(next));
        CHECK(p.loss >= 0);
        CHECK(p.drop >= 0);
        if (p.forced) {
            CHECK(p.score == p.played_score);
            CHECK(p.loss == 0);
            CHECK(p.drop == 0);
            CHECK(p.mark == Mark::kNone);
            CHECK(p.best.empty());
            continue;
        }
        CHECK_FALSE(p.best.empty());
        CHECK(p.depth == 8);
        if (p.best == p.played) CHECK((p.loss == 0 && p.drop == 0));
        CHECK(p.mark == play::mark_of(p.drop, {}));
        auto& s = p.side == Color::kWhite ? white : black;
        ++s.moves;
        s.total_loss += p.loss;
        s.blunders += p.mark == Mark::kBlunder;
    }
    CHECK(a.white.moves == white.moves);
    CHECK(a.black.moves == black.moves);
    CHECK(a.white.total_loss == white.total_loss);
    CHECK(a.black.blunders == black.blunders);
    CHECK(a.black.blunders >= 1);
    CHECK(white.moves + black.moves == 11);  // 17 plies, 6 of them forced

    // The same search limits and a fresh engine: the same analysis (one thread, fixed depth).
    search::Engine<Russian> again(16, 1);
    const auto b = play::analyse_game<Russian>(again, g.start, g.moves, {}, limits);
    for (std::size_t k = 0; k < a.plies.size(); ++k) {
        CHECK(b.plies[k].score == a.plies[k].score);
        CHECK(b.plies[k].best == a.plies[k].best);
    }
}

TEST_CASE("PDN analyse: a game ended by the rules", "[pdn]") {
    using play::Mark;
    // Two kings go back and forth: the start position occurs again after plies 4 and 8, the
    // third time ends the game in a draw (RULES.md §5), so the last position is worth 0 and so is
    // the move that repeats it.
    const auto games = read_text(
        "[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"W:WKc1,g3:BKh8,b6\"]\n"
        "1. c1-d2 h8-g7 2. d2-c1 g7-h8 3. c1-d2 h8-g7 4. d2-c1 g7-h8 1/2-1/2\n");
    const Game<Russian> g = replayed<Russian>(games.at(0));
    search::Engine<Russian> engine(16, 1);
    search::Limits limits;
    limits.depth = 6;
    const auto a = play::analyse_game<Russian>(engine, g.start, g.moves, {}, limits);
    REQUIRE(a.plies.size() == 8);
    CHECK(a.final_score == 0);
    CHECK(a.plies[7].played_score == 0);

    // A game won by its last move: in W:Wa3:Bb4 White's man must take Black's only piece
    // (a3:c5, the only legal move), Black is left without a move, and the move wins in 1 ply.
    const auto last =
        read_text("[GameType \"25\"]\n[SetUp \"1\"]\n[FEN \"W:Wa3:Bb4\"]\n1. a3:c5 1-0\n");
    const Game<Russian> w = replayed<Russian>(last.at(0));
    const auto b = play::analyse_game<Russian>(engine, w.start, w.moves, {}, limits);
    REQUIRE(b.plies.size() == 1);
    CHECK(b.plies[0].forced);  // the capture is compulsory and the only one
    CHECK(b.final_score == search::loss_in(0));
    CHECK(b.plies[0].played_score == search::win_in(1));
    CHECK(b.plies[0].mark == Mark::kNone);
}

TEST_CASE("a PDN journal reads back what it wrote, up to its first bad line", "[pdn]") {
    // A kind with two numbers of its own a line, numbered 1, 2, 3, ...
    constexpr JournalKind kind{"test", "unit", 2, true, "test", "unit", "made again"};
    const JournalEntry one{1, 2218, 0x1067b071ef041e82, {1004390, 84}},
        two{2, 4400, 0xabc, {0, 7}};
    const std::string head = journal_head(kind, "variant=russian,depth=9");
    CHECK(head == "dambit test journal 1\nsettings variant=russian,depth=9\n");
    CHECK(journal_line(kind, one) == "unit 1 2218 1067b071ef041e82 1004390 84\n");
    const auto j = parse_journal(kind, head + journal_line(kind, one) + journal_line(kind, two));
    REQUIRE(j);
    CHECK(j->settings == "variant=russian,depth=9");
    REQUIRE(j->entries.size() == 2);
    CHECK(j->entries[0].number == 1);
    CHECK(j->entries[0].end == 2218);
    CHECK(j->entries[0].digest == 0x1067b071ef041e82);
    CHECK(j->entries[0].values == std::vector<std::uint64_t>{1004390, 84});
    CHECK(j->entries[1].values == std::vector<std::uint64_t>{0, 7});

    CHECK(j->bad_line == 0);
    // A line cut short (no line end: the job was killed writing it) ends the journal there, and
    // is no damage; a whole line that cannot be read is, at its line number (from 1).
    const std::string line2 = journal_line(kind, two);
    const auto torn =
        parse_journal(kind, head + journal_line(kind, one) + line2.substr(0, line2.size() - 1));
    CHECK(torn->entries.size() == 1);
    CHECK(torn->bad_line == 0);
    const auto garbled =
        parse_journal(kind, head + journal_line(kind, one) + "unit 2 x\n" + journal_line(kind, two));
    CHECK(garbled->entries.size() == 1);
    CHECK(garbled->bad_line == 4);
    // So do a unit out of order, an end that does not grow, a number missing or too many, a
    // letter, another kind's word.
    JournalEntry three = two;
    three.number = 3;
    CHECK(parse_journal(kind, head + journal_line(kind, one) + journal_line(kind, three))
              ->entries.size() == 1);
    JournalEntry back = two;
    back.end = 2218;
    CHECK(parse_journal(kind, head + journal_line(kind, one) + journal_line(kind, back))
              ->entries.size() == 1);
    CHECK(parse_journal(kind, head + "unit 1 2218 ff 1\n")->entries.empty());
    CHECK(parse_journal(kind, head + "unit 1 2218 ff 1 2 3\n")->entries.empty());
    CHECK(parse_journal(kind, head + "unit 1 2218 ff 1 x\n")->entries.empty());
    CHECK(parse_journal(kind, head + "pair 1 2218 ff 1 2\n")->entries.empty());
    CHECK(parse_journal(kind, head + "unit 1 2218 ff 1 2\n")->entries.size() == 1);
    // Numbers that need only grow, for a kind that skips some (games not written).
    constexpr JournalKind sparse{"test", "unit", 0, false, "test", "unit", "made again"};
    CHECK(parse_journal(sparse, journal_head(sparse, "x") + "unit 2 10 a\nunit 5 20 b\nunit 4 30 c\n")
              ->entries.size() == 2);
    // Not such a journal: another first line, another kind, or no settings line.
    CHECK_FALSE(parse_journal(kind, "dambit test journal 2\nsettings x\n"));
    CHECK_FALSE(parse_journal(kind, "dambit match journal 1\nsettings x\n"));
    CHECK_FALSE(parse_journal(kind, "dambit test journal 1\n"));
    CHECK_FALSE(parse_journal(kind, ""));
}

TEST_CASE("a journal's settings keep values with separators whole", "[pdn]") {
    // settings_change splits the items at ',' and ' ': a hub command or a path with them must
    // stay one item, so that the message names the whole value.
    CHECK(journal_value("hub:python3 kestog-hub.py --a,b") == "hub:python3%20kestog-hub.py%20--a%2Cb");
    CHECK(journal_value("100%") == "100%25");
    const std::string then = "depth=9,b=" + journal_value("hub:x y"),
                      now = "depth=9,b=" + journal_value("hub:x z");
    CHECK(settings_change(then, now) == "b=hub:x%20y, now b=hub:x%20z");
}
