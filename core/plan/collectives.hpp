// vramcalc core: collective communication cost, the alpha-beta model. A collective of `bytes`
// (the full buffer each rank holds, e.g. the gradients) over n ranks on a link of bandwidth bw
// (bytes/s, achieved) and per-step latency alpha (s):
//   ring all-reduce      2(n-1)/n x bytes / bw + 2(n-1) alpha
//   tree all-reduce      2(n-1)/n x bytes / bw + 2 log2(n) alpha   (NCCL's double binary tree
//                        keeps the ring's bandwidth term for large messages)
//   reduce-scatter, all-gather   (n-1)/n x bytes / bw + (n-1) alpha
//   all-to-all           (n-1)/n x bytes / bw + (n-1) alpha
//   p2p send             bytes / bw + alpha
// Source: Thakur, Rabenseifner & Gropp 2005 (collective algorithms in MPICH); NCCL's bus
// bandwidth definition (nccl-tests doc/PERFORMANCE.md).
#pragma once

#include "core/catalog/fabrics.hpp"

namespace vc {

struct Link {
    double bw = 0;       // achieved bytes per second per rank
    double alpha = 0;    // seconds per step
    bool inter = false;  // crosses nodes
};

double ring_all_reduce_s(double bytes, int n, const Link& l);
double tree_all_reduce_s(double bytes, int n, const Link& l);
double all_reduce_s(double bytes, int n, const Link& l);   // the faster of ring and tree
double reduce_scatter_s(double bytes, int n, const Link& l);
double all_gather_s(double bytes, int n, const Link& l);
double all_to_all_s(double bytes, int n, const Link& l);
double p2p_s(double bytes, const Link& l);

// The link a group of n ranks uses when consecutive members are `stride` ranks apart (ranks are
// numbered node by node, gpus_per_node each). Inside one node: the intra-node link. Across
// nodes: each node's members share the NICs of their GPUs, so a ring's bandwidth is
// min(intra, members per node x inter per GPU) (NCCL runs one ring per NIC; hierarchical).
Link group_link(int n, int stride, int gpus_per_node, const FabricSpec& intra, const FabricSpec& inter);

}  // namespace vc
