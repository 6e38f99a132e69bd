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
#include "core/status.hpp"

namespace vc::io {

// The largest header a reader takes (GGUF tokenizer arrays are ~10 MB for a 150k vocabulary;
// safetensors caps its header at 100 MB, safetensors/src/tensor.rs MAX_HEADER_SIZE).
inline constexpr std::uint64_t kMaxImportHeaderBytes = 100ull << 20;
// The largest JSON document (config.json, an index) taken whole.
inline constexpr std::uint64_t kMaxImportJsonBytes = 64ull << 20;

struct MissingKey {
    std::string field;  // the config field it fills, "model.heads"
    std::string keys;   // the keys looked for, "num_attention_heads, n_head"
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
};

// Reads `size` bytes from the start of a file of `file_size` bytes (0: the bytes are the whole
// file). The kind is found from the bytes (GGUF magic, safetensors length + '{', JSON); `name` only
// words the messages.
ModelImport import_model(const std::uint8_t* data, std::size_t size, const std::string& name, std::uint64_t file_size = 0);

// Several files of one model (config.json + a .safetensors or index): the first complete
// architecture, the exact weights of the files that have a tensor table (summed across shards).
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

}  // namespace vc::io
