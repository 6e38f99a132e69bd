// vramcalc core: interconnects (intra-node links and inter-node fabrics) and GPU nodes, for the
// cluster planner (core/plan/). Each figure is a named field with a one-line source in
// fabrics.cpp; a caller can pass its own FabricSpec / NodeSpec wherever one is accepted (that is
// the override). Bandwidths are per GPU, per direction, in GB/s (1e9 bytes per second).
#pragma once

#include <string>
#include <vector>

#include "core/catalog/gpus.hpp"
#include "core/status.hpp"

namespace vc {

struct FabricSpec {
    std::string id;              // stable key, e.g. "ib-ndr400"
    std::string name;            // display name
    bool intra_node = false;     // a link inside a node (NVLink, PCIe) rather than between nodes
    double line_gbps = 0;        // line rate per GPU per direction, GB/s (a 400 Gb/s NIC per GPU: 50)
    double efficiency = 0;       // achieved share of the line rate for large collectives (bus bandwidth)
    double latency_us = 0;       // per hop / per message latency, microseconds (the alpha term)
    std::string source;          // one line: where the figures come from
    // Every GPU of the node linked directly to every other (NVSwitch, AMD's 8-GPU Infinity Fabric
    // mesh), as vLLM's is_fully_connected asks of NVML / amdsmi; PCIe and NVLink 2's hybrid cube
    // mesh (DGX-1: each V100 links to four of the seven others) are not.
    bool all_to_all = false;
    double achieved_gbps() const { return line_gbps * efficiency; }
};

// GPUs in one node and the link between them; the purchase price used for cluster costs.
struct NodeSpec {
    std::string gpu_id;          // GpuSpec::id
    int gpus_per_node = 8;
    std::string intra_fabric;    // FabricSpec::id of the link inside the node
    double purchase_usd = 0;     // price of one GPU (share of a node), USD; 0 = unknown
    std::string source;
    // Speed the datasheet peak does not tell (the planner's compute model): the share of the
    // dense peak a large BF16 GEMM reaches, and the attention kernel's share (FlashAttention).
    double gemm_share = 0.80;
    double attention_share = 0.55;
    std::string speed_source = "A100 figures (cuBLAS ~255 of 312 TF; FlashAttention-2 50-73% of peak)";
};

// A user's own fabric (`field` is its path, "plan.fabric_spec" or "plan.intra_spec") against the
// request table's plan.fabric_spec rows; an error names the inner field's whole path.
bool check_fabric(const std::string& field, const FabricSpec& f, Error& err);

const std::vector<FabricSpec>& fabric_catalog();       // intra-node links first, then fabrics
const FabricSpec* find_fabric(const std::string& id);  // nullptr if unknown
const std::vector<NodeSpec>& node_catalog();
const NodeSpec* find_node(const std::string& gpu_id);  // nullptr if the GPU has no node entry

// Whether a node of these cards has every GPU linked to every other: the node catalog's link for
// the GPU is `all_to_all` (the SXM / OAM boards). PCIe cards, pairs bridged by NVLink (H100 NVL),
// consumer cards and a custom GPU (no node entry): false.
bool gpu_fully_connected(const GpuSpec& g);

}  // namespace vc
