// vramcalc core: the time of one training step for one layout (docs/planner.md, "Step time").
// Per micro-batch and pipeline stage: every GEMM at an efficiency set by its smallest dimension,
// the attention core, elementwise kernels at HBM speed, tensor/context/expert-parallel collectives;
// then the pipeline bubble, pipeline sends, data-parallel gradient traffic with its overlap rule,
// and the optimizer step.
#include <algorithm>
#include <cmath>

#include "core/plan/collectives.hpp"
#include "core/plan/plan_internal.hpp"

namespace vc {

namespace {

// Time of a GEMM (M x K) x (K x N) at the shape-dependent efficiency.
double gemm_s(double M, double K, double N, double peak, const PlanConstants& k) {
    if (M <= 0 || K <= 0 || N <= 0 || peak <= 0) return 0;
    const double d = std::min({M, K, N});
    const double eff = k.gemm_efficiency_max * d / (d + k.gemm_half_dim);  // step_time_for fills gemm_efficiency_max
    return 2.0 * M * K * N / (peak * eff);
}

bool uses_flash(const Config& cfg) {
    AttentionKernel a = cfg.training.attention;
    if (a == AttentionKernel::Auto) {
        const ProfileBehaviour* pr = find_training_profile(cfg.training.profile);
        a = pr ? pr->attention : AttentionKernel::Flash;
    }
    return a != AttentionKernel::Eager;
}

}  // namespace

StepPasses step_passes(bool frozen_base, Recompute recompute) {
    StepPasses p;
    if (frozen_base) p.linear.backward = p.head.backward = 1;
    const double full = recompute == Recompute::Full ? 1 : 0;
    p.linear.recompute = p.elementwise.recompute = p.adapters.recompute = full;
    p.attention.recompute = recompute == Recompute::None ? 0 : 1;
    return p;
}

TrainingFlops training_flops_per_token(const Config& cfg) {
    auto r = resolve_model(cfg.model);
    const ModelSpec& m = r.ok ? r.value : cfg.model;
    const ParamBreakdown pb = model_params(m);
    const double seq = cfg.run.seq;
    const double hd = m.head_dim > 0 ? m.head_dim : (m.heads > 0 ? static_cast<double>(m.hidden) / m.heads : 0);
    const double qw = m.kv_lora_rank > 0 ? m.heads * static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim) : m.heads * hd;
    const bool frozen = cfg.training.finetune != FinetuneMethod::Full;
    const StepPasses ps = step_passes(frozen, resolved_recompute(cfg));  // auto: the profile's choice
    // Forward FLOPs per token of each kind.
    const double linear = 2.0 * (pb.active - pb.embedding - pb.output - pb.norms);
    const double head = 2.0 * static_cast<double>(m.hidden) * m.vocab;  // the LM head's matmul counts, tied or not
    const double attention = 4.0 * m.layers * seq * qw;
    double adapters = 0;
    if (frozen) {
        const LoraActiveParams a = lora_active_params(m, cfg.training);
        const double moe_layers = moe_layer_count(m);
        adapters = 2.0 * ((m.layers - moe_layers) * a.dense_layer + moe_layers * a.moe_layer + a.head);
    }
    TrainingFlops f;
    const auto add = [&f](double forward, const Passes& p) {
        f.forward += forward;
        f.backward += forward * p.backward;
        f.recompute += forward * p.recompute;
    };
    add(linear, ps.linear);
    add(head, ps.head);
    add(attention, ps.attention);
    add(adapters, ps.adapters);
    return f;
}

