package testkit

import (
	"math"
	"testing"
)

func TestCompare(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		got, want  []float64
		rtol, atol float64
		ok         bool
	}{
		{[]float64{1, 2}, []float64{1, 2}, 0, 0, true},
		{[]float64{1, 2.1}, []float64{1, 2}, 0, 0.05, false},
		{[]float64{1, 2.1}, []float64{1, 2}, 0.05, 0.05, true},
		{[]float64{nan}, []float64{nan}, 0, 0, true},
		{[]float64{nan}, []float64{1}, 1, 1, false},
		{[]float64{1}, []float64{nan}, 1, 1, false},
		{[]float64{inf}, []float64{inf}, 0, 0, true},
		{[]float64{-inf}, []float64{inf}, 1, 1, false},
		{[]float64{1e300}, []float64{inf}, 1, 1, false},
		{[]float64{1}, []float64{1, 2}, 1, 1, false},
	} {
		if err := Compare(c.got, c.want, c.rtol, c.atol); (err == nil) != c.ok {
			t.Errorf("Compare(%v, %v, %v, %v) = %v, want ok %v", c.got, c.want, c.rtol, c.atol, err, c.ok)
		}
	}
}

type name string

func (n name) String() string { return string(n) }

// TestTable: each dtype's bounds grow from one rounding to an op to a chain.
func TestTable(t *testing.T) {
	for _, d := range []name{"float64", "float32", "float16", "bfloat16"} {
		p := For(d)
		if !(p.UnitRoundoff < p.Op && p.Op <= p.Chain) {
			t.Errorf("%s: %+v, want UnitRoundoff < Op <= Chain", d, p)
		}
	}
}
