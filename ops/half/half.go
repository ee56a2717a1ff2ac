// Package half holds the two 16-bit floating-point element types of ops tensors, IEEE 754
// binary16 (Float16, CUDA's __half) and bfloat16 (BFloat16, CUDA's __nv_bfloat16), and their
// conversions to and from float32.
//
// Both are stored as their bit patterns (uint16), the layout the CUDA kernels read. Conversion
// from float32 rounds to nearest, ties to even, as the hardware's __float2half_rn and
// __float2bfloat16_rn do: values beyond the largest finite value become ±Inf, values below the
// smallest subnormal become ±0, subnormals are kept, and NaN stays NaN (quieted, sign kept).
// Conversion to float32 is exact.
//
// Float16 conversions are those of github.com/x448/float16; BFloat16 is the upper half of a
// float32, so its conversion is a rounding of the lower 16 bits.
//
// The slice helpers convert whole buffers; ops tensors of these dtypes use them for their
// constructors and Float32s.
package half

import (
	"math"
	"strconv"

	"github.com/x448/float16"
)

// Float16 is an IEEE 754 binary16 value (1 sign bit, 5 exponent bits, 10 mantissa bits), stored
// as its bit pattern. Its largest finite value is 65504, its smallest normal 2^-14 and its
// smallest subnormal 2^-24; it carries about 3.3 decimal digits.
type Float16 uint16

// Float16From returns f rounded to the nearest Float16 (ties to even).
func Float16From(f float32) Float16 { return Float16(float16.Fromfloat32(f).Bits()) }

// Float32 returns h as a float32; the conversion is exact.
func (h Float16) Float32() float32 { return float16.Frombits(uint16(h)).Float32() }

// IsNaN reports whether h is a NaN.
func (h Float16) IsNaN() bool { return h&0x7c00 == 0x7c00 && h&0x03ff != 0 }

// String formats h with the fewest digits that convert back to the same Float16.
func (h Float16) String() string {
	return formatShortest(h.Float32(), func(f float32) bool { return Float16From(f) == h })
}

// BFloat16 is a bfloat16 value (1 sign bit, 8 exponent bits, 7 mantissa bits): the upper 16 bits
// of a float32, stored as their pattern. It has float32's range and about 2.4 decimal digits.
type BFloat16 uint16

// BFloat16From returns f rounded to the nearest BFloat16 (ties to even).
func BFloat16From(f float32) BFloat16 {
	b := math.Float32bits(f)
	if f != f {
		return BFloat16(b>>16 | 0x0040) // quiet NaN, sign and upper payload kept
	}
	// Add half of the dropped part's unit, minus one when the kept part is even, so exact
	// halves round to the even neighbour; a carry into the exponent rounds up correctly,
	// up to +Inf past the largest finite value.
	b += 0x7fff + (b>>16)&1
	return BFloat16(b >> 16)
}

// Float32 returns b as a float32; the conversion is exact.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// IsNaN reports whether b is a NaN.
func (b BFloat16) IsNaN() bool { return b&0x7f80 == 0x7f80 && b&0x007f != 0 }

// String formats b with the fewest digits that convert back to the same BFloat16.
func (b BFloat16) String() string {
	return formatShortest(b.Float32(), func(f float32) bool { return BFloat16From(f) == b })
}

// formatShortest prints f with the fewest significant digits whose value, read back as a float32,
// converts to the same 16-bit value (same reads back): what strconv does for float32, at 16 bits.
func formatShortest(f float32, same func(float32) bool) string {
	if math.IsInf(float64(f), 0) || f != f || f == 0 {
		return strconv.FormatFloat(float64(f), 'g', -1, 32)
	}
	for prec := 1; prec < 9; prec++ {
		s := strconv.FormatFloat(float64(f), 'g', prec, 32)
		if v, err := strconv.ParseFloat(s, 32); err == nil && same(float32(v)) {
			return s
		}
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}
