package cuda

import "testing"

func TestScanCode(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      codeFacts
	}{
		{"device lambda", "void f() {\n  auto g = [=] __device__ (int i) { return i; };\n}\n", codeFacts{ExtendedLambda: 2}},
		{"host device lambda", "int x;\nauto g = [] __host__ __device__ (float a) { return a; };\n", codeFacts{ExtendedLambda: 2}},
		{"annotation after parameters", "auto g = [&](int i) mutable __device__ { return i; };\n", codeFacts{ExtendedLambda: 1}},
		{"plain lambda", "auto g = [=](int i) { return i; };\n__device__ int y[4];\n", codeFacts{}},
		{"array then device variable", "int a[3];\n__device__ float b;\n", codeFacts{}},
		{"in a comment", "// [=] __device__ (int i) {}\n/* threadIdx */\n", codeFacts{}},
		{"kernel definition", "#include <x.h>\n__global__ void k(float *p)\n{\n}\n", codeFacts{DeviceCode: 2}},
		{"kernel declaration only", "__global__ void k(float *p);\n", codeFacts{}},
		{"launch", "void f() {\n  k<<<1, 1>>>(p);\n}\n", codeFacts{DeviceCode: 2}},
		{"built-in variable", "\n\ninline __device__ int id() { return threadIdx.x; }\n", codeFacts{DeviceCode: 3}},
		{"in a string", "const char *s = \"threadIdx <<<\";\n", codeFacts{}},
		{"driver call", "#include <cuda.h>\nint main() {\n  cuInit(0);\n}\n", codeFacts{DriverCall: 3}},
		{"driver call after cuComplex", "cuFloatComplex z = cuCaddf(a, b);\nfloat r = cuCrealf(z);\ncuMemAlloc(&p, 4);\n", codeFacts{DriverCall: 3}},
		{"not the driver", "cuDoubleComplex z = cuCmul(a, cuConj(b));\ncuFileDriverOpen();\ncublasCreate(&h);\ncudaMalloc(&p, 4);\n", codeFacts{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := scanCode([]byte(tc.src)); got != tc.want {
				t.Errorf("ScanCode(%q) = %+v, want %+v", tc.src, got, tc.want)
			}
		})
	}
}
