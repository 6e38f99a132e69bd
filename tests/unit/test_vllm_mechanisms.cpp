// vLLM's sampler (inference.vllm.sampler), custom all-reduce (inference.vllm.custom_all_reduce) and MXFP4
// MoE loading: the profile peak, the non-torch memory and the weights each changes, computed by hand.
#include <catch.hpp>

#include <string>

#include "core/catalog/fabrics.hpp"
#include "core/estimate.hpp"
#include "core/serve/inference.hpp"
#include "core/units.hpp"
#include "inference_helpers.hpp"
#include "io/config_json.hpp"

using namespace vc;
using vc::test::plan;
using vc::test::serving;

namespace {

const double kGiB = 1073741824.0, kMiB = 1048576.0;

std::string component_text(const Config& cfg, const char* id) {
    auto e = estimate(cfg);
    REQUIRE(e.ok);
    return e.value.component(id)->formula;
}

}  // namespace

TEST_CASE("vLLM sampler: FlashInfer's dummy sampler run holds 14 B per logit, the PyTorch sort 40 B (X21)", "[vllm-mech]") {
    // Llama-3.2-1B BF16 as X21 profiles it: 2048 batched tokens, 256 sequences, vocab 128,256.
    Config cfg = serving("llama-3.2-1b", Engine::Vllm, "bf16", "h100-80gb", 131072);
    cfg.inference.vllm.max_num_batched_tokens = 2048;
    cfg.inference.vllm.max_num_seqs = 256;
    // Forward: 2048 x 2 B x (2 x 2048 + max(attention (32 + 2 x 8) x 64 + 32 x 64 = 5120,
    // MLP 3 x 8192 = 24576)) = 117,440,512 B. Logits: the hidden states 2048 x 2048 x 2 B =
    // 8,388,608 B plus 256 x 128,256 logits x bytes per logit; the larger of the two is the peak.
    const double hidden = 2048.0 * 2048 * 2, logits = 256.0 * 128256;
    SECTION("auto is the PyTorch path: 8,388,608 + 32,833,536 x 40 = 1,321,730,048 B") {
        CHECK(plan(cfg).activation_peak == hidden + logits * 40);
        CHECK(plan(cfg).activation_peak == 1321730048.0);
        cfg.inference.vllm.sampler = VllmSampler::Pytorch;
        CHECK(plan(cfg).activation_peak == 1321730048.0);
        CHECK(component_text(cfg, "activations").find("PyTorch top-k/top-p") != std::string::npos);
    }
    SECTION("flashinfer: 8,388,608 + 32,833,536 x 14 = 468,058,112 B = 0.436 GiB (X21 logs 0.45 GiB)") {
        cfg.inference.vllm.sampler = VllmSampler::Flashinfer;
        CHECK(plan(cfg).activation_peak == hidden + logits * 14);
        CHECK(plan(cfg).activation_peak == 468058112.0);
        CHECK(component_text(cfg, "activations").find("FlashInfer sampler") != std::string::npos);
        // The constant moves it: 10 B per logit gives 8,388,608 + 328,335,360 = 336,723,968 B.
        cfg.inference.constants.vllm_flashinfer_sampler_bytes_per_logit = 10;
        CHECK(plan(cfg).activation_peak == 336723968.0);
    }
    SECTION("logits for every batched token (profile_logits tokens) take no sampler setting") {
        cfg.inference.vllm.profile_all_tokens = true;
        const double all_tokens = plan(cfg).activation_peak;
        cfg.inference.vllm.sampler = VllmSampler::Flashinfer;
        CHECK(plan(cfg).activation_peak == all_tokens);
        // 8,388,608 + 2048 x 128,256 x 10 B = 8,388,608 + 2,626,682,880 = 2,635,071,488 B.
        CHECK(all_tokens == 2635071488.0);
    }
}

