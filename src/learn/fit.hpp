// Texel's method: the weights that minimise the logistic loss between the evaluation and the
// games' results, fitted by Adam over the whole training set at each step.
//
// The evaluation is linear in its parameters (learn/features.hpp): for a row, from White's side,
//   s = scale * (sum of hand[i] * p[i] over the terms but the tempo + the pattern weights)
//       + tempo_sign * p[tempo],
// and the predicted score of White is 1 / (1 + exp(-s / K)). The loss is the mean cross-entropy
// against the target (White's result, 1, 1/2 or 0, mixed with the search's predicted score when
// lambda < 1), plus l2 times the mean square of the pattern weights (of their distance from
// FitSettings::l2_centre when it is given).
//
// The sums run over fixed chunks of rows, each summed in order and the chunks added in order, so
// a fit is the same for any number of threads.
#pragma once

#include <cstdint>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace dambit::learn {

struct FitRows {
    int hand = 0;     // terms per row (the tempo last)
    int windows = 0;  // patterns per row (0: none)
    std::size_t rows = 0;
    std::vector<float> terms;               // rows * hand
    std::vector<std::uint32_t> patterns;    // rows * windows (features.hpp encoding)
    std::vector<float> opening_share;       // per row
    std::vector<float> scale;               // per row
    std::vector<float> target;              // per row: White's expected score
};

struct FitSettings {
    double k = 100;        // the logistic scale, in hundredths of a man
    int epochs = 600;
    double rate = 2.0;     // Adam's step, in hundredths of a man
    // On the pattern weights. The loss is a mean over all positions and a pattern is in few of
    // them, so even 1e-4 held every pattern weight near zero; 0 gave the best held-out loss.
    double l2 = 0;
    // The pattern weights l2 pulls toward (tune --init: the weights fitted before); empty: 0.
    std::vector<double> l2_centre;
    // The parameters l2 applies to end here (tune --init with --strips from weights without
    // them: the new strips have nowhere to be pulled to, and a pull toward 0 held them there).
    std::size_t l2_end = SIZE_MAX;
    bool patterns = true;  // fit the pattern weights (else only the hand-made terms)
    int threads = 1;
};

// The mean cross-entropy of `params` on `rows` (no regularisation).
double fit_loss(const FitRows& rows, const std::vector<double>& params, double k, int threads);

// The K that gives `params` the least loss on `rows` (golden-section search over 10..2000).
double fit_scale(const FitRows& rows, const std::vector<double>& params, int threads);

// Adam's state after `epoch` epochs: with the parameters, all a fit needs to go on where it
// stopped (tune's checkpoint). Empty moments: a fit from the start.
struct FitState {
    int epoch = 0;
    std::vector<double> m, v;  // the first and second moments of the fitted parameters
};

// Fits from `params` (changed in place); `progress(epoch, loss)` after each epoch. With `state`,
// the fit goes on from state->epoch with its moments (fresh ones when they are empty) and keeps
// them there, up to date when `progress` is called: stopped after any epoch and given the same
// parameters and state again, it ends with the same parameters, bit for bit.
void fit(const FitRows& rows, std::vector<double>& params, const FitSettings& settings,
         const std::function<void(int, double)>& progress, FitState* state = nullptr);

}  // namespace dambit::learn
