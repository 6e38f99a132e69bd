// Fuzz target over the model importers (io/model_import.hpp): GGUF, safetensors, index and
// config.json readers, whole files and prefixes of longer ones, and the merge of several files. A finding is a crash, a sanitizer
// report, or an import that claims more bytes than a file can hold. Seeds: tests/fuzz/corpus/import/
// (small generated files, tests/fuzz/make_import_corpus.mjs).
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -DJSON_NOEXCEPTION=1 -I. -I<nlohmann include> \
//       tests/fuzz/import_fuzz.cpp io/*.cpp core/*.cpp core/*/*.cpp -o import_fuzz
//   ./import_fuzz -runs=1000000 tests/fuzz/corpus/import
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/model_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    // The last byte picks how the bytes are given: whole, or as the prefix of a longer file.
    const uint8_t mode = data[size - 1];
    const size_t n = size - 1;
    const uint64_t file_size = (mode & 1) ? static_cast<uint64_t>(n) * (1 + (mode >> 4)) + (mode >> 1) : 0;
    vc::io::ModelImport r = vc::io::import_model(data, n, "fuzz.bin", file_size);
    if (r.ok) {
        // Exact bytes come from a tensor table the file holds: never negative or non-finite.
        if (!(r.weights.total_bytes >= 0) || r.weights.total_bytes > 1e30) std::abort();
        (void)vc::io::import_to_json(r);
    } else if (r.need_bytes > 0 && file_size > 0 && r.need_bytes > file_size) {
        std::abort();  // asked for more than the file has
    }
    // Each reader on its own too (the dispatcher picks one by the first bytes).
    const std::string text(reinterpret_cast<const char*>(data), n);
    (void)vc::io::import_gguf(data, n, "f.gguf", file_size);
    (void)vc::io::import_safetensors(data, n, "f.safetensors", file_size);
    (void)vc::io::import_hf_config(text, "config.json");
    (void)vc::io::import_safetensors_index(text, "index.json");
    // Several files merged (the JS API's importFiles, several --model-file): the bytes cut in two
    // where the mode byte says, as the two parts of a split GGUF, and the whole with a second name.
    const size_t cut = n * (mode >> 4) / 16;
    const std::vector<vc::io::ImportBytes> files = {{data, cut, "m-00001-of-00002.gguf", 0},
                                                    {data + cut, n - cut, "m-00002-of-00002.gguf", 0},
                                                    {data, n, "mmproj.gguf", file_size}};
    (void)vc::io::import_files_json(files);
    return 0;
}
