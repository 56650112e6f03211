// Writing PDN: the parts that do not depend on the variant.
#include "pdn/writer.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/notation.hpp"

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
    // Words that may hold move numbers ("(3..." "h8-g7"): a number and its move on one line.
    auto add_words = [&](const std::vector<std::string>& words) {
        for (std::size_t i = 0; i < words.size(); ++i) {
            if (words[i].ends_with('.') && i + 1 < words.size()) {
                add_numbered(words[i], words[i + 1]);
                ++i;
            } else {
                add(words[i]);
            }
        }
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
        if (k < comments.variations.size() && !comments.variations[k].empty()) {
            add_words(comments.variations[k]);
            renumber = true;
        }
        if (!first) ++number;
        first = !first;
    }
    add_comment(comment);
    add(result);
    return out;
}

std::vector<std::vector<std::string>> variation_words(const std::vector<Variation>& vs,
                                                      std::size_t main_moves, int first_number,
                                                      bool first_mover_begins) {
    std::vector<std::vector<std::string>> out(main_moves);
    // Those written, the ply of each one's first move (from the main line's first), and the
    // variations in each line in order (children[0] the main line's, children[i + 1] variation
    // i's): a variation comes after the line it is in.
    const std::size_t n = vs.size();
    std::vector<char> kept(n, 0);
    std::vector<std::size_t> ply(n, 0);
    std::vector<std::vector<std::size_t>> children(n + 1);
    for (std::size_t i = 0; i < n; ++i) {
        const Variation& v = vs[i];
        const bool in_main = v.parent < 0;
        const auto parent = std::size_t(v.parent);
        if (!in_main && (parent >= i || !kept[parent])) continue;
        const std::size_t line_moves = in_main ? main_moves : vs[parent].moves.size();
        if (!v.closed || v.moves.empty() || v.replaces >= line_moves) continue;
        kept[i] = 1;
        ply[i] = (in_main ? 0 : ply[parent]) + v.replaces;
        children[in_main ? 0 : parent + 1].push_back(i);
    }
    struct Frame {
        std::size_t v, next = 0, child = 0;  // the variation, its next move and next variation
    };
    std::vector<Frame> stack;
    for (const std::size_t root : children[0]) {
        std::vector<std::string>& words = out[vs[root].replaces];
        std::string open = "(";  // before the next word
        bool renumber = true;    // the next move is numbered, whoever plays it
        stack.assign(1, Frame{root});
        while (!stack.empty()) {
            Frame& f = stack.back();
            const Variation& v = vs[f.v];
            const auto& nested = children[f.v + 1];
            if (f.next > 0 && f.child < nested.size() && vs[nested[f.child]].replaces == f.next - 1) {
                const std::size_t c = nested[f.child++];
                stack.push_back(Frame{c});  // f is not used after this
                open = "(";
                renumber = true;
                continue;
            }
            if (f.next < v.moves.size()) {
                const std::size_t q = ply[f.v] + f.next;
                const bool first_mover = (q % 2 == 0) == first_mover_begins;
                if (first_mover || renumber) {
                    const int number = move_number_after(int(q), first_number, first_mover_begins);
                    words.push_back(open + std::to_string(number) + (first_mover ? "." : "..."));
                    open.clear();
                }
                words.push_back(open + v.moves[f.next].text);
                open.clear();
                renumber = false;
                ++f.next;
                continue;
            }
            words.back() += ')';
            stack.pop_back();
            renumber = true;
        }
    }
    return out;
}

}  // namespace dambit::pdn
