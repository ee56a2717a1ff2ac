// Loads libnccl.so.2 with dlopen on first use and issues NCCL calls for package ops/cuda/nccl
// (see opsnccl.h). Built without NCCL's headers (a local toolkit that lacks nccl.h), every call
// reports that NCCL is missing from the build.
#include "ops/cuda/nccl/csrc/opsnccl.h"

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "ops/cuda/csrc/libload.h"

#if __has_include(<nccl.h>)
#include <nccl.h>
#define OPSNCCL_HAVE_HEADERS 1
#else
#define OPSNCCL_HAVE_HEADERS 0
#endif

namespace {

int cuda_result(cudaError_t err) {
  if (err == cudaSuccess) return 0;
  (void)cudaGetLastError();
  return OPSNCCL_ERROR_CUDA_BASE + (int)err;
}

cudaStream_t cuda_stream(unsigned long long s) {
  return s == 0 ? cudaStreamLegacy : reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(s));
}

// The environment variable that names the library file to load, instead of searching.
constexpr const char* kEnv = "RULES_CUDA_GO_NCCL";

std::once_flag g_once;
bool g_loaded = false;
std::string g_error;
std::string g_path;
int g_version = 0;

#if OPSNCCL_HAVE_HEADERS

struct Nccl {
  decltype(&ncclGetVersion) get_version;
  decltype(&ncclGetUniqueId) get_unique_id;
  decltype(&ncclCommInitRankConfig) init_rank_config;
  decltype(&ncclCommSplit) split;
  decltype(&ncclCommGetAsyncError) async_error;
  decltype(&ncclCommFinalize) finalize;
  decltype(&ncclCommDestroy) destroy;
  decltype(&ncclCommAbort) abort;
  decltype(&ncclGetErrorString) error_string;
  decltype(&ncclGetLastError) last_error;
  decltype(&ncclGroupStart) group_start;
  decltype(&ncclGroupEnd) group_end;
  decltype(&ncclAllReduce) all_reduce;
  decltype(&ncclBroadcast) broadcast;
  decltype(&ncclReduce) reduce;
  decltype(&ncclAllGather) all_gather;
  decltype(&ncclReduceScatter) reduce_scatter;
  decltype(&ncclSend) send;
  decltype(&ncclRecv) recv;
};
Nccl g_nccl;

// The soname of the major version whose header this file was compiled with.
std::string soname() { return "libnccl.so." + std::to_string(NCCL_MAJOR); }

void load() {
  bool from_env = false;
  std::string tried;
  const opscuda::libload::Opened lib = opscuda::libload::open(kEnv, soname(), &from_env, &tried);
  if (lib.handle == nullptr) {
    g_error = opscuda::libload::not_found(
        "NCCL (" + soname() + "), needed by ops/cuda/nccl", tried, from_env, kEnv,
        "install NCCL " + std::to_string(NCCL_MAJOR) +
            " (the nvidia-nccl-cu13 wheel, PyTorch's site-packages/nvidia/nccl/lib, or a system "
            "package)");
    return;
  }
#define OPSNCCL_SYM(field, name) {name, reinterpret_cast<void**>(&g_nccl.field)}
  const opscuda::libload::Sym syms[] = {
      OPSNCCL_SYM(get_version, "ncclGetVersion"),
      OPSNCCL_SYM(get_unique_id, "ncclGetUniqueId"),
      OPSNCCL_SYM(init_rank_config, "ncclCommInitRankConfig"),
      OPSNCCL_SYM(split, "ncclCommSplit"),
      OPSNCCL_SYM(async_error, "ncclCommGetAsyncError"),
      OPSNCCL_SYM(finalize, "ncclCommFinalize"),
      OPSNCCL_SYM(destroy, "ncclCommDestroy"),
      OPSNCCL_SYM(abort, "ncclCommAbort"),
      OPSNCCL_SYM(error_string, "ncclGetErrorString"),
      OPSNCCL_SYM(last_error, "ncclGetLastError"),
      OPSNCCL_SYM(group_start, "ncclGroupStart"),
      OPSNCCL_SYM(group_end, "ncclGroupEnd"),
      OPSNCCL_SYM(all_reduce, "ncclAllReduce"),
      OPSNCCL_SYM(broadcast, "ncclBroadcast"),
      OPSNCCL_SYM(reduce, "ncclReduce"),
      OPSNCCL_SYM(all_gather, "ncclAllGather"),
      OPSNCCL_SYM(reduce_scatter, "ncclReduceScatter"),
      OPSNCCL_SYM(send, "ncclSend"),
      OPSNCCL_SYM(recv, "ncclRecv"),
  };
#undef OPSNCCL_SYM
  if (const char* missing =
          opscuda::libload::resolve(lib.handle, syms, sizeof(syms) / sizeof(syms[0]))) {
    g_error = lib.file + " lacks " + missing + ": not an NCCL " + std::to_string(NCCL_MAJOR) +
              ".x new enough for this build (NCCL " + std::to_string(NCCL_MAJOR) + "." +
              std::to_string(NCCL_MINOR) + " headers)";
    return;
  }
  int version = 0;
  if (g_nccl.get_version(&version) != ncclSuccess || version / 10000 != NCCL_MAJOR) {
    g_error = lib.file + " is NCCL " + std::to_string(version) + ", this build needs major version " +
              std::to_string(NCCL_MAJOR);
    return;
  }
  // Every collective's connections are made while a communicator is created, which can be
  // aborted, rather than in its first call, which runs on the caller's thread for a blocking
  // communicator and cannot be (NCCL's default, 1, connects lazily). The user's setting wins.
  setenv("NCCL_RUNTIME_CONNECT", "0", /*overwrite=*/0);
  g_version = version;
  g_path = lib.file;
  g_loaded = true;
}

