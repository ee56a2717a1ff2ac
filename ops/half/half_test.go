package half

import (
	"math"
	"math/rand"
	"sort"
	"testing"
)

// format describes a binary floating-point format by its field widths; the test's reference
// decodes and rounds from these alone, independently of the code under test.
type format struct {
	name           string
	expBits, mBits uint
}

var (
	binary16 = format{"Float16", 5, 10}
	bfloat16 = format{"BFloat16", 8, 7}
)

// decode returns the value of a non-NaN bit pattern as a float64 (exact for both formats).
func (f format) decode(bits uint16) float64 {
	sign := 1.0
	if bits>>(f.expBits+f.mBits)&1 == 1 {
		sign = -1
	}
	e := int(bits>>f.mBits) & (1<<f.expBits - 1)
	m := float64(bits & (1<<f.mBits - 1))
	bias := 1<<(f.expBits-1) - 1
	switch {
	case e == 1<<f.expBits-1:
		return sign * math.Inf(1)
	case e == 0:
		return sign * math.Ldexp(m, 1-bias-int(f.mBits))
	default:
		return sign * math.Ldexp(1+m/float64(uint(1)<<f.mBits), e-bias)
	}
}

// positives lists the values of the non-negative patterns 0 .. +Inf in order; for rounding, +Inf
// stands at 2^(emax+1), the next value the format would have with a wider exponent.
func (f format) positives() []float64 {
	inf := uint16(1<<f.expBits-1) << f.mBits
	vals := make([]float64, inf+1)
	for b := uint16(0); b < inf; b++ {
		vals[b] = f.decode(b)
	}
	vals[inf] = math.Ldexp(1, 1<<(f.expBits-1))
	return vals
}

// round is the reference: the pattern nearest to x, ties to the even pattern.
func (f format) round(pos []float64, x float32) uint16 {
	v := math.Abs(float64(x))
	var sign uint16
	if math.Signbit(float64(x)) {
		sign = 1 << (f.expBits + f.mBits)
	}
	if math.IsInf(v, 0) || v >= pos[len(pos)-1] {
		return sign | uint16(len(pos)-1)
	}
	i := sort.SearchFloat64s(pos, v) // pos[i-1] < v <= pos[i]
	if pos[i] == v {
		return sign | uint16(i)
	}
	lo, hi := v-pos[i-1], pos[i]-v
	if lo < hi || lo == hi && (i-1)%2 == 0 {
		return sign | uint16(i-1)
	}
	return sign | uint16(i)
}

// candidates returns float32 values around every representable value and every midpoint of f:
// the midpoint itself (a tie), one float32 ulp either side, and the values themselves.
func (f format) candidates(pos []float64) []float32 {
	var xs []float32
	for i := 0; i+1 < len(pos); i++ {
		mid := float32((pos[i] + pos[i+1]) / 2) // exact: both formats sit inside float32
		for _, x := range []float32{float32(pos[i]), mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, float32(math.Inf(1)))} {
			xs = append(xs, x, -x)
		}
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1<<20; i++ {
		xs = append(xs, math.Float32frombits(r.Uint32()))
	}
	return append(xs, float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, float32(math.Copysign(0, -1)))
}

func TestFloat16MatchesReference(t *testing.T) {
	testFormat(t, binary16, func(x float32) uint16 { return uint16(Float16From(x)) },
		func(b uint16) float32 { return Float16(b).Float32() }, func(b uint16) bool { return Float16(b).IsNaN() })
}

func TestBFloat16MatchesReference(t *testing.T) {
	testFormat(t, bfloat16, func(x float32) uint16 { return uint16(BFloat16From(x)) },
		func(b uint16) float32 { return BFloat16(b).Float32() }, func(b uint16) bool { return BFloat16(b).IsNaN() })
}

