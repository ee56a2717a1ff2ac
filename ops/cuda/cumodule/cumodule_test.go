package cumodule_test

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
)

// The fatbin of testdata/scale_add.cu (y = a*x + b): SASS for sm_80 and sm_90, PTX of compute_90.
//
//go:embed testdata/scale_add.fatbin
var image []byte

// requireGPU skips the test when there is no usable CUDA device, after checking that Load says
// so with an error wrapping cuda.ErrNoDevice; any other failure fails the test.
func requireGPU(t *testing.T) {
	t.Helper()
	_, err := cuda.DeviceCount()
	if err == nil {
		return
	}
	if !errors.Is(err, cuda.ErrNoDevice) {
		t.Fatalf("DeviceCount: %v, want nil or an error wrapping cuda.ErrNoDevice", err)
	}
	_, lerr := cumodule.Load(0, image)
	if !errors.Is(lerr, cuda.ErrNoDevice) {
		t.Fatalf("without a device, Load = %v, want an error wrapping cuda.ErrNoDevice", lerr)
	}
	t.Skipf("no CUDA device: %v", lerr)
}

// Errors that need no GPU: an empty image, a missing file, a device that does not exist.
func TestLoadErrors(t *testing.T) {
	if _, err := cumodule.Load(0, nil); err == nil || !strings.Contains(err.Error(), "empty image") {
		t.Errorf("Load(0, nil) = %v, want an error saying the image is empty", err)
	}
	missing := filepath.Join(t.TempDir(), "missing.fatbin")
	if _, err := cumodule.LoadFile(0, missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadFile(%s) = %v, want an error wrapping os.ErrNotExist", missing, err)
	}
	n, _ := cuda.DeviceCount()
	for _, d := range []int{-1, n} {
		_, err := cumodule.Load(d, image)
		if !errors.Is(err, cuda.ErrNoDevice) {
			t.Errorf("Load(%d, image) with %d devices = %v, want an error wrapping cuda.ErrNoDevice", d, n, err)
		} else {
			t.Logf("Load(%d): %v", d, err)
		}
	}
}

