// The variants as data: one trait struct per rule set, each line citing the rule it encodes.
//
// Generic code reads these traits at compile time (if constexpr); nothing outside this file knows
// which variant it is running.
#pragma once

#include <string_view>

#include "core/geometry.hpp"

namespace dambit {

enum class Color : int { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(int(c) ^ 1); }

enum class KingRange { kFlying, kShort };
// Which of the available captures the player may choose.
enum class Precedence {
    kFree,          // any capture
    kKingPriority,  // a king capture, if any king can capture; then any of them (Czech)
    kMostPieces,    // one taking the most pieces (Brazilian, International)
};
// What happens to a man that reaches the far row in the middle of a capture.
enum class CapturePromotion {
    kContinuesAsKing,  // becomes a king at once and goes on capturing as a king (Russian)
    kEndsMove,         // becomes a king and the move ends there (Czech, English)
    kPassesThrough,    // stays a man, goes on as a man; promotes only if the move ends there
};
enum class Notation { kAlgebraic, kNumeric };

// RULES.md §3, column "Russian" (Kodeks of the Russian draughts federation).
struct Russian {
    using Geometry = Board8;
    static constexpr std::string_view kName = "russian";
    static constexpr bool kMenCaptureBackward = true;                          // §3 row 3
    static constexpr KingRange kKing = KingRange::kFlying;                     // §3 row 4
    static constexpr Precedence kPrecedence = Precedence::kFree;               // §3 row 5
    static constexpr CapturePromotion kPromotion = CapturePromotion::kContinuesAsKing;  // §3 row 6
    static constexpr Color kFirstMover = Color::kWhite;                        // §3 row 2
    static constexpr Notation kNotation = Notation::kAlgebraic;                // §1, moves c3-d4
    static constexpr char kCaptureSeparator = ':';                             // §1 move strings
    static constexpr int kPdnGameType = 25;                                    // §3 last row
};

// RULES.md §3, column "Czech" (Czech draughts federation rules).
struct Czech {
    using Geometry = Board8;
    static constexpr std::string_view kName = "czech";
    static constexpr bool kMenCaptureBackward = false;                         // §3 row 3
    static constexpr KingRange kKing = KingRange::kFlying;                     // §3 row 4
    static constexpr Precedence kPrecedence = Precedence::kKingPriority;       // §3 row 5
    static constexpr CapturePromotion kPromotion = CapturePromotion::kEndsMove;  // §3 row 6
    static constexpr Color kFirstMover = Color::kWhite;                        // §3 row 2
    static constexpr Notation kNotation = Notation::kAlgebraic;                // §1
    static constexpr char kCaptureSeparator = ':';                             // §1
    static constexpr int kPdnGameType = 29;
};

// RULES.md §3, column "Brazilian" (International rules on the 8x8 board).
struct Brazilian {
    using Geometry = Board8;
    static constexpr std::string_view kName = "brazilian";
    static constexpr bool kMenCaptureBackward = true;                          // §3 row 3
    static constexpr KingRange kKing = KingRange::kFlying;                     // §3 row 4
    static constexpr Precedence kPrecedence = Precedence::kMostPieces;         // §3 row 5
    static constexpr CapturePromotion kPromotion = CapturePromotion::kPassesThrough;  // §3 row 6
    static constexpr Color kFirstMover = Color::kWhite;                        // §3 row 2
    static constexpr Notation kNotation = Notation::kAlgebraic;                // §1
    static constexpr char kCaptureSeparator = 'x';                             // §1 ("x elsewhere")
    static constexpr int kPdnGameType = 26;
};

// RULES.md §3, column "Pool" (American pool checkers).
struct Pool {
    using Geometry = Board8;
    static constexpr std::string_view kName = "pool";
    static constexpr bool kMenCaptureBackward = true;                          // §3 row 3
    static constexpr KingRange kKing = KingRange::kFlying;                     // §3 row 4
    static constexpr Precedence kPrecedence = Precedence::kFree;               // §3 row 5
    static constexpr CapturePromotion kPromotion = CapturePromotion::kPassesThrough;  // §3 row 6
    static constexpr Color kFirstMover = Color::kBlack;                        // §3 row 2
    static constexpr Notation kNotation = Notation::kNumeric;                  // §1
    static constexpr char kCaptureSeparator = 'x';                             // §1
    static constexpr int kPdnGameType = 23;
};

// RULES.md §3, column "English" (English draughts / American checkers).
struct English {
    using Geometry = Board8;
    static constexpr std::string_view kName = "english";
    static constexpr bool kMenCaptureBackward = false;                         // §3 row 3
    static constexpr KingRange kKing = KingRange::kShort;                      // §3 row 4
    static constexpr Precedence kPrecedence = Precedence::kFree;               // §3 row 5
    static constexpr CapturePromotion kPromotion = CapturePromotion::kEndsMove;  // §3 row 6
    static constexpr Color kFirstMover = Color::kBlack;                        // §3 row 2
    static constexpr Notation kNotation = Notation::kNumeric;                  // §1
    static constexpr char kCaptureSeparator = 'x';                             // §1
    static constexpr int kPdnGameType = 21;
};

// RULES.md §3, column "International" (FMJD rules, 10x10).
struct International {
    using Geometry = Board10;
    static constexpr std::string_view kName = "international";
    static constexpr bool kMenCaptureBackward = true;                          // §3 row 3
    static constexpr KingRange kKing = KingRange::kFlying;                     // §3 row 4
    static constexpr Precedence kPrecedence = Precedence::kMostPieces;         // §3 row 5
    static constexpr CapturePromotion kPromotion = CapturePromotion::kPassesThrough;  // §3 row 6
    static constexpr Color kFirstMover = Color::kWhite;                        // §3 row 2
    static constexpr Notation kNotation = Notation::kNumeric;                  // §1
    static constexpr char kCaptureSeparator = 'x';                             // §1
    static constexpr int kPdnGameType = 20;
};

}  // namespace dambit
