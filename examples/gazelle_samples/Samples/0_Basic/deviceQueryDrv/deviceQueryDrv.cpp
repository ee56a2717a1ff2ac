// Lists the GPUs through the CUDA driver API and round-trips a buffer through device memory on the
// first. Without a GPU or driver it says so and exits with 1.
#include <cuda.h>

#include <cstdio>
#include <cstring>

static int fail(const char* what, CUresult r) {
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || name == nullptr) name = "unknown error";
  std::fprintf(stderr, "deviceQueryDrv: %s: %s\n", what, name);
  return 1;
}

int main() {
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) return fail("cuInit (is an NVIDIA driver installed?)", r);
  int count = 0;
  if ((r = cuDeviceGetCount(&count)) != CUDA_SUCCESS) return fail("cuDeviceGetCount", r);
  for (int i = 0; i < count; i++) {
    CUdevice dev;
    char name[256];
    int major = 0, minor = 0;
    if ((r = cuDeviceGet(&dev, i)) != CUDA_SUCCESS) return fail("cuDeviceGet", r);
    cuDeviceGetName(name, sizeof(name), dev);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    std::printf("device %d: %s, compute capability %d.%d\n", i, name, major, minor);
  }
  if (count == 0) return fail("no CUDA device", CUDA_ERROR_NO_DEVICE);
  CUdevice dev;
  CUcontext ctx;
  if ((r = cuDeviceGet(&dev, 0)) != CUDA_SUCCESS) return fail("cuDeviceGet", r);
  if ((r = cuDevicePrimaryCtxRetain(&ctx, dev)) != CUDA_SUCCESS) return fail("cuDevicePrimaryCtxRetain", r);
  if ((r = cuCtxSetCurrent(ctx)) != CUDA_SUCCESS) return fail("cuCtxSetCurrent", r);
  const char msg[] = "round trip through device memory";
  char back[sizeof(msg)] = {};
  CUdeviceptr p;
  if ((r = cuMemAlloc(&p, sizeof(msg))) != CUDA_SUCCESS) return fail("cuMemAlloc", r);
  if ((r = cuMemcpyHtoD(p, msg, sizeof(msg))) != CUDA_SUCCESS) return fail("cuMemcpyHtoD", r);
  if ((r = cuMemcpyDtoH(back, p, sizeof(msg))) != CUDA_SUCCESS) return fail("cuMemcpyDtoH", r);
  cuMemFree(p);
  cuDevicePrimaryCtxRelease(dev);
  if (std::memcmp(msg, back, sizeof(msg)) != 0) {
    std::fprintf(stderr, "deviceQueryDrv: the buffer came back changed\n");
    return 1;
  }
  std::printf("deviceQueryDrv: %s: PASS\n", msg);
  return 0;
}
