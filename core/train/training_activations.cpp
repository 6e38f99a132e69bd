// vramcalc core: saved activations of one transformer layer, per token. The analysis of
// Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer Models",
// Table 2: sbh(34 + 5as/h) for a GPT layer in 16-bit with dropout) generalised: every tensor that
// autograd keeps for backward is listed with its width and dtype, so FlashAttention, gated MLPs,
// GQA, MoE routing, eager FP32 norms, frozen (LoRA) bases and recomputation follow from the same
// list. docs/training.md walks through it term by term.
#include "core/train/training.hpp"

namespace vc {
namespace {

// LigerRMSNorm keeps one rstd a token, in FP32 under its llama and gemma casting modes (linkedin/Liger-Kernel@ead96b6
// src/liger_kernel/ops/rms_norm.py:452-453, saved beside X and W at :656-657).
constexpr double kLigerRstdBytes = 4;

// Bytes kept per token for the inputs of a group of projections that read the same tensor of
// width `width` (q/k/v read the attention norm's output, gate/up the MLP norm's output).
//   full training: the projections keep their input (once, or once per projection when autocast
//                  casts the shared input separately for each);
//   frozen base:   a frozen nn.Linear keeps nothing for its input; bitsandbytes' 4-bit matmul keeps
//                  it anyway (QLoRA); each LoRA adapter keeps its input, through its own dropout
//                  (mask + dropped copy) when LoRA dropout is on.
double projection_inputs(const LayerActivationInputs& in, double width, int projections, int adapted, bool one_dropout) {
    const double value_bytes = in.bytes;
    if (in.full) return in.linear_input_bytes * width * (in.autocast_casts ? projections : 1);
    double kept = in.qlora_saves_inputs ? value_bytes * width : 0;
    if (adapted > 0) {
        if (in.lora_dropout) kept += (value_bytes + 1) * width * (one_dropout ? 1 : adapted);
        else if (!in.qlora_saves_inputs) kept += value_bytes * width;
    }
    return kept;
}

int count_targets(unsigned targets, unsigned mask) {
    int n = 0;
    for (unsigned bit = 1; bit <= kLoraHead; bit <<= 1)
        if (targets & mask & bit) ++n;
    return n;
}

// The MLP of width `ffn_width` behind its input: activation input/output, the gated product's operands
// and the down projection's input (the product, or the GELU output).
double mlp_hidden(const LayerActivationInputs& in, double ffn_width) {
    const double value_bytes = in.bytes;
    const double hidden_bytes = in.mlp_hidden_bytes > 0 ? in.mlp_hidden_bytes : value_bytes;
    const ProfileBehaviour& profile = *in.profile;
    // Down projection input: kept when it trains, by QLoRA's 4-bit matmul, or by a LoRA adapter.
    double down_in = 0;
    if (in.full) down_in = in.linear_input_bytes * ffn_width;
    else {
        down_in = in.qlora_saves_inputs ? value_bytes * ffn_width : 0;
        if (in.lora_targets & kLoraDown) down_in += in.lora_dropout ? (value_bytes + 1) * ffn_width : (in.qlora_saves_inputs ? 0 : value_bytes * ffn_width);
    }
    if (in.gated) {
        // Liger's SwiGLU/GeGLU MLP (LigerSwiGLUMLP: down_proj(LigerSiLUMulFunction.apply(gate_proj(x), up_proj(x)))):
        // the function saves the gate and up outputs and recomputes the activation in backward
        // (linkedin/Liger-Kernel@ead96b6 src/liger_kernel/ops/swiglu.py:262, geglu.py:138), so the activation's
        // output is not kept; the product it returns is the down projection's input, as without it.
        if (in.liger_glu) return 2 * hidden_bytes * ffn_width + down_in;
        // gate output (the activation's input), activation output and up output (the product's two
        // inputs); compiled: only the two matmul outputs, the rest is recomputed.
        if (profile.compiled) return 2 * hidden_bytes * ffn_width + (in.full ? 0 : down_in);
        return 3 * hidden_bytes * ffn_width + down_in;
    }
    // GELU: its input, and its output as the down projection's input.
    if (profile.compiled) return hidden_bytes * ffn_width + (in.full ? 0 : down_in);
    return hidden_bytes * ffn_width + down_in;
}

}  // namespace

// Norms: each keeps its input; eager RMSNorm keeps an FP32 copy instead (x.float() feeds pow and the
// multiply by rsqrt, which save it), and the normalised tensor when its weight trains.
double norm_saved_bytes(const LayerActivationInputs& in) {
    const ProfileBehaviour& profile = *in.profile;
    // LigerRMSNorm saves its input X in its own dtype and an FP32 rstd a token (rms_norm.py:656-657), nothing
    // normalised: per hidden value the input's bytes and the rstd's share.
    if (in.liger_norm && !in.layernorm) return in.residual_bytes + (in.hidden > 0 ? kLigerRstdBytes / in.hidden : 0);
    if (in.layernorm || !profile.eager_rmsnorm || profile.compiled) return in.residual_bytes;
    double bytes = 4;
    if (in.full && profile.rmsnorm_normed_bytes != 0)
        bytes += profile.rmsnorm_normed_bytes < 0 ? in.residual_bytes : profile.rmsnorm_normed_bytes;
    return bytes;
}

LayerActivation layer_activation(const LayerActivationInputs& in) {
    LayerActivation r;
    const ProfileBehaviour& profile = *in.profile;
    const double value_bytes = in.bytes;
    const double h = in.hidden, q_width = in.q_width, kv_width = in.kv_width, v_width = in.v_width > 0 ? in.v_width : in.kv_width;
    const bool moe = in.experts > 0;
    const bool gqa = kv_width < q_width;

    // Full recomputation keeps only the layer's input (Korthikanti: 2sbh per layer).
    if (in.recompute == Recompute::Full) {
        r.replicated = in.residual_bytes * h;
        return r;
    }

    const bool flash = in.attention != AttentionKernel::Eager;
    // transformers' FlashAttention-2 (integrations/flash_attention.py: q, k, v only transposed) and its
    // SDPA with enable_gqa (integrations/sdpa_attention.py, no repeat_kv) keep K and V at their own heads.
    const bool fa2 = in.attention == AttentionKernel::Fa2;
    const bool expand_kv = profile.gqa_expand_kv && !fa2 && in.attention != AttentionKernel::SdpaGqa;
    const double k_kept = expand_kv ? q_width : kv_width;  // repeat_kv materialises K and V at every head
    double v_kept = expand_kv ? (v_width < q_width ? q_width * v_width / kv_width : v_width) : v_width;
    if (profile.mha_v_view && !gqa) v_kept = q_width + kv_width + v_width;   // V is a view into the fused QKV output

    // Op-level selective checkpointing (torchtitan) keeps the layer input, the attention kernel's
    // outputs and every other matmul output in forward order (q, k, v, o, gate, up, down: the
    // 1st, 3rd, 5th, 7th); everything else is recomputed in backward.
    if (in.recompute == Recompute::Selective && profile.op_level_selective) {
        const double ffn_width = moe ? in.top_k * in.expert_ffn + in.shared_experts * in.expert_ffn : in.ffn;
        const double gated_mm[] = {q_width, kv_width, v_width, h, ffn_width, ffn_width, h};
        const double plain_mm[] = {q_width, kv_width, v_width, h, ffn_width, h};
        const double* mm = in.gated ? gated_mm : plain_mm;
        const int n = in.gated ? 7 : 6;
        double kept = 0, kept_whole = 0;
        // Compiled, MUST_SAVE only bans recomputing a node, and the partitioner drops saved values the
        // backward does not use (torch/_functorch/partitioners.py should_ban_recomputation,
        // _extract_fwd_bwd_modules); a dense layer's down projection output feeds only the residual add.
        const bool down_unread = profile.compiled && in.gated && !moe;
        const int last_kept = down_unread ? n - 1 : n;
        for (int i = 0; i < last_kept; i += 2) {
            // The rowwise down projection's matmul output (width h) is whole on every TP rank.
            if (profile.tp_saves_gathered && in.gated && i == n - 1) kept_whole += mm[i];
            else kept += mm[i];
        }
        r.replicated = in.residual_bytes * h;
        r.sharded = value_bytes * kept + value_bytes * q_width + 4 * in.heads;
        r.gathered = value_bytes * kept_whole;
        // torchtitan's save list also keeps _c10d_functional.reduce_scatter_tensor outputs: with
        // TP + SP the sequence-sharded outputs of wo and w2 (2 x h per token / TP); compiled, only
        // wo's, which the recomputed ffn_norm input reads.
        if (profile.tp_saves_gathered) r.scattered = (down_unread ? 1 : 2) * value_bytes * h;
        return r;
    }

    r.replicated += in.norms * norm_saved_bytes(in) * h;
    // Qwen3 / Gemma-3 q_norm and k_norm run on the projections' outputs, one head at a time, and
    // save them for backward as the layer norms save theirs (huggingface/transformers@9ee3f43:
    // src/transformers/models/qwen3/modeling_qwen3.py Qwen3Attention.forward:
    // self.q_norm(self.q_proj(hidden_states).view(hidden_shape))); split over TP with the heads. OLMo-2/3's and
    // MiniMax-M2's span the whole projection, one RMS over every head (huggingface/transformers@000c33f:src/transformers/
    // models/olmo2/modeling_olmo2.py Olmo2Attention.forward: self.q_norm(self.q_proj(hidden_states)) before the view;
    // MiniMaxM2Attention is FlexOlmoAttention, the same): the same q_width + kv_width values saved, but a norm over all
    // the heads needs all of them, so tensor parallelism gathers the projections first (Olmo2Config.base_model_tp_plan,
    // huggingface/transformers@008e574:src/transformers/models/olmo2/configuration_olmo2.py: q_proj, k_proj
    // "colwise_gather_output", "we need to replicate here due to the added norm on q and k"): whole on every rank.
    if (in.qk_norm) (in.qk_norm_whole ? r.gathered : r.sharded) += norm_saved_bytes(in) * (q_width + kv_width);

    // Attention: the inputs of q, k, v.
    const int qkv_projections = profile.fused_qkv ? 1 : 3;
    // DTensor TP: the projections keep the all-gathered input, whole on every rank.
    double& projection_bucket = profile.tp_saves_gathered ? r.gathered : r.replicated;
    projection_bucket += projection_inputs(in, h, qkv_projections, count_targets(in.lora_targets, kLoraQ | kLoraK | kLoraV),
                                           profile.fused_qkv);
    // The attention core. FlashAttention/SDPA keeps q, k, v, its output and the FP32 log-sum-exp;
    // eager attention keeps q and k (for QK^T), the softmax output (its input too on PyTorch <=
    // 1.10), the dropout mask and dropped probabilities (or the probabilities cast back for P.V), and V.
    if (flash) {
        r.sharded += value_bytes * (q_width + k_kept + v_kept + q_width) + 4 * in.heads;
    } else {
        r.sharded += value_bytes * (q_width + k_kept + v_kept);
        const double sm = in.softmax_fp32 ? 4 : value_bytes;
        double per_score = sm;
        if (profile.softmax_saves_input) per_score += sm;
        if (in.attn_softcap) per_score += value_bytes;  // tanh keeps its output
        if (in.attention_dropout) per_score += 1 + value_bytes;
        else if (sm > value_bytes) per_score += value_bytes;
        if (in.recompute != Recompute::Selective) r.scores = per_score * in.heads * in.seq_kv;
    }
    // The output projection's input: under eager attention a separate copy (the matmul's output is
    // (batch, heads, seq, dim); the transpose(1, 2).contiguous() before o_proj copies it). A fused
    // kernel's saved output is the projection input itself: flash_attn returns (batch, seq, heads,
    // head_dim) (flash_attn_interface.py), and PyTorch's flash and memory-efficient SDPA backends run
    // on (batch, seq, heads, dim) and return it transposed (aten/src/ATen/native/transformers/cuda/
    // attention.cu), so transformers' transpose(1, 2).contiguous(), LitGPT's reshape and torchtitan's
    // .contiguous().view are views and o_proj saves the tensor the kernel saved.
    {
        const bool shared_with_core = flash;
        double o_in = 0;
        if (in.full) o_in = shared_with_core ? 0 : in.linear_input_bytes * q_width;
        else {
            if (in.qlora_saves_inputs && !shared_with_core) o_in += value_bytes * q_width;
            if (in.lora_targets & kLoraO)
                o_in += in.lora_dropout ? (value_bytes + 1) * q_width : ((in.qlora_saves_inputs || shared_with_core) ? 0 : value_bytes * q_width);
        }
        r.sharded += o_in;
    }
    if (in.dropout) r.replicated += h;  // residual dropout mask (1 byte)

    // MLP (dense, or routed experts plus shared experts).
    const int mlp_inputs = in.gated ? 2 : 1;
    // A plain MLP's first matrix counts as "up" (or "gate") for LoRA targets.
    // An MoE layer whose routed experts have no adapters (transformers 5's fused experts under peft's
    // target_modules) adapts the MLP input only through its shared experts.
    const bool mlp_lora = !moe || in.routed_lora || in.shared_experts > 0;
    const int adapted = mlp_lora ? count_targets(in.lora_targets, kLoraGate | kLoraUp) : 0;
    const int adapted_in = in.gated ? adapted : (adapted > 0 ? 1 : 0);
    projection_bucket += projection_inputs(in, h, mlp_inputs, adapted_in, false);
    if (!moe) {
        r.sharded += mlp_hidden(in, in.ffn);
    } else {
        // Router probabilities (FP32, one per expert), each token's dispatched copy per chosen
        // expert (the experts' input) and its expert outputs kept for the weighted combine.
        r.replicated += 4 * in.experts + in.top_k * 2 * value_bytes * h;
        LayerActivationInputs routed = in;
        if (!in.routed_lora) routed.lora_targets &= ~static_cast<unsigned>(kLoraMlp);
        r.expert += in.top_k * mlp_hidden(routed, in.expert_ffn) / (in.etp > 0 ? in.etp : 1);
        if (in.shared_experts > 0) r.sharded += in.shared_experts * mlp_hidden(in, in.expert_ffn);
    }
    if (in.dropout) r.replicated += h;  // MLP dropout mask
    return r;
}

}  // namespace vc
