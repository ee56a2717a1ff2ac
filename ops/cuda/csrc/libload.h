// Finding, opening and resolving a CUDA library with dlopen on first use: shared by the loaders of
// cuBLASLt (ops/cuda, cublaslt.cc) and NCCL (ops/cuda/nccl, nccl.cc), so that neither library is
// a link-time dependency and a program starts without it.
#ifndef OPS_CUDA_CSRC_LIBLOAD_H_
#define OPS_CUDA_CSRC_LIBLOAD_H_

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace opscuda {
namespace libload {

// One entry point to resolve, and where its address goes.
struct Sym {
  const char* name;
  void** slot;
};

// A library that open() opened: its handle and the file the dynamic linker chose.
struct Opened {
  void* handle = nullptr;
  std::string file;
};

// Opens the library: the file that the environment variable `env` names when it is set (and only
// that), else `soname` through the dynamic linker's search (LD_LIBRARY_PATH, the executable's run
// path, ld.so.cache, the system directories), then $CUDA_HOME/lib64, $CUDA_PATH/lib64 and
// /usr/local/cuda/lib64. Returns the first that opens; when none does, a null handle, with one
// "\n  path: reason" line per attempt appended to *tried. *from_env tells whether `env` was set.
inline Opened open(const char* env, const std::string& soname, bool* from_env, std::string* tried) {
  std::vector<std::string> candidates;
  const char* named = std::getenv(env);
  *from_env = named != nullptr && *named != '\0';
  if (*from_env) {
    candidates.push_back(named);
  } else {
    candidates.push_back(soname);
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
      const char* dir = std::getenv(var);
      if (dir != nullptr && *dir != '\0') candidates.push_back(std::string(dir) + "/lib64/" + soname);
    }
    candidates.push_back("/usr/local/cuda/lib64/" + soname);
  }
  for (const std::string& path : candidates) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* why = dlerror();
      *tried += "\n  " + path + ": " + (why != nullptr ? why : "not found");
      continue;
    }
    Opened o{h, path};
    struct link_map* lm = nullptr;
    if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm != nullptr && lm->l_name != nullptr &&
        lm->l_name[0] != '\0') {
      o.file = lm->l_name;
    }
    return o;
  }
  return Opened{};
}

// Resolves every symbol of syms[0..n) in h; returns the name of the first one missing, or nullptr.
inline const char* resolve(void* h, const Sym* syms, size_t n) {
  for (size_t i = 0; i < n; i++) {
    *syms[i].slot = dlsym(h, syms[i].name);
    if (*syms[i].slot == nullptr) return syms[i].name;
  }
  return nullptr;
}

// The error for a library that did not open: what was tried, then how to provide it (`install`,
// or unsetting `env` when it named the file).
inline std::string not_found(const std::string& what, const std::string& tried, bool from_env,
                             const char* env, const std::string& install) {
  return "cannot load " + what + "; tried:" + tried + "\n" +
         (from_env ? std::string("(from ") + env + "; unset it to search the usual places)"
                   : install + ", add its lib directory to LD_LIBRARY_PATH, or set " + env +
                         " to the library file");
}

}  // namespace libload
}  // namespace opscuda

#endif  // OPS_CUDA_CSRC_LIBLOAD_H_