TEST_CASE("vLLM custom all-reduce: its two 8 MiB IPC buffers where vLLM runs it, NCCL's part with P2P (X19)", "[vllm-mech]") {
    // Non-torch per GPU: 0.13 GiB, with TP + 0.6 GiB, of which custom all-reduce is 2 x 8 MiB.
    const double with_car = 0.13 * kGiB + 0.6 * kGiB, without = with_car - 16 * kMiB;
    auto runtime = [](const char* gpu, int tp, VllmCustomAllReduce mode = VllmCustomAllReduce::Auto) {
        Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", gpu, 8192);
        cfg.inference.tp = tp;
        cfg.inference.vllm.custom_all_reduce = mode;
        return plan(cfg).runtime_gpu;
    };
    SECTION("auto: on at TP 2 on any card, at TP 4 and 8 only on fully connected (SXM / OAM) cards") {
        CHECK(runtime("h100-80gb", 1) == 0.13 * kGiB);
        CHECK(runtime("h100-80gb", 2) == with_car);
        CHECK(runtime("l40s-48gb", 2) == with_car);
        CHECK(runtime("h100-80gb", 4) == with_car);
        CHECK(runtime("a100-80gb", 8) == with_car);
        CHECK(runtime("l40s-48gb", 4) == without);
        CHECK(runtime("l4-24gb", 8) == without);
        // H100 NVL: NVLink bridges pairs only, so four of them are not fully connected.
        CHECK(runtime("h100-nvl-94gb", 4) == without);
    }
    SECTION("on / off force it either way") {
        CHECK(runtime("l40s-48gb", 4, VllmCustomAllReduce::On) == with_car);
        CHECK(runtime("h100-80gb", 2, VllmCustomAllReduce::Off) == without);
        CHECK(runtime("h100-80gb", 1, VllmCustomAllReduce::On) == 0.13 * kGiB);  // one GPU: no all-reduce
    }
    SECTION("the rule: world sizes 2, 4, 6, 8; a custom GPU is PCIe; no GPU keeps the figure before the rule") {
        CHECK(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 2, nullptr));
        CHECK(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 4, nullptr));
        CHECK_FALSE(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 3, nullptr));
        CHECK_FALSE(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 16, find_gpu("h100-80gb")));
        CHECK(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 6, find_gpu("mi300x-192gb")));
        GpuSpec lab;
        lab.name = "Lab card";
        lab.memory_bytes = 48 * kGiB;
        CHECK_FALSE(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 4, &lab));
        CHECK(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 2, &lab));
        // DGX-1's hybrid cube mesh links each V100 to four of the other seven: not every pair.
        CHECK_FALSE(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 4, find_gpu("v100-16gb")));
    }
    SECTION("fully connected is the node catalog's link, one place: NVSwitch and the MI300X mesh") {
        int linked = 0;
        for (const auto& g : gpu_catalog()) {
            const NodeSpec* n = find_node(g.id);
            const std::string link = n ? n->intra_fabric : "";
            CHECK(gpu_fully_connected(g) == (link == "nvlink5" || link == "nvlink4" || link == "nvlink3" || link == "infinity-fabric"));
            linked += gpu_fully_connected(g);
        }
        CHECK(linked == 6);  // H100 SXM, H200, B200, A100 80GB and 40GB SXM, MI300X
    }
    SECTION("the estimate names the assumption; the launch command carries the two settings") {
        Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "l40s-48gb", 8192);
        cfg.inference.tp = 4;
        CHECK(component_text(cfg, "runtime").find("custom all-reduce off (vLLM disables it beyond 2 GPUs without NVLink)") != std::string::npos);
        cfg.gpu_id = "h100-80gb";
        CHECK(component_text(cfg, "runtime").find("custom all-reduce IPC buffers 16 MiB") != std::string::npos);
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.component("runtime")->bytes == with_car);
        CHECK(e.value.launch_command.find("--disable-custom-all-reduce") == std::string::npos);
        cfg.inference.vllm.custom_all_reduce = VllmCustomAllReduce::Off;
        cfg.inference.vllm.sampler = VllmSampler::Flashinfer;
        e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.rfind("VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve llama-3.1-8b", 0) == 0);
        CHECK(e.value.launch_command.find(" --disable-custom-all-reduce") != std::string::npos);
    }
}

