package cpp

import (
	"path"
	"strings"
)

// SystemHeader reports whether include (as written between the quotes or angle brackets) is a
// header that the compile finds without a dep: the C and C++ standard libraries, POSIX, the GNU C
// library and the Linux kernel's headers, and the headers the host compiler ships (OpenMP's
// omp.h, the x86 and Arm intrinsics, cxxabi.h).
func SystemHeader(include string) bool {
	p := path.Clean(include)
	if dir, _, found := strings.Cut(p, "/"); found {
		return systemDirs[dir] || p == "net/if.h"
	}
	return systemHeaders[p]
}

// systemDirs are directories of system headers: POSIX's and the C library's (sys/, arpa/,
// netinet/), the Linux kernel's (linux/, asm/), and the C++ library's internals and extensions.
var systemDirs = setOf(
	"sys", "bits", "arpa", "netinet", "linux", "asm", "asm-generic", "gnu", "ext", "tr1",
	"experimental",
)

var systemHeaders = setOf(
	// C (C89 to C23).
	"assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
	"limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h",
	"stdatomic.h", "stdbit.h", "stdbool.h", "stdckdint.h", "stddef.h", "stdint.h", "stdio.h",
	"stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h", "threads.h", "time.h", "uchar.h",
	"wchar.h", "wctype.h",
	// C++ (to C++26).
	"algorithm", "any", "array", "atomic", "barrier", "bit", "bitset", "cassert", "ccomplex",
	"cctype", "cerrno", "cfenv", "cfloat", "charconv", "chrono", "cinttypes", "ciso646", "climits",
	"clocale", "cmath", "codecvt", "compare", "complex", "concepts", "condition_variable",
	"coroutine", "csetjmp", "csignal", "cstdalign", "cstdarg", "cstdbool", "cstddef", "cstdint",
	"cstdio", "cstdlib", "cstring", "ctgmath", "ctime", "cuchar", "cwchar", "cwctype", "debugging",
	"deque", "exception", "execution", "expected", "filesystem", "flat_map", "flat_set", "format",
	"forward_list", "fstream", "functional", "future", "generator", "hazard_pointer", "inplace_vector",
	"initializer_list", "iomanip", "ios", "iosfwd", "iostream", "istream", "iterator", "latch",
	"limits", "linalg", "list", "locale", "map", "mdspan", "memory", "memory_resource", "mutex",
	"new", "numbers", "numeric", "optional", "ostream", "print", "queue", "random", "ranges",
	"ratio", "rcu", "regex", "scoped_allocator", "semaphore", "set", "shared_mutex", "simd",
	"source_location", "span", "spanstream", "sstream", "stack", "stacktrace", "stdexcept",
	"stdfloat", "stop_token", "streambuf", "string", "string_view", "strstream", "syncstream",
	"system_error", "text_encoding", "thread", "tuple", "type_traits", "typeindex", "typeinfo",
	"unordered_map", "unordered_set", "utility", "valarray", "variant", "vector", "version",
	// POSIX (the headers outside the directories above).
	"aio.h", "cpio.h", "dirent.h", "dlfcn.h", "fcntl.h", "fmtmsg.h", "fnmatch.h", "ftw.h", "glob.h",
	"grp.h", "iconv.h", "langinfo.h", "libgen.h", "monetary.h", "mqueue.h", "ndbm.h", "netdb.h",
	"nl_types.h", "poll.h", "pthread.h", "pwd.h", "regex.h", "sched.h", "search.h", "semaphore.h",
	"spawn.h", "strings.h", "stropts.h", "syslog.h", "tar.h", "termios.h", "trace.h", "ulimit.h",
	"unistd.h", "utime.h", "utmp.h", "utmpx.h", "wordexp.h",
	// The GNU C library's own.
	"alloca.h", "argp.h", "byteswap.h", "elf.h", "endian.h", "envz.h", "err.h", "error.h",
	"execinfo.h", "features.h", "fts.h", "getopt.h", "ifaddrs.h", "link.h", "malloc.h", "mcheck.h",
	"memory.h", "mntent.h", "obstack.h", "paths.h", "printf.h", "pty.h", "resolv.h", "shadow.h",
	"sysexits.h", "ucontext.h", "values.h",
	// The host compiler's (gcc, clang).
	"omp.h", "cpuid.h", "cxxabi.h", "unwind.h", "immintrin.h", "x86intrin.h", "x86gprintrin.h",
	"mmintrin.h", "xmmintrin.h", "emmintrin.h", "pmmintrin.h", "tmmintrin.h", "smmintrin.h",
	"nmmintrin.h", "wmmintrin.h", "ammintrin.h", "avxintrin.h", "avx2intrin.h", "avx512fintrin.h",
	"fmaintrin.h", "f16cintrin.h", "popcntintrin.h", "arm_neon.h", "arm_fp16.h", "arm_bf16.h",
	"arm_sve.h", "arm_acle.h", "altivec.h",
)

// setOf returns the set of names.
func setOf(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}
