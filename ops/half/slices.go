package half

import "fmt"

// Float16s converts src to Float16 values in dst, element by element; dst and src must have the
// same length.
func Float16s(dst []Float16, src []float32) error {
	if len(dst) != len(src) {
		return fmt.Errorf("half.Float16s: dst has %d elements, src %d: want equal lengths", len(dst), len(src))
	}
	for i, f := range src {
		dst[i] = Float16From(f)
	}
	return nil
}

// BFloat16s converts src to BFloat16 values in dst, element by element; dst and src must have
// the same length.
func BFloat16s(dst []BFloat16, src []float32) error {
	if len(dst) != len(src) {
		return fmt.Errorf("half.BFloat16s: dst has %d elements, src %d: want equal lengths", len(dst), len(src))
	}
	for i, f := range src {
		dst[i] = BFloat16From(f)
	}
	return nil
}

// Float16sToFloat32s converts src to float32 values in dst (exactly); the lengths must match.
func Float16sToFloat32s(dst []float32, src []Float16) error {
	if len(dst) != len(src) {
		return fmt.Errorf("half.Float16sToFloat32s: dst has %d elements, src %d: want equal lengths", len(dst), len(src))
	}
	for i, h := range src {
		dst[i] = h.Float32()
	}
	return nil
}

// BFloat16sToFloat32s converts src to float32 values in dst (exactly); the lengths must match.
func BFloat16sToFloat32s(dst []float32, src []BFloat16) error {
	if len(dst) != len(src) {
		return fmt.Errorf("half.BFloat16sToFloat32s: dst has %d elements, src %d: want equal lengths", len(dst), len(src))
	}
	for i, b := range src {
		dst[i] = b.Float32()
	}
	return nil
}
