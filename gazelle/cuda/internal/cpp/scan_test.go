package cpp

import (
	"reflect"
	"testing"
)

func TestScanSource(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want SourceFacts
	}{
		{
			name: "device launch",
			src: `__global__ void child(int* v) {}
__global__ void parent(int* v) {
  if (v) {
    child<<<1, 1>>>(v);
  }
}
void host(int* v) { parent<<<1, 1>>>(v); }
`,
			want: SourceFacts{DeviceLaunches: []int{4}},
		},
		{
			name: "launches in comments, strings, macros and host code are not device launches",
			src: `#define LAUNCH(k) k<<<1, 1>>>()
// k<<<1, 1>>>();
/* k<<<1, 1>>>(); */
const char* s = "k<<<1, 1>>>()";
namespace ns {
struct Runner {
  void run() { k<<<1, 1>>>(); }
};
}  // namespace ns
extern "C" void go() { k<<<1, 1>>>(); }
`,
		},
		{
			name: "__host__ __device__ and template kernels count",
			src: `template <typename T>
__global__ void __launch_bounds__(128) tk(T* v) { k<<<1, 1>>>(); }
__host__ __device__ void hd() {
#if __CUDA_ARCH__
  k<<<1, 1>>>();
#endif
}
`,
			want: SourceFacts{DeviceLaunches: []int{2, 5}},
		},
		{
			name: "extern device variables and device prototypes defined elsewhere",
			src: `extern __device__ int hits;
extern __constant__ float coeff[4];
__device__ float f(float x);
__host__ __device__ int g(int);
__global__ void kernel_proto(int* v);
extern __shared__ float dyn[];
__device__ int defined_here;
extern __device__ int defined_here;
__device__ float h(float);
__device__ float h(float x) { return x; }
`,
			want: SourceFacts{ExternDevice: []int{1, 2, 3, 4}},
		},
		{
			name: "main",
			src: `namespace { int helper() { return 0; } }
int main(int argc, char** argv) { return helper(); }
`,
			want: SourceFacts{DefinesMain: true},
		},
		{
			name: "main inside a namespace or class is not the program's",
			src: `namespace app { int main() { return 0; } }
struct S { static int main() { return 0; } };
int main_loop() { return 0; }
`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ScanSource([]byte(tc.src))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ScanSource = %+v, want %+v", got, tc.want)
			}
		})
	}
}