bool loaded() {
  std::call_once(g_once, load);
  return g_loaded;
}

// A rank: `c`, the blocking communicator every call uses, split from `parent`, the non-blocking
// one that initialization made (kept until the rank is destroyed or aborted). Until the split,
// c is null and every call goes to parent.
struct Comm {
  ncclComm_t c;  // written by NCCL's thread when the split completes
  ncclComm_t parent;
  int device;
  int rank;
  bool splitting;
};

ncclComm_t child(const Comm* c) { return __atomic_load_n(&c->c, __ATOMIC_ACQUIRE); }
ncclComm_t active(const Comm* c) {
  ncclComm_t k = child(c);
  return k != nullptr ? k : c->parent;
}

Comm* comm_of(opsnccl_comm h) { return reinterpret_cast<Comm*>(static_cast<uintptr_t>(h)); }

int cuda(cudaError_t err) {
  if (err == cudaSuccess) return 0;
  (void)cudaGetLastError();
  return OPSNCCL_ERROR_CUDA_BASE + (int)err;
}

ncclDataType_t dtype_of(int d) {
  switch (d) {
    case OPSNCCL_FLOAT64:
      return ncclFloat64;
    case OPSNCCL_FLOAT16:
      return ncclFloat16;
    case OPSNCCL_BFLOAT16:
      return ncclBfloat16;
  }
  return ncclFloat32;
}

cudaStream_t stream_of(unsigned long long s) {
  return s == 0 ? cudaStreamLegacy : reinterpret_cast<cudaStream_t>(static_cast<uintptr_t>(s));
}

int issue(const opsnccl_call& k) {
  Comm* c = comm_of(k.comm);
  int err = cuda(cudaSetDevice(c->device));
  if (err != 0) return err;
  const ncclDataType_t t = dtype_of(k.dtype);
  const ncclRedOp_t op = static_cast<ncclRedOp_t>(k.op);
  const void* send = reinterpret_cast<const void*>(static_cast<uintptr_t>(k.send));
  void* recv = reinterpret_cast<void*>(static_cast<uintptr_t>(k.recv));
  const size_t n = static_cast<size_t>(k.count);
  const cudaStream_t s = stream_of(k.stream);
  switch (k.kind) {
    case OPSNCCL_ALL_REDUCE:
      return g_nccl.all_reduce(send, recv, n, t, op, c->c, s);
    case OPSNCCL_BROADCAST:
      return g_nccl.broadcast(send, recv, n, t, k.peer, c->c, s);
    case OPSNCCL_REDUCE:
      return g_nccl.reduce(send, recv, n, t, op, k.peer, c->c, s);
    case OPSNCCL_ALL_GATHER:
      return g_nccl.all_gather(send, recv, n, t, c->c, s);
    case OPSNCCL_REDUCE_SCATTER:
      return g_nccl.reduce_scatter(send, recv, n, t, op, c->c, s);
    case OPSNCCL_SEND:
      return g_nccl.send(send, n, t, k.peer, c->c, s);
    case OPSNCCL_RECV:
      return g_nccl.recv(recv, n, t, k.peer, c->c, s);
  }
  return ncclInvalidArgument;
}

