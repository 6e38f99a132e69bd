// vramcalc CLI: --model-file PATH. Reads only the start of the file (the header and tensor table
// of a .gguf or .safetensors, a whole config.json), growing the read when the reader asks for more.
#include "model_file.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace vc::cli {

namespace {

constexpr std::size_t kFirstRead = 1 << 20;  // 1 MiB: a config.json, most safetensors headers

}  // namespace

io::ModelImport import_file(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    io::ModelImport fail;
    fail.name = path;
    if (!f) {
        fail.error = Error{"import", path + ": cannot open the file"};
        return fail;
    }
    std::uint64_t file_size = 0;
    if (std::fseek(f, 0, SEEK_END) == 0) {
        const long end = std::ftell(f);
        if (end > 0) file_size = static_cast<std::uint64_t>(end);
    }
    std::rewind(f);
    // The name without folders words the messages.
    const size_t slash = path.find_last_of("/\\");
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    std::vector<std::uint8_t> buf;
    std::uint64_t want = std::min<std::uint64_t>(file_size, kFirstRead);
    io::ModelImport r;
    for (int round = 0; round < 16; ++round) {
        const std::size_t have = buf.size();
        buf.resize(static_cast<std::size_t>(want));
        const std::size_t got = std::fread(buf.data() + have, 1, buf.size() - have, f);
        buf.resize(have + got);
        r = io::import_model(buf.data(), buf.size(), name, file_size);
        if (r.ok || r.need_bytes == 0 || r.need_bytes <= buf.size() || got == 0) break;
        want = r.need_bytes;
    }
    std::fclose(f);
    return r;
}

}  // namespace vc::cli