func TestLoadAndLaunch(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "scale_add.fatbin")
	if err := os.WriteFile(path, image, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := cumodule.LoadFile(0, path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got := m.Device(); got != ops.CUDA(0) {
		t.Errorf("Device() = %v, want cuda:0", got)
	}
	k, err := m.Kernel("scale_add")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Kernel("no_such_kernel"); err == nil || !strings.Contains(err.Error(), "CUDA_ERROR_NOT_FOUND") {
		t.Errorf("Kernel(no_such_kernel) = %v, want CUDA_ERROR_NOT_FOUND", err)
	}
	if _, err := cumodule.Load(0, []byte("not an image")); err == nil {
		t.Errorf("Load of a text that is no image succeeded")
	} else {
		t.Logf("Load of a bad image: %v", err)
	}
	const n = 1<<20 + 3
	x := tensor(t)(ops.Rand(7, ops.Float32, n))
	xd := tensor(t)(x.To(ctx, ops.CUDA(0)))
	// y starts as the CUDA result of an ops kernel, so ordering with ops/cuda's stream is exercised.
	yd := tensor(t)(ops.AddScalar(ctx, xd, 1))
	if err := k.Launch(ctx, cumodule.Dim3{X: 1024}, cumodule.Dim3{X: 256}, 0, yd, xd, float32(3), float32(0.5), int64(n)); err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, yd, x, float32(1), float32(1), int64(1)); !errors.Is(err, ops.ErrDevice) {
		t.Errorf("Launch with a CPU tensor = %v, want ErrDevice", err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, "oops"); err == nil {
		t.Errorf("Launch with a string argument succeeded")
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: -1}, cumodule.Dim3{X: 1}, 0, yd, xd, float32(1), float32(1), int64(1)); !errors.Is(err, ops.ErrArg) {
		t.Errorf("Launch with a negative grid = %v, want ErrArg", err)
	}
	var noCtx context.Context
	if err := k.Launch(noCtx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, yd, xd, float32(1), float32(1), int64(1)); !errors.Is(err, ops.ErrArg) {
		t.Errorf("Launch with a nil context = %v, want ErrArg", err)
	}
	got := float32s(t, yd)
	want := float32s(t, x)
	for i := range want {
		if w := 3*want[i] + 0.5; got[i] != w {
			t.Fatalf("y[%d] = %v, want %v", i, got[i], w)
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, yd, xd, float32(1), float32(1), int64(1)); !errors.Is(err, cumodule.ErrClosed) {
		t.Errorf("Launch after Close = %v, want ErrClosed", err)
	}
	if _, err := m.Kernel("scale_add"); !errors.Is(err, cumodule.ErrClosed) {
		t.Errorf("Kernel after Close = %v, want ErrClosed", err)
	}
}

// scaleAdd loads the embedded image on device 0 (unloaded when the test ends) and returns its
// scale_add kernel.
func scaleAdd(t *testing.T) *cumodule.Kernel {
	t.Helper()
	m, err := cumodule.Load(0, image)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	k, err := m.Kernel("scale_add")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// LaunchWith: the same kernel with the tensors ordered by cuda.NewLaunch and the parameters given
// as their 8 bytes; the result matches Launch's, and a nil or foreign launch is refused.
func TestLaunchWith(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	k := scaleAdd(t)
	const n = 1<<16 + 5
	x := tensor(t)(ops.Rand(3, ops.Float32, n))
	xd := tensor(t)(x.To(ctx, ops.CUDA(0)))
	yd := tensor(t)(ops.AddScalar(ctx, xd, 2))
	l, err := cuda.NewLaunch(ctx, yd, xd)
	if err != nil {
		t.Fatal(err)
	}
	params := []uint64{uint64(l.Ptr[0]), uint64(l.Ptr[1]), uint64(math.Float32bits(-2)), uint64(math.Float32bits(1)), uint64(n)}
	if err := k.LaunchWith(l, cumodule.Dim3{X: (n + 255) / 256}, cumodule.Dim3{X: 256}, 0, params); err != nil {
		t.Fatal(err)
	}
	got, want := float32s(t, yd), float32s(t, x)
	for i := range want {
		if w := -2*want[i] + 1; got[i] != w {
			t.Fatalf("y[%d] = %v, want %v", i, got[i], w)
		}
	}
	if err := k.LaunchWith(nil, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, params); !errors.Is(err, ops.ErrNil) {
		t.Errorf("LaunchWith(nil) = %v, want ErrNil", err)
	}
	foreign := *l
	foreign.Device = l.Device + 1
	if err := k.LaunchWith(&foreign, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, params); !errors.Is(err, ops.ErrDevice) {
		t.Errorf("LaunchWith of a launch on cuda:%d = %v, want ErrDevice", foreign.Device, err)
	}
	if err := k.LaunchWith(l, cumodule.Dim3{X: -1}, cumodule.Dim3{X: 1}, 0, params); !errors.Is(err, ops.ErrArg) {
		t.Errorf("LaunchWith with a negative grid = %v, want ErrArg", err)
	}
}

// scale_add on a non-blocking stream chosen with cuda.WithStream, between ops on that stream and
// on the default stream.
func TestLaunchOnStream(t *testing.T) {
	requireGPU(t)
	k := scaleAdd(t)
	const n = 1<<20 + 3
	x := tensor(t)(ops.Rand(11, ops.Float32, n))
	s, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bg := context.Background()
	ctx := cuda.WithStream(bg, s)
	xd := tensor(t)(x.To(bg, ops.CUDA(0)))     // default stream
	yd := tensor(t)(ops.AddScalar(ctx, xd, 1)) // on s, after the copy
	// On s: y = 2*x + 1 (after AddScalar's y = x + 1 on s).
	if err := k.Launch(ctx, cumodule.Dim3{X: 1024}, cumodule.Dim3{X: 256}, 0, yd, xd, float32(2), float32(1), int64(n)); err != nil {
		t.Fatal(err)
	}
	zd := tensor(t)(ops.AddScalar(bg, yd, 0.25)) // default stream: waits for s's launch on y
	// A launch on the default stream that writes y, a tensor of s: s's later work waits for it.
	if err := k.Launch(bg, cumodule.Dim3{X: 1024}, cumodule.Dim3{X: 256}, 0, yd, xd, float32(4), float32(0), int64(n)); err != nil {
		t.Fatal(err)
	}
	wd := tensor(t)(ops.AddScalar(ctx, yd, 0.5)) // on s: 4*x + 0.5
	other, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := k.Launch(cuda.WithStream(bg, other), cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, yd, x, float32(1), float32(1), int64(1)); !errors.Is(err, ops.ErrDevice) {
		t.Errorf("Launch with a CPU tensor = %v, want ErrDevice", err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, (*ops.Tensor)(nil)); !errors.Is(err, ops.ErrNil) {
		t.Errorf("Launch with a nil tensor = %v, want ErrNil", err)
	}
	z := float32s(t, zd)
	w := float32s(t, wd)
	want := float32s(t, x)
	for i := range want {
		if v := (2*want[i] + 1) + 0.25; z[i] != v {
			t.Fatalf("on a stream: z[%d] = %v, want %v", i, z[i], v)
		}
		if v := 4*want[i] + 0.5; w[i] != v {
			t.Fatalf("on a stream: w[%d] = %v, want %v", i, w[i], v)
		}
	}
	if err := s.Synchronize(ctx); err != nil {
		t.Fatal(err)
	}
}

// tensor returns a function that fails t on error and returns the tensor otherwise.
func tensor(t *testing.T) func(*ops.Tensor, error) *ops.Tensor {
	return func(x *ops.Tensor, err error) *ops.Tensor {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
}

// float32s returns the values of a float32 tensor.
func float32s(t *testing.T, x *ops.Tensor) []float32 {
	t.Helper()
	v, err := x.Float32s()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var cuobjdump = flag.String("cuobjdump", "", "rootpath of the toolkit's cuobjdump")

// listArchs returns the sm_XY names in cuobjdump's --list-elf or --list-ptx listing of a fatbin
// ("ELF file 1: scale_add.1.sm_80.cubin"; PTX of compute_90 is listed as sm_90).
func listArchs(t *testing.T, tool, mode, path string) []string {
	t.Helper()
	out, err := exec.Command(tool, mode, path).CombinedOutput()
	if err != nil {
		t.Fatalf("cuobjdump %s %s: %v\n%s", mode, path, err, out)
	}
	var got []string
	for _, m := range regexp.MustCompile(`\.(sm_[0-9]+a?)\.(?:cubin|ptx)`).FindAllStringSubmatch(string(out), -1) {
		got = append(got, m[1])
	}
	sort.Strings(got)
	return got
}

// The cu_device_image outputs of check/BUILD.bazel for "8.0;9.0+PTX", by name and content.
func TestDeviceImages(t *testing.T) {
	images := strings.Fields(os.Getenv("DEVICE_IMAGES"))
	if *cuobjdump == "" || len(images) == 0 {
		t.Skip("run under Bazel: bazel test //tests:all")
	}
	runfile := func(p string) string { return filepath.Join(os.Getenv("TEST_SRCDIR"), os.Getenv("TEST_WORKSPACE"), p) }
	tool := runfile(*cuobjdump)
	var names []string
	for _, img := range images {
		names = append(names, filepath.Base(img))
		path := runfile(img)
		switch filepath.Ext(img) {
		case ".fatbin":
			if got := listArchs(t, tool, "--list-elf", path); strings.Join(got, " ") != "sm_80 sm_90" {
				t.Errorf("%s: SASS for %v, want sm_80 sm_90", img, got)
			}
			if got := listArchs(t, tool, "--list-ptx", path); strings.Join(got, " ") != "sm_90" {
				t.Errorf("%s: PTX for %v, want compute_90 (listed as sm_90)", img, got)
			}
		case ".cubin":
			// -elf needs no nvdisasm (-sass runs whichever is on PATH).
			out, err := exec.Command(tool, "-elf", path).CombinedOutput()
			arch := strings.TrimPrefix(strings.Split(filepath.Base(img), ".")[1], "sm_") // scale_add.sm_80.cubin
			if err != nil || !strings.Contains(string(out), " sm="+arch+",") || !strings.Contains(string(out), ".text.scale_add") {
				t.Errorf("cuobjdump -elf %s: %v; want scale_add for sm_%s:\n%.500s", img, err, arch, out)
			}
		case ".ptx":
			text, err := os.ReadFile(path)
			arch := strings.TrimPrefix(strings.Split(filepath.Base(img), ".")[1], "compute_") // scale_add.compute_90.ptx
			if err != nil || !strings.Contains(string(text), ".target sm_"+arch) || !strings.Contains(string(text), ".entry scale_add") {
				t.Errorf("%s: %v; want PTX of scale_add for compute_%s", img, err, arch)
			}
		}
	}
	sort.Strings(names)
	want := "scale_add.compute_80.ptx scale_add.compute_90.ptx scale_add.fatbin scale_add.sm_80.cubin scale_add.sm_90.cubin"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("device images %s, want %s", got, want)
	}
}