#else  // !OPSNCCL_HAVE_HEADERS

bool loaded() {
  std::call_once(g_once, [] {
    g_error = "this build of ops/cuda/nccl had no NCCL headers (nccl.h): the selected CUDA toolkit "
              "lacks NCCL; build with a pinned toolkit (--@rules_cuda_go//toolchains:cuda_version)";
  });
  return false;
}

#endif  // OPSNCCL_HAVE_HEADERS

}  // namespace

extern "C" {

int opsnccl_info(int* version, char* path, int len) {
  *version = 0;
  if (len > 0) path[0] = '\0';
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  *version = g_version;
  if (len > 0) {
    std::strncpy(path, g_path.c_str(), (size_t)len - 1);
    path[len - 1] = '\0';
  }
  return 0;
}

const char* opsnccl_load_error(void) {
  (void)loaded();
  return g_error.c_str();
}

int opsnccl_copy(int device, unsigned long long dst, unsigned long long src,
                 unsigned long long bytes, unsigned long long stream) {
  int err = cuda_result(cudaSetDevice(device));
  if (err != 0) return err;
  return cuda_result(cudaMemcpyAsync(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)),
                              reinterpret_cast<const void*>(static_cast<uintptr_t>(src)),
                              static_cast<size_t>(bytes), cudaMemcpyDeviceToDevice, cuda_stream(stream)));
}

int opsnccl_zero(int device, unsigned long long dst, unsigned long long bytes,
                 unsigned long long stream) {
  int err = cuda_result(cudaSetDevice(device));
  if (err != 0) return err;
  return cuda_result(cudaMemsetAsync(reinterpret_cast<void*>(static_cast<uintptr_t>(dst)), 0,
                                     static_cast<size_t>(bytes), cuda_stream(stream)));
}

#if OPSNCCL_HAVE_HEADERS

int opsnccl_unique_id(char* id) {
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  ncclUniqueId u;
  static_assert(sizeof(u) == OPSNCCL_ID_BYTES, "ncclUniqueId size");
  int err = g_nccl.get_unique_id(&u);
  if (err == ncclSuccess) std::memcpy(id, &u, sizeof(u));
  return err;
}

int opsnccl_init(int n, const int* devices, const int* ranks, int nranks, const char* id,
                 opsnccl_comm* comms) {
  for (int i = 0; i < n; i++) comms[i] = 0;
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  ncclUniqueId u;
  std::memcpy(&u, id, sizeof(u));
  std::vector<Comm*> made(n, nullptr);
  int err = 0;
  if (n > 1) err = g_nccl.group_start();
  for (int i = 0; i < n && (err == ncclSuccess || err == ncclInProgress); i++) {
    int e = cuda(cudaSetDevice(devices[i]));
    if (e != 0) {
      err = e;
      break;
    }
    made[i] = new Comm{nullptr, nullptr, devices[i], ranks[i], false};
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    e = g_nccl.init_rank_config(&made[i]->parent, nranks, u, ranks[i], &config);
    if (e != ncclSuccess && e != ncclInProgress) err = e;
  }
  if (n > 1) {
    int e = g_nccl.group_end();
    if (err == ncclSuccess || err == ncclInProgress) err = e;
  }
  if (err != ncclSuccess && err != ncclInProgress) {
    for (Comm* c : made) {
      if (c == nullptr) continue;
      if (c->parent != nullptr) (void)g_nccl.abort(c->parent);
      delete c;
    }
    return err;
  }
  for (int i = 0; i < n; i++) comms[i] = static_cast<opsnccl_comm>(reinterpret_cast<uintptr_t>(made[i]));
  return err;
}

int opsnccl_status(opsnccl_comm comm, int* state) {
  *state = ncclSuccess;
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  ncclResult_t r = ncclSuccess;
  const Comm* c = comm_of(comm);
  int err = g_nccl.async_error(active(c), &r);
  // The split has ended (its parent is no longer in progress) but made no communicator.
  if (err == ncclSuccess && r == ncclSuccess && c->splitting && child(c) == nullptr) r = ncclInternalError;
  *state = r;
  return err;
}

