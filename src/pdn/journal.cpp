#include "pdn/journal.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>
#include <xxhash.h>

#include "core/file_io.hpp"
#include "core/text.hpp"

namespace dambit::pdn {

std::string journal_head(const JournalKind& kind, std::string_view settings) {
    return fmt::format("dambit {} journal 1\nsettings {}\n", kind.name, settings);
}

std::string journal_line(const JournalKind& kind, const JournalEntry& e) {
    std::string s = fmt::format("{} {} {} {:016x}", kind.entry, e.number, e.end, e.digest);
    for (const std::uint64_t v : e.values) s += fmt::format(" {}", v);
    return s + "\n";
}

std::optional<Journal> parse_journal(const JournalKind& kind, std::string_view text) {
    const auto line_at = [&](std::size_t& at) -> std::optional<std::string_view> {
        const std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) return std::nullopt;
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        return line;
    };
    std::size_t at = 0;
    const auto magic = line_at(at), settings = line_at(at);
    constexpr std::string_view kSettings = "settings ";
    if (!magic || *magic != fmt::format("dambit {} journal 1", kind.name) || !settings ||
        !settings->starts_with(kSettings))
        return std::nullopt;
    Journal j;
    j.settings = std::string(settings->substr(kSettings.size()));
    const std::string word = std::string(kind.entry) + " ";
    std::size_t number = 2;
    while (const auto line = line_at(at)) {
        ++number;
        j.bad_line = number;  // until the line is read
        std::string_view rest = *line;
        if (!rest.starts_with(word)) break;
        rest.remove_prefix(word.size());
        // The number, the end, the digest (hexadecimal), then the kind's values, one space before
        // each but the first.
        std::vector<std::uint64_t> v(3 + kind.values);
        bool ok = true;
        for (std::size_t k = 0; k < v.size() && ok; ++k) {
            const auto [p, ec] =
                std::from_chars(rest.data(), rest.data() + rest.size(), v[k], k == 2 ? 16 : 10);
            ok = ec == std::errc() && p != rest.data();
            rest.remove_prefix(std::size_t(p - rest.data()));
            if (ok && k + 1 < v.size()) ok = rest.starts_with(' ') && (rest.remove_prefix(1), true);
        }
        const JournalEntry* last = j.entries.empty() ? nullptr : &j.entries.back();
        const std::uint64_t previous = last ? last->number : 0;
        if (!ok || !rest.empty() || (kind.consecutive ? v[0] != previous + 1 : v[0] <= previous) ||
            (last && v[1] <= last->end))
            break;
        j.entries.push_back({v[0], v[1], v[2], std::vector<std::uint64_t>(v.begin() + 3, v.end())});
        j.bad_line = 0;
    }
    return j;
}