TEST_CASE("vLLM without GPU P2P: NCCL's buffers in host memory, no custom all-reduce; GeForce cards by default (X19)", "[vllm-mech]") {
    auto runtime = [](const char* gpu, int tp, GpuP2p p2p = GpuP2p::Auto, VllmCustomAllReduce car = VllmCustomAllReduce::Auto) {
        Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", gpu, 8192);
        cfg.inference.tp = tp;
        cfg.inference.vllm.p2p = p2p;
        cfg.inference.vllm.custom_all_reduce = car;
        return plan(cfg).runtime_gpu;
    };
    SECTION("auto: GeForce cards have none, so non-torch is the CUDA runtime's 0.13 GiB at any TP") {
        CHECK(runtime("rtx-4090-24gb", 2) == 0.13 * kGiB);  // not 0.13 + 0.6 GiB: no NCCL part, no custom all-reduce
        CHECK(runtime("rtx-3090-24gb", 4) == 0.13 * kGiB);
        CHECK(runtime("rtx-5090-32gb", 8) == 0.13 * kGiB);
        // The workstation RTX A6000 and datacenter PCIe cards keep P2P: 0.13 + 0.6 GiB at TP 2.
        CHECK(runtime("rtx-a6000-48gb", 2) == 0.73 * kGiB);
        CHECK(runtime("l40s-48gb", 2) == 0.73 * kGiB);
    }
    SECTION("on / off override the card; off also turns custom all-reduce off unless it is forced") {
        CHECK(runtime("rtx-4090-24gb", 2, GpuP2p::On) == 0.73 * kGiB);         // an NVLink-bridged or patched pair
        CHECK(runtime("h100-80gb", 2, GpuP2p::Off) == 0.13 * kGiB);             // NCCL_P2P_DISABLE=1
        // custom_all_reduce on counts its 2 x 8 MiB even so: 0.13 GiB + 16 MiB.
        CHECK(runtime("h100-80gb", 2, GpuP2p::Off, VllmCustomAllReduce::On) == 0.13 * kGiB + 16 * kMiB);
        CHECK(vllm_gpu_p2p(GpuP2p::Auto, nullptr));
        CHECK_FALSE(vllm_gpu_p2p(GpuP2p::Auto, find_gpu("rtx-4090-24gb")));
        CHECK_FALSE(vllm_custom_all_reduce_on(VllmCustomAllReduce::Auto, 2, find_gpu("h100-80gb"), false));
    }
    SECTION("the estimate names it; X19's card (a custom GPU, modified RTX 2080 Ti) reads 0.13 GiB with p2p off") {
        Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "rtx-4090-24gb", 8192);
        cfg.inference.tp = 2;
        CHECK(component_text(cfg, "runtime").find("NCCL buffers in host memory (no P2P: SHM transport); custom all-reduce off (vLLM needs P2P for it)") !=
              std::string::npos);
        cfg.gpu_id.clear();
        cfg.inference.has_custom_gpu = true;
        cfg.inference.custom_gpu.memory_bytes = 21.48 * kGiB;
        cfg.inference.tp = 4;
        CHECK(plan(cfg).runtime_gpu == 0.13 * kGiB + 0.6 * kGiB - 16 * kMiB);  // auto: a custom card keeps P2P
        cfg.inference.vllm.p2p = GpuP2p::Off;
        CHECK(plan(cfg).runtime_gpu == 0.13 * kGiB);  // X19 logs 0.20 GiB: -35%, was 0.71 GiB (+257%)
    }
    SECTION("the launch command says so: NCCL_P2P_DISABLE=1 and --disable-custom-all-reduce, as the plan has them") {
        Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "rtx-4090-24gb", 8192);
        cfg.inference.tp = 2;  // GeForce: no P2P by default
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.rfind("NCCL_P2P_DISABLE=1 vllm serve llama-3.1-8b", 0) == 0);
        CHECK(e.value.launch_command.find(" --tensor-parallel-size 2") != std::string::npos);
        CHECK(e.value.launch_command.find(" --disable-custom-all-reduce") != std::string::npos);
        cfg.gpu_id = "h100-80gb";  // NVSwitch: P2P on, nothing to say
        e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.rfind("vllm serve llama-3.1-8b", 0) == 0);
        CHECK(e.value.launch_command.find("--disable-custom-all-reduce") == std::string::npos);
        cfg.inference.vllm.p2p = GpuP2p::Off;  // turned off on a card that has it: vLLM's own P2P test would pass
        cfg.inference.vllm.sampler = VllmSampler::Flashinfer;
        e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.rfind("NCCL_P2P_DISABLE=1 VLLM_USE_FLASHINFER_SAMPLER=1 vllm serve llama-3.1-8b", 0) == 0);
        CHECK(e.value.launch_command.find(" --disable-custom-all-reduce") != std::string::npos);
        cfg.inference.vllm.custom_all_reduce = VllmCustomAllReduce::On;  // forced on: the plan counts it, no flag
        e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.find("--disable-custom-all-reduce") == std::string::npos);
        cfg.inference.tp = 1;  // one GPU: no NCCL
        e = estimate(cfg);
        REQUIRE(e.ok);
        CHECK(e.value.launch_command.find("NCCL_P2P_DISABLE") == std::string::npos);
    }
}

