// MatMul of ops/cuda on cuBLASLt: C[M, N] (row-major, contiguous) = A[M, K] x B[K, N], where A and
// B are each row-major or column-major with a leading dimension (transposed views need no copy).
//
// cuBLAS is column-major, and a row-major C is the column-major C^T = B^T A^T, so the call is made
// with cuBLAS's A := B (op N when B is row-major, T when column-major), cuBLAS's B := A, m = N,
// n = M, k = K. One cuBLASLt handle per device serves every thread (cublasLtMatmul takes the stream
// per call and the handle holds no stream); the algorithm the heuristic picks is cached per
// problem (shapes, layouts, dtype, TF32, alignment), so a repeated MatMul costs one
// cublasLtMatmul. The workspace is the caller's (ops/cuda allocates it from its stream-ordered
// cache), so nothing here allocates device memory, and a MatMul can be captured into a CUDA graph.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <map>
#include <mutex>
#include <tuple>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/cublaslt.h"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

constexpr int kMaxDevices = 64;

std::mutex g_handles_mu;
cublasLtHandle_t g_handles[kMaxDevices];

// A cuBLAS status as the C ABI's error code.
int blas_error(cublasStatus_t s) {
  return s == CUBLAS_STATUS_SUCCESS ? 0 : OPSCUDA_ERROR_CUBLAS_BASE + (int)s;
}

// The handle of device (current on this thread), created on first use.
cublasStatus_t handle_for(const CublasLt* lt, int device, cublasLtHandle_t* h) {
  if (device < 0 || device >= kMaxDevices) return CUBLAS_STATUS_INVALID_VALUE;
  std::lock_guard<std::mutex> lock(g_handles_mu);
  if (g_handles[device] == nullptr) {
    RelaxedCapture relaxed;  // creating a handle may allocate while a stream is being captured
    cublasStatus_t s = lt->create(&g_handles[device]);
    if (s != CUBLAS_STATUS_SUCCESS) {
      g_handles[device] = nullptr;
      return s;
    }
  }
  *h = g_handles[device];
  return CUBLAS_STATUS_SUCCESS;
}

// Largest power of two (at most 256) that divides p: the alignment cuBLASLt may assume.
uint32_t alignment(opscuda_dptr p) {
  uint32_t a = 256;
  while (a > 1 && p % a != 0) a /= 2;
  return a;
}

// The problem as the algorithm cache keys it.
using Key = std::tuple<int, int, int, int, int, long long, long long, long long, long long,
                       long long, uint32_t, uint32_t, uint32_t, unsigned long long>;

std::mutex g_algos_mu;
std::map<Key, cublasLtMatmulAlgo_t>* g_algos = new std::map<Key, cublasLtMatmulAlgo_t>();
constexpr size_t kMaxAlgos = 4096;

// RAII for the descriptors of one call.
struct Descs {
  const CublasLt* lt;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  explicit Descs(const CublasLt* l) : lt(l) {}
  ~Descs() {
    if (pref) lt->pref_destroy(pref);
    if (c) lt->layout_destroy(c);
    if (b) lt->layout_destroy(b);
    if (a) lt->layout_destroy(a);
    if (op) lt->desc_destroy(op);
  }
};

#define BLAS_CHECK(call)                                   \
  do {                                                     \
    cublasStatus_t s_ = (call);                            \
    if (s_ != CUBLAS_STATUS_SUCCESS) return blas_error(s_); \
  } while (0)

