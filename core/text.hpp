// vramcalc core: short number formatting for the formulas a result carries (not for display of
// totals, which the front ends do in GB or GiB).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace vc {

// Compact: integers as integers ("2048"), large values in e-notation ("7e9", "1.3e10"), others
// with up to 6 significant digits ("0.25").
std::string num(double v);

// Thousands separators in the integer part of a formatted number ("231424.5" -> "231,424.5").
std::string group_thousands(const std::string& s);

// ASCII letters lowered, other bytes kept (ids, file-type names, CSV words; not locale-aware).
std::string ascii_lower(std::string s);

// A whole number as digits, no separators ("2048"; 2.5 -> "2", truncated). Outside the range of
// long long (or NaN, infinity) it falls back to num(), never converting out of range.
std::string int_text(double v);

// A whole count for prose, with separators: 131072 -> "131,072".
std::string count_text(double v);

// The noun (or unit) for a count, given its plural: the singular when the count reads "1" as
// printed with no decimals (%.0f, %d, count_text), else the plural as given. The singular drops
// the plural's "es" after ch, sh, x or ss, else its "s", in the part before a '/':
// noun_for(1, "replicas") == "replica", noun_for(2, "replicas") == "replicas", noun_for(0, ...) the
// plural, noun_for(1, "micro-batches") == "micro-batch", noun_for(1, "GPUs/replica") ==
// "GPU/replica"; a symbol of two letters or fewer ("s", "us") stays. The planner's text (CLI,
// JSON, page, checklist) and the page's counts with a unit word their counts with it.
std::string noun_for(double n, const std::string& plural);
// Whether a count reads "1" as printed with no decimals (0.6 and 1.4 do; printf rounds half to even).
bool reads_as_one(double n);

// Edit distance (Levenshtein: insertions, deletions, substitutions) of two short strings, byte by byte.
size_t edit_distance(const std::string& a, const std::string& b);

// The names nearest to `typed`, at most `most`: those at the fewest edits (ASCII case ignored, a
// name that starts with typed, 3 bytes or more, one edit away), when that is within a third of
// typed's length (under max(3, length / 3 + 1)), in the list's order; a name that holds typed (4
// bytes or more) as whole words also counts as one edit ("m2-max-32gb": apple-m2-max-32gb). Empty
// when none is near.
std::vector<std::string> nearest_names(const std::string& typed, const std::vector<std::string>& names, size_t most = 3);
// The same as a message's tail: "; did you mean llama-3.1-8b?" ("a, b or c?"), "" when none is near
// (and always "" in the page's build, whose preset and GPU come from its lists).
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& names);
// did_you_mean over the ids of a catalog (presets, GPUs: anything with an `id`); the page's build
// lists none (above).
template <class Catalog>
std::string did_you_mean_id(const std::string& typed, const Catalog& catalog) {
    std::vector<std::string> ids;
#ifndef VRAMCALC_PAGE_BUILD
    for (const auto& entry : catalog) ids.push_back(entry.id);
#else
    (void)catalog;
#endif
    return did_you_mean(typed, ids);
}

}  // namespace vc
