// Writing PDN: the parts that do not depend on the variant.
#include "pdn/writer.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace dambit::pdn {

std::string tag_line(std::string_view name, std::string_view value) {
    std::string s = "[";
    s += name;
    s += " \"";
    for (const char c : value) {
        if (c == '"' || c == '\\') s += '\\';
        s += c == '\n' ? ' ' : c;  // a tag stands on one line
    }
    s += "\"]\n";
    return s;
}

std::string movetext(const std::vector<std::string>& moves, bool first_mover_begins,
                     std::string_view result, std::string_view comment,
                     const std::vector<std::string>& comments) {
    std::string out;
    std::size_t line = 0;  // characters on the current line
    auto add = [&](std::string_view w) {
        if (line > 0 && line + 1 + w.size() > 79) {
            out += '\n';
            line = 0;
        } else if (line > 0) {
            out += ' ';
            ++line;
        }
        out += w;
        line += w.size();
    };
    auto braced = [](std::string_view text) {
        std::string c(text);
        std::replace(c.begin(), c.end(), '}', ')');
        return fmt::format("{{{}}}", c);
    };
    if (!first_mover_begins && !moves.empty()) add("1...");
    bool first = first_mover_begins;
    bool renumber = false;  // a comment stands between the first mover's move and this one
    int number = 1;
    for (std::size_t k = 0; k < moves.size(); ++k) {
        if (first)
            add(fmt::format("{}.", number));
        else if (renumber)
            add(fmt::format("{}...", number));
        add(moves[k]);
        renumber = k < comments.size() && !comments[k].empty();
        if (renumber) add(braced(comments[k]));
        if (!first) ++number;
        first = !first;
    }
    if (!comment.empty()) add(braced(comment));
    add(result);
    return out;
}

}  // namespace dambit::pdn
