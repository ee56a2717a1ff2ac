"""The pinned CUDA toolkits: every component of each version, by exact version and sha256.

Each component is a list of archives extracted into one repository (@cuda_<version>_<component>,
e.g. @cuda_13_2_cublas) with the layout bin/ include/ lib/ nvvm/ after strip_prefix. Archives are
NVIDIA's wheels on PyPI (files.pythonhosted.org; a wheel is a zip) and, where PyPI has no wheel,
NVIDIA's redistributable tarballs (developer.download.nvidia.com, the redistrib_<version>.json
manifests). The sha256 of every wheel is the one PyPI publishes: `go run ./tools/cudapins check`
verifies them against PyPI, and `go run ./tools/cudapins wheel NAME==VERSION` prints a new entry.

"components_aarch64" lists, in the same shape, the target libraries of linux-aarch64 (sbsa) builds
(--platforms=@rules_cuda_go//platforms:linux_aarch64): NVIDIA's manylinux aarch64 wheels, in
@cuda_<version>_<component>_aarch64 repositories (`cudapins wheel -platform linux_aarch64`).

"supported" is what `nvcc --list-gpu-code` prints for the version, followed by the arch-specific
(sm_XYa) and family-specific (sm_XYf) codes its nvcc accepts, which --list-gpu-code does not print
(found with `nvcc --dryrun -gencode=arch=compute_XYa,code=sm_XYa ...` for every listed sm_XY, as
toolchains/toolkit.ProbeVariants does for a local nvcc); the arch resolver turns it into the table
that makes arches this nvcc cannot build fail at analysis time.
"""

# The toolkit a build uses unless --@rules_cuda_go//toolchains:cuda_version says otherwise.
# CUDA 13.5: binaries built with it run on the R580 driver (CUDA 13.0) through CUDA minor version
# compatibility, for SASS (the sm_XY cubins the arch spec asks for). Its PTX (ISA 9.5) needs a
# 13.5 driver to JIT, so on a 13.0 driver a GPU newer than every sm_XY in the spec cannot run it.
# 13.0 and 13.1 cannot compile against glibc >= 2.41 headers (rsqrt/rsqrtf declared twice); with
# the glibc baseline (toolchains/sysroot, glibc 2.36 headers, the default) they compile on any host.
DEFAULT_CUDA_VERSION = "13.5"

# Shared by several versions: cuDNN 9 and NCCL 2 for CUDA 13, and the cuobjdump and nvdisasm of
# CUDA 13.2 (the first with wheels of them; a newer one reads older images).
_CUDNN_CU13 = [
    {
        "package": "nvidia-cudnn-cu13==9.13.0.50",
        "url": "https://files.pythonhosted.org/packages/cf/68/2712854561170b2a81bea7b6b35cc1ae264d9794c0c218986e5c685d45f7/nvidia_cudnn_cu13-9.13.0.50-py3-none-manylinux_2_27_x86_64.whl",
        "sha256": "2150b4850725d30653ec3e365f0732e3e2e3eb8633cf3bd2d3117628dea8b4f9",
        "strip_prefix": "nvidia/cudnn",
    },
]

_NCCL_CU13 = [
    {
        "package": "nvidia-nccl-cu13==2.27.7",
        "url": "https://files.pythonhosted.org/packages/f1/3a/dabb10684e60edfaf1a1c9984d12a668bc1091582099d4e03ac5b9983b51/nvidia_nccl_cu13-2.27.7-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
        "sha256": "b28a524abd8389b76a4a3f133c76a7aaa7005e47fcaa9d9603b90103927a3f93",
        "strip_prefix": "nvidia/nccl",
    },
]

# The same for linux-aarch64 builds (NVIDIA's aarch64 wheels, components_aarch64).
_CUDNN_CU13_AARCH64 = [
    {
        "package": "nvidia-cudnn-cu13==9.13.0.50",
        "url": "https://files.pythonhosted.org/packages/8a/9c/9e99c00dc23db324244ec257d1e84d79539202ee2f185dee2c1fa97c9549/nvidia_cudnn_cu13-9.13.0.50-py3-none-manylinux_2_27_aarch64.whl",
        "sha256": "33f0aa0b64230101b348648fd0693342188071d3f8a137c0cf50051c24b3584b",
        "strip_prefix": "nvidia/cudnn",
    },
]

_NCCL_CU13_AARCH64 = [
    {
        "package": "nvidia-nccl-cu13==2.27.7",
        "url": "https://files.pythonhosted.org/packages/49/61/2c7762da6febee96341ea17d1f7309ac7559ac3cab00f3f7e1e7bd0e5d00/nvidia_nccl_cu13-2.27.7-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
        "sha256": "5e3cc863e52bf9dd1e3ab1941bddb414098f489ae7342f6b3a274602303da123",
        "strip_prefix": "nvidia/nccl",
    },
]

_CUOBJDUMP = [
    {
        "package": "nvidia-cuda-cuobjdump==13.2.86",
        "url": "https://files.pythonhosted.org/packages/2d/af/ce058647c8819187f3eef60f378fd0132c2b4291c5591c2020599f11669b/nvidia_cuda_cuobjdump-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
        "sha256": "d332c2ffe78e703ca0a3894be927f83124244e2acf0d792b8c12b4362d44d837",
        "strip_prefix": "nvidia/cu13",
    },
]

_NVDISASM = [
    {
        "package": "nvidia-cuda-nvdisasm==13.2.86",
        "url": "https://files.pythonhosted.org/packages/b2/99/754bd821ec8557ae95192c0fc397c1df47be79e983e4458dc16b26310313/nvidia_cuda_nvdisasm-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
        "sha256": "53606e719ecae07a2335f95902d5a1393a0cc1c317499ee7ffcf628a44385f2c",
        "strip_prefix": "nvidia/cu13",
    },
]

# No CUDA 12 wheel carries nvcc (nvidia-cuda-nvcc-cu12 has ptxas only): the redist archive, which
# also holds the PTX compiler library of CUDA 12. sha256 from NVIDIA's redistrib_12.9.1.json.
_NVCC_12_9 = [
    {
        "url": "https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.9.86-archive.tar.xz",
        "sha256": "7a1a5b652e5ef85c82b721d10672fc9a2dbaab44e9bd3c65a69517bf53998c35",
        "strip_prefix": "cuda_nvcc-linux-x86_64-12.9.86-archive",
    },
]

