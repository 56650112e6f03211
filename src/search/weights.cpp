#include "search/weights.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <xxhash.h>

#include "core/file_io.hpp"

namespace dambit::search {

namespace {

constexpr std::size_t kNameBytes = 16;

// The hand-made weights and the tempo in the file's order.
std::vector<int*> hand_fields(EvalWeights& h, int& tempo) {
    std::vector<int*> f = {&h.man, &h.king};
    for (auto& v : h.advance_opening) f.push_back(&v);
    for (auto& v : h.advance_ending) f.push_back(&v);
    for (int* v : {&h.centre, &h.flank_imbalance, &h.back_rank, &h.back_rank_max}) f.push_back(v);
    for (auto& v : h.runaway) f.push_back(&v);
    for (int* v : {&h.king_mobility, &h.long_diagonal, &h.draw_scale, &tempo}) f.push_back(v);
    return f;
}

// The king terms that version 2 added after the hand-made weights (version 1 files have none:
// they are 0).
std::vector<int*> king_fields(LearnedWeights& w) {
    return {&w.king_opening, &w.sole_king_opening, &w.sole_king_ending};
}

class Reader {
public:
    Reader(std::string_view bytes, const std::string& source) : b_(bytes), source_(source) {}
    template <class T>
    T get(const char* what) {
        T v;
        need(sizeof v, what);
        std::memcpy(&v, b_.data() + at_, sizeof v);
        at_ += sizeof v;
        return v;
    }
    std::string_view take(std::size_t n, const char* what) {
        need(n, what);
        const auto s = b_.substr(at_, n);
        at_ += n;
        return s;
    }
    std::size_t at() const { return at_; }

private:
    void need(std::size_t n, const char* what) {
        if (b_.size() - at_ < n)
            throw std::runtime_error(fmt::format("{}: truncated weights file (ends in the {})",
                                                 source_, what));
    }
    std::string_view b_;
    const std::string& source_;
    std::size_t at_ = 0;
};

template <class T>
void put(std::string& out, T v) {
    char bytes[sizeof v];
    std::memcpy(bytes, &v, sizeof v);
    out.append(bytes, sizeof v);
}

// Refuses a hand-made or king weight (the `field`-th as the file stores them) beyond the bound.
void check_weight(int value, int field, const std::string& source) {
    if (value < -kMaxStatic || value > kMaxStatic)
        throw std::runtime_error(fmt::format(
            "{}: weight {} of the hand-made and king terms is {}, beyond +-{} (a hundred men)",
            source, field, value, kMaxStatic));
}

}  // namespace

LearnedWeights parse_weights(std::string_view bytes, const std::string& source) {
    Reader r(bytes, source);
    if (r.take(kWeightsMagic.size(), "magic") != kWeightsMagic)
        throw std::runtime_error(fmt::format("{}: not a dambit weights file", source));
    const auto version = r.get<std::uint32_t>("version");
    if (version < 1 || version > kWeightsVersion)
        throw std::runtime_error(
            fmt::format("{}: weights file version {}, this dambit reads 1 to {}", source, version,
                        kWeightsVersion));
    // Whether the file ends in the checksum of the rest: a count damaged by a flipped bit is
    // then said to be damage, not taken for a size (a window count of 2^31 + 9 was read as a
    // negative size).
    std::uint64_t stored = 0;
    if (bytes.size() >= sizeof stored)
        std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);
    const bool intact = bytes.size() >= sizeof stored &&
                        stored == XXH64(bytes.data(), bytes.size() - sizeof stored, 0);
    const auto damaged = [&] {
        return std::runtime_error(fmt::format("{}: weights file checksum mismatch", source));
    };
    LearnedWeights w;
    const auto name = r.take(kNameBytes, "variant name");
    w.variant = std::string(name.substr(0, std::min(name.find('\0'), name.size())));
    const auto fields = hand_fields(w.hand, w.tempo);
    for (int* f : fields) *f = r.get<std::int32_t>("hand-made weights");
    if (version >= 2)
        for (int* f : king_fields(w)) *f = r.get<std::int32_t>("king weights");
    // Each term's weight within a hundred men (tempo included): then no sum of the evaluation
    // can overflow, however many pieces a term counts.
    int field = 0;
    const auto bounded = [&](int value) {
        if (!intact && (value < -kMaxStatic || value > kMaxStatic)) throw damaged();
        check_weight(value, field++, source);
    };
    for (int* f : fields) bounded(*f);
    for (int* f : king_fields(w)) bounded(*f);
    const auto windows = r.get<std::uint32_t>("window count");
    const auto indices = r.get<std::uint32_t>("index count");
    if (windows > 64 || (windows && indices != kPatternIndices)) {
        if (!intact) throw damaged();
        throw std::runtime_error(
            fmt::format("{}: {} windows of {} indices, expected at most 64 windows of {} indices",
                        source, windows, indices, kPatternIndices));
    }
    w.windows = int(windows);
    if (version >= 3) {
        const auto strips = r.get<std::uint32_t>("strip count");
        const auto strip_indices = r.get<std::uint32_t>("strip index count");
        if (strips > std::uint32_t(kStrips) || (strips && strip_indices != kStripIndices)) {
            if (!intact) throw damaged();
            throw std::runtime_error(fmt::format(
                "{}: {} strips of {} indices, expected at most {} strips of {} indices", source,
                strips, strip_indices, kStrips, kStripIndices));
        }
        w.strips = int(strips);
    }
    const auto length = r.get<std::uint32_t>("description length");
    if (!intact && length > bytes.size() - r.at()) throw damaged();  // a count, damaged
    w.description = std::string(r.take(length, "description"));
    w.patterns.resize(std::size_t(w.windows) * kPatternIndices * 2);
    for (auto& v : w.patterns) v = r.get<std::int16_t>("pattern weights");
    w.strip_patterns.resize(std::size_t(w.strips) * kStripIndices * 2);
    for (auto& v : w.strip_patterns) v = r.get<std::int16_t>("strip weights");
    const std::size_t body = r.at();
    const auto sum = r.get<std::uint64_t>("checksum");
    if (sum != XXH64(bytes.data(), body, 0)) throw damaged();
    if (r.at() != bytes.size())
        throw std::runtime_error(fmt::format("{}: {} bytes after the checksum", source,
                                             bytes.size() - r.at()));
    return w;
}