int opsnccl_split(int n, const opsnccl_comm* comms) {
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  int err = ncclSuccess;
  if (n > 1) err = g_nccl.group_start();
  for (int i = 0; i < n && (err == ncclSuccess || err == ncclInProgress); i++) {
    Comm* c = comm_of(comms[i]);
    int e = cuda(cudaSetDevice(c->device));
    if (e != 0) {
      err = e;
      break;
    }
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 1;
    c->splitting = true;
    e = g_nccl.split(c->parent, 0, c->rank, &c->c, &config);
    if (e != ncclSuccess && e != ncclInProgress) err = e;
  }
  if (n > 1) {
    int e = g_nccl.group_end();
    if (err == ncclSuccess || err == ncclInProgress) err = e;
  }
  return err;
}

int opsnccl_finalize(opsnccl_comm comm) {
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  Comm* c = comm_of(comm);
  int err = cuda(cudaSetDevice(c->device));
  if (err != 0) return err;
  return g_nccl.finalize(active(c));
}

int opsnccl_destroy(opsnccl_comm comm) {
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  Comm* c = comm_of(comm);
  (void)cudaSetDevice(c->device);
  int err = g_nccl.destroy(active(c));
  // The parent did no work since the split: aborting it frees it without waiting for the others.
  if (child(c) != nullptr && c->parent != nullptr) (void)g_nccl.abort(c->parent);
  delete c;
  return err;
}

int opsnccl_abort(opsnccl_comm comm) {
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  Comm* c = comm_of(comm);
  (void)cudaSetDevice(c->device);
  int err = ncclSuccess;
  if (ncclComm_t k = child(c); k != nullptr) err = g_nccl.abort(k);
  if (c->parent != nullptr) {
    int e = g_nccl.abort(c->parent);
    if (err == ncclSuccess) err = e;
  }
  delete c;
  return err;
}

int opsnccl_run(const opsnccl_call* calls, int n, int grouped) {
  if (!loaded()) return OPSNCCL_ERROR_MISSING;
  int err = ncclSuccess;
  if (grouped) err = g_nccl.group_start();
  for (int i = 0; i < n && (err == ncclSuccess || err == ncclInProgress); i++) {
    int e = issue(calls[i]);
    if (e != ncclSuccess) err = e;
  }
  if (grouped) {
    int e = g_nccl.group_end();
    if (err == ncclSuccess || err == ncclInProgress) err = e;
  }
  return err;
}

const char* opsnccl_error_string(int code) {
  if (code >= OPSNCCL_ERROR_CUDA_BASE) return cudaGetErrorString((cudaError_t)(code - OPSNCCL_ERROR_CUDA_BASE));
  if (code == OPSNCCL_ERROR_MISSING || !loaded()) return g_error.c_str();
  return g_nccl.error_string(static_cast<ncclResult_t>(code));
}

const char* opsnccl_last_error(opsnccl_comm comm) {
  if (!loaded()) return "";
  const char* s = g_nccl.last_error(comm == 0 ? nullptr : active(comm_of(comm)));
  return s == nullptr ? "" : s;
}

#else  // !OPSNCCL_HAVE_HEADERS

int opsnccl_unique_id(char*) { return loaded() ? 0 : OPSNCCL_ERROR_MISSING; }
int opsnccl_init(int n, const int*, const int*, int, const char*, opsnccl_comm* comms) {
  for (int i = 0; i < n; i++) comms[i] = 0;
  return OPSNCCL_ERROR_MISSING;
}
int opsnccl_split(int, const opsnccl_comm*) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_status(opsnccl_comm, int* state) {
  *state = 0;
  return OPSNCCL_ERROR_MISSING;
}
int opsnccl_finalize(opsnccl_comm) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_destroy(opsnccl_comm) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_abort(opsnccl_comm) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_run(const opsnccl_call*, int, int) { return OPSNCCL_ERROR_MISSING; }
const char* opsnccl_error_string(int code) {
  if (code >= OPSNCCL_ERROR_CUDA_BASE) return cudaGetErrorString((cudaError_t)(code - OPSNCCL_ERROR_CUDA_BASE));
  (void)loaded();
  return g_error.c_str();
}
const char* opsnccl_last_error(opsnccl_comm) { return ""; }

#endif  // OPSNCCL_HAVE_HEADERS

}  // extern "C"
