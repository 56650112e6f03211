// Endgame table values: win, draw or loss for the side to move, with the distance in plies where a
// distance table gives it (the ply after which the loser has no legal move, as in `dambit solve`).
#pragma once

#include <cstdint>
#include <string>

namespace dambit::egtb {

enum class Outcome : std::uint8_t { kLoss, kDraw, kWin };

struct Value {
    Outcome outcome = Outcome::kDraw;
    int plies = -1;  // -1: not known (a win/draw/loss table); always -1 for a draw

    bool known_distance() const { return plies >= 0; }
    friend bool operator==(const Value&, const Value&) = default;

    static Value win(int plies = -1) { return {Outcome::kWin, plies}; }
    static Value loss(int plies = -1) { return {Outcome::kLoss, plies}; }
    static Value draw() { return {Outcome::kDraw, -1}; }

    // The value one ply earlier, for the side that made the move into this position.
    Value parent() const {
        const int d = plies >= 0 ? plies + 1 : -1;
        switch (outcome) {
            case Outcome::kWin: return loss(d);
            case Outcome::kLoss: return win(d);
            case Outcome::kDraw: break;
        }
        return draw();
    }
    // Whether this is better than `o` for the side to move: a win before a draw before a loss;
    // the shorter win, the longer loss (a known distance counts as shorter than an unknown one,
    // and as longer among losses, so that the choice is never worse than needed).
    bool better_than(const Value& o) const {
        if (outcome != o.outcome) return int(outcome) > int(o.outcome);
        if (outcome == Outcome::kWin) return unsigned(plies) < unsigned(o.plies);
        if (outcome == Outcome::kLoss) return plies > o.plies;
        return false;
    }
    std::string text() const {
        return outcome == Outcome::kWin ? "win" : outcome == Outcome::kLoss ? "loss" : "draw";
    }
};

// One byte per position, in memory and (before compression) in the files:
//   0 draw; 1 + d for a win or a loss in d plies (d odd: a win, d even: a loss), d <= 254.
// A win/draw/loss table stores only the codes 0, 1 (a loss) and 2 (a win).
inline constexpr int kMaxPlies = 254;

inline Value decode(std::uint8_t code, bool distances) {
    if (code == 0) return Value::draw();
    const int d = code - 1;
    const int plies = distances ? d : -1;
    return d % 2 ? Value::win(plies) : Value::loss(plies);
}
inline std::uint8_t encode(const Value& v, bool distances) {
    if (v.outcome == Outcome::kDraw) return 0;
    if (!distances) return v.outcome == Outcome::kWin ? 2 : 1;
    return std::uint8_t(1 + v.plies);
}

}  // namespace dambit::egtb