std::string weights_bytes(const LearnedWeights& w) {
    std::string out(kWeightsMagic);
    put(out, kWeightsVersion);
    std::string name = w.variant;
    name.resize(kNameBytes, '\0');
    out += name;
    LearnedWeights copy = w;
    for (int* f : hand_fields(copy.hand, copy.tempo)) put(out, std::int32_t(*f));
    for (int* f : king_fields(copy)) put(out, std::int32_t(*f));
    put(out, std::uint32_t(w.windows));
    put(out, std::uint32_t(w.windows ? kPatternIndices : 0));
    put(out, std::uint32_t(w.strips));
    put(out, std::uint32_t(w.strips ? kStripIndices : 0));
    put(out, std::uint32_t(w.description.size()));
    out += w.description;
    for (auto v : w.patterns) put(out, v);
    for (auto v : w.strip_patterns) put(out, v);
    put(out, std::uint64_t(XXH64(out.data(), out.size(), 0)));
    return out;
}

LearnedWeights read_weights_file(const std::string& path) {
    return parse_weights(file_io::read_all(path, "weights file"), path);
}

void write_weights_file(const std::string& path, const LearnedWeights& w) {
    file_io::replace_file(path, weights_bytes(w));
}

const LearnedWeights* builtin_weights(std::string_view variant) {
    static std::mutex mutex;
    static std::map<std::string, LearnedWeights, std::less<>> parsed;
    const std::lock_guard lock(mutex);
    if (const auto it = parsed.find(variant); it != parsed.end()) return &it->second;
    for (int i = 0; i < builtin_detail::kBuiltinWeightsCount; ++i) {
        const auto& f = builtin_detail::kBuiltinWeights[i];
        if (variant != f.variant) continue;
        const std::string_view bytes(reinterpret_cast<const char*>(f.begin),
                                     std::size_t(f.end - f.begin));
        // A compiled-in file is checked like any other: a bad one is a build error of ours.
        auto w = parse_weights(bytes, fmt::format("built-in weights of {}", variant));
        return &parsed.emplace(std::string(variant), std::move(w)).first->second;
    }
    return nullptr;
}

std::shared_ptr<const LearnedWeights> weights_for(const std::string& choice,
                                                  std::string_view variant) {
    if (choice == "hand") return nullptr;
    if (choice == "auto") {
        const LearnedWeights* b = builtin_weights(variant);
        return b ? std::make_shared<const LearnedWeights>(*b) : nullptr;
    }
    const auto v = parse_variant(variant);
    if (!v) throw std::runtime_error(fmt::format("unknown variant '{}'", variant));
    std::shared_ptr<const LearnedWeights> w;
    if (choice == "learned") {
        const LearnedWeights* b = builtin_weights(variant);
        if (!b)
            throw std::runtime_error(fmt::format(
                "no learned weights for {} are compiled in (give a weights file)", variant));
        w = std::make_shared<const LearnedWeights>(*b);
    } else {
        w = std::make_shared<const LearnedWeights>(read_weights_file(choice));
    }
    with_variant(*v, [&]<class R>(std::type_identity<R>) {
        check_weights<R>(*w, choice == "learned" ? "built-in weights" : choice);
    });
    return w;
}

}  // namespace dambit::search