int matmul(int device, int dtype, int flags, opscuda_dptr c, opscuda_dptr a, int a_rows,
           long long lda, opscuda_dptr b, int b_rows, long long ldb, long long M, long long N,
           long long K, opscuda_dptr ws, unsigned long long ws_bytes) {
  cudaDataType_t type;
  cublasComputeType_t compute;
  cudaDataType_t scale = CUDA_R_32F;
  size_t size;
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      type = CUDA_R_32F;
      compute = (flags & OPSCUDA_MATMUL_TF32) ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      size = 4;
      break;
    case OPSCUDA_FLOAT64:
      type = CUDA_R_64F;
      compute = CUBLAS_COMPUTE_64F;
      scale = CUDA_R_64F;
      size = 8;
      break;
#ifdef OPSCUDA_FLOAT16
    case OPSCUDA_FLOAT16:
      type = CUDA_R_16F;
      compute = CUBLAS_COMPUTE_32F;
      size = 2;
      break;
#endif
#ifdef OPSCUDA_BFLOAT16
    case OPSCUDA_BFLOAT16:
      type = CUDA_R_16BF;
      compute = CUBLAS_COMPUTE_32F;
      size = 2;
      break;
#endif
    default:
      return (int)cudaErrorInvalidValue;
  }
  if (M <= 0 || N <= 0) return 0;
  if (K <= 0) return (int)cudaMemsetAsync(mptr<void>(c), 0, (size_t)(M * N) * size, stream());

  const CublasLt* lt = cublaslt();
  if (lt == nullptr) return OPSCUDA_ERROR_CUBLAS_MISSING;
  cublasLtHandle_t h;
  BLAS_CHECK(handle_for(lt, device, &h));

  // Column-major: D^T[N, M] = op(B) op(A), see the top of the file.
  const cublasOperation_t opb = b_rows ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t opa = a_rows ? CUBLAS_OP_N : CUBLAS_OP_T;
  Descs d(lt);
  BLAS_CHECK(lt->desc_create(&d.op, compute, scale));
  BLAS_CHECK(lt->desc_set(d.op, CUBLASLT_MATMUL_DESC_TRANSA, &opb, sizeof(opb)));
  BLAS_CHECK(lt->desc_set(d.op, CUBLASLT_MATMUL_DESC_TRANSB, &opa, sizeof(opa)));
  BLAS_CHECK(b_rows ? lt->layout_create(&d.a, type, N, K, ldb) : lt->layout_create(&d.a, type, K, N, ldb));
  BLAS_CHECK(a_rows ? lt->layout_create(&d.b, type, K, M, lda) : lt->layout_create(&d.b, type, M, K, lda));
  BLAS_CHECK(lt->layout_create(&d.c, type, N, M, N));

  const uint32_t al_a = alignment(b), al_b = alignment(a), al_c = alignment(c);
  const Key key{device, dtype, flags, a_rows, b_rows, M, N, K, lda, ldb, al_a, al_b, al_c, ws_bytes};
  cublasLtMatmulAlgo_t algo;
  bool cached = false;
  {
    std::lock_guard<std::mutex> lock(g_algos_mu);
    auto it = g_algos->find(key);
    if (it != g_algos->end()) {
      algo = it->second;
      cached = true;
    }
  }
  if (!cached) {
    BLAS_CHECK(lt->pref_create(&d.pref));
    const uint64_t max_ws = ws_bytes;
    BLAS_CHECK(lt->pref_set(d.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_ws, sizeof(max_ws)));
    BLAS_CHECK(lt->pref_set(d.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &al_a, sizeof(al_a)));
    BLAS_CHECK(lt->pref_set(d.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &al_b, sizeof(al_b)));
    BLAS_CHECK(lt->pref_set(d.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &al_c, sizeof(al_c)));
    BLAS_CHECK(lt->pref_set(d.pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &al_c, sizeof(al_c)));
    cublasLtMatmulHeuristicResult_t result;
    memset(&result, 0, sizeof(result));
    int found = 0;
    BLAS_CHECK(lt->heuristic(h, d.op, d.a, d.b, d.c, d.c, d.pref, 1, &result, &found));
    if (found == 0) return blas_error(CUBLAS_STATUS_NOT_SUPPORTED);
    algo = result.algo;
    std::lock_guard<std::mutex> lock(g_algos_mu);
    if (g_algos->size() >= kMaxAlgos) g_algos->clear();
    (*g_algos)[key] = algo;
  }

  const float one_f = 1, zero_f = 0;
  const double one_d = 1, zero_d = 0;
  const void* alpha = scale == CUDA_R_64F ? (const void*)&one_d : (const void*)&one_f;
  const void* beta = scale == CUDA_R_64F ? (const void*)&zero_d : (const void*)&zero_f;
  BLAS_CHECK(lt->matmul(h, d.op, alpha, cptr<void>(b), d.a, cptr<void>(a), d.b, beta,
                        cptr<void>(c), d.c, mptr<void>(c), d.c, &algo, mptr<void>(ws),
                        (size_t)ws_bytes, stream()));
  return 0;
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_matmul(opscuda_stream st, int device, int dtype, int flags, opscuda_dptr c,
                              opscuda_dptr a, int a_rows, long long lda, opscuda_dptr b,
                              int b_rows, long long ldb, long long M, long long N, long long K,
                              opscuda_dptr workspace, unsigned long long workspace_bytes) {
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  return matmul(device, dtype, flags, c, a, a_rows, lda, b, b_rows, ldb, M, N, K, workspace,
                workspace_bytes);
}

extern "C" int opscuda_cublas_info(int* version, char* path, int len) {
  const CublasLt* lt = cublaslt();
  if (lt == nullptr) return OPSCUDA_ERROR_CUBLAS_MISSING;
  *version = (int)lt->get_version();
  if (len > 0) {
    strncpy(path, cublaslt_path(), (size_t)len - 1);
    path[len - 1] = '\0';
  }
  return 0;
}

// Names and descriptions of the codes beyond cudaError_t's range (runtime.cu's
// opscuda_error_name and opscuda_error_string ask here first).
namespace opscuda {
const char* blas_error_name(int code) {
  if (code == OPSCUDA_ERROR_CUBLAS_MISSING) return "cublasLtNotLoaded";
  if (code >= OPSCUDA_ERROR_CUBLAS_BASE) {
    const CublasLt* lt = cublaslt();
    return lt ? lt->status_name((cublasStatus_t)(code - OPSCUDA_ERROR_CUBLAS_BASE)) : "CUBLAS_STATUS_?";
  }
  return nullptr;
}
const char* blas_error_string(int code) {
  if (code == OPSCUDA_ERROR_CUBLAS_MISSING) return cublaslt_error();
  if (code >= OPSCUDA_ERROR_CUBLAS_BASE) {
    const CublasLt* lt = cublaslt();
    return lt ? lt->status_string((cublasStatus_t)(code - OPSCUDA_ERROR_CUBLAS_BASE)) : "cuBLAS error";
  }
  return nullptr;
}
}  // namespace opscuda
