// Command gpu-probe prints the compute capability of every GPU the CUDA driver can see, one per
// line ("9.0"), for the local_cuda repository rule. It loads the driver (libcuda.so.1) with dlopen
// and needs no CUDA header or library to build, so it builds with any C compiler and starts on any
// machine; without a driver or a GPU it says why on stderr and exits with status 1, which the rule
// reads as "no GPUs".
package main

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>

// The driver API functions used, with their C types (CUresult and CUdevice are int): declared
// here so that no cuda.h is needed.
typedef int (*probe_init_fn)(unsigned int flags);
typedef int (*probe_count_fn)(int* count);
typedef int (*probe_get_fn)(int* device, int ordinal);
typedef int (*probe_attr_fn)(int* value, int attribute, int device);
typedef int (*probe_error_fn)(int code, const char** text);

// CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR and _MINOR.
enum { probe_attr_major = 75, probe_attr_minor = 76 };

static void* probe_lib;

// Loads the driver; NULL on success, else dlerror's message.
static const char* probe_open(void) {
	probe_lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	return probe_lib == NULL ? dlerror() : NULL;
}

static void* probe_sym(const char* name) { return dlsym(probe_lib, name); }

static int probe_init(void* f) { return ((probe_init_fn)f)(0); }
static int probe_count(void* f, int* n) { return ((probe_count_fn)f)(n); }
static int probe_get(void* f, int* d, int i) { return ((probe_get_fn)f)(d, i); }
static int probe_attr(void* f, int* v, int a, int d) { return ((probe_attr_fn)f)(v, a, d); }
static const char* probe_error(void* f, int code) {
	const char* s = NULL;
	if (f == NULL || ((probe_error_fn)f)(code, &s) != 0 || s == NULL) return "";
	return s;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"unsafe"
)

func main() {
	caps, err := probe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gpu-probe:", err)
		os.Exit(1)
	}
	for _, c := range caps {
		fmt.Println(c)
	}
}

// driver holds the entry points of libcuda.so.1.
type driver struct {
	init, count, get, attr, errName unsafe.Pointer
}

// check turns a CUresult into an error naming the call (nil for CUDA_SUCCESS).
func (d *driver) check(call string, code C.int) error {
	if code == 0 {
		return nil
	}
	if name := C.GoString(C.probe_error(d.errName, code)); name != "" {
		return fmt.Errorf("%s: %s", call, name)
	}
	return fmt.Errorf("%s: CUresult %d", call, int(code))
}

func open() (*driver, error) {
	if msg := C.probe_open(); msg != nil {
		return nil, fmt.Errorf("no NVIDIA driver: %s", C.GoString(msg))
	}
	sym := func(name string) unsafe.Pointer {
		cname := C.CString(name)
		defer C.free(unsafe.Pointer(cname))
		return C.probe_sym(cname)
	}
	d := &driver{init: sym("cuInit"), count: sym("cuDeviceGetCount"), get: sym("cuDeviceGet"), attr: sym("cuDeviceGetAttribute"), errName: sym("cuGetErrorName")}
	if d.init == nil || d.count == nil || d.get == nil || d.attr == nil {
		return nil, errors.New("libcuda.so.1 lacks cuInit, cuDeviceGetCount, cuDeviceGet or cuDeviceGetAttribute")
	}
	return d, nil
}

// probe returns "major.minor" for each visible device, in device order.
func probe() ([]string, error) {
	d, err := open()
	if err != nil {
		return nil, err
	}
	if err := d.check("cuInit", C.probe_init(d.init)); err != nil {
		return nil, err
	}
	var n C.int
	if err := d.check("cuDeviceGetCount", C.probe_count(d.count, &n)); err != nil {
		return nil, err
	}
	caps := make([]string, 0, int(n))
	for i := 0; i < int(n); i++ {
		var dev, major, minor C.int
		if err := d.check("cuDeviceGet", C.probe_get(d.get, &dev, C.int(i))); err != nil {
			return nil, fmt.Errorf("device %d: %w", i, err)
		}
		if err := d.check("cuDeviceGetAttribute", C.probe_attr(d.attr, &major, C.probe_attr_major, dev)); err != nil {
			return nil, fmt.Errorf("device %d: compute capability: %w", i, err)
		}
		if err := d.check("cuDeviceGetAttribute", C.probe_attr(d.attr, &minor, C.probe_attr_minor, dev)); err != nil {
			return nil, fmt.Errorf("device %d: compute capability: %w", i, err)
		}
		caps = append(caps, fmt.Sprintf("%d.%d", int(major), int(minor)))
	}
	return caps, nil
}
