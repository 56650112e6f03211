// dambit tune: fits the learned evaluation's weights to selfplay data (Texel's method,
// src/learn/fit.hpp) and writes a weights file.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <map>
#include <string>
#include <utility>
#include <unordered_set>

#include <fmt/format.h>
#include <unistd.h>
#include <xxhash.h>

#include "cli.hpp"
#include "commands.hpp"
#include "core/file_io.hpp"
#include "learn/features.hpp"
#include "learn/fit.hpp"
#include "search/weights.hpp"

namespace dambit {

namespace {
namespace tune_cmd {

const char* const kHelp =
    "usage: dambit tune [--variant V] --data FILE[,FILE...] --out WEIGHTS\n"
    "         [--model hand|patterns] [--pattern-step 2|1] [--strips] [--epochs N] [--rate R]\n"
    "         [--l2 X] [--lambda L] [--holdout PCT] [--k K] [--seed S] [--threads T]\n"
    "         [--init WEIGHTS] [--checkpoint-seconds S]\n"
    "\n"
    "Fits the weights of the learned evaluation to the positions of dambit selfplay files by\n"
    "minimising the logistic loss between the evaluation and the games' results (Texel's\n"
    "method), and writes them as a weights file (for --eval, or src/search/weights/ to compile\n"
    "them in). The model 'hand' fits the hand-made terms, three king terms (kings among many\n"
    "men, the first king) and a tempo; 'patterns' (default) adds a weight per 4x4 board\n"
    "region's contents, for the opening and for the ending.\n"
    "The games are split by the seed: PCT percent of them are held out, and the loss of the\n"
    "fitted weights and of the hand-made evaluation on them is printed, each evaluated as the\n"
    "engine evaluates (integer weights). Same data, settings and seed: the same weights,\n"
    "whatever the number of threads.\n"
    "\n"
    "  --variant V     russian (default), czech, brazilian, pool, english, international\n"
    "  --data FILES    selfplay data files of the variant, comma-separated\n"
    "  --out WEIGHTS   the weights file to write (written whole, then renamed)\n"
    "  --model M       hand or patterns (default patterns)\n"
    "  --pattern-step S  the 4x4 windows start every S files and ranks: 2 (default; 9 windows\n"
    "                  on 8x8, 16 on 10x10) or 1 (every window: 25 and 49)\n"
    "  --strips        add Scan 2.0's edge strips to the patterns: the three files at each\n"
    "                  edge over the six ranks from each back rank, 9 squares each\n"
    "  --epochs N      full passes of Adam over the training positions (default 600)\n"
    "  --rate R        Adam's step in hundredths of a man (default 2)\n"
    "  --l2 X          penalty on the mean square of the pattern weights (default 0)\n"
    "  --lambda L      the target: L times the result plus 1 - L times the search's score\n"
    "                  as a predicted result (default 0.25, the strongest in self-play:\n"
    "                  docs/learning.md; 1 is Texel's method on the results alone)\n"
    "  --holdout PCT   percent of the games held out (default 10)\n"
    "  --k K           the logistic scale in hundredths of a man (default: the one that fits\n"
    "                  the hand-made evaluation best on the training positions)\n"
    "  --seed S        which games are held out (default 1)\n"
    "  --threads T     threads for the sums (default 1)\n"
    "  --init WEIGHTS  start from these weights instead of the hand-made ones: 'learned'\n"
    "                  (the compiled-in weights) or a weights file of the variant with the\n"
    "                  same model and windows; --l2 then pulls the patterns toward them, so\n"
    "                  new data refines weights fitted on data no longer at hand\n"
    "  --checkpoint-seconds S  how often the fit saves WEIGHTS.checkpoint (default 60)\n"
    "\n"
    "Interrupted (Ctrl-C, kill, the terminal closed), the fit saves WEIGHTS.checkpoint after the\n"
    "epoch under way and exits with status 130; the same command goes on from there and ends\n"
    "with the weights an uninterrupted fit gives (a kill -9 loses the epochs since the last\n"
    "save). Another fit's checkpoint at that name is an error, not overwritten.\n";

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

struct Interrupted {
    int epoch;
};

// The fit's checkpoint, OUT.checkpoint: the run it belongs to (an XXH64 of its settings text),
// the epochs done, the parameters and Adam's moments, the settings text (KEY=VALUE,...: the
// settings that change the fit, the positions as the fit sees them and the starting weights by
// their XXH64), then an XXH64 of all that. Replaced whole (written to FILE.tmp, renamed).
// Version 1 (before 2026-12-07) had no settings text and another digest for its run: refused as
// an earlier dambit's.
constexpr char kCheckpointMagic[] = "dambit-tune-checkpoint 2\n";
constexpr char kCheckpointMagic1[] = "dambit-tune-checkpoint 1\n";

struct Checkpoint {
    std::uint64_t run = 0;
    std::string settings;
    std::vector<double> params;
    learn::FitState state;
};

std::string checkpoint_bytes(const Checkpoint& c) {
    std::string out(kCheckpointMagic);
    file_io::put(out, c.run);
    file_io::put(out, std::int64_t(c.state.epoch));
    file_io::put(out, std::uint64_t(c.params.size()));
    file_io::put(out, std::uint64_t(c.state.m.size()));
    for (const auto* v : {&c.params, &c.state.m, &c.state.v})
        out.append(reinterpret_cast<const char*>(v->data()), v->size() * sizeof(double));
    file_io::put(out, std::uint64_t(c.settings.size()));
    out += c.settings;
    file_io::put(out, std::uint64_t(XXH64(out.data(), out.size(), 0)));
    return out;
}

// The checkpoint at `path` of run `run`, or nullopt when there is none; one of another run, or
// damaged, is an error naming it (it would be overwritten).
std::optional<Checkpoint> read_checkpoint(const std::string& path, std::uint64_t run,
                                          const std::string& settings, std::size_t params) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return std::nullopt;
    std::string b;
    try {  // a directory or a file without read permission in its place: the user's to mend
        b = file_io::read_all(path, "tune checkpoint");
    } catch (const std::runtime_error& e) {
        throw cli::UsageError(e.what());
    }
    const std::size_t head = sizeof kCheckpointMagic - 1;
    const auto fail = [&](const std::string& why) {
        return cli::UsageError("tune checkpoint '" + path + "': " + why +
                               "; remove it to fit from the start");
    };
    const bool version1 = b.compare(0, head, kCheckpointMagic1) == 0;
    if ((b.compare(0, head, kCheckpointMagic) != 0 && !version1) || b.size() < head + 40)
        throw fail("not a dambit tune checkpoint");
    if (file_io::get<std::uint64_t>(b.data() + b.size() - 8) != XXH64(b.data(), b.size() - 8, 0))
        throw fail("damaged: its checksum does not match");
    // Version 1's run was a digest of other bytes: never this fit's.
    if (version1) throw fail("of an earlier dambit (checkpoint version 1), which this one cannot resume");
    Checkpoint c;
    c.run = file_io::get<std::uint64_t>(b.data() + head);
    const auto epoch = file_io::get<std::int64_t>(b.data() + head + 8);
    const auto n = file_io::get<std::uint64_t>(b.data() + head + 16);
    const auto fitted = file_io::get<std::uint64_t>(b.data() + head + 24);
    // The arrays' end, where the settings text begins.
    const std::uint64_t arrays = head + 32 + (n + 2 * std::min(fitted, n)) * sizeof(double);
    if (fitted > n || n > b.size() || epoch < 0 || b.size() < arrays + 16) throw fail("damaged");
    const auto length = file_io::get<std::uint64_t>(b.data() + arrays);
    if (b.size() != arrays + 16 + length) throw fail("damaged");
    c.settings.assign(b.data() + arrays + 8, length);
    if (c.run != run || n != params)
        throw fail(c.settings == settings
                       ? "of another fit (other data, settings or starting weights)"
                       : "of another fit (" + settings_change(c.settings, settings) + ")");
    const char* at = b.data() + head + 32;
    for (auto* v : {&c.params, &c.state.m, &c.state.v}) {
        v->resize(v == &c.params ? n : fitted);
        std::memcpy(v->data(), at, v->size() * sizeof(double));
        at += v->size() * sizeof(double);
    }
    c.state.epoch = int(epoch);
    return c;
}

template <class R>
int run(const cli::Args& args) {
    using G = typename R::Geometry;
    // The windows' layout, a run-time value here: only the features and the tables' expansion
    // depend on it (each layout compiled once, not the whole command twice).
    const int step = int(args.get_int("pattern-step", 2, 1, 2));
    const int windows = step == 2 ? search::PatternLayout<G, 2>::kWindows
                                  : search::PatternLayout<G, 1>::kWindows;
    using Strips = search::StripLayout<G>;
    const bool strips = args.has("strips");
    // Patterns a row has: the windows, then the strips.
    const int regions = windows + (strips ? Strips::kCount : 0);
    const std::size_t window_params = std::size_t(windows) * search::kPatternIndices * 2;
    const auto data = args.get("data");
    const auto out = args.get("out");
    if (!data || !out) throw cli::UsageError("tune needs --data FILES and --out WEIGHTS");
    const std::string model = args.get_or("model", "patterns");
    if (model != "hand" && model != "patterns")
        throw cli::UsageError("unknown --model '" + model + "' (hand or patterns)");
    if (strips && model != "patterns") throw cli::UsageError("--strips needs --model patterns");
    if (args.has("pattern-step") && model != "patterns")
        throw cli::UsageError("--pattern-step needs --model patterns");
    learn::FitSettings fs;
    fs.patterns = model == "patterns";
    fs.epochs = int(args.get_int("epochs", fs.epochs, 0, 1000000));
    fs.rate = args.get_double("rate", fs.rate, 1e-6, 1e6);
    fs.l2 = args.get_double("l2", fs.l2, 0, 1e6);
    fs.threads = int(args.get_int("threads", 1, 1, 256));
    const double every = args.get_double("checkpoint-seconds", 60, 0, 1e9);  // between saves
    const double lambda = args.get_double("lambda", 0.25, 0, 1);
    const double k_given = args.get_double("k", 0, 0.01, 1e6);
    const auto holdout_pct = args.get_int("holdout", 10, 0, 90);
    const auto seed = std::uint64_t(args.get_int("seed", 1, 0, INT64_MAX));

    // --init: checked before the data is read.
    std::string init_note;
    std::shared_ptr<const search::LearnedWeights> iw;
    if (const auto init = args.get("init")) {
        try {
            iw = search::weights_for(*init, R::kName);  // read and checked for the variant
            if (!iw) throw std::runtime_error("--init '" + *init + "' names no weights");
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(e.what());
        }
        // (--model hand with pattern weights would drop them from the file it writes.)
        if (iw->windows != (fs.patterns ? windows : 0))
            throw cli::UsageError(fmt::format(
                "{}: {} pattern windows, the fit has {} (--model, --pattern-step)", *init,
                iw->windows, fs.patterns ? windows : 0));
        // Strips may be added to weights without them (they start at 0), not dropped.
        if (iw->strips && !strips)
            throw cli::UsageError(fmt::format("{}: has edge strips, the fit has none (--strips)",
                                              *init));
        init_note = fmt::format(" --init {}", *init);
    }

    // --out: where the weights will go must take a file now, not after the fit; not a data file
    // (it would be replaced by the weights); and no other fit writes it meanwhile (the lock).
    const std::string out_path = cli::output_file("out", *out);
    std::error_code ec;
    for (const auto& name : notation_detail::split(*data, ',')) {
        if (name.empty()) throw cli::UsageError("empty file name in --data '" + *data + "'");
        if (std::filesystem::equivalent(std::string(name), out_path, ec) ||
            std::string(name) == *out)
            throw cli::UsageError("--out " + *out + ": is the data file '" + std::string(name) +
                                  "' (the weights would replace it)");
    }
    // An existing file is replaced only when it holds weights (the last round of a fit): a file
    // of anything else (self-play data of hours, a book) is not the user's target.
    if (std::filesystem::is_regular_file(out_path, ec)) {
        char magic[8] = {};
        std::FILE* f = std::fopen(out_path.c_str(), "rb");
        const bool weights = f && std::fread(magic, 1, sizeof magic, f) == sizeof magic &&
                             std::string_view(magic, sizeof magic) == search::kWeightsMagic;
        if (f) std::fclose(f);
        if (!weights)
            throw cli::UsageError("--out " + *out +
                                  ": exists and is not a weights file; it is not replaced");
    }
    const auto out_lock = cli::lock_tmp("out", out_path);
    struct EmptyTmp {  // the lock's empty OUT.tmp, removed if the fit fails (before the unlock)
        std::string path;
        ~EmptyTmp() {
            std::error_code e;
            if (std::filesystem::file_size(path, e) == 0 && !e) std::filesystem::remove(path, e);
        }
    } empty_tmp{out_path + ".tmp"};

    // The positions, each once (the first file that has it keeps it).
    std::vector<learn::Sample> train, held;
    std::unordered_set<std::uint64_t> seen;
    std::size_t file_index = 0, total = 0;
    std::string sources;
    std::map<std::pair<std::uint64_t, std::string>, std::string> made_by;  // (seed, settings): file
    for (const auto& name : notation_detail::split(*data, ',')) {
        const std::string path(name);
        learn::DataFile d;
        try {
            d = learn::read_data(path);
        } catch (const std::runtime_error& e) {
            throw cli::UsageError(e.what());
        }
        if (d.header.variant != R::kName)
            throw cli::UsageError(fmt::format("{}: data of {}, not {}", path, d.header.variant,
                                              R::kName));
        // selfplay is deterministic: the same seed and settings make the same file.
        if (const auto [it, added] = made_by.emplace(std::pair{d.header.seed, d.header.settings}, path);
            !added)
            throw cli::UsageError(fmt::format(
                "{}: the same data as {} (seed {}, {}); make it again with another --seed",
                path, it->second, d.header.seed, d.header.settings));
        // By its file name, not the path as typed: `d.dat`, `./d.dat` and `/abs/d.dat` give the
        // same weights file, byte for byte (its checksum names the evaluation elsewhere).
        sources += fmt::format("{}{} ({} games, {}, seed {})", sources.empty() ? "" : "; ",
                               std::filesystem::path(path).filename().string(), d.games,
                               d.header.settings, d.header.seed);
        for (const auto& x : d.samples) {
            // The checksums pass for any bytes a program wrote: each record must be a position.
            if (const char* bad = learn::invalid_sample<typename R::Geometry>(x))
                throw cli::UsageError(fmt::format("{}: record {} (game {}): {}", path,
                                                  &x - d.samples.data(), x.game, bad));
            ++total;
            if (!seen.insert(position_key(learn::position_of<R>(x))).second) continue;
            learn::SplitMix h{seed ^ (std::uint64_t(file_index) << 40) ^ x.game};
            (std::int64_t(h.next() % 100) < holdout_pct ? held : train).push_back(x);
        }
        ++file_index;
    }
    if (train.empty()) throw cli::UsageError("no training positions in " + *data);

    const search::EvalWeights hand = search::eval_weights<R>();
    const auto rows_of = [&](const std::vector<learn::Sample>& samples, double k) {
        learn::FitRows f;
        f.hand = learn::kHandParams;
        f.windows = fs.patterns ? regions : 0;
        f.rows = samples.size();
        f.terms.resize(f.rows * std::size_t(f.hand));
        f.patterns.resize(f.rows * std::size_t(regions));
        f.opening_share.resize(f.rows);
        f.scale.resize(f.rows);
        f.target.resize(f.rows);
        for (std::size_t r = 0; r < f.rows; ++r) {
            const auto& x = samples[r];
            const Position<R> p = learn::position_of<R>(x);
            float* terms = &f.terms[r * std::size_t(f.hand)];
            std::uint32_t* patterns = &f.patterns[r * std::size_t(regions)];
            if (step == 2)
                learn::position_features<R, 2>(p, hand, terms, patterns, f.opening_share[r],
                                               f.scale[r], strips);
            else
                learn::position_features<R, 1>(p, hand, terms, patterns, f.opening_share[r],
                                               f.scale[r], strips);
            const double result = (x.result + 1) / 2.0;
            const double score_white = x.side == 0 ? x.score : -x.score;
            f.target[r] = float(lambda * result + (1 - lambda) * sigmoid(score_white / k));
        }
        if (!fs.patterns) f.patterns.clear();
        return f;
    };

    std::vector<double> params(std::size_t(learn::kHandParams) +
                               (fs.patterns ? window_params : 0) +
                               (strips ? std::size_t(Strips::kCount) * Strips::kIndices * 2 : 0));
    search::LearnedWeights start_weights;
    start_weights.hand = hand;
    const auto start = learn::hand_params(start_weights);
    std::copy(start.begin(), start.end(), params.begin());
    // K from the hand-made weights on results alone (the target's mix needs K first).
    double k = k_given;  // 0: not given, found below
    if (k == 0) {
        learn::FitRows plain = rows_of(train, 100);
        if (lambda != 1.0)
            for (std::size_t r = 0; r < plain.rows; ++r)
                plain.target[r] = float((train[r].result + 1) / 2.0);
        k = learn::fit_scale(plain, params, fs.threads);
    }
    fs.k = k;
    // The starting weights (K stays the hand-made evaluation's, as without --init).
    if (iw) {
        const auto p0 = learn::hand_params(*iw);
        std::copy(p0.begin(), p0.end(), params.begin());
        if (fs.patterns) {
            // The canonical weights of a layout whose parameters start `base` after the terms.
            const auto set_from = [&](std::size_t base) {
                return [&params, base](std::uint32_t c, int ph, int v) {
                    params[std::size_t(learn::kHandParams) + base + c * 2 + std::size_t(ph)] = v;
                };
            };
            if (step == 2)
                learn::canonical_weights<G, 2>(iw->patterns, set_from(0));
            else
                learn::canonical_weights<G, 1>(iw->patterns, set_from(0));
            if (iw->strips)
                learn::canonical_region_weights<Strips>(iw->strip_patterns,
                                                        set_from(window_params));
            fs.l2_centre = params;
            if (strips && !iw->strips) fs.l2_end = std::size_t(learn::kHandParams) + window_params;
        }
    }
    const learn::FitRows rows = rows_of(train, k);
    // The run's identity, for its checkpoint: the settings that change the fit (not --epochs: a
    // fit goes on to as many as asked), the positions as the fit sees them, the starting weights.
    // The positions and the starting weights by their XXH64, so that a refusal names which
    // changed; the run is the XXH64 of the whole text.
    const auto digest = [](std::initializer_list<std::pair<const void*, std::size_t>> parts) {
        XXH64_state_t* h = XXH64_createState();
        XXH64_reset(h, 0);
        for (const auto& [bytes_at, size] : parts) XXH64_update(h, bytes_at, size);
        const std::uint64_t d = XXH64_digest(h);
        XXH64_freeState(h);
        return fmt::format("xxh64:{:016x}", d);
    };
    const auto bytes = [](const auto& v) {
        return std::pair<const void*, std::size_t>{v.data(), v.size() * sizeof(v[0])};
    };
    Checkpoint ck;
    ck.settings = fmt::format(
        "variant={},model={},pattern-step={},strips={},rate={},l2={},l2-end={},lambda={},"
        "holdout={},seed={},k={},positions={},init={}",
        R::kName, model, step, strips ? "on" : "off", fs.rate, fs.l2, fs.l2_end, lambda,
        holdout_pct, seed, k,
        digest({bytes(rows.terms), bytes(rows.patterns), bytes(rows.opening_share),
                bytes(rows.scale), bytes(rows.target)}),
        digest({bytes(params), bytes(fs.l2_centre)}));
    ck.run = XXH64(ck.settings.data(), ck.settings.size(), 0);
    const std::string ck_path = out_path + ".checkpoint";
    // Read (and so refused, if it is another fit's) before anything is printed.
    std::optional<Checkpoint> resume = read_checkpoint(ck_path, ck.run, ck.settings, params.size());
    if (resume && resume->state.epoch > fs.epochs)  // its weights are not a fit of fewer epochs
        throw cli::UsageError(fmt::format(
            "tune checkpoint '{}': {} epochs done, more than --epochs {}; give at least {}, or "
            "remove it to fit from the start",
            ck_path, resume->state.epoch, fs.epochs, resume->state.epoch));
    fmt::print("variant {}: {} positions read, {} distinct: {} to fit, {} held out ({}% of the "
               "games, seed {})\n",
               R::kName, total, seen.size(), train.size(), held.size(), holdout_pct, seed);
    fmt::print("model {}: {} parameters; K = {:.1f}; loss of the {} weights on the fit set "
               "{:.6f}\n",
               model, params.size(), k, iw ? "starting" : "hand-made",
               learn::fit_loss(rows, params, k, fs.threads));

    if (resume) {
        ck = std::move(*resume);
        params = ck.params;
        cli::eprint("tune: going on from epoch {} ({})\n", ck.state.epoch, ck_path);
    }
    const auto save = [&] {
        ck.params = params;
        try {
            file_io::replace_file(ck_path, checkpoint_bytes(ck));
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(std::string("checkpoint: ") + e.what());
        }
    };
    // Ctrl-C, kill or a closed terminal: the checkpoint is saved after the epoch under way and
    // the fit stops (exit status 130); the same command goes on from there.
    cli::catch_stop_signals();

    const bool terminal = cli::progress_terminal();
    const auto t0 = std::chrono::steady_clock::now();
    auto last_save = t0;
    try {
        learn::fit(rows, params, fs, [&](int epoch, double loss) {
            if (epoch % 25 == 0 || epoch == fs.epochs)
                cli::eprint("{}epoch {} loss {:.6f}{}", terminal ? "\r" : "", epoch, loss,
                           terminal ? "   " : "\n");
            const auto now = std::chrono::steady_clock::now();
            const bool stop = cli::stop_requested();
            if (stop || (epoch < fs.epochs &&
                         std::chrono::duration<double>(now - last_save).count() >= every)) {
                save();
                last_save = now;
            }
            if (stop) throw Interrupted{epoch};
        }, &ck.state);
    } catch (const Interrupted& i) {
        if (terminal) std::fputs("\n", stderr);
        cli::eprint("dambit tune: interrupted after epoch {} of {}; the same command goes on "
                   "from there ({})\n", i.epoch, fs.epochs, ck_path);
        return 130;
    }
    if (terminal) std::fputs("\n", stderr);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    // The weights as the engine will use them: integers, the patterns' pairs written out.
    search::LearnedWeights w;
    w.variant = std::string(R::kName);
    w.hand = hand;
    learn::set_hand_params(params.data(), w);
    if (fs.patterns) {
        w.windows = windows;
        const auto value = [&](std::uint32_t c, int ph) {
            const double v = params[std::size_t(learn::kHandParams) + c * 2 + std::size_t(ph)];
            return int(std::clamp(std::lround(v), -30000L, 30000L));
        };
        w.patterns = step == 2 ? learn::expanded_patterns<G, 2>(value)
                               : learn::expanded_patterns<G, 1>(value);
        if (strips) {
            w.strips = Strips::kCount;
            w.strip_patterns = learn::expanded_regions<Strips>([&](std::uint32_t c, int ph) {
                return value(std::uint32_t(window_params / 2) + c, ph);
            });
        }
    }
    // The held-out loss, each evaluation as the engine computes it, against the target (`mix`:
    // the lambda of the fit) or against the results alone (mix 1).
    const auto held_loss = [&](const search::Evaluator<R>& e, double mix) {
        double sum = 0;
        for (const auto& x : held) {
            const Position<R> p = learn::position_of<R>(x);
            const double s = e.evaluate(p);
            const double target = mix * (x.result + 1) / 2.0 +
                                  (1 - mix) * sigmoid((x.side == 0 ? x.score : -x.score) / k);
            const double pred = sigmoid((x.side == 0 ? s : -s) / k);
            sum -= target * std::log(std::max(pred, 1e-12)) +
                   (1 - target) * std::log(std::max(1 - pred, 1e-12));
        }
        return held.empty() ? std::nan("") : sum / double(held.size());
    };
    const search::HandEvaluator<R> hand_eval;
    const search::LearnedEvaluator<R> fitted_eval(w);
    const double loss_hand = held_loss(hand_eval, lambda);
    const double loss_fit = held_loss(fitted_eval, lambda);
    const double result_hand = held_loss(hand_eval, 1.0);
    const double result_fit = held_loss(fitted_eval, 1.0);
    w.description = fmt::format(
        "dambit tune --model {}{}{} --epochs {} --rate {} --l2 {} --lambda {} --holdout {} "
        "--seed {}{} (K {:.1f}) on {}: {} positions fitted, {} held out; {}",
        model, step == 2 ? "" : " --pattern-step 1", strips ? " --strips" : "", fs.epochs, fs.rate,
        fs.l2, lambda, holdout_pct, seed, init_note, k, sources, train.size(), held.size(),
        held.empty() ? std::string("no held-out loss")
                     : fmt::format("held-out loss {:.6f} (hand-made {:.6f}), against the results "
                                   "alone {:.6f} (hand-made {:.6f})",
                                   loss_fit, loss_hand, result_fit, result_hand));
    // Weights every loader would refuse (a weight beyond a hundred men: a --rate too large makes
    // the fit diverge) are not written: the loaders' own checks decide. The checkpoint goes too,
    // so that the same command with a smaller rate starts afresh instead of being refused.
    try {
        (void)search::parse_weights(search::weights_bytes(w), *out);
    } catch (const std::runtime_error& e) {
        std::remove(ck_path.c_str());
        throw std::runtime_error(fmt::format("the fit diverged: {}; nothing written (a smaller "
                                             "--rate may help)",
                                             e.what()));
    }
    try {
        search::write_weights_file(*out, w);
    } catch (const std::runtime_error& e) {
        throw cli::UsageError(e.what());
    }
    std::remove(ck_path.c_str());  // the weights are whole: nothing to go on from
    fmt::print("fitted in {:.1f} s; fit-set loss {:.6f}\n", secs,
               learn::fit_loss(rows, params, k, fs.threads));
    if (held.empty()) {
        fmt::print("held-out loss: none (no position held out: --holdout {})\n", holdout_pct);
    } else {
        fmt::print("held-out loss: fitted {:.6f}, hand-made {:.6f} ({} positions)\n", loss_fit,
                   loss_hand, held.size());
        fmt::print("held-out loss against the results alone: fitted {:.6f}, hand-made {:.6f}\n",
                   result_fit, result_hand);
    }
    double loss_start = loss_hand;
    if (iw && !held.empty()) {
        const search::LearnedEvaluator<R> start_eval(*iw);
        loss_start = held_loss(start_eval, lambda);
        fmt::print("held-out loss of the starting weights: {:.6f}, against the results alone "
                   "{:.6f}\n",
                   loss_start, held_loss(start_eval, 1.0));
    }
    // A fit that predicts unseen positions worse than where it started is over-fitted (too
    // little data for the parameters) or badly set: the weights are written, but said so.
    if (!held.empty() && loss_fit > loss_start)
        cli::eprint("dambit tune: warning: the fitted weights predict the held-out positions worse "
                    "than the {} ones ({:.6f} against {:.6f}): more data, fewer parameters "
                    "(--model hand) or a larger --l2 may help\n",
                    iw ? "starting" : "hand-made", loss_fit, loss_start);
    fmt::print("man {} king {} tempo {}; weights written to {}\n", w.hand.man, w.hand.king,
               w.tempo, *out);
    return 0;
}

}  // namespace tune_cmd
}  // namespace

int tune_command(int argc, char** argv) {
    using namespace tune_cmd;  // this file's helpers (the files build as one unit)
    const cli::Args args(argc, argv,
                         {"variant", "data", "out", "model", "pattern-step", "epochs", "rate", "l2",
                          "lambda", "holdout", "k", "seed", "threads", "init",
                          "checkpoint-seconds"},
                         {"help", "strips"});
    return cli::run_for_variant(args, kHelp, [&]<class R>() { return run<R>(args); });
}

}  // namespace dambit