std::string journal_value(std::string_view v) {
    std::string out;
    for (const char c : v) {
        switch (c) {
            case '%': out += "%25"; break;
            case ',': out += "%2C"; break;
            case ' ': out += "%20"; break;
            case '\n':
            case '\r': out += "%0A"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

std::FILE* open_append(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (!f) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    return f;
}

}  // namespace

JournaledPdn::JournaledPdn(const JournalKind& kind, const std::string& out,
                           const std::string& settings)
    : kind_(kind), out_(out), tmp_(out + ".tmp"), journal_path_(out + ".journal") {
    std::string head = journal_head(kind, settings);
    std::error_code ec;
    if (std::filesystem::file_size(tmp_, ec) > 0 && !ec) {
        const std::string start = fmt::format("'{}' holds the games of an interrupted {}", tmp_,
                                              kind.job),
                          again = "move it away (or remove it) to start again";
        if (!std::filesystem::exists(journal_path_, ec))
            throw ResumeRefused(fmt::format(
                "{} without its journal '{}' (a job killed as it ended leaves its games so: "
                "then rename it '{}'); {}",
                start, journal_path_, out_, again));
        std::optional<Journal> journal;
        if (std::filesystem::is_regular_file(journal_path_, ec))
            journal = parse_journal(kind, file_io::read_all(journal_path_));
        if (!journal)
            throw ResumeRefused(fmt::format("{}, and '{}' is not a journal of dambit {}; {}",
                                            start, journal_path_, kind.name, again));
        // The item dambit= names the program's build: another build cannot be made the same.
        const auto build = [](std::string_view t) {
            const std::size_t at = t.starts_with("dambit=") ? 0 : t.find(",dambit=");
            if (at == std::string_view::npos) return std::string_view();
            t.remove_prefix(at == 0 ? 0 : at + 1);
            return t.substr(0, t.find(','));
        };
        if (journal->settings != settings)
            throw ResumeRefused(fmt::format(
                "{} with other settings ({}); {}, or {}", start,
                settings_change(journal->settings, settings),
                !build(journal->settings).empty() && build(journal->settings) != build(settings)
                    ? "the build of dambit that made them resumes it (`dambit --version` names a build's checksum)"
                    : "the same settings resume it",
                again));
        std::string text = file_io::read_all(tmp_);
        std::uint64_t begin = 0;
        for (const JournalEntry& e : journal->entries) {
            if (e.end > text.size() || XXH64(text.data() + begin, e.end - begin, 0) != e.digest) {
                // Its own bytes (to its end as the journal gives it, or to the end of the file
                // when that comes sooner), then those after it: both are dropped.
                const std::uint64_t end = std::min<std::uint64_t>(e.end, text.size());
                damage_ = fmt::format("{} is damaged: {} {} fails its check; it ({} bytes) and "
                                      "the {} bytes after it are {}",
                                      tmp_, kind.unit, e.number, end - begin, text.size() - end,
                                      kind.again);
                break;
            }
            resumed_.push_back(e);
            begin = e.end;
        }
        if (damage_.empty() && journal->bad_line > 0)
            damage_ = fmt::format(
                "{} is damaged at line {}: the games {} are {}", journal_path_, journal->bad_line,
                resumed_.empty()
                    ? std::string("in ") + tmp_
                    : fmt::format("after {} {}", kind.unit, resumed_.back().number),
                kind.again);
        text.resize(begin);
        resumed_text_ = std::move(text);
        size_ = begin;
        std::filesystem::resize_file(tmp_, begin, ec);
        if (ec) throw std::runtime_error("cannot write '" + tmp_ + "': " + ec.message());
        for (const JournalEntry& e : resumed_) head += journal_line(kind, e);
    } else {
        // No games: a new OUT.tmp (an empty one, or none).
        std::FILE* f = std::fopen(tmp_.c_str(), "wb");
        if (!f) throw std::runtime_error("cannot write '" + tmp_ + "': " + std::strerror(errno));
        std::fclose(f);
    }
    file_io::replace_file(journal_path_, head);
    games_ = open_append(tmp_);
    try {
        journal_ = open_append(journal_path_);
    } catch (...) {
        std::fclose(games_);
        throw;
    }
}

JournaledPdn::~JournaledPdn() {
    if (games_) std::fclose(games_);
    if (journal_) std::fclose(journal_);
    // Not finished, and no games to resume (an error or an interruption before the first): the
    // two files would only stand in the way.
    if (games_ && size_ == 0) {
        std::remove(tmp_.c_str());
        std::remove(journal_path_.c_str());
    }
}

void JournaledPdn::append(std::string_view games, std::uint64_t number,
                          std::vector<std::uint64_t> values) {
    file_io::write_or_throw(games_, std::string(games), tmp_, false);
    size_ += games.size();
    const JournalEntry e{number, size_, XXH64(games.data(), games.size(), 0), std::move(values)};
    file_io::write_or_throw(journal_, journal_line(kind_, e), journal_path_, false);
}

void JournaledPdn::finish(std::uint64_t keep) {
    const bool closed = std::fclose(games_) == 0;
    const int close_error = errno;
    games_ = nullptr;
    std::fclose(journal_);
    journal_ = nullptr;
    if (!closed)
        throw std::runtime_error("cannot write '" + tmp_ + "': " + std::strerror(close_error));
    std::error_code ec;
    if (keep < size_) std::filesystem::resize_file(tmp_, keep, ec);
    if (ec) throw std::runtime_error("cannot write '" + tmp_ + "': " + ec.message());
    std::remove(journal_path_.c_str());
    if (std::rename(tmp_.c_str(), out_.c_str()) != 0)
        throw std::runtime_error("cannot rename '" + tmp_ + "' to '" + out_ +
                                 "': " + std::strerror(errno));
}

}  // namespace dambit::pdn
