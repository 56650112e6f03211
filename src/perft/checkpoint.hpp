// The perft checkpoint file (dambit perft --checkpoint): what a long run has finished, as text
// with a checksum, so that a resumed run trusts only a whole file it wrote itself.
//
// Format 2, one record per line, fields separated by one space:
//   dambit-perft-checkpoint 2
//   run <variant> <keep|drop> <FEN>     the run the file belongs to
//   depth <D> <nodes>                   a finished depth
//   split <D> <subtrees> <key, hex>     the depth under way, or the last one finished, and its
//                                       cut (perft_split)
//   subtree <k> <nodes>                 a finished subtree of that depth (kept once it is
//                                       finished, for a --divide of it)
//   xxh64 <16 hex digits>               XXH64 (seed 0) of every byte before this line
// Numbers are plain decimal digits (no sign, no spaces); anything else, a record out of place or
// a checksum that does not match (an edited or torn file) makes the whole file refused. Format 1
// (dambit before this one) had no checksum line and is refused as written by an older dambit.
#pragma once

#include <xxhash.h>

#include <charconv>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dambit {

// A checkpoint that cannot be used; the message names the file (and the line where it helps).
class CheckpointError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PerftCheckpoint {
    std::string run;                     // "<variant> <keep|drop> <FEN>"
    std::map<int, std::uint64_t> depths;  // finished depths and their counts
    int split_depth = 0;                  // the depth under way or last finished (0: none)
    std::size_t subtrees = 0;             // its number of subtrees
    std::uint64_t split_key = 0;          // the key of its cut
    std::map<std::size_t, std::uint64_t> done;  // its finished subtrees and their counts
};

inline constexpr int kCheckpointFormat = 2;
inline constexpr int kCheckpointMaxDepth = 30;  // dambit perft --depth's limit

