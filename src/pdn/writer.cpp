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
    MoveComments notes;
    for (const std::string& c : comments) {
        notes.after.emplace_back();
        if (!c.empty()) notes.after.back().push_back(c);
    }
    return movetext(moves, first_mover_begins, result, comment, notes);
}

std::string movetext(const std::vector<std::string>& moves, bool first_mover_begins,
                     std::string_view result, std::string_view comment,
                     const MoveComments& comments, int first_number) {
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
    // A comment in braces ('}' in it written ')'), word by word; false when it is empty.
    auto add_comment = [&](std::string_view text) {
        std::string c(text);
        std::replace(c.begin(), c.end(), '}', ')');
        std::replace_if(
            c.begin(), c.end(), [](char ch) { return ch == '\n' || ch == '\r' || ch == '\t'; },
            ' ');
        std::vector<std::string> words;
        for (std::size_t i = 0; i < c.size();) {
            const std::size_t j = std::min(c.find(' ', i), c.size());
            if (j > i) words.push_back(c.substr(i, j - i));
            i = j + 1;
        }
        if (words.empty()) return false;
        words.front().insert(0, "{");
        words.back() += '}';
        for (const std::string& w : words) add(w);
        return true;
    };
    // A move number and its move on one line: the line breaks before the number when both do
    // not fit ("6." at the end of a line and its move on the next read badly).
    auto add_numbered = [&](const std::string& number_text, std::string_view move) {
        if (line > 0 && line + 1 + number_text.size() + 1 + move.size() > 79) {
            out += '\n';
            line = 0;
        }
        add(number_text);
        add(move);
    };
    add_comment(comments.before);
    bool first = first_mover_begins;
    bool renumber = !first_mover_begins;  // the first move is the second mover's ("1...")
    int number = first_number;
    for (std::size_t k = 0; k < moves.size(); ++k) {
        // The move, and the annotations after it as words of their own ("32-28! $14").
        const std::string_view text = moves[k];
        const std::string_view move = text.substr(0, text.find(' '));
        if (first)
            add_numbered(fmt::format("{}.", number), move);
        else if (renumber)
            add_numbered(fmt::format("{}...", number), move);
        else
            add(move);
        for (std::size_t i = move.size(); i < text.size();) {
            const std::size_t j = std::min(text.find(' ', i + 1), text.size());
            if (j > i + 1) add(text.substr(i + 1, j - i - 1));
            i = j;
        }
        renumber = false;
        if (k < comments.after.size())
            for (const std::string& c : comments.after[k]) renumber = add_comment(c) || renumber;
        if (!first) ++number;
        first = !first;
    }
    add_comment(comment);
    add(result);
    return out;
}

}  // namespace dambit::pdn
