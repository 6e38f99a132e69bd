// vramcalc core: model presets. Each entry is the model's published config (config.json on its
// model card); published_params_b is the total its card states.
#include "presets.hpp"

namespace vc {

static ModelSpec dense(const char* id, const char* name, const char* family, int L, int h, int a, int kv, int hd,
                       int ffn, MlpKind mlp, int V, bool tied, double published_b) {
    ModelSpec m;
    m.id = id;
    m.name = name;
    m.family = family;
    m.layers = L;
    m.hidden = h;
    m.heads = a;
    m.kv_heads = kv;
    m.head_dim = hd;
    m.ffn = ffn;
    m.mlp = mlp;
    m.vocab = V;
    m.tied_embeddings = tied;
    m.published_params_b = published_b;
    return m;
}

const std::vector<ModelSpec>& model_presets() {
    static const std::vector<ModelSpec> presets = {
        dense("llama-2-7b", "Llama-2 7B", "Llama", 32, 4096, 32, 32, 128, 11008, MlpKind::SwiGlu, 32000, false, 6.74),
        dense("llama-2-70b", "Llama-2 70B", "Llama", 80, 8192, 64, 8, 128, 28672, MlpKind::SwiGlu, 32000, false, 68.98),
        dense("llama-3.1-8b", "Llama-3.1 8B", "Llama", 32, 4096, 32, 8, 128, 14336, MlpKind::SwiGlu, 128256, false, 8.03),
        dense("llama-3.1-70b", "Llama-3.1 70B", "Llama", 80, 8192, 64, 8, 128, 28672, MlpKind::SwiGlu, 128256, false, 70.6),
    };
    return presets;
}

const ModelSpec* find_preset(const std::string& id) {
    for (const auto& m : model_presets())
        if (m.id == id) return &m;
    return nullptr;
}

}  // namespace vc
