#include "learn/fit.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "core/threads.hpp"

namespace dambit::learn {

namespace {

constexpr int kChunks = 32;

// Row r's linear evaluation s (White's side).
inline double row_score(const FitRows& f, std::size_t r, const double* p) {
    const float* t = &f.terms[r * std::size_t(f.hand)];
    double lin = 0;
    for (int i = 0; i + 1 < f.hand; ++i) lin += double(t[i]) * p[i];
    if (f.windows) {
        const double open = f.opening_share[r], end = 1.0 - open;
        const double* pat = p + f.hand;
        const std::uint32_t* e = &f.patterns[r * std::size_t(f.windows)];
        for (int w = 0; w < f.windows; ++w) {
            if (e[w] == 0xffffffffu) continue;
            const double* q = pat + std::size_t(e[w] >> 1) * 2;
            const double v = open * q[0] + end * q[1];
            lin += (e[w] & 1) ? -v : v;
        }
    }
    return double(f.scale[r]) * lin + double(t[f.hand - 1]) * p[f.hand - 1];
}

inline double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

inline double cross_entropy(double pred, double target) {
    constexpr double eps = 1e-12;
    return -(target * std::log(std::max(pred, eps)) +
             (1 - target) * std::log(std::max(1 - pred, eps)));
}

// Runs body(chunk, begin, end) for every chunk, on `threads` threads.
template <class F>
void for_chunks(std::size_t rows, int threads, F&& body) {
    std::atomic<int> next{0};
    auto work = [&] {
        for (int c; (c = next++) < kChunks;)
            body(c, rows * std::size_t(c) / kChunks, rows * std::size_t(c + 1) / kChunks);
    };
    Workers pool(threads - 1, "tune", 1, [&](std::size_t) { work(); });
    work();
    pool.join();
}

}  // namespace

double fit_loss(const FitRows& f, const std::vector<double>& params, double k, int threads) {
    std::vector<double> sums(kChunks, 0.0);
    for_chunks(f.rows, threads, [&](int c, std::size_t b, std::size_t e) {
        double s = 0;
        for (std::size_t r = b; r < e; ++r)
            s += cross_entropy(sigmoid(row_score(f, r, params.data()) / k), f.target[r]);
        sums[std::size_t(c)] = s;
    });
    double total = 0;
    for (double s : sums) total += s;
    return f.rows ? total / double(f.rows) : 0.0;
}

double fit_scale(const FitRows& f, const std::vector<double>& params, int threads) {
    double lo = 10, hi = 2000;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = fit_loss(f, params, a, threads), fb = fit_loss(f, params, b, threads);
    for (int i = 0; i < 40; ++i) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - g * (hi - lo);
            fa = fit_loss(f, params, a, threads);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + g * (hi - lo);
            fb = fit_loss(f, params, b, threads);
        }
    }
    return (lo + hi) / 2;
}

void fit(const FitRows& f, std::vector<double>& params, const FitSettings& s,
         const std::function<void(int, double)>& progress, FitState* state) {
    const std::size_t n = params.size();
    const std::size_t fitted = s.patterns ? n : std::size_t(f.hand);
    std::vector<std::vector<double>> grads(kChunks, std::vector<double>(fitted));
    std::vector<double> loss(kChunks);
    FitState own;
    FitState& st = state ? *state : own;
    if (st.m.size() != fitted || st.v.size() != fitted) {
        st = FitState{};
        st.m.assign(fitted, 0.0);
        st.v.assign(fitted, 0.0);
    }
    std::vector<double>&m = st.m, &v = st.v;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double inv_rows = f.rows ? 1.0 / double(f.rows) : 0.0;
    for (int epoch = st.epoch + 1; epoch <= s.epochs; ++epoch) {
        for_chunks(f.rows, s.threads, [&](int c, std::size_t b, std::size_t e) {
            auto& g = grads[std::size_t(c)];
            std::fill(g.begin(), g.end(), 0.0);
            double l = 0;
            for (std::size_t r = b; r < e; ++r) {
                const double pred = sigmoid(row_score(f, r, params.data()) / s.k);
                l += cross_entropy(pred, f.target[r]);
                const double d = (pred - f.target[r]) / s.k;  // d loss / d s
                const double ds = d * f.scale[r];
                const float* t = &f.terms[r * std::size_t(f.hand)];
                for (int i = 0; i + 1 < f.hand; ++i) g[std::size_t(i)] += ds * t[i];
                g[std::size_t(f.hand - 1)] += d * t[f.hand - 1];
                if (!s.patterns || !f.windows) continue;
                const double open = f.opening_share[r], end = 1.0 - open;
                const std::uint32_t* pe = &f.patterns[r * std::size_t(f.windows)];
                for (int w = 0; w < f.windows; ++w) {
                    if (pe[w] == 0xffffffffu) continue;
                    const double sign = (pe[w] & 1) ? -ds : ds;
                    double* q = &g[std::size_t(f.hand) + std::size_t(pe[w] >> 1) * 2];
                    q[0] += sign * open;
                    q[1] += sign * end;
                }
            }
            loss[std::size_t(c)] = l;
        });
        double total = 0;
        for (double l : loss) total += l;
        const double c1 = 1 - std::pow(b1, epoch), c2 = 1 - std::pow(b2, epoch);
        for (std::size_t i = 0; i < fitted; ++i) {
            double g = 0;
            for (int c = 0; c < kChunks; ++c) g += grads[std::size_t(c)][i];
            g *= inv_rows;
            if (i >= std::size_t(f.hand) && i < s.l2_end)
                g += 2 * s.l2 * (params[i] - (s.l2_centre.empty() ? 0.0 : s.l2_centre[i]));
            m[i] = b1 * m[i] + (1 - b1) * g;
            v[i] = b2 * v[i] + (1 - b2) * g * g;
            params[i] -= s.rate * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
        }
        st.epoch = epoch;
        if (progress) progress(epoch, total * inv_rows);
    }
}

}  // namespace dambit::learn
