// vramcalc CLI: a model file read from disk for --model-file (io/model_import.hpp reads the bytes).
#pragma once

#include <string>

#include "../io/model_import.hpp"

namespace vc::cli {

// Reads the start of `path` (as much as the reader asks for, never the tensor data) and imports it.
io::ModelImport import_file(const std::string& path);

}  // namespace vc::cli
