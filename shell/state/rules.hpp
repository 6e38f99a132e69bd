// vramcalc shell state: what a rule of thumb leaves out of the inputs the user set. The quick and
// guide methods are shown as a comparison with the detailed model, never as the answer; when the
// user has set an input such a rule cannot read (adapters, a quantized format's real size, the KV
// cache type), the page says so beside the rule's figure. Pure, no ImGui.
#pragma once

#include <string>
#include <vector>

#include "core/config.hpp"

namespace vc::shell {

// One sentence per input of `cfg` that `rule` (Quick or Guide) ignores, each naming the page
// control and its value ("Fine-tuning QLoRA: ..."). Empty for the detailed method and when the rule
// reads everything set.
std::vector<std::string> rule_ignores(const Config& cfg, Method rule);

}  // namespace vc::shell

namespace vc::shell {

// An engine or link message in the page's words: the CLI's commands it suggests ("vramcalc
// --list-gpus") become the page controls that do the same (the GPU list, Custom GPU, the Preset
// list). The engine's messages stay the CLI's; only the page rewords them.
std::string page_words(std::string message);

}  // namespace vc::shell
