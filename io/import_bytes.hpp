// vramcalc io: a bounds-checked little-endian reader over a file prefix, for the model importers.
// Every read checks the bytes left first. Running out of the prefix while the file goes on sets
// `more` (the caller asks for a longer prefix); running out of the file itself is an error naming
// what was being read and at which byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace vc::io {

class ByteReader {
public:
    ByteReader(const std::uint8_t* data, std::size_t size, std::uint64_t file_size)
        : data_(data), size_(size), file_size_(file_size > size ? file_size : size) {}

    bool ok() const { return err_.empty() && !more_; }
    bool more() const { return more_; }              // the prefix ended before the header did
    const std::string& error() const { return err_; }
    std::uint64_t pos() const { return pos_; }
    std::size_t size() const { return size_; }
    std::uint64_t file_size() const { return file_size_; }
    std::uint64_t file_left() const { return file_size_ - pos_; }  // bytes of the file after pos

    void fail(const std::string& msg) {
        if (ok()) err_ = msg;
    }
    // Whether `n` bytes can be read at pos; sets `more` or the error otherwise.
    bool need(std::uint64_t n, const char* what) {
        if (!ok()) return false;
        if (n <= size_ - pos_) return true;
        if (n <= file_size_ - pos_) {
            more_ = true;
            return false;
        }
        err_ = std::string(what) + " at byte " + std::to_string(pos_) + " needs " + std::to_string(n) + " bytes, the file ends after " +
               std::to_string(file_size_ - pos_);
        return false;
    }
    bool skip(std::uint64_t n, const char* what) {
        if (!need(n, what)) return false;
        pos_ += n;
        return true;
    }
    template <typename T>
    bool read(T& out, const char* what) {
        if (!need(sizeof(T), what)) return false;
        // Little-endian on every target this builds for (x86-64, wasm32).
        std::memcpy(&out, data_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return true;
    }
    // Skips up to `count` length-prefixed strings (a u64 length, then the bytes) that lie whole in
    // the prefix; returns how many. The first one that does not is left to read() and skip(), which
    // set `more` or the error. (A tokenizer has 100k-300k of them: one tight loop, no call each.)
    std::uint64_t skip_strings(std::uint64_t count) {
        if (!ok()) return 0;
        std::uint64_t p = pos_, i = 0;
        while (i < count && size_ - p >= 8) {
            std::uint64_t n;
            std::memcpy(&n, data_ + p, 8);
            if (n > size_ - p - 8) break;
            p += 8 + n;
            ++i;
        }
        pos_ = p;
        return i;
    }
    // `n` bytes as a string (n already checked by the caller against a limit).
    bool bytes(std::uint64_t n, std::string& out, const char* what) {
        if (!need(n, what)) return false;
        out.assign(reinterpret_cast<const char*>(data_ + pos_), static_cast<std::size_t>(n));
        pos_ += n;
        return true;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::uint64_t file_size_;
    std::uint64_t pos_ = 0;
    bool more_ = false;
    std::string err_;
};

}  // namespace vc::io
