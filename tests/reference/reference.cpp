// The plain reference move generator: the rules of RULES.md §2-4 as walks over board[rank][file].
#include "reference/reference.hpp"

#include <algorithm>
#include <stdexcept>

namespace dambit::reference {

namespace {

// The four diagonal directions as file and rank steps: up-right, up-left, down-right, down-left.
// "Up" is towards the highest rank, where White's men promote.
constexpr std::array<int, 4> kFileStep = {1, -1, 1, -1};
constexpr std::array<int, 4> kRankStep = {1, 1, -1, -1};
constexpr int opposite(int d) {
    return 3 - d;
}

bool is_white(Piece p) {
    return p == Piece::kWhiteMan || p == Piece::kWhiteKing;
}
bool is_black(Piece p) {
    return p == Piece::kBlackMan || p == Piece::kBlackKing;
}
bool is_king(Piece p) {
    return p == Piece::kWhiteKing || p == Piece::kBlackKing;
}
bool belongs_to(Piece p, Side s) {
    return s == Side::kWhite ? is_white(p) : is_black(p);
}

// RULES.md §3, read column by column.
constexpr std::array<Rules, 6> kRules = {{
    {"russian", 8, true, true, Rules::Precedence::kFree, Rules::FarRowInCapture::kContinuesAsKing},
    {"czech", 8, false, true, Rules::Precedence::kKingPriority, Rules::FarRowInCapture::kEndsMove},
    {"brazilian", 8, true, true, Rules::Precedence::kMostPieces,
     Rules::FarRowInCapture::kPassesThrough},
    {"pool", 8, true, true, Rules::Precedence::kFree, Rules::FarRowInCapture::kPassesThrough},
    {"english", 8, false, false, Rules::Precedence::kFree, Rules::FarRowInCapture::kEndsMove},
    {"international", 10, true, true, Rules::Precedence::kMostPieces,
     Rules::FarRowInCapture::kPassesThrough},
}};

// Finds the moves of one position. Captured pieces stay on the board (Turkish strike) and are
// only marked in `taken_`; the moving piece is lifted off its start square while it captures, so
// that square counts as empty.
class Generator {
public:
    Generator(const Rules& rules, const Board& board)
        : rules_(rules),
          work_(board),
          us_(board.side),
          forward_(board.side == Side::kWhite ? 1 : -1),
          far_rank_(board.side == Side::kWhite ? board.size - 1 : 0) {}

    std::vector<Move> run(bool keep_duplicates) {
        find_captures();
        if (out_.empty()) find_quiet_moves();
        std::sort(out_.begin(), out_.end());
        if (!keep_duplicates) out_.erase(std::unique(out_.begin(), out_.end()), out_.end());
        return out_;
    }

private:
    bool on_board(int file, int rank) const {
        return file >= 0 && file < work_.size && rank >= 0 && rank < work_.size;
    }
    bool is_empty(int file, int rank) const { return work_.at(file, rank) == Piece::kEmpty; }
    // An enemy piece that may still be jumped.
    bool can_take(int file, int rank) const {
        const Piece p = work_.at(file, rank);
        return p != Piece::kEmpty && !belongs_to(p, us_) &&
               !taken_[std::size_t(rank)][std::size_t(file)];
    }
    int number(int file, int rank) const { return square_number(work_.size, file, rank); }

    void take(int file, int rank) {
        taken_[std::size_t(rank)][std::size_t(file)] = true;
        captured_ |= std::uint64_t(1) << number(file, rank);
    }
    void untake(int file, int rank) {
        taken_[std::size_t(rank)][std::size_t(file)] = false;
        captured_ &= ~(std::uint64_t(1) << number(file, rank));
    }

    void emit(int file, int rank) {
        out_.push_back(Move{from_, number(file, rank), captured_, promoted_});
        if (moving_king_) ++king_captures_;
    }

