// cuBLASLt, loaded at run time: see "cuBLAS" in ops/cuda's package doc (doc.go) for why and where
// the library is looked for. The declarations come from the selected toolkit's <cublasLt.h>
// (@cuda//:cublas_headers); nothing links libcublasLt, so a binary starts without it.
#ifndef RULES_CUDA_GO_OPS_CUDA_CUBLASLT_H_
#define RULES_CUDA_GO_OPS_CUDA_CUBLASLT_H_

#include <cublasLt.h>

namespace opscuda {

// The entry points of libcublasLt that ops/cuda calls, with the header's own signatures.
struct CublasLt {
  decltype(&cublasLtGetVersion) get_version;
  decltype(&cublasLtGetStatusName) status_name;
  decltype(&cublasLtGetStatusString) status_string;
  decltype(&cublasLtCreate) create;
  decltype(&cublasLtMatmulDescCreate) desc_create;
  decltype(&cublasLtMatmulDescDestroy) desc_destroy;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set;
  decltype(&cublasLtMatrixLayoutCreate) layout_create;
  decltype(&cublasLtMatrixLayoutDestroy) layout_destroy;
  decltype(&cublasLtMatmulPreferenceCreate) pref_create;
  decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy;
  decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic;
  decltype(&cublasLtMatmul) matmul;
};

// The library, loaded on the first call (thread-safe); nullptr when it cannot be loaded, and then
// cublaslt_error() says what is missing and where it was looked for.
const CublasLt* cublaslt();
const char* cublaslt_error();
// The file the library was loaded from ("" before it is loaded).
const char* cublaslt_path();

}  // namespace opscuda

#endif  // RULES_CUDA_GO_OPS_CUDA_CUBLASLT_H_
