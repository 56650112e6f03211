// Runtime choice of variant: a name from the command line becomes a compile-time rule set.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <type_traits>

#include "core/rules.hpp"

namespace dambit {

enum class Variant { kRussian, kCzech, kBrazilian, kPool, kEnglish, kInternational };

inline constexpr std::array<std::string_view, 6> kVariantNames = {
    Russian::kName, Czech::kName, Brazilian::kName, Pool::kName, English::kName, International::kName};

inline std::optional<Variant> parse_variant(std::string_view name) {
    for (std::size_t i = 0; i < kVariantNames.size(); ++i)
        if (kVariantNames[i] == name) return Variant(i);
    return std::nullopt;
}

inline std::string_view variant_name(Variant v) { return kVariantNames[std::size_t(v)]; }

// Calls f(std::type_identity<R>{}) with the rule set R of variant v.
template <class F>
decltype(auto) with_variant(Variant v, F&& f) {
    switch (v) {
        case Variant::kCzech: return f(std::type_identity<Czech>{});
        case Variant::kBrazilian: return f(std::type_identity<Brazilian>{});
        case Variant::kPool: return f(std::type_identity<Pool>{});
        case Variant::kEnglish: return f(std::type_identity<English>{});
        case Variant::kInternational: return f(std::type_identity<International>{});
        case Variant::kRussian: break;
    }
    return f(std::type_identity<Russian>{});
}

}  // namespace dambit