    void find_captures() {
        for (int rank = 0; rank < work_.size; ++rank)
            for (int file = 0; file < work_.size; ++file) {
                const Piece p = work_.at(file, rank);
                if (!belongs_to(p, us_)) continue;
                from_ = number(file, rank);
                moving_king_ = is_king(p);
                promoted_ = false;
                work_.at(file, rank) = Piece::kEmpty;  // the start square counts as empty
                if (moving_king_)
                    king_jumps(file, rank, -1);
                else
                    man_jumps(file, rank);
                work_.at(file, rank) = p;
            }
        apply_precedence();
    }

    void apply_precedence() {
        if (rules_.precedence == Rules::Precedence::kKingPriority && king_captures_ > 0) {
            // Czech: a king capture exists, so man captures are not legal.
            std::erase_if(out_, [&](const Move& m) {
                int f = 0, r = 0;
                square_coords(work_.size, m.from, f, r);
                return !is_king(work_.at(f, r));
            });
        }
        if (rules_.precedence == Rules::Precedence::kMostPieces) {
            int most = 0;
            for (const Move& m : out_) most = std::max(most, count(m.captured));
            std::erase_if(out_, [&](const Move& m) { return count(m.captured) < most; });
        }
    }
    static int count(std::uint64_t set) {
        int n = 0;
        for (; set; set &= set - 1) ++n;
        return n;
    }

    // A man at (file, rank) jumps an adjacent enemy piece. Returns whether it found any jump.
    bool man_jumps(int file, int rank) {
        bool found = false;
        for (int d = 0; d < 4; ++d) {
            if (!rules_.men_capture_backward && kRankStep[d] != forward_) continue;
            const int vf = file + kFileStep[d], vr = rank + kRankStep[d];
            const int lf = vf + kFileStep[d], lr = vr + kRankStep[d];
            if (!on_board(lf, lr) || !can_take(vf, vr) || !is_empty(lf, lr)) continue;
            found = true;
            take(vf, vr);
            man_lands(lf, lr);
            untake(vf, vr);
        }
        return found;
    }

    void man_lands(int file, int rank) {
        if (rank != far_rank_) {
            if (!man_jumps(file, rank)) emit(file, rank);
            return;
        }
        switch (rules_.far_row) {
            case Rules::FarRowInCapture::kContinuesAsKing:
                // A king from here on; every direction may be tried (the way back is blocked by
                // the piece just taken).
                promoted_ = true;
                if (!king_jumps(file, rank, -1)) emit(file, rank);
                promoted_ = false;
                break;
            case Rules::FarRowInCapture::kEndsMove:
                promoted_ = true;
                emit(file, rank);
                promoted_ = false;
                break;
            case Rules::FarRowInCapture::kPassesThrough:
                if (!man_jumps(file, rank)) {
                    promoted_ = true;  // the move ends on the far row
                    emit(file, rank);
                    promoted_ = false;
                }
                break;
        }
    }

    // A king at (file, rank) tries each direction; after a capture in direction `arrived` only
    // the two perpendicular ones (straight on is tried by king_jump itself, once; the way back
    // is blocked by the piece just taken). arrived = -1 for every direction.
    bool king_jumps(int file, int rank, int arrived) {
        bool found = false;
        for (int d = 0; d < 4; ++d) {
            if (arrived >= 0 && (d == arrived || d == opposite(arrived))) continue;
            found |= king_jump(file, rank, d);
        }
        return found;
    }

