// vramcalc core: llama.cpp's -ot patterns (core/serve/tensor_override.hpp has the rules).
//
// [SECTIONS]
//   compile    the regex subset into a Thompson program
//   search     the Pike VM: every thread in step, no backtracking
//   parse      the -ot value: pattern=buffer_type pairs and the buffer types a machine has
#include "core/serve/tensor_override.hpp"

#include <algorithm>
#include <bitset>

namespace vc {

// [SECTION] compile -------------------------------------------------------------------------------
namespace {

constexpr size_t kMaxInsts = 20000;  // a program past this is refused ("too long"): {m,n} copies
constexpr int kMaxDepth = 64;        // nested groups
constexpr int kMaxCount = 1000;      // the largest {m,n} bound

using Inst = TensorPattern::Inst;
using Frag = std::vector<Inst>;

void append(Frag& dst, const Frag& f) {
    const int off = static_cast<int>(dst.size());
    for (Inst i : f) {
        if (i.op == Inst::Split || i.op == Inst::Jmp) i.x += off, i.y += off;
        dst.push_back(i);
    }
}

}  // namespace

struct PatternCompiler {
    const std::string& s;
    TensorPattern& out;
    size_t i = 0;
    std::string why;

    bool fail(const std::string& w) {
        if (why.empty()) why = w;
        return false;
    }
    bool more() const { return i < s.size(); }
    char peek() const { return s[i]; }

    int add_class(const std::bitset<256>& set) {
        out.classes_.push_back(set);
        return static_cast<int>(out.classes_.size() - 1);
    }
    Frag one(const std::bitset<256>& set) { return Frag{Inst{Inst::Class, add_class(set), 0}}; }

