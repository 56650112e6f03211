// The sequential probability ratio test of engine testers (fishtest, fastchess, cutechess-cli):
// after each game pair, is A's Elo advantage over B at least elo1 (H1) or at most elo0 (H0)?
#pragma once

#include <algorithm>
#include <array>
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
    // The samples of the test: game pairs (pentanomial, as fishtest and fastchess test paired
    // openings), or single games (trinomial, as cutechess-cli).
    enum class Model { kPentanomial, kTrinomial } model = Model::kPentanomial;
    const char* model_name() const {
        return model == Model::kPentanomial ? "pentanomial" : "trinomial";
    }

    // Wald's bounds: H0 is accepted at or below `lower`, H1 at or above `upper`.
    double lower() const { return std::log(beta / (1 - alpha)); }
    double upper() const { return std::log((1 - beta) / alpha); }
};

// The expected score of a side rated `elo` above its opponent (the logistic model).
inline double logistic_score(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

// The log-likelihood ratio of H1 against H0 in the GSPRT approximation of Michel Van den Bergh
// (fishtest's): samples of A's score, counts[k] of them scoring x_k = k / (N - 1) (a game: 0,
// 1/2, 1; a pair, per game: 0, 1/4, ..., 1), are taken as normal with the sample's variance, and
// mean s0 under H0 and s1 under H1, where s = logistic_score(elo). With n samples, total score X
// and mean m = X / n,
//     var = sum_k counts[k] (x_k - m)^2 / n,
//     LLR = sum over samples of ((x - s0)^2 - (x - s1)^2) / (2 var)
//         = (s1 - s0) (2 X - n (s0 + s1)) / (2 var).
// Without a sample, or without spread (var = 0: every sample alike), the ratio is 0: no evidence
// either way yet.
template <std::size_t N>
double gsprt_llr(const std::array<int, N>& counts, double elo0, double elo1) {
    const auto x = [](std::size_t k) { return double(k) / double(N - 1); };
    double n = 0, total = 0;
    for (std::size_t k = 0; k < N; ++k) {
        n += counts[k];
        total += counts[k] * x(k);
    }
    if (n <= 0) return 0;
    const double m = total / n;
    double var = 0;
    for (std::size_t k = 0; k < N; ++k) var += counts[k] * (x(k) - m) * (x(k) - m);
    var /= n;
    if (var <= 1e-12) return 0;
    const double s0 = logistic_score(elo0), s1 = logistic_score(elo1);
    return (s1 - s0) * (2 * total - n * (s0 + s1)) / (2 * var);
}

// The trinomial ratio after `wins`, `draws` and `losses` of A, each game a sample.
inline double sprt_llr(int wins, int draws, int losses, double elo0, double elo1) {
    return gsprt_llr<3>({losses, draws, wins}, elo0, elo1);
}

// The pentanomial ratio: `pairs[k]` game pairs in which A scored k/2 points (0, 1/2, ..., 2),
// each pair a sample of A's score per game (k/4). The two games of a pair are not independent
// (an opening that favours one colour gives each side a win), which the trinomial ratio ignores.
inline double sprt_llr_pairs(const std::array<int, 5>& pairs, double elo0, double elo1) {
    return gsprt_llr(pairs, elo0, elo1);
}

enum class SprtDecision { kNone, kH0, kH1 };

inline SprtDecision sprt_decision(double llr, const SprtParams& p) {
    if (llr >= p.upper()) return SprtDecision::kH1;
    if (llr <= p.lower()) return SprtDecision::kH0;
    return SprtDecision::kNone;
}

// "elo0=E0 elo1=E1 alpha=A beta=B model=M", tokens separated by spaces or commas, in any order;
// elo0 and elo1 are required, alpha and beta default to 0.05, the model (`pentanomial` or
// `trinomial`) to pentanomial. Throws ParseError naming the bad token.
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
        if (key == "model" && eq != std::string::npos) {
            if (given(key)) throw ParseError("'model' given twice");
            seen.push_back(key);
            const std::string value = token.substr(eq + 1);
            if (value == "pentanomial")
                p.model = SprtParams::Model::kPentanomial;
            else if (value == "trinomial")
                p.model = SprtParams::Model::kTrinomial;
            else
                throw ParseError(fmt::format(
                    "bad value in '{}' (want model=pentanomial or model=trinomial)", token));
            continue;
        }
        double* target = key == "elo0"    ? &p.elo0
                         : key == "elo1"  ? &p.elo1
                         : key == "alpha" ? &p.alpha
                         : key == "beta"  ? &p.beta
                                          : nullptr;
        if (!target || eq == std::string::npos)
            throw ParseError(
                fmt::format("unknown token '{}' (want elo0=E0 elo1=E1 alpha=A beta=B model=M)", token));
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