    // A king at (file, rank) captures along direction d, if it can.
    bool king_jump(int file, int rank, int d) {
        int vf = file + kFileStep[d], vr = rank + kRankStep[d];
        if (rules_.flying_kings) {
            while (on_board(vf, vr) && is_empty(vf, vr)) {
                vf += kFileStep[d];
                vr += kRankStep[d];
            }
        }
        if (!on_board(vf, vr) || !can_take(vf, vr)) return false;
        // The landing squares: the empty squares right behind the victim, up to the next piece.
        std::vector<std::array<int, 2>> landings;
        for (int lf = vf + kFileStep[d], lr = vr + kRankStep[d];
             on_board(lf, lr) && is_empty(lf, lr); lf += kFileStep[d], lr += kRankStep[d]) {
            landings.push_back({lf, lr});
            if (!rules_.flying_kings) break;
        }
        if (landings.empty()) return false;
        take(vf, vr);
        bool goes_on = false;
        for (std::size_t i = 0; i < landings.size(); ++i) {
            const auto [lf, lr] = landings[i];
            goes_on |= king_jumps(lf, lr, d);  // turning at this landing square
            // Straight on meets the same next piece from every landing square: one path.
            if (i == 0) goes_on |= king_jump(lf, lr, d);
        }
        // It must land where the capture goes on; only if it goes on nowhere may it stop, on any
        // landing square.
        if (!goes_on)
            for (const auto& [lf, lr] : landings) emit(lf, lr);
        untake(vf, vr);
        return true;
    }

    void find_quiet_moves() {
        for (int rank = 0; rank < work_.size; ++rank)
            for (int file = 0; file < work_.size; ++file) {
                const Piece p = work_.at(file, rank);
                if (!belongs_to(p, us_)) continue;
                const int from = number(file, rank);
                for (int d = 0; d < 4; ++d) {
                    if (!is_king(p) && kRankStep[d] != forward_) continue;
                    int f = file + kFileStep[d], r = rank + kRankStep[d];
                    while (on_board(f, r) && is_empty(f, r)) {
                        const bool promotes = !is_king(p) && r == far_rank_;
                        out_.push_back(Move{from, number(f, r), 0, promotes});
                        if (!is_king(p) || !rules_.flying_kings) break;
                        f += kFileStep[d];
                        r += kRankStep[d];
                    }
                }
            }
    }

