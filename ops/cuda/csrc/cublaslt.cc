// Loads libcublasLt with dlopen on first use (see cublaslt.h).
#include "ops/cuda/csrc/cublaslt.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace opscuda {
namespace {

// The environment variable that names the library file to load, instead of searching.
constexpr const char* kEnv = "RULES_CUDA_GO_CUBLASLT";

CublasLt g_lt;
bool g_loaded = false;
std::string g_error;
std::string g_path;
std::once_flag g_once;

// The soname of the major version whose header this file was compiled with: the ABI it expects.
std::string soname() { return "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR); }

// Resolves every entry point of CublasLt in h; false (and g_error) when one is missing.
bool resolve(void* h, const std::string& file) {
  struct Sym {
    const char* name;
    void** slot;
  };
  const Sym syms[] = {
      {"cublasLtGetVersion", reinterpret_cast<void**>(&g_lt.get_version)},
      {"cublasLtGetStatusName", reinterpret_cast<void**>(&g_lt.status_name)},
      {"cublasLtGetStatusString", reinterpret_cast<void**>(&g_lt.status_string)},
      {"cublasLtCreate", reinterpret_cast<void**>(&g_lt.create)},
      {"cublasLtMatmulDescCreate", reinterpret_cast<void**>(&g_lt.desc_create)},
      {"cublasLtMatmulDescDestroy", reinterpret_cast<void**>(&g_lt.desc_destroy)},
      {"cublasLtMatmulDescSetAttribute", reinterpret_cast<void**>(&g_lt.desc_set)},
      {"cublasLtMatrixLayoutCreate", reinterpret_cast<void**>(&g_lt.layout_create)},
      {"cublasLtMatrixLayoutDestroy", reinterpret_cast<void**>(&g_lt.layout_destroy)},
      {"cublasLtMatmulPreferenceCreate", reinterpret_cast<void**>(&g_lt.pref_create)},
      {"cublasLtMatmulPreferenceDestroy", reinterpret_cast<void**>(&g_lt.pref_destroy)},
      {"cublasLtMatmulPreferenceSetAttribute", reinterpret_cast<void**>(&g_lt.pref_set)},
      {"cublasLtMatmulAlgoGetHeuristic", reinterpret_cast<void**>(&g_lt.heuristic)},
      {"cublasLtMatmul", reinterpret_cast<void**>(&g_lt.matmul)},
  };
  for (const Sym& s : syms) {
    *s.slot = dlsym(h, s.name);
    if (*s.slot == nullptr) {
      g_error = file + " lacks " + s.name + ": not a libcublasLt of CUDA " +
                std::to_string(CUBLAS_VER_MAJOR) + ".x";
      return false;
    }
  }
  return true;
}

void load() {
  std::vector<std::string> candidates;
  const char* env = std::getenv(kEnv);
  const bool from_env = env != nullptr && *env != '\0';
  if (from_env) {
    candidates.push_back(env);
  } else {
    // The dynamic linker's search: LD_LIBRARY_PATH, the executable's run path, ld.so.cache and
    // the system directories; then the usual toolkit installs.
    candidates.push_back(soname());
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
      const char* dir = std::getenv(var);
      if (dir != nullptr && *dir != '\0') candidates.push_back(std::string(dir) + "/lib64/" + soname());
    }
    candidates.push_back("/usr/local/cuda/lib64/" + soname());
  }
  std::string tried;
  for (const std::string& path : candidates) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* why = dlerror();
      tried += "\n  " + path + ": " + (why != nullptr ? why : "not found");
      continue;
    }
    std::string file = path;
    struct link_map* lm = nullptr;
    if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm != nullptr && lm->l_name != nullptr &&
        lm->l_name[0] != '\0') {
      file = lm->l_name;
    }
    if (!resolve(h, file)) return;
    const size_t version = g_lt.get_version();
    if (version / 10000 != CUBLAS_VER_MAJOR) {
      g_error = file + " is cuBLASLt " + std::to_string(version) + ", built against major version " +
                std::to_string(CUBLAS_VER_MAJOR);
      return;
    }
    g_path = file;
    g_loaded = true;
    return;
  }
  g_error = "cannot load cuBLASLt (" + soname() + "), needed by MatMul on CUDA devices; tried:" +
            tried + "\n" +
            (from_env ? std::string("(from ") + kEnv + "; unset it to search the usual places)"
                      : std::string("install cuBLAS ") + std::to_string(CUBLAS_VER_MAJOR) +
                            " (a CUDA toolkit, or the nvidia-cublas wheel), add its lib directory to "
                            "LD_LIBRARY_PATH, or set " + kEnv + " to the library file");
}

}  // namespace

const CublasLt* cublaslt() {
  std::call_once(g_once, load);
  return g_loaded ? &g_lt : nullptr;
}

const char* cublaslt_error() {
  std::call_once(g_once, load);
  return g_error.c_str();
}

const char* cublaslt_path() {
  std::call_once(g_once, load);
  return g_loaded ? g_path.c_str() : "";
}

}  // namespace opscuda