PlanModel plan_model(const Config& cfg, const GpuSpec& gpu) {
    PlanModel pm;
    auto r = resolve_model(cfg.model);
    pm.m = r.ok ? r.value : cfg.model;
    const ModelSpec& m = pm.m;
    const ParamBreakdown pb = model_params(m);
    pm.h = m.hidden;
    pm.heads = m.heads;
    pm.kv_heads = m.kv_heads > 0 ? m.kv_heads : m.heads;
    pm.hd = m.head_dim > 0 ? m.head_dim : (m.heads > 0 ? pm.h / m.heads : 0);
    pm.qw = m.kv_lora_rank > 0 ? m.heads * static_cast<double>(m.qk_nope_head_dim + m.qk_rope_head_dim) : m.heads * pm.hd;
    pm.kvw = m.kv_lora_rank > 0 ? m.kv_lora_rank + m.qk_rope_head_dim : pm.kv_heads * pm.hd;
    pm.ffn = m.ffn;
    pm.vocab = m.vocab;
    pm.seq = cfg.run.seq;
    pm.layers = m.layers;
    pm.moe_layers = moe_layer_count(m);
    pm.dense_layers = pm.layers - pm.moe_layers;
    pm.attn_params = pb.per_layer_attention;
    pm.gated = m.mlp != MlpKind::Gelu;
    pm.mlp_params = (pm.gated ? 3.0 : 2.0) * pm.h * pm.ffn;
    pm.experts = m.experts;
    pm.top_k = m.top_k;
    pm.shared = m.shared_experts;
    pm.expert_ffn = m.expert_ffn;
    pm.expert_params = pb.per_expert;
    pm.total_params = pb.total;
    pm.embedding_params = pb.embedding + pb.output;
    pm.expert_params_total = pb.experts_routed;
    pm.flash = uses_flash(cfg);
    const TrainPrecision prec = cfg.training.precision;
    pm.p = prec == TrainPrecision::Fp32 ? 4 : 2;
    // The training engine's gradient bytes (FP32 under torch autocast's FP32 params or FP32 buffers).
    const ProfileBehaviour* pr = find_training_profile(cfg.training.profile);
    pm.grad_bytes = pr ? gradient_bytes(cfg.training, *pr) : (prec == TrainPrecision::Fp32 ? 4 : 2);
    // LoRA / QLoRA: the frozen base has no gradients and no optimizer state; the training engine's
    // count of the adapters, over the base's parameters the layout splits, sets the share that has.
    // Its linears' backward computes the input's gradient only (step_passes); the adapters' GEMMs
    // (rank r wide) run forward and backward.
    pm.frozen_base = cfg.training.finetune != FinetuneMethod::Full;
    if (pm.frozen_base) {
        if (pm.total_params > 0) {
            auto tr = training_result(cfg);
            if (tr.ok) pm.trainable_share = tr.value.params_trainable / pm.total_params;
        }
        const LoraActiveParams a = lora_active_params(m, cfg.training);
        pm.lora_rank = cfg.training.lora.rank;
        pm.lora_dense = a.dense_layer;
        pm.lora_moe = a.moe_layer;
        pm.lora_head = a.head;
        pm.lora_merged_up_out = a.merged_up_out;
        pm.lora_merged_down_in = a.merged_down_in;
    }
    const double bf16 = gpu.bf16_tflops * 1e12;
    pm.attn_peak = prec == TrainPrecision::Fp32 ? bf16 / 2 : bf16;  // FP32 training runs TF32 tensor cores at half rate
    pm.gemm_peak = prec == TrainPrecision::Fp8Mixed && gpu.fp8_tflops > 0 ? gpu.fp8_tflops * 1e12 : pm.attn_peak;
    pm.hbm = gpu.bandwidth_gbps * 1e9;
    pm.model_flops_per_token = training_flops_per_token(cfg).model();
    return pm;
}

