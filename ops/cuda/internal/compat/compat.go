// Package compat explains why the CUDA runtime a binary was built with cannot use the machine's
// NVIDIA driver (cudaErrorInsufficientDriver): which CUDA version the driver supports, which one
// the binary was built with, the oldest driver that runs it, and the --cuda_version to rebuild
// with instead.
package compat

import "fmt"

// minDriver is the oldest Linux driver branch that runs binaries of a CUDA major version (with
// CUDA's minor version compatibility, any minor version of that major): NVIDIA's CUDA
// compatibility tables.
var minDriver = map[int]string{
	11: "450",
	12: "525",
	13: "580",
}

// Pinned is the newest pinned toolkit (--cuda_version, toolchains/versions.bzl) of each CUDA major
// version; compat_test checks it against versions.bzl.
var Pinned = map[int]string{
	12: "12.9",
	13: "13.5",
}

// Version formats a CUDA version as the runtime reports it (12040) as "12.4".
func Version(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// MinDriver returns the oldest driver branch ("580") that runs binaries built with CUDA runtime
// version runtime (13020), or "" when it is not known.
func MinDriver(runtime int) string { return minDriver[runtime/1000] }

// Explain says why a binary built with CUDA runtime version runtime (cudaRuntimeGetVersion, e.g.
// 13020) cannot use a driver that supports CUDA version driver (cudaDriverGetVersion, e.g. 12040;
// 0 when no driver is installed), and what to do.
func Explain(driver, runtime int) string {
	built := "CUDA " + Version(runtime)
	if d := MinDriver(runtime); d != "" {
		built += " (needs driver >= " + d + ")"
	}
	if driver <= 0 {
		return "no NVIDIA driver: libcuda.so.1 could not be loaded; this binary was built with " + built
	}
	rebuild := fmt.Sprintf("rebuild with a CUDA %d.x toolkit (--cuda_version=local)", driver/1000)
	if v, ok := Pinned[driver/1000]; ok && driver/1000 < runtime/1000 {
		rebuild = "rebuild with --cuda_version=" + v
	}
	return fmt.Sprintf("the NVIDIA driver supports CUDA %s but this binary was built with %s; %s or update the driver", Version(driver), built, rebuild)
}
