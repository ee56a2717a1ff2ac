package cuda

// The rule kinds the extension generates or reads, and the name it indexes headers under.
const (
	languageName      = "cuda"
	cuLibraryKind     = "cu_library"
	goCudaLibraryKind = "go_cuda_library"
	ccLibraryKind     = "cc_library"
	ccBinaryKind      = "cc_binary"
)

// requiresCuda is the symbol of rules_cuda_go's defs.bzl that new cc_binary rules use as
// target_compatible_with: a build without CUDA (--config=cpu) compiles no kernels and no main(),
// so it skips the binary instead of failing to link it.
const requiresCuda = "requires_cuda"

// driverLazyTarget is the toolkit target of the driver API loaded on first use: programs that
// call it start without the NVIDIA driver.
const driverLazyTarget = ToolkitRepo + "//:cuda_driver_lazy"

// File kinds by extension: what cu_library compiles (.cu with nvcc; .cc, .cpp, .cxx and .c with
// the C++ toolchain), and the headers it accepts.
var (
	cudaSourceExts = map[string]bool{".cu": true}
	hostSourceExts = map[string]bool{".cc": true, ".cpp": true, ".cxx": true, ".c": true}
	// cc_library's header extensions, and .cuh.
	headerExts = map[string]bool{
		".cuh": true, ".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".h++": true, ".H": true,
		".inc": true, ".inl": true, ".ipp": true, ".tcc": true, ".tlh": true, ".tli": true,
	}
)