func testFormat(t *testing.T, f format, from func(float32) uint16, to func(uint16) float32, isNaN func(uint16) bool) {
	t.Helper()
	expMask := uint16(1<<f.expBits-1) << f.mBits
	// Every pattern: decoding is exact, NaN-ness agrees, and non-NaN values round-trip.
	for b := 0; b < 1<<16; b++ {
		bits := uint16(b)
		nan := bits&expMask == expMask && bits&(1<<f.mBits-1) != 0
		if isNaN(bits) != nan {
			t.Fatalf("%s(%#04x).IsNaN() = %v, want %v", f.name, bits, !nan, nan)
		}
		got := to(bits)
		if nan {
			if got == got {
				t.Fatalf("%s(%#04x) is NaN, its float32 is %v", f.name, bits, got)
			}
			back := from(got)
			if !isNaN(back) || back>>15 != bits>>15 {
				t.Fatalf("NaN %#04x -> %v -> %#04x: want a NaN of the same sign", bits, got, back)
			}
			continue
		}
		if want := f.decode(bits); float64(got) != want || math.Signbit(float64(got)) != math.Signbit(want) {
			t.Fatalf("%s(%#04x).Float32() = %v, want %v", f.name, bits, got, want)
		}
		if back := from(got); back != bits {
			t.Fatalf("%s round trip of %#04x: %v -> %#04x", f.name, bits, got, back)
		}
	}
	// Rounding: every value, every tie and its neighbours, a million random float32s.
	pos := f.positives()
	bad := 0
	for _, x := range f.candidates(pos) {
		got := from(x)
		if x != x {
			if !isNaN(got) || got>>15 != uint16(math.Float32bits(x)>>31) {
				t.Errorf("%s(NaN %#08x) = %#04x: want a NaN of the same sign", f.name, math.Float32bits(x), got)
				bad++
			}
		} else if want := f.round(pos, x); got != want {
			t.Errorf("%s(%v) = %#04x (%v), want %#04x (%v)", f.name, x, got, to(got), want, to(want))
			bad++
		}
		if bad > 10 {
			t.Fatal("too many mismatches")
		}
	}
}

func TestKnownValues(t *testing.T) {
	for _, c := range []struct {
		x    float32
		f16  Float16
		bf16 BFloat16
	}{
		{1, 0x3c00, 0x3f80},
		{-2, 0xc000, 0xc000},
		{65504, 0x7bff, 0x4780},           // Float16's largest finite value
		{65520, 0x7c00, 0x4780},           // its overflow threshold: the tie rounds to +Inf (even)
		{0x1p-24, 0x0001, 0x3380},         // Float16's smallest subnormal
		{0x1p-25, 0x0000, 0x3300},         // half of it: the tie rounds to 0 (even)
		{1 + 0x1p-8, 0x3c04, 0x3f80},      // a BFloat16 tie: rounds down to the even 1.0
		{1 + 3*0x1p-8, 0x3c0c, 0x3f82},    // a BFloat16 tie: rounds up to the even 0x3f82
		{math.MaxFloat32, 0x7c00, 0x7f80}, // BFloat16 overflows to +Inf too
		{float32(math.Inf(-1)), 0xfc00, 0xff80},
	} {
		if got := Float16From(c.x); got != c.f16 {
			t.Errorf("Float16From(%v) = %#04x, want %#04x", c.x, uint16(got), uint16(c.f16))
		}
		if got := BFloat16From(c.x); got != c.bf16 {
			t.Errorf("BFloat16From(%v) = %#04x, want %#04x", c.x, uint16(got), uint16(c.bf16))
		}
	}
}

func TestString(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Float16From(0.1).String(), "0.1"},
		{Float16From(65504).String(), "6.55e+04"},
		{Float16From(1.0 / 3).String(), "0.3333"},
		{BFloat16From(0.1).String(), "0.1"},
		{BFloat16From(1.0 / 3).String(), "0.334"},
		{Float16From(float32(math.NaN())).String(), "NaN"},
		{BFloat16From(float32(math.Inf(-1))).String(), "-Inf"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
}

func TestSlices(t *testing.T) {
	src := []float32{0, 1.5, -3, 1e-8, 1e6}
	h := make([]Float16, len(src))
	b := make([]BFloat16, len(src))
	if err := Float16s(h, src); err != nil {
		t.Fatal(err)
	}
	if err := BFloat16s(b, src); err != nil {
		t.Fatal(err)
	}
	hf, bf := make([]float32, len(src)), make([]float32, len(src))
	if err := Float16sToFloat32s(hf, h); err != nil {
		t.Fatal(err)
	}
	if err := BFloat16sToFloat32s(bf, b); err != nil {
		t.Fatal(err)
	}
	for i := range src {
		if hf[i] != Float16From(src[i]).Float32() || bf[i] != BFloat16From(src[i]).Float32() {
			t.Errorf("element %d: %v -> %v / %v", i, src[i], hf[i], bf[i])
		}
	}
	if err := Float16s(h[:1], src); err == nil {
		t.Error("Float16s with mismatched lengths: no error")
	}
	if err := BFloat16sToFloat32s(bf, b[:2]); err == nil {
		t.Error("BFloat16sToFloat32s with mismatched lengths: no error")
	}
}
