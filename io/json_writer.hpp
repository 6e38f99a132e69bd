// vramcalc io: JSON text written straight into a string, with no nlohmann::json tree in between
// (issue 15: building and destroying the result's tree was a quarter of a detailed estimate's time
// in the JS library). Laid out as nlohmann's dump() lays out the same tree (indent -1 compact or 2
// spaces, error_handler replace; strings with its escaping), but a number is the shortest text that
// reads back as the same double (shortest_double), which nlohmann's grisu2 is not always: every JSON
// text of the CLI, the JS library and the page goes through here (io::dump writes a tree with it).
// Keys are written in the order given; a caller mirroring a nlohmann object writes them sorted, as
// its std::map holds them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace vc::io {

// A finite double as JSON text into `buf` (32 bytes suffice); returns its length. The digits are the
// fewest that read back as exactly `x` (strtod, JSON.parse: the same bits), as JavaScript's
// Number#toString and C++17's std::to_chars choose them (Emscripten 3.1.6's libc++ has no double
// std::to_chars); the layout is nlohmann's: fixed from 1e-4 to below 1e15 with ".0" on a whole
// number ("14000000000.0"), else "1.2345e+20"; -0 is "-0.0".
size_t shortest_double(char* buf, double x);

class JsonWriter {
public:
    // indent < 0: compact ({"a":1,"b":[2]}); otherwise one member per line, `indent` spaces a level.
    explicit JsonWriter(int indent = -1) : indent_(indent) {
        grow(8192);
        count_.reserve(8);
    }

    void begin_object() { open('{'); }
    void end_object() { close('}'); }
    void begin_array() { open('['); }
    void end_array() { close(']'); }
    // A member's name inside an object; its value comes next.
    void key(std::string_view k);
    // A name written in the code, a string literal of letters, digits and '_' (nothing to escape):
    // copied as it is, without the escape test (issue 15: the result's ~320 names were a tenth of
    // writing it). tests/unit/test_json_writer.cpp checks every result against nlohmann's bytes.
    template <size_t N>
    void key(const char (&k)[N]) {
        plain_key(k, N - 1);
    }

    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    void value(double x);   // NaN and infinities as null, as nlohmann writes them
    void value(int x) { integer(x); }
    void value(long long x) { integer(x); }
    void value(unsigned long long x);
    void value(bool b);
    void null();

    // Shorthands for one member.
    template <class K, class T>
    void member(const K& k, const T& v) {
        key(k);
        value(v);
    }

    std::string text() const { return out_.substr(0, size_); }
    std::string take() {  // the text, moved out (no copy); the writer is spent
        out_.resize(size_);
        return std::move(out_);
    }


private:
    void open(char c);
    void close(char c);
    void element();  // before a value or key: the comma and the line break with its indent
    void newline(size_t depth);
    void integer(long long x);
    void string(std::string_view s);
    void plain_key(const char* k, size_t n);
    void escaped(std::string_view s);  // a string with something to escape (string's slow way)
    void number(double x);  // a fractional or large number: shortest_double, remembered
    // The text so far is out_[0, size_): appended by memcpy into a string grown by doubling (libc++'s
    // std::string appends are out-of-line calls, most of the writer's time in WebAssembly), through
    // buf_ and cap_, its data and size (libc++ asks whether a string is short on each access).
    char* room(size_t n) {
        if (cap_ - size_ < n) grow(n);
        char* at = buf_ + size_;
        size_ += n;
        return at;
    }
    void grow(size_t n) {
        out_.resize(std::max(out_.size() * 2, size_ + n));
        buf_ = &out_[0];
        cap_ = out_.size();
    }
    void put(const char* s, size_t n);
    void put(char c) { *room(1) = c; }

    std::string out_;
    char* buf_ = nullptr;
    size_t cap_ = 0;
    size_t size_ = 0;
    std::vector<unsigned> count_;  // members written so far, per open container
    // The last numbers given to shortest_double (grisu2, ~700 instructions each) and their
    // text, by the low bits of their bits: a result repeats many (a GPU's utilization is its
    // neighbours' when their memory is the same; the KV pool in the breakdown and the components).
    struct Written {
        std::uint64_t bits = ~std::uint64_t{0};  // a NaN's bits: never a number written here
        unsigned char size = 0;
        char text[31] = {};
    };
    Written written_[16];
    int indent_;
    bool after_key_ = false;
};

}  // namespace vc::io
