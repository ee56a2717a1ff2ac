// Loads libcublasLt with dlopen on first use (see cublaslt.h).
#include "ops/cuda/csrc/cublaslt.h"

#include <mutex>
#include <string>

#include "ops/cuda/csrc/libload.h"

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

void load() {
  bool from_env = false;
  std::string tried;
  const libload::Opened lib = libload::open(kEnv, soname(), &from_env, &tried);
  if (lib.handle == nullptr) {
    g_error = libload::not_found("cuBLASLt (" + soname() + "), needed by MatMul on CUDA devices", tried,
                                 from_env, kEnv,
                                 "install cuBLAS " + std::to_string(CUBLAS_VER_MAJOR) +
                                     " (a CUDA toolkit, or the nvidia-cublas wheel)");
    return;
  }
  const libload::Sym syms[] = {
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
  if (const char* missing = libload::resolve(lib.handle, syms, sizeof(syms) / sizeof(syms[0]))) {
    g_error = lib.file + " lacks " + missing + ": not a libcublasLt of CUDA " +
              std::to_string(CUBLAS_VER_MAJOR) + ".x";
    return;
  }
  const size_t version = g_lt.get_version();
  if (version / 10000 != CUBLAS_VER_MAJOR) {
    g_error = lib.file + " is cuBLASLt " + std::to_string(version) + ", built against major version " +
              std::to_string(CUBLAS_VER_MAJOR);
    return;
  }
  g_path = lib.file;
  g_loaded = true;
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
