// A PDN file written by a long job a unit at a time (a match's game pairs, an analysis's games),
// so that an interrupted job resumes: the games go to OUT.tmp, and a journal OUT.journal beside it
// says which of them are whole and with what settings they were made. OUT.tmp becomes OUT by a
// rename at the end.
//
// The journal is text, one record a line, appended to after each unit's games are written:
//   dambit KIND journal 1
//   settings KEY=VALUE,KEY=VALUE,...     (what decides the games: a resume must match it)
//   ENTRY N END DIGEST [V ...]            (one line per unit, in order)
// where ENTRY is the kind's word for a unit ("pair", "game"), N its number, END the length of
// OUT.tmp after its games, DIGEST the XXH64 of those games' bytes (hexadecimal) and V the kind's
// own numbers. A unit's line is written after its games, so OUT.tmp may hold games past the last
// line (a job killed in between): a resume cuts them off and makes them again.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dambit::pdn {

struct JournalKind {
    std::string_view name;   // "match": the journal begins "dambit match journal 1"
    std::string_view entry;  // the first word of a unit's line: "pair"
    std::size_t values = 0;  // the numbers after the digest
    bool consecutive = false;  // units numbered 1, 2, 3, ... (else only increasing)
    // For messages: the job ("match"), a unit before its number ("the game pair of opening"),
    // and what is done to the units dropped ("played again").
    std::string_view job, unit, again;
};

struct JournalEntry {
    std::uint64_t number = 0;
    std::uint64_t end = 0;     // OUT.tmp's length after this unit's games
    std::uint64_t digest = 0;  // XXH64 of those games' bytes
    std::vector<std::uint64_t> values;
};

std::string journal_head(const JournalKind& kind, std::string_view settings);
std::string journal_line(const JournalKind& kind, const JournalEntry& e);

struct Journal {
    std::string settings;
    std::vector<JournalEntry> entries;
    // The number of the first whole line that was not read (malformed or out of order), 0 when
    // every whole line was; a last line cut short (no line end: the job was killed writing it) is
    // no damage.
    std::size_t bad_line = 0;
};

// Reads a journal of `kind`: nothing when `text` does not begin with such a journal's two lines;
// otherwise its settings and the unit lines up to the first that is cut short, malformed or out
// of order (a number that does not follow, an end that does not grow).
std::optional<Journal> parse_journal(const JournalKind& kind, std::string_view text);

// A value in the settings line with the characters that separate its items (',' and ' ', also
// line ends) and '%' itself written %2C, %20, %0A and %25, so that settings_change
// (core/text.hpp) names it whole.
std::string journal_value(std::string_view v);

// Thrown when OUT.tmp holds the games of an interrupted job that cannot be resumed: no journal,
// or one with other settings. what() says why, and what to do ("... move it away (or remove it)
// to start again").
class ResumeRefused : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// OUT.tmp and OUT.journal of one run. The caller holds the lock on OUT.tmp (file_io's
// ExclusiveLock) for as long as this lives.
class JournaledPdn {
public:
    // Opens OUT.tmp for appending. When it holds games, the journal must vouch for them with the
    // same `settings` (else ResumeRefused: no journal, not a journal of this kind, or other
    // settings, naming the change): the units whose games pass their checksum are resumed,
    // OUT.tmp is cut after them, and the journal rewritten with their lines. A unit that fails
    // its checksum, or a damaged journal line, drops that unit and everything after it (damage()
    // says so). Throws std::runtime_error when a file cannot be read or written.
    JournaledPdn(const JournalKind& kind, const std::string& out, const std::string& settings);
    // Unfinished with no games in OUT.tmp, removes OUT.tmp and the journal.
    ~JournaledPdn();
    JournaledPdn(const JournaledPdn&) = delete;
    JournaledPdn& operator=(const JournaledPdn&) = delete;

    // The units resumed, in order, and OUT.tmp's bytes up to the end of the last of them.
    const std::vector<JournalEntry>& resumed() const { return resumed_; }
    const std::string& resumed_text() const { return resumed_text_; }
    // What was found damaged and dropped, one line ("OUT.tmp is damaged: the game pair of
    // opening 3 fails its check; it (2154 bytes) and the 4310 bytes after it are played again",
    // or "OUT.journal
    // is damaged at line 5: the games after the game pair of opening 2 are played again"); empty
    // when nothing was.
    const std::string& damage() const { return damage_; }

    // Writes a unit's games, then its line; throws std::runtime_error("cannot write 'PATH':
    // REASON") on a failure (a full disk).
    void append(std::string_view games, std::uint64_t number, std::vector<std::uint64_t> values);
    // OUT.tmp's length now.
    std::uint64_t size() const { return size_; }
    // The end: OUT.tmp cut to `keep` bytes (a resume that counts fewer units than it holds), the
    // journal removed, and OUT.tmp renamed OUT (in that order: a run that starts meanwhile finds
    // no OUT.tmp, or one without a journal, and its own journal is never removed by this one).
    void finish(std::uint64_t keep);

    const std::string& tmp_path() const { return tmp_; }

private:
    JournalKind kind_;
    std::string out_, tmp_, journal_path_;
    std::vector<JournalEntry> resumed_;
    std::string resumed_text_;
    std::string damage_;
    std::FILE* games_ = nullptr;
    std::FILE* journal_ = nullptr;
    std::uint64_t size_ = 0;
};

}  // namespace dambit::pdn