CUDA_TOOLKITS = {
    "13.5": {
        "nvcc_version": "13.5.37",
        # nvcc 13.5.37 --list-gpu-code (run on the downloaded wheel), then the arch-specific (a) and
        # family-specific (f) codes its nvcc accepts (nvcc --dryrun -gencode=arch=compute_XYa,...).
        "supported": ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121", "sm_107", "sm_90a", "sm_100a", "sm_100f", "sm_110a", "sm_110f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f", "sm_107a", "sm_107f"],
        "components": {
            "nvcc": [
                {
                    "package": "nvidia-cuda-nvcc==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/0b/7d/21c734e63423dc53fb1b1ebbb6dee84e9ccafbeeaa30e9ae07e6fdcdd15b/nvidia_cuda_nvcc-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "f5c4f7ead5d964fb4af42bbf1e6d3ec3c1e6e9d83b53749f691d387e7fcaa3a7",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-nvvm==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/23/dc/c7089283bad8e8089825b0cae0898f8a89b5d27bdb2edea5266d259101e1/nvidia_nvvm-13.5.37-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "c41bfa362e407405163f103c2229f0765f8cc2ed7d148b754dc77f228bf7e070",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "crt": [
                {
                    "package": "nvidia-cuda-crt==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/d5/ac/fb3ca43f437405ce33bfd8ba64503148fdc9198265f26f8ecd1bd6e76338/nvidia_cuda_crt-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "e898b7f73d3035fa89915a3f7bf3b54a73e90249746111aed295822c4729bb29",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/0b/7c/14b8f5518f8951e9dca57ea80f44f8ea8bcc8671812e6cc38009f3205e57/nvidia_cuda_runtime-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "df2b79a8852f10d1fef8c848489c49eebb5754051bf870202a862831412b179d",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-profiler-api==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/ee/04/e4dbb79e7b46e82c4ee8d20312f84c4274b05a58d31d05386316ef761e8b/nvidia_cuda_profiler_api-13.5.25-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "1b4c77ff668bdb7bc55331b0b3fb853d3cd13810b19a1b77648e71d11cd360f9",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-culibos==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/df/87/25f989ced3b51d43e6f042a3f99ac4f0ce8d40e9d8181081fae7dcba9e48/nvidia_cuda_culibos-13.5.25-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "42e4116be94977bf674f75f1d2996b86b961cd7b6c098eb92dd66ac81005702a",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cccl": [
                {
                    "package": "nvidia-cuda-cccl==13.3.5.0.6",
                    "url": "https://files.pythonhosted.org/packages/a7/7e/4aa67cca14e0558b5a151a692f5ffe609930cdfc20d16c7a584de68424d4/nvidia_cuda_cccl-13.3.5.0.6-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "d5230098fa2df5021e1a00c0c4eee41797671a91119d31e892463e5ccf3ee326",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/a9/54/db4e7f650746265f61c05cf1f8f556dd8c6739b58c823fbc9a7d6fda3247/nvidia_cuda_nvrtc-13.5.37-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "86b4d68058807988b7d9af5b44917a0601e9c337f35ccd657bfb3c759ff8d8bc",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/cc/1f/2321702b8d60b4b4dd18b957f61612dbac9cb1c07e940cf6582106b7c8b8/nvidia_nvjitlink-13.5.37-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "280d7cb9649704145f074b8dbde500de04ce02d0872e066e20a83c17bcaa93eb",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvtx": [
                {
                    "package": "nvidia-nvtx==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/49/86/24c880ee76cd5e1c7737448adb660cd73a9736a3febbcb6c4b368cf9d62c/nvidia_nvtx-13.5.25-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "f72f21bd338c531afb3f802d03c569e9f7c324739ac332c672a431734d0b5c41",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas==13.10.0.20",
                    "url": "https://files.pythonhosted.org/packages/b4/12/16628161ed8c109c8c73b38167df50cbc630a8a6e6548e2534d461526c3c/nvidia_cublas-13.10.0.20-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "dcc6d63884c53d07e267ce7e6feac17b2538cebaafec5db865736c3e28e4dc84",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft==12.5.0.14",
                    "url": "https://files.pythonhosted.org/packages/c6/8f/f909edaadf9a7acf1b92f805a384b6984193bd595b45005f8e320d4170cf/nvidia_cufft-12.5.0.14-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "b8be26837a5abad2b5b74f3e92dd29f622a42934b355be0961a48712cbba23ad",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand==10.4.5.25",
                    "url": "https://files.pythonhosted.org/packages/12/63/636e5dc9afb2959bfc0042a357d5567358df829b66c96d9fc36d77dc0596/nvidia_curand-10.4.5.25-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "22bb226a857e5888fe6b54ae465fc4371296bcff13a35f79e19691bcf454f529",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse==12.9.4.2",
                    "url": "https://files.pythonhosted.org/packages/30/7a/9928f812629a0e871871f2692cf5618857c51bf7093c7ecf2f78d17f9255/nvidia_cusparse-12.9.4.2-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "072667e58c851a318738f5527a12eb225cbf058803f2ea451c722d8cf8edddec",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver==12.4.1.2",
                    "url": "https://files.pythonhosted.org/packages/78/4f/c5c926dbe0100e485c3ef86022ba3f6799fc57df6f9a73aaadeb7ab368fe/nvidia_cusolver-12.4.1.2-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "b3b8e02fd2f2df869369af075dc3a179d43f6f7b85e94632a7dce556697be044",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvml": [
                {
                    "package": "nvidia-nvml-dev==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/45/fb/ad75b492a5ccdead49262e20a1c4ee64a8de059ebb22759461e33f15ac50/nvidia_nvml_dev-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "7394fcbefa9ba537e8238cbb1caa4cd2db6bbfbff208d217a8a884947113ae6d",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/37/0b/a5a498188dc541d00782394e28be7cbac5065f8334f44c9f7d5f64952456/nvidia_cuda_cupti-13.5.25-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "9dcca41c12a734192b14e7128ae116bc9ce1b9da686e2ebf48ae7a4415f76650",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "opencl": [
                {
                    "package": "nvidia-cuda-opencl==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/f2/03/4f99a6bc0a14794a435b7ed52c035e48b356dada6f4fe17899fb57bdd897/nvidia_cuda_opencl-13.5.25-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "5a0931586885e03b02b7b80e22bb80440f161d1f16e0d97f0094229c8cae696d",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "sanitizer": [
                {
                    "package": "nvidia-cuda-sanitizer-api==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/50/40/7216dde9feb53d8ba09c054006a5a70c0a93fef411d3cc21a2a113c2b1bf/nvidia_cuda_sanitizer_api-13.5.25-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "5df2efbdf605a812c6bac07600dd3d801cb9d334a30376113a6f1e2bc0679f54",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile==1.20.0.107",
                    "url": "https://files.pythonhosted.org/packages/ce/62/4faa8b37960f90d8dc21375dd743a87c502b7d9846feca9883e86f7c15a1/nvidia_cufile-1.20.0.107-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "d134f10ce336c411664d79e3538e4797b38a41d3388edad1ec4a1a8c64c8c03a",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp==13.2.0.93",
                    "url": "https://files.pythonhosted.org/packages/8f/63/091cc7d8529b54b3c8c296bbe71e44fc3b5a4411f1a483fd35b39eead5e5/nvidia_npp-13.2.0.93-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "31e52de156799efed7da0654899c16e7732fb16a5ff9c4a3769894fb6c9d11bc",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/0e/f6/70329fee636243ef2926315a475da76ed38c20a0d0892889037fe3ef57ca/nvidia_nvfatbin-13.5.37-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "35e17e8abcfc1fb5ffe08746ca6bc4e497e9305beab28b17d722a8f2f50f7581",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg==13.3.2.43",
                    "url": "https://files.pythonhosted.org/packages/95/64/143f2a7cb53334deeff9cba24cd3f2e41e88e7853b5edc2e3baffed5fd08/nvidia_nvjpeg-13.3.2.43-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "27f9c4a25a73f1d1ad35c342c8d657c8ff43e23877f338ef15fb2602ac2e5aa8",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvptxcompiler": [
                {
                    "package": "nvidia-nvptxcompiler==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/f2/74/2c3660171b24fd298007fbf4902eac8cb681218800f667bd2297b691af79/nvidia_nvptxcompiler-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "d5cd17d43e4e6370c16b7d998f1bb92988f94b5bd1bf774c60fda5acb9253213",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "tileiras": [
                {
                    "package": "nvidia-cuda-tileiras==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/3a/42/643a26ebebbf6e3867bfb712401fd224c36db2ffff2c864c73c34005e7b8/nvidia_cuda_tileiras-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "d1657aa03ef05bba0ae22baa34728d955fa11524ef3be5a4f6401ef589dba5b5",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudnn": _CUDNN_CU13,
            "nccl": _NCCL_CU13,
            "cuobjdump": [
                {
                    "package": "nvidia-cuda-cuobjdump==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/07/70/2cea1817edfd186883b357cffa78dd47757ba33e4eef3bd0141a4f4b4109/nvidia_cuda_cuobjdump-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "38780fee50863252a0b8926357faa91615ca1c8346490563f33a06100cd73f58",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvdisasm": [
                {
                    "package": "nvidia-cuda-nvdisasm==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/64/4a/c84a14209a549d97831a02d111d943f47c995d4d3beaa3416daa3b534abb/nvidia_cuda_nvdisasm-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "d3fdbdd49fa53e2e4aacd3db8259d052bd2b049ececdcb69e92e083c6728e7ca",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
        },
        # linux-aarch64 (sbsa) builds (--platforms=@rules_cuda_go//platforms:linux_aarch64): the target
        # libraries from NVIDIA's aarch64 wheels (`cudapins wheel -platform linux_aarch64`). nvcc and
        # the other programs stay the x86-64 ones above (they run on the build machine), and so do
        # the headers-only components (crt, cccl, nvtx, nvml's header and link stub). NVIDIA ships
        # no aarch64 wheel of OpenCL 13.5.25; @cuda//:opencl says so in an aarch64 build.
        "components_aarch64": {
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/d4/8d/d162f19bd57e25048b654337c6f811802abe46c3da0f7d7052a2dfd709e8/nvidia_cuda_runtime-13.5.37-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "de2dc5a7367974228b0a69588a9acc9340d3768bef1bf38bf0801eb08497cd2d",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-profiler-api==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/2c/bc/6bbcd3bc73df8d4293e31d951b5743528648c2707dd5224d57f79b4f0338/nvidia_cuda_profiler_api-13.5.25-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "d216926910e2529d881bb3cb5461da397422dcf3668e59c7d081e458dc4cb595",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-culibos==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/e8/fe/c218f8a8e22ddafba25c4347275fad165a24adf254819bfe896b42fa3601/nvidia_cuda_culibos-13.5.25-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "8c9ea8f1f5728bdf0223e0e88512cbb330e1df714df5f90324fa2c2144d50233",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/4e/9f/e8321dfd9dcd923c864213fed3da815da474800ead891a99b6322bdd2039/nvidia_cuda_nvrtc-13.5.37-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "36e4fa2a8ada293f5693d308e531c196ab6f91cf7a0ff479bf96a537d43a6096",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/24/15/dd228f798cd01d7aeaf19d872b2b20f9aeafc1a7d8b6bfaa878b30b8d6f7/nvidia_nvjitlink-13.5.37-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "893f6f9a55b2720ed94913b5ba3332e972da8c78dfa2863d0244403dbd528ffc",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas==13.10.0.20",
                    "url": "https://files.pythonhosted.org/packages/5c/e3/a5a992c3cb1c49201cd4855345dd50ec9e9c075195a0e1e534ff7e914ca5/nvidia_cublas-13.10.0.20-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "c5f3418c0a845232a8cabc58f6fa52cfae7d8bd3680d94c3907aca710fd48d70",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft==12.5.0.14",
                    "url": "https://files.pythonhosted.org/packages/1d/64/a71dc77eaca1623d1ff61f84045f2d21fb50a77796551e062bb8a989326d/nvidia_cufft-12.5.0.14-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "091cde103312d6e09366122fe3f67092dcfd94cc9785029d695d6bcffaa76fdf",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand==10.4.5.25",
                    "url": "https://files.pythonhosted.org/packages/44/33/c8d7fa70f90bde9b88a665734ab5e0440d4749646ac4e8590482760af3c6/nvidia_curand-10.4.5.25-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "07c75d8ba14b627d1a01d2c1bfa1eece88f25d564d3aae7e6b6fb44f7bbec9c1",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse==12.9.4.2",
                    "url": "https://files.pythonhosted.org/packages/1b/71/9cf160aff268332d07b1d46e9009c5f28d626d36bd17d9cdc462a0668384/nvidia_cusparse-12.9.4.2-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "e2ce97f185c9c4b285e4a8fbf02cb96dd1b8dd66736ebe2f0a8da5f6012a4fb7",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver==12.4.1.2",
                    "url": "https://files.pythonhosted.org/packages/80/38/566a08a71dac1eebb21fa439970eab971d372c94633c3b16b851b415a13d/nvidia_cusolver-12.4.1.2-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "1f54c8e0d5b1ebd183b4c5a79f0709fa90241e8254da381ca5b969ee97c8de32",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti==13.5.25",
                    "url": "https://files.pythonhosted.org/packages/62/69/72df99d6efa85017e7ef5404ecf33dffc28be0f876d16db898acab457eae/nvidia_cuda_cupti-13.5.25-py3-none-manylinux_2_25_aarch64.whl",
                    "sha256": "d7e4d908315461b6ecbdadfd3c403cc796ed218b293ad117568c947e811cff28",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile==1.20.0.107",
                    "url": "https://files.pythonhosted.org/packages/16/5d/3f74dc5946edcde8a7e2a12c800b9a35b28d017d88e3387bdeebec749139/nvidia_cufile-1.20.0.107-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "cbd04b0f7b7ae24c1e7c3c52514b80cf89e7157db19c9ae6f3c274fc72af83e6",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp==13.2.0.93",
                    "url": "https://files.pythonhosted.org/packages/0e/a5/ec938af30b326225484d678b5864a9790c891d75482a8d0fabe5175c73ce/nvidia_npp-13.2.0.93-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "d1a0ac8fb8606663c96621add9095621781ba28704b3165f73cb39d171f1c8e8",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/11/96/9df01233b189da27cc59444c44df255ead2720bbd9449435a0766fa98bbb/nvidia_nvfatbin-13.5.37-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "f0f5795d078a00be414e623f39e51e5b6f0dd932762b74db595a2fded3bd2ef0",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg==13.3.2.43",
                    "url": "https://files.pythonhosted.org/packages/26/4e/4df2444e9d05febe0317002a093f4412cd2099d6bd47ba16c0c092ed0328/nvidia_nvjpeg-13.3.2.43-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "3846e2e5d38487fd94cb870d0a9a865782bf9b54cade15467defcf51dc68cc2e",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvptxcompiler": [
                {
                    "package": "nvidia-nvptxcompiler==13.5.37",
                    "url": "https://files.pythonhosted.org/packages/4f/6d/50ee9db275eb42b0dbb1e4b20ea6ea48271a34858e113c680ad615f0b11a/nvidia_nvptxcompiler-13.5.37-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "7bcc66315f1a22e454b1c2fdcfecea9c0473019f740acc59684fb131a6c4547b",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nccl": _NCCL_CU13_AARCH64,
            "cudnn": _CUDNN_CU13_AARCH64,
        },
    },
    "13.2": {
        "nvcc_version": "13.2.86",
        # nvcc 13.2.86 --list-gpu-code (run on the downloaded wheel), then the a and f codes it accepts.
        "supported": ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121", "sm_90a", "sm_100a", "sm_100f", "sm_110a", "sm_110f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"],
        "components": {
            "nvcc": [
                {
                    "package": "nvidia-cuda-nvcc==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/38/7b/ad9b5f84e8820af24afa8db66b5b2785b9bdc3b8724dffcd5e6ef2d40e53/nvidia_cuda_nvcc-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "7d3f56c8d705bad35bbba69eb0470d90856fd5d4dc48c6a6173aaf1e9f887cf5",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-nvvm==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/c7/1d/b50325516e259d4de9fca78b069840d39b6a172c5ba012b88d9985e01fa3/nvidia_nvvm-13.2.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "a9244f3209922d655612c11ebb4117ea1f80983cb2b215c9cccded127282cebc",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "crt": [
                {
                    "package": "nvidia-cuda-crt==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/65/9f/404307a23ffd26ef2e3661bf79ffed0e3ea245a42cb6b74c5e4d1bb93ab2/nvidia_cuda_crt-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "e3ab08801bf9b1e6dc979275d25e816bb5000521b648e19c324d5eef0c79f1da",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/70/c6/8f8c5e893d183082ea78f973aebc7ebc845ee219d68bddac73b0f62490fe/nvidia_cuda_runtime-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "3498247680dfddce31bad102af7e3e26fc795342a3cac64722bb0fa95e7f60f0",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-profiler-api==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/8d/4c/8165509cb48cdfe178ca61636ccdd0e4466c4786acc016720219c814d97e/nvidia_cuda_profiler_api-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "8a99fd469c743e47997062f9c8d3cea691769abee07f83f5e57fbcaf03439317",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-culibos==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/dc/9e/145c505c739f7ce9b592db9174d864109b0379eaa05421a85402f243ef50/nvidia_cuda_culibos-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "3c9504f7f592fbdc655608a44264bdf1cb8f7a110de9fad40f36018303ae65dc",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cccl": [
                {
                    "package": "nvidia-cuda-cccl==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/ae/a4/d4eb1467bc07dd9d3d4291abf7cfd7c353eb522ca1ef7951b0aacb4f932c/nvidia_cuda_cccl-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "35da671cf0cecd3539da214a11bb8e7634366c9e950da9c5feecf6c490a65b20",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/1e/39/c58835ec8392a91b8d7bad83760eafc3085f64788b722ec2b44a27b3ca3e/nvidia_cuda_nvrtc-13.2.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "8111c5130e967b78222ea2124145f8efe9ce201b752b2579a2513100a53be1c5",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/7a/e7/9da8a232ef9e81171fca1a9f61b82f045345e6d7821580388d93fb8f4632/nvidia_nvjitlink-13.2.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "285a9cead9924391588d794400bdd7e8f9d1a277a7d78ed79acfa0ea702a14dd",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvtx": [
                {
                    "package": "nvidia-nvtx==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/49/ee/16bde09927e7ffacd50b117cd7d1dc764d145f03249fc41fdf6dfba3301f/nvidia_nvtx-13.2.86-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "968ce72baee2a01791c7d3254000eac81f24677b0b91c62d21b449a1f309c245",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas==13.4.1.3",
                    "url": "https://files.pythonhosted.org/packages/e1/97/d483a41da34df5c88727c57319576967f6d7befba5028d70928d2999635e/nvidia_cublas-13.4.1.3-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "a5917cb642cfb07f4a0231ee16aec7e2e0357d8cb8b1b78a0c9c68dba3e6afc7",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft==12.2.0.57",
                    "url": "https://files.pythonhosted.org/packages/41/28/868ed0c6ade5e6a75b25166b3cf191f4a2ff58ad618c1e40befb776c97c5/nvidia_cufft-12.2.0.57-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "34da27fadf3979b0b042c43823f0530be8408b86df31ee0108e1ca0b621d4ef6",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand==10.4.2.66",
                    "url": "https://files.pythonhosted.org/packages/c9/ca/9701cd19be422d6c1e1a1473c89b20c88c97a53be9cda3afd9627b482427/nvidia_curand-10.4.2.66-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "9bb3796a2f6223454b2e326e3d7572c1500cfa4d629de827676b4eeecd30ab0c",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse==12.7.10.12",
                    "url": "https://files.pythonhosted.org/packages/bc/46/3a9700cc13f30c9279af9a862363535c814fa27597199b21fd93cad66237/nvidia_cusparse-12.7.10.12-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "25907c75e4db1581685f06f61cc6cdecc04611765516a52373e0a18ebd69fa00",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver==12.2.0.11",
                    "url": "https://files.pythonhosted.org/packages/e4/a4/90f7ade9992190788658c3c285f196fdb9bcc3a5bb93a325c245121d22fd/nvidia_cusolver-12.2.0.11-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "fab5778f6769947389a1a6abc07e635576825a08c0ffc68c3ae7f1392c794b42",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvml": [
                {
                    "package": "nvidia-nvml-dev==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/6b/e8/0913baf92ae5b7967b99e16602118cea519aa8d4ff3c3ad63a2a406ead9a/nvidia_nvml_dev-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "7521790e56a3eae3e3fbdaa555a66ff4159e7bc45b5d5a84f14f2e5951367603",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/b4/76/a10d9fb5d9a0e46d5f95e5520bd1b2d8ad22a9c0a09d2f8c20c5ee842a96/nvidia_cuda_cupti-13.2.86-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "8fa29f15dd8336181f961764d9d95236fc6b931dd0c8fcf8cd70aab0c310b586",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "opencl": [
                {
                    "package": "nvidia-cuda-opencl==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/a7/9e/c33f81f3df0faa3746f46f8489678d9e6a11731b4dc37b735577019fe53b/nvidia_cuda_opencl-13.2.86-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "ae37437067b6c6f127861e893bdecb4d5c653be91298376ea2b1ca44f1d491a4",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "sanitizer": [
                {
                    "package": "nvidia-cuda-sanitizer-api==13.2.87",
                    "url": "https://files.pythonhosted.org/packages/1e/62/7c3456acb41c6cfe6e065913ff6c6cde3d5741c3bf2160a914cfbe7f073a/nvidia_cuda_sanitizer_api-13.2.87-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "bf5a3a9264b8f4bb329893e285350af6a9570a773027df65decba17ac8fa9bab",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile==1.17.1.22",
                    "url": "https://files.pythonhosted.org/packages/23/c5/661a73a9042fc5f81cdd5fe6e89f4170b3b33f7962e709987e2b5e5f1381/nvidia_cufile-1.17.1.22-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "87feaf8c3ad20d3d03a01933181801ff6892bace5c8f0b1e4b48f319d3e62d36",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp==13.1.0.59",
                    "url": "https://files.pythonhosted.org/packages/4e/1c/7b71671dc6aeafc4b0a20a9cdc56fec5a4dac02149cc336e3deecafc3acf/nvidia_npp-13.1.0.59-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "1dba9aeb93d18c7230b2ab8b76ea2fa01c638090c20408bb6d1f1772bbf10fdb",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/d1/93/8a0f23e22f307df6a0334aa2193bd3022005cfc86a651a2bd868be10b425/nvidia_nvfatbin-13.2.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "fb93a5bd4936a3893a5e3d73ad64d5683b4425bb2852fe6c4084715f5b794217",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg==13.1.0.59",
                    "url": "https://files.pythonhosted.org/packages/8c/7f/6eefe12155c38a647297d8cf4a0eb159f3072981bc8dba6ce211cd686936/nvidia_nvjpeg-13.1.0.59-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "331223cfcd8c618d8d6adb56b2c128f8e3406be5fcab5f6aeff9291e18a52a35",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvptxcompiler": [
                {
                    "package": "nvidia-nvptxcompiler==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/c4/47/82a137e0460959ca96cc89eb7b1b7cd3db580e0fdedc2bf11da18ad287ce/nvidia_nvptxcompiler-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "74bd6c49ad45b1245cfee64bde4a9bc3294895d1e902d8247e676147be9730e4",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "tileiras": [
                {
                    "package": "nvidia-cuda-tileiras==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/a4/ec/e01bcfe4f48fabd8fd1af139061a74f92f3b71fe3cac8a64e943157c2585/nvidia_cuda_tileiras-13.2.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "832f360aa8ce478ff878c4e6630cd767349a597ea54382e7c07a835b0daead96",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudnn": _CUDNN_CU13,
            "nccl": _NCCL_CU13,
            "cuobjdump": _CUOBJDUMP,
            "nvdisasm": _NVDISASM,
        },
        # linux-aarch64 target libraries (NVIDIA's aarch64 wheels; see CUDA 13.5's).
        "components_aarch64": {
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/89/d4/fa981071e3d9f29158ca16c69ee617831cd6df4dd47024149c16eec717f8/nvidia_cuda_runtime-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "37844957894bfdecf90243568d21a2cb251b66106915b71459a23c8e6ef2da69",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-profiler-api==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/79/30/f7022cb6c425a21e9288f0e15088410f1e06d7c77e70ea8ce9eb225a68a8/nvidia_cuda_profiler_api-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "934bc3d4afbe1bd7361d613b27208bcc657a349224c49a4d2eee1288ba86d646",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-culibos==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/22/48/a2ce27289e71900ba3ae5f4c8deaa9ba1c2445b2cec230b578ae3a0d632d/nvidia_cuda_culibos-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "f7e236ad34e871b49c46613c96fed7cc1bf7b525b57a944fc49eda859566eb61",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/13/95/029e91026e1d378cba9fb2cdb62394bb15d06de7586bab73d76397df6b7f/nvidia_cuda_nvrtc-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "1e5d7b411a2eb83f5c71c98d58133a763fc9fa86a4241ee320c5c4782d9ad1fd",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/bc/42/2ce8bf278d4c51aaacbde841ed2da56ace8a69b77fdc1c2b6df0369f52cd/nvidia_nvjitlink-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "4c90580631da1670c2cecfbdf8365247c4bfd9eabb4de63f2e3004223d1b7f5f",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas==13.4.1.3",
                    "url": "https://files.pythonhosted.org/packages/d0/a0/5cd9d4b08a8320f7ca150ee0d66c97e98092922e338336cb4b62da7500c3/nvidia_cublas-13.4.1.3-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "4eb1472bf92b741e7cf24da7978dde251b58ddec2092d9f6a04f3623eb4e9a15",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft==12.2.0.57",
                    "url": "https://files.pythonhosted.org/packages/07/8d/f650e6d527f9d22b5ded906c000eaebb037721c06d4ecd906df62f300979/nvidia_cufft-12.2.0.57-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "1ed438568ae1088ba2c25789d10205d4104b8b140b7bd942e39a787947a0fb74",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand==10.4.2.66",
                    "url": "https://files.pythonhosted.org/packages/18/d1/c34def6ae1bb7276cea19e2bcba8a0bb08db8ddbf4fa71f7fd30ab6442f4/nvidia_curand-10.4.2.66-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "cb61a0bb7e7a7446b25bf5ff93aa560009dd738b48ed52f57ae764a4cae37381",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse==12.7.10.12",
                    "url": "https://files.pythonhosted.org/packages/60/35/abbd278fb6d039fcfb5175efa10a21007a11878bec59920d84854b47d766/nvidia_cusparse-12.7.10.12-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "597eff2cd83e3ab1d1e3a0dce9c9c879d77cf64ec2659bfdb5af6a5d02e7aaa9",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver==12.2.0.11",
                    "url": "https://files.pythonhosted.org/packages/60/df/9e6b603f1d64040ce3e076e9bce1b78e2d588d0aabc9783f351cecd861ab/nvidia_cusolver-12.2.0.11-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "8be097fca28de6be0990ab216ee9b804dd51077e1d1d83acf6c9850650bdc64d",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/e1/ab/52414925ea803a5f86b994ae97d951e5943ed27a6f1da4a5c4ac09e308af/nvidia_cuda_cupti-13.2.86-py3-none-manylinux_2_25_aarch64.whl",
                    "sha256": "d9a5c133f73fcb9013f3ada0da6fb54d4117618d81f3f5a0419417ea6ee829d4",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile==1.17.1.22",
                    "url": "https://files.pythonhosted.org/packages/fe/fd/4b4157512a131a51e1514d40d0199b1c5b7b10c6856db274ff22e5fe15be/nvidia_cufile-1.17.1.22-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "bec33d7f1f12691dce330275246587569c2ed90b1ce43b0f94b3e1ce9268744b",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp==13.1.0.59",
                    "url": "https://files.pythonhosted.org/packages/5d/26/4300bba96e5203b4ab913c55ddc0928f9ef8d641d36a5069e5a1bb7884a4/nvidia_npp-13.1.0.59-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "627a584c9fae46f4e8e59717a3f81ac0a2b53b0f36042966aa3a3f6fc34e008a",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/23/37/3f336df0337bee99949ac91b68c92f66ae40c4bedd038be5ae1936bf889f/nvidia_nvfatbin-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "a3b682933d5f559390464899a6f0039e1bb0722235830b27d2ae44af8dc7440a",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg==13.1.0.59",
                    "url": "https://files.pythonhosted.org/packages/8e/ce/7789b4094ac5079ae71a379098940e0956ade31b43508f9e8e51fcdec80f/nvidia_nvjpeg-13.1.0.59-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "44939c98f258dd977d89a76e64f09f38270f510b5ba420f6fc7f6749262c3724",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvptxcompiler": [
                {
                    "package": "nvidia-nvptxcompiler==13.2.86",
                    "url": "https://files.pythonhosted.org/packages/b3/bd/943147034b54cdacb7c596f2a2dd485b4585fb47bc1b425769716b5c04c2/nvidia_nvptxcompiler-13.2.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "dba4b44b784f91938aa27dbaa2536ae60462b5e8cb669fbc13bbc6218275024a",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudnn": _CUDNN_CU13_AARCH64,
            "nccl": _NCCL_CU13_AARCH64,
        },
    },
    "13.0": {
        "nvcc_version": "13.0.88",
        # nvcc 13.0.88 --list-gpu-code (run on the downloaded wheel), then the a and f codes it accepts.
        "supported": ["sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_110", "sm_103", "sm_120", "sm_121", "sm_90a", "sm_100a", "sm_100f", "sm_110a", "sm_110f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"],
        "components": {
            "nvcc": [
                {
                    "package": "nvidia-cuda-nvcc==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/71/8b/a546c12881fffeba927d810598987df25d74b8b241788c7db8dfc93b0173/nvidia_cuda_nvcc-13.0.88-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "56fe502eb77625a12f25172caa3cdddb4e4c8ba2c8c17dba44b164761b380f03",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-nvvm==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/15/b0/ee41e6d1108d959b5097163e7190c2d0f7857dea75606ce358f0275891b4/nvidia_nvvm-13.0.88-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "c5f41ffeb6466944a026dfa5317d7d85355c119bbec279205d22f1869d1054e0",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "crt": [
                {
                    "package": "nvidia-cuda-crt==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/05/69/a1ec4d9f0747d85964206feb47bf359f48a2d6af74c0add8abba6efe3dda/nvidia_cuda_crt-13.0.88-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "2c8043c7c9e02492716426e9919fc78d2c5b3b2a7a768a88e952676b08aa55a4",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.0.96",
                    "url": "https://files.pythonhosted.org/packages/2e/24/d1558f3b68b1d26e706813b1d10aa1d785e4698c425af8db8edc3dced472/nvidia_cuda_runtime-13.0.96-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "7f82250d7782aa23b6cfe765ecc7db554bd3c2870c43f3d1821f1d18aebf0548",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-profiler-api==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/98/f8/c59269f2f0f083d1401b65b9e4930f41d1da7aeeec94bd65a4c98c1c56f8/nvidia_cuda_profiler_api-13.0.85-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "73d2671deac833db6686d6fbde4753fa3a3a497d87540fc246f081f375243f66",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-culibos==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/37/8d/5142ee86b1d5517c942564e6afa5b49751ed4fc22a221152d2acfc7ad667/nvidia_cuda_culibos-13.0.85-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "5c178858405f485367175e14f8a7536af6c86c5c428d25301f2218406c316ba0",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cccl": [
                {
                    "package": "nvidia-cuda-cccl==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/ab/fb/0384bb2129bed6b1b39f8e44471c615ab5ab29b7e55817538a1d390d8f84/nvidia_cuda_cccl-13.0.85-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "e0da7ad981f3a8aff08241b5bfc1af868742a63e2762f53a5171c492ef242649",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/c3/68/483a78f5e8f31b08fb1bb671559968c0ca3a065ac7acabfc7cee55214fd6/nvidia_cuda_nvrtc-13.0.88-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "ad9b6d2ead2435f11cbb6868809d2adeeee302e9bb94bcf0539c7a40d80e8575",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/56/7a/123e033aaff487c77107195fa5a2b8686795ca537935a24efae476c41f05/nvidia_nvjitlink-13.0.88-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "13a74f429e23b921c1109976abefacc69835f2f433ebd323d3946e11d804e47b",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvtx": [
                {
                    "package": "nvidia-nvtx==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/c2/f3/d86c845465a2723ad7e1e5c36dcd75ddb82898b3f53be47ebd429fb2fa5d/nvidia_nvtx-13.0.85-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "4936d1d6780fbe68db454f5e72a42ff64d1fd6397df9f363ae786930fd5c1cd4",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas==13.1.0.3",
                    "url": "https://files.pythonhosted.org/packages/e7/44/423ac00af4dd95a5aeb27207e2c0d9b7118702149bf4704c3ddb55bb7429/nvidia_cublas-13.1.0.3-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "ee8722c1f0145ab246bccb9e452153b5e0515fd094c3678df50b2a0888b8b171",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft==12.0.0.61",
                    "url": "https://files.pythonhosted.org/packages/a8/2f/7b57e29836ea8714f81e9898409196f47d772d5ddedddf1592eadb8ab743/nvidia_cufft-12.0.0.61-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "6c44f692dce8fd5ffd3e3df134b6cdb9c2f72d99cf40b62c32dde45eea9ddad3",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand==10.4.0.35",
                    "url": "https://files.pythonhosted.org/packages/a5/9f/be0a41ca4a4917abf5cb9ae0daff1a6060cc5de950aec0396de9f3b52bc5/nvidia_curand-10.4.0.35-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "1aee33a5da6e1db083fe2b90082def8915f30f3248d5896bcec36a579d941bfc",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse==12.6.3.3",
                    "url": "https://files.pythonhosted.org/packages/fa/18/623c77619c31d62efd55302939756966f3ecc8d724a14dab2b75f1508850/nvidia_cusparse-12.6.3.3-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "2b3c89c88d01ee0e477cb7f82ef60a11a4bcd57b6b87c33f789350b59759360b",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver==12.0.4.66",
                    "url": "https://files.pythonhosted.org/packages/5f/67/cba3777620cdacb99102da4042883709c41c709f4b6323c10781a9c3aa34/nvidia_cusolver-12.0.4.66-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "0a759da5dea5c0ea10fd307de75cdeb59e7ea4fcb8add0924859b944babf1112",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvml": [
                {
                    "package": "nvidia-nvml-dev==13.0.87",
                    "url": "https://files.pythonhosted.org/packages/82/2a/5bdda446d0b5daa832a86b96e626d6ad4bb869fcda4483b2aa0cd970e651/nvidia_nvml_dev-13.0.87-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "082871368275cf6620fc900f55d8eaf2563b263a38a00a5168e9650bce963ba1",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/33/6d/737d164b4837a9bbd202f5ae3078975f0525a55730fe871d8ed4e3b952b0/nvidia_cuda_cupti-13.0.85-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "4eb01c08e859bf924d222250d2e8f8b8ff6d3db4721288cf35d14252a4d933c8",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "opencl": [
                {
                    "package": "nvidia-cuda-opencl==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/ea/15/1d4474b429616b997393fc035668505b7ea1b215ca4d734873fce43b3410/nvidia_cuda_opencl-13.0.85-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "0f321cb327ab8fc34a42638bf55d01e75a5406c0719a6168f51a6e6016932cb8",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "sanitizer": [
                {
                    "package": "nvidia-cuda-sanitizer-api==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/e1/37/2c9ec67a1753c21ecb8944413a4d1373ad90c641ce80ababda22811368c1/nvidia_cuda_sanitizer_api-13.0.85-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "b1efff95f63b6fe40dc83801d598550542364393957775912a1abf396904331c",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile==1.15.1.6",
                    "url": "https://files.pythonhosted.org/packages/3f/70/4f193de89a48b71714e74602ee14d04e4019ad36a5a9f20c425776e72cd6/nvidia_cufile-1.15.1.6-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "08a3ecefae5a01c7f5117351c64f17c7c62efa5fffdbe24fc7d298da19cd0b44",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp==13.0.1.2",
                    "url": "https://files.pythonhosted.org/packages/21/7b/fd07fe0c882df3a82b33b89fec3fba9c0eb9dae428689cc0edcba76cc916/nvidia_npp-13.0.1.2-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "70a53f1eb78a4c4c6a9ad08b50d28fbd1c190e03a4b45a0e0ffbdd794cc919a3",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/07/f8/072b00573d16a42614203b4a47eba76fd95d2d99d321deb534f0b79818c9/nvidia_nvfatbin-13.0.85-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "5e05287b34c02cb6a7c6d9bbb0bbe6da34665fad49878f30e3a722b4747eb676",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg==13.0.1.86",
                    "url": "https://files.pythonhosted.org/packages/b6/e6/9b96fcead7f78a5e2d5d9e726f0d0b1517faf2895146d571e006793180d7/nvidia_nvjpeg-13.0.1.86-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "f658a05c48702219b3db52e194c2ea1ff0ccd3fbf2b75127b4a573074cc22fd5",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvptxcompiler": [
                {
                    "package": "nvidia-nvptxcompiler==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/1e/74/bae92b99db88da1aaba3ec3c49811c7ad4892252aa46f6255814b92e86af/nvidia_nvptxcompiler-13.0.88-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "7579fc2d9928030ee45626694a9062e02a691594c481bf2bbd46cdd090b33fa3",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudnn": _CUDNN_CU13,
            "nccl": _NCCL_CU13,
            # No cuobjdump or nvdisasm wheel before 13.2; newer ones read older images.
            "cuobjdump": _CUOBJDUMP,
            "nvdisasm": _NVDISASM,
        },
        # linux-aarch64 target libraries (NVIDIA's aarch64 wheels; see CUDA 13.5's).
        "components_aarch64": {
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime==13.0.96",
                    "url": "https://files.pythonhosted.org/packages/87/4f/17d7b9b8e285199c58ce28e31b5c5bbaa4d8271af06a89b6405258245de2/nvidia_cuda_runtime-13.0.96-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "ef9bcbe90493a2b9d810e43d249adb3d02e98dd30200d86607d8d02687c43f55",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-profiler-api==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/4b/c5/39090fe323dc87d4c03a05503ef49c64b3fc7012fa1585ef7febdb6522fd/nvidia_cuda_profiler_api-13.0.85-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "b307d61f574ab60666d0b2cb204738338dbd0e05a9fa609eaab198222f0a13c2",
                    "strip_prefix": "nvidia/cu13",
                },
                {
                    "package": "nvidia-cuda-culibos==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/ff/4c/43ba5c9f690071ca12bd9d00023ab7975a64181314cddcb637e33ba09418/nvidia_cuda_culibos-13.0.85-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "0fbc37f8139bafb5d36e57a19d381b0722df18a65d9395eb697420f78cc21aad",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/b7/dc/6bb80850e0b7edd6588d560758f17e0550893a1feaf436807d64d2da040f/nvidia_cuda_nvrtc-13.0.88-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "d27f20a0ca67a4bb34268a5e951033496c5b74870b868bacd046b1b8e0c3267b",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/ab/2c/93c5250e64df4f894f1cbb397c6fd71f79813f9fd79d7cd61de3f97b3c2d/nvidia_nvjitlink-13.0.88-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "e931536ccc7d467a98ba1d8b89ff7fa7f1fa3b13f2b0069118cd7f47bff07d0c",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas==13.1.0.3",
                    "url": "https://files.pythonhosted.org/packages/e1/a5/fce49e2ae977e0ccc084e5adafceb4f0ac0c8333cb6863501618a7277f67/nvidia_cublas-13.1.0.3-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "c86fc7f7ae36d7528288c5d88098edcb7b02c633d262e7ddbb86b0ad91be5df2",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft==12.0.0.61",
                    "url": "https://files.pythonhosted.org/packages/8b/ae/f417a75c0259e85c1d2f83ca4e960289a5f814ed0cea74d18c353d3e989d/nvidia_cufft-12.0.0.61-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "2708c852ef8cd89d1d2068bdbece0aa188813a0c934db3779b9b1faa8442e5f5",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand==10.4.0.35",
                    "url": "https://files.pythonhosted.org/packages/1e/72/7c2ae24fb6b63a32e6ae5d241cc65263ea18d08802aaae087d9f013335a2/nvidia_curand-10.4.0.35-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "133df5a7509c3e292aaa2b477afd0194f06ce4ea24d714d616ff36439cee349a",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse==12.6.3.3",
                    "url": "https://files.pythonhosted.org/packages/f8/94/5c26f33738ae35276672f12615a64bd008ed5be6d1ebcb23579285d960a9/nvidia_cusparse-12.6.3.3-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "80bcc4662f23f1054ee334a15c72b8940402975e0eab63178fc7e670aa59472c",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver==12.0.4.66",
                    "url": "https://files.pythonhosted.org/packages/c8/c3/b30c9e935fc01e3da443ec0116ed1b2a009bb867f5324d3f2d7e533e776b/nvidia_cusolver-12.0.4.66-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "02c2457eaa9e39de20f880f4bd8820e6a1cfb9f9a34f820eb12a155aa5bc92d2",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/2a/2a/80353b103fc20ce05ef51e928daed4b6015db4aaa9162ed0997090fe2250/nvidia_cuda_cupti-13.0.85-py3-none-manylinux_2_25_aarch64.whl",
                    "sha256": "796bd679890ee55fb14a94629b698b6db54bcfd833d391d5e94017dd9d7d3151",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile==1.15.1.6",
                    "url": "https://files.pythonhosted.org/packages/ab/73/cc4a14c9813a8a0d509417cf5f4bdaba76e924d58beb9864f5a7baceefbf/nvidia_cufile-1.15.1.6-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "bdc0deedc61f548bddf7733bdc216456c2fdb101d020e1ab4b88d232d5e2f6d1",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp==13.0.1.2",
                    "url": "https://files.pythonhosted.org/packages/7e/75/ac23a634f828d2c4a82f40875258c893689780d4d83d50998efb17da7f42/nvidia_npp-13.0.1.2-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "80a2ee1298451654e4b8424aaf375bcb2cc43f5007a34c59278daba480cffdb6",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin==13.0.85",
                    "url": "https://files.pythonhosted.org/packages/4e/8f/32a42c76b495773809f6f57bdfd71b863b417e65a308a190063a7fc7d392/nvidia_nvfatbin-13.0.85-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "df13bfe5301c8a4209fccd69b88f2bb2342341b668c9a62d18ff995a6bd87e70",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg==13.0.1.86",
                    "url": "https://files.pythonhosted.org/packages/a0/99/672e8eba24913de4e4c245c66e09b74a14ca5dceac8cf134569ef62fe5e4/nvidia_nvjpeg-13.0.1.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "d4be80fe2ca19d394d0baaac7ca59892fac892741b6f1c3f743b33dfb660a217",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "nvptxcompiler": [
                {
                    "package": "nvidia-nvptxcompiler==13.0.88",
                    "url": "https://files.pythonhosted.org/packages/b2/ad/56d46b0f64411722796bc6f4f83f2bf8b664b1dbdb227ecafc0c7de05df8/nvidia_nvptxcompiler-13.0.88-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "d2a0105fe387448725934437e42b0d490467f3946e984d4daa333a4909113399",
                    "strip_prefix": "nvidia/cu13",
                },
            ],
            "cudnn": _CUDNN_CU13_AARCH64,
            "nccl": _NCCL_CU13_AARCH64,
        },
    },
    "12.9": {
        "nvcc_version": "12.9.86",
        # From NVIDIA's CUDA 12.9 release notes (nvcc 12.9 is not on PyPI, so it was not run here);
        # the a and f codes are those the ptxas of the nvidia-cuda-nvcc-cu12 12.9.86 wheel names.
        "supported": ["sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_101", "sm_103", "sm_120", "sm_121", "sm_90a", "sm_100a", "sm_100f", "sm_101a", "sm_101f", "sm_103a", "sm_103f", "sm_120a", "sm_120f", "sm_121a", "sm_121f"],
        "components": {
            "nvcc": _NVCC_12_9,
            "crt": [
                {
                    "package": "nvidia-cuda-nvcc-cu12==12.9.86",
                    "url": "https://files.pythonhosted.org/packages/25/48/b54a06168a2190572a312bfe4ce443687773eb61367ced31e064953dd2f7/nvidia_cuda_nvcc_cu12-12.9.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "5d6a0d32fdc7ea39917c20065614ae93add6f577d840233237ff08e9a38f58f0",
                    "strip_prefix": "nvidia/cuda_nvcc",
                },
            ],
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/bc/46/a92db19b8309581092a3add7e6fceb4c301a3fd233969856a8cbf042cd3c/nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "25bba2dfb01d48a9b59ca474a1ac43c6ebf7011f1b0b8cc44f54eb6ac48a96c3",
                    "strip_prefix": "nvidia/cuda_runtime",
                },
                {
                    "package": "nvidia-cuda-profiler-api-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/0f/78/b79208d9bde165786f567ad9b3ca47f12833a0f58f710af619e6ae7cfe2c/nvidia_cuda_profiler_api_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "b3d5877b016450beb4d8935299bb86368f234d8789b64e844043b9a65ce31b39",
                    "strip_prefix": "nvidia/cuda_profiler_api",
                },
            ],
            "cccl": [
                {
                    "package": "nvidia-cuda-cccl-cu12==12.9.27",
                    "url": "https://files.pythonhosted.org/packages/18/2a/d4cd8506d2044e082f8cd921be57392e6a9b5ccd3ffdf050362430a3d5d5/nvidia_cuda_cccl_cu12-12.9.27-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "37869e17ce2e1ecec6eddf1927cca0f8c34e64fd848d40453df559091e2d7117",
                    "strip_prefix": "nvidia/cuda_cccl",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc-cu12==12.9.86",
                    "url": "https://files.pythonhosted.org/packages/b8/85/e4af82cc9202023862090bfca4ea827d533329e925c758f0cde964cb54b7/nvidia_cuda_nvrtc_cu12-12.9.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "210cf05005a447e29214e9ce50851e83fc5f4358df8b453155d5e1918094dcb4",
                    "strip_prefix": "nvidia/cuda_nvrtc",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink-cu12==12.9.86",
                    "url": "https://files.pythonhosted.org/packages/46/0c/c75bbfb967457a0b7670b8ad267bfc4fffdf341c074e0a80db06c24ccfd4/nvidia_nvjitlink_cu12-12.9.86-py3-none-manylinux2010_x86_64.manylinux_2_12_x86_64.whl",
                    "sha256": "e3f1171dbdc83c5932a45f0f4c99180a70de9bd2718c1ab77d14104f6d7147f9",
                    "strip_prefix": "nvidia/nvjitlink",
                },
            ],
            "nvtx": [
                {
                    "package": "nvidia-nvtx-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/86/ed/bb230dce7741f2778ba2ae3e8778fdb8bc58eee9fd95f07bf7b2d18e8081/nvidia_nvtx_cu12-12.9.79-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "fec150986817f2b4e7eed72ed059f2dcb9ba3856b9a96134e448eac946a6952f",
                    "strip_prefix": "nvidia/nvtx",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas-cu12==12.9.1.4",
                    "url": "https://files.pythonhosted.org/packages/77/3c/aa88abe01f3be3d1f8f787d1d33dc83e76fec05945f9a28fbb41cfb99cd5/nvidia_cublas_cu12-12.9.1.4-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "453611eb21a7c1f2c2156ed9f3a45b691deda0440ec550860290dc901af5b4c2",
                    "strip_prefix": "nvidia/cublas",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft-cu12==11.4.1.4",
                    "url": "https://files.pythonhosted.org/packages/95/f4/61e6996dd20481ee834f57a8e9dca28b1869366a135e0d42e2aa8493bdd4/nvidia_cufft_cu12-11.4.1.4-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "c67884f2a7d276b4b80eb56a79322a95df592ae5e765cf1243693365ccab4e28",
                    "strip_prefix": "nvidia/cufft",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand-cu12==10.3.10.19",
                    "url": "https://files.pythonhosted.org/packages/31/44/193a0e171750ca9f8320626e8a1f2381e4077a65e69e2fb9708bd479e34a/nvidia_curand_cu12-10.3.10.19-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "49b274db4780d421bd2ccd362e1415c13887c53c214f0d4b761752b8f9f6aa1e",
                    "strip_prefix": "nvidia/curand",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse-cu12==12.5.10.65",
                    "url": "https://files.pythonhosted.org/packages/12/46/b0fd4b04f86577921feb97d8e2cf028afe04f614d17fb5013de9282c9216/nvidia_cusparse_cu12-12.5.10.65-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "73060ce019ac064a057267c585bf1fd5a353734151f87472ff02b2c5c9984e78",
                    "strip_prefix": "nvidia/cusparse",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver-cu12==11.7.5.82",
                    "url": "https://files.pythonhosted.org/packages/33/40/79b0c64d44d6c166c0964ec1d803d067f4a145cca23e23925fd351d0e642/nvidia_cusolver_cu12-11.7.5.82-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "15da72d1340d29b5b3cf3fd100e3cd53421dde36002eda6ed93811af63c40d88",
                    "strip_prefix": "nvidia/cusolver",
                },
            ],
            "nvml": [
                {
                    "package": "nvidia-nvml-dev-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/8d/86/2ebe051124f0910422483094101687a06cf162aea1777338a8cc73a4115a/nvidia_nvml_dev_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "8bb367913c62cb65be9ae386c58dbf573f1f9e2f01cae54abb87bf5f63c6069e",
                    "strip_prefix": "nvidia/nvml_dev",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/c1/2e/b84e32197e33f39907b455b83395a017e697c07a449a2b15fd07fc1c9981/nvidia_cuda_cupti_cu12-12.9.79-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "096bcf334f13e1984ba36685ad4c1d6347db214de03dbb6eebb237b41d9d934f",
                    "strip_prefix": "nvidia/cuda_cupti",
                },
            ],
            "opencl": [
                {
                    "package": "nvidia-cuda-opencl-cu12==12.9.19",
                    "url": "https://files.pythonhosted.org/packages/a3/50/a44e955ff885c669d63fb473fa1feada0ea4bf765424c0fcaa82daf7233c/nvidia_cuda_opencl_cu12-12.9.19-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "16897b9fe8e5849a7550ddd9e1d104bf3950531eb39a9c90a02453f19aa57a68",
                    "strip_prefix": "nvidia/cuda_opencl",
                },
            ],
            "sanitizer": [
                {
                    "package": "nvidia-cuda-sanitizer-api-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/8f/bd/f85c06616a32dad25156cad249a9225de90a04fe440172e094982c00ab3a/nvidia_cuda_sanitizer_api_cu12-12.9.79-py3-none-manylinux_2_25_x86_64.whl",
                    "sha256": "61e6bb66755cd13b89a32f5bda090022ef50c310eec404cc440fae4a3a405ee7",
                    "strip_prefix": "nvidia/cuda_sanitizer_api",
                },
            ],
            "cufile": [
                {
                    "package": "nvidia-cufile-cu12==1.14.1.1",
                    "url": "https://files.pythonhosted.org/packages/ad/28/b960e06d705a440c030edd84e16888ee14c743390bdb2a6368e92ffe8ef8/nvidia_cufile_cu12-1.14.1.1-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "9552e2231792e94b1ff17bc99e958cc0e6bbbaa4a9d91fa2dbeed97716628fe6",
                    "strip_prefix": "nvidia/cufile",
                },
            ],
            "npp": [
                {
                    "package": "nvidia-npp-cu12==12.4.1.87",
                    "url": "https://files.pythonhosted.org/packages/a6/8e/efdf6ffa8a63e0bc8c90d1fcbf0cd5d0e8fcc52e68de12fc79c36b587f0e/nvidia_npp_cu12-12.4.1.87-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "a586435420f08a804ebe83c09f2757d53fdee65364f2129e36d7476ab66c6197",
                    "strip_prefix": "nvidia/npp",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin-cu12==12.9.82",
                    "url": "https://files.pythonhosted.org/packages/05/9d/1dfeac6c0a33c6a27d5da774c95cd5d7afc772c5502d20165f134bd0c523/nvidia_nvfatbin_cu12-12.9.82-py3-none-manylinux1_x86_64.manylinux_2_5_x86_64.whl",
                    "sha256": "16cbfbd12287508212f22f42dff6ff51cf9b528b906f57f615b080da16dea1ea",
                    "strip_prefix": "nvidia/nvfatbin",
                },
            ],
            "nvjpeg": [
                {
                    "package": "nvidia-nvjpeg-cu12==12.4.0.76",
                    "url": "https://files.pythonhosted.org/packages/57/68/d3526394584134a23f2500833c62d3352e1feda7547041f4612b1a183aa3/nvidia_nvjpeg_cu12-12.4.0.76-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "3888f10b32fbd58e80166c48e01073732d752fa5f167b7cb5b9615f1c6375a20",
                    "strip_prefix": "nvidia/nvjpeg",
                },
            ],
            "nvptxcompiler": _NVCC_12_9,
            "cudnn": [
                {
                    "package": "nvidia-cudnn-cu12==9.13.0.50",
                    "url": "https://files.pythonhosted.org/packages/01/5e/0d51f58ecfae1529c07e1793eda8296bd8a9484e1e3e621ff813cc261d35/nvidia_cudnn_cu12-9.13.0.50-py3-none-manylinux_2_27_x86_64.whl",
                    "sha256": "1c4de1b94c30d2411f6a64861b623e7cfb6ea469860c7fa3541476e0a5014ee3",
                    "strip_prefix": "nvidia/cudnn",
                },
            ],
            "nccl": [
                {
                    "package": "nvidia-nccl-cu12==2.27.7",
                    "url": "https://files.pythonhosted.org/packages/c4/cb/2cf5b8e6a669c90ac6410c3a9d86881308492765b6744de5d0ce75089999/nvidia_nccl_cu12-2.27.7-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
                    "sha256": "de5ba5562f08029a19cb1cd659404b18411ed0d6c90ac5f52f30bf99ad5809aa",
                    "strip_prefix": "nvidia/nccl",
                },
            ],
            # No cuobjdump or nvdisasm wheel before 13.2; newer ones read older images.
            "cuobjdump": _CUOBJDUMP,
            "nvdisasm": _NVDISASM,
        },
        # linux-aarch64 target libraries (NVIDIA's aarch64 wheels; see CUDA 13.5's).
        "components_aarch64": {
            "cudart": [
                {
                    "package": "nvidia-cuda-runtime-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/bc/e0/0279bd94539fda525e0c8538db29b72a5a8495b0c12173113471d28bce78/nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "83469a846206f2a733db0c42e223589ab62fd2fabac4432d2f8802de4bded0a4",
                    "strip_prefix": "nvidia/cuda_runtime",
                },
                {
                    "package": "nvidia-cuda-profiler-api-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/e5/88/f1877f0bf352ed81dd4f4564c674a58553b039ce28119322ab958eb0d222/nvidia_cuda_profiler_api_cu12-12.9.79-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "8d79c445609d53a3b461832690cab0105a3f71fd9f17d4a6ed9ae102f4217108",
                    "strip_prefix": "nvidia/cuda_profiler_api",
                },
            ],
            "nvrtc": [
                {
                    "package": "nvidia-cuda-nvrtc-cu12==12.9.86",
                    "url": "https://files.pythonhosted.org/packages/64/eb/c2295044b8f3b3b08860e2f6a912b702fc92568a167259df5dddb78f325e/nvidia_cuda_nvrtc_cu12-12.9.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "096d4de6bda726415dfaf3198d4f5c522b8e70139c97feef5cd2ca6d4cd9cead",
                    "strip_prefix": "nvidia/cuda_nvrtc",
                },
            ],
            "nvjitlink": [
                {
                    "package": "nvidia-nvjitlink-cu12==12.9.86",
                    "url": "https://files.pythonhosted.org/packages/97/bc/2dcba8e70cf3115b400fef54f213bcd6715a3195eba000f8330f11e40c45/nvidia_nvjitlink_cu12-12.9.86-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "994a05ef08ef4b0b299829cde613a424382aff7efb08a7172c1fa616cc3af2ca",
                    "strip_prefix": "nvidia/nvjitlink",
                },
            ],
            "cublas": [
                {
                    "package": "nvidia-cublas-cu12==12.9.1.4",
                    "url": "https://files.pythonhosted.org/packages/82/6c/90d3f532f608a03a13c1d6c16c266ffa3828e8011b1549d3b61db2ad59f5/nvidia_cublas_cu12-12.9.1.4-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "7a950dae01add3b415a5a5cdc4ec818fb5858263e9cca59004bb99fdbbd3a5d6",
                    "strip_prefix": "nvidia/cublas",
                },
            ],
            "cufft": [
                {
                    "package": "nvidia-cufft-cu12==11.4.1.4",
                    "url": "https://files.pythonhosted.org/packages/9b/2b/76445b0af890da61b501fde30650a1a4bd910607261b209cccb5235d3daa/nvidia_cufft_cu12-11.4.1.4-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "1a28c9b12260a1aa7a8fd12f5ebd82d027963d635ba82ff39a1acfa7c4c0fbcf",
                    "strip_prefix": "nvidia/cufft",
                },
            ],
            "curand": [
                {
                    "package": "nvidia-curand-cu12==10.3.10.19",
                    "url": "https://files.pythonhosted.org/packages/14/1c/2a45afc614d99558d4a773fa740d8bb5471c8398eeed925fc0fcba020173/nvidia_curand_cu12-10.3.10.19-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "de663377feb1697e1d30ed587b07d5721fdd6d2015c738d7528a6002a6134d37",
                    "strip_prefix": "nvidia/curand",
                },
            ],
            "cusparse": [
                {
                    "package": "nvidia-cusparse-cu12==12.5.10.65",
                    "url": "https://files.pythonhosted.org/packages/5e/6f/8710fbd17cdd1d0fc3fea7d36d5b65ce1933611c31e1861da330206b253a/nvidia_cusparse_cu12-12.5.10.65-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "221c73e7482dd93eda44e65ce567c031c07e2f93f6fa0ecd3ba876a195023e83",
                    "strip_prefix": "nvidia/cusparse",
                },
            ],
            "cusolver": [
                {
                    "package": "nvidia-cusolver-cu12==11.7.5.82",
                    "url": "https://files.pythonhosted.org/packages/03/99/686ff9bf3a82a531c62b1a5c614476e8dfa24a9d89067aeedf3592ee4538/nvidia_cusolver_cu12-11.7.5.82-py3-none-manylinux_2_27_aarch64.whl",
                    "sha256": "62efa83e4ace59a4c734d052bb72158e888aa7b770e1a5f601682f16fe5b4fd2",
                    "strip_prefix": "nvidia/cusolver",
                },
            ],
            "cupti": [
                {
                    "package": "nvidia-cuda-cupti-cu12==12.9.79",
                    "url": "https://files.pythonhosted.org/packages/b4/78/351b5c8cdbd9a6b4fb0d6ee73fb176dcdc1b6b6ad47c2ffff5ae8ca4a1f7/nvidia_cuda_cupti_cu12-12.9.79-py3-none-manylinux_2_25_aarch64.whl",
                    "sha256": "791853b030602c6a11d08b5578edfb957cadea06e9d3b26adbf8d036135a4afe",
                    "strip_prefix": "nvidia/cuda_cupti",
                },
            ],
            "nvfatbin": [
                {
                    "package": "nvidia-nvfatbin-cu12==12.9.82",
                    "url": "https://files.pythonhosted.org/packages/0e/13/3487c9080fa91dbb9f7520576cdfff1a493da9b58ff393e3547a6310dde0/nvidia_nvfatbin_cu12-12.9.82-py3-none-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
                    "sha256": "92d516bdb9287970cecbf855a0fd39d09599db806148038e1ed2cf0eaef92af2",
                    "strip_prefix": "nvidia/nvfatbin",
                },
            ],
        },
    },
}