TEST_CASE("vLLM non-torch memory: the text reads the P2P and custom all-reduce decisions the bytes used", "[vllm-mech]") {
    Config cfg = serving("llama-3.1-8b", Engine::Vllm, "bf16", "rtx-4090-24gb", 8192);
    cfg.inference.tp = 2;
    cfg.inference.vllm.p2p = GpuP2p::On;  // a GeForce pair with peer access forced on
    const InferencePlan on = plan(cfg);
    CHECK(on.p2p);
    CHECK(on.all_reduce_off == nullptr);  // TP 2 with P2P: vLLM runs it
    // 0.13 GiB runtime + (0.6 GiB NCCL - 16 MiB) + 16 MiB of custom all-reduce = 0.73 GiB.
    CHECK(on.runtime_gpu == 0.73 * kGiB);
    CHECK(component_text(cfg, "runtime").find("CUDA runtime + NCCL buffers + custom all-reduce IPC buffers 16 MiB") != std::string::npos);
    // The reasons, in vLLM's order (custom_all_reduce.py): the setting, the world size, P2P, NVLink.
    const GpuSpec* l40s = find_gpu("l40s-48gb");
    CHECK(std::string(vllm_custom_all_reduce_off(VllmCustomAllReduce::Off, 2, l40s, true)) == "custom_all_reduce off");
    CHECK(std::string(vllm_custom_all_reduce_off(VllmCustomAllReduce::Auto, 3, l40s, false)) == "vLLM supports it at TP 2, 4, 6, 8 only");
    CHECK(std::string(vllm_custom_all_reduce_off(VllmCustomAllReduce::Auto, 4, l40s, false)) == "vLLM needs P2P for it");
    CHECK(std::string(vllm_custom_all_reduce_off(VllmCustomAllReduce::Auto, 4, l40s, true)) == "vLLM disables it beyond 2 GPUs without NVLink");
    CHECK(vllm_custom_all_reduce_off(VllmCustomAllReduce::On, 4, l40s, false) == nullptr);
}

TEST_CASE("vLLM sampler and custom all-reduce settings: JSON names, round trip, a named error", "[vllm-mech]") {
    auto r = io::parse_config(R"({"method":"detailed","task":"inference","model":{"preset":"llama-3.1-8b"},"gpu":"l40s-48gb",
        "inference":{"engine":"vllm","tp":2,"vllm":{"sampler":"flashinfer","custom_all_reduce":"off"}}})");
    REQUIRE(r.ok);
    CHECK(r.value.inference.vllm.sampler == VllmSampler::Flashinfer);
    CHECK(r.value.inference.vllm.custom_all_reduce == VllmCustomAllReduce::Off);
    auto back = io::config_from_json(io::config_to_json(r.value));
    REQUIRE(back.ok);
    CHECK(back.value.inference.vllm.sampler == VllmSampler::Flashinfer);
    CHECK(back.value.inference.vllm.custom_all_reduce == VllmCustomAllReduce::Off);
    auto bad = io::parse_config(R"({"task":"inference","inference":{"vllm":{"sampler":"triton"}}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.vllm.sampler");
    bad = io::parse_config(R"({"task":"inference","inference":{"vllm":{"custom_all_reduce":"yes"}}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.vllm.custom_all_reduce");
    auto p2p = io::parse_config(R"({"task":"inference","gpu":"l40s-48gb","inference":{"engine":"vllm","tp":2,"vllm":{"p2p":"off"}}})");
    REQUIRE(p2p.ok);
    CHECK(p2p.value.inference.vllm.p2p == GpuP2p::Off);
    auto p2p_back = io::config_from_json(io::config_to_json(p2p.value));
    REQUIRE(p2p_back.ok);
    CHECK(p2p_back.value.inference.vllm.p2p == GpuP2p::Off);
    bad = io::parse_config(R"({"task":"inference","inference":{"vllm":{"p2p":"shm"}}})");
    CHECK_FALSE(bad.ok);
    CHECK(bad.error.field == "inference.vllm.p2p");
}

