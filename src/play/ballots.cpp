// The compiled-in ballot sets (ballots_data.cpp, made by CMake from src/play/ballots/*.txt).
#include "play/ballots.hpp"

#include <utility>

namespace dambit {
extern const std::pair<const char*, const char*> kBallotFiles[];
extern const int kBallotFileCount;
}  // namespace dambit

namespace dambit::play {

std::vector<std::string> ballot_names() {
    std::vector<std::string> out;
    for (int i = 0; i < kBallotFileCount; ++i) out.emplace_back(kBallotFiles[i].first);
    return out;
}

std::optional<std::string_view> ballot_text(std::string_view name) {
    for (int i = 0; i < kBallotFileCount; ++i)
        if (name == kBallotFiles[i].first) return std::string_view(kBallotFiles[i].second);
    return std::nullopt;
}

bool ballots_fit(std::string_view name, std::string_view variant) {
    if (name == "russian-3move") return variant == "russian" || variant == "brazilian";
    if (name == "english-3move") return variant == "english";
    return name == variant;
}

}  // namespace dambit::play
