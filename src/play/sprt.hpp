// The sequential probability ratio test of engine testers (fishtest, cutechess-cli): after each
// game, is A's Elo advantage over B at least elo1 (H1) or at most elo0 (H0)?
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/notation.hpp"

namespace dambit::play {

struct SprtParams {
    double elo0 = 0;
    double elo1 = 5;
    double alpha = 0.05;  // the chance of accepting H1 when H0 is true
    double beta = 0.05;   // the chance of accepting H0 when H1 is true

    // Wald's bounds: H0 is accepted at or below `lower`, H1 at or above `upper`.
    double lower() const { return std::log(beta / (1 - alpha)); }
    double upper() const { return std::log((1 - beta) / alpha); }
};

// The expected score of a side rated `elo` above its opponent (the logistic model).
inline double logistic_score(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

// The log-likelihood ratio of H1 against H0 after `wins`, `draws` and `losses` of A, in the
// trinomial GSPRT approximation (Michel Van den Bergh's, used by fishtest for trinomial results):
// each game's points x (1, 1/2, 0) are taken as normal with the sample's variance, and mean s0
// under H0 and s1 under H1, where s = logistic_score(elo). With N games, total points X and mean
// m = X / N,
//     var = (W (1-m)^2 + D (1/2-m)^2 + L m^2) / N,
//     LLR = sum over games of ((x - s0)^2 - (x - s1)^2) / (2 var)
//         = (s1 - s0) (2 X - N (s0 + s1)) / (2 var).
// Without a game, or without spread in the results (var = 0: all wins, all draws or all losses),
// the ratio is 0: no evidence either way yet.
inline double sprt_llr(int wins, int draws, int losses, double elo0, double elo1) {
    const double n = wins + draws + losses;
    if (n <= 0) return 0;
    const double x = wins + 0.5 * draws;
    const double m = x / n;
    const double var =
        (wins * (1 - m) * (1 - m) + draws * (0.5 - m) * (0.5 - m) + losses * m * m) / n;
    if (var <= 1e-12) return 0;
    const double s0 = logistic_score(elo0), s1 = logistic_score(elo1);
    return (s1 - s0) * (2 * x - n * (s0 + s1)) / (2 * var);
}

enum class SprtDecision { kNone, kH0, kH1 };

inline SprtDecision sprt_decision(double llr, const SprtParams& p) {
    if (llr >= p.upper()) return SprtDecision::kH1;
    if (llr <= p.lower()) return SprtDecision::kH0;
    return SprtDecision::kNone;
}

// "elo0=E0 elo1=E1 alpha=A beta=B", tokens separated by spaces or commas, in any order; elo0 and
// elo1 are required, alpha and beta default to 0.05. Throws ParseError naming the bad token.
inline SprtParams parse_sprt(std::string_view text) {
    SprtParams p;
    std::vector<std::string> seen;  // the keys given
    const auto given = [&](std::string_view key) {
        return std::find(seen.begin(), seen.end(), key) != seen.end();
    };
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ' && text[j] != ',') ++j;
        if (j == i) break;
        const std::string token(text.substr(i, j - i));
        i = j;
        const auto eq = token.find('=');
        const std::string key = token.substr(0, eq);
        double* target = key == "elo0"    ? &p.elo0
                         : key == "elo1"  ? &p.elo1
                         : key == "alpha" ? &p.alpha
                         : key == "beta"  ? &p.beta
                                          : nullptr;
        if (!target || eq == std::string::npos)
            throw ParseError(
                fmt::format("unknown token '{}' (want elo0=E0 elo1=E1 alpha=A beta=B)", token));
        if (given(key))
            throw ParseError(fmt::format("'{}' given twice", key));
        seen.push_back(key);
        const std::string value = token.substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !std::isfinite(v))
            throw ParseError(fmt::format("bad value in '{}'", token));
        if ((key == "alpha" || key == "beta") && !(v > 0 && v < 0.5))
            throw ParseError(fmt::format("'{}' out of range (want 0 < {} < 0.5)", token, key));
        *target = v;
    }
    if (!given("elo0") || !given("elo1")) throw ParseError("give both elo0= and elo1=");
    if (!(p.elo1 > p.elo0))
        throw ParseError(fmt::format("elo1 ({}) must be above elo0 ({})", p.elo1, p.elo0));
    return p;
}

}  // namespace dambit::play