namespace checkpoint_detail {

inline std::string hex(std::uint64_t v, int width = 0) {
    char b[17];
    const auto r = std::to_chars(b, b + sizeof b, v, 16);
    std::string s(b, r.ptr);
    if (int(s.size()) < width) s.insert(0, std::size_t(width - int(s.size())), '0');
    return s;
}

// `token` as a number in base 10 or 16: digits only, all of them used, within range.
inline bool number(std::string_view token, std::uint64_t& out, int base = 10) {
    if (token.empty() || token.size() > (base == 16 ? 16u : 20u)) return false;
    for (const char c : token) {
        const bool digit = c >= '0' && c <= '9';
        const bool hex_digit = (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        if (!digit && !(base == 16 && hex_digit)) return false;
    }
    const auto r = std::from_chars(token.data(), token.data() + token.size(), out, base);
    return r.ec == std::errc() && r.ptr == token.data() + token.size();
}

inline std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (true) {
        const std::size_t j = line.find(' ', i);
        out.push_back(line.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
        if (j == std::string_view::npos) return out;
        i = j + 1;
    }
}

}  // namespace checkpoint_detail

// The file's text, checksum line included.
inline std::string checkpoint_text(const PerftCheckpoint& c) {
    using checkpoint_detail::hex;
    std::string t = "dambit-perft-checkpoint " + std::to_string(kCheckpointFormat) + "\n";
    t += "run " + c.run + "\n";
    for (const auto& [d, n] : c.depths) t += "depth " + std::to_string(d) + " " + std::to_string(n) + "\n";
    if (c.split_depth) {
        t += "split " + std::to_string(c.split_depth) + " " + std::to_string(c.subtrees) + " " +
             hex(c.split_key) + "\n";
        for (const auto& [k, n] : c.done)
            t += "subtree " + std::to_string(k) + " " + std::to_string(n) + "\n";
    }
    t += "xxh64 " + hex(XXH64(t.data(), t.size(), 0), 16) + "\n";
    return t;
}

// The checkpoint `text` read from `path` for the run `run`. Throws CheckpointError naming `path`
// when it is not a checkpoint, of another format, damaged (checksum), malformed, or of another run.
inline PerftCheckpoint parse_checkpoint(std::string_view text, const std::string& path,
                                        const std::string& run) {
    using checkpoint_detail::fields;
    using checkpoint_detail::number;
    const std::string name = "checkpoint '" + path + "'";
    auto fail = [&](const std::string& why) { throw CheckpointError(name + ": " + why); };

    const std::string_view magic = "dambit-perft-checkpoint ";
    const std::size_t first_end = text.find('\n');
    const std::string_view first = text.substr(0, first_end);
    if (first.substr(0, magic.size()) != magic) fail("not a dambit perft checkpoint");
    const std::string_view version = first.substr(magic.size());
    if (version == "1")
        fail("written by an older dambit (format 1, without a checksum), which this one does not "
             "trust; delete it to start the run afresh");
    if (version != std::to_string(kCheckpointFormat))
        fail("checkpoint format '" + std::string(version) + "', not " +
             std::to_string(kCheckpointFormat) + " (written by another version of dambit)");

    // The last line is the checksum of everything before it.
    if (text.empty() || text.back() != '\n')
        fail("damaged: it does not end with its checksum line (a torn or edited file)");
    const std::size_t last = text.rfind('\n', text.size() - 2) + 1;  // the first line ends before
    const std::string_view sum_line = text.substr(last, text.size() - 1 - last);
    std::uint64_t sum = 0;
    if (last == 0 || sum_line.substr(0, 6) != "xxh64 " || sum_line.size() != 6 + 16 ||
        !number(sum_line.substr(6), sum, 16))
        fail("damaged: it does not end with its checksum line (a torn or edited file)");
    if (XXH64(text.data(), last, 0) != sum)
        fail("damaged: its checksum does not match its contents (a torn or edited file)");

    PerftCheckpoint c;
    int line_number = 1;
    bool named = false;
    std::string_view line;
    auto bad = [&](const std::string& why) {
        throw CheckpointError(name + " line " + std::to_string(line_number) + ": " + why);
    };
    auto bad_record = [&] { bad("bad record '" + std::string(line) + "'"); };
    for (std::size_t at = first_end + 1; at < last;) {
        const std::size_t end = text.find('\n', at);
        line = text.substr(at, end - at);
        at = end + 1;
        ++line_number;
        const auto f = fields(line);
        const std::string_view word = f[0];
        if (!named && word != "run") bad("'" + std::string(word) + "' before the run record");
        std::uint64_t a = 0, b = 0, k = 0;
        if (word == "run") {
            if (named) bad("a second run record");
            const std::string_view rest = line.substr(std::min<std::size_t>(4, line.size()));
            if (rest != run)
                bad("it belongs to another run (" + std::string(rest) + "), not this one (" + run +
                    ")");
            named = true;
        } else if (word == "depth") {
            if (f.size() != 3 || !number(f[1], a) || !number(f[2], b) || a < 1 ||
                a > std::uint64_t(kCheckpointMaxDepth))
                bad_record();
            if (!c.depths.emplace(int(a), b).second) bad("depth " + std::to_string(a) + " twice");
        } else if (word == "split") {
            if (f.size() != 4 || !number(f[1], a) || !number(f[2], b) || !number(f[3], k, 16) ||
                a < 1 || a > std::uint64_t(kCheckpointMaxDepth) || b < 1)
                bad_record();
            if (c.split_depth) bad("a second split record");
            c.split_depth = int(a);
            c.subtrees = std::size_t(b);
            c.split_key = k;
        } else if (word == "subtree") {
            if (!c.split_depth) bad("'subtree' before the split record");
            if (f.size() != 3 || !number(f[1], a) || !number(f[2], b) || a >= c.subtrees)
                bad_record();
            if (!c.done.emplace(std::size_t(a), b).second)
                bad("subtree " + std::to_string(a) + " twice");
        } else {
            bad("unknown record '" + std::string(word) + "'");
        }
    }
    if (!named) fail("no run record");
    c.run = run;
    return c;
}

}  // namespace dambit