TEST_CASE("vLLM MXFP4: the experts alone in MXFP4, padded on Marlin cards; gpt-oss's FP32 YaRN table (X29)", "[vllm-mech]") {
    // gpt-oss-20b: 24 layers, hidden 2880, 64 heads x 64, 8 KV heads, 32 experts of 2880, vocab 201,088.
    Config cfg = serving("gpt-oss-20b", Engine::Vllm, "mxfp4", "a100-80gb", 131072);
    const InferencePlan a100 = plan(cfg);
    SECTION("experts MXFP4, attention 16-bit (vLLM's Mxfp4Config: linear layers unquantized)") {
        // Experts: 24 x 32 x 3 x 2880 x 2880 = 19,110,297,600 weights x 4.25 bits / 8 = 10,152,345,600 B.
        CHECK(a100.weights.experts == 10152345600.0);
        // Attention: 24 x (4096 + 512 + 512 + 4096) x 2880 = 637,009,920 weights x 2 B = 1,274,019,840 B.
        CHECK(a100.weights.attention == 1274019840.0);
        // llama.cpp's MXFP4 GGUF (file type MXFP4_MOE) keeps attention in Q8_0: 637,009,920 x 34/32 B
        // = 676,823,040 B (tests/unit/test_quant.cpp has the whole file).
        Config gguf = cfg;
        gguf.inference.engine = Engine::LlamaCpp;
        CHECK(plan(gguf).weights.attention == 676823040.0);
        // An explicit experts format is the user's: bf16 + experts mxfp4 is the same split.
        Config split = cfg;
        split.inference.weights.format = "bf16";
        split.inference.weights.experts_format = "mxfp4";
        CHECK(plan(split).weights.total == a100.weights.total);
    }
    SECTION("the RoPE table in FP32: 131,072 x 64 x 4 B = 33,554,432 B") {
        CHECK(a100.rope_cache == 33554432.0);
    }
    SECTION("Marlin pads 2880 to 2944 (x128) and 3072 (x256) on the A100 and RTX cards; not on the H100") {
        // 3 x (2944 x 3072 - 2880 x 2880) = 2,248,704 weights per expert, x 32 x 24 = 1,727,004,672
        // x 4.25 / 8 = 917,471,232 B (0.854 GiB).
        CHECK(a100.moe_padding == 917471232.0);
        CHECK(a100.weights_gpu == a100.weights.per_gpu + 33554432.0 + 917471232.0);
        Config other = cfg;
        other.gpu_id = "rtx-5090-32gb";  // compute capability 12.0: Marlin too
        CHECK(plan(other).moe_padding == 917471232.0);
        other.gpu_id = "h100-80gb";  // 9.0: FlashInfer or triton_kernels, by what is installed
        CHECK(plan(other).moe_padding == 0);
        other.gpu_id = "t4-16gb";  // 7.5: below Mxfp4Config's minimum capability 80, refused (no plan)
        CHECK_FALSE(make_inference_plan(other).ok);
        other.gpu_id = "h100-80gb";
        CHECK(plan(other).weights_gpu == a100.weights_gpu - 917471232.0);
        // TP 2: 1440 per rank -> 1536; 3 x (1536 x 3072 - 1440 x 2880) = 1,714,176 per expert,
        // x 768 = 1,316,487,168 x 4.25 / 8 = 699,383,808 B per GPU.
        other.gpu_id = "a100-80gb";
        other.inference.tp = 2;
        CHECK(plan(other).moe_padding == 699383808.0);
        // Not MXFP4 experts: no padding.
        other.inference.tp = 1;
        other.inference.weights.format = "bf16";
        CHECK(plan(other).moe_padding == 0);
    }
    SECTION("the estimate says so; the A100's weights come to 13.70 GiB where X29 logs 13.72") {
        CHECK(component_text(cfg, "weights").find("experts MXFP4") != std::string::npos);
        CHECK(component_text(cfg, "weights").find("padded for vLLM's Marlin MoE kernel") != std::string::npos);
        CHECK(a100.weights_gpu / kGiB == Approx(13.70).margin(0.005));
    }
}

