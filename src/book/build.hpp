// Building an opening book: drop-out expansion by search (Lincke), and the positions of games.
//
// Every step is a function of the book so far and the settings: the position expanded next
// (Book::next_to_expand), the searches of its children (each from an empty table, one thread),
// the games read. So a build interrupted and resumed from its journal, or continued to more
// positions, makes the same book as one run without a stop, whatever the number of threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <xxhash.h>

#include "book/book.hpp"
#include "core/file_io.hpp"
#include "pdn/game.hpp"
#include "search/engine.hpp"
#include "core/threads.hpp"

namespace dambit::book {

// The search values of positions, several at once: each position is searched by one of
// `threads` engines from an empty table with one thread, so its value does not depend on which.
template <class R>
class Searcher {
public:
    Searcher(int threads, std::size_t hash_megabytes, const search::LearnedWeights* weights,
             const search::Limits& limits)
        : limits_(limits) {
        for (int t = 0; t < threads; ++t) {
            engines_.push_back(std::make_unique<search::Engine<R>>(hash_megabytes, 1));
            engines_.back()->set_weights(weights);
        }
    }

    std::vector<search::Score> values(const std::vector<Position<R>>& positions) {
        std::vector<search::Score> out(positions.size());
        std::atomic<std::size_t> next{0};
        std::exception_ptr failure;
        std::mutex mutex;
        const auto work = [&](search::Engine<R>& engine) {
            try {
                for (std::size_t i; (i = next++) < positions.size();) {
                    engine.new_game();
                    out[i] = engine.go(positions[i], {}, limits_).score;
                }
            } catch (...) {
                const std::lock_guard lock(mutex);
                failure = std::current_exception();
            }
        };
        const std::size_t helpers = std::min(engines_.size(), positions.size());
        Workers pool(int(helpers > 0 ? helpers - 1 : 0), "book", 1,
                     [&](std::size_t t) { work(*engines_[t + 1]); });
        work(*engines_[0]);
        pool.join();
        if (failure) std::rethrow_exception(failure);
        return out;
    }

private:
    search::Limits limits_;
    std::vector<std::unique_ptr<search::Engine<R>>> engines_;
};

// Adds `positions` not yet in the book with their search values and `flags`; returns the records
// added (for the journal).
template <class R>
std::vector<Record> add_searched(Book<R>& book, Searcher<R>& searcher,
                                 const std::vector<Position<R>>& positions, std::uint8_t flags) {
    std::vector<Position<R>> todo;
    std::unordered_set<std::uint64_t> taken;
    for (const auto& p : positions)
        if (!book.find(p) && taken.insert(position_key(p)).second) todo.push_back(p);
    const auto values = searcher.values(todo);
    std::vector<Record> out;
    for (std::size_t i = 0; i < todo.size(); ++i) {
        Record r = record_of<R>(todo[i]);
        r.value = std::int16_t(values[i]);
        r.flags = std::uint8_t(Record::kSearched | flags);
        book.upsert(r);
        out.push_back(r);
    }
    return out;
}

// Positions expanded at once by one step of drop-out expansion in a book of n positions: one
// in a book of fewer than 1000, one more for each further thousand, so that the priorities, which
// cost a pass over the whole book, are computed once per thousandth of its size, and the searches
// of a step keep the threads busy. A function of the book's size alone, so a build resumed or
// continued takes the same steps.
inline std::size_t batch_size(std::size_t n) {
    return 1 + n / 1000;
}

// One step of drop-out expansion: the batch_size() positions of least priority each get every
// legal move's position, each with its search value. Returns the records changed (the expanded
// positions first), empty when no position is left to expand.
template <class R>
std::vector<Record> expand_next(Book<R>& book, Searcher<R>& searcher) {
    using G = typename R::Geometry;
    std::vector<Record> out;
    std::vector<Position<R>> kids;
    for (const auto i : book.to_expand(batch_size(book.size()))) {
        Record parent = book.records()[i];
        parent.flags |= Record::kExpanded;
        out.push_back(parent);
        const Position<R> p = position_of<R>(parent);
        FixedList<PathMove<G>, kMaxMoves> list;
        generate_paths<R>(p, list);
        for (const auto& pm : list) kids.push_back(p.play(pm.move));
    }
    for (const auto& r : out) book.upsert(r);
    const auto added = add_searched<R>(book, searcher, kids, 0);
    out.insert(out.end(), added.begin(), added.end());
    return out;
}

// Search values for the positions that have none (positions from games); `block` at a time,
// each block handed to `done` (for the journal) as it is finished.
template <class R, class F>
void search_unsearched(Book<R>& book, Searcher<R>& searcher, std::size_t block, F&& done) {
    std::vector<Record> todo;
    for (const auto& r : book.records())
        if (!(r.flags & Record::kSearched)) todo.push_back(r);
    std::sort(todo.begin(), todo.end());
    for (std::size_t at = 0; at < todo.size(); at += block) {
        std::vector<Record> part(todo.begin() + long(at),
                                 todo.begin() + long(std::min(todo.size(), at + block)));
        std::vector<Position<R>> ps;
        for (const auto& r : part) ps.push_back(position_of<R>(r));
        const auto values = searcher.values(ps);
        for (std::size_t k = 0; k < part.size(); ++k) {
            part[k].value = std::int16_t(values[k]);
            part[k].flags |= Record::kSearched;
            book.upsert(part[k]);
        }
        done(part);
    }
}

// Plies of each game read into a book from games.
inline constexpr int kGamePlies = 60;

// The games records_from_games read: those used, and those skipped, by reason.
struct GamesRead {
    std::uint64_t games = 0;       // used
    std::uint64_t other = 0;       // of another variant (or a GameType tag dambit cannot
                                   // read), or from another position
    std::uint64_t no_result = 0;   // without a result, or with two that disagree
    std::uint64_t unplayed = 0;    // a move that is not one legal move, a bad FEN tag, a
                                   // truncated game
    std::uint64_t duplicates = 0;  // the same game as one read before (same_game_key)
    std::string first_unplayed;    // the first of those: "FILE:LINE:COLUMN: game N: message"
    std::uint64_t skipped() const { return other + no_result + unplayed + duplicates; }
};

// What makes two games of PDN files the same game, given twice (a database merged twice, a game
// in two files): the same players, event, date and round tags, the same moves as written and the
// same result. Two games that only share their moves (a short draw in a known line, played by
// others) are two games, and so are games that do not name both players (no White or Black
// tag, or "?"): nothing tells them apart. Empty for those.
inline std::optional<std::uint64_t> same_game_key(const pdn::RawGame& g, const std::string& result) {
    const auto known = [&](const char* name) {
        const pdn::Tag* t = g.tag(name);
        return t && !t->value.empty() && t->value != "?";
    };
    if (!known("White") || !known("Black")) return std::nullopt;
    XXH64_state_t* h = XXH64_createState();
    XXH64_reset(h, 0);
    const auto add = [&](std::string_view text) {
        XXH64_update(h, text.data(), text.size());
        XXH64_update(h, "", 1);  // a separator no text holds
    };
    for (const char* name : {"White", "Black", "Event", "Date", "Round"}) {
        const pdn::Tag* t = g.tag(name);
        add(t ? std::string_view(t->value) : std::string_view("\x01"));
    }
    for (const auto& m : g.moves) add(m.text);
    add(result);
    const std::uint64_t key = XXH64_digest(h);
    XXH64_freeState(h);
    return key;
}

// Thrown by records_from_games when its `stop` says so (Ctrl-C while the games are read).
struct GamesStopped {};

// What the games of PDN files say: every position reached, from the start position along the
// main lines, by at least `min_games` games with a result (a position whose predecessor in the
// game was left out is left out too), with the number of those games and the points of the side
// to move. A game without a GameType tag is taken as one of R. Games of another variant, from
// another start, without a result, that cannot be replayed or that repeat a game read before
// (same_game_key) are skipped and counted in `read`;
// a bad tag or a stray token (reported by pdn check) does not skip a game, and `passed` is called
// once for each game used past such a problem, with a line saying so ("FILE:LINE:COLUMN: game N:
// message (passed over)", pdn::passed_over). Throws std::runtime_error for a file that cannot be
// read, GamesStopped as soon as `stop` returns true (it is asked before each game).
template <class R>
std::vector<Record> records_from_games(
    const std::vector<std::string>& files, int min_games, GamesRead& read,
    const std::function<bool()>& stop = {},
    const std::function<void(const std::string&)>& passed = {}) {
    const Variant ours = *parse_variant(R::kName);
    // Calls f(positions, white_points2) for each usable game. The files are read twice; the
    // problems passed over are said the first time.
    bool first_pass = true;
    const auto each_game = [&](auto&& f) {
        read = {};
        std::unordered_set<std::uint64_t> seen;
        for (const auto& file : files) {
            file_io::check_readable(file);
            std::ifstream in(file, std::ios::binary);
            if (!in) throw std::runtime_error("cannot read '" + file + "'");
            pdn::Reader reader(in);
            pdn::RawGame raw;
            pdn::Game<R> game;
            while (reader.next(raw)) {
                if (stop && stop()) throw GamesStopped{};
                const auto unplayed = [&](const pdn::Problem& p) {
                    if (read.unplayed++ == 0)
                        read.first_unplayed = pdn::problem_line(file, raw.number, p);
                };
                std::optional<pdn::Problem> problem = raw.doubtful_moves();
                if (problem) {
                    unplayed(*problem);
                    continue;
                }
                const auto v = pdn::game_variant(raw, std::nullopt, problem, ours);
                if (!v || *v != ours) {  // a GameType tag of another game, or unreadable
                    ++read.other;
                    continue;
                }
                problem = pdn::replay<R>(raw, game, kGamePlies);
                if (problem && problem->kind == pdn::ProblemKind::kResultMismatch) {
                    ++read.no_result;
                    continue;
                }
                if (problem) {
                    unplayed(*problem);
                    continue;
                }
                if (game.start != Position<R>::start()) {
                    ++read.other;
                    continue;
                }
                const auto outcome = pdn::outcome_of(game.result);
                if (!outcome || (*outcome != pdn::Outcome::kWhiteWins &&
                                 *outcome != pdn::Outcome::kBlackWins &&
                                 *outcome != pdn::Outcome::kDraw)) {
                    ++read.no_result;
                    continue;
                }
                if (const auto key = same_game_key(raw, game.result);
                    key && !seen.insert(*key).second) {
                    ++read.duplicates;
                    continue;
                }
                ++read.games;
                if (first_pass && passed)
                    if (const auto p = pdn::passed_over(raw, problem))
                        passed(pdn::problem_line(file, raw.number, *p));
                const std::uint32_t white2 = *outcome == pdn::Outcome::kWhiteWins ? 2
                                             : *outcome == pdn::Outcome::kDraw    ? 1
                                                                                  : 0;
                std::vector<Position<R>> line{game.start};
                for (const auto& pm : game.moves) line.push_back(line.back().play(pm.move));
                f(line, white2);
            }
        }
    };
    // A position is kept when at least `min_games` games reach it through kept positions alone.
    // The count of every game reaching it is an upper bound: the games' prefixes of positions
    // within it are gathered, then the counts are taken again over the prefixes cut at the
    // first position left out, until no position drops out (a position counted on a game that
    // came through a position left out may fall below G, and its followers with it).
    // A game counts once for a position it reaches more than once (kings going to and fro).
    std::unordered_map<std::uint64_t, std::uint32_t> count;
    std::vector<std::uint64_t> keys;
    each_game([&](const std::vector<Position<R>>& line, std::uint32_t) {
        keys.clear();
        for (const auto& p : line) keys.push_back(position_key(p));
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        for (const auto key : keys) ++count[key];
    });
    first_pass = false;
    // Each game's positions within the counts, in order, each once; the side to move's points.
    struct Prefix {
        std::vector<std::uint64_t> keys;
        std::vector<std::uint8_t> white;  // White to move at keys[i]
        std::uint32_t white2 = 0;
    };
    std::vector<Prefix> prefixes;
    std::unordered_map<std::uint64_t, Record> kept;
    each_game([&](const std::vector<Position<R>>& line, std::uint32_t white2) {
        Prefix prefix{{}, {}, white2};
        for (const auto& p : line) {
            const auto key = position_key(p);
            if (count[key] < std::uint32_t(min_games)) break;
            if (std::find(prefix.keys.begin(), prefix.keys.end(), key) != prefix.keys.end())
                continue;  // reached again in this game
            prefix.keys.push_back(key);
            prefix.white.push_back(p.side == Color::kWhite);
            if (const auto [it, added] = kept.emplace(key, record_of<R>(p));
                added && p == Position<R>::start())
                it->second.flags = Record::kRoot;
        }
        if (!prefix.keys.empty()) prefixes.push_back(std::move(prefix));
    });
    for (bool dropped = true; dropped;) {
        count.clear();
        for (auto& prefix : prefixes) {
            std::size_t n = 0;
            while (n < prefix.keys.size() && kept.count(prefix.keys[n])) ++n;
            prefix.keys.resize(n);
            prefix.white.resize(n);
            for (const auto key : prefix.keys) ++count[key];
        }
        dropped = false;
        for (auto it = kept.begin(); it != kept.end();) {
            if (count[it->first] < std::uint32_t(min_games)) {
                it = kept.erase(it);
                dropped = true;
            } else {
                ++it;
            }
        }
    }
    for (const auto& prefix : prefixes) {
        for (std::size_t k = 0; k < prefix.keys.size(); ++k) {
            Record& r = kept.at(prefix.keys[k]);
            ++r.games;
            r.points2 += prefix.white[k] ? prefix.white2 : 2 - prefix.white2;
        }
    }
    std::vector<Record> out;
    for (const auto& [key, r] : kept) out.push_back(r);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace dambit::book