StepTime step_time_for(const PlanModel& pm, const PlanHardware& hw, const PlanConstants& k_in, const Layout& l) {
    StepTime st;
    PlanConstants k = k_in;
    if (!(k.gemm_efficiency_max > 0)) k.gemm_efficiency_max = hw.gemm_share;
    if (!(k.attention_efficiency > 0)) k.attention_efficiency = hw.attention_share;
    const double tp = l.tp, cp = l.cp, ep = l.ep, pp = l.pp, v = std::max(1, l.v);
    const double T = static_cast<double>(l.micro) * pm.seq / cp;  // tokens of one micro-batch on one GPU
    const double m_count = std::max(1, l.accum);
    const double hbm = pm.hbm * k.hbm_efficiency;
    const double p = pm.p;
    const double gbytes = k.grad_comm_bytes > 0 ? k.grad_comm_bytes : pm.grad_bytes;
    const bool full = l.recompute == Recompute::Full;
    const bool sp = l.sp && l.tp > 1;

    // Forward time of one dense or MoE layer's parts (seconds), one micro-batch.
    const double qkv_n = std::max(0.0, pm.attn_params / std::max(1.0, pm.h) - pm.qw) / tp;
    const double attn_gemm = gemm_s(T, pm.h, qkv_n, pm.gemm_peak, k) + gemm_s(T, pm.qw / tp, pm.h, pm.gemm_peak, k);
    const double dense_mlp = pm.gated ? gemm_s(T, pm.h, 2 * pm.ffn / tp, pm.gemm_peak, k) + gemm_s(T, pm.ffn / tp, pm.h, pm.gemm_peak, k)
                                      : gemm_s(T, pm.h, pm.ffn / tp, pm.gemm_peak, k) + gemm_s(T, pm.ffn / tp, pm.h, pm.gemm_peak, k);
    double moe_mlp = 0;
    if (pm.moe_layers > 0) {
        // Routed tokens spread evenly: each of the experts / ep local experts sees T x top_k x ep / experts tokens.
        const double local_experts = pm.experts / ep;
        const double tok = T * pm.top_k * ep / std::max(1.0, pm.experts);
        const double ef = pm.expert_ffn / tp;
        const double one = pm.gated ? gemm_s(tok, pm.h, 2 * ef, pm.gemm_peak, k) + gemm_s(tok, ef, pm.h, pm.gemm_peak, k)
                                    : gemm_s(tok, pm.h, ef, pm.gemm_peak, k) + gemm_s(tok, ef, pm.h, pm.gemm_peak, k);
        moe_mlp = local_experts * one;
        if (pm.shared > 0)
            moe_mlp += pm.gated ? gemm_s(T, pm.h, 2 * pm.shared * pm.expert_ffn / tp, pm.gemm_peak, k) + gemm_s(T, pm.shared * pm.expert_ffn / tp, pm.h, pm.gemm_peak, k)
                                : gemm_s(T, pm.h, pm.shared * pm.expert_ffn / tp, pm.gemm_peak, k) + gemm_s(T, pm.shared * pm.expert_ffn / tp, pm.h, pm.gemm_peak, k);
    }
    // Attention core: QK^T and PV, 4 x T x keys x width / tp FLOPs; causal kernels skip the masked half.
    const double keys = pm.flash ? pm.seq / 2 : pm.seq;
    const double attn_core = 4.0 * T * keys * pm.qw / tp / (pm.attn_peak * k.attention_efficiency);
    // Elementwise kernels at HBM speed: norms and residual adds on h (replicated over TP unless SP),
    // the MLP activation and rotary on the sharded widths, softmax and dropout on eager scores.
    const double rep = 10.0 * pm.h / (sp ? tp : 1.0);
    const double dense_shard = ((pm.gated ? 3.0 : 2.0) * pm.ffn + 2.0 * (pm.qw + pm.kvw)) / tp;
    const double moe_shard = ((pm.gated ? 3.0 : 2.0) * pm.expert_ffn * (pm.top_k + pm.shared) + 2.0 * (pm.qw + pm.kvw)) / tp;
    const double scores = pm.flash ? 0.0 : 4.0 * pm.heads / tp * pm.seq;
    const double ew_scale = k.elementwise_passes * p * T / hbm;
    const double ew_dense = (rep + dense_shard) * ew_scale, ew_moe = (rep + moe_shard) * ew_scale;
    const double ew_scores = scores * ew_scale;

    // LoRA adapters: per adapted matrix (in x out) a T x in x r GEMM and a T x r x out one, 2 x T x
    // r x (in + out) FLOPs at the efficiency of their smallest side, the rank; split over TP as their base.
    const double r = std::max(1.0, pm.lora_rank);
    const auto adapter_s = [&](double params) { return params > 0 ? gemm_s(T, r, params / r / tp, pm.gemm_peak, k) : 0.0; };
    const double lora_dense = adapter_s(pm.lora_dense), lora_moe_adapters = adapter_s(pm.lora_moe);
    // peft's target_parameters merges each MoE layer's adapted expert tensors at every forward, whatever the
    // tokens (ParamWrapper's parametrization, W + scaling einsum(B, A): peft@5d602fd src/peft/tuners/lora/
    // layer.py:2436-2460, 2463-2491): per local expert an out x r x in GEMM for each fused tensor, rank-wide
    // like the adapters', and the sum W + delta read and written once at HBM speed (W, the delta, the merged
    // weight). Backward computes the gradients of A and B from the merged weight's, two GEMMs of the same
    // size, and full recomputation merges again: the adapters' passes.
    double lora_merge = 0;
    if (pm.moe_layers > 0 && (pm.lora_merged_up_out > 0 || pm.lora_merged_down_in > 0)) {
        const double local_experts = pm.experts / ep;
        const double up = pm.lora_merged_up_out / tp, down = pm.lora_merged_down_in / tp;  // ETP = TP splits each expert
        lora_merge = local_experts * (gemm_s(up, r, pm.h, pm.gemm_peak, k) + gemm_s(pm.h, r, down, pm.gemm_peak, k) +
                                      3.0 * pm.h * (up + down) * p / hbm);
    }
    const double lora_moe = lora_moe_adapters + lora_merge;

    // Forward, backward and recomputation of each kind of work (step_passes: a frozen base's
    // linears' backward is one forward, a trained one's two; full recomputation runs the forward
    // again, selective the attention core and its scores).
    const StepPasses ps = step_passes(pm.frozen_base, l.recompute);
    auto layer_step = [&](bool moe) {
        return (attn_gemm + (moe ? moe_mlp : dense_mlp)) * ps.linear.total() + (attn_core + ew_scores) * ps.attention.total() +
               (moe ? ew_moe : ew_dense) * ps.elementwise.total() + (moe ? lora_moe : lora_dense) * ps.adapters.total();
    };

    // Layers on the busiest stage (uneven splits put ceil(L / pp) on it), dense ones first.
    const double layers_on = std::ceil(pm.layers / pp);
    const double moe_on = std::min(layers_on, pm.moe_layers);
    const double dense_on = layers_on - moe_on;
    // The LM head and loss on the last stage: GEMM forward + backward (and its adapter's), FP32 logits passes.
    const double head = ps.head.total() * gemm_s(T, pm.h, pm.vocab / tp, pm.gemm_peak, k) + ps.adapters.total() * adapter_s(pm.lora_head) +
                        6.0 * T * pm.vocab / tp * 4.0 / hbm;
    const double compute_mb = dense_on * layer_step(false) + moe_on * layer_step(true) + head;

    // Tensor parallel: per layer 2 all-reduces forward and 2 backward (+2 when fully recomputed) of
    // T x h activations; sequence parallelism swaps each for a reduce-scatter + all-gather (same bytes).
    const Link tp_link = group_link(l.tp, 1, hw.gpus_per_node, hw.intra, hw.inter);
    double tp_mb = 0;
    if (l.tp > 1) {
        const double bytes = T * pm.h * p;
        const double one = sp ? reduce_scatter_s(bytes, l.tp, tp_link) + all_gather_s(bytes, l.tp, tp_link)
                              : all_reduce_s(bytes, l.tp, tp_link);
        tp_mb = layers_on * (full ? 6.0 : 4.0) * one * (1.0 - k.tp_overlap);
    }
    // Context parallel (ring attention): each layer passes K and V around the ring forward, and
    // K, V and their gradients backward, behind the attention core.
    double cp_mb = 0;
    if (l.cp > 1) {
        const Link cp_link = group_link(l.cp, l.tp, hw.gpus_per_node, hw.intra, hw.inter);
        const double kv = T * 2.0 * pm.kvw / tp * p;
        const double fwd = (cp - 1) * p2p_s(kv, cp_link), bwd = 2.0 * fwd;
        cp_mb = layers_on * (std::max(0.0, fwd - attn_core) * (full ? 2.0 : 1.0) + std::max(0.0, bwd - 2.0 * attn_core));
    }
    // Expert parallel: dispatch and combine all-to-all forward and backward (+2 when recomputed).
    double ep_mb = 0;
    if (l.ep > 1 && moe_on > 0) {
        const Link ep_link = group_link(l.ep, l.tp * l.cp, hw.gpus_per_node, hw.intra, hw.inter);
        const double bytes = T * pm.top_k * pm.h * p / tp;
        ep_mb = moe_on * (full ? 6.0 : 4.0) * all_to_all_s(bytes, l.ep, ep_link);
    }
    const double per_mb = compute_mb + tp_mb + cp_mb + ep_mb;

    st.compute = m_count * compute_mb;
    st.tp_comm = m_count * tp_mb;
    st.cp_comm = m_count * cp_mb;
    st.ep_comm = m_count * ep_mb;
    // Pipeline: (p - 1) / v micro-batch slots of fill and drain (1F1B; interleaved divides by v),
    // and the sends of activations between stages (T x h / tp bytes with Megatron's scatter/gather),
    // forward and backward, each micro-batch and chunk, on the critical path.
    if (l.pp > 1) {
        st.bubble = (pp - 1) / v * per_mb;
        const Link pp_link = group_link(l.pp, l.tp * l.cp * l.dp, hw.gpus_per_node, hw.intra, hw.inter);
        st.pp_comm = 2.0 * (m_count * v + pp - 1) * p2p_s(T * pm.h * p / tp, pp_link);
    }
    // Data parallel over dp x cp ranks: gradients reduced (all-reduce, or reduce-scatter + all-gather
    // of parameters under ZeRO-1/2: the same bytes); ZeRO-3 gathers parameters forward and backward
    // per micro-batch and reduce-scatters gradients. Expert parameters reduce over dp x cp x tp / ep.
    const double dense_stage = (pm.total_params - pm.expert_params_total - pm.embedding_params) * layers_on / pm.layers + pm.embedding_params / std::min(pp, 2.0);
    const double dense_local = dense_stage / tp;
    const double expert_local = pm.expert_params_total * layers_on / pm.layers / (ep * tp);
    const int dpg = l.dp * l.cp;
    const Link dp_link = group_link(dpg, l.tp, hw.gpus_per_node, hw.intra, hw.inter);
    const int edpg = std::max(1, l.dp * l.cp / l.ep);
    const Link edp_link = group_link(edpg, l.tp * l.ep, hw.gpus_per_node, hw.intra, hw.inter);
    const double tshare = pm.trainable_share;  // gradients exist for the trainable parameters only
    const double grad_sync = all_reduce_s(dense_local * tshare * gbytes, dpg, dp_link) +
                             all_reduce_s(expert_local * tshare * gbytes, edpg, edp_link);
    const double backward_last = 2.0 / 3.0 * per_mb;
    if (l.sharding == Sharding::Zero3) {
        const double gather = all_gather_s(dense_local * p, dpg, dp_link) + all_gather_s(expert_local * p, edpg, edp_link);
        const double rs = reduce_scatter_s(dense_local * tshare * gbytes, dpg, dp_link) +
                          reduce_scatter_s(expert_local * tshare * gbytes, edpg, edp_link);
        const double per_micro = (full ? 3.0 : 2.0) * gather + rs;
        st.dp_comm_total = m_count * per_micro;
        st.dp_comm = k.dp_overlap ? m_count * std::max(0.0, per_micro - per_mb) : st.dp_comm_total;
    } else {
        st.dp_comm_total = grad_sync;
        st.dp_comm = k.dp_overlap ? std::max(0.0, grad_sync - backward_last) : grad_sync;
    }
    // Optimizer step: memory-bound over the parameters this GPU updates.
    const double held = (dense_local + expert_local) * tshare / (l.sharding == Sharding::None ? 1.0 : static_cast<double>(dpg));
    st.optimizer = held * k.optimizer_bytes_per_param / hbm;

    st.total = st.compute + st.comm_exposed() + st.bubble + st.optimizer + k.step_overhead_s;
    const double tokens_step_gpu = m_count * l.micro * pm.seq * l.dp / (static_cast<double>(l.tp) * l.pp * l.cp * l.dp);
    st.tokens_per_s_per_gpu = st.total > 0 ? tokens_step_gpu / st.total : 0;
    st.model_flops_per_gpu = tokens_step_gpu * pm.model_flops_per_token;
    st.mfu = st.total > 0 && pm.attn_peak > 0 ? st.model_flops_per_gpu / (st.total * pm.attn_peak) : 0;
    return st;
}

StepTime step_time(const Config& cfg, const PlanHardware& hw, const PlanConstants& k, const Layout& l) {
    return step_time_for(plan_model(cfg, hw.gpu), hw, k, l);
}

}  // namespace vc