    // \d \w \s and their negations; false when `c` names none.
    static bool class_escape(char c, std::bitset<256>& set) {
        std::bitset<256> b;
        const char lower = static_cast<char>(c | 0x20);
        if (lower == 'd') for (int k = '0'; k <= '9'; ++k) b.set(static_cast<size_t>(k));
        else if (lower == 'w') {
            for (int k = 0; k < 256; ++k)
                if ((k >= '0' && k <= '9') || (k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z') || k == '_') b.set(static_cast<size_t>(k));
        } else if (lower == 's') {
            for (char k : {' ', '\t', '\n', '\r', '\f', '\v'}) b.set(static_cast<unsigned char>(k));
        } else return false;
        set = c == lower ? b : ~b;
        return true;
    }

    // An escaped character as a literal byte; false (with why) for the escapes outside the subset.
    bool literal_escape(char c, unsigned char& byte) {
        switch (c) {
            case 't': byte = '\t'; return true;
            case 'n': byte = '\n'; return true;
            case 'r': byte = '\r'; return true;
            case 'f': byte = '\f'; return true;
            case 'v': byte = '\v'; return true;
            default: break;
        }
        const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (alnum) return fail(std::string("\\") + c + " is not in the supported subset (\\d \\w \\s, their negations, \\t \\n, or \\ before a symbol)");
        byte = static_cast<unsigned char>(c);
        return true;
    }

    // After '\': a class or a literal.
    bool escape(std::bitset<256>& set) {
        if (!more()) return fail("a \\ at the end escapes nothing");
        const char c = s[i++];
        if (class_escape(c, set)) return true;
        unsigned char byte = 0;
        if (!literal_escape(c, byte)) return false;
        set.reset();
        set.set(byte);
        return true;
    }

    // After '[': members, ranges a-z, ^ to negate, up to ']'.
    bool bracket(std::bitset<256>& set) {
        set.reset();
        bool negate = false;
        if (more() && peek() == '^') negate = true, ++i;
        for (;;) {
            if (!more()) return fail("a [ without its ]");
            char c = s[i++];
            if (c == ']') break;
            std::bitset<256> item;
            unsigned char lo = static_cast<unsigned char>(c);
            if (c == '\\') {
                if (!escape(item)) return false;
                if (item.count() != 1) {  // \d \w \s: no range from them
                    set |= item;
                    continue;
                }
                for (int k = 0; k < 256; ++k)
                    if (item[static_cast<size_t>(k)]) lo = static_cast<unsigned char>(k);
            }
            if (i + 1 < s.size() && peek() == '-' && s[i + 1] != ']') {
                ++i;
                unsigned char hi = static_cast<unsigned char>(s[i++]);
                if (hi == '\\') {
                    std::bitset<256> h;
                    if (!escape(h)) return false;
                    if (h.count() != 1) return fail("a range cannot end at a class escape");
                    for (int k = 0; k < 256; ++k)
                        if (h[static_cast<size_t>(k)]) hi = static_cast<unsigned char>(k);
                }
                if (hi < lo) return fail(std::string("the range ") + static_cast<char>(lo) + "-" + static_cast<char>(hi) + " is out of order");
                for (int k = lo; k <= hi; ++k) set.set(static_cast<size_t>(k));
            } else {
                set.set(lo);
            }
        }
        if (negate) set.flip();
        return true;
    }

    // {m}, {m,} or {m,n} after an atom; i is past '{'.
    bool braces(int& lo, int& hi) {
        auto number = [&](int& v) {
            if (!more() || peek() < '0' || peek() > '9') return false;
            v = 0;
            while (more() && peek() >= '0' && peek() <= '9') {
                v = v * 10 + (s[i++] - '0');
                if (v > kMaxCount) return false;
            }
            return true;
        };
        if (!number(lo)) return fail("{ needs a count up to 1000: {m}, {m,} or {m,n}");
        hi = lo;
        if (more() && peek() == ',') {
            ++i;
            hi = -1;
            if (more() && peek() != '}' && !number(hi)) return fail("{m,n} needs counts up to 1000");
        }
        if (!more() || peek() != '}') return fail("a { without its }");
        ++i;
        if (hi >= 0 && hi < lo) return fail("{m,n} needs m <= n");
        return true;
    }

    bool too_long(size_t n) { return n > kMaxInsts ? fail("the pattern expands past " + std::to_string(kMaxInsts) + " steps") : false; }

    bool atom(Frag& f, bool& zero_width, int depth) {
        zero_width = false;
        const char c = s[i++];
        std::bitset<256> set;
        switch (c) {
            case '(': {
                if (depth >= kMaxDepth) return fail("groups nest deeper than 64");
                if (more() && peek() == '?') {
                    if (i + 1 < s.size() && s[i + 1] == ':') i += 2;
                    else return fail("(? groups other than (?: are not in the supported subset");
                }
                if (!alternation(f, depth + 1)) return false;
                if (!more() || peek() != ')') return fail("unbalanced parenthesis: a ( without its )");
                ++i;
                return true;
            }
            case '[':
                if (!bracket(set)) return false;
                f = one(set);
                return true;
            case '.':
                set.set();
                set.reset('\n');
                set.reset('\r');
                f = one(set);
                return true;
            case '\\':
                if (!escape(set)) return false;
                f = one(set);
                return true;
            case '^': f = Frag{Inst{Inst::Bol, 0, 0}}; zero_width = true; return true;
            case '$': f = Frag{Inst{Inst::Eol, 0, 0}}; zero_width = true; return true;
            case '*': case '+': case '?': case '{':
                return fail(std::string(1, c) + " has nothing to repeat");
            default:
                set.set(static_cast<unsigned char>(c));
                f = one(set);
                return true;
        }
    }

    bool sequence(Frag& f, int depth) {
        f.clear();
        while (more() && peek() != '|' && peek() != ')') {
            Frag a;
            bool zero_width = false;
            if (!atom(a, zero_width, depth)) return false;
            if (more() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) {
                if (zero_width) return fail(std::string(1, peek()) + " has nothing to repeat");
                int lo = 0, hi = -1;
                const char q = s[i++];
                if (q == '+') lo = 1;
                else if (q == '?') hi = 1;
                else if (q == '{' && !braces(lo, hi)) return false;
                if (more() && peek() == '?') ++i;  // lazy: the same set of names matches
                if (more() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{'))
                    return fail(std::string(1, peek()) + " has nothing to repeat");
                if (too_long(a.size() * static_cast<size_t>(std::max(lo, hi) + 1))) return false;
                Frag r;
                for (int k = 0; k < lo; ++k) append(r, a);
                if (hi < 0) {  // L: split body, end; body; jmp L
                    Frag star{Inst{Inst::Split, 1, static_cast<int>(a.size()) + 2}};
                    append(star, a);
                    star.push_back(Inst{Inst::Jmp, 0, 0});
                    append(r, star);
                } else {
                    for (int k = lo; k < hi; ++k) {
                        Frag opt{Inst{Inst::Split, 1, static_cast<int>(a.size()) + 1}};
                        append(opt, a);
                        append(r, opt);
                    }
                }
                a.swap(r);
            }
            append(f, a);
            if (too_long(f.size())) return false;
        }
        return true;
    }

    bool alternation(Frag& f, int depth) {
        if (!sequence(f, depth)) return false;
        while (more() && peek() == '|') {
            ++i;
            Frag b;
            if (!sequence(b, depth)) return false;
            // split a, b; a; jmp end; b
            Frag alt{Inst{Inst::Split, 1, static_cast<int>(f.size()) + 2}};
            append(alt, f);
            alt.push_back(Inst{Inst::Jmp, static_cast<int>(f.size() + b.size()) + 2, 0});
            append(alt, b);
            f.swap(alt);
            if (too_long(f.size())) return false;
        }
        return true;
    }
};

bool TensorPattern::compile(const std::string& pattern, std::string& why) {
    prog_.clear();
    classes_.clear();
    PatternCompiler c{pattern, *this, 0, {}};
    Frag f;
    const bool ok = c.alternation(f, 0) && (!c.more() || c.fail("unbalanced parenthesis: a ) without its ("));
    if (!ok) {
        why = c.why;
        return false;
    }
    prog_ = f;
    prog_.push_back(Inst{Inst::Match, 0, 0});
    return true;
}

// [SECTION] search --------------------------------------------------------------------------------
bool TensorPattern::search(const std::string& name) const {
    const size_t n = prog_.size(), len = name.size();
    if (n == 0) return false;
    if (mark_.size() != n) mark_.assign(n, 0);
    clist_.clear();
    nlist_.clear();
    const std::uint64_t base = stamp_ + 1;  // position pos is stamp base + pos
    stamp_ += len + 1;
    // Follows jumps, splits and assertions from `pc` at position `pos`, adding the threads that
    // wait on a character (or match) to `list`.
    auto add = [&](std::vector<int>& list, int pc, size_t pos) {
        const std::uint64_t stamp = base + pos;
        stack_.assign(1, pc);
        while (!stack_.empty()) {
            const int at = stack_.back();
            stack_.pop_back();
            if (mark_[static_cast<size_t>(at)] == stamp) continue;
            mark_[static_cast<size_t>(at)] = stamp;
            const Inst& in = prog_[static_cast<size_t>(at)];
            switch (in.op) {
                case Inst::Jmp: stack_.push_back(in.x); break;
                case Inst::Split: stack_.push_back(in.y), stack_.push_back(in.x); break;
                case Inst::Bol: if (pos == 0) stack_.push_back(at + 1); break;
                case Inst::Eol: if (pos == len) stack_.push_back(at + 1); break;
                default: list.push_back(at);
            }
        }
    };
    for (size_t pos = 0; pos <= len; ++pos) {
        add(clist_, 0, pos);  // regex_search: a match may start anywhere
        for (int pc : clist_) {
            const Inst& in = prog_[static_cast<size_t>(pc)];
            if (in.op == Inst::Match) return true;
            if (pos < len && classes_[static_cast<size_t>(in.x)][static_cast<unsigned char>(name[pos])]) add(nlist_, pc + 1, pos + 1);
        }
        clist_.swap(nlist_);
        nlist_.clear();
    }
    return false;
}

// [SECTION] parse ---------------------------------------------------------------------------------
namespace {

const char* const kOverrideField = "inference.llamacpp.override_tensor";
const char* const kAccepted =
    "pattern=buffer_type pairs separated by commas (-ot \"blk\\.(1[6-9])\\.ffn_.*_exps\\.=CPU\"); patterns in the regex subset: "
    "literals, ., \\ escapes, [] classes and ranges, ( | ) groups, * + ? {m,n}, ^ $";

std::string ordinal(size_t k) {
    const char* suffix = k % 10 == 1 && k % 100 != 11 ? "st" : k % 10 == 2 && k % 100 != 12 ? "nd" : k % 10 == 3 && k % 100 != 13 ? "rd" : "th";
    return std::to_string(k) + suffix;
}

}  // namespace

bool parse_tensor_overrides(const std::string& value, const std::string& backend, int n_gpus, std::vector<TensorOverride>& out,
                            Error& err) {
    out.clear();
    if (value.empty()) return true;
    // The buffer types llama.cpp registers on this machine: the CPU's and one per GPU.
    std::vector<std::pair<std::string, int>> types{{"CPU", -1}};
    if (backend != "CPU")
        for (int d = 0; d < n_gpus; ++d) {
            if (backend == "Metal") types.push_back({"MTL" + std::to_string(d), d});
            types.push_back({backend == "Metal" && d == 0 ? std::string("Metal") : backend + std::to_string(d), d});
        }
    auto fail = [&](size_t k, const std::string& what) {
        err = Error{kOverrideField, std::string(kOverrideField) + ": the " + ordinal(k) + " pair " + what};
        return false;
    };
    size_t start = 0, k = 0;
    while (start <= value.size()) {
        const size_t end = std::min(value.find(',', start), value.size());
        const std::string item = value.substr(start, end - start);
        start = end + 1;
        ++k;
        const size_t eq = item.find('=');
        if (eq == std::string::npos)
            return fail(k, "\"" + item + "\" has no '=' (llama.cpp: \"invalid value\"); accepted: " + kAccepted);
        TensorOverride o;
        o.pattern = item.substr(0, eq);
        o.buffer = item.substr(eq + 1);
        if (o.pattern.empty()) return fail(k, "\"" + item + "\" has an empty pattern, which would match every tensor; accepted: " + kAccepted);
        bool known = false;
        for (const auto& t : types)
            if (t.first == o.buffer) known = true, o.device = t.second;
        if (!known) {
            std::string list;
            for (const auto& t : types) list += (list.empty() ? "" : ", ") + t.first;
            return fail(k, "names the buffer type \"" + o.buffer + "\", which this machine does not have (llama.cpp: \"unknown buffer type\"); one of " + list);
        }
        std::string why;
        if (!o.re.compile(o.pattern, why)) return fail(k, "pattern \"" + o.pattern + "\": " + why + "; accepted: " + kAccepted);
        out.push_back(std::move(o));
    }
    return true;
}

int first_override(const std::vector<TensorOverride>& overrides, const std::string& name) {
    for (size_t k = 0; k < overrides.size(); ++k)
        if (overrides[k].re.search(name)) return static_cast<int>(k);
    return -1;
}

}  // namespace vc
