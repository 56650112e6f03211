// JSON output of the subcommands: objects and arrays built field by field, strings escaped
// (RFC 8259), keys in the order they are added, numbers written by {fmt}.
//
// Hand-written rather than nlohmann/json: we only ever write small flat records, and that library
// added 2.5 to 3.8 s of compile time to each file printing JSON (measured, docs/performance.md).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/text.hpp"

namespace dambit::json {

// `s` as a JSON string literal, quotes included. Bytes that are not UTF-8 (a binary file's
// token) become U+FFFD, so that the document is valid JSON whatever the input was.
inline std::string quote(std::string_view s) {
    std::string out = "\"";
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            const std::size_t n = utf8_sequence(s.substr(i));
            if (n == 0) {
                out += "\\ufffd";
            } else {
                out += s.substr(i, n);
                i += n - 1;
            }
            continue;
        }
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20)
                    out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
                else
                    out += c;
        }
    }
    return out + '"';
}

// A number written with a fixed number of decimals (times in seconds).
struct Fixed {
    double value;
    int decimals;
};

// JSON text that is already complete (a nested object or array).
struct Raw {
    std::string text;
};

inline std::string value(std::string_view s) { return quote(s); }
inline std::string value(const std::string& s) { return quote(s); }
inline std::string value(const char* s) { return quote(s); }
inline std::string value(bool b) { return b ? "true" : "false"; }
inline std::string value(std::nullopt_t) { return "null"; }
inline std::string value(const Fixed& f) { return fmt::format("{:.{}f}", f.value, f.decimals); }
inline std::string value(const Raw& r) { return r.text; }
// A double would otherwise become a bool: write it as Fixed, with the decimals it deserves.
template <class T>
    requires std::is_floating_point_v<T>
std::string value(T) = delete;
template <class T>
    requires std::is_integral_v<T> && (!std::is_same_v<T, bool>)
std::string value(T n) {
    return fmt::format("{}", n);
}
template <class T>
std::string value(const std::optional<T>& o) {
    return o ? value(*o) : "null";
}
template <class T>
std::string value(const std::vector<T>& items);

class Array {
public:
    template <class T>
    Array& add(const T& item) {
        text_ += text_.size() > 1 ? "," : "";
        text_ += value(item);
        return *this;
    }
    std::string str() const { return text_ + "]"; }
    operator Raw() const { return Raw{str()}; }

private:
    std::string text_ = "[";
};

class Object {
public:
    template <class T>
    Object& add(std::string_view key, const T& item) {
        text_ += text_.size() > 1 ? "," : "";
        text_ += quote(key);
        text_ += ':';
        text_ += value(item);
        return *this;
    }
    std::string str() const { return text_ + "}"; }
    operator Raw() const { return Raw{str()}; }

private:
    std::string text_ = "{";
};

template <class T>
std::string value(const std::vector<T>& items) {
    Array a;
    for (const auto& x : items) a.add(x);
    return a.str();
}

}  // namespace dambit::json
