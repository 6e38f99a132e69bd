// vramcalc core: interconnect and GPU-node data. Line rates are the vendors' figures per GPU and
// direction. The achieved share ("efficiency") is the bus bandwidth that nccl-tests report for
// large all-reduce messages divided by that line rate (nccl-tests doc/PERFORMANCE.md defines bus
// bandwidth): about 75-80% on NVLink/NVSwitch, about 90% on InfiniBand, lower on RoCE and much
// lower on TCP sockets. Latencies are the small-message figures of the same tests, rounded.
// Prices are indicative and dated (late 2025); the cluster-sizing guide is the source where named.
#include "core/catalog/fabrics.hpp"

#include "core/fields.hpp"

namespace vc {

bool check_fabric(const std::string& field, const FabricSpec& f, Error& err) {
    // plan.fabric_spec's rows in the request table (core/fields.cpp); plan.intra_spec has the same.
    if (check_members({{"plan.fabric_spec.line_gbps", f.line_gbps},
                       {"plan.fabric_spec.efficiency", f.efficiency},
                       {"plan.fabric_spec.latency_us", f.latency_us}},
                      err))
        return true;
    static const std::string own = "plan.fabric_spec";
    for (std::string* s : {&err.field, &err.message})
        if (s->rfind(own, 0) == 0) s->replace(0, own.size(), field);
    return false;
}

const std::vector<FabricSpec>& fabric_catalog() {
    static const std::vector<FabricSpec> catalog = {
        // intra-node links
        {"nvlink5", "NVLink 5 / NVSwitch (B200)", true, 900, 0.80, 3,
         "NVIDIA DGX B200 datasheet: 1.8 TB/s NVLink per GPU (both directions); nccl-tests busbw ~80% of it", true},
        {"nvlink4", "NVLink 4 / NVSwitch (H100, H200)", true, 450, 0.80, 3,
         "NVIDIA H100 datasheet: 900 GB/s NVLink per GPU (both directions); nccl-tests busbw ~360 GB/s", true},
        {"nvlink3", "NVLink 3 / NVSwitch (A100)", true, 300, 0.78, 4,
         "NVIDIA A100 datasheet: 600 GB/s NVLink per GPU (both directions); nccl-tests busbw ~230 GB/s", true},
        {"nvlink2", "NVLink 2 (V100, DGX-1 hybrid cube mesh)", true, 150, 0.75, 5,
         "NVIDIA V100 datasheet: 300 GB/s NVLink per GPU (both directions)"},
        {"infinity-fabric", "AMD Infinity Fabric (MI300X, 8-GPU mesh)", true, 448, 0.70, 5,
         "AMD MI300X datasheet: 7 links x 128 GB/s (both directions) = 896 GB/s per GPU; RCCL busbw ~70% of it", true},
        {"pcie5", "PCIe Gen5 x16 (no NVLink)", true, 64, 0.75, 8,
         "PCI-SIG Gen5 x16: 64 GB/s per direction; P2P through the host bridge reaches ~75%"},
        {"pcie4", "PCIe Gen4 x16 (no NVLink)", true, 32, 0.75, 8,
         "PCI-SIG Gen4 x16: 32 GB/s per direction; P2P through the host bridge reaches ~75%"},
        {"pcie3", "PCIe Gen3 x16 (no NVLink)", true, 16, 0.75, 10,
         "PCI-SIG Gen3 x16: 16 GB/s per direction"},
        // fabrics between nodes (one NIC per GPU unless the name says per node)
        {"ib-ndr400", "InfiniBand NDR 400 Gb/s per GPU", false, 50, 0.90, 5,
         "NVIDIA ConnectX-7 NDR: 400 Gb/s per port, one per GPU (DGX H100); nccl-tests ~45 GB/s per NIC"},
        {"ib-hdr200", "InfiniBand HDR 200 Gb/s per GPU", false, 25, 0.90, 5,
         "NVIDIA ConnectX-6 HDR: 200 Gb/s per port, one per GPU (DGX A100, Selene); nccl-tests ~22.5 GB/s per NIC"},
        {"roce-400", "RoCE v2 400 GbE per GPU", false, 50, 0.85, 8,
         "400 GbE per GPU with RDMA (RoCE v2); congestion control costs a few % more than InfiniBand"},
        {"roce-200", "RoCE v2 200 GbE per GPU", false, 25, 0.85, 8,
         "200 GbE per GPU with RDMA (RoCE v2)"},
        {"roce-100", "RoCE v2 100 GbE per GPU", false, 12.5, 0.85, 8,
         "100 GbE per GPU with RDMA (RoCE v2)"},
        {"eth-100-tcp", "100 GbE TCP, one NIC per 8-GPU node", false, 12.5 / 8, 0.60, 30,
         "one 100 GbE NIC per node shared by 8 GPUs, NCCL socket transport (~60% of line rate)"},
    };
    return catalog;
}

const FabricSpec* find_fabric(const std::string& id) {
    for (const auto& f : fabric_catalog())
        if (f.id == id) return &f;
    return nullptr;
}

// Hopper: large BF16 GEMMs reach ~650-750 of 989 TF under power limits (public cuBLAS sweeps);
// FlashAttention-2 reaches ~35-40% of H100 peak, FlashAttention-3 ~60-75% (Shah et al. 2024).
const char* const kHopperSpeed = "Hopper: cuBLAS BF16 ~700 of 989 TF; FlashAttention-2 ~35-40% of peak (FA3 paper, Shah et al. 2024)";

const std::vector<NodeSpec>& node_catalog() {
    static const std::vector<NodeSpec> catalog = {
        {"h100-80gb", 8, "nvlink4", 25000, "cluster-sizing guide: H100 ~$25K; DGX/HGX H100 8 GPUs on NVSwitch", 0.70, 0.40, kHopperSpeed},
        {"h100-nvl-94gb", 8, "pcie5", 30000, "H100 NVL PCIe cards, 8 per server (NVLink bridges pair two); price indicative", 0.70, 0.40, kHopperSpeed},
        {"h200-141gb", 8, "nvlink4", 32000, "HGX H200 8 GPUs on NVSwitch; price indicative (late 2025)", 0.72, 0.42, kHopperSpeed},
        {"b200-180gb", 8, "nvlink5", 45000, "cluster-sizing guide: B200 ~$45K; DGX/HGX B200 8 GPUs on NVSwitch", 0.70, 0.40,
         "assumed as Hopper until measured Blackwell GEMM sweeps are in the catalog"},
        {"a100-80gb", 8, "nvlink3", 8000, "cluster-sizing guide: used A100-80GB ~$8K; DGX/HGX A100 8 GPUs on NVSwitch"},
        {"a100-40gb", 8, "nvlink3", 5000, "DGX A100 40GB 8 GPUs on NVSwitch; used price indicative"},
        {"l40s-48gb", 8, "pcie4", 8000, "8 x L40S PCIe servers (no NVLink); price indicative"},
        {"a10g-24gb", 8, "pcie4", 0, "AWS g5.48xlarge: 8 x A10G on PCIe; rental only"},
        {"l4-24gb", 8, "pcie4", 2500, "8 x L4 PCIe servers (g6.48xlarge); price indicative"},
        {"v100-16gb", 8, "nvlink2", 1000, "DGX-1: 8 x V100 on NVLink 2; used price indicative"},
        {"t4-16gb", 4, "pcie3", 700, "4 x T4 PCIe servers (g4dn.12xlarge); used price indicative"},
        {"rtx-4090-24gb", 8, "pcie4", 1800, "8 x RTX 4090 PCIe servers (no P2P over NVLink); street price"},
        {"rtx-5090-32gb", 8, "pcie5", 2500, "8 x RTX 5090 PCIe servers; street price"},
        {"mi300x-192gb", 8, "infinity-fabric", 15000, "AMD MI300X platform: 8 GPUs on Infinity Fabric; price indicative"},
    };
    return catalog;
}

const NodeSpec* find_node(const std::string& gpu_id) {
    for (const auto& n : node_catalog())
        if (n.gpu_id == gpu_id) return &n;
    return nullptr;
}

bool gpu_fully_connected(const GpuSpec& g) {
    const NodeSpec* n = find_node(g.id);
    const FabricSpec* f = n ? find_fabric(n->intra_fabric) : nullptr;
    return f && f->all_to_all;
}

}  // namespace vc
