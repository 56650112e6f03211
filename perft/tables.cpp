// Reading the perft tables: one row per line, "name convention depth nodes FEN", # comments.
#include "tables.hpp"

#include <utility>

#include "core/notation.hpp"

namespace dambit {

// Defined in the file CMake generates from perft/*.txt.
extern const std::pair<const char*, const char*> kPerftTableFiles[];
extern const int kPerftTableFileCount;

std::vector<PerftRow> parse_perft_table(std::string_view variant, std::string_view text) {
    std::vector<PerftRow> rows;
    int line_no = 0;
    for (std::string_view line : notation_detail::split(text, '\n')) {
        ++line_no;
        line = notation_detail::trim(line);
        if (line.empty() || line.front() == '#') continue;
        std::vector<std::string_view> f;
        for (std::string_view field : notation_detail::split(line, '\t'))
            if (!notation_detail::trim(field).empty()) f.push_back(notation_detail::trim(field));
        const std::string where = std::string(variant) + ".txt line " + std::to_string(line_no);
        if (f.size() != 5) throw ParseError(where + ": want 5 tab-separated fields");
        PerftRow r;
        r.variant = std::string(variant);
        r.name = std::string(f[0]);
        if (f[1] == "keep")
            r.duplicates = Duplicates::kKeep;
        else if (f[1] == "drop")
            r.duplicates = Duplicates::kDrop;
        else
            throw ParseError(where + ": bad convention '" + std::string(f[1]) + "'");
        if (!notation_detail::all_digits(f[2]) || f[2].size() > 2)
            throw ParseError(where + ": bad depth '" + std::string(f[2]) + "'");
        if (!notation_detail::all_digits(f[3]) || f[3].size() > 19)
            throw ParseError(where + ": bad node count '" + std::string(f[3]) + "'");
        r.depth = std::stoi(std::string(f[2]));
        r.nodes = std::stoull(std::string(f[3]));
        r.fen = std::string(f[4]);
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<PerftRow> perft_table(std::string_view variant) {
    for (int i = 0; i < kPerftTableFileCount; ++i)
        if (variant == kPerftTableFiles[i].first)
            return parse_perft_table(variant, kPerftTableFiles[i].second);
    return {};
}

}  // namespace dambit
