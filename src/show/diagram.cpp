// Text and SVG drawings of a Board (see diagram.hpp).
#include "show/diagram.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace dambit::show {
namespace {

// The rank drawn at row `row` from the top, and the file drawn at column `col` from the left.
int rank_at(const Board& b, int row, bool flip) { return flip ? row : b.size - 1 - row; }
int file_at(const Board& b, int col, bool flip) { return flip ? b.size - 1 - col : col; }

char cell(const Board& b, int file, int rank) {
    return b.cells[std::size_t(rank)][std::size_t(file)];
}
int number(const Board& b, int file, int rank) {
    return b.numbers[std::size_t(rank)][std::size_t(file)];
}

}  // namespace

std::string text_diagram(const Board& b, bool flip) {
    std::string out;
    const int n = b.size;
    if (b.algebraic) {
        for (int row = 0; row < n; ++row) {
            const int rank = rank_at(b, row, flip);
            out += fmt::format("{:>2} ", rank + 1);
            for (int col = 0; col < n; ++col) {
                out += ' ';
                out += cell(b, file_at(b, col, flip), rank);
            }
            while (out.back() == ' ') out.pop_back();  // a light square ends the row
            out += '\n';
        }
        out += "   ";
        for (int col = 0; col < n; ++col) {
            out += ' ';
            out += char('a' + file_at(b, col, flip));
        }
        return out + '\n';
    }
    // Numbered boards: an empty dark square shows its number, and each row's numbers are repeated
    // on the right, so that the occupied squares can be named too.
    for (int row = 0; row < n; ++row) {
        const int rank = rank_at(b, row, flip);
        int lo = 0, hi = 0;
        std::string line;
        for (int col = 0; col < n; ++col) {
            const int file = file_at(b, col, flip);
            const char c = cell(b, file, rank);
            const int num = number(b, file, rank);
            if (num) {
                lo = lo ? std::min(lo, num) : num;
                hi = std::max(hi, num);
            }
            line += ' ';
            if (c == '.')
                line += fmt::format("{:>2}", num);
            else
                line += fmt::format("{:>2}", c);
        }
        out += fmt::format("{}    {:>2}-{}\n", line, lo, hi);
    }
    return out;
}

namespace {
// A length in pixels to a tenth, without a trailing ".0" (200, 211.1).
std::string length(double x) {
    std::string t = fmt::format("{:.1f}", x);
    if (t.size() > 2 && t.compare(t.size() - 2, 2, ".0") == 0) t.resize(t.size() - 2);
    return t;
}
}  // namespace

std::string svg_diagram(const Board& b, bool flip, int pixels) {
    const int n = b.size;
    // One square is `sq` pixels; algebraic boards keep half a square on the left and below for the
    // coordinates.
    const double margin = b.algebraic ? 0.5 : 0.0;
    const double sq = pixels / (n + margin);
    const double left = margin * sq, height = n * sq + margin * sq;
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" "
        "viewBox=\"0 0 {0} {2}\" font-family=\"sans-serif\">\n",
        pixels, height, length(height));
    s += fmt::format("<title>{} to move</title>\n", b.white_to_move ? "White" : "Black");
    s += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", pixels, length(height));
    for (int row = 0; row < n; ++row)
        for (int col = 0; col < n; ++col) {
            const int rank = rank_at(b, row, flip), file = file_at(b, col, flip);
            const double x = left + col * sq, y = row * sq;
            const bool dark = number(b, file, rank) != 0;
            s += fmt::format(
                "<rect class=\"square {}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                "height=\"{:.1f}\" fill=\"{}\"/>\n",
                dark ? "dark" : "light", x, y, sq, sq, dark ? "#b58863" : "#f0d9b5");
            if (std::find(b.marked.begin(), b.marked.end(), std::pair{file, rank}) !=
                b.marked.end())
                s += fmt::format(
                    "<rect class=\"marked\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                    "height=\"{:.1f}\" fill=\"#f6f669\" fill-opacity=\"0.5\"/>\n",
                    x, y, sq, sq);
            // A numbered board names each dark square in its corner, clear of the piece.
            if (dark && !b.algebraic)
                s += fmt::format(
                    "<text class=\"number\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{:.1f}\" "
                    "fill=\"#f0d9b5\">{}</text>\n",
                    x + sq * 0.04, y + sq * 0.19, sq * 0.18, number(b, file, rank));
            const char c = cell(b, file, rank);
            if (c == '.' || c == ' ') continue;
            const bool white = c == 'w' || c == 'W';
            const bool king = c == 'W' || c == 'B';
            const double cx = x + sq / 2, cy = y + sq / 2;
            s += fmt::format(
                "<circle class=\"piece {} {}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" "
                "fill=\"{}\" stroke=\"{}\" stroke-width=\"{:.1f}\"/>\n",
                white ? "white" : "black", king ? "king" : "man", cx, cy, sq * 0.37,
                white ? "#fbfbf2" : "#262626", white ? "#4a4a4a" : "#000000", sq * 0.04);
            if (king)  // a king: a gold ring inside the piece
                s += fmt::format(
                    "<circle class=\"crown\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\" "
                    "fill=\"none\" stroke=\"#d4a017\" stroke-width=\"{:.1f}\"/>\n",
                    cx, cy, sq * 0.2, sq * 0.08);
        }
    if (b.algebraic) {
        for (int i = 0; i < n; ++i) {
            s += fmt::format(
                "<text class=\"coordinate\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{:.1f}\" "
                "text-anchor=\"middle\">{}</text>\n",
                left / 2, i * sq + sq * 0.6, sq * 0.3, rank_at(b, i, flip) + 1);
            s += fmt::format(
                "<text class=\"coordinate\" x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"{:.1f}\" "
                "text-anchor=\"middle\">{}</text>\n",
                left + i * sq + sq / 2, n * sq + left * 0.7, sq * 0.3,
                char('a' + file_at(b, i, flip)));
        }
    }
    return s + "</svg>\n";
}

}  // namespace dambit::show
