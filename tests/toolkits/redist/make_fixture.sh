#!/usr/bin/env bash
# make_fixture.sh: writes a tiny CUDA "toolkit" in the layout of NVIDIA's redistributable archives
# (https://developer.download.nvidia.com/compute/cuda/redist/) plus its redistrib JSON manifest,
# so the redist path of rules_cuda_go (manifest -> toolkit spec -> one repository per component ->
# @cuda hub and toolchain) is tested offline:
#
#   <component>/linux-x86_64/<component>-linux-x86_64-<version>-archive.tar.xz
#       one top directory <component>-linux-x86_64-<version>-archive/ with bin/ include/ lib/
#   redistrib_fixture.json
#       release_label, ..., <component>: {name, license, version,
#                                          linux-x86_64: {relative_path, sha256, md5, size}}
#
# Components: cuda_nvcc (bin/nvcc: a shell script that answers --version and --list-gpu-code with
# sm_80 and sm_86 only), cuda_cudart (headers, libcudart_static.a, libcudadevrt.a, libculibos.a),
# cuda_cccl (a placeholder thrust/version.h), libcublas (cublas_fixture.h, libcublas_static.a with
# cublas_fixture_answer() == 42, libcublasLt_static.a). No libcudart.so, no cuFFT: tests check
# what a toolkit without them does.
#
# Reproducible for a given C compiler: archives are written with sorted names, mtime 0, owner 0
# and fixed modes, the static libraries with `ar D`. Run it from anywhere:
#   tests/toolkits/redist/make_fixture.sh
# and commit the archives and the JSON it rewrites.
set -euo pipefail

out=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=0.1.1
platform=linux-x86_64
cc=${CC:-cc}
export LC_ALL=C TZ=UTC

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# staticlib DIR NAME C_SOURCE: compiles C_SOURCE into DIR/lib/NAME (one object, deterministic ar).
staticlib() {
  local dir=$1 name=$2 src=$3 obj
  mkdir -p "$work/obj" "$dir/lib"
  obj="${name%.a}.o"
  printf '%s\n' "$src" >"$work/obj/${name%.a}.c"
  (cd "$work/obj" && "$cc" -O2 -fPIC -c "${name%.a}.c" -o "$obj")
  rm -f "$dir/lib/$name"
  ar rcsD "$dir/lib/$name" "$work/obj/$obj"
}

# root COMPONENT: the archive's top directory, created empty.
root() {
  local d="$work/tree/$1-$platform-$version-archive"
  mkdir -p "$d"
  echo "$d"
}

# --- cuda_nvcc ---------------------------------------------------------------------------------
d=$(root cuda_nvcc)
mkdir -p "$d/bin" "$d/include/crt"
cat >"$d/bin/nvcc" <<EOF
#!/bin/sh
# Fixture nvcc (rules_cuda_go tests/toolkits/redist): answers the questions the toolchain
# configuration asks, compiles nothing.
case "\$1" in
  --version)
    echo "nvcc: NVIDIA (R) Cuda compiler driver"
    echo "Cuda compilation tools, release ${version%.*}, V$version"
    echo "Build cuda_fixture.r${version%.*}/compiler.0_0"
    ;;
  --list-gpu-code)
    echo sm_80
    echo sm_86
    ;;
  --list-gpu-arch)
    echo compute_80
    echo compute_86
    ;;
  *)
    echo "nvcc (rules_cuda_go fixture): only --version, --list-gpu-code and --list-gpu-arch" >&2
    exit 1
    ;;
esac
EOF
chmod 755 "$d/bin/nvcc"
echo '/* Fixture: crt/host_config.h placeholder. */' >"$d/include/crt/host_config.h"

# --- cuda_cudart -------------------------------------------------------------------------------
d=$(root cuda_cudart)
mkdir -p "$d/include"
echo '/* Fixture: cuda_runtime.h placeholder. */' >"$d/include/cuda_runtime.h"
cat >"$d/include/cuda.h" <<'EOF'
/* Fixture: a cuda.h with two driver API declarations (the driver stub is generated from them). */
#ifndef FIXTURE_CUDA_H
#define FIXTURE_CUDA_H
typedef int CUresult;
#define CUDAAPI
CUresult CUDAAPI cuInit(unsigned int Flags);
CUresult CUDAAPI cuDriverGetVersion(int *driverVersion);
#endif
EOF
staticlib "$d" libcudart_static.a 'int cudart_fixture_version(void) { return 11; }'
staticlib "$d" libcudadevrt.a 'int cudadevrt_fixture(void) { return 0; }'
staticlib "$d" libculibos.a 'int culibos_fixture(void) { return 0; }'

# --- cuda_cccl ---------------------------------------------------------------------------------
d=$(root cuda_cccl)
mkdir -p "$d/include/thrust"
echo '/* Fixture: thrust/version.h placeholder. */' >"$d/include/thrust/version.h"

# --- libcublas ---------------------------------------------------------------------------------
d=$(root libcublas)
mkdir -p "$d/include"
cat >"$d/include/cublas_fixture.h" <<'EOF'
/* Fixture: the one function of the fixture's libcublas_static.a. */
#ifndef CUBLAS_FIXTURE_H
#define CUBLAS_FIXTURE_H
#ifdef __cplusplus
extern "C" {
#endif
int cublas_fixture_answer(void);
#ifdef __cplusplus
}
#endif
#endif
EOF
staticlib "$d" libcublas_static.a 'int cublas_fixture_answer(void) { return 42; }'
staticlib "$d" libcublasLt_static.a 'int cublasLt_fixture_answer(void) { return 43; }'

# --- archives and manifest ---------------------------------------------------------------------
declare -A names=(
  [cuda_nvcc]="CUDA NVCC"
  [cuda_cudart]="CUDA Runtime (cudart)"
  [cuda_cccl]="CXX Core Compute Libraries"
  [libcublas]="CUDA cuBLAS"
)
json="{"
json+=$'\n  "release_date": "1970-01-01",'
json+=$'\n  "release_label": "'"$version"'",'
json+=$'\n  "release_product": "cuda"'
for c in cuda_cccl cuda_cudart cuda_nvcc libcublas; do
  top="$c-$platform-$version-archive"
  rel="$c/$platform/$top.tar.xz"
  mkdir -p "$out/$c/$platform"
  tar -C "$work/tree" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
    --mode='u+rwX,go+rX,go-w' -cf - "$top" | xz -T1 -9 >"$out/$rel"
  sha=$(sha256sum "$out/$rel" | cut -d' ' -f1)
  md5=$(md5sum "$out/$rel" | cut -d' ' -f1)
  size=$(stat -c %s "$out/$rel")
  json+=$',\n  "'"$c"'": {'
  json+=$'\n    "name": "'"${names[$c]}"'",'
  json+=$'\n    "license": "rules_cuda_go test fixture",'
  json+=$'\n    "version": "'"$version"'",'
  json+=$'\n    "'"$platform"'": {'
  json+=$'\n      "relative_path": "'"$rel"'",'
  json+=$'\n      "sha256": "'"$sha"'",'
  json+=$'\n      "md5": "'"$md5"'",'
  json+=$'\n      "size": "'"$size"'"'
  json+=$'\n    }'
  json+=$'\n  }'
done
json+=$'\n}\n'
printf '%s' "$json" >"$out/redistrib_fixture.json"
echo "wrote $out/redistrib_fixture.json and ${#names[@]} archives"
