// vramcalc io: local model import (docs/import.md). Reads a model's architecture and, where the
// file has one, its tensor table, from the bytes of a file the user holds; nothing is fetched.
//   Hugging Face config.json (every architecture core/model knows), pasted JSON included
//   GGUF v2/v3: header, typed metadata, tensor infos (exact bytes from the per-tensor ggml types)
//   safetensors: the JSON header (dtypes, shapes: exact parameters and the checkpoint's quantization)
//   model.safetensors.index.json: total_size and the tensor names
// Every reader works on a byte prefix of the file: it checks each count and length against the
// bytes there are before it allocates, asks for a longer prefix (need_bytes) when the header runs
// past the bytes given, and never throws (the WebAssembly build has exceptions off).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/model/model.hpp"
#include "core/quant/quant.hpp"
#include "core/serve/inference.hpp"
#include "core/status.hpp"

namespace vc::io {

// The largest header a reader takes (GGUF tokenizer arrays are ~10 MB for a 150k vocabulary;
// safetensors caps its header at 100 MB, safetensors/src/tensor.rs MAX_HEADER_SIZE).
inline constexpr std::uint64_t kMaxImportHeaderBytes = 100ull << 20;
// The most files one import merges (a 2 TB model in 50 GB split parts is 40).
inline constexpr std::size_t kMaxImportFiles = 256;
// The largest JSON document (config.json, an index) taken whole.
inline constexpr std::uint64_t kMaxImportJsonBytes = 64ull << 20;

struct MissingKey {
    std::string field;  // the config field it fills, "model.heads"
    std::string keys;   // the keys looked for, "num_attention_heads, n_head"
};

// A tensor's name and shape (ggml order: ne[0] the row length), as a GGUF header lists it.
struct GgufTensorShape {
    std::string name;
    std::uint32_t n_dims = 0;
    std::uint64_t ne[4] = {1, 1, 1, 1};
};

// One part of a split GGUF (llama.cpp gguf-split writes split.no, split.count and
// split.tensors.count into every part, the model's metadata into part 1 only). merge_imports adds
// the parts' tensors up when every part is given; one part alone gives no exact bytes.
struct GgufSplitPart {
    int count = 0;                     // split.count (0: not a part of a split file)
    int no = 0;                        // split.no, 0-based (part 1 is no 0)
    std::uint64_t tensors_total = 0;   // split.tensors.count: the whole model's tensors
    WeightsFile weights{};             // this part's tensors; layer_bytes by layer index as read
    std::vector<GgufTensorShape> tensors;  // the architecture's facts from tensor names (bias, MLP kind) need every part's
    // Each of `tensors`' bytes, elements, ggml type and part of the model (import_internal.hpp Part), in the same order:
    // merge_imports sums them again once part 1's metadata says which layers are the model's.
    struct TensorBytes {
        int part = 0;
        double bytes = 0, elements = 0;
        const char* type_name = "";  // a static name from the ggml type table
    };
    std::vector<TensorBytes> tensor_bytes;
    int nextn_layers = 0;  // part 1: <arch>.nextn_predict_layers, the multi-token-prediction blocks llama.cpp leaves unloaded
};

// What one file of several gave (merge_imports), for the page's status line.
struct ImportedFile {
    std::string name, kind, gave;
};

struct ModelImport {
    bool ok = false;                // read; `complete` says whether the architecture is whole
    Error error{};                  // !ok: field "import", the message names what is wrong and where
    std::uint64_t need_bytes = 0;   // !ok and > 0: the header runs past the prefix; read this many bytes from the start and retry
    std::string kind;               // "hf-config", "gguf", "safetensors", "safetensors-index"
    std::string name;               // the file name given
    std::string architecture;       // config.json architectures[0] / model_type, GGUF general.architecture
    bool complete = false;          // every architecture field read (else `missing` names the rest)
    ModelSpec model{};              // what was read (a custom architecture: id empty)
    std::vector<MissingKey> missing;
    std::vector<std::string> notes;
    WeightsFile weights{};          // exact bytes from a tensor table (total_bytes 0: none)
    std::string weights_format;     // the checkpoint's format as inference.weights names it ("q4_k_m", "gptq-int4"); "" = unknown
    int group_size = 0;             // GPTQ/AWQ group size read (0: not read)
    bool has_zero_point = true;     // GPTQ/AWQ
    bool act_order = false;         // GPTQ desc_act / g_idx
    std::string engine;             // the engine that loads the file ("llama.cpp" for GGUF), "" = any
    std::uint64_t header_bytes = 0; // bytes of the file read as its header
    std::uint64_t tensor_count = 0;
    GgufSplitPart split{};          // split.count > 1: this file is one part of a split GGUF
    // A vision projector (an mmproj GGUF: general.architecture "clip"), for inference.llamacpp.mmproj.
    bool has_mmproj = false;
    VisionProjector mmproj{};
    double mmproj_bytes = 0;        // its tensors' exact bytes
    std::vector<ImportedFile> files;  // merge_imports of several files: what each gave
};

// Reads `size` bytes from the start of a file of `file_size` bytes (0: the bytes are the whole
// file). The kind is found from the bytes (GGUF magic, safetensors length + '{', JSON); `name` only
// words the messages.
ModelImport import_model(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size = 0);

// A file's bytes for import_files_json: a prefix of `size` bytes of a file of `file_size` bytes.
struct ImportBytes {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::string name;
    std::uint64_t file_size = 0;
};

// Several files of one model (config.json + a .safetensors or index, the parts of a split GGUF, a
// GGUF + its mmproj): the first complete architecture, the exact weights of the files that have a
// tensor table (summed across shards and split parts), the vision projector of an mmproj. One file
// is returned as it is. Refused with a message naming the file: a file given twice, two
// config.json, two GGUF models, two projectors, two models' files (hidden sizes differ), the parts
// of two different splits, a split with parts missing (named: model-00002-of-00003.gguf).
ModelImport merge_imports(const std::vector<ModelImport>& parts);

// The readers, exposed for tests and the fuzz harness.
ModelImport import_hf_config(const std::string& text, const std::string& name);
ModelImport import_gguf(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size);
ModelImport import_safetensors(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size);
ModelImport import_safetensors_index(const std::string& text, const std::string& name);

// {"ok":true, "kind", "name", "architecture", "complete", "missing":[{field, keys}], "message",
//  "notes", "params", "weights_bytes", "weights_format", "config": {method, task, model, inference}}
// or {"ok":false, "error":{"field":"import","message"}, "need_bytes"}.
nlohmann::json import_to_json(const ModelImport& r);
// The JSON text of import_model (the Embind binding, web/engine_bindings.cpp).
std::string import_json(const std::uint8_t* data, std::size_t size, const std::string& name, double file_size);
// The JSON text of merge_imports over the files' prefixes (`vramcalc --model-file A --model-file B
// --print-import`; the binding of the JS API's importFiles).
std::string import_files_json(const std::vector<ImportBytes>& files);

}  // namespace vc::io