TEST_CASE("GPU catalog: every NVIDIA card has its compute capability, and its threads per SM follow from it", "[vllm-mech]") {
    // CUDA C++ Programming Guide, compute capabilities table: the most resident threads per SM.
    auto threads_at = [](int cc) { return cc == 75 ? 1024 : (cc == 86 || cc == 89 || cc == 120) ? 1536 : 2048; };
    for (const auto& g : gpu_catalog()) {
        INFO(g.id);
        if (gpu_vendor(g) == "nvidia") {
            CHECK(g.compute_capability >= 70);
            CHECK(g.threads_per_sm == threads_at(g.compute_capability));
        } else {
            CHECK(g.compute_capability == 0);
        }
    }
    CHECK(find_gpu("a100-80gb")->compute_capability == 80);
    CHECK(find_gpu("a10g-24gb")->compute_capability == 86);
    CHECK(find_gpu("h100-nvl-94gb")->compute_capability == 90);
    CHECK(find_gpu("b200-180gb")->compute_capability == 100);
    CHECK(find_gpu("rtx-5090-32gb")->compute_capability == 120);
    CHECK(find_gpu("t4-16gb")->compute_capability == 75);
}

TEST_CASE("vLLM whose pool holds less than one max_model_len sequence stops at start-up; one that holds some queues the rest", "[vllm-mech]") {
    // vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory: "To serve at least one request with
    // the models's max seq len (...) KV cache is needed, which is larger than the available KV cache
    // memory (...)" is a ValueError at start-up, not a queue.
    auto notes_of = [](const Config& cfg) {
        auto e = estimate(cfg);
        REQUIRE(e.ok);
        std::string all;
        for (const auto& n : e.value.notes) all += n + "\n";
        return all;
    };
    // Llama-3.1-70B BF16 on 2 x H100 80GB, util 0.9, max_model_len 32768 (the CLI's figures: pool
    // 3.695e9 B = 3.44 GiB per GPU). One sequence: 32768 x 2 x 80 layers x 4 KV heads per GPU x 128 x 2 B
    // = 32768 x 163840 B = 5.00 GiB > 3.44 GiB. The pool's blocks: floor(3.695e9 / (16 x 163840)) =
    // 1409, x 16 = 22544 tokens: vLLM's estimated maximum model length.
    Config cfg = serving("llama-3.1-70b", Engine::Vllm, "bf16", "h100-80gb", 32768);
    cfg.inference.tp = 2;
    const InferencePlan p = plan(cfg);
    CHECK(p.pool == Approx(3.695e9).epsilon(1e-3));
    std::string notes = notes_of(cfg);
    INFO(notes);
    CHECK(notes.find("vLLM would stop at start-up: one sequence of max_model_len 32768 needs 5.00 GiB of KV cache per GPU, more than "
                     "the 3.44 GiB pool (its blocks hold 22544 tokens): lower max_model_len or raise gpu_memory_utilization.") != std::string::npos);
    CHECK(notes.find("queues the rest") == std::string::npos);
    // max_model_len 16384: 2.50 GiB fits the pool once (floor(3.44 / 2.50) = 1); 4 sequences asked: queued.
    cfg.inference.context = 16384;
    cfg.inference.concurrency = 4;
    notes = notes_of(cfg);
    CHECK(notes.find("The KV pool (3.44 GiB) holds 1 sequence of 16384 tokens, fewer than the 4 asked: vLLM queues the rest.") != std::string::npos);
    CHECK(notes.find("would stop at start-up") == std::string::npos);
}