    const Rules& rules_;
    Board work_;
    const Side us_;
    const int forward_, far_rank_;
    std::array<std::array<bool, Board::kMaxSize>, Board::kMaxSize> taken_{};
    std::uint64_t captured_ = 0;
    int from_ = 0;
    bool moving_king_ = false, promoted_ = false;
    int king_captures_ = 0;
    std::vector<Move> out_;
};

int parse_number(std::string_view t) {
    if (t.empty() || t.size() > 3) return -1;
    int n = 0;
    for (char c : t) {
        if (c < '0' || c > '9') return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

// A numeric ("17") or, on 8x8, algebraic ("c3") square; 0 if neither.
int parse_square_token(int size, std::string_view t) {
    const int n = parse_number(t);
    if (n >= 1 && n <= square_count(size)) return n;
    if (size == 8 && t.size() == 2) return square_number(size, t[0] - 'a', t[1] - '1');
    return 0;
}

}  // namespace

const Rules& rules_named(std::string_view name) {
    for (const Rules& r : kRules)
        if (r.name == name) return r;
    throw std::invalid_argument("reference: unknown variant " + std::string(name));
}

int square_count(int size) {
    return size * size / 2;
}

int square_number(int size, int file, int rank) {
    if (file < 0 || file >= size || rank < 0 || rank >= size || (file + rank) % 2 != 0) return 0;
    const int row = size - 1 - rank;  // row 0 is the top rank
    return row * (size / 2) + file / 2 + 1;
}

void square_coords(int size, int number, int& file, int& rank) {
    const int row = (number - 1) / (size / 2), column = (number - 1) % (size / 2);
    file = 2 * column + (row % 2 == 0 ? 1 : 0);
    rank = size - 1 - row;
}

Board board_from_fen(int size, std::string_view fen) {
    auto fail = [&] { throw std::invalid_argument("reference: bad FEN " + std::string(fen)); };
    Board b;
    b.size = size;
    std::vector<std::string_view> fields;
    for (std::string_view rest = fen;;) {
        const auto k = rest.find(':');
        fields.push_back(rest.substr(0, k));
        if (k == std::string_view::npos) break;
        rest.remove_prefix(k + 1);
    }
    if (fields[0] == "W")
        b.side = Side::kWhite;
    else if (fields[0] == "B")
        b.side = Side::kBlack;
    else
        fail();
    for (std::size_t i = 1; i < fields.size(); ++i) {
        std::string_view f = fields[i];
        if (f.empty() || (f[0] != 'W' && f[0] != 'B')) fail();
        const bool white = f[0] == 'W';
        f.remove_prefix(1);
        while (!f.empty()) {
            const auto k = f.find(',');
            std::string_view token = f.substr(0, k);
            f = k == std::string_view::npos ? std::string_view{} : f.substr(k + 1);
            bool king = false;
            if (!token.empty() && token[0] == 'K') {
                king = true;
                token.remove_prefix(1);
            }
            int first = 0, last = 0;
            if (const auto dash = token.find('-'); dash != std::string_view::npos) {
                first = parse_square_token(size, token.substr(0, dash));
                last = parse_square_token(size, token.substr(dash + 1));
            } else {
                first = last = parse_square_token(size, token);
            }
            if (first == 0 || last < first) fail();
            for (int n = first; n <= last; ++n) {
                int file = 0, rank = 0;
                square_coords(size, n, file, rank);
                b.at(file, rank) = white ? (king ? Piece::kWhiteKing : Piece::kWhiteMan)
                                         : (king ? Piece::kBlackKing : Piece::kBlackMan);
            }
        }
    }
    return b;
}

std::string board_to_fen(const Board& b) {
    std::string white = "W", black = "B";
    for (int n = 1; n <= square_count(b.size); ++n) {
        int file = 0, rank = 0;
        square_coords(b.size, n, file, rank);
        const Piece p = b.at(file, rank);
        if (p == Piece::kEmpty) continue;
        std::string& list = is_white(p) ? white : black;
        if (list.size() > 1) list += ',';
        if (is_king(p)) list += 'K';
        list += std::to_string(n);
    }
    return std::string(b.side == Side::kWhite ? "W" : "B") + ":" + white + ":" + black;
}

std::string move_string(const Move& m) {
    std::string s = std::to_string(m.from) + (m.captured ? "x" : "-") + std::to_string(m.to);
    if (m.captured) {
        s += " {";
        bool first = true;
        for (int n = 0; n < 64; ++n)
            if (m.captured >> n & 1) {
                if (!first) s += ',';
                s += std::to_string(n);
                first = false;
            }
        s += '}';
    }
    if (m.promotes) s += " =K";
    return s;
}

std::vector<Move> generate(const Rules& rules, const Board& board, bool keep_duplicates) {
    return Generator(rules, board).run(keep_duplicates);
}

Board play(const Board& board, const Move& m) {
    Board b = board;
    int file = 0, rank = 0;
    square_coords(b.size, m.from, file, rank);
    Piece piece = b.at(file, rank);
    b.at(file, rank) = Piece::kEmpty;
    for (int n = 1; n <= square_count(b.size); ++n)
        if (m.captured >> n & 1) {
            int f = 0, r = 0;
            square_coords(b.size, n, f, r);
            b.at(f, r) = Piece::kEmpty;
        }
    if (m.promotes) piece = board.side == Side::kWhite ? Piece::kWhiteKing : Piece::kBlackKing;
    square_coords(b.size, m.to, file, rank);
    b.at(file, rank) = piece;
    b.side = board.side == Side::kWhite ? Side::kBlack : Side::kWhite;
    return b;
}

std::uint64_t perft(const Rules& rules, const Board& board, int depth, bool keep_duplicates) {
    if (depth == 0) return 1;
    const std::vector<Move> moves = generate(rules, board, keep_duplicates);
    if (depth == 1) return moves.size();
    std::uint64_t n = 0;
    for (const Move& m : moves) n += perft(rules, play(board, m), depth - 1, keep_duplicates);
    return n;
}

}  // namespace dambit::reference
