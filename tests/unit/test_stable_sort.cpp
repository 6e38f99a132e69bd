// stable_sort_by (core/stable_sort.hpp): the order std::stable_sort gives, equal items in their order.
#include <catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/stable_sort.hpp"

using namespace vc;

TEST_CASE("stable_sort_by keeps equal keys in their order", "[stable_sort]") {
    // By the number, ascending: the two 1s stay b before e, the two 3s a before c.
    std::vector<std::pair<int, std::string>> v{{3, "a"}, {1, "b"}, {3, "c"}, {2, "d"}, {1, "e"}};
    stable_sort_by(v, [](const auto& x, const auto& y) { return x.first < y.first; });
    const std::vector<std::pair<int, std::string>> want{{1, "b"}, {1, "e"}, {2, "d"}, {3, "a"}, {3, "c"}};
    CHECK(v == want);
    // Descending (the planner's "most rejected first"): 3a, 3c, 2d, 1b, 1e.
    stable_sort_by(v, [](const auto& x, const auto& y) { return x.first > y.first; });
    const std::vector<std::pair<int, std::string>> down{{3, "a"}, {3, "c"}, {2, "d"}, {1, "b"}, {1, "e"}};
    CHECK(v == down);
    std::vector<int> none;
    stable_sort_by(none, [](int x, int y) { return x < y; });
    CHECK(none.empty());
}

TEST_CASE("stable_sort_by is std::stable_sort for every arrangement of up to 7 keys with ties", "[stable_sort]") {
    // Every sequence of n keys from {0, 1, 2} (3^n of them), each item tagged with its first position.
    for (int n = 0; n <= 7; ++n) {
        int count = 1;
        for (int i = 0; i < n; ++i) count *= 3;
        for (int code = 0; code < count; ++code) {
            std::vector<std::pair<int, int>> v;
            for (int i = 0, c = code; i < n; ++i, c /= 3) v.push_back({c % 3, i});
            auto want = v;
            const auto by_key = [](const std::pair<int, int>& x, const std::pair<int, int>& y) { return x.first < y.first; };
            std::stable_sort(want.begin(), want.end(), by_key);
            stable_sort_by(v, by_key);
            REQUIRE(v == want);
        }
    }
}
