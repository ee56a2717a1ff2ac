"""Times torch.utils.cpp_extension.load_inline on jitbench's kernels (jitbench -phase=source).

  python3 torch_jit.py --phase cold --source silu.cu --build EMPTY_DIR   # nvcc + ninja build + import
  python3 torch_jit.py --phase warm --source silu.cu --build SAME_DIR    # a new process: check + import

Prints "RESULT torch_<phase>_ms <ms>" (the load_inline call alone; importing torch and creating the
CUDA context are outside the timing, as jitbench's are) for jitbench -phase=report.
"""

import argparse
import os
import time

LAUNCHERS = r"""
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>

at::Tensor silu_forward_op(at::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), "x must be a contiguous CUDA tensor");
  auto y = at::empty_like(x);
  long long n = x.numel();
  if (n == 0) return y;
  int threads = 256;
  int blocks = (int)std::min<long long>((n + threads - 1) / threads, 65535);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "silu_forward", [&] {
    silu_forward<scalar_t><<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        y.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), n);
  });
  return y;
}

at::Tensor silu_backward_op(at::Tensor g, at::Tensor x) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous() && g.is_contiguous(), "contiguous CUDA tensors");
  auto gx = at::empty_like(x);
  long long n = x.numel();
  if (n == 0) return gx;
  int threads = 256;
  int blocks = (int)std::min<long long>((n + threads - 1) / threads, 65535);
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "silu_backward", [&] {
    silu_backward<scalar_t><<<blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        gx.data_ptr<scalar_t>(), g.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), n);
  });
  return gx;
}
"""

CPP = """
at::Tensor silu_forward_op(at::Tensor x);
at::Tensor silu_backward_op(at::Tensor g, at::Tensor x);
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--phase", choices=["cold", "warm"], required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    args = ap.parse_args()

    import torch
    from torch.utils.cpp_extension import load_inline

    torch.zeros(1, device="cuda")  # the CUDA context, outside the timing
    with open(args.source) as f:
        source = f.read()
    major, minor = torch.cuda.get_device_capability()
    os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "%d.%d" % (major, minor))  # one arch, as ours
    start = time.perf_counter()
    mod = load_inline(
        name="jitbench_silu",
        cpp_sources=CPP,
        cuda_sources=source + LAUNCHERS,
        functions=["silu_forward_op", "silu_backward_op"],
        build_directory=args.build,
        verbose=False,
    )
    took = time.perf_counter() - start
    x = torch.linspace(-8, 8, 1001, device="cuda", dtype=torch.float32)
    y = mod.silu_forward_op(x)
    torch.testing.assert_close(y, torch.nn.functional.silu(x), rtol=1e-6, atol=1e-6)
    print("| %s | load_inline, %s | %.1f ms |" % (torch.cuda.get_device_name(), args.phase, took * 1e3))
    print("RESULT torch_%s_ms %.3f" % (args.phase, took * 1e3))
    print("RESULT torch %s (CUDA %s, TORCH_CUDA_ARCH_LIST=%s)" % (torch.__version__, torch.version.cuda, os.environ["TORCH_CUDA_ARCH_LIST"]))


if __name__ == "__main__":
    main()
