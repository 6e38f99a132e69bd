// The embedding keys of a link (lock, origins, id; shell::decode_embed_keys), which web/embed.js
// asks the wasm for instead of reading the fragment itself (docs/embed.md).
#include <catch.hpp>

#include <string>
#include <vector>

#include "shell/state/url.hpp"

using vc::Error;
using vc::shell::decode_embed_keys;
using Strings = std::vector<std::string>;

TEST_CASE("embed link: lock, origins and id are read from the fragment, the config keys left to the shell") {
    Error err;
    const auto k = decode_embed_keys("#v=1&batch=8&lock=method,%20model.layers,,batch&origins=https://docs.example.com,"
                                     "http://127.0.0.1:8080&id=fine%2Dtune%207b&theme=dark",
                                     err);
    CHECK(err.field.empty());
    CHECK(k.locked == Strings{"method", "model.layers", "batch"});
    CHECK(k.origins == Strings{"https://docs.example.com", "http://127.0.0.1:8080"});
    CHECK(k.id == "fine-tune 7b");

    const auto none = decode_embed_keys("", err);
    CHECK(none.locked.empty());
    CHECK(none.origins.empty());
    CHECK(none.id.empty());
    CHECK(err.field.empty());
}

TEST_CASE("embed link: only exact origins are accepted, the first bad one named, the good ones kept") {
    // What the browser's URL.origin would write differently (or "null" for) is not an origin.
    for (const char* bad : {"*", "null", "https://docs.example.com/", "https://Docs.example.com", "https://a.example:443",
                            "http://a.example:80", "https://a.example:0x1", "https://a.example:99999", "file:///tmp",
                            "javascript:alert(1)", "https://", "docs.example.com", "https://a.example/path"}) {
        Error err;
        const auto k = decode_embed_keys(std::string("origins=https://ok.example,") + bad, err);
        INFO(bad);
        CHECK(k.origins == Strings{"https://ok.example"});
        CHECK(err.field == "origins");
        CHECK(err.message == "\"" + std::string(bad) + "\" is not an origin (scheme://host[:port])");
    }
    for (const char* good : {"https://a.example:8443", "http://localhost:3000", "http://[::1]:8080", "https://xn--bcher-kva.example"}) {
        Error err;
        CHECK(decode_embed_keys(std::string("origins=") + good, err).origins == Strings{good});
        CHECK(err.field.empty());
    }
}
